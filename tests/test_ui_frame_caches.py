"""Issue 19 item 4 (a smooth table on big maps): the drawing caches give exactly what
drawing afresh gives. The hex polygons an overlay paints from a kept list equal those
worked out anew on random lists, zooms and tiles; tiles kept from an earlier zoom level
are pixel for pixel the tiles painted afresh, and a change of ground drops them; a fill
layer stamped where classes changed equals its polygons painted anew; counters replayed
from kept blits equal counters drawn afresh."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pygame
import pytest
from helpers import small_map

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex
from tabletop.ui import board_view
from tabletop.ui import overlays as ov
from tabletop.ui.app import App
from tabletop.ui.board_view import TILE, BoardView
from tabletop.ui.counters import CounterLayer
from tabletop.ui.hexfill import HexFillLayer, floor_pixels
from tabletop.ui.overlays import Overlays

SIZE = (900, 520)


def make_app(columns: int = 14, rows: int = 10, seed: int = 1) -> App:
    rng = random.Random(seed)
    lines = "".join("  " + " ".join(rng.choice("..bW") for _ in range(columns)) + "\n" for _ in range(rows))
    text = f"""
name: frame caches
grid: {{columns: {columns}, rows: {rows}}}
terrain:
  open: {{symbol: ".", colour: "#c8c8a0"}}
  brush: {{symbol: "b", colour: "#88aa44", properties: {{los: hinder}}}}
  woods: {{symbol: "W", colour: "#2e6b2e", properties: {{los: block}}}}
