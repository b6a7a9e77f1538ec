"""DOG SECTOR American actions: phase 5 (American Beach Activity: moves, Table 5 obstacle
removal, the Land Mine Explosion Check, exceptional leaders) and phase 6 (American
Fire: Table 6 and Friendly Fire), on the shipped map maps/dog-sector.yaml.

Geography used (labels CCRR): rows 1-4 sea (row 3 the landing row), rows 5-7 the
obstacle rows of the beach, row 8 beach next to the bluffs, rows 9-11 bluffs, row 12
trench. Column 10 lies in section-2 (columns 6-10). A unit in rows 5-7 is not next to a
bluff, so it fires at range (los.yaml); one in row 11 is next to the trench row.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from tabletop.board import Map, load_map
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import american as am
from tabletop.games.dog_sector import hits
from tabletop.hexgrid import distance
from tabletop.yamlfile import DataError


@cache
def board() -> Map:
    return load_map("dog-sector")


def game(phase: str = "activity") -> GameState:
    return GameState(MapState.of(board()), turn=1, phase=phase)


def put(
    state: GameState,
    pid: str,
    kind: str,
    label: str,
    *,
    side: str = "american",
    reduced: bool = False,
    status: tuple[str, ...] = (),
) -> Piece:
    piece = Piece(pid, kind, board().hex_of(label), side=side, status=frozenset(status))
    full = hits.full_steps(piece)
    piece = replace(piece, steps=full - 1 if reduced else full)
    state.map.place(piece)
    return piece


def marker(state: GameState, pid: str, kind: str, label: str) -> None:
    state.map.place(Piece(pid, kind, board().hex_of(label), kind="marker"))


def where(state: GameState, pid: str) -> str:
    return board().label(state.map.piece(pid).hex)


def spent(state: GameState, pid: str) -> int:
    return state.track(f"ap-spent:{pid}")


def markers(state: GameState, label: str) -> set[str]:
    return {m.type for m in state.map.markers_at(board().hex_of(label))}


def play(state: GameState, action: dict[str, object], *faces: int) -> list[str]:
    """Apply a legal action with scripted dice; every scripted face must be used."""
    assert am.refusal(state, action) is None, am.refusal(state, action)
    dice = Dice(1, script=faces)
    lines = am.apply(state, action, dice)
    assert dice.scripted_used == len(faces)
    return lines


def refused(state: GameState, action: dict[str, object]) -> str:
    why = am.refusal(state, action)
    assert why is not None, f"{action} was accepted"
    return why


# ----------------------------------------------------------------------- the data


def test_the_shipped_table_reads_and_names_the_actions() -> None:
    """The plan's vocabulary: phase 5 and phase 6 actions."""
    t = am.tables()
    assert set(am.ACTIONS) == {"move", "restore", "unpin", "clear", "bangalore", "fire"}
    assert set(t.removers) == {"ce-team", "infantry", "tank", "dozer"}
    assert set(t.fire_units) == {
        "sharpshooter", "forward-observer", "ce-team", "flamethrower", "bazooka", "infantry", "tank", "dozer",
    }  # fmt: skip


def test_table_5_entry_costs_must_agree_with_movement_yaml(tmp_path: Path) -> None:
    """Table 5: the dozer's 1 AP for a tank obstacle is charged by movement.yaml; the two
    files are checked against each other."""
    copy = tmp_path / "american.yaml"
    shutil.copy(am.DATA, copy)
    text = copy.read_text().replace(
        "tank-obstacle: {ap: 1, how: entry}", "tank-obstacle: {ap: 2, how: entry}"
    )
    copy.write_text(text)
    with pytest.raises(DataError, match=r"movement\.yaml charges 1"):
        am.read_tables(copy)


# ----------------------------------------------------------------- phase 5: moves


def test_a_move_spends_ap_by_terrain_and_is_tracked() -> None:
    """Phase 5: 1 AP a hex, 2 AP for sea; the AP spent is the track ap-spent:<id>."""
    s = game()
    put(s, "i1", "infantry", "1003")
    lines = play(s, {"do": "move", "unit": "i1", "to": "1005"})
    assert where(s, "i1") == "1005"
    assert spent(s, "i1") == 3  # sea 1004 (2) + beach 1005 (1)
    assert "3 AP, 3 left" in lines[0]  # 6 AP a unit (movement.yaml, project's choice)
    play(s, {"do": "move", "unit": "i1", "to": "1008"})
    assert spent(s, "i1") == 6
    why = refused(s, {"do": "move", "unit": "i1", "to": "1009"})
    assert "0 AP left of 6" in why


