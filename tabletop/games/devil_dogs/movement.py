"""Movement for The Devil Dogs of Belleau Wood (Devil Dogs 4.1, 5.8, 6, 6.1, 6.2, 8, 9).

Knows the movement orders (ADV, RET, REP, HOLD) and what each requires of where a unit
ends, the card's movement number as a budget of hexes, stacking of one unit a hex
(passing through friendly units is allowed), zones of control (entering a hex next to
an enemy unit ends the move, also for a unit that started next to one), enemy-occupied
hexes, pinning tokens, and the forced moves of a gas barrage and Rout!
(``forced_retreat``). The figures and the project's choices where the text is silent
live in ``movement.yaml`` beside this module.

Knows nothing of cards, sectors and which units an order activates, of combat, or of
placing and removing tokens: callers do that with the answers given here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.movement import BaseMovePolicy, MoveModel, Reach, enemies_of, reach
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, neighbors
from tabletop.yamlfile import LineDict, read_yaml

DATA = Path(__file__).with_name("movement.yaml")
RULE = "Devil Dogs 6"
ORDERS = ("ADV", "RET", "REP", "HOLD")


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class Edges:
    """One side's map edges (region keys of the map)."""

    friendly: str
    enemy: str


@dataclass(frozen=True)
class MoveTable:
    """Everything ``movement.yaml`` holds, validated."""

    terrain_costs: Mapping[str, int]
    default_budget: int
    sides: Mapping[str, Edges]
    stacking_limit: int
    pinned_status: str

    @classmethod
    def from_data(cls, data: Any, source: Path | str = DATA) -> MoveTable:
        """Build from parsed YAML; DataError naming the line of a bad key or value."""
        keys = ("terrain_costs", "default_budget", "sides", "stacking_limit", "pinned_status")
        r = Reader(source, data)

        def block(node: Any, where: str, exactly: tuple[str, ...] | None = None) -> LineDict:
            """``node`` as a mapping holding exactly the keys ``exactly`` (any keys if None)."""
            return r.mapping(node, where, getattr(node, "line", None), exactly, exactly or ())

        top = block(data, "the file", keys)
        costs_node = block(top["terrain_costs"], "terrain_costs")
        costs = {k: r.whole_in(costs_node, k, "terrain_costs", 1) for k in costs_node}
        sides_node = block(top["sides"], "sides")
        sides: dict[str, Edges] = {}
        for side in sides_node:
            node = block(sides_node[side], f"sides.{side}", ("friendly_edge", "enemy_edge"))
            for key in ("friendly_edge", "enemy_edge"):
                if not isinstance(node[key], str):
                    raise r.error(node.key_lines[key], f"sides.{side}.{key} must be a region key")
            sides[side] = Edges(node["friendly_edge"], node["enemy_edge"])
        pinned = top["pinned_status"]
        if not isinstance(pinned, str) or not pinned:
            raise r.error(top.key_lines["pinned_status"], "pinned_status must be a status word")
        return cls(
            terrain_costs=MappingProxyType(costs),
            default_budget=r.whole_in(top, "default_budget", "", 0),
            sides=MappingProxyType(sides),
            stacking_limit=r.whole_in(top, "stacking_limit", "", 1),
            pinned_status=pinned,
        )


@cache
def default_table() -> MoveTable:
    """The table shipped in this package's ``movement.yaml``, read once."""
    return MoveTable.from_data(read_yaml(DATA), DATA)


def order_word(order: str | None) -> str | None:
    """The order as one of ORDERS ("Adv." and "adv" read as ADV); ValueError for others.

    >>> order_word("Adv."), order_word("RET"), order_word(None)
    ('ADV', 'RET', None)
    """
    if order is None:
        return None
    word = order.strip().rstrip(".").upper()
    if word not in ORDERS:
        raise ValueError(f"unknown Devil Dogs movement order {order!r} (known: {', '.join(ORDERS)})")
    return word


# ----------------------------------------------------------------------- the policy


def _enemy_hexes(state: MapState, unit: Piece) -> set[Hex]:
    return {p.hex for p in enemies_of(state, unit)}


def _next_to(hexes: Iterable[Hex]) -> set[Hex]:
    return {n for h in hexes for n in neighbors(h)}


