"""Issue 19 item 1 ("games per second"): what the DOG SECTOR planner (``planner.py``) and
the first autoplayer (``autoplayer.py``) remember or work out incrementally, each checked
against the straight, uncached computation on positions of real games (seeded games
played some random number of actions in), so a cache that answers for a map it no
longer describes fails here, and a game played with every memo forgotten before each
choice is the same game."""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from functools import cache

from tabletop.board import load_map
from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games import ruleset
from tabletop.games.dog_sector import american, autoplayer, planner
from tabletop.games.dog_sector.autoplayer import FAR, VEHICLES, _Board
from tabletop.games.dog_sector.planner import PlanningAutoplayer
from tabletop.hexgrid import Hex


@cache
def scenario() -> Scenario:
    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario)
    return opened


def new(seed: int, bombardment: str) -> Game:
    game = new_game(scenario(), ruleset("dog_sector"), seed=seed, options={"bombardment": bombardment},
                    history=False)  # fmt: skip
    game.use_seeded_dice()
    auto_setup(game)
    return game


def step(game: Game, bot: PlanningAutoplayer) -> None:
    """One action: the rules' own, or the planner's (DOG SECTOR's only seat)."""
    action = game.proposal()
    if action is None:
        actor = game.actor()
        assert actor is not None
        action = bot.choose(game.side_view(actor))
    game.play(action)


def positions(seed: int, bombardment: str, every: int = 70, phase: str | None = None) -> Iterator[GameState]:
    """The live state of a game played by the planner, after a random number of actions
    (on average ``every``) each time, to its end; only in ``phase`` if given."""
    rng = random.Random(seed)
    game, bot = new(seed, bombardment), PlanningAutoplayer()
    wait = rng.randrange(every)
    while game.state.result is None:
        step(game, bot)
        wait -= 1
        if wait < 0 and (phase is None or game.state.phase == phase):
            yield game.state
            wait = rng.randrange(2 * every)


def units(state: GameState, side: str) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "unit" and p.side == side]


# ------------------------------------------------------------------ the straight readings


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


def reference_enter(
    b: _Board, unit_type: str, obstacles: dict[Hex, frozenset[str]], germans: list[Piece]
) -> list[int]:
    """The AP to enter each hex (by position), read straight: its ground, plus what its
    live obstacles add for ``unit_type`` (``autoplayer._extra``); German hexes barred (-1)."""
    enter = [b.cost[h] for h in b.hexes]
    for h, kinds in obstacles.items():
        if kinds:
            enter[b.index[h]] += autoplayer._extra(unit_type, kinds) or 0
    for g in germans:
        enter[b.index[g.hex]] = -1
    return enter


def dijkstra(b: _Board, starts: dict[Hex, int], enter: list[int]) -> dict[Hex, int]:
    """``heap_search`` by hex: the AP from each hex to the nearest start (hexes out of
    reach left out)."""
    best = heap_search(b, {b.index[h]: d for h, d in starts.items()}, enter)
    return {b.hexes[i]: d for i, d in enumerate(best) if d < FAR}


def starts_afresh(b: _Board, kind: str, germans: list[Piece], quiet: frozenset[str] | None) -> dict[Hex, int]:
    """The goal hexes of a plan field and the AP each starts at, as the planner first
    wrote them (one German unit and one hex at a time)."""
    left = {g.id: autoplayer._section_left(b, g, germans) for g in germans}
    aimed = germans if not quiet else [g for g in germans if g.id in quiet]
    if planner.FOCUS_SECTIONS and kind not in VEHICLES and quiet is None:
        lowest = sorted({left[g.id] for g in germans})[: planner.FOCUS_SECTIONS]
        aimed = [g for g in aimed if left[g.id] in lowest] or aimed
    goals = autoplayer._goals(b, kind, aimed)
    low = min(left.values(), default=0)
    only_adjacent, _ = planner._cover(b)
    starts: dict[Hex, int] = {}
    for g in aimed:
        bias = planner.CONCENTRATE_AP * (left[g.id] - low)
        for h in autoplayer._firing_hexes(b, kind, g) if kind != autoplayer.LEADER else b.around[g.hex]:
            if h not in goals:
                continue
            start = bias + (0 if h in only_adjacent else planner.EXPOSED_GOAL_AP)
            if start < starts.get(h, FAR):
                starts[h] = start
    return starts


