"""The answers Dogs of War keeps between calls (issue 19 item 1: "caches keyed by the
state's version, invalidated exactly, tested against the uncached answers on random
positions"): the line of a shot (``combat.sight``, per map version) and the ground a
model's move reads (``DogsOfWarMovePolicy._ground``, per map and terrain changes),
each against the same question worked out afresh, on the Crossroads map with its
models scattered at random, before and after the ground changes (a house collapsing
to rubble, STRUCTURAL DAMAGE l.690-700)."""

from __future__ import annotations

import random
from dataclasses import replace

from test_dogs_of_war_rules import game, put

from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.state import GameState
from tabletop.games.dogs_of_war import combat
from tabletop.games.dogs_of_war.movement import DogsOfWarMovePolicy
from tabletop.games.dogs_of_war.ruleset import models

HOUSE = "1918"  # the wooden house 1918-2120 of maps/dogs-of-war.yaml


def scatter(state: GameState, rng: random.Random) -> None:
    """Every model to a random free hex, some of them prone."""
    free = [h for h in state.board.grid.hexes() if not state.map.units_at(h)]
    for p in models(state):
        put(state, p.id, state.board.label(free.pop(rng.randrange(len(free)))))
        if rng.random() < 0.3:
            state.map.update(replace(state.map.piece(p.id), status=p.status | {"prone"}))


def afresh(state: GameState, shooter, target):  # type: ignore[no-untyped-def]
    """``combat.sight`` without the kept lines: the query it makes, asked directly."""
    viewer = replace(shooter, facing=None)
    query = LosQuery(shooter.hex, target.hex, viewer=viewer, target_piece=target, conditions=combat.conditions(state))
    return line_of_sight(state.map, combat.policy(), query)


def verdict(result):  # type: ignore[no-untyped-def]
    return (result.result, result.blocking, result.hindrances, result.modifiers, result.notes)


def test_a_kept_line_is_the_line_drawn_afresh_on_random_positions() -> None:
    g = game()
    state, rng = g.state, random.Random(19)
    checked = changed = 0
    for _ in range(4):
        scatter(state, rng)
        pieces = models(state)
        pairs = rng.sample([(a, b) for a in pieces for b in pieces if a.id != b.id], 40)
        for _ in range(2):  # asked twice: the second answer is the kept one
            for a, b in pairs:
                assert verdict(combat.sight(state, a, b)) == verdict(afresh(state, a, b))
                checked += 1
        # a third model steps into a line (MOVING AND SHOOTING THROUGH MODELS): the two
        # ends have not moved, the line they share must be judged again
        for a, b in pairs[:10]:
            a, b = state.map.piece(a.id), state.map.piece(b.id)
            middle = [h for h in afresh(state, a, b).crossed[1:-1] if not state.map.units_at(h)]
            if not middle:
                continue
            before = verdict(combat.sight(state, a, b))
            third = next(p for p in models(state) if p.id not in (a.id, b.id))
            put(state, third.id, state.board.label(middle[len(middle) // 2]), status=frozenset())
            now = verdict(combat.sight(state, a, b))
            assert now == verdict(afresh(state, a, b))
            changed += now != before
    assert checked == 4 * 2 * 40 and changed > 0


def model_facts(model):  # type: ignore[no-untyped-def]
    return (model.budget, model.enter, model.step, model.no_end, model.why_not, model.notes)


def test_a_kept_ground_is_the_ground_read_afresh_and_follows_a_collapse() -> None:
    g = game()
    state, rng = g.state, random.Random(7)
    kept = DogsOfWarMovePolicy()
    house = state.board.hex_of(HOUSE)
    walls_before = None
    for round_ in range(3):
        scatter(state, rng)
        if round_ == 2:  # the house collapses (l.700): its hexes are rubble from now on
            for h in [h for h in state.board.grid.hexes() if state.map.terrain_at(h) == state.map.terrain_at(house)]:
                state.map.set_terrain(h, "rubble")
        for unit in rng.sample(models(state), 6):
            for order in ("walk", "run", "crawl"):
                warm = kept.model(state.map, unit, order)
                cold = DogsOfWarMovePolicy().model(state.map, unit, order)
                assert model_facts(warm) == model_facts(cold)
                if round_ == 0 and walls_before is None:
                    walls_before = {k for k, v in warm.step.items() if v is None}
        if round_ == 2:
            walls_after = {k for k, v in kept.model(state.map, models(state)[0]).step.items() if v is None}
            assert any(house in pair for pair in walls_before or ())  # the house had walls ...
            assert not any(house in pair for pair in walls_after)  # ... and has none as rubble
