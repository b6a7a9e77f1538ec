"""The map as drawn: terrain, hexsides, labels, regions and elevation, pre-rendered.

Why tiles: a frame must not redraw every hex. The map is drawn once per zoom level into
512-pixel tiles, made as they first come into view and kept until the zoom changes, so
panning a full-size map blits a handful of surfaces per frame. In the window a wheel
sweep over a big map paints a new level's tiles a few milliseconds a frame, the last
frame scaled standing in for the rest until they are painted (``BoardView.draw``).

A map with a ``background`` (a printed map's picture) has the picture drawn under the
hexes, the terrain colours laid over it at ``tint`` (thin by default; Shift+T in the
window: thin, none, full), so the player sees the printed map and the terrain data the
rules read, one over the other.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

import numpy as np
import pygame

from tabletop.board import Map
from tabletop.board.model import Background
from tabletop.engine.pieces import MapState
from tabletop.hexgrid import Hex, neighbors

from . import theme
from .camera import Camera
from .images import load_image

TILE = 512
PAINT_SECONDS = 0.004  # tile painting a frame while zooming (the window; the rest the next frames)
HEX_AREA = 1.5 * math.sqrt(3)  # world units a hex of size 1 covers
KEPT_SCALES = 12  # zoom levels whose tiles are kept besides the current one
KEPT_TILES = 96  # tiles kept at those other levels, at most (a tile is 1 MB)
TINTS = (0.35, 0.0, 1.0)  # terrain colours over a background picture: thin, none, full (Shift+T)
TINT_NAMES = {0.35: "thin terrain colours over the picture", 0.0: "the picture alone", 1.0: "terrain colours only"}


#: a stand-in for the map while tiles are painted: a picture of the map area, and the
#: scale, camera centre and screen corner it was taken at
_Backdrop = tuple[pygame.Surface, float, tuple[float, float], tuple[int, int]]


def load_picture(background: Background) -> pygame.Surface:
    """The background image (``images.load_image``); pygame.error or OSError if it
    cannot be read."""
    return load_image(background.image)


class BoardView:
    """Drawing data for one map, and its tile cache."""

    def __init__(self, board: Map) -> None:
        self.board = board
        self.layout = board.grid.layout(1.0)
        self.hexes: list[Hex] = board.grid.hexes()
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.centers = np.array([self.layout.center(h) for h in self.hexes])
        offsets = np.array([self.layout.corner_offset(i) for i in range(6)])
        self.corners = self.centers[:, None, :] + offsets[None, :, :]
        lo = self.corners.reshape(-1, 2).min(axis=0)
        hi = self.corners.reshape(-1, 2).max(axis=0)
        self.bounds = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
        self.fill = [theme.hex_colour(board.terrain_types[board.terrain[h]].colour) for h in self.hexes]
        self.sides = list(self._hexside_segments())
        self._anchors: dict[tuple[str, frozenset[Hex]], tuple[float, float]] = {}  # region name places
        self.region_edges = list(self._region_edges())
        levels = [board.elevation[h] for h in self.hexes]
        self.has_elevation = min(levels) != max(levels)
        self.contours = list(self._contours()) if self.has_elevation else []
        self._tiles: dict[tuple[int, int], pygame.Surface] = {}
        self._ground: dict[Hex, str] = {}  # the terrain changes in play the tiles were drawn with
        self.ground_changes = 0  # counts redraws for changed ground, so a cached minimap knows to refresh
        self._tile_scale = 0.0
        # the tiles of the last few zoom levels left (scale -> tiles), most recent last:
        # wheel zooms come back to the same levels, which then need no painting (issue 19)
        self._other_scales: dict[float, dict[tuple[int, int], pygame.Surface]] = {}
        self.show_labels = True
        self.show_regions = True
        self.progressive = False  # paint new zoom levels over several frames (the window sets it)
        self._backdrop: _Backdrop | None = None  # the stand-in while tiles are left to paint
        self._last_frame: tuple[float, tuple[float, float], tuple[int, int]] | None = None
        self._hex_seconds = 3e-6  # painting time a hex's area of tile (measured as tiles are painted)
        self.picture: pygame.Surface | None = None  # the background image, when the map has one
        self.picture_problem = ""  # why a named background could not be drawn
        self.tint = 1.0
        if board.background is not None:
            try:
                self.picture = load_picture(board.background)
                self.tint = TINTS[0]
            except (pygame.error, OSError) as exc:  # unreadable image: the terrain alone, and why
                self.picture_problem = f"background {board.background.image.name}: cannot be read ({exc})"
        first = self.layout.center(board.grid.hex_at(0, 0))
        self.first = (float(first[0]), float(first[1]))  # the first hex's centre: where a background's origin lies

    # --- geometry -------------------------------------------------------------------

    def center(self, h: Hex) -> tuple[float, float]:
        return self.layout.center(h)

    def hex_at_world(self, x: float, y: float) -> Hex | None:
        """The on-map hex under a world point, or None."""
        h = self.layout.hex_at(x, y)
        return h if self.board.grid.contains(h) else None

    def shared_edge(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two world corner points of the hexside between adjacent a and b."""
        ca = self.layout.corners(a)
        cb = self.layout.corners(b)
        pts = [p for p in ca if any(math.dist(p, q) < 1e-6 for q in cb)]
        return (pts[0], pts[1])

    def _hexside_segments(
        self,
    ) -> Iterable[tuple[tuple[int, int, int], tuple[float, float], tuple[float, float]]]:
        for feature in self.board.hexsides.values():
            colour = theme.hex_colour(feature.colour)
            for side in sorted(feature.sides):
                p, q = self.shared_edge(side.a, side.b)
                yield colour, p, q

    def _region_edges(
        self,
    ) -> Iterable[tuple[tuple[int, int, int], tuple[float, float], tuple[float, float]]]:
        """Borders between a region and the rest of the map (not the map's own edge), in
        a colour per kind of region so sections, exits and setup zones read apart."""
        contains = self.board.grid.contains
        for region in self.board.regions.values():
            colour = theme.side_colour(f"region:{region.kind}")
            for h in region.hexes:
                for n in neighbors(h):
                    if n not in region.hexes and contains(n):
                        p, q = self.shared_edge(h, n)
                        yield colour, p, q

    def _contours(self) -> Iterable[tuple[tuple[float, float], tuple[float, float]]]:
        """Hexsides between hexes of different elevation."""
        elevation = self.board.elevation
        for h in self.hexes:
            for n in neighbors(h):
                if n > h and n in elevation and elevation[n] != elevation[h]:
                    yield self.shared_edge(h, n)

    def region_anchor(self, key: str, occupied: frozenset[Hex] | set[Hex] = frozenset()) -> tuple[float, float]:
        """Where a region's name is written: the centre of its hexes nearest their mean
        that holds no piece (``occupied``), so the name never covers a counter; the
        nearest hex of all when every one is occupied."""
        region = self.board.regions[key].hexes
        taken = frozenset(occupied)
        cache = self._anchors
        found = cache.get((key, taken))
        if found is None:
            hexes = sorted(region)
            pts = np.array([self.layout.center(h) for h in hexes])
            far = ((pts - pts.mean(axis=0)) ** 2).sum(axis=1)
            # the name runs about 0.12 hex sizes a letter to each side: count the
            # counters under that strip, and take the hex that covers fewest, nearest
            # the middle of the region
            half = 0.12 * len(self.board.regions[key].name) + 0.5
            held = np.array([self.layout.center(h) for h in occupied]) if occupied else np.zeros((0, 2))

            def covered(i: int) -> int:
                if not len(held):
                    return 0
                d = np.abs(held - pts[i])
                return int(((d[:, 0] < half) & (d[:, 1] < 0.6)).sum())

            best = min(range(len(hexes)), key=lambda i: (covered(i), far[i], i))
            if len(cache) > 4096:  # pieces move all game: keep it bounded
                cache.clear()
            found = cache[(key, taken)] = (float(pts[best][0]), float(pts[best][1]))
        return found

    # --- drawing --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, camera: Camera, state: MapState | None = None) -> None:
        """Blit the tiles covering the view, with the ground of ``state`` if given.

        With ``progressive`` on (the window) and the zoom just changed, tiles not kept
        are painted for ``PAINT_SECONDS`` a frame, nearest the middle first, the rest
        shown meanwhile from the last frame's map scaled to the new zoom (issue 19: a
        wheel sweep over a 40,000-hex map); the frames after it finish the painting."""
        if state is not None:
            self.sync(state)
        scale = camera.scale
        last = self._last_frame
        zoomed = last is not None and abs(scale - last[0]) > 1e-9
        if abs(scale - self._tile_scale) > 1e-9:
            self._switch_scale(scale)
        world_tile = TILE / scale
        x0, y0, x1, y1 = camera.visible_world()
        shown: list[tuple[pygame.Surface, tuple[int, int]]] = []
        missing: list[tuple[int, int]] = []
        for tx in range(math.floor(x0 / world_tile), math.floor(x1 / world_tile) + 1):
            for ty in range(math.floor(y0 / world_tile), math.floor(y1 / world_tile) + 1):
                tile = self._tiles.get((tx, ty))
                if tile is None:
                    missing.append((tx, ty))
                else:
                    shown.append((tile, self._tile_at(camera, tx, ty)))
        later = []
        if missing:
            budget = self.progressive and (zoomed or self._backdrop is not None)
            if budget and self._backdrop is None and last is not None:
                self._backdrop = self._picture_of(surface, camera, last)
            start = time.perf_counter()
            mx, my = (x0 + x1) / 2 / world_tile - 0.5, (y0 + y1) / 2 / world_tile - 0.5
            cost = self._hex_seconds * world_tile**2 / HEX_AREA  # a tile's painting, foreseen
            before = len(shown)
            for tx, ty in sorted(missing, key=lambda t: (t[0] - mx) ** 2 + (t[1] - my) ** 2):
                spent = time.perf_counter() - start
                # still zooming: only what fits in the budget (the tile would be thrown
                # away at the next step); zoom settled: at least one tile a frame
                if budget and self._backdrop is not None and (
                    spent + cost > PAINT_SECONDS if zoomed else spent > PAINT_SECONDS and len(shown) > before
                ):
                    later.append((tx, ty))  # painted in a later frame
                    continue
                t0 = time.perf_counter()
                tile = self._tiles[(tx, ty)] = self._render_tile(tx, ty, scale)
                took = (time.perf_counter() - t0) / max(1.0, world_tile**2 / HEX_AREA)
                self._hex_seconds = 0.7 * self._hex_seconds + 0.3 * took
                shown.append((tile, self._tile_at(camera, tx, ty)))
        if later and self._backdrop is not None:
            self._draw_backdrop(surface, camera, self._backdrop)
        surface.fblits(shown)
        if later:  # what this frame shows is the next frame's stand-in
            clip = surface.get_clip()
            self._backdrop = (surface.subsurface(clip).copy(), scale, camera.center, clip.topleft)
        else:
            self._backdrop = None
        self._last_frame = (scale, camera.center, (camera.width, camera.height))

    @property
    def pending(self) -> bool:
        """Whether tiles in view are still to be painted (the window draws again at once)."""
        return self._backdrop is not None

    @staticmethod
    def _tile_at(camera: Camera, tx: int, ty: int) -> tuple[int, int]:
        world_tile = TILE / camera.scale
        sx, sy = camera.to_screen(tx * world_tile, ty * world_tile)
        return (round(sx), round(sy))

    def _picture_of(
        self, surface: pygame.Surface, camera: Camera, last: tuple[float, tuple[float, float], tuple[int, int]]
    ) -> _Backdrop | None:
        """The last frame's map, from its zoom's kept tiles (it was whole: nothing was
        left to paint), as a stand-in; None if those tiles are gone or the window resized."""
        scale, centre, size = last
        tiles = next((t for k, t in self._other_scales.items() if abs(k - scale) <= 1e-9), None)
        if tiles is None or size != (camera.width, camera.height):
            return None
        then = Camera(camera.width, camera.height, centre, scale / camera.scale * camera.zoom, camera.area)
        clip = surface.get_clip()
        picture = pygame.Surface(clip.size)
        picture.fill(theme.BACKGROUND)
        world_tile = TILE / scale
        x0, y0, x1, y1 = then.visible_world()
        for tx in range(math.floor(x0 / world_tile), math.floor(x1 / world_tile) + 1):
            for ty in range(math.floor(y0 / world_tile), math.floor(y1 / world_tile) + 1):
                tile = tiles.get((tx, ty))
                if tile is not None:
                    x, y = self._tile_at(then, tx, ty)
                    picture.blit(tile, (x - clip.x, y - clip.y))
        return (picture, scale, centre, clip.topleft)

    @staticmethod
    def _draw_backdrop(surface: pygame.Surface, camera: Camera, backdrop: _Backdrop) -> None:
        """The stand-in picture moved and scaled (nearest pixel) to the current view."""
        picture, scale, centre, (px, py) = backdrop
        f = camera.scale / scale
        # where the picture's pixel (0, 0) lands now, then the part of it the view shows
        ax = (px - camera.width / 2) * f + (centre[0] - camera.center[0]) * camera.scale + camera.width / 2
        ay = (py - camera.height / 2) * f + (centre[1] - camera.center[1]) * camera.scale + camera.height / 2
        clip = surface.get_clip()
        w, h = picture.get_size()
        u0, u1 = max(0, math.floor((clip.x - ax) / f)), min(w, math.ceil((clip.right - ax) / f))
        v0, v1 = max(0, math.floor((clip.y - ay) / f)), min(h, math.ceil((clip.bottom - ay) / f))
        if u1 <= u0 or v1 <= v0:
            return
        x0, x1 = round(ax + u0 * f), round(ax + u1 * f)
        y0, y1 = round(ay + v0 * f), round(ay + v1 * f)
        if x1 <= x0 or y1 <= y0:
            return
        part = pygame.transform.scale(picture.subsurface((u0, v0, u1 - u0, v1 - v0)), (x1 - x0, y1 - y0))
        surface.blit(part, (x0, y0))

    def _switch_scale(self, scale: float) -> None:
        """Put the tiles of the zoom left aside and take those of ``scale`` if kept
        (within 1e-9, as a scale counts as unchanged), keeping at most ``KEPT_SCALES``
        levels and ``KEPT_TILES`` tiles besides the current ones."""
        if self._tiles:
            self._other_scales[self._tile_scale] = self._tiles
        found = next((k for k in self._other_scales if abs(k - scale) <= 1e-9), None)
        self._tiles = self._other_scales.pop(found) if found is not None else {}
        self._tile_scale = scale
        while self._other_scales and (
            len(self._other_scales) > KEPT_SCALES or sum(map(len, self._other_scales.values())) > KEPT_TILES
        ):
            del self._other_scales[next(iter(self._other_scales))]  # the least recent first

    def _forget_tiles(self) -> None:
        """Drop the tiles of every zoom (what they show changed)."""
        self._tiles.clear()
        self._other_scales.clear()
        self._backdrop = None  # it shows the old map

    def sync(self, state: MapState) -> None:
        """Redraw the hexes whose ground changed in play (E6) since the last frame."""
        ground = state.terrain_overrides()
        if ground == self._ground:
            return
        board = self.board
        for h in ground.keys() | self._ground.keys():
            self.fill[self.index[h]] = theme.hex_colour(board.terrain_types[state.terrain_at(h)].colour)
        self._ground = ground
        self._forget_tiles()
        self.ground_changes += 1

    def invalidate(self) -> None:
        """Forget the tiles (after a change of what is drawn on them)."""
        self._forget_tiles()

    def next_tint(self) -> str:
        """The next way of laying terrain over the background picture; what it is now."""
        if self.picture is None:
            return self.picture_problem or "this map has no background picture"
        self.tint = TINTS[(TINTS.index(self.tint) + 1) % len(TINTS)] if self.tint in TINTS else TINTS[0]
        self._forget_tiles()
        self.ground_changes += 1  # the minimap is redrawn too
        return f"background: {TINT_NAMES[self.tint]}"

    def _picture_part(self, x0: float, y0: float, x1: float, y1: float, scale: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        """The background picture under the world rectangle (x0, y0)-(x1, y1), scaled to
        ``scale`` pixels per world unit, and where it goes in a surface whose corner is
        (x0, y0); None where the picture does not reach."""
        bg, picture = self.board.background, self.picture
        if bg is None or picture is None:
            return None
        u0, v0 = bg.pixel((x0, y0), self.first)
        u1, v1 = bg.pixel((x1, y1), self.first)
        w, h = picture.get_size()
        cu0, cv0 = max(0, math.floor(u0)), max(0, math.floor(v0))
        cu1, cv1 = min(w, math.ceil(u1)), min(h, math.ceil(v1))
        if cu1 <= cu0 or cv1 <= cv0:
            return None
        sx, sy = bg.scale
        size = (max(1, math.ceil((cu1 - cu0) / sx * scale)), max(1, math.ceil((cv1 - cv0) / sy * scale)))
        part = pygame.transform.smoothscale(picture.subsurface((cu0, cv0, cu1 - cu0, cv1 - cv0)), size)
        return part, (round((cu0 - u0) / sx * scale), round((cv0 - v0) / sy * scale))

    def _fill_hexes(self, target: pygame.Surface, pix: np.ndarray, indices: list[int], outline: int) -> None:
        """The hexes' terrain colours (over the picture at ``tint``) and grid lines."""
        if self.picture is None or self.tint >= 1.0:
            for k, i in enumerate(indices):  # (one hex's corners at a time: a list of them
                pts = pix[k].tolist()  # all for 40,000 hexes keeps the collector busy)
                pygame.draw.polygon(target, self.fill[i], pts)
                if outline:
                    pygame.draw.polygon(target, theme.GRID_LINE, pts, outline)
            return
        alpha = round(self.tint * 255)
        if alpha:
            wash = pygame.Surface(target.get_size(), pygame.SRCALPHA)
            for k, i in enumerate(indices):
                pygame.draw.polygon(wash, (*self.fill[i], alpha), pix[k].tolist())
            target.blit(wash, (0, 0))
        if outline:
            for k in range(len(indices)):
                pygame.draw.polygon(target, theme.GRID_LINE, pix[k].tolist(), outline)

    def _render_tile(self, tx: int, ty: int, scale: float) -> pygame.Surface:
        # Opaque (the background colour around the map): a plain copy is the cheapest blit.
        tile = pygame.Surface((TILE, TILE))
        tile.fill(theme.BACKGROUND)
        if pygame.display.get_surface() is not None:
            tile = tile.convert()
        world_tile = TILE / scale
        ox, oy = tx * world_tile, ty * world_tile
        pad = 1.0
        cx, cy = self.centers[:, 0], self.centers[:, 1]
        near = np.nonzero(
            (cx >= ox - pad)
            & (cx <= ox + world_tile + pad)
            & (cy >= oy - pad)
            & (cy <= oy + world_tile + pad)
        )[0]
        if len(near) == 0 and not self.sides:
            return tile
        pix = (self.corners[near] - (ox, oy)) * scale
        if self.tint < 1.0:
            found = self._picture_part(ox, oy, ox + world_tile, oy + world_tile, scale)
            if found is not None:
                tile.blit(*found)
        self._fill_hexes(tile, pix, near.tolist(), 1 if scale >= 10 else 0)
        self._draw_contours(tile, ox, oy, scale)
        self._draw_sides(tile, ox, oy, scale)
        if self.show_regions:
            self._draw_regions(tile, ox, oy, scale)
        if self.show_labels and scale >= 34:
            self._draw_labels(tile, near, ox, oy, scale)
        return tile

    def _draw_sides(self, tile: pygame.Surface, ox: float, oy: float, scale: float) -> None:
        width = max(2, round(scale * 0.12))
        for colour, p, q in self.sides:
            a = ((p[0] - ox) * scale, (p[1] - oy) * scale)
            b = ((q[0] - ox) * scale, (q[1] - oy) * scale)
            if -50 < a[0] < TILE + 50 and -50 < a[1] < TILE + 50:
                pygame.draw.line(tile, colour, a, b, width)

    def _draw_regions(self, tile: pygame.Surface, ox: float, oy: float, scale: float) -> None:
        width = max(1, round(scale * 0.06))
        for colour, p, q in self.region_edges:
            a = ((p[0] - ox) * scale, (p[1] - oy) * scale)
            b = ((q[0] - ox) * scale, (q[1] - oy) * scale)
            if -50 < a[0] < TILE + 50 and -50 < a[1] < TILE + 50:
                pygame.draw.line(tile, colour, a, b, width)

    def _draw_contours(self, tile: pygame.Surface, ox: float, oy: float, scale: float) -> None:
        """Elevation changes as thin dotted lines (where the game uses elevation)."""
        for p, q in self.contours:
            a = ((p[0] - ox) * scale, (p[1] - oy) * scale)
            b = ((q[0] - ox) * scale, (q[1] - oy) * scale)
            if -50 < a[0] < TILE + 50 and -50 < a[1] < TILE + 50:
                for k in range(0, 6, 2):
                    t0, t1 = k / 6, (k + 1) / 6
                    pygame.draw.line(
                        tile, theme.CONTOUR,
                        (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                        (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
                        max(1, round(scale * 0.04)),
                    )  # fmt: skip

    def draw_region_names(
        self, surface: pygame.Surface, camera: Camera, occupied: frozenset[Hex] | set[Hex] = frozenset()
    ) -> None:
        """Region names over the tiles (text must not be cut at tile edges), each on a
        hex of its region without pieces (issue 13 finding 17: never under a counter)."""
        if not self.show_regions or camera.scale < 14:
            return
        f = theme.font(max(12, round(camera.scale * 0.42)), bold=True)
        for key, region in self.board.regions.items():
            sx, sy = camera.to_screen(*self.region_anchor(key, occupied))
            if -200 < sx < camera.width + 200 and -50 < sy < camera.height + 50:
                img = f.render(region.name, True, theme.LABEL_ON_DARK)
                box = img.get_rect(center=(round(sx), round(sy)))
                back = pygame.Surface((box.width + 8, box.height + 4), pygame.SRCALPHA)
                back.fill((0, 0, 0, 120))
                surface.blit(back, (box.x - 4, box.y - 2))
                surface.blit(img, box)

    def _draw_labels(
        self, tile: pygame.Surface, near: np.ndarray, ox: float, oy: float, scale: float
    ) -> None:
        f = theme.font(max(9, round(scale * 0.38)))
        grid = self.board.grid
        for i in near.tolist():
            h = self.hexes[i]
            x, y = self.centers[i]
            text = grid.label(h)
            if self.has_elevation and self.board.elevation[h] and scale >= 48:
                text += f" ^{self.board.elevation[h]}"
            img = f.render(text, True, _label_colour(self.fill[i]))
            px = (x - ox) * scale - img.get_width() / 2
            py = (y - oy) * scale - scale * 0.78
            tile.blit(img, (px, py))

    def minimap(self, max_size: int) -> tuple[pygame.Surface, float]:
        """The whole map drawn small, and its pixels per world unit."""
        x0, y0, x1, y1 = self.bounds
        scale = max_size / max(x1 - x0, y1 - y0)
        surf = pygame.Surface((max(1, math.ceil((x1 - x0) * scale)), max(1, math.ceil((y1 - y0) * scale))))
        surf.fill(theme.BACKGROUND)
        pix = (self.corners - (x0, y0)) * scale
        if self.tint < 1.0:
            found = self._picture_part(x0, y0, x1, y1, scale)
            if found is not None:
                surf.blit(*found)
        self._fill_hexes(surf, pix, list(range(len(self.hexes))), 0)
        return surf, scale


def _label_colour(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    luminance = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]
    return theme.LABEL if luminance > 110 else theme.LABEL_ON_DARK