def test_a_move_beyond_the_ap_left_is_refused_with_the_cost() -> None:
    """Phase 5: AP accounting, a hex two sea hexes and three beach hexes away costs 5."""
    s = game()
    put(s, "i1", "infantry", "1003")
    s.tracks["ap-spent:i1"] = 2
    why = refused(s, {"do": "move", "unit": "i1", "to": "1007"})
    assert "needs 5 AP" in why and "4 left" in why


def test_one_unit_of_each_type_a_hex_but_no_limit_on_the_landing_row() -> None:
    """Phase 5, Stacking: one unit of each type a hex; no limit on landing-row hexes."""
    s = game()
    put(s, "i1", "infantry", "1005")
    put(s, "i2", "infantry", "1006")
    put(s, "b1", "bazooka", "1006")
    why = refused(s, {"do": "move", "unit": "i2", "to": "1005"})
    assert "already holds a infantry" in why
    play(s, {"do": "move", "unit": "b1", "to": "1005"})  # another type may join
    put(s, "i3", "infantry", "1003")
    put(s, "i4", "infantry", "1002")
    play(s, {"do": "move", "unit": "i4", "to": "1003"})
    assert where(s, "i4") == where(s, "i3") == "1003"


def test_only_an_exceptional_leader_enters_a_pinned_down_hex() -> None:
    """Phase 5: only ELs can move into pinned-down hexes."""
    s = game()
    put(s, "i1", "infantry", "1005", status=("pinned",))
    put(s, "b1", "bazooka", "1004")
    put(s, "el", "exceptional-leader", "1004")
    assert "pinned-down hex" in refused(s, {"do": "move", "unit": "b1", "to": "1005"})
    play(s, {"do": "move", "unit": "el", "to": "1005"})
    assert where(s, "el") == "1005"


def test_a_pinned_or_immobilized_unit_does_not_move() -> None:
    """Phase 5 (project's choice, movement.yaml cannot_move): pinned and immobilized
    units do not move."""
    s = game()
    put(s, "i1", "infantry", "1005", status=("pinned",))
    put(s, "t1", "tank", "1205", status=("immobilized",))
    assert "pinned" in refused(s, {"do": "move", "unit": "i1", "to": "1006"})
    assert "immobilized" in refused(s, {"do": "move", "unit": "t1", "to": "1206"})


def test_a_move_into_a_german_hex_or_out_of_phase_is_refused() -> None:
    """Phase 5: project's choice, no entering German-held hexes; moves only in phase 5."""
    s = game()
    put(s, "i1", "infantry", "1011")
    put(s, "g1", "infantry", "1012", side="german")
    assert "held by the enemy" in refused(s, {"do": "move", "unit": "i1", "to": "1012"})
    s.phase = "american-fire"
    assert "phase 5" in refused(s, {"do": "move", "unit": "i1", "to": "1010"})


# ----------------------------------------------------- phase 5: Land Mine Explosion Check


@pytest.mark.parametrize("face", [1, 2, 3])
def test_a_land_mine_check_of_1_to_3_is_clear_and_the_mine_stays(face: int) -> None:
    """Land Mine Explosion Check: 1-3 clear; the unit is unharmed, the move ends there,
    the mine stays (project's choice)."""
    s = game()
    put(s, "i1", "infantry", "1004")
    marker(s, "m1", "land-mine", "1005")
    lines = play(s, {"do": "move", "unit": "i1", "to": "1005"}, face)
    assert "clear" in lines[-1]
    assert s.map.piece("i1").steps == 2
    assert "land-mine" in markers(s, "1005")


@pytest.mark.parametrize("face", [4, 5, 6])
def test_a_land_mine_check_of_4_to_6_hits_the_unit_and_removes_the_mine(face: int) -> None:
    """Land Mine Explosion Check: 4-6 explosion hits the unit, then clears the hex."""
    s = game()
    put(s, "i1", "infantry", "1004")
    marker(s, "m1", "land-mine", "1005")
    lines = play(s, {"do": "move", "unit": "i1", "to": "1005"}, face)
    assert s.map.piece("i1").steps == 1  # infantry reduced (hits.yaml)
    assert "land-mine" not in markers(s, "1005")
    assert any("explosion" in line for line in lines)


def test_a_land_mine_ends_the_move_and_a_cleared_mine_rolls_nothing() -> None:
    """Land Mine Explosion Check: the move ends in the mine hex (movement.yaml), so the
    2-AP way through it is no way on; a mine with a CLEARED marker is no obstacle (Table 2)."""
    s = game()
    put(s, "i1", "infantry", "1004")
    marker(s, "m1", "land-mine", "1005")
    marker(s, "w1", "barbed-wire", "0905")  # the ways round 1005 on the beach are wired:
    marker(s, "w2", "barbed-wire", "1105")  # 1006 is within 4 AP only through the mine hex
    assert "needs 7 AP" in refused(s, {"do": "move", "unit": "i1", "to": "1006"})  # round by sea
    marker(s, "c1", "cleared", "1005")
    play(s, {"do": "move", "unit": "i1", "to": "1005"})  # no die rolled
    play(s, {"do": "move", "unit": "i1", "to": "1006"})  # and it goes on