def field_afresh(state: GameState, b: _Board, unit: Piece) -> dict[Hex, int]:
    """A unit's plan field with nothing remembered: the pieces read again, the goals
    loop, the obstacle costs and a heap search."""
    germans, obstacles = autoplayer._germans(state), autoplayer._obstacles(state)
    kind = "infantry" if unit.type in planner.AS_INFANTRY else unit.type
    quiet = planner._quiet(state, unit, germans) if kind in american.tables().ff_units else None
    starts = starts_afresh(b, kind, germans, quiet)
    found = dijkstra(b, starts, reference_enter(b, kind, obstacles, germans))
    return {h: (0 if h in starts else d) for h, d in found.items()}


# ------------------------------------------------------------------ the tests


def test_the_layout_after_every_action_is_the_pieces_read_afresh() -> None:
    """Issue 19 item 1: the German units, obstacles and units of each side the bots read
    (``autoplayer._now``: one pass a map version, the layout kept while no German unit
    or obstacle changes) equal the map read afresh after every action of two games, and
    a layout is kept only while both are unchanged."""
    for seed, bombardment in ((1, "light"), (2, "heavy")):
        game, bot = new(seed, bombardment), PlanningAutoplayer()
        last = None
        while game.state.result is None:
            step(game, bot)
            state = game.state
            now = autoplayer._now(state)
            germans, obstacles = autoplayer._layout(state)
            assert germans == autoplayer._germans(state)
            assert obstacles == autoplayer._obstacles(state)
            assert list(now.placed) == units(state, "german")
            assert list(now.americans) == units(state, "american")
            if last is not None and now.layout is last.layout:
                assert list(last.layout.germans) == germans and last.layout.obstacles == obstacles
            if last is not None and now.layout.by_germans is last.layout.by_germans:
                assert list(last.layout.germans) == germans
            if last is not None and now.layout.by_obstacles is last.layout.by_obstacles:
                assert last.layout.obstacles == obstacles
            last = now


def test_the_plan_field_of_every_unit_equals_a_search_afresh_on_random_positions() -> None:
    """Issue 19 item 1: the plan field each American unit moves by, as the planner
    reads it (remembered with the layout, the game's fields and incremental searches,
    the goals' starts by set operations, the bucket search) equals the goals looped one
    by one and a plain heap search with nothing remembered, at random positions of three
    games."""
    checked = 0
    for seed, bombardment in ((3, "light"), (4, "moderate"), (5, "heavy")):
        bot = PlanningAutoplayer()
        for state in positions(seed, bombardment):
            b = autoplayer._board(state.board)
            germans, obstacles = autoplayer._layout(state)
            if not germans:
                continue
            for unit in units(state, "american"):
                assert bot._dist(state, b, unit, germans, obstacles) == field_afresh(state, b, unit), unit
                checked += 1
    assert checked > 100


def test_the_simple_bots_field_remembered_with_the_layout_equals_a_search_afresh() -> None:
    """Issue 19 item 1: the first autoplayer's plan field (``--bot american=simple``),
    remembered with the layout, equals its goals searched afresh with a heap search, for
    every American unit at random positions."""
    bot = autoplayer.AmericanAutoplayer()
    checked = 0
    for state in positions(10, "moderate"):
        b = autoplayer._board(state.board)
        germans, obstacles = autoplayer._layout(state)
        if not germans:
            continue
        fresh_germans, fresh_obstacles = autoplayer._germans(state), autoplayer._obstacles(state)
        for unit in units(state, "american"):
            enter = reference_enter(b, unit.type, fresh_obstacles, fresh_germans)
            goals = autoplayer._goals(b, unit.type, fresh_germans)
            afresh = dijkstra(b, dict.fromkeys(goals, 0), enter)
            assert bot._dist(state, b, unit, germans, obstacles) == afresh, unit
            checked += 1
    assert checked > 50


def test_the_planners_starts_equal_the_goals_looped_one_by_one() -> None:
    """Issue 19 item 1: ``planner._starts`` (hexes of each bias together, least first)
    gives every goal hex the AP the one-by-one loop gives it, for every unit type, all
    German units or only some quiet ones (none quiet included), at random positions."""
    rng = random.Random(19)
    kinds = [*sorted(american.tables().fire_units), autoplayer.LEADER, autoplayer.CE]
    for state in positions(6, "moderate", every=150):
        b = autoplayer._board(state.board)
        germans = autoplayer._germans(state)
        left = {g.id: autoplayer._section_left(b, g, germans) for g in germans}
        for kind in kinds:
            some = frozenset(g.id for g in germans if rng.random() < 0.5)
            for quiet in (None, some, frozenset()):
                assert planner._starts(b, kind, germans, left, quiet) == starts_afresh(
                    b, kind, germans, quiet
                )


