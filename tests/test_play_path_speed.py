"""Issue 19 (speed where players and designers wait), item 1 "games per second": the
faster forms of the play path's questions give exactly the answers of the plain forms,
on random inputs and on random DOG SECTOR positions with random changes between
questions (the reach searched by hex numbers, the counts and memos kept per map
version)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dog_sector_positions import board, random_position
from test_play_path_caches import random_change

from tabletop.board import load_map
from tabletop.engine import pieces as engine_pieces
from tabletop.engine.movement import HexIndex, IndexedModel, MoveModel, Reach, plan_move, reach, reach_indexed
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector.movement import DogSectorMovePolicy
from tabletop.hexgrid import Hex, distance


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


@pytest.mark.parametrize("kept", [4096, 8])
def test_per_version_counts_of_american_units_equal_the_units_counted_afresh(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's outcome (no American unit left ashore) reads ``american_count``, kept
    across versions from the changed hexes; phase 4's ranking reads the American units
    of each hex (``german._americans_at``); the Friendly Fire hexes (phase 6) are kept
    per version. Each equals what the map gives afresh after every one of 200 random
    changes (some removing units), also with a journal often cut short."""
    from tabletop.games.dog_sector import american, german, procedures

    monkeypatch.setattr(engine_pieces, "_JOURNAL_KEPT", kept)
    rng = random.Random(53 + kept)
    state = GameState(
        random_position(rng, 30, 8, inland_share=0.5, markers=10), turn=1, phase="american-fire"
    )
    b = board()
    radius = american.tables().ff_radius
    counts_seen = set()
    for step in range(200):
        random_change(state.map, rng, step)
        americans = [p for p in state.map.pieces() if p.kind == "unit" and p.side == "american"]
        assert procedures.american_count(state) == len(americans)
        by_hex: dict[Hex, int] = {}
        for p in americans:
            by_hex[p.hex] = by_hex.get(p.hex, 0) + 1
        assert german._americans_at(state) == by_hex
        units = [p for p in state.map.pieces() if p.kind == "unit"]
        for firer in rng.sample(americans, min(3, len(americans))):
            target = rng.choice(units)
            want: list[Hex] = []
            if firer.type in american.tables().ff_units and not (
                firer.type in american.tables().ff_not_adjacent and distance(firer.hex, target.hex) <= 1
            ):
                want = sorted(
                    {p.hex for p in americans if distance(p.hex, target.hex) <= radius}, key=b.label
                )
            assert american.friendly_fire_hexes(state, firer.id, target.id) == want
        counts_seen.add(len(americans))
    assert len(counts_seen) > 3


def test_the_next_german_to_fire_is_the_first_in_order_not_marked() -> None:
    """Phase 4: ``next_to_fire`` (the fired marks read as a set) is the first German unit
    in firing order that ``state.marked`` says has not fired, as units fire one by one."""
    from tabletop.games.dog_sector import german

    rng = random.Random(59)
    state = GameState(random_position(rng, 10, 12, inland_share=0.5), turn=1, phase="german-fire")
    order = german.firing_order(state)
    for _ in range(len(order) + 1):
        want = next((p for p in order if not state.marked(german.GERMAN_FIRED, p.id)), None)
        assert german.next_to_fire(state) == want
        if want is None:
            break
        state.mark(
            german.GERMAN_FIRED,
            rng.choice([p for p in order if not state.marked(german.GERMAN_FIRED, p.id)]).id,
        )
    assert german.next_to_fire(state) is None


def test_a_moved_piece_equals_the_piece_replaced_field_by_field() -> None:
    """``MapState.move`` keeps every field of the piece but its hex: the moved piece
    equals (and hashes as) ``replace(piece, hex=to)``. (A copy made through the
    instance dict was tried and dropped: such pieces read their fields twice as
    slowly, and Dogfaces, which moves more, got slower.)"""
    rng = random.Random(61)
    state = random_position(rng, 10, 5, inland_share=0.5, markers=5)
    hexes = sorted(board().grid.hexes(), key=board().label)
    for piece in state.pieces():
        piece = replace(piece, status=frozenset({"pinned"}), steps=2, attributes=(("ammo", 3),))
        state.update(piece)
        to = rng.choice(hexes)
        moved = state.move(piece.id, to)
        want = replace(piece, hex=to)
        assert moved == want and hash(moved) == hash(want)
        assert state.piece(piece.id) is moved and moved in state.pieces_at(to)