def test_a_tank_entering_a_land_mine_hex_checks_too() -> None:
    """Land Mine Explosion Check: each unit entering; a tank hit is immobilized."""
    s = game()
    put(s, "t1", "tank", "1004")
    marker(s, "m1", "land-mine", "1005")
    play(s, {"do": "move", "unit": "t1", "to": "1005"}, 6)
    assert s.map.piece("t1").has("immobilized")


# ------------------------------------------------------- phase 5: Table 5, cell by cell

OBSTACLES = ("barbed-wire", "land-mine", "tank-obstacle")


@pytest.mark.parametrize("obstacle", OBSTACLES)
def test_table_5_a_ce_team_removes_any_adjacent_obstacle_for_1_ap(obstacle: str) -> None:
    """Table 5, CE column: 1 AP for barbed wire, land mines and tank obstacles."""
    s = game()
    put(s, "ce", "ce-team", "1004")
    marker(s, "o1", obstacle, "1005")
    play(s, {"do": "clear", "unit": "ce", "hex": "1005"})
    assert markers(s, "1005") == set()
    assert spent(s, "ce") == 1


def test_table_5_a_ce_team_removes_adjacent_obstacles_only() -> None:
    """Phase 5: "CE may spend 1 AP to remove an adjacent obstacle" (not two hexes off,
    and not its own hex, project's reading)."""
    s = game()
    put(s, "ce", "ce-team", "1004")
    marker(s, "o1", "barbed-wire", "1006")
    assert "adjacent hex" in refused(s, {"do": "clear", "unit": "ce", "hex": "1006"})
    marker(s, "o2", "land-mine", "1004")
    assert "adjacent hex" in refused(s, {"do": "clear", "unit": "ce", "hex": "1004"})


@pytest.mark.parametrize("obstacle", OBSTACLES)
def test_table_5_infantry_alone_may_not_remove_obstacles(obstacle: str) -> None:
    """Table 5, Inf column: NA without an EL."""
    s = game()
    put(s, "i1", "infantry", "1004")
    marker(s, "o1", obstacle, "1005")
    assert "exceptional leader in its hex" in refused(s, {"do": "clear", "unit": "i1", "hex": "1005"})


@pytest.mark.parametrize("obstacle", OBSTACLES)
def test_table_5_full_strength_infantry_with_an_el_removes_for_1_ap(obstacle: str) -> None:
    """Table 5, Inf column: "NA (1)", read as 1 AP with an EL in the hex; the infantry
    spends the AP, the EL none (project's reading)."""
    s = game()
    put(s, "i1", "infantry", "1004")
    put(s, "el", "exceptional-leader", "1004")
    marker(s, "o1", obstacle, "1005")
    play(s, {"do": "clear", "unit": "i1", "hex": "1005"})
    assert markers(s, "1005") == set()
    assert (spent(s, "i1"), spent(s, "el")) == (1, 0)


def test_table_5_reduced_infantry_may_not_remove_obstacles_even_with_an_el() -> None:
    """Table 5 (*): must be a full strength infantry unit."""
    s = game()
    put(s, "i1", "infantry", "1004", reduced=True)
    put(s, "el", "exceptional-leader", "1004")
    marker(s, "o1", "barbed-wire", "1005")
    assert "full-strength" in refused(s, {"do": "clear", "unit": "i1", "hex": "1005"})


@pytest.mark.parametrize("vehicle", ["tank", "dozer"])
def test_table_5_tank_and_dozer_remove_barbed_wire_on_entry_at_no_extra_ap(vehicle: str) -> None:
    """Table 5 (0**): barbed wire removed upon entry at no additional AP."""
    s = game()
    put(s, "v", vehicle, "1004")
    marker(s, "o1", "barbed-wire", "1005")
    assert "by moving into its hex" in refused(s, {"do": "clear", "unit": "v", "hex": "1005"})
    lines = play(s, {"do": "move", "unit": "v", "to": "1005"})
    assert markers(s, "1005") == set()
    assert spent(s, "v") == 1
    assert any("removes the barbed wire" in line for line in lines)


