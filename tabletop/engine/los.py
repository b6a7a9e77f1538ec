"""Line of sight: the exact traversal read through a rule system's policy.

The engine walks the hexes an exact centre-to-centre segment crosses, asks the policy
what each one does to the line (nothing, hinder, block), resolves the hexes the line
only grazes by the policy's grazing rule, lets the policy add whole-line rules (range
limits, facing arcs, "adjacent hexes always see"), and returns a verbose verdict: every
blocking and hindering hex with its cause, the rule section, and where along the line
it starts. The firer's and the target's own hexes never block.

Knows no rule system: the policy is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal, NamedTuple, Protocol

from tabletop.hexgrid import (
    DIRECTIONS,
    Graze,
    Hex,
    Hexside,
    Traversal,
    distance,
    hexside,
    relative_traversal,
    traverse,
)
from tabletop.hexgrid.traversal import CACHE_REACH, FAR_ENTRIES

from .pieces import MapState, Piece

#: How a line that only touches a hex's boundary is read:
#: "either" - a grazed hex counts as if crossed;
#: "both"   - a run along a hexside counts only when the hexes on both sides have the
#:            effect (the weaker of the two applies); a corner touch never counts alone;
#: "never"  - grazed hexes never count.
GrazeRule = Literal["both", "either", "never"]
GRAZE_RULES: tuple[GrazeRule, ...] = ("both", "either", "never")
#: Why a graze counts under each rule, said in a grazed finding's cause unless the policy
#: says it in its own words (an optional ``graze_reason`` attribute naming its rule).
GRAZE_REASONS: dict[GrazeRule, str] = {
    "either": "a hex the line only touches counts as crossed (grazing rule 'either')",
    "both": "a run along a hexside counts when the hexes on both sides have the effect (grazing rule 'both')",
    "never": "a hex the line only touches never counts (grazing rule 'never')",
}

Severity = Literal["block", "hinder", "modifier", "note"]
Verdict = Literal["clear", "hindered", "blocked"]


@dataclass(frozen=True)
class Obstacle:
    """What a hex, or a whole-line rule, does to a line of sight.

    ``severity``: "block" ends the line; "hinder" lets it through, counted (``amount``
    of them, or a to-hit penalty in games that count points); "modifier" does not touch
    the line but changes the shot (e.g. "-1 attack: target in forest"); "note" changes
    nothing and tells the player what was (not) applied and why.
    """

    severity: Severity
    cause: str
    rule: str
    amount: int = 1


class Finding(NamedTuple):
    """An obstacle placed on a line: which hex (None for a whole-line rule), where along
    the line it starts (0 = source centre, 1 = target centre), and whether it was only
    grazed. ``at`` is the float of an exact fraction whose denominator is shared by the
    whole line, so findings of one line order exactly."""

    severity: Severity
    cause: str
    rule: str
    hex: Hex | None
    at: float
    amount: int = 1
    grazed: bool = False

    @classmethod
    def of(cls, ob: Obstacle, h: Hex | None, at: float, grazed: bool = False) -> Finding:
        """An obstacle placed at hex ``h`` (None: the whole line), ``at`` along the line."""
        return cls(ob.severity, ob.cause, ob.rule, h, at, ob.amount, grazed)


@dataclass(frozen=True)
class LosQuery:
    """One question: can ``source`` see ``target``?

    Levels are parameters, never guesses: None means the ground level of the hex (the
    map's elevation plus the level of the ``viewer``/``target_piece`` if given).
    ``viewer`` and ``target_piece`` are the pieces looking and looked at, for rules on
    facing, prone models, night vision, weapon ranges and the like.
    """

    source: Hex
    target: Hex
    source_level: int | None = None
    target_level: int | None = None
    viewer: Piece | None = None
    target_piece: Piece | None = None
    conditions: frozenset[str] = frozenset()  # e.g. {"night"}: the scenario's, not a piece's


@dataclass
class LineContext:
    """A query with its geometry worked out, handed to the policy."""

    query: LosQuery
    relative: Traversal  # from Hex(0, 0); see ``traversal`` for the placed one
    range: int
    source_level: int
    target_level: int

    @cached_property
    def traversal(self) -> Traversal:
        """The traversal placed between the query's two hexes."""
        return traverse(self.query.source, self.query.target)

    @property
    def source(self) -> Hex:
        return self.query.source

    @property
    def target(self) -> Hex:
        return self.query.target

    def crossed_hexsides(self) -> list[tuple[Hexside, float]]:
        """Hexsides whose interior the line crosses, with where along the line.

        A line passing exactly through a corner crosses no hexside there; a line running
        along a hexside is a graze (see ``Traversal.grazed``), not a crossing.
        """
        t = self.traversal
        corners = {g.start for g in t.grazed if g.corner is not None}
        out = []
        for (a, (_, leave)), (b, (enter, _)) in zip(
            zip(t.crossed, t.spans, strict=True), zip(t.crossed[1:], t.spans[1:], strict=True), strict=False
        ):
            if leave == enter and leave not in corners and distance(a, b) == 1:
                out.append((hexside(a, b), leave / t.denominator))
        return out

    def closer_to_source(self, h: Hex) -> bool:
        """Whether ``h`` is strictly nearer the source than the target (hex distance)."""
        return distance(h, self.query.source) < distance(h, self.query.target)

    def level_at(self, fraction: float) -> float:
        """The height of the straight line between the two ends' levels at a point."""
        return self.source_level + (self.target_level - self.source_level) * fraction


class LosPolicy(Protocol):
    """A rule system's reading of line of sight."""

    name: str
    grazing: GrazeRule

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        """What hex ``h`` (crossed or grazed, never an end hex) does to the line."""
        ...

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        """What a hexside the line crosses (or runs along) does to it."""
        ...

    def end_level(self, state: MapState, h: Hex, piece: Piece | None) -> int:
        """The level of an end of the line when the query does not give it (the hex's
        ground plus the piece's own level, as this rule system reads its map)."""
        ...

    def static_obstacles(self, state: MapState) -> StaticObstacles | None:
        """Every on-map hex's obstacle when they do not depend on the query (who looks,
        from where, at what level), else None. Lets the engine and the viewshed skip
        per-hex calls; must agree with ``hex_obstacle``."""
        ...

    def static_hexsides(self, state: MapState) -> Mapping[Hexside, Obstacle] | None:
        """Every hexside's obstacle when they do not depend on the query, else None;
        an empty mapping means no hexside ever matters."""
        ...

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        """Whole-line rules: given the per-hex findings, return the final findings
        (add range limits or arcs, drop everything for "adjacent always see")."""
        ...

    def end_modifiers(self, state: MapState, ctx: LineContext) -> list[Finding]:
        """Modifiers from the ends themselves (e.g. shooting into a forest hex)."""
        ...


@dataclass(frozen=True)
class LosResult:
    """The verbose verdict. ``blocked_at``/``hindered_at`` are where along the line
    (0 = source centre, 1 = target centre) it first becomes blocked/hindered: the UI
    colours the thread from there."""

    query: LosQuery
    policy: str
    range: int
    result: Verdict
    relative: Traversal
    blocking: tuple[Finding, ...]
    hindrances: tuple[Finding, ...]
    modifiers: tuple[Finding, ...] = ()
    notes: tuple[Finding, ...] = ()
    source_level: int = 0
    target_level: int = 0

    @cached_property
    def traversal(self) -> Traversal:
        """The traversal placed between the query's two hexes."""
        return traverse(self.query.source, self.query.target)

    @property
    def crossed(self) -> tuple[Hex, ...]:
        """Hexes crossed, in order from source to target, ends included."""
        return self.traversal.crossed

    @property
    def grazed(self) -> tuple[Graze, ...]:
        """Hexes only touched, with the hexside or corner, in order along the line."""
        return self.traversal.grazed

    @property
    def hindrance_count(self) -> int:
        return sum(f.amount for f in self.hindrances)

    @property
    def blocked_at(self) -> float | None:
        return min((f.at for f in self.blocking), default=None)

    @property
    def hindered_at(self) -> float | None:
        return min((f.at for f in self.hindrances), default=None)

    def to_json(self, label: Any) -> dict[str, Any]:
        """The DESIGN.md `tabletop los --json` object; ``label`` turns a Hex into text."""

        def finding(f: Finding) -> dict[str, Any]:
            out: dict[str, Any] = {
                "hex": label(f.hex) if f.hex is not None else None,
                "cause": f.cause,
                "rule": f.rule,
            }
            out["at"] = float(f.at)
            if f.amount != 1:
                out["amount"] = f.amount
            if f.grazed:
                out["grazed"] = True
            return out

        return {
            "from": label(self.query.source),
            "to": label(self.query.target),
            "range": self.range,
            "result": self.result,
            "crossed": [label(h) for h in self.crossed],
            "grazed": [label(g.hex) for g in self.grazed],
            "grazes": [
                {
                    "hex": label(g.hex),
                    "hexside" if g.side is not None else "corner": g.side if g.side is not None else g.corner,
                }
                for g in self.grazed
            ],
            "blocking": [finding(f) for f in self.blocking],
            "hindrances": [finding(f) for f in self.hindrances],
            "hindrance_count": self.hindrance_count,
            "modifiers": [finding(f) for f in self.modifiers],
            "notes": [finding(f) for f in self.notes],
            "blocked_at": None if self.blocked_at is None else float(self.blocked_at),
            "hindered_at": None if self.hindered_at is None else float(self.hindered_at),
            "levels": [self.source_level, self.target_level],
            "policy": self.policy,
        }


def ground_level(state: MapState, h: Hex, piece: Piece | None) -> int:
    """The map's elevation of ``h`` plus the piece's own level above it."""
    return state.board.elevation[h] + (piece.level if piece is not None else 0)


def line_of_sight(state: MapState, policy: LosPolicy, query: LosQuery) -> LosResult:
    """Judge one line of sight. ValueError if either end is off the map."""
    ctx, final = _judged(state, policy, query)
    blocking = tuple([f for f in final if f.severity == "block"])
    hindrances = tuple([f for f in final if f.severity == "hinder"])
    modifiers = tuple([f for f in final if f.severity == "modifier"])
    notes = tuple([f for f in final if f.severity == "note"])
    verdict: Verdict = "blocked" if blocking else "hindered" if hindrances else "clear"
    return LosResult(
        query,
        policy.name,
        ctx.range,
        verdict,
        ctx.relative,
        blocking,
        hindrances,
        modifiers,
        notes,
        ctx.source_level,
        ctx.target_level,
    )


def blocking_findings(state: MapState, policy: LosPolicy, query: LosQuery) -> tuple[Finding, ...]:
    """``line_of_sight(state, policy, query).blocking`` without the rest of the verdict
    (a rule system asking only whether, and why, a line is blocked: issue 19)."""
    return tuple([f for f in _judged(state, policy, query)[1] if f.severity == "block"])


def _judged(state: MapState, policy: LosPolicy, query: LosQuery) -> tuple[LineContext, list[Finding]]:
    """The query's geometry and its final findings, ordered along the line."""
    grid = state.board.grid
    source, target = query.source, query.target
    if not grid.contains(source):
        raise ValueError(f"{source} is not on the map")
    if not grid.contains(target):
        raise ValueError(f"{target} is not on the map")
    rel = relative_traversal(target.q - source.q, target.r - source.r)
    src_level = (
        query.source_level if query.source_level is not None else ground_level(state, source, query.viewer)
    )
    tgt_level = (
        query.target_level
        if query.target_level is not None
        else ground_level(state, target, query.target_piece)
    )
    ctx = LineContext(query, rel, distance(source, target), src_level, tgt_level)
    static = policy.static_obstacles(state)
    found = (
        _static_findings(static, source, rel, _Grazes.of(state, policy) if rel.grazed else None)
        if static is not None
        else _hex_findings(state, policy, ctx)
    )
    found.extend(_hexside_findings(state, policy, ctx))
    final = policy.judge(state, ctx, found)
    final = final + policy.end_modifiers(state, ctx)
    if len(final) > 1:
        final.sort(key=_along)
    return ctx, final


def _along(f: Finding) -> tuple[float, int]:
    return (f.at, 0 if f.hex is None else 1)


_new = tuple.__new__  # Hex without NamedTuple's Python-level __new__ (hot loop)


def _interior(dq: int, dr: int) -> tuple[tuple[int, int, float], ...]:
    """The crossed hexes between the ends of a vector, each with where the line enters it;
    kept like the traversals themselves (short vectors all, long ones a few: H5)."""
    found = _INTERIOR_NEAR.get((dq, dr))
    if found is not None:
        return found
    if max(abs(dq), abs(dr), abs(dq + dr)) > CACHE_REACH:
        return _interior_far(dq, dr)
    found = _INTERIOR_NEAR[(dq, dr)] = _interior_of(dq, dr)
    return found


_INTERIOR_NEAR: dict[tuple[int, int], tuple[tuple[int, int, float], ...]] = {}  # up to CACHE_REACH


@lru_cache(maxsize=FAR_ENTRIES)
def _interior_far(dq: int, dr: int) -> tuple[tuple[int, int, float], ...]:
    return _interior_of(dq, dr)


def _interior_of(dq: int, dr: int) -> tuple[tuple[int, int, float], ...]:
    rel = relative_traversal(dq, dr)
    d = rel.denominator
    return tuple((q, r, rel.spans[i][0] / d) for i, (q, r) in enumerate(rel.crossed[1:-1], start=1))


class _Grazes(NamedTuple):
    """What a grazed finding's cause is written with: hex labels and the policy's reason."""

    label: Callable[[Hex], str]
    reason: str

    @classmethod
    def of(cls, state: MapState, policy: LosPolicy) -> _Grazes:
        board = state.board

        def label(h: Hex) -> str:
            return board.label(h) if board.grid.contains(h) else f"off the map ({h.q},{h.r})"

        reason = getattr(policy, "graze_reason", None) or GRAZE_REASONS[policy.grazing]
        return cls(label, reason)

    def where(self, g: Graze, h: Hex) -> str:
        """Where the line touches ``h`` (the grazed hex as placed on the map), in words."""
        if g.side is not None:
            other = h + DIRECTIONS[g.side]
            return f"the line runs along the hexside between {self.label(h)} and {self.label(other)}"
        return f"the line passes through a corner of {self.label(h)}"


def _static_findings(
    static: Mapping[Hex, Obstacle], source: Hex, rel: Traversal, words: _Grazes | None
) -> list[Finding]:
    """Per-hex findings when the policy's obstacles do not depend on the query; grazes
    are read by ``_resolve_grazes``. The hot path of a single query."""
    out: list[Finding] = []
    aq, ar = source
    get = static.get
    for q, r, at in _interior(rel.end.q, rel.end.r):
        key = (q + aq, r + ar)
        ob = get(key)  # type: ignore[call-overload]
        if ob is not None:
            out.append(_new(Finding, (ob.severity, ob.cause, ob.rule, _new(Hex, key), at, ob.amount, False)))
    if words is not None:  # given exactly when the line grazes something
        out.extend(_static_grazes(static, source, rel, words))
    return out


def _static_grazes(
    static: Mapping[Hex, Obstacle], source: Hex, rel: Traversal, words: _Grazes
) -> list[Finding]:
    grazing: GrazeRule = getattr(static, "grazing", "both")
    if grazing == "never":
        return []
    aq, ar = source
    placed = []
    for g in rel.grazed:
        h = _new(Hex, (g.hex[0] + aq, g.hex[1] + ar))
        placed.append((g, h, static.get(h)))
    return list(_resolve_grazes(grazing, placed, rel.denominator, words))


def _hex_findings(state: MapState, policy: LosPolicy, ctx: LineContext) -> list[Finding]:
    """Findings from the crossed hexes between the ends and from grazed hexes."""
    t = ctx.traversal
    out: list[Finding] = []
    on_map = state.board.grid.contains
    for h, (enter, _leave) in zip(t.crossed[1:-1], t.spans[1:-1], strict=True):
        if not on_map(h):  # off the map there is nothing to see through
            continue
        ob = policy.hex_obstacle(state, h, ctx)
        if ob is not None:
            out.append(Finding.of(ob, h, enter / t.denominator))
    if policy.grazing != "never" and t.grazed:
        placed = [(g, g.hex, policy.hex_obstacle(state, g.hex, ctx)) for g in t.grazed if on_map(g.hex)]
        out.extend(_resolve_grazes(policy.grazing, placed, t.denominator, _Grazes.of(state, policy)))
    return out


def _hexside_findings(state: MapState, policy: LosPolicy, ctx: LineContext) -> list[Finding]:
    """Findings from hexsides crossed, and (grazing "either") hexsides run along."""
    static = policy.static_hexsides(state)
    if static is not None and not static:
        return []

    def obstacle(side: Hexside) -> Obstacle | None:
        return static.get(side) if static is not None else policy.hexside_obstacle(state, side, ctx)

    out = []
    for side, at in ctx.crossed_hexsides():
        ob = obstacle(side)
        if ob is not None:
            out.append(Finding.of(ob, None, at))
    if policy.grazing == "either":
        t = ctx.traversal
        runs: dict[tuple[int, int], list[Hex]] = {}
        for g in t.grazed:
            if g.side is not None:
                runs.setdefault((g.start, g.end), []).append(g.hex)
        for (start, _end), pair in runs.items():
            if len(pair) == 2:
                ob = obstacle(hexside(pair[0], pair[1]))
                if ob is not None and ob.severity in _RANK:
                    out.append(Finding.of(ob, None, start / t.denominator, grazed=True))
    return out


_RANK = {"hinder": 1, "block": 2}


def _resolve_grazes(
    grazing: GrazeRule,
    placed: Sequence[tuple[Graze, Hex, Obstacle | None]],
    denominator: int,
    words: _Grazes,
) -> Iterable[Finding]:
    """Findings from grazed hexes (each with the hex where it lies on the map and its
    obstacle) under a grazing rule. Each cause says that the hex was only grazed, where
    (the hexside, between which hexes, or the corner) and why that counts (issue 13
    finding 12: "blocked by woods 1708" read as if the line went through 1708).

    A hexside run touches two hexes over the same stretch; a corner touch is one hex at
    one point. A run with one side off the map has only one side walled.
    """
    if grazing == "never":
        return
    if grazing == "either":
        for g, h, ob in placed:
            if ob is not None and ob.severity in _RANK:
                cause = f"{ob.cause}, only grazed: {words.where(g, h)}; {words.reason}"
                yield Finding(ob.severity, cause, ob.rule, h, g.start / denominator, ob.amount, True)
        return
    # "both": only a hexside run walled in on both sides counts, at the weaker effect.
    runs: dict[tuple[int, int], list[tuple[Graze, Hex, Obstacle]]] = {}
    for g, h, ob in placed:
        if g.side is not None and ob is not None and ob.severity in _RANK:
            runs.setdefault((g.start, g.end), []).append((g, h, ob))
    for (start, _end), pair in runs.items():
        if len(pair) != 2:
            continue
        (g1, h1, o1), (_, h2, o2) = pair
        (weaker, where), other = (
            ((o1, h1), o2) if _RANK[o1.severity] <= _RANK[o2.severity] else ((o2, h2), o1)
        )
        both = Obstacle(
            weaker.severity,
            f"{weaker.cause} and {other.cause} on both sides of the hexside the line runs along, "
            f"only grazed: {words.where(g1, h1)}; {words.reason}",
            weaker.rule,
            weaker.amount,
        )
        yield Finding.of(both, where, start / denominator, grazed=True)


class StaticObstacles(dict):  # type: ignore[type-arg]
    """Hex -> Obstacle for a policy whose hex effects do not depend on the query, with the
    grazing rule to read them by; lets the engine skip per-hex policy calls."""

    def __init__(self, items: dict[Hex, Obstacle], grazing: GrazeRule) -> None:
        super().__init__(items)
        self.grazing = grazing


class BasePolicy:
    """Defaults for a policy: no whole-line rules, no end modifiers."""

    name = "base"
    grazing: GrazeRule = "both"

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        return None

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        return None

    def end_level(self, state: MapState, h: Hex, piece: Piece | None) -> int:
        return ground_level(state, h, piece)

    def static_obstacles(self, state: MapState) -> StaticObstacles | None:
        return None

    def static_hexsides(self, state: MapState) -> Mapping[Hexside, Obstacle] | None:
        return None

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        return found

    def end_modifiers(self, state: MapState, ctx: LineContext) -> list[Finding]:
        return []