class DevilDogsMovePolicy(BaseMovePolicy):
    """Devil Dogs movement of one unit under one order (5.8, 6, 6.1, 6.2, 4.1)."""

    name = "Devil Dogs of Belleau Wood"

    def __init__(self, table: MoveTable | None = None) -> None:
        self.table = table if table is not None else default_table()
        self._costs: tuple[Map, Mapping[Hex, int]] | None = None
        self._edges: dict[str, tuple[Map, Mapping[Hex, int]]] = {}

    def terrain_costs(self, board: Map) -> Mapping[Hex, int]:
        """The cost to enter each hex of ``board``, worked out once per map; ValueError
        naming any terrain the table does not cost."""
        if self._costs is None or self._costs[0] is not board:
            costs = self.table.terrain_costs
            unknown = sorted(set(board.terrain.values()) - set(costs))
            if unknown:
                raise ValueError(
                    f"map {board.name!r}: terrain {', '.join(unknown)} has no Devil Dogs movement cost "
                    f"(known: {', '.join(costs)}; see {DATA.name})"
                )
            self._costs = (board, MappingProxyType({h: costs[k] for h, k in board.terrain.items()}))
        return self._costs[1]

    def edges(self, unit: Piece) -> Edges:
        """The unit's side's map edges; ValueError naming an unknown side."""
        edges = self.table.sides.get(unit.side or "")
        if edges is None:
            raise ValueError(
                f"{unit.id}: side {unit.side!r} has no map edges, so ADV and RET mean nothing "
                f"(known sides: {', '.join(self.table.sides)}; see {DATA.name})"
            )
        return edges

    def edge_distance(self, board: Map, region: str) -> Mapping[Hex, int]:
        """Hexes of ``board`` -> hexes to the nearest hex of the edge ``region`` (one
        breadth-first pass from every edge hex, once per map and edge)."""
        cached = self._edges.get(region)
        if cached is not None and cached[0] is board:
            return cached[1]
        if region not in board.regions:
            raise ValueError(f"map {board.name!r} has no region {region!r} (a map edge for ADV and RET)")
        dist = dict.fromkeys(board.regions[region].hexes, 0)
        queue = deque(dist)
        while queue:
            h = queue.popleft()
            for n in neighbors(h):
                if n not in dist and board.grid.contains(n):
                    dist[n] = dist[h] + 1
                    queue.append(n)
        self._edges[region] = (board, MappingProxyType(dist))
        return dist

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        """Costs (one a hex), zones of control, stacking and the budget of ``unit`` under
        ``order``; ``budget`` is the card's movement number (default in movement.yaml)."""
        word = order_word(order)
        if unit.kind != "unit":
            raise ValueError(f"{unit.id!r} is a marker, not a unit: markers do not move")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            raise ValueError(f"budget must be a whole number of hexes, 0 or more, got {budget!r}")
        t = self.table
        board = state.board
        notes: list[str] = []
        pinned = unit.has(t.pinned_status)
        if word == "HOLD":
            points = 0
            notes.append("HOLD: no unit in the sector moves (Devil Dogs 5.8, 6)")
        elif pinned and word != "RET":
            points = 0
            notes.append(f"{unit.id} is pinned and may not move (Devil Dogs 6.2)")
            if word == "ADV":
                notes.append("a pinned unit suffers no penalty for not advancing (Devil Dogs 5.8, 6.2)")
        else:
            points = t.default_budget if budget is None else budget
            if budget is None:
                notes.append(f"no movement number given: {points} hexes (project's default, {DATA.name})")
            if pinned:
                notes.append(
                    f"{unit.id} is pinned but may retreat; a retreat removes its pinning token (Devil Dogs 5.8 RET, 6.2)"
                )
        enter = dict(self.terrain_costs(board))
        for h, kind in state.terrain_overrides().items():  # ground changed in play (E6)
            if kind not in t.terrain_costs:
                raise ValueError(f"{board.label(h)} is now {kind!r}, which has no Devil Dogs movement cost ({DATA.name})")
            enter[h] = t.terrain_costs[kind]
        why_not: dict[Hex, str] = {}
        enemy = _enemy_hexes(state, unit)
        for h in enemy:
            if enter.pop(h, None) is not None:
                why_not[h] = f"{board.label(h)} is held by the enemy and cannot be entered ({RULE})"
        stop = {
            h: "next to an enemy unit: the move ends here (Devil Dogs 6.1)"
            for h in _next_to(enemy)
            if h in enter and h != unit.hex
        }
        no_end: dict[Hex, str] = {}
        for h in {p.hex for p in state.pieces()} - enemy - {unit.hex}:
            friends = [p for p in state.units_at(h) if p.id != unit.id]
            if len(friends) >= t.stacking_limit:
                held = ", ".join(p.id for p in friends)
                no_end[h] = (
                    f"{board.label(h)} holds {held}: stacking limit {t.stacking_limit}, "
                    "units may pass through but not end over-stacked (Devil Dogs 4.1)"
                )
        return MoveModel(
            points, enter, stop=stop, no_end=no_end, why_not=why_not, rule=RULE, notes=tuple(notes)
        )

    def judge(self, state: MapState, unit: Piece, result: Reach, order: str | None = None) -> Reach:
        """ADV must end at least one hex nearer the enemy edge (not needed when the unit
        starts next to an enemy), RET at least one hex nearer the friendly edge; lateral
        moves on the way are free (Devil Dogs 5.8, 6). Staying put is refusing the order."""
        word = order_word(order)
        if word not in ("ADV", "RET"):
            return result
        board = state.board
        edges = self.edges(unit)
        region = edges.enemy if word == "ADV" else edges.friendly
        dist = self.edge_distance(board, region)
        start = dist[result.start]
        exempt = word == "ADV" and result.start in _next_to(_enemy_hexes(state, unit))
        notes = list(result.notes)
        refused: dict[Hex, str] = {}
        if exempt:
            # Devil Dogs 5.8: no need to advance when already next to an enemy unit.
            # Project's choice: an advance still never ends farther from the enemy edge.
            for h in result.costs:
                if dist[h] > start:
                    refused[h] = (
                        f"ADV: {board.label(h)} is farther from the enemy edge ({region}) than the start "
                        "(project's choice for a unit that starts next to the enemy, Devil Dogs 5.8)"
                    )
            notes.append(f"{unit.id} starts next to an enemy unit: it need not advance (Devil Dogs 5.8)")
        else:
            toward = "nearer the enemy edge" if word == "ADV" else "nearer the friendly edge"
            for h in result.costs:
                if h != result.start and dist[h] > start - 1:
                    refused[h] = (
                        f"{word}: {board.label(h)} is {dist[h]} hexes from {region}, the start {start}; "
                        f"the move must end at least one hex {toward} (Devil Dogs 5.8, 6)"
                    )
            moved = any(h != result.start and h not in refused for h in result.costs)
            pinned = unit.has(self.table.pinned_status)
            if pinned and word == "ADV":
                pass  # may not move, no penalty: the model's notes say so (6.2)
            elif moved:
                penalty = (
                    "keeps its pinning token and takes one step loss" if pinned else "takes a pinning token"
                )
                notes.append(f"staying put refuses the {word} order: the unit {penalty} (Devil Dogs 5.8, 8)")
            else:
                notes.append(
                    f"no hex {toward} can be reached: {word} is not possible and the unit stays (Devil Dogs 5.8)"
                )
        return replace(result.without(refused), notes=tuple(notes))


