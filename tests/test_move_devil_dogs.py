"""Movement under The Devil Dogs of Belleau Wood (Devil Dogs 4.1, 5.8, 6, 6.1, 6.2, 8, 9).

Small maps drawn here: a field of 7 columns by 9 rows (flat-top, odd-q) with the German
map edge along row 1 and the Allied edge along row 9, as on maps/belleau-wood.yaml; and
a corridor one column wide, where the only way on is through the next hex. On these
maps a hex's distance from the row-1 edge is its row number less one. The last tests
use the shipped map through the registry.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.movement import Reach, must_stop_overlay, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import move_policy
from tabletop.games.devil_dogs.movement import (
    DATA,
    DevilDogsMovePolicy,
    MoveTable,
    default_table,
    forced_retreat,
)
from tabletop.hexgrid import neighbors
from tabletop.yamlfile import DataError, parse_yaml

ZOC = "next to an enemy unit: the move ends here (Devil Dogs 6.1)"


def ground(columns: int = 7, rows: int = 9, hexes: dict[str, str] | None = None) -> MapState:
    text = f"""
name: Devil Dogs test field
rules: devil_dogs
grid: {{orientation: flat, offset: odd-q, columns: {columns}, rows: {rows}}}
terrain:
  open:  {{symbol: ".", colour: "#b7cf8a"}}
  wheat: {{symbol: ":", colour: "#e3c65a"}}
  woods: {{symbol: "W", colour: "#2d6a2f"}}
  urban: {{symbol: "U", colour: "#9b4a3c"}}
  slope: {{symbol: "/", colour: "#a88b5c"}}
default_terrain: open
regions:
  edge-german: {{kind: edge, rows: [1, 1]}}
  edge-allied: {{kind: edge, rows: [{rows}, {rows}]}}
