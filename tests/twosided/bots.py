"""SKIRMISH's bots and its contract with ``tabletop sim`` (issue 12 item 4): ``BOTS``,
``DEFAULT_BOTS``, ``standings`` (per side outcome and score) and ``TURN_CAP``."""

from __future__ import annotations

import random

from tabletop.engine.actions import Action
from tabletop.engine.game import COMMIT, PASS, SideView
from tabletop.engine.state import GameState

from .rules import GOAL, SIDES, column, other, runner

TURN_CAP = 8  # SKIRMISH has no last turn: sim stops here and counts a draw


class RandomBot:
    """The baseline: one of its side's legal choices, uniformly (its own stream of
    random numbers, seeded alike for every game, so a sim run repeats)."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, view: SideView) -> Action:
        return self.random.choice(view.choices)


class RunnerBot:
    """A simple real player: bids its highest card, always shoots, and runs its runner
    along the path that ends nearest its goal column (the longest such, then by label).
    It reads only its view: its own hand, the public board."""

    def choose(self, view: SideView) -> Action:
        choices = view.choices
        shots = [a for a in choices if a.get("do") == "shoot"]
        if shots:
            return shots[0]
        if any(a.get("do") == PASS for a in choices):
            return next(a for a in choices if a.get("do") == PASS)
        bids = [a for a in choices if a.get("do") == COMMIT]
        if bids:
            return max(bids, key=lambda a: (int(a["action"]["card"]), a["action"]["card"]))
        moves = [a for a in choices if a.get("do") == "move"]
        if moves:
            goal = GOAL[view.side]
            return min(moves, key=lambda a: (abs(goal - column(a["path"][-1])), -len(a["path"]), a["path"]))
        return choices[0]


def random_bot() -> RandomBot:
    return RandomBot()


def runner_bot() -> RunnerBot:
    return RunnerBot()


BOTS = {"random": random_bot, "runner": runner_bot}
DEFAULT_BOTS = {side: "runner" for side in SIDES}
SIDE = SIDES[0]


def standings(state: GameState) -> dict[str, tuple[str, int]]:
    """Each side's outcome (win, loss, draw) and points."""
    points = {s: state.track(f"points-{s}") for s in SIDES}
    out: dict[str, tuple[str, int]] = {}
    for side in SIDES:
        mine, theirs = points[side], points[other(side)]
        out[side] = ("win" if mine > theirs else "loss" if mine < theirs else "draw", mine)
    return out


__all__ = ["BOTS", "DEFAULT_BOTS", "TURN_CAP", "RandomBot", "RunnerBot", "runner", "standings"]
