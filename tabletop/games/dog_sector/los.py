"""DOG SECTOR line of sight and the geometric limits on who may fire at what.

Knows the rules of phases 4 (German fire, Table 4) and 6 (American fire, Table 6) that
are geometry: American units on hilltop and trench hexes block line of sight; the target
must be in the same or an adjacent map section; ranges by firing unit type; hexes that
cannot be fired from, or targeted, except at or from an adjacent hex; and hexes a
German unit type may never target. Each is reported as a blocking finding with its rule,
and range bonuses as modifiers, so a player sees why. The figures and the project's
choices where the text is silent live in ``los.yaml`` beside this module.

Knows nothing of dice, unit strength, pinned or reduced status, or which target types a
unit may attack: those belong to the fire procedure. Which side fires is the viewer's
``side`` ("american" or "german"); its ``type`` is a key under that side's ``units`` in
``los.yaml``. With no viewer, only line of sight is judged (can one hex see the other),
and the verdict says so: the section rule and the rest are fire rules, judged for a
firing unit (issue 13 finding 8: an empty hex "blocked" from another by the section
rule read as if it could not be seen). ``viewer_fires`` tells the window so: it asks
for sight without a viewer, and for fire with one.

"Directly behind a tank or dozer" (phase 4) is read geometrically (the project's
choice): the target hex is next to a hex that holds a tank or dozer and that the line
from the firer's centre to the target's centre crosses (enters the interior of). A hex
the line only grazes does not screen: the tank stands beside the line, not in front.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from types import MappingProxyType
from typing import Any

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.los import (
    GRAZE_RULES,
    BasePolicy,
    Finding,
    GrazeRule,
    LineContext,
    LosQuery,
    Obstacle,
    Severity,
    StaticObstacles,
    blocking_findings,
)
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, Hexside, distance, neighbors, relative_traversal
from tabletop.yamlfile import LineDict, LineList, parse_yaml

DATA = "los.yaml"
GAME = "DOG SECTOR"
LOS_RULE = f"{GAME} phase 6"
SECTION_RULE = f"{GAME} phases 4 and 6"
START = 0.0  # whole-line findings start at the firer


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class HexTest:
    """A kind of hex: of one of ``terrain`` (any if None), and, if ``next_to`` is given,
    next to a hex of one of those terrains."""

    terrain: frozenset[str] | None
    next_to: frozenset[str] | None

    def matches(self, board: Map, h: Hex) -> bool:
        if self.terrain is not None and board.terrain[h] not in self.terrain:
            return False
        if self.next_to is None:
            return True
        on_map = board.grid.contains
        return any(on_map(n) and board.terrain[n] in self.next_to for n in neighbors(h))

    def describe(self, board: Map, h: Hex) -> str:
        """``h`` named the way this test sees it, e.g. "beach hex 0408 next to bluff"."""
        words = f"{board.terrain[h]} hex {board.label(h)}"
        if self.next_to is not None:
            words += f" next to {' or '.join(sorted(self.next_to))}"
        return words


@dataclass(frozen=True)
class UnitFire:
    """One firing unit type's geometric limits (a line of Table 4 or 6)."""

    type: str
    name: str
    fires: bool
    max_range: int | None  # None: no limit on the map
    max_range_against: Mapping[str, int]  # target type -> a longer limit
    bonus_range: int | None
    bonus: str
    cannot_target: tuple[HexTest, ...]
    screened_by: frozenset[str]
    note: str

    def range_limit(self, target: Piece | None) -> int | None:
        """The farthest this type may fire at ``target`` (None: no limit); with no target
        piece, the longest limit against any target type."""
        if self.max_range is None:
            return None
        if target is None:
            return max([self.max_range, *self.max_range_against.values()])
        return self.max_range_against.get(target.type, self.max_range)


@dataclass(frozen=True)
class SideFire:
    """One side's fire phase: its rule, its table, and its hex and unit limits."""

    side: str
    rule: str
    table: str
    needs_line_of_sight: bool
    cannot_fire_from: tuple[HexTest, ...]
    fire_only_adjacent_from: tuple[HexTest, ...]
    target_only_adjacent: tuple[HexTest, ...]
    units: Mapping[str, UnitFire]


@dataclass(frozen=True)
class LosTables:
    """Everything ``los.yaml`` holds, validated."""

    terrain: frozenset[str]
    blocking_side: str
    blocking_terrain: frozenset[str]
    grazing: GrazeRule
    section_kind: str
    sides: Mapping[str, SideFire]


