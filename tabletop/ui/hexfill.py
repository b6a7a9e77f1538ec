"""A translucent layer giving each hex of the map one of a few fills, repainted only where
the fills changed (issue 19 item 4: a viewshed following the pointer).

Why stamps: ``pygame.draw.polygon`` floors each corner to whole pixels before it fills,
so a hex's pixels are fixed by its floored corners; hexes whose floored corners have the
same shape share one pre-painted stamp per fill, blitted with ``Surface.fblits`` at the
hex's floored corner. A stamp is copied, not blended (no surface alpha, a colour key
outside the hex), so the layer's pixels are exactly those a fresh paint of every polygon
in fill order gives: where hexes share edge pixels, the last fill (the highest class)
wins, as painting the lower classes first does. The tiles hold premultiplied colours
and are blitted with ``BLEND_PREMULTIPLIED`` (a third of a plain alpha blit's time; the
picture within 1 of 255 a channel of a plain blit's), only in the cells something
shaded reaches.

Why incremental: when the fills change, only the hexes whose class changed, their
neighbours (they share edge pixels) and the higher-class neighbours of those (whose
edge pixels a lower stamp would otherwise take) are stamped again, lowest class first;
class 0 is a stamp of transparent pixels, so a hex that stops being shaded is cleared.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pygame

from tabletop.hexgrid import neighbors

from .board_view import TILE, BoardView
from .camera import Camera

KEY = (255, 0, 255)  # the stamps' colour key: outside the hex (no fill uses it)
MARGIN = 2  # pixels around a stamp's hex
SNAP = 1e-7  # pixels: a point this close below a whole pixel is on it
CELL = 64  # pixels: a tile is blitted in runs of cells of this side that show something
RGBA = tuple[int, int, int, int]


def floor_pixels(points: np.ndarray) -> np.ndarray:
    """The whole pixels ``pygame.draw`` puts float points on (it floors them), read as
    the points meant: a corner at -5e-15 (trigonometry's rounding) is at 0, not -1."""
    return np.floor(points + SNAP).astype(np.int32)


def premultiplied(colour: RGBA) -> RGBA:
    """``colour`` with its channels multiplied by its alpha, as pygame does it."""
    one = pygame.Surface((1, 1), pygame.SRCALPHA)
    one.fill(colour)
    r, g, b, a = one.premul_alpha().get_at((0, 0))
    return (r, g, b, a)


class HexFillLayer:
    """One overlay whose picture is a class per hex: 0 (nothing) or 1.. (``fills[k-1]``).
    ``tiles`` holds the painted tiles in view ((tx, ty) -> surface, or None while the
    tile holds nothing)."""

    def __init__(self, fills: tuple[RGBA, ...]) -> None:
        self.fills: tuple[RGBA, ...] = ((0, 0, 0, 0), *fills)
        # the tiles hold premultiplied colours, blitted with BLEND_PREMULTIPLIED: a
        # third of a plain alpha blit's time, the same picture within 1 of 255 a channel
        self.painted: tuple[RGBA, ...] = tuple(premultiplied(c) for c in self.fills)
        self.tiles: dict[tuple[int, int], pygame.Surface | None] = {}
        self._scale = 0.0
        self._corners: np.ndarray | None = None  # the view's corners the geometry was worked for
        self._origin = np.zeros((0, 2), dtype=np.int64)  # each hex's floored corner box: low corner
        self._extent = np.zeros((0, 2), dtype=np.int64)  # ... and width, height
        self._shape = np.zeros(0, dtype=np.int64)  # each hex's stamp shape
        self._outlines: list[list[tuple[int, int]]] = []  # each shape's corners from its low corner
        self._table = np.empty((0, 0), dtype=object)  # [shape, class] -> stamp, an array to pick from
        self._near: dict[tuple[int, int], np.ndarray] = {}  # tile -> hexes whose box meets it
        self._neighbours: np.ndarray | None = None  # (n, 6) hex indices, n for off the map
        self._neighbours_of: np.ndarray | None = None  # the view's corners they were worked for
        self._classes: np.ndarray | None = None  # the classes the tiles show
        self._parts: dict[tuple[int, int], list[pygame.Rect]] = {}  # what of each tile is blitted
        self.key: Hashable = None

    # --- geometry at one zoom ----------------------------------------------------------

    def _geometry(self, view: BoardView, scale: float) -> None:
        """Floored corners, shapes and stamps for ``scale`` (dropped with the tiles)."""
        if scale == self._scale and self._corners is view.corners:
            return
        floored = floor_pixels(view.corners * scale)
        # the lowest floored corner is the floor of the lowest corner: the same corner of
        # every hex (the layout's), so no minimum over 40,000 x 6 corners is needed
        offsets = view.corners[0] - view.corners[0].mean(axis=0)
        low_x, low_y = int(offsets[:, 0].argmin()), int(offsets[:, 1].argmin())
        corner = np.stack([floored[:, low_x, 0], floored[:, low_y, 1]], axis=1)
        rel = floored - corner[:, None, :]
        if rel.min() < 0:  # corners level to the last bit, floored apart: the plain minimum
            corner = floored.min(axis=1)
            rel = floored - corner[:, None, :]
        self._origin = corner - MARGIN  # where a stamp goes
        self._extent = rel.max(axis=1) + 1 + 2 * MARGIN
        flat = rel.reshape(len(rel), -1).astype(np.int64)
        # a shape as one number: each of the 12 coordinates varies by a pixel or two
        # across the map, so they are digits of a small mixed-radix number (sorting
        # 40,000 numbers, not 40,000 rows: np.unique by rows took 0.4 s a zoom)
        low = flat.min(axis=0)
        radix = flat.max(axis=0) - low + 1
        weights = np.concatenate([[1], np.cumprod(radix[:-1])])
        keys = ((flat - low) * weights).sum(axis=1)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        self._shape = inverse.reshape(-1)
        shapes = flat[first]
        self._outlines = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(6)] for row in shapes.tolist()]
        self._table = np.empty((len(self._outlines), len(self.fills)), dtype=object)
        for k in range(len(self._outlines)):  # a dozen shapes on a regular grid
            for c in range(len(self.fills)):
                self._table[k, c] = self._stamp(k, c)
        self._near.clear()
        self.tiles.clear()
        self._parts.clear()
        self._scale, self._corners = scale, view.corners

    def _stamp(self, shape: int, cls: int) -> pygame.Surface:
        """The hex ``shape`` filled with class ``cls``'s colour, from its box's low corner."""
        # a margin of MARGIN pixels all round: a polygon touching a surface's edge is
        # clipped, and pygame fills a clipped polygon a little differently
        outline = [(x + MARGIN, y + MARGIN) for x, y in self._outlines[shape]]
        w = max(x for x, _ in outline) + 1 + MARGIN
        h = max(y for _, y in outline) + 1 + MARGIN
        stamp = pygame.Surface((w, h), pygame.SRCALPHA)
        stamp.fill((*KEY, 0))
        pygame.draw.polygon(stamp, self.painted[cls], outline)
        stamp.set_alpha(None)  # copied as it is, alpha and all
        stamp.set_colorkey(KEY)
        return stamp

    def _tile_hexes(self, tx: int, ty: int) -> np.ndarray:
        """The hexes whose pixels may land on tile (tx, ty)."""
        found = self._near.get((tx, ty))
        if found is None:
            lo, hi = self._origin, self._origin + self._extent
            x0, y0 = tx * TILE, ty * TILE
            found = np.flatnonzero(
                (hi[:, 0] > x0) & (lo[:, 0] < x0 + TILE) & (hi[:, 1] > y0) & (lo[:, 1] < y0 + TILE)
            )
            self._near[(tx, ty)] = found
        return found

    def _neighbour_table(self, view: BoardView) -> np.ndarray:
        if self._neighbours is None or self._neighbours_of is not view.corners:
            self._neighbours_of = view.corners  # (a new map in the editor is a new view)
            index, n = view.index, len(view.hexes)
            self._neighbours = np.array(
                [[index.get(m, n) for m in neighbors(h)] for h in view.hexes], dtype=np.int64
            ).reshape(n, 6)
        return self._neighbours

    # --- painting ----------------------------------------------------------------------

    def _restamp(self, view: BoardView, old: np.ndarray, new: np.ndarray) -> np.ndarray:
        """Which hexes to stamp again to turn a picture of ``old`` into one of ``new``."""
        nb = self._neighbour_table(view)
        pad = np.zeros(1, dtype=bool)
        changed = old != new
        todo: np.ndarray = changed | np.concatenate([changed, pad])[nb].any(axis=1)
        frontier = todo
        high = np.concatenate([new, np.full(1, len(self.fills), dtype=new.dtype)])
        for _ in range(len(self.fills) - 1):  # a chain climbs one class a step
            beside = np.concatenate([frontier, pad])[nb]
            frontier = ~todo & (beside & (new[:, None] > high[nb])).any(axis=1)
            if not frontier.any():
                break
            todo |= frontier
        return todo

    def _paint(self, tile: pygame.Surface, tx: int, ty: int, hexes: np.ndarray, classes: np.ndarray) -> None:
        """Stamp ``hexes`` on the tile, lowest class first."""
        cls = classes[hexes]
        order = np.argsort(cls, kind="stable")
        hexes, cls = hexes[order], cls[order]
        stamps = self._table[self._shape[hexes], cls].tolist()
        at = (self._origin[hexes] - (tx * TILE, ty * TILE)).tolist()
        tile.fblits(list(zip(stamps, at, strict=True)))

    def draw(self, surface: pygame.Surface, camera: Camera, view: BoardView, classes: np.ndarray, key: Hashable) -> None:
        """Blit the layer's tiles in view, showing ``classes`` (one per ``view.hexes``,
        which ``key`` names: the same key, the same classes)."""
        scale = camera.scale
        self._geometry(view, scale)
        world_tile = TILE / scale
        x0, y0, x1, y1 = camera.visible_world()
        seen = [
            (tx, ty)
            for tx in range(math.floor(x0 / world_tile), math.floor(x1 / world_tile) + 1)
            for ty in range(math.floor(y0 / world_tile), math.floor(y1 / world_tile) + 1)
        ]
        if key != self.key:
            old = self._classes
            self.key, self._classes = key, classes
            self._parts.clear()
            for k in [k for k in self.tiles if k not in seen]:  # out of view: painted afresh later
                del self.tiles[k]
            if self.tiles and old is not None:
                todo = self._restamp(view, old, classes)
                for (tx, ty), tile in list(self.tiles.items()):
                    near = self._tile_hexes(tx, ty)
                    picked = near[todo[near]]
                    if tile is None and not (classes[picked] > 0).any():
                        continue  # still nothing on it
                    if tile is None:
                        tile = self.tiles[(tx, ty)] = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
                    self._paint(tile, tx, ty, picked, classes)
            else:
                self.tiles.clear()
        for tx, ty in seen:
            if (tx, ty) not in self.tiles:
                near = self._tile_hexes(tx, ty)
                shaded = near[classes[near] > 0]
                fresh = None
                if len(shaded):
                    fresh = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
                    self._paint(fresh, tx, ty, shaded, classes)
                self.tiles[(tx, ty)] = fresh
            tile = self.tiles[(tx, ty)]
            if tile is None:
                continue
            parts = self._parts.get((tx, ty))
            if parts is None:
                parts = self._parts[(tx, ty)] = self._shaded_parts(tx, ty, classes)
            sx, sy = camera.to_screen(tx * world_tile, ty * world_tile)
            x, y = round(sx), round(sy)
            for part in parts:
                surface.blit(tile, (x + part.x, y + part.y), part, pygame.BLEND_PREMULTIPLIED)

    def _shaded_parts(self, tx: int, ty: int, classes: np.ndarray) -> list[pygame.Rect]:
        """The parts of a tile worth blitting: runs of ``CELL``-pixel cells, row by row,
        that some shaded hex reaches (a thread crosses a few cells of a tile)."""
        near = self._tile_hexes(tx, ty)
        shaded = near[classes[near] > 0]
        if not len(shaded):
            return []
        if 2 * len(shaded) > len(near) or int(self._extent[shaded].max()) > CELL:
            return [pygame.Rect(0, 0, TILE, TILE)]  # mostly shaded, or hexes as big as cells: all of it
        lo = self._origin[shaded] - (tx * TILE, ty * TILE)
        last = TILE // CELL - 1
        c0, r0 = np.clip(lo // CELL, 0, last).T  # a hex's box, no bigger than a cell,
        c1, r1 = np.clip((lo + self._extent[shaded] - 1) // CELL, 0, last).T  # meets 2 x 2 cells at most
        hit = np.zeros((last + 1, last + 1), dtype=bool)
        for r, c in ((r0, c0), (r0, c1), (r1, c0), (r1, c1)):
            hit[r, c] = True
        if hit.all():
            return [pygame.Rect(0, 0, TILE, TILE)]
        parts = []
        for r, line in enumerate(hit.tolist()):
            c = 0
            while c < len(line):
                if line[c]:
                    end = c
                    while end + 1 < len(line) and line[end + 1]:
                        end += 1
                    parts.append(pygame.Rect(c * CELL, r * CELL, (end - c + 1) * CELL, CELL))
                    c = end
                c += 1
        return parts
