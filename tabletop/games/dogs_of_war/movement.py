"""Movement for Dogs of War (ACTION POINTS), with the figures in ``movement.yaml``.

One hex is one inch. A model spends action points (10 a turn) to walk, run or crawl;
the order (``walk``, ``run``, ``crawl``) sets the rate per inch, and rubble has its own
rates. Costs are counted in the smallest whole part of an action point that keeps every
rate exact (``scale`` 5: a walked inch is 5 units, a run inch 3, a crawled inch 10).
The rules read here:

- Orders (ACTION POINTS, Movement): a run is bought in blocks (3 AP for up to 5
  inches), so a run may spend only the action points that make whole blocks; within
  the search a block's cost is spread over its inches. With no order a standing model
  walks and a prone one crawls; a prone model ordered to walk or run stands first
  (Stand, 3 AP); lying down to crawl is free.
- Terrain: rubble (the map's ``movement: rubble``, and kinds the table lists) at the
  rubble rates; everything else at the order's rate.
- Walls and hedges: crossing one is a climb of its height (Climb, 2 AP per inch) on top
  of the cost of the hex beyond; higher than twice a figure, it cannot be climbed.
- Buildings and bunkers are entered and left only through doorway hexsides.
- Models (MOVING AND SHOOTING THROUGH MODELS): no hex holding another model may be
  entered, except that dead models may be passed over (not ended on).
- Facing: changing it is free (Misc Actions), so it plays no part here.

Moves are on the ground: climbing between a building's floors and jumping gaps are not
modelled. Knows nothing of shooting, spotting or turn order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from math import lcm
from pathlib import Path

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.movement import BaseMovePolicy, MoveModel, MovePolicy
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, neighbors
from tabletop.yamlfile import read_yaml

from .los import default_table as default_los_table

DATA_FILE = Path(__file__).with_name("movement.yaml")

GROUNDS_KEPT = 64  # maps and terrain changes whose ground a policy keeps (``_ground``)
# the rubble hexes, and the barred steps into and out of buildings (``_ground``)
Ground = tuple[frozenset[Hex], dict[tuple[Hex, Hex], None]]

RULE = "Dogs of War: Action Points (Movement)"
RULE_MODELS = "Dogs of War: Moving and Shooting Through Models"
RULE_DOORWAY = "Dogs of War: buildings are entered through doorways (project's choice)"


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """``ap`` action points for up to ``inches`` inches of movement."""

    ap: int
    inches: int

    def __str__(self) -> str:
        return f"{self.ap} AP per inch" if self.inches == 1 else f"{self.ap} AP per {self.inches} inches"


@dataclass(frozen=True)
class MoveTable:
    """The figures of ``movement.yaml``, checked; ``scale`` is the number of cost units
    per action point that keeps every rate a whole number of units per inch."""

    action_points: int
    orders: Mapping[str, Rate]
    rubble: Mapping[str, Rate]
    rubble_kinds: frozenset[str]
    climb_rate: Rate
    climb_over: frozenset[str]
    climb_max: int
    enclosed_kinds: frozenset[str]
    doorway: str
    prone_status: str
    stand_ap: int
    pass_over: frozenset[str]
    cannot_move: frozenset[str]
    doubled: frozenset[str]
    no_run: frozenset[str]
    scale: int

    def per_inch(self, rate: Rate) -> int:
        """Cost units for one inch at ``rate``."""
        units, rest = divmod(rate.ap * self.scale, rate.inches)
        assert rest == 0, "scale keeps every rate whole"
        return units


class _Reader(Reader):
    """The reader of ``movement.yaml``: a Reader that also reads movement rates."""

    def rate(self, key: str) -> Rate:
        """``{ap: N, inches: M}``: N action points for up to M inches."""
        spec = self.sub(key)
        spec.only("ap", "inches")
        return Rate(spec.whole("ap"), spec.whole("inches", minimum=1))

    def rates(self, key: str) -> dict[str, Rate]:
        """A mapping of names to rates."""
        spec = self.sub(key)
        return {str(k): spec.rate(str(k)) for k in spec.data}


def load_table(path: Path | str = DATA_FILE) -> MoveTable:
    """Read and check a Dogs of War movement table; DataError names the file and line."""
    top = _Reader(path, read_yaml(Path(path)))
    top.only(
        "action_points", "orders", "rubble", "rubble_kinds", "climb", "enclosed_kinds", "doorway",
        "prone", "pass_over", "cannot_move", "doubled", "no_run",
    )  # fmt: skip
    orders, rubble = top.rates("orders"), top.rates("rubble")
    if not orders:
        raise top.fail("orders", "must name at least one order")
    missing = sorted(set(orders) - set(rubble))
    if missing:
        raise top.fail("rubble", f"no rubble rate for order {missing[0]!r} (every order needs one)")
    climb, prone = top.sub("climb"), top.sub("prone")
    climb.only("rate", "over", "max_height")
    prone.only("status", "stand")
    climb_rate = climb.rate("rate")
    every_rate = [*orders.values(), *rubble.values(), climb_rate]
    return MoveTable(
        action_points=top.whole("action_points"),
        orders=orders,
        rubble=rubble,
        rubble_kinds=top.words("rubble_kinds"),
        climb_rate=climb_rate,
        climb_over=climb.words("over"),
        climb_max=climb.whole("max_height"),
        enclosed_kinds=top.words("enclosed_kinds"),
        doorway=top.word("doorway"),
        prone_status=prone.word("status"),
        stand_ap=prone.whole("stand"),
        pass_over=top.words("pass_over"),
        cannot_move=top.words("cannot_move"),
        doubled=top.words("doubled"),
        no_run=top.words("no_run"),
        scale=lcm(*(r.inches for r in every_rate)),
    )


@cache
def default_table() -> MoveTable:
    """The shipped ``movement.yaml``, read once."""
    return load_table(DATA_FILE)


# --- the policy -----------------------------------------------------------------------


class DogsOfWarMovePolicy(BaseMovePolicy):
    """Dogs of War movement (see the module docstring). Orders: the table's (walk, run,
    crawl); no whole-move rules, so ``judge`` is the base one.

    ``hexside_height`` is how many inches a wall or hedge stands: by default the line of
    sight table's (``los.yaml``, ``cover.hexside_height``), so both read one wall.
    """

    name = "Dogs of War"

    def __init__(self, table: MoveTable | None = None, hexside_height: int | None = None) -> None:
        self.table = table if table is not None else default_table()
        self.hexside_height = (
            hexside_height if hexside_height is not None else default_los_table().hexside_height
        )
        # (id of the map, its terrain changes) -> (the map, what ``_ground`` gives)
        self._grounds: dict[tuple[int, frozenset[tuple[Hex, str]]], tuple[Map, Ground]] = {}

    def order_for(self, unit: Piece, order: str | None) -> str:
        """The order a move is made under: as given, or crawl for a prone model and walk
        for a standing one; ValueError for an order the table does not know."""
        t = self.table
        if order is None:
            return "crawl" if unit.has(t.prone_status) and "crawl" in t.orders else "walk"
        if order not in t.orders:
            raise ValueError(f"unknown Dogs of War move order {order!r} (known: {', '.join(t.orders)})")
        return order

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        if unit.kind != "unit":
            raise ValueError(f"piece {unit.id!r} is a marker, not a model that moves")
        if not state.board.grid.contains(unit.hex):
            raise ValueError(f"unit {unit.id!r}: {unit.hex} is not on the map")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            raise ValueError(f"budget must be a whole number of action points >= 0, got {budget!r}")
        t = self.table
        order = self.order_for(unit, order)
        ap, notes = self._action_points(unit, order, t.action_points if budget is None else budget)
        factor = 2 if not unit.status.isdisjoint(t.doubled) else 1
        board = state.board
        enter: dict[Hex, int] = {}
        why_not: dict[Hex, str] = {}
        plain = t.per_inch(t.orders[order]) * factor
        rough = t.per_inch(t.rubble[order]) * factor
        rubble, walls = self._ground(state)
        for h in board.terrain:
            enter[h] = rough if h in rubble else plain
        no_end: dict[Hex, str] = {}
        for p in state.pieces():
            if p.kind != "unit" or p.id == unit.id or p.hex in why_not:
                continue
            if p.status.isdisjoint(t.pass_over):
                enter.pop(p.hex, None)
                no_end.pop(p.hex, None)
                why_not[p.hex] = (
                    f"model {p.id} is there: models may not move through one another ({RULE_MODELS})"
                )
            else:
                no_end[p.hex] = f"dead model {p.id} may be passed over, not ended on ({RULE_MODELS})"
        step = self._hexside_steps(state, enter, factor, walls)
        notes.append(f"{order}: {t.orders[order]}, in rubble {t.rubble[order]}; costs in 1/{t.scale} AP")
        return MoveModel(
            ap * t.scale,
            enter,
            step=step,
            no_end=no_end,
            why_not=why_not,
            scale=t.scale,
            rule=RULE,
            notes=tuple(notes),
        )

    def _action_points(self, unit: Piece, order: str, ap: int) -> tuple[int, list[str]]:
        """The action points left for the move itself, and notes saying why."""
        t = self.table
        notes = [f"{ap} action points"]
        if not unit.status.isdisjoint(t.cannot_move):
            notes.append(f"{', '.join(sorted(unit.status & t.cannot_move))}: may not move")
            return 0, notes
        if order == "run" and not unit.status.isdisjoint(t.no_run):
            notes.append(f"{', '.join(sorted(unit.status & t.no_run))}: may not run")
            return 0, notes
        if unit.has(t.prone_status) and order != "crawl":
            if ap < t.stand_ap:
                notes.append(f"prone: standing up costs {t.stand_ap} AP, more than the {ap} left")
                return 0, notes
            ap -= t.stand_ap
            notes.append(f"prone: stands up first ({t.stand_ap} AP)")
        rate = t.orders[order]
        if rate.inches > 1:
            block = rate.ap * (2 if not unit.status.isdisjoint(t.doubled) else 1)
            whole = ap // block * block
            if whole != ap:
                notes.append(f"{order}: bought in blocks of {block} AP; {whole} of {ap} AP used")
            ap = whole
        return ap, notes

    def is_rubble(self, state: MapState, h: Hex) -> bool:
        """Whether ``h`` is moved through at the rubble rates."""
        props = state.board.terrain_types[state.terrain_at(h)].properties
        return props.get("movement") == "rubble" or props.get("kind") in self.table.rubble_kinds

    def is_enclosed(self, state: MapState, h: Hex) -> bool:
        """Whether ``h`` is inside a building or bunker (entered only through doorways)."""
        props = state.board.terrain_types[state.terrain_at(h)].properties
        return props.get("kind") in self.table.enclosed_kinds

    def _hexside_steps(
        self, state: MapState, enter: Mapping[Hex, int], factor: int, walls: Mapping[tuple[Hex, Hex], None]
    ) -> dict[tuple[Hex, Hex], int | None]:
        t = self.table
        board = state.board
        steps: dict[tuple[Hex, Hex], int | None] = {}
        climb = t.per_inch(t.climb_rate) * self.hexside_height * factor
        too_high = self.hexside_height > t.climb_max
        for key in sorted(t.climb_over & set(board.hexsides)):
            for side in board.hexsides[key].sides:
                for a, b in ((side.a, side.b), (side.b, side.a)):
                    if b in enter:
                        steps[(a, b)] = None if too_high else enter[b] + climb
        steps.update(walls)
        return steps

    def _ground(self, state: MapState) -> Ground:
        """What the ground alone gives every model: the hexes crossed at the rubble
        rates, and the walls of buildings and bunkers (each way across a hexside
        between an enclosed hex and other ground, no doorway in it). The same for every
        model until a hex's ground changes in play, so kept per map and terrain changes
        (a model's reach was working them out afresh over the whole map: issue 19)."""
        board = state.board
        key = (id(board), frozenset(state.terrain_overrides().items()))
        found = self._grounds.get(key)
        if found is not None and found[0] is board:
            return found[1]
        t = self.table
        rubble = frozenset(h for h in board.terrain if self.is_rubble(state, h))
        walls: dict[tuple[Hex, Hex], None] = {}
        for h in board.terrain:
            if not self.is_enclosed(state, h):
                continue
            kind = state.terrain_at(h)
            for n in neighbors(h):
                if (
                    n in board.terrain
                    and state.terrain_at(n) != kind
                    and t.doorway not in board.hexside_features(h, n)
                ):
                    walls[(h, n)] = None
                    walls[(n, h)] = None
        if len(self._grounds) >= GROUNDS_KEPT:
            self._grounds.clear()
        self._grounds[key] = (board, (rubble, walls))
        return rubble, walls


def move_policy(state: MapState) -> MovePolicy:
    """The Dogs of War movement policy (the registry's entry point; the same for every map)."""
    return DogsOfWarMovePolicy()
