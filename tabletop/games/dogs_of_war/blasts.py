"""Dogs of War blasts: grenade, mine, C4 and claymore areas, full-auto corridors and
grenade deviation.

The figures are data in ``blasts.yaml`` beside this module (what the rule text gives,
and the project's own defaults where it is silent, marked there); the areas come from
``tabletop.engine.areas``. One hex is one inch, and blast radii count hexes.

An area maps each hex to its band; a blast's band ``i`` is its ring ``i`` (``Blast.ring``),
which says whether a model there is killed outright or how many wound rolls it takes
at which DPR. ``blast_effects`` pairs the units in an area with their rings.

>>> from tabletop.hexgrid import Hex
>>> frag = default_table().blast("frag_grenade")
>>> area = blast_area(frag, Hex(0, 0))
>>> frag.ring(area[Hex(0, 2)]).dpr
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.areas import (
    INSIDE,
    Area,
    Dice,
    Inside,
    banded,
    blast_rings,
    cone,
    corridor,
    deviate,
    roll,
    units_inside,
)
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, Layout, distance
from tabletop.yamlfile import DataError, LineList, read_yaml

DATA_FILE = Path(__file__).with_name("blasts.yaml")

RULE_GRENADES = "Dogs of War: Grenades"
RULE_KILL_ZONE = "Dogs of War: Kill Zone"
RULE_C4 = "Dogs of War: C4"
RULE_CLAYMORE = "Dogs of War: Claymore"
RULE_FULL_AUTO = 'Dogs of War: Roll "To Hit" Dice'

Rounding = Literal["up", "down"]

#: A scripted die that keeps showing faces to be rolled again gives up after this many.
MAX_REROLLS = 100


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Ring:
    """One ring of a blast, out to ``radius`` hexes: ``killed`` outright, or
    ``wound_rolls`` wound rolls at ``dpr``."""

    radius: int
    killed: bool = False
    wound_rolls: int = 0
    dpr: int | None = None


@dataclass(frozen=True)
class Blast:
    """A blast template: its rings from the centre out."""

    key: str
    rings: tuple[Ring, ...]

    @property
    def radii(self) -> tuple[int, ...]:
        """Each ring's outer radius, from the centre out."""
        return tuple(r.radius for r in self.rings)

    def ring(self, band: int) -> Ring:
        """The ring of band ``band`` of this blast's area."""
        if not 0 <= band < len(self.rings):
            raise ValueError(f"{self.key} has bands 0-{len(self.rings) - 1}, not {band}")
        return self.rings[band]


@dataclass(frozen=True)
class C4Table:
    """The C4 chart: quarter pounds -> (kill zone, multiple wounds, blast radius)."""

    chart: Mapping[int, tuple[int, int, int]]
    kill_growth_per_quarter: int
    multiple_wound_rolls: int
    multiple_dpr: int
    single_dpr: int


@dataclass(frozen=True)
class ClaymoreTable:
    """The claymore's cone: kill zone and wound zone reach, wire length, the fan's
    half-angle (degrees) and what the wound zone does."""

    kill: int
    wound: int
    wire: int
    half_angle: float
    inside: Inside
    wound_rolls: int
    dpr: int

    @property
    def blast(self) -> Blast:
        """The claymore's rings: band 0 kills, band 1 wounds."""
        return Blast(
            "claymore",
            (Ring(self.kill, killed=True), Ring(self.wound, wound_rolls=self.wound_rolls, dpr=self.dpr)),
        )


@dataclass(frozen=True)
class FullAutoTable:
    """The corridor of full-automatic fire: its width in hexes and what counts as in it."""

    width: float
    inside: Inside


@dataclass(frozen=True)
class DeviationTable:
    """How a missed grenade deviates: a direction die read through ``directions``
    (faces in ``reroll`` are rolled again) and a distance die, halved when the target
    was nearer than ``halved_under``."""

    direction_die: int
    distance_die: int
    halved_under: int
    directions: Mapping[int, int]
    reroll: frozenset[int]
    halve_rounding: Rounding


