"""The counter layer, driven by real pygame events on an App and checked in pixels."""

from __future__ import annotations

import json

import pygame
import pytest

from tabletop.engine import savefile
from tabletop.engine.actions import Action, generic_apply, generic_refusal
from tabletop.engine.counters import SYMBOLS, UnitType, counters_for
from tabletop.engine.dice import Dice
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Game, Phase
from tabletop.engine.pieces import Piece
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games import los_policy, move_policy
from tabletop.hexgrid import Hex
from tabletop.ui import counter_art as art
from tabletop.ui import counters as counters_module
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.counters import PHASE_MOVES_ONLY, CounterLayer, rules_of

BLUE = (86, 140, 200)  # the dogs-of-war counters' blue side
SIZE = (900, 640)


@pytest.fixture(autouse=True)
def fonts() -> None:
    pygame.font.init()


class StubRules:
    """A tiny rule system: a movement phase, then a fire phase; its own action is a move
    in the movement phase (offered for a drag when ``drags`` is set)."""

    name = "stub"
    sides = ("blue", "red")
    sequence = (Phase("move", "movement", "blue"), Phase("fire", "fire", "blue"))
    undo_across_turns = True

    def __init__(self, *, drags: bool = True) -> None:
        if drags:
            self.drag_action = self._drag_action

    def _drag_action(self, state: GameState, piece_id: str, to: str, shift_held: bool) -> Action | None:
        return {"do": "move", "piece": piece_id, "to": to} if state.phase == "move" else None

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        return []

    def proposal(self, state: GameState) -> Action | None:
        return None

    def choices(self, state: GameState, side: str) -> list[Action]:
        return [{"do": "end-phase"}]

    def refusal(self, state: GameState, action: Action) -> str | None:
        if action.get("do") != "move" or state.phase != "move":
            return "the stub rules only move, in the movement phase"
        return generic_refusal(state, action)

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return generic_apply(state, action, dice)

    def outcome(self, state: GameState) -> str | None:
        return None


def table(
    source: str = "dogs-of-war-demo", *, rules: StubRules | None = None, phase: str = "move"
) -> tuple[App, CounterLayer]:
    opened = open_map_or_scenario(source)
    assert isinstance(opened, Scenario)
    state = opened.state()
    layer = CounterLayer()
    game = None if rules is None else Game(rules, GameState(state, turn=1, phase=phase), 0)  # type: ignore[arg-type]
    app = App(
        state=state,
        title=opened.name,
        los_policy=los_policy(state, opened.rules),
        move_policy=move_policy(state, opened.rules),
        components=[layer],
        size=SIZE,
        game=game,
    )
    app.camera.zoom = 1.0
    return app, layer


def hx(app: App, label: str) -> Hex:
    return app.board.grid.hex_of(label)


def look_at(app: App, label: str) -> None:
    app.camera.center = app.view.center(hx(app, label))


def at(app: App, label: str) -> tuple[int, int]:
    x, y = app.screen_of(hx(app, label))
    return (round(x), round(y))


