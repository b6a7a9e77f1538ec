"""The Devil Dogs of Belleau Wood (rules text: ``devil_dogs_of_belleau_wood.txt``).

WWI company level, card-driven orders, no dice. ``los``: line of sight (7.1);
``movement``: orders ADV/RET/REP/HOLD, stacking, enemy adjacency and forced retreat
(4.1, 6). Sides are "allied" and "german". ``units.yaml``: what its units carry
(nation, regiment) and its scenarios' own keys (attacker, objectives). ``cards.yaml``
(the project's own decks) and ``rules.yaml`` (figures and the project's choices), read
by ``data``; ``combat``: damage, ladders, MG fire and Combat X (6.2, 7, 8); ``keywords``:
the 21 keywords of 9; ``ruleset``: the turn of 5; ``bots``: the random and planner bots
and the sim's judge; ``tables``: ``tabletop tables devil-dogs``; ``window``: the hand,
sector card spaces and initiative panels.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.engine.attributes import Schema, load_schema
from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem


def knows() -> Knowledge:
    """The terrain costed in movement.yaml or named in los.yaml; the sides of movement.yaml."""
    from . import los, movement

    table = los.default_table()
    terrain = frozenset(movement.default_table().terrain_costs) | table.blocking_terrain | table.slope_terrain
    return Knowledge(
        "The Devil Dogs of Belleau Wood", terrain, sides=frozenset(movement.default_table().sides)
    )


def schema() -> Schema:
    """Its units' nation, regiment, battalion and division, and its scenarios' attacker,
    scenario initiative, sectors and objectives (units.yaml)."""
    return load_schema(Path(__file__).with_name("units.yaml"))


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="devil_dogs",
    title="The Devil Dogs of Belleau Wood",
    los_policy=Lazy("tabletop.games.devil_dogs.los", "policy"),
    move_policy=Lazy("tabletop.games.devil_dogs.movement", "move_policy"),
    knows=knows,
    ruleset=Lazy("tabletop.games.devil_dogs.ruleset", "ruleset"),
    bots={
        "planner": Lazy("tabletop.games.devil_dogs.bots", "planner_bot"),
        "random": Lazy("tabletop.games.devil_dogs.bots", "random_bot"),
    },
    default_bots={"allied": "planner", "german": "planner"},
    sim=Lazy("tabletop.games.devil_dogs.bots"),
    tables=Lazy("tabletop.games.devil_dogs.tables", "tables"),
    window=Lazy("tabletop.games.devil_dogs.window", "extras"),
    schema=schema,
)
