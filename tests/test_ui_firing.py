"""Sight, fire and its preview in the window (issue 13 findings 8, 11, 12 and 2).

The window tests post events to pygame's own queue and let ``App.run`` deliver them, as
tests/test_ui_loop.py does; the rules' side is checked at the function level.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from tabletop.cli import main
from tabletop.engine.actions import END_PHASE, Where, where
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.games.dog_sector import american, hits
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.firing import FIRE, Firing
from tabletop.ui.overlays import LOS, _grazed_side
from tabletop.ui.table import open_table

SIZE = (1280, 800)
Script = Callable[[App], list[pygame.event.Event]]


def run_loop(app: App, script: Script, *, after: int = 4) -> None:
    """Frame 1 draws the table; then ``script(app)``'s events are posted one a frame
    through pygame's queue, and a few more frames run after the last."""
    events: list[pygame.event.Event] = []
    frames = {"n": 0, "last": 10_000}

    def on_frame(a: App) -> None:
        frames["n"] += 1
        if frames["n"] == 1:
            events.extend(script(a))
            frames["last"] = 1 + len(events) + after
        if events:
            pygame.event.post(events.pop(0))

    app.running = True
    app.run(fps=1000, frames=60, on_frame=lambda a: (on_frame(a), _stop(a, frames)))


def _stop(app: App, frames: dict[str, int]) -> None:
    if frames["n"] >= frames["last"]:
        app.running = False


def at(app: App, label: str) -> tuple[int, int]:
    x, y = app.screen_of(app.board.hex_of(label))
    return round(x), round(y)


