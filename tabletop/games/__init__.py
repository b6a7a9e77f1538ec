"""The rule systems: one descriptor each (``tabletop.engine.rulesystem.RuleSystem``),
found one way, through the ``tabletop.rules`` entry-point group.

A map names its rule system (``rules:`` in the map file); ``los_policy`` picks the
policy for it, or free play (the map's own terrain data) for a map with none or with
``rules: free``. An unknown name is an error (a typo must never become free play), and
each rule system declares what it knows of a map (``Knowledge``: its terrain words and
the regions its rules need) so a map it cannot judge is refused before play.

The five shipped packages below register themselves in ``pyproject.toml`` like any
other; a checkout run without being installed has no entry points, so they are also
found here by name (never twice). A third-party rule system is a package installed
beside tabletop: nothing in this file names it.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Iterator
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from tabletop.engine.attributes import NO_SCHEMA, Schema
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Bot, Ruleset
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState
from tabletop.engine.rulesystem import GROUP, Knowledge, RuleSystem
from tabletop.engine.tables import Table
from tabletop.yamlfile import DataError, DataErrors

__all__ = [
    "FREE",
    "GROUP",
    "SHIPPED",
    "Knowledge",
    "RuleSystem",
    "autoplayer",
    "autoplayer_module",
    "bot",
    "bot_names",
    "knowledge",
    "known_rules",
    "los_policy",
    "move_policy",
    "rule_system",
    "rule_systems",
    "rules_problem",
    "ruleset",
    "schema_of",
]

FREE = "free"

#: the shipped rule systems, as their entry points in pyproject.toml name them
SHIPPED = {
    "dog_sector": "tabletop.games.dog_sector:RULES",
    "devil_dogs": "tabletop.games.devil_dogs:RULES",
    "omaha": "tabletop.games.omaha:RULES",
    "dogfaces": "tabletop.games.dogfaces:RULES",
    "dogs_of_war": "tabletop.games.dogs_of_war:RULES",
}

log = logging.getLogger(__name__)


def _candidates() -> Iterator[EntryPoint]:
    """The entry points to load, each value once: the shipped ones first (from the
    installed metadata, else by name for an uninstalled checkout), then the others by
    name, so a third-party package cannot take a shipped key."""
    found = {ep.value: ep for ep in entry_points(group=GROUP)}
    for name, value in SHIPPED.items():
        yield found.pop(value) if value in found else EntryPoint(name, value, GROUP)
    yield from sorted(found.values(), key=lambda ep: (ep.name, ep.value))


def _load(ep: EntryPoint) -> RuleSystem:
    """The descriptor an entry point names (a RuleSystem, or a function returning one);
    ValueError for anything else or a descriptor that cannot be used."""
    loaded: Any = ep.load()
    if not isinstance(loaded, RuleSystem) and callable(loaded):
        loaded = loaded()
    if not isinstance(loaded, RuleSystem):
        raise ValueError(f"it names a {type(loaded).__name__}, not a tabletop.engine.rulesystem.RuleSystem")
    problem = loaded.problem()
    if problem is not None:
        raise ValueError(problem)
    return loaded


@cache
def rule_systems() -> dict[str, RuleSystem]:
    """Every rule system found, by key: the shipped five, then those installed. One
    that cannot be loaded, or whose key is taken, is skipped with a one-line warning
    naming its entry point (a broken plugin never stops the program)."""
    systems: dict[str, RuleSystem] = {}
    for ep in _candidates():
        where = f"entry point {ep.name} = {ep.value!r} (group {GROUP})"
        try:
            rules = _load(ep)
        except Exception as exc:  # any failure of third-party code: skip it, say so
            log.warning("%s skipped: %s: %s; fix or uninstall that package", where, type(exc).__name__, exc)
            continue
        if rules.key in systems:
            log.warning(
                "%s skipped: rule system key %r is already %s; rename its key",
                where,
                rules.key,
                systems[rules.key].title,
            )
            continue
        systems[rules.key] = rules
    return systems


def rules_problem(name: object) -> str | None:
    """Why ``name`` is not a rule system key (with the known keys and the nearest one),
    or None if it is one (or ``free``)."""
    systems = rule_systems()
    if name == FREE or name in systems:
        return None
    known = [FREE, *systems]
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


def rule_system(rules: str | None) -> RuleSystem | None:
    """The descriptor of ``rules``; None for free play; DataError for an unknown name."""
    key = known_rules(rules)
    return None if key is None or key == FREE else rule_systems()[key]


def knowledge(rules: str | None) -> Knowledge | None:
    """What rule system ``rules`` knows (None for free play, or a rule system that
    judges no map: every map is fine)."""
    system = rule_system(rules)
    return None if system is None or system.knows is None else system.knows()


def schema_of(rules: str | None) -> Schema:
    """The unit attributes and ``game:`` keys rule system ``rules`` declares (none for
    free play and rule systems that declare none). DataError for an unknown name; a
    schema file's own DataError names that file and line."""
    system = rule_system(rules)
    if system is None or system.schema is None:
        return NO_SCHEMA
    made: Schema = system.schema()
    return made


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


