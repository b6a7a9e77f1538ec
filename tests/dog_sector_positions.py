"""Random DOG SECTOR positions for the speed tests (issue 19), which check remembered
answers against answers worked out afresh: units of both sides and obstacle markers
placed on the shipped map from a seeded random source."""

from __future__ import annotations

import random
from functools import cache

from tabletop.board import Map, load_map
from tabletop.engine.pieces import MapState, Piece

AMERICAN_TYPES = ("infantry", "tank", "dozer", "bazooka", "sharpshooter", "forward-observer",
                  "flamethrower", "ce-team", "exceptional-leader")  # fmt: skip
GERMAN_TYPES = ("infantry", "mg-pillbox", "at-gun", "panzerfaust")
MARKERS = ("barbed-wire", "land-mine", "tank-obstacle", "cleared")


@cache
def board() -> Map:
    return load_map("dog-sector")


def random_position(
    rng: random.Random, americans: int, germans: int, inland_share: float, markers: int = 0
) -> MapState:
    """Americans inland (trench, hilltop, bluff, draw: where they block and are hard to
    reach) with chance ``inland_share``, else anywhere; Germans inland; obstacle markers
    anywhere, placed last."""
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    inland = [h for h in hexes if b.terrain[h] in ("trench", "hilltop", "bluff", "draw")]
    state = MapState.of(b)
    for i in range(americans):
        where = rng.choice(inland if rng.random() < inland_share else hexes)
        state.place(Piece(f"a{i}", rng.choice(AMERICAN_TYPES), where, side="american"))
    for i in range(germans):
        state.place(Piece(f"g{i}", rng.choice(GERMAN_TYPES), rng.choice(inland), side="german"))
    for i in range(markers):
        state.place(Piece(f"m{i}", rng.choice(MARKERS), rng.choice(hexes), kind="marker"))
    return state
