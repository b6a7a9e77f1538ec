"""Issue 19 (speed where players and designers wait), item 1: the caches the rule
systems read through give exactly the uncached answers, on random positions, and see
every change to the map at once (invalidated exactly, never stale)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from dog_sector_positions import AMERICAN_TYPES, GERMAN_TYPES, board, random_position

from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.movement import MoveModel
from tabletop.engine.pieces import MapState, Piece
from tabletop.games.dog_sector import los as dog_los
from tabletop.games.dog_sector.movement import RULE, DogSectorMovePolicy
from tabletop.hexgrid import Hex


def random_map(rng: random.Random, americans: int = 30, germans: int = 10) -> MapState:
    """Americans crowded on the trenches and hilltops (where they block) and on the beach,
    tanks and dozers among them (they screen), Germans in the trench rows."""
    return random_position(rng, americans, germans, inland_share=0.6)


def uncached(state: MapState, viewer: Piece, target: Piece) -> tuple[object, ...]:
    query = LosQuery(viewer.hex, target.hex, viewer=viewer, target_piece=target)
    return line_of_sight(state, dog_los.DogSectorPolicy(state.board), query).blocking


def pairs(state: MapState) -> list[tuple[Piece, Piece]]:
    units = [p for p in state.pieces() if p.kind == "unit"]
    return [(a, b) for a in units for b in units if a.side != b.side]


def test_fire_verdicts_remembered_equal_the_uncached_ones_on_random_positions() -> None:
    """Every German and American firer against every enemy unit, on 12 random positions:
    the remembered blocking findings (phases 4 and 6: what blocks, the section and range
    rules, screens) are those of a fresh policy's line of sight, cause for cause."""
    rng = random.Random(19)
    policy = dog_los.DogSectorPolicy(board())  # one policy across positions, as the game keeps it
    checked = blocked = 0
    for _ in range(12):
        state = random_map(rng)
        for viewer, target in pairs(state):
            want = uncached(state, viewer, target)
            assert policy.fire_blocking(state, viewer, target) == want
            assert policy.fire_blocking(state, viewer, target) == want  # remembered now
            checked += 1
            blocked += bool(want)
    assert checked > 3000 and 0 < blocked < checked  # both verdicts were met


def test_fire_verdicts_follow_every_change_to_the_map() -> None:
    """Moving, removing and adding units between questions (a tank rolling in front of
    a target, an American stepping onto a trench) changes the remembered answers exactly
    as it changes the uncached ones."""
    rng = random.Random(7)
    state = random_map(rng)
    policy = dog_los.DogSectorPolicy(board())
    hexes = board().grid.hexes()
    changed = 0
    for step in range(60):
        for viewer, target in rng.sample(pairs(state), 40):
            before = policy.fire_blocking(state, viewer, target)
            assert before == uncached(state, viewer, target)
        units = [p for p in state.pieces() if p.kind == "unit"]
        moving = rng.choice(units)
        if step % 3 == 0:
            state.remove(moving.id)
            state.place(Piece(f"n{step}", rng.choice(("tank", "dozer")), rng.choice(hexes), side="american"))
        else:
            state.move(moving.id, rng.choice(hexes))
        changed += 1
    assert changed == 60


def test_whole_verdicts_of_a_long_lived_policy_equal_a_fresh_ones() -> None:
    """The section, hex and range rules a policy remembers per pair of hexes give the
    whole verdict (blocks, modifiers such as the bonus ranges, notes) a fresh policy
    gives, for firers and for plain sight (no viewer)."""
    rng = random.Random(3)
    policy = dog_los.DogSectorPolicy(board())
    for _ in range(6):
        state = random_map(rng)
        for viewer, target in rng.sample(pairs(state), 300):
            for query in (
                LosQuery(viewer.hex, target.hex, viewer=viewer, target_piece=target),
                LosQuery(viewer.hex, target.hex),
            ):
                fresh = dog_los.DogSectorPolicy(state.board)
                assert line_of_sight(state, policy, query) == line_of_sight(state, fresh, query)


