"""The table's overlays: LOS thread, viewshed, movement reach, attack area, range ring.

Driven by real pygame events through ``App.handle`` and checked on the pixels drawn
(SDL_VIDEODRIVER=dummy, tests/conftest.py). Maps are small free-play maps drawn here,
and one shipped demo scenario.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest
from helpers import small_map

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.los import Finding, LineContext
from tabletop.engine.movement import MoveModel
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.viewshed import viewshed
from tabletop.games import los_policy, move_policy
from tabletop.hexgrid import Hex
from tabletop.ui import overlays as ov
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.overlays import Overlays

SIZE = (900, 520)

# Row 3 runs straight across from 0103 to 0903 (odd columns share a row's height on an
# odd-q map); woods in 0503 block it half way, brush in 0303 hinders it.
ROWS = """
. . . . . . . . .
. . . . . . . . .
. . . . W . . . .
. . . . . . . . .
. . . . . . . . .
"""
HINDERED = """
. . . . . . . . .
. . . . . . . . .
. . b . W . . . .
. . . . . . . . .
. . . . . . . . .
"""


def board(rows: str = ROWS) -> MapState:
    lines = rows.strip().splitlines()
    text = f"""
name: overlay test
grid: {{columns: {len(lines[0].split())}, rows: {len(lines)}}}
terrain:
  open: {{symbol: ".", colour: "#c8c8a0"}}
  brush: {{symbol: "b", colour: "#88aa44", properties: {{los: hinder}}}}
  woods: {{symbol: "W", colour: "#2e6b2e", properties: {{los: block, move_cost: 3}}}}
