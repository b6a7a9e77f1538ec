"""The table's panels, in screen space: what the player reads around the map.

A status line (hovered hex, terrain, elevation, regions, zoom, rule system), the turn box
(the game's turn, phase and who acts), the selected unit's details, the message log, the
dice box, a terrain legend, a minimap that moves the view, and the shortcuts overlay.
Panels show what the app and its game hold and what the player rules; they decide no rule.

Rolls are actions played through the game (``app.edit``), so they are logged, saved and
replayed from the game's seed; the dice box shows the last rolls of the game's current
line, whoever rolled them. Hit / Miss rulings are the player's, kept here by (log entry,
roll). Turn keys (next phase, undo, save) belong to another component.

The panels are docked in the side columns (``layout``), never over the map (issue 13
finding 16): the turn box, the legend and the log on the left, the dice, the selected
unit and the minimap on the right, each folded by a click on its title. Their text
wraps to the column; what must still be cut shows whole on hover (finding 10). The log
keeps every line: the wheel over it and PageUp / PageDown scroll it. Rendered and
wrapped text is cached, the minimap is drawn once per size, the shortcuts overlay once
per window size and shortcut list.
"""

from __future__ import annotations

import pygame

from tabletop.engine.actions import Action
from tabletop.engine.dice import Roll
from tabletop.engine.pieces import Piece

from . import theme
from .app import App, Component
from .layout import STATUS_HEIGHT, Section, draw_lines, lines_height
from .overlays import LOS, VIEWSHED

PAD = 8  # inside the status line
TEXT = 20  # font sizes (pygame's default font runs small: 20 is about 15 px a line)
SMALL = 18
LOG_TEXT = 18
BORDER = (78, 83, 90)
LOG_LEAST = 3  # rows the log keeps however short the column
LOG_PAGE_KEYS = {pygame.K_PAGEUP: 1, pygame.K_PAGEDOWN: -1}
WHEEL_ROWS = 3  # log rows per wheel notch
MINIMAP_SIZE = 260
DIE_FACE = 40
LOS_OVERLAYS = (LOS, VIEWSHED)  # while one is on, PageUp / PageDown raise its line's ends
DOCKED = ("turn", "legend", "log", "dice", "selection", "minimap")  # this part's sections
SEP = "  ·  "
HIT_COLOUR = theme.LOS_CLEAR
MISS_COLOUR = theme.LOS_BLOCKED
SWATCH_GROUND = (214, 214, 200)  # the plain hex a legend draws a hexside line across
HELP_VEIL = (0, 0, 0, 110)  # darkens the table behind the shortcuts
DICE_SHOWN = 5  # rolls in the dice box: the last one large, the ones before it listed
EXPANDED_KEY = "rules-expanded"  # app.overlays switch: the rules box is expanded
ACTORS = {"auto": "the rules", "any": "anyone"}

ROLL_KEYS = {pygame.K_r, pygame.K_0, pygame.K_KP0}
HIT_KEYS = {pygame.K_h, pygame.K_1, pygame.K_KP1}
MISS_KEYS = {pygame.K_m, pygame.K_2, pygame.K_KP2}
BUTTON_KEYS = {getattr(pygame, f"K_{n}"): n for n in range(3, 8)} | {
    getattr(pygame, f"K_KP{n}"): n for n in range(3, 8)
}
LEGEND_KEY = pygame.K_SEMICOLON
BLOCKING_MODS = pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META

