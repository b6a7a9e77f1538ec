"""The set-up rolls (SETTING UP THE BATTLEFIELD l.181): a D10 each for the side of the
table (low die wins; the winner picks the edge), then a second D10 for who places his
models first (the winner may place first or make his opponent do it). Played at the
start of turn 1 when the scenario says ``edges: roll``; a scenario that fixes each
side's region (``blue-region``, ``red-region``: "unless the scenario dictates
otherwise") skips them. Ties are rolled again (the golden rule, l.91; G4)."""

from __future__ import annotations

from tabletop.engine.dice import Dice
from tabletop.engine.state import GameState

SIDES = ("blue", "red")
EDGES = ("setup-north", "setup-south")  # the standard engagement's opposite edges
PENDING, EDGE, PLACE = "setup-rolls", "choosing-edge", "choosing-placement"


def roll_off(dice: Dice, what: str, less: tuple[int, int] = (0, 0)) -> tuple[int, int, int]:
    """Each side's D10 less its modifier (``less``: blue's, red's), the lower winning,
    ties rolled again: (blue, red, winner). The set-up rolls and initiative (l.185)."""
    b = r = 0
    for _ in range(50):
        b, r = dice.d10(f"blue {what}") - less[0], dice.d10(f"red {what}") - less[1]
        if b != r:
            break
    return b, r, (0 if b < r else 1)


def pending(state: GameState) -> bool:
    return bool(state.track(PENDING))


def chooser(state: GameState) -> str | None:
    """The side whose set-up choice the game waits for, if any."""
    for key in (EDGE, PLACE):
        if state.track(key):
            return SIDES[state.track(key) - 1]
    return None


def start(state: GameState, dice: Dice) -> list[str]:
    """The first roll: the winner will pick his table edge."""
    b, r, w = roll_off(dice, "table side")
    state.tracks[EDGE] = w + 1
    return [f"table side (l.181): blue {b}, red {r}; {SIDES[w]} wins and picks his table edge"]


def choices(state: GameState, side: str) -> list[dict[str, str]]:
    if state.track(EDGE):
        mine = state.marks.get("regions", list(EDGES))[SIDES.index(side)]
        return [{"do": "edge", "side": side, "region": e} for e in sorted(EDGES, key=lambda e: e != mine)]
    if state.track(PLACE):
        other = SIDES[1 - SIDES.index(side)]
        return [{"do": "place-first", "side": s} for s in (side, other)]
    return []


def take_edge(state: GameState, side: str, region: str, dice: Dice) -> list[str]:
    """The winner's edge, the other side's the opposite one; then the second roll."""
    i = SIDES.index(side)
    regions = [region, region]
    regions[1 - i] = EDGES[1 - EDGES.index(region)]
    state.marks["regions"] = regions
    state.tracks.pop(EDGE, None)
    b, r, w = roll_off(dice, "placement")
    state.tracks[PLACE] = w + 1
    return [
        f"{side} sets up on the {region.removeprefix('setup-')} edge, {SIDES[1 - i]} on the "
        f"{regions[1 - i].removeprefix('setup-')}",
        f"who places first (l.181): blue {b}, red {r}; {SIDES[w]} wins and chooses who places first",
    ]


def placing_order(state: GameState, first: str) -> list[str]:
    """The sides in the order they place; the rolls are over."""
    state.tracks.pop(PLACE, None)
    state.tracks.pop(PENDING, None)
    return [first, SIDES[1 - SIDES.index(first)]]
