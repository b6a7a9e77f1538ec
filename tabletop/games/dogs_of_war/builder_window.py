"""The roster builder in the window (issue 16 item 2): F10 opens a dialog over the
table where a side's roster is built or edited with the mouse, ``builder.Builder``
doing every step (and ``roster.check``, the CLI's check, refusing with its reason).

- the side's tabs (blue, red), its roster's name, the points spent against the budget
  (the budget's - and + buttons change it by 50);
- each team with its members: the role, the weapon with < and > to step through the
  weapons that member's list allows, his perks and gear as written (dim; edited in the
  file), a medic toggle, and a button that removes the team;
- the nine lists, each a button that adds a team of it;
- the last step's result, a refusal in red with its reason, and every problem
  ``roster.check`` finds; Undo, Save (atomically, as YAML under $TABLETOP_HOME/rosters;
  a scenario names it by path: ``game: blue-roster: PATH``) and Close (Esc).

The game is not touched: a roster is read when a game is set up, so a saved roster
plays from the next game that names it. The buttons drawn last are kept by name in
``buttons`` (what a test clicks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import pygame

from tabletop.ui import theme
from tabletop.ui.app import App, Component

from .builder import BUDGET_STEP, Builder, rosters_folder
from .data import data

OPEN_KEY = pygame.K_F10
SIDES = ("blue", "red")
TEXT, SMALL = 18, 16
PAD, ROW = 14, 22
WIDTH, HEIGHT = 1000, 700
BUTTON = (60, 66, 76)
BAD = (240, 110, 90)
GOOD = (120, 210, 140)


class RosterBuilderWindow(Component):
    """The builder dialog (see the module docstring)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = [
        ("F10", "Dogs of War: build or edit a side's roster (Esc closes)"),
    ]

    def __init__(self) -> None:
        self.open = False
        self.side = SIDES[0]
        self.builders: dict[str, Builder] = {}
        self.buttons: dict[str, pygame.Rect] = {}
        self.actions: dict[str, Callable[[], object]] = {}
        self.scroll = 0
        self.drawn: list[str] = []  # the text drawn last (what the player read)

    # --- the builders ---------------------------------------------------------------

    def builder(self, app: App) -> Builder:
        """The side's builder, started from the roster its scenario names (or empty)."""
        if self.side not in self.builders:
            names = dict(zip(SIDES, app.play.state.marks.get("rosters") or (), strict=False))
            name = names.get(self.side)
            if name:
                self.builders[self.side] = Builder.of(self.side, str(name))
            else:
                empty = {"name": f"{self.side} roster", "budget": 500, "teams": []}
                self.builders[self.side] = Builder(self.side, empty)
        return self.builders[self.side]

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type == pygame.KEYDOWN and event.key == OPEN_KEY:
            self.open = not self.open
            return True
        if not self.open:
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.open = False
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - int(event.y))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, rect in self.buttons.items():
                if rect.collidepoint(event.pos):
                    self.press(name, app)
                    return True
        return True  # an open dialog takes every event

    def press(self, name: str, app: App) -> None:
        """Do what button ``name`` does and say the outcome in the status bar."""
        action = self.actions.get(name)
        if action is None:
            return
        action()
        if self.open and self.side in self.builders and self.builders[self.side].said:
            app.say(f"roster {self.side}: {self.builders[self.side].said}")

    # --- drawing --------------------------------------------------------------------

    def draw_modal(self, surface: pygame.Surface, app: App) -> None:
        self.buttons, self.actions, self.drawn = {}, {}, []
        if not self.open:
            return
        width, height = surface.get_size()
        theme.veil(surface)
        box = pygame.Rect(0, 0, min(WIDTH, width - 20), min(HEIGHT, height - 20))
        box.center = (width // 2, height // 2)
        surface.fill(theme.PANEL, box)
        pygame.draw.rect(surface, theme.HIGHLIGHT, box, 2, border_radius=4)
        b = self.builder(app)
        x, y = box.x + PAD, box.y + PAD
        self._text(surface, "Roster builder (BUILDING PHASE l.167)", (x, y), TEXT, theme.HIGHLIGHT, True)
        bx = box.right - PAD
        for key, label, act in (
            ("close", "Close (Esc)", self._close),
            ("save", "Save", lambda: b.save()),
            ("undo", "Undo", b.undo),
        ):
            bx -= self._button(surface, key, label, (bx, y), act, right=True) + 8
        y += ROW + 6
        tx = x
        for side in SIDES:
            tx += (
                self._button(surface, f"side:{side}", side, (tx, y), self._side(side), on=side == self.side)
                + 6
            )
        spent = b.spent()
        budget = b.roster.get("budget")
        over = spent is None or not isinstance(budget, int) or spent > budget
        self._text(surface, f"{b.roster.get('name', '')}", (tx + 12, y + 2), TEXT, theme.PANEL_TEXT, True)
        y += ROW + 4
        line = f"{'?' if spent is None else spent} of {budget} points"
        w = self._text(surface, line, (x, y + 2), TEXT, BAD if over else GOOD, True)
        bx = x + w + 12
        bx += (
            self._button(
                surface, "budget-", f"budget -{BUDGET_STEP}", (bx, y), lambda: b.budget(-BUDGET_STEP)
            )
            + 6
        )
        self._button(surface, "budget+", f"budget +{BUDGET_STEP}", (bx, y), lambda: b.budget(BUDGET_STEP))
        y += ROW + 10
        split = box.x + box.width * 2 // 3
        bottom = box.bottom - PAD - 4 * ROW
        self._teams(surface, b, (x, y, split - x - PAD, bottom - y))
        self._lists(surface, b, (split, y, box.right - PAD - split, bottom - y))
        self._status(surface, b, (x, bottom + 6, box.width - 2 * PAD))

    def _teams(self, surface: pygame.Surface, b: Builder, area: tuple[int, int, int, int]) -> None:
        """Each team and its members, scrolled by the wheel when they do not fit."""
        x, top, w, h = area
        rows: list[tuple[str, Callable[[pygame.Surface, int], None]]] = []
        for i, team in enumerate(b.teams()):
            f = b.faction(i)
            title = f"team {team.get('id', i + 1)}: {f.name}, {f.points} points ({f.lines})"
            rows.append((f"team:{i}", self._team_row(b, i, title, x, w)))
            for j, m in enumerate(b.members(i)):
                rows.append((f"member:{i}:{j}", self._member_row(b, i, j, m, x, w)))
        if not rows:
            self._text(
                surface, "no team yet: add one from the lists on the right", (x, top), SMALL, theme.PANEL_DIM
            )
            return
        fit = max(1, h // ROW)
        self.scroll = min(self.scroll, max(0, len(rows) - fit))
        y = top
        for _, draw in rows[self.scroll : self.scroll + fit]:
            draw(surface, y)
            y += ROW
        if len(rows) > fit:
            self._text(
                surface,
                f"wheel: scroll ({len(rows) - fit} more rows)",
                (x, top + h - ROW + 4),
                SMALL,
                theme.PANEL_DIM,
            )

    def _team_row(
        self, b: Builder, i: int, title: str, x: int, w: int
    ) -> Callable[[pygame.Surface, int], None]:
        def draw(surface: pygame.Surface, y: int) -> None:
            room = w - self._button(
                surface, f"remove:{i}", "remove team", (x + w, y), lambda: b.remove_team(i), right=True
            )
            self._text(surface, fit(title, room - 8, SMALL, True), (x, y + 2), SMALL, theme.PANEL_TEXT, True)

        return draw

    def _member_row(
        self, b: Builder, i: int, j: int, m: dict[str, object], x: int, w: int
    ) -> Callable[[pygame.Surface, int], None]:
        def draw(surface: pygame.Surface, y: int) -> None:
            self._text(surface, f"{m.get('role')}", (x + 16, y + 2), SMALL, theme.PANEL_TEXT)
            wx = x + 200
            wx += self._button(surface, f"weapon-:{i}:{j}", "<", (wx, y), lambda: b.next_weapon(i, j, -1)) + 4
            weapon = data().weapons.get(str(m.get("weapon")))
            name = weapon.name if weapon is not None else str(m.get("weapon"))
            wx += self._text(surface, name, (wx, y + 2), SMALL, theme.HIGHLIGHT) + 4
            wx += self._button(surface, f"weapon+:{i}:{j}", ">", (wx, y), lambda: b.next_weapon(i, j, 1)) + 8
            medic = "medic: yes" if m.get("medic") is True else "medic: no"
            mw = self._button(
                surface, f"medic:{i}:{j}", medic, (x + w, y), lambda: b.toggle_medic(i, j), right=True
            )
            kit = [str(p) for p in _listed(m.get("perks"))] + [str(g) for g in _listed(m.get("gear"))]
            if kit:  # perks and gear as written (not edited here: the roster file or the CLI)
                text = fit(", ".join(kit), x + w - mw - 8 - wx, SMALL)
                self._text(surface, text, (wx, y + 2), SMALL, theme.PANEL_DIM)

        return draw

    def _lists(self, surface: pygame.Surface, b: Builder, area: tuple[int, int, int, int]) -> None:
        x, y, w, _h = area
        self._text(surface, "add a team of a list:", (x, y + 2), SMALL, theme.PANEL_DIM)
        y += ROW
        for key, f in data().factions.items():
            self._button(
                surface, f"add:{key}", f"{f.name} ({f.points})", (x, y), self._adder(b, key), width=w
            )
            y += ROW

    def _status(self, surface: pygame.Surface, b: Builder, area: tuple[int, int, int]) -> None:
        x, y, w = area
        if b.said:
            colour = BAD if b.refused and b.said.startswith(("refused", "not saved")) else GOOD
            for part in theme.wrap(b.said, w, SMALL)[:2]:
                self._text(surface, part, (x, y), SMALL, colour)
                y += ROW - 4
        problems = b.problems()
        for p in problems[:2]:
            for part in theme.wrap(f"problem: {p.removeprefix('roster: ')}", w, SMALL)[:1]:
                self._text(surface, part, (x, y), SMALL, BAD)
                y += ROW - 4
        if not problems:
            where = rosters_folder() / b.file_name()
            for part in theme.wrap(f"the roster passes every check; Save writes {where}", w, SMALL)[:2]:
                self._text(surface, part, (x, y), SMALL, theme.PANEL_DIM)
                y += ROW - 4

    # --- helpers --------------------------------------------------------------------

    def _close(self) -> None:
        self.open = False

    def _side(self, side: str) -> Callable[[], None]:
        def go() -> None:
            self.side, self.scroll = side, 0

        return go

    def _adder(self, b: Builder, key: str) -> Callable[[], object]:
        return lambda: b.add_team(key)

    def _text(
        self,
        surface: pygame.Surface,
        text: str,
        at: tuple[int, int],
        size: int,
        colour: tuple[int, ...],
        bold: bool = False,
    ) -> int:
        img = theme.text(text, size, colour, bold)
        surface.blit(img, at)
        self.drawn.append(text)
        return int(img.get_width())

    def _button(
        self,
        surface: pygame.Surface,
        key: str,
        label: str,
        at: tuple[int, int],
        action: Callable[[], object],
        *,
        right: bool = False,
        on: bool = False,
        width: int | None = None,
    ) -> int:
        """A labelled button; ``right``: ``at`` is its right edge. Returns its width."""
        if width is not None:  # a fixed width: the label shortened to fit, never spilling
            label = fit(label, width - 12, SMALL)
        img = theme.text(label, SMALL, theme.LABEL if on else theme.PANEL_TEXT)
        w = width or img.get_width() + 12
        rect = pygame.Rect(at[0] - w if right else at[0], at[1], w, ROW - 3)
        surface.fill(theme.HIGHLIGHT if on else BUTTON, rect)
        pygame.draw.rect(surface, theme.PANEL_DIM, rect, 1, border_radius=3)
        surface.blit(img, (rect.x + 6, rect.y + (rect.height - img.get_height()) // 2))
        self.buttons[key] = rect
        self.actions[key] = action
        self.drawn.append(label)
        return w


def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis to ``width`` pixels (a row never spills)."""
    while len(text) > 4 and theme.font(size, bold).size(text)[0] > width:
        text = text[:-2].rstrip() + "…"
    return text


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def components() -> list[Component]:
    return [RosterBuilderWindow()]
