"""Dogs of War line of sight: facing arcs, models in the way, smoke, darkness, cover.

Reads the engine's exact centre-to-centre traversal (``tabletop.engine.los``) with the
figures in ``los.yaml``. One hex is one inch and one level of height is one inch.

Heights. The sight line runs from the top of the looking figure to the middle of the
target figure (a standing figure is ``standing_height`` tall, a lying one
``lying_height``), between the two ends' levels. On the shipped map a building hex's
elevation is its roof, so a piece's level there counts floors up from the ground under
the building (elevation minus the building's ``levels``); a query that gives its levels
explicitly is taken as given. ``end_level`` gives the engine the same reading, so the
levels a result reports are the ones this policy judged by.

What each thing does to a line (the rule headings are the rule text's):

- Facing (Model Placement/Facing): a target whose centre lies behind the line through
  the viewer's centre square to its facing is out of sight; exactly on that line it is
  seen (``facing.edge_seen``). No viewer, or a viewer without a facing: no arc.
- Models (Moving and Shooting Through Models): a unit between the ends blocks, unless
  the firer stands one level or more above it, or the firer is standing and it lies
  (prone, dead, unconscious) no higher than the firer, or the sight line passes above
  its top all through its hex (shooting up at a high target).
- Buildings and bunkers (Obstacle Effects): a hex between blocks when the sight line
  passes below its roof anywhere in it. Any hex whose ground stands above the line
  blocks as higher ground.
- Trees, rubble, wreckage: cover where the line passes below their top; trees block
  after ``see_through`` hexes.
- Cover (Cover Modifier): walls and hedges crossed (or run along), cover terrain between
  the ends and in the target's hex give "modifier" findings saying a soft or hard cover
  roll is due.
- Smoke (Line of Sight (LOS) Checks): a target in or beyond smoke, or a firer in it:
  a "hinder" finding of 3 (to-hit points); once per shot unless ``smoke.stacks``.
- Darkness (the ``night`` condition): blocked beyond 10 inches without night vision;
  the night to-hit modifiers as "modifier" findings.
- Prone target (Prone): -1 to hit unless the firer is within 3 inches or high enough.

Amounts: a "hinder" or "modifier" finding's ``amount`` is the to-hit penalty in points;
a cover finding's amount is 1 (one cover source) and its cause names soft or hard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm
from pathlib import Path

from tabletop.datareader import Reader
from tabletop.engine.los import (
    GRAZE_RULES,
    BasePolicy,
    Finding,
    GrazeRule,
    LineContext,
    LosPolicy,
    LosQuery,
    Obstacle,
    line_of_sight,
)
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import DIRECTIONS, Hex, Hexside, distance, hexside, neighbor
from tabletop.yamlfile import parse_yaml

DATA_FILE = Path(__file__).with_name("los.yaml")

RULE_FACING = "Dogs of War: Model Placement/Facing"
RULE_MODELS = "Dogs of War: Moving and Shooting Through Models"
RULE_OBSTACLES = "Dogs of War: Obstacle Effects"
RULE_SIGHT = "Dogs of War: Line of Sight (LOS) Checks"
RULE_MODIFIERS = "Dogs of War: Ranged Combat Modifiers"
RULE_COVER = "Dogs of War: Cover Modifier"
RULE_PRONE = "Dogs of War: Prone"
RULE_TARGET = "Dogs of War: Declare Target"

COVER_KINDS = ("soft", "hard")


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class TerrainLos:
    """What one terrain kind does to a line: ``solid`` (blocks below its roof) or
    ``height`` levels of cover above its ground, blocking after ``see_through`` hexes."""

    solid: bool = False
    height: int = 0
    see_through: int | None = None


@dataclass(frozen=True)
class NightKit:
    """One faction's night vision goggles (los.yaml ``darkness.kits``): to-hit points
    lost at night beyond and within the darkness limit and for the goggles, and the
    points a laser targeter takes back."""

    night_over: int
    night_within: int
    goggles: int
    laser: int
    label: str = ""


@dataclass(frozen=True)
class LosTable:
    """The figures of ``los.yaml``, checked."""

    grazing: GrazeRule
    edge_seen: bool
    standing_height: Fraction
    lying_height: Fraction
    aim_at: Fraction
    lying: frozenset[str]
    shoot_over_levels: int
    terrain: Mapping[str, TerrainLos]
    hexside_height: int
    ignore_firer_hex: bool
    smoke_marker: str
    smoke_to_hit: int
    smoke_stacks: bool
    night: str
    night_sight: int
    night_vision: str
    laser_targeter: str
    night_to_hit_over: int
    night_to_hit_within: int
    night_to_hit_goggles: int
    kits: Mapping[str, NightKit]
    muzzle_flash: bool
    prone_status: str
    prone_to_hit: int
    prone_negated_within: int
    prone_negated_height_ratio: Fraction
    priority_within: int
    not_targets: frozenset[str]


def load_table(path: Path | str = DATA_FILE) -> LosTable:
    """Read and check a Dogs of War line-of-sight table; DataError names file and line."""
    text = Path(path).read_text(encoding="utf-8")
    top = Reader(path, parse_yaml(text, path))
    grazing = top.word("grazing")
    if grazing not in GRAZE_RULES:
        raise top.fail("grazing", f"must be one of {', '.join(GRAZE_RULES)}")
    figures, cover, smoke = top.sub("figures"), top.sub("cover"), top.sub("smoke")
    dark, prone, priority = top.sub("darkness"), top.sub("prone_target"), top.sub("priority_targets")
    terrain_spec = top.sub("terrain")
    terrain: dict[str, TerrainLos] = {}
    for kind in terrain_spec.data:
        spec = terrain_spec.sub(str(kind))
        unknown = set(spec.data) - {"solid", "height", "see_through"}
        if unknown:
            raise spec.fail(sorted(unknown)[0], "unknown key (known: solid, height, see_through)")
        terrain[str(kind)] = TerrainLos(
            solid=spec.boolean("solid") if "solid" in spec.data else False,
            height=spec.whole("height") if "height" in spec.data else 0,
            see_through=spec.whole("see_through") if "see_through" in spec.data else None,
        )
    return LosTable(
        grazing=grazing,  # type: ignore[arg-type]
        edge_seen=top.sub("facing").boolean("edge_seen"),
        standing_height=figures.number("standing_height"),
        lying_height=figures.number("lying_height"),
        aim_at=figures.number("aim_at"),
        lying=figures.words("lying", blank=True),
        shoot_over_levels=figures.whole("shoot_over_levels"),
        terrain=terrain,
        hexside_height=cover.whole("hexside_height"),
        ignore_firer_hex=cover.boolean("ignore_firer_hex"),
        smoke_marker=smoke.word("marker"),
        smoke_to_hit=smoke.whole("to_hit"),
        smoke_stacks=smoke.boolean("stacks"),
        night=dark.word("condition"),
        night_sight=dark.whole("sight", minimum=1),
        night_vision=dark.word("night_vision"),
        laser_targeter=dark.word("laser_targeter"),
        night_to_hit_over=dark.whole("to_hit_over"),
        night_to_hit_within=dark.whole("to_hit_within"),
        night_to_hit_goggles=dark.whole("to_hit_goggles"),
        kits=_kits(dark),
        muzzle_flash=dark.boolean("muzzle_flash") if "muzzle_flash" in dark.data else False,
        prone_status=prone.word("status"),
        prone_to_hit=prone.whole("to_hit"),
        prone_negated_within=prone.whole("negated_within"),
        prone_negated_height_ratio=prone.number("negated_height_ratio"),
        priority_within=priority.whole("within"),
        not_targets=priority.words("not_targets", blank=True),
    )


def _kits(dark: Reader) -> dict[str, NightKit]:
    """The goggles of each kind (``darkness.kits``); without the key, the table's
    figures under the ``night_vision`` status word."""
    if "kits" not in dark.data:
        word = dark.word("night_vision")
        table = NightKit(
            dark.whole("to_hit_over"), dark.whole("to_hit_within"), dark.whole("to_hit_goggles"), 1
        )
        return {word: table}
    spec = dark.sub("kits")
    out: dict[str, NightKit] = {}
    for key in spec.data:
        k = spec.sub(str(key))
        out[str(key)] = NightKit(
            k.whole("night_over"),
            k.whole("night_within"),
            k.whole("goggles"),
            k.whole("laser"),
            str(k.get("label")) if "label" in k.data and k.get("label") else "",
        )
    return out


@cache
def default_table() -> LosTable:
    """The shipped ``los.yaml``, read once."""
    return load_table(DATA_FILE)


# --- geometry ------------------------------------------------------------------------


def facing_dot(facing: int, vector: Hex) -> int:
    """A positive multiple of the dot product of the facing direction and ``vector``,
    as drawn on the table (the same for flat and pointy layouts: one is a rotation of
    the other). Positive: in front; zero: exactly 90 degrees off; negative: behind.

    >>> facing_dot(0, Hex(1, 0)), facing_dot(0, Hex(1, -2)), facing_dot(0, Hex(-1, 0))
    (2, 0, -2)
    """
    if isinstance(facing, bool) or not isinstance(facing, int) or not 0 <= facing < 6:
        raise ValueError(f"facing must be a direction index 0-5, got {facing!r}")
    f = DIRECTIONS[facing]
    return 2 * vector.q * f.q + 2 * vector.r * f.r + vector.q * f.r + vector.r * f.q


def in_front_arc(facing: int, vector: Hex, *, edge_seen: bool = True) -> bool:
    """Whether ``vector`` (target centre minus viewer centre) lies within 90 degrees of
    ``facing``; exactly 90 degrees off counts as in when ``edge_seen``.

    >>> in_front_arc(0, Hex(2, -1)), in_front_arc(0, Hex(-1, -1)), in_front_arc(0, Hex(1, -2))
    (True, False, True)
    """
    dot = facing_dot(facing, vector)
    return dot > 0 or (dot == 0 and edge_seen)


class _Line:
    """One line's sight heights, worked in integers.

    Along the traversal a point is a numerator ``n`` over its denominator ``D`` (0: the
    source centre, D: the target centre). Heights are kept multiplied by ``K * D``, ``K``
    clearing the fractions of the figure heights, so the sight line's height at ``n`` is
    the integer ``eye * K * D + (aim - eye) * K * n`` and comparisons are exact.
    """

    __slots__ = (
        "_d",
        "_eye",
        "_k",
        "_side_at",
        "_slope",
        "ctx",
        "effects",
        "source_level",
        "spans",
        "target_level",
    )

    def __init__(
        self, ctx: LineContext, source_level: int, target_level: int, eye: Fraction, aim: Fraction
    ) -> None:
        t = ctx.traversal
        self.ctx = ctx
        self.source_level = source_level  # the ends' ground levels (feet), in levels
        self.target_level = target_level
        self._k = lcm(eye.denominator, aim.denominator)
        self._d = t.denominator
        self._eye = int(eye * self._k) * self._d
        self._slope = int((aim - eye) * self._k)
        spans = dict(zip(t.crossed, t.spans, strict=True))
        spans.update((g.hex, (g.start, g.end)) for g in t.grazed)
        self.spans: dict[Hex, tuple[int, int]] = spans  # crossed and grazed hexes
        self.effects: dict[Hex, list[Obstacle]] = {}  # what each hex does, worked out once
        self._side_at: dict[Hexside, int] | None = None

    def scaled(self, level: int | Fraction) -> int | Fraction:
        """A height in levels on the line's integer scale."""
        return level * self._k * self._d

    def height_at(self, n: int) -> int:
        """The sight line's height at numerator ``n``, scaled."""
        return self._eye + self._slope * n

    def lowest_in(self, h: Hex) -> int:
        """The sight line's lowest height within hex ``h`` (it is straight: at an end)."""
        enter, leave = self.spans[h]
        return self.height_at(enter if self._slope >= 0 else leave)

    def below(self, h: Hex, level: int | Fraction) -> bool:
        """Whether the sight line passes below ``level`` anywhere in ``h``."""
        return self.lowest_in(h) < self.scaled(level)

    def along(self, n: int) -> float:
        """Numerator ``n`` as the engine's ``Finding.at``: the fraction of the way."""
        return n / self._d

    def side_at(self, side: Hexside) -> int | None:
        """Where the line crosses ``side`` (a numerator), or None if it does not."""
        if self._side_at is None:
            # the engine gives each crossing as n / D; rounding recovers n exactly
            d = self._d
            self._side_at = {s: round(at * d) for s, at in self.ctx.crossed_hexsides()}
        return self._side_at.get(side)


