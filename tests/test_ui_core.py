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


# --- a printed map's picture under the grid (issue 21 item 2) ----------------------------


def picture_map(tmp_path, bad: bool = False):  # type: ignore[no-untyped-def]
    """A 6x5 blank map over a picture whose pixel at each hex centre is a colour of its
    own (red = column, green = row): a drawn pixel says which hex of the picture it is."""
    from tabletop.board.blank import blank_map_yaml

    text = blank_map_yaml(columns=6, rows=5, name="Picture")
    (tmp_path / "m0.yaml").write_text(text)
    m = load_map(tmp_path / "m0.yaml")
    lay = m.grid.layout(1.0)
    fx, fy = lay.center(m.grid.hex_at(0, 0))
    picture = pygame.Surface((300, 260))
    picture.fill((0, 0, 0))
    for h in m.grid.hexes():
        x, y = lay.center(h)
        col, row = m.grid.offset_of(h)
        pygame.draw.circle(picture, (40 * col + 20, 40 * row + 20, 200), (30 + (x - fx) * 20, 25 + (y - fy) * 24), 6)
    if bad:
        (tmp_path / "board.png").write_bytes(b"not a png at all")
    else:
        pygame.image.save(picture, str(tmp_path / "board.png"))
    (tmp_path / "m.yaml").write_text(text + "background: {image: board.png, origin: [30, 25], scale: [20, 24]}\n")
    state = MapState.of(load_map(tmp_path / "m.yaml"))
    return App(
        state=state, title="t", los_policy=FreePlayPolicy.for_map(state), move_policy=FreePlayMovePolicy(), size=(800, 600)
    )


def test_the_background_picture_lies_under_the_hex_its_alignment_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 21 item 2: the window draws the image under the grid; each hex's centre
    shows the picture's point that the map's origin and scale put there. Shift+T cycles
    the terrain colours over it (thin, none, full) and says which."""
    pygame.font.init()
    app = picture_map(tmp_path)
    app.camera.zoom_at(2.0, *app.camera.area_centre())
    key(app, pygame.K_t, pygame.KMOD_SHIFT)  # thin -> the picture alone
    assert app.view.tint == 0.0 and "picture alone" in app.messages[-1]
    surface = frame(app)
    grid = app.state.board.grid
    seen = 0
    for h in grid.hexes():
        x, y = app.screen_of(h)
        if not (0 <= x < 800 and 0 <= y < 600) or app.layout.covers((round(x), round(y))):
            continue
        col, row = grid.offset_of(h)
        r, g, b = tuple(surface.get_at((round(x), round(y))))[:3]
        assert abs(r - (40 * col + 20)) <= 6 and abs(g - (40 * row + 20)) <= 6 and b > 150, (h, (r, g, b))
        seen += 1
    assert seen >= 6
    key(app, pygame.K_t, pygame.KMOD_SHIFT)  # none -> full terrain colours: the picture hidden
    surface = frame(app)
    h = next(h for h in grid.hexes() if not app.layout.covers(tuple(map(round, app.screen_of(h)))))
    x, y = app.screen_of(h)
    assert tuple(surface.get_at((round(x), round(y))))[:3] == app.view.fill[app.view.index[h]]


def test_an_unreadable_background_draws_the_terrain_and_says_why(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pygame.font.init()
    app = picture_map(tmp_path, bad=True)
    assert app.view.picture is None and app.view.tint == 1.0
    assert any("board.png: cannot be read" in m for m in app.messages)
    frame(app)  # draws, without the picture
