"""Line of sight and targeting geometry under DOG SECTOR (player aid phases 4 and 6,
Tables 4 and 6).

Small maps drawn here put one piece of ground between a firer and a target; the section
tests use the shipped map, maps/dog-sector.yaml. The test grids are flat-top, odd-q: a
line down a column crosses every hex of it through the middle, and a line along a row
between two columns of the same parity runs along the hexsides of the column between
(it grazes two hexes there and crosses none).
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import los_policy
from tabletop.games.dog_sector.los import DogSectorPolicy, read_tables, tables
from tabletop.hexgrid import Hex, distance, traverse
from tabletop.yamlfile import DataError

TERRAIN = """
terrain:
  sea:     {symbol: "~", colour: "#2f5f8a"}
  beach:   {symbol: ".", colour: "#e6d59a"}
  bluff:   {symbol: "^", colour: "#8b5a2b"}
  draw:    {symbol: "v", colour: "#b7a26a"}
  trench:  {symbol: "=", colour: "#3b3b3b"}
  hilltop: {symbol: "H", colour: "#7f9f4f"}
"""


def ground(rows: str, *, sectioned: bool = True) -> MapState:
    """A map drawn as rows of terrain symbols, one section over all of it."""
    lines = [line.split() for line in rows.strip().splitlines()]
    text = "name: Dog sector test ground\nrules: dog_sector\n"
    text += f"grid: {{orientation: flat, offset: odd-q, columns: {len(lines[0])}, rows: {len(lines)}}}\n"
    text += TERRAIN + "rows: |\n" + "".join("  " + " ".join(line) + "\n" for line in lines)
    if sectioned:
        text += "regions:\n  section-1: {kind: section}\n"
    return MapState.of(small_map(text))


def column(*terrain: str) -> MapState:
    """A one-column map, top to bottom; the range from row 1 to row n is n - 1."""
    symbols = {"sea": "~", "beach": ".", "bluff": "^", "draw": "v", "trench": "=", "hilltop": "H"}
    return ground("\n".join(symbols[t] for t in terrain))


def beach_column(rows: int) -> MapState:
    """Open beach with no bluff anywhere: nothing restricts fire but range."""
    return column(*["beach"] * rows)


def unit(state: MapState, piece_id: str, label: str, side: str, kind: str = "infantry") -> Piece:
    piece = Piece(piece_id, kind, state.board.hex_of(label), side=side)
    state.place(piece)
    return piece


def shot(
    state: MapState,
    source: str,
    target: str,
    firer: tuple[str, str] | None = None,
    target_type: str | None = None,
) -> LosResult:
    """The verdict on ``source`` -> ``target``; ``firer`` is (side, unit type)."""
    board = state.board
    a, b = board.hex_of(source), board.hex_of(target)
    viewer = Piece("firer", firer[1], a, side=firer[0]) if firer else None
    target_piece = Piece("target", target_type, b, side="german") if target_type else None
    query = LosQuery(a, b, viewer=viewer, target_piece=target_piece)
    return line_of_sight(state, los_policy(state), query)


def causes(result: LosResult) -> list[str]:
    return [f.cause for f in result.blocking]


def notes(result: LosResult) -> list[str]:
    return [f.cause for f in result.notes]


def modifiers(result: LosResult) -> list[str]:
    return [f.cause for f in result.modifiers]


# --------------------------------------------------------------- the registry, data


def test_the_registry_gives_the_dog_sector_policy_for_the_shipped_map() -> None:
    policy = los_policy(MapState.of(load_map("dog-sector")))
    assert isinstance(policy, DogSectorPolicy)
    assert policy.grazing == "both"


def test_every_terrain_key_in_the_table_is_a_terrain_of_the_shipped_map() -> None:
    board = load_map("dog-sector")
    assert tables().terrain == set(board.terrain_types)


def test_a_mistake_in_the_table_file_names_its_line() -> None:
    text = "terrain: [sea]\nline_of_sight:\n  blocking_side: american\n  blocking_terrain: [hiltop]\n  grazing: both\n"
    text += "sections: {kind: section}\nsides: {}\n"
    with pytest.raises(DataError, match=r"los\.yaml:4: .*'hiltop' is not one of sea"):
        read_tables(text, "los.yaml")


# ------------------------------------------------------------------- line of sight


@pytest.mark.parametrize("terrain", ["trench", "hilltop"])
def test_an_american_unit_on_a_crossed_trench_or_hilltop_hex_blocks(terrain: str) -> None:
    # DOG SECTOR phase 6: American units block line of sight on hilltop and trench hexes.
    state = column("hilltop", "hilltop", terrain, "hilltop", "hilltop")
    unit(state, "a1", "0103", "american")
    result = shot(state, "0101", "0105")
    assert result.result == "blocked"
    (finding,) = result.blocking
    assert finding.hex == state.board.hex_of("0103")
    assert finding.rule == "DOG SECTOR phase 6"
    assert terrain in finding.cause and "a1" in finding.cause


@pytest.mark.parametrize("terrain", ["beach", "bluff", "draw", "sea"])
def test_an_american_unit_on_other_ground_does_not_block(terrain: str) -> None:
    # DOG SECTOR phase 6: only hilltop and trench hexes, not beach (or bluff, draw, sea).
    state = column("hilltop", "hilltop", terrain, "hilltop", "hilltop")
    unit(state, "a1", "0103", "american")
    assert shot(state, "0101", "0105").result == "clear"


def test_a_german_unit_on_a_trench_hex_does_not_block() -> None:
    # DOG SECTOR phase 6: the text says American units block; German ones do not.
    state = column("hilltop", "hilltop", "trench", "hilltop", "hilltop")
    unit(state, "g1", "0103", "german", "mg-pillbox")
    assert shot(state, "0101", "0105").result == "clear"


def test_an_american_marker_on_a_trench_hex_does_not_block() -> None:
    # DOG SECTOR phase 6 names units; a marker is not a unit.
    state = column("hilltop", "hilltop", "trench", "hilltop", "hilltop")
    state.place(Piece("m1", "pinned-down", state.board.hex_of("0103"), side="american", kind="marker"))
    assert shot(state, "0101", "0105").result == "clear"


def test_the_firers_and_the_targets_own_hexes_never_block() -> None:
    # DOG SECTOR phase 6 blocks on hexes between; the ends are where the units stand.
    state = column("trench", "hilltop", "hilltop", "trench")
    unit(state, "a1", "0101", "american", "sharpshooter")
    unit(state, "a2", "0104", "american")
    result = shot(state, "0101", "0104", ("american", "sharpshooter"))
    assert result.result == "clear"
    assert result.blocking == ()


def ridge() -> MapState:
    """Three columns of trench: the line 0102 -> 0302 runs along the hexside between
    0201 and 0202, grazing both and crossing neither."""
    return ground("= = =\n= = =\n= = =")


def test_the_ridge_line_runs_along_a_hexside_between_0201_and_0202() -> None:
    state = ridge()
    t = traverse(state.board.hex_of("0102"), state.board.hex_of("0302"))
    assert [state.board.label(h) for h in t.crossed] == ["0102", "0302"]
    assert sorted(state.board.label(g.hex) for g in t.grazed) == ["0201", "0202"]
    assert all(g.side is not None for g in t.grazed)


def test_a_line_along_a_hexside_with_an_american_unit_on_one_side_is_clear() -> None:
    # DOG SECTOR phase 6, project's grazing reading "both" (los.yaml): a line along a
    # hexside passes a single blocking hex.
    state = ridge()
    unit(state, "a1", "0201", "american")
    result = shot(state, "0102", "0302")
    assert result.result == "clear"
    assert [state.board.label(g.hex) for g in result.grazed] == ["0201", "0202"]


def test_a_line_along_a_hexside_with_american_units_on_both_sides_is_blocked() -> None:
    # DOG SECTOR phase 6, project's grazing reading "both": walled in on both sides.
    state = ridge()
    unit(state, "a1", "0201", "american")
    unit(state, "a2", "0202", "american")
    result = shot(state, "0102", "0302")
    assert result.result == "blocked"
    (finding,) = result.blocking
    assert finding.grazed
    assert "both sides" in finding.cause


def test_a_line_through_a_corner_of_an_american_held_trench_hex_is_clear() -> None:
    # DOG SECTOR phase 6, project's grazing reading "both": a corner alone never blocks.
    state = ground("\n".join(" ".join("=" * 8) for _ in range(6)))
    a = state.board.hex_of("0103")
    b = Hex(a.q + 5, a.r - 1)
    corners = [g.hex for g in traverse(a, b).grazed if g.corner is not None]
    assert corners and all(state.board.grid.contains(h) for h in corners)
    for i, h in enumerate(corners):
        unit(state, f"a{i}", state.board.label(h), "american")
    result = line_of_sight(state, los_policy(state), LosQuery(a, b))
    assert result.result == "clear"
    assert set(corners) <= {g.hex for g in result.grazed}


def test_moving_a_unit_changes_the_verdict_at_once() -> None:
    # DOG SECTOR phase 6: the blocking is by units, so it follows them as they move.
    state = column("hilltop", "hilltop", "trench", "beach", "hilltop")
    policy = los_policy(state)
    a, b = state.board.hex_of("0101"), state.board.hex_of("0105")
    unit(state, "a1", "0104", "american")  # on the line, but on beach
    assert line_of_sight(state, policy, LosQuery(a, b)).result == "clear"
    state.move("a1", state.board.hex_of("0103"))  # onto the trench
    assert line_of_sight(state, policy, LosQuery(a, b)).result == "blocked"
    state.move("a1", state.board.hex_of("0105"))  # into the target's own hex
    assert line_of_sight(state, policy, LosQuery(a, b)).result == "clear"


def test_german_fire_is_not_blocked_by_american_units_but_the_verdict_notes_them() -> None:
    # DOG SECTOR phase 4 names no line-of-sight requirement (project's reading, los.yaml
    # sides.german.needs_line_of_sight); the blocking rule is phase 6's.
    state = column("trench", "hilltop", "trench", "beach", "beach")
    unit(state, "a1", "0103", "american")
    result = shot(state, "0101", "0105", ("german", "infantry"))
    assert result.result == "clear"
    assert any("needs no line of sight" in n and "a1" in n and "0103" in n for n in notes(result))


def test_american_fire_is_blocked_by_american_units_on_trench_hexes() -> None:
    # DOG SECTOR phase 6: the target must be in line of sight.
    state = column("trench", "hilltop", "trench", "hilltop", "hilltop")
    unit(state, "a1", "0103", "american")
    assert shot(state, "0101", "0105", ("american", "tank")).result == "blocked"


# --------------------------------------------------------------------- the sections


@pytest.fixture(scope="module")
def dog_sector() -> MapState:
    return MapState.of(load_map("dog-sector"))


@pytest.mark.parametrize(
    ("source", "target", "verdict"),
    [
        ("0105", "0505", "clear"),  # section-1 -> section-1: the same section
        ("0505", "0605", "clear"),  # section-1 -> section-2: adjacent across a border
        ("0105", "1005", "clear"),  # section-1 -> section-2: adjacent, far apart
        ("0505", "1105", "blocked"),  # section-1 -> section-3: two apart
        ("1605", "2605", "blocked"),  # section-4 -> section-6: two apart
    ],
)
def test_the_target_must_be_in_the_same_or_an_adjacent_section(
    dog_sector: MapState, source: str, target: str, verdict: str
) -> None:
    # DOG SECTOR phases 4 and 6: target in the same or an adjacent map section (a rule
    # of fire: a tank, which has no range limit, fires).
    result = shot(dog_sector, source, target, ("american", "tank"))
    assert result.result == verdict


def test_a_target_two_sections_away_is_blocked_with_the_sections_named(dog_sector: MapState) -> None:
    # DOG SECTOR phase 6 (the firer is American); phase 4 says the same for German fire.
    result = shot(dog_sector, "0105", "1605", ("american", "tank"))
    (finding,) = result.blocking
    assert finding.cause == "target not in the same or an adjacent section (section-1 -> section-4)"
    assert finding.rule == "DOG SECTOR phase 6"
    german = shot(dog_sector, "0112", "1605", ("german", "panzerfaust"))
    assert "(section-1 -> section-4)" in causes(german)[0]
    assert german.blocking[0].rule == "DOG SECTOR phase 4"


def test_sections_touching_on_the_shipped_map_are_those_numbered_one_apart(dog_sector: MapState) -> None:
    # DOG SECTOR phases 4 and 6; project's reading: adjacent = sharing a border, which
    # on the shipped map agrees with consecutive numbering.
    policy = los_policy(dog_sector)
    assert isinstance(policy, DogSectorPolicy)
    touching = {tuple(sorted(pair)) for pair in policy.sections(dog_sector.board).adjacent}
    assert touching == {(f"section-{i}", f"section-{i + 1}") for i in range(1, 6)}


def test_a_hex_outside_every_section_cannot_be_targeted() -> None:
    # DOG SECTOR phases 4 and 6: a hex in no section is in no same or adjacent section.
    text = "name: t\nrules: dog_sector\ngrid: {orientation: flat, offset: odd-q, columns: 1, rows: 4}\n"
    text += TERRAIN + "default_terrain: beach\nregions:\n  section-1: {kind: section, rows: [1, 2]}\n"
    state = MapState.of(small_map(text))
    result = shot(state, "0101", "0104", ("american", "tank"))
    assert causes(result) == ["target hex 0104 is in no map section"]


def test_a_map_without_sections_skips_the_section_rule_and_says_so() -> None:
    # DOG SECTOR phases 4 and 6 need sections; a map without them cannot apply the rule.
    state = ground(". .\n. .", sectioned=False)
    result = shot(state, "0101", "0202", ("american", "tank"))
    assert result.result == "clear"
    assert "the map has no sections: section rule not applied" in notes(result)


def test_with_no_firing_unit_only_line_of_sight_is_judged(dog_sector: MapState) -> None:
    # DOG SECTOR phases 4 and 6: ranges and restrictions need the firer's type and side.
    result = shot(dog_sector, "0102", "1005")  # from the sea, range 9, nobody firing
    assert result.result == "clear"
    assert any(n.startswith("no firing unit given") and "range limits" in n for n in notes(result))


def test_two_empty_hexes_sections_apart_see_each_other_and_a_firer_there_may_not_fire() -> None:
    # Issue 13 finding 8: sight and fire are two questions. Phase 6's sight is blocked
    # only by American units on hilltop or trench hexes; the section rule (phases 4 and
    # 6) is a rule of fire, judged for a firing unit.
    state = MapState.of(load_map("dog-sector"))
    seen = shot(state, "0105", "1605")  # section-1 -> section-4, nobody there
    assert seen.result == "clear"
    fired = shot(state, "0105", "1605", ("american", "tank"))
    assert causes(fired) == ["target not in the same or an adjacent section (section-1 -> section-4)"]


# ----------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("firer", "target_type", "limit"),
    [
        ("sharpshooter", "infantry", 8),  # Table 6: only within 8 hexes
        ("bazooka", "mg-pillbox", 6),  # Table 6: MG pillbox or AT gun within 6 hexes
        ("bazooka", "at-gun", 6),
        ("bazooka", "infantry", 1),  # Table 6: any target if adjacent
        ("ce-team", "mg-pillbox", 1),  # Table 6: only adjacent
        ("flamethrower", "at-gun", 1),  # Table 6: only adjacent
        ("infantry", "infantry", 1),  # Table 6: only adjacent
    ],
)
def test_an_american_unit_fires_at_its_range_limit_and_not_one_hex_beyond(
    firer: str, target_type: str, limit: int
) -> None:
    # DOG SECTOR phase 6 / Table 6: the target must be in range.
    state = beach_column(limit + 2)
    at_limit = shot(state, "0101", f"01{limit + 1:02d}", ("american", firer), target_type)
    beyond = shot(state, "0101", f"01{limit + 2:02d}", ("american", firer), target_type)
    assert at_limit.result == "clear"
    assert beyond.result == "blocked"
    (finding,) = beyond.blocking
    assert finding.rule == "DOG SECTOR Table 6"
    reach = "only at adjacent targets" if limit == 1 else f"only within {limit} hexes"
    assert reach in finding.cause and f"(range {limit + 1})" in finding.cause


def test_a_bazooka_with_no_target_type_given_takes_its_longest_range_and_says_so() -> None:
    # DOG SECTOR Table 6: the bazooka's range depends on what it fires at.
    state = beach_column(8)
    assert shot(state, "0101", "0107", ("american", "bazooka")).result == "clear"
    beyond = shot(state, "0101", "0108", ("american", "bazooka"))
    assert causes(beyond) == ["bazooka fires only within 6 hexes (range 7)"]
    assert any(n.startswith("target type not given") for n in notes(beyond))


@pytest.mark.parametrize(
    ("side", "firer", "bonus_range"),
    [
        ("american", "forward-observer", 8),  # Table 6: bonus within 8 hexes
        ("american", "tank", 8),  # Table 6: bonus within 8 hexes
        ("american", "dozer", 8),
        ("german", "at-gun", 10),  # Table 4: bonus if target within 10 hexes
        ("german", "infantry", 1),  # Table 4: +1 if adjacent to target
    ],
)
def test_a_bonus_range_is_a_modifier_at_its_limit_and_gone_one_hex_beyond(
    side: str, firer: str, bonus_range: int
) -> None:
    # DOG SECTOR Tables 4 and 6: these ranges change the roll; they limit nothing.
    state = beach_column(bonus_range + 4)
    at_limit = shot(state, "0101", f"01{bonus_range + 1:02d}", (side, firer))
    beyond = shot(state, "0101", f"01{bonus_range + 2:02d}", (side, firer))
    far = shot(state, "0101", f"01{bonus_range + 4:02d}", (side, firer))
    assert at_limit.result == beyond.result == far.result == "clear"
    (bonus,) = at_limit.modifiers
    assert "bonus" in bonus.cause and bonus.rule.startswith("DOG SECTOR Table")
    assert beyond.modifiers == ()


def test_an_exceptional_leader_does_not_fire() -> None:
    # DOG SECTOR Table 6 has no line for ELs (project's reading, los.yaml).
    state = beach_column(3)
    assert causes(shot(state, "0101", "0102", ("american", "exceptional-leader"))) == [
        "exceptional leader does not fire (no line in DOG SECTOR Table 6)"
    ]


def test_an_unknown_side_or_unit_type_is_refused_by_name() -> None:
    # DOG SECTOR Tables 4 and 6 list the unit types; anything else is a data mistake.
    state = beach_column(3)
    with pytest.raises(ValueError, match="'medic' is not in DOG SECTOR Table 6"):
        shot(state, "0101", "0102", ("american", "medic"))
    with pytest.raises(ValueError, match="side 'US'"):
        shot(state, "0101", "0102", ("US", "infantry"))


# ------------------------------------------------------- where American units fire from


def test_an_american_unit_cannot_fire_from_a_sea_hex_even_at_an_adjacent_target() -> None:
    # DOG SECTOR phase 6: units cannot fire or direct off-shore fire from sea hexes.
    state = column("sea", "beach", "beach")
    for target in ("0102", "0103"):
        result = shot(state, "0101", target, ("american", "forward-observer"))
        assert result.result == "blocked"
        assert "cannot fire from sea hex 0101" in causes(result)[0]


@pytest.mark.parametrize(
    ("terrain", "words"),
    [
        ("draw", "draw hex 0102"),  # phase 6: not from draw hexes unless adjacent
        ("bluff", "bluff hex 0102"),  # phase 6: not from bluff hexes unless adjacent
    ],
)
def test_an_american_unit_fires_from_a_draw_or_bluff_hex_only_at_adjacent_targets(
    terrain: str, words: str
) -> None:
    # DOG SECTOR phase 6.
    state = column("beach", terrain, "beach", "beach")
    assert shot(state, "0102", "0103", ("american", "tank")).result == "clear"
    beyond = shot(state, "0102", "0104", ("american", "tank"))
    assert causes(beyond) == [f"tank fires from {words} only at adjacent targets (range 2)"]
    assert beyond.blocking[0].rule == "DOG SECTOR phase 6"


@pytest.mark.parametrize("terrain", ["beach", "trench", "hilltop"])
def test_an_american_unit_next_to_a_bluff_hex_fires_only_at_adjacent_targets(terrain: str) -> None:
    # DOG SECTOR phase 6: "hexes adjacent to bluffs", of any terrain (project's reading).
    state = column("bluff", terrain, "beach", "beach")
    assert shot(state, "0102", "0103", ("american", "tank")).result == "clear"
    beyond = shot(state, "0102", "0104", ("american", "tank"))
    assert causes(beyond) == [
        f"tank fires from {terrain} hex 0102 next to bluff only at adjacent targets (range 2)"
    ]


def test_an_american_unit_on_beach_away_from_bluffs_fires_at_range() -> None:
    # DOG SECTOR phase 6: the restriction is for hexes next to bluffs only.
    state = column("beach", "beach", "beach", "bluff")
    assert shot(state, "0101", "0103", ("american", "tank")).result == "clear"


# ------------------------------------------------------------ what German units target


@pytest.mark.parametrize(
    ("terrain", "words"),
    [
        ("draw", "draw hex 0104"),  # phase 4: draw hexes
        ("trench", "trench hex 0104"),  # phase 4: trench hexes
        ("bluff", "bluff hex 0104"),  # phase 4: bluff hexes
    ],
)
def test_german_fire_targets_draw_trench_and_bluff_hexes_only_from_an_adjacent_hex(
    terrain: str, words: str
) -> None:
    # DOG SECTOR phase 4: these hexes cannot be targeted unless the target is adjacent.
    state = column("beach", "beach", "beach", terrain)
    assert shot(state, "0103", "0104", ("german", "panzerfaust")).result == "clear"
    beyond = shot(state, "0102", "0104", ("german", "panzerfaust"))
    assert causes(beyond) == [f"{words} can be targeted only from an adjacent hex (range 2)"]
    assert beyond.blocking[0].rule == "DOG SECTOR phase 4"


def test_german_fire_targets_beach_next_to_a_bluff_only_from_an_adjacent_hex() -> None:
    # DOG SECTOR phase 4: beach hexes adjacent to bluffs likewise; other beach is open.
    state = column("hilltop", "beach", "beach", "beach", "bluff")
    assert shot(state, "0101", "0103", ("german", "panzerfaust")).result == "clear"
    assert shot(state, "0103", "0104", ("german", "panzerfaust")).result == "clear"
    beyond = shot(state, "0101", "0104", ("german", "panzerfaust"))
    assert causes(beyond) == [
        "beach hex 0104 next to bluff can be targeted only from an adjacent hex (range 3)"
    ]


@pytest.mark.parametrize("firer", ["at-gun", "mg-pillbox"])
@pytest.mark.parametrize("terrain", ["trench", "hilltop"])
def test_at_guns_and_mg_pillboxes_never_target_trench_or_hilltop_hexes(firer: str, terrain: str) -> None:
    # DOG SECTOR phase 4: AT guns and MG pillboxes cannot target trench and hilltop hexes.
    state = column("hilltop", terrain)
    result = shot(state, "0101", "0102", ("german", firer))
    assert result.result == "blocked"
    assert any(f"cannot target {terrain} hex 0102" in c for c in causes(result))


def test_a_panzerfaust_may_target_an_adjacent_trench_hex() -> None:
    # DOG SECTOR phase 4: the trench/hilltop limit names AT guns and MG pillboxes only.
    state = column("hilltop", "trench")
    assert shot(state, "0101", "0102", ("german", "panzerfaust")).result == "clear"


# ------------------------------------------------------------ tanks and the hex behind


def tank_ground() -> MapState:
    """Beach below a trench: a tank at 0105 on the line down the column."""
    state = column("trench", "beach", "beach", "beach", "beach", "beach", "beach", "beach")
    unit(state, "t1", "0105", "american", "tank")
    return state


@pytest.mark.parametrize("firer", ["infantry", "mg-pillbox"])
def test_infantry_and_mg_pillboxes_cannot_target_a_tank_hex(firer: str) -> None:
    # DOG SECTOR phase 4: infantry and MG pillboxes cannot target tank/dozer hexes.
    result = shot(tank_ground(), "0101", "0105", ("german", firer))
    assert result.result == "blocked"
    assert causes(result)[0].startswith(
        f"{tables().sides['german'].units[firer].name} cannot target a hex holding a tank"
    )


@pytest.mark.parametrize("firer", ["infantry", "mg-pillbox"])
def test_infantry_and_mg_pillboxes_cannot_target_the_hex_directly_behind_a_tank(firer: str) -> None:
    # DOG SECTOR phase 4: nor the hex directly behind them; project's reading: the hex
    # next to the tank's hex beyond it along the line from the firer.
    result = shot(tank_ground(), "0101", "0106", ("german", firer))
    assert result.result == "blocked"
    (finding,) = result.blocking
    assert "directly behind a tank (t1 at 0105, seen from 0101)" in finding.cause


def test_two_hexes_behind_a_tank_or_in_front_of_it_may_be_targeted() -> None:
    # DOG SECTOR phase 4: only the hex directly behind, as seen from the firer.
    state = tank_ground()
    assert shot(state, "0101", "0107", ("german", "infantry")).result == "clear"
    assert shot(state, "0101", "0104", ("german", "infantry")).result == "clear"  # in front


def test_the_hex_behind_a_tank_depends_on_where_the_firer_is() -> None:
    # DOG SECTOR phase 4: from below the tank, the hex behind it is the one above.
    state = tank_ground()
    assert shot(state, "0108", "0104", ("german", "infantry")).result == "blocked"
    assert shot(state, "0108", "0106", ("german", "infantry")).result == "clear"


def test_panzerfausts_and_at_guns_may_target_a_tank_and_the_hex_behind_it() -> None:
    # DOG SECTOR phase 4: the tank rule names infantry and MG pillboxes only.
    state = tank_ground()
    for firer in ("panzerfaust", "at-gun"):
        assert shot(state, "0101", "0105", ("german", firer)).result == "clear"
        assert shot(state, "0101", "0106", ("german", firer)).result == "clear"


def test_a_tank_beside_the_line_does_not_screen_the_target() -> None:
    # DOG SECTOR phase 4, project's reading: the line must cross the tank's hex; the
    # ridge line 0102 -> 0302 only grazes 0202, though 0202 is next to 0302.
    state = ground(". . .\n. . .\n. . .")
    unit(state, "t1", "0202", "american", "tank")
    assert distance(state.board.hex_of("0202"), state.board.hex_of("0302")) == 1
    assert shot(state, "0102", "0302", ("german", "infantry")).result == "clear"


def test_moving_the_tank_changes_which_hex_is_screened_at_once() -> None:
    # DOG SECTOR phase 4: the screen is where the tank is now.
    state = tank_ground()
    assert shot(state, "0101", "0106", ("german", "infantry")).result == "blocked"
    state.move("t1", state.board.hex_of("0106"))
    assert shot(state, "0101", "0106", ("german", "infantry")).result == "blocked"  # now the tank's own hex
    assert shot(state, "0101", "0107", ("german", "infantry")).result == "blocked"  # and the one behind
    assert shot(state, "0101", "0105", ("german", "infantry")).result == "clear"


def test_a_dozer_screens_like_a_tank() -> None:
    # DOG SECTOR phase 4: tank/dozer hexes.
    state = tank_ground()
    tank = state.piece("t1")
    state.update(dataclasses.replace(tank, type="dozer"))
    assert "behind a dozer" in causes(shot(state, "0101", "0106", ("german", "infantry")))[0]
