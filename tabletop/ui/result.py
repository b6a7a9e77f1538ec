"""The game-over dialog: the result and the after-action report in a box of their own
(issue 13 finding 10: the game-over sentence was always cut in the game box).

It opens by itself when the game reaches its result, and again with F2. It shows the
game's result whole (wrapped, never cut), the turns played, the rule system's own
score line and the summary of its after-action report (what comes before the log),
and the key events of the log (eliminations, cleared objectives, notes). The wheel and
the arrow keys scroll it; Esc or Enter closes it. It draws what the game holds and
decides nothing.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import pygame

from . import theme
from .app import App, Component

REOPEN_KEY = pygame.K_F2
CLOSE_KEYS = {pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER}
SCROLL_KEYS = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}
TITLE, RESULT, TEXT = 30, 24, 19  # font sizes
PAD = 18
WIDTH = 720  # the widest the box gets
KEY_WORDS = (  # a log line with one of these is a key event of the game
    "eliminat", "destroy", "killed", "dead", "cleared", "captur", "surrender", "withdraw",
    "retreat", "broken", "game over", "result", "victory", "note: ", "out of combat",
)  # fmt: skip
PHASE_HEADING = re.compile(r"^turn \d+, ")  # the engine's line as a phase begins (Game._advance)
KEY_EVENTS = 14  # the last key events listed


Line = tuple[str, int, tuple[int, ...], bool]  # text, size, colour, bold


class ResultDialog(Component):
    """The game-over result and after-action report (see the module docstring)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = [
        ("F2", "the game-over result and after-action report; Esc / Enter closes it"),
    ]

    def __init__(self) -> None:
        self.open = False
        self.scroll = 0  # rows scrolled down
        self.box = pygame.Rect(0, 0, 0, 0)
        self.drawn: list[str] = []  # the rows drawn last (what the player read)
        self._shown_for: object = None  # the result the dialog last opened by itself for

    # --- what it says ---------------------------------------------------------------

    def lines(self, app: App) -> list[Line]:
        """The dialog's lines, from the game as it stands (as the side at the screen sees it)."""
        game = app.play
        state = app.seen_state()
        hot, text, dim = theme.HIGHLIGHT, theme.PANEL_TEXT, theme.PANEL_DIM
        out: list[Line] = [("Game over" if state.result else "The game so far", TITLE, hot, True)]
        out.append((str(state.result or "not finished yet"), RESULT, text, True))
        out.append((f"{app.title}  ·  turns played: {state.turn}  ·  {len(game.entries)} log entries", TEXT, dim, False))
        status = getattr(game.rules, "status", None)
        if status is not None:
            out.append((str(status(state)), TEXT, hot, False))
        summary = self._summary(app)
        if summary:
            out.append(("", TEXT, dim, False))
            out.append(("After-action report", TEXT, hot, True))
            out += [(line, TEXT, text, False) for line in summary]
        events = key_events(game.log_lines(app.at_screen))
        if events:
            out.append(("", TEXT, dim, False))
            out.append(("Key events", TEXT, hot, True))
            out += [(line, TEXT, text, False) for line in events[-KEY_EVENTS:]]
        out.append(("", TEXT, dim, False))
        out.append(("Esc / Enter: close  ·  F2: open again  ·  Ctrl+R: save the whole report", TEXT, dim, False))
        return out

    @staticmethod
    def _summary(app: App) -> list[str]:
        """The rule system's after-action report up to its log (its title and the result,
        shown above, left out); nothing for a rule system without one."""
        report = getattr(app.play.rules, "report", None)
        if report is None or app.at_screen is not None:  # a report may tell another side's secrets
            return []
        try:
            lines: list[Any] = list(report(app.play))
        except Exception as exc:  # a rule system's bug: the dialog still opens
            return [f"the rule system's report failed: {type(exc).__name__}: {exc}"]
        out: list[str] = []
        for line in lines[1:]:
            if str(line).strip() in ("Log:", "Notes:"):
                break
            if str(line).strip() and not str(line).startswith("result:"):
                out.append(str(line))
        return out

    # --- events ---------------------------------------------------------------------

    def update(self, app: App, dt: float) -> None:
        """Open by itself once when the game reaches a result."""
        result = app.play.state.result
        key = (id(app.play), result)
        if result is None:
            self._shown_for = None
        elif key != self._shown_for:
            self._shown_for = key
            self.open, self.scroll = True, 0

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if not self.open:
            if event.type == pygame.KEYDOWN and event.key == REOPEN_KEY and not event.mod & pygame.KMOD_CTRL:
                self.open, self.scroll = True, 0
                return True
            return False
        if event.type == pygame.KEYDOWN:
            if event.key in CLOSE_KEYS:
                self.open = False
            elif event.key in SCROLL_KEYS:
                self.scroll = max(0, self.scroll + SCROLL_KEYS[event.key])
            elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                return False  # quitting always works
            elif event.key == pygame.K_r and event.mod & pygame.KMOD_CTRL:
                return False  # the game box saves the report
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - 3 * event.y)
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.TEXTINPUT, pygame.KEYUP)

    # --- drawing --------------------------------------------------------------------

    def draw_modal(self, surface: pygame.Surface, app: App) -> None:
        if not self.open:
            return
        width, height = surface.get_size()
        theme.veil(surface)
        inner = min(WIDTH, width - 40) - 2 * PAD
        rows: list[tuple[str, int, tuple[int, ...], bool]] = []
        for text, size, colour, bold in self.lines(app):
            rows += [(part, size, colour, bold) for part in theme.wrap(text, inner, size, bold)]
        heights = [theme.font(size, bold).get_linesize() + 2 for _, size, _, bold in rows]
        room = height - 40 - 2 * PAD
        self.scroll = min(self.scroll, max(0, _rows_to_fit(heights, room)))
        shown = list(zip(rows, heights, strict=True))[self.scroll :]
        body = 0
        count = 0
        for _, h in shown:
            if body + h > room:
                break
            body += h
            count += 1
        self.box = pygame.Rect(0, 0, inner + 2 * PAD, body + 2 * PAD)
        self.box.center = (width // 2, height // 2)
        surface.fill(theme.PANEL, self.box)
        pygame.draw.rect(surface, theme.HIGHLIGHT, self.box, 2, border_radius=4)
        y = self.box.y + PAD
        self.drawn = []
        for (text, size, colour, bold), h in shown[:count]:
            if text:
                surface.blit(theme.text(text, size, colour, bold), (self.box.x + PAD, y))
            self.drawn.append(text)
            y += h
        if self.scroll or count < len(shown):
            more = theme.text("wheel / arrows: scroll", 16, theme.PANEL_DIM)
            surface.blit(more, (self.box.right - PAD - more.get_width(), self.box.bottom - more.get_height() - 3))


def key_events(log: list[str]) -> list[str]:
    """The log's lines that mark the game's course (losses, objectives, notes, the end);
    the engine's phase headings ("turn 12, Victory Phase") are not events."""
    return [
        line for line in log if not PHASE_HEADING.match(line) and any(word in line.lower() for word in KEY_WORDS)
    ]


def _rows_to_fit(heights: list[int], room: int) -> int:
    """How many rows must be scrolled past for the last one to be shown."""
    total = 0
    for i in range(len(heights) - 1, -1, -1):
        total += heights[i]
        if total > room:
            return i + 1
    return 0
