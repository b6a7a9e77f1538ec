"""A game in play: the turn machine, the log of actions, undo/redo and branches.

Every change to a game is an *action*: plain JSON data such as
``{"do": "move", "piece": "A1", "to": "0503"}``, applied by the rule system, never by the
window. The engine keeps the actions in a tree: playing appends a child of the current
entry; undo moves to the parent; redo to the child played last; going back (undo, or a
jump to a turn/phase bookmark) and then playing something else starts a new branch and
keeps the old line, which the player can return to with ``goto``.

Each entry records the action, the dice it rolled (with their purposes and outcomes),
what happened in words, and the turn and phase after it. The dice are a stream fixed by
the game's seed, and the state holds the stream position, so replaying the actions from
the initial state reproduces every roll and every state exactly (tested); dice rolled
by hand (scripted) are stored and fed back on replay.

A rule system is a ``Ruleset``: it declares its turn sequence (``Phase`` list: who
acts in each phase, the rules' own procedures being ``"auto"``), proposes the next
automatic action, lists the legal choices of a player, refuses illegal actions with a
reason, and applies actions. The engine moves from phase to phase on ``end-phase``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from tabletop.hexgrid import LabelError

from . import setup
from .actions import END_PHASE, TABLE_ACTIONS, Action, generic_apply, generic_refusal
from .dice import Dice, Roll, ScriptError
from .pieces import Piece
from .savecheck import shown
from .setup import SetupProblem
from .state import GameState, JsonDict

SETUP = "setup"

#: What rule code raises when it meets an action it never produced (a save edited by
#: hand, finding T2): the rules refuse what they can first, and a checked replay turns
#: these into a ReplayError naming the entry. StopIteration: a setup placement of a piece
#: that is not waiting (finding T4). Unsatisfiable and SetupUndecided: an edited initial
#: position that the scenario's setup can no longer complete (fuzz finding F10).
REPLAY_ERRORS = (
    KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError, StopIteration,
    setup.Unsatisfiable, setup.SetupUndecided,
)  # fmt: skip


@dataclass(frozen=True)
class Phase:
    """One step of a turn sequence: ``actor`` is a side, ``"auto"`` (the rules' own
    procedure: the Germans of a solitaire game) or ``"any"`` (free play)."""

    key: str
    name: str
    actor: str
    rule: str = ""


class IllegalAction(ValueError):
    """An action the rules refuse; the message says why. Nothing was changed."""


class ReplayError(ValueError):
    """A logged action that does not replay: the rules refuse it now, it breaks them, or
    it does not end where the log says (a save edited by hand). ``index`` is its entry."""

    def __init__(self, index: int, action: object, reason: str) -> None:
        self.index = index
        self.action = action
        self.reason = reason
        super().__init__(f"entry {index} ({shown(action)}) cannot be replayed: {reason}")


class Ruleset(Protocol):
    """What a rule system provides to be played by the engine (see the module doc)."""

    @property
    def name(self) -> str: ...
    @property
    def sides(self) -> tuple[str, ...]: ...
    @property
    def sequence(self) -> tuple[Phase, ...]: ...
    @property
    def undo_across_turns(self) -> bool: ...

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        """Work done as a phase starts (markers removed, a check for every hex...)."""
        ...

    def proposal(self, state: GameState) -> Action | None:
        """The next action the rules take themselves in an automatic phase (ending the
        phase when its procedure is done); None when a player must decide."""
        ...

    def choices(self, state: GameState, side: str) -> list[Action]:
        """The legal actions of ``side`` now, ending the phase included when allowed."""
        ...

    def refusal(self, state: GameState, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None."""
        ...

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """Carry out a legal action (not ``end-phase``); returns what happened in words."""
        ...

    def outcome(self, state: GameState) -> str | None:
        """The result once the game is over (checked after every action), else None."""
        ...


class Bot(Protocol):
    """A player that is a program: chooses one of the legal actions for its side."""

    def choose(self, game: Game, side: str) -> Action: ...


@dataclass
class Entry:
    """One played action in the log tree."""

    action: Action
    parent: int  # index of the entry before it; -1 for the initial state
    rolls: list[Roll] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    turn: int = 0
    phase: str = SETUP
    script: list[int] = field(default_factory=list)  # faces rolled by hand, fed back on replay
    last_child: int | None = None  # the child redo goes to

    def to_json(self) -> JsonDict:
        out: JsonDict = {
            "action": self.action,
            "parent": self.parent,
            "rolls": [[r.purpose, list(r.result), r.outcome] for r in self.rolls],
            "lines": self.lines,
            "turn": self.turn,
            "phase": self.phase,
        }
        if self.script:
            out["script"] = self.script
        if self.last_child is not None:
            out["last_child"] = self.last_child
        return out

    @classmethod
    def from_json(cls, data: JsonDict) -> Entry:
        return cls(
            action=data["action"],
            parent=data["parent"],
            rolls=[Roll(p, tuple(f), o) for p, f, o in data["rolls"]],
            lines=list(data["lines"]),
            turn=data["turn"],
            phase=data["phase"],
            script=list(data.get("script", ())),
            last_child=data.get("last_child"),
        )


