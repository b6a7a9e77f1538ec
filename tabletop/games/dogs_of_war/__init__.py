"""Dogs of War (modern skirmish, D10, action points; 1 hex = 1 inch).

``los``: facing arcs, models in the way, smoke, darkness, buildings and cover, and the
10-inch priority-target rule; ``movement``: action points per inch by order (walk, run,
crawl), rubble, climbing walls, doorways; ``blasts``: grenades, C4, claymores,
automatic fire and grenade deviation. Figures in the yaml files beside them.
``data``: the weapons chart (weapons.yaml, the project's), the nine team lists
(teams.yaml) and the printed tables (rules.yaml); ``roster``: army building within a
point budget (rosters/*.yaml); ``combat``: to-hit, location, cover, armour, the wound
chart; ``ruleset``: the turn (initiative, alternating activations, AP, op-fire as a
reaction, bleeding, morale, victory); ``bots``: the random and tactical bots and the
sim's judge; ``tables``: what ``tabletop tables dogs-of-war`` prints; ``window``: the
model sheet and the to-hit odds in the window.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.engine.attributes import Schema, load_schema
from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem

from . import los
from .los import DogsOfWarPolicy, policy, priority_targets

__all__ = ["RULES", "DogsOfWarPolicy", "knows", "policy", "priority_targets"]

#: terrain kinds with no effect on sight or movement: open ground and roads
PLAIN_KINDS = frozenset({"open", "road"})


def knows() -> Knowledge:
    """Terrain is judged by its ``kind`` property: the kinds of los.yaml, the rubble and
    enclosed kinds of movement.yaml, and the plain kinds."""
    from .movement import default_table as moves

    kinds = frozenset(los.default_table().terrain) | moves().rubble_kinds | moves().enclosed_kinds
    return Knowledge("Dogs of War", kinds | PLAIN_KINDS, terrain_property="kind")


def schema() -> Schema:
    """The models' stats and kit, and the scenarios' rosters (units.yaml)."""
    return load_schema(Path(__file__).with_name("units.yaml"))


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="dogs_of_war",
    title="Dogs of War",
    los_policy=Lazy("tabletop.games.dogs_of_war.los", "policy"),
    move_policy=Lazy("tabletop.games.dogs_of_war.movement", "move_policy"),
    knows=knows,
    ruleset=Lazy("tabletop.games.dogs_of_war.ruleset", "ruleset"),
    bots={
        "tactical": Lazy("tabletop.games.dogs_of_war.bots", "tactical_bot"),
        "random": Lazy("tabletop.games.dogs_of_war.bots", "random_bot"),
    },
    default_bots={"blue": "tactical", "red": "tactical"},
    sim=Lazy("tabletop.games.dogs_of_war.bots"),
    tables=Lazy("tabletop.games.dogs_of_war.tables", "tables"),
    schema=schema,
    window=Lazy("tabletop.games.dogs_of_war.window", "extras"),
)