_EMPTY = LineList()
_EMPTY.item_lines = []


class _Reader(Reader):
    """Validation of ``los.yaml`` into frozen dataclasses; DataError names the line."""

    terrain: frozenset[str] = frozenset()  # the file's terrain keys, once read

    def text(self, node: LineDict, key: str, where: str) -> str:
        value = node.get(key, "")
        if not isinstance(value, str) or (key in node and not value):
            raise self.error(node.key_lines.get(key), f"{where}.{key} must be text")
        return value

    def flag(self, node: LineDict, key: str, where: str) -> bool:
        value = node.get(key, True)
        if not isinstance(value, bool):
            raise self.error(node.key_lines.get(key), f"{where}.{key} must be true or false")
        return value

    def count(self, node: LineDict, key: str, where: str) -> int | None:
        value = node.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.error(
                node.key_lines.get(key), f"{where}.{key} must be a whole number of hexes, 1 or more"
            )
        return value

    def word_list(
        self, node: LineDict, key: str, where: str, known: frozenset[str] | None = None
    ) -> frozenset[str]:
        """The list of words at ``node[key]`` (empty if absent), each one of ``known``."""
        value, line = node.get(key, _EMPTY), node.key_lines.get(key)
        if not isinstance(value, LineList) or not all(isinstance(w, str) for w in value):
            raise self.error(line, f"{where}.{key} must be a list of words")
        for word, item_line in zip(value, value.item_lines, strict=True):
            if known is not None and word not in known:
                raise self.error(
                    item_line, f"{where}.{key}: {word!r} is not one of {', '.join(sorted(known))}"
                )
        return frozenset(value)

    def hex_tests(self, node: LineDict, key: str, where: str) -> tuple[HexTest, ...]:
        """The list of hex tests at ``node[key]`` (empty if absent)."""
        value, line = node.get(key, _EMPTY), node.key_lines.get(key)
        if not isinstance(value, LineList):
            raise self.error(
                line, f"{where}.{key} must be a list of hex tests ({{terrain: [...], next_to: [...]}})"
            )
        out = []
        for i, (item, item_line) in enumerate(zip(value, value.item_lines, strict=True)):
            w = f"{where}.{key}[{i}]"
            item = self.mapping(item, w, item_line, ("terrain", "next_to"))
            if not item:
                raise self.error(item_line, f"{w} needs `terrain:` or `next_to:`")
            terrain = self.word_list(item, "terrain", w, self.terrain) if "terrain" in item else None
            next_to = self.word_list(item, "next_to", w, self.terrain) if "next_to" in item else None
            out.append(HexTest(terrain, next_to))
        return tuple(out)

    def unit(self, key: str, node: Any, where: str, line: int | None) -> UnitFire:
        keys = ("name", "fires", "max_range", "max_range_against", "bonus_range", "bonus",
                "cannot_target", "screened_by", "note")  # fmt: skip
        node = self.mapping(node, where, line, keys, required=("name",))
        against: dict[str, int] = {}
        if "max_range_against" in node:
            w = f"{where}.max_range_against"
            table = self.mapping(node["max_range_against"], w, node.key_lines["max_range_against"], None)
            for target in table:
                n = self.count(table, target, w)
                assert n is not None
                against[target] = n
            if "max_range" not in node:
                raise self.error(
                    node.key_lines["max_range_against"], f"{where}: max_range_against needs max_range"
                )
        bonus_range = self.count(node, "bonus_range", where)
        if bonus_range is not None and "bonus" not in node:
            raise self.error(
                node.key_lines["bonus_range"], f"{where}: bonus_range needs `bonus:` saying what it gives"
            )
        return UnitFire(
            type=key,
            name=self.text(node, "name", where),
            fires=self.flag(node, "fires", where),
            max_range=self.count(node, "max_range", where),
            max_range_against=MappingProxyType(against),
            bonus_range=bonus_range,
            bonus=self.text(node, "bonus", where),
            cannot_target=self.hex_tests(node, "cannot_target", where),
            screened_by=self.word_list(node, "screened_by", where),
            note=self.text(node, "note", where),
        )

    def side(self, key: str, node: Any, line: int | None) -> SideFire:
        where = f"sides.{key}"
        keys = ("rule", "table", "needs_line_of_sight", "cannot_fire_from", "fire_only_adjacent_from",
                "target_only_adjacent", "units")  # fmt: skip
        node = self.mapping(node, where, line, keys, required=keys)
        units_node = self.mapping(node["units"], f"{where}.units", node.key_lines["units"], None)
        units = {
            k: self.unit(k, v, f"{where}.units.{k}", units_node.key_lines[k]) for k, v in units_node.items()
        }
        return SideFire(
            side=key,
            rule=self.text(node, "rule", where),
            table=self.text(node, "table", where),
            needs_line_of_sight=self.flag(node, "needs_line_of_sight", where),
            cannot_fire_from=self.hex_tests(node, "cannot_fire_from", where),
            fire_only_adjacent_from=self.hex_tests(node, "fire_only_adjacent_from", where),
            target_only_adjacent=self.hex_tests(node, "target_only_adjacent", where),
            units=MappingProxyType(units),
        )

    def tables(self) -> LosTables:
        top_keys = ("terrain", "line_of_sight", "sections", "sides")
        top = self.mapping(self.data, "the file", 1, top_keys, required=top_keys)
        self.terrain = self.word_list(top, "terrain", "the file")
        los_keys = ("blocking_side", "blocking_terrain", "grazing")
        los = self.mapping(
            top["line_of_sight"], "line_of_sight", top.key_lines["line_of_sight"], los_keys, los_keys
        )
        blocking_terrain = self.word_list(los, "blocking_terrain", "line_of_sight", self.terrain)
        grazing = los["grazing"]
        if grazing not in GRAZE_RULES:
            raise self.error(
                los.key_lines["grazing"], f"line_of_sight.grazing must be one of {', '.join(GRAZE_RULES)}"
            )
        sections = self.mapping(top["sections"], "sections", top.key_lines["sections"], ("kind",), ("kind",))
        sides_node = self.mapping(top["sides"], "sides", top.key_lines["sides"], None)
        sides = {k: self.side(k, v, sides_node.key_lines[k]) for k, v in sides_node.items()}
        blocking_side = self.text(los, "blocking_side", "line_of_sight")
        if blocking_side not in sides:
            raise self.error(
                los.key_lines["blocking_side"], "line_of_sight.blocking_side must be one of the sides"
            )
        every_type = {t for s in sides.values() for t in s.units}
        for s in sides.values():
            for u in s.units.values():
                for t in (*u.max_range_against, *u.screened_by):
                    if t not in every_type:
                        where = f"sides.{s.side}.units.{u.type}"
                        raise self.error(sides_node.line, f"{where}: {t!r} is no unit type of any side")
        return LosTables(
            terrain=self.terrain,
            blocking_side=blocking_side,
            blocking_terrain=blocking_terrain,
            grazing=grazing,
            section_kind=self.text(sections, "kind", "sections"),
            sides=MappingProxyType(sides),
        )