rows: |
{lines}"""
    pygame.font.init()
    state = MapState.of(small_map(text))
    return App(
        state=state, title="caches", los_policy=FreePlayPolicy.for_map(state), move_policy=FreePlayMovePolicy(),
        size=SIZE, components=[Overlays()],
    )  # fmt: skip


def fresh_polygons(app: App, frame: ov._Frame, hexes: list[Hex]) -> list[object]:
    """The polygons worked out with nothing kept (the code before the cache)."""
    index = app.view.index
    known = np.fromiter((index.get(h, -1) for h in hexes), dtype=np.int64, count=len(hexes))
    pix = app.view.corners[np.maximum(known, 0)] * frame.scale - (frame.ox, frame.oy)
    lo, hi = pix.min(axis=1), pix.max(axis=1)
    show = (known >= 0) & (hi[:, 0] >= 0) & (hi[:, 1] >= 0) & (lo[:, 0] <= frame.width) & (lo[:, 1] <= frame.height)
    return [pix[i].tolist() if show[i] else None for i in range(len(hexes))]


def test_kept_hex_polygons_equal_fresh_ones_on_random_lists_zooms_and_tiles() -> None:
    """Random lists (with off-map hexes among them), each painted on 9 tiles at 4 zooms
    as a layer does: every polygon (or None off the tile) is the fresh one, bit for bit."""
    app = make_app()
    rng = random.Random(19)
    hexes = app.state.board.grid.hexes()
    off_map = [Hex(-5, -5), Hex(40, 3)]
    for _ in range(12):
        picked = rng.sample(hexes, rng.randint(1, len(hexes))) + rng.sample(off_map, rng.randint(0, 2))
        rng.shuffle(picked)
        for scale in (3.0, 17.5, 40.0, 91.25):
            for tx in range(3):
                for ty in range(3):
                    frame = ov._Frame(scale, tx * 512, ty * 512, 512, 512)
                    assert ov._polygons(app, frame, picked) == fresh_polygons(app, frame, picked)


def test_a_kept_list_seen_at_another_zoom_is_worked_out_again() -> None:
    """The same list object at a new zoom does not reuse the corners of the old zoom."""
    app = make_app()
    hexes = app.state.board.grid.hexes()[:30]
    for scale in (10.0, 20.0, 10.0):
        frame = ov._Frame(scale, 0, 0, 512, 512)
        assert ov._polygons(app, frame, hexes) == fresh_polygons(app, frame, hexes)


def tile_bytes(view: BoardView, tx: int, ty: int, scale: float) -> bytes:
    return pygame.image.tobytes(view._render_tile(tx, ty, scale), "RGB")


def test_tiles_kept_from_an_earlier_zoom_are_the_tiles_painted_afresh() -> None:
    """Zooming in three wheel steps and back out: the tiles shown at the first zoom
    again are those kept, and equal, pixel for pixel, tiles painted now."""
    app = make_app()
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    first = app.camera.scale
    kept = dict(app.view._tiles)
    for factor in (1.15, 1.15, 1.15, 1 / 1.15, 1 / 1.15, 1 / 1.15):
        app.camera.zoom_at(factor, 450, 260)
        app.draw(surface)
    assert abs(app.camera.scale - first) <= 1e-9
    assert all(app.view._tiles[k] is tile for k, tile in kept.items())  # kept, not painted again
    for tx, ty in kept:
        got = pygame.image.tobytes(app.view._tiles[(tx, ty)], "RGB")
        assert got == tile_bytes(app.view, tx, ty, app.camera.scale)


def test_a_change_of_ground_drops_the_tiles_of_every_zoom() -> None:
    """A hex turned to woods in play (E6) while zoomed in shows as woods when zooming
    back out to a level whose tiles were kept from before the change."""
    app = make_app(seed=2)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    app.camera.zoom_at(1.15, 450, 260)
    app.draw(surface)
    h = next(h for h in app.state.board.grid.hexes() if app.state.board.terrain[h] == "open")
    app.state.set_terrain(h, "woods")
    app.draw(surface)
    app.camera.zoom_at(1 / 1.15, 450, 260)
    app.draw(surface)
    sx, sy = app.screen_of(h)
    assert tuple(surface.get_at((round(sx), round(sy))))[:3] == (0x2E, 0x6B, 0x2E)
    assert TILE == 512


def test_threads_one_after_another_look_as_each_drawn_afresh() -> None:
    """The thread's tinted hexes are stamped where the last thread's differ: on a big
    map zoomed in, 12 threads in random directions, one after another, each give the
    frame drawn with nothing kept."""
    app = make_app(columns=40, rows=30, seed=3)
    app.camera.zoom_at(3.0, 450, 260)
    overlays = app.overlay_component()
    hexes = app.state.board.grid.hexes()
    rng = random.Random(4)
    surface = pygame.Surface(SIZE)
    for _ in range(12):
        a, b = rng.sample(hexes, 2)
        overlays.set_los(app, a, b)
        app.draw(surface)
        kept = pygame.image.tobytes(surface, "RGB")
        overlays._fills.clear()
        app.draw(surface)
        assert pygame.image.tobytes(surface, "RGB") == kept


def reference_fill(layer: HexFillLayer, view: BoardView, scale: float, classes: np.ndarray,
                   tiles: list[tuple[int, int]]) -> pygame.Surface:  # fmt: skip
    """Every shaded hex's polygon painted on one surface over all the tiles, lowest class
    first (the overlay before the stamps, with no tile edge to clip at), at the whole
    pixels pygame puts its corners on."""
    x0, y0 = min(t[0] for t in tiles), min(t[1] for t in tiles)
    w = (max(t[0] for t in tiles) - x0 + 1) * TILE
    h = (max(t[1] for t in tiles) - y0 + 1) * TILE
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    for i in sorted(range(len(view.hexes)), key=lambda i: int(classes[i])):
        if classes[i]:
            pts = (floor_pixels(view.corners[i] * scale) - (x0 * TILE, y0 * TILE)).tolist()
            pygame.draw.polygon(out, layer.painted[int(classes[i])], pts)
    return out


def test_a_fill_layer_repainted_where_classes_changed_equals_polygons_painted_afresh() -> None:
    """Issue 19 item 4 (the viewshed following the pointer): 30 random class maps one
    after another, at three zooms and after a pan, stamped only where classes changed,
    give every tile pixel for pixel (alpha too) the polygons painted anew in class order."""
    app = make_app(columns=30, rows=22, seed=5)
    view = app.view
    layer = HexFillLayer(((8, 10, 16, 150), (230, 170, 40, 90)))
    surface = pygame.Surface(SIZE)
    rng = np.random.default_rng(7)
    n = len(view.hexes)
    classes = np.zeros(n, dtype=np.int8)
    for step in range(30):
        if step in (10, 20):
            app.camera.zoom_at(1.9 if step == 10 else 0.7, 300, 200)
        if step == 15:
            app.camera.pan(-231, 97)
        if step % 3:  # a few hexes change, as when the pointer moves one hex
            classes = classes.copy()
            picked = rng.choice(n, 12, replace=False)
            classes[picked] = rng.integers(0, 3, 12)
        else:
            classes = rng.integers(0, 3, n).astype(np.int8)
        layer.draw(surface, app.camera, view, classes, ("random", step))
        tiles = sorted(layer.tiles)
        ref = reference_fill(layer, view, app.camera.scale, classes, tiles)
        x0, y0 = tiles[0]
        for tx, ty in tiles:
            tile = layer.tiles[(tx, ty)]
            want = ref.subsurface(((tx - x0) * TILE, (ty - y0) * TILE, TILE, TILE))
            if tile is None:
                assert pygame.mask.from_surface(want, 0).count() == 0
            else:
                assert pygame.image.tobytes(tile, "RGBA") == pygame.image.tobytes(want, "RGBA")


def test_a_fill_layer_shows_the_new_classes_after_a_key_change_only() -> None:
    """The same key keeps the picture (nothing stamped); a new key restamps."""
    app = make_app()
    view = app.view
    layer = HexFillLayer(((8, 10, 16, 150),))
    surface = pygame.Surface(SIZE)
    none = np.zeros(len(view.hexes), dtype=np.int8)
    layer.draw(surface, app.camera, view, none, "a")
    assert all(t is None for t in layer.tiles.values())  # nothing shaded: no tile kept
    some = none.copy()
    some[5] = 1
    layer.draw(surface, app.camera, view, some, "a")
    assert all(t is None for t in layer.tiles.values())
    layer.draw(surface, app.camera, view, some, "b")
    assert any(t is not None for t in layer.tiles.values())


def stacked_app(seed: int) -> App:
    """A table with stacks of 1-5 units with status chips and facings."""
    app = make_app(columns=16, rows=11, seed=seed)
    rng = random.Random(seed)
    hexes = rng.sample(app.state.board.grid.hexes(), 18)
    for i in range(45):
        status = frozenset(rng.sample(["pinned", "fired", "moved", "broken"], rng.randint(0, 2)))
        app.state.place(Piece(f"U{i}", rng.choice(["infantry", "tank", "hq"]), rng.choice(hexes),
                              rng.choice(["blue", "red"]), status=status, facing=rng.choice([None, 1, 4])))  # fmt: skip
    app.components.append(CounterLayer())
    app.camera.fit(app.view.bounds)
    return app


def test_counters_replayed_from_kept_blits_equal_counters_drawn_afresh() -> None:
    """Issue 19 item 4 (200 counters a frame): frames drawn with each stack's blits kept
    equal, pixel for pixel, frames drawn with nothing kept, while pieces change (steps,
    status, a move), the selection moves, the view zooms and the thread's ghosts change;
    a still view replays the frame's blits as they were."""
    for seed in (1, 2):
        app = stacked_app(seed)
        layer = next(c for c in app.components if isinstance(c, CounterLayer))
        rng = random.Random(seed)
        surface = pygame.Surface(SIZE)
        for step in range(14):
            piece = app.state.piece(f"U{rng.randrange(45)}")
            change = step % 4
            if change == 0:
                app.state.update(replace(piece, steps=max(1, piece.steps - 1)))
            elif change == 1:
                app.state.update(replace(piece, status=piece.status ^ {"pinned"}))
            elif change == 2:
                app.state.move(piece.id, rng.choice(app.state.board.grid.hexes()))
            else:
                app.camera.zoom_at(rng.choice((1.6, 1 / 1.6)), 450, 260)
            app.selected = f"U{rng.randrange(45)}"
            app.overlays["ghost-under-los"] = set(rng.sample(app.state.board.grid.hexes(), 40))
            app.draw(surface)
            kept = pygame.image.tobytes(surface, "RGB")
            layer.__dict__.pop("_ops", None)  # nothing kept: every stack drawn afresh
            layer.__dict__.pop("_frame_cache", None)
            app.draw(surface)
            assert pygame.image.tobytes(surface, "RGB") == kept
            app.draw(surface)  # nothing changed: the frame's blits replayed
            assert pygame.image.tobytes(surface, "RGB") == kept


