"""Issue 19 (speed where players and designers wait), item 1 "games per second": what
the play path of a game keeps across map versions or asks once per version (the map's
journal of changed hexes, DOG SECTOR's movement models built from it, the American fire
refusals and the German shot refusals read from the remembered answers) gives exactly
the uncached answers, on random positions with random changes between questions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dog_sector_positions import GERMAN_TYPES, MARKERS, board, random_position

from tabletop.engine import pieces as engine_pieces
from tabletop.engine.movement import plan_move, reach
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector.movement import DogSectorMovePolicy
from tabletop.hexgrid import Hex


def crowded_map(rng: random.Random, americans: int = 40, germans: int = 10, markers: int = 60) -> MapState:
    """Americans on the beach and inland, Germans on the trenches, obstacles anywhere."""
    return random_position(rng, americans, germans, inland_share=0.5, markers=markers)


def random_change(state: MapState, rng: random.Random, step: int) -> None:
    """One move, pin or unpin, new obstacle or removed marker, or a unit gone."""
    hexes = sorted(board().grid.hexes(), key=board().label)
    units = [p for p in state.pieces() if p.kind == "unit"]
    roll = rng.random()
    if roll < 0.45:
        state.move(rng.choice(units).id, rng.choice(hexes))
    elif roll < 0.65:
        moving = rng.choice(units)
        status = frozenset() if moving.status else frozenset({"pinned"})
        state.update(replace(moving, status=status))
    elif roll < 0.8:
        state.place(Piece(f"n{step}", rng.choice(MARKERS), rng.choice(hexes), kind="marker"))
    elif roll < 0.95 and any(p.kind == "marker" for p in state.pieces()):
        state.remove(rng.choice([p for p in state.pieces() if p.kind == "marker"]).id)
    elif roll >= 0.95:
        state.remove(rng.choice(units).id)


def test_a_maps_changed_hexes_since_a_version_hold_every_change() -> None:
    """``MapState.changed_since(v)``: every hex whose pieces differ from what it held at
    version ``v`` is among the hexes named, after each of 300 random changes, for every
    earlier version; None once the journal no longer reaches back that far."""
    rng = random.Random(19)
    state = crowded_map(rng)
    seen: list[tuple[int, dict[Hex, list[Piece]]]] = []
    for step in range(300):
        seen.append((state.version, {h: state.pieces_at(h) for h in board().grid.hexes()}))
        random_change(state, rng, step)
        for version, held in rng.sample(seen, min(len(seen), 10)):
            changed = state.changed_since(version)
            assert changed is not None
            differ = {h for h, pieces in held.items() if state.pieces_at(h) != pieces}
            assert differ <= changed
    assert state.changed_since(state.version) == set()


def test_a_journal_cut_short_says_it_no_longer_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map remembers only its latest changes: asked about a version before those it
    answers None (a cache must then work everything out again), never a partial set."""
    monkeypatch.setattr(engine_pieces, "_JOURNAL_KEPT", 16)
    rng = random.Random(23)
    state = MapState.of(board())
    versions = []
    for step in range(100):
        versions.append(state.version)
        state.place(Piece(f"m{step}", "cleared", rng.choice(list(board().grid.hexes())), kind="marker"))
    assert state.changed_since(versions[0]) is None
    assert len(state._journal) <= 16
    recent = state.changed_since(versions[-5])
    assert recent is not None and recent <= {p.hex for p in state.pieces()[-5:]}


