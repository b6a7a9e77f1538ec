"""DOG SECTOR as a rule system the engine plays (``tabletop.engine.game.Ruleset``).

Knows the seven phases of a DOG SECTOR turn and who acts in each (the rules' own
procedures, ``"auto"``, for phases 1-4 and 7; the American player for phases 5 and 6),
which action belongs to which phase, what the rules do next in an automatic phase, the
per-turn marks and tracks to clear, and when the game is over (Table 7). The work of
each phase is elsewhere: ``procedures`` (phases 1, 2, 3, 7), ``german`` (phase 4) and
``american`` (phases 5 and 6, imported only when needed), ``victory`` (Table 7).

Options are read from ``state.options`` (a ``DogSectorRules(options)`` fills in the
ones a state lacks, in ``start``): ``bombardment`` (light, moderate or heavy: Table 2,
read by the set-up), ``random-german-placement`` (set-up), ``limited-reinforcements``
(land 2D6 units, not 3D6) and ``choose-landing`` (the player places the landing units).

The game is set up with ``turn`` 0 and phase ``"setup"`` (played by the engine);
``prepare(state, scenario)``, called by ``tabletop.engine.newgame``, or ``start(state)``
readies the scenario's state before ``Game(...)`` copies it, and the first ``end-phase``
begins turn 1. ``ruleset()`` is the descriptor's entry (``tabletop.games.dog_sector.RULES``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from tabletop.engine.actions import END_PHASE, WHERE, Action, Where
from tabletop.engine.dice import Dice
from tabletop.engine.game import Phase
from tabletop.engine.movement import Reach
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import german, hits, procedures, victory
from .procedures import AMERICAN, LANDED, LANDING_AT, MISSES, SWAMP_CHECKED, TO_LAND, tables

GAME = "DOG SECTOR"
SEQUENCE = (
    Phase("land", "Phase 1: land American units", "auto", f"{GAME} phase 1"),
    Phase("swamp", "Phase 2: check for swamped American units", "auto", f"{GAME} phase 2"),
    Phase("artillery", "Phase 3: German off-map artillery", "auto", f"{GAME} phase 3"),
    Phase("german-fire", "Phase 4: German trench fire", "auto", f"{GAME} phase 4"),
    Phase("activity", "Phase 5: American beach activity", "american", f"{GAME} phase 5"),
    Phase("american-fire", "Phase 6: American fire", "american", f"{GAME} phase 6"),
    Phase("end-turn", "Phase 7: remove pinned down markers and end the turn", "auto", f"{GAME} phase 7"),
)
PHASES = {p.key: p for p in SEQUENCE}
AMERICAN_PHASES = ("activity", "american-fire")

#: action word -> the phase it belongs to
PHASE_OF = {
    "land": "land",
    "land-unit": "land",
    "swamp-check": "swamp",
    "artillery": "artillery",
    "german-fire": "german-fire",
    "move": "activity",
    "restore": "activity",
    "unpin": "activity",
    "clear": "activity",
    "bangalore": "activity",
    "fire": "american-fire",
}

#: marks and tracks kept for one turn, cleared as phase 1 begins
TURN_MARKS = ("targeted", "fired", german.GERMAN_FIRED, SWAMP_CHECKED)
TURN_TRACKS = (MISSES, LANDED, TO_LAND)
AP_SPENT = "ap-spent:"
LAST_TURN = "last-turn"  # the scenario's game length, kept for the whole game
PHASE_TEXTS = Path(__file__).with_name("phases.yaml")

OPTIONS: dict[str, tuple[Any, ...]] = {
    "bombardment": ("light", "moderate", "heavy"),
    "random-german-placement": (True, False),
    "limited-reinforcements": (True, False),
    "choose-landing": (True, False),
    "artillery-target": procedures.TARGET_READINGS,
    "artillery-roll": procedures.ROLL_READINGS,
}


def _american() -> ModuleType | None:
    """The phase 5/6 module, or None if it is not there (yet)."""
    try:
        from . import american
    except ImportError:
        return None
    return american


def _name(key: str) -> str:
    return PHASES[key].name


class DogSectorRules:
    """The DOG SECTOR turn machine: see the module doc."""

    name = "dog_sector"
    sides = ("american", "german")
    sequence = SEQUENCE
    undo_across_turns = False
    player_aid_dice = True  # the window's dice box keys: rulings and roll buttons 3-7 (E8)

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = dict(options or {})
        _check_options(self.options)

    # -- preparing a scenario's state -------------------------------------------------

    def start(self, state: GameState) -> list[str]:
        """Prepare a freshly set-up state: fill in options it lacks, put the American
        force waiting in boxes other than the dead pool into the landing box (if that is
        empty), and give units of several steps (infantry) their full strength when the
        scenario left the default of one step. Returns what it did in words."""
        for key, value in self.options.items():
            state.options.setdefault(key, value)
        _check_options(state.options)
        lines: list[str] = []
        box = tables().landing.box
        dead = hits.tables().dead_box
        if not state.box(box):
            for name in [n for n in state.boxes if n not in (box, dead)]:
                for piece in [p for p in state.box(name) if p.side == AMERICAN]:
                    state.boxes[name].remove(piece)
                    state.boxes.setdefault(box, []).append(piece)
                    lines.append(f"{piece.type} {piece.id} waits to land (from box {name})")
                if not state.boxes[name]:
                    del state.boxes[name]
        _full_strength(state)
        return lines

    def prepare(self, state: GameState, scenario: object = None) -> None:
        """``tabletop.engine.newgame``'s hook: ``start`` on the new game's state, and the
        scenario's game length (``turns:``) kept in the state."""
        self.start(state)
        turns = getattr(scenario, "turns", None)
        if isinstance(turns, int):
            state.tracks[LAST_TURN] = turns

    # -- what the window asks (optional hooks of the table) ---------------------------

    def phase_rules(self, state: GameState) -> list[str]:
        """The current phase's rules in short, then the project's choices, marked."""
        text = phase_texts().get(state.phase, {})
        return [*text.get("rules", []), *(f"project's choice: {c}" for c in text.get("choices", []))]

    def status(self, state: GameState) -> str:
        """The score line of the game box: sections cleared (Table 7), turns, landings."""
        cleared = len(victory.sections_cleared(state))
        last = state.track(LAST_TURN) or tables().turns
        ashore = len(procedures.american_units(state))
        waiting = len(state.box(tables().landing.box))
        rank = victory.rank(cleared)
        return (
            f"sections cleared {cleared} of {len(tables().artillery.sections)} ({rank.rank} so far) · "
            f"turn {state.turn} of {last} · {ashore} Americans ashore, {waiting} to land"
        )

    def unit_lines(self, state: GameState, piece: Piece) -> list[str]:
        """The rules' words on a selected unit: strength, AP left, its Table 6 line and
        (phase 6) what it may fire at now and why not the rest (fire_aid.py)."""
        out: list[str] = []
        if piece.kind != "unit":
            return out
        full = hits.full_steps(piece)
        if full > 1:
            out.append(f"strength: {'reduced' if hits.is_reduced(piece) else 'full'} ({piece.steps} of {full} steps)")
        american = _american()
        if piece.side == AMERICAN and american is not None and state.phase == "activity":  # AP are phase 5's
            out.append(f"AP left: {american.ap_left(state, piece)} of {american.ap_total(piece)} (phase 5)")
            if state.marked("fired", piece.id):
                out.append("has fired this turn")
        if state.marked("targeted", piece.id):
            out.append("not to be fired at again this turn")
        from .fire_aid import unit_fire_lines  # Table 6 for the selected unit (issue 20 item 6)

        return out + unit_fire_lines(state, piece)

    def unit_reach(self, state: GameState, piece: Piece) -> Reach | None:
        """Phase 5: where an American unit may move now with the AP it has left (the
        reach ``refusal`` judges moves by), for the window's reach overlay; None in the
        other phases (the overlay then shows the movement policy's whole reach)."""
        american = _american()
        if state.phase != "activity" or american is None or piece.side != AMERICAN or piece.kind != "unit":
            return None
        found: Reach = american.unit_reach(state, piece)
        return found

    def describe(self, state: GameState, action: Action) -> str:
        """An action in words, with unit types and hex labels."""
        return describe_action(state, action)

    def friendly_fire(self, state: GameState, firer_id: str, target_id: str) -> list[Hex]:
        """Phase 6: the friendly hexes a hit from ``firer_id`` at ``target_id`` would strike."""
        american = _american()
        if state.phase != "american-fire" or american is None:
            return []
        try:
            firer, target = state.map.piece(firer_id), state.map.piece(target_id)
        except KeyError:
            return []
        if firer.side != AMERICAN or target.side == AMERICAN or firer.kind != "unit":
            return []
        if state.marked("fired", firer_id):
            return []  # it has fired this turn: no shot to warn about
        found: list[Hex] = american.friendly_fire_hexes(state, firer_id, target_id)
        return found

    def fire_preview(self, state: GameState, firer_id: str, target_id: str) -> dict[str, Any] | None:
        """Phase 6 before the click: table row, chances, friendly fire, refusal (american.py)."""
        american = _american()
        found: dict[str, Any] | None = american.fire_preview(state, firer_id, target_id) if american else None
        return found

    def drag_action(self, state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
        """A counter dropped on a hex: a phase 5 move of an American unit; else nothing
        (the table then moves it only as a logged edit, with Shift)."""
        try:
            piece = state.map.piece(piece_id)
        except KeyError:
            return None
        if state.phase == "activity" and piece.side == AMERICAN and piece.kind == "unit" and not forced:
            return _move_where(state, {"do": "move", "unit": piece_id, "to": to})
        return None

    def report(self, game: Any) -> list[str]:
        """The after-action report: result and rank (Table 7), sections, losses, notes, log."""
        return after_action_report(game)

    # -- the Ruleset protocol ---------------------------------------------------------

    def actor(self, state: GameState) -> str | None:
        """Phase 1 with choose-landing: the American player places the landing units
        inside the automatic phase (issue 12 item 1, E1); else the phase's actor."""
        if state.phase == "land" and self.proposal(state) is None:
            return AMERICAN
        return None

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        phase = state.phase
        if phase == "land":
            if state.turn == 1:
                _full_strength(state)  # units placed during the set-up
            for mark in TURN_MARKS:
                state.marks.pop(mark, None)
            for track in [t for t in state.tracks if t in TURN_TRACKS or t.startswith((AP_SPENT, LANDING_AT))]:
                del state.tracks[track]
            return []
        if phase == "swamp":
            state.marks.pop(SWAMP_CHECKED, None)
            return []
        if phase == "artillery":
            state.tracks[MISSES] = 0
            return []
        if phase == "end-turn":
            return procedures.end_turn(state)
        return []

    def proposal(self, state: GameState) -> Action | None:
        phase = state.phase
        if phase == "land":
            waiting = state.box(tables().landing.box)
            if not state.track(LANDED) and waiting:
                return {"do": "land"}
            if state.options.get("choose-landing") and state.track(TO_LAND) > 0 and waiting:
                return None  # the player places the units
            return dict(END_PHASE)
        if phase == "swamp":
            h = _next_swamp_hex(state)
            return {"do": "swamp-check", "hex": state.board.label(h)} if h is not None else dict(END_PHASE)
        if phase == "artillery":
            return dict(END_PHASE) if procedures.artillery_done(state) else {"do": "artillery"}
        if phase == "german-fire":
            shooter = german.next_to_fire(state)
            if shooter is None:
                return dict(END_PHASE)
            target, why = german.choose_target(state, shooter.id)
            action: Action = {
                "do": "german-fire",
                "unit": shooter.id,
                "target": target.id if target else None,
                "why": why,
            }
            return _fire_where(state, action)
        if phase == "end-turn":
            return dict(END_PHASE)
        return None  # phases 5 and 6, and the set-up: a person decides

    def choices(self, state: GameState, side: str) -> list[Action]:
        phase = state.phase
        if phase not in PHASES:
            return [dict(END_PHASE)]
        if phase in AMERICAN_PHASES:
            if side != AMERICAN:
                return []
            american = _american()
            found: list[Action] = american.choices(state, phase) if american is not None else []
            return [*(_american_fire_where(state, a) for a in found), dict(END_PHASE)]
        out: list[Action] = []
        proposal = self.proposal(state)
        if proposal is not None:
            out.append(proposal)
        if phase == "land" and proposal is None:
            out += _landing_choices(state)
        if phase == "german-fire" and proposal is not None and proposal["do"] == "german-fire":
            gid, chosen = proposal["unit"], proposal["target"]
            for target in german.legal_targets(state, gid):
                if target.id != chosen:
                    override = {"do": "german-fire", "unit": gid, "target": target.id, "override": True}
                    out.append(_fire_where(state, override))
            if chosen is not None:
                out.append({"do": "german-fire", "unit": gid, "target": None, "override": True})
        return out

    def refusal(self, state: GameState, action: Action) -> str | None:
        do = action.get("do")
        phase = state.phase
        if phase not in PHASES:
            if do == END_PHASE["do"]:
                return None
            return f"the game has not begun (phase {phase!r}): end the set-up first"
        if do == END_PHASE["do"]:
            return self._end_refusal(state)
        want = PHASE_OF.get(str(do))
        if want is None:
            return f"{GAME} has no action {do!r} (known: {', '.join(sorted(PHASE_OF))}, end-phase)"
        if want != phase:
            return f"`{do}` belongs to {_name(want)}, not {_name(phase)} ({GAME})"
        if do == "land":
            if state.track(LANDED):
                return "the landing roll of this turn is already made (phase 1)"
            if not state.box(tables().landing.box):
                return "no American unit waits to land (phase 1)"
            return None
        if do == "land-unit":
            return procedures.landing_refusal(state, str(action.get("unit")), str(action.get("to")))
        if do == "swamp-check":
            label = action.get("hex")
            todo = [state.board.label(h) for h in procedures.swamp_hexes(state)]
            if label not in todo:
                return f"{label!r} is not an occupied sea hex away from the beach (phase 2)"
            if state.marked(SWAMP_CHECKED, str(label)):
                return f"{label} was already checked this phase (phase 2)"
            return None
        if do == "artillery":
            if state.track(MISSES) >= tables().artillery.misses:
                return f"phase 3 ends after {tables().artillery.misses} misses"
            if procedures.artillery_done(state):
                return "no section has a hex the guns can hit (phase 3)"
            return None
        if do == "german-fire":
            return _german_fire_refusal(state, action)
        american = _american()
        if american is None:
            return f"`{do}` is not available: the American actions (american.py) are missing"
        why: str | None = american.refusal(state, action)
        return why

    def _end_refusal(self, state: GameState) -> str | None:
        if state.phase in AMERICAN_PHASES:
            return None
        proposal = self.proposal(state)
        if proposal is None:
            return f"{_name(state.phase)}: {state.track(TO_LAND)} units are still to be placed"
        if proposal["do"] != END_PHASE["do"]:
            return f"{_name(state.phase)} is not done: next is {_describe(proposal)}"
        return None

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        if do == "land":
            return procedures.land(state, dice)
        if do == "land-unit":
            return procedures.land_unit(state, str(action["unit"]), str(action["to"]))
        if do == "swamp-check":
            return procedures.swamp_check(state, state.board.hex_of(str(action["hex"])), dice)
        if do == "artillery":
            return procedures.bombard(state, dice)
        if do == "german-fire":
            gid, target = str(action["unit"]), action.get("target")
            override = bool(action.get("override"))
            why = str(action.get("why") or ("the player's choice" if override else "no legal target"))
            if target is None:
                return german.hold_fire(state, gid, why if not override else f"{why} (override)")
            lines = [] if override else [f"target chosen: {why}"]
            return lines + german.fire(state, gid, str(target), dice, override=override)
        american = _american()
        if american is None:
            raise ValueError(f"`{do}` needs the American actions (american.py), which are missing")
        done: list[str] = american.apply(state, action, dice)
        reason = action.get("why")  # a bot's reason (the planning autoplayer), logged as German fire's is
        return [f"chosen: {reason}", *done] if reason else done

    def outcome(self, state: GameState) -> str | None:
        if state.phase not in PHASES:
            return None
        sections = tables().artillery.sections
        if len(victory.sections_cleared(state)) == len(sections):
            return victory.result_text(state, f"every trench section cleared on turn {state.turn}")
        if not procedures.american_count(state) and not state.box(tables().landing.box):
            return victory.result_text(state, f"no American unit left ashore or to land (turn {state.turn})")
        last = state.track(LAST_TURN) or tables().turns
        if state.phase == SEQUENCE[-1].key and state.turn >= last:
            return victory.result_text(state, f"turn {state.turn} of {last} ended")
        return None


# ---------------------------------------------------------------------------- helpers


def _check_options(options: Mapping[str, Any]) -> None:
    for key, allowed in OPTIONS.items():
        if key in options and options[key] not in allowed:
            words = ", ".join(str(a).lower() for a in allowed)
            raise ValueError(f"{GAME} option {key!r} must be one of {words}, got {options[key]!r}")


def _fresh(piece: Piece) -> Piece | None:
    """``piece`` at full strength if it is a unit of several steps left at the Piece
    default of one step (a scenario that gives no steps), else None."""
    if piece.kind != "unit" or piece.side not in hits.tables().types or piece.steps != 1:
        return None
    full = hits.full_steps(piece)
    return replace(piece, steps=full) if full > 1 else None


def _full_strength(state: GameState) -> None:
    """Before play: units of several steps left at one step are given their full strength."""
    for piece in state.map.pieces():
        fresh = _fresh(piece)
        if fresh is not None:
            state.map.update(fresh)
    for name, pieces in state.boxes.items():
        if name == hits.tables().dead_box:
            continue
        for i, piece in enumerate(pieces):
            fresh = _fresh(piece)
            if fresh is not None:
                pieces[i] = fresh


def ruleset() -> DogSectorRules:
    """The descriptor's entry (``RULES.ruleset``): the rules, options from the state."""
    return DogSectorRules()


def _next_swamp_hex(state: GameState) -> Hex | None:
    board = state.board
    return next(
        (h for h in procedures.swamp_hexes(state) if not state.marked(SWAMP_CHECKED, board.label(h))), None
    )


def _landing_choices(state: GameState) -> list[Action]:
    """Phase 1 with choose-landing: one unit of each type waiting, in each hex the
    landing roll gave (the player chooses units, not hexes)."""
    if not state.options.get("choose-landing") or state.track(TO_LAND) <= 0:
        return []
    first: dict[str, str] = {}
    for piece in sorted(state.box(tables().landing.box), key=lambda p: p.id):
        first.setdefault(piece.type, piece.id)
    labels = list(procedures.landing_places(state))
    return [{"do": "land-unit", "unit": uid, "to": label} for uid in first.values() for label in labels]


def _german_fire_refusal(state: GameState, action: Action) -> str | None:
    shooter = german.next_to_fire(state)
    if shooter is None:
        return "every German unit has fired this turn (phase 4)"
    gid = action.get("unit")
    if gid != shooter.id:
        return f"{shooter.id} fires next (phase 4 firing order: section, hex label, id), not {gid}"
    target = action.get("target")
    override = bool(action.get("override"))
    chosen, why = german.choose_target(state, shooter.id)
    if target is None:
        if chosen is not None and not override:
            return f'the rules\' priority fires at {chosen.id} ({why}); holding fire needs "override": true'
        return None
    reason = german.target_refusal(state, shooter.id, str(target))
    if reason is not None:
        return reason
    if chosen is not None and target != chosen.id and not override:
        return (
            f"the rules' priority fires at {chosen.id} ({why}); "
            f'play with "override": true to fire at {target} instead'
        )
    return None


def _fire_where(state: GameState, action: Action) -> Action:
    """A German fire with where it happens (firer's hex, then the target's; the Table 4
    roll, the action's first, says the result), for the window to draw (issue 13
    finding 2). A unit holding fire names nowhere."""
    target = action.get("target")
    if target is None:
        return action
    shooter, aimed = state.map.piece(str(action["unit"])), state.map.piece(str(target))
    hexes = (state.board.label(shooter.hex), state.board.label(aimed.hex))
    return {**action, WHERE: [Where("fire", hexes, (shooter.id, aimed.id), roll=0).to_json()]}


def _american_fire_where(state: GameState, action: Action) -> Action:
    """An American fire (phase 6) with where it happens: the firer's hex, then the
    target's; the Table 6 roll, the action's first, says the result (issue 13 finding 2).
    Any other action as it is. No rule reads ``where``: the game plays as before."""
    if action.get("do") != "fire" or WHERE in action:
        return action
    shooter, aimed = state.map.piece(str(action["unit"])), state.map.piece(str(action["target"]))
    hexes = (state.board.label(shooter.hex), state.board.label(aimed.hex))
    return {**action, WHERE: [Where("fire", hexes, (shooter.id, aimed.id), roll=0).to_json()]}


def _move_where(state: GameState, action: Action) -> Action:
    """A phase 5 move with the path it will take (the one the move itself takes, the
    cheapest in AP), for the window to draw along (issue 13 finding 2); as it is when
    the move is not legal (the rules then refuse it with the reason)."""
    american = _american()
    if american is None or american.refusal(state, action) is not None:
        return action
    unit = state.map.piece(str(action["unit"]))
    path = american._reach(state, unit, american.ap_left(state, unit)).path_to(state.board.hex_of(str(action["to"])))
    hexes = tuple(state.board.label(h) for h in path)
    return {**action, WHERE: [Where("move", hexes, (unit.id,)).to_json()]} if len(hexes) >= 2 else action


def with_where(state: GameState, action: Action) -> Action:
    """Any DOG SECTOR fire (German or American) with where it happens, for a caller
    that builds its own action (an autoplayer): the window draws it (finding 2)."""
    if action.get("do") == "german-fire":
        return _fire_where(state, action)
    return _american_fire_where(state, action)


def _describe(action: Action) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k not in ("do", "why"))
    return f"{action['do']}" + (f" ({rest})" if rest else "")