def read_tables(text: str, path: str = DATA) -> LosTables:
    """Validate the text of a ``los.yaml``; DataError names the line of any problem."""
    return _Reader(path, parse_yaml(text, path), line=1).tables()


@cache
def tables() -> LosTables:
    """The shipped ``los.yaml`` beside this module, read once."""
    text = resources.files(__package__).joinpath(DATA).read_text(encoding="utf-8")
    return read_tables(text, f"tabletop/games/dog_sector/{DATA}")


# ----------------------------------------------------------------------- the sections


@dataclass(frozen=True)
class Sections:
    """A map's sections: which section keys hold each hex, and which pairs touch."""

    of_hex: Mapping[Hex, frozenset[str]]
    adjacent: frozenset[frozenset[str]]
    defined: bool  # whether the map has any section at all

    @classmethod
    def of(cls, board: Map, kind: str) -> Sections:
        of_hex: dict[Hex, set[str]] = {}
        for region in board.regions.values():
            if region.kind == kind:
                for h in region.hexes:
                    of_hex.setdefault(h, set()).add(region.key)
        adjacent: set[frozenset[str]] = set()
        for h, keys in of_hex.items():
            for n in neighbors(h):
                for a in keys:
                    adjacent.update(frozenset((a, b)) for b in of_hex.get(n, ()) if b != a)
        # a hex in two sections joins them too
        for keys in of_hex.values():
            adjacent.update(frozenset(pair) for pair in combinations(keys, 2))
        return cls({h: frozenset(k) for h, k in of_hex.items()}, frozenset(adjacent), bool(of_hex))

    def __post_init__(self) -> None:
        # issue 19: the planner asks millions of pairs. Hexes with the same set of
        # section keys share a number; the answer for each pair of numbers is worked
        # out once (``_slow_same_or_adjacent``), so a query is two lookups and a third.
        groups: dict[frozenset[str], int] = {frozenset(): 0}
        for keys in self.of_hex.values():
            groups.setdefault(keys, len(groups))
        object.__setattr__(self, "_group", {h: groups[k] for h, k in self.of_hex.items()})
        object.__setattr__(
            self,
            "_pairs",
            frozenset(
                (i, j)
                for sa, i in groups.items()
                for sb, j in groups.items()
                if self._slow_same_or_adjacent(sa, sb)
            ),
        )

    def same_or_adjacent(self, a: Hex, b: Hex) -> bool:
        """Whether ``a`` and ``b`` lie in one section, or in two that touch."""
        group = self._group  # type: ignore[attr-defined]
        return (group.get(a, 0), group.get(b, 0)) in self._pairs  # type: ignore[attr-defined]

    def _slow_same_or_adjacent(self, sa: frozenset[str], sb: frozenset[str]) -> bool:
        """The rule itself, on the section keys of two hexes (the tables' source)."""
        return bool(sa & sb) or any(frozenset((x, y)) in self.adjacent for x in sa for y in sb)

    def name(self, h: Hex) -> str:
        return "/".join(sorted(self.of_hex.get(h, ()))) or "no section"