@pytest.mark.parametrize("vehicle", ["tank", "dozer"])
def test_table_5_tank_and_dozer_may_not_remove_land_mines(vehicle: str) -> None:
    """Table 5: NA for tank and dozer against land mines."""
    s = game()
    put(s, "v", vehicle, "1004")
    marker(s, "o1", "land-mine", "1005")
    why = refused(s, {"do": "clear", "unit": "v", "hex": "1005"})
    assert why == f"a {vehicle} cannot remove a land mine (DOG SECTOR phase 5, Table 5: NA)"


def test_table_5_a_tank_may_not_remove_or_enter_a_tank_obstacle() -> None:
    """Table 5: NA for the tank against tank obstacles."""
    s = game()
    put(s, "t1", "tank", "1004")
    marker(s, "o1", "tank-obstacle", "1005")
    assert "Table 5: NA" in refused(s, {"do": "clear", "unit": "t1", "hex": "1005"})
    assert "tank obstacle" in refused(s, {"do": "move", "unit": "t1", "to": "1005"})


def test_table_5_a_dozer_removes_a_tank_obstacle_on_entry_for_1_ap_more() -> None:
    """Table 5, dozer column: 1 AP for a tank obstacle, removed on moving into its hex."""
    s = game()
    put(s, "d1", "dozer", "1004")
    marker(s, "o1", "tank-obstacle", "1005")
    assert "by moving into its hex" in refused(s, {"do": "clear", "unit": "d1", "hex": "1005"})
    play(s, {"do": "move", "unit": "d1", "to": "1005"})
    assert markers(s, "1005") == set()
    assert spent(s, "d1") == 2


@pytest.mark.parametrize(
    "kind", ["bazooka", "sharpshooter", "forward-observer", "flamethrower", "exceptional-leader"]
)
def test_table_5_units_without_a_column_remove_nothing(kind: str) -> None:
    """Table 5 has columns for CE, infantry, tank and dozer only."""
    s = game()
    put(s, "u", kind, "1004")
    marker(s, "o1", "barbed-wire", "1005")
    assert "no column" in refused(s, {"do": "clear", "unit": "u", "hex": "1005"})


def test_a_clear_needs_a_live_obstacle_and_the_ap() -> None:
    """Phase 5 / Table 5: nothing to remove in an empty or CLEARED hex; 1 AP needed."""
    s = game()
    put(s, "ce", "ce-team", "1004")
    assert "no obstacle" in refused(s, {"do": "clear", "unit": "ce", "hex": "1005"})
    marker(s, "o1", "barbed-wire", "1005")
    marker(s, "c1", "cleared", "1005")
    assert "no obstacle" in refused(s, {"do": "clear", "unit": "ce", "hex": "1005"})
    marker(s, "o2", "land-mine", "1104")
    s.tracks["ap-spent:ce"] = 6
    assert "0 AP left" in refused(s, {"do": "clear", "unit": "ce", "hex": "1104"})


def test_a_pinned_ce_team_does_not_clear() -> None:
    """Phase 5 (project's choice): a pinned-down unit spends no AP."""
    s = game()
    put(s, "ce", "ce-team", "1004", status=("pinned",))
    marker(s, "o1", "barbed-wire", "1005")
    assert "pinned" in refused(s, {"do": "clear", "unit": "ce", "hex": "1005"})


# -------------------------------------------------------------- phase 5: bangalore


def test_a_bangalore_removes_two_adjacent_obstacles_once_a_game() -> None:
    """Phase 5: CE spends 1 AP and its bangalore torpedo to remove two obstacles adjacent
    to it and to each other; one torpedo a CE team for the game (project's choice)."""
    s = game()
    put(s, "ce", "ce-team", "1004")
    marker(s, "o1", "barbed-wire", "1005")
    marker(s, "o2", "tank-obstacle", "1105")
    assert distance(board().hex_of("1005"), board().hex_of("1105")) == 1
    play(s, {"do": "bangalore", "unit": "ce", "hexes": ["1005", "1105"]})
    assert markers(s, "1005") == markers(s, "1105") == set()
    assert spent(s, "ce") == 1 and s.track("bangalore-used:ce") == 1
    marker(s, "o3", "barbed-wire", "1005")
    marker(s, "o4", "barbed-wire", "1105")
    assert "used its bangalore" in refused(s, {"do": "bangalore", "unit": "ce", "hexes": ["1005", "1105"]})


