"""The Devil Dogs of Belleau Wood (rules text: ``devil_dogs_of_belleau_wood.txt``).

WWI company level, card-driven orders, no dice. ``los``: line of sight (7.1);
``movement``: orders ADV/RET/REP/HOLD, stacking, enemy adjacency and forced retreat
(4.1, 6). Sides are "allied" and "german".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.games import Knowledge


def knows() -> Knowledge:
    """The terrain costed in movement.yaml or named in los.yaml; the sides of movement.yaml."""
    from tabletop.games import Knowledge

    from . import los, movement

    table = los.default_table()
    terrain = frozenset(movement.default_table().terrain_costs) | table.blocking_terrain | table.slope_terrain
    return Knowledge(
        "The Devil Dogs of Belleau Wood", terrain, sides=frozenset(movement.default_table().sides)
    )