def test_hex_labels_read_once_give_the_maps_hex() -> None:
    """A move's refusal reads its ``to`` label through a memo of labels read: the same
    hex as the map's ``hex_of`` for every hex, None for labels that name none (also
    labels another map read before has)."""
    from tabletop.games.dog_sector import american

    state = GameState(random_position(random.Random(67), 2, 2, inland_share=0.5))
    b = board()
    for _ in range(2):
        for h in b.grid.hexes():
            assert american._hex_of(state, b.label(h)) == h
    for bad in ("9999", "ab", "", None, 12):
        assert american._hex_of(state, bad) is None
    bigger = load_map("dogs-of-war")  # labels this map has and the DOG SECTOR map has not
    beyond = [h for h in bigger.grid.hexes() if not b.grid.contains(h)][:20]
    for h in beyond:
        assert american._hex_of(GameState(MapState.of(bigger)), bigger.label(h)) == h
        assert american._hex_of(state, bigger.label(h)) is None


def test_changes_at_the_edge_of_a_search_are_read_before_it() -> None:
    """Phase 5: a hex changed since the effects were last read is read again before a
    search that may reach it: 300 times a unit's reach is asked, a hex 0 to budget + 2
    hexes from it changes (an obstacle or a German unit put there or taken away), and
    the reach asked again equals ``plan_move`` with a fresh policy."""
    rng = random.Random(71)
    state = random_position(rng, 30, 8, inland_share=0.5, markers=30)
    b = board()
    kept_policy = DogSectorMovePolicy()
    kinds = ("barbed-wire", "land-mine", "tank-obstacle", "cleared")
    for step in range(300):
        americans = [p for p in state.pieces() if p.kind == "unit" and p.side == "american"]
        unit = rng.choice(americans)
        budget = rng.choice((0, 1, 2, 3, 6))
        kept_policy.reach(state, unit, budget)
        ring = [h for h in b.grid.hexes() if distance(h, unit.hex) == rng.randint(0, budget + 2)]
        if ring:
            h = rng.choice(sorted(ring, key=b.label))
            here = [p for p in state.pieces_at(h) if p.id != unit.id]
            if here and rng.random() < 0.5:
                state.remove(rng.choice(here).id)
            elif rng.random() < 0.7:
                state.place(Piece(f"edge-marker-{step}", rng.choice(kinds), h, kind="marker"))
            else:
                state.place(Piece(f"edge-german-{step}", "infantry", h, side="german"))
        _same_reach(
            kept_policy.reach(state, unit, budget),
            plan_move(state, DogSectorMovePolicy(), unit, budget=budget),
        )


def test_the_german_target_is_the_first_by_the_priority_rules() -> None:
    """Phase 4 priority (nearest, then the shooter's preferred types, then the hex with
    most American units, then the lowest label, then the lowest id): the target
    ``choose_target`` picks, its ranks worked out for all targets at once, is the first
    legal target sorted by those rules written out here, for every German unit of 40
    random positions."""
    from tabletop.games.dog_sector import german, procedures

    rng = random.Random(73)
    b = board()
    chosen = 0
    for _ in range(40):
        state = GameState(
            random_position(rng, 30, 10, inland_share=0.6, markers=5), turn=1, phase="german-fire"
        )
        americans = [p for p in state.map.pieces() if p.kind == "unit" and p.side == "american"]
        for shooter in german.firing_order(state):
            legal = german.legal_targets(state, shooter.id)
            prefer = procedures.tables().german_fire[shooter.type].prefer

            crowds = {h: sum(1 for a in americans if a.hex == h) for h in {p.hex for p in legal}}
            ranked = sorted(
                legal,
                key=lambda p: (
                    distance(shooter.hex, p.hex),
                    p.type not in prefer,
                    -crowds[p.hex],
                    b.label(p.hex),
                    p.id,
                ),
            )

            target, _why = german.choose_target(state, shooter.id)
            assert target == (ranked[0] if ranked else None)
            chosen += target is not None
    assert chosen > 50


