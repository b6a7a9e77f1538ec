"""Colours, sizes and fonts of the table, in one place.

The line-of-sight colours are the Okabe-Ito colour-blind-safe palette: clear is bluish
green, hindered orange, blocked vermillion, each drawn over a dark casing so the thread
reads on any terrain.
"""

from __future__ import annotations

from functools import cache

import pygame

BACKGROUND = (38, 41, 46)
GRID_LINE = (40, 40, 40)
LABEL = (25, 25, 25)
LABEL_ON_DARK = (235, 235, 235)
PANEL = (28, 30, 34)
PANEL_TEXT = (230, 230, 230)
PANEL_DIM = (160, 165, 170)
HIGHLIGHT = (255, 221, 0)
REGION_LINE = (200, 30, 120)
CONTOUR = (60, 50, 40)

LOS_CLEAR = (0, 158, 115)
LOS_HINDERED = (230, 159, 0)
LOS_BLOCKED = (213, 94, 0)
LOS_CASING = (20, 20, 20)
VERDICT_COLOURS = {"clear": LOS_CLEAR, "hindered": LOS_HINDERED, "blocked": LOS_BLOCKED}

SIDE_COLOURS = {  # counter fills by side; a side not listed gets a stable hash colour
    "american": (120, 150, 90),
    "allied": (120, 150, 90),
    "us": (120, 150, 90),
    "blue": (86, 140, 200),
    "german": (150, 150, 160),
    "red": (200, 90, 80),
}

BASE_HEX_PIXELS = 40.0  # hex size (centre to corner) at 100% zoom
MIN_ZOOM, MAX_ZOOM = 0.15, 4.0  # 15%: a big map still fits beside the side columns of an 800 x 500 window


def side_colour(side: str | None) -> tuple[int, int, int]:
    """The fill colour of a side's counters."""
    if side is None:
        return (200, 200, 200)
    if side.lower() in SIDE_COLOURS:
        return SIDE_COLOURS[side.lower()]
    h = sum(ord(c) * (i + 1) for i, c in enumerate(side)) % 360
    colour = pygame.Color(0)
    colour.hsla = (h, 45, 55, 100)
    return (colour.r, colour.g, colour.b)


def hex_colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb' as an RGB tuple."""
    c = pygame.Color(text)
    return (c.r, c.g, c.b)


MODAL_VEIL = (0, 0, 0, 150)  # darkens the table behind a dialog


def veil(surface: pygame.Surface) -> None:
    """Darken the whole of ``surface`` under a dialog (the result, a game's own)."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill(MODAL_VEIL)
    surface.blit(shade, (0, 0))


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The table's font at a pixel size (pygame's bundled default font: no files needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(6, size))
    f.set_bold(bold)
    return f


_TEXTS: dict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = {}
_FITS: dict[tuple[str, int, bool, int], str] = {}


def text(words: str, size: int, colour: tuple[int, ...], bold: bool = False) -> pygame.Surface:
    """``words`` rendered, cached: panels redraw the same lines every frame."""
    key = (words, size, tuple(colour), bold)
    img = _TEXTS.get(key)
    if img is None:
        if len(_TEXTS) > 3000:
            _TEXTS.clear()
        img = _TEXTS[key] = font(size, bold).render(words, True, colour)
    return img


def fit(words: str, width: int, size: int, bold: bool = False) -> str:
    """``words``, cut with an ellipsis to fit ``width`` pixels (cached)."""
    key = (words, size, bold, width)
    fitted = _FITS.get(key)
    if fitted is None:
        f = font(size, bold)
        fitted = words
        if f.size(words)[0] > width:
            lo, hi = 0, len(words)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if f.size(words[:mid].rstrip() + "…")[0] <= width:
                    lo = mid
                else:
                    hi = mid - 1
            fitted = words[:lo].rstrip() + "…"
        if len(_FITS) > 3000:
            _FITS.clear()
        _FITS[key] = fitted
    return fitted


_WRAPS: dict[tuple[str, int, int, bool], tuple[str, ...]] = {}


def wrap(words: str, width: int, size: int, bold: bool = False) -> tuple[str, ...]:
    """``words`` broken into lines no wider than ``width`` pixels, at spaces, and inside
    a word only when the word alone is wider: every character is kept (issue 13 finding
    10: text wraps instead of being cut). Cached: panels lay out every frame."""
    key = (words, width, size, bold)
    lines = _WRAPS.get(key)
    if lines is None:
        if len(_WRAPS) > 3000:
            _WRAPS.clear()
        lines = _WRAPS[key] = tuple(_wrap(words, width, font(size, bold)))
    return lines


def _wrap(words: str, width: int, f: pygame.font.Font) -> list[str]:
    lines: list[str] = []
    for para in words.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if f.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while len(word) > 1 and f.size(word)[0] > width:
                cut = len(word) - 1
                while cut > 1 and f.size(word[:cut])[0] > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines
