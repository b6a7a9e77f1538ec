"""D-Day at Omaha Beach line of sight for US ranged fire.

The text has no line-of-sight rule of its own; it has rules on where ranged fire may go,
and those are reported here as findings with their section:

- omaha 6.2 (and 6.4 for artillery barrage): ranged fire to a high-ground position is
  only possible if the position projects a field of fire into at least one beach hex.
  A line of range 2 or more to a position hex of high ground whose position's field
  (``fields.py``) holds no beach hex is blocked, at the target. At range 1 the same fact
  is a modifier: ranged support from that hex is not possible, the assault from it is
  (an attack needs an adjacent infantry, 6.2).
- omaha 9.8: fire across a bluff or cliff hexside uses the "ranged from distance or
  across bluff/cliff hexside" weapons only (BR, BZ, MG, MO, RD): a modifier, once per
  such hexside crossed, and once per corner of the bluff line the line passes through
  from one side to the other (``fields.corner_passages``: the engine reads a line
  through a corner as crossing no hexside); it does not block.
- omaha 9.6 and 6.2, adjacent only: across a bluff going up or a cliff the attack is
  prohibited (heavy infantry may still support across it); from the top of a bluff
  down, the attack is treated as across a slope hexside. Modifiers.

Where the text is silent, the project's choices (``fields.yaml``): the ground that
limits fields of fire also blocks lines (crest hexes hide lower ground behind them,
bocage and buildings screen), units and markers never block, and a line that only runs
along a hexside or touches a corner is not blocked ("never" grazing). The US-only rules
(6.2, 9.6, 9.8) are not applied when the viewer is a German piece.

Knows nothing of unit weapons, strength or dice: which weapons a unit has is the attack
procedure's business; the findings say which ones count.
"""

from __future__ import annotations

from tabletop.board import Map
from tabletop.engine.los import BasePolicy, Finding, GrazeRule, LineContext, Obstacle
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, Hexside

from .fields import GAME, FieldsConfig, corner_passages, default_config, fields, ground_mask, position_keys

RULE_HIGH_GROUND = f"{GAME} 6.2, 6.4"
RULE_ACROSS = f"{GAME} 9.8"
RULE_ASSAULT = f"{GAME} 9.6"
RULE_BLUFF_TOP = f"{GAME} 6.2, 9.6"
RULE_GROUND = f"{GAME}: no line-of-sight rule; project's choice (games/omaha/fields.yaml)"
AT_TARGET = 1.0


class OmahaPolicy(BasePolicy):
    """Line of sight for US ranged fire in D-Day at Omaha Beach (see the module notes)."""

    name = GAME
    grazing: GrazeRule = "never"

    def __init__(self, config: FieldsConfig | None = None) -> None:
        self.config = default_config() if config is None else config

    def _german(self, piece: Piece | None) -> bool:
        return piece is not None and piece.side == self.config.german_side

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        cause = ground_mask(
            state.board, h, (ctx.source, ctx.target), (ctx.source_level, ctx.target_level), self.config
        )
        return Obstacle("block", cause, RULE_GROUND) if cause is not None else None

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        if self._german(ctx.query.viewer):
            return None
        crossing = _crossing(state.board, side, ctx, self.config)
        if crossing is None:
            return None
        _key, name, way = crossing
        return Obstacle(
            "modifier",
            f"fire across a {name} hexside ({way}): ranged weapons only, BR BZ MG MO RD",
            RULE_ACROSS,
        )

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        if self._german(ctx.query.viewer):
            return found
        out = list(found)
        for key, way, at in corner_passages(state.board, ctx.source, ctx.target, self.config):
            name = state.board.hexsides[key].name.lower()
            cause = f"fire across a {name} line at a corner ({way}): ranged weapons only, BR BZ MG MO RD"
            out.append(Finding("modifier", cause, RULE_ACROSS, None, float(at)))
        if ctx.range == 1:
            out.extend(self._assault(state.board, ctx))
        out.extend(self._high_ground(state, ctx))
        return out

    def _assault(self, board: Map, ctx: LineContext) -> list[Finding]:
        """Adjacent lines across a bluff or cliff: what the attack rules say of them."""
        out = []
        for side, at in ctx.crossed_hexsides():
            crossing = _crossing(board, side, ctx, self.config)
            if crossing is None:
                continue
            key, name, way = crossing
            if key == "bluff" and way == "down":
                cause = "attack from the top of a bluff: as across a slope hexside"
                out.append(Finding("modifier", cause, RULE_BLUFF_TOP, None, at))
            elif key != "bluff" or way == "up":
                cause = (
                    f"no attack across a {name} hexside {way}: ranged fire only; heavy infantry may support"
                )
                out.append(Finding("modifier", cause, RULE_ASSAULT, None, at))
        return out

    def _high_ground(self, state: MapState, ctx: LineContext) -> list[Finding]:
        """Omaha 6.2/6.4: a high-ground position without a beach hex in its field of fire
        cannot be the target of ranged fire. (The fields of fire are the printed map's:
        they do not change in play.)"""
        board = state.board
        target = ctx.target
        if state.terrain_at(target) not in self.config.high_ground:
            return []
        f = fields(board, self.config)
        out = []
        for key in position_keys(board, self.config):
            region = board.regions[key]
            if target not in region.hexes:
                continue
            field = f.by_position.get(key, {})
            if any(board.terrain[h] in self.config.beach for h in field):
                continue
            what = f"high-ground position {region.name} projects no field of fire into a beach hex"
            if ctx.range >= 2:
                out.append(
                    Finding("block", f"{what}: no ranged fire at it", RULE_HIGH_GROUND, target, AT_TARGET)
                )
            else:
                cause = f"{what}: no ranged support from here, only the assault"
                out.append(Finding("modifier", cause, RULE_HIGH_GROUND, target, AT_TARGET))
        return out


def _crossing(
    board: Map, side: Hexside, ctx: LineContext, config: FieldsConfig
) -> tuple[str, str, str] | None:
    """The climb hexside (bluff, cliff) on ``side`` as the line crosses it: its key,
    display name, and "up", "down" or "level" (by the map's elevation, from the source's
    side)."""
    keys = sorted(board.hexside_features(side.a, side.b) & config.climb)
    if not keys:
        return None
    order = {h: i for i, h in enumerate(ctx.traversal.crossed)}
    before, after = sorted((side.a, side.b), key=lambda h: order.get(h, -1))
    rise = board.elevation[after] - board.elevation[before]
    way = "up" if rise > 0 else "down" if rise < 0 else "level"
    return keys[0], board.hexsides[keys[0]].name.lower(), way


def policy(state: MapState) -> OmahaPolicy:
    """The D-Day at Omaha Beach line-of-sight policy (the registry's entry)."""
    return OmahaPolicy()
