"""D-Day at Omaha Beach (Decision Games), solitaire: the Germans are procedures.

``fields`` draws the German positions' fields of fire (intense, steady, sporadic) by the
project's own default in ``fields.yaml`` (the text gives no rule for them: the printed
map shows them); ``los`` holds the line-of-sight policy for US ranged fire, which the
registry in ``tabletop.games`` finds through ``los.policy(state)``; ``movement`` the US
movement table by unit class, climbing, roads, extended turns and stacking; ``control``
US control of hexes and German communication paths to the exits.
"""

from .fields import INTENSITIES, FieldsConfig, Intensity, field_at, fields_of_fire

__all__ = ["INTENSITIES", "FieldsConfig", "Intensity", "field_at", "fields_of_fire"]