#: the one policy the ruleset and the keywords share (its caches are per map)
POLICY = DevilDogsMovePolicy()


def move_policy(state: MapState) -> DevilDogsMovePolicy:
    """The Devil Dogs movement policy (the registry's entry; the same for every map)."""
    return DevilDogsMovePolicy()


# ------------------------------------------------------------------- forced retreats


class Retreat(NamedTuple):
    """Where a forced move ends (None: nowhere legal) and why; ``path`` from the start."""

    hex: Hex | None
    reason: str
    path: tuple[Hex, ...] = ()


def _forced_area(state: MapState, unit: Piece, gas_at: Hex | None) -> tuple[str, str, set[Hex], str]:
    """The cause, rule, hexes to leave and their words of a forced move (9 ROUT!, 9 GAS BARRAGE)."""
    board = state.board
    if gas_at is None:
        return "Rout!", "Devil Dogs 9 ROUT!", {unit.hex}, f"from {board.label(unit.hex)}"
    if not board.grid.contains(gas_at):
        raise ValueError(f"gas token hex {gas_at} is not on the map")
    area = {gas_at, *neighbors(gas_at)}
    return "gas", "Devil Dogs 9 GAS BARRAGE", area, f"from the gas at {board.label(gas_at)} and the hexes next to it"


