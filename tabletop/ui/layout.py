"""The dock: side columns the panels live in, so no panel covers the map (issue 13
finding 16).

The window is a left column, a right column, the status line along the bottom, and
the map's free area between them (``Camera.area``: Home fits the map to it, the map is
drawn only there). Each frame the parts say what they want docked (``Component.dock``:
a list of ``Section``) and the dock places them: each gets a title bar (a click folds or
unfolds it) and a body rectangle the part draws into (``body``). A column too short for
every section gives the growing ones (the log) their least height first, then the
others by priority; a section with no room left shows only its title. Tab hides or
shows both columns. Which sections are folded and whether the columns are hidden are
remembered between runs (``settings``).

The dock also keeps the frame's tooltips: a part that still has to shorten a text
registers the rectangle and the whole text (``tip``), and the whole text is drawn
beside the pointer while it rests there (finding 10).

Why not pygame-gui (made for pygame-ce; its text box, scrolling container and tooltips
were weighed for this): the table draws a frame only when something changed and naps
otherwise (finding 15, the ``idle`` benchmark), while a pygame-gui UIManager wants
``update`` and ``draw_ui`` every frame and keeps its own element tree, theme files and
fonts beside the table's; and what the columns need (wrap to a width, scroll rows,
one tooltip) is the few functions here and ``theme.wrap``, tested through the real
loop, with no new dependency to install, pin or theme.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from . import settings, theme

STATUS_HEIGHT = 24  # the status line along the bottom
GAP = 4  # between sections of a column
PAD = 6  # inside a section
TITLE_SIZE = 18
TITLE_PAD = 4  # above and below a title's rows
TITLE_INDENT = 18  # a title's text, after its fold mark
HIDE_KEY = pygame.K_TAB
MIN_COLUMN = 180  # the narrowest a dragged column gets
MAX_SHARE = 0.4  # the widest: this share of the window
GRIP = 4  # pixels either side of a column's inner edge that drag it
COLUMN_BACK = (24, 26, 30)
TITLE_BACK = (44, 48, 54)
SECTION_BACK = (30, 32, 37)
BORDER = (78, 83, 90)
TIP_SIZE = 18
TIP_WIDTH = 420
SHORTCUTS = [
    ("Tab", "hide / show the side columns (the map takes the whole window)"),
    ("click a panel's title", "fold / unfold that panel (remembered for the next run)"),
    ("drag a column's inner edge", "make the column wider or narrower (remembered)"),
]


def column_widths(width: int, chosen: dict[str, int] | None = None) -> tuple[int, int]:
    """The left and right columns' widths for a window ``width`` pixels wide: the
    player's (dragged) widths, else wide enough to read a rule line and narrow enough to
    leave the map most of a small window; never so wide the map has no room."""
    chosen = chosen or {}
    left = chosen.get("left") or min(320, max(220, round(width * 0.2)))
    right = chosen.get("right") or min(280, max(230, round(width * 0.2)))
    most = max(MIN_COLUMN, round(width * MAX_SHARE))
    return min(most, max(MIN_COLUMN, left)), min(most, max(MIN_COLUMN, right))


@dataclass(frozen=True)
class Section:
    """A panel a part wants docked: its body's height at the column's inner width."""

    name: str
    title: str | None  # None: no title bar, not foldable (a part that folds its own boxes)
    column: str  # "left" or "right"
    order: int  # top to bottom within the column
    height: int  # the body's height wanted (pixels)
    priority: int = 5  # who gets room first when the column is short (lower first)
    grow: bool = False  # takes the column's leftover height (the log); ``height`` is its least
    bottom: bool = False  # stacked from the column's bottom (the minimap)


@dataclass
class Placed:
    """Where a section went this frame: its whole frame, its title bar, its body (None
    when folded or squeezed to its title)."""

    frame: pygame.Rect
    title: pygame.Rect | None
    body: pygame.Rect | None
    folded: bool
    squeezed: bool = False  # folded for want of room, not by the player


@dataclass
class Layout:
    """The dock's state (folded sections, hidden columns) and this frame's placement."""

    folded: set[str] = field(default_factory=set)
    hidden: bool = False
    persist: bool = True  # write changes to the settings file
    size: tuple[int, int] = (0, 0)
    used: frozenset[str] = frozenset({"left", "right"})  # the columns some part docks in
    widths: dict[str, int] = field(default_factory=dict)  # column -> width the player dragged it to
    dragging: str | None = None  # the column whose edge is being dragged
    left: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    right: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    map: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    status: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    placed: dict[str, Placed] = field(default_factory=dict)
    tips: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    _sections: tuple[Section, ...] = ()
    _columns: dict[int, tuple[object, pygame.Surface]] = field(default_factory=dict)  # painted columns

    # --- settings -------------------------------------------------------------------

    @classmethod
    def remembered(cls) -> tuple[Layout, str | None]:
        """The layout the player left last time, and a line if the settings were ignored."""
        data, problem = settings.load_settings()
        folded = data.get("folded", [])
        widths = data.get("widths", {})
        layout = cls(
            folded={str(n) for n in folded} if isinstance(folded, list) else set(),
            hidden=data.get("hidden") is True,
            widths={k: v for k, v in widths.items() if k in ("left", "right") and isinstance(v, int)}
            if isinstance(widths, dict)
            else {},
        )
        return layout, problem

    def remember(self) -> str | None:
        """Write the layout choices; a line saying why not, or None."""
        if not self.persist:
            return None
        return settings.save_settings({"folded": sorted(self.folded), "hidden": self.hidden, "widths": self.widths})

    # --- geometry -------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        """The columns, the status line and the map's free area for a window this size."""
        width, height = size
        self.size = size
        left_w, right_w = (0, 0) if self.hidden else column_widths(width, self.widths)
        left_w, right_w = (left_w if "left" in self.used else 0, right_w if "right" in self.used else 0)
        body_h = max(0, height - STATUS_HEIGHT)
        self.left = pygame.Rect(0, 0, left_w, body_h)
        self.right = pygame.Rect(width - right_w, 0, right_w, body_h)
        self.map = pygame.Rect(left_w, 0, max(1, width - left_w - right_w), max(1, body_h))
        self.status = pygame.Rect(0, body_h, width, STATUS_HEIGHT)

    def inner_width(self, column: str) -> int:
        """The width a section's body has in ``column`` (what parts wrap their text to)."""
        rect = self.left if column == "left" else self.right
        return max(40, rect.width - 2 * GAP - 2 * PAD)

    def arrange(self, sections: list[Section]) -> None:
        """Place this frame's sections in their columns (see the module docstring)."""
        self._sections = tuple(sections)
        self.placed = {}
        self.tips = []
        used = frozenset(s.column for s in sections)
        if used != self.used:  # a column nobody docks in gives the map its room
            self.used = used
            self.resize(self.size)
        if self.hidden:
            return
        for name, rect in (("left", self.left), ("right", self.right)):
            column = sorted((s for s in sections if s.column == name), key=lambda s: s.order)
            self._arrange_column(rect, column)

    def _arrange_column(self, rect: pygame.Rect, column: list[Section]) -> None:
        room = rect.height - GAP
        heights: dict[str, int | None] = {}  # body height given; None: not shown at all
        for s in sorted(column, key=lambda s: (s.priority, s.order)):
            head = self.title_height(s) + GAP
            if room < head + (0 if s.title is not None else 2 * PAD + 8):
                heights[s.name] = None
                continue
            room -= head
            if s.title is not None and s.name in self.folded:
                heights[s.name] = 0
                continue
            want = s.height + (2 * PAD if s.title is not None else 0)
            given = min(want, room)
            if given < min(want, 2 * PAD + theme.font(TITLE_SIZE).get_linesize()):
                given = 0  # not even a line fits: only the title shows
            heights[s.name] = given
            room -= given
        growing = [s for s in column if s.grow and heights.get(s.name)]
        for i, s in enumerate(growing):
            extra = room // (len(growing) - i)
            heights[s.name] = (heights[s.name] or 0) + extra
            room -= extra
        x, w = rect.x + GAP, rect.width - 2 * GAP
        y = rect.y + GAP
        top_down = [s for s in column if not s.bottom]
        bottom_up = [s for s in column if s.bottom]
        for s in top_down:
            y = self._place(s, heights[s.name], x, y, w, down=True)
        y = rect.bottom
        for s in reversed(bottom_up):
            y = self._place(s, heights[s.name], x, y, w, down=False)

    def _place(self, s: Section, body_h: int | None, x: int, y: int, w: int, *, down: bool) -> int:
        if body_h is None:
            return y
        title_h = self.title_height(s)
        total = title_h + body_h
        top = y if down else y - total
        frame = pygame.Rect(x, top, w, total)
        title = pygame.Rect(x, top, w, title_h) if s.title is not None else None
        body = pygame.Rect(x, top + title_h, w, body_h) if body_h > 0 else None
        folded = s.title is not None and s.name in self.folded
        self.placed[s.name] = Placed(frame, title, body, folded, squeezed=body is None and not folded)
        return frame.bottom + GAP if down else frame.top - GAP

    def title_rows(self, s: Section) -> tuple[str, ...]:
        """A section's title wrapped to its column (a title is never cut, finding 10)."""
        if s.title is None:
            return ()
        rect = self.left if s.column == "left" else self.right
        return theme.wrap(s.title, max(40, rect.width - 2 * GAP - TITLE_INDENT - PAD), TITLE_SIZE, True)

    def title_height(self, s: Section) -> int:
        rows = self.title_rows(s)
        return len(rows) * theme.font(TITLE_SIZE, True).get_linesize() + 2 * TITLE_PAD if rows else 0

    def body(self, name: str) -> pygame.Rect | None:
        """The rectangle a section's part draws its body into (inside the padding), or
        None when it is folded, squeezed out or hidden."""
        placed = self.placed.get(name)
        if placed is None or placed.body is None:
            return None
        if placed.title is None:
            return placed.body  # a part that frames its own boxes
        return placed.body.inflate(-2 * PAD, -2 * PAD)

    def covers(self, pos: tuple[int, int]) -> bool:
        """Whether a screen point is on the dock (a column or the status line), not the map."""
        return not self.map.collidepoint(pos)

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> str | None:
        """A click on a section's title folds or unfolds it; Tab hides or shows the
        columns. Returns a line for the log when something changed, else None."""
        dragged = self._drag(event)
        if dragged is not None:
            return dragged
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, placed in self.placed.items():
                if placed.title is not None and placed.title.collidepoint(event.pos):
                    self.folded ^= {name}
                    return self._changed()
            on_column = self.left.collidepoint(event.pos) or self.right.collidepoint(event.pos)
            if on_column and not any(p.frame.collidepoint(event.pos) for p in self.placed.values()):
                return ""  # the column's empty stretch: used up, never a click on the map
            return None
        if event.type == pygame.KEYDOWN and event.key == HIDE_KEY and not event.mod & (
            pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META
        ):
            self.hidden = not self.hidden
            self.resize(self.size)
            line = self._changed()
            return line if line is not None else f"side columns: {'hidden (Tab shows them)' if self.hidden else 'shown'}"
        return None

    def edge_at(self, pos: tuple[int, int]) -> str | None:
        """The column whose inner edge is under a screen point (a drag there resizes it)."""
        if self.hidden or pos[1] >= self.status.top:
            return None
        if self.left.width and abs(pos[0] - self.left.right) <= GRIP:
            return "left"
        if self.right.width and abs(pos[0] - self.right.left) <= GRIP:
            return "right"
        return None

    def _drag(self, event: pygame.event.Event) -> str | None:
        """Dragging a column's inner edge: "" while it is used up, None when not a drag."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.dragging = self.edge_at(event.pos)
            return "" if self.dragging else None
        if self.dragging is None:
            return None
        if event.type == pygame.MOUSEMOTION:
            width = self.size[0]
            self.widths[self.dragging] = event.pos[0] if self.dragging == "left" else width - event.pos[0]
            self.resize(self.size)
            self.widths[self.dragging] = (self.left if self.dragging == "left" else self.right).width
            return ""
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = None
            return self._changed()
        return None

    def _changed(self) -> str | None:
        problem = self.remember()
        return problem if problem is not None else ""

    # --- tooltips -------------------------------------------------------------------

    def tip(self, rect: pygame.Rect, text: str) -> None:
        """Register a shortened text's whole words for this frame."""
        self.tips.append((rect, text))

    def tip_at(self, pos: tuple[int, int]) -> str | None:
        return next((text for rect, text in reversed(self.tips) if rect.collidepoint(pos)), None)

    # --- drawing --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The columns: their background, each section's frame and title bar; each
        column painted once per placement and then only blitted (the panels' text is
        drawn over it by their parts every frame)."""
        surface.fill(theme.PANEL, self.status)
        if self.hidden:
            return
        for placed in self.placed.values():
            if placed.squeezed:
                self.tip(placed.title or placed.frame, "no room in this column: fold another panel, or make the window taller")
        for column in (self.left, self.right):
            if column.width and column.height:
                surface.blit(self._column_image(column), column)

    def _column_image(self, column: pygame.Rect) -> pygame.Surface:
        sections = {s.name: s for s in self._sections}
        inside = [(n, p) for n, p in self.placed.items() if column.contains(p.frame)]
        key = (column.topleft, column.size, tuple(
            (n, tuple(p.frame), p.title and tuple(p.title), p.folded, p.squeezed, self.title_rows(sections[n]))
            for n, p in inside
        ))  # fmt: skip
        cached = self._columns.get(column.x)
        if cached is not None and cached[0] == key:
            return cached[1]
        image = pygame.Surface(column.size)
        image.fill(COLUMN_BACK)
        line_h = theme.font(TITLE_SIZE, True).get_linesize()
        for name, placed in inside:
            if placed.title is None:
                continue  # a part that frames its own boxes
            frame, title = placed.frame.move(-column.x, -column.y), placed.title.move(-column.x, -column.y)
            image.fill(SECTION_BACK, frame)
            pygame.draw.rect(image, BORDER, frame, 1)
            image.fill(TITLE_BACK, title)
            pygame.draw.rect(image, BORDER, title, 1)
            top = title.y + TITLE_PAD
            _fold_mark(image, (title.x + 9, top + line_h // 2 - 1), placed.folded or placed.squeezed)
            colour = theme.PANEL_DIM if placed.squeezed else theme.PANEL_TEXT
            for i, row in enumerate(self.title_rows(sections[name])):
                image.blit(theme.text(row, TITLE_SIZE, colour, True), (title.x + TITLE_INDENT, top + i * line_h + 1))
        if len(self._columns) > 4:
            self._columns.clear()
        self._columns[column.x] = (key, image)
        return image

    def draw_tip(self, surface: pygame.Surface, pos: tuple[int, int]) -> None:
        """The whole text of a shortened line under the pointer, beside it."""
        text = self.tip_at(pos)
        if text is None:
            return
        width = min(TIP_WIDTH, surface.get_width() - 16)
        lines = theme.wrap(text, width - 2 * PAD, TIP_SIZE)
        imgs = [theme.text(line, TIP_SIZE, theme.PANEL_TEXT) for line in lines]
        line_h = theme.font(TIP_SIZE).get_linesize()
        box = pygame.Rect(0, 0, max(i.get_width() for i in imgs) + 2 * PAD, len(imgs) * line_h + 2 * PAD)
        box.topleft = (pos[0] + 14, pos[1] + 16)
        box.clamp_ip(surface.get_rect())
        surface.fill(theme.PANEL, box)
        pygame.draw.rect(surface, theme.HIGHLIGHT, box, 1)
        for i, img in enumerate(imgs):
            surface.blit(img, (box.x + PAD, box.y + PAD + i * line_h))


def _fold_mark(surface: pygame.Surface, centre: tuple[int, int], folded: bool) -> None:
    """A small triangle: pointing right when folded, down when open."""
    x, y = centre
    pts = [(x - 3, y - 5), (x + 4, y), (x - 3, y + 5)] if folded else [(x - 5, y - 3), (x + 5, y - 3), (x, y + 4)]
    pygame.draw.polygon(surface, theme.PANEL_DIM, pts)


def draw_lines(
    surface: pygame.Surface,
    layout: Layout,
    rect: pygame.Rect,
    lines: list[tuple[str, tuple[int, ...], bool]],
    size: int,
    *,
    first: int = 0,
) -> list[tuple[int, pygame.Rect]]:
    """Text lines (text, colour, bold), each wrapped to ``rect``'s width, drawn from the
    ``first`` wrapped row down as far as ``rect`` reaches; a row cut off at the bottom
    is noted as a tooltip on the last row shown. Returns, per source line drawn, its
    index and the rectangle its rows took (for clickable rows)."""
    out: list[tuple[int, pygame.Rect]] = []
    line_h = theme.font(size).get_linesize() + 2
    y = rect.y
    row = 0
    for i, (text, colour, bold) in enumerate(lines):
        rows = theme.wrap(text, rect.width, size, bold)
        top = y
        for part in rows:
            if row < first:
                row += 1
                continue
            if y + line_h > rect.bottom + 2:
                if out or y > rect.y:
                    layout.tip(pygame.Rect(rect.x, y - line_h, rect.width, line_h), text)
                return out
            surface.blit(theme.text(part, size, colour, bold), (rect.x, y))
            y += line_h
            row += 1
        if y > top:
            out.append((i, pygame.Rect(rect.x, top, rect.width, y - top)))
    return out


def lines_height(lines: list[tuple[str, tuple[int, ...], bool]], width: int, size: int) -> int:
    """The height ``draw_lines`` needs for every row of ``lines`` at ``width``."""
    line_h = theme.font(size).get_linesize() + 2
    return sum(len(theme.wrap(t, width, size, b)) for t, _, b in lines) * line_h


def section_of(app: Any, name: str) -> pygame.Rect | None:
    """A section's body on ``app``'s dock (None: not shown this frame)."""
    layout: Layout | None = getattr(app, "layout", None)
    return None if layout is None else layout.body(name)