def test_remembered_threats_quiet_units_steps_and_friendly_fire_equal_the_straight_reading() -> None:
    """Issue 19 item 1: at random positions, the threat field a unit reads (remembered
    with the German units and the tanks' hexes) equals ``threat`` and ``_screened``
    with their caches emptied; the quiet German units by disks equal ``_quiet``; the
    steps left in each section in one pass equal ``_section_left`` unit by unit; the
    friendly fire remembered a version equals ``american.friendly_fire_hexes``; the
    mine hexes equal the obstacles read afresh; the German units in range of a unit, the
    obstacle costs by set of kinds and the leaders' work by hex equal the straight
    readings."""
    mine = american.tables().mine_marker
    for state in positions(7, "heavy", every=60):
        b = autoplayer._board(state.board)
        now = autoplayer._now(state)
        germans, obstacles = autoplayer._germans(state), autoplayer._obstacles(state)
        lefts = autoplayer._lefts(now.layout, b)
        assert lefts == {g.id: autoplayer._section_left(b, g, germans) for g in germans}
        assert planner._mine_hexes(now.layout) == {h for h, kinds in obstacles.items() if mine in kinds}
        for unit in units(state, "american"):
            planner._threats.clear()
            planner._one.clear()
            afresh = planner.threat(b, germans, unit.type in VEHICLES)
            if unit.type not in VEHICLES:
                afresh = planner._screened(state, b, germans, afresh)
            assert planner._danger(state, now, b, unit) == afresh
            assert planner._quiet_now(now, unit) == planner._quiet(state, unit, germans)
            for g in germans:
                expected = bool(american.friendly_fire_hexes(state, unit.id, g.id))
                assert autoplayer._friendly_fire(state, now, unit, g) is expected
            in_range = [g for g in germans if unit.hex in autoplayer._firing_hexes(b, unit.type, g)]
            assert list(autoplayer._in_range(now.layout, b, unit)) == in_range
            for kinds in obstacles.values():
                assert autoplayer._extra_of(unit.type, kinds) == autoplayer._extra(unit.type, sorted(kinds))
        pinned = autoplayer.move_tables().pinned_status
        for h in b.hexes:
            here = [p for p in state.map.units_at(h) if p.side == "american"]
            work = sum(p.has(pinned) for p in here) + sum(
                p.type == "infantry" and not american._full(p) for p in here
            )
            assert autoplayer._work(now).get(h, 0) == work


def test_a_unit_sharing_its_hex_makes_the_germans_near_it_not_quiet() -> None:
    """Issue 19 item 1: ``planner._quiet_now`` (disks around the German units against
    the American hexes of the version) counts another American unit in the unit's own
    hex as a friend, as ``_quiet`` does (phase 6, Friendly Fire), and the unit alone not."""
    board = load_map("dog-sector")
    for share in (False, True):
        state = GameState(MapState.of(board), turn=2, phase=autoplayer.ACTIVITY)
        state.map.place(Piece("G1", "mg-pillbox", board.hex_of("0612"), side="german"))
        state.map.place(Piece("G2", "mg-pillbox", board.hex_of("1612"), side="german"))
        tank = Piece("T1", "tank", board.hex_of("0610"), side="american")
        state.map.place(tank)
        if share:
            state.map.place(Piece("I1", "infantry", tank.hex, side="american", steps=2))
        now = autoplayer._now(state)
        expected = frozenset({"G2"}) if share else frozenset({"G1", "G2"})
        assert planner._quiet(state, tank, autoplayer._germans(state)) == expected
        assert planner._quiet_now(now, tank) == expected


def test_every_target_the_rules_allow_lies_in_the_firing_hexes() -> None:
    """Issue 19 item 1: the log's list of targets skipped for friendly fire asks the
    rules only about German units whose firing hexes (``autoplayer._firing_hexes``: the
    section, hex and range rules) hold the firer; that is exact only if every fire the
    rules allow is from such a hex, checked for every American unit and German unit at
    random positions of phase 6 (and some such fire exists, so the check is not empty)."""
    allowed = 0
    for seed, bombardment in ((8, "light"), (9, "heavy")):
        for state in positions(seed, bombardment, every=20, phase=autoplayer.FIRE):
            b = autoplayer._board(state.board)
            for unit in units(state, "american"):
                for g in units(state, "german"):
                    if american.refusal(state, {"do": "fire", "unit": unit.id, "target": g.id}) is None:
                        allowed += 1
                        assert unit.hex in autoplayer._firing_hexes(b, unit.type, g), (unit, g)
    assert allowed > 20


