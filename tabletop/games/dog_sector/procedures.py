"""DOG SECTOR procedures of the turn that no player decides: phase 1 (landing), phase 2
(swamping), phase 3 (off-map artillery) and phase 7 (end of turn), and the reading of
``rules.yaml`` (turn count, Table 2, landing, swamping, artillery, Table 4, Table 7).

Knows the map's kinds of ground only through ``rules.yaml`` and the map's regions (the
landing row, the sections) and terrain. Every roll is made with the injected dice and
logged with its purpose in words using map labels. Knows nothing of German trench fire
(``german``), American actions (``american``) or the turn machine (``ruleset``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.dice import Dice
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors
from tabletop.yamlfile import DataError, LineDict, read_yaml

from . import hits

DATA = Path(__file__).with_name("rules.yaml")
GAME = "DOG SECTOR"
AMERICAN = "american"
GERMAN = "german"
SWAMP_CHECKED = "swamp-checked"  # per-phase mark: labels of the sea hexes checked
MISSES = "misses"  # phase 3 track
LANDED = "landing-rolled"  # per-turn track: 1 once phase 1's roll is made
TO_LAND = "to-land"  # per-turn track: units still to place (option choose-landing)
#: per-turn tracks "landing-at:LABEL": how many of the units still to place the landing
#: procedure put in hex LABEL (option choose-landing: the player picks units, not hexes)
LANDING_AT = "landing-at:"

T = TypeVar("T")


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class FaceTable(Generic[T]):
    """Results by die face: ``rows`` of (lowest face, highest face, result)."""

    rows: tuple[tuple[int, int, T], ...]

    def __call__(self, face: int) -> T:
        """The result for ``face``; faces past either end read as the end face."""
        face = max(self.rows[0][0], min(face, self.rows[-1][1]))
        for lo, hi, value in self.rows:
            if lo <= face <= hi:
                return value
        raise ValueError(f"no result for face {face}")  # the reader makes this impossible

    def faces(self, value: T) -> str:
        """The faces giving ``value``, in the text's style ("5-6")."""
        spans = [f"{lo}-{hi}" if hi > lo else f"{lo}" for lo, hi, v in self.rows if v == value]
        return ", ".join(spans)


@dataclass(frozen=True)
class Landing:
    dice: int
    limited_dice: int
    box: str
    region_kind: str


@dataclass(frozen=True)
class SwampResult:
    result: str
    swamps: frozenset[str] | None  # unit types swamped; None: every unit in the hex


@dataclass(frozen=True)
class Swamping:
    terrain: frozenset[str]
    not_next_to: frozenset[str]
    results: FaceTable[SwampResult]


@dataclass(frozen=True)
class Artillery:
    sections: tuple[str, ...]
    target_terrain: frozenset[str]
    not_next_to: frozenset[str]
    closest_to: frozenset[str]
    hit: frozenset[int]
    misses: int


@dataclass(frozen=True)
class GermanFire:
    """One line of Table 4."""

    type: str
    results: FaceTable[str]
    add: int  # added to the die within the bonus range
    bonus_results: FaceTable[str] | None  # the table used within the bonus range
    prefer: tuple[str, ...]


@dataclass(frozen=True)
class Rank:
    """One line of Table 7."""

    low: int
    high: int
    rank: str
    words: str


@dataclass(frozen=True)
class RuleTables:
    """Everything ``rules.yaml`` holds, validated."""

    turns: int
    bombardment: Mapping[str, Mapping[str, Any]]
    landing: Landing
    swamping: Swamping
    artillery: Artillery
    german_fire: Mapping[str, GermanFire]
    ranks: tuple[Rank, ...]


RESULTS = ("miss", "pinned", "hit")


