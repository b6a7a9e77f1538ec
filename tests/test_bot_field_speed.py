"""Issue 19 item 1 ("games per second"): the DOG SECTOR planner's field computations
worked out incrementally, remembered or read more cheaply, each checked against a
straight computation on random positions (``dog_sector_positions``), so a shortcut
that answers for a field it no longer describes fails here."""

from __future__ import annotations

import random
from dataclasses import replace

from dog_sector_positions import board, random_position
from test_planner_speed import heap_search, reference_enter

from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import autoplayer, planner
from tabletop.games.dog_sector.autoplayer import FAR, _Board
from tabletop.hexgrid import Hex


def bot_board() -> _Board:
    return autoplayer._board(board())


def test_the_planners_fields_equal_the_reference_on_random_positions() -> None:
    """Issue 19 item 1: the plan field of every unit type, all German units aimed at or
    some quiet ones, read through one planner's memo (``planner._plan_field``: fields
    remembered by code, searched again only where obstacles went) as German units lose
    steps or go and obstacles go, one by one, equals ``planner.weighted_field`` with its
    caches emptied and a heap search of the goals' starts (``field_straight``), on
    random positions with obstacle markers."""
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
                assert got == field_straight(b, kind, germans, obstacles, quiet), kind
                checked += 1
            gone = rng.choice([*germans, *(p for p in state.pieces() if p.kind == "marker")])
            state.remove(gone.id)
            if gone.steps > 1 and rng.random() < 0.5:  # a German unit hit, not killed
                state.place(replace(gone, steps=gone.steps - 1))
    assert checked > 200


def test_the_search_told_its_barred_hexes_equals_a_heap_search() -> None:
    """Issue 19 item 1: ``autoplayer._distances`` and ``_relax`` given the barred
    positions (the planner knows them: the German hexes) rather than reading every
    cost for them equal a heap search, afresh and after costs fell, barred starts
    included."""
    rng = random.Random(4019)
    b = bot_board()
    n = len(b.hexes)
    for _ in range(60):
        enter = list(b.enter)
        for i in rng.sample(range(n), 80):
            enter[i] = rng.choice((-1, -1, 0, 1, 2, 3, 9))
        barred = [i for i in range(n) if enter[i] < 0]
        rng.shuffle(barred)
        starts = {i: rng.randrange(0, 5) for i in rng.sample(range(n), rng.randrange(1, 30))}
        dist = autoplayer._distances(b, {b.hexes[i]: v for i, v in starts.items()}, enter, barred)
        assert dist == heap_search(b, starts, enter)
        fell = [i for i in rng.sample(range(n), 30) if enter[i] > 0]
        for i in fell:
            enter[i] = rng.randrange(enter[i])
        autoplayer._relax(b, dist, enter, [i for i in fell if dist[i] < FAR], barred)
        assert dist == heap_search(b, starts, enter)


def field_straight(b: _Board, kind: str, germans: list[Piece], obstacles: dict[Hex, frozenset[str]],
                   quiet: frozenset[str] | None) -> dict[Hex, int]:  # fmt: skip
    """A plan field with nothing remembered: steps left unit by unit, ``planner._starts``
    (tested against the goals looped one by one in test_planner_speed), the obstacle
    costs by ``autoplayer._extra`` and a heap search."""
    left = {g.id: autoplayer._section_left(b, g, germans) for g in germans}
    starts = planner._starts(b, kind, germans, left, quiet)
    enter = reference_enter(b, kind, obstacles, germans)
    dist = heap_search(b, {b.index[h]: v for h, v in starts.items()}, enter)
    return {h: (0 if h in starts else d) for h, d in zip(b.hexes, dist, strict=True) if d < FAR}


def test_the_codes_of_fields_with_negative_or_large_values_differ_exactly_when_the_values_do() -> None:
    """Issue 19 item 1: ``planner._code`` (a field's key: position and value packed in
    one number when every value is in 0 .. _PACK - 1) gives two maps of values the same
    code only when they are equal, with small negative values and values at the limit."""
    rng = random.Random(5019)
    b = bot_board()
    made: dict[tuple[object, ...], dict[Hex, int]] = {}
    for _ in range(2000):
        values = {
            h: rng.choice((-2, -1, 0, 1, 2, planner._PACK - 1, planner._PACK))
            for h in rng.sample(b.hexes[:6], rng.randrange(0, 4))
        }
        assert made.setdefault(planner._code(b, values), values) == values
    assert len(made) > 500


def test_the_obstacle_costs_of_a_layout_equal_the_costs_worked_out_hex_by_hex() -> None:
    """Issue 19 item 1: ``autoplayer._extras_of`` (the tables checked once a layout, the
    remembered cost of each unit type and set of kinds read directly) gives every hex
    with live obstacles what ``autoplayer._extra`` works out afresh (no obstacles: no
    entry), for every unit type at random positions with obstacle markers."""
    rng = random.Random(7019)
    kinds = ("infantry", "tank", "dozer", "forward-observer", "ce-team", "exceptional-leader", "bazooka")
    for _ in range(20):
        state = random_position(rng, americans=0, germans=0, inland_share=0.0, markers=rng.randrange(0, 60))
        obstacles = autoplayer._obstacles(GameState(state, turn=2, phase=autoplayer.ACTIVITY))
        bare = bot_board().hexes[rng.randrange(480)]
        obstacles[bare] = frozenset()  # a hex with none left
        for kind in rng.sample(kinds, len(kinds)):
            expected = {h: autoplayer._extra(kind, sorted(k)) or 0 for h, k in obstacles.items() if k}
            assert autoplayer._extras_of(kind, obstacles) == expected
            assert bare not in autoplayer._extras_of(kind, obstacles)
