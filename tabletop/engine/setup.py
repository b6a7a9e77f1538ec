"""Scenario setup: where pieces may go before play, the limits a legal setup obeys, a
seeded solver that finds a random legal setup, and a checker that explains violations.

Why: a setup written as prose ("one German infantry in every trench section, no trench
hex with two German units") is easy to get wrong by hand and impossible for a program
to randomise. Here it is data: ``Placement`` says which pieces go into which ``Zone``;
``Constraint`` says how many matching pieces a region, a hex, the map or a row may hold.
The same constraints answer three questions: is this setup legal (``check``), give me a
legal one (``solve``), and why may this piece not go there (``refusal``).

Knows pieces as side/type/kind, terrain keys, regions and markers as data; knows no rule
system's names. Randomness comes only from the injected ``Dice``.

>>> f = PieceFilter("german", "infantry", None)
>>> f.describe()
'German infantry'
>>> Zone(frozenset({"trench"}), frozenset(), frozenset()).describe()
'trench hexes'
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tabletop.board import Map, Region
from tabletop.hexgrid import ORIGIN, Hex, neighbors

from .dice import Dice
from .pieces import MapState, Piece, PieceKind

ConstraintKind = Literal["every", "per-hex", "total", "run", "zone"]
CONSTRAINT_KINDS: tuple[ConstraintKind, ...] = ("every", "per-hex", "total", "run")
DEFAULT_LIMIT = 100_000  # search nodes; a DOG SECTOR setup needs well under a thousand
NODE_WORK = 256  # piece checks one search step stands for (bigger nodes count as several)

When = tuple[tuple[str, object], ...]


# --- what and where ----------------------------------------------------------------------


@dataclass(frozen=True)
class PieceFilter:
    """Which pieces a constraint counts: every part that is not None must match."""

    side: str | None = None
    type: str | None = None
    kind: PieceKind | None = None

    def matches(self, piece: Piece) -> bool:
        """Whether ``piece`` has this side, type and kind (where given)."""
        return (
            (self.side is None or piece.side == self.side)
            and (self.type is None or piece.type == self.type)
            and (self.kind is None or piece.kind == self.kind)
        )

    def describe(self) -> str:
        """The pieces in words, plural: "German infantry", "cleared markers", "German units".

        >>> PieceFilter(None, "cleared", "marker").describe(), PieceFilter("german", None, "unit").describe()
        ('cleared markers', 'German units')
        """
        words = [self.side.capitalize()] if self.side else []
        if self.type:
            words.append(self.type.replace("-", " ") + (" markers" if self.kind == "marker" else ""))
        else:
            words.append({"unit": "units", "marker": "markers", None: "pieces"}[self.kind])
        return " ".join(words)


@dataclass(frozen=True)
class Zone:
    """Where a placement may go. A hex is in the zone if it matches every non-empty part:
    its terrain key is listed; it lies in a region whose key, name or kind is listed; it
    holds a marker of a listed type. An empty zone is the whole map."""

    terrain: frozenset[str] = frozenset()
    regions: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()

    def contains(self, state: MapState, h: Hex) -> bool:
        """Whether ``h`` is in the zone now (markers can come and go)."""
        board = state.board
        if self.terrain and board.terrain.get(h) not in self.terrain:
            return False
        if self.regions and not any(
            r.key in self.regions or r.name in self.regions or r.kind in self.regions
            for r in board.regions_of(h)
        ):
            return False
        return not self.markers or any(p.type in self.markers for p in state.markers_at(h))

    def hexes(self, state: MapState) -> list[Hex]:
        """The zone's hexes in label order (stable, so a seed gives the same setup). A
        zone that names no markers is the map's alone: remembered per map."""
        if self.markers:
            return [h for h in state.board.grid.hexes() if self.contains(state, h)]
        board = state.board
        found = _zone_memo.get((self, id(board)))
        if found is None or found[0] is not board:
            if len(_zone_memo) > 256:
                _zone_memo.clear()
            hexes = [h for h in board.grid.hexes() if self.contains(state, h)]
            found = _zone_memo[(self, id(board))] = (board, hexes)
        return list(found[1])

    def describe(self) -> str:
        """The zone in words: "trench hexes in section-1 holding barbed-wire"."""
        text = " or ".join(sorted(self.terrain)) + " hexes" if self.terrain else "hexes"
        if self.regions:
            text += " in " + " or ".join(sorted(self.regions))
        if self.markers:
            text += " holding " + " or ".join(sorted(self.markers))
        return "any hex" if text == "hexes" else text

    def noun(self) -> str:
        """What one hex of the zone is called: "trench hex", or plain "hex"."""
        return f"{next(iter(self.terrain))} hex" if len(self.terrain) == 1 else "hex"


