"""The window's core: camera controls by real events, the tiled map layer, rendering.

Driven through pygame events under SDL_VIDEODRIVER=dummy (tests/conftest.py).
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.board import load_map
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.pieces import MapState
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.camera import Camera


@pytest.fixture
def app() -> App:
    pygame.font.init()
    state = MapState.of(load_map("dog-sector"))
    return App(
        state=state,
        title="t",
        los_policy=FreePlayPolicy.for_map(state),
        move_policy=FreePlayMovePolicy(),
        size=(800, 600),
    )


def frame(app: App) -> pygame.Surface:
    surface = pygame.Surface((app.camera.width, app.camera.height))
    app.draw(surface)
    return surface


def key(app: App, k: int, mod: int = 0) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def test_the_terrain_colour_is_drawn_at_a_hex_centre(app: App) -> None:
    surface = frame(app)
    for label in ("0101", "1510", "3016"):
        h = app.board.hex_of(label)
        x, y = app.screen_of(h)
        expected = theme.hex_colour(app.board.terrain_types[app.board.terrain[h]].colour)
        assert tuple(surface.get_at((round(x), round(y))))[:3] == expected


def test_zooming_keeps_the_point_under_the_cursor_still() -> None:
    cam = Camera(800, 600, center=(10.0, 5.0), zoom=1.0)
    before = cam.to_world(200, 150)
    cam.zoom_at(2.0, 200, 150)
    after = cam.to_world(200, 150)
    assert before == pytest.approx(after)
    cam.zoom_at(100.0, 0, 0)
    assert cam.zoom == theme.MAX_ZOOM
    cam.zoom_at(0.0001, 0, 0)
    assert cam.zoom == theme.MIN_ZOOM


def test_the_mouse_wheel_zooms_around_the_cursor(app: App) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 200), rel=(0, 0), buttons=(0, 0, 0)))
    under = app.camera.to_world(300, 200)
    zoom = app.camera.zoom
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, precise_x=0.0, precise_y=2.0, flipped=False))
    assert app.camera.zoom > zoom
    assert app.camera.to_world(300, 200) == pytest.approx(under)


def test_arrow_keys_and_right_drag_pan_the_map(app: App) -> None:
    c0 = app.camera.center
    key(app, pygame.K_LEFT)
    assert app.camera.center[0] < c0[0]
    c1 = app.camera.center
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 300), button=3))
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(-100, 0), buttons=(0, 0, 1)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(300, 300), button=3))
    assert app.camera.center[0] == pytest.approx(c1[0] + 100 / app.camera.scale)


def test_home_fits_the_whole_map_in_the_window(app: App) -> None:
    app.camera.zoom_at(3, 0, 0)
    key(app, pygame.K_HOME)
    x0, y0, x1, y1 = app.view.bounds
    for wx, wy in ((x0, y0), (x1, y1)):
        sx, sy = app.camera.to_screen(wx, wy)
        assert 0 <= sx <= 800 and 0 <= sy <= 600


def test_panning_reuses_the_tiles_and_zooming_redraws_them(app: App) -> None:
    frame(app)
    tiles = dict(app.view._tiles)
    key(app, pygame.K_RIGHT)
    frame(app)
    assert all(app.view._tiles[k] is t for k, t in tiles.items() if k in app.view._tiles)
    key(app, pygame.K_PLUS)
    frame(app)
    assert not any(app.view._tiles.get(k) is t for k, t in tiles.items())


def test_hex_labels_appear_only_when_zoomed_in_enough_to_read(app: App) -> None:
    app.camera.fit(app.view.bounds)
    app.camera.zoom = 0.5
    small = frame(app)
    h = app.board.hex_of("1508")
    x, y = app.screen_of(h)
    fill = tuple(small.get_at((round(x), round(y - app.camera.scale * 0.6))))[:3]
    app.camera.zoom = 2.0
    app.camera.center = app.view.center(h)
    big = frame(app)
    x, y = app.screen_of(h)
    band = [tuple(big.get_at((round(x) + dx, round(y - app.camera.scale * 0.6)))) for dx in range(-20, 21)]
    assert fill == theme.hex_colour(app.board.terrain_types[app.board.terrain[h]].colour)
    assert any(px[:3] != fill for px in band)  # text drawn in the label band


def test_escape_clears_the_selection_and_ctrl_q_quits(app: App) -> None:
    app.selected = "X"
    key(app, pygame.K_ESCAPE)
    assert app.selected is None
    key(app, pygame.K_q, pygame.KMOD_CTRL)
    assert not app.running


def test_a_region_name_is_written_on_a_hex_without_pieces() -> None:
    """Issue 13 finding 17: region labels are never drawn under counters; the name
    moves to the nearest free hex of its region, and back when the hex is free again."""
    from tabletop.board import load_map
    from tabletop.ui.board_view import BoardView

    board = load_map("dog-sector")
    view = BoardView(board)
    key = next(k for k, r in board.regions.items() if len(r.hexes) > 3)
    home = view.region_anchor(key)
    taken = next(h for h in board.regions[key].hexes if view.layout.center(h) == home)
    moved = view.region_anchor(key, {taken})
    assert moved != home and moved in [view.layout.center(h) for h in board.regions[key].hexes]
    assert view.region_anchor(key, set()) == home
