"""SKIRMISH: a small two-sided rule system for the engine's tests only (issue 12 item 4),
not shipped. ``rules`` is its Ruleset; ``bots`` its bots and sim contract; ``window`` its
window extras (item 8): each side's own hand as a panel, the goal columns as an overlay.
``RULES`` is its descriptor, for tests that install it as a plugin (an entry point)."""

from __future__ import annotations

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState
from tabletop.engine.rulesystem import Lazy, RuleSystem


def los_policy(state: MapState) -> LosPolicy:
    return FreePlayPolicy.for_map(state)


def move_policy(state: MapState) -> MovePolicy:
    return FreePlayMovePolicy()


RULES = RuleSystem(
    key="twosided",
    title="SKIRMISH (tests)",
    los_policy=los_policy,
    move_policy=move_policy,
    ruleset=Lazy("twosided.rules", "ruleset"),
    bots={"random": Lazy("twosided.bots", "random_bot"), "runner": Lazy("twosided.bots", "runner_bot")},
    default_bots={"red": "runner", "blue": "runner"},
    sim=Lazy("twosided.bots"),
    window=Lazy("twosided.window", "extras"),
)