"""
    if hexes:
        text += "hexes: {" + ", ".join(f'"{k}": {v}' for k, v in hexes.items()) + "}\n"
    return MapState.of(small_map(text))


def corridor(rows: int = 9) -> MapState:
    return ground(columns=1, rows=rows)


def unit(
    state: MapState, piece_id: str, label: str, side: str = "allied", status: tuple[str, ...] = ()
) -> Piece:
    piece = Piece(piece_id, "infantry", state.board.hex_of(label), side=side, status=frozenset(status))
    state.place(piece)
    return piece


def move(state: MapState, mover: Piece, order: str | None = "REP", budget: int | None = 3) -> Reach:
    return plan_move(state, move_policy(state), mover, order=order, budget=budget)


def ends(state: MapState, result: Reach) -> dict[str, int]:
    return {state.board.label(h): c for h, c in result.costs.items()}


def row(label: str) -> int:
    return int(label[2:])


# ------------------------------------------------------------------------- the policy


def test_the_registry_gives_the_devil_dogs_policy_for_a_devil_dogs_map() -> None:
    assert isinstance(move_policy(ground()), DevilDogsMovePolicy)


@pytest.mark.parametrize("terrain", ["open", "wheat", "woods", "urban", "slope"])
def test_every_hex_costs_one_whatever_its_terrain(terrain: str) -> None:
    # Devil Dogs 5.8: the number is the maximum number of hexes a unit may move.
    state = ground(hexes={"0404": terrain})
    result = move(state, unit(state, "us", "0405"), budget=1)
    assert ends(state, result)["0404"] == 1


def test_the_cards_movement_number_is_the_budget_in_hexes() -> None:
    # Devil Dogs 5.8: the number is the maximum number of hexes each unit may move.
    state = corridor()
    result = move(state, unit(state, "us", "0101"), budget=2)
    assert ends(state, result) == {"0101": 0, "0102": 1, "0103": 2}


def test_with_no_movement_number_the_projects_default_applies_and_is_noted() -> None:
    # Devil Dogs 5.8 leaves the number to the card; movement.yaml's default is the project's.
    state = corridor()
    result = move(state, unit(state, "us", "0101"), budget=None)
    assert max(ends(state, result).values()) == default_table().default_budget
    assert any("project's default" in n for n in result.notes)


def test_hold_means_no_movement_whatever_the_budget() -> None:
    # Devil Dogs 5.8, 6: HOLD (red 0), no unit in this sector may move.
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="HOLD", budget=4)
    assert ends(state, result) == {"0405": 0}


def test_order_words_are_read_as_printed_and_unknown_ones_refused() -> None:
    state = ground()
    mover = unit(state, "us", "0405")
    assert ends(state, move(state, mover, order="Hold.")) == {"0405": 0}
    with pytest.raises(ValueError, match="unknown Devil Dogs movement order 'CHARGE'"):
        move(state, mover, order="CHARGE")


# ---------------------------------------------------------------- enemies and ZOC


def test_an_enemy_occupied_hex_cannot_be_entered() -> None:
    # Devil Dogs 6 (enemy-occupied hexes are not entered; stacking 4.1).
    state = ground()
    unit(state, "ge", "0403", side="german")
    mover = unit(state, "us", "0405")
    result = move(state, mover, budget=6)
    assert "0403" not in ends(state, result)
    model = move_policy(state).model(state, mover, "REP", 6)
    assert "held by the enemy" in model.why_not[state.board.hex_of("0403")]


def test_moving_next_to_an_enemy_unit_ends_the_move() -> None:
    # Devil Dogs 6.1: a unit that moves adjacent to an enemy unit must end its movement.
    state = corridor()
    unit(state, "ge", "0106", side="german")
    result = move(state, unit(state, "us", "0101"), budget=8)
    assert ends(state, result) == {"0101": 0, "0102": 1, "0103": 2, "0104": 3, "0105": 4}
    assert result.stops == {state.board.hex_of("0105"): ZOC}


def test_a_unit_next_to_an_enemy_may_move_to_another_enemy_adjacent_hex_and_stop_there() -> None:
    # Devil Dogs 6.1: a unit adjacent to an enemy unit may move into another enemy
    # adjacent hex but must again stop immediately.
    state = ground()
    enemy = unit(state, "ge", "0404", side="german")
    mover = unit(state, "us", "0405")  # next to the enemy, south of it
    result = move(state, mover, budget=3)
    ring = set(neighbors(enemy.hex)) - {mover.hex}
    beside = [h for h in ring if h in set(neighbors(mover.hex))]
    assert len(beside) == 2
    for h in beside:  # the two ring hexes next to the start: one step, then stop
        assert result.costs[h] == 1
        assert result.stops[h] == ZOC
    # but not beyond: nothing is reached from a hex where the move ends, so the ring
    # hexes two and three steps round (cost 2 and 3 along the ring) are out of reach
    assert set(result.stops) == set(beside)
    assert not set(result.previous.values()) & set(beside)
    assert not (ring - set(beside)) & set(result.costs)


def test_a_unit_next_to_an_enemy_may_also_walk_away_from_it() -> None:
    # Devil Dogs 6.1 stops a unit entering an enemy-adjacent hex, not one leaving.
    state = corridor()
    unit(state, "ge", "0101", side="german")
    result = move(state, unit(state, "us", "0102"), budget=3)
    assert ends(state, result) == {"0102": 0, "0103": 1, "0104": 2, "0105": 3}


# ------------------------------------------------------------------------- stacking


def test_a_unit_may_pass_through_a_friendly_unit_but_not_end_on_it() -> None:
    # Devil Dogs 4.1: stacking limit 1; units may over-stack while moving through a unit
    # but may not end movement over-stacked.
    state = corridor()
    friend = unit(state, "us-2", "0102")
    result = move(state, unit(state, "us-1", "0101"), budget=3)
    assert friend.hex in result.passed
    assert ends(state, result) == {"0101": 0, "0103": 2, "0104": 3}
    assert result.path_to(state.board.hex_of("0103"))[1] == friend.hex


def test_a_friendly_unit_next_to_the_enemy_cannot_be_moved_onto_at_all() -> None:
    # Devil Dogs 4.1 with 6.1: entering it would end the move there, over-stacked.
    state = corridor()
    unit(state, "us-2", "0103")
    unit(state, "ge", "0104", side="german")
    result = move(state, unit(state, "us-1", "0101"), budget=5)
    assert ends(state, result) == {"0101": 0, "0102": 1}
    assert not result.passed


# --------------------------------------------------------------------------- pinning


@pytest.mark.parametrize("order", ["ADV", "REP", None])
def test_a_pinned_unit_does_not_move(order: str | None) -> None:
    # Devil Dogs 6.2: a unit with a pinning token may not move.
    state = ground()
    result = move(state, unit(state, "us", "0405", status=("pinned",)), order=order, budget=3)
    assert ends(state, result) == {"0405": 0}
    assert any("pinned and may not move" in n for n in result.notes)


def test_a_pinned_unit_may_retreat_and_loses_its_token() -> None:
    # Devil Dogs 5.8 RET (units that move remove pinning tokens) and 6.2 (forced to
    # retreat, including by a retreat order: the token is removed).
    state = ground()
    result = move(state, unit(state, "us", "0405", status=("pinned",)), order="RET", budget=2)
    assert "0407" in ends(state, result)
    assert any("removes its pinning token" in n for n in result.notes)


# ------------------------------------------------------------------ whole-move orders


def test_an_advance_must_end_at_least_one_hex_nearer_the_enemy_edge() -> None:
    # Devil Dogs 5.8 ADV and 6: the Allies advance north (the German edge, row 1).
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="ADV", budget=2)
    moved = {label for label in ends(state, result) if label != "0405"}
    assert moved and all(row(label) <= 4 for label in moved)
    assert "0403" in moved
    for h, why in result.refused.items():
        assert row(state.board.label(h)) >= 5
        assert "nearer the enemy edge" in why


def test_an_advance_may_move_laterally_as_long_as_it_ends_one_hex_nearer() -> None:
    # Devil Dogs 6: units may move laterally as long as they advance one hex.
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="ADV", budget=2)
    assert ends(state, result)["0604"] == 2  # two columns over, one row nearer
    assert ends(state, result)["0204"] == 2
    sideways = state.board.hex_of("0605")  # two columns over, no nearer: refused
    assert sideways in result.refused
    assert sideways not in result.costs


def test_staying_put_under_an_advance_is_refusing_it_and_costs_a_pin() -> None:
    # Devil Dogs 5.8 ADV, 8 REFUSING ORDERS: a unit that refuses takes a pinning token.
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="ADV", budget=2)
    assert result.costs[state.board.hex_of("0405")] == 0
    assert any("takes a pinning token" in n for n in result.notes)


def test_a_unit_already_next_to_an_enemy_need_not_advance() -> None:
    # Devil Dogs 5.8 ADV: must end nearer the enemy edge "unless already adjacent to an
    # enemy unit"; project's choice: it may still not end farther from that edge.
    state = ground()
    unit(state, "ge", "0404", side="german")
    mover = unit(state, "us", "0505")  # next to the enemy
    result = move(state, mover, order="ADV", budget=2)
    got = ends(state, result)
    assert "0605" in got  # lateral, no nearer: allowed
    farther = state.board.hex_of("0506")
    assert farther in result.refused and "farther from the enemy edge" in result.refused[farther]
    assert any("need not advance" in n for n in result.notes)


def test_a_retreat_must_end_at_least_one_hex_nearer_the_friendly_edge() -> None:
    # Devil Dogs 5.8 RET and 6: the Allies retreat south (their edge, row 9); lateral
    # moves allowed as long as they retreat one hex.
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="RET", budget=2)
    moved = {label for label in ends(state, result) if label != "0405"}
    assert moved and all(row(label) >= 6 for label in moved)
    assert "0606" in moved  # two columns over, one row back
    assert state.board.hex_of("0403") in result.refused
    assert state.board.hex_of("0205") in result.refused


@pytest.mark.parametrize(
    ("side", "forward", "back"), [("allied", "0403", "0407"), ("german", "0407", "0403")]
)
def test_each_side_advances_toward_the_other_sides_edge(side: str, forward: str, back: str) -> None:
    # Devil Dogs 3: Germans advance south and retreat north; Allies the reverse.
    state = ground()
    mover = unit(state, "u", "0405", side=side)
    assert forward in ends(state, move(state, mover, order="ADV", budget=2))
    assert back not in ends(state, move(state, mover, order="ADV", budget=2))
    assert back in ends(state, move(state, mover, order="RET", budget=2))
    assert forward not in ends(state, move(state, mover, order="RET", budget=2))


def test_reposition_allows_any_end_up_to_the_number() -> None:
    # Devil Dogs 5.8 REP, 6: any direction up to the maximum, or remain stationary.
    state = ground()
    result = move(state, unit(state, "us", "0405"), order="REP", budget=2)
    assert {"0403", "0407", "0605", "0405"} <= set(ends(state, result))
    assert not result.refused


def test_an_advance_with_no_hex_nearer_in_reach_is_not_possible_and_noted() -> None:
    # Devil Dogs 5.8 ADV: "if possible".
    state = corridor()
    unit(state, "us-2", "0104")
    unit(state, "ge", "0102", side="german")
    result = move(state, unit(state, "us", "0105"), order="ADV", budget=1)
    assert ends(state, result) == {"0105": 0}
    assert any("not possible" in n for n in result.notes)


def test_an_advance_for_a_side_with_no_map_edge_is_refused_by_name() -> None:
    state = ground()
    mover = unit(state, "x", "0405", side="martian")
    with pytest.raises(ValueError, match="'martian'"):
        move(state, mover, order="ADV")


# -------------------------------------------------------------------- forced retreats


def test_rout_moves_the_unit_the_shortest_distance_to_a_hex_not_next_to_the_enemy() -> None:
    # Devil Dogs 9 ROUT!: must retreat from its current space; 6.2: the pin is removed.
    state = ground()
    unit(state, "ge", "0404", side="german")
    mover = unit(state, "us", "0405", status=("pinned",))
    to, why, path = forced_retreat(state, mover)
    assert to is not None and state.board.label(to) == "0406"  # straight back, one hex
    assert path == (mover.hex, to)
    assert "shortest distance" in why and "not next to the enemy" in why
    assert "pinning token is removed" in why


def test_a_gassed_unit_moves_out_of_the_gas_and_the_hexes_next_to_it() -> None:
    # Devil Dogs 9 GAS BARRAGE: units under or adjacent to the token move the shortest
    # distance away from the affected area, not adjacent to the enemy.
    state = ground()
    mover = unit(state, "us", "0405")
    gas = state.board.hex_of("0405")
    result = forced_retreat(state, mover, gas_at=gas)
    assert result.hex is not None and state.board.label(result.hex) == "0407"
    assert len(result.path) == 3
    assert "gas at 0405" in result.reason


def test_a_forced_move_goes_around_the_enemy_and_its_zone_of_control() -> None:
    # Devil Dogs 9 with 6.1: a hex next to the enemy neither ends nor carries on the move.
    state = ground()
    unit(state, "ge", "0407", side="german")
    mover = unit(state, "us", "0405")
    result = forced_retreat(state, mover, gas_at=mover.hex)
    assert result.hex is not None
    enemy_ring = set(neighbors(state.board.hex_of("0407")))
    assert result.hex not in enemy_ring
    assert not set(result.path[1:]) & enemy_ring


@pytest.mark.parametrize(
    ("status", "penalty"), [((), "takes a pinning token"), (("pinned",), "one step loss")]
)
def test_a_unit_with_no_legal_hex_to_retreat_to_refuses_and_takes_the_penalty(
    status: tuple[str, ...], penalty: str
) -> None:
    # Devil Dogs 8 REFUSING ORDERS: a refusing unit takes a pinning token, or one step
    # loss if already pinned.
    state = corridor(rows=4)
    unit(state, "ge-1", "0101", side="german")
    mover = unit(state, "us", "0102", status=status)
    unit(state, "ge-2", "0104", side="german")  # 0103 is next to it
    result = forced_retreat(state, mover)
    assert result.hex is None
    assert "refuses" in result.reason and penalty in result.reason


# ------------------------------------------------------------------------- the data


def test_a_typo_in_movement_yaml_is_refused_with_its_line() -> None:
    text = DATA.read_text(encoding="utf-8").replace("stacking_limit: 1", "stacking_limt: 1")
    line = text.splitlines().index("stacking_limt: 1") + 1
    with pytest.raises(DataError, match=f":{line}: the file: unknown key 'stacking_limt'"):
        MoveTable.from_data(parse_yaml(text, Path("movement.yaml")), "movement.yaml")


# ----------------------------------------------------------------- the shipped map


def shipped() -> MapState:
    return MapState.of(load_map("belleau-wood"))


def test_the_shipped_map_has_a_cost_for_every_terrain_and_both_edges() -> None:
    board = shipped().board
    table = default_table()
    assert set(board.terrain.values()) <= set(table.terrain_costs)
    for edges in table.sides.values():
        assert {edges.friendly, edges.enemy} <= set(board.regions)


def test_an_allied_advance_on_the_shipped_map_through_the_registry() -> None:
    # Devil Dogs 3, 5.8, 6, 6.1: Allies advance north; a German unit ahead stops them.
    state = shipped()
    unit(state, "ge", "1008", side="german")
    mover = unit(state, "us", "1012")
    result = plan_move(state, move_policy(state), mover, order="ADV", budget=3)
    got = ends(state, result)
    assert all(row(label) <= 11 for label in got if label != "1012")
    assert got["1009"] == 3
    assert result.stops[state.board.hex_of("1009")] == ZOC
    assert "1007" not in got
    overlay = must_stop_overlay(state, move_policy(state), mover)
    assert set(overlay) == set(neighbors(state.board.hex_of("1008")))


def test_a_routed_german_unit_on_the_shipped_map_falls_back_north() -> None:
    # Devil Dogs 9 ROUT!; ties go toward the friendly edge (the German edge, north).
    state = shipped()
    unit(state, "us", "1012", side="allied")
    mover = unit(state, "ge", "1011", side="german")
    result = forced_retreat(state, mover)
    assert result.hex is not None and state.board.label(result.hex) == "1010"