class _Reader(Reader):
    """Validation of ``rules.yaml``; DataError names the line."""

    def span(self, key: Any, line: int | None, where: str, least: int = 1) -> tuple[int, int]:
        text = str(key)
        lo, _, hi = text.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise self.error(line, f"{where}: {key!r} is not a face or a range of faces like 1-4") from None
        if not least <= a <= b:
            raise self.error(line, f"{where}: {key!r} is not a number or a range like 1-4 (from {least})")
        return a, b

    def faces(self, node: Any, where: str, line: int | None, read: Any, sides: int = 6) -> FaceTable[Any]:
        node = self.mapping(node, where, line)
        rows = []
        for key, value in node.items():
            lo, hi = self.span(key, node.key_lines[key], where)
            rows.append((lo, hi, read(value, f"{where}.{key}", node.key_lines[key])))
        rows.sort(key=lambda r: r[0])
        expected = 1
        for lo, hi, _ in rows:
            if lo != expected:
                raise self.error(line, f"{where}: the faces must run 1-{sides} without gaps or overlaps")
            expected = hi + 1
        if expected != sides + 1:
            raise self.error(line, f"{where}: the faces must run 1-{sides} without gaps or overlaps")
        return FaceTable(tuple(rows))

    def fire_result(self, value: Any, where: str, line: int | None) -> str:
        if value not in RESULTS:
            raise self.error(line, f"{where} must be one of {', '.join(RESULTS)}")
        return str(value)

    def swamp_result(self, value: Any, where: str, line: int | None) -> SwampResult:
        node = self.mapping(value, where, line, ("result", "swamps"), ("result",))
        swamps = node.get("swamps")
        if swamps is None:
            return SwampResult(self.word_in(node, "result", where, "text"), frozenset())
        if swamps == "all":
            return SwampResult(self.word_in(node, "result", where, "text"), None)
        return SwampResult(
            self.word_in(node, "result", where, "text"), frozenset(self.words_in(node, "swamps", where))
        )

    def german(self, key: str, node: Any, line: int | None) -> GermanFire:
        where = f"german_fire.{key}"
        node = self.mapping(node, where, line, ("results", "bonus", "prefer"), ("results", "prefer"))
        results = self.faces(node["results"], f"{where}.results", node.key_lines["results"], self.fire_result)
        add, bonus_results = 0, None
        if "bonus" in node:
            w = f"{where}.bonus"
            bonus = self.mapping(node["bonus"], w, node.key_lines["bonus"], ("add", "results"))
            if len(bonus) != 1:
                raise self.error(node.key_lines["bonus"], f"{w} needs one of `add:` or `results:`")
            if "add" in bonus:
                add = self.whole_in(bonus, "add", w, 1)
            else:
                bonus_results = self.faces(bonus["results"], f"{w}.results", bonus.key_lines["results"],
                                           self.fire_result)  # fmt: skip
        return GermanFire(key, results, add, bonus_results, self.words_in(node, "prefer", where))

    def tables(self) -> RuleTables:
        keys = ("turns", "bombardment", "landing", "swamping", "artillery", "german_fire", "victory")
        top = self.mapping(self.data, "the file", 1, keys, keys)
        lines = top.key_lines
        bombardment = self.mapping(top["bombardment"], "bombardment", lines["bombardment"])
        landing = self.mapping(top["landing"], "landing", lines["landing"],
                               ("dice", "limited_dice", "box", "region_kind"),
                               ("dice", "limited_dice", "box", "region_kind"))  # fmt: skip
        swamp = self.mapping(top["swamping"], "swamping", lines["swamping"],
                             ("terrain", "not_next_to", "results"), ("terrain", "not_next_to", "results"))  # fmt: skip
        art_keys = ("sections", "target_terrain", "not_next_to", "closest_to", "hit", "misses")
        art = self.mapping(top["artillery"], "artillery", lines["artillery"], art_keys, art_keys)
        hit_lo, hit_hi = self.span(art["hit"], art.key_lines["hit"], "artillery.hit")
        fire = self.mapping(top["german_fire"], "german_fire", lines["german_fire"])
        victory = self.mapping(top["victory"], "victory", lines["victory"], ("ranks",), ("ranks",))
        ranks = []
        for i, (item, line) in enumerate(zip(victory["ranks"], victory["ranks"].item_lines, strict=True)):
            w = f"victory.ranks[{i}]"
            item = self.mapping(item, w, line, ("sections", "rank", "words"), ("sections", "rank", "words"))
            lo, hi = self.span(item["sections"], line, f"{w}.sections", least=0)
            ranks.append(Rank(lo, hi, self.word_in(item, "rank", w), self.word_in(item, "words", w)))
        sections = self.words_in(art, "sections", "artillery")
        expected = 0
        for r in ranks:
            if r.low != expected:
                raise self.error(
                    victory.line, "victory.ranks must cover 0 to the number of sections in order"
                )
            expected = r.high + 1
        if expected != len(sections) + 1:
            raise self.error(victory.line, "victory.ranks must cover 0 to the number of sections in order")
        return RuleTables(
            turns=self.whole_in(top, "turns", "the file", 1),
            bombardment=MappingProxyType({k: dict(v) for k, v in bombardment.items()}),
            landing=Landing(
                self.whole_in(landing, "dice", "landing", 1),
                self.whole_in(landing, "limited_dice", "landing", 1),
                self.word_in(landing, "box", "landing"),
                self.word_in(landing, "region_kind", "landing"),
            ),
            swamping=Swamping(
                frozenset(self.words_in(swamp, "terrain", "swamping")),
                frozenset(self.words_in(swamp, "not_next_to", "swamping")),
                self.faces(
                    swamp["results"], "swamping.results", swamp.key_lines["results"], self.swamp_result
                ),
            ),
            artillery=Artillery(
                sections,
                frozenset(self.words_in(art, "target_terrain", "artillery")),
                frozenset(self.words_in(art, "not_next_to", "artillery")),
                frozenset(self.words_in(art, "closest_to", "artillery")),
                frozenset(range(hit_lo, hit_hi + 1)),
                self.whole_in(art, "misses", "artillery", 1),
            ),
            german_fire=MappingProxyType({k: self.german(k, v, fire.key_lines[k]) for k, v in fire.items()}),
            ranks=tuple(ranks),
        )


