"""Issue 19 item 1 ("games per second"): the DOG SECTOR planner's field computations
worked out incrementally or remembered (``autoplayer._search_from`` and ``_update``:
a plan field searched on from the last one of the same unit type), each checked against
a straight computation written here, on random costs and on random positions
(``dog_sector_positions``), so a shortcut that answers for a field it no longer
describes fails here."""

from __future__ import annotations

import heapq
import random
from dataclasses import replace

from dog_sector_positions import board, random_position

from tabletop.engine.state import GameState
from tabletop.games.dog_sector import autoplayer, planner
from tabletop.games.dog_sector.autoplayer import FAR, _Board


def bot_board() -> _Board:
    return autoplayer._board(board())


def heap_search(b: _Board, starts: dict[int, int], enter: list[int]) -> list[int]:
    """A plain heap search by hex position: the AP from each hex to the nearest start,
    entering a hex costing ``enter`` (-1: barred, never entered nor searched from; a
    barred start keeps its value)."""
    best = [FAR] * len(b.hexes)
    heap = []
    for i, d in starts.items():
        if d < best[i]:
            best[i] = d
            heap.append((d, i))
    heapq.heapify(heap)
    while heap:
        d, i = heapq.heappop(heap)
        if d > best[i] or enter[i] < 0:
            continue
        for n in b.around_index[i]:
            if enter[n] >= 0 and d + enter[i] < best[n]:
                best[n] = d + enter[i]
                heapq.heappush(heap, (best[n], n))
    return best


def touched(b: _Board, enter: list[int]) -> frozenset[int]:
    return frozenset(i for i, step in enumerate(enter) if step != b.enter[i])


def changed(
    rng: random.Random, b: _Board, starts: dict[int, int], enter: list[int]
) -> tuple[dict[int, int], list[int]]:
    """The next field's starts and costs, as play changes them: starts gone, added and
    re-weighted (sometimes all by the same amount: the weakest section changed), costs
    fallen (obstacles gone), barred hexes opened (a German unit gone), and now and then
    a cost risen or a hex barred (which the update must refuse)."""
    n = len(b.hexes)
    starts = dict(starts)
    shift = rng.choice((0, 0, 1, -1, 2))
    starts = {i: max(0, v + shift) for i, v in starts.items()}
    for i in rng.sample(sorted(starts), min(len(starts), rng.randrange(0, 6))):
        del starts[i]
    for i in rng.sample(range(n), rng.randrange(0, 6)):
        starts[i] = rng.randrange(0, 5)
    for i in rng.sample(sorted(starts), min(len(starts), rng.randrange(0, 4))):
        starts[i] = rng.randrange(0, 5)
    enter = list(enter)
    for i in rng.sample(range(n), 12):
        if enter[i] < 0:
            if rng.random() < 0.3:
                enter[i] = b.enter[i]
        elif enter[i] > 0 and rng.random() < 0.5:
            enter[i] = rng.randrange(enter[i])
    if rng.random() < 0.15:
        i = rng.randrange(n)
        enter[i] = -1 if rng.random() < 0.5 else enter[i] + 3
    return starts, enter


def test_a_field_searched_on_from_the_last_equals_a_heap_search_on_random_costs() -> None:
    """Issue 19 item 1: a plan field searched on from the last one
    (``autoplayer._search_from``: the old distances shifted, the hexes of the starts that
    went or rose searched again, the search gone on from the starts and hexes that fell)
    equals a heap search afresh, over chains of random changes of the starts and costs
    (barred hexes, barred starts, zero costs included), whether the update served or the
    field was searched afresh."""
    rng = random.Random(1919)
    b = bot_board()
    n = len(b.hexes)
    served = 0
    for _ in range(40):
        enter = list(b.enter)
        for i in rng.sample(range(n), 60):
            enter[i] = rng.choice((-1, -1, 0, 1, 2, 3, 9))
        starts = {i: rng.randrange(0, 5) for i in rng.sample(range(n), rng.randrange(1, 40))}
        last = None
        for _ in range(10):
            if last is not None and autoplayer._update(b, starts, enter, touched(b, enter), last) is not None:
                served += 1
            last = autoplayer._search_from(b, starts, enter, touched(b, enter), last)
            assert last.dist == heap_search(b, starts, enter)
            assert all(last.dist[i] == starts[i] for i in last.root if i >= 0 and i in starts and enter[i] >= 0
                       and last.root[i] == i)  # fmt: skip
            starts, enter = changed(rng, b, starts, enter)
    assert served > 150  # the update itself was checked, not only the search afresh


def test_the_planners_fields_searched_on_equal_the_reference_on_random_positions() -> None:
    """Issue 19 item 1: the plan field of every unit type, all German units aimed at or
    some quiet ones, read through one planner's memo (``planner._plan_field``: fields
    searched on from that type's last) as German units lose steps or go and obstacles go, one by one, equals
    ``planner.weighted_field`` with its caches emptied (searched afresh), on random
    positions with obstacle markers."""
    rng = random.Random(2019)
    b = bot_board()
    kinds = ("infantry", "tank", "dozer", "forward-observer", "ce-team", "exceptional-leader", "sharpshooter",
             "flamethrower")  # fmt: skip
    checked = 0
    for _ in range(6):
        state = random_position(rng, americans=20, germans=14, inland_share=0.5, markers=40)
        for g in [p for p in state.pieces() if p.side == "german"]:
            state.remove(g.id)
            state.place(replace(g, steps=rng.randrange(1, 4)))
        memo = planner._Memo()
        game_state = GameState(state, turn=2, phase=autoplayer.ACTIVITY)
        while True:
            autoplayer._now_memo[0] = None
            now = autoplayer._now(game_state)
            germans, obstacles = list(now.layout.germans), now.layout.obstacles
            if not germans:
                break
            for kind in kinds:
                quiet = (
                    frozenset(g.id for g in germans if rng.random() < 0.6)
                    if kind in ("tank", "dozer")
                    else None
                )
                got = planner._plan_field(b, kind, now.layout, quiet, memo)
                planner._weighted.clear()
                planner._bases.clear()
                assert got == planner.weighted_field(b, kind, germans, obstacles, quiet), kind
                checked += 1
            gone = rng.choice([*germans, *(p for p in state.pieces() if p.kind == "marker")])
            state.remove(gone.id)
            if gone.steps > 1 and rng.random() < 0.5:  # a German unit hit, not killed
                state.place(replace(gone, steps=gone.steps - 1))
    assert checked > 200


def test_a_field_by_hex_equals_the_distances_kept_one_by_one() -> None:
    """Issue 19 item 1: ``planner._in_position`` (every hex, then the hexes with no way
    to a goal taken out, read one by one only when the German hexes given are not all
    of them) is the dict, in the same order, of the hexes with a way, goal hexes at 0,
    whether the German hexes given hold every such hex, some, or others too."""
    rng = random.Random(3019)
    b = bot_board()
    n = len(b.hexes)
    for _ in range(300):
        dist = [rng.choice((0, 1, 5, 17)) for _ in range(n)]
        far = rng.sample(range(n), rng.randrange(0, 12))
        for i in far:
            dist[i] = FAR
        starts = {b.hexes[i]: 0 for i in rng.sample(range(n), 10)}
        hint = rng.choice((far, far[: len(far) // 2], [*far, *rng.sample(range(n), 3)], []))
        got = planner._in_position(b, dist, starts, tuple(sorted(set(hint))))
        expected = {h: (0 if h in starts else d) for h, d in zip(b.hexes, dist, strict=True) if d < FAR}
        assert got == expected
        assert list(got) == list(expected)
