"""A rule system's own panels, overlays and extra moves in the window, ``render`` and
``reach`` (issue 12 item 8, gap E7 of games/engine-gaps.md).

The interface is ``tabletop.engine.extras`` (a descriptor's ``window``); its real users
are Omaha's fields of fire, Dogfaces' jet pack and SKIRMISH's hand (tests/twosided). UI
tests go through App.run and pygame's own event queue (SDL dummy, tests/conftest.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pygame
import pytest
from helpers import small_map
from twosided import rules
from twosided.rules import SkirmishRules

import tabletop.games as games
from tabletop.cli import main
from tabletop.engine.extras import (
    LegendEntry,
    Mark,
    NoExtras,
    Overlay,
    Panel,
    Row,
    Seen,
    WindowExtras,
    check_style,
    overlay_named,
    seen_by,
)
from tabletop.engine.game import SideView
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario
from tabletop.games import GROUP, rule_system, rule_systems
from tabletop.games.dogfaces.movement import default_table
from tabletop.games.omaha.fields import field_at
from tabletop.hexgrid import DIRECTIONS, Hex
from tabletop.ui import extras as ui_extras
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.extras import EXTRA_EDGE, FILL_ALPHA, STYLE_COLOURS, ExtrasLayer
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.panels import Panels
from tabletop.ui.render import frame
from tabletop.ui.table import open_game, open_table

SIZE = (1000, 700)
BOARD = small_map(rules.MAP_YAML)
SCENARIO = Scenario("SKIRMISH", BOARD, "twosided", (), frozenset(), Path("skirmish.yaml"))
#: Dogfaces II (Larry): "move 4-5 hexes in a straight line each turn, across any terrain"
#: from 0715 in dogfaces-demo, along the six hex directions (movement.yaml, lines: rows)
LARRY_JETS = ["0212", "0217", "0313", "0317", "0711", "1113", "1117", "1212", "1217"]


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)


def layer_of(app: App) -> ExtrasLayer:
    return next(c for c in app.components if isinstance(c, ExtrasLayer))


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """SKIRMISH installed as a plugin (its descriptor, tests/twosided ``RULES``, through
    the ``tabletop.rules`` entry point), as a third-party rule system would be."""
    ep = EntryPoint("twosided", "twosided:RULES", GROUP)
    monkeypatch.setattr(games, "entry_points", lambda group: [ep] if group == GROUP else [])
    rule_systems.cache_clear()
    yield
    rule_systems.cache_clear()




def skirmish() -> App:
    game = new_game(SCENARIO, SkirmishRules(), seed=1)
    auto_setup(game)
    return open_game(game, SCENARIO, size=SIZE, rules="twosided")


# --- the interface ---------------------------------------------------------------------


def test_the_extras_data_refuse_what_the_window_cannot_draw() -> None:
    """Item 8: rows may be given as text; a style is one of the fixed words or #rrggbb;
    a mark's label is short and on one line; a bad value names itself."""
    assert Panel("p", "P", ["a", Row("b", "strong")]).rows == (Row("a"), Row("b", "strong"))
    assert check_style("#12ab34") == "#12ab34" and check_style("intense") == "intense"
    for bad in (lambda: Mark(Hex(0, 0), "hot"), lambda: Row("x", "loud"), lambda: LegendEntry("#123", "x")):
        with pytest.raises(ValueError, match="is not one of"):
            bad()
    with pytest.raises(ValueError, match="longer than 8"):
        Mark(Hex(0, 0), "good", "a long label")
    with pytest.raises(TypeError, match="must be a Hex"):
        Mark("0101", "good")  # type: ignore[arg-type]
    with pytest.raises(LookupError, match="give one of: a, b"):
        overlay_named([Overlay("a", "A"), Overlay("b", "B")], "c")