def read_tables(path: Path) -> RuleTables:
    """Read and validate a ``rules.yaml``; DataError names the line of any problem."""
    data = read_yaml(path)
    if not isinstance(data, LineDict):
        raise DataError(path, 1, "the file must be a mapping")
    return _Reader(path, data, line=1).tables()


@cache
def tables() -> RuleTables:
    """The shipped ``rules.yaml`` beside this module, read once."""
    return read_tables(DATA)


# ------------------------------------------------------------------------ map helpers


_next_to: dict[int, tuple[Map, dict[tuple[Hex, frozenset[str]], bool]]] = {}


def next_to(board: Map, h: Hex, terrain: frozenset[str]) -> bool:
    """Whether a neighbour of ``h`` on the map has one of ``terrain``; remembered per
    map (phases 2 and 3 ask it of every American unit's hex, turn after turn)."""
    cached = _next_to.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _next_to[id(board)] = (board, {})
    found = cached[1].get((h, terrain))
    if found is None:
        found = cached[1][(h, terrain)] = any(
            board.grid.contains(n) and board.terrain[n] in terrain for n in neighbors(h)
        )
    return found


def landing_hexes(board: Map) -> list[Hex]:
    """The landing-row hexes, in label order."""
    kind = tables().landing.region_kind
    hexes = {h for r in board.regions.values() if r.kind == kind for h in r.hexes}
    return sorted(hexes, key=board.label)


def section_hexes(board: Map, key: str) -> frozenset[Hex]:
    """The hexes of section region ``key``; ValueError if the map has no such region."""
    region = board.regions.get(key)
    if region is None:
        raise ValueError(f"map {board.name!r} has no section region {key!r} (rules.yaml artillery.sections)")
    return frozenset(region.hexes)


