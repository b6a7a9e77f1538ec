"""DOG SECTOR phase 4: German trench fire (Table 4), decided by stated priorities.

Knows the order the German units fire in, which American units each may fire at and
why not the others, which legal target it picks when there is a choice (and says which
rule chose), and the Table 4 roll with its bonuses. The geometric limits (same or
adjacent section; draw, trench, bluff and bluff-adjacent beach hexes only when adjacent;
infantry and MG pillboxes not at tank/dozer hexes or the hex behind; AT guns and MG
pillboxes not at trench or hilltop hexes; bonus ranges) are the line-of-sight policy's
(``los.py``/``los.yaml``), asked with the German unit as viewer and the American unit as
target piece; a blocked verdict is an illegal target and its findings are the reason.

Project's choices (the text leaves them open):

- Firing order: section 1 to 6 (``rules.yaml`` artillery.sections), then hex label, then
  unit id; every German unit fires once a turn (or holds fire with no legal target).
- "Reduced, immobilized and pinned down units cannot be targeted again in the same
  turn" is read as a limit for one turn: a unit that became reduced, immobilized or
  pinned down this turn (by artillery, German fire or a mine: the per-turn ``targeted``
  mark, hits.py) may not be targeted again this turn, and neither may any pinned down
  unit (pins only last the turn, phase 7). A unit reduced or immobilized in an earlier
  turn may be fired at again.
- Priority among legal targets: nearest first; then the type this German unit's roll
  hurts most (``rules.yaml`` german_fire.*.prefer: infantry for infantry and MGs, tanks
  and dozers for AT guns and panzerfausts); then the hex holding most American units;
  then the westernmost hex (lowest label); then the lowest id.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tabletop.board import Map
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import hits
from . import los as dog_los
from .procedures import GERMAN, american_units, tables

RULE = "DOG SECTOR phase 4"
TABLE = "DOG SECTOR Table 4"
GERMAN_FIRED = "german-fired"


def unit_name(piece: Piece) -> str:
    """The German unit type as Table 4 names it ("MG pillbox")."""
    unit = dog_los.tables().sides[GERMAN].units.get(piece.type)
    return unit.name if unit is not None else piece.type


def _german(state: GameState, gid: str) -> Piece:
    piece = state.map.piece(gid)
    if piece.kind != "unit" or piece.side != GERMAN:
        raise ValueError(f"{gid} is not a German unit (phase 4 is German fire)")
    if piece.type not in tables().german_fire:
        raise ValueError(f"{gid}: German unit type {piece.type!r} has no line in Table 4 (rules.yaml)")
    return piece


def _section_index(state: GameState, piece: Piece) -> int:
    sections = tables().artillery.sections
    for i, key in enumerate(sections):
        region = state.board.regions.get(key)
        if region is not None and piece.hex in region.hexes:
            return i
    return len(sections)


_order_memo: list[Any] = [None, -1, []]  # [map state, version, firing order]


def firing_order(state: GameState) -> list[Piece]:
    """Every German unit on the map in the order they fire: section 1 to 6, then hex
    label, then id (project's choice). Remembered until the map changes (every
    proposal of phase 4 asks)."""
    memo = _order_memo
    if memo[0] is not state.map or memo[1] != state.map.version:
        germans = [p for p in state.map.pieces() if p.kind == "unit" and p.side == GERMAN]
        board = state.board
        places = _places.get(id(board))
        if places is None or places[0] is not board:
            places = _places[id(board)] = (board, {})
        where = places[1]  # hex -> (section index, label): the map's alone, worked out once a hex
        for p in germans:
            if p.hex not in where:
                where[p.hex] = (_section_index(state, p), board.label(p.hex))
        order = sorted(germans, key=lambda p: (*where[p.hex], p.id))
        memo[:] = [state.map, state.map.version, order]
    return list(memo[2])


_places: dict[int, tuple[Map, dict[Hex, tuple[int, str]]]] = {}


def next_to_fire(state: GameState) -> Piece | None:
    """The first German unit in firing order that has not fired (or held fire) this turn."""
    fired = set(state.marks.get(GERMAN_FIRED, ()))  # (``marked`` reads the list once a unit)
    return next((p for p in firing_order(state) if p.id not in fired), None)


_policies: dict[int, tuple[Map, dog_los.DogSectorPolicy]] = {}


def _los_policy(board: Map) -> dog_los.DogSectorPolicy:
    """The line-of-sight policy of ``board``, made once per map (its sections take a
    while to work out, and phase 4 asks for every German unit)."""
    cached = _policies.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _policies[id(board)] = (board, dog_los.DogSectorPolicy(board))
    return cached[1]


_memo: list[Any] = [None, -1, None, {}, {}, {}, None]
# [map state, version, targeted marks, {gid: reasons}, {gid: legal targets}, {gid: choice},
#  the units open to fire (None until asked)]


def _remembered(state: GameState) -> list[Any]:
    """The memo of phase 4's answers for this map version and these ``targeted`` marks
    (what every answer here depends on besides the map's fixed data), started afresh
    when either changes."""
    targeted = frozenset(state.marks.get(hits.tables().targeted_mark, ()))
    memo = _memo
    if memo[0] is not state.map or memo[1] != state.map.version or memo[2] != targeted:
        memo[:] = [state.map, state.map.version, targeted, {}, {}, {}, None]
    return memo


def target_reasons(state: GameState, gid: str) -> list[tuple[Piece, str | None]]:
    """Every American unit on the map with why German unit ``gid`` may not fire at it
    (None: a legal target), in label then id order. Remembered until the map or the
    turn's ``targeted`` marks change."""
    memo = _remembered(state)
    found = memo[3].get(gid)
    if found is None:
        found = memo[3][gid] = _target_reasons(state, gid)
    return list(found)


def _targets(state: GameState) -> list[Piece]:
    """The American units in label then id order, remembered until the map changes
    (every German unit's targets are read from it)."""
    memo = _targets_memo
    if memo[0] is not state.map or memo[1] != state.map.version:
        board = state.board
        memo[:] = [
            state.map,
            state.map.version,
            sorted(american_units(state), key=lambda p: (board.label(p.hex), p.id)),
        ]
    return list(memo[2])


_targets_memo: list[Any] = [None, -1, []]  # [map state, version, American units in label order]


def _why(state: GameState, target: Piece, blocking: tuple[Any, ...]) -> str | None:
    """Why a German unit may not fire at ``target``, given the line's blocking findings."""
    h = hits.tables()
    reasons = []
    if state.marked(h.targeted_mark, target.id):
        reasons.append(
            "already reduced, immobilized or pinned down this turn: cannot be targeted again (phase 4)"
        )
    elif target.has(h.pinned_status):
        reasons.append("pinned down: cannot be targeted again this turn (phase 4)")
    reasons.extend(f"{f.cause} ({f.rule})" for f in blocking)
    return "; ".join(reasons) if reasons else None


def _target_reasons(state: GameState, gid: str) -> list[tuple[Piece, str | None]]:
    shooter = _german(state, gid)
    policy = _los_policy(state.board)
    targets = _targets(state)
    found = policy.fire_blocking_all(state.map, shooter, targets)
    return [(target, _why(state, target, blocking)) for target, blocking in zip(targets, found, strict=True)]


def legal_targets(state: GameState, gid: str) -> list[Piece]:
    """The American units German unit ``gid`` may fire at now (phase 4 general rules):
    those ``target_reasons`` gives no reason for, found without writing the reasons."""
    memo = _remembered(state)
    found = memo[4].get(gid)
    if found is None:
        found = memo[4][gid] = _legal_targets(state, gid)
    return list(found)


def _legal_targets(state: GameState, gid: str) -> list[Piece]:
    shooter = _german(state, gid)
    memo = _remembered(state)
    open_: list[Piece] | None = memo[6]
    if open_ is None:  # the units not targeted this turn nor pinned down: the same for every German
        targeted, pinned = memo[2], hits.tables().pinned_status
        open_ = memo[6] = [p for p in _targets(state) if p.id not in targeted and pinned not in p.status]
    legal = _los_policy(state.board).fire_legal_all(state.map, shooter, open_)
    return [p for p, ok in zip(open_, legal, strict=True) if ok]


def target_refusal(state: GameState, gid: str, target_id: str) -> str | None:
    """Why ``gid`` may not fire at ``target_id`` now, or None. A target among the
    remembered ``legal_targets`` has no reason (they are the units the reasons leave
    open), so a shot's refusal and its fire read no line (issue 19 item 1)."""
    shooter = _german(state, gid)
    if any(p.id == target_id for p in legal_targets(state, gid)):
        return None
    for piece in american_units(state):
        if piece.id == target_id:
            why = _why(state, piece, _los_policy(state.board).fire_blocking(state.map, shooter, piece))
            return None if why is None else f"{piece.type} {piece.id}: {why}"
    return f"{target_id} is not an American unit on the map"


class _Rank(NamedTuple):  # (a tuple: one is made for every legal target of every shot)
    range: int
    preferred: bool
    crowd: int
    key: tuple[int, int, int, str, str]


def _ranks(state: GameState, shooter: Piece, targets: list[Piece]) -> dict[str, _Rank]:
    """Each target's rank by the priority rules, by id: range, then this German unit's
    preferred types, then the most American units in the hex, then label and id (the
    shooter's line and the hexes' crowds read once for all the targets)."""
    prefer = tables().german_fire[shooter.type].prefer
    crowds, label, src = _americans_at(state), state.board.label, shooter.hex
    ranks = {}
    for target in targets:
        rng = distance(src, target.hex)
        crowd = crowds.get(target.hex, 0)
        preferred = target.type in prefer
        key = (rng, 0 if preferred else 1, -crowd, label(target.hex), target.id)
        ranks[target.id] = _Rank(rng, preferred, crowd, key)
    return ranks


_crowds: list[Any] = [None, -1, {}]  # [map state, version, {hex: American units there}]


def _americans_at(state: GameState) -> dict[Hex, int]:
    """How many American units each hex holds, counted once a map version (every shot
    ranks its targets by the crowd in their hexes)."""
    memo = _crowds
    if memo[0] is not state.map or memo[1] != state.map.version:
        counts: dict[Hex, int] = {}
        for p in american_units(state):
            counts[p.hex] = counts.get(p.hex, 0) + 1
        memo[:] = [state.map, state.map.version, counts]
    found: dict[Hex, int] = memo[2]
    return found


def choose_target(state: GameState, gid: str) -> tuple[Piece | None, str]:
    """The target German unit ``gid`` fires at by the priority rules, and why in words
    (the rule that chose, and the others it beat); None with the reasons if it has no
    legal target. Remembered as ``target_reasons`` is (a shot's proposal, refusal and
    fire ask alike)."""
    memo = _remembered(state)
    found: tuple[Piece | None, str] | None = memo[5].get(gid)
    if found is None:
        found = memo[5][gid] = _choose_target(state, gid)
    return found


def _choose_target(state: GameState, gid: str) -> tuple[Piece | None, str]:
    shooter = _german(state, gid)
    board = state.board
    legal = legal_targets(state, gid)
    if not legal:
        return None, "no legal target"
    ranks = _ranks(state, shooter, legal)  # each worked out once
    ranked = sorted(legal, key=lambda p: ranks[p.id].key)
    best = ranked[0]
    b = ranks[best.id]
    if len(ranked) == 1:
        return best, f"the only legal target (range {b.range})"
    rest = ranked[1:]

    def names(ps: list[Piece]) -> str:
        shown = [f"{p.type} {p.id} at {board.label(p.hex)}" for p in ps[:4]]
        more = f" and {len(ps) - 4} more" if len(ps) > 4 else ""
        return ", ".join(shown) + more

    farther = [p for p in rest if ranks[p.id].range > b.range]
    tied = [p for p in rest if ranks[p.id].range == b.range]
    why = f"nearest legal target (range {b.range})"
    if farther:
        why += f"; {len(farther)} farther: {names(farther)}"
    if not tied:
        return best, why
    prefer = tables().german_fire[shooter.type].prefer
    less = [p for p in tied if not ranks[p.id].preferred]
    if b.preferred and less:
        why += f"; a {'/'.join(prefer)} is the {unit_name(shooter)}'s first choice over {names(less)}"
        tied = [p for p in tied if ranks[p.id].preferred]
        if not tied:
            return best, why
    fewer = [p for p in tied if ranks[p.id].crowd < b.crowd]
    if fewer:
        why += f"; its hex holds the most American units ({b.crowd}), more than {names(fewer)}"
        tied = [p for p in tied if ranks[p.id].crowd == b.crowd]
        if not tied:
            return best, why
    later = [p for p in tied if p.hex != best.hex]
    if later:
        why += f"; lowest hex label among equal targets, before {names(later)}"
        tied = [p for p in tied if p.hex == best.hex]
        if not tied:
            return best, why
    return best, why + f"; lowest id in its hex, before {names(tied)}"


def hold_fire(state: GameState, gid: str, why: str) -> list[str]:
    """German unit ``gid`` does not fire this turn (no legal target, or the player's
    override); it counts as having fired."""
    shooter = _german(state, gid)
    state.mark(GERMAN_FIRED, gid)
    return [f"{unit_name(shooter)} {gid} at {state.board.label(shooter.hex)} holds fire: {why}"]


def fire(state: GameState, gid: str, target_id: str, dice: Dice, *, override: bool = False) -> list[str]:
    """German unit ``gid`` fires at American unit ``target_id``: 1D6 on Table 4 (+1 for
    infantry adjacent to the target; an AT gun within 10 hexes hits on 5-6), then the
    target hex is pinned down, or the target takes a hit. ValueError for an illegal
    target or a unit that already fired. ``override``: the player chose this target
    instead of the rules' priority (logged as such)."""
    shooter = _german(state, gid)
    if state.marked(GERMAN_FIRED, gid):
        raise ValueError(f"{gid} has already fired this turn (phase 4)")
    why = target_refusal(state, gid, target_id)
    if why is not None:
        raise ValueError(why)
    target = state.map.piece(target_id)
    board = state.board
    row = tables().german_fire[shooter.type]
    name = unit_name(shooter)
    rng = distance(shooter.hex, target.hex)
    bonus_range = dog_los.tables().sides[GERMAN].units[shooter.type].bonus_range
    within = bonus_range is not None and rng <= bonus_range
    where = "adjacent" if bonus_range == 1 else f"within {bonus_range} hexes"
    source, aim = board.label(shooter.hex), board.label(target.hex)
    face = dice.d6(
        f"phase 4: {name} {gid} at {source} fires at {target.type} {target_id} in {aim} (range {rng})"
    )
    if within and row.add:
        total = face + row.add
        result = row.results(total)
        dice.rule(f"+{row.add} {where} = {total}, {result}")
    elif within and row.bonus_results is not None:
        result = row.bonus_results(face)
        dice.rule(f"{result} ({where}: hit on {row.bonus_results.faces('hit')})")
    else:
        result = row.results(face)
        dice.rule(result)
    state.mark(GERMAN_FIRED, gid)
    chosen = " (override: the player's choice of target)" if override else ""
    lines = [f"{name} {gid} at {source} fires at {target.type} {target_id} in {aim}{chosen}: {result}"]
    cause = f"{name} {gid} fire, {TABLE}"
    if result == "pinned":
        lines += hits.pin(state, target.hex, cause)
    elif result == "hit":
        lines += hits.hit(state, target_id, cause)
    return lines


__all__ = [
    "GERMAN_FIRED",
    "choose_target",
    "fire",
    "firing_order",
    "hold_fire",
    "legal_targets",
    "next_to_fire",
    "target_reasons",
    "target_refusal",
]
