"""The table's panels: status line, help overlay, dice, rulings, minimap, turn box."""

from __future__ import annotations

import pygame
import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.dice import Dice, Roll
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games import los_policy, move_policy
from tabletop.ui.app import CORE_SHORTCUTS, App, Component
from tabletop.ui.panels import STATUS_HEIGHT, Panels, recent_rolls, turn_lines

SMALL = """
name: Panel test ground
grid: {orientation: flat, offset: odd-q, columns: 8, rows: 6}
terrain:
  open:  {symbol: ".", colour: "#c8d89a", name: Open ground}
  woods: {symbol: "W", colour: "#3f7a3a", name: Woods}
rows: |
  . . . . . . . .
  . . W W . . . .
  . . W W . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
elevation:
  default: 0
  hexes: {"0302": 2}
regions:
  ridge: {kind: zone, name: The ridge, columns: [3, 4], rows: [2, 3]}
"""

SIZE = (1280, 800)


class Recorder(Component):
    """A component after the panels: records the events the panels let through."""

    def __init__(self) -> None:
        self.seen: list[pygame.event.Event] = []

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        self.seen.append(event)
        return False


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.font.init()


def table(
    *, seed: int = 7, size: tuple[int, int] = SIZE, pieces: tuple[Piece, ...] = ()
) -> tuple[App, Panels, Recorder]:
    state = MapState.of(small_map(SMALL), pieces)
    panels, recorder = Panels(), Recorder()
    app = App(
        state=state,
        title="Panel test (free play)",
        los_policy=FreePlayPolicy.for_map(state),
        move_policy=FreePlayMovePolicy(),
        size=size,
        components=[panels, recorder],
        game=Game(FreePlayRules(), GameState(state, turn=1, phase="play"), seed),
    )
    return app, panels, recorder


def rolls(app: App) -> list[Roll]:
    """Every roll of the game's current line, oldest first."""
    return [r for i in app.play.path() for r in app.play.entries[i].rolls]


def draw(app: App, size: tuple[int, int] = SIZE) -> pygame.Surface:
    surface = pygame.Surface(size)
    app.draw(surface)
    return surface


def key(app: App, k: int, *, mod: int = 0, unicode: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))


def hover(app: App, label: str) -> None:
    sx, sy = app.screen_of(app.board.hex_of(label))
    app.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(round(sx), round(sy)), rel=(0, 0), buttons=(0, 0, 0))
    )


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def status_bar(surface: pygame.Surface) -> bytes:
    w, h = surface.get_size()
    return pygame.image.tobytes(surface.subsurface((0, h - STATUS_HEIGHT, w, STATUS_HEIGHT)), "RGB")


# --- the status line -------------------------------------------------------------------


def test_status_line_shows_the_hovered_hex_label_terrain_elevation_and_region() -> None:
    app, panels, _ = table()
    before = status_bar(draw(app))
    hover(app, "0302")
    after = status_bar(draw(app))
    assert after != before  # the new text was drawn
    assert panels.status.startswith("0302")
    assert "Woods" in panels.status
    assert "elevation 2" in panels.status
    assert "The ridge" in panels.status


def test_status_line_shows_zoom_rule_system_and_the_shortcuts_key() -> None:
    app, panels, _ = table()
    draw(app)
    assert f"zoom {round(app.camera.zoom * 100)}%" in panels.status
    assert "free play" in panels.status
    assert "F1 / ? / k: shortcuts" in panels.status


def test_status_line_leaves_out_elevation_on_a_flat_map() -> None:
    flat = small_map(SMALL.replace('hexes: {"0302": 2}', "hexes: {}"))
    state = MapState.of(flat)
    panels = Panels()
    app = App(
        state, "flat", FreePlayPolicy.for_map(state), FreePlayMovePolicy(), size=SIZE, components=[panels]
    )
    hover(app, "0101")
    draw(app)
    assert panels.status.startswith("0101")
    assert "elevation" not in panels.status


def test_status_line_names_the_rule_system_of_a_shipped_map() -> None:
    state = MapState.of(load_map("dog-sector"))
    panels = Panels()
    app = App(state, "Dog sector", los_policy(state), move_policy(state), size=SIZE, components=[panels])
    draw(app)
    assert "DOG SECTOR" in panels.status