def test_kept_effects_follow_one_map_state_after_another() -> None:
    """Phase 5: one policy asked about 8 random positions of the same map in turn (one
    game after another), each with random changes (pins and unpins among them), gives
    ``plan_move``'s reach with a fresh policy every time (the effects kept for one map
    state are never read for another)."""
    rng = random.Random(79)
    kept_policy = DogSectorMovePolicy()
    for game in range(8):
        state = random_position(rng, 30, 10, inland_share=0.5, markers=40)
        for step in range(15):
            americans = [p for p in state.pieces() if p.kind == "unit" and p.side == "american"]
            for unit in rng.sample(americans, 6):
                budget = rng.choice([None, 2, 6])
                want = plan_move(state, DogSectorMovePolicy(), unit, budget=budget)
                _same_reach(kept_policy.reach(state, unit, budget), want)
            random_change(state, rng, 1000 * game + step)


def test_a_hex_holding_in_turn_each_kind_of_contents_reads_each_anew() -> None:
    """Phase 5: the hexes next to an American unit hold in turn a German unit, an
    American unit of each type, pinned down or not, and obstacle markers, alone and
    together; after each change the unit's reach (kept effects)
    equals ``plan_move``'s with a fresh policy (a hex's effect is read again from
    whatever it holds)."""
    rng = random.Random(83)
    b = board()
    kept_policy = DogSectorMovePolicy()
    state = MapState.of(b)
    beach = sorted((h for h in b.grid.hexes() if b.terrain[h] == "beach"), key=b.label)
    unit = Piece("mover", "infantry", beach[len(beach) // 2], side="american")
    state.place(unit)
    around = [h for h in b.grid.hexes() if distance(h, unit.hex) == 1]
    contents = [
        ("german", "infantry", frozenset()),
        ("american", "infantry", frozenset()),
        ("american", "infantry", frozenset({"pinned"})),
        ("american", "tank", frozenset()),
        ("american", "tank", frozenset({"pinned"})),
        ("american", "exceptional-leader", frozenset()),
        ("german", "mg-pillbox", frozenset()),
    ]
    for step in range(120):
        h = rng.choice(around)
        for p in state.pieces_at(h):
            state.remove(p.id)
        for k in range(rng.randint(1, 2)):
            if rng.random() < 0.7:
                side, kind, status = rng.choice(contents)
                state.place(Piece(f"u{step}-{k}", kind, h, side=side, status=status))
            else:
                marker = rng.choice(("barbed-wire", "land-mine", "tank-obstacle", "cleared"))
                state.place(Piece(f"m{step}-{k}", marker, h, kind="marker"))
        for mover in (unit, replace(unit, type="tank", id="mover")):
            want = plan_move(state, DogSectorMovePolicy(), mover, budget=2)
            _same_reach(kept_policy.reach(state, mover, 2), want)


def test_a_roll_of_one_die_draws_and_checks_as_a_roll_of_several() -> None:
    """The engine's dice: ``roll`` (one die taken without a generator, its checks in
    line) gives the faces drawn one at a time from the same stream, logs the same roll,
    moves the stream as far, uses scripted faces first, and refuses what the checks
    refuse with their words."""
    from tabletop.engine.dice import Dice

    rng = random.Random(89)
    for seed in range(30):
        a, b = (
            Dice(seed, script=[1, 2] if seed % 3 == 0 else []),
            Dice(seed, script=[1, 2] if seed % 3 == 0 else []),
        )
        for _ in range(20):
            n, sides = rng.choice((1, 1, 2, 3)), rng.choice((2, 6, 10, 20))
            faces = a.roll(n, sides, "why")
            assert faces == tuple(b._face(sides) for _ in range(n)) and a.drawn == b.drawn
            assert a.log[-1].purpose == "why" and a.log[-1].result == faces
        assert a.roll(1, 6)[0] == b._face(6) and a.log[-1].purpose == "1D6"
    for n, sides, words in ((0, 6, "number of dice"), (True, 6, "number of dice"), (1.0, 6, "number of dice"),
                            (1, 1, "number of sides"), (1, False, "number of sides"), (2, "6", "number of sides")):  # fmt: skip
        with pytest.raises(ValueError, match=words):
            Dice(1).roll(n, sides)  # type: ignore[arg-type]
