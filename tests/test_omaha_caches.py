"""The answers D-Day at Omaha Beach keeps between calls (issue 19 item 1: caches keyed
by the state's version, tested against the uncached answers on random positions): the
active fields of fire and the infiltration zone (omaha 6.1, per map version) and each
hex's distance to shelter (omaha 6's free move on the beach, per map), against the same
answers worked out afresh while German units are silenced, moved and taken off."""

from __future__ import annotations

import random
from dataclasses import replace

from omaha_us_helpers import game

from tabletop.games.omaha import movement, us_actions
from tabletop.games.omaha.common import DISRUPTED, GERMAN_DEAD
from tabletop.hexgrid import distance


def test_kept_fields_and_zones_are_worked_out_again_when_german_units_change() -> None:
    g = game()
    state, rng = g.state, random.Random(19)
    rules = movement.default_rules()
    hexes = list(state.board.grid.hexes())
    seen_changes = set()
    for _ in range(60):
        germans = [p for p in state.map.pieces() if p.side == "german" and p.kind == "unit"]
        p = rng.choice(germans)
        roll = rng.random()
        if roll < 0.4:  # silenced, or back in action
            state.map.update(replace(p, status=p.status ^ {DISRUPTED}))
        elif roll < 0.8:  # to another hex
            state.map.move(p.id, rng.choice(hexes))
        elif len(germans) > 5:  # eliminated
            state.to_box(p.id, GERMAN_DEAD)
        kept = movement.active_fields(state.map)
        assert kept == movement._active_fields(state.map, rules, None)
        assert movement.active_fields(state.map) is kept  # asked again: the kept answer
        zone = movement.infiltration_zone(state.map)
        assert zone == movement._infiltration_zone(state.map, rules, None)
        seen_changes.add((len(kept), len(zone)))
    assert len(seen_changes) > 5  # the positions did change what the fields cover


def test_a_kept_shelter_distance_is_the_nearest_protecting_hexside() -> None:
    g = game()
    shelter = us_actions._shelter(g.state.board)
    assert shelter
    for h in random.Random(3).sample(list(g.state.board.grid.hexes()), 200):
        for _ in range(2):
            assert us_actions.shelter_distance(g.state, h) == min(distance(h, s) for s in shelter)