def test_a_bangalore_needs_hexes_adjacent_to_each_other_and_to_the_ce() -> None:
    """Phase 5: the two obstacles must be adjacent to each other as well."""
    s = game()
    put(s, "ce", "ce-team", "1004")
    marker(s, "o1", "barbed-wire", "0905")  # 0905 and 1105 are both next to 1004
    marker(s, "o2", "barbed-wire", "1105")
    assert "adjacent to each other" in refused(
        s, {"do": "bangalore", "unit": "ce", "hexes": ["0905", "1105"]}
    )
    marker(s, "o3", "barbed-wire", "1005")
    marker(s, "o4", "barbed-wire", "1006")
    assert "not adjacent to" in refused(s, {"do": "bangalore", "unit": "ce", "hexes": ["1005", "1006"]})
    put(s, "i1", "infantry", "1104")
    assert "only a ce-team" in refused(s, {"do": "bangalore", "unit": "i1", "hexes": ["1005", "1105"]})


# ------------------------------------------------------ phase 5: exceptional leaders


def test_an_el_restores_reduced_infantry_in_its_hex_for_1_ap() -> None:
    """Phase 5: ELs may spend one AP to flip infantry on the same hex to full strength."""
    s = game()
    put(s, "el", "exceptional-leader", "1005")
    put(s, "i1", "infantry", "1005", reduced=True)
    put(s, "i2", "infantry", "1006", reduced=True)
    assert "no American unit in 1005" in refused(s, {"do": "restore", "unit": "el", "target": "i2"})
    play(s, {"do": "restore", "unit": "el", "target": "i1"})
    assert s.map.piece("i1").steps == 2 and spent(s, "el") == 1
    assert "full strength" in refused(s, {"do": "restore", "unit": "el", "target": "i1"})


def test_only_an_el_restores_and_only_infantry() -> None:
    """Phase 5, Exceptional Leaders: the EL flips infantry, nothing else does."""
    s = game()
    put(s, "el", "exceptional-leader", "1005")
    put(s, "i1", "infantry", "1005", reduced=True)
    put(s, "i2", "infantry", "1005", reduced=True, side="german")
    put(s, "c1", "ce-team", "1005")
    assert "only an exceptional leader" in refused(s, {"do": "restore", "unit": "c1", "target": "i1"})
    assert "no American unit" in refused(s, {"do": "restore", "unit": "el", "target": "i2"})


def test_an_el_enters_a_pinned_hex_and_removes_the_marker_for_1_ap() -> None:
    """Phase 5: ELs may enter pinned-down hexes and spend one AP to remove the marker;
    the units freed may then act (project's choice)."""
    s = game()
    put(s, "i1", "infantry", "1005", status=("pinned",))
    put(s, "b1", "bazooka", "1005", status=("pinned",))
    put(s, "el", "exceptional-leader", "1004")
    assert "not pinned down" in refused(s, {"do": "unpin", "unit": "el"})
    play(s, {"do": "move", "unit": "el", "to": "1005"})
    play(s, {"do": "unpin", "unit": "el"})
    assert not s.map.piece("i1").status and not s.map.piece("b1").status
    assert spent(s, "el") == 2
    play(s, {"do": "move", "unit": "i1", "to": "1006"})


def test_a_pinned_el_may_still_unpin_its_hex_but_not_restore() -> None:
    """Phase 5 (project's choice): the marker is the hex's; a pinned EL removes it, and
    spends no other AP while pinned."""
    s = game()
    put(s, "el", "exceptional-leader", "1005", status=("pinned",))
    put(s, "i1", "infantry", "1005", status=("pinned",), reduced=True)
    assert "pinned" in refused(s, {"do": "restore", "unit": "el", "target": "i1"})
    play(s, {"do": "unpin", "unit": "el"})
    play(s, {"do": "restore", "unit": "el", "target": "i1"})


# ------------------------------------------------------------ phase 6: Table 6 rows

# (firer type, firer hex, target type, target hex, hit face or faces, miss face)
TABLE_6 = [
    ("sharpshooter", "1007", "infantry", "1012", 6, 5),
    ("sharpshooter", "1007", "panzerfaust", "1012", 6, 5),
    ("forward-observer", "0605", "mg-pillbox", "1112", 6, 5),  # range 9: no bonus
    ("forward-observer", "1005", "mg-pillbox", "1012", 5, 4),  # range 7: bonus 5-6
    ("ce-team", "1011", "mg-pillbox", "1012", 6, 5),
    ("ce-team", "1011", "at-gun", "1012", 6, 5),
    ("flamethrower", "1011", "mg-pillbox", "1012", 4, 3),
    ("flamethrower", "1011", "panzerfaust", "1012", 4, 3),
    ("bazooka", "1006", "at-gun", "1012", 5, 4),  # range 6
    ("bazooka", "1011", "infantry", "1012", 5, 4),  # adjacent: anything
    ("infantry", "1011", "infantry", "1012", 5, 4),  # bonus against infantry
    ("infantry", "1011", "mg-pillbox", "1012", 6, 5),
    ("tank", "1005", "at-gun", "1012", 5, 4),  # range 7: bonus
    ("tank", "0605", "at-gun", "1112", 6, 5),  # range 9: no bonus
    ("dozer", "1005", "mg-pillbox", "1012", 5, 4),
    ("dozer", "0605", "mg-pillbox", "1112", 6, 5),
]