@cache
def phase_texts() -> dict[str, dict[str, list[str]]]:
    """phases.yaml: each phase's rules panel text (rules, and the project's choices)."""
    from .phase_texts import read_phase_texts

    return read_phase_texts(PHASE_TEXTS, (p.key for p in SEQUENCE))


def _who(state: GameState, piece_id: Any) -> str:
    """A unit by type, id and hex label, for choices and proposals."""
    try:
        piece = state.map.piece(str(piece_id))
    except KeyError:
        return str(piece_id)
    kind = german.unit_name(piece) if piece.side == "german" else piece.type.replace("-", " ")
    return f"{kind} {piece.id} ({state.board.label(piece.hex)})"


def describe_action(state: GameState, action: Action) -> str:
    """An action in the words a player reads in the game box and the log."""
    do = action.get("do")
    unit = _who(state, action.get("unit")) if "unit" in action else ""
    tag = " [override]" if action.get("override") else ""
    if do == "german-fire":
        target = action.get("target")
        aim = f"fires at {_who(state, target)}" if target else "holds fire"
        return f"{unit} {aim}{tag}"
    if do == "fire":
        return f"{unit} fires at {_who(state, action.get('target'))}"
    if do == "move":
        return f"{unit} moves to {action.get('to')}"
    if do == "restore":
        return f"{unit} restores {_who(state, action.get('target'))} (1 AP)"
    if do == "unpin":
        return f"{unit} removes the pinned marker in its hex (1 AP)"
    if do == "clear":
        what = f" {action['obstacle']}" if action.get("obstacle") else ""
        return f"{unit} removes the{what} obstacle in {action.get('hex')} (1 AP)"
    if do == "bangalore":
        return f"{unit} blows a bangalore through {' and '.join(map(str, action.get('hexes', [])))} (1 AP)"
    if do == "land-unit":
        return f"land {action.get('unit')} in {action.get('to')}"
    if do == "swamp-check":
        return f"swamping check for sea hex {action.get('hex')}"
    if do == "artillery":
        return f"artillery: roll for a section (misses so far: {state.track(MISSES)})"
    if do == "land":
        return "roll for the landing units"
    if do == END_PHASE["do"]:
        return "end the phase"
    return _describe(action)


def after_action_report(game: Any) -> list[str]:
    """Result, rank, sections, losses by type, the player's notes and the whole log."""
    state: GameState = game.state
    cleared = victory.sections_cleared(state)
    out = [f"{GAME}: after-action report", ""]
    out.append(f"seed {game.seed}; options: " + ", ".join(f"{k}={v}" for k, v in sorted(state.options.items())))
    out.append(f"result: {state.result or f'not finished (turn {state.turn}, {state.phase})'}")
    out.append(f"trench sections cleared: {len(cleared)} ({', '.join(cleared) or 'none'})")
    for side in ("american", "german"):
        lost: dict[str, int] = {}
        for piece in state.box(hits.tables().dead_box):
            if piece.side == side:
                lost[piece.type] = lost.get(piece.type, 0) + 1
        words = ", ".join(f"{n} {t}" for t, n in sorted(lost.items())) or "none"
        out.append(f"{side} losses: {words}")
    notes = [line for line in game.log_lines() if line.startswith("note: ")]
    out += ["", "Notes:", *(notes or ["(none: Ctrl+N in the window adds one)"]), "", "Log:"]
    out += game.log_lines()
    return out