# ------------------------------------------------------------------------- the policy


def _first(tests: Sequence[HexTest], board: Map, h: Hex) -> HexTest | None:
    return next((t for t in tests if t.matches(board, h)), None)


def _whole_line(severity: Severity, cause: str, rule: str) -> Finding:
    return Finding(severity, cause, rule, None, START)


class DogSectorPolicy(BasePolicy):
    """DOG SECTOR's line of sight (phase 6) with the geometric targeting limits of
    phases 4 and 6 and Tables 4 and 6 as whole-line findings."""

    name = "DOG SECTOR"
    viewer_fires = True  # a viewer is a firing unit: its verdict adds the fire rules

    def __init__(self, board: Map, data: LosTables | None = None) -> None:
        self.data = data if data is not None else tables()
        self.grazing = self.data.grazing
        self._board = board
        self._sections = Sections.of(board, self.data.section_kind)
        self._static: tuple[MapState, int, StaticObstacles] | None = None
        self._screen_types = frozenset(t for s in self.data.sides.values() for u in s.units.values()
                                       for t in u.screened_by)  # fmt: skip
        self._fire_memo: dict[tuple[Any, ...], tuple[Finding, ...]] = {}
        self._memo_board = board
        self._section_memo: dict[tuple[Any, ...], tuple[Finding, ...]] = {}
        self._rules_memo: dict[tuple[Any, ...], tuple[tuple[Finding, ...], tuple[Finding, ...]]] = {}
        self._pair_memo: dict[tuple[Any, ...], dict[tuple[str, Hex], bool]] = {}  # firer -> pairs
        self._kind_memo: dict[tuple[int, Hex], bool] = {}  # (id of a table's hex tests, hex) -> any matches
        self._screens_at: tuple[MapState, int, dict[Hex, tuple[tuple[str, str], ...]]] | None = None

    def sections(self, board: Map) -> Sections:
        """The sections of ``board`` (worked out once per map)."""
        if board is not self._board:
            self._board, self._sections = board, Sections.of(board, self.data.section_kind)
        return self._sections

    # Phase 6: a hilltop or trench hex holding an American unit blocks the line. What
    # blocks does not depend on who looks (German fire reads the same findings in
    # ``judge``), so the engine may use one table per map state.
    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        return self._blocker(state, h)

    def static_obstacles(self, state: MapState) -> StaticObstacles:
        """The hexes holding a blocking unit: one table per map state, rebuilt on change."""
        cached = self._static
        if cached is None or cached[0] is not state or cached[1] != state.version:
            table = {}
            terrain, kinds, side = state.board.terrain, self.data.blocking_terrain, self.data.blocking_side
            # only a hex holding a unit of the blocking side on blocking ground can block
            for h in {p.hex for p in state.pieces() if p.side == side and terrain[p.hex] in kinds}:
                ob = self._blocker(state, h)
                if ob is not None:
                    table[h] = ob
            cached = self._static = (state, state.version, StaticObstacles(table, self.grazing))
        return cached[2]

    def fire_blocking(self, state: MapState, viewer: Piece, target: Piece) -> tuple[Finding, ...]:
        """The blocking findings of ``line_of_sight`` for ``viewer`` firing at ``target``
        (empty: not blocked), remembered by everything they are made of: the two units'
        sides, types and hexes, the blocking units on the hexes the line crosses or
        grazes, and the screening units at the target and on the crossed hexes next to
        it (issue 19: bots and refusals ask the same pairs turn after turn)."""
        return self.fire_blocking_all(state, viewer, [target])[0]

    def fire_blocking_all(
        self, state: MapState, viewer: Piece, targets: Sequence[Piece]
    ) -> list[tuple[Finding, ...]]:
        """``fire_blocking`` of ``viewer`` at each of ``targets``, in order (the map's
        tables read once for them all: phase 4 asks every American unit)."""
        self._same_board(state)
        src = viewer.hex
        aq, ar = src
        blocking = list(self.static_obstacles(state).items())
        screening: list[tuple[Hex, Any]] = []
        side = self.data.sides.get(viewer.side or "")
        unit = side.units.get(viewer.type) if side is not None else None
        if unit is None or unit.screened_by:  # (no screens: the rule is not read)
            screening = sorted(self._screening(state).items())  # (one order for the memo's keys)
        memo = self._fire_memo
        # each blocker and screen as seen from the viewer, worked out once for all targets
        blocking_from = [((h[0] - aq, h[1] - ar), (h, ob)) for h, ob in blocking]
        screening_from = [((h[0] - aq, h[1] - ar), (h, u)) for h, u in screening]
        out = []
        for target in targets:
            tgt = target.hex
            dq, dr = tgt.q - aq, tgt.r - ar
            line, screens = _line_sets.get((dq, dr)) or _line_set(dq, dr)
            # the few hexes that hold a blocker or a screen, those the line reads: fewer
            # lookups than walking the line
            key = (
                viewer.side,
                viewer.type,
                src,
                target.side,
                target.type,
                tgt,
                tuple([found for rel, found in blocking_from if rel in line]),
                tuple([found for rel, found in screening_from if rel in screens]),
            )
            found = memo.get(key)
            if found is None:
                if len(memo) >= _FIRE_MEMO_KEPT:
                    memo.clear()
                query = LosQuery(src, tgt, viewer=viewer, target_piece=target)
                found = memo[key] = blocking_findings(state, self, query)
            out.append(found)
        return out

    def _same_board(self, state: MapState) -> None:
        """Forget what was remembered of another map (the memos are the map's)."""
        if state.board is not self._memo_board:
            self._fire_memo.clear()
            self._section_memo.clear()
            self._rules_memo.clear()
            self._pair_memo.clear()
            self._kind_memo.clear()
            self._memo_board = state.board

    def fire_legal_all(self, state: MapState, viewer: Piece, targets: Sequence[Piece]) -> list[bool]:
        """Whether ``viewer`` may fire at each of ``targets`` (no blocking finding): exactly
        ``not fire_blocking_all(...)[i]``, without the findings where a cheaper test
        settles it (issue 19: German target choice asks every American unit for every
        shot, and only the chosen target's reasons are ever read). The section, hex and
        range rules are the map's alone (remembered per pair of hexes and the two types);
        a side that needs no line of sight is then blocked only by screens; a side that
        needs one asks ``fire_blocking_all`` for the targets those rules let through."""
        side = self.data.sides.get(viewer.side or "")
        unit = side.units.get(viewer.type) if side is not None else None
        if side is None or unit is None:  # (the full verdict says what is wrong)
            return [not found for found in self.fire_blocking_all(state, viewer, targets)]
        self._same_board(state)
        src = viewer.hex
        aq, ar = src
        # one firer's pairs, by the target's type and hex (the pair's key without the firer)
        pairs = self._pair_memo.get((side.side, unit.type, src))
        if pairs is None:
            if len(self._pair_memo) >= _FIRERS_KEPT:
                self._pair_memo.clear()
            pairs = self._pair_memo[(side.side, unit.type, src)] = {}
        out = []
        for target in targets:
            key = (target.type, target.hex)
            blocked = pairs.get(key)
            if blocked is None:
                blocked = pairs[key] = self._pair_blocked(state.board, viewer, target, side, unit)
            out.append(not blocked)
        if side.needs_line_of_sight:
            open_ = [i for i, legal in enumerate(out) if legal]
            found = self.fire_blocking_all(state, viewer, [targets[i] for i in open_])
            for i, blocking in zip(open_, found, strict=True):
                out[i] = not blocking
        elif unit.screened_by and any(out):
            screened_by = unit.screened_by
            # the screening units as seen from the viewer, those of a kind that screens it
            screens_from = {
                (h[0] - aq, h[1] - ar)
                for h, units in self._screening(state).items()
                if any(kind in screened_by for _, kind in units)
            }
            if screens_from:
                for i, target in enumerate(targets):
                    if out[i]:
                        tgt = target.hex
                        dq, dr = tgt.q - aq, tgt.r - ar
                        screens = (_line_sets.get((dq, dr)) or _line_set(dq, dr))[1]
                        out[i] = screens.isdisjoint(screens_from)
        return out

    def _pair_blocked(self, board: Map, viewer: Piece, target: Piece, side: SideFire, unit: UnitFire) -> bool:
        """Whether the section, hex or range rules block ``viewer`` firing at ``target``
        (what does not depend on any other unit on the map): whether
        ``_section_rule_of``, ``_hex_rules`` or ``_range`` would write a block, without
        writing it."""
        src, tgt = viewer.hex, target.hex
        sections = self.sections(board)
        if sections.defined:
            of_hex = sections.of_hex
            if src not in of_hex or tgt not in of_hex or not sections.same_or_adjacent(src, tgt):
                return True
        kind = self._kind_of_hex
        if not unit.fires or kind(side.cannot_fire_from, board, src):
            return True
        rng = distance(src, tgt)
        if rng > 1 and (
            kind(side.fire_only_adjacent_from, board, src) or kind(side.target_only_adjacent, board, tgt)
        ):
            return True
        if kind(unit.cannot_target, board, tgt):
            return True
        limit = unit.range_limit(target)
        return limit is not None and rng > limit

    def _kind_of_hex(self, tests: tuple[HexTest, ...], board: Map, h: Hex) -> bool:
        """Whether one of ``tests`` (a tuple of this policy's tables) matches ``h``:
        ``_first(...) is not None``, remembered per hex (the map's ground alone)."""
        key = (id(tests), h)
        found = self._kind_memo.get(key)
        if found is None:
            found = self._kind_memo[key] = _first(tests, board, h) is not None
        return found

    def _screening(self, state: MapState) -> dict[Hex, tuple[tuple[str, str], ...]]:
        """Hex -> the (id, type) of its units of a screening type, in the hex's order:
        one table per map state, brought up to date on change by reading again only the
        hexes changed since (``MapState.changed_since``; issue 19 item 1). The table's
        own order is not the map's: readers look hexes up, or sort."""
        cached = self._screens_at
        if cached is not None and cached[0] is state and cached[1] == state.version:
            return cached[2]
        kinds = self._screen_types
        changed = state.changed_since(cached[1]) if cached is not None and cached[0] is state else None
        if cached is None or changed is None:
            changed = {p.hex for p in state.pieces() if p.kind == "unit" and p.type in kinds}
            out: dict[Hex, tuple[tuple[str, str], ...]] = {}
        else:
            out = dict(cached[2])
        for h in changed:
            units = tuple([(u.id, u.type) for u in state.units_at(h) if u.type in kinds])
            if units:
                out[h] = units
            else:
                out.pop(h, None)
        self._screens_at = (state, state.version, out)
        return out

    def static_hexsides(self, state: MapState) -> Mapping[Hexside, Obstacle]:
        """No hexside does anything to a DOG SECTOR line."""
        return {}

    def _blocker(self, state: MapState, h: Hex) -> Obstacle | None:
        terrain = state.board.terrain[h]
        if terrain not in self.data.blocking_terrain:
            return None
        for unit in state.units_at(h):
            if unit.side == self.data.blocking_side:
                return Obstacle("block", f"{unit.side} unit {unit.id} ({unit.type}) on {terrain}", LOS_RULE)
        return None

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        viewer = ctx.query.viewer
        side = self._side(viewer)
        out: list[Finding] = []
        if side is None or side.needs_line_of_sight:
            out.extend(found)
        else:
            out.extend(
                _whole_line(
                    "note",
                    f"{side.side} fire needs no line of sight: not blocked by {f.cause}"
                    + (f" at {state.board.label(f.hex)}" if f.hex is not None else ""),
                    side.rule,
                )
                for f in found
            )
        if viewer is None or side is None:  # (side is None only when viewer is)
            out.append(
                _whole_line(
                    "note",
                    "no firing unit given: line of sight only; the section rule, range limits "
                    "and firing or targeting restrictions apply to a firing unit",
                    SECTION_RULE,
                )
            )
            return out
        out.extend(self._section_rule(state, ctx, side))
        out.extend(self._fire_rules(state, ctx, side, viewer))
        return out

    def _side(self, viewer: Piece | None) -> SideFire | None:
        if viewer is None:
            return None
        side = self.data.sides.get(viewer.side or "")
        if side is None:
            raise ValueError(
                f"viewer {viewer.id!r} has side {viewer.side!r}; DOG SECTOR fire needs one of "
                f"{', '.join(repr(s) for s in self.data.sides)}"
            )
        return side

    def _section_rule(self, state: MapState, ctx: LineContext, side: SideFire | None) -> list[Finding]:
        """Phases 4 and 6: the target is in the same or an adjacent map section (the map's
        alone: remembered per pair of hexes and side)."""
        if state.board is not self._memo_board:
            return self._section_rule_of(state, ctx, side)
        key = (side.side if side is not None else None, ctx.source, ctx.target)
        found = self._section_memo.get(key)
        if found is None:
            if len(self._section_memo) >= _FIRE_MEMO_KEPT:
                self._section_memo.clear()
            found = self._section_memo[key] = tuple(self._section_rule_of(state, ctx, side))
        return list(found)

    def _section_rule_of(self, state: MapState, ctx: LineContext, side: SideFire | None) -> list[Finding]:
        rule = side.rule if side is not None else SECTION_RULE
        sections = self.sections(state.board)
        if not sections.defined:
            return [_whole_line("note", "the map has no sections: section rule not applied", rule)]
        out = []
        for end, what in ((ctx.source, "firer"), (ctx.target, "target")):
            if end not in sections.of_hex:
                out.append(
                    _whole_line("block", f"{what} hex {state.board.label(end)} is in no map section", rule)
                )
        if not out and not sections.same_or_adjacent(ctx.source, ctx.target):
            cause = (
                "target not in the same or an adjacent section "
                f"({sections.name(ctx.source)} -> {sections.name(ctx.target)})"
            )
            out.append(_whole_line("block", cause, rule))
        return out

    def _fire_rules(self, state: MapState, ctx: LineContext, side: SideFire, viewer: Piece) -> list[Finding]:
        unit = side.units.get(viewer.type)
        if unit is None:
            raise ValueError(
                f"viewer {viewer.id!r}: {side.side} unit type {viewer.type!r} is not in {side.table} "
                f"(known: {', '.join(side.units)})"
            )
        if not unit.fires:
            return self._hex_rules(state, ctx, side, unit)
        # the hex rules and the range are the map's alone: remembered per firer type and
        # pair of hexes (and target type for the range); the screens are the units'.
        if state.board is not self._memo_board:
            head = self._hex_rules(state, ctx, side, unit)
            return head + self._screens(state, ctx, side, unit) + self._range(ctx, side, unit)
        target = ctx.query.target_piece
        key = (side.side, unit.type, ctx.source, ctx.target, target.type if target is not None else None)
        found = self._rules_memo.get(key)
        if found is None:
            if len(self._rules_memo) >= _FIRE_MEMO_KEPT:
                self._rules_memo.clear()
            found = self._rules_memo[key] = (
                tuple(self._hex_rules(state, ctx, side, unit)),
                tuple(self._range(ctx, side, unit)),
            )
        return [*found[0], *self._screens(state, ctx, side, unit), *found[1]]

    def _hex_rules(self, state: MapState, ctx: LineContext, side: SideFire, unit: UnitFire) -> list[Finding]:
        """Where the firer stands and where the target is: who may fire from there, and
        at what there (phases 4 and 6)."""
        board = state.board
        src, tgt, rng = ctx.source, ctx.target, ctx.range
        adjacent = rng <= 1
        out: list[Finding] = []

        def block(cause: str, rule: str = side.rule) -> None:
            out.append(_whole_line("block", cause, rule))

        if not unit.fires:
            block(f"{unit.name} does not fire (no line in {side.table})", side.table)
            return out
        test = _first(side.cannot_fire_from, board, src)
        if test is not None:
            block(f"{unit.name} cannot fire from {test.describe(board, src)}")
        if not adjacent:  # one finding per rule: the first hex test that applies
            test = _first(side.fire_only_adjacent_from, board, src)
            if test is not None:
                block(
                    f"{unit.name} fires from {test.describe(board, src)} only at adjacent targets (range {rng})"
                )
            test = _first(side.target_only_adjacent, board, tgt)
            if test is not None:
                block(f"{test.describe(board, tgt)} can be targeted only from an adjacent hex (range {rng})")
        test = _first(unit.cannot_target, board, tgt)
        if test is not None:
            block(f"{unit.name} cannot target {test.describe(board, tgt)}")
        return out

    def _screens(self, state: MapState, ctx: LineContext, side: SideFire, unit: UnitFire) -> list[Finding]:
        """Phase 4: no fire at a hex holding a screening unit (tank, dozer) or at the hex
        directly behind one: next to a hex holding one that the line crosses."""
        if not unit.screened_by:
            return []
        board = state.board
        out = []
        src, tgt = ctx.source, ctx.target
        # the target, then the crossed hexes next to it
        _, screens = _line_hexes(tgt.q - src.q, tgt.r - src.r)
        at = self._screening(state).get
        for i, (q, r) in enumerate(screens):
            h = Hex(q + src.q, r + src.r)
            found = at(h)
            if not found:  # (off the map nothing stands)
                continue
            for uid, kind in found:
                if kind not in unit.screened_by:
                    continue
                if i == 0:
                    cause = f"{unit.name} cannot target a hex holding a {kind} ({uid} at {board.label(h)})"
                else:
                    cause = (
                        f"{unit.name} cannot target the hex directly behind a {kind} "
                        f"({uid} at {board.label(h)}, seen from {board.label(src)})"
                    )
                out.append(_whole_line("block", cause, side.rule))
                break
        return out

    def _range(self, ctx: LineContext, side: SideFire, unit: UnitFire) -> list[Finding]:
        """Tables 4 and 6: range limits (blocks) and bonus ranges (modifiers)."""
        out = []
        target = ctx.query.target_piece
        limit = unit.range_limit(target)
        rng = ctx.range
        if target is None and unit.max_range_against:
            types = " or ".join(unit.max_range_against)
            out.append(
                _whole_line(
                    "note",
                    f"target type not given: {unit.name} range limit taken as {limit}, its longest (against {types})",
                    side.table,
                )
            )
        if limit is not None and rng > limit:
            against = f" against {target.type}" if target is not None and unit.max_range_against else ""
            reach = "only at adjacent targets" if limit == 1 else f"only within {limit} hexes"
            out.append(_whole_line("block", f"{unit.name}{against} fires {reach} (range {rng})", side.table))
        if unit.bonus_range is not None and rng <= unit.bonus_range:
            within = "adjacent" if unit.bonus_range == 1 else f"within {unit.bonus_range} hexes"
            out.append(
                _whole_line(
                    "modifier", f"{unit.name} bonus, target {within}: {unit.bonus} (range {rng})", side.table
                )
            )
        return out


