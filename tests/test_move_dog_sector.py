"""DOG SECTOR movement (phase 5, American Beach Activity).

Small maps drawn here: a beach of 7 columns by 7 rows (flat-top, odd-q; row 1 is the
landing row), and a corridor one column wide, where the only way on is through the next
hex, to show what may be passed and what ends a move. The last tests use the shipped
map, maps/dog-sector.yaml, through the registry.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.movement import Reach, must_stop_overlay, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import move_policy
from tabletop.games.dog_sector.los import tables as los_tables
from tabletop.games.dog_sector.movement import (
    DATA,
    DogSectorMovePolicy,
    read_tables,
    tables,
)
from tabletop.yamlfile import DataError

LAND_MINE = "land-mine check on entry (1-3 clear, 4-6 explosion)"


def ground(columns: int = 7, rows: int = 7, hexes: dict[str, str] | None = None) -> MapState:
    """Beach, with the given hexes overridden; printed row 1 is the landing row."""
    text = f"""
name: DOG SECTOR test beach
rules: dog_sector
grid: {{orientation: flat, offset: odd-q, columns: {columns}, rows: {rows}}}
terrain:
  sea:     {{symbol: "~", colour: "#2f5f8a"}}
  beach:   {{symbol: ".", colour: "#e6d59a"}}
  bluff:   {{symbol: "^", colour: "#8b5a2b"}}
  draw:    {{symbol: "v", colour: "#b7a26a"}}
  trench:  {{symbol: "=", colour: "#3b3b3b"}}
  hilltop: {{symbol: "H", colour: "#7f9f4f"}}
default_terrain: beach
regions:
  landing-row: {{kind: landing-row, rows: [1, 1]}}
"""
    if hexes:
        text += "hexes: {" + ", ".join(f'"{k}": {v}' for k, v in hexes.items()) + "}\n"
    return MapState.of(small_map(text))


def corridor(rows: int = 8) -> MapState:
    """One column of beach: each hex touches only the hexes above and below it."""
    return ground(columns=1, rows=rows)


def unit(
    state: MapState,
    piece_id: str,
    label: str,
    kind: str = "infantry",
    side: str = "american",
    status: tuple[str, ...] = (),
) -> Piece:
    piece = Piece(piece_id, kind, state.board.hex_of(label), side=side, status=frozenset(status))
    state.place(piece)
    return piece


def marker(state: MapState, piece_id: str, label: str, kind: str) -> None:
    state.place(Piece(piece_id, kind, state.board.hex_of(label), kind="marker"))


def move(state: MapState, mover: Piece, budget: int | None = None) -> Reach:
    return plan_move(state, move_policy(state), mover, budget=budget)


def ends(state: MapState, result: Reach) -> dict[str, int]:
    """End hexes by label, with their AP costs."""
    return {state.board.label(h): c for h, c in result.costs.items()}


# ------------------------------------------------------------------------- the policy


def test_the_registry_gives_the_dog_sector_policy_for_a_dog_sector_map() -> None:
    assert isinstance(move_policy(ground()), DogSectorMovePolicy)


def test_dog_sector_has_no_movement_orders() -> None:
    state = ground()
    mover = unit(state, "inf", "0404")
    with pytest.raises(ValueError, match="no movement orders"):
        plan_move(state, move_policy(state), mover, order="ADV")


# ------------------------------------------------------------------------------ costs


@pytest.mark.parametrize(("terrain", "cost"), [("beach", 1), ("draw", 1), ("trench", 1), ("hilltop", 1)])
def test_a_hex_costs_one_ap(terrain: str, cost: int) -> None:
    # DOG SECTOR phase 5: movement costs 1 AP for all hexes except bluff and sea.
    state = ground(hexes={"0403": terrain})
    result = move(state, unit(state, "inf", "0404"))
    assert ends(state, result)["0403"] == cost


@pytest.mark.parametrize("terrain", ["sea", "bluff"])
def test_sea_and_bluff_hexes_cost_two_ap(terrain: str) -> None:
    # DOG SECTOR phase 5: bluff and sea hexes cost 2 AP.
    state = ground(hexes={"0403": terrain})
    result = move(state, unit(state, "inf", "0404"))
    assert ends(state, result)["0403"] == 2
    assert ends(state, result)["0405"] == 1


def test_an_infantry_unit_has_six_ap_by_the_projects_default() -> None:
    # DOG SECTOR phase 5 gives no AP per unit: movement.yaml's project default is 6.
    state = corridor()
    result = move(state, unit(state, "inf", "0101"))
    assert ends(state, result) == {"0101": 0, "0102": 1, "0103": 2, "0104": 3, "0105": 4, "0106": 5, "0107": 6}


def test_a_budget_given_by_the_caller_replaces_the_default() -> None:
    state = corridor()
    result = move(state, unit(state, "inf", "0101"), budget=2)
    assert set(ends(state, result)) == {"0101", "0102", "0103"}


def test_a_unit_type_the_table_does_not_know_is_refused_by_name() -> None:
    state = ground()
    mover = unit(state, "x", "0404", kind="jeep")
    with pytest.raises(ValueError, match="'jeep'"):
        move(state, mover)


def test_a_map_with_terrain_the_table_does_not_cost_is_refused() -> None:
    text = """