_PIPS = {  # die face -> pip positions on a 3 x 3 grid
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


AID_SHORTCUTS = [  # the player-aid dice keys: listed only where the rules use them (E8)
    ("h / 1, m / 2", "rule the last roll a hit / a miss"),
    ("3 - 7", "player-aid roll buttons: roll 1D6 for button 3-7"),
]
SHORTCUTS = [  # (keys, what they do), for the help overlay
    ("F1 / ? / k", "show or hide this list of shortcuts"),
    ("r / 0", "roll one of the game's dice (1D6, or the die its rules name), logged in the game (the seed is in the dice box)"),
    *AID_SHORTCUTS,
    ("e", "expand / condense the turn box and the rules box"),
    ("mouse wheel over the log, PageUp / PageDown while over the log or no line of sight is shown", "scroll the message log"),
    (";", "fold / unfold the terrain legend"),
    ("click or drag the minimap", "move the view there"),
]


def player_aid_dice(app: App) -> bool:
    """Whether the player-aid dice keys (h / m rulings, the 3-7 roll buttons) are in
    use (issue 12 item 8, E8): the ruleset's ``player_aid_dice``; on a table with no
    rule system (free play) as always; a rule system played without a ruleset of its
    own (its free play) does not use them. The generic roll key ``r`` stays everywhere."""
    given = getattr(app.play.rules, "player_aid_dice", None)
    if given is not None:
        return bool(given)
    return app.rules is None


def table_die(app: App) -> int:
    """The sides of the die the roll key throws: the ruleset's ``table_die`` (Dogs of War
    rolls D10s), else a D6."""
    return int(getattr(app.play.rules, "table_die", 6))


class Panels(Component):
    """Status line, turn box, selection, log, dice, legend, minimap and shortcuts help."""

    shortcuts = SHORTCUTS

    def __init__(self, shows: tuple[str, ...] = DOCKED) -> None:
        self.shows = frozenset(shows)  # the sections it docks (the editor shows no turn box or dice)
        self.rulings: dict[tuple[int, int], str] = {}  # (log entry, roll in it) -> "Hit" / "Miss"
        self.help_open = False
        self.expanded = False
        self.log_scroll = 0  # log rows scrolled back from the newest
        self._frame: dict[str, list[tuple[str, tuple[int, ...], bool]]] = {}  # lines ``dock`` worked out
        self.status = ""  # the status line as last drawn
        self.help_rows: list[tuple[str, str]] = []  # the shortcuts the help overlay last listed
        self.boxes: dict[str, pygame.Rect] = {}  # box name -> where it was last drawn
        self._minimap: tuple[tuple[int, int], pygame.Surface, float] | None = None
        self._help: tuple[tuple[object, ...], pygame.Surface, pygame.Surface] | None = None
        self._hover_text: tuple[object, str] | None = None
        self._legend: tuple[object, list[tuple[str, tuple[int, int, int], str]]] | None = None
        self._dragging_minimap = False

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type == pygame.KEYDOWN:
            return self._key(event, app)
        if self.help_open and event.type in (pygame.KEYUP, pygame.TEXTINPUT):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            if self.help_open:
                self.help_open = False
                return True
            if event.button == 1 and self.minimap_rect(app).collidepoint(event.pos):
                self._dragging_minimap = True
                self._look_at_minimap(app, event.pos)
                return True
            return self.box_at(event.pos) is not None  # a click on a panel is not a click on the map
        if event.type == pygame.MOUSEWHEEL and self.boxes.get("log", _NOWHERE).collidepoint(app.mouse):
            self.scroll_log(app, WHEEL_ROWS * event.y)
            return True
        if event.type == pygame.MOUSEMOTION:
            if self._dragging_minimap:
                self._look_at_minimap(app, event.pos)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._dragging_minimap:
            self._dragging_minimap = False
            return True
        return False

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        key, mods = event.key, event.mod
        if self.help_open:
            if key == pygame.K_ESCAPE or _is_help_key(event):
                self.help_open = False
                return True
            return not (key == pygame.K_q and mods & pygame.KMOD_CTRL)  # quitting always works
        if mods & BLOCKING_MODS:
            return False
        if _is_help_key(event):
            self.help_open = True
            return True
        aid = player_aid_dice(app)
        if key in ROLL_KEYS:
            sides = table_die(app)
            app.edit(_roll(f"1D{sides}", sides))
        elif not aid and key in BUTTON_KEYS.keys() | HIT_KEYS | MISS_KEYS:
            return False
        elif key in BUTTON_KEYS:
            app.edit(_roll(f"roll button {BUTTON_KEYS[key]}"))
        elif key in HIT_KEYS:
            self.rule(app, "Hit")
        elif key in MISS_KEYS:
            self.rule(app, "Miss")
        elif key == pygame.K_e:
            self.expanded = not self.expanded
            app.overlays[EXPANDED_KEY] = self.expanded
        elif key in LOG_PAGE_KEYS and self._pages_log(app):
            _, fit = self.log_view(app)
            self.scroll_log(app, LOG_PAGE_KEYS[key] * max(1, fit - 1))
        elif key == LEGEND_KEY:
            app.layout.folded ^= {"legend"}
            problem = app.layout.remember()
            app.say(problem or f"terrain legend: {'folded' if 'legend' in app.layout.folded else 'open'}")
        else:
            return False
        return True

    def _pages_log(self, app: App) -> bool:
        """PageUp / PageDown scroll the log, unless they raise the line of sight's ends
        (the overlays' keys while a line of sight is shown) and the pointer is off the log."""
        over_log = self.boxes.get("log", _NOWHERE).collidepoint(app.mouse)
        return over_log or not any(app.overlays.get(name) for name in LOS_OVERLAYS)

    def box_at(self, pos: tuple[int, int]) -> str | None:
        """The name of the box under a screen point as last drawn, or None."""
        return next((name for name, r in self.boxes.items() if r.collidepoint(pos)), None)

    def rule(self, app: App, ruling: str) -> None:
        """Record the player's ruling ("Hit" / "Miss") on the last roll, and log it."""
        last = recent_rolls(app, 1)
        if not last:
            app.say(f"{ruling} (no roll yet)")
            return
        key, roll = last[0]
        self.rulings[key] = ruling
        app.say(f"{ruling} ({_roll_text(roll)})")

    # --- the minimap ----------------------------------------------------------------

    def minimap_surface(self, app: App) -> tuple[pygame.Surface, float]:
        """The whole map drawn small to the right column's width (made once per size)."""
        layout = app.layout
        size = max(40, min(layout.inner_width("right"), MINIMAP_SIZE, (layout.right.height or 300) // 3))
        key = (size, app.view.ground_changes)  # the ground may change in play (E6)
        if self._minimap is None or self._minimap[0] != key:
            surf, scale = app.view.minimap(size)
            self._minimap = (key, surf, scale)
        return self._minimap[1], self._minimap[2]

    def minimap_rect(self, app: App) -> pygame.Rect:
        """Where the minimap image sits on screen (its docked section; empty when hidden)."""
        body = app.layout.body("minimap")
        if body is None:
            return pygame.Rect(0, 0, 0, 0)
        surf, _ = self.minimap_surface(app)
        rect = surf.get_rect()
        rect.midtop = (body.centerx, body.y)
        return rect

    def _look_at_minimap(self, app: App, pos: tuple[int, int]) -> None:
        """Put the clicked point of the minimap in the middle of the map's area."""
        rect = self.minimap_rect(app)
        _, scale = self.minimap_surface(app)
        px = min(max(pos[0], rect.left), rect.right) - rect.x
        py = min(max(pos[1], rect.top), rect.bottom) - rect.y
        x0, y0, _, _ = app.view.bounds
        cam = app.camera
        ax, ay = cam.area_centre()
        s = cam.scale
        cam.center = (x0 + px / scale - (ax - cam.width / 2) / s, y0 + py / scale - (ay - cam.height / 2) / s)

    # --- text -----------------------------------------------------------------------

    def status_line(self, app: App) -> tuple[str, str]:
        """The status line's two halves: the hovered hex, and the view and rules."""
        right = f"zoom {round(app.camera.zoom * 100)}%{SEP}{app.los_policy.name}{SEP}F1 / ? / k: shortcuts"
        return self._hovered(app), right

    def _hovered(self, app: App) -> str:
        h = app.hover
        key = (h, id(app.state), app.state.version)  # the ground may change in play (E6)
        if self._hover_text is not None and self._hover_text[0] == key:
            return self._hover_text[1]
        if h is None:
            text = "no hex under the pointer"
        else:
            board = app.board
            parts = [board.label(h), board.terrain_types[app.state.terrain_at(h)].name]  # as it is now
            if app.view.has_elevation:
                parts.append(f"elevation {board.elevation[h]}")
            regions = board.regions_of(h)
            if regions:
                parts.append("in " + ", ".join(r.name for r in regions))
            text = SEP.join(parts)
        self._hover_text = (key, text)
        return text

    def _text(
        self, text: str, size: int = TEXT, colour: tuple[int, ...] = theme.PANEL_TEXT, bold: bool = False
    ) -> pygame.Surface:
        return theme.text(text, size, colour, bold)

    def _fit(self, app: App, text: str, rect: pygame.Rect, size: int = TEXT, bold: bool = False) -> str:
        """``text`` cut to ``rect``'s width; when cut, the whole of it shows on hover."""
        shown = theme.fit(text, rect.width, size, bold)
        if shown != text:
            app.layout.tip(rect, text)
        return shown

    def turn_box_lines(self, app: App) -> list[tuple[str, tuple[int, ...], bool]]:
        """The turn box's lines (its title is the table's title)."""
        lines: list[tuple[str, tuple[int, ...], bool]] = [(t, theme.PANEL_TEXT, False) for t in turn_lines(app)]
        if self.expanded:
            conditions = ", ".join(sorted(app.conditions)) or "none"
            lines += [
                (f"line of sight: {app.los_policy.name}", theme.PANEL_DIM, False),
                (f"movement: {app.move_policy.name}", theme.PANEL_DIM, False),
                (f"conditions: {conditions}", theme.PANEL_DIM, False),
                (f"map: {app.board.name}, {len(app.view.hexes)} hexes", theme.PANEL_DIM, False),
            ]
            if app.board.scale:
                lines.append((f"scale: {app.board.scale}", theme.PANEL_DIM, False))
            lines.append(("e: condense", theme.PANEL_DIM, False))
        return lines

    def log_rows(self, app: App, width: int) -> list[tuple[str, tuple[int, ...]]]:
        """The log wrapped to ``width``: every row of every message the side at the screen
        may see (another side's private lines never), newest last."""
        messages = app.seen_messages()
        rows: list[tuple[str, tuple[int, ...]]] = []
        for i, text in enumerate(messages):
            colour = theme.PANEL_TEXT if i == len(messages) - 1 else theme.PANEL_DIM
            rows += [(part, colour) for part in theme.wrap(text, width, LOG_TEXT)]
        return rows

    def log_view(self, app: App) -> tuple[list[tuple[str, tuple[int, ...]]], int]:
        """The log's rows shown now (scrolled ``log_scroll`` rows up from the newest), and
        how many rows fit in its section (0: not shown)."""
        body = app.layout.body("log")
        if body is None:
            return [], 0
        rows = self.log_rows(app, body.width)
        fit = max(1, body.height // _line_h(LOG_TEXT))
        self.log_scroll = max(0, min(self.log_scroll, len(rows) - fit))
        end = len(rows) - self.log_scroll
        return rows[max(0, end - fit) : end], fit

    def scroll_log(self, app: App, rows: int) -> None:
        """Scroll the log ``rows`` rows back (older; negative: newer), kept within it."""
        self.log_scroll = max(0, self.log_scroll + rows)
        self.log_view(app)  # clamps to the rows there are

    def dice_lines(self, app: App) -> list[tuple[str, tuple[int, ...], bool]]:
        """The dice box's lines under the last die: the rolls before it, and the keys."""
        rolls = recent_rolls(app, DICE_SHOWN)[1:]
        lines = [
            (f"{_roll_text(roll)}  {self.rulings.get(key, '')}".rstrip(), theme.PANEL_DIM, False)
            for key, roll in rolls
        ]
        hint = "r roll   h hit   m miss   3-7 buttons" if player_aid_dice(app) else f"r roll 1D{table_die(app)}"
        return [*lines, (hint, theme.PANEL_DIM, False)]

    # --- the dock -------------------------------------------------------------------

    def dock(self, app: App) -> list[Section]:
        """The sections of the columns: the turn box, the legend and the log on the left;
        the dice, the selected unit and the minimap on the right."""
        layout = app.layout
        lw, rw = layout.inner_width("left"), layout.inner_width("right")
        frame = self._frame = {"turn": self.turn_box_lines(app), "dice": self.dice_lines(app)}  # drawn this frame
        out = [Section("turn", app.title, "left", 0, lines_height(frame["turn"], lw, SMALL), priority=0)]
        rows = self.legend_rows(app)
        if rows:
            out.append(Section("legend", "Legend  (; folds)", "left", 30, len(rows) * _line_h(SMALL, 3), priority=6))
        if app.messages:
            least = LOG_LEAST * _line_h(LOG_TEXT)
            title = "Log" + (f"  (scrolled up {self.log_scroll} rows)" if self.log_scroll else "  (wheel, PgUp / PgDn)")
            out.append(Section("log", title, "left", 40, least, priority=0, grow=True))  # before the game box
        seed = "" if app.play.secret_dice else f"  ·  seed {app.play.seed}"
        dice_h = DIE_FACE + 6 + lines_height(frame["dice"], rw, SMALL)
        out.append(Section("dice", f"Dice{seed}", "right", 0, dice_h, priority=3))
        piece = app.selected_piece()
        if piece is not None:
            lines = frame["selection"] = self.selection_lines(app, piece)[1:]
            out.append(Section("selection", piece.id, "right", 10, lines_height(lines, rw, SMALL), priority=2))
        image, _ = self.minimap_surface(app)
        out.append(Section("minimap", "Map (click to look)", "right", 90, image.get_height(), priority=4, bottom=True))
        return [s for s in out if s.name in self.shows]

    # --- drawing --------------------------------------------------------------------

    def _lines(self, app: App, name: str) -> list[tuple[str, tuple[int, ...], bool]]:
        """A section's lines as worked out by ``dock`` this frame (else afresh)."""
        lines = self._frame.pop(name, None)
        if lines is not None:
            return lines
        if name == "turn":
            return self.turn_box_lines(app)
        if name == "dice":
            return self.dice_lines(app)
        piece = app.selected_piece()
        return [] if piece is None else self.selection_lines(app, piece)[1:]

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        layout = app.layout
        self.boxes = {name: layout.placed[name].frame for name in DOCKED if name in layout.placed}
        self._draw_status(surface, app)
        body = layout.body("turn")
        if body is not None:
            draw_lines(surface, layout, body, self._lines(app, "turn"), SMALL)
        body = layout.body("legend")
        if body is not None:
            self._draw_legend(surface, app, body)
        self._draw_log(surface, app)
        body = layout.body("dice")
        if body is not None:
            self._draw_dice(surface, app, body)
        body = layout.body("selection")
        if body is not None:
            draw_lines(surface, layout, body, self._lines(app, "selection"), SMALL)
        if layout.body("minimap") is not None:
            self._draw_minimap(surface, app)

    def draw_modal(self, surface: pygame.Surface, app: App) -> None:
        if self.help_open:
            self._draw_help(surface, app)

    def _draw_status(self, surface: pygame.Surface, app: App) -> None:
        rect = app.layout.status
        pygame.draw.rect(surface, theme.PANEL, rect)
        pygame.draw.line(surface, BORDER, rect.topleft, rect.topright)
        self.boxes["status"] = rect
        left, right = self.status_line(app)
        self.status = f"{left}{SEP}{right}"
        right_img = self._text(right, TEXT, theme.PANEL_DIM)
        text_y = rect.y + (STATUS_HEIGHT - right_img.get_height()) // 2 + 1
        if right_img.get_width() < rect.width // 2:
            surface.blit(right_img, (rect.right - PAD - right_img.get_width(), text_y))
            room = max(20, rect.width - right_img.get_width() - 4 * PAD)
        else:  # a narrow window: the hovered hex first, the view's words on hover
            room = rect.width - 2 * PAD
            left = self.status
        where = pygame.Rect(rect.x + PAD, rect.y, room, rect.height)
        surface.blit(self._text(self._fit(app, left, where)), (rect.x + PAD, text_y))

    def _draw_log(self, surface: pygame.Surface, app: App) -> None:
        """The log's rows, newest at the bottom (or where it was scrolled to)."""
        body = app.layout.body("log")
        shown, _ = self.log_view(app)
        if body is None:
            return
        line_h = _line_h(LOG_TEXT)
        y = body.bottom - len(shown) * line_h
        for text, colour in shown:
            surface.blit(self._text(text, LOG_TEXT, colour), (body.x, y))
            y += line_h

    def _draw_minimap(self, surface: pygame.Surface, app: App) -> None:
        image, scale = self.minimap_surface(app)
        rect = self.minimap_rect(app)
        surface.blit(image, rect)
        x0, y0, _, _ = app.view.bounds
        vx0, vy0, vx1, vy1 = app.camera.visible_world()
        view = pygame.Rect(
            round(rect.x + (vx0 - x0) * scale),
            round(rect.y + (vy0 - y0) * scale),
            max(2, round((vx1 - vx0) * scale)),
            max(2, round((vy1 - vy0) * scale)),
        ).clip(rect.inflate(2, 2))
        if view.width and view.height:
            pygame.draw.rect(surface, theme.HIGHLIGHT, view, 2)

    def legend_rows(self, app: App) -> list[tuple[str, tuple[int, int, int], str]]:
        """(swatch kind "hex" / "side", colour, name) for what the map shows; made once per map."""
        board = app.board
        if self._legend is None or self._legend[0] is not board:
            used = set(board.terrain.values())
            rows = [
                ("hex", theme.hex_colour(t.colour), t.name)
                for k, t in board.terrain_types.items()
                if k in used
            ]
            rows += [("side", theme.hex_colour(f.colour), f.name) for f in board.hexsides.values() if f.sides]
            kinds = dict.fromkeys(
                r.kind for r in board.regions.values()
            )  # board_view colours borders by kind
            rows += [("side", theme.side_colour(f"region:{kind}"), f"{kind} border") for kind in kinds]
            self._legend = (board, rows)
        return self._legend[1]

    def _draw_legend(self, surface: pygame.Surface, app: App, body: pygame.Rect) -> None:
        line_h = _line_h(SMALL, 3)
        swatch = 18
        x = body.x
        surface.set_clip(body)
        for i, (kind, colour, name) in enumerate(self.legend_rows(app)):
            y = body.y + i * line_h
            if y + line_h > body.bottom + 3:
                break
            cy = y + line_h // 2 - 1
            r = swatch // 2
            pts = [(x + r + r * dx, cy + r * dy) for dx, dy in _HEX_UNIT]
            pygame.draw.polygon(surface, colour if kind == "hex" else SWATCH_GROUND, pts)
            pygame.draw.polygon(surface, theme.GRID_LINE, pts, 1)
            if kind == "side":  # a hexside feature: its line across a plain hex
                pygame.draw.line(surface, colour, (x + 2, cy), (x + swatch - 2, cy), 4)
            where = pygame.Rect(x + swatch + 6, y, body.right - x - swatch - 6, line_h)
            surface.blit(self._text(self._fit(app, name, where, SMALL), SMALL), (where.x, y + 1))
        surface.set_clip(None)

    def _die_number(self, surface: pygame.Surface, die: pygame.Rect, value: int) -> None:
        """A face with no pips (a D10's 7-10) shows its number."""
        image = self._text(str(value), TEXT, theme.PANEL, True)
        surface.blit(image, image.get_rect(center=die.center))

    def _draw_dice(self, surface: pygame.Surface, app: App, body: pygame.Rect) -> None:
        rolls = recent_rolls(app, 1)
        x, y = body.x, body.y
        die = pygame.Rect(x, y, DIE_FACE, DIE_FACE)
        pygame.draw.rect(surface, theme.PANEL_TEXT, die, border_radius=7)
        text_at = pygame.Rect(die.right + 10, y + 3, body.right - die.right - 10, DIE_FACE)
        if rolls:
            last_key, last = rolls[0]
            if len(last.result) == 1 and last.result[0] in _PIPS:
                step = DIE_FACE / 4
                for gx, gy in _PIPS[last.result[0]]:
                    centre = (die.x + step * (gx + 1), die.y + step * (gy + 1))
                    pygame.draw.circle(surface, theme.PANEL, centre, 4)
            elif len(last.result) == 1:  # a D10's 7-10 has no pips: its number (issue 16)
                self._die_number(surface, die, last.result[0])
            ruling = self.rulings.get(last_key)
            rows = theme.wrap(_roll_text(last), text_at.width, TEXT, True)
            if len(rows) > (1 if ruling else 2):  # no room for more beside the die: cut, whole on hover
                rows = (self._fit(app, _roll_text(last), text_at, TEXT, True),)
            for i, row in enumerate(rows):
                surface.blit(self._text(row, TEXT, theme.PANEL_TEXT, True), (text_at.x, text_at.y + i * _line_h(TEXT, 1)))
            if ruling:
                colour = HIT_COLOUR if ruling == "Hit" else MISS_COLOUR
                surface.blit(self._text(ruling, TEXT, colour, True), (text_at.x, y + DIE_FACE // 2 + 3))
        else:
            surface.blit(self._text("no roll yet", TEXT, theme.PANEL_DIM), text_at.topleft)
        rest = pygame.Rect(x, die.bottom + 6, body.width, body.bottom - die.bottom - 6)
        draw_lines(surface, app.layout, rest, self._lines(app, "dice"), SMALL)

    def selection_lines(self, app: App, piece: Piece) -> list[tuple[str, tuple[int, ...], bool]]:
        """The selected piece's box, from the game as it is now (strength from Piece.steps)."""
        status = ", ".join(sorted(piece.status)) or "none"
        facing = "none" if piece.facing is None else str(piece.facing)
        lines: list[tuple[str, tuple[int, ...], bool]] = [
            (piece.id, theme.PANEL_TEXT, True),
            (
                f"type: {piece.type}" + (" (marker)" if piece.kind == "marker" else ""),
                theme.PANEL_TEXT,
                False,
            ),
            (f"side: {piece.side or 'none'}", theme.PANEL_TEXT, False),
            (f"hex: {app.board.label(piece.hex)}", theme.PANEL_TEXT, False),
            (f"status: {status}", theme.PANEL_TEXT, False),
        ]
        full = app.play.newcomers.full_steps(piece.type) if piece.kind == "unit" else 1  # the counters' steps
        if full > 1:
            strength = "reduced" if piece.steps < full else "full strength"
            lines.append((f"steps: {piece.steps} of {full} ({strength})", theme.PANEL_TEXT, False))
        elif piece.steps != 1:
            lines.append((f"steps: {piece.steps}", theme.PANEL_TEXT, False))
        if piece.level:
            lines.append((f"level: {piece.level}", theme.PANEL_TEXT, False))
        if piece.facing is not None:
            lines.append((f"facing: {facing}", theme.PANEL_TEXT, False))
        for key, value in piece.attributes:  # what its rule system declares (regiment, nation)
            shown = ", ".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else value
            lines.append((f"{key}: {shown}", theme.PANEL_TEXT, False))
        notes = getattr(app.play.rules, "unit_lines", None)  # the rules' own words on the unit
        if notes is not None:
            lines += [(line, theme.HIGHLIGHT, False) for line in notes(app.play.state, piece)]
        return lines

    def _draw_help(self, surface: pygame.Surface, app: App) -> None:
        items = app.all_shortcuts()
        if not player_aid_dice(app):
            items = [row for row in items if row not in AID_SHORTCUTS]
        self.help_rows = items
        key = (surface.get_size(), tuple(items))
        if self._help is None or self._help[0] != key:
            veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            veil.fill(HELP_VEIL)
            self._help = (key, _help_surface(items, *surface.get_size()), veil)
        _, image, veil = self._help
        surface.blit(veil, (0, 0))
        self.boxes["help"] = image.get_rect(center=surface.get_rect().center)
        surface.blit(image, self.boxes["help"])


_NOWHERE = pygame.Rect(0, 0, 0, 0)
_HEX_UNIT = [(1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866)]


def _line_h(size: int, extra: int = 2) -> int:
    """A row's height in the columns at a font size."""
    return theme.font(size).get_linesize() + extra


def _is_help_key(event: pygame.event.Event) -> bool:
    if event.key in (pygame.K_F1, pygame.K_k, pygame.K_QUESTION):
        return True
    return getattr(event, "unicode", "") == "?" or (
        event.key == pygame.K_SLASH and bool(event.mod & pygame.KMOD_SHIFT)
    )


def _roll(purpose: str, sides: int = 6) -> Action:
    return {"do": "roll", "n": 1, "sides": sides, "purpose": purpose}


def recent_rolls(app: App, count: int) -> list[tuple[tuple[int, int], Roll]]:
    """The last ``count`` rolls of the game's current line, newest first, each keyed by
    (log entry, roll in it)."""
    out: list[tuple[tuple[int, int], Roll]] = []
    game = app.play
    i = game.head
    while i >= 0 and len(out) < count:
        entry = game.entries[i]
        out += [((i, k), entry.rolls[k]) for k in reversed(range(len(entry.rolls)))]
        i = entry.parent
    return out[:count]


def turn_lines(app: App) -> list[str]:
    """Where the game stands: the result once over, "setup" before the first turn, else
    the turn, the phase and who acts."""
    game = app.play
    if game.state.result is not None:
        return [f"game over: {game.state.result}"]
    phase = game.phase()
    if phase is None:
        return ["setup"]
    actor = game.actor() or ""
    return [f"turn {game.state.turn}: {phase.name}", f"to act: {ACTORS.get(actor, actor)}"]


def _roll_text(roll: Roll) -> str:
    faces = " + ".join(map(str, roll.result))
    if roll.purpose.startswith("roll button"):
        return f"{roll.purpose}: {faces}"
    return f"{roll.purpose}: {faces}" + (f" = {roll.total}" if len(roll.result) > 1 else "")


def _wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and font.size(trial)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines or [""]


def _help_surface(items: list[tuple[str, str]], win_w: int, win_h: int) -> pygame.Surface:
    """The shortcuts in two columns (keys, then what they do), as large as fits."""
    pad, gap, col_gap = 18, 14, 34
    max_w, max_h = min(win_w - 24, 1240), win_h - 24
    for size in (20, 18, 16, 14, 12, 11):
        font, bold = theme.font(size), theme.font(size, True)
        line_h = font.get_linesize() + 2
        col_w = (max_w - 2 * pad - col_gap) // 2
        key_w = min(max(bold.size(k)[0] for k, _ in items), int(col_w * 0.42))
        what_w = col_w - key_w - gap
        rows = [(_wrap(bold, k, key_w), _wrap(font, w, what_w)) for k, w in items]
        heights = [max(len(a), len(b)) * line_h + 4 for a, b in rows]
        split = min(range(len(rows) + 1), key=lambda i: max(sum(heights[:i]), sum(heights[i:])))
        body = max(sum(heights[:split]), sum(heights[split:]))
        title_h, foot_h = bold.get_linesize() + 12, font.get_linesize() + 10
        if body + title_h + foot_h + 2 * pad <= max_h:
            break
    used_what = max(font.size(line)[0] for _, b in rows for line in b)
    used_key = max(bold.size(line)[0] for a, _ in rows for line in a)
    col_w = used_key + gap + used_what
    width = 2 * col_w + col_gap + 2 * pad
    height = min(max_h, body + title_h + foot_h + 2 * pad)
    image = pygame.Surface((width, height), pygame.SRCALPHA)
    image.fill((*theme.PANEL, 238))
    pygame.draw.rect(image, theme.HIGHLIGHT, image.get_rect(), 2, border_radius=4)
    image.blit(bold.render("Shortcuts", True, theme.PANEL_TEXT), (pad, pad))
    for column, chunk in enumerate((rows[:split], rows[split:])):
        x = pad + column * (col_w + col_gap)
        y = pad + title_h
        for keys, what in chunk:
            for i, line in enumerate(keys):
                image.blit(bold.render(line, True, theme.HIGHLIGHT), (x, y + i * line_h))
            for i, line in enumerate(what):
                image.blit(font.render(line, True, theme.PANEL_TEXT), (x + used_key + gap, y + i * line_h))
            y += max(len(keys), len(what)) * line_h + 4
    foot = font.render("Esc, F1, ? or k closes", True, theme.PANEL_DIM)
    image.blit(foot, (width - pad - foot.get_width(), height - pad - foot.get_height() + 4))
    return image
