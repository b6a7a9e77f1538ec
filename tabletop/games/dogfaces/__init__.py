"""Dogfaces in Space (rules text: ``dogfaces_in_space.txt``).

Individual soldiers, D6 combat table. ``los``: line of sight and the terrain modifiers
of a shot; ``movement``: terrain costs, roads, bridges, stacking, stopping next to an
enemy and Larry's jet pack; ``window``: the jet pack's landing hexes as extra moves
(``tabletop reach`` and the window). Unit types are the soldiers' names in lower case.
``roster.yaml``/``data``: the soldiers, weapons and Combat Table (II, VI); ``combat``: one
attack and its exact odds; ``ruleset``: the turn of IV, set-up, Overwatch, results, stun
recovery and victory; ``bots``: the random and tactical bots and the sim's judge;
``tables``: what ``tabletop tables dogfaces`` prints.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.engine.attributes import Schema, load_schema
from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem


def knows() -> Knowledge:
    """The terrain of the movement table (movement.yaml) and of the shot table (los.yaml)."""
    from . import los, movement

    shots = los.default_table()
    terrain = (
        frozenset(movement.default_table().terrain) | frozenset(shots.range_limit) | frozenset(shots.into_hex)
    )
    return Knowledge("Dogfaces in Space", terrain)


def schema() -> Schema:
    """Tom's rockets and the scenario's set-up edges (units.yaml)."""
    return load_schema(Path(__file__).with_name("units.yaml"))


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="dogfaces",
    title="Dogfaces in Space",
    los_policy=Lazy("tabletop.games.dogfaces.los", "policy"),
    move_policy=Lazy("tabletop.games.dogfaces.movement", "move_policy"),
    knows=knows,
    ruleset=Lazy("tabletop.games.dogfaces.ruleset", "ruleset"),
    bots={
        "tactical": Lazy("tabletop.games.dogfaces.bots", "tactical_bot"),
        "random": Lazy("tabletop.games.dogfaces.bots", "random_bot"),
    },
    default_bots={"blue": "tactical", "red": "tactical"},
    sim=Lazy("tabletop.games.dogfaces.bots"),
    tables=Lazy("tabletop.games.dogfaces.tables", "tables"),
    schema=schema,
    window=Lazy("tabletop.games.dogfaces.window", "extras"),
)
