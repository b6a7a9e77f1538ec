"""Offscreen rendering: the window's drawing code onto a PNG, no display needed."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pygame

from tabletop.atomicfile import write_atomic

from .app import App


def render_png(app: App, out: Path, size: tuple[int, int]) -> Path:
    """Draw one frame of ``app`` at ``size`` into ``out`` (PNG), after fitting the map.

    The PNG is encoded in memory and written with ``write_atomic``: a full disk or a
    file-size limit is a WriteError and an existing file at ``out`` stays whole."""
    write_atomic(out, png_bytes(frame(app, size)))
    return out


def png_bytes(surface: pygame.Surface) -> bytes:
    """``surface`` encoded as PNG, in memory."""
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "frame.png")
    return buffer.getvalue()


def frame(app: App, size: tuple[int, int]) -> pygame.Surface:
    """One frame of ``app`` at ``size``, drawn offscreen after fitting the map."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    surface = pygame.Surface(size)
    app.camera.resize(*size)
    app.fit()
    app.handoff = None  # a picture of the table, never the hot-seat cover over it
    app.update(0.0)
    app.draw(surface)
    return surface
