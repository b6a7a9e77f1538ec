"""D-Day at Omaha Beach as a rule system the engine plays (part 1: the landing and the
German side; the American actions, victory and a real autoplayer are part 2, issue 18).

The turn (gap G1, ``phases.yaml``): (1) Landing: the player places the turn's arrivals
in the Beach Landing Boxes (the engine's ``actor`` hook asks the US inside this automatic
phase), then each occupied box is resolved with a German card (``landing``); (2) German
phase: communication, the turn's card and its event, fire by colour, artillery from turn
4, rallying (``german``); the player decides the ties the text leaves to him; (3) US
Action phase: PART 2's. Here only a minimal legal action set so a game can be driven to
its end: a unit moves one hex by 9.4 (``movement``), two actions a sector (EXT three),
once a unit; (4) End of turn: units over the stacking limit are eliminated (the player
chooses), underwater units removed at high tide, the turn advances.

Every German step is one logged action with its rule and reason; the player may pause
and override a fire target (``"override": true``) as in DOG SECTOR.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.actions import END_PHASE, WHERE, Action, Where
from tabletop.engine.dice import Deck, Dice
from tabletop.engine.game import Phase
from tabletop.engine.movement import plan_move
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import actions, data, german, hidden, landing, us_actions, victory
from .common import (
    GAME,
    LAST_TURN,
    LEADERS,
    REMOVED,
    SECTORS,
    US,
    extended,
    rule,
    sector_of,
    stack_count,
    us_units,
)  # fmt: skip
from .fields import position_keys
from .movement import OmahaMovePolicy

SEQUENCE = (
    Phase("landing", "Landing (omaha 1, 9.1, 9.2)", "auto", rule("1")),
    Phase("german", "German phase (omaha 2-5, 9.3)", "auto", rule("2-5")),
    Phase("us-action", "US Action phase (omaha 6-8)", US, rule("6")),
    Phase("end-turn", "End of the turn (omaha 6)", "auto", rule("6")),
)
PHASES = {p.key: p for p in SEQUENCE}
PHASE_TEXTS = Path(__file__).with_name("phases.yaml")
OPTIONS: dict[str, tuple[Any, ...]] = {"length": ("standard", "extended")}

PHASE_OF = {
    "land-place": "landing", "land-delay": "landing", "land": "landing", "ranger-drift": "landing",
    "mine-loss": "landing",
    "communication": "german", "german-card": "german", "german-event": "german", "german-fire": "german",
    "german-hit": "german", "german-cease": "german", "german-action": "german", "german-advance": "german", "german-artillery": "german", "german-rally": "german",
    **{do: "us-action" for do in us_actions.ACTIONS},
    "stack-eliminate": "end-turn", "underwater": "end-turn",
}  # fmt: skip
US_DECIDES = frozenset({"land-place", "land-delay", "ranger-drift", "mine-loss", "stack-eliminate"})
STEPS = "german-steps"  # the German phase's steps done this turn
MOVED = "us-moved"
ACTIONS_LEFT = "actions:"  # + sector
TURN_MARKS = (landing.NOW, landing.RESOLVED, landing.DONE, STEPS, german.FIRED, actions.ACTED, actions.ADVANCING, "advanced", german.HIT_PHASE, MOVED, "underwater-done", "artillery-fired")


def _fresh_deck() -> Deck:
    """The German deck, to be shuffled with the game's dice at the first draw."""
    return Deck([], discards=list(data.cards()))


