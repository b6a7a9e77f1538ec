"""Offscreen rendering: the window's drawing code onto a PNG, no display needed."""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from .app import App


def render_png(app: App, out: Path, size: tuple[int, int]) -> Path:
    """Draw one frame of ``app`` at ``size`` into ``out`` (PNG), after fitting the map."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    surface = pygame.Surface(size)
    app.camera.resize(*size)
    app.fit()
    app.update(0.0)
    app.draw(surface)
    pygame.image.save(surface, str(out))
    return out