def west_first(board: Map, h: Hex) -> tuple[int, int]:
    """A sort key: westernmost (lowest column) first, then northernmost (lowest row)."""
    col, row = board.grid.offset_of(h)
    return col, row


_americans: list[Any] = [None, -1, ()]  # [map state, version, the American units]


def american_units(state: GameState, h: Hex | None = None) -> list[Any]:
    """The American units on the map (in hex ``h`` if given). The whole list is
    remembered until the map changes (pieces are frozen: any change is a new version)."""
    if h is not None:
        return [p for p in state.map.units_at(h) if p.side == AMERICAN]
    memo = _americans
    if memo[0] is not state.map or memo[1] != state.map.version:
        found = tuple(p for p in state.map.pieces() if p.kind == "unit" and p.side == AMERICAN)
        memo[:] = [state.map, state.map.version, found]
    return list(memo[2])


_count_memo: list[Any] = [None, -1, {}, 0]  # [map state, version, {hex: American units}, their total]


def american_count(state: GameState) -> int:
    """How many American units are on the map: ``len(american_units(state))``, kept
    across map versions by counting again only the hexes changed since
    (``MapState.changed_since``; the game's outcome asks after every action)."""
    memo, board_state = _count_memo, state.map
    if memo[0] is board_state and memo[1] == board_state.version:
        return int(memo[3])
    changed = board_state.changed_since(memo[1]) if memo[0] is board_state else None
    if changed is None:
        counts: dict[Hex, int] = {}
        for p in board_state.pieces():
            if p.kind == "unit" and p.side == AMERICAN:
                counts[p.hex] = counts.get(p.hex, 0) + 1
        memo[:] = [board_state, board_state.version, counts, sum(counts.values())]
        return int(memo[3])
    counts, total = memo[2], memo[3]
    for h in changed:
        n = sum(1 for p in board_state.units_at(h) if p.side == AMERICAN)
        total += n - counts.get(h, 0)
        if n:
            counts[h] = n
        else:
            counts.pop(h, None)
    memo[1], memo[3] = board_state.version, total
    return int(total)


# ------------------------------------------------------------------- phase 1: landing


def landing_count_dice(state: GameState) -> int:
    """How many D6 phase 1 rolls: 3, or 2 with the option `limited-reinforcements`."""
    t = tables().landing
    return t.limited_dice if state.options.get("limited-reinforcements") else t.dice


def land(state: GameState, dice: Dice) -> list[str]:
    """Phase 1: roll 3D6 (2D6) for the number of units landing; unless the option
    `choose-landing` is on, draw that many at random from the landing box and put each
    on a landing-row hex chosen at random. Returns what happened in words."""
    t = tables().landing
    n_dice = landing_count_dice(state)
    waiting = len(state.box(t.box))
    count = dice.total(n_dice, 6, f"phase 1: {n_dice}D6 American units land ({waiting} waiting)")
    landing = min(count, waiting)
    dice.rule(f"{landing} units land" + (f" (only {waiting} left)" if landing < count else ""))
    state.tracks[LANDED] = 1
    hexes = landing_hexes(state.board)
    if not hexes:
        raise ValueError(f"map {state.board.name!r} has no {t.region_kind} region to land on")
    if state.options.get("choose-landing"):
        return _landing_places(state, dice, hexes, landing)
    lines = [f"phase 1: {landing} American units land"]
    for i in range(landing):
        pool = state.box(t.box)
        unit = dice.pick(list(pool), f"phase 1: draw unit {i + 1} of {landing} from {len(pool)} waiting")
        if len(pool) > 1:
            dice.rule(f"{unit.type} {unit.id}")
        to = dice.pick(hexes, f"phase 1: landing-row hex for {unit.type} {unit.id}")
        dice.rule(f"lands at {state.board.label(to)}")
        state.from_box(t.box, unit.id, to)
        lines.append(f"{unit.type} {unit.id} lands at {state.board.label(to)}")
    return lines