@dataclass(frozen=True)
class BlastTable:
    """Everything ``blasts.yaml`` holds, checked."""

    blasts: Mapping[str, Blast]
    c4: C4Table
    claymore: ClaymoreTable
    full_auto: FullAutoTable
    deviation: DeviationTable

    def blast(self, key: str) -> Blast:
        """The named blast template; ValueError naming the known ones."""
        try:
            return self.blasts[key]
        except KeyError:
            raise ValueError(f"no blast {key!r}; known: {', '.join(sorted(self.blasts))}") from None


class _Reader(Reader):
    """The reader of ``blasts.yaml``: a missing key is named under its mapping, and
    lengths are positive numbers."""

    def get(self, key: object) -> Any:
        """The value at ``key``, which must be there."""
        if key not in self.data:
            where = self.where or "the file"
            raise DataError(self.path, getattr(self.data, "line", None), f"{where}: {key} is missing")
        return self.data[key]

    def positive(self, key: str) -> float:
        """A number > 0."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise self.fail(key, f"must be a number > 0, got {value!r}")
        return float(value)


def _rings(path: Path, spec: _Reader) -> tuple[Ring, ...]:
    items = spec.get("rings")
    if not isinstance(items, list) or not items:
        raise spec.fail("rings", "must be a list of rings, nearest first")
    rings: list[Ring] = []
    for i, item in enumerate(items):
        line = items.item_lines[i] if isinstance(items, LineList) else None
        ring = _Reader(path, item, f"{spec.where}.rings[{i}]")
        ring.only("dpr", "killed", "radius", "wound_rolls")
        radius = ring.whole("radius")
        if rings and radius <= rings[-1].radius:
            raise DataError(path, line, f"{ring.where}: radius {radius} must be beyond the ring before")
        killed = ring.get("killed") if "killed" in ring.data else False
        if not isinstance(killed, bool):
            raise ring.fail("killed", f"must be true or false, got {killed!r}")
        if killed:
            if "wound_rolls" in ring.data or "dpr" in ring.data:
                raise DataError(path, line, f"{ring.where}: a ring that kills has no wound_rolls or dpr")
            rings.append(Ring(radius, killed=True))
        else:
            rings.append(
                Ring(radius, wound_rolls=ring.whole("wound_rolls", minimum=1), dpr=ring.whole("dpr"))
            )
    return tuple(rings)


def load_table(path: Path | str = DATA_FILE) -> BlastTable:
    """Read and check a Dogs of War blast table; DataError names the file and line."""
    path = Path(path)
    top = _Reader(path, read_yaml(path))
    top.only("blasts", "c4", "claymore", "full_auto", "grenade_deviation")

    spec = _Reader(path, top.get("blasts"), "blasts")
    blasts: dict[str, Blast] = {}
    aliases: dict[str, str] = {}
    for key in spec.data:
        one = spec.sub(str(key))
        one.only("rings", "same_as")
        if ("rings" in one.data) == ("same_as" in one.data):
            raise spec.fail(key, "give either rings or same_as")
        if "rings" in one.data:
            blasts[str(key)] = Blast(str(key), _rings(path, one))
        else:
            aliases[str(key)] = str(one.get("same_as"))
    for key, other in aliases.items():
        if other not in blasts:
            raise spec.fail(key, f"same_as {other!r} is not a blast with rings")
        blasts[key] = Blast(key, blasts[other].rings)

    c4 = top.sub("c4")
    c4.only("chart", "kill_growth_per_quarter", "multiple_dpr", "multiple_wound_rolls", "single_dpr")
    chart_spec = c4.sub("chart")
    chart: dict[int, tuple[int, int, int]] = {}
    for n, quarters in enumerate(chart_spec.data, start=1):
        if quarters != n:
            raise chart_spec.fail(
                quarters, f"charges must be 1, 2, 3 ... quarter pounds in order; expected {n}"
            )
        row = chart_spec.sub(quarters)
        row.only("blast", "kill", "multiple")
        kill, multiple, blast = row.whole("kill"), row.whole("multiple"), row.whole("blast", minimum=1)
        if not kill <= multiple <= blast:
            raise chart_spec.fail(quarters, "needs kill <= multiple <= blast")
        chart[n] = (kill, multiple, blast)
    if not chart:
        raise c4.fail("chart", "needs at least one charge")

    clay = top.sub("claymore")
    clay.only("dpr", "half_angle", "inside", "kill", "wire", "wound", "wound_rolls")
    half_angle = clay.positive("half_angle")
    if half_angle >= 180:
        raise clay.fail("half_angle", f"must be below 180 degrees, got {half_angle}")
    kill = clay.whole("kill")
    wound = clay.whole("wound")
    if wound <= kill:
        raise clay.fail("wound", f"must reach beyond the kill zone ({kill}), got {wound}")

    auto = top.sub("full_auto")
    auto.only("inside", "width")

    dev = top.sub("grenade_deviation")
    dev.only("direction_die", "directions", "distance_die", "halve_rounding", "halved_under", "reroll")
    die = dev.whole("direction_die", minimum=1)
    faces = dev.sub("directions")
    directions: dict[int, int] = {}
    for face in faces.data:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= die:
            raise faces.fail(face, f"must be a face 1-{die} of the direction die")
        d = faces.whole(face)
        if d > 5:
            raise faces.fail(face, f"must name a hexside direction 0-5, got {d}")
        directions[face] = d
    reroll = dev.get("reroll")
    if not isinstance(reroll, list) or not all(
        isinstance(f, int) and not isinstance(f, bool) for f in reroll
    ):
        raise dev.fail("reroll", f"must be a list of faces, got {reroll!r}")
    if set(directions) & set(reroll) or set(directions) | set(reroll) != set(range(1, die + 1)):
        raise dev.fail("reroll", f"each face 1-{die} must be in exactly one of directions and reroll")
    if not directions:
        raise dev.fail("directions", "at least one face must give a direction")

    return BlastTable(
        blasts=blasts,
        c4=C4Table(
            chart=chart,
            kill_growth_per_quarter=c4.whole("kill_growth_per_quarter"),
            multiple_wound_rolls=c4.whole("multiple_wound_rolls", minimum=1),
            multiple_dpr=c4.whole("multiple_dpr"),
            single_dpr=c4.whole("single_dpr"),
        ),
        claymore=ClaymoreTable(
            kill=kill,
            wound=wound,
            wire=clay.whole("wire"),
            half_angle=half_angle,
            inside=clay.choice("inside", INSIDE),  # type: ignore[arg-type]
            wound_rolls=clay.whole("wound_rolls", minimum=1),
            dpr=clay.whole("dpr"),
        ),
        full_auto=FullAutoTable(
            width=auto.positive("width"),
            inside=auto.choice("inside", INSIDE),  # type: ignore[arg-type]
        ),
        deviation=DeviationTable(
            direction_die=die,
            distance_die=dev.whole("distance_die", minimum=1),
            halved_under=dev.whole("halved_under"),
            directions=directions,
            reroll=frozenset(reroll),
            halve_rounding=dev.choice("halve_rounding", ("up", "down")),  # type: ignore[arg-type]
        ),
    )


@cache
def default_table() -> BlastTable:
    """The shipped ``blasts.yaml``, read once."""
    return load_table(DATA_FILE)


# --- areas ----------------------------------------------------------------------------


def blast_area(
    blast: Blast | str, center: Hex, *, board: Map | None = None, table: BlastTable | None = None
) -> Area:
    """The hexes a blast at ``center`` covers, each with its band (``blast.ring(band)``).

    ``blast`` is a template or the key of one in the table (``"frag_grenade"``).
    """
    if isinstance(blast, str):
        blast = (table or default_table()).blast(blast)
    return blast_rings(center, blast.radii, board=board)


def c4_blast(quarter_pounds: int, table: BlastTable | None = None) -> Blast:
    """The blast of a C4 charge of ``quarter_pounds`` quarter pounds: kill zone, then
    multiple wounds, then single wounds out to the blast radius (rings that the kill
    zone has swallowed are left out).

    >>> c4_blast(2).radii
    (3, 4, 6)
    """
    if isinstance(quarter_pounds, bool) or not isinstance(quarter_pounds, int) or quarter_pounds < 1:
        raise ValueError(f"a C4 charge is a whole number of quarter pounds >= 1, got {quarter_pounds!r}")
    c4 = (table or default_table()).c4
    top = max(c4.chart)
    kill, multiple, radius = c4.chart[min(quarter_pounds, top)]
    if quarter_pounds > top:
        kill += c4.kill_growth_per_quarter * (quarter_pounds - top)
    kill = min(kill, radius)
    rings = [Ring(kill, killed=True)]
    if multiple > kill:
        rings.append(Ring(multiple, wound_rolls=c4.multiple_wound_rolls, dpr=c4.multiple_dpr))
    if radius > max(kill, multiple):
        rings.append(Ring(radius, wound_rolls=1, dpr=c4.single_dpr))
    return Blast(f"c4 ({quarter_pounds} quarter pounds)", tuple(rings))


def c4_area(
    center: Hex, quarter_pounds: int, *, board: Map | None = None, table: BlastTable | None = None
) -> Area:
    """The hexes a C4 charge at ``center`` covers, each with its band of ``c4_blast``."""
    return blast_area(c4_blast(quarter_pounds, table), center, board=board)


def claymore_area(
    mine: Hex,
    facing: int,
    *,
    layout: Layout | None = None,
    board: Map | None = None,
    table: BlastTable | None = None,
) -> Area:
    """The claymore's cone from ``mine`` toward hexside direction ``facing``: band 0 is
    the kill zone, band 1 the wound zone (``ClaymoreTable.blast``)."""
    clay = (table or default_table()).claymore
    fan = cone(mine, facing, clay.half_angle, clay.wound, layout, board=board, inside=clay.inside)
    return banded(fan, clay.blast.radii)


def can_trigger_claymore(firer: Hex, mine: Hex, table: BlastTable | None = None) -> bool:
    """Whether the clacker's wire reaches from ``firer`` to ``mine``."""
    return distance(firer, mine) <= (table or default_table()).claymore.wire


