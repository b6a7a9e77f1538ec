"""The rules-agnostic movement search: costs, stops, pass-through, paths, determinism."""

from __future__ import annotations

import heapq
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.engine.movement import MoveModel, reach
from tabletop.hexgrid import Hex, distance, hexes_within, neighbors

AREA = list(hexes_within(Hex(0, 0), 8))


def open_ground(cost: int = 1) -> dict[Hex, int]:
    return {h: cost for h in AREA}


def test_reach_on_open_ground_is_every_hex_within_the_budget() -> None:
    r = reach(MoveModel(3, open_ground()), Hex(0, 0))
    assert set(r.costs) == set(hexes_within(Hex(0, 0), 3))
    assert all(c == distance(Hex(0, 0), h) for h, c in r.costs.items())


def test_dear_terrain_costs_its_price_and_paths_go_round_it() -> None:
    enter = open_ground()
    enter[Hex(1, 0)] = 3
    r = reach(MoveModel(4, enter), Hex(0, 0))
    assert r.costs[Hex(1, 0)] == 3
    assert r.costs[Hex(2, 0)] == 3  # round (1,-1), (2,-1) rather than through (1,0)
    assert Hex(1, 0) not in r.path_to(Hex(2, 0))


def test_a_hex_missing_from_the_costs_cannot_be_entered() -> None:
    enter = open_ground()
    del enter[Hex(0, 1)]
    r = reach(MoveModel(1, enter), Hex(0, 0))
    assert Hex(0, 1) not in r.costs and len(r.costs) == 6


def test_a_step_override_can_prohibit_or_cheapen_one_crossing() -> None:
    r = reach(MoveModel(1, open_ground(), step={(Hex(0, 0), Hex(1, 0)): None}), Hex(0, 0))
    assert Hex(1, 0) not in r.costs
    enter = open_ground(2)
    r = reach(MoveModel(2, enter, step={(Hex(0, 0), Hex(1, 0)): 1, (Hex(1, 0), Hex(2, 0)): 1}), Hex(0, 0))
    assert r.costs[Hex(2, 0)] == 2 and r.path_to(Hex(2, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0)]


def test_zero_cost_steps_are_followed_within_the_same_bucket() -> None:
    enter = open_ground()
    r = reach(MoveModel(1, enter, step={(Hex(0, 0), Hex(1, 0)): 0}), Hex(0, 0))
    assert r.costs[Hex(1, 0)] == 0 and r.costs[Hex(2, 0)] == 1


def test_must_stop_halts_expansion_past_a_hex() -> None:
    ring = [h for h in hexes_within(Hex(0, 0), 1) if h != Hex(0, 0)]
    r = reach(MoveModel(5, open_ground(), stop={h: "zone of control" for h in ring}), Hex(0, 0))
    assert set(r.costs) == set(hexes_within(Hex(0, 0), 1))
    assert r.stops == {h: "zone of control" for h in ring}


def test_a_unit_may_leave_its_own_must_stop_hex() -> None:
    r = reach(MoveModel(2, open_ground(), stop={Hex(0, 0): "zone of control"}), Hex(0, 0))
    assert len(r.costs) == 19


def test_a_stack_may_be_passed_through_but_not_ended_in() -> None:
    r = reach(MoveModel(2, open_ground(), no_end={Hex(1, 0): "stacked"}), Hex(0, 0))
    assert Hex(1, 0) not in r.costs and Hex(1, 0) in r.passed
    assert r.costs[Hex(2, 0)] == 2


def test_a_hex_that_stops_the_move_where_it_may_not_end_cannot_be_entered() -> None:
    r = reach(MoveModel(3, open_ground(), stop={Hex(1, 0): "zoc"}, no_end={Hex(1, 0): "stacked"}), Hex(0, 0))
    assert Hex(1, 0) not in r.costs and Hex(1, 0) not in r.passed


def test_scale_turns_cost_units_into_printed_points() -> None:
    r = reach(MoveModel(15, open_ground(3), scale=5), Hex(0, 0))
    assert r.points(Hex(3, 0)) == 9 / 5


def _reference(budget: int, enter: dict[Hex, int], start: Hex) -> dict[Hex, int]:
    """Textbook Dijkstra with a heap, for comparison."""
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best[h]:
            continue
        for n in neighbors(h):
            if n in enter and c + enter[n] <= budget and c + enter[n] < best.get(n, budget + 1):
                best[n] = c + enter[n]
                heapq.heappush(heap, (best[n], n))
    return best


@settings(max_examples=40)
@given(st.lists(st.integers(1, 4), min_size=len(AREA), max_size=len(AREA)), st.integers(0, 9))
def test_reach_gives_the_same_costs_as_textbook_dijkstra(costs: list[int], budget: int) -> None:
    enter = dict(zip(AREA, costs, strict=True))
    r = reach(MoveModel(budget, enter), Hex(0, 0))
    assert dict(r.costs) == _reference(budget, enter, Hex(0, 0))
    for h, c in r.costs.items():  # every path is a chain of neighbours costing what it says
        path = r.path_to(h)
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(path))
        assert sum(enter[x] for x in path[1:]) == c


def test_the_same_model_always_gives_the_same_paths() -> None:
    enter = open_ground()
    one = reach(MoveModel(6, enter), Hex(0, 0))
    two = reach(MoveModel(6, dict(reversed(list(enter.items())))), Hex(0, 0))
    assert all(one.path_to(h) == two.path_to(h) for h in one.costs)


def test_a_step_override_never_opens_a_hex_the_model_closes() -> None:
    enter = open_ground()
    del enter[Hex(1, 0)]  # occupied, say
    r = reach(MoveModel(2, enter, step={(Hex(0, 0), Hex(1, 0)): 1}), Hex(0, 0))
    assert Hex(1, 0) not in r.costs
