"""Issue 19 (speed where players and designers wait), item 1 "games per second": the
faster forms of the play path's questions give exactly the answers of the plain forms,
on random inputs and on random DOG SECTOR positions with random changes between
questions (the reach searched by hex numbers, ...)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dog_sector_positions import board, random_position
from test_play_path_caches import random_change

from tabletop.engine import pieces as engine_pieces
from tabletop.engine.movement import HexIndex, IndexedModel, MoveModel, Reach, plan_move, reach, reach_indexed
from tabletop.games.dog_sector.movement import DogSectorMovePolicy
from tabletop.hexgrid import Hex


def _same_reach(got: Reach, want: Reach) -> None:
    """Equal, and every dict in the same order (a bot reads ``costs`` in order)."""
    assert got == want
    assert list(got.costs.items()) == list(want.costs.items())
    assert list(got.previous.items()) == list(want.previous.items())
    assert list(got.stops.items()) == list(want.stops.items())


def test_the_reach_searched_by_hex_numbers_equals_the_reach_by_hexes() -> None:
    """``reach_indexed`` over a ``HexIndex`` gives ``reach``'s answer (costs, paths,
    stops, passed hexes, the dicts' order) for 400 random models on a 12 x 12 patch:
    costs 0 to 3 (zero-cost steps read within a bucket), barred hexes, stops, no-end
    hexes and hexes both (never entered), budgets 0 to unlimited, and hexes whose
    neighbours are off the index."""
    rng = random.Random(1919)
    hexes = [Hex(q, r) for q in range(12) for r in range(12)]
    index = HexIndex.of(rng.sample(hexes, len(hexes)))  # numbered in no grid order
    for _ in range(400):
        cost: list[int | None] = [
            None if rng.random() < 0.15 else rng.choice((0, 1, 1, 1, 2, 3)) for _ in index.hexes
        ]
        stop = {i: f"stop {i}" for i in range(len(cost)) if rng.random() < 0.1}
        no_end = {i: f"no end {i}" for i in range(len(cost)) if rng.random() < 0.1}
        budget = rng.choice((0, 1, 3, 6, 10**30))
        start = rng.choice(hexes)
        model = MoveModel(
            budget,
            {h: c for h, c in zip(index.hexes, cost, strict=True) if c is not None},
            stop={index.hexes[i]: why for i, why in stop.items()},
            no_end={index.hexes[i]: why for i, why in no_end.items()},
            scale=2,
            notes=("a note",),
        )
        got = reach_indexed(IndexedModel(index, budget, cost, stop, no_end, 2, ("a note",)), start, "u")
        _same_reach(got, reach(model, start, "u"))


@pytest.mark.parametrize("kept", [4096, 8])
def test_dog_sector_reach_from_kept_effects_equals_the_planned_move(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phase 5: ``DogSectorMovePolicy.reach`` (the effects kept across map versions,
    searched by hex numbers) equals ``plan_move`` with a fresh policy, dicts in order,
    notes and all, for American units and for units asked about as if elsewhere, with
    budgets 0 to unlimited, after each of 60 random changes; also with a journal so
    short that the changes are often forgotten (everything then read again)."""
    monkeypatch.setattr(engine_pieces, "_JOURNAL_KEPT", kept)
    rng = random.Random(41 + kept)
    state = random_position(rng, 40, 10, inland_share=0.5, markers=60)
    hexes = sorted(board().grid.hexes(), key=board().label)
    kept_policy = DogSectorMovePolicy()
    checked = noted = stopped = 0
    for step in range(60):
        americans = [p for p in state.pieces() if p.kind == "unit" and p.side == "american"]
        ghosts = [replace(p, hex=rng.choice(hexes)) for p in rng.sample(americans, 2)]
        for unit in ghosts + rng.sample(americans, 12):
            budget = rng.choice([None, 0, 2, 6, 999])
            want = plan_move(state, DogSectorMovePolicy(), unit, budget=budget)
            _same_reach(kept_policy.reach(state, unit, budget), want)
            checked += 1
            noted += bool(want.notes)
            stopped += bool(want.stops)
        random_change(state, rng, step)
    assert checked == 60 * 14 and noted and stopped