@pytest.mark.parametrize("kept", [4096, 8])
def test_movement_models_kept_across_versions_equal_the_straight_model(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phase 5: ``reach_model`` (every hex's effect kept across map versions, only the
    changed hexes read again) has the costs, stops, no-end and barred hexes and the
    notes of ``model`` read afresh, and gives the same reach, path for path, for every
    American unit and for units asked about as if elsewhere, with budgets from 0 to
    unlimited, after each of 60 random changes; also with a journal so short that the
    changes are often forgotten (everything then read again)."""
    monkeypatch.setattr(engine_pieces, "_JOURNAL_KEPT", kept)
    rng = random.Random(37 + kept)
    state = crowded_map(rng)
    hexes = sorted(board().grid.hexes(), key=board().label)
    kept_policy = DogSectorMovePolicy()
    checked = noted = 0
    for step in range(60):
        americans = [p for p in state.pieces() if p.kind == "unit" and p.side == "american"]
        ghosts = [replace(p, hex=rng.choice(hexes)) for p in rng.sample(americans, 3)]
        for unit in ghosts + rng.sample(americans, 12):
            budget = rng.choice([None, 0, 2, 6, 999])
            fresh = DogSectorMovePolicy()
            want = fresh.model(state, unit, budget=budget)
            got = kept_policy.reach_model(state, unit, budget)
            assert got == want  # (the dicts compared as mappings; notes in order)
            found, planned = reach(got, unit.hex, unit.id), plan_move(state, fresh, unit, budget=budget)
            assert found == planned
            assert list(found.costs.items()) == list(planned.costs.items())
            checked += 1
            noted += bool(want.notes)
        random_change(state, rng, step)
    assert checked == 60 * 15 and noted


def test_american_fire_refusals_remembered_equal_those_worked_out_afresh() -> None:
    """Phase 6: the refusal of every American unit firing at every German unit, asked
    twice (the second remembered for the map version), equals the verdict of a fresh
    line-of-sight policy with nothing remembered, on 6 random positions with changes
    between questions."""
    from tabletop.games.dog_sector import american

    rng = random.Random(41)
    state = GameState(crowded_map(rng, americans=25, germans=12, markers=10), turn=1, phase="american-fire")
    refused = allowed = 0
    for step in range(6):
        units = [p for p in state.map.pieces() if p.kind == "unit"]
        for unit in [p for p in units if p.side == "american"]:
            for target in [p for p in units if p.side == "german"]:
                action = {"do": "fire", "unit": unit.id, "target": target.id}
                got = american.refusal(state, action)
                assert american.refusal(state, action) == got
                american._fire_memo[0] = None  # forget the refusals
                american._los_cache.clear()  # and the policy's remembered verdicts
                assert american.refusal(state, action) == got
                refused += got is not None
                allowed += got is None
        for _ in range(3):
            random_change(state.map, rng, step)
    assert refused and allowed


def test_sections_cleared_kept_while_only_other_hexes_change_equal_each_sections_test() -> None:
    """Table 7: the sections cleared, kept across changes that touch no trench hex of a
    section, are each section's own test after each of 200 random changes on and off
    the trenches (Germans moved, removed or placed; Americans and markers moved)."""
    from types import SimpleNamespace

    from tabletop.games.dog_sector import victory
    from tabletop.games.dog_sector.procedures import tables

    rng = random.Random(43)
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    trenches = [h for h in hexes if b.terrain[h] == "trench"]
    state = crowded_map(rng, americans=15, germans=14, markers=10)
    game = SimpleNamespace(map=state, board=b)
    counts = set()
    for step in range(200):
        germans = [p for p in state.pieces() if p.side == "german"]
        roll = rng.random()
        if roll < 0.3 and germans:
            state.move(rng.choice(germans).id, rng.choice(trenches if rng.random() < 0.5 else hexes))
        elif roll < 0.4 and germans:
            state.remove(rng.choice(germans).id)
        elif roll < 0.5:
            state.place(Piece(f"n{step}", rng.choice(GERMAN_TYPES), rng.choice(trenches), side="german"))
        else:
            random_change(state, rng, step)
        want = [s for s in tables().artillery.sections if victory.section_cleared(game, s)]  # type: ignore[arg-type]
        assert victory.sections_cleared(game) == want  # type: ignore[arg-type]
        counts.add(len(want))
    assert len(counts) > 2


def test_swamp_hexes_and_german_targets_follow_every_change() -> None:
    """Phase 2's sea hexes to check and phase 4's American units in label order, each
    remembered for a map version, equal the ones read afresh after 150 random changes."""
    from tabletop.games.dog_sector import german, procedures

    rng = random.Random(47)
    state = GameState(crowded_map(rng, americans=30, germans=8, markers=10), turn=1, phase="swamp")
    b = board()
    sea = [h for h in sorted(b.grid.hexes(), key=b.label) if b.terrain[h] == "sea"]
    found = set()
    for step in range(150):
        if rng.random() < 0.4:
            units = [p for p in state.map.pieces() if p.side == "american"]
            state.map.move(rng.choice(units).id, rng.choice(sea))
        else:
            random_change(state.map, rng, step)
        t = procedures.tables().swamping
        want = sorted(
            {
                p.hex
                for p in state.map.pieces()
                if p.kind == "unit"
                and p.side == "american"
                and b.terrain[p.hex] in t.terrain
                and not procedures.next_to(b, p.hex, t.not_next_to)
            },
            key=b.label,
        )
        assert procedures.swamp_hexes(state) == want
        americans = [p for p in state.map.pieces() if p.kind == "unit" and p.side == "american"]
        assert german._targets(state) == sorted(americans, key=lambda p: (b.label(p.hex), p.id))
        found.add(len(want))
    assert len(found) > 2


def test_a_seeded_shuffle_draws_what_one_value_at_a_time_draws() -> None:
    """The seeded dice's shuffle (one loop, a setup shuffles the whole map) leaves the
    items, the stream position and the values drawn exactly as Fisher-Yates over
    ``below`` does, for several seeds, positions and lengths; secret dice unchanged."""
    from tabletop.engine.dice import Dice

    rng = random.Random(53)
    for _ in range(40):
        seed, drawn, n = rng.randint(-(10**12), 10**12), rng.randint(0, 10_000), rng.randint(0, 600)
        fast, slow = Dice(seed, drawn=drawn), Dice(seed, drawn=drawn)
        items, want = list(range(n)), list(range(n))
        fast.shuffle(items)
        for i in range(n - 1, 0, -1):
            j = slow.below(i + 1)
            want[i], want[j] = want[j], want[i]
        assert (items, fast.drawn, fast.streamed) == (want, slow.drawn, slow.streamed)
        assert fast.roll(3, 6) == slow.roll(3, 6)  # and the stream goes on alike
    secret = bytes(range(32))
    a, b = Dice(1, secret=secret), Dice(1, secret=secret)
    items, want = list(range(50)), list(range(50))
    a.shuffle(items)
    for i in range(49, 0, -1):
        j = b.below(i + 1)
        want[i], want[j] = want[j], want[i]
    assert items == want


def test_setup_counts_remembered_per_map_version_equal_the_counts_read_afresh() -> None:
    """The setup solver's pieces counted by each constraint (remembered for a map
    version) and each zone's hexes (remembered per map) equal the ones read afresh,
    after each of 120 random placements and removals of units and markers."""
    from tabletop.engine import setup

    rng = random.Random(59)
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    zones = [
        setup.Zone(frozenset({"trench"})),
        setup.Zone(frozenset(), frozenset({"section-1", "section-4"})),
        setup.Zone(frozenset({"beach", "sea"}), frozenset(), frozenset({"barbed-wire"})),
        setup.EVERYWHERE,
    ]
    constraints = [
        setup.Constraint("per-hex", setup.PieceFilter("german", None, "unit"), max=1, zone=zones[0]),
        setup.Constraint("every", setup.PieceFilter("german", "infantry", None), min=1, group="section"),
        setup.Constraint("total", setup.PieceFilter(None, "barbed-wire", "marker"), max=30, zone=zones[2]),
        setup.Constraint(
            "zone", setup.PieceFilter("german"), zone=zones[1], ids=frozenset({"g1", "g2", "n3"})
        ),
    ]
    state = crowded_map(rng, americans=10, germans=10, markers=20)
    for step in range(120):
        if rng.random() < 0.5:
            kind = rng.choice(["unit", "marker"])
            piece = (
                Piece(f"n{step}", rng.choice(GERMAN_TYPES), rng.choice(hexes), side="german")
                if kind == "unit"
                else Piece(f"n{step}", rng.choice(MARKERS), rng.choice(hexes), kind="marker")
            )
            state.place(piece)
        else:
            state.remove(rng.choice(state.pieces()).id)
        for c in constraints:
            zone = c.zone
            want = [
                p
                for p in state.pieces()
                if c.counts(p) and (zone is None or c.kind == "zone" or zone.contains(state, p.hex))
            ]
            assert c._counted(state) == want
            assert c._counted(state) == want  # remembered now
        for zone in zones:
            assert zone.hexes(state) == [h for h in b.grid.hexes() if zone.contains(state, h)]


def test_the_screening_table_brought_up_to_date_equals_the_table_read_afresh() -> None:
    """Phase 4 screens (tanks and dozers): the table kept across map versions, only the
    changed hexes read again, holds what a fresh policy reads hex for hex, after each
    of 200 random changes with tanks and dozers moving, arriving and leaving; the fire
    verdicts read through it equal a fresh policy's."""
    from tabletop.games.dog_sector import los as dog_los

    rng = random.Random(61)
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    state = crowded_map(rng, americans=30, germans=10, markers=10)
    kept = dog_los.DogSectorPolicy(b)
    for step in range(200):
        roll = rng.random()
        screens = [p for p in state.pieces() if p.type in ("tank", "dozer")]
        if roll < 0.3 and screens:
            state.move(rng.choice(screens).id, rng.choice(hexes))
        elif roll < 0.4:
            state.place(Piece(f"t{step}", rng.choice(["tank", "dozer"]), rng.choice(hexes), side="american"))
        elif roll < 0.5 and screens:
            state.remove(rng.choice(screens).id)
        else:
            random_change(state, rng, step)
        fresh = dog_los.DogSectorPolicy(b)
        assert kept._screening(state) == fresh._screening(state)
        if step % 20 == 0:
            germans = [p for p in state.pieces() if p.side == "german"]
            americans = [p for p in state.pieces() if p.side == "american"]
            for g in germans:
                assert kept.fire_legal_all(state, g, americans) == fresh.fire_legal_all(state, g, americans)
                assert kept.fire_blocking_all(state, g, americans) == fresh.fire_blocking_all(
                    state, g, americans
                )