def test_each_shipped_user_is_wired_through_its_descriptor() -> None:
    """Item 8: Omaha and Dogfaces name their extras on their descriptor (a Lazy loader);
    what it loads is a WindowExtras."""
    for key_ in ("omaha", "dogfaces"):
        system = rule_system(key_)
        assert system is not None and system.window is not None
        assert isinstance(system.window(), WindowExtras)


def test_a_two_sided_game_gives_the_extras_only_the_side_view(installed: None) -> None:
    """Item 8 with item 2: seen_by gives a two-sided game's extras the side's SideView
    (whose state hides the other hand), a solitaire game's extras its state."""
    app = skirmish()
    seen = seen_by(app.play, "red")
    assert isinstance(seen, SideView) and seen.side == "red"
    assert set(seen.state.hands["blue"]) == {"?"}
    solo = open_table("omaha", size=SIZE)
    assert seen_by(solo.play, None) is solo.play.state


def test_the_hand_panel_never_holds_the_opponents_cards(installed: None) -> None:
    """Item 8 (c): changing a card of blue's hidden hand leaves red's panels exactly as
    they were; changing one of red's own cards changes them (the check can fail)."""
    app = skirmish()
    extras = rule_system("twosided").window()  # type: ignore[union-attr]

    def red_rows() -> list[tuple[str, list[Row]]]:
        return [(p.title, list(p.rows)) for p in extras.panels(seen_by(app.play, "red"), None)]

    before = red_rows()
    assert (
        "red's hand",
        [Row("card 1"), Row("card 2", "strong"), Row("blue holds 2 cards, unseen", "dim")],
    ) in before
    app.play.state.hands["blue"][0] = "3"  # a secret of blue's
    assert red_rows() == before
    app.play.state.hands["red"][0] = "3"  # red's own card
    assert red_rows() != before


# --- the window, through the real loop -------------------------------------------------


def test_each_side_sees_its_own_hand_panel_through_the_loop(installed: None, drawn: list[str]) -> None:
    """Item 8 (c) in the window: hot-seat, at each side's screen the docked panel shows
    that side's cards and never the other's hand; the extras are asked when the game
    changes, not every frame; the panel sits in the right-hand column, clear of the
    other boxes."""
    app = skirmish()
    layer = layer_of(app)
    panel = next(c for c in app.components if isinstance(c, GamePanel))
    frames: list[dict[str, Any]] = []
    bids = {"red": "2", "blue": "1"}

    def on_frame(a: App) -> None:
        game = a.play
        frames.append({
            "side": a.at_screen, "handoff": a.handoff, "text": list(drawn),
            "hand": list(game.state.hands.get(str(a.at_screen), [])), "boxes": dict(layer.boxes),
            "held": {s: len(h) for s, h in game.state.hands.items()},
        })  # fmt: skip
        drawn.clear()
        actor = game.actor()
        if a.handoff is not None:
            pygame.event.post(key(pygame.K_SPACE))
        elif game.state.phase == "act" and actor != "auto":
            a.running = False
        elif actor == "auto":
            pygame.event.post(key(pygame.K_n))
        else:
            row = next(r for r, act in panel.buttons if act.get("action", {}).get("card") == bids[str(actor)])
            pygame.event.post(click(row.center))

    app.run(fps=1000, frames=80, on_frame=on_frame)
    shown = [f for f in frames if f["handoff"] is None and f["side"] is not None]
    assert {f["side"] for f in shown} == {"red", "blue"}
    for f in shown:
        side, foe = f["side"], rules.other(f["side"])
        assert f"{side}'s hand" in f["text"] and f"{foe}'s hand" not in f["text"]
        assert sorted(t for t in f["text"] if t.startswith("card ")) == sorted(f"card {c}" for c in f["hand"])
        assert f"{foe} holds {f['held'][foe]} cards, unseen" in f["text"]
        box = f["boxes"]["panel:hand-" + side]
        assert box.left >= SIZE[0] - 8 - ui_extras.WIDTH
    asked = layer.asked
    assert asked < len(frames)  # once per change, not once a frame
    app.run(fps=1000, frames=5)  # nothing happens: nothing is asked
    assert layer.asked == asked