def test_a_wheel_sweep_shows_a_stand_in_then_paints_the_tiles_and_ends_as_drawn_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19 item 4 (a 40,000-hex map zooms at 60): in the window (``progressive``)
    a frame of a zoom that is still going paints no tile beyond the budget (here none:
    a budget of 0 s) and shows the last frame scaled; once the zoom stops, each frame
    paints at least one tile, and the last one is, pixel for pixel, the view drawn afresh."""
    monkeypatch.setattr(board_view, "PAINT_SECONDS", 0.0)
    app = make_app(columns=60, rows=44, seed=6)
    app.view.progressive = True
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    assert not app.view.pending  # the first frame is whole: nothing to stand in for it
    for _ in range(4):
        app.camera.zoom_at(1.3, 450, 260)
        app.draw(surface)
        assert app.view.pending and not app.view._tiles  # the stand-in, nothing painted
    assert app.wake_in() == 0.0  # the window draws the next frame at once
    frames = 0
    while app.view.pending:
        app.draw(surface)
        frames += 1
        assert frames <= 64
    assert frames >= 1
    fresh = make_app(columns=60, rows=44, seed=6)
    fresh.camera.center, fresh.camera.zoom = app.camera.center, app.camera.zoom
    again = pygame.Surface(SIZE)
    fresh.draw(again)
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(again, "RGB")


def test_offscreen_drawing_paints_every_tile_of_a_new_zoom_at_once() -> None:
    """``tabletop render`` and scripted draws (``progressive`` off) never show a stand-in."""
    app = make_app(columns=60, rows=44, seed=6)
    surface = pygame.Surface(SIZE)
    for _ in range(4):
        app.camera.zoom_at(1.3, 450, 260)
        app.draw(surface)
        assert not app.view.pending