name: odd ground
rules: dog_sector
grid: {orientation: flat, offset: odd-q, columns: 3, rows: 3}
terrain:
  beach: {symbol: ".", colour: "#e6d59a"}
  swamp: {symbol: "s", colour: "#446644"}
default_terrain: beach
hexes: {"0202": swamp}
"""
    state = MapState.of(small_map(text))
    mover = unit(state, "inf", "0101")
    with pytest.raises(ValueError, match="swamp"):
        move(state, mover)


# --------------------------------------------------------------- who moves at all


def test_german_units_do_not_move_in_phase_5() -> None:
    # DOG SECTOR phase 5 is American movement; German units are procedures (project's choice).
    state = ground()
    result = move(state, unit(state, "ge", "0404", side="german"))
    assert ends(state, result) == {"0404": 0}
    assert any("only american units move" in n for n in result.notes)


@pytest.mark.parametrize("status", ["pinned", "immobilized"])
def test_a_pinned_or_immobilized_unit_does_not_move(status: str) -> None:
    # Project's choice (movement.yaml cannot_move): pinned down (phase 5) and
    # immobilized (phase 4) units stay put.
    state = ground()
    result = move(state, unit(state, "inf", "0404", status=(status,)))
    assert ends(state, result) == {"0404": 0}
    assert any(status in n for n in result.notes)


# ------------------------------------------------------------------ pinned-down hexes


def test_a_pinned_down_hex_cannot_be_entered_except_by_an_exceptional_leader() -> None:
    # DOG SECTOR phase 5: only ELs can move into pinned-down hexes.
    state = ground()
    unit(state, "pinned", "0403", status=("pinned",))
    mover = unit(state, "tank", "0404", kind="tank")
    policy = move_policy(state)
    model = policy.model(state, mover)
    pinned_hex = state.board.hex_of("0403")
    assert pinned_hex not in model.enter
    assert "only exceptional-leader may enter" in model.why_not[pinned_hex]
    assert "0403" not in ends(state, move(state, mover))
    leader = unit(state, "el", "0405", kind="exceptional-leader")
    assert "0403" in ends(state, move(state, leader))


def test_a_pinned_down_stack_cannot_be_passed_through() -> None:
    # DOG SECTOR phase 5, stacking: units may pass through stacked hexes unless pinned down.
    state = corridor()
    unit(state, "pinned", "0103", kind="bazooka", status=("pinned",))
    result = move(state, unit(state, "inf", "0101"), budget=6)
    assert set(ends(state, result)) == {"0101", "0102"}


def test_an_exceptional_leader_entering_a_pinned_down_stack_ends_its_move_there() -> None:
    # DOG SECTOR phase 5: ELs may enter pinned-down hexes; the stacking rule lets no
    # unit pass through one (the project's reading: ELs included).
    state = corridor()
    unit(state, "pinned", "0103", status=("pinned",))
    result = move(state, unit(state, "el", "0101", kind="exceptional-leader"), budget=6)
    assert set(ends(state, result)) == {"0101", "0102", "0103"}
    assert "pass through" in result.stops[state.board.hex_of("0103")]


def test_a_stack_that_is_not_pinned_down_can_be_passed_through() -> None:
    # DOG SECTOR phase 5, stacking: units may pass through stacked hexes.
    state = corridor()
    unit(state, "bz", "0102", kind="bazooka")
    unit(state, "ce", "0102", kind="ce-team")
    result = move(state, unit(state, "inf", "0101"), budget=4)
    assert set(ends(state, result)) == {"0101", "0102", "0103", "0104", "0105"}


# ------------------------------------------------------------------------- stacking


def test_a_hex_holding_a_unit_of_the_same_type_may_be_passed_but_not_ended_in() -> None:
    # DOG SECTOR phase 5, stacking: only one unit of each type a hex; units pass through stacks.
    state = corridor()
    unit(state, "inf-2", "0102")
    result = move(state, unit(state, "inf-1", "0101"))
    full = state.board.hex_of("0102")
    assert full in result.passed
    assert "0102" not in ends(state, result)
    assert ends(state, result)["0103"] == 2
    assert result.path_to(state.board.hex_of("0103"))[1] == full


def test_a_unit_may_end_in_a_hex_holding_units_of_other_types() -> None:
    # DOG SECTOR phase 5, stacking: several units a hex, one of each type.
    state = corridor()
    unit(state, "inf", "0102")
    unit(state, "ce", "0102", kind="ce-team")
    result = move(state, unit(state, "tank", "0101", kind="tank"))
    assert ends(state, result)["0102"] == 1


def test_landing_row_hexes_have_no_stacking_limit() -> None:
    # DOG SECTOR phase 5, stacking: no stacking limit on landing-row hexes.
    state = ground(hexes={"0401": "sea", "0402": "sea", "0403": "sea"})
    unit(state, "inf-2", "0401")
    unit(state, "inf-3", "0403")
    mover = unit(state, "inf-1", "0402")
    result = move(state, mover)
    assert ends(state, result)["0401"] == 2  # landing row (printed row 1), sea
    assert state.board.hex_of("0403") in result.passed
    assert "0403" not in ends(state, result)


# ------------------------------------------------------------------------ obstacles


def test_a_tank_or_dozer_enters_barbed_wire_at_no_extra_cost_and_the_rule_notes_it() -> None:
    # DOG SECTOR phase 5 and Table 5 (**): tank/dozer removes barbed wire on entry at no
    # additional AP.
    for kind in ("tank", "dozer"):
        state = ground()
        marker(state, "wire", "0403", "barbed-wire")
        result = move(state, unit(state, kind, "0404", kind=kind))
        assert ends(state, result)["0403"] == 1
        assert "0402" in ends(state, result)  # the move goes on
        assert any("barbed-wire" in n and "no extra AP" in n for n in result.notes)


def test_barbed_wire_bars_other_units_until_it_is_removed() -> None:
    # Project's choice from DOG SECTOR Table 5: only a tank/dozer crosses wire; others
    # need it removed first (a CE team, or infantry with an EL).
    state = corridor()
    marker(state, "wire", "0102", "barbed-wire")
    mover = unit(state, "inf", "0101")
    model = move_policy(state).model(state, mover)
    assert "barbed wire" in model.why_not[state.board.hex_of("0102")]
    assert set(ends(state, move(state, mover))) == {"0101"}


def test_a_cleared_obstacle_no_longer_bars_the_hex() -> None:
    # DOG SECTOR Table 2: obstacles under a CLEARED marker are gone.
    state = corridor()
    marker(state, "wire", "0102", "barbed-wire")
    marker(state, "clear", "0102", "cleared")
    assert "0105" in ends(state, move(state, unit(state, "inf", "0101")))


def test_entering_a_land_mine_hex_ends_the_move_for_the_explosion_check() -> None:
    # DOG SECTOR phase 5, land mine explosion check on entry; ending the move there is
    # the project's choice.
    state = corridor()
    marker(state, "mine", "0103", "land-mine")
    result = move(state, unit(state, "tank", "0101", kind="tank"))
    mined = state.board.hex_of("0103")
    assert result.stops[mined] == LAND_MINE
    assert set(ends(state, result)) == {"0101", "0102", "0103"}


def test_a_dozer_pays_one_ap_more_to_enter_a_tank_obstacle_and_a_tank_may_not() -> None:
    # DOG SECTOR Table 5: a dozer removes a tank obstacle for 1 AP, a tank cannot (NA);
    # project's choice: others pass it.
    costs = {}
    for kind in ("dozer", "tank", "infantry"):
        state = ground()
        marker(state, "hedgehog", "0403", "tank-obstacle")
        costs[kind] = ends(state, move(state, unit(state, kind, "0404", kind=kind))).get("0403")
    assert costs == {"dozer": 2, "tank": None, "infantry": 1}


def test_a_hex_held_by_a_german_unit_cannot_be_entered() -> None:
    # Project's choice: phase 5 has no move into an enemy hex.
    state = corridor()
    unit(state, "ge", "0103", side="german")
    mover = unit(state, "inf", "0101")
    assert set(ends(state, move(state, mover))) == {"0101", "0102"}
    model = move_policy(state).model(state, mover)
    assert "enemy" in model.why_not[state.board.hex_of("0103")]


# ------------------------------------------------------------------------- the data


def test_every_american_unit_type_that_fires_also_has_action_points() -> None:
    # Same unit type keys as los.yaml (Table 6), so a piece set up for one works for both.
    assert set(los_tables().sides["american"].units) <= set(tables().action_points)


def test_a_typo_in_movement_yaml_is_refused_with_its_line(tmp_path: Path) -> None:
    text = DATA.read_text(encoding="utf-8").replace("  sea: 2\n", "  sea: two\n", 1)
    bad = tmp_path / "movement.yaml"
    bad.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  sea: two") + 1
    with pytest.raises(DataError, match=f":{line}: terrain_costs.sea must be a whole number"):
        read_tables(bad)


# ----------------------------------------------------------------- the shipped map


def shipped() -> MapState:
    return MapState.of(load_map("dog-sector"))


def test_every_terrain_of_the_shipped_map_has_a_cost() -> None:
    assert set(shipped().board.terrain.values()) <= set(tables().terrain_costs)


def test_a_unit_landed_on_the_shipped_map_wades_ashore_through_the_registry() -> None:
    # DOG SECTOR phase 5: sea 2 AP, beach 1 AP; the landing row is row 3 (maps/dog-sector.yaml).
    state = shipped()
    mover = unit(state, "inf", "1003")
    result = plan_move(state, move_policy(state), mover)
    got = ends(state, result)
    assert (got["1004"], got["1005"], got["1006"], got["1007"], got["1008"]) == (2, 3, 4, 5, 6)
    assert "1009" not in got  # bluff: 2 AP more
    assert not result.stops


def test_a_land_mine_on_the_shipped_map_is_a_stop_in_the_must_stop_overlay() -> None:
    # DOG SECTOR phase 5, land mine explosion check.
    state = shipped()
    marker(state, "mine", "1005", "land-mine")
    mover = unit(state, "inf", "1003")
    assert must_stop_overlay(state, move_policy(state), mover) == {state.board.hex_of("1005"): LAND_MINE}
    result = plan_move(state, move_policy(state), mover)
    assert result.stops == {state.board.hex_of("1005"): LAND_MINE}
    # the mine hex ends the move there: 1006 is reached around it (5 AP), not through it
    assert ends(state, result)["1006"] == 5


def test_an_american_stack_on_the_shipped_landing_row_takes_any_number_of_units() -> None:
    # DOG SECTOR phase 5, stacking: no limit on landing-row hexes (region landing-row).
    state = shipped()
    for i in range(3):
        unit(state, f"inf-{i}", "1203")
    mover = unit(state, "inf", "1103")
    result = plan_move(state, move_policy(state), mover)
    assert state.board.hex_of("1203") in state.board.regions["landing-row"].hexes
    assert ends(state, result)["1203"] == 2
