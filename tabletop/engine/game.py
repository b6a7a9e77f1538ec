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
by hand (scripted) are stored and fed back on replay. In a two-sided game (issue 12
item 3) the stream is keyed by a secret made afresh, in memory only, for each game
started or loaded (``secret_dice``), and each entry logs the values it drew
(``Entry.stream``), which replay feeds back: the log reproduces the game exactly, yet
nothing a player holds tells the rolls to come. A ruleset may set ``secret_dice``
itself; by default it is on exactly when the game is two-sided.

A rule system is a ``Ruleset``: it declares its turn sequence (``Phase`` list: who
acts in each phase, the rules' own procedures being ``"auto"``), proposes the next
automatic action, lists the legal choices of a player, refuses illegal actions with a
reason, and applies actions. The engine moves from phase to phase on ``end-phase``.

Two-sided games (issue 12, items 1 and 2) use optional hooks a ruleset may define; a
rule system without them plays exactly as before (DOG SECTOR defines only ``actor``):

- ``actor(state) -> str | None``: who decides now when it is not the phase's fixed
  actor (alternating activations; the solitaire player deciding inside an automatic
  phase); None keeps the phase's actor.
- ``next_phase(state) -> str | None``: the phase ``end-phase`` goes to, in the same turn
  (a loop: steps repeated once per sector); None: the next in the sequence, or the
  first phase of the next turn after the last.
- ``simultaneous(state) -> tuple[side, ...]``: the sides that each choose one action in
  secret now. The engine offers each its choices wrapped as ``{"do": "commit", "side":
  S, "action": A}``, keeps the committed actions in ``state.secret`` (hidden from the
  other sides' views and logs), and once all have committed proposes ``{"do":
  "reveal"}``, which applies them together: ``reveal(state, commits, dice)`` if the
  rules define it, else each committed action in the order of the sides.
- ``reactions(state, action) -> side | None``: after a rules action (a whole action, or
  one hex of a move the rules apply hex by hex), the side that may interrupt now. The
  engine opens a window (``state.window``): that side plays its reactions (its
  ``choices`` during the window, logged with ``Entry.window`` naming the entry that
  opened it) or ``{"do": "pass"}``; after each reaction the window stays open while
  ``reactions(state, the same action)`` still names that side. The interrupted action
  resumes or stops as the rules' next proposal says.
- ``view(state, side) -> GameState``: what ``side`` may know (default: everything);
  bots only ever get a ``SideView``. ``reveals(state, action) -> sides``: the sides an
  action shows hidden information to (a card drawn, a mine found), so undo can refuse
  to cross it. ``players``: the sides people or bots play (default: the sides named as
  phase actors); with two or more the game is two-sided.

Lines that only one side may read are written ``private(side, text)``; the log as a
side sees it (``Game.log_view``) drops the others' private lines and hides the others'
committed actions until their reveal.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Protocol

from tabletop.hexgrid import LabelError

from . import setup
from .actions import END_PHASE, TABLE_ACTIONS, Action, Where, generic_apply, generic_refusal, where, wheres
from .attributes import json_problem
from .dice import Dice, Roll, ScriptError
from .pieces import Newcomers, Piece
from .savecheck import shown
from .setup import SetupProblem
from .state import GameState, JsonDict

SETUP = "setup"
COMMIT = "commit"  # a side's secret choice in a simultaneous step (engine action)
REVEAL = "reveal"  # every secret choice of the step shown and applied (engine action)
PASS = "pass"  # the reacting side lets a reaction window close (engine action)
ENGINE_ACTIONS = frozenset({COMMIT, REVEAL, PASS})
_PRIVATE = "[only "
_games = itertools.count()


def private(side: str, text: str) -> str:
    """A log line only ``side`` may read (a card drawn into its hand)."""
    return f"{_PRIVATE}{side}] {text}"


def seen_line(line: str, side: str | None) -> str | None:
    """``line`` as ``side`` reads it: another side's private line is None; None for
    ``side`` means the whole table (every line, private ones marked)."""
    if side is None or not line.startswith(_PRIVATE):
        return line
    owner, _, text = line[len(_PRIVATE) :].partition("] ")
    return text if owner == side else None


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
    """A player that is a program: chooses one of the legal actions for its side from
    what that side may know (never the Game: issue 12 item 2)."""

    def choose(self, view: SideView) -> Action: ...


@dataclass(frozen=True)
class SeenEntry:
    """A log entry as one side may see it."""

    index: int
    action: Action
    lines: tuple[str, ...]
    rolls: tuple[str, ...]
    turn: int
    phase: str
    window: int | None = None


class SideView:
    """What ``side`` may know now, all a bot receives: ``state`` (``Game.view_state``:
    the other sides' hidden cards and secret choices left out), ``choices`` (the side's
    legal actions), ``log`` (the entries of the current line as the side sees them),
    ``actor`` (who acts now) and ``key`` (equal between calls while one game is played
    on; another after undo, a jump in the log, or in another game: a bot may keep plans
    under it). ``choices`` and ``log`` are worked out when first read (DOG SECTOR's bot
    never reads every legal move), so a bot reads them while it chooses, not later. The
    view is a contract, not a sandbox: a bot uses these fields and nothing behind them."""

    #: whether another person may be looking at the screen showing this view (hot-seat;
    #: the cautious default); False when the other seats are bots (``extras.seen_by``)
    shared_screen: bool = True

    def __init__(self, game: Game, side: str) -> None:
        self.side = side
        self.state = game.view_state(side)
        self.actor = game.actor()
        self.key: tuple[int, int] = (game.serial, game.epoch)
        self._choices: Callable[[], list[Action]] = lambda: game.choices(side)
        self._log: Callable[[], list[SeenEntry]] = lambda: game.log_view(side)

    @cached_property
    def choices(self) -> list[Action]:
        return self._choices()

    @cached_property
    def log(self) -> list[SeenEntry]:
        return self._log()


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
    window: int | None = None  # a reaction: the entry whose action opened its window
    revealed: list[str] = field(default_factory=list)  # sides it showed hidden information to
    stream: list[int] = field(default_factory=list)  # values drawn from secret dice, fed back on replay
    where: list[JsonDict] = field(default_factory=list)  # where its results landed (Dice.happened)

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
        if self.window is not None:
            out["window"] = self.window
        if self.revealed:
            out["revealed"] = list(self.revealed)
        if self.stream:
            out["stream"] = list(self.stream)
        if self.where:
            out["where"] = [dict(w) for w in self.where]
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
            window=data.get("window"),
            revealed=list(data.get("revealed", ())),
            stream=list(data.get("stream", ())),
            where=[dict(w) for w in data.get("where", ()) if isinstance(w, dict)],
        )

    def happenings(self) -> tuple[Where, ...]:
        """Where the action says it happens, then where its results landed."""
        return where(self.action) + wheres(self.where)


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
        self.newcomers = Newcomers()  # full steps and attributes of units set up or arriving
        self.seed = seed
        self.state = state
        self.initial = state.to_json()
        self.entries: list[Entry] = []
        self.head = -1
        self.history = history  # keep a snapshot per entry (fast undo); else replay
        self._snapshots: dict[int, JsonDict] = {-1: self.initial}
        self._script = dice.script_left if dice is not None else []
        self.on_phase_end = on_phase_end  # the autosave hook
        self.serial = next(_games)  # tells games apart in a SideView's key
        self.epoch = 0  # grows whenever the state is replaced rather than played on
        self._secret = secrets.token_bytes(32) if self.secret_dice else None  # never saved

    # -- the turn machine -------------------------------------------------------------

    def phase(self) -> Phase | None:
        """The current phase of the sequence; None during setup."""
        for p in self.rules.sequence:
            if p.key == self.state.phase:
                return p
        return None

    @property
    def players(self) -> tuple[str, ...]:
        """The sides people or bots play: the rules' ``players``, else the sides named
        as the actor of a phase."""
        given: tuple[str, ...] | None = getattr(self.rules, "players", None)
        if given is not None:
            return tuple(given)
        named = [p.actor for p in self.rules.sequence if p.actor in self.rules.sides]
        return tuple(dict.fromkeys(named))

    @property
    def two_sided(self) -> bool:
        return len(self.players) > 1

    @property
    def secret_dice(self) -> bool:
        """Whether rolls come from the in-memory secret (item 3): the rules'
        ``secret_dice`` if they say, else whether the game is two-sided."""
        given: bool | None = getattr(self.rules, "secret_dice", None)
        return self.two_sided if given is None else bool(given)

    def use_seeded_dice(self) -> None:
        """Roll from the seed from now on, as a solitaire game does: for bot-only games
        (``sim``), whose runs must repeat from their seed and which nobody can peek at."""
        self._secret = None

    def simultaneous(self) -> tuple[str, ...]:
        """The sides choosing in secret now (the rules' ``simultaneous`` hook)."""
        hook = getattr(self.rules, "simultaneous", None)
        if hook is None or self.state.result is not None or self.state.phase == SETUP:
            return ()
        return tuple(hook(self.state))

    def actor(self) -> str | None:
        """Who acts now: a side, "auto", "any", or None when the game is over. In
        order: the side of an open reaction window; the first side of a simultaneous
        step still to commit ("auto" once all have: the reveal); the rules' ``actor``
        hook; the phase's fixed actor."""
        if self.state.result is not None:
            return None
        if self.state.window is not None:
            return str(self.state.window["side"])
        secret = self.simultaneous()
        if secret:
            waiting = [s for s in secret if s not in self.state.secret]
            return waiting[0] if waiting else "auto"
        hook = getattr(self.rules, "actor", None)
        if hook is not None and self.state.phase != SETUP:
            who: str | None = hook(self.state)
            if who is not None:
                return who
        p = self.phase()
        return p.actor if p is not None else "any"

    def proposal(self) -> Action | None:
        """The next automatic action: the reveal of a simultaneous step all have
        committed to, else the rules' own step; None while a window is open or
        a side still has to choose in secret."""
        if self.state.result is not None or self.state.window is not None:
            return None
        secret = self.simultaneous()
        if secret:
            return {"do": REVEAL} if all(s in self.state.secret for s in secret) else None
        return self.rules.proposal(self.state)

    def choices(self, side: str) -> list[Action]:
        """The legal actions of ``side`` now: its reactions and ``pass`` in a window,
        its secret choices (as commits) in a simultaneous step, else the rules'."""
        state = self.state
        if state.result is not None:
            return []
        if state.window is not None:
            return [*self.rules.choices(state, side), {"do": PASS}] if side == state.window["side"] else []
        secret = self.simultaneous()
        if secret:
            if side not in secret or side in state.secret:
                return []
            return [{"do": COMMIT, "side": side, "action": a} for a in self.rules.choices(state, side)]
        return self.rules.choices(state, side)

    def view_state(self, side: str) -> GameState:
        """What ``side`` may know of the state: the rules' ``view`` of a copy, with the
        other sides' secret choices left out. Rules without a ``view`` hide nothing, so
        while no secret choice is pending the view is the state itself, not a copy
        (the rules' caches, keyed by the map object, stay warm: DOG SECTOR's sim keeps
        its speed); a bot reads it and never changes it."""
        hook = getattr(self.rules, "view", None)
        if hook is None and not self.state.secret:
            return self.state
        state = self.state.copy()
        if hook is not None:
            state = hook(state, side)
        state.secret = {s: (a if s == side else None) for s, a in state.secret.items()}
        return state

    def side_view(self, side: str) -> SideView:
        """All a bot playing ``side`` is given."""
        return SideView(self, side)

    def log_view(self, side: str) -> list[SeenEntry]:
        """The current line's log as ``side`` may see it: the other sides' private lines
        dropped, their committed actions shown without the choice."""
        out: list[SeenEntry] = []
        for i in self.path():
            e = self.entries[i]
            action = e.action
            if action.get("do") == COMMIT and action.get("side") != side:
                action = {"do": COMMIT, "side": action.get("side")}
            lines = tuple(x for x in (seen_line(line, side) for line in e.lines) if x is not None)
            rolls = tuple(r.text() for r in e.rolls)
            out.append(SeenEntry(i, dict(action), lines, rolls, e.turn, e.phase, e.window))
        return out

    def refusal(self, action: Action) -> str | None:
        if not isinstance(action, dict) or not isinstance(action.get("do"), str):
            return f"an action is a mapping with a `do` word, not {action!r}"
        if action["do"] in TABLE_ACTIONS:  # notes and rolls, after the game too
            return generic_refusal(self.state, action)
        if self.state.result is not None:
            return f"the game is over: {self.state.result}"
        if action.get("edit"):
            return generic_refusal(self.state, action) or self._attributes_refusal(action)
        if self.state.phase == SETUP:
            return self._setup_refusal(action)
        return self._turn_refusal(action)

    def _attributes_refusal(self, action: Action) -> str | None:
        """An edit that sets a unit's attributes keeps to what the rule system declares,
        so the game can always be saved and loaded again."""
        if action["do"] == "attribute":
            values = {} if action.get("to") is None else {action["key"]: action["to"]}
            name = str(action["key"])
        elif action["do"] == "place" and action["piece"].get("attributes"):
            values, name = action["piece"]["attributes"], ""
        else:
            return None
        declared = self.newcomers.declared
        if not declared:
            return "this game's rule system declares no unit attributes"
        if name and name not in declared:
            return f"unknown attribute {name!r}; the rule system declares: {', '.join(declared)}"
        return json_problem(values, declared)

    def _turn_refusal(self, action: Action) -> str | None:
        """Windows and secret steps first (the engine's), then the rules."""
        state, do = self.state, action["do"]
        if state.window is not None:
            side = str(state.window["side"])
            if do == PASS:
                return None
            if action not in self.rules.choices(state, side):
                return f"{side} may react now: play one of its reactions or pass"
            return self.rules.refusal(state, action)
        if do == PASS:
            return "no reaction window is open: there is nothing to pass"
        secret = self.simultaneous()
        waiting = [s for s in secret if s not in state.secret]
        if do == COMMIT:
            side = str(action.get("side"))
            if side not in secret:
                return (
                    f"{shown(side)} does not choose in secret now (choosing: {', '.join(secret) or 'nobody'})"
                )
            if side in state.secret:
                return f"{side} has already chosen in secret"
            if action.get("action") not in self.rules.choices(state, side):
                return f"{shown(action.get('action'))} is not one of {side}'s choices now"
            return None
        if do == REVEAL:
            return None if secret and not waiting else "no secret choices wait to be revealed"
        if secret:
            return f"{', '.join(waiting) or 'nobody'} must first choose in secret (commit), then reveal"
        return self.rules.refusal(state, action)

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
            piece = next(
                (p for p in setup.to_place(self.state.map, problem) if p.id == action.get("piece")), None
            )
            if piece is None:
                return f"{action.get('piece')!r} is not a setup piece waiting to be placed"
            try:
                h = board.hex_of(str(action.get("to")))
            except LabelError as exc:
                return str(exc)
            return setup.refusal(self.state.map, problem, piece, h)
        return f"during setup only setup-place, setup-solve and end-phase are played, not {do!r}"

    def play(self, action: Action, *, refusal_checked: bool = False) -> Entry:
        """Apply a legal action and log it; IllegalAction (state unchanged) if not.
        ``refusal_checked``: the caller has just asked ``refusal`` of this very action in
        this very state and got None, so it is not asked twice (issue 19: the sim loop
        checks a bot's action before playing it)."""
        reason = None if refusal_checked else self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        before = (self.state.turn, self.state.phase)
        dice = Dice(self.seed, drawn=self.state.drawn, script=self._script, secret=self._secret)
        entry = Entry(action=dict(action), parent=self.head)
        if self.state.window is not None and self.head >= 0:  # a reaction: under its window
            head = self.entries[self.head]
            entry.window = head.window if head.window is not None else self.head
        entry.revealed = self._revealed(action)
        try:
            entry.lines = self._apply(self.state, action, dice)
        except ScriptError as exc:
            self.epoch += 1
            self.state = self._state_at(self.head)
            self._script = []
            raise IllegalAction(f"{exc}; the dice rolled by hand were dropped, nothing was played") from None
        except Exception:
            self.epoch += 1
            self.state = self._state_at(self.head)  # nothing half-done survives
            raise
        self._script = dice.script_left
        entry.script = _scripted_faces(dice)
        entry.rolls = list(dice.log)
        entry.stream = list(dice.streamed) if self._secret is not None else []
        entry.where = list(dice.places)
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

    def _revealed(self, action: Action) -> list[str]:
        """The sides ``action`` will show hidden information to: every side of the step
        at a reveal, and whatever the rules' ``reveals`` hook says."""
        if not isinstance(action, dict):
            return []
        do = action.get("do")
        if do == REVEAL:
            return list(self.simultaneous())
        hook = getattr(self.rules, "reveals", None)
        if hook is None or do in ENGINE_ACTIONS or do in TABLE_ACTIONS or self.state.phase == SETUP:
            return []
        return [str(s) for s in hook(self.state, action)]

    def run(self, seats: dict[str, Bot] | None = None, *, limit: int = 100_000) -> int:
        """Play automatic actions and bot moves until a person must decide or the game
        ends; returns how many actions were played. Each bot is given only its side's
        view (``SideView``)."""
        seats = seats or {}
        played = 0
        while played < limit and self.state.result is None:
            action = self.proposal()
            if action is None:
                actor = self.actor()
                bot = seats.get(actor) if actor is not None else None
                if bot is None or actor is None:
                    break
                action = bot.choose(self.side_view(actor))
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
        do = action.get("do")
        if do == END_PHASE["do"]:
            lines = self._advance(state, dice)
        elif state.phase == SETUP:
            lines = self._setup_apply(state, action, dice)
        elif do in TABLE_ACTIONS:
            lines = generic_apply(state, action, dice)
        elif action.get("edit"):
            lines = [f"edit (outside the rules): {line}" for line in generic_apply(state, action, dice)]
        elif do == COMMIT:
            side = str(action["side"])
            state.secret[side] = dict(action["action"])
            words = getattr(self.rules, "describe", None)  # the rules' own words, else the data
            chose = words(state, action["action"]) if words is not None else shown(action["action"])
            lines = [f"{side} chooses in secret", private(side, f"{side} chose: {chose}")]
        elif do == REVEAL:
            lines = self._reveal(state, dice)
        elif do == PASS:
            lines = [f"{state.window['side'] if state.window else 'nobody'} lets the moment pass"]
            state.window = None
        else:
            lines = self.rules.apply(state, action, dice) + self._window_after(state, action)
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
        waiting = next(
            (p for p in setup.to_place(state.map, self.setup) if p.id == action.get("piece")), None
        )
        if action["do"] != "setup-place" or waiting is None:  # only a replayed log skips refusal
            raise ValueError(f"during setup, {action!r} is neither a placement nor a table action")
        state.map.place(self._full(replace(waiting, hex=board.hex_of(str(action["to"])))))
        return [f"setup: {waiting.id} placed in {action['to']}"]

    def _reveal(self, state: GameState, dice: Dice) -> list[str]:
        """Every secret choice of the step, shown and applied together."""
        commits = dict(state.secret)
        state.secret = {}
        lines = self._reveal_lines(commits)
        hook = getattr(self.rules, "reveal", None)
        if hook is not None:
            return lines + list(hook(state, commits, dice))
        for action in commits.values():
            lines += self.rules.apply(state, action, dice)
        return lines

    def _reveal_lines(self, commits: dict[str, Action]) -> list[str]:
        """The log's line for a reveal: every secret choice shown, unless the rules'
        ``reveal_text(commits)`` says otherwise (choices that stay face down after the
        step, as Devil Dogs' sector cards until their sector is revealed, 5.2, 5.7)."""
        hook = getattr(self.rules, "reveal_text", None)
        if hook is not None:
            return list(hook(commits))
        return ["revealed: " + "; ".join(f"{s}: {shown(a)}" for s, a in commits.items())]

    def _window_after(self, state: GameState, action: Action) -> list[str]:
        """Open, keep or close a reaction window after a rules action."""
        hook = getattr(self.rules, "reactions", None)
        if hook is None:
            return []
        if state.window is not None:  # a reaction was played: is there more to react?
            side, trigger = str(state.window["side"]), state.window["after"]
            if hook(state, trigger) == side:
                return []
            state.window = None
            return [f"{side}'s reactions are over"]
        side = hook(state, action)
        if side is None:
            return []
        state.window = {"side": side, "after": dict(action)}
        return [f"{side} may react"]

    def _full(self, piece: Piece) -> Piece:
        """A unit set up at full strength (its counter's steps) with its attributes."""
        return self.newcomers.full(piece)

    def _advance(self, state: GameState, dice: Dice) -> list[str]:
        keys = [p.key for p in self.rules.sequence]
        hook = getattr(self.rules, "next_phase", None)
        looped = hook(state) if hook is not None and state.phase in keys else None
        if looped is not None:
            if looped not in keys:
                raise ValueError(f"next_phase gave {looped!r}, not a phase of {self.rules.name}")
            state.phase = looped
        elif state.phase in keys and keys.index(state.phase) + 1 < len(keys):
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
                raise ValueError(
                    f"log entry {i} follows entry {parent}, not an earlier one: the log is not a tree"
                )
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
        return self.reveal_wall(parent)

    def reveal_wall(self, index: int) -> str | None:
        """Why going back from the head to entry ``index`` is refused, or None: in a
        two-sided game no side may take back an entry that showed a side what was
        hidden from it (a reveal, a card drawn), for the side that saw it would choose
        again knowing it, and the side it was hidden from would be choosing again after
        the other saw its choice (issue 12 item 2: undo never reveals). Nor an entry
        that rolled dice: both sides saw the faces, and a choice made again knowing them
        would be a reroll (dice once rolled stay rolled; with secret dice the faces of
        a position are the same until the game is loaded again, issue 12 item 3)."""
        if not self.two_sided:
            return None
        kept = set(self.path(index)) if index >= 0 else set()
        for i in reversed(self.path()):
            if i in kept:
                break
            e = self.entries[i]
            if e.revealed:
                return (
                    f"entry {i} ({e.action.get('do')}) showed {', '.join(e.revealed)} what was hidden: "
                    "a two-sided game cannot be taken back across it; play on"
                )
            if e.rolls:
                return (
                    f"entry {i} ({e.action.get('do')}) rolled dice both sides saw: a two-sided game "
                    "cannot be taken back across a roll; play on"
                )
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
        wall = self.reveal_wall(index)
        if wall is not None:
            raise IllegalAction(wall)
        self.epoch += 1
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
                raise ValueError(
                    f"log entry {i} goes on to entry {nxt}, not a later one: the log is not a tree"
                )
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
        recorded = entry.stream if self._secret is not None or entry.stream else None
        dice = Dice(self.seed, drawn=state.drawn, script=entry.script, recorded=recorded)
        self._apply(state, entry.action, dice)
        dice.record_used_up()

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

    def log_lines(self, side: str | None = None) -> list[str]:
        """The current line's log in words, rolls included: as ``side`` may read it,
        or (None) all of it, private lines marked."""
        out: list[str] = []
        for i in self.path():
            e = self.entries[i]
            out.extend(x for x in (seen_line(line, side) for line in e.lines) if x is not None)
            out.extend(r.text() for r in e.rolls)
        return out


def _scripted_faces(dice: Dice) -> list[int]:
    """The faces of this action that came from a script (rolled by hand)."""
    used = dice.scripted_used
    faces = [f for r in dice.log for f in r.result]
    return faces[:used]