def retreat_ends(
    state: MapState, unit: Piece, *, gas_at: Hex | None = None, policy: DevilDogsMovePolicy | None = None
) -> tuple[list[Hex], Reach]:
    """Every hex a forced move of ``unit`` may end in: the shortest distance out of its
    hex (Rout!) or out of the gas area, not next to the enemy, by the movement rules;
    equally near hexes the owner chooses from (Devil Dogs 8 lets him refuse instead),
    listed in the project's order of preference (``forced_retreat``). Empty: nowhere."""
    policy = policy if policy is not None else DevilDogsMovePolicy()
    board = state.board
    area = _forced_area(state, unit, gas_at)[2]
    model = replace(policy.model(state, unit, "RET"), budget=len(board.terrain), notes=())
    found = reach(model, unit.hex, unit.id)
    ends = [h for h in found.costs if h not in area and h not in found.stops]
    if not ends:
        return [], found
    friendly = policy.table.sides.get(unit.side or "")
    edge = policy.edge_distance(board, friendly.friendly) if friendly is not None else None
    start_col = board.grid.offset_of(unit.hex)[0]

    def preference(h: Hex) -> tuple[int, int, int, tuple[int, int]]:
        col, row = board.grid.offset_of(h)
        return (found.costs[h], edge[h] if edge is not None else 0, abs(col - start_col), (col, row))

    ends.sort(key=preference)
    n = found.costs[ends[0]]
    return [h for h in ends if found.costs[h] == n], found


def forced_retreat(
    state: MapState, unit: Piece, *, gas_at: Hex | None = None, policy: DevilDogsMovePolicy | None = None
) -> Retreat:
    """The hex ``unit`` must move to, the shortest distance away and not next to the enemy.

    Rout! (``gas_at`` None): the unit leaves its own hex (Devil Dogs 9 ROUT!). Gas
    (``gas_at``: the #1 gas token's hex): the unit leaves the token's hex and the hexes
    next to it (Devil Dogs 9 GAS BARRAGE). The move follows the movement rules (no
    enemy-occupied hex, zones of control, stacking 1); a pinned unit moves and loses its
    token (6.2, 9). Among equally near hexes the owner chooses (``retreat_ends``); this
    answer is the project's preference, the bot's pick: nearest the unit's friendly edge
    (it is a retreat), then the one fewest columns aside (straight back), then the lowest
    label. With no legal hex, ``hex`` is None and ``reason`` gives the text's answer:
    the unit refuses the move and takes a pinning token, or a step loss if already
    pinned (Devil Dogs 8).
    """
    policy = policy if policy is not None else DevilDogsMovePolicy()
    board = state.board
    cause, rule, _area, away = _forced_area(state, unit, gas_at)
    pinned = unit.has(policy.table.pinned_status)
    ties, found = retreat_ends(state, unit, gas_at=gas_at, policy=policy)
    if not ties:
        penalty = "keeps its pinning token and takes one step loss" if pinned else "takes a pinning token"
        return Retreat(
            None,
            f"{cause}: no hex {away} that is not next to the enemy can be reached ({rule}); "
            f"the unit refuses the move and {penalty} (Devil Dogs 8, refusing orders)",
        )
    best = ties[0]
    n = found.costs[best]
    words = [
        f"{cause}: {unit.id} moves {n} hex{'es' if n != 1 else ''} to {board.label(best)}, "
        f"the shortest distance {away}, not next to the enemy ({rule})"
    ]
    if len(ties) > 1:
        words.append(
            f"chosen among {len(ties)} equally near hexes: nearest the friendly edge, then straight back (project's choice)"
        )
    if pinned:
        words.append("its pinning token is removed (Devil Dogs 6.2)")
    return Retreat(best, "; ".join(words), tuple(found.path_to(best)))