EVERYWHERE = Zone()
_zone_memo: dict[tuple[Zone, int], tuple[Map, list[Hex]]] = {}  # zones without markers, per map


@dataclass(frozen=True)
class Placement:
    """One setup entry: these pieces (ids in order) go somewhere in ``zone``."""

    ids: tuple[str, ...]
    type: str
    side: str | None
    kind: PieceKind
    zone: Zone
    line: int | None = None
    text: str = ""
    when: When = ()

    @property
    def pieces(self) -> PieceFilter:
        return PieceFilter(self.side, self.type, self.kind)

    def piece(self, piece_id: str, h: Hex) -> Piece:
        """This placement's piece ``piece_id`` standing on ``h``."""
        return Piece(piece_id, self.type, h, self.side, self.kind)

    def cite(self) -> str:
        return _cite(
            self.text or f"{len(self.ids)} {self.pieces.describe()} on {self.zone.describe()}", self.line
        )


def _cite(text: str, line: int | None) -> str:
    return f"{text}, line {line}" if line else text


# --- constraints -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Finding:
    """One violation: its words now, its words as a refused move, whether it is an excess
    (too many: only removing pieces mends it) and the hexes it involves."""

    text: str
    would: str
    over: bool
    hexes: frozenset[Hex]


def _need(count: int, least: int | None, most: int | None) -> str:
    if least is not None and least == most:
        return f"needs exactly {least}"
    if least is not None and count < least:
        return f"needs at least {least}"
    return f"at most {most} allowed"


def _out_of(count: int, least: int | None, most: int | None) -> bool:
    return (least is not None and count < least) or (most is not None and count > most)