def test_the_bucket_search_and_its_incremental_form_equal_a_heap_search_on_random_costs() -> None:
    """Issue 19 item 1: ``autoplayer._distances`` (Dial's buckets, barred hexes held
    below every distance while it runs) equals a plain heap search on random entry costs
    (zero-cost hexes, barred hexes, barred starts included), and relaxing a finished
    field from the hexes whose cost fell equals searching afresh."""
    rng = random.Random(119)
    game = new(1, "light")
    b = autoplayer._board(game.state.board)
    for _ in range(40):
        enter = [rng.choice((-1, 0, 1, 1, 2, 2, 3, 9)) for _ in b.hexes]
        starts = {h: rng.randrange(4) for h in rng.sample(b.hexes, rng.randrange(1, 12))}
        dist = autoplayer._distances(b, starts, enter)
        assert {h: d for h, d in zip(b.hexes, dist, strict=True) if d < FAR} == dijkstra(b, starts, enter)
        fell = [i for i in rng.sample(range(len(b.hexes)), 30) if enter[i] > 0]
        for i in fell:
            enter[i] = rng.randrange(enter[i])
        autoplayer._relax(b, dist, enter, [i for i in fell if dist[i] < FAR])
        assert {h: d for h, d in zip(b.hexes, dist, strict=True) if d < FAR} == dijkstra(b, starts, enter)


def test_the_planners_incremental_searches_equal_a_heap_search_as_obstacles_go() -> None:
    """Issue 19 item 1: ``planner._searched`` with a planner's own bases (the last
    field of the same goals and German hexes, searched again only from the hexes whose
    obstacles went) equals a heap search afresh, obstacle after obstacle."""
    rng = random.Random(219)
    state = new(2, "light").state
    b = autoplayer._board(state.board)
    germans, live = autoplayer._germans(state), autoplayer._obstacles(state)
    memo = planner._Memo()
    for kind in ("infantry", "tank", "ce-team"):
        obstacles = dict(live)
        starts = {h: rng.randrange(3) for h in rng.sample([h for h in b.hexes if b.row[h] >= 10], 12)}
        while obstacles:
            extras = {h: autoplayer._extra(kind, k) or 0 for h, k in obstacles.items() if k}
            enter = reference_enter(b, kind, obstacles, germans)
            got = planner._searched(b, starts, germans, extras, memo.bases)
            assert {h: d for h, d in zip(b.hexes, got, strict=True) if d < FAR} == dijkstra(b, starts, enter)
            for gone in rng.sample(sorted(obstacles, key=b.labels.__getitem__), min(3, len(obstacles))):
                del obstacles[gone]


def test_the_codes_of_the_fields_keys_differ_exactly_when_the_values_do() -> None:
    """Issue 19 item 1: a field is remembered under ``planner._code`` of its starts and
    obstacle costs; two maps of values get the same code only when they are equal
    (values too large to pack, and negative ones, included)."""
    rng = random.Random(319)
    b = autoplayer._board(new(1, "light").state.board)
    made: dict[tuple[object, ...], dict[Hex, int]] = {}
    for _ in range(400):
        top = rng.choice((3, planner._PACK + 2))
        values = {
            h: rng.randrange(-1 if top > 3 else 0, top) for h in rng.sample(b.hexes, rng.randrange(0, 5))
        }
        code = planner._code(b, values)
        assert made.setdefault(code, values) == values
    assert len(made) > 300


def test_a_game_with_every_memo_forgotten_before_each_choice_is_the_same_game() -> None:
    """Issue 19 item 1 (the same results for the same seeds): a game played by a planner
    that forgets every map version, layout and field before each choice (and the
    module caches emptied) plays the same actions, with the same words for the log, as
    one that remembers them."""

    def actions(forget: bool) -> list[object]:
        game, bot = new(11, "moderate"), PlanningAutoplayer()
        out = []
        while game.state.result is None:
            action = game.proposal()
            if action is None:
                if forget:
                    autoplayer._now_memo[0] = None
                    bot._memo = planner._Memo()
                    for memo in (planner._weighted, planner._bases, planner._threats, planner._one):
                        memo.clear()
                actor = game.actor()
                assert actor is not None
                action = bot.choose(game.side_view(actor))
                out.append(action)
            game.play(action)
        return out

    assert actions(forget=True) == actions(forget=False)
