"""The camera: which part of the map the window shows, and at what zoom.

World coordinates are the map layout at hex size 1 (``RectGrid.layout(1.0)``); the
camera maps them to screen pixels. Zoom is relative to ``BASE_HEX_PIXELS`` and is kept
within 15% - 400%. Zooming keeps the point under the cursor still.
"""

from __future__ import annotations

from dataclasses import dataclass

from .theme import BASE_HEX_PIXELS, MAX_ZOOM, MIN_ZOOM


@dataclass
class Camera:
    """``center`` is the world point at the middle of the view; ``zoom`` 1.0 = 100%."""

    width: int
    height: int
    center: tuple[float, float] = (0.0, 0.0)
    zoom: float = 1.0
    area: tuple[int, int, int, int] | None = None  # the map's free rectangle (x, y, w, h); None: all

    def view_rect(self) -> tuple[int, int, int, int]:
        """The part of the window the map is seen in (x, y, width, height): the window
        less the docked side columns and the status line (issue 13 finding 16)."""
        return self.area if self.area is not None else (0, 0, self.width, self.height)

    def area_centre(self) -> tuple[float, float]:
        x, y, w, h = self.view_rect()
        return (x + w / 2, y + h / 2)

    @property
    def scale(self) -> float:
        """Screen pixels per world unit (the hex size on screen)."""
        return BASE_HEX_PIXELS * self.zoom

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s = self.scale
        return ((x - self.center[0]) * s + self.width / 2, (y - self.center[1]) * s + self.height / 2)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        s = self.scale
        return ((sx - self.width / 2) / s + self.center[0], (sy - self.height / 2) / s + self.center[1])

    def zoom_at(self, factor: float, sx: float, sy: float) -> None:
        """Zoom by ``factor`` keeping the world point under screen point (sx, sy) still."""
        wx, wy = self.to_world(sx, sy)
        self.zoom = min(MAX_ZOOM, max(MIN_ZOOM, self.zoom * factor))
        s = self.scale
        self.center = (wx - (sx - self.width / 2) / s, wy - (sy - self.height / 2) / s)

    def pan(self, dx_pixels: float, dy_pixels: float) -> None:
        """Move the view by screen pixels (drag right: the map follows the mouse)."""
        s = self.scale
        self.center = (self.center[0] - dx_pixels / s, self.center[1] - dy_pixels / s)

    def fit(
        self, bounds: tuple[float, float, float, float], margin: float = 0.04, *, top: int = 0, bottom: int = 0
    ) -> None:
        """Show the whole world rectangle (min x, min y, max x, max y) in the map's free
        area (``view_rect``) less ``top`` and ``bottom`` pixels, centred in it. The
        screen mapping stays centred on the window, so the map does not jump when a
        side column is shown or hidden; only Home moves it."""
        x0, y0, x1, y1 = bounds
        ax, ay, aw, ah = self.view_rect()
        room = max(1, ah - top - bottom)
        span_x = max(x1 - x0, 1e-6) * (1 + 2 * margin)
        span_y = max(y1 - y0, 1e-6) * (1 + 2 * margin)
        want = min(max(1, aw) / span_x, room / span_y) / BASE_HEX_PIXELS
        self.zoom = min(MAX_ZOOM, max(MIN_ZOOM, want))
        s = self.scale
        sx = ax + aw / 2  # where the map's middle goes on screen
        sy = ay + top + room / 2
        self.center = ((x0 + x1) / 2 - (sx - self.width / 2) / s, (y0 + y1) / 2 - (sy - self.height / 2) / s)

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = max(1, width), max(1, height)

    def visible_world(self) -> tuple[float, float, float, float]:
        """The world rectangle seen in the map's area (min x, min y, max x, max y)."""
        ax, ay, aw, ah = self.view_rect()
        x0, y0 = self.to_world(ax, ay)
        x1, y1 = self.to_world(ax + aw, ay + ah)
        return (x0, y0, x1, y1)