@pytest.mark.parametrize(("firer", "at", "target", "tat", "hit", "miss"), TABLE_6)
def test_table_6_each_line_hits_from_its_number_and_misses_below(
    firer: str, at: str, target: str, tat: str, hit: int, miss: int
) -> None:
    """Table 6: hit numbers with their bonuses (FO, tank/dozer within 8; infantry
    against infantry); a hit applies hits.hit to the target; the firer is marked fired."""
    for face, hits_it in ((hit, True), (miss, False)):
        s = game("american-fire")
        put(s, "a", firer, at)
        put(s, "g", target, tat, side="german")
        before = s.map.piece("g")
        lines = play(s, {"do": "fire", "unit": "a", "target": "g"}, face)
        assert s.marked("fired", "a")
        changed = s.where("g") == "dead" or s.map.piece("g") != before
        assert changed is hits_it, lines
        assert ("hit" if hits_it else "miss") in lines[0]


@pytest.mark.parametrize(
    ("firer", "at", "target", "tat", "words"),
    [
        ("sharpshooter", "1011", "mg-pillbox", "1012", "infantry or panzerfaust only"),
        ("sharpshooter", "0605", "infantry", "1112", "only within 8 hexes"),
        ("ce-team", "1011", "infantry", "1012", "at-gun or mg-pillbox only"),
        ("ce-team", "1007", "mg-pillbox", "1012", "only at adjacent targets"),
        ("flamethrower", "1011", "infantry", "1012", "all except infantry only"),
        ("flamethrower", "1007", "mg-pillbox", "1012", "only at adjacent targets"),
        ("bazooka", "1106", "mg-pillbox", "1012", "only within 6 hexes"),
        ("bazooka", "1007", "infantry", "1012", "only at adjacent targets"),
        ("infantry", "1007", "infantry", "1012", "only at adjacent targets"),
        ("tank", "1007", "infantry", "1012", "at-gun or mg-pillbox only"),
        ("dozer", "1011", "panzerfaust", "1012", "at-gun or mg-pillbox only"),
        ("exceptional-leader", "1011", "infantry", "1012", "does not fire"),
    ],
)
def test_table_6_target_restrictions_and_ranges_are_refused_with_the_reason(
    firer: str, at: str, target: str, tat: str, words: str
) -> None:
    """Table 6: target types (american.yaml) and ranges (los.yaml); the EL does not fire."""
    s = game("american-fire")
    put(s, "a", firer, at)
    put(s, "g", target, tat, side="german")
    assert words in refused(s, {"do": "fire", "unit": "a", "target": "g"})


def test_a_unit_fires_once_a_turn_and_a_hit_target_is_not_targeted_again() -> None:
    """Phase 6: "If a target is reduced, it cannot be targeted again in the same turn";
    each unit fires once a turn (project's choice)."""
    s = game("american-fire")
    put(s, "a", "infantry", "1011")
    put(s, "b", "flamethrower", "0911")
    put(s, "g", "infantry", "1012", side="german")
    play(s, {"do": "fire", "unit": "a", "target": "g"}, 6)
    assert s.map.piece("g").steps == 1 and s.marked("targeted", "g")
    assert "fired this turn" in refused(s, {"do": "fire", "unit": "a", "target": "g"})
    assert "cannot be targeted again" in refused(s, {"do": "fire", "unit": "b", "target": "g"})


def test_a_pinned_unit_does_not_fire_but_an_immobilized_tank_does() -> None:
    """Phase 6 (project's choices): pinned units hold fire; immobilized stops movement only."""
    s = game("american-fire")
    put(s, "a", "infantry", "1011", status=("pinned",))
    put(s, "t", "tank", "1007", status=("immobilized",))
    put(s, "g", "mg-pillbox", "1012", side="german")
    assert "pinned" in refused(s, {"do": "fire", "unit": "a", "target": "g"})
    play(s, {"do": "fire", "unit": "t", "target": "g"}, 1)


def test_fire_blocked_by_line_of_sight_gives_the_findings() -> None:
    """Phase 6: American units block line of sight on trench hexes; the refusal names the
    blocking unit and the rule."""
    s = game("american-fire")
    put(s, "a", "sharpshooter", "1007")
    put(s, "x", "infantry", "1012")  # American infantry on the trench between
    put(s, "g", "infantry", "1014", side="german")
    why = refused(s, {"do": "fire", "unit": "a", "target": "g"})
    assert "american unit x" in why and "at 1012" in why and "phase 6" in why