def full_auto_area(
    firer: Hex,
    target: Hex,
    weapon_range: int,
    *,
    layout: Layout | None = None,
    board: Map | None = None,
    table: BlastTable | None = None,
) -> Area:
    """The corridor of full-automatic fire from ``firer`` at ``target``, out to the
    weapon's range, each hex with its distance from the firer. Models in it may be hit
    (whether something in front covers them is line of sight's business)."""
    reach = distance(firer, target)
    if isinstance(weapon_range, bool) or not isinstance(weapon_range, int) or weapon_range < reach:
        raise ValueError(f"the target is {reach} inches away, beyond the weapon's range {weapon_range!r}")
    auto = (table or default_table()).full_auto
    return corridor(
        firer, target, auto.width, weapon_range - reach, layout=layout, board=board, inside=auto.inside
    )


def blast_effects(state: MapState, area: Mapping[Hex, int], blast: Blast) -> list[tuple[Piece, Ring]]:
    """Each unit in a blast's ``area`` with the ring it is caught in, nearest first."""
    return [(p, blast.ring(area[p.hex])) for p in units_inside(state, area)]


# --- deviation ------------------------------------------------------------------------


@dataclass(frozen=True)
class Deviation:
    """Where a missed grenade went: every direction roll made (the last one counted),
    the hexside direction, the distance roll, the distance in hexes and the landing hex
    (which may be off the map)."""

    direction_rolls: tuple[int, ...]
    direction: int
    distance_roll: int
    distance: int
    lands: Hex


def grenade_deviation(thrower: Hex, target: Hex, dice: Dice, table: BlastTable | None = None) -> Deviation:
    """Roll where a grenade that missed ``target`` lands: the direction die (faces to be
    rolled again are), then the distance die, halved if the target was near.

    >>> import random
    >>> a = grenade_deviation(Hex(0, 0), Hex(12, 0), random.Random(4))
    >>> a == grenade_deviation(Hex(0, 0), Hex(12, 0), random.Random(4))
    True
    """
    dev = (table or default_table()).deviation
    rolls: list[int] = []
    while True:
        face = roll(dice, dev.direction_die)
        rolls.append(face)
        if face in dev.directions:
            break
        if len(rolls) >= MAX_REROLLS:
            raise ValueError(
                f"the direction die showed only faces to roll again {MAX_REROLLS} times: {rolls[:10]}..."
            )
    direction = dev.directions[rolls[-1]]
    distance_roll = roll(dice, dev.distance_die)
    moved = distance_roll
    if distance(thrower, target) < dev.halved_under:
        moved = (distance_roll + 1) // 2 if dev.halve_rounding == "up" else distance_roll // 2
    return Deviation(tuple(rolls), direction, distance_roll, moved, deviate(target, direction, moved))