def _landing_places(state: GameState, dice: Dice, hexes: list[Hex], landing: int) -> list[str]:
    """Phase 1 with the optional rule ("Place available units of your choice in the
    above locations"): the landing procedure still gives the hexes, one roll a unit as
    without the option; the player then chooses which waiting unit lands in each."""
    state.tracks[TO_LAND] = landing
    labels: list[str] = []
    for i in range(landing):
        to = dice.pick(hexes, f"phase 1: landing-row hex {i + 1} of {landing}")
        label = state.board.label(to)
        dice.rule(f"a unit lands at {label}")
        state.tracks[LANDING_AT + label] = state.track(LANDING_AT + label) + 1
        labels.append(label)
    return [
        f"phase 1: {landing} American units to land, at {', '.join(sorted(labels))}; the player "
        "chooses which units (option choose-landing)"
    ]


def landing_places(state: GameState) -> dict[str, int]:
    """Option choose-landing: hex label -> units still to land there this turn (the
    hexes phase 1's landing procedure gave)."""
    return {
        name[len(LANDING_AT) :]: n
        for name, n in sorted(state.tracks.items())
        if name.startswith(LANDING_AT) and n > 0
    }


def landing_refusal(state: GameState, unit_id: str, to: str) -> str | None:
    """Why the player may not land ``unit_id`` at label ``to`` now (option
    `choose-landing`), or None."""
    t = tables().landing
    if not state.options.get("choose-landing"):
        return "units land at random (phase 1); placing them by hand needs the option choose-landing"
    if not state.track(LANDED):
        return "roll for the number of units landing first (phase 1: land)"
    if state.track(TO_LAND) <= 0:
        return "every unit rolled for this turn has landed (phase 1)"
    if not any(p.id == unit_id for p in state.box(t.box)):
        return f"{unit_id} is not waiting in the {t.box} box"
    try:
        h = state.board.hex_of(str(to))
    except Exception:
        return f"{to!r} is not a hex of this map"
    if h not in landing_hexes(state.board):
        return f"{to} is not a landing-row hex (phase 1 lands units on the landing row)"
    places = landing_places(state)
    if state.board.label(h) not in places:
        return (
            f"the landing procedure put no unit at {to} this turn: with choose-landing you choose the "
            f"units, the hexes are rolled (phase 1; still to fill: {', '.join(places)})"
        )
    return None


def land_unit(state: GameState, unit_id: str, to: str) -> list[str]:
    """Phase 1 with the option `choose-landing`: put one waiting unit in ``to`` (a label),
    one of the hexes the landing roll gave; ValueError with the reason if not allowed."""
    why = landing_refusal(state, unit_id, to)
    if why is not None:
        raise ValueError(why)
    t = tables().landing
    h = state.board.hex_of(str(to))
    piece = state.from_box(t.box, unit_id, h)
    state.tracks[TO_LAND] = state.track(TO_LAND) - 1
    state.tracks[LANDING_AT + state.board.label(h)] -= 1
    return [f"{piece.type} {piece.id} lands at {to} (player's choice)"]


# ------------------------------------------------------------------ phase 2: swamping


def swamp_hexes(state: GameState) -> list[Hex]:
    """Phase 2: the sea hexes holding an American unit and not adjacent to a beach hex,
    in label order. Remembered until the map changes (phase 2's proposal, refusal and
    the next proposal ask alike; issue 19 item 1)."""
    memo = _swamp_memo
    if memo[0] is not state.map or memo[1] != state.map.version:
        t = tables().swamping
        board = state.board
        out = {
            p.hex
            for p in american_units(state)
            if board.terrain[p.hex] in t.terrain and not next_to(board, p.hex, t.not_next_to)
        }
        memo[:] = [state.map, state.map.version, sorted(out, key=board.label)]
    return list(memo[2])


_swamp_memo: list[Any] = [None, -1, []]  # [map state, version, the swamp hexes]