class OmahaRules:
    """The turn machine of part 1 (see the module doc)."""

    name = "omaha"
    sides = (US, "german")
    sequence = SEQUENCE
    undo_across_turns = False

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = dict(options or {})

    # -- preparing ----------------------------------------------------------------

    def prepare(self, state: GameState, scenario: object = None) -> None:
        """The scenario's state made ready: options, game length (16 or 32, gap G13),
        the 9.1 steps of every US unit (us.yaml), the German side, the deck."""
        for key, value in self.options.items():
            state.options.setdefault(key, value)
        state.options.setdefault("length", "standard")
        if state.options["length"] not in OPTIONS["length"]:
            raise ValueError(f"{GAME} option 'length' must be standard or extended, got {state.options['length']!r}")
        state.tracks[LAST_TURN] = int(data.rules()["length"][state.options["length"]])
        landing.full_strength(state)
        if not any(p.side == "german" for p in state.map.pieces()):
            german.deploy(state)
        state.decks.setdefault(landing.DECK, _fresh_deck())

    def start(self, state: GameState) -> list[str]:
        self.prepare(state)
        return []

    # -- what the window asks -------------------------------------------------------

    def phase_rules(self, state: GameState) -> list[str]:
        text = phase_texts().get(state.phase, {})
        return [*text.get("rules", []), *(f"project's choice: {c}" for c in text.get("choices", []))]

    def status(self, state: GameState) -> str:
        card = german.turn_card(state)
        ashore = sum(1 for p in us_units(state) if state.map.terrain_at(p.hex) != "sea")
        afloat = sum(1 for p in us_units(state) if state.map.terrain_at(p.hex) == "sea")
        lost = len(state.box("dead")) + len(state.box(REMOVED)) + len(state.box("catastrophic-loss"))
        turn = f"turn {state.turn} of {state.track(LAST_TURN)}" + (" (EXT)" if extended(state) else "")
        held = f" · card {card.id}" if card else ""
        return f"{turn} · {data.tide(state.turn)} tide · US ashore {ashore}, in boxes {afloat}, lost {lost}{held}"

    def describe(self, state: GameState, action: Action) -> str:
        return describe_action(state, action)

    def drag_action(self, state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
        """A US unit dragged to a hex in the US Action phase is its move (omaha 6.1): the
        game box lists no moves, they are made by dragging (issue 18 item 6: without
        this hook a drag moved nothing). The dragged unit moves alone; a refused move
        is refused with its section, as any action. Shift (``forced``) stays an edit."""
        if state.phase != "us-action" or forced:
            return None
        return {"do": "move", "unit": piece_id, "to": to}

    def view(self, state: GameState, side: str) -> GameState:
        """What ``side`` may know: the US sees face-down German units and hidden Depth
        markers as neutral counters, not the pools nor the deck's order (``hidden``)."""
        return hidden.view(state, side)

    # -- the protocol ---------------------------------------------------------------

    def actor(self, state: GameState) -> str | None:
        """The player decides inside the automatic phases when the rules wait for him."""
        if state.phase in ("landing", "german", "end-turn") and self.proposal(state) is None:
            return US
        return None

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        if state.phase == "landing":
            for mark in TURN_MARKS:
                state.marks.pop(mark, None)
            for key in [k for k in state.marks if k.startswith("hit-by:")]:
                del state.marks[key]
            for key in [k for k in state.tracks if k.startswith(german.HITS)]:
                del state.tracks[key]
            state.hands.pop(landing.LANDING_CARD, None)
            state.hands.pop(german.CARD, None)
            lines = landing.gather_turn_zero(state)
            lines.append(f"tide: {data.tide(state.turn)} (gap G7)" + ("; extended turn (EXT)" if extended(state) else ""))
            return lines
        if state.phase == "us-action":
            return us_actions.begin(state)
        return []

    def proposal(self, state: GameState) -> Action | None:
        phase = state.phase
        if phase == "landing":
            if landing.waiting(state):
                return None
            if state.marks.get(landing.ASK_RANGER) or state.marks.get(landing.ASK_MINE):
                return None
            box = landing.next_box(state)
            if box is not None:
                return {"do": "land", "box": state.board.label(box)}
            return dict(END_PHASE)
        if phase == "german":
            return self._german_step(state)
        if phase == "end-turn":
            if _overstacked(state):
                return None
            if not state.marked("underwater-done", "x"):
                return {"do": "underwater"}
            return dict(END_PHASE)
        return None

    def _german_step(self, state: GameState) -> Action | None:
        done = state.marks.get(STEPS, [])
        if "communication" not in done:
            return {"do": "communication"}
        if "card" not in done:
            return {"do": "german-card"}
        card = german.turn_card(state)
        assert card is not None
        if card.event and "event" not in done:
            return {"do": "german-event", "event": card.event}
        ext = extended(state)
        for key in position_keys(state.board):
            if state.marked(german.FIRED, key):
                continue
            if ext and german.HITS + key not in state.tracks:
                if not state.marked(actions.ACTED, key) and actions.acts(state, key, card):
                    return {"do": "german-action", "position": key}
                continue
            if german.HITS + key not in state.tracks:
                fires, _ = german.fires(state, key, card)
                if not fires:
                    continue
                return {"do": "german-fire", "position": key}
            if state.track(german.HITS + key) <= 0:
                return {"do": "german-cease", "position": key}
            unit, tied, why = german.next_hit(state, key, card)
            if unit is None:
                return {"do": "german-cease", "position": key}
            if tied or german.needs_inspire_choice(state, key, unit.id, card):
                return None  # the player chooses
            return _hit_where(state, {"do": "german-hit", "position": key, "unit": unit.id, "why": why})
        for key in state.marks.get(actions.ADVANCING, []):
            if not state.marked("advanced", key):
                return {"do": "german-advance", "position": key}
        if state.turn >= int(data.rules()["artillery"]["from_turn"]):
            for s in SECTORS:
                if f"artillery-{s}" not in done:
                    return {"do": "german-artillery", "sector": s}
        if "rally" not in done:
            return {"do": "german-rally"}
        return dict(END_PHASE)

    def choices(self, state: GameState, side: str) -> list[Action]:
        phase = state.phase
        if phase not in PHASES:
            return [dict(END_PHASE)]
        proposal = self.proposal(state)
        if phase == "us-action":
            return us_actions.choices(state) if side == US else []
        if proposal is not None:
            out = [proposal]
            if phase == "german" and proposal["do"] == "german-hit":
                out += _override_choices(state, proposal)
            return out
        if side != US:
            return []
        if phase == "landing":
            if landing.waiting(state):
                return landing.place_choices(state)
            if state.marks.get(landing.ASK_RANGER):
                uid = state.marks[landing.ASK_RANGER][0]
                most = int(data.rules()["ranger_drift"]["most"])
                return [{"do": "ranger-drift", "unit": uid, "left": n} for n in range(most + 1)]
            label = state.marks[landing.ASK_MINE][0]
            here = state.map.units_at(state.board.hex_of(label))
            return [{"do": "mine-loss", "box": label, "unit": p.id} for p in here if landing.mine_refusal(state, label, p.id) is None]
        if phase == "german":
            return _tie_choices(state)
        if phase == "end-turn":
            h = _overstacked(state)
            assert h is not None
            return [{"do": "stack-eliminate", "unit": p.id} for p in state.map.units_at(h)
                    if p.side == US and p.type not in LEADERS]  # fmt: skip
        return []

    def refusal(self, state: GameState, action: Action) -> str | None:
        do = str(action.get("do"))
        phase = state.phase
        if phase not in PHASES:
            return None if do == END_PHASE["do"] else f"the game has not begun (phase {phase!r}): end the set-up first"
        if do == END_PHASE["do"]:
            if phase == "us-action":
                return None
            p = self.proposal(state)
            if p is None:
                return f"{PHASES[phase].name}: the player must decide first ({', '.join(sorted({c['do'] for c in self.choices(state, US)}))})"
            return None if p["do"] == END_PHASE["do"] else f"{PHASES[phase].name} is not done: next is {describe_action(state, p)}"
        want = PHASE_OF.get(do)
        if want is None:
            return f"{GAME} has no action {do!r} (known: {', '.join(sorted(PHASE_OF))}, end-phase)"
        if want != phase:
            return f"`{do}` belongs to the {PHASES[want].name}, not the {PHASES[phase].name}"
        if do == "land-place":
            if state.marks.get(landing.ASK_RANGER) or state.marks.get(landing.ASK_MINE):
                return "a landing choice waits first"
            return landing.place_refusal(state, str(action.get("unit")), str(action.get("to")))
        if do == "land-delay":
            return landing.delay_refusal(state, str(action.get("unit")))
        if do == "ranger-drift":
            return landing.ranger_refusal(state, str(action.get("unit")), action.get("left"))
        if do == "mine-loss":
            return landing.mine_refusal(state, str(action.get("box")), str(action.get("unit")))
        if want == "us-action":
            return us_actions.refusal(state, action)
        if do == "stack-eliminate":
            h = _overstacked(state)
            if h is None:
                return f"no hex is over the stacking limit ({rule('6')})"
            ids = {p.id for p in state.map.units_at(h) if p.side == US and p.type not in LEADERS}
            return None if action.get("unit") in ids else f"eliminate a unit of the over-stacked hex {state.board.label(h)} ({rule('6')})"
        if do == "german-hit":
            return _hit_refusal(self, state, action)
        proposal = self.proposal(state)
        if proposal is None or proposal.get("do") != do or any(
            proposal.get(k) != action.get(k) for k in ("box", "position", "sector")
        ):
            nxt = describe_action(state, proposal) if proposal else "a choice of the player"
            return f"the German procedure's next step is {nxt}, not {do}"
        return None

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        if do == "land-place":
            return landing.place(state, str(action["unit"]), str(action["to"]))
        if do == "land-delay":
            return landing.delay_by_choice(state, str(action["unit"]))
        if do == "land":
            return landing.resolve_box(state, dice)
        if do == "ranger-drift":
            return landing.ranger_drift(state, str(action["unit"]), int(action["left"]))
        if do == "mine-loss":
            return landing.mine_loss(state, str(action["box"]), str(action["unit"]))
        if PHASE_OF.get(do) == "us-action":
            return us_actions.apply(state, action, dice)
        if do == "stack-eliminate":
            state.to_box(str(action["unit"]), "dead")
            return [f"{action['unit']} is eliminated: over the stacking limit at the end of the US Action phase ({rule('6')})"]
        if do == "underwater":
            state.mark("underwater-done", "x")
            return _underwater(state)
        return self._german_apply(state, action, dice)

    def _german_apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        if do == "communication":
            state.mark(STEPS, "communication")
            return german.snapshot(state)
        if do == "german-card":
            state.mark(STEPS, "card")
            cid = landing.draw(state, dice)
            state.hands[german.CARD] = [cid]
            drawn = data.cards()[cid]
            firing = [f"{k} ({why})" for k, f, why in german.firing_positions(state, drawn) if f]
            return [f"German card for the turn: {drawn.words()}", f"positions that fire ({rule('4')}): {', '.join(firing) or 'none'}"]
        card = german.turn_card(state)
        assert card is not None
        if do == "german-event":
            state.mark(STEPS, "event")
            return german.event(state, card, dice)
        if do == "german-fire":
            key = str(action["position"])
            n = german.possible_hits(state, key)
            state.tracks[german.HITS + key] = n
            _, why = german.fires(state, key, card)
            return [f"{key} fires ({why}): {n} possible hits (Depth markers + units{', EXT x2' if extended(state) else ''}, {rule('4')})"]
        if do == "german-hit":
            key = str(action["position"])
            lines = [f"{key} -> {action['unit']}: {action.get('why') or 'the player chooses'}" + (" [override]" if action.get("override") else "")]
            return lines + german.hit(state, key, str(action["unit"]), card, inspire=bool(action.get("inspire")))
        if do == "german-action":
            key = str(action["position"])
            lines, fires = actions.play(state, key, card, dice)
            if fires and german.active_units(state, key):
                n = german.possible_hits(state, key)
                state.tracks[german.HITS + key] = n
                lines.append(f"{key} fires: {n} possible hits (Depth markers + units, EXT x2, {rule('4')})")
            return lines
        if do == "german-advance":
            state.mark("advanced", str(action["position"]))
            return actions.advance(state, str(action["position"]), card, dice)
        if do == "german-cease":
            key = str(action["position"])
            state.mark(german.FIRED, key)
            left = state.track(german.HITS + key)
            return [f"{key} ceases fire" + (f" ({left} hits unused: no US unit it may hit)" if left else "")]
        if do == "german-artillery":
            state.mark(STEPS, f"artillery-{action['sector']}")
            return german.artillery(state, str(action["sector"]), card)
        if do == "german-rally":
            state.mark(STEPS, "rally")
            state.decks[landing.DECK].discard(card.id)
            return german.rally(state, card)
        raise ValueError(f"{GAME}: no action {do!r}")

    def outcome(self, state: GameState) -> str | None:
        last = state.phase == "end-turn" and state.turn >= state.track(LAST_TURN)
        if last and state.marked("underwater-done", "x") and self.proposal(state) == END_PHASE:
            return result_text(state)
        if state.phase in PHASES and not us_units(state) and not _still_to_land(state):
            return f"no US unit left ashore or to land (turn {state.turn}); " + result_text(state)
        return None


# ---------------------------------------------------------------------- helpers


def _still_to_land(state: GameState) -> bool:
    return any(n.startswith(("east-turn-", "west-turn-")) and pieces for n, pieces in state.boxes.items())


def result_text(state: GameState) -> str:
    return victory.result_text(state)


def _overstacked(state: GameState) -> Hex | None:
    """End of the US Action phase (omaha 6): a hex over the limit of 2 units."""
    limit = int(data.rules()["landing"]["box_limit"])
    for h in sorted({p.hex for p in us_units(state)}, key=state.board.label):
        if stack_count(state, h) > limit:
            return h
    return None


def _underwater(state: GameState) -> list[str]:
    """omaha 6 and gap G7: at high tide, units on the underwater hexes without a
    climb-cliff marker are removed from play at the end of the turn."""
    if data.tide(state.turn) != "high":
        return [f"end of turn: {data.tide(state.turn)} tide, no unit underwater ({rule('6')})"]
    wet = underwater_hexes(state)
    spared = str(data.rules()["underwater"]["spared_by"])
    gone = []
    for p in us_units(state):
        if p.hex in wet and spared not in p.status:
            state.to_box(p.id, REMOVED)
            gone.append(p.id)
    return [f"end of turn, high tide: underwater and removed from play: {', '.join(gone) or 'none'} ({rule('6')}, gap G7)"]


def underwater_hexes(state: GameState) -> set[Hex]:
    cfg = data.rules()["underwater"]
    board = state.board
    out = set()
    for h in board.regions[cfg["region"]].hexes:
        if state.map.terrain_at(h) != "beach":
            continue
        if any(board.grid.contains(n) and board.hexside_features(h, n) & set(cfg["next_to_hexsides"]) for n in neighbors(h)):
            out.add(h)
    return out


def _policy(state: GameState) -> OmahaMovePolicy:
    return OmahaMovePolicy(extended=extended(state))


def step_refusal(state: GameState, unit: Any, to: Hex) -> str | None:
    """Whether ``unit`` may move to ``to`` now by 9.4 and 6.1 (``movement``). Stacking is
    NOT refused (checklist defect 4): over-stacked units are eliminated at the end of the
    US Action phase (omaha 6). A one-hex move is judged step by step (fast); a longer
    one (EXT) by the whole reach: a one-hex move is legal whenever its step is (a
must-stop only ends a longer move)."""
    policy = _policy(state)
    rules = policy.rules
    label = state.board.label(to)
    if to == unit.hex:
        return f"{unit.id} is already in {label}"
    if unit.type in rules.immobile:
        return f"{rules.immobile[unit.type]}"
    if rules.status["disrupted"] in unit.status:
        return f"a Disrupted unit's only action is removing the marker ({rule('6')})"
    if rules.status["climb"] in unit.status:
        return f"a unit with a climb marker may only remove it ({rule('6.1')})"
    if distance(unit.hex, to) == 1 and rules.status["climb_cliff"] not in unit.status:
        why = policy.why_not_step(state.map, unit, unit.hex, to)
        return None if why is None else f"{unit.id} cannot move to {label}: {why}"
    reach = plan_move(state.map, policy, unit)
    if to not in reach.costs and to not in reach.passed:
        why = reach.refused.get(to) or (reach.notes[0] if reach.notes else "out of reach")
        return f"{unit.id} cannot move to {label}: {why} ({rule('9.4')})"
    return None


def _move_choices(state: GameState) -> list[Action]:
    """Every legal move now: one hex judged step by step (fast); in EXT turns the whole
    reach of each unit."""
    out: list[Action] = []
    policy = _policy(state)
    board = state.board
    for unit in us_units(state):
        if state.marked(MOVED, unit.id):
            continue
        if unit.type not in LEADERS and state.track(ACTIONS_LEFT + sector_of(board, unit.hex)) <= 0:
            continue
        if extended(state):
            reach = plan_move(state.map, policy, unit)
            ends = (set(reach.costs) | set(reach.passed)) - {unit.hex}
        else:
            ends = {h for h in neighbors(unit.hex) if board.grid.contains(h) and step_refusal(state, unit, h) is None}
        out += [{"do": "move", "unit": unit.id, "to": board.label(h)} for h in sorted(ends, key=board.label)]
    return out


def _hit_where(state: GameState, action: Action) -> Action:
    """A German hit with where it happens (the position's hex, then the target's), for
    the window to draw the shot."""
    key, uid = str(action["position"]), str(action["unit"])
    target = state.map.piece(uid)
    own = min(state.board.regions[key].hexes, key=lambda h: (h.q - target.hex.q) ** 2 + (h.r - target.hex.r) ** 2)
    hexes = (state.board.label(own), state.board.label(target.hex))
    return {**action, WHERE: [Where("fire", hexes, (uid,)).to_json()]}


def _tie_choices(state: GameState) -> list[Action]:
    """The player's choices inside the German phase: the tied targets, or whether a hero
    is flipped to Inspired."""
    card = german.turn_card(state)
    assert card is not None
    for key in position_keys(state.board):
        if state.marked(german.FIRED, key) or german.HITS + key not in state.tracks:
            continue
        unit, tied, why = german.next_hit(state, key, card)
        if unit is None:
            return []
        out: list[Action] = []
        for p in tied or [unit]:
            base = {"do": "german-hit", "position": key, "unit": p.id, "why": why, "choice": True}
            if german.needs_inspire_choice(state, key, p.id, card):
                out += [_hit_where(state, {**base, "inspire": True}), _hit_where(state, {**base, "inspire": False})]
            else:
                out.append(_hit_where(state, base))
        return out
    return []


def _override_choices(state: GameState, proposal: Action) -> list[Action]:
    """The other units the position may hit, played as overrides (DOG SECTOR's o)."""
    card = german.turn_card(state)
    assert card is not None
    key = str(proposal["position"])
    return [
        _hit_where(state, {"do": "german-hit", "position": key, "unit": p.id, "override": True})
        for _, p, _ in german.targets(state, key, card)
        if p.id != proposal["unit"]
    ]


def _hit_refusal(rules: OmahaRules, state: GameState, action: Action) -> str | None:
    card = german.turn_card(state)
    if card is None:
        return "no German card has been drawn"
    key = str(action.get("position"))
    if state.marked(german.FIRED, key) or german.HITS + key not in state.tracks:
        return f"{key} is not firing now ({rule('4')})"
    if state.track(german.HITS + key) <= 0:
        return f"{key} has no hit left ({rule('4')})"
    legal = {p.id for _, p, _ in german.targets(state, key, card)}
    uid = action.get("unit")
    if uid not in legal:
        return f"{key} may not hit {uid}: not in its field with a matching symbol, or already hit this phase ({rule('4')})"
    if action.get("override"):
        return None
    unit, tied, _ = german.next_hit(state, key, card)
    allowed = {p.id for p in tied} if tied else {unit.id} if unit else set()
    if uid not in allowed:
        return f"the {rule('4')} priority hits {', '.join(sorted(allowed))} next; play with \"override\": true to hit {uid}"
    if action.get("inspire") and not german.needs_inspire_choice(state, key, str(uid), card):
        return f"{uid} has no hero to flip, or the hit would not take its last step ({rule('4')})"
    return None


def _describe(action: Action) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k not in ("do", "why", WHERE))
    return f"{action['do']}" + (f" ({rest})" if rest else "")


