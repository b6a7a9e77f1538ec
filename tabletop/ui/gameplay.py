"""The game box: the phase and its rules, the rules' next step, the player's choices,
setup from a tray, undo/redo, the log player and saving.

The window decides nothing: it shows what the game offers (``Game.proposal``,
``Game.choices``) and plays what the player picks through ``App.act``. Automatic steps
(the solitaire enemy's procedures) play one at a time at a readable pace, or one per
``n`` when paused; while paused, ``o`` cycles through the other legal choices for the
step about to be played and Enter plays the one shown instead, logged as an override.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pygame

from tabletop.engine import savefile
from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import SETUP, IllegalAction
from tabletop.engine.setup import to_place
from tabletop.hexgrid import Hex

from . import theme
from .app import App, Component
from .layout import Section, draw_lines, lines_height

TYPED = {"note": "note", "dice": "dice rolled by hand", "save": "save as (a name, Enter)"}
AUTO_DELAY = 0.6  # seconds between automatic steps when not paused (the normal pace)
#: the pace of the automatic steps (Shift+P steps through them): name, seconds a step
PACES = (("slow", 1.5), ("normal", AUTO_DELAY), ("fast", 0.25), ("fastest", 0.05))
MARGIN, PAD, TEXT, SMALL = 8, 8, 20, 18
BOX_ALPHA = 228
BORDER = (78, 83, 90)
CHOICE_ROWS = 8  # choices listed for the selected unit, a page at a time
MORE_CHOICES: Action = {"do": "more-choices"}  # the game box's "next page" line, not a rule's action
RULE_ROWS, RULE_ROWS_EXPANDED = 2, 14
DANGER = (213, 94, 0)
SHORTCUTS = [
    ("n", "next: play the rules' next step, or end your phase"),
    ("p", "pause / resume the automatic steps"),
    ("Shift+P", "pace of the automatic steps: slow, normal, fast, fastest"),
    ("o, Enter", "(paused) pick another choice for the next automatic step, play it (override)"),
    ("u / Ctrl+Z, Ctrl+Y", "undo (within the turn), redo"),
    ("Ctrl+Left / Ctrl+Right", "step back / forward through the log (playing on from the past starts a branch)"),
    ("Ctrl+Up / Ctrl+Down", "jump to the previous / next phase in the log"),
    ("Ctrl+S", "save the game in your own save file (the autosave, after every phase, is another file)"),
    ("Ctrl+Shift+S", "save as: type a name for the save, Enter writes it"),
    ("click a choice", "play it (the selected unit's actions are listed in the game box)"),
    ("click '... more'", "the game box's next page of choices (8 a page; after the last, the first)"),
    ("mouse wheel over the game box", "scroll it when it is longer than its column"),
    ("F5", "setup: let the solver place the pieces left in the tray"),
    ("b", "let the rules' autoplayer (bot) finish your phase for you (stops at the phase's end)"),
    ("Ctrl+N", "write a note into the log (Enter ends it)"),
    ("Ctrl+D", "dice by hand: type the faces you rolled (e.g. 5 2 6, Enter); the next rolls use them"),
    ("Ctrl+R", "save the after-action report (result, losses, your notes, the log) as text"),
]


def describe(app: App, action: Action) -> str:
    """An action in words for a list of choices (the rules' own words if they have them)."""
    words = getattr(app.play.rules, "describe", None)
    if words is not None:
        text: str = words(app.play.state, action)
        return text
    parts = [str(action.get("do"))]
    for key, value in action.items():
        if key not in ("do", "why"):
            parts.append(f"{key} {value}")
    return " ".join(parts)


class GamePanel(Component):
    """Turn machine controls and the game box (see the module docstring)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = SHORTCUTS

    def __init__(self) -> None:
        self.paused = False
        self.pace = 1  # index in PACES: normal
        self.clock = 0.0
        self.override = 0  # which alternative the o key shows (0: the rules' own)
        self.buttons: list[tuple[pygame.Rect, Action]] = []
        self.tray: list[tuple[pygame.Rect, str]] = []
        self.placing: str | None = None  # setup piece picked from the tray
        self.box = pygame.Rect(0, 0, 0, 0)
        self.note: str | None = None  # a note being typed
        self.typing = "note"  # what the typed line is: a "note", "dice" rolled by hand, a "save" name
        self.helping: tuple[int, str] | None = None  # (turn, phase) the autoplayer plays for the player
        self._helper: tuple[str, Any] | None = None  # (side, its default bot), made once a side
        self.confirm: tuple[int, str] | None = None  # phase whose ending with nothing done was asked once
        self._choices: tuple[tuple[object, ...], list[Action]] | None = None
        self.choice_page = 0  # which page of the choices the game box lists
        self._can_move = False
        self._narrowed = False  # the box lists only the selected unit's choices
        self._zone_cache: tuple[tuple[object, ...], list[Hex]] | None = None
        self.scroll = 0  # the game box's rows scrolled past (a box longer than its column)
        self._scrolled_in: tuple[int, str] | None = None  # the phase the scroll belongs to
        self._frame_lines: tuple[list[tuple[str, tuple[int, ...], bool]], dict[int, Any]] | None = None

    # --- what the game offers ------------------------------------------------------

    def alternatives(self, app: App) -> list[Action]:
        """The choices for the automatic step about to be played, the rules' own first."""
        game = app.play
        proposal = game.proposal()
        if proposal is None:
            return []
        others = [a for a in game.choices("auto") if _same_step(a, proposal) and a != proposal]
        return [proposal] + [{**a, "override": True} for a in others]

    def bot_for(self, app: App) -> Any:
        """The bot playing the side to act now (a seat given to a bot, or the autoplayer
        asked with ``a`` for this phase), or None."""
        game = app.play
        actor = game.actor()
        if actor in (None, "auto", "any"):
            return None
        bot = app.seats.get(actor)
        if bot is None and self.helping == (game.state.turn, game.state.phase):
            if self._helper is None or self._helper[0] != actor:
                self._helper = (actor, _autoplayer(game.rules.name, actor))
            bot = self._helper[1]
        return bot

    def pending(self, app: App) -> Action | None:
        """What plays next without the player: the rules' step, or a bot's choice."""
        proposal = app.play.proposal()
        if proposal is not None:
            return proposal
        bot = self.bot_for(app)
        if bot is None:
            return None
        choice: Action = bot.choose(app.play.side_view(str(app.play.actor())))
        return choice

    def unit_choices(self, app: App) -> list[Action]:
        """The player's legal actions for the selected unit (all of them if none selected),
        worked out once per position and selection (the box is drawn every frame)."""
        game = app.play
        key = (id(game.state), game.state.map.version, game.head, len(game.entries), app.selected)
        if self._choices is None or self._choices[0] != key:
            self._choices, self.choice_page = (key, self._unit_choices(app)), 0
        return self._choices[1]

    def can_move(self, app: App) -> bool:
        """Whether the player to act may move a unit now (worked out with the choices)."""
        self.unit_choices(app)
        return self._can_move

    def _unit_choices(self, app: App) -> list[Action]:
        game = app.play
        actor = game.actor()
        self._can_move = self._narrowed = False
        if actor in (None, "auto") or game.state.phase == SETUP:
            return []
        choices = [a for a in game.choices(actor) if a.get("do") != END_PHASE["do"]]
        self._can_move = any(a.get("do") == "move" for a in choices)
        listed = [a for a in choices if a.get("do") != "move"]  # moves are made by dragging
        if app.selected is not None:
            mine = [a for a in listed if app.selected in (a.get("unit"), a.get("piece")) or _side_wide(a)]
            self._narrowed = any(app.selected in (a.get("unit"), a.get("piece")) for a in mine)
            listed = mine or listed  # a unit with nothing listed (just dragged): list every choice
        return listed

    # --- events ---------------------------------------------------------------------

    def owns_keyboard(self) -> bool:
        """A line is being typed (note, dice, save name): every key is for it (finding 6)."""
        return self.note is not None

    def wake_in(self, app: App) -> float | None:
        """The automatic steps' clock: when the next one plays (None: nothing waits)."""
        if self.paused or self.override or not self._waiting(app):
            return None
        return max(0.0, self.delay - self.clock)

    @property
    def delay(self) -> float:
        """Seconds between automatic steps at the chosen pace."""
        return PACES[self.pace][1]

    def _waiting(self, app: App) -> bool:
        return app.play.proposal() is not None or self.bot_for(app) is not None

    def end_stale_modes(self, app: App) -> None:
        """A mode ends when what it needs is gone (finding 3): placing a setup piece
        ends with setup (F5, n) or once that piece is placed or gone."""
        if self.placing is None:
            return
        problem = app.play.setup
        left = to_place(app.state, problem) if problem is not None and app.play.state.phase == SETUP else []
        if all(p.id != self.placing for p in left):
            self.placing = None

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        self.end_stale_modes(app)
        if event.type == pygame.KEYDOWN:
            return self._key(event, app)
        if self.note is not None:
            if event.type == pygame.TEXTINPUT:
                self.note += event.text
            return event.type in (pygame.TEXTINPUT, pygame.TEXTEDITING, pygame.KEYUP)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._click(event.pos, app)
        if event.type == pygame.MOUSEWHEEL and self.box.collidepoint(app.mouse):
            self.scroll = max(0, self.scroll - 3 * event.y)  # a box longer than its column: the rest below
            return True
        return False

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        key, mods = event.key, event.mod
        ctrl = mods & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if self.note is not None:
            return self._note_key(event, app)
        if (ctrl and key == pygame.K_z) or (key == pygame.K_u and not ctrl):
            self.undo(app)
        elif ctrl and key == pygame.K_y:
            self._move_in_log(app, app.play.redo, "redo")
        elif ctrl and key == pygame.K_s and mods & pygame.KMOD_SHIFT:
            self.note, self.typing = "", "save"
            pygame.key.start_text_input()
            app.say("save as: type a name, Enter saves, Esc cancels")
        elif ctrl and key == pygame.K_s:
            self.save(app)
        elif ctrl and key == pygame.K_LEFT:
            self._move_in_log(app, lambda: app.play.goto(app.play.entries[app.play.head].parent), "back")
        elif ctrl and key == pygame.K_RIGHT:
            self._move_in_log(app, app.play.redo, "forward")
        elif ctrl and key in (pygame.K_UP, pygame.K_DOWN):
            self._jump(app, -1 if key == pygame.K_UP else 1)
        elif ctrl and key in (pygame.K_n, pygame.K_d):
            self.note, self.typing = "", "note" if key == pygame.K_n else "dice"
            pygame.key.start_text_input()
            if self.typing == "note":
                app.say("note: type, Enter to log it, Esc to drop it")
            else:
                app.say("dice by hand: type the faces rolled, e.g. 5 2 6, then Enter")
        elif ctrl and key == pygame.K_r:
            self.write_report(app)
        elif ctrl:
            return False
        elif key == pygame.K_n:
            self.next(app)
        elif key == pygame.K_p and mods & pygame.KMOD_SHIFT:
            self.pace = (self.pace + 1) % len(PACES)
            name, seconds = PACES[self.pace]
            app.say(f"pace: {name} ({seconds:g} s a step; Shift+P changes it)")
        elif key == pygame.K_p:
            self.paused = not self.paused
            app.say("paused: n plays the next step" if self.paused else "resumed")
        elif key == pygame.K_o:
            alts = self.alternatives(app)
            if not self.paused or len(alts) < 2:
                app.say("o: pause (p) at an automatic step with other legal choices to override it")
            else:
                self.override = (self.override + 1) % len(alts)
                app.say(f"choice {self.override + 1} of {len(alts)}: {describe(app, alts[self.override])}")
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.override:
            alts = self.alternatives(app)
            if self.override < len(alts):
                app.act(alts[self.override])
            self.override = 0
        elif key == pygame.K_F5:
            if app.play.state.phase != SETUP:
                app.say("F5: the solver only places setup pieces, before the first turn")
            else:
                app.act({"do": "setup-solve"})
        elif key == pygame.K_b:
            self.help_with_phase(app)
        elif key == pygame.K_ESCAPE and self.placing is not None:
            self.placing = None
            app.say("setup: placing cancelled")
        else:
            return False
        return True

    def _note_key(self, event: pygame.event.Event, app: App) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            typed, self.note = self.note, None
            if typed and self.typing == "dice":
                self.hand_dice(app, typed)
            elif typed and self.typing == "save":
                self.note = None if self.save_as(app, typed) else typed  # a refused name stays to edit
            elif typed:
                app.act({"do": "note", "text": typed})
        elif event.key == pygame.K_ESCAPE:
            self.note = None
        elif event.key == pygame.K_BACKSPACE:
            self.note = self.note[:-1] if self.note else ""
        elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            return False  # quitting always works
        return True

    def hand_dice(self, app: App, typed: str) -> None:
        """Queue faces rolled by hand: the next rolls of the game use them, in order."""
        words = typed.replace(",", " ").split()
        if not words or not all(w.isdigit() and 1 <= int(w) <= 100 for w in words):
            app.say(f"dice by hand: {typed!r} is not a list of faces such as 5 2 6; nothing queued")
            return
        app.play.roll_by_hand([int(w) for w in words])
        app.say(f"dice by hand: {' '.join(map(str, app.play.hand_dice))} queued for the next rolls")

    def _click(self, pos: tuple[int, int], app: App) -> bool:
        for rect, action in self.buttons:
            if rect.collidepoint(pos):
                if action is MORE_CHOICES:
                    self.choice_page += 1
                else:
                    app.act(action)
                return True
        for rect, piece_id in self.tray:
            if rect.collidepoint(pos):
                self.placing = piece_id
                app.say(f"setup: click a hex for {piece_id} (Esc: cancel)")
                return True
        if self.box.collidepoint(pos):
            return True
        if self.placing is not None:
            h = app.hex_at_screen(*pos)
            if h is not None and app.act(
                {"do": "setup-place", "piece": self.placing, "to": app.board.label(h)}
            ):
                self.placing = self._next_alike(app, self.placing)
            return True
        return self._fire_click(pos, app)

    def _fire_click(self, pos: tuple[int, int], app: App) -> bool:
        """With one of the player's units selected, a click on an enemy it may fire at
        fires (the choice must be among the game's legal choices). A click on a hex
        holding the selected unit or a unit of its side only selects (it cycles the
        stack): it never plays an action (finding 7; a unit's other actions, such as
        restoring a unit, are chosen in the game box)."""
        shooter = app.selected_piece()
        if shooter is None:
            return False
        h = app.hex_at_screen(*pos)
        if h is None:
            return False
        units = app.state.units_at(h)
        if any(p.id == shooter.id or p.side == shooter.side for p in units):
            return False
        targets = {p.id for p in units}
        for action in self.unit_choices(app):
            if action.get("target") in targets:
                app.act(action)
                return True
        return False

    def _next_alike(self, app: App, placed: str) -> str | None:
        """After a placement, the next tray piece of the same kind (to place several fast)."""
        problem = app.play.setup
        if problem is None:
            return None
        left = to_place(app.state, problem)
        stem = placed.rsplit("-", 1)[0]
        return next((p.id for p in left if p.id.rsplit("-", 1)[0] == stem), None)

    # --- commands -------------------------------------------------------------------

    def next(self, app: App) -> None:
        """Play the rules' next step, or end the player's phase."""
        game = app.play
        if game.state.result is not None:
            app.say(f"the game is over: {game.state.result} (Ctrl+R: save the after-action report)")
            return
        alts = self.alternatives(app)
        action = alts[self.override] if alts and self.override < len(alts) else self.pending(app)
        self.override = 0
        if action is None and self._idle_phase(app) and self.confirm != (game.state.turn, game.state.phase):
            self.confirm = (game.state.turn, game.state.phase)
            app.say(f"nothing done yet in {self._phase_name(app)}: n again ends it, b lets the autoplayer play it")
            return
        self.confirm = None
        app.act(action if action is not None else dict(END_PHASE))

    def _idle_phase(self, app: App) -> bool:
        """Whether the player to act has played nothing yet in this phase (so an n
        pressed to hurry the automatic steps does not end it by accident)."""
        game = app.play
        actor = game.actor()
        if actor in (None, "auto", "any") or game.state.phase == SETUP:
            return False
        for i in reversed(game.path()):
            entry = game.entries[i]
            if (entry.turn, entry.phase) != (game.state.turn, game.state.phase):
                return True
            if entry.action.get("do") != END_PHASE["do"] and entry.action.get("do") not in ("roll", "note"):
                return False
        return True

    def _phase_name(self, app: App) -> str:
        phase = app.play.phase()
        return phase.name if phase is not None else app.play.state.phase

    def help_with_phase(self, app: App) -> None:
        game = app.play
        actor = game.actor()
        if actor in (None, "auto", "any") or game.state.phase == SETUP:
            app.say("b: the autoplayer helps in your own phases (the rules play theirs)")
            return
        if _autoplayer(game.rules.name, actor) is None:
            app.say(f"b: {game.rules.name} has no bot for {actor}")
            return
        self.helping = (game.state.turn, game.state.phase)
        self.paused = False
        app.say(f"the autoplayer plays the rest of this phase for {actor} (p pauses, u undoes)")

    def undo(self, app: App) -> None:
        reason = app.play.can_undo()
        if reason is not None:
            app.say(f"undo: {reason} (Ctrl+Left steps back through the log instead)")
            return
        self._move_in_log(app, app.play.undo, "undone")

    def _move_in_log(self, app: App, step: Any, word: str) -> None:
        if word == "back" and app.play.head < 0:
            app.say("back: this is the start of the game")
            return
        try:
            step()
        except IllegalAction as exc:
            app.say(f"{word}: {exc}")
            return
        app.sync()
        self.paused = True  # looking at the past: nothing plays by itself
        head = app.play.head
        where = f"entry {head + 1} of {len(app.play.entries)}" if head >= 0 else "the start"
        app.say(f"{word}: now at {where} (turn {app.play.state.turn}, {app.play.state.phase}); paused")

    def _jump(self, app: App, direction: int) -> None:
        marks = [i for i, _, _ in app.play.bookmarks()]
        head = app.play.head
        if direction < 0:
            earlier = [i for i in marks if i < head]
            target = earlier[-1] if earlier else -1
        else:
            later = [i for i in marks if i > head]
            if not later:
                app.say("no later phase in this line of the log")
                return
            target = later[0]
        self._move_in_log(app, lambda: app.play.goto(target), "jump")

    def save(self, app: App) -> None:
        """Ctrl+S: write the player's own save (finding 13): the file of the last Save
        As or Ctrl+S of this game, else a new one in the saves folder. Never the
        autosave, which the next phase would write over."""
        path = app.player_save or savefile.new_autosave_path(
            self._stem(app), app.play.seed, folder=savefile.save_folder()
        )
        self._write(app, path)

    def save_as(self, app: App, name: str) -> bool:
        """Save As: the player's save named ``name``; False (and why) if the name is
        not one, or another save already has it."""
        if not name.strip() or any(c in name for c in "/\\") or name.strip().startswith("."):
            app.say(f"save as: {name!r} is not a save name (no slashes); type another, Esc cancels")
            return False
        path = savefile.player_save_path(name.strip())
        if path.exists() and path != app.player_save:
            app.say(f"save as: {path} already holds a save; type another name, Esc cancels")
            return False
        return self._write(app, path)

    def _write(self, app: App, path: Path) -> bool:
        try:
            savefile.write_autosave(path, app.play, app.source)  # keeps the versions before
        except OSError as exc:
            app.say(f"save failed: {exc}")
            return False
        app.player_save = path
        app.mark_saved()
        app.say(f"saved: {path} (tabletop play --load {path})")
        return True

    @staticmethod
    def _stem(app: App) -> str:
        return Path(app.source or "game").stem

    @staticmethod
    def _new_save_path(app: App) -> Path:
        return savefile.new_autosave_path(GamePanel._stem(app), app.play.seed)

    def write_report(self, app: App) -> None:
        """The after-action report: result, the notes, and the log, as a text file named
        after the game's save, so a later game's report never replaces this one's."""
        report = getattr(app.play.rules, "report", None)
        lines = report(app.play) if report is not None else default_report(app)
        save = app.save_path or self._new_save_path(app)
        path = save.with_name(f"{save.stem}-report.txt")
        from tabletop.atomicfile import make_folder, write_atomic

        try:
            make_folder(path.parent)
            write_atomic(path, "\n".join(lines) + "\n")
        except OSError as exc:
            app.say(f"report not saved: {exc}")
            return
        app.say(f"after-action report saved: {path}")

    # --- the clock ------------------------------------------------------------------

    def update(self, app: App, dt: float) -> None:
        self.end_stale_modes(app)
        if self.paused or self.override or not self._waiting(app):
            self.clock = 0.0
            return
        self.clock += dt
        if self.clock >= self.delay:
            self.clock = 0.0
            action = self.pending(app)
            if action is not None:
                app.act(action)

    # --- drawing --------------------------------------------------------------------

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        """Setup: outline where the picked piece may go. Fire: the friendly-fire danger."""
        for h in self._zone(app):
            self._ring(surface, app, h, theme.HIGHLIGHT, 2)
        danger = self._danger(app)
        if danger:
            target, hexes = danger
            for h in hexes:
                self._ring(surface, app, h, DANGER, 4)
            self._ring(surface, app, target, theme.HIGHLIGHT, 3)

    def _zone(self, app: App) -> list[Hex]:
        """The hexes of the picked setup piece's zone (made once per pick)."""
        problem = app.play.setup
        if self.placing is None or problem is None or app.play.state.phase != SETUP:
            return []
        key = (self.placing, app.state.version)
        if self._zone_cache is None or self._zone_cache[0] != key:
            placement = next((p for p in problem.placements if self.placing in p.ids), None)
            hexes = placement.zone.hexes(app.state) if placement is not None else []
            self._zone_cache = (key, hexes)
        return self._zone_cache[1]

    def _danger(self, app: App) -> tuple[Hex, list[Hex]] | None:
        friendly = getattr(app.play.rules, "friendly_fire", None)
        if friendly is None or app.selected is None or app.hover is None:
            return None
        enemies = app.state.units_at(app.hover)
        if not enemies:
            return None
        hexes: list[Hex] = friendly(app.play.state, app.selected, enemies[0].id)
        return (app.hover, hexes) if hexes else None

    def _ring(self, surface: pygame.Surface, app: App, h: Hex, colour: Any, width: int) -> None:
        corners = [app.camera.to_screen(x, y) for x, y in app.view.layout.corners(h)]
        pygame.draw.polygon(surface, colour, corners, width)

    def dock(self, app: App) -> list[Section]:
        """The game box: at the top of the left column, first served when room is short."""
        self._frame_lines = self.box_lines(app)  # drawn this same frame: worked out once
        height = lines_height(self._frame_lines[0], app.layout.inner_width("left"), TEXT)
        title = "Game" + (f"  (scrolled {self.scroll} rows: wheel)" if self.scroll else "")
        return [Section("game", title, "left", 10, height, priority=1)]

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        """The game box's lines wrapped to its section (nothing cut with an ellipsis,
        finding 10); a clickable line is clickable on every row it wraps to."""
        self.buttons, self.tray = [], []
        placed = app.layout.placed.get("game")
        self.box = placed.frame if placed is not None else pygame.Rect(0, 0, 0, 0)
        body = app.layout.body("game")
        if body is None:
            return
        lines, clickable = self._frame_lines or self.box_lines(app)
        self._frame_lines = None
        phase = (app.play.state.turn, app.play.state.phase)
        if phase != self._scrolled_in:
            self._scrolled_in, self.scroll = phase, 0  # a new phase's box starts at its top
        rows = lines_height(lines, body.width, TEXT) // _row(TEXT)
        self.scroll = max(0, min(self.scroll, rows - body.height // _row(TEXT)))
        for i, rect in draw_lines(surface, app.layout, body, lines, TEXT, first=self.scroll):
            if i not in clickable:
                continue
            row = rect.inflate(PAD - 2, 0)
            what = clickable[i]
            if isinstance(what, str):
                self.tray.append((row, what))
            else:
                self.buttons.append((row, what))
            if row.collidepoint(app.mouse):
                pygame.draw.rect(surface, theme.HIGHLIGHT, row, 1)

    def box_lines(self, app: App) -> tuple[list[tuple[str, tuple[int, ...], bool]], dict[int, Any]]:
        """The game box's text lines, and which of them are clickable (an action to play,
        or a setup piece id to pick); a line being typed comes last, whatever the phase."""
        lines, clickable = self._box_lines(app)
        if self.note is not None:
            lines.append((f"{TYPED[self.typing]}: {self.note}_", theme.HIGHLIGHT, False))
        elif app.play.hand_dice:
            dice = " ".join(map(str, app.play.hand_dice))
            lines.append((f"dice by hand, for the next rolls: {dice}", theme.HIGHLIGHT, False))
        return lines, clickable

    def _box_lines(self, app: App) -> tuple[list[tuple[str, tuple[int, ...], bool]], dict[int, Any]]:
        game = app.play
        state = game.state
        dim, text, hot = theme.PANEL_DIM, theme.PANEL_TEXT, theme.HIGHLIGHT
        lines: list[tuple[str, tuple[int, ...], bool]] = []
        clickable: dict[int, Any] = {}
        phase = game.phase()
        if state.result is not None:
            lines.append((f"Game over: {state.result}", hot, True))
            lines.append(("F2: the after-action report  ·  Ctrl+R: save it  ·  Ctrl+N: add a note", dim, False))
            return lines, clickable
        if state.phase == SETUP:
            return self._setup_lines(app)
        actor = game.actor()
        head = f"Turn {state.turn} · {phase.name if phase else state.phase}"
        who = "the rules play it" if actor == "auto" else f"{actor} to act"
        lines.append((f"{head} · {who}{' · PAUSED' if self.paused else ''}", hot, True))
        progress = getattr(game.rules, "status", None)  # the rules' own score line
        if progress is not None:
            lines.append((progress(app.seen_state()), hot, False))  # what the side at the screen knows
        expanded = bool(app.overlays.get("rules-expanded"))
        rules = self._phase_rules(app)
        for line in rules[: RULE_ROWS_EXPANDED if expanded else RULE_ROWS]:
            lines.append((line, text, False))
        alts = self.alternatives(app)
        more = f" · e: all {len(rules)} lines of the phase" if len(rules) > RULE_ROWS and not expanded else ""
        if alts:
            shown = alts[self.override] if self.override < len(alts) else alts[0]
            tag = "override" if self.override else "next"
            lines.append((f"{tag}: {describe(app, shown)}", hot, False))
            why = shown.get("why")
            others = f" · o: {len(alts) - 1} other choices" if len(alts) > 1 and self.paused else ""
            keys = f"n: now · p: {'resume' if self.paused else 'pause'}{others}{more}"
            lines.append((f"why: {why} · {keys}" if why else keys, dim, False))
        elif self.bot_for(app) is not None:
            lines.append((f"the autoplayer plays for {actor} · p: {'resume' if self.paused else 'pause'}", dim, False))
        elif actor not in (None, "auto"):
            danger = self._danger(app)
            if danger:
                target, hexes = danger
                where = ", ".join(app.board.label(h) for h in hexes[:6]) + (" ..." if len(hexes) > 6 else "")
                lines.append((
                    f"friendly fire: a hit on {app.board.label(target)} strikes one of {len(hexes)} "
                    f"American hexes instead (orange: {where})", DANGER, True,
                ))  # fmt: skip
            choices = self.unit_choices(app)
            who_for = f"for {app.selected}" if app.selected and self._narrowed else "(select a unit to narrow)"
            if choices:
                lines.append((f"choices {who_for}:", dim, False))
            pages = max(1, -(-len(choices) // CHOICE_ROWS))
            first = self.choice_page % pages * CHOICE_ROWS
            for action in choices[first : first + CHOICE_ROWS]:
                clickable[len(lines)] = action
                lines.append((f"  {describe(app, action)}", text, False))
            if pages > 1:
                last = min(first + CHOICE_ROWS, len(choices))
                clickable[len(lines)] = MORE_CHOICES
                lines.append((f"  ... more: {first + 1}-{last} of {len(choices)} shown; click for the next page", dim, False))
            moves = self.can_move(app) or getattr(game.rules, "drag_action", None) is None
            drag = "drag a unit to move it · " if moves else ""  # this phase's hint, not the last one's
            lines.append((f"{drag}n: end the phase · b: autoplayer{more}", dim, False))
        return lines, clickable

    def _setup_lines(self, app: App) -> tuple[list[tuple[str, tuple[int, ...], bool]], dict[int, Any]]:
        game = app.play
        dim, text, hot = theme.PANEL_DIM, theme.PANEL_TEXT, theme.HIGHLIGHT
        lines: list[tuple[str, tuple[int, ...], bool]] = [("Setup", hot, True)]
        clickable: dict[int, Any] = {}
        left = to_place(app.state, game.setup) if game.setup is not None else []
        if not left:
            reason = game.refusal(dict(END_PHASE))
            lines.append((reason or "every piece is placed: n begins turn 1", text, False))
            return lines, clickable
        lines.append((f"{len(left)} pieces to place: click one, then an outlined hex (F5: the solver places them)", dim, False))
        groups: dict[str, list[str]] = {}
        for piece in left:
            groups.setdefault(f"{piece.side or ''} {piece.type}".strip(), []).append(piece.id)
        for name, ids in list(groups.items())[:CHOICE_ROWS]:
            clickable[len(lines)] = ids[0]
            mark = " <" if self.placing in ids else ""
            lines.append((f"  {name} x{len(ids)}{mark}", text, False))
        return lines, clickable

    def _phase_rules(self, app: App) -> Sequence[str]:
        rules = getattr(app.play.rules, "phase_rules", None)
        if rules is None:
            phase = app.play.phase()
            return [phase.rule] if phase is not None and phase.rule else []
        lines: Sequence[str] = rules(app.play.state)
        return lines


def _side_wide(action: Action) -> bool:
    """A choice that names no unit (who moves first, a whole team): selecting a unit
    does not hide it (issue 16: the initiative choice vanished with a model selected)."""
    return action.get("unit") is None and action.get("piece") is None


def _row(size: int) -> int:
    """A wrapped row's height in the game box (as ``layout.draw_lines`` draws it)."""
    return theme.font(size).get_linesize() + 2


def _autoplayer(rules: str, side: str) -> Any:
    """The rule system's default bot for ``side`` (a new Bot), or None if it has none."""
    from tabletop.games import bot

    try:
        return bot(rules, side)
    except LookupError:
        return None


def _same_step(a: Action, b: Action) -> bool:
    """Two choices for the same automatic step: same kind of action by the same unit."""
    return a.get("do") == b.get("do") and a.get("unit") == b.get("unit")


def default_report(app: App) -> list[str]:
    """A plain after-action report: title, result, the log with notes and rolls."""
    game = app.play
    out = [f"After-action report: {app.title}", f"seed {game.seed}", ""]
    out.append(f"result: {game.state.result or 'not finished'} (turn {game.state.turn})")
    out.append("")
    out.extend(game.log_lines())
    return out