def test_fields_of_fire_are_switched_on_with_j_through_the_loop(drawn: list[str]) -> None:
    """Item 8 (a): in omaha, j shows the fields of fire: a hex in WN 70's
    intense field is tinted with the intense colour over what was drawn there, and the
    legend stands in the right-hand column; the key is in F1's list of shortcuts."""
    app = open_table("omaha", size=SIZE)
    h = app.board.hex_of("2411")
    assert field_at(app.board, h)[0] == ("wn-70", "intense")
    seen: dict[str, Any] = {}

    def sample(a: App) -> tuple[int, int, int]:
        surface = pygame.display.get_surface()
        a.camera.center = a.view.center(h)
        a.draw(surface)
        x, y = a.screen_of(h)
        s = a.camera.scale  # toward the hex's lower-left corner: clear of pictogram and label
        return tuple(surface.get_at((round(x - 0.3 * s), round(y + 0.45 * s))))[:3]  # type: ignore[return-value]

    def on_frame(a: App) -> None:
        count = seen["frames"] = seen.get("frames", 0) + 1
        if count == 1:
            seen["before"] = sample(a)
            pygame.event.post(key(pygame.K_j))
        elif count == 3:
            drawn.clear()
            seen["after"] = sample(a)
            seen["text"] = list(drawn)

    app.run(fps=1000, frames=4, on_frame=on_frame)
    a = FILL_ALPHA / 255
    want = [b * (1 - a) + c * a for b, c in zip(seen["before"], STYLE_COLOURS["intense"], strict=True)]
    assert all(abs(got - w) <= 3 for got, w in zip(seen["after"], want, strict=True)), (seen, want)
    assert "intense fire" in seen["text"] and "Fields of fire: on" in app.messages
    legend = layer_of(app).boxes["overlay"]
    assert legend.left >= SIZE[0] - 8 - ui_extras.WIDTH
    assert ("j", ui_extras.SHORTCUTS[0][1]) in app.all_shortcuts()


class Wordy(NoExtras):
    """One panel of long rows, to see them wrapped, and folded."""

    ROW = "a row far longer than the column is wide, with a_word_that_is_longer_than_the_column_itself"

    def panels(self, seen: Seen, selected: str | None) -> list[Panel]:
        return [
            Panel("long", "A panel with a long title that must wrap too", [self.ROW, f"selected: {selected}"])
        ]


def test_a_panel_wraps_its_rows_and_folds_on_a_click_and_with_i(drawn: list[str]) -> None:
    """Item 8: rows wrap to the column, every character kept, none cut with an
    ellipsis; a click on the title folds the panel, i unfolds it; a change of the
    selection asks the extras again (a model sheet follows the selected unit)."""
    # seeded dice: the opening Player 1 roll (a reroll on a tie) sets the dice box's
    # height, and so the room left in the column; secret dice made this test flaky
    app = open_table("dogfaces-demo", size=SIZE, seeded_dice=True)
    layer = ExtrasLayer(Wordy())
    app.components[app.components.index(layer_of(app))] = layer
    app.selected = "larry"
    surface = pygame.Surface(SIZE)
    app.update(0.0)
    drawn.clear()
    app.draw(surface)
    texts = [t for t in drawn if t.strip()]
    title = "A panel with a long title that must wrap too"
    ours = [t for t in texts if t.rstrip("\u2026") and (t.rstrip("\u2026") in Wordy.ROW or t.rstrip("\u2026") in title)]
    assert not [t for t in ours if "\u2026" in t]  # the panel's own text: wrapped, never cut
    pieces = [t for t in texts if len(t) > 3 and t in Wordy.ROW]
    assert len(pieces) > 2 and "".join(pieces).replace(" ", "") == Wordy.ROW.replace(" ", "")
    inner = ui_extras.WIDTH - 2 * ui_extras.PAD
    assert all(theme.font(ui_extras.SMALL).size(t)[0] <= inner for t in pieces)
    assert "selected: larry" in texts
    box = layer.boxes["panel:long"]
    others = [r for n, r in next(c for c in app.components if isinstance(c, Panels)).boxes.items()]
    assert box.right <= SIZE[0] and box.collidelist(others) < 0
    title = layer.titles["long"]
    app.handle(click(title.center))
    drawn.clear()
    app.draw(surface)
    assert "selected: larry" not in drawn and "2 rows, folded: click to open" in drawn
    app.handle(key(pygame.K_i))
    drawn.clear()
    app.draw(surface)
    assert "selected: larry" in drawn