def test_fire_legality_without_findings_equals_the_full_verdict_on_random_positions() -> None:
    """Phases 4 and 6: ``fire_legal_all`` (the section, hex and range rules remembered per
    pair, then screens or the line) says legal exactly where the full verdict has no
    blocking finding, for every firer of both sides against every enemy unit on 4
    random positions, with one policy kept across them as the game keeps it, and again
    after units move between questions."""
    rng = random.Random(23)
    policy = dog_los.DogSectorPolicy(board())
    hexes = board().grid.hexes()
    verdicts = set()
    for _ in range(4):
        state = random_map(rng)
        for _step in range(3):
            units = [p for p in state.pieces() if p.kind == "unit"]
            for viewer in units:
                targets = [p for p in units if p.side != viewer.side]
                want = [not uncached(state, viewer, t) for t in targets]
                assert policy.fire_legal_all(state, viewer, targets) == want
                verdicts.update(want)
            for moving in rng.sample(units, 8):
                state.move(moving.id, rng.choice(hexes))
    assert verdicts == {True, False}


def test_the_pair_rules_test_says_blocked_exactly_where_the_rules_write_a_block() -> None:
    """Phases 4 and 6, Tables 4 and 6: the yes/no test of the section, hex and range
    rules that ``fire_legal_all`` remembers per pair says blocked exactly where those
    rules' findings hold a block, for every pair of enemy units on 12 random positions."""
    from tabletop.engine.los import LineContext, ground_level
    from tabletop.hexgrid import distance, relative_traversal

    rng = random.Random(31)
    policy = dog_los.DogSectorPolicy(board())
    seen = set()
    for _ in range(12):
        state = random_map(rng)
        for viewer, target in pairs(state):
            side = policy.data.sides[viewer.side]
            unit = side.units[viewer.type]
            src, tgt = viewer.hex, target.hex
            ctx = LineContext(
                LosQuery(src, tgt, viewer=viewer, target_piece=target),
                relative_traversal(tgt.q - src.q, tgt.r - src.r),
                distance(src, tgt),
                ground_level(state, src, viewer),
                ground_level(state, tgt, target),
            )
            found = policy._section_rule_of(state, ctx, side) + policy._hex_rules(state, ctx, side, unit)
            if unit.fires:
                found += policy._range(ctx, side, unit)
            want = any(f.severity == "block" for f in found)
            assert policy._pair_blocked(state.board, viewer, target, side, unit) is want
            seen.add((want, any(f.severity == "block" and "range" in f.cause for f in found)))
    assert {(True, True), (True, False), (False, False)} <= seen


def test_german_legal_targets_choice_and_refusals_equal_those_of_the_reasons() -> None:
    """Phase 4: the legal targets (found without the reasons), the remembered choice and
    the single-target refusal are what the full reasons list gives, for every German unit
    on 10 random positions with some Americans pinned down or targeted this turn."""
    from tabletop.engine.state import GameState
    from tabletop.games.dog_sector import german, hits

    rng = random.Random(29)
    h = hits.tables()
    seen = set()
    for _ in range(10):
        state = GameState(random_map(rng), turn=1, phase="german-fire")
        americans = [p for p in state.map.pieces() if p.side == "american"]
        for p in rng.sample(americans, 4):
            state.map.update(Piece(p.id, p.type, p.hex, side=p.side, status=frozenset({h.pinned_status})))
        for p in rng.sample(americans, 3):
            state.mark(h.targeted_mark, p.id)
        for gid in [p.id for p in state.map.pieces() if p.side == "german"]:
            reasons = german.target_reasons(state, gid)
            legal = [p for p, why in reasons if why is None]
            assert german.legal_targets(state, gid) == legal
            for piece, why in reasons:
                want = None if why is None else f"{piece.type} {piece.id}: {why}"
                assert german.target_refusal(state, gid, piece.id) == want
            chosen = german.choose_target(state, gid)
            german._memo[0] = None  # forget: the choice worked out afresh is the same
            assert german.choose_target(state, gid) == chosen
            assert chosen[0] is None if not legal else chosen[0] in legal
            seen.add(len(legal) > 1)
    assert seen == {True, False}


MARKERS = ("barbed-wire", "land-mine", "tank-obstacle", "cleared")