def test_fire_at_an_american_or_in_phase_5_is_refused() -> None:
    """Phase 6: fire at German units only, in phase 6 only."""
    s = game("american-fire")
    put(s, "a", "infantry", "1011")
    put(s, "f", "infantry", "1012")
    assert "no German unit" in refused(s, {"do": "fire", "unit": "a", "target": "f"})
    s.phase = "activity"
    assert "phase 6" in refused(s, {"do": "fire", "unit": "a", "target": "f"})


# ------------------------------------------------------------ phase 6: friendly fire


def test_friendly_fire_applies_to_fo_tank_dozer_and_bazooka_at_range() -> None:
    """Friendly Fire: FO, tank/dozer and bazooka fire; an American-occupied hex within 3
    of the target."""
    for kind, at in (("forward-observer", "1005"), ("tank", "1005"), ("dozer", "1005"), ("bazooka", "1006")):
        s = game("american-fire")
        put(s, "a", kind, at)
        put(s, "g", "mg-pillbox", "1012", side="german")
        assert am.friendly_fire_hexes(s, "a", "g") == []
        put(s, "f", "infantry", "1010")
        assert am.friendly_fire_hexes(s, "a", "g") == [board().hex_of("1010")], kind


def test_friendly_fire_does_not_apply_to_other_fire_or_an_adjacent_bazooka() -> None:
    """Friendly Fire: not for other unit types; "does not apply if Bazooka is adjacent
    to target"."""
    s = game("american-fire")
    put(s, "bz", "bazooka", "1011")
    put(s, "ss", "sharpshooter", "1007")
    put(s, "f", "infantry", "1010")
    put(s, "g", "mg-pillbox", "1012", side="german")
    put(s, "g2", "infantry", "1013", side="german")
    assert am.friendly_fire_hexes(s, "bz", "g") == []
    assert am.friendly_fire_hexes(s, "ss", "g2") == []


def test_friendly_fire_counts_hexes_within_3_and_not_4() -> None:
    """Friendly Fire: "within 3 hexes"."""
    s = game("american-fire")
    put(s, "a", "forward-observer", "1005")
    put(s, "g", "mg-pillbox", "1012", side="german")
    put(s, "f3", "infantry", "1009")
    put(s, "f4", "infantry", "1008")
    assert distance(board().hex_of("1009"), board().hex_of("1012")) == 3
    assert distance(board().hex_of("1008"), board().hex_of("1012")) == 4
    assert am.friendly_fire_hexes(s, "a", "g") == [board().hex_of("1009")]


def test_a_friendly_fire_hit_lands_on_the_american_hex_and_a_miss_hurts_nobody() -> None:
    """Friendly Fire (project's choice): Table 6 is rolled as usual; a hit lands on the
    American-occupied hex instead of the target."""
    s = game("american-fire")
    put(s, "a", "forward-observer", "1005")
    put(s, "g", "mg-pillbox", "1012", side="german")
    put(s, "f", "infantry", "1010")
    play(s, {"do": "fire", "unit": "a", "target": "g"}, 4)  # miss (5-6 within 8)
    assert s.map.piece("f").steps == 2
    s.marks.clear()
    lines = play(s, {"do": "fire", "unit": "a", "target": "g"}, 5)
    assert s.map.piece("f").steps == 1 and s.where("g") is None
    assert any("friendly fire" in line for line in lines)


def test_friendly_fire_picks_the_hex_and_then_the_unit_at_random_with_a_die() -> None:
    """Friendly Fire: several American-occupied hexes within 3: the hit hex is picked
    randomly (a die, logged), and one unit in it (project's choice)."""
    s = game("american-fire")
    put(s, "a", "tank", "1005")
    put(s, "g", "at-gun", "1012", side="german")
    put(s, "f1", "infantry", "1010")
    put(s, "f2", "infantry", "1011")
    put(s, "f3", "bazooka", "1011")
    window = am.friendly_fire_hexes(s, "a", "g")
    assert [board().label(h) for h in window] == ["1010", "1011"]
    dice = Dice(1, script=[5, 2, 2])  # hit, the second hex (1011), its second unit (f3)
    am.apply(s, {"do": "fire", "unit": "a", "target": "g"}, dice)
    assert s.where("f3") == "dead" and s.map.piece("f2").steps == 2 and s.map.piece("f1").steps == 2
    assert [r.result for r in dice.log] == [(5,), (2,), (2,)]
    assert "friendly fire" in dice.log[1].purpose and "friendly fire" in dice.log[2].purpose