def motion(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def press(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def to_phase(app: App, phase: str) -> None:
    game = app.play
    for _ in range(5000):
        if game.state.phase == phase:
            app.sync()
            return
        proposal = game.proposal()
        game.play(proposal if proposal is not None else dict(END_PHASE))
    raise AssertionError(f"never reached {phase}")


def put(app: App, unit_type: str, label: str) -> str:
    """An American unit of ``unit_type`` from the landing box onto ``label`` (an edit)."""
    state = app.play.state
    pid = next(p.id for p in state.box("landing") if p.type == unit_type)
    assert app.edit({"do": "unbox", "piece": pid, "box": "landing", "to": label})
    return pid


def firing(app: App) -> Firing:
    return next(c for c in app.components if isinstance(c, Firing))


@pytest.fixture
def fire_phase(tmp_path: Path) -> App:
    """DOG SECTOR turn 1, phase 6 (American fire), an EL at 1103 and the AT gun at 1413."""
    app = open_table("dog-sector", size=SIZE, seed=0, autosave=tmp_path / "auto.json")
    to_phase(app, "american-fire")
    assert app.state.piece("G-at-gun-3").hex == app.board.hex_of("1413")
    return app


# --- finding 8: sight and fire are two questions --------------------------------------


def test_the_thread_is_the_sight_verdict_and_the_fire_answer_a_separate_line(
    fire_phase: App, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 13 finding 8: 1103 -> 1413 was BLOCKED in the window because an EL may not
    # fire, CLEAR in `tabletop los dog-sector 1103 1413`.
    app = fire_phase
    leader = put(app, "exceptional-leader", "1103")

    def script(a: App) -> list[pygame.event.Event]:
        a.selected = leader
        return [press(pygame.K_l), motion(at(a, "1413"))]

    run_loop(app, script)
    overlays = app.overlay_component()
    thread = overlays._thread(app)
    assert thread is not None and app.overlays[LOS]
    a, b = app.board.hex_of("1103"), app.board.hex_of("1413")
    assert thread.result == line_of_sight(app.state, app.los_policy, LosQuery(a, b)).result == "clear"
    assert main(["los", "dog-sector", "1103", "1413", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == thread.result
    words, colour = overlays._fire_words(app) or ("", None)
    assert words.startswith("may not fire: ") and "DOG SECTOR Table 6" in words
    assert colour != theme.VERDICT_COLOURS[thread.result]  # another style than the verdict


def test_two_empty_hexes_sections_apart_are_in_sight_in_the_window(fire_phase: App) -> None:
    # Issue 13 finding 8: an empty hex to an empty hex was BLOCKED by the section rule.
    app = fire_phase
    result = app.overlay_component().set_los(app, app.board.hex_of("0507"), app.board.hex_of("1607"))
    assert result.result == "clear"
    assert app.overlay_component()._fire_words(app) is None  # nobody fires


# --- finding 11: the fire preview, from the rules ---------------------------------------


def test_the_preview_is_the_table_row_and_chances_the_fire_itself_uses(fire_phase: App) -> None:
    # Issue 13 finding 11; DOG SECTOR Table 6 (hit numbers), phase 6 Friendly Fire.
    app = fire_phase
    bazooka = put(app, "bazooka", "1412")  # adjacent to the AT gun in 1413
    state = app.play.state
    unit, target = state.map.piece(bazooka), state.map.piece("G-at-gun-3")
    preview = american.fire_preview(state, bazooka, "G-at-gun-3")
    assert preview is not None and preview["refusal"] is None and preview["now"]
    need, _ = american.hit_number(state, unit, target)
    assert preview["range"] == 1 and preview["row"].startswith(f"bazooka: {need}")
    chances = {o["faces"]: o["chance"] for o in preview["outcomes"]}
    assert sum(chances.values()) == pytest.approx(1.0)
    assert preview["outcomes"][-1]["chance"] == pytest.approx((7 - need) / 6)
    assert preview["friendly_fire"] is None  # a bazooka adjacent to its target: no friendly fire
    effect = hits.hit_words(target)
    assert effect in preview["outcomes"][-1]["result"]
    app.play.roll_by_hand([need])  # the lowest face that hits: the fire hits as previewed
    assert app.act({"do": "fire", "unit": bazooka, "target": "G-at-gun-3"})
    assert any(" hit " in f" {line} " or ": hit" in line for line in app.play.entries[-1].lines)
    assert any(effect.split()[0] in line for line in app.play.entries[-1].lines)


def test_the_preview_names_who_is_inside_the_friendly_fire_radius(fire_phase: App) -> None:
    # Issue 13 finding 11; DOG SECTOR phase 6, Friendly Fire (American hexes within 3).
    app = fire_phase
    tank = put(app, "tank", "1409")
    infantry = put(app, "infantry", "1411")
    preview = american.fire_preview(app.play.state, tank, "G-at-gun-3")
    assert preview is not None
    ff = preview["friendly_fire"]
    assert ff is not None and ff["radius"] == 3 and "1411" in ff["hexes"] and infantry in ff["units"]
    assert ff["hexes"] == [
        app.board.label(h) for h in american.friendly_fire_hexes(app.play.state, tank, "G-at-gun-3")
    ]
    assert "lands on an American unit" in preview["outcomes"][-1]["result"]


def test_hovering_an_enemy_shows_the_preview_and_a_refused_click_says_why_by_the_unit(
    fire_phase: App,
) -> None:
    # Issue 13 finding 11: a click to fire that the rules refuse said nothing.
    app = fire_phase
    leader = put(app, "exceptional-leader", "1103")
    played = len(app.play.entries)

    def script(a: App) -> list[pygame.event.Event]:
        a.selected = leader
        pos = at(a, "1413")
        return [
            motion(pos),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
        ]

    run_loop(app, script)
    shown = firing(app).preview(app)
    assert shown is not None and shown[1].id == "G-at-gun-3"
    assert firing(app).callout is not None
    unit_id, text, _ = firing(app).callout
    assert unit_id == leader and "may not fire" in text and "DOG SECTOR Table 6" in text
    assert app.selected == leader  # the click was a fire, not a selection
    assert len(app.play.entries) == played  # nothing played
    assert "callout" in firing(app).boxes and "preview" in firing(app).boxes


# --- finding 12: a graze explained as the engine found it -------------------------------


def test_a_grazed_block_names_the_hexside_and_the_rule_in_the_window_and_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 13 finding 12; Devil Dogs 7.1 ("any portion"), the grazing rule "either".
    assert main(["los", "belleau-wood", "1608", "2008", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    first = cli["blocking"][0]
    assert first["grazed"] and first["hex"] == "1708"
    assert "only grazed: the line runs along the hexside between 1708 and 1709" in first["cause"]
    assert "7.1" in first["cause"] and first["rule"] == "Devil Dogs 7.1"
    app = open_table("belleau-wood-demo", size=SIZE)
    overlays = app.overlay_component()
    result = overlays.set_los(app, app.board.hex_of("1608"), app.board.hex_of("2008"))
    assert f"blocked at 1708: {first['cause']}" in overlays._summary(app, result)
    assert _grazed_side(app, result, result.blocking[0]) is not None  # marked on its hexside


# --- finding 2: German fire drawn -------------------------------------------------------


def test_where_reads_what_an_action_names_and_skips_what_is_malformed() -> None:
    # Issue 13 finding 2: the generic "where it happens" of an action.
    action = {
        "do": "german-fire",
        "where": [
            {"kind": "fire", "hexes": ["0112", "0303"], "units": ["G1", "A1"], "roll": 0},
            {"kind": "teleport", "hexes": ["0101"]},
            {"kind": "hit", "hexes": []},
            "nonsense",
        ],
    }
    assert where(action) == (Where("fire", ("0112", "0303"), ("G1", "A1"), 0),)
    assert where({"do": "german-fire", "unit": "G1", "target": "A1"}) == ()  # older saves


def german_fire_ready(tmp_path: Path) -> App:
    """DOG SECTOR in phase 4 with a German shot (a proposal with a target) about to play."""
    app = open_table("dog-sector", size=SIZE, seed=0, autosave=tmp_path / "auto.json")
    to_phase(app, "german-fire")
    game = app.play
    while not (game.proposal() or {}).get("target"):
        game.play(game.proposal() or dict(END_PHASE))
        if game.state.phase != "german-fire":
            to_phase(app, "german-fire")
    app.sync()
    return app


def test_german_fire_is_drawn_from_firer_to_target_with_its_result(tmp_path: Path) -> None:
    # Issue 13 finding 2: German fire was text only; DOG SECTOR phase 4, Table 4.
    app = german_fire_ready(tmp_path)
    game = app.play
    proposal = game.proposal()
    assert proposal is not None
    shooter, target = game.state.map.piece(proposal["unit"]), game.state.map.piece(proposal["target"])
    (fire,) = where(proposal)
    assert fire.hexes == (app.board.label(shooter.hex), app.board.label(target.hex))
    assert fire.units == (shooter.id, target.id)
    seen: dict[str, object] = {}

    panel = next(c for c in app.components if hasattr(c, "paused"))
    panel.paused = True  # the step about to be played waits, and is drawn

    def script(a: App) -> list[pygame.event.Event]:
        a.camera.center = a.view.center(shooter.hex)
        return [motion((5, 5))]

    run_loop(app, script, after=2)
    assert firing(app).shown_fires(app)[-1] == (fire, None)

    def play_it(a: App) -> list[pygame.event.Event]:
        seen["played"] = len(a.play.entries)
        return [press(pygame.K_n)]

    run_loop(app, play_it, after=2)
    assert len(game.entries) == seen["played"] + 1 and game.entries[-1].action["unit"] == shooter.id
    roll = game.entries[-1].rolls[0]
    last = firing(app).shown_fires(app)[0]
    assert last[0] == fire and last[1] == f"{' '.join(map(str, roll.result))}: {roll.outcome}"
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    x, y = app.screen_of(shooter.hex)
    s = app.camera.scale
    ring = s * 0.85 - max(3, round(s * 0.1)) / 2
    assert tuple(surface.get_at((round(x + ring), round(y))))[:3] == FIRE  # the firer ringed


def test_a_saved_entrys_where_is_checked_and_kept() -> None:
    """Where an action's results landed (Entry.where, recorded while it is played) is kept
    in a save; a save that gives anything but a list of mappings there is refused with
    its place named (issue 14 item 5: results drawn where they happen)."""
    from tabletop.engine.game import Entry
    from tabletop.engine.savecheck import SaveProblem, check_entry

    place = Where("fire", ("0101", "0103"), ("B1", "R1"), result="R1: hit, Stunned").to_json()
    entry = Entry(action={"do": "resolve"}, parent=-1, where=[place])
    saved = json.loads(json.dumps(entry.to_json()))
    check_entry(saved, 0, 1)
    assert Entry.from_json(saved).happenings() == (Where("fire", ("0101", "0103"), ("B1", "R1"), None, "R1: hit, Stunned"),)
    with pytest.raises(SaveProblem, match=r"entries\[0\]\.where\[0\]"):
        check_entry({**saved, "where": ["nonsense"]}, 0, 1)