# --- the policy ----------------------------------------------------------------------


class DogsOfWarPolicy(BasePolicy):
    """Dogs of War line of sight (see the module docstring)."""

    name = "Dogs of War"

    def __init__(self, table: LosTable | None = None) -> None:
        self.table = table if table is not None else default_table()
        self.grazing = self.table.grazing
        self._memo: _Line | None = None

    # heights

    def ground(self, state: MapState, h: Hex) -> int:
        """The level of the ground in ``h``: under a building, its elevation (the roof)
        minus its levels."""
        board = state.board
        props = board.terrain_types[state.terrain_at(h)].properties
        spec = self.table.terrain.get(str(props.get("kind", "")))
        if spec is not None and spec.solid:
            return board.elevation[h] - int(props.get("levels", 0))
        return board.elevation[h]

    def figure_height(self, piece: Piece | None) -> Fraction:
        """A figure's height: lying or standing (no piece: a standing figure)."""
        if piece is not None and self.lies(piece):
            return self.table.lying_height
        return self.table.standing_height

    def lies(self, piece: Piece) -> bool:
        return not piece.status.isdisjoint(self.table.lying)

    def level_of(self, state: MapState, h: Hex, piece: Piece | None) -> int:
        """The level of a figure's feet in ``h``: the ground plus the piece's level."""
        return self.ground(state, h) + (piece.level if piece is not None else 0)

    def end_level(self, state: MapState, h: Hex, piece: Piece | None) -> int:
        """The engine's default end levels read the map as this policy does (a building
        hex's elevation is its roof; its ground is below)."""
        return self.level_of(state, h, piece)

    def _line(self, state: MapState, ctx: LineContext) -> _Line:
        if self._memo is not None and self._memo.ctx is ctx:
            return self._memo
        q = ctx.query
        src = q.source_level if q.source_level is not None else self.level_of(state, q.source, q.viewer)
        tgt = q.target_level if q.target_level is not None else self.level_of(state, q.target, q.target_piece)
        eye = src + self.figure_height(q.viewer)
        aim = tgt + self.figure_height(q.target_piece) * self.table.aim_at
        line = _Line(ctx, src, tgt, eye, aim)
        self._memo = line
        return line

    # what a hex does

    def _effects(self, state: MapState, h: Hex, line: _Line) -> list[Obstacle]:
        """Everything hex ``h`` between the ends does to the line, most severe first."""
        known = line.effects.get(h)
        if known is not None:
            return known
        board = state.board
        terrain = board.terrain_types[state.terrain_at(h)]
        spec = self.table.terrain.get(str(terrain.properties.get("kind", "")))
        blocks: list[Obstacle] = []
        cover: list[Obstacle] = []
        if spec is not None and spec.solid:
            if line.below(h, board.elevation[h]):
                blocks.append(Obstacle("block", f"{terrain.name} stands above the line", RULE_OBSTACLES))
        else:
            ground = board.elevation[h]
            if line.below(h, ground):
                blocks.append(Obstacle("block", f"higher ground ({terrain.name})", RULE_OBSTACLES))
            kind = terrain.properties.get("cover")
            if (
                spec is not None
                and spec.height
                and kind in COVER_KINDS
                and line.below(h, ground + spec.height)
            ):
                cover.append(
                    Obstacle("modifier", f"{kind} cover: {terrain.name}, cover roll due", RULE_COVER)
                )
        q = line.ctx.query
        ends = {p.id for p in (q.viewer, q.target_piece) if p is not None}
        for unit in state.units_at(h):
            if unit.id not in ends and self._model_blocks(state, unit, h, line):
                blocks.append(Obstacle("block", f"model {unit.id} in the way", RULE_MODELS))
        smoke: list[Obstacle] = []
        if any(m.type == self.table.smoke_marker for m in state.markers_at(h)):
            cause = "smoke between firer and target"
            smoke.append(Obstacle("hinder", cause, RULE_SIGHT, self.table.smoke_to_hit))
        effects = line.effects[h] = blocks + smoke + cover
        return effects

    def _model_blocks(self, state: MapState, unit: Piece, h: Hex, line: _Line) -> bool:
        level = self.level_of(state, h, unit)
        viewer = line.ctx.query.viewer
        if line.source_level >= level + self.table.shoot_over_levels:
            return False  # one inch or more above him: shoot over his head
        if self.lies(unit) and (viewer is None or not self.lies(viewer)) and level <= line.source_level:
            return False  # a standing model shoots over a prone one
        return line.lowest_in(h) <= line.scaled(level + self.figure_height(unit))

    def _screens(self, state: MapState, h: Hex, line: _Line) -> bool:
        """Whether the line passes through trees (a see-through kind) in ``h``."""
        board = state.board
        spec = self.table.terrain.get(
            str(board.terrain_types[state.terrain_at(h)].properties.get("kind", ""))
        )
        if spec is None or spec.solid or spec.see_through is None:
            return False
        return line.below(h, board.elevation[h] + spec.height)

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        effects = self._effects(state, h, self._line(state, ctx))
        return effects[0] if effects else None

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        if self.table.ignore_firer_hex and ctx.source in side:
            return None
        features = state.board.hexside_features(side.a, side.b)
        if not features:
            return None
        line = self._line(state, ctx)
        at = line.side_at(side)
        if at is not None and line.height_at(at) >= line.scaled(self._side_top(state, side)):
            return None  # the line passes above the wall
        for key in sorted(features):
            feature = state.board.hexsides[key]
            kind = feature.properties.get("cover")
            if kind in COVER_KINDS:
                return Obstacle("modifier", f"{kind} cover: {feature.name}, cover roll due", RULE_COVER)
        return None

    # whole-line rules

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        line = self._line(state, ctx)
        out = list(found)
        out += self._secondary_effects(state, line)
        out += self._hexside_runs(state, line)
        out += self._tree_depth(state, line)
        out = self._smoke(state, line, out)
        out += self._facing(line)
        out += self._darkness(line)
        return sorted(out, key=lambda f: f.at)

    def _between(self, state: MapState, line: _Line) -> Iterable[tuple[Hex, float]]:
        """Crossed on-map hexes between the ends, with where the line enters each."""
        ctx = line.ctx
        on_map = state.board.grid.contains
        for h in ctx.traversal.crossed:
            if h not in (ctx.source, ctx.target) and on_map(h):
                yield h, line.along(line.spans[h][0])

    def _secondary_effects(self, state: MapState, line: _Line) -> list[Finding]:
        """What crossed hexes do besides the first effect the engine already placed."""
        return [
            Finding.of(ob, h, at)
            for h, at in self._between(state, line)
            for ob in self._effects(state, h, line)[1:]
        ]

    def _hexside_runs(self, state: MapState, line: _Line) -> list[Finding]:
        """Cover from a wall or hedge the line runs exactly along."""
        seen: set[Hexside] = set()
        out = []
        ctx = line.ctx
        for g in ctx.traversal.grazed:
            if g.side is None or not state.board.grid.contains(g.hex):
                continue
            side = hexside(g.hex, neighbor(g.hex, g.side))
            if side in seen:
                continue
            seen.add(side)
            ob = self.hexside_obstacle(state, side, ctx)
            if ob is not None and line.height_at(g.start) < line.scaled(self._side_top(state, side)):
                out.append(Finding.of(ob, None, line.along(g.start), grazed=True))
        return out

    def _side_top(self, state: MapState, side: Hexside) -> int:
        return max(self.ground(state, side.a), self.ground(state, side.b)) + self.table.hexside_height

    def _tree_depth(self, state: MapState, line: _Line) -> list[Finding]:
        """Trees are seen through for ``see_through`` hexes; the next one blocks."""
        depth = 0
        for h, at in self._between(state, line):
            if not self._screens(state, h, line):
                continue
            depth += 1
            terrain = state.board.terrain_types[state.terrain_at(h)]
            limit = self.table.terrain[str(terrain.properties["kind"])].see_through
            if limit is not None and depth > limit:
                cause = f"more than {limit} inches of {terrain.name}"
                return [Finding("block", cause, RULE_OBSTACLES, h, at)]
        return []

    def _smoke(self, state: MapState, line: _Line, found: list[Finding]) -> list[Finding]:
        """Add smoke at the ends; keep one smoke finding per shot unless smoke stacks."""
        table, ctx = self.table, line.ctx

        def smoky(h: Hex) -> bool:
            return any(m.type == table.smoke_marker for m in state.markers_at(h))

        out = list(found)
        if smoky(ctx.source):
            out.append(
                Finding("hinder", "firing out of smoke", RULE_SIGHT, ctx.source, 0.0, table.smoke_to_hit)
            )
        if ctx.range > 0 and smoky(ctx.target):
            out.append(Finding("hinder", "target in smoke", RULE_SIGHT, ctx.target, 1.0, table.smoke_to_hit))
        if table.smoke_stacks:
            return out
        smoke = sorted((f for f in out if f.severity == "hinder"), key=lambda f: f.at)
        return [f for f in out if f.severity != "hinder"] + smoke[:1]

    def _facing(self, line: _Line) -> list[Finding]:
        ctx = line.ctx
        viewer = ctx.query.viewer
        if viewer is None or viewer.facing is None or ctx.range == 0:
            return []
        vector = ctx.target - ctx.source
        if in_front_arc(viewer.facing, vector, edge_seen=self.table.edge_seen):
            return []
        return [Finding("block", "outside the front arc", RULE_FACING, None, 0.0)]

    def _darkness(self, line: _Line) -> list[Finding]:
        """Darkness: blocked beyond the limit without goggles; the to-hit points lost at
        night, by the kit of goggles the firer wears (``kit_of``: each faction's own)."""
        table, ctx = self.table, line.ctx
        if table.night not in ctx.query.conditions:
            return []
        viewer = ctx.query.viewer
        kit = self.kit_of(viewer)
        far = ctx.range > table.night_sight
        out = []
        if far and kit is None:
            cause = f"darkness: beyond {table.night_sight} inches"
            out.append(Finding("block", cause, RULE_SIGHT, None, table.night_sight / ctx.range))
        if kit is None:
            night, goggles = (table.night_to_hit_over if far else table.night_to_hit_within), 0
        else:
            night, goggles = (kit.night_over if far else kit.night_within), kit.goggles
            if viewer is not None and viewer.has(table.laser_targeter):
                back = min(kit.laser, goggles)
                goggles -= back
                night -= min(kit.laser - back, night)
        if night:
            where = f"over {table.night_sight}" if far else f"within {table.night_sight}"
            cause = f"-{night} to hit: at night, target {where} inches"
            out.append(Finding("modifier", cause, RULE_MODIFIERS, None, 0.0, night))
        if goggles:
            label = kit.label if kit is not None else ""
            cause = f"-{goggles} to hit: night vision goggles{label}"
            out.append(Finding("modifier", cause, RULE_MODIFIERS, None, 0.0, goggles))
        return out

    def kit_of(self, viewer: Piece | None) -> NightKit | None:
        """The goggles ``viewer`` wears (the first kit word among its status), or None."""
        if viewer is None:
            return None
        for word, kit in self.table.kits.items():
            if viewer.has(word):
                return kit
        return None

    def end_modifiers(self, state: MapState, ctx: LineContext) -> list[Finding]:
        line = self._line(state, ctx)
        out = []
        if ctx.range > 0:
            cover = self._target_cover(state, line)
            if cover is not None:
                out.append(Finding.of(cover, ctx.target, 1.0))
        target = ctx.query.target_piece
        table = self.table
        if target is not None and target.has(table.prone_status):
            close = ctx.range <= table.prone_negated_within
            above = line.source_level - line.target_level >= table.prone_negated_height_ratio * ctx.range
            if not (close or above):
                cause = f"-{table.prone_to_hit} to hit: target is prone"
                out.append(Finding("modifier", cause, RULE_PRONE, ctx.target, 1.0, table.prone_to_hit))
        return out

    def _target_cover(self, state: MapState, line: _Line) -> Obstacle | None:
        """Cover from the terrain in the target's own hex: inside a building (below its
        roof), or low enough in trees, rubble or wreckage."""
        board, h = state.board, line.ctx.target
        terrain = board.terrain_types[state.terrain_at(h)]
        kind = terrain.properties.get("cover")
        spec = self.table.terrain.get(str(terrain.properties.get("kind", "")))
        if spec is None or kind not in COVER_KINDS:
            return None
        top = board.elevation[h] if spec.solid else board.elevation[h] + spec.height
        if line.target_level >= top:
            return None
        where = "inside" if spec.solid else "in"
        return Obstacle(
            "modifier", f"{kind} cover: target {where} {terrain.name}, cover roll due", RULE_COVER
        )