def describe_action(state: GameState, action: Action | None) -> str:
    if action is None:
        return "nothing"
    do = action.get("do")
    if do == "land-place":
        return f"place {action.get('unit')} in Beach Landing Box {action.get('to')}"
    if do == "land-delay":
        return f"delay {action.get('unit')} by a turn"
    if do == "land":
        return f"resolve Beach Landing Box {action.get('box')} (draw a card, 9.2)"
    if do == "ranger-drift":
        return f"rangers {action.get('unit')} drift {action.get('left')} left"
    if do == "mine-loss":
        return f"the mine in box {action.get('box')} costs {action.get('unit')} a step"
    if do == "german-card":
        return "draw the German card for the turn"
    if do == "german-hit":
        tag = " [override]" if action.get("override") else ""
        hero = " (flip the hero to Inspired)" if action.get("inspire") else ""
        return f"{action.get('position')} hits {action.get('unit')}{hero}{tag}"
    if do == "attack-pick":
        from .builder import draft

        out = str(action.get("unit")) in draft(state, str(action.get("target")))
        return f"attack builder: {'take' if out else 'add'} {action.get('unit')} {'out of' if out else 'to'} the attack on {action.get('target')}"
    if PHASE_OF.get(str(do)) == "us-action":
        return us_actions.describe(action) or _describe(action)
    if do == END_PHASE["do"]:
        return "end the phase"
    return _describe(action)


@cache
def phase_texts() -> dict[str, dict[str, list[str]]]:
    from tabletop.games.dog_sector.phase_texts import read_phase_texts

    return read_phase_texts(PHASE_TEXTS, (p.key for p in SEQUENCE))


def ruleset() -> OmahaRules:
    return OmahaRules()