class Game:
    """A ruleset, a state, a seed and the log tree; ``head`` is the current entry."""

    def __init__(
        self,
        rules: Ruleset,
        state: GameState,
        seed: int,
        *,
        dice: Dice | None = None,
        history: bool = True,
        on_phase_end: Callable[[Game], None] | None = None,
        setup: SetupProblem | None = None,
    ) -> None:
        self.rules = rules
        self.setup = setup  # the scenario's placements and constraints, played in "setup"
        self.unit_steps: dict[str, int] = {}  # unit type -> full steps, for pieces set up
        self.seed = seed
        self.state = state
        self.initial = state.to_json()
        self.entries: list[Entry] = []
        self.head = -1
        self.history = history  # keep a snapshot per entry (fast undo); else replay
        self._snapshots: dict[int, JsonDict] = {-1: self.initial}
        self._script = dice.script_left if dice is not None else []
        self.on_phase_end = on_phase_end  # the autosave hook

    # -- the turn machine -------------------------------------------------------------

    def phase(self) -> Phase | None:
        """The current phase of the sequence; None during setup."""
        for p in self.rules.sequence:
            if p.key == self.state.phase:
                return p
        return None

    def actor(self) -> str | None:
        """Who acts now: a side, "auto", "any", or None when the game is over."""
        if self.state.result is not None:
            return None
        p = self.phase()
        return p.actor if p is not None else "any"

    def proposal(self) -> Action | None:
        """The rules' next automatic action, if the current phase has one."""
        if self.state.result is not None:
            return None
        return self.rules.proposal(self.state)

    def choices(self, side: str) -> list[Action]:
        return [] if self.state.result is not None else self.rules.choices(self.state, side)

    def refusal(self, action: Action) -> str | None:
        if not isinstance(action, dict) or not isinstance(action.get("do"), str):
            return f"an action is a mapping with a `do` word, not {action!r}"
        if action["do"] in TABLE_ACTIONS:  # notes and rolls, after the game too
            return generic_refusal(self.state, action)
        if self.state.result is not None:
            return f"the game is over: {self.state.result}"
        if action.get("edit"):
            return generic_refusal(self.state, action)
        if self.state.phase == SETUP:
            return self._setup_refusal(action)
        return self.rules.refusal(self.state, action)

    def _setup_refusal(self, action: Action) -> str | None:
        """Setup is the engine's: pieces onto legal hexes, or the solver for the rest."""
        do, problem, board = action["do"], self.setup, self.state.board
        if do == END_PHASE["do"]:
            if problem is None:
                return None
            left = setup.to_place(self.state.map, problem)
            if left:
                return f"{len(left)} pieces still to place (first: {left[0].id}); place them or let the solver do it"
            broken = setup.check(self.state.map, problem)
            return "; ".join(v.message for v in broken) or None
        if problem is None:
            return "this game has no setup to do: end the setup phase to begin"
        if do == "setup-solve":
            return None if setup.to_place(self.state.map, problem) else "every setup piece is already placed"
        if do == "setup-place":
            piece = next((p for p in setup.to_place(self.state.map, problem) if p.id == action.get("piece")), None)
            if piece is None:
                return f"{action.get('piece')!r} is not a setup piece waiting to be placed"
            try:
                h = board.hex_of(str(action.get("to")))
            except LabelError as exc:
                return str(exc)
            return setup.refusal(self.state.map, problem, piece, h)
        return f"during setup only setup-place, setup-solve and end-phase are played, not {do!r}"

    def play(self, action: Action) -> Entry:
        """Apply a legal action and log it; IllegalAction (state unchanged) if not."""
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        before = (self.state.turn, self.state.phase)
        dice = Dice(self.seed, drawn=self.state.drawn, script=self._script)
        entry = Entry(action=dict(action), parent=self.head)
        try:
            entry.lines = self._apply(self.state, action, dice)
        except ScriptError as exc:
            self.state = self._state_at(self.head)
            self._script = []
            raise IllegalAction(f"{exc}; the dice rolled by hand were dropped, nothing was played") from None
        except Exception:
            self.state = self._state_at(self.head)  # nothing half-done survives
            raise
        self._script = dice.script_left
        entry.script = _scripted_faces(dice)
        entry.rolls = list(dice.log)
        entry.turn, entry.phase = self.state.turn, self.state.phase
        self.entries.append(entry)
        index = len(self.entries) - 1
        if self.head >= 0:
            self.entries[self.head].last_child = index
        self.head = index
        if self.history:
            self._snapshots[index] = self.state.to_json()
        if (self.state.turn, self.state.phase) != before and self.on_phase_end is not None:
            self.on_phase_end(self)
        return entry

    def run(self, seats: dict[str, Bot] | None = None, *, limit: int = 100_000) -> int:
        """Play automatic actions and bot moves until a person must decide or the game
        ends; returns how many actions were played."""
        seats = seats or {}
        played = 0
        while played < limit and self.state.result is None:
            action = self.proposal()
            if action is None:
                actor = self.actor()
                bot = seats.get(actor) if actor is not None else None
                if bot is None:
                    break
                action = bot.choose(self, actor)  # type: ignore[arg-type]
            self.play(action)
            played += 1
        return played

    def roll_by_hand(self, faces: Sequence[int]) -> None:
        """The next rolls are these faces (a player rolling real dice), in order."""
        self._script.extend(faces)

    @property
    def hand_dice(self) -> list[int]:
        """Faces rolled by hand and not used yet."""
        return list(self._script)

    def _apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        if action.get("do") == END_PHASE["do"]:
            lines = self._advance(state, dice)
        elif state.phase == SETUP:
            lines = self._setup_apply(state, action, dice)
        elif action.get("do") in TABLE_ACTIONS:
            lines = generic_apply(state, action, dice)
        elif action.get("edit"):
            lines = [f"edit (outside the rules): {line}" for line in generic_apply(state, action, dice)]
        else:
            lines = self.rules.apply(state, action, dice)
        state.drawn = dice.drawn
        if state.result is None:
            state.result = self.rules.outcome(state)
            if state.result is not None:
                lines.append(f"game over: {state.result}")
        return lines

    def _setup_apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """An action played during setup. Rolls and notes (and edits outside the rules),
        which ``refusal`` lets through in every phase, are the table's, not placements."""
        if action["do"] in TABLE_ACTIONS:
            return generic_apply(state, action, dice)
        if action.get("edit"):
            return [f"edit (outside the rules): {line}" for line in generic_apply(state, action, dice)]
        if self.setup is None:  # refusal says so first; only a replayed log gets here
            raise ValueError(f"this game has no setup to do, so {action['do']!r} cannot be played")
        board = state.board
        if action["do"] == "setup-solve":
            placed = setup.solve(state.map, self.setup, dice)
            for piece in placed:
                state.map.place(self._full(piece))
            return [f"setup: {len(placed)} pieces placed by the solver"]
        waiting = next((p for p in setup.to_place(state.map, self.setup) if p.id == action.get("piece")), None)
        if action["do"] != "setup-place" or waiting is None:  # only a replayed log skips refusal
            raise ValueError(f"during setup, {action!r} is neither a placement nor a table action")
        state.map.place(self._full(replace(waiting, hex=board.hex_of(str(action["to"])))))
        return [f"setup: {waiting.id} placed in {action['to']}"]

    def _full(self, piece: Piece) -> Piece:
        """A unit set up at full strength (its counter's steps)."""
        steps = self.unit_steps.get(piece.type) if piece.kind == "unit" else None
        return replace(piece, steps=steps) if steps else piece

    def _advance(self, state: GameState, dice: Dice) -> list[str]:
        keys = [p.key for p in self.rules.sequence]
        if state.phase in keys and keys.index(state.phase) + 1 < len(keys):
            state.phase = keys[keys.index(state.phase) + 1]
        else:
            state.turn += 1
            state.phase = keys[0]
        phase = self.phase()
        name = phase.name if phase is not None else state.phase
        lines = [f"turn {state.turn}, {name}"]
        return lines + self.rules.begin_phase(state, dice)

    # -- the log: undo, redo, branches, bookmarks --------------------------------------

    def path(self, index: int | None = None) -> list[int]:
        """Entry indices from the first to ``index`` (default: the head). Each entry
        follows an earlier one, so this ends (a save is checked for it, finding H1);
        ValueError if the log is not such a tree."""
        out: list[int] = []
        i = self.head if index is None else index
        while i >= 0:
            if i >= len(self.entries):
                raise ValueError(f"no log entry {i}: the log has {len(self.entries)}")
            out.append(i)
            parent = self.entries[i].parent
            if parent >= i:
                raise ValueError(f"log entry {i} follows entry {parent}, not an earlier one: the log is not a tree")
            i = parent
        return out[::-1]

    def can_undo(self) -> str | None:
        """Why undo is not possible now, or None."""
        if self.head < 0:
            return "nothing to undo"
        parent = self.entries[self.head].parent
        turn = self.entries[parent].turn if parent >= 0 else 0
        if not self.rules.undo_across_turns and turn != self.state.turn:
            return f"turn {self.state.turn} has begun: earlier turns are replayed, not undone"
        return None

    def undo(self) -> None:
        reason = self.can_undo()
        if reason is not None:
            raise IllegalAction(reason)
        self.goto(self.entries[self.head].parent)

    def redo(self) -> None:
        nxt = self.entries[self.head].last_child if self.head >= 0 else self._first_root()
        if nxt is None:
            raise IllegalAction("nothing to redo")
        self.goto(nxt)

    def _first_root(self) -> int | None:
        roots = [i for i, e in enumerate(self.entries) if e.parent == -1]
        return roots[-1] if roots else None

    def goto(self, index: int) -> None:
        """Make entry ``index`` (-1: the initial state) current, on any branch. Playing
        on from there starts a new branch; the old one stays in ``entries``."""
        if not -1 <= index < len(self.entries):
            raise IllegalAction(f"no log entry {index}")
        try:
            self.state = self._state_at(index)
        except ReplayError as exc:  # a branch of a loaded save that was edited by hand
            raise IllegalAction(str(exc)) from None
        self.head = index
        if index >= 0:
            parent = self.entries[index].parent
            if parent >= 0:
                self.entries[parent].last_child = index

    def bookmarks(self) -> list[tuple[int, int, str]]:
        """(entry, turn, phase) where each phase began along the current line."""
        out: list[tuple[int, int, str]] = []
        last: tuple[int, str] | None = None
        for i in self.path(self._line_end()):
            e = self.entries[i]
            if (e.turn, e.phase) != last:
                out.append((i, e.turn, e.phase))
                last = (e.turn, e.phase)
        return out

    def _line_end(self) -> int:
        """The last entry of the current line: the head, followed forward by redo."""
        i = self.head
        while True:
            nxt = self.entries[i].last_child if i >= 0 else self._first_root()
            if nxt is None:
                return i
            if not i < nxt < len(self.entries):
                raise ValueError(f"log entry {i} goes on to entry {nxt}, not a later one: the log is not a tree")
            i = nxt

    def branches(self) -> list[int]:
        """The last entries of the lines not followed by the current one."""
        on_line = set(self.path(self._line_end()))
        parents = {e.parent for e in self.entries}
        return [i for i in range(len(self.entries)) if i not in parents and i not in on_line]

    # -- replay ---------------------------------------------------------------------

    def _state_at(self, index: int) -> GameState:
        board = self.state.board
        if index in self._snapshots:
            return GameState.from_json(board, self._snapshots[index])
        chain: list[int] = []
        i = index
        while i not in self._snapshots:
            chain.append(i)
            i = self.entries[i].parent
        state = GameState.from_json(board, self._snapshots[i])
        for j in reversed(chain):
            self._replay_checked(state, j)
        return state

    def _replay_entry(self, state: GameState, entry: Entry) -> None:
        dice = Dice(self.seed, drawn=state.drawn, script=entry.script)
        self._apply(state, entry.action, dice)

    def _replay_checked(self, state: GameState, index: int) -> None:
        """Replay entry ``index`` on ``state`` as ``play`` would: asking the rules first,
        and checking it ends at the turn and phase the log says. ReplayError if not, for
        a log read from a save may have been edited (the state is then unusable)."""
        entry = self.entries[index]
        live, self.state = self.state, state  # the rules judge the replayed state
        try:
            reason = self.refusal(entry.action)
            if reason is None:
                self._replay_entry(state, entry)
                if (state.turn, state.phase) != (entry.turn, entry.phase):
                    reason = (
                        f"the log says turn {entry.turn}, {entry.phase} after it, "
                        f"but replaying it gives turn {state.turn}, {state.phase}"
                    )
        except REPLAY_ERRORS as exc:
            reason = f"the rules cannot apply it ({type(exc).__name__}: {exc})"
        finally:
            self.state = live
        if reason is not None:
            raise ReplayError(index, entry.action, reason)

    def replay(self, index: int | None = None, *, check: bool = False) -> GameState:
        """Rebuild the state at ``index`` (default: the head) from the initial state and
        the seed alone, applying each logged action again; with ``check`` each action is
        judged by the rules first and ReplayError names the first that fails (a save)."""
        state = GameState.from_json(self.state.board, self.initial)
        for i in self.path(index):
            if check:
                self._replay_checked(state, i)
            else:
                self._replay_entry(state, self.entries[i])
        return state

    def log_lines(self) -> list[str]:
        """The current line's log in words, rolls included."""
        out: list[str] = []
        for i in self.path():
            e = self.entries[i]
            out.extend(e.lines)
            out.extend(r.text() for r in e.rolls)
        return out


def _scripted_faces(dice: Dice) -> list[int]:
    """The faces of this action that came from a script (rolled by hand)."""
    used = dice.scripted_used
    faces = [f for r in dice.log for f in r.result]
    return faces[:used]
