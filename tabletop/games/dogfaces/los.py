"""Line of sight and shot modifiers for Dogfaces in Space (Dogfaces V and VI).

A shot passing through any portion of a forest hex has its range limited to 2, so a
longer line through forest is blocked. Forest, hill and town modify a shot only when
the target is in such a hex, never when the firer is: those come back as modifiers of
the shot, not obstacles. Nothing else touches the line. Which terrain does what, and by
how much, is data (``los.yaml``).

Weapon ranges (rifle 3, pistol 2, ...) are not line of sight and are not checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.los import BasePolicy, Finding, GrazeRule, LineContext, Obstacle
from tabletop.engine.pieces import MapState
from tabletop.hexgrid import Hex
from tabletop.yamlfile import read_yaml

RULE = "Dogfaces V (terrain)"


@dataclass(frozen=True)
class IntoHex:
    """A combat effect of shooting into a hex of one terrain kind."""

    amount: int
    applies_to: str
    when_firer_lower: bool = False
    also: str = ""


@dataclass(frozen=True)
class ShotTable:
    """Range limits of shots through terrain, and effects of shooting into it."""

    range_limit: dict[str, int]
    into_hex: dict[str, IntoHex]

    @classmethod
    def from_data(cls, data: Any, source: str = "los.yaml") -> ShotTable:
        """Build from parsed YAML; ValueError naming the bad key or value."""
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected a mapping, got {type(data).__name__}")
        unknown = sorted(set(data) - {"range_limit", "into_hex"})
        if unknown:
            raise ValueError(f"{source}: unknown keys {unknown}; known: ['into_hex', 'range_limit']")
        limits = data.get("range_limit") or {}
        if not isinstance(limits, dict):
            raise ValueError(f"{source}: range_limit: expected a mapping of terrain to hexes, got {limits!r}")
        for kind, hexes in limits.items():
            if not isinstance(hexes, int) or isinstance(hexes, bool) or hexes < 1:
                raise ValueError(
                    f"{source}: range_limit.{kind}: expected a whole number of hexes >= 1, got {hexes!r}"
                )
        effects = data.get("into_hex") or {}
        if not isinstance(effects, dict):
            raise ValueError(f"{source}: into_hex: expected a mapping of terrain to effects, got {effects!r}")
        return cls(
            dict(limits),
            {kind: _into_hex(spec, f"{source}: into_hex.{kind}") for kind, spec in effects.items()},
        )


def _into_hex(spec: Any, where: str) -> IntoHex:
    if not isinstance(spec, dict):
        raise ValueError(f"{where}: expected a mapping, got {spec!r}")
    unknown = sorted(set(spec) - {"amount", "applies_to", "when_firer_lower", "also"})
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}")
    amount, applies_to = spec.get("amount"), spec.get("applies_to")
    when_lower, also = spec.get("when_firer_lower", False), spec.get("also", "")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise ValueError(f"{where}.amount: expected a whole number, got {amount!r}")
    if not isinstance(applies_to, str) or not applies_to:
        raise ValueError(f"{where}.applies_to: expected text such as 'attack roll', got {applies_to!r}")
    if not isinstance(when_lower, bool):
        raise ValueError(f"{where}.when_firer_lower: expected true or false, got {when_lower!r}")
    if not isinstance(also, str):
        raise ValueError(f"{where}.also: expected text, got {also!r}")
    return IntoHex(amount, applies_to, when_lower, also)


@cache
def default_table() -> ShotTable:
    """The table shipped in this package's ``los.yaml``."""
    path = Path(__file__).with_name("los.yaml")
    return ShotTable.from_data(read_yaml(path), str(path))  # safe YAML; duplicate keys refused


class DogfacesPolicy(BasePolicy):
    """Dogfaces V/VI line of sight: only forest touches the line, and only by range."""

    name = "Dogfaces in Space"
    # "Passes through any portion of a Forest hex": a line that only touches a forest
    # hex, along a hexside or through a corner, passes through a portion of it, so a
    # grazed hex counts as if crossed (the project's reading of "any portion").
    grazing: GrazeRule = "either"

    def __init__(self, table: ShotTable | None = None) -> None:
        self.table = table if table is not None else default_table()

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        # The engine never asks about the firer's or the target's own hex, so a forest
        # limits the range only when it lies between them; shooting into or out of a
        # forest is the modifier below (the project's reading: "passes through" a hex
        # means a hex between the ends). Hills, towns and soldiers never touch the line:
        # weapons are omnidirectional (Dogfaces VI) and the text gives no other rule
        # for seeing (the project's choice where the text is silent).
        kind = state.terrain_at(h)
        limit = self.table.range_limit.get(kind)
        if limit is None or ctx.range <= limit:
            return None
        return Obstacle(
            "block", f"passes through {kind} {state.board.label(h)}: range limited to {limit}", RULE
        )

    def end_modifiers(self, state: MapState, ctx: LineContext) -> list[Finding]:
        # Dogfaces V: the combat effects of forest, hill and town apply only when
        # shooting into such a hex, not out of one: only the target's hex counts.
        kind = state.terrain_at(ctx.target)
        effect = self.table.into_hex.get(kind)
        if effect is None or ctx.range == 0:
            return []
        if effect.when_firer_lower and not ctx.source_level < ctx.target_level:
            return []
        label = state.board.label(ctx.target)
        where = f"shooting into {kind} {label}"
        if effect.when_firer_lower:
            where += f" from lower down (level {ctx.source_level} into {ctx.target_level})"
        cause = f"{where}: {effect.applies_to} {effect.amount:+d}"
        if effect.also:
            cause += f"; {effect.also}"
        return [Finding("modifier", cause, RULE, ctx.target, 1.0, effect.amount)]


def policy(state: MapState) -> DogfacesPolicy:
    """The Dogfaces line-of-sight policy (the same for every map)."""
    return DogfacesPolicy()