def test_the_firers_own_hex_counts_when_within_3() -> None:
    """Friendly Fire (project's reading): any American-occupied hex within 3, the
    firer's own included."""
    s = game("american-fire")
    put(s, "a", "bazooka", "1010")
    put(s, "g", "mg-pillbox", "1012", side="german")
    assert am.friendly_fire_hexes(s, "a", "g") == [board().hex_of("1010")]


# ------------------------------------------------------------------------- choices


def busy_state(phase: str) -> GameState:
    s = game(phase)
    put(s, "ce", "ce-team", "1004")
    put(s, "el", "exceptional-leader", "1005")
    put(s, "i1", "infantry", "1005", reduced=True)
    put(s, "i2", "infantry", "1105", status=("pinned",))
    put(s, "t1", "tank", "1203")
    put(s, "d1", "dozer", "1303")
    put(s, "ss", "sharpshooter", "1007")
    put(s, "fo", "forward-observer", "0907")
    put(s, "bz", "bazooka", "1011")
    put(s, "ft", "flamethrower", "0911")
    for i, (kind, label) in enumerate(
        [("barbed-wire", "1006"), ("land-mine", "0905"), ("tank-obstacle", "1304"), ("barbed-wire", "1204")]
    ):
        marker(s, f"o{i}", kind, label)
    for i, (kind, label) in enumerate(
        [("infantry", "1012"), ("mg-pillbox", "0912"), ("at-gun", "1112"), ("panzerfaust", "0812")]
    ):
        put(s, f"g{i}", kind, label, side="german")
    return s


@pytest.mark.parametrize("phase", ["activity", "american-fire"])
def test_choices_lists_only_actions_refusal_accepts_and_apply_carries_out(phase: str) -> None:
    """choices() (phase 5, phase 6): every listed action is accepted, and a sample
    applies without error on a copy of the state."""
    s = busy_state(phase)
    listed = am.choices(s, phase)
    assert listed
    assert all(am.refusal(s, a) is None for a in listed)
    for action in random.Random(5).sample(listed, min(25, len(listed))):
        am.apply(s.copy(), action, Dice(3))


def test_choices_of_phase_5_include_each_kind_of_action() -> None:
    """Phase 5: moves, restore, unpin (none here), clear, bangalore; nothing for pinned units."""
    s = busy_state("activity")
    listed = am.choices(s, "activity")
    kinds = {a["do"] for a in listed}
    assert {"move", "restore", "clear"} <= kinds
    assert {"do": "restore", "unit": "el", "target": "i1"} in listed
    assert {"do": "clear", "unit": "ce", "hex": "0905"} in listed
    assert not [a for a in listed if a["unit"] == "i2"]  # pinned
    assert not [a for a in listed if a["do"] == "clear" and a["unit"] in ("t1", "d1")]
    assert am.choices(s, "american-fire") == []


def test_choices_of_phase_6_respect_table_6_target_types() -> None:
    """Phase 6: the sharpshooter is offered infantry and panzerfaust targets only."""
    s = busy_state("american-fire")
    listed = am.choices(s, "american-fire")
    targets = {a["target"] for a in listed if a["unit"] == "ss"}
    assert targets and targets <= {"g0", "g3"}
    assert not [a for a in listed if a["unit"] == "el"]


def test_choices_sampled_across_random_states_are_all_accepted() -> None:
    """Property: in random small states, every listed action (phases 5 and 6) is accepted."""
    rng = random.Random(11)
    kinds = ["infantry", "ce-team", "tank", "dozer", "exceptional-leader", "bazooka", "forward-observer"]
    for _ in range(6):
        s = game("activity")
        used: set[str] = set()
        for i in range(8):
            label = f"{rng.randint(8, 13):02d}{rng.randint(3, 11):02d}"
            kind = rng.choice(kinds)
            if (label, kind) in used:
                continue
            used.add((label, kind))
            put(s, f"u{i}", kind, label, reduced=kind == "infantry" and rng.random() < 0.3,
                status=("pinned",) if rng.random() < 0.2 else ())  # fmt: skip
        for i in range(6):
            label = f"{rng.randint(8, 13):02d}{rng.randint(5, 7):02d}"
            marker(s, f"o{i}", rng.choice(OBSTACLES), label)
        for i, label in enumerate(["0912", "1012", "1112", "1212"]):
            put(
                s,
                f"g{i}",
                rng.choice(["infantry", "mg-pillbox", "at-gun", "panzerfaust"]),
                label,
                side="german",
            )
        for phase in ("activity", "american-fire"):
            s.phase = phase
            for action in am.choices(s, phase):
                assert am.refusal(s, action) is None, action
