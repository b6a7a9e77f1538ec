"""What a rule system is to the program: one descriptor (``RuleSystem``) per package.

A rule system package exports ``RULES = RuleSystem(...)`` (or a function returning
one) from its ``__init__.py`` and names it in its ``pyproject.toml``::

    [project.entry-points."tabletop.rules"]
    my_game = "my_game:RULES"

``tabletop.games`` finds every descriptor in that entry-point group (the five shipped
ones too). Everything heavy on a descriptor is a loader, called when first needed, so
listing the installed rule systems imports no tables and no yaml: ``Lazy(module,
name)`` is such a loader written as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from tabletop.engine.attributes import Schema
from tabletop.engine.extras import WindowExtras
from tabletop.engine.game import Bot, Ruleset
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState

#: the entry-point group a rule system package registers its descriptor in
GROUP = "tabletop.rules"
#: what a rule system key looks like: it is written in map and scenario files
KEY = re.compile(r"^[a-z][a-z0-9_]*$")


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


@dataclass(frozen=True)
class Lazy:
    """A loader named by text: calling it imports ``module`` and calls its ``name`` with
    the arguments given, or, with no ``name``, returns the module itself. Keeps a
    descriptor cheap to import (the policies' tables load on first use)."""

    module: str
    name: str | None = None

    def __call__(self, *args: Any) -> Any:
        loaded = import_module(self.module)
        if self.name is None:
            return loaded
        return getattr(loaded, self.name)(*args)


@dataclass(frozen=True)
class RuleSystem:
    """One rule system: the key maps and scenarios name it by, its title, and loaders
    for everything the program asks of it.

    - ``los_policy(state)`` and ``move_policy(state)``: its line of sight and movement;
    - ``knows()``: what it can judge of a map (None: every map, as free play);
    - ``ruleset()``: its turn sequence and procedures (None: free play on its policies);
    - ``bots``: bot name -> a factory of a new engine ``Bot``; ``default_bots``: side ->
      the bot name seated there when none is asked for;
    - ``sim()``: the object ``tabletop sim`` judges a finished game with (solitaire:
      ``SIDE``, ``assess(state) -> (rank, score)``, ``ranks()``, optionally ``SCORE``
      and ``SIM_BY``; two-sided: ``standings(state)`` and optionally ``TURN_CAP``; see
      ``tabletop.sim``), None when it has no bots; ``sim``, ``play --bot`` and the
      window's ``b`` seat the bots named in ``bots``/``default_bots``, nowhere else;
    - ``tables()``: the tables ``tabletop tables`` prints (a list), None when it has none;
    - ``window()``: what it adds to the window, a ``WindowExtras`` (``tabletop.engine.
      extras``): panels, overlays (also drawn by ``render --extra``) and extra moves
      (also listed by ``reach``), given only what the side at the screen may know;
      None for nothing;
    - ``schema()``: the attributes its units carry and the keys of its scenarios' ``game:``
      block (``tabletop.engine.attributes.Schema``), None when it declares none.
    """

    key: str
    title: str
    los_policy: Callable[[MapState], LosPolicy]
    move_policy: Callable[[MapState], MovePolicy]
    knows: Callable[[], Knowledge] | None = None
    ruleset: Callable[[], Ruleset] | None = None
    bots: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)
    default_bots: Mapping[str, str] = field(default_factory=dict)
    sim: Callable[[], Any] | None = None
    tables: Callable[[], list[Any]] | None = None
    window: Callable[[], WindowExtras] | None = None
    schema: Callable[[], Schema] | None = None

    def problem(self) -> str | None:
        """Why this descriptor cannot be used (a bad key, a default bot it does not
        have, a loader that is not callable), or None."""
        if not isinstance(self.key, str) or not KEY.match(self.key) or self.key == "free":
            return f"key {self.key!r} must be lower-case letters, digits and _ (and not 'free')"
        if not isinstance(self.title, str) or not self.title.strip():
            return f"rule system {self.key!r} has no title"
        for name in ("los_policy", "move_policy"):
            if not callable(getattr(self, name)):
                return f"rule system {self.key!r}: {name} must be callable (state) -> policy"
        for name in ("knows", "ruleset", "sim", "tables", "window", "schema"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                return f"rule system {self.key!r}: {name} must be callable or None"
        for bot, made in self.bots.items():
            if not callable(made):
                return f"rule system {self.key!r}: bot {bot!r} must be a callable that makes a Bot"
        for side, bot in self.default_bots.items():
            if bot not in self.bots:
                return f"rule system {self.key!r}: default bot {bot!r} for {side!r} is not one of its bots"
        if self.sim is not None and not self.default_bots:
            return f"rule system {self.key!r}: sim() is given, but default_bots seats no bot to play it"
        return None