# --- render and reach --------------------------------------------------------------------


def test_render_extra_draws_the_fields_of_fire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 8 (a), render: --extra fields tints a hex of WN 70's intense field with the
    intense colour over the plain render's pixel."""
    size = "1000x700"
    plain, fields = tmp_path / "plain.png", tmp_path / "fields.png"
    assert main(["render", "omaha", "--out", str(plain), "--size", size]) == 0
    assert main(["render", "omaha", "--extra", "fields", "--out", str(fields), "--size", size]) == 0
    app = open_table("omaha", size=SIZE)
    frame(app, SIZE)  # the same fit as render's
    h = app.board.hex_of("2411")
    x, y = app.screen_of(h)
    at = (round(x - 0.3 * app.camera.scale), round(y + 0.45 * app.camera.scale))
    before = pygame.image.load(str(plain)).get_at(at)[:3]
    after = pygame.image.load(str(fields)).get_at(at)[:3]
    a = FILL_ALPHA / 255
    want = [b * (1 - a) + c * a for b, c in zip(before, STYLE_COLOURS["intense"], strict=True)]
    assert all(abs(got - w) <= 3 for got, w in zip(after, want, strict=True)), (before, after, want)


def test_render_refuses_an_unknown_extra_naming_the_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 8: an unknown --extra is one line naming the keys there are, exit 2, no file."""
    out = tmp_path / "x.png"
    assert main(["render", "omaha", "--extra", "feilds", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "omaha: --extra: no overlay 'feilds'; give one of: fields"
    assert main(["render", "belleau-wood-demo", "--extra", "fields", "--out", str(out)]) == 2
    assert "no overlay 'fields'; give one of: sectors" in capsys.readouterr().err  # Devil Dogs' own (issue 15)
    assert main(["render", "dogfaces", "--extra", "fields", "--out", str(out)]) == 2
    assert "give one of: ranges, overwatch" in capsys.readouterr().err
    assert not out.exists()


def test_reach_lists_larrys_jet_pack_landings_beside_his_walk(capsys: pytest.CaptureFixture[str]) -> None:
    """Dogfaces II (Larry: "move 4-5 hexes in a straight line each turn, across any
    terrain"): reach lists the landing hexes as extra moves with the flight as the
    reason, apart from the walk; Brett has none."""
    assert main(["reach", "dogfaces-demo", "larry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(data["extra"]) == LARRY_JETS
    assert not set(data["extra"]) & set(data["reachable"])
    assert all(why.startswith("jet pack: ") and "Dogfaces II" in why for why in data["extra"].values())
    # the same hexes by hand: 4 or 5 steps along each direction, on the map, not water
    opened = open_table("dogfaces-demo", size=SIZE, seeded_dice=True)
    board, start = opened.board, opened.state.piece("larry").hex
    water = {t for t, cost in default_table().terrain.items() if cost.soldier is None}
    by_hand = {
        board.label(start + d.scale(k))
        for d in DIRECTIONS
        for k in (4, 5)
        if board.grid.contains(start + d.scale(k)) and board.terrain[start + d.scale(k)] not in water
    }
    assert by_hand == set(LARRY_JETS)
    assert main(["reach", "dogfaces-demo", "larry"]) == 0
    assert "  0711  extra: jet pack: 4 hexes" in capsys.readouterr().out
    assert main(["reach", "dogfaces-demo", "brett", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["extra"] == {}


def test_the_reach_overlay_outlines_the_jet_pack_hexes_and_says_why(drawn: list[str]) -> None:
    """Dogfaces II in the window: with Larry selected and the reach overlay on (c), each
    landing hex is outlined in the extra-move colour, and pointing at one tells the
    flight."""
    app = open_table("dogfaces-demo", size=SIZE, seeded_dice=True)
    larry = app.state.piece("larry")
    target = app.board.hex_of("0711")
    seen: dict[str, Any] = {}

    def on_frame(a: App) -> None:
        count = seen["frames"] = seen.get("frames", 0) + 1
        if count == 1:
            a.camera.center = a.view.center(larry.hex)
            x, y = (round(v) for v in a.screen_of(larry.hex))
            pygame.event.post(click((x, y)))
        elif count == 2:
            pygame.event.post(key(pygame.K_c))
        elif count == 3:
            x, y = (round(v) for v in a.screen_of(target))
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))
            )
        elif count == 5:
            surface = pygame.display.get_surface()
            drawn.clear()
            a.draw(surface)
            seen["text"] = list(drawn)
            # another landing, not hovered, left of the pointer (the flight's words sit right of it)
            corners = a.view.layout.corners(app.board.hex_of("0313"))
            (x0, y0), (x1, y1) = (a.camera.to_screen(*corners[i]) for i in (2, 3))
            seen["edge"] = tuple(surface.get_at((round((x0 + x1) / 2), round((y0 + y1) / 2))))[:3]

    app.run(fps=1000, frames=6, on_frame=on_frame)
    assert app.selected == "larry"
    assert seen["edge"] == EXTRA_EDGE
    assert any(t.startswith("larry: jet pack: 4 hexes in direction") for t in seen["text"])
    assert "Beyond the movement reach" in " ".join(seen["text"])  # the title, wrapped to the column


def test_the_help_lists_the_extras_keys_once() -> None:
    """Item 8: j and i are in F1's list, each once, and no other part uses them."""
    app = open_table("omaha", size=SIZE)
    pan = next(c for c in app.components if isinstance(c, Panels))
    pan.help_open = True
    app.draw(pygame.Surface(SIZE))
    mine = set(ui_extras.SHORTCUTS)
    assert [row for row in pan.help_rows if row in mine] == ui_extras.SHORTCUTS
    others = {t for k, _ in pan.help_rows if (k, _) not in mine for t in re.split(r"\s*[/,]\s*", k)}
    assert not others & {"j", "i"}


def test_the_fields_overlay_marks_each_hex_with_its_strongest_fire() -> None:
    """Item 8 (a): one mark per hex in any field, styled by its strongest fire (the
    fields' own order: intense, steady, sporadic) and labelled with the number of
    positions reaching it when more than one does; asked twice, the same overlay."""
    app = open_table("omaha", size=SIZE)
    extras = rule_system("omaha").window()  # type: ignore[union-attr]
    (overlay,) = extras.overlays(app.play.state)
    board = app.board
    want = {
        h: (f[0][1], str(len(f)) if len(f) > 1 else "")
        for h in board.grid.hexes()
        if (f := field_at(board, h))
    }
    assert {m.hex: (m.style, m.label) for m in overlay.marks} == want
    assert {s for s, _ in want.values()} == {"intense", "steady", "sporadic"}
    assert extras.overlays(app.play.state)[0] is overlay


def test_letters_typed_into_the_counter_finder_are_not_the_extras_keys() -> None:
    """j and i are text while the counter finder (f) is open: no overlay switches."""
    app = open_table("omaha", size=SIZE)
    app.handle(key(pygame.K_f))
    app.handle(key(pygame.K_j))
    assert layer_of(app).shown is None
    app.handle(key(pygame.K_ESCAPE))
    app.handle(key(pygame.K_j))
    assert layer_of(app).shown == "fields"