def swamp_check(state: GameState, hex: Hex, dice: Dice) -> list[str]:
    """Phase 2: roll 1D6 for the units in ``hex``: 1-4 all good, 5 tanks and dozers
    swamped, 6 every unit swamped (eliminated). Marks the hex checked."""
    t = tables().swamping
    label = state.board.label(hex)
    units = american_units(state, hex)
    names = ", ".join(f"{p.type} {p.id}" for p in units)
    face = dice.d6(f"phase 2: swamping check at {label} ({names})")
    result = t.results(face)
    dice.rule(result.result)
    state.mark(SWAMP_CHECKED, label)
    lost = [p for p in units if result.swamps is None or p.type in result.swamps]
    none = " (none in the hex)" if result.swamps and not lost else ""
    lines = [f"{label}: {result.result}{none}"]
    for p in lost:
        lines += hits.eliminate(state, p.id, f"swamped at {label}, phase 2")
    return lines


# ----------------------------------------------------------------- phase 3: artillery


_trench_distances: dict[int, tuple[Map, dict[Hex, int]]] = {}


def trench_distance(board: Map, h: Hex) -> int:
    """Hexes from ``h`` to the nearest trench hex of the map (rules.yaml closest_to),
    remembered per map (phase 3 asks it for every candidate hex of every roll)."""
    cached = _trench_distances.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _trench_distances[id(board)] = (board, {})
    found = cached[1].get(h)
    if found is None:
        kinds = tables().artillery.closest_to
        found = cached[1][h] = min(distance(h, t) for t, k in board.terrain.items() if k in kinds)
    return found


#: the readings of phase 3 (scenario options; rules.yaml ``artillery`` says which is the text's)
TARGET_READINGS = ("text", "nearest-qualifying")
ROLL_READINGS = ("hit-die", "column")


def can_be_hit(board: Map, h: Hex) -> bool:
    """Phase 3's test: a sea or beach hex not adjacent to bluffs (rules.yaml)."""
    t = tables().artillery
    return board.terrain[h] in t.target_terrain and not next_to(board, h, t.not_next_to)


def _occupied(state: GameState, hexes: frozenset[Hex] | None) -> list[Hex]:
    """American-occupied hexes (within ``hexes`` if given), closest to the trenches
    first, ties west first."""
    board = state.board
    out = {p.hex for p in american_units(state) if hexes is None or p.hex in hexes}
    return sorted(out, key=lambda h: (trench_distance(board, h), *west_first(board, h)))


def artillery_candidates(state: GameState, section: str | None = None) -> list[Hex]:
    """Phase 3: American-occupied sea or beach hexes not adjacent to bluffs (in
    ``section`` if given), closest to the trenches first, ties west first."""
    inside = section_hexes(state.board, section) if section is not None else None
    return [h for h in _occupied(state, inside) if can_be_hit(state.board, h)]


def artillery_target(state: GameState, hexes: frozenset[Hex]) -> tuple[Hex | None, str]:
    """Phase 3: the hex of ``hexes`` (a section, or one of its columns) the guns hit,
    and why, by the option ``artillery-target``: the text's reading, the American-
    occupied hex closest to the trenches, hit only if it passes the test (else a miss);
    or the project's, the closest hex that passes it. (None, why) for a miss."""
    board = state.board
    if state.options.get("artillery-target", TARGET_READINGS[0]) == "nearest-qualifying":
        found = [h for h in _occupied(state, hexes) if can_be_hit(board, h)]
        if not found:
            return None, "no American-occupied sea or beach hex away from the bluffs, a miss"
        return found[0], f"{board.label(found[0])} is the hex closest to the trenches that can be hit"
    occupied = _occupied(state, hexes)
    if not occupied:
        return None, "no American-occupied hex, a miss"
    closest = occupied[0]
    if not can_be_hit(board, closest):
        kind = board.terrain[closest]
        return None, f"the closest American-occupied hex {board.label(closest)} ({kind}) cannot be hit, a miss"
    return closest, f"{board.label(closest)} is the hex closest to the trenches"