def test_movement_models_with_remembered_hex_effects_equal_the_straight_reading() -> None:
    """Phase 5: one long-lived movement policy's model (each hex's effect remembered with
    the pieces in it) equals the rules read afresh hex by hex, costs, stops, no-end and
    barred hexes in the same order, notes and all, for every American unit after each of
    80 random moves, pins, removals and new obstacles on a crowded map."""
    rng = random.Random(37)
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    state = random_map(rng, americans=40)
    for i in range(60):
        state.place(Piece(f"m{i}", rng.choice(MARKERS), rng.choice(hexes), kind="marker"))
    policy = DogSectorMovePolicy()
    checked = barred = stops = 0
    for step in range(80):
        units = [p for p in state.pieces() if p.kind == "unit"]
        americans = [p for p in units if p.side == "american"]
        # a unit asked about as if elsewhere (its own hex then holds it as another unit)
        ghosts = [replace(p, hex=rng.choice(hexes)) for p in rng.sample(americans, 3)]
        for unit in ghosts + americans:
            got, want = policy.model(state, unit), model_afresh(policy, state, unit)
            assert got == want
            for field in ("enter", "stop", "no_end", "why_not"):
                assert list(getattr(got, field).items()) == list(getattr(want, field).items())
            checked += 1
            barred += len(want.why_not)
            stops += len(want.stop)
        moving = rng.choice(units)
        roll = rng.random()
        if roll < 0.5:
            state.move(moving.id, rng.choice(hexes))
        elif roll < 0.7:
            status = frozenset() if moving.status else frozenset({"pinned"})
            state.update(Piece(moving.id, moving.type, moving.hex, side=moving.side, status=status))
        elif roll < 0.85:
            state.place(Piece(f"n{step}", rng.choice(MARKERS), rng.choice(hexes), kind="marker"))
        else:
            state.remove(rng.choice([p for p in state.pieces() if p.kind == "marker"]).id)
    assert checked > 2000 and barred and stops


def change_a_german(
    state: MapState, rng: random.Random, hexes: list[Hex], new_id: str, move_below: float
) -> None:
    """One random change to the German units: a move (rolls below ``move_below``), a
    removal (below 0.8) or a new unit placed as ``new_id``, each in ``hexes``."""
    germans = [p for p in state.pieces() if p.side == "german"]
    roll = rng.random()
    if roll < move_below and germans:
        state.move(rng.choice(germans).id, rng.choice(hexes))
    elif roll < 0.8 and germans:
        state.remove(rng.choice(germans).id)
    else:
        state.place(Piece(new_id, rng.choice(GERMAN_TYPES), rng.choice(hexes), side="german"))


def test_the_sections_cleared_after_every_change_are_each_sections_own_test() -> None:
    """Table 7 (trench sections cleared): the remembered list, worked out from the German
    hexes found once, is each section's own test in ``rules.yaml`` order, after each of
    150 random moves, removals and placements of German units on the trenches."""
    from types import SimpleNamespace

    from tabletop.games.dog_sector import victory
    from tabletop.games.dog_sector.procedures import tables

    rng = random.Random(41)
    b = board()
    trenches = [h for h in sorted(b.grid.hexes(), key=b.label) if b.terrain[h] == "trench"]
    state = random_map(rng, americans=10, germans=12)
    game = SimpleNamespace(map=state, board=b)
    counts = set()
    for step in range(150):
        change_a_german(state, rng, trenches, f"n{step}", move_below=0.5)
        want = [s for s in tables().artillery.sections if victory.section_cleared(game, s)]  # type: ignore[arg-type]
        assert victory.sections_cleared(game) == want  # type: ignore[arg-type]
        counts.add(len(want))
    assert len(counts) > 2