rows: |
""" + "".join(f"  {r}\n" for r in lines)
    return MapState.of(small_map(text))


def make_app(state: MapState | None = None, **policies: object) -> App:
    pygame.font.init()
    state = state if state is not None else board()
    return App(
        state=state,
        title="overlays",
        los_policy=policies.get("los", FreePlayPolicy.for_map(state)),  # type: ignore[arg-type]
        move_policy=policies.get("move", FreePlayMovePolicy()),  # type: ignore[arg-type]
        size=SIZE,
        components=[Overlays()],
    )


def frame(app: App) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    app.update(0.0)
    app.draw(surface)
    return surface


def key(app: App, k: int, mod: int = 0) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def mouse(app: App, kind: int, pos: tuple[float, float], button: int = 1) -> None:
    p = (round(pos[0]), round(pos[1]))
    if kind == pygame.MOUSEMOTION:
        app.handle(pygame.event.Event(kind, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    else:
        app.handle(pygame.event.Event(kind, pos=p, button=button))


def drag(app: App, a: Hex, b: Hex) -> None:
    """Left-drag from the centre of ``a`` to the centre of ``b``, passing half way."""
    pa, pb = app.screen_of(a), app.screen_of(b)
    mouse(app, pygame.MOUSEBUTTONDOWN, pa)
    mouse(app, pygame.MOUSEMOTION, ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2))
    mouse(app, pygame.MOUSEMOTION, pb)
    mouse(app, pygame.MOUSEBUTTONUP, pb)


def pixel(surface: pygame.Surface, p: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(p[0]), round(p[1]))))[:3]  # type: ignore[return-value]


def along(app: App, a: Hex, b: Hex, t: float) -> tuple[float, float]:
    (ax, ay), (bx, by) = app.screen_of(a), app.screen_of(b)
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def luminance(c: tuple[int, int, int]) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def hexes(app: App, *labels: str) -> list[Hex]:
    return [app.board.hex_of(label) for label in labels]


# --- line of sight ---------------------------------------------------------------------


def test_a_dragged_thread_is_clear_before_the_blocking_point_and_blocked_after_it() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    key(app, pygame.K_l)
    drag(app, a, b)
    surface = frame(app)
    result = app.overlay_component()._thread(app)
    assert result.result == "blocked"
    cut = result.blocked_at
    assert 0.3 < cut < 0.5
    assert pixel(surface, along(app, a, b, cut / 2)) == theme.LOS_CLEAR
    assert pixel(surface, along(app, a, b, (cut + 1) / 2 + 0.1)) == theme.LOS_BLOCKED
    assert any("blocked" in m for m in app.messages)  # the drag's verdict is said


def test_the_thread_is_at_least_four_pixels_thick_over_a_dark_casing() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    app.overlay_component().set_los(app, a, b)
    surface = frame(app)
    x, y = along(app, a, b, 0.15)
    column = [pixel(surface, (x, y + dy)) for dy in range(-8, 9)]
    assert column.count(theme.LOS_CLEAR) >= 4
    assert theme.LOS_CASING in column


def test_a_hindered_line_turns_hindered_where_the_hindrance_starts() -> None:
    app = make_app(board(HINDERED))
    a, b = hexes(app, "0103", "0903")
    result = app.overlay_component().set_los(app, a, b)
    assert result.hindered_at < result.blocked_at
    surface = frame(app)
    h, k = result.hindered_at, result.blocked_at
    assert pixel(surface, along(app, a, b, h / 2)) == theme.LOS_CLEAR
    assert pixel(surface, along(app, a, b, (h + k) / 2)) == theme.LOS_HINDERED
    assert pixel(surface, along(app, a, b, 0.9)) == theme.LOS_BLOCKED


def test_set_los_marks_the_hexes_under_the_thread_for_the_counters_and_clear_removes_it() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    overlays = app.overlay_component()
    result = overlays.set_los(app, a, b)
    frame(app)
    ghost = app.overlays[ov.GHOST]
    assert ghost == set(result.crossed[1:-1])
    assert app.board.hex_of("0503") in ghost and a not in ghost and b not in ghost
    overlays.clear(app)
    frame(app)
    assert ov.GHOST not in app.overlays
    assert not app.overlays[ov.LOS]


def test_the_blocking_hex_is_crossed_out_and_the_label_names_the_cause() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    app.overlay_component().set_los(app, a, b)
    surface = frame(app)
    woods = app.board.hex_of("0503")
    x, y = app.screen_of(woods)
    r = max(6.0, app.camera.scale * 0.32) * 0.7
    assert pixel(surface, (x - r, y - r)) == theme.LOS_BLOCKED  # an arm of the X, off the thread
    overlays = app.overlay_component()
    text = overlays._summary(app, overlays._thread(app))
    assert "blocked at 0503: woods" in text and "range 8" in text  # as `tabletop los` words it


def test_with_the_mode_off_left_clicks_are_left_for_the_counters() -> None:
    app = make_app()
    a = app.board.hex_of("0203")
    event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tuple(map(round, app.screen_of(a))), button=1)
    assert app.overlay_component().handle(event, app) is False
    key(app, pygame.K_l)
    assert app.overlay_component().handle(event, app) is True


def test_a_click_without_a_drag_clears_the_thread() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    key(app, pygame.K_l)
    drag(app, a, b)
    assert app.overlay_component()._thread(app) is not None
    mouse(app, pygame.MOUSEBUTTONDOWN, app.screen_of(a))
    mouse(app, pygame.MOUSEBUTTONUP, app.screen_of(a))
    assert app.overlay_component()._thread(app) is None


def test_with_a_unit_selected_hovering_shows_its_line() -> None:
    state = board()
    state.place(Piece("u1", "rifle", state.board.hex_of("0103"), side="blue"))
    app = make_app(state)
    key(app, pygame.K_l)
    app.selected = "u1"
    target = app.board.hex_of("0903")
    mouse(app, pygame.MOUSEMOTION, app.screen_of(target))
    assert app.hover == target
    surface = frame(app)
    result = app.overlay_component()._thread(app)
    assert result.query.viewer.id == "u1" and result.result == "blocked"
    assert pixel(surface, along(app, state.piece("u1").hex, target, 0.9)) == theme.LOS_BLOCKED


def test_page_up_raises_the_source_and_shift_page_up_the_target() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    overlays = app.overlay_component()
    overlays.set_los(app, a, b)
    key(app, pygame.K_PAGEUP)
    key(app, pygame.K_PAGEUP)
    key(app, pygame.K_PAGEUP, pygame.KMOD_SHIFT)
    result = overlays._thread(app)
    assert (result.source_level, result.target_level) == (2, 1)
    key(app, pygame.K_PAGEDOWN)
    assert overlays._thread(app).source_level == 1


def test_the_l_key_switches_the_thread_off() -> None:
    app = make_app()
    a, b = hexes(app, "0103", "0903")
    app.overlay_component().set_los(app, a, b)
    before = frame(app)
    key(app, pygame.K_l)
    after = frame(app)
    assert not app.overlays[ov.LOS]
    assert ov.GHOST not in app.overlays
    p = along(app, a, b, 0.2)
    assert pixel(before, p) == theme.LOS_CLEAR and pixel(after, p) != theme.LOS_CLEAR


# --- viewshed --------------------------------------------------------------------------


def test_the_viewshed_darkens_a_hidden_hex_and_leaves_a_seen_one() -> None:
    app = make_app()
    plain = frame(app)
    source, hidden, seen = hexes(app, "0103", "0903", "0101")
    app.overlay_component().show_viewshed(app, source)
    shaded = frame(app)
    for h in (hidden, seen):  # a point of the hex away from its centre (where a label might sit)
        x, y = app.screen_of(h)
        p = (x + app.camera.scale * 0.4, y + app.camera.scale * 0.3)
        if h == hidden:
            assert luminance(pixel(shaded, p)) < luminance(pixel(plain, p)) - 40
        else:
            assert pixel(shaded, p) == pixel(plain, p)


def test_the_viewshed_of_the_selected_unit_is_worked_out_once_per_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = board()
    state.place(Piece("u1", "rifle", state.board.hex_of("0103"), side="blue"))
    app = make_app(state)
    calls = []
    real = ov.viewshed

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ov, "viewshed", counting)
    app.selected = "u1"
    key(app, pygame.K_v)
    for _ in range(5):
        frame(app)
    assert len(calls) == 1
    state.place(Piece("smoke", "smoke", state.board.hex_of("0303"), kind="marker"))
    frame(app)
    frame(app)
    assert len(calls) == 2


class JudgingPolicy(FreePlayPolicy):
    """Free play with a whole-line rule, so the engine cannot vectorise its viewshed."""

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        return found


def test_a_viewshed_that_cannot_be_vectorised_is_worked_out_over_frames_and_agrees() -> None:
    state = board()
    policy = JudgingPolicy.for_map(state)
    app = make_app(state, los=policy)
    source = app.board.hex_of("0103")
    key(app, pygame.K_v)
    mouse(app, pygame.MOUSEMOTION, app.screen_of(source))
    overlays = app.overlay_component()
    for _ in range(1000):
        app.update(0.016)
        if overlays._vs_job is None:
            break
    assert overlays._current_viewshed(app, wait=False) == viewshed(state, policy, source)


# --- movement reach --------------------------------------------------------------------


class ZocMovePolicy(FreePlayMovePolicy):
    """Free-play movement with must-stop hexes (a stand-in for zones of control)."""

    def __init__(self, stops: set[Hex]) -> None:
        self.stops = stops

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        base = super().model(state, unit, order, budget)
        return replace(base, stop={h: "zone of control" for h in self.stops})


def has_colour(surface: pygame.Surface, app: App, h: Hex, colour: tuple[int, int, int]) -> bool:
    x, y = app.screen_of(h)
    r = int(app.camera.scale * 0.7)
    return any(
        pixel(surface, (x + dx, y + dy)) == colour for dx in range(-r, r + 1, 1) for dy in range(-r, r + 1, 1)
    )


def test_reach_shades_a_reachable_hex_and_hatches_a_must_stop_hex() -> None:
    state = board()
    start, near, zoc, far = (state.board.hex_of(x) for x in ("0103", "0203", "0302", "0903"))
    state.place(Piece("u1", "rifle", start, side="blue"))
    app = make_app(state, move=ZocMovePolicy({zoc}))
    plain = frame(app)
    reach = app.overlay_component().show_reach(app, "u1")
    assert near in reach.costs and zoc in reach.stops and far not in reach.costs
    shaded = frame(app)
    x, y = app.screen_of(near)
    p = (x - app.camera.scale * 0.4, y - app.camera.scale * 0.1)
    assert pixel(shaded, p) != pixel(plain, p)
    x, y = app.screen_of(far)
    assert pixel(shaded, (x, y)) == pixel(plain, (x, y))
    assert has_colour(shaded, app, zoc, ov.HATCH_LIGHT[:3])
    assert not has_colour(shaded, app, near, ov.HATCH_LIGHT[:3])


def test_reach_is_shaded_light_to_dark_by_cost_and_draws_the_path_to_the_hovered_hex() -> None:
    state = board()
    start = state.board.hex_of("0103")
    state.place(Piece("u1", "rifle", start, side="blue"))
    app = make_app(state)
    app.selected = "u1"
    key(app, pygame.K_c)
    cheap, dear = hexes(app, "0203", "0403")
    reach = app.overlay_component()._current_reach(app)
    assert reach.costs[cheap] < reach.costs[dear]
    surface = frame(app)
    offset = (-app.camera.scale * 0.45, -app.camera.scale * 0.1)
    c_cheap = pixel(surface, (app.screen_of(cheap)[0] + offset[0], app.screen_of(cheap)[1] + offset[1]))
    c_dear = pixel(surface, (app.screen_of(dear)[0] + offset[0], app.screen_of(dear)[1] + offset[1]))
    assert luminance(c_cheap) > luminance(c_dear)
    mouse(app, pygame.MOUSEMOTION, app.screen_of(dear))
    surface = frame(app)
    path = reach.path_to(dear)
    mid = ((app.screen_of(path[0])[0] + app.screen_of(path[1])[0]) / 2,
           (app.screen_of(path[0])[1] + app.screen_of(path[1])[1]) / 2)  # fmt: skip
    assert pixel(surface, mid) == ov.PATH


def test_the_c_key_switches_the_reach_off() -> None:
    state = board()
    state.place(Piece("u1", "rifle", state.board.hex_of("0103"), side="blue"))
    app = make_app(state)
    plain = frame(app)
    app.overlay_component().show_reach(app, "u1")
    key(app, pygame.K_c)
    assert not app.overlays[ov.REACH]
    assert pygame.image.tobytes(frame(app), "RGB") == pygame.image.tobytes(plain, "RGB")


def test_show_reach_names_an_unknown_unit() -> None:
    app = make_app()
    with pytest.raises(ValueError, match="nobody"):
        app.overlay_component().show_reach(app, "nobody")


# --- attack area and range ring ---------------------------------------------------------


def test_the_attack_area_warns_when_own_men_are_inside() -> None:
    state = board()
    firer, friend, foe, target = (state.board.hex_of(x) for x in ("0103", "0705", "0602", "0704"))
    state.place(Piece("f1", "rifle", firer, side="blue"))
    state.place(Piece("f2", "rifle", friend, side="blue"))
    state.place(Piece("e1", "rifle", foe, side="red"))
    app = make_app(state)
    app.selected = "f1"
    key(app, pygame.K_x)
    mouse(app, pygame.MOUSEMOTION, app.screen_of(target))
    surface = frame(app)
    assert any("this shot may hit your own men: f2" in m for m in app.messages)
    x, y = app.screen_of(friend)
    ring = app.camera.scale * 0.82 - 4  # inside the ring's width (drawn inward)
    assert pixel(surface, (x + ring, y)) == ov.WARN
    x, y = app.screen_of(foe)
    assert pixel(surface, (x + ring, y)) != ov.WARN
    before = len(app.messages)
    frame(app)
    assert len(app.messages) == before  # said once, not every frame


def test_the_range_ring_radius_follows_comma_and_period() -> None:
    app = make_app()
    centre = app.board.hex_of("0503")
    key(app, pygame.K_g)
    mouse(app, pygame.MOUSEMOTION, app.screen_of(centre))
    overlays = app.overlay_component()
    start = overlays.ring_radius
    key(app, pygame.K_PERIOD)
    assert overlays.ring_radius == start + 1
    key(app, pygame.K_COMMA)
    key(app, pygame.K_COMMA)
    assert overlays.ring_radius == start - 1
    overlays.ring_radius = 1
    surface = frame(app)
    # the ring runs between the hexes at distance 1 and 2: the middle of such a hexside
    inner, outer = hexes(app, "0603", "0703")
    (ix, iy), (ox, oy) = app.screen_of(inner), app.screen_of(outer)
    assert has_colour(surface, app, inner, ov.RING_EDGE)
    assert pixel(surface, ((ix + ox) / 2, (iy + oy) / 2)) in (ov.RING_EDGE, ov.CASING)


def test_comma_and_period_are_left_alone_when_no_ring_or_area_is_shown() -> None:
    app = make_app()
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PERIOD, mod=0, unicode=".")
    assert app.overlay_component().handle(event, app) is False


# --- keys and legend -------------------------------------------------------------------

TAKEN = set("wasdnperhmk0123456789[]ft?") | {"+", "-"}


def test_the_overlay_keys_do_not_take_keys_other_parts_use() -> None:
    overlays = Overlays()
    keys = {k for k, _ in overlays.shortcuts}
    assert {"l", "v", "c", "x", "g"} <= {k.split(",")[0] for k in keys}
    assert not ({k for k in keys if len(k) == 1} & TAKEN)
    app = make_app()
    for k, mod in ((pygame.K_l, pygame.KMOD_CTRL), (pygame.K_a, pygame.KMOD_ALT), (pygame.K_w, 0)):
        event = pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")
        assert app.overlay_component().handle(event, app) is False


def test_each_switch_key_turns_its_overlay_on_and_off() -> None:
    app = make_app()
    for k, name in ((pygame.K_l, ov.LOS), (pygame.K_v, ov.VIEWSHED), (pygame.K_c, ov.REACH),
                    (pygame.K_x, ov.ATTACK), (pygame.K_g, ov.RING)):  # fmt: skip
        key(app, k)
        assert app.overlays[name]
        key(app, k)
        assert not app.overlays[name]


def test_the_legend_sits_bottom_left_above_the_status_line_while_an_overlay_is_on() -> None:
    app = make_app()
    corner = (14, SIZE[1] - ov.STATUS_LINE - 12)
    plain = frame(app)
    key(app, pygame.K_l)
    shown = frame(app)
    assert pixel(shown, corner) != pixel(plain, corner)
    bottom = (14, SIZE[1] - 4)
    assert pixel(shown, bottom) == pixel(plain, bottom)  # the status line's strip is left free


# --- a shipped scenario ----------------------------------------------------------------


def test_on_the_dogs_of_war_demo_the_thread_changes_colour_where_the_house_blocks_it() -> None:
    opened = open_map_or_scenario("dogs-of-war-demo")
    assert isinstance(opened, Scenario)
    state = opened.state()
    pygame.font.init()
    app = App(
        state=state,
        title=opened.name,
        los_policy=los_policy(state, opened.rules),
        move_policy=move_policy(state, opened.rules),
        conditions=opened.conditions,
        size=SIZE,
        components=[Overlays()],
    )
    overlays = app.overlay_component()
    a, b = state.piece("A1").hex, state.piece("R1").hex
    result = overlays.set_los(app, a, b)
    assert result.result == "blocked"
    surface = frame(app)
    cut = result.blocked_at
    assert pixel(surface, along(app, a, b, cut * 0.5)) == theme.LOS_CLEAR
    assert pixel(surface, along(app, a, b, cut + (1 - cut) * 0.5)) == theme.LOS_BLOCKED
    reach = overlays.show_reach(app, "A1")
    assert reach is not None and reach.costs
    frame(app)


def test_a_still_or_panned_view_paints_no_tile_again() -> None:
    app = make_app()
    overlays = app.overlay_component()
    overlays.show_viewshed(app, app.board.hex_of("0103"))
    frame(app)
    tiles = dict(overlays._fills["viewshed"].tiles)
    assert any(t is not None for t in tiles.values())
    frame(app)
    app.camera.pan(7, 5)
    frame(app)
    again = overlays._fills["viewshed"].tiles
    assert all(again[k] is t for k, t in tiles.items())  # kept, not painted afresh
    app.camera.zoom_at(1.15, 100, 100)
    frame(app)
    assert all(again.get(k) is not t for k, t in tiles.items() if t is not None)  # a new zoom repaints


def test_set_los_refuses_a_line_from_a_hex_to_itself_and_an_off_map_hex() -> None:
    app = make_app()
    a = app.board.hex_of("0103")
    with pytest.raises(ValueError, match="two different hexes"):
        app.overlay_component().set_los(app, a, a)
    with pytest.raises(ValueError, match="not on the map"):
        app.overlay_component().set_los(app, a, Hex(40, 40))


def test_z_cycles_the_attack_area_through_splash_blast_rings_and_the_autofire_corridor() -> None:
    # Dogfaces II (Ernie's frag grenade: the hex and its six neighbours), Dogs of War
    # (frag grenade rings 1/2/3; full-automatic fire: a band along the line of fire).
    state = board()
    firer, target = state.board.hex_of("0103"), state.board.hex_of("0503")
    state.place(Piece("f1", "rifle", firer, side="blue"))
    app = make_app(state)
    app.selected = "f1"
    over = app.overlay_component()
    key(app, pygame.K_x)
    mouse(app, pygame.MOUSEMOTION, app.screen_of(target))
    sizes = {}
    for _ in range(4):
        frame(app)
        assert over._attack is not None
        sizes[over.area_kind] = set(over._attack[0])
        key(app, pygame.K_z)
    assert over.area_kind == "radius"  # back to the start after four
    assert len(sizes["splash"]) == 7
    assert sizes["blast rings 1/2/3"] >= sizes["splash"] and len(sizes["blast rings 1/2/3"]) > 7
    beyond = state.board.hex_of("0703")  # past the target on the line of fire
    assert beyond in sizes["autofire corridor"] and firer not in sizes["autofire corridor"]
    assert beyond not in sizes["splash"]
