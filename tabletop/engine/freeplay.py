"""Free play: the map's own data says what blocks sight and what movement costs.

Each terrain type's ``properties.los`` (clear / hinder / block), each hexside feature's
``properties.los``, the map's ``line_of_sight.markers`` for markers, and the map's
``line_of_sight.grazing`` for lines along a hexside or through a corner. Units do not
block in free play (the project's choice: a free-play map has no rule saying they do).
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.hexgrid import Hex, Hexside

from .los import BasePolicy, GrazeRule, LineContext, Obstacle, StaticObstacles
from .movement import MoveModel, Reach
from .pieces import MapState, Piece

RULE = "free play: map data"


class FreePlayPolicy(BasePolicy):
    """Line of sight read from the map's terrain, hexside and marker settings."""

    name = "free play"

    def __init__(self, grazing: GrazeRule = "both", markers: dict[str, str] | None = None) -> None:
        self.grazing = grazing
        self.markers = dict(markers or {})
        # (state, its version, table): the state itself, not its id(), so a new state
        # that happens to reuse a collected one's address never reads a stale table
        self._cache: tuple[MapState, int, StaticObstacles] | None = None
        self._sides: tuple[object, Mapping[Hexside, Obstacle]] | None = None

    @classmethod
    def for_map(cls, state: MapState) -> FreePlayPolicy:
        settings = state.board.line_of_sight
        return cls(settings.get("grazing", "both"), dict(settings.get("markers", {})))

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        return self._obstacle(state, h)

    def static_obstacles(self, state: MapState) -> StaticObstacles:
        """Nothing here depends on who looks: one table per map state, rebuilt on change."""
        if self._cache is None or self._cache[0] is not state or self._cache[1] != state.version:
            table = {}
            for h in state.board.grid.hexes():
                ob = self._obstacle(state, h)
                if ob is not None:
                    table[h] = ob
            self._cache = (state, state.version, StaticObstacles(table, self.grazing))
        return self._cache[2]

    def static_hexsides(self, state: MapState) -> Mapping[Hexside, Obstacle]:
        """Hexside features are the map's, fixed for its lifetime: one table per map."""
        if self._sides is None or self._sides[0] is not state.board:
            out: dict[Hexside, Obstacle] = {}
            for key, feature in state.board.hexsides.items():
                effect = feature.properties.get("los", "clear")
                if effect in ("hinder", "block"):
                    for side in feature.sides:
                        out.setdefault(side, Obstacle(effect, key, RULE))
            self._sides = (state.board, out)
        return self._sides[1]

    def _obstacle(self, state: MapState, h: Hex) -> Obstacle | None:
        board = state.board
        kind = state.terrain_at(h)
        worst: Obstacle | None = None
        effect = board.terrain_types[kind].properties.get("los", "clear")
        if effect in ("hinder", "block"):
            worst = Obstacle(effect, kind, RULE)
        for marker in state.markers_at(h):
            m_effect = self.markers.get(marker.type, "clear")
            if m_effect == "block" or (m_effect == "hinder" and worst is None):
                worst = Obstacle(m_effect, marker.type, RULE)  # type: ignore[arg-type]
        return worst

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        for key in state.board.hexside_features(side.a, side.b):
            effect = state.board.hexsides[key].properties.get("los", "clear")
            if effect in ("hinder", "block"):
                return Obstacle(effect, key, RULE)
        return None


class FreePlayMovePolicy:
    """Free-play movement from the map's data: each terrain's ``properties.move_cost``
    (a whole number, default 1, or ``impassable``); no zones of control, no stacking
    limit. The default budget of 4 points is the project's choice (``--budget`` sets it).
    """

    name = "free play"
    default_budget = 4

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        board = state.board
        enter: dict[Hex, int] = {}
        why_not: dict[Hex, str] = {}
        for h in board.terrain:
            kind = state.terrain_at(h)
            cost = board.terrain_types[kind].properties.get("move_cost", 1)
            if type(cost) is int and cost >= 0:
                enter[h] = cost
            else:
                why_not[h] = f"{kind} is impassable"
        return MoveModel(self.default_budget if budget is None else budget, enter, why_not=why_not, rule=RULE)

    def judge(self, state: MapState, unit: Piece, result: Reach, order: str | None = None) -> Reach:
        return result