_FIRE_MEMO_KEPT = 200_000  # remembered fire verdicts per map (a few MB), then start afresh
_FIRERS_KEPT = 500  # firers (side, type, hex) whose pair rules are remembered, each at most every (type, hex)
_LINES: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}


def _line_hexes(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """For a vector from Hex(0, 0): the hexes a line's verdict reads blockers on (crossed
    between the ends, and grazed), and those it reads screens on (the target, and the
    crossed hexes next to it)."""
    found = _LINES.get((dq, dr))
    if found is None:
        rel = relative_traversal(dq, dr)
        end = Hex(dq, dr)
        inner = rel.crossed[1:-1]
        line = tuple((h.q, h.r) for h in (*inner, *(g.hex for g in rel.grazed)))
        screens = ((dq, dr), *((h.q, h.r) for h in inner if distance(h, end) == 1))
        found = _LINES[(dq, dr)] = (line, screens)
    return found


_line_sets: dict[tuple[int, int], tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]] = {}


def _line_set(dq: int, dr: int) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """``_line_hexes`` as sets, for membership tests."""
    line, screens = _line_hexes(dq, dr)
    found = _line_sets[(dq, dr)] = (frozenset(line), frozenset(screens))
    return found


def policy(state: MapState) -> DogSectorPolicy:
    """The DOG SECTOR line-of-sight policy for ``state``'s map (the registry's entry)."""
    return DogSectorPolicy(state.board)
