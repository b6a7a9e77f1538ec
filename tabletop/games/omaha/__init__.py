"""D-Day at Omaha Beach (Decision Games), solitaire: the Germans are procedures.

``fields`` draws the German positions' fields of fire (intense, steady, sporadic) by the
project's own default in ``fields.yaml`` (the text gives no rule for them: the printed
map shows them); ``los`` holds the line-of-sight policy for US ranged fire, which the
registry in ``tabletop.games`` finds through ``los.policy(state)``; ``movement`` the US
movement table by unit class, climbing, roads, extended turns and stacking; ``control``
US control of hexes and German communication paths to the exits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import GAME, INTENSITIES, FieldsConfig, Intensity, field_at, fields_of_fire

if TYPE_CHECKING:
    from tabletop.games import Knowledge

__all__ = ["INTENSITIES", "FieldsConfig", "Intensity", "field_at", "fields_of_fire", "knows"]


def knows() -> Knowledge:
    """The terrain rows of the 9.4 movement table (movement.yaml); the US side of
    movement.yaml and the German side of fields.yaml."""
    from tabletop.games import Knowledge

    from .fields import default_config
    from .movement import default_rules

    sides = frozenset({default_rules().us_side, default_config().german_side})
    return Knowledge(GAME, frozenset(default_rules().terrain), sides=sides)
