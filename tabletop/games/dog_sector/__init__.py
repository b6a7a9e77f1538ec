"""DOG SECTOR (White Dog Games): the Omaha Beach Dog sector landing, solitaire.

``los`` holds the line-of-sight policy and the geometric targeting limits of phases 4
and 6 (``los.yaml``); ``movement`` the phase 5 movement, stacking and obstacle rules
(``movement.yaml``). ``RULES`` below, the descriptor ``tabletop.games`` finds, names
them as ``los.policy(state)`` and ``movement.move_policy(state)``. Pieces use the sides
"american" and "german" and the unit type keys listed in the yaml files.
``ruleset`` is the turn machine (``ruleset.ruleset()`` for the descriptor): ``procedures``
runs phases 1, 2, 3 and 7, ``german`` phase 4, ``american`` phases 5 and 6, ``hits``
what a hit does (``hits.yaml``), ``victory`` Table 7; their tables are ``rules.yaml``.
``planner`` is the default American bot (``autoplayer`` the first one, kept as
``simple``), ``fire_aid`` Table 6 in the selection box.
"""

from __future__ import annotations

from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem


def knows() -> Knowledge:
    """The terrain of los.yaml and movement.yaml, the section regions rules.yaml fires
    artillery at, and the region kinds of the landing row and of the map sections, and the sides of los.yaml."""
    from . import los, movement, procedures

    t = procedures.tables()
    terrain = los.tables().terrain | frozenset(movement.tables().terrain_costs)
    kinds = (t.landing.region_kind, los.tables().section_kind)
    sides = frozenset(los.tables().sides)
    return Knowledge(
        "DOG SECTOR", terrain, regions=tuple(t.artillery.sections), region_kinds=kinds, sides=sides
    )


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="dog_sector",
    title="DOG SECTOR",
    los_policy=Lazy("tabletop.games.dog_sector.los", "policy"),
    move_policy=Lazy("tabletop.games.dog_sector.movement", "move_policy"),
    knows=knows,
    ruleset=Lazy("tabletop.games.dog_sector.ruleset", "ruleset"),
    # "autoplayer": the planning autoplayer (planner.py, issue 20 item 4); "simple":
    # the first one (autoplayer.py), kept to measure against
    bots={
        "autoplayer": Lazy("tabletop.games.dog_sector.planner", "planner"),
        "simple": Lazy("tabletop.games.dog_sector.planner", "simple"),
    },
    default_bots={"american": "autoplayer"},
    sim=Lazy("tabletop.games.dog_sector.autoplayer"),
    tables=Lazy("tabletop.games.dog_sector.tables", "tables"),
)