# --- the help overlay ------------------------------------------------------------------


def test_f1_opens_the_help_overlay_listing_the_core_shortcuts_and_f1_closes_it() -> None:
    app, panels, _ = table()
    closed = draw(app)
    key(app, pygame.K_F1)
    assert panels.help_open
    opened = draw(app)
    centre = (SIZE[0] // 2, SIZE[1] // 2)
    assert opened.get_at(centre) != closed.get_at(centre)
    for pair in CORE_SHORTCUTS:
        assert pair in panels.help_rows
    assert any("roll 1D6" in what for _, what in panels.help_rows)
    key(app, pygame.K_F1)
    assert not panels.help_open


@pytest.mark.parametrize(
    ("k", "mod", "unicode"),
    [(pygame.K_k, 0, "k"), (pygame.K_SLASH, pygame.KMOD_SHIFT, "?")],
    ids=["k", "question-mark"],
)
def test_k_and_question_mark_open_the_help_and_escape_closes_it(k: int, mod: int, unicode: str) -> None:
    app, panels, _ = table()
    key(app, k, mod=mod, unicode=unicode)
    assert panels.help_open
    key(app, pygame.K_ESCAPE)
    assert not panels.help_open


def test_open_help_swallows_other_keys() -> None:
    app, _, recorder = table()
    key(app, pygame.K_F1)
    centre = app.camera.center
    key(app, pygame.K_r)
    key(app, pygame.K_LEFT)
    assert rolls(app) == []
    assert app.camera.center == centre
    assert recorder.seen == []


def test_escape_with_help_closed_goes_on_to_the_app() -> None:
    app, _, recorder = table(pieces=(Piece("A1", "rifle", small_map(SMALL).hex_of("0101"), side="blue"),))
    app.selected = "A1"
    key(app, pygame.K_ESCAPE)
    assert app.selected is None
    assert len(recorder.seen) == 1


# --- dice and rulings ------------------------------------------------------------------


def test_r_rolls_1d6_through_the_game_reproducibly_for_its_seed() -> None:
    seen = []
    for _ in range(2):
        app, _, _ = table(seed=42)
        for _ in range(6):
            key(app, pygame.K_r)
        seen.append([r.result for r in rolls(app)])
        assert [e.action for e in app.play.entries] == [
            {"do": "roll", "n": 1, "sides": 6, "purpose": "1D6"}
        ] * 6
        assert [r.purpose for r in rolls(app)] == ["1D6"] * 6
    expected = Dice(42)
    assert seen[0] == seen[1] == [(expected.d6(),) for _ in range(6)]


def test_a_roll_is_logged_and_undone_like_any_action() -> None:
    app, _, _ = table(seed=3)
    key(app, pygame.K_r)
    face = Dice(3).d6()
    assert f"1D6: rolled {face}" in app.messages
    app.play.undo()
    app.sync()
    assert rolls(app) == [] and recent_rolls(app, 5) == []


def test_zero_rolls_like_r() -> None:
    app, _, _ = table(seed=3)
    key(app, pygame.K_0)
    assert app.messages[0] == f"1D6: rolled {Dice(3).d6()}"
    assert [r.purpose for r in rolls(app)] == ["1D6"]


def test_the_dice_box_shows_the_games_seed_and_its_last_roll() -> None:
    app, panels, _ = table(seed=42)
    draw(app)
    box = panels.boxes["dice"]
    before = pygame.image.tobytes(draw(app).subsurface(box), "RGB")
    key(app, pygame.K_r)
    after = pygame.image.tobytes(draw(app).subsurface(box), "RGB")
    assert before != after
    assert app.play.seed == 42


def test_the_dice_box_lists_the_rolls_of_the_current_line_newest_first() -> None:
    app, _, _ = table(seed=8)
    for k in (pygame.K_r, pygame.K_3, pygame.K_4):
        key(app, k)
    app.play.play({"do": "roll", "n": 2, "sides": 6, "purpose": "morale"})  # rolled elsewhere
    assert [r.purpose for _, r in recent_rolls(app, 5)] == ["morale", "roll button 4", "roll button 3", "1D6"]
    assert [k for k, _ in recent_rolls(app, 2)] == [(3, 0), (2, 0)]
    app.play.goto(0)  # back to the first roll: later rolls leave the line
    assert [r.purpose for _, r in recent_rolls(app, 5)] == ["1D6"]


@pytest.mark.parametrize(
    ("k", "ruling"),
    [(pygame.K_h, "Hit"), (pygame.K_1, "Hit"), (pygame.K_m, "Miss"), (pygame.K_2, "Miss")],
)
def test_hit_and_miss_keys_log_the_players_ruling_on_the_last_roll(k: int, ruling: str) -> None:
    app, panels, _ = table(seed=5)
    key(app, pygame.K_r)
    key(app, k)
    value = Dice(5).d6()
    assert app.messages[-1] == f"{ruling} (1D6: {value})"
    assert panels.rulings == {(0, 0): ruling}
    draw(app)  # the ruling is shown with the roll


def test_a_ruling_stays_with_its_roll_after_later_rolls() -> None:
    app, panels, _ = table(seed=5)
    key(app, pygame.K_r)
    key(app, pygame.K_h)
    key(app, pygame.K_r)
    key(app, pygame.K_m)
    assert panels.rulings == {(0, 0): "Hit", (1, 0): "Miss"}
    draw(app)


def test_a_ruling_before_any_roll_says_there_is_none() -> None:
    app, _, _ = table()
    key(app, pygame.K_h)
    assert app.messages == ["Hit (no roll yet)"]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_keys_3_to_7_are_the_dog_sector_roll_buttons(n: int) -> None:
    app, _, _ = table(seed=11)
    key(app, getattr(pygame, f"K_{n}"))
    assert f"roll button {n}: rolled {Dice(11).d6()}" in app.messages
    assert [r.purpose for r in rolls(app)] == [f"roll button {n}"]


def test_dice_refuse_a_seed_that_is_not_an_int() -> None:
    with pytest.raises(TypeError, match="seed"):
        Dice("7")  # type: ignore[arg-type]


def test_scripted_rolls_come_first_and_are_range_checked() -> None:
    dice = Dice(1, script=[6, 10])
    assert dice.d6() == 6
    with pytest.raises(ValueError, match="10"):
        dice.d6()


def test_dice_leave_the_global_random_state_alone() -> None:
    import random

    random.seed(99)
    expected = random.random()
    random.seed(99)
    Dice(1).roll(20, 6)
    assert random.random() == expected


# --- turn keys, expand, legend ---------------------------------------------------------


@pytest.mark.parametrize("k", [pygame.K_n, pygame.K_p, pygame.K_u])
def test_the_turn_keys_are_left_to_the_game_component(k: int) -> None:
    app, _, recorder = table()
    key(app, k)
    assert app.messages == [] and len(recorder.seen) == 1
    assert {"n", "p", "n, p"}.isdisjoint(keys for keys, _ in Panels.shortcuts)


def test_the_turn_box_shows_the_games_turn_phase_and_who_acts() -> None:
    app, panels, _ = table()
    assert turn_lines(app) == ["turn 1: free play", "to act: anyone"]
    draw(app)
    one = panels.boxes["turn"]
    app.play.play({"do": "end-phase"})
    assert turn_lines(app) == ["turn 2: free play", "to act: anyone"]
    app.play.state.phase = "setup"
    assert turn_lines(app) == ["setup"]
    app.play.state.result = "a draw"
    assert turn_lines(app) == ["game over: a draw"]
    draw(app)
    assert panels.boxes["turn"].height < one.height


def test_e_expands_and_condenses_the_turn_and_rules_box_and_the_log_takes_the_rest() -> None:
    """Issue 13 finding 16: the log is docked and takes what the column leaves (it
    scrolls); e expands the turn box, the log gives it the room."""
    app, panels, _ = table()
    for i in range(12):
        app.say(f"message {i}")
    draw(app)
    short_log, short_turn = panels.boxes["log"].height, panels.boxes["turn"].height
    key(app, pygame.K_e)
    assert app.overlays["rules-expanded"] is True
    draw(app)
    assert panels.boxes["turn"].height > short_turn
    assert panels.boxes["log"].height < short_log
    assert panels.boxes["log"].bottom == app.layout.left.bottom - 4  # still down to the column's foot
    key(app, pygame.K_e)
    assert app.overlays["rules-expanded"] is False
    draw(app)
    assert panels.boxes["log"].height == short_log


def test_semicolon_toggles_the_legend() -> None:
    app, _, _ = table()
    draw(app)
    assert app.layout.body("legend") is not None
    key(app, pygame.K_SEMICOLON)
    draw(app)
    assert app.layout.body("legend") is None and app.layout.placed["legend"].folded  # its title stays
    assert app.messages == ["terrain legend: folded"]


def test_a_small_window_keeps_every_panel_docked_beside_the_map() -> None:
    """Issue 13 finding 16: at 800 x 600 every box is still there, in the columns,
    none over the map's area and none over another."""
    app, panels, _ = table(size=(800, 600))
    draw(app, (800, 600))
    assert {"status", "turn", "legend", "dice", "minimap"} <= set(panels.boxes)
    boxes = list(panels.boxes.values())
    assert not [b for b in boxes if b.colliderect(app.layout.map)]
    assert all(a.collidelist([b for b in boxes if b is not a]) < 0 for a in boxes)


def test_keys_with_alt_or_ctrl_go_on_to_the_other_components() -> None:
    app, panels, recorder = table()
    key(app, pygame.K_e, mod=pygame.KMOD_ALT)
    key(app, pygame.K_r, mod=pygame.KMOD_CTRL)
    assert not panels.expanded
    assert rolls(app) == []
    assert len(recorder.seen) == 2


def test_the_selected_unit_box_lists_its_details() -> None:
    board = small_map(SMALL)
    unit = Piece("A1", "rifle", board.hex_of("0203"), side="blue", facing=2, status=frozenset({"pinned"}))
    app, panels, _ = table(pieces=(unit,))
    draw(app)
    assert "selection" not in panels.boxes
    app.selected = "A1"
    surface = draw(app)
    box = panels.boxes["selection"]
    assert app.layout.right.contains(box)
    assert box.top > panels.boxes["dice"].bottom
    assert len(set(pygame.image.tobytes(surface.subsurface(box), "RGB"))) > 2  # text was drawn


# --- the minimap -----------------------------------------------------------------------


def test_clicking_the_minimap_moves_the_camera_centre_there_and_uses_up_the_click() -> None:
    app, panels, recorder = table()
    draw(app)
    rect = panels.minimap_rect(app)
    _, scale = panels.minimap_surface(app)
    before = app.camera.center
    point = (rect.x + 5, rect.y + 5)
    click(app, point)
    x0, y0, _, _ = app.view.bounds
    assert app.camera.center != before
    looked = app.camera.to_world(*app.camera.area_centre())  # the middle of the map's area
    assert looked == pytest.approx((x0 + 5 / scale, y0 + 5 / scale))
    assert recorder.seen == []


def test_dragging_on_the_minimap_follows_the_pointer() -> None:
    app, panels, _ = table()
    draw(app)
    rect = panels.minimap_rect(app)
    _, scale = panels.minimap_surface(app)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.topleft, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(1, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=rect.center, button=1))
    x0, y0, _, _ = app.view.bounds
    cx, cy = rect.center
    looked = app.camera.to_world(*app.camera.area_centre())
    assert looked == pytest.approx((x0 + (cx - rect.x) / scale, y0 + (cy - rect.y) / scale))


def test_a_click_on_the_map_goes_through_to_the_other_components() -> None:
    app, _, recorder = table()
    draw(app)
    sx, sy = app.screen_of(app.board.hex_of("0403"))
    click(app, (round(sx), round(sy)))
    assert [e.type for e in recorder.seen] == [pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP]


def test_the_legend_lists_the_terrain_used_and_the_region_borders() -> None:
    app, panels, _ = table()
    names = [name for _, _, name in panels.legend_rows(app)]
    assert names == ["Open ground", "Woods", "zone border"]


def test_the_pointer_over_a_panel_reports_no_hex() -> None:
    app, panels, _ = table()
    draw(app)
    x, y = panels.boxes["status"].center
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)))
    assert app.hover is None
