"""Dogfaces in Space (rules text: ``dogfaces_in_space.txt``).

Individual soldiers, D6 combat table. ``los``: line of sight and the terrain modifiers
of a shot; ``movement``: terrain costs, roads, bridges, stacking, stopping next to an
enemy and Larry's jet pack; ``window``: the jet pack's landing hexes as extra moves
(``tabletop reach`` and the window). Unit types are the soldiers' names in lower case.
"""

from __future__ import annotations

from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem


def knows() -> Knowledge:
    """The terrain of the movement table (movement.yaml) and of the shot table (los.yaml)."""
    from . import los, movement

    shots = los.default_table()
    terrain = (
        frozenset(movement.default_table().terrain) | frozenset(shots.range_limit) | frozenset(shots.into_hex)
    )
    return Knowledge("Dogfaces in Space", terrain)


#: this rule system, as ``tabletop.games`` finds it (entry point ``tabletop.rules``)
RULES = RuleSystem(
    key="dogfaces",
    title="Dogfaces in Space",
    los_policy=Lazy("tabletop.games.dogfaces.los", "policy"),
    move_policy=Lazy("tabletop.games.dogfaces.movement", "move_policy"),
    knows=knows,
    window=Lazy("tabletop.games.dogfaces.window", "extras"),
)
