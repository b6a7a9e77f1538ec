"""D-Day at Omaha Beach (Decision Games), solitaire: the Germans are procedures.

``fields`` draws the German positions' fields of fire (intense, steady, sporadic) by the
project's own default in ``fields.yaml`` (the text gives no rule for them: the printed
map shows them); ``los`` holds the line-of-sight policy for US ranged fire, which the
descriptor ``RULES`` names as ``los.policy(state)``; ``movement`` the US
movement table by unit class, climbing, roads, extended turns and stacking; ``control``
US control of hexes and German communication paths to the exits; ``window`` the
fields-of-fire overlay the window and ``render --extra fields`` draw.

Part 1 of the game (issue 17): ``data`` reads the authored data (``rules.yaml``,
``cards.yaml``, ``germans.yaml``, ``us.yaml``, ``phases.yaml``); ``ruleset`` is the turn
machine, ``landing`` the landing (omaha 1, 9.2), ``german`` the German side (omaha 2, 4,
5, 9.3), ``actions`` the section 3 action table, ``tables`` what ``tabletop tables omaha``
prints, ``autoplayer`` the US players (``tactical``, ``landing``, ``random``) and the sim judge.

Part 2 (issue 18): ``us_actions`` the US Action phase (omaha 6-8), ``attacks`` and
``barrages`` 6.2-6.5 with 9.5-9.8, ``command`` HQs, Generals and CPs, ``engineers``
the EXT engineer bases (omaha 7), ``builder`` the window's attack builder, ``victory``.
"""

from __future__ import annotations

from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem

from .fields import GAME, INTENSITIES, FieldsConfig, Intensity, field_at, fields_of_fire

__all__ = ["INTENSITIES", "RULES", "FieldsConfig", "Intensity", "field_at", "fields_of_fire", "knows"]


def knows() -> Knowledge:
    """The terrain rows of the 9.4 movement table (movement.yaml); the US side of
    movement.yaml and the German side of fields.yaml."""
    from .fields import default_config
    from .movement import default_rules

    sides = frozenset({default_rules().us_side, default_config().german_side})
    return Knowledge(GAME, frozenset(default_rules().terrain), sides=sides)


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="omaha",
    title=GAME,
    los_policy=Lazy("tabletop.games.omaha.los", "policy"),
    move_policy=Lazy("tabletop.games.omaha.movement", "move_policy"),
    knows=knows,
    window=Lazy("tabletop.games.omaha.window", "extras"),
    ruleset=Lazy("tabletop.games.omaha.ruleset", "ruleset"),
    bots={"tactical": Lazy("tabletop.games.omaha.autoplayer", "autoplayer"),
          "landing": Lazy("tabletop.games.omaha.autoplayer", "landing_bot"),
          "random": Lazy("tabletop.games.omaha.autoplayer", "random_bot")},
    default_bots={"us": "tactical"},
    sim=Lazy("tabletop.games.omaha.autoplayer"),
    tables=Lazy("tabletop.games.omaha.tables", "tables"),
)