def test_a_sim_process_keeps_its_tables_out_of_the_collector_and_still_sweeps_cycles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before each game the objects made so far are frozen out of the garbage
    collector's reach (its full passes walked the rules' tables again and again); a
    garbage cycle caught in the freeze is not freed by a collection, and is freed by the
    sweep every ``GAMES_PER_SWEEP`` games."""
    import gc
    import weakref

    from tabletop import sim

    class Node:
        me: object = None

    monkeypatch.setattr(sim, "GAMES_PER_SWEEP", 2)
    monkeypatch.setattr(sim, "_since_sweep", [0])
    was_enabled = gc.isenabled()
    gc.disable()  # (no automatic pass may free the cycle before it is frozen)
    try:
        node = Node()
        node.me = node
        ref = weakref.ref(node)
        del node
        sim._collector_before_a_game()  # game 1: the cycle is frozen with the rest
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert ref() is not None  # out of the collector's reach
        sim._collector_before_a_game()  # game 2
        assert ref() is not None
        sim._collector_before_a_game()  # game 3: the sweep first
        assert ref() is None
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_artillery_done_remembered_equals_the_sections_read_afresh() -> None:
    """Phase 3 is over (3 misses, or no section with a hex the guns could hit):
    remembered for the map version, the misses and the reading, the answer equals every
    section's target worked out afresh under both readings of the target, after each of
    150 random changes (Americans onto the beach and sea, misses counted)."""
    from tabletop.games.dog_sector import procedures

    rng = random.Random(67)
    b = board()
    shore = [h for h in sorted(b.grid.hexes(), key=b.label) if b.terrain[h] in ("sea", "beach")]
    state = GameState(crowded_map(rng, americans=12, germans=8, markers=5), turn=1, phase="artillery")
    answers = set()
    for step in range(150):
        roll = rng.random()
        americans = [p for p in state.map.pieces() if p.side == "american"]
        if roll < 0.4 and americans:
            state.map.move(rng.choice(americans).id, rng.choice(shore))
        elif roll < 0.55:
            state.tracks[procedures.MISSES] = rng.randint(0, 3)
        else:
            random_change(state.map, rng, step)
        for reading in rng.sample(procedures.TARGET_READINGS, 2):  # both readings, one map version
            state.options["artillery-target"] = reading
            done = procedures.artillery_done(state)
            want = state.track(procedures.MISSES) >= procedures.tables().artillery.misses or all(
                procedures.artillery_target(state, procedures.section_hexes(b, s))[0] is None
                for s in procedures.tables().artillery.sections
            )
            assert done == want
            answers.add((reading, done))
    assert {done for _, done in answers} == {True, False}