def policy(state: MapState) -> LosPolicy:
    """The Dogs of War line-of-sight policy (the registry's entry point)."""
    return DogsOfWarPolicy()


def priority_targets(
    state: MapState, policy: LosPolicy, viewer_piece: Piece, *, conditions: frozenset[str] = frozenset()
) -> list[Piece]:
    """Enemy models within 10 inches that ``viewer_piece`` can see: they must be
    targeted first (Dogs of War: Declare Target). Nearest first, then by id.

    Enemies are units of another side; a viewer without a side has none. Dead models
    (``priority_targets.not_targets``) are not targets.
    """
    if viewer_piece.kind != "unit":
        raise ValueError(f"piece {viewer_piece.id!r} is a marker, not a model that can fire")
    table = policy.table if isinstance(policy, DogsOfWarPolicy) else default_table()
    if viewer_piece.side is None:
        return []
    found = []
    for p in state.pieces():
        if p.kind != "unit" or p.side is None or p.side == viewer_piece.side:
            continue
        if not p.status.isdisjoint(table.not_targets):
            continue
        d = distance(viewer_piece.hex, p.hex)
        if d > table.priority_within:
            continue
        query = LosQuery(viewer_piece.hex, p.hex, viewer=viewer_piece, target_piece=p, conditions=conditions)
        if line_of_sight(state, policy, query).result != "blocked":
            found.append((d, p.id, p))
    return [p for _, _, p in sorted(found, key=lambda x: (x[0], x[1]))]