def test_the_firing_order_after_every_change_is_the_order_sorted_afresh() -> None:
    """Phase 4 firing order (section 1 to 6, then hex label, then id; project's choice):
    with each hex's section and label remembered, the order after each of 100 random
    moves, removals and placements of German units is the one sorted afresh."""
    from types import SimpleNamespace

    from tabletop.games.dog_sector import german

    rng = random.Random(43)
    b = board()
    hexes = sorted(b.grid.hexes(), key=b.label)
    state = random_map(rng, americans=5, germans=20)
    game = SimpleNamespace(map=state, board=b)
    for step in range(100):
        change_a_german(state, rng, hexes, f"n{step}", move_below=0.6)
        germans = [p for p in state.pieces() if p.kind == "unit" and p.side == "german"]
        want = sorted(germans, key=lambda p: (german._section_index(game, p), b.label(p.hex), p.id))  # type: ignore[arg-type]
        assert german.firing_order(game) == want  # type: ignore[arg-type]


def model_afresh(policy: DogSectorMovePolicy, state: MapState, unit: Piece) -> MoveModel:
    """The model as phase 5 reads it, hex by hex with nothing remembered (the straight
    reading the remembered per-hex effects must equal)."""
    t = policy.tables
    board = state.board
    ground = policy.ground(board)
    points, why_still = policy.allowance(unit, None)
    notes = [why_still] if why_still else []
    enter = dict(ground.enter)
    stop: dict[Hex, str] = {}
    no_end: dict[Hex, str] = {}
    why_not: dict[Hex, str] = {}
    noted: set[str] = set()
    kinds = set(t.obstacles)
    for h in {p.hex for p in state.pieces()}:
        if h == unit.hex:
            continue  # the start is never entered
        here = state.pieces_at(h)  # units and markers, read once (a bot asks for many models)
        others = [p for p in here if p.kind == "unit" and p.id != unit.id]
        if others:
            label = board.label(h)
            if any(p.side and unit.side and p.side != unit.side for p in others):
                del enter[h]
                why_not[h] = f"{label}: {t.enemy_hexes}"
                continue
            if any(p.has(t.pinned_status) for p in others):
                if unit.type not in t.pinned_may_enter:
                    del enter[h]
                    why_not[h] = (
                        f"{label}: pinned-down hex; only {' and '.join(sorted(t.pinned_may_enter))} may enter ({RULE})"
                    )
                    continue
                stop[h] = t.pinned_stop
            if t.one_of_each_type and h not in ground.unlimited and any(p.type == unit.type for p in others):
                no_end[h] = (
                    f"{label} already holds a {unit.type}: one unit of each type a hex ({RULE}, stacking)"
                )
        markers = {m.type for m in here if m.kind == "marker"}
        if not markers or t.cleared_marker in markers:
            continue
        label = board.label(h)
        for kind in sorted(markers & kinds):
            ob = t.obstacles[kind]
            effect = ob.effect(unit.type)
            if effect.extra is None:
                enter.pop(h, None)
                stop.pop(h, None)
                no_end.pop(h, None)
                why_not[h] = f"{label}: {ob.why_barred} ({ob.rule})"
                break
            if h in enter:
                enter[h] += effect.extra
            if effect.note and kind not in noted:
                noted.add(kind)
                notes.append(f"{kind}: a {unit.type} entering its hex {effect.note} ({ob.rule})")
            if ob.stop:
                stop[h] = f"{stop[h]}; {ob.stop}" if h in stop else ob.stop
    return MoveModel(points, enter, stop=stop, no_end=no_end, why_not=why_not, rule=RULE, notes=tuple(notes))


# ---------------------------------------------------------------- item 3: no cold start


def _tables_equal(a: object, b: object) -> bool:
    import numpy as np

    from tabletop.engine import fastview

    assert isinstance(a, fastview.VectorTable) and isinstance(b, fastview.VectorTable)
    rows = ("crossed", "corners", "run_a", "run_b")
    return (
        a.reach == b.reach
        and np.array_equal(a.ids, b.ids)
        and np.array_equal(a.head_q, b.head_q)
        and np.array_equal(a.head_r, b.head_r)
        and all(
            np.array_equal(getattr(getattr(a, k), f), getattr(getattr(b, k), f))
            for k in rows
            for f in ("q", "r", "ptr")
        )
    )


