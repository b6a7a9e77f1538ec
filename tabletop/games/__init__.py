"""One package per rule system; each supplies its line-of-sight and movement policies,
and those played end to end a ruleset (turn sequence, procedures, tables) and a bot.

A map names its rule system (``rules:`` in the map file); ``los_policy`` picks the
policy for it, or free play (the map's own terrain data) for any other map.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Bot, Ruleset
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState

#: rule system key (as written in map files) -> module with ``policy(state)``
LOS_POLICIES = {
    "dog_sector": "tabletop.games.dog_sector.los",
    "devil_dogs": "tabletop.games.devil_dogs.los",
    "omaha": "tabletop.games.omaha.los",
    "dogfaces": "tabletop.games.dogfaces.los",
    "dogs_of_war": "tabletop.games.dogs_of_war.los",
}


def los_policy(state: MapState, rules: str | None = None) -> LosPolicy:
    """The line-of-sight policy for ``rules`` (default: the map's own ``rules:``)."""
    key = rules if rules is not None else state.board.rules
    if key == "free" or key not in LOS_POLICIES:
        return FreePlayPolicy.for_map(state)
    module = import_module(LOS_POLICIES[key])
    policy: LosPolicy = module.policy(state)
    return policy


#: rule system key -> module with ``move_policy(state)``
MOVE_POLICIES = {
    "dog_sector": "tabletop.games.dog_sector.movement",
    "devil_dogs": "tabletop.games.devil_dogs.movement",
    "omaha": "tabletop.games.omaha.movement",
    "dogfaces": "tabletop.games.dogfaces.movement",
    "dogs_of_war": "tabletop.games.dogs_of_war.movement",
}


def move_policy(state: MapState, rules: str | None = None) -> MovePolicy:
    """The movement policy for ``rules`` (default: the map's own ``rules:``)."""
    key = rules if rules is not None else state.board.rules
    if key == "free" or key not in MOVE_POLICIES:
        return FreePlayMovePolicy()
    module = import_module(MOVE_POLICIES[key])
    policy: MovePolicy = module.move_policy(state)
    return policy


#: rule system key -> module with ``ruleset()`` (a tabletop.engine.game.Ruleset) and
#: optionally ``autoplayer()`` (a Bot for ``tabletop sim``); others are free play
RULESETS = {
    "dog_sector": "tabletop.games.dog_sector.ruleset",
}


def ruleset(rules: str | None) -> Ruleset:
    """The turn sequence and procedures for ``rules``; free play when it has none."""
    if rules is None or rules not in RULESETS:
        return FreePlayRules()
    made: Ruleset = import_module(RULESETS[rules]).ruleset()
    return made


#: rule system key -> module with ``autoplayer()`` (an engine Bot for the solitaire
#: player's side, for ``tabletop sim``), ``SIDE``, ``assess(state) -> (rank, score)`` and
#: ``ranks()``; optionally ``SCORE`` and ``SIM_BY``, the option a simulation compares by default
AUTOPLAYERS = {
    "dog_sector": "tabletop.games.dog_sector.autoplayer",
}


def autoplayer_module(rules: str | None) -> ModuleType:
    """The autoplayer module of ``rules``; LookupError if the rule system has none."""
    if rules is None or rules not in AUTOPLAYERS:
        known = ", ".join(sorted(AUTOPLAYERS))
        raise LookupError(f"rule system {rules or 'free'!r} has no autoplayer (rule systems with one: {known})")
    return import_module(AUTOPLAYERS[rules])


def autoplayer(rules: str | None) -> Bot:
    """A new bot playing the solitaire side of ``rules``; LookupError if it has none."""
    made: Bot = autoplayer_module(rules).autoplayer()
    return made
