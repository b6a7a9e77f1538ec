"""One package per rule system; each supplies its line-of-sight and movement policies,
and those played end to end a ruleset (turn sequence, procedures, tables) and a bot.

A map names its rule system (``rules:`` in the map file); ``los_policy`` picks the
policy for it, or free play (the map's own terrain data) for a map with none or with
``rules: free``. An unknown name is an error (a typo must never become free play), and
each rule system declares what it knows of a map (``Knowledge``: its terrain words and
the regions its rules need) so a map it cannot judge is refused before play.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Bot, Ruleset
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState
from tabletop.engine.tables import Table
from tabletop.yamlfile import DataError, DataErrors

FREE = "free"

#: rule system key (as written in map and scenario files) -> its package
PACKAGES = {
    "dog_sector": "tabletop.games.dog_sector",
    "devil_dogs": "tabletop.games.devil_dogs",
    "omaha": "tabletop.games.omaha",
    "dogfaces": "tabletop.games.dogfaces",
    "dogs_of_war": "tabletop.games.dogs_of_war",
}


def rules_problem(name: object) -> str | None:
    """Why ``name`` is not a rule system key (with the known keys and the nearest one),
    or None if it is one (or ``free``)."""
    if name == FREE or name in PACKAGES:
        return None
    known = [FREE, *PACKAGES]
    close = difflib.get_close_matches(str(name), known, n=1)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown rule system {name!r}; {guess}known: {', '.join(known)}"


def known_rules(name: str | None, where: str = "--rules") -> str | None:
    """``name`` itself when it is None, ``free`` or a rule system key; else a DataError
    at ``where`` (a file's name, or the option the value came from)."""
    if name is None:
        return None
    problem = rules_problem(name)
    if problem is not None:
        raise DataError(where, None, problem)
    return name


@dataclass(frozen=True)
class Knowledge:
    """What a rule system knows of a map: its title, the terrain words it can judge and
    the regions its rules need and the sides they name. With ``terrain_property`` set, a terrain type is judged
    by that property's value (Dogs of War reads ``kind``) instead of by its key."""

    title: str
    terrain: frozenset[str]
    terrain_property: str | None = None
    regions: tuple[str, ...] = ()
    region_kinds: tuple[str, ...] = ()
    sides: frozenset[str] = frozenset()  # the sides its rules name (empty: any side)


def knowledge(rules: str | None) -> Knowledge | None:
    """What rule system ``rules`` knows (None for free play: every map is fine)."""
    key = known_rules(rules)
    if key is None or key == FREE:
        return None
    knows: Callable[[], Knowledge] = import_module(PACKAGES[key]).knows
    return knows()

def _key_for(state: MapState, rules: str | None) -> str | None:
    """``rules`` (an argument), else the map's own ``rules:``; DataError naming where an
    unknown name came from, DataErrors if a rule system chosen over the map's own does
    not know the map (its terrain, the regions it needs)."""
    board = state.board
    if rules is None:
        return known_rules(board.rules, str(board.path) if board.path else f"map {board.name!r}")
    key = known_rules(rules)
    if key not in (None, FREE, board.rules):
        from tabletop.engine.scenario import map_rules_errors

        problems = map_rules_errors(board, key, ("--rules", None))
        if problems:
            raise DataErrors(problems)
    return key


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
    key = _key_for(state, rules)
    if key is None or key == FREE:
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
    key = _key_for(state, rules)
    if key is None or key == FREE:
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
    """The turn sequence and procedures for ``rules``; free play when it has none.
    DataError for a name that is no rule system."""
    if known_rules(rules) is None or rules not in RULESETS:
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


def tables_of(rules: str) -> list[Table]:
    """The tables rule system ``rules`` encodes (``tabletop tables``): its package's
    ``tables`` module's ``tables()``; [] for free play and rule systems without one.
    DataError for a name that is no rule system."""
    key = known_rules(rules)
    if key is None or key == FREE:
        return []
    name = f"{PACKAGES[key]}.tables"
    try:
        module = import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return []
    found: list[Table] = list(module.tables())
    return found