def los_policy(state: MapState, rules: str | None = None) -> LosPolicy:
    """The line-of-sight policy for ``rules`` (default: the map's own ``rules:``)."""
    key = _key_for(state, rules)
    if key is None or key == FREE:
        return FreePlayPolicy.for_map(state)
    return rule_systems()[key].los_policy(state)


def move_policy(state: MapState, rules: str | None = None) -> MovePolicy:
    """The movement policy for ``rules`` (default: the map's own ``rules:``)."""
    key = _key_for(state, rules)
    if key is None or key == FREE:
        return FreePlayMovePolicy()
    return rule_systems()[key].move_policy(state)


def ruleset(rules: str | None) -> Ruleset:
    """The turn sequence and procedures for ``rules``; free play when it has none.
    DataError for a name that is no rule system."""
    system = rule_system(rules)
    if system is None or system.ruleset is None:
        return FreePlayRules()
    return system.ruleset()


def autoplayer_module(rules: str | None) -> Any:
    """What ``tabletop sim`` plays and judges ``rules`` with (its descriptor's ``sim()``:
    ``SIDE``, ``autoplayer()``, ``assess``, ``ranks``...); LookupError if it has none."""
    systems = rule_systems()
    system = systems.get(rules) if rules is not None else None
    if system is None or system.sim is None:
        known = ", ".join(sorted(k for k, s in systems.items() if s.sim is not None))
        raise LookupError(
            f"rule system {rules or 'free'!r} has no autoplayer (rule systems with one: {known})"
        )
    return system.sim()


def autoplayer(rules: str | None) -> Bot:
    """A new bot playing the solitaire side of ``rules`` (its sim's ``SIDE``), the
    side's default bot; LookupError if it has none."""
    return bot(rules, autoplayer_module(rules).SIDE)


def bot_names(rules: str | None) -> tuple[dict[str, str], list[str]]:
    """Rule system ``rules``'s default bot by side, and all its bot names (from its
    descriptor: the one place a rule system's bots are listed)."""
    system = rule_system(rules)
    if system is None:
        return {}, []
    return dict(system.default_bots), list(system.bots)


def bot(rules: str | None, side: str, name: str | None = None) -> Bot:
    """A new bot of rule system ``rules`` for ``side``: bot ``name``, else the side's
    default. A rule system's bots play the sides its ``default_bots`` names (DOG
    SECTOR's autoplayer only the Americans). LookupError (its message says what there
    is) when there is none."""
    system = rule_system(rules)
    defaults, names = bot_names(rules)
    if system is None or not names:
        with_bots = ", ".join(sorted(k for k, s in rule_systems().items() if s.bots))
        raise LookupError(f"rule system {rules or 'free'!r} has no bots (rule systems with bots: {with_bots})")
    if side not in defaults:
        raise LookupError(f"{system.title}'s bots play {', '.join(defaults) or 'no side'}, not {side!r}")
    if name is None:
        name = defaults[side]
    if name not in system.bots:
        raise LookupError(f"{system.title} has no bot {name!r}; choose one of: {', '.join(names)}")
    made: Bot = system.bots[name]()
    return made


def tables_of(rules: str) -> list[Table]:
    """The tables rule system ``rules`` encodes (``tabletop tables``), from its
    descriptor's ``tables``; [] for free play and rule systems without them. DataError
    for a name that is no rule system."""
    system = rule_system(rules)
    if system is None or system.tables is None:
        return []
    return list(system.tables())