def send(app: App, kind: int, **fields: object) -> None:
    app.handle(pygame.event.Event(kind, **fields))


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    send(app, pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    send(app, pygame.MOUSEBUTTONUP, pos=pos, button=button)


def drag(app: App, start: tuple[int, int], end: tuple[int, int], button: int = 1) -> None:
    send(app, pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
    send(app, pygame.MOUSEBUTTONDOWN, pos=start, button=button)
    held = (1, 0, 0) if button == 1 else (0, 0, 1)
    for k in range(1, 6):
        pos = (start[0] + (end[0] - start[0]) * k // 5, start[1] + (end[1] - start[1]) * k // 5)
        send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=held)
    send(app, pygame.MOUSEBUTTONUP, pos=end, button=button)


def press(app: App, key: int, mod: int = 0, text: str = "") -> None:
    send(app, pygame.KEYDOWN, key=key, mod=mod, unicode=text, scancode=0)


def type_text(app: App, text: str) -> None:
    for ch in text:
        key = getattr(pygame, f"K_{ch.lower()}") if ch.isalpha() else getattr(pygame, f"K_{ch}")
        press(app, key, text=ch)


def frame(app: App) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    return surface


def near(c: pygame.Color, rgb: tuple[int, int, int], tol: int = 6) -> bool:
    return all(abs(a - b) <= tol for a, b in zip((c.r, c.g, c.b), rgb, strict=True))


def count(
    surface: pygame.Surface, centre: tuple[int, int], rgb: tuple[int, int, int], radius: int = 12
) -> int:
    """Pixels of colour ``rgb`` within ``radius`` (a square) of ``centre``."""
    x0, y0 = centre
    return sum(
        near(surface.get_at((x, y)), rgb)
        for x in range(x0 - radius, x0 + radius + 1)
        for y in range(y0 - radius, y0 + radius + 1)
    )


def menu_click(app: App, layer: CounterLayer, label_start: str) -> None:
    rect = next(r for r, item in layer.menu_layout(app) if item.label.startswith(label_start))
    click(app, rect.center)


# --- drawing --------------------------------------------------------------------------


def test_the_table_uses_the_counter_file_of_its_rule_system() -> None:
    app, layer = table()
    assert rules_of(app) == "dogs_of_war"
    assert layer.counter_set(app) is counters_for("dogs_of_war")


def test_every_counter_is_drawn_in_its_sides_colour_at_its_hex() -> None:
    app, _ = table()
    look_at(app, "2205")
    surface = frame(app)
    for label in ("2005", "2205", "2404"):  # A1, A2, A3
        assert count(surface, at(app, label), BLUE) > 40


def test_a_selected_stack_is_ringed_in_the_highlight_colour() -> None:
    app, layer = table()
    look_at(app, "2205")
    x, y = at(app, "2205")
    ring = round(layer.size(app) * art.TOKEN_RADIUS) + 4
    assert count(frame(app), (x, y - ring), theme.HIGHLIGHT, 3) == 0
    click(app, (x, y))
    assert app.selected == "A2"
    assert count(frame(app), (x, y - ring), theme.HIGHLIGHT, 3) > 0


def test_counters_under_a_line_of_sight_are_ghosted_not_hidden() -> None:
    app, _ = table()
    look_at(app, "2205")
    centre = at(app, "2205")
    solid = count(frame(app), centre, BLUE)
    app.overlays["ghost-under-los"] = {hx(app, "2205")}
    ghosted = frame(app)
    assert count(ghosted, centre, BLUE) == 0  # blended with the ground...
    assert ghosted.get_at(centre) != pygame.Surface((1, 1)).get_at((0, 0))
    del app.overlays["ghost-under-los"]
    assert count(frame(app), centre, BLUE) == solid  # ...and solid again when the thread goes


def test_a_stack_is_fanned_up_and_left_with_a_count_badge() -> None:
    app, layer = table()
    look_at(app, "2205")
    app.state.place(Piece("A9", "rifleman", hx(app, "2205"), "blue"))
    size, step = layer.size(app), layer.step(layer.size(app))
    x, y = at(app, "2205")
    surface = frame(app)
    lower = (x - step - round(size * art.TOKEN_RADIUS) + 3, y - step)  # the lower token's left rim
    assert count(surface, lower, BLUE, 2) > 0
    badge = (x + size // 2 - round(size * 0.16), y - size // 2 + round(size * 0.16))
    assert count(surface, badge, (20, 20, 22), 3) > 0


def test_a_marker_piece_on_an_empty_hex_is_drawn_as_a_marker_counter_and_tints_its_hex() -> None:
    app, layer = table()
    look_at(app, "2324")
    smoke = art.rgb(counters_for("dogs_of_war").markers["smoke"].colour)
    surface = frame(app)
    x, y = at(app, "2324")
    assert count(surface, (x, y - layer.size(app) // 3), smoke, 4) > 0
    assert surface.get_at((x + round(app.camera.scale * 0.8), y)) != surface.get_at((x + 200, y + 200))


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_symbol_draws_ink_inside_its_counter(symbol: str) -> None:
    spec = UnitType("x", "x", symbol, label="LB")
    plain = art.unit_counter(UnitType("x", "x", "blank"), (200, 200, 200), 60, "")
    drawn = art.unit_counter(spec, (200, 200, 200), 60, "")
    differs = sum(plain.get_at((x, y)) != drawn.get_at((x, y)) for x in range(60) for y in range(8, 36))
    assert differs > 20


@pytest.mark.parametrize("rules", ["dog_sector", "devil_dogs", "omaha", "dogfaces", "dogs_of_war", None])
def test_every_shipped_counter_draws_at_full_and_half_zoom(rules: str | None) -> None:
    counters = counters_for(rules)
    for spec in counters.unit_types.values():
        for size in (44, 28):
            for reduced in (False, True):
                img = art.unit_counter(spec, (120, 150, 90), size, "A1", reduced=reduced, facing=90)
                assert img.get_size() == (size, size)
                assert img.get_at((size // 2, size // 2)).a > 240  # opaque inside
    for marker in counters.markers.values():
        assert art.marker_counter(marker, 40).get_size() == (40, 40)


def test_the_reduced_face_is_lighter_and_a_steps_word_is_printed() -> None:
    spec = counters_for("omaha").unit_types["infantry"]
    full = art.unit_counter(spec, (120, 150, 90), 60, "E/16")
    reduced = art.unit_counter(spec, (120, 150, 90), 60, "E/16", reduced=True)
    assert sum(reduced.get_at((30, 4))[:3]) > sum(full.get_at((30, 4))[:3]) + 150  # the white band
    assert art.unit_counter(spec, (120, 150, 90), 60, "E/16", values="2") is not full


# --- selecting and moving ---------------------------------------------------------------


def test_dragging_a_counter_moves_it_and_draws_it_at_the_new_hex() -> None:
    app, _ = table()
    look_at(app, "2005")
    drag(app, at(app, "2005"), at(app, "2107"))
    assert app.board.grid.label(app.state.piece("A1").hex) == "2107"
    assert "A1 moves to 2107" in app.messages
    assert app.play.entries[-1].action == {"do": "move", "piece": "A1", "to": "2107"}
    surface = frame(app)
    assert count(surface, at(app, "2107"), BLUE) > 40
    assert count(surface, at(app, "2005"), BLUE) == 0


def test_dropping_a_counter_off_the_map_cancels_the_move() -> None:
    app, _ = table()
    look_at(app, "0101")
    app.state.place(Piece("B1", "rifleman", hx(app, "0101"), "blue"))
    assert app.hex_at_screen(5, 5) is None
    drag(app, at(app, "0101"), (5, 5))
    assert app.board.grid.label(app.state.piece("B1").hex) == "0101"
    assert "dropped off the map" in app.messages[-1]


def test_clicking_a_stack_selects_its_top_counter_then_goes_down_the_stack() -> None:
    app, _ = table()
    look_at(app, "2205")
    app.state.place(Piece("A9", "rifleman", hx(app, "2205"), "blue"))
    pos = at(app, "2205")
    picked = []
    for _ in range(3):
        click(app, pos)
        picked.append(app.selected)
    assert picked == ["A9", "A2", "A9"]
    assert "selected A2 (machine gunner, blue) in 2205 (2 of 2)" in app.messages


def test_a_dragged_stack_gives_up_its_selected_counter() -> None:
    app, _ = table()
    look_at(app, "2205")
    app.state.place(Piece("A9", "rifleman", hx(app, "2205"), "blue"))
    click(app, at(app, "2205"))
    click(app, at(app, "2205"))  # A2, under A9, is now selected and shown on top
    drag(app, at(app, "2205"), at(app, "2206"))
    assert app.board.grid.label(app.state.piece("A2").hex) == "2206"
    assert app.board.grid.label(app.state.piece("A9").hex) == "2205"


@pytest.mark.parametrize(
    ("key", "to"),
    [(pygame.K_w, "2004"), (pygame.K_e, "2105"), (pygame.K_d, "2106"), (pygame.K_s, "2006"),
     (pygame.K_a, "1906"), (pygame.K_q, "1905")],
)  # fmt: skip
def test_alt_and_a_direction_key_moves_the_selected_counter_one_hex(key: int, to: str) -> None:
    app, _ = table()
    look_at(app, "2005")
    click(app, at(app, "2005"))
    press(app, key, pygame.KMOD_LALT)
    assert app.board.grid.label(app.state.piece("A1").hex) == to
    assert app.messages[-1] == f"A1 moves to {to}"


def test_a_keyboard_move_off_the_map_is_refused_with_a_message() -> None:
    app, _ = table()
    look_at(app, "0101")
    app.state.place(Piece("B1", "rifleman", hx(app, "0101"), "blue"))
    click(app, at(app, "0101"))
    press(app, pygame.K_w, pygame.KMOD_LALT)
    assert app.board.grid.label(app.state.piece("B1").hex) == "0101"
    assert app.messages[-1] == "B1 cannot move N: off the map"


def test_alt_shift_moves_every_unit_in_the_hex_but_not_its_markers() -> None:
    app, _ = table()
    look_at(app, "2205")
    app.state.place(Piece("A9", "rifleman", hx(app, "2205"), "blue"))
    app.state.place(Piece("smoke-7", "smoke", hx(app, "2205"), kind="marker"))
    click(app, at(app, "2205"))
    press(app, pygame.K_s, pygame.KMOD_LALT | pygame.KMOD_LSHIFT)
    assert {p.id for p in app.state.pieces_at(hx(app, "2206"))} == {"A2", "A9"}
    assert [p.id for p in app.state.pieces_at(hx(app, "2205"))] == ["smoke-7"]


def test_plain_direction_keys_still_pan_the_map() -> None:
    app, _ = table()
    before = app.camera.center
    press(app, pygame.K_s)
    assert app.camera.center != before


# --- the right-click menu ---------------------------------------------------------------


def test_adding_a_marker_puts_its_chip_on_the_counter() -> None:
    app, layer = table()
    look_at(app, "2005")
    prone = art.rgb(counters_for("dogs_of_war").markers["prone"].colour)
    x, y = at(app, "2005")
    chip_row = (x - layer.size(app) // 2 + 8, y + layer.size(app) // 2)
    assert count(frame(app), chip_row, prone, 4) == 0
    click(app, (x, y), button=3)
    menu_click(app, layer, "Add marker")
    menu_click(app, layer, "PRONE")
    assert app.state.piece("A1").has("prone")
    assert count(frame(app), chip_row, prone, 4) > 10
    click(app, (x, y), button=3)
    menu_click(app, layer, "Remove marker")
    menu_click(app, layer, "PRONE")
    assert not app.state.piece("A1").has("prone")


def test_adding_a_hex_marker_places_a_marker_piece_with_a_new_id() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Add marker")
    menu_click(app, layer, "SMOKE")
    smoke = [p for p in app.state.markers_at(hx(app, "2005"))]
    assert [(p.id, p.type, p.kind) for p in smoke] == [
        ("smoke-2", "smoke", "marker")
    ]  # smoke-1 is the demo's


def test_the_menu_closes_with_escape_or_a_click_elsewhere() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    press(app, pygame.K_ESCAPE)
    assert layer.menu is None and app.selected == "A1"  # Esc closed the menu only
    click(app, at(app, "2005"), button=3)
    click(app, (5, 5))
    assert layer.menu is None


def test_the_menu_is_drawn_beside_the_counter() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    box = layer.menu_layout(app)[0][0]
    assert near(frame(app).get_at((box.right - 3, box.centery)), theme.PANEL, 12)


# --- the camera keeps its controls ------------------------------------------------------


def test_right_and_middle_drags_on_empty_map_and_the_wheel_still_move_the_camera() -> None:
    app, layer = table()
    look_at(app, "1010")
    for button in (3, 2):
        before = app.camera.center
        drag(app, at(app, "1010"), at(app, "1212"), button=button)
        assert app.camera.center != before and layer.menu is None
    zoom = app.camera.zoom
    send(app, pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0)
    assert app.camera.zoom > zoom


def test_square_brackets_resize_the_counters_within_half_and_double() -> None:
    app, layer = table()
    size = layer.size(app)
    press(app, pygame.K_RIGHTBRACKET, text="]")
    assert app.counter_scale == pytest.approx(1.1) and layer.size(app) > size
    for _ in range(20):
        press(app, pygame.K_RIGHTBRACKET, text="]")
    assert app.counter_scale == 2.0
    for _ in range(30):
        press(app, pygame.K_LEFTBRACKET, text="[")
    assert app.counter_scale == 0.5


# --- finder, inspector, tray ----------------------------------------------------------


def test_the_finder_jumps_to_a_counter_and_selects_it() -> None:
    app, layer = table()
    look_at(app, "2005")
    press(app, pygame.K_f, text="f")
    assert layer.finder is not None
    type_text(app, "r2")
    assert [p.id for p in layer.finder_matches(app)] == ["R2"]
    frame(app)  # the finder draws
    press(app, pygame.K_RETURN)
    assert layer.finder is None and app.selected == "R2"
    assert app.camera.center == app.view.center(hx(app, "2643"))
    assert count(frame(app), at(app, "2643"), (200, 90, 80)) > 40  # the red counter, mid-screen


def test_the_finder_swallows_keys_until_closed() -> None:
    app, layer = table()
    press(app, pygame.K_f, text="f")
    before = app.camera.center
    type_text(app, "wasd")  # W A S D pan the map when the finder is closed
    assert app.camera.center == before and layer.finder is not None and layer.finder.text == "wasd"
    press(app, pygame.K_ESCAPE)
    assert layer.finder is None


def test_hovering_a_stack_shows_the_inspector_after_a_moment() -> None:
    app, layer = table()
    look_at(app, "2404")
    pos = at(app, "2404")
    send(app, pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    app.update(0.1)
    assert layer.inspecting() is None
    app.update(0.35)
    assert layer.inspecting() == hx(app, "2404")
    box = (pos[0] + 21, pos[1] + 21)  # inside the box's top-left corner, clear of its text
    assert near(frame(app).get_at(box), theme.PANEL, 12)
    send(app, pygame.MOUSEMOTION, pos=at(app, "1010"), rel=(0, 0), buttons=(0, 0, 0))
    app.update(0.5)
    assert layer.inspecting() is None


def test_the_tray_places_a_new_unit_on_the_clicked_hex() -> None:
    app, layer = table()
    look_at(app, "1010")
    press(app, pygame.K_t, text="t")
    assert layer.tray_open
    frame(app)
    row = next(r for r, _, placing, _ in layer.tray_rows(app) if placing and placing.type == "scout")
    click(app, row.center)
    assert layer.placing is not None
    assert not layer.tray_rect(app).collidepoint(at(app, "0710"))
    click(app, at(app, "0710"))
    scout = app.state.piece("scout-1")
    assert (scout.type, scout.side, app.board.grid.label(scout.hex)) == ("scout", "blue", "0710")
    assert scout.facing is not None  # Dogs of War figures face a hexside
    assert layer.placing is None and app.selected == "scout-1"
    assert count(frame(app), at(app, "0710"), BLUE) > 40


def test_escape_cancels_placing_from_the_tray() -> None:
    app, layer = table()
    look_at(app, "1010")
    press(app, pygame.K_t, text="t")
    row = next(r for r, _, placing, _ in layer.tray_rows(app) if placing and placing.type == "sniper")
    click(app, row.center)
    press(app, pygame.K_ESCAPE)
    assert layer.placing is None
    click(app, at(app, "0710"))
    assert not app.state.pieces_at(hx(app, "0710"))


def test_the_tray_refuses_a_type_with_none_left_on_the_sheet() -> None:
    app, layer = table()
    press(app, pygame.K_t, text="t")
    for k in range(1, 2):
        app.state.place(Piece(f"S{k}", "sniper", hx(app, "1010"), "blue"))
    row = next(r for r, _, placing, _ in layer.tray_rows(app) if placing and placing.type == "sniper")
    click(app, row.center)
    assert layer.placing is None and "no sniper left" in app.messages[-1]


def test_the_dead_pool_is_a_tray_tab_and_its_pieces_can_come_back() -> None:
    app, layer = table()
    look_at(app, "2305")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Remove to the dead pool")
    press(app, pygame.K_t, text="t")
    frame(app)
    tab = layer.tray_tabs(app).index("dead pool")
    layer.tray_tab = tab
    row = layer.tray_rows(app)[0][0]
    click(app, row.center)
    click(app, at(app, "2005"))
    assert app.board.grid.label(app.state.piece("A1").hex) == "2005"
    assert app.play.state.box("dead") == []
    assert app.play.entries[-1].action == {"do": "unbox", "box": "dead", "piece": "A1", "to": "2005"}


def test_the_shortcuts_are_listed_for_the_help_overlay() -> None:
    app, _ = table()
    keys = {k for k, _ in app.all_shortcuts()}
    assert {"[ / ]", "f", "t", "Alt+Q W E A S D"} <= keys


def test_a_status_or_marker_change_redraws_from_the_live_state() -> None:
    app, _ = table()
    look_at(app, "2205")
    assert app.edit({"do": "status", "piece": "A2", "add": ["dead"]})
    dead = art.rgb(counters_for("dogs_of_war").markers["dead"].colour)
    x, y = at(app, "2205")
    assert count(frame(app), (x - 10, y + 22), dead, 6) > 5


# --- every change goes through the game -------------------------------------------------


def label_of(app: App, piece_id: str) -> str:
    return app.board.grid.label(app.state.piece(piece_id).hex)


def test_a_drag_move_is_played_through_the_game_and_undone_by_it() -> None:
    app, _ = table()
    look_at(app, "2005")
    drag(app, at(app, "2005"), at(app, "2107"))
    assert label_of(app, "A1") == "2107"
    app.play.undo()
    app.sync()
    assert label_of(app, "A1") == "2005"
    surface = frame(app)  # drawn from the game's state again, not a stale one
    assert count(surface, at(app, "2005"), BLUE) > 40
    assert count(surface, at(app, "2107"), BLUE) == 0
    app.play.redo()
    app.sync()
    assert label_of(app, "A1") == "2107"


def test_new_ids_avoid_pieces_in_any_box() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Add marker")
    menu_click(app, layer, "SMOKE")  # smoke-2 (smoke-1 is the demo's)
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Remove marker")
    menu_click(app, layer, "SMOKE  smoke-2")
    assert [p.id for p in app.play.state.box("removed")] == ["smoke-2"]
    assert layer.new_id(app, "smoke") == "smoke-3"


def test_the_dead_pool_survives_a_save_and_load() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Remove to the dead pool")
    data = json.loads(json.dumps(savefile.to_json(app.play, "dogs-of-war-demo")))
    game = savefile.restore(data, app.board, FreePlayRules())
    assert [p.id for p in game.state.box("dead")] == ["A1"]
    loaded, loaded_layer = table()
    loaded.game = game
    loaded.sync()
    assert [p.id for p in loaded_layer.dead_pool(loaded)] == ["A1"]
    assert "dead pool" in loaded_layer.tray_tabs(loaded)
    with pytest.raises(KeyError):
        loaded.state.piece("A1")


def test_a_drag_in_a_rule_systems_game_plays_the_rules_own_move() -> None:
    app, _ = table(rules=StubRules())
    look_at(app, "2005")
    drag(app, at(app, "2005"), at(app, "2107"))
    assert label_of(app, "A1") == "2107"
    assert app.play.entries[-1].action == {"do": "move", "piece": "A1", "to": "2107"}  # not an edit


@pytest.mark.parametrize("drags", [True, False], ids=["rules-decline", "rules-without-drag-action"])
def test_outside_its_phase_a_unit_moves_only_with_shift_and_as_an_edit(
    drags: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, _ = table(rules=StubRules(drags=drags), phase="fire")
    look_at(app, "2005")
    drag(app, at(app, "2005"), at(app, "2107"))
    assert label_of(app, "A1") == "2005" and app.play.entries == []
    assert app.messages[-1] == f"A1: {PHASE_MOVES_ONLY}"
    monkeypatch.setattr(counters_module, "_mods", lambda: pygame.KMOD_LSHIFT)
    drag(app, at(app, "2005"), at(app, "2107"))
    assert label_of(app, "A1") == "2107"
    assert app.play.entries[-1].action == {"do": "move", "piece": "A1", "to": "2107", "edit": True}


def two_steps(app: App, layer: CounterLayer, *, full: bool = True) -> None:
    """A1 a two-step unit: its counter type given 2 steps (a flip has a face to flip
    to), the piece at full strength (2 steps) or, with ``full=False``, reduced (1)."""
    from dataclasses import replace

    cs = layer.counter_set(app)
    rifleman = replace(cs.unit_types["rifleman"], steps=2)
    layer.counters = replace(cs, unit_types={**cs.unit_types, "rifleman": rifleman})
    if full:
        app.state.update(replace(app.state.piece("A1"), steps=2))


def test_right_click_flip_changes_the_units_steps_and_back() -> None:
    """A flip is Piece.steps, through a logged `steps` action, never a status word
    (issue 13 finding 1)."""
    app, layer = table()
    two_steps(app, layer)
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    assert layer.menu is not None and app.selected == "A1"
    menu_click(app, layer, "Flip to reduced")
    a1 = app.state.piece("A1")
    assert a1.steps == 1 and layer.is_reduced(app, a1) and not a1.status and layer.menu is None
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Flip to full strength")
    assert app.state.piece("A1").steps == 2 and not layer.is_reduced(app, app.state.piece("A1"))


def test_a_one_step_unit_has_no_face_to_flip_to() -> None:
    """Finding 1: flipping needs a reduced face (the counters file's `steps` of 2 or more)."""
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    assert not any(item.label.startswith("Flip") for item in layer.menu_items(app))


def test_remove_to_the_dead_pool_keeps_the_piece_app_wide() -> None:
    app, layer = table()
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Remove to the dead pool")
    with pytest.raises(KeyError):
        app.state.piece("A1")
    assert [p.id for p in app.play.state.box("dead")] == ["A1"]
    assert app.selected is None
    assert app.messages[-1] == "A1 to dead"  # one line per action: the game's own (finding 14)


def test_every_menu_change_is_a_logged_generic_action() -> None:
    app, layer = table()
    two_steps(app, layer, full=False)
    look_at(app, "2005")
    for label in ("Flip to full strength", "Turn clockwise", "Remove to the dead pool"):
        click(app, at(app, "2005"), button=3)
        menu_click(app, layer, label)
    facing = app.play.entries[1].action["facing"]
    assert [e.action for e in app.play.entries] == [
        {"do": "steps", "piece": "A1", "steps": 2},
        {"do": "face", "piece": "A1", "facing": facing},
        {"do": "remove", "piece": "A1", "box": "dead"},
    ]
    assert [m for m in app.messages if not m.startswith("selected")] == [
        line for e in app.play.entries for line in e.lines
    ]  # each change said once, in the game's words (issue 13 finding 14)
    for _ in range(3):
        app.play.undo()
    app.sync()
    a1 = app.state.piece("A1")
    assert a1.steps == 1 and a1.facing != facing and app.play.state.box("dead") == []


def test_an_edit_in_a_rule_systems_game_is_logged_as_an_edit() -> None:
    app, layer = table(rules=StubRules())
    two_steps(app, layer)
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Flip to reduced")
    entry = app.play.entries[-1]
    assert entry.action == {"do": "steps", "piece": "A1", "steps": 1, "edit": True}
    assert entry.lines[0].startswith("edit (outside the rules)")
    assert app.state.piece("A1").steps == 1
    assert app.messages[-1] == entry.lines[0] and entry.lines[0] not in app.messages[:-1]  # said once


def test_a_refused_change_says_why_and_nothing_else() -> None:
    app, layer = table()
    two_steps(app, layer)
    app.play.state.result = "blue wins"
    look_at(app, "2005")
    click(app, at(app, "2005"), button=3)
    menu_click(app, layer, "Flip to reduced")
    assert app.state.piece("A1").steps == 2
    assert app.messages[-1] == "not allowed: the game is over: blue wins"