def _column(board: Map, section: str, face: int) -> frozenset[Hex] | None:
    """The hexes of the ``face``-th column of ``section`` from the west (None past its
    last column: a miss, the project's reading)."""
    hexes = section_hexes(board, section)
    columns = sorted({board.grid.offset_of(h)[0] for h in hexes})
    if face > len(columns):
        return None
    return frozenset(h for h in hexes if board.grid.offset_of(h)[0] == columns[face - 1])


def bombard(state: GameState, dice: Dice) -> list[str]:
    """Phase 3: one bombardment: 1D6 for the section, then (option ``artillery-roll``)
    either the target hex of the section and a second 1D6 that hits on rules.yaml's
    ``hit`` (6), or 1D6 for a hex column of the section whose target hex is hit (no
    target there: a miss). A hit hits every unit in the hex once; a miss adds one to the
    `misses` track."""
    t = tables().artillery
    board = state.board
    face = dice.roll(1, len(t.sections), "phase 3: German artillery, bombarded section")[0]
    section = t.sections[face - 1]
    by_column = state.options.get("artillery-roll", ROLL_READINGS[0]) == "column"
    area: frozenset[Hex] | None = section_hexes(board, section)
    where = section
    if by_column:
        column = dice.d6(f"phase 3: German artillery, hex column of {section}")
        area = _column(board, section, column)
        where = f"{section} column {column}"
    target, why = artillery_target(state, area) if area is not None else (None, "no such column, a miss")
    dice.rule(f"{where}: {why}")
    if target is None:
        state.tracks[MISSES] = state.track(MISSES) + 1
        return [f"artillery on {where}: no target, a miss ({state.track(MISSES)} of {t.misses})"]
    label = board.label(target)
    units = american_units(state, target)
    if not by_column:  # the column roll is the hit: no second die
        if dice.d6(f"phase 3: artillery at {label}, hit on {_span(t.hit)}") not in t.hit:
            dice.rule("miss")
            state.tracks[MISSES] = state.track(MISSES) + 1
            return [f"artillery on {section} at {label}: a miss ({state.track(MISSES)} of {t.misses})"]
        dice.rule("hit")
    lines = [f"artillery on {section} at {label}: a hit on {len(units)} unit{'s' if len(units) != 1 else ''}"]
    for p in units:
        lines += hits.hit(state, p.id, f"artillery at {label}, phase 3")
    return lines


def artillery_done(state: GameState) -> bool:
    """Phase 3 is over: 3 misses, or no section with a hex the guns could hit (under
    either reading of the target: the text's needs the closest hex to pass the test).
    Remembered for the map version, the misses and the reading (phase 3's proposal and
    refusal ask alike; issue 19 item 1)."""
    if state.track(MISSES) >= tables().artillery.misses:
        return True
    key = (state.map, state.map.version, state.track(MISSES), state.options.get("artillery-target"))
    memo = _done_memo
    if memo[0] is not key[0] or memo[1:4] != list(key[1:]):
        board = state.board
        done = all(
            artillery_target(state, section_hexes(board, s))[0] is None for s in tables().artillery.sections
        )
        memo[:] = [*key, done]
    return bool(memo[4])


_done_memo: list[Any] = [None, -1, -1, None, False]  # [map state, version, misses, reading, done]


def _span(faces: frozenset[int]) -> str:
    lo, hi = min(faces), max(faces)
    return f"{lo}-{hi}" if hi > lo else str(lo)


# ---------------------------------------------------------------- phase 7: end of turn


def end_turn(state: GameState) -> list[str]:
    """Phase 7: remove the pinned down status from every unit on the map."""
    word = hits.tables().pinned_status
    freed = []
    for p in state.map.pieces():
        if p.has(word):
            state.map.update(replace(p, status=p.status - {word}))
            freed.append(p.id)
    if not freed:
        return ["phase 7: no pinned down markers to remove"]
    return [f"phase 7: pinned down markers removed from {', '.join(freed)}"]
