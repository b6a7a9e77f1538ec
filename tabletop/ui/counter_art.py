"""Counter faces drawn with pygame.draw: NATO-style unit symbols, round skirmish tokens,
marker chips and marker counters. No image files.

Shapes are drawn three times larger and smoothly scaled down (cheap anti-aliasing);
text is rendered at the final size so it stays crisp. Every surface is cached by what
it shows (type, colour, size, id, state), so a frame only blits.

Knows unit types and markers as ``tabletop.engine.counters`` data; knows nothing of the
map, the camera or any rule system.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from pathlib import Path

import pygame

from tabletop.engine.counters import MarkerType, UnitType

from . import theme
from .images import load_image

Colour = tuple[int, int, int]
SS = 3  # supersampling factor for shapes
INK_DARK: Colour = (22, 22, 24)
INK_LIGHT: Colour = (240, 240, 236)
GOLD: Colour = (240, 196, 40)
MEDIC_RED: Colour = (200, 30, 36)
_CACHE_LIMIT = 4000

_cache: dict[Hashable, pygame.Surface] = {}


def clear_cache() -> None:
    """Forget every cached surface."""
    _cache.clear()


_UNREADABLE: set[Path] = set()  # counter pictures that could not be read


def _cached(key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
    surf = _cache.get(key)
    if surf is None:
        if len(_cache) > _CACHE_LIMIT:
            _cache.clear()
        surf = _cache[key] = make()
    return surf


# --- colours and text ---------------------------------------------------------------


def luminance(c: Colour) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def ink_on(fill: Colour) -> Colour:
    """Dark ink on a light fill, light ink on a dark one."""
    return INK_DARK if luminance(fill) > 105 else INK_LIGHT


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def rgb(text: str) -> Colour:
    """'#rrggbb' as an RGB tuple."""
    return theme.hex_colour(text)


def fit_text(text: str, colour: Colour, height: float, max_width: float, bold: bool = True) -> pygame.Surface:
    """``text`` rendered about ``height`` pixels tall, smaller if needed to fit ``max_width``."""
    size = max(6, round(height))
    while True:
        img = theme.font(size, bold).render(text, True, colour)
        if img.get_width() <= max_width or size <= 6:
            return img
        size -= 1


def _blit_centred(target: pygame.Surface, img: pygame.Surface, cx: float, cy: float) -> None:
    target.blit(img, (round(cx - img.get_width() / 2), round(cy - img.get_height() / 2)))


# --- symbols ------------------------------------------------------------------------

#: Symbols drawn inside a NATO frame (a box); the others stand free.
FRAMED = frozenset(
    {"infantry", "machine-gun", "mortar", "tank", "dozer", "engineer", "artillery", "at-gun",
     "anti-aircraft", "recon", "vehicle", "medic", "bazooka", "rocket", "flamethrower",
     "gun-pit", "command-post", "blank"}
)  # fmt: skip


def draw_symbol(surf: pygame.Surface, symbol: str, rect: pygame.Rect, ink: Colour, fill: Colour) -> None:
    """Draw ``symbol`` inside ``rect`` on ``surf`` (any scale: line widths follow the rect)."""
    x0, y0, w, h = rect.x, rect.y, rect.w, rect.h
    x1, y1 = x0 + w, y0 + h
    cx, cy = x0 + w / 2, y0 + h / 2
    lw = max(1, round(h * 0.09))
    if symbol in FRAMED:
        pygame.draw.rect(surf, blend(fill, (255, 255, 255), 0.3), rect)
        pygame.draw.rect(surf, ink, rect, lw)

    def line(a: tuple[float, float], b: tuple[float, float], width: int = lw) -> None:
        pygame.draw.line(surf, ink, a, b, width)

    def arrow_up(x: float, top: float, bottom: float) -> None:
        line((x, bottom), (x, top + h * 0.12))
        head = h * 0.2
        pygame.draw.polygon(surf, ink, [(x, top), (x - head * 0.7, top + head), (x + head * 0.7, top + head)])

    if symbol == "infantry":
        line((x0, y0), (x1, y1))
        line((x0, y1), (x1, y0))
    elif symbol in ("machine-gun", "gun-pit"):
        arrow_up(cx, y0 + h * 0.12, y1 - h * 0.12)
        line((cx - w * 0.13, y1 - h * 0.3), (cx + w * 0.13, y1 - h * 0.3))
        if symbol == "gun-pit":
            arc = pygame.Rect(round(x0 + w * 0.14), round(y0 + h * 0.2), round(w * 0.72), round(h * 0.7))
            pygame.draw.arc(surf, ink, arc, math.pi, 2 * math.pi, lw)
    elif symbol == "mortar":
        r = h * 0.13
        pygame.draw.circle(surf, ink, (cx, y1 - h * 0.12 - r), r, lw)
        arrow_up(cx, y0 + h * 0.1, y1 - h * 0.12 - 2 * r)
    elif symbol in ("tank", "dozer"):
        oval = pygame.Rect(round(x0 + w * 0.16), round(y0 + h * 0.24), round(w * 0.68), round(h * 0.52))
        pygame.draw.ellipse(surf, ink, oval, lw)
        if symbol == "dozer":
            blade = x0 + w * 0.08
            line((blade, y0 + h * 0.14), (blade, y1 - h * 0.14), lw * 2)
            line((blade, cy), (oval.x, cy))
    elif symbol == "engineer":
        top, bottom = y0 + h * 0.32, y0 + h * 0.72
        left, right = x0 + w * 0.24, x1 - w * 0.24
        line((left, top), (right, top))
        for x in (left, cx, right):
            line((x, top), (x, bottom))
    elif symbol == "artillery":
        pygame.draw.circle(surf, ink, (cx, cy), h * 0.17)
    elif symbol == "at-gun":
        line((x0, y1), (cx, y0))
        line((cx, y0), (x1, y1))
    elif symbol == "anti-aircraft":
        arc = pygame.Rect(round(x0 + w * 0.1), round(y0 + h * 0.3), round(w * 0.8), round(h * 1.3))
        pygame.draw.arc(surf, ink, arc, 0, math.pi, lw)
    elif symbol == "recon":
        line((x0, y1), (x1, y0))
    elif symbol == "vehicle":
        line((x0 + w * 0.14, cy - h * 0.06), (x1 - w * 0.14, cy - h * 0.06))
        for x in (x0 + w * 0.32, x1 - w * 0.32):
            pygame.draw.circle(surf, ink, (x, y0 + h * 0.7), h * 0.13, lw)
    elif symbol == "medic":
        pygame.draw.rect(surf, (250, 250, 250), rect.inflate(-2 * lw, -2 * lw))
        arm, thick = h * 0.34, h * 0.2
        pygame.draw.rect(surf, MEDIC_RED, (cx - thick / 2, cy - arm, thick, 2 * arm))
        pygame.draw.rect(surf, MEDIC_RED, (cx - arm, cy - thick / 2, 2 * arm, thick))
    elif symbol == "bazooka":
        line((x0 + w * 0.14, cy), (x1 - w * 0.3, cy), lw * 2)
        tip = x1 - w * 0.3
        pygame.draw.polygon(surf, ink, [(tip, cy - h * 0.16), (x1 - w * 0.1, cy), (tip, cy + h * 0.16)])
    elif symbol == "rocket":
        arrow_up(cx, y0 + h * 0.08, y1 - h * 0.1)
        line((cx, y1 - h * 0.3), (cx - w * 0.1, y1 - h * 0.1))
        line((cx, y1 - h * 0.3), (cx + w * 0.1, y1 - h * 0.1))
    elif symbol == "flamethrower":
        top, bottom = y0 + h * 0.08, y1 - h * 0.1
        fh = bottom - top
        pygame.draw.polygon(
            surf,
            ink,
            [(cx + w * 0.02, top), (cx + w * 0.1, top + fh * 0.3), (cx + w * 0.16, top + fh * 0.6),
             (cx + w * 0.1, bottom), (cx - w * 0.1, bottom), (cx - w * 0.16, top + fh * 0.62),
             (cx - w * 0.08, top + fh * 0.45), (cx - w * 0.04, top + fh * 0.62)],
        )  # fmt: skip
    elif symbol == "command-post":
        staff = x0 + w * 0.3
        line((staff, y1 - h * 0.12), (staff, y0 + h * 0.12))
        pygame.draw.rect(surf, ink, (staff, y0 + h * 0.12, w * 0.42, h * 0.34))
    elif symbol == "hq":
        staff = x0 + w * 0.28
        line((staff, y1), (staff, y0))
        pygame.draw.rect(surf, ink, (staff, y0, w * 0.5, h * 0.5))
    elif symbol == "leader":
        _star(surf, cx, cy, h * 0.55, ink)
    elif symbol == "general":
        _star(surf, cx - w * 0.2, cy, h * 0.4, ink)
        _star(surf, cx + w * 0.2, cy, h * 0.4, ink)
    elif symbol == "sniper":
        r = h * 0.42
        pygame.draw.circle(surf, ink, (cx, cy), r, lw)
        line((cx - r * 1.25, cy), (cx - r * 0.35, cy))
        line((cx + r * 0.35, cy), (cx + r * 1.25, cy))
        line((cx, cy - r * 1.2), (cx, cy - r * 0.35))
        line((cx, cy + r * 0.35), (cx, cy + r * 1.2))
        pygame.draw.circle(surf, ink, (cx, cy), lw)
    elif symbol == "observer":
        half = h * 0.55
        pts = [(cx, cy - half), (cx + half * 1.1, cy + half * 0.8), (cx - half * 1.1, cy + half * 0.8)]
        pygame.draw.polygon(surf, blend(fill, (255, 255, 255), 0.3), pts)
        pygame.draw.polygon(surf, ink, pts, lw)
        pygame.draw.circle(surf, ink, (cx, cy + half * 0.25), h * 0.1)
    elif symbol == "pillbox":
        dome = pygame.Rect(round(x0 + w * 0.12), round(y0 + h * 0.05), round(w * 0.76), round(h * 1.7))
        clip = surf.get_clip()
        surf.set_clip(pygame.Rect(x0, y0, w, round(h * 0.9)))
        pygame.draw.ellipse(surf, ink, dome)
        surf.set_clip(clip)
        slit = blend(fill, (255, 255, 255), 0.5)
        pygame.draw.rect(surf, slit, (cx - w * 0.22, y0 + h * 0.38, w * 0.44, max(lw, h * 0.12)))
        line((x0, y0 + h * 0.9), (x1, y0 + h * 0.9))
    elif symbol == "soldier":
        pygame.draw.circle(surf, ink, (cx, y0 + h * 0.22), h * 0.18)
        body = pygame.Rect(round(cx - w * 0.2), round(y0 + h * 0.44), round(w * 0.4), round(h * 0.6))
        clip = surf.get_clip()
        surf.set_clip(pygame.Rect(x0, y0, w, h))
        pygame.draw.ellipse(surf, ink, body)
        surf.set_clip(clip)


def _star(surf: pygame.Surface, cx: float, cy: float, size: float, ink: Colour) -> None:
    """A five-pointed gold star with an ink outline, ``size`` pixels across."""
    outer, inner = size / 2, size / 2 * 0.42
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a) + size * 0.04))
    pygame.draw.polygon(surf, GOLD, pts)
    pygame.draw.polygon(surf, ink, pts, max(1, round(size * 0.05)))


# --- unit counters --------------------------------------------------------------------


def face_fill(colour: Colour, reduced: bool) -> Colour:
    """The counter's fill: its side's colour, lighter on the reduced face."""
    return blend(colour, (255, 255, 255), 0.45) if reduced else colour


def token_text(ident: str) -> str:
    """What a token shows for a piece id: a short code as it is ("A1"), a name as its
    initial and any trailing number ("larry" -> "L", "lcv-2" -> "L2").

    >>> token_text("A1"), token_text("larry"), token_text("tom"), token_text("lcv-2")
    ('A1', 'L', 'T', 'L2')
    """
    if len(ident) <= 3 and (any(ch.isdigit() for ch in ident) or ident.isupper()):
        return ident
    digits = ""
    while ident and ident[-1].isdigit():
        digits = ident[-1] + digits
        ident = ident[:-1]
    return (ident[:1].upper() + digits) if ident else digits


def unit_counter(
    spec: UnitType,
    colour: Colour,
    size: int,
    ident: str,
    *,
    reduced: bool = False,
    facing: float | None = None,
    values: str | None = None,
    lod: bool = False,
) -> pygame.Surface:
    """A unit's counter face, ``size`` pixels square (transparent outside the shape).

    ``facing`` is a screen angle in degrees (0 = right, counter-clockwise) for a tick on
    a token; ``values`` overrides the printed values (default: the spec's full or
    reduced values). ``lod``: the far-zoom face of a square counter, a big symbol and its
    values only (issue 13 finding 17: an id a few pixels tall is noise, not text).
    """
    size = max(8, int(size))
    if values is None:
        values = spec.reduced if reduced and spec.reduced else spec.full
    facing_key = None if facing is None else round(facing) % 360
    lod = lod and spec.shape != "token"  # a token's face is already one big letter
    # the far face shows no id: one image for every counter of a type, side and face
    key = ("unit", spec, colour, size, None if lod else ident, reduced, facing_key, values, lod)
    if spec.image_full is not None:
        face = _picture_face(spec, colour, size, reduced)
        if face is not None:
            return face
    if spec.shape == "token":
        return _cached(key, lambda: _token(spec, colour, size, ident, reduced, facing_key))
    if lod:
        return _cached(key, lambda: _far_counter(spec, colour, size, reduced, values))
    return _cached(key, lambda: _counter(spec, colour, size, ident, reduced, values))


def _picture_face(spec: UnitType, colour: Colour, size: int, reduced: bool) -> pygame.Surface | None:
    """The counter drawn from the counter sheet's picture of the face (a module's
    counter art), fitted in the counter's square with a frame of the side's colour;
    the flipped face is its own picture, or the full one under a white band. None when
    the picture cannot be read (the symbol is drawn instead)."""
    path = spec.image_reduced if reduced and spec.image_reduced is not None else spec.image_full
    assert path is not None
    if path in _UNREADABLE:
        return None
    try:
        picture = load_image(path)
    except (pygame.error, OSError):
        _UNREADABLE.add(path)  # tried once: the symbol from now on
        return None

    def make() -> pygame.Surface:
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        frame = max(2, round(size * 0.06))
        inner = size - 2 * frame
        w, h = picture.get_size()
        scale = min(inner / w, inner / h)
        fitted = pygame.transform.smoothscale(picture, (max(1, round(w * scale)), max(1, round(h * scale))))
        radius = round(size * 0.1)
        pygame.draw.rect(surf, colour, (0, 0, size, size), border_radius=radius)
        surf.blit(fitted, ((size - fitted.get_width()) // 2, (size - fitted.get_height()) // 2))
        if reduced and spec.image_reduced is None:
            band = pygame.Surface((size - 2 * frame, round(size * 0.16)), pygame.SRCALPHA)
            band.fill((255, 255, 255, 230))
            surf.blit(band, (frame, frame))
            edge = frame + band.get_height()
            pygame.draw.line(surf, INK_DARK, (frame, edge), (size - frame - 1, edge), max(1, round(size * 0.02)))
        pygame.draw.rect(surf, INK_DARK, (0, 0, size, size), max(1, round(size * 0.03)), border_radius=radius)
        return surf

    return _cached(("picture", spec, colour, size, reduced), make)


def _far_counter(spec: UnitType, colour: Colour, size: int, reduced: bool, values: str) -> pygame.Surface:
    """The far-zoom face: the symbol as large as the counter allows, the values (the
    strength) under it in large type, no id and no label."""
    S = size * SS
    fill = face_fill(colour, reduced)
    ink = ink_on(fill)
    big = pygame.Surface((S, S), pygame.SRCALPHA)
    radius = round(S * 0.1)
    pygame.draw.rect(big, fill, (0, 0, S, S), border_radius=radius)
    if reduced:
        band = pygame.Surface((S, S), pygame.SRCALPHA)
        pygame.draw.rect(band, (255, 255, 255), (0, 0, S, S), border_radius=radius)
        big.blit(band, (0, 0), pygame.Rect(0, 0, S, round(S * 0.15)))
    pygame.draw.rect(big, INK_DARK, (0, 0, S, S), max(2, round(S * 0.04)), border_radius=radius)
    frame_top, frame_h = (0.1, 0.46) if values else (0.2, 0.6)
    frame_w = min(0.84, frame_h * 1.6)
    frame = pygame.Rect(round(S * (0.5 - frame_w / 2)), round(S * frame_top), round(S * frame_w), round(S * frame_h))
    if spec.symbol == "blank":
        frame = pygame.Rect(0, 0, 0, 0)
    else:
        draw_symbol(big, spec.symbol, frame, INK_DARK if spec.symbol in FRAMED else ink, fill)
    surf = pygame.transform.smoothscale(big, (size, size))
    if spec.symbol == "blank" and spec.label:
        img = fit_text(spec.label, ink, size * 0.5, size * 0.9)
        _blit_centred(surf, img, size / 2, size * (0.36 if values else 0.5))
    if values:
        img = fit_text(values, ink, size * 0.42, size * 0.94)
        _blit_centred(surf, img, size / 2, size * 0.78)
    return surf


def _counter(
    spec: UnitType, colour: Colour, size: int, ident: str, reduced: bool, values: str
) -> pygame.Surface:
    S = size * SS
    fill = face_fill(colour, reduced)
    ink = ink_on(fill)
    big = pygame.Surface((S, S), pygame.SRCALPHA)
    radius = round(S * 0.1)
    pygame.draw.rect(big, fill, (0, 0, S, S), border_radius=radius)
    if reduced:  # a white band across the top: the flipped face
        band = pygame.Surface((S, S), pygame.SRCALPHA)
        pygame.draw.rect(band, (255, 255, 255), (0, 0, S, S), border_radius=radius)
        big.blit(band, (0, 0), pygame.Rect(0, 0, S, round(S * 0.15)))
    pygame.draw.rect(big, INK_DARK, (0, 0, S, S), max(2, round(S * 0.025)), border_radius=radius)

    has_label = bool(spec.label) and spec.symbol != "blank"
    # rows, as fractions of the counter: [label], symbol frame, id, [values]
    if values:
        frame_top, frame_h = (0.22, 0.3) if has_label else (0.09, 0.38)
        id_y, id_h, value_y = 0.64, 0.27, 0.855
    else:
        frame_top, frame_h = (0.25, 0.34) if has_label else (0.1, 0.44)
        id_y, id_h, value_y = 0.8, 0.34, 0.0
    frame_w = min(0.74, frame_h * 1.6)
    frame = pygame.Rect(
        round(S * (0.5 - frame_w / 2)), round(S * frame_top), round(S * frame_w), round(S * frame_h)
    )
    draw_symbol(big, spec.symbol, frame, INK_DARK if spec.symbol in FRAMED else ink, fill)
    surf = pygame.transform.smoothscale(big, (size, size))

    if has_label:
        img = fit_text(spec.label, INK_DARK if reduced else ink, size * 0.24, size * 0.86)
        _blit_centred(surf, img, size / 2, size * (frame_top / 2 + 0.015))
    if spec.symbol == "blank" and spec.label:
        img = fit_text(spec.label, INK_DARK, size * frame_h * 0.85, size * frame_w * 0.9)
        _blit_centred(surf, img, size / 2, size * (frame_top + frame_h / 2))
    img = fit_text(ident, ink, size * id_h, size * 0.92)
    _blit_centred(surf, img, size / 2, size * id_y)
    if values:
        img = fit_text(values, ink, size * 0.3, size * 0.92)
        _blit_centred(surf, img, size / 2, size * value_y)
    return surf


TOKEN_RADIUS = 0.4  # of the counter size


def _token(
    spec: UnitType, colour: Colour, size: int, ident: str, reduced: bool, facing: int | None
) -> pygame.Surface:
    S = size * SS
    fill = face_fill(colour, reduced)
    ink = ink_on(fill)
    big = pygame.Surface((S, S), pygame.SRCALPHA)
    c = S / 2
    r = S * TOKEN_RADIUS
    pygame.draw.circle(big, fill, (c, c), r)
    if reduced:  # a white cap: the flipped face
        band = pygame.Surface((S, S), pygame.SRCALPHA)
        pygame.draw.circle(band, (255, 255, 255), (c, c), r)
        big.blit(band, (0, 0), pygame.Rect(0, 0, S, round(c - r * 0.6)))
    pygame.draw.circle(big, INK_DARK, (c, c), r, max(2, round(S * 0.03)))
    if facing is not None:  # a pointer through the rim, toward the facing
        a = math.radians(facing)

        def at(radius: float, angle: float) -> tuple[float, float]:
            return (c + radius * math.cos(angle), c - radius * math.sin(angle))

        spread = math.radians(26)
        outline = [at(S * 0.5, a), at(r * 0.74, a + spread), at(r * 0.74, a - spread)]
        pygame.draw.polygon(big, INK_LIGHT, outline)
        inner = [at(S * 0.5 - S * 0.025, a), at(r * 0.8, a + spread * 0.8), at(r * 0.8, a - spread * 0.8)]
        pygame.draw.polygon(big, INK_DARK, inner)
    roomy = size >= 36
    if roomy and spec.symbol not in ("soldier", "blank"):  # a small symbol over the name
        glyph = pygame.Rect(round(c - S * 0.16), round(S * 0.17), round(S * 0.32), round(S * 0.19))
        draw_symbol(big, spec.symbol, glyph, INK_DARK if spec.symbol in FRAMED else ink, fill)
    surf = pygame.transform.smoothscale(big, (size, size))
    name = token_text(ident)
    img = fit_text(name, INK_DARK if reduced else ink, size * (0.36 if roomy else 0.44), size * 0.66)
    _blit_centred(surf, img, size / 2, size * (0.53 if roomy else 0.5))
    if roomy and spec.label:
        img = fit_text(spec.label, ink, size * 0.22, size * 0.56, bold=False)
        _blit_centred(surf, img, size / 2, size * 0.74)
    return surf


def shadow(size: int, token: bool) -> pygame.Surface:
    """A soft dark shape to put under a counter so it stands off any terrain."""
    size = max(8, int(size))

    def make() -> pygame.Surface:
        s = pygame.Surface((size, size), pygame.SRCALPHA)
        if token:
            pygame.draw.circle(s, (0, 0, 0, 110), (size / 2, size / 2), size * TOKEN_RADIUS)
        else:
            pygame.draw.rect(s, (0, 0, 0, 110), (0, 0, size, size), border_radius=round(size * 0.1))
        return s

    return _cached(("shadow", size, token), make)


# --- markers --------------------------------------------------------------------------


def chip(text: str, colour: Colour, height: int) -> pygame.Surface:
    """A small rounded tag with short text, ``height`` pixels tall."""
    height = max(5, int(height))

    def make() -> pygame.Surface:
        img = theme.font(max(6, round(height * 1.0)), True).render(text, True, ink_on(colour))
        w = max(height, img.get_width() + round(height * 0.5))
        s = pygame.Surface((w, height), pygame.SRCALPHA)
        radius = max(2, height // 3)
        pygame.draw.rect(s, colour, (0, 0, w, height), border_radius=radius)
        pygame.draw.rect(s, INK_DARK, (0, 0, w, height), 1, border_radius=radius)
        if height >= 8:
            s.blit(img, (round((w - img.get_width()) / 2), round((height - img.get_height()) / 2) + 1))
        return s

    return _cached(("chip", text, colour, height), make)


def marker_counter(spec: MarkerType, size: int) -> pygame.Surface:
    """A marker piece drawn on its own (on a hex with no units): a square in the marker's
    colour with its text; area markers (smoke, gas) get a round puff outline."""
    size = max(8, int(size))

    def make() -> pygame.Surface:
        S = size * SS
        fill = rgb(spec.colour)
        ink = ink_on(fill)
        big = pygame.Surface((S, S), pygame.SRCALPHA)
        radius = round(S * 0.12)
        if spec.area:
            for dx, dy, rr in ((0.32, 0.42, 0.26), (0.68, 0.42, 0.26), (0.5, 0.62, 0.3), (0.5, 0.34, 0.24)):
                pygame.draw.circle(big, fill, (S * dx, S * dy), S * rr)
            for dx, dy, rr in ((0.32, 0.42, 0.26), (0.68, 0.42, 0.26), (0.5, 0.62, 0.3), (0.5, 0.34, 0.24)):
                pygame.draw.circle(big, blend(fill, INK_DARK, 0.5), (S * dx, S * dy), S * rr, max(2, S // 40))
            for dx, dy, rr in ((0.32, 0.42, 0.26), (0.68, 0.42, 0.26), (0.5, 0.62, 0.3), (0.5, 0.34, 0.24)):
                pygame.draw.circle(big, fill, (S * dx, S * dy), S * rr - max(2, S // 40))
        else:
            pygame.draw.rect(big, fill, (0, 0, S, S), border_radius=radius)
            stripe = blend(fill, INK_DARK, 0.18)
            for k in range(-S, S, max(4, S // 6)):  # diagonal hatching: a marker, not a unit
                pygame.draw.line(big, stripe, (k, S), (k + S, 0), max(2, S // 30))
            mask = pygame.Surface((S, S), pygame.SRCALPHA)
            pygame.draw.rect(mask, (255, 255, 255, 255), (0, 0, S, S), border_radius=radius)
            big.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            pygame.draw.rect(big, INK_DARK, (0, 0, S, S), max(2, round(S * 0.025)), border_radius=radius)
        surf = pygame.transform.smoothscale(big, (size, size))
        img = fit_text(spec.text, ink, size * 0.32, size * 0.9)
        _blit_centred(surf, img, size / 2, size / 2)
        return surf

    return _cached(("marker", spec, size), make)


def hex_marker(spec: MarkerType, size: int, text: str | None = None) -> pygame.Surface:
    """A marker lying in a hex (an obstacle, a cleared hex): a small see-through tag
    with an outline, quieter than any unit (issue 13 finding 17). ``text`` overrides
    the marker's own (several markers merged into one tag)."""
    size = max(8, int(size))

    def make() -> pygame.Surface:
        fill = rgb(spec.colour)
        img = fit_text(text or spec.text, ink_on(fill), max(HEX_MARKER_TEXT, size * 0.3), size * 1.6)
        w, h = max(img.get_width() + 8, round(size * 0.6)), img.get_height() + 4
        s = pygame.Surface((w, h), pygame.SRCALPHA)
        radius = max(2, h // 3)
        pygame.draw.rect(s, (*fill, HEX_MARKER_ALPHA), (0, 0, w, h), border_radius=radius)
        pygame.draw.rect(s, (*blend(fill, INK_DARK, 0.55), 200), (0, 0, w, h), 1, border_radius=radius)
        img.set_alpha(190)
        s.blit(img, ((w - img.get_width()) // 2, (h - img.get_height()) // 2 + 1))
        return s

    return _cached(("hex-marker", spec, size, text), make)


HEX_MARKER_ALPHA = 105  # a hex marker's fill: the ground shows through
HEX_MARKER_TEXT = 15  # smaller than a status chip's (18: 12 pixels): ground, not a unit


def ghosted(surf: pygame.Surface, alpha: int = 90) -> pygame.Surface:
    """A see-through copy of a cached surface (for counters under a line of sight)."""

    def make() -> pygame.Surface:
        out = surf.copy()
        out.set_alpha(alpha)
        return out

    return _cached(("ghost", id(surf), alpha), make)
