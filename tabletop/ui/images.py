"""Pictures the data files name (a printed map's background, counter faces), read once
each as 32-bit surfaces: smooth scaling needs 32 bits (a paletted PNG has 8), and no
display is needed (``render`` draws them too)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

PICTURES_KEPT = 256  # counter faces of a big module, and a background or two


def load_image(path: Path) -> pygame.Surface:
    """The picture at ``path``; pygame.error or OSError if it cannot be read. Callers
    draw copies or scaled versions: the surface returned is shared."""
    return _load(Path(path), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=PICTURES_KEPT)
def _load(path: Path, _changed: int) -> pygame.Surface:
    raw = pygame.image.load(str(path))
    out = pygame.Surface(raw.get_size(), pygame.SRCALPHA, 32)
    out.blit(raw, (0, 0))
    return out