def test_a_vector_table_read_back_from_the_cache_folder_is_the_one_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19 item 3: the table a process writes to the user's cache folder is read
    back array for array, by a table of that reach or any smaller one."""
    from tabletop.engine import fastview, tablecache

    monkeypatch.setattr(fastview, "_TABLES", {})
    built = fastview._build(12)
    written = tablecache.save(built)
    assert written is not None and written.parent == tablecache.folder()
    assert _tables_equal(tablecache.load(12), built)
    assert _tables_equal(tablecache.load(7), built)  # a bigger table serves a smaller reach
    assert tablecache.load(13) is None
    assert _tables_equal(fastview.vector_table(10, build=False), built)
    bigger = fastview._build(14)
    tablecache.save(bigger)  # replaces the smaller one: one table in the folder
    assert [p.name for p in tablecache.folder().glob("*.npz")] == [tablecache.path(14).name]


def test_a_cache_file_of_another_layout_or_broken_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The version check: a file written by another table layout (TABLE_FORMAT) or cut
    short is never read as a table; the next build writes a good one over it."""
    from tabletop.engine import fastview, tablecache

    monkeypatch.setattr(fastview, "_TABLES", {})
    built = fastview._build(5)
    tablecache.save(built)
    monkeypatch.setattr(fastview, "TABLE_FORMAT", fastview.TABLE_FORMAT + 1)
    assert tablecache.load(5) is None  # another layout's file name and stamp
    tablecache.path(5).parent.mkdir(parents=True, exist_ok=True)
    tablecache.path(5).write_bytes(b"PK broken")
    assert tablecache.load(5) is None
    assert _tables_equal(fastview.vector_table(5), built)  # rebuilt
    assert _tables_equal(tablecache.load(5), built)  # and written over the broken file


def test_the_first_viewshed_without_a_table_equals_line_of_sight_hex_by_hex(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first viewshed of a process with no table anywhere works out only its own
    lines; its verdicts are those of the table path and of single queries, under every
    grazing rule, on random maps."""
    from benchmarks.los import random_map
    from tabletop.engine import fastview
    from tabletop.engine.freeplay import FreePlayPolicy
    from tabletop.engine.viewshed import viewshed

    rng = random.Random(5)
    for grazing in ("both", "either", "never"):
        board = random_map(14, 0.25, rng.randrange(1000))
        state = MapState.of(board)
        policy = FreePlayPolicy.for_map(state)
        policy.grazing = grazing  # type: ignore[misc]
        source = rng.choice(board.grid.hexes())
        monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / grazing))  # an empty cache folder
        monkeypatch.setattr(fastview, "_TABLES", {})
        monkeypatch.setattr(fastview, "_asked", [0])
        first = viewshed(state, policy, source)
        assert not fastview._TABLES  # no table was built for it
        again = viewshed(state, policy, source)
        assert fastview._TABLES  # the second one built it
        assert first == again
        for h in board.grid.hexes():
            if h == source:
                continue
            single = line_of_sight(state, policy, LosQuery(source, h)).result
            assert first.get(h, "blocked") == single


# ------------------------------------------------------------ item 2: many lines at once


@pytest.mark.parametrize("grazing", ["both", "either", "never"])
def test_sight_lines_equal_single_queries_pair_by_pair(grazing: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 item 2: the batch verdicts (many sources and targets, in one call) are
    ``line_of_sight(...).result`` of each pair, with hindering and blocking terrain,
    every grazing rule, lines of length 0, and lines longer than the table (asked one
    by one)."""
    from benchmarks.los import random_map
    from tabletop.engine import fastview
    from tabletop.engine.freeplay import FreePlayPolicy
    from tabletop.engine.viewshed import sight_from, sight_lines

    rng = random.Random(11)
    board = random_map(24, 0.2, 4)
    state = MapState.of(board)
    policy = FreePlayPolicy.for_map(state)
    policy.grazing = grazing  # type: ignore[assignment]
    hexes = board.grid.hexes()
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(1500)]
    pairs += [(h, h) for h in hexes[:5]]
    monkeypatch.setattr(fastview, "TABLE_REACH", 15)  # some lines beyond the table
    got = sight_lines(state, policy, pairs)
    want = [line_of_sight(state, policy, LosQuery(a, b)).result for a, b in pairs]
    assert got == want
    assert {"clear", "hindered", "blocked"} <= set(want) or {"clear", "blocked"} <= set(want)
    source = hexes[40]
    assert sight_from(state, policy, source, hexes) == [
        line_of_sight(state, policy, LosQuery(source, h)).result for h in hexes
    ]