@dataclass(frozen=True)
class Constraint:
    """A limit a legal setup obeys, counting pieces that match ``pieces``:

    - ``every``: in each region of kind ``group``, between ``min`` and ``max``;
    - ``per-hex``: in any one hex (of ``zone``, if given) at most ``max``, and where any
      is placed at least ``min``;
    - ``total``: on the whole map (or in ``zone``) between ``min`` and ``max``;
    - ``run``: in each region of kind ``group``, no more than ``max`` hexes holding one
      form a connected run (adjacent hexes inside the region);
    - ``zone``: made from a placement, not written: pieces ``ids`` stand in ``zone``.
    """

    kind: ConstraintKind
    pieces: PieceFilter = PieceFilter()
    min: int | None = None
    max: int | None = None
    group: str | None = None
    zone: Zone | None = None
    text: str = ""
    line: int | None = None
    when: When = ()
    ids: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for bound in (self.min, self.max):
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
                raise ValueError(f"constraint bounds must be whole numbers >= 0, got {bound!r}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"constraint min {self.min} is more than its max {self.max}")
        if self.kind in ("every", "run") and not self.group:
            raise ValueError(f"a {self.kind!r} constraint needs a region kind (group)")
        if self.kind == "run" and self.max is None:
            raise ValueError("a 'run' constraint needs max")

    def sentence(self) -> str:
        """The scenario's words, or a sentence made from the numbers."""
        if self.text:
            return self.text
        what = self.pieces.describe()
        if self.kind == "zone":
            return f"{what} go on {(self.zone or EVERYWHERE).describe()}"
        if self.kind == "run":
            return f"no more than {self.max} adjacent hexes with {what} in any {self.group}"
        if self.min is not None and self.min == self.max:
            amount = f"exactly {self.min}"
        elif self.min is not None and self.max is not None:
            amount = f"{self.min} to {self.max}"
        else:
            amount = f"at least {self.min}" if self.min is not None else f"at most {self.max}"
        where = {
            "every": f"in every {self.group}",
            "per-hex": f"in any one {(self.zone or EVERYWHERE).noun()}",
            "total": f"on {self.zone.describe()}" if self.zone else "on the map",
        }[self.kind]
        return f"{amount} {what} {where}"

    def cite(self) -> str:
        """The sentence with its line, for messages: "..., line 41"."""
        return _cite(self.sentence(), self.line)

    def counts(self, piece: Piece) -> bool:
        """Whether this constraint counts ``piece`` (before asking where it stands)."""
        if self.kind == "zone":
            return piece.id in self.ids
        return self.pieces.matches(piece)

    def violations(self, state: MapState) -> list[str]:
        """Each way ``state`` breaks this constraint, in words with labels and counts."""
        return [f.text for f in self._findings(state)]

    def _counted(self, state: MapState) -> list[Piece]:
        """The pieces this constraint counts, in the map's order; remembered for the map
        version (the solver asks each constraint more than once a search step)."""
        memo = _counted_memo.get(id(self))
        if memo is not None and memo[0] is self and memo[1] is state and memo[2] == state.version:
            return memo[3]
        zone = None if self.kind == "zone" else self.zone
        if self.kind == "zone":
            ids = self.ids
            found = [p for p in state.pieces() if p.id in ids]
        else:  # ``counts``, written out: the filter's three parts
            side, type_, kind = self.pieces.side, self.pieces.type, self.pieces.kind
            found = [
                p
                for p in state.pieces()
                if (side is None or p.side == side)
                and (type_ is None or p.type == type_)
                and (kind is None or p.kind == kind)
                and (zone is None or zone.contains(state, p.hex))
            ]
        if len(_counted_memo) > 256:
            _counted_memo.clear()
        _counted_memo[id(self)] = (self, state, state.version, found)
        return found

    def _findings(self, state: MapState) -> list[_Finding]:
        board = state.board
        cite = self.cite()
        what = self.pieces.describe()
        found: list[_Finding] = []
        counted = self._counted(state)
        if self.kind == "zone":
            zone = self.zone or EVERYWHERE
            for p in counted:
                if not zone.contains(state, p.hex):
                    label = board.label(p.hex)
                    found.append(
                        _Finding(
                            f"{p.id} stands on {label}, outside its zone: {what} go on {zone.describe()} ({cite})",
                            f"not in the zone: {what} go on {zone.describe()} ({cite})",
                            True,
                            frozenset({p.hex}),
                        )
                    )
        elif self.kind == "every":
            for region in _regions(state, self.group):
                inside = [p.hex for p in counted if p.hex in region.hexes]
                n = len(inside)
                if _out_of(n, self.min, self.max):
                    need = _need(n, self.min, self.max)
                    found.append(
                        _Finding(
                            f"{region.name} holds {n} {what}; {need} ({cite})",
                            f"would put {n} {what} in {region.name}; {need} ({cite})",
                            self.max is not None and n > self.max,
                            frozenset(inside),
                        )
                    )
        elif self.kind == "per-hex":
            per_hex = Counter(p.hex for p in counted)
            noun = (self.zone or EVERYWHERE).noun()
            for h in sorted(per_hex, key=board.label):
                n = per_hex[h]
                if _out_of(n, self.min, self.max):
                    need = _need(n, self.min, self.max)
                    found.append(
                        _Finding(
                            f"{noun.capitalize()} {board.label(h)} holds {n} {what}; {need} ({cite})",
                            f"would put {n} {what} in {noun} {board.label(h)}; {need} ({cite})",
                            self.max is not None and n > self.max,
                            frozenset({h}),
                        )
                    )
        elif self.kind == "total":
            n = len(counted)
            if _out_of(n, self.min, self.max):
                need = _need(n, self.min, self.max)
                where = self.zone.describe() if self.zone else "the map"
                found.append(
                    _Finding(
                        f"{n} {what} on {where}; {need} ({cite})",
                        f"would put {n} {what} on {where}; {need} ({cite})",
                        self.max is not None and n > self.max,
                        frozenset(p.hex for p in counted),
                    )
                )
        else:  # run
            held = {p.hex for p in counted}
            for region in _regions(state, self.group):
                for run in _runs(held & region.hexes):
                    if self.max is not None and len(run) > self.max:
                        labels = " ".join(sorted(board.label(h) for h in run))
                        found.append(
                            _Finding(
                                f"{region.name} has {len(run)} adjacent hexes with {what} ({labels}); "
                                f"at most {self.max} allowed ({cite})",
                                f"would make {len(run)} adjacent hexes with {what} in {region.name} "
                                f"({labels}); at most {self.max} allowed ({cite})",
                                True,
                                frozenset(run),
                            )
                        )
        return found


_counted_memo: dict[int, tuple[Constraint, MapState, int, list[Piece]]] = {}


def _regions(state: MapState, kind: str | None) -> list[Region]:
    return [r for r in state.board.regions.values() if r.kind == kind]


def _runs(hexes: set[Hex]) -> list[frozenset[Hex]]:
    """The connected groups of ``hexes`` (adjacent hexes join), largest first."""
    left = set(hexes)
    groups: list[frozenset[Hex]] = []
    while left:
        start = min(left)
        seen = {start}
        todo = [start]
        while todo:
            for n in neighbors(todo.pop()):
                if n in left and n not in seen:
                    seen.add(n)
                    todo.append(n)
        left -= seen
        groups.append(frozenset(seen))
    return sorted(groups, key=len, reverse=True)


# --- problems, options, results ----------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """An optional rule a player chooses before setup: one of ``choices`` (words, or
    False/True for a yes-no option), ``default`` when not chosen."""

    key: str
    name: str
    choices: tuple[object, ...]
    default: object


@dataclass(frozen=True)
class ScenarioSetup:
    """A scenario's setup as written: every entry and constraint with its ``when``."""

    placements: tuple[Placement, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    options: Mapping[str, Option] = field(default_factory=dict)
    path: Path | None = None


@dataclass(frozen=True)
class SetupProblem:
    """The active placements and constraints for one choice of options."""

    placements: tuple[Placement, ...]
    constraints: tuple[Constraint, ...]
    path: Path | None = None

    def zone_constraints(self) -> tuple[Constraint, ...]:
        """Each placement's zone as a constraint, so a too-small zone can be blamed."""
        return tuple(
            Constraint("zone", p.pieces, zone=p.zone, text=p.text, line=p.line, ids=frozenset(p.ids))
            for p in self.placements
        )

    def all_constraints(self) -> tuple[Constraint, ...]:
        """The written constraints, then the zones."""
        return self.constraints + self.zone_constraints()


@dataclass(frozen=True)
class Violation:
    """One broken constraint, explained."""

    constraint: Constraint
    message: str


class Unsatisfiable(Exception):
    """No legal setup exists; ``conflict`` is a minimal set of constraints (zones
    included) that cannot all hold together."""

    def __init__(self, conflict: list[Constraint]) -> None:
        self.conflict = conflict
        super().__init__("no setup satisfies all of: " + "; ".join(c.cite() for c in conflict))


class SetupUndecided(Exception):
    """The search gave up at its node limit without finding a setup or ruling one out."""


def chosen(options: Mapping[str, Option], picked: Mapping[str, object]) -> dict[str, object]:
    """Every option's value: the picked one, else its default. ValueError naming an
    unknown option or a value that is not one of its choices."""
    for key, value in picked.items():
        if key not in options:
            raise ValueError(f"no option {key!r}; options: {', '.join(options) or 'none'}")
        if value not in options[key].choices:
            raise ValueError(
                f"option {key!r} takes {', '.join(map(str, options[key].choices))}, not {value!r}"
            )
    return {key: picked.get(key, o.default) for key, o in options.items()}


def applies(when: When, values: Mapping[str, object]) -> bool:
    """Whether a ``when`` holds for these option values."""
    return all(values.get(key) == value for key, value in when)


def problem_for(setup: ScenarioSetup, options: Mapping[str, object]) -> SetupProblem:
    """The setup problem with only the entries and constraints whose ``when`` matches the
    chosen options (defaults for options not given)."""
    values = chosen(setup.options, options)
    return SetupProblem(
        tuple(p for p in setup.placements if applies(p.when, values)),
        tuple(c for c in setup.constraints if applies(c.when, values)),
        setup.path,
    )


# --- checking ----------------------------------------------------------------------------


def check(state: MapState, problem: SetupProblem) -> list[Violation]:
    """Every violated constraint (zones included), explained; empty means legal. Pieces
    not yet placed are not themselves a violation, but minimums they would meet are."""
    return [Violation(c, text) for c in problem.all_constraints() for text in c.violations(state)]


def to_place(state: MapState, problem: SetupProblem) -> list[Piece]:
    """The problem's pieces not yet on the map, in setup order, for a setup tray. Their
    ``hex`` is the origin as a placeholder: they stand nowhere yet."""
    on_map = {p.id for p in state.pieces()}
    return [pl.piece(i, ORIGIN) for pl in problem.placements for i in pl.ids if i not in on_map]


# --- solving -----------------------------------------------------------------------------


@dataclass
class _Var:
    """One piece still to place, with what the search knows of where it can go."""

    placement: Placement
    piece_id: str
    group: int  # interchangeable pieces share a group (and its random hex order)
    zone: Zone
    static: frozenset[Hex] | None  # its possible hexes, if no setup marker can change them


@dataclass
class _Frame:
    """One level of the search: the piece ``var`` (the ``k``-th), the hexes left to try
    for it, its group's last rank before it, and the id it has placed now (if any)."""

    k: int
    var: _Var
    candidates: Iterator[Hex]
    saved: int
    placed: str | None = None


class _Search:
    """Backtracking over the pieces not yet on the map, in setup order.

    Values are tried in a random order of hexes drawn once per group of interchangeable
    pieces (same side, type, kind and zone); within a group, pieces take hexes in
    non-decreasing order of it, so no setup is found twice under another numbering.
    Every assignment is checked against the maximums; at every node the minimums must
    still be reachable by the pieces left, and the pieces left must fit under the
    maximums. A complete assignment must pass the whole checker.
    """

    def __init__(
        self, base: MapState, problem: SetupProblem, active: list[Constraint], dice: Dice, limit: int
    ) -> None:
        self.work = MapState.of(base.board, base.pieces())
        self.active = active
        self.limit = limit
        self.nodes = 0
        on_map = {p.id for p in base.pieces()}
        zoned = {c.ids for c in active if c.kind == "zone"}
        # markers the search itself puts down can change which hexes a marker zone holds
        moving = {pl.type for pl in problem.placements if pl.kind == "marker" and set(pl.ids) - on_map}

        def fixed(zone: Zone | None) -> frozenset[Hex] | None:
            if zone is None or zone.markers & moving:
                return None
            return frozenset(zone.hexes(base))

        all_hexes = base.board.grid.hexes()
        groups: dict[tuple[object, ...], int] = {}
        self.order: list[dict[Hex, int]] = []
        self.vars: list[_Var] = []
        for pl in problem.placements:
            zone = pl.zone if frozenset(pl.ids) in zoned else EVERYWHERE
            key = (pl.side, pl.type, pl.kind, zone)
            if key not in groups:
                groups[key] = len(self.order)
                shuffled = list(all_hexes)
                dice.shuffle(shuffled)
                self.order.append({h: rank for rank, h in enumerate(shuffled)})
            static = fixed(zone)
            self.vars.extend(_Var(pl, i, groups[key], zone, static) for i in pl.ids if i not in on_map)
        statics = {v.group: v.static for v in self.vars if v.static is not None}  # sorted once a group
        self.sorted_static: dict[int, list[Hex]] = {
            g: sorted(static, key=self.order[g].__getitem__) for g, static in statics.items()
        }
        self.static_ranks: dict[int, list[int]] = {
            g: [self.order[g][h] for h in hexes] for g, hexes in self.sorted_static.items()
        }
        self.last: list[int] = [-1] * len(self.order)
        self.limits = [c for c in active if c.kind != "zone"]
        self.zone_hexes = [fixed(c.zone) for c in self.limits]
        self.counted = [
            [k for k, v in enumerate(self.vars) if c.pieces.matches(v.placement.piece(v.piece_id, ORIGIN))]
            for c in self.limits
        ]
        self.regions: dict[str | None, list[Region]] = {c.group: _regions(base, c.group) for c in self.limits}
        # checking one node counts every piece for every constraint: a node of a search
        # over thousands of pieces costs that many steps of ``limit``, so the limit
        # bounds the time taken, not just the nodes
        pieces = len(self.vars) + sum(1 for _ in base.pieces())
        self.cost = max(1, pieces * len(self.limits) // NODE_WORK)

    def run(self) -> list[Piece] | None:
        """A legal setup of the remaining pieces, or None if there is none."""
        if any(f.over for c in self.active for f in c._findings(self.work)):
            return None
        if not self._feasible(0):
            return None
        if self._dfs():
            return [self.work.piece(v.piece_id) for v in self.vars]
        return None

    def _candidates(self, v: _Var) -> Iterator[Hex]:
        """The hexes ``v`` may try, in its group's order, from the group's last rank on
        (a suffix of a fixed zone's sorted hexes: found by bisection, never copied, so a
        big map costs nothing per piece)."""
        rank = self.order[v.group]
        last = self.last[v.group]
        if v.static is not None:
            hexes = self.sorted_static[v.group]
            start = bisect_left(self.static_ranks[v.group], last)
            return (hexes[i] for i in range(start, len(hexes)))
        return iter([h for h in sorted(v.zone.hexes(self.work), key=rank.__getitem__) if rank[h] >= last])

    def _dfs(self) -> bool:
        """Depth-first search with an explicit stack (a setup may have thousands of
        pieces: no recursion), trying each piece's candidates in order; the pieces of a
        found setup are left on ``work``."""
        if not self.vars:
            return not any(c.violations(self.work) for c in self.active)
        stack = [self._frame(0)]
        while stack:
            frame = stack[-1]
            if frame.placed is not None:
                self.work.remove(frame.placed)
                frame.placed = None
            h = next(frame.candidates, None)
            if h is None:
                self.last[frame.var.group] = frame.saved
                stack.pop()
                continue
            self.nodes += self.cost
            if self.nodes > self.limit:
                raise SetupUndecided(
                    f"no setup found or ruled out within {self.limit} search steps; the setup "
                    "may be too tight to search: loosen a constraint or raise the limit"
                )
            v = frame.var
            piece = v.placement.piece(v.piece_id, h)
            self.work.place(piece)
            frame.placed = piece.id
            self.last[v.group] = self.order[v.group][h]
            k = frame.k + 1
            if not (self._fits(piece) and self._feasible(k)):
                continue
            if k == len(self.vars):
                if not any(c.violations(self.work) for c in self.active):
                    return True
                continue
            stack.append(self._frame(k))
        return False

    def _frame(self, k: int) -> _Frame:
        v = self.vars[k]
        return _Frame(k, v, self._candidates(v), self.last[v.group])

    def _fits(self, piece: Piece) -> bool:
        """No maximum is exceeded by the piece just placed."""
        return not any(
            f.over and piece.hex in f.hexes
            for c in self.limits
            if c.max is not None and c.counts(piece)
            for f in c._findings(self.work)
        )

    def _feasible(self, k: int) -> bool:
        """The remaining pieces (from ``k``) can still meet every minimum and fit under
        every maximum, counted loosely (a necessary condition, never a false refusal)."""
        for i, c in enumerate(self.limits):
            left = [self.vars[j] for j in self.counted[i] if j >= k]
            zone_hexes = self.zone_hexes[i]
            if c.kind == "total" and not self._total_ok(c, left, zone_hexes):
                return False
            if c.kind == "every" and not self._every_ok(c, left):
                return False
            if c.kind == "per-hex" and c.max is not None and left and not self._room_ok(c, left, zone_hexes):
                return False
        return True

    def _total_ok(self, c: Constraint, left: list[_Var], zone_hexes: frozenset[Hex] | None) -> bool:
        n = len(c._counted(self.work))
        unknown = c.zone is not None and zone_hexes is None
        if c.min is not None:
            reach = sum(
                1 for v in left if unknown or v.static is None or zone_hexes is None or v.static & zone_hexes
            )
            if n + reach < c.min:
                return False
        if c.max is not None:
            forced = sum(
                1
                for v in left
                if c.zone is None
                or (v.static is not None and zone_hexes is not None and v.static <= zone_hexes)
            )
            if n + forced > c.max:
                return False
        return True

    def _every_ok(self, c: Constraint, left: list[_Var]) -> bool:
        regions = self.regions[c.group]
        held = Counter(p.hex for p in c._counted(self.work))
        counts = {r.key: sum(n for h, n in held.items() if h in r.hexes) for r in regions}
        if c.min is not None:
            total_short = 0
            helpers: set[int] = set()
            for r in regions:
                deficit = c.min - counts[r.key]
                if deficit <= 0:
                    continue
                can = {k for k, v in enumerate(left) if v.static is None or v.static & r.hexes}
                if len(can) < deficit:
                    return False
                total_short += deficit
                helpers |= can
            if total_short > len(helpers) and _disjoint(regions):
                return False
        if c.max is not None and left:
            covered = frozenset().union(*(r.hexes for r in regions))
            forced = [v.static for v in left if v.static is not None and v.static <= covered]
            if forced:
                spots = frozenset().union(*forced)
                room = sum(max(0, c.max - counts[r.key]) for r in regions if spots & r.hexes)
                if len(forced) > room:
                    return False
        return True

    def _room_ok(self, c: Constraint, left: list[_Var], zone_hexes: frozenset[Hex] | None) -> bool:
        if c.zone is not None and zone_hexes is None:
            return True
        forced = [
            v.static for v in left if v.static is not None and (zone_hexes is None or v.static <= zone_hexes)
        ]
        if not forced:
            return True
        spots = frozenset().union(*forced)
        held = Counter(p.hex for p in c._counted(self.work))
        most = c.max or 0
        return len(forced) <= sum(max(0, most - held[h]) for h in spots)


def _disjoint(regions: list[Region]) -> bool:
    seen: set[Hex] = set()
    for r in regions:
        if seen & r.hexes:
            return False
        seen |= r.hexes
    return True


def _search(
    state: MapState, problem: SetupProblem, active: list[Constraint], seed: Dice, limit: int
) -> list[Piece] | None:
    return _Search(state, problem, active, seed, limit).run()


def _conflict(state: MapState, problem: SetupProblem, seed: int, limit: int) -> list[Constraint]:
    """A minimal unsatisfiable subset by a deletion filter: drop each constraint in turn
    and keep it dropped if the rest still has no setup. A search that cannot decide
    counts as satisfiable, so the constraint stays (the set may then not be minimal)."""
    kept = list(problem.all_constraints())
    for c in list(kept):
        trial = [k for k in kept if k is not c]
        try:
            if _search(state, problem, trial, Dice(seed), limit) is None:
                kept = trial
        except SetupUndecided:
            pass
    return kept


def solve(state: MapState, problem: SetupProblem, dice: Dice, *, limit: int = DEFAULT_LIMIT) -> list[Piece]:
    """A random legal setup of the problem's pieces not yet on the map (the pieces, on
    their hexes, in setup order); ``state`` is left unchanged. The same dice seed gives
    the same setup. Unsatisfiable (with a minimal conflict) if none exists;
    SetupUndecided if the search reaches ``limit`` steps first."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a whole number of at least 1, not {limit!r}")
    found = _search(state, problem, list(problem.all_constraints()), dice, limit)
    if found is None:
        raise Unsatisfiable(_conflict(state, problem, dice.seed, limit))
    return found


def refusal(
    state: MapState, problem: SetupProblem, piece: Piece, h: Hex, *, limit: int = DEFAULT_LIMIT
) -> str | None:
    """Why putting ``piece`` (one of the problem's pieces) on ``h`` by hand is illegal
    now, or None if it is legal. Checks its zone, then the maximums it would break, then
    whether the remaining pieces can still be set up around it (a search that cannot
    decide counts as legal)."""
    placement = next((pl for pl in problem.placements if piece.id in pl.ids), None)
    if placement is None:
        return f"{piece.id} is not one of this setup's pieces"
    work = MapState.of(state.board, (p for p in state.pieces() if p.id != piece.id))
    if not state.board.grid.contains(h):
        return f"{h} is not on the map"
    if not placement.zone.contains(work, h):
        return f"not in the zone: {placement.pieces.describe()} go on {placement.zone.describe()}"
    before = {f.text for c in problem.constraints for f in c._findings(work)}
    moved = placement.piece(piece.id, h)
    work.place(moved)
    for c in problem.constraints:
        if not c.counts(moved):
            continue
        for f in c._findings(work):
            if f.over and h in f.hexes and f.text not in before:
                return f.would
    try:
        if _search(work, problem, list(problem.all_constraints()), Dice(0), limit) is None:
            conflict = _conflict(work, problem, 0, limit)
            return "no legal setup remains after this placement: " + "; ".join(c.cite() for c in conflict)
    except SetupUndecided:
        return None
    return None