def test_sight_lines_of_a_rule_system_with_whole_line_rules_are_its_single_verdicts() -> None:
    """A policy with whole-line rules (DOG SECTOR's sections and screens) is asked one
    line at a time: the batch still equals its single queries; an end off the map is
    refused before any line is judged."""
    from tabletop.engine.viewshed import sight_lines
    from tabletop.hexgrid import Hex

    rng = random.Random(2)
    state = random_map(rng)
    policy = dog_los.DogSectorPolicy(board())
    hexes = board().grid.hexes()
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(300)]
    assert sight_lines(state, policy, pairs) == [
        line_of_sight(state, policy, LosQuery(a, b)).result for a, b in pairs
    ]
    with pytest.raises(ValueError, match="not on the map"):
        sight_lines(state, policy, [*pairs, (Hex(-50, 0), hexes[0])])


def test_the_section_rule_table_answers_as_the_rule_on_random_hex_pairs() -> None:
    """Phases 4 and 6 (same or adjacent section): the per-map table of section groups
    the planner reads gives, for 20,000 random hex pairs and every hex against itself,
    the answer of the rule on the two hexes' section keys."""
    b = board()
    sections = dog_los.Sections.of(b, dog_los.tables().section_kind)
    hexes = list(b.grid.hexes())
    rng = random.Random(19)
    empty: frozenset[str] = frozenset()
    answers = set()
    for a, c in [(rng.choice(hexes), rng.choice(hexes)) for _ in range(20_000)] + [(h, h) for h in hexes]:
        want = sections._slow_same_or_adjacent(sections.of_hex.get(a, empty), sections.of_hex.get(c, empty))
        assert sections.same_or_adjacent(a, c) is want
        answers.add(want)
    assert answers == {True, False}


def test_the_remembered_american_units_follow_every_change_to_the_map() -> None:
    """DOG SECTOR's list of American units (read by every phase) is, after each of 200
    random moves, removals, placements and step losses, the list read afresh."""
    from types import SimpleNamespace

    from tabletop.games.dog_sector.procedures import AMERICAN, american_units

    rng = random.Random(3)
    state = random_map(rng)
    game = SimpleNamespace(map=state)
    hexes = list(board().grid.hexes())
    added = 0
    for _ in range(200):
        units = [p for p in state.pieces() if p.kind == "unit"]
        roll = rng.random()
        if roll < 0.4 and units:
            state.move(rng.choice(units).id, rng.choice(hexes))
        elif roll < 0.6 and units:
            state.remove(rng.choice(units).id)
        elif roll < 0.8:
            added += 1
            state.place(Piece(f"n{added}", rng.choice(AMERICAN_TYPES), rng.choice(hexes), side=AMERICAN))
        elif units:
            unit = rng.choice(units)
            state.update(Piece(unit.id, unit.type, unit.hex, side=unit.side, steps=unit.steps + 1))
        want = [p for p in state.pieces() if p.kind == "unit" and p.side == AMERICAN]
        assert american_units(game) == want  # type: ignore[arg-type]
        h = rng.choice([p.hex for p in state.pieces()])
        assert american_units(game, h) == [p for p in state.units_at(h) if p.side == AMERICAN]  # type: ignore[arg-type]


def test_hex_distance_is_the_largest_cube_difference_on_random_pairs() -> None:
    """The hex metric (hexgrid, read millions of times a sim) equals max(|dq|, |dr|, |ds|)."""
    from tabletop.hexgrid import Hex, distance

    rng = random.Random(5)
    for _ in range(20_000):
        a = Hex(rng.randint(-300, 300), rng.randint(-300, 300))
        c = Hex(rng.randint(-300, 300), rng.randint(-300, 300))
        dq, dr = a.q - c.q, a.r - c.r
        assert distance(a, c) == max(abs(dq), abs(dr), abs(dq + dr))
