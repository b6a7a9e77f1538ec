"""D-Day at Omaha Beach, part 1: the German side (omaha 2, 3, 4, 5, 9.3).

States are built on the shipped map; the German units are those of germans.yaml (their
colours and calibres are read by id): A8a a blue machine-gun of WN 70 (2410), A7a a
green grenadier of WN 68 (2110), A1a/A1b WN 60 (0310), A4a WN 64 (1209), A3a/A3b the
two hexes of WN 62 (0910, 0909). WN 70's field (fields.yaml, the project's drawing):
2411 intense at 1 hex, 2413 steady at 3, 2415 sporadic at 5. Cards are made here with
exactly the attributes a test needs.
"""

from __future__ import annotations

import pytest
from omaha_german_helpers import a_card, bare_state, board, de, us

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import data, german
from tabletop.games.omaha.common import (
    CATASTROPHIC,
    DEAD,
    DISRUPTED,
    FLIPPED,
    HERO,
    INSPIRED,
    POOLS,
    UNREVEALED,
)
from tabletop.games.omaha.fields import position_keys


def fresh(turn: int = 2) -> GameState:
    return bare_state(turn)


def card(colours: str = "blue", symbols: str = "circle", **kw: object) -> data.Card:
    return a_card(colours, symbols, **kw)


def order(state: GameState, key: str, c: data.Card) -> list[str]:
    return [p.id for _, p, _ in german.targets(state, key, c)]


# ------------------------------------------------------------- 4: which positions fire


def test_a_position_fires_when_its_colour_is_on_the_card() -> None:
    """omaha 4: positions fire by the card's colours; not another colour."""
    state = fresh()
    de(state, "A8a", "2410")
    assert german.fires(state, "wn-70", card("blue"))[0]
    assert not german.fires(state, "wn-70", card("red"))[0]


def test_a_double_colour_needs_a_depth_marker() -> None:
    """omaha 4: a double symbol needs at least 1 unit of the position with Depth."""
    state = fresh()
    de(state, "A8a", "2410")
    assert not german.fires(state, "wn-70", card("blue!"))[0]
    state = fresh()
    de(state, "A8a", "2410", depth="WD1")
    assert german.fires(state, "wn-70", card("blue!"))[0]


def test_disrupted_units_do_not_fire_nor_count() -> None:
    """omaha 4: Disrupted units may not fire and do not contribute hits."""
    state = fresh()
    de(state, "A8a", "2410", status=(DISRUPTED,))
    de(state, "A8b", "2410")
    assert german.possible_hits(state, "wn-70") == 1
    state = fresh()
    de(state, "A8a", "2410", status=(DISRUPTED,))
    assert not german.fires(state, "wn-70", card("blue"))[0]


def test_possible_hits_are_depth_plus_units_and_double_in_ext() -> None:
    """omaha 4: # Depth markers + # German units; EXT (turn 17+) x2."""
    state = fresh(3)
    de(state, "A8a", "2410", depth="WD1")
    de(state, "A8b", "2410")
    assert german.possible_hits(state, "wn-70") == 3
    state.turn = 17
    assert german.possible_hits(state, "wn-70") == 6


# ------------------------------------------------------------------ 4: the targets


def test_target_priority_intense_steady_sporadic() -> None:
    """omaha 4: intense hexes first, then steady, then sporadic."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2415")  # sporadic
    us(state, "E-2-116", "2413")  # steady
    us(state, "I-3-116", "2411")  # intense
    assert order(state, "wn-70", card()) == ["I-3-116", "E-2-116", "A-1-116"]


def test_target_priority_closer_then_most_steps() -> None:
    """omaha 4: within a band, closer to the firing position, then most steps."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2414", steps=3)  # steady, 4 hexes
    us(state, "E-2-116", "2413", steps=1)  # steady, 3 hexes
    assert order(state, "wn-70", card())[:2] == ["E-2-116", "A-1-116"]
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2413", steps=1)
    us(state, "E-2-116", "2313", steps=3)  # steady, also 3 hexes from 2410
    assert order(state, "wn-70", card()) == ["E-2-116", "A-1-116"]


def test_the_last_tie_is_the_players_choice_only_when_it_matters() -> None:
    """omaha 4 "player choice": equal band, distance and steps; asked only when the
    position has fewer hits left than tied units."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2413")
    us(state, "E-2-116", "2313")
    state.tracks[german.HITS + "wn-70"] = 1
    _, tied, _ = german.next_hit(state, "wn-70", card())
    assert {p.id for p in tied} == {"A-1-116", "E-2-116"}
    state.tracks[german.HITS + "wn-70"] = 2
    assert german.next_hit(state, "wn-70", card())[1] == []


def test_only_matching_symbols_are_targets_and_concentrated_stacks_match() -> None:
    """omaha 4: targets carry a symbol on the card; 5+ steps stacked count as matching."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "B-1-116", "2413")  # square
    assert order(state, "wn-70", card(symbols="circle")) == []
    us(state, "F-2-116", "2413")  # square, 3 + 3 = 6 steps stacked
    assert set(order(state, "wn-70", card(symbols="circle"))) == {"B-1-116", "F-2-116"}


def test_one_step_a_phase_and_in_ext_one_a_position() -> None:
    """omaha 4: -1 step max per phase; EXT: -1 step max per position firing at it."""
    state = fresh()
    de(state, "A8a", "2410")
    de(state, "A7a", "2110")
    us(state, "A-1-116", "2213")  # in both fields
    german.hit(state, "wn-70", "A-1-116", card())
    assert order(state, "wn-68", card("green")) == []
    state = fresh(17)
    de(state, "A8a", "2410")
    de(state, "A7a", "2110")
    us(state, "A-1-116", "2213")
    german.hit(state, "wn-70", "A-1-116", card())
    assert order(state, "wn-68", card("green")) == ["A-1-116"]
    assert order(state, "wn-70", card()) == []


def test_leaders_only_with_the_leader_bonus_in_intense_or_steady_and_last() -> None:
    """omaha 4: Leader hit bonus: HQs and Generals in intense or steady fire may be hit;
    leaders are hit last."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "116-HQ", "2411")
    us(state, "Gen-Cota", "2415")  # sporadic: never
    us(state, "A-1-116", "2413")
    assert order(state, "wn-70", card()) == ["A-1-116"]
    assert order(state, "wn-70", card(leader_bonus=True)) == ["A-1-116", "116-HQ"]


# ---------------------------------------------------------------------------- 9.3

# omaha 9.3 as printed, columns x rows (reading A2): the oracle.
TABLE_9_3 = {
    "wn": {"symbol": ["steps 1"], "single": [], "double": ["disrupted"]},
    "unrevealed": {"symbol": ["steps 1", "disrupted"], "single": [], "double": []},
    "ambush": {"symbol": ["steps 1"], "single": ["disrupted"], "double": ["disrupted"]},
}


@pytest.mark.parametrize("col", ["wn", "unrevealed", "ambush"])
@pytest.mark.parametrize("match", [None, False, True])
@pytest.mark.parametrize("non_armored", [True, False])
def test_9_3_every_cell(col: str, match: bool | None, non_armored: bool) -> None:
    """omaha 9.3: row 1 always; row 2 (single) or 3 (double) added for non-armoured."""
    want = list(TABLE_9_3[col]["symbol"])
    if non_armored and match is not None:
        want += [r for r in TABLE_9_3[col]["double" if match else "single"] if r not in want]
    assert german.fire_results(col, match, non_armored) == want


def test_9_3_a_double_symbol_disrupts_non_armoured_only() -> None:
    """9.3 WN column: double symbol on infantry: -1 step and Disrupted; on a tank only
    -1 step, unless the card shows the armour hit bonus (reading A8)."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2413")
    us(state, "1-A-743", "2313")
    german.hit(state, "wn-70", "A-1-116", card(symbols="circle!"))
    inf = state.map.piece("A-1-116")
    assert inf.steps == 2 and DISRUPTED in inf.status
    german.hit(state, "wn-70", "1-A-743", card(symbols="circle!"))
    tank = state.map.piece("1-A-743")
    assert tank.steps == 1 and DISRUPTED not in tank.status
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "1-A-743", "2313")
    german.hit(state, "wn-70", "1-A-743", card(symbols="circle!", armour_bonus=True))
    assert DISRUPTED in state.map.piece("1-A-743").status


def test_9_3_unrevealed_reinforcements_also_disrupt() -> None:
    """9.3 Unrevealed Reinforcement column: -1 step + Disrupted."""
    state = fresh()
    de(state, "T1", "2407", status=(UNREVEALED,))
    assert german.column(state, "reinforcement-5") == "unrevealed"
    us(state, "A-1-116", "2406")
    german.hit(state, "reinforcement-5", "A-1-116", card("red"), col=german.column(state, "reinforcement-5"))
    assert DISRUPTED in state.map.piece("A-1-116").status


# ----------------------------------------------------------- 4: what a hit does


def test_hit_hq_is_delayed_and_lands_again() -> None:
    """omaha 4: hit HQs are delayed +2 turns and re-enter by beach landing."""
    state = fresh(5)
    de(state, "A8a", "2410")
    us(state, "116-HQ", "2411")
    german.hit(state, "wn-70", "116-HQ", card(leader_bonus=True))
    assert state.where("116-HQ") == "west-turn-7"


def test_hit_general_flips_then_dies() -> None:
    """omaha 4: Generals are flipped on the first hit and killed on the second."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "Gen-Cota", "2411")
    german.hit(state, "wn-70", "Gen-Cota", card(leader_bonus=True))
    assert FLIPPED in state.map.piece("Gen-Cota").status
    german.hit(state, "wn-70", "Gen-Cota", card(leader_bonus=True))
    assert state.where("Gen-Cota") == DEAD


def test_a_hero_flipped_to_inspired_saves_the_last_step() -> None:
    """omaha 4: a Hero can be flipped to Inspired to prevent the loss of the last step."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "C-2R", "2413", steps=1, status=(HERO,))
    assert german.needs_inspire_choice(state, "wn-70", "C-2R", card(symbols="triangle"))
    german.hit(state, "wn-70", "C-2R", card(symbols="triangle"), inspire=True)
    piece = state.map.piece("C-2R")
    assert piece.steps == 1 and INSPIRED in piece.status and HERO not in piece.status


def test_infantry_losing_its_second_step_to_fire_is_a_catastrophic_loss() -> None:
    """omaha 4: a non-ranger infantry unit losing its second step: catastrophic loss box."""
    state = fresh()
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2413", steps=2)
    german.hit(state, "wn-70", "A-1-116", card())
    assert state.where("A-1-116") == CATASTROPHIC


# ------------------------------------------------------------------- 2: Depth


def test_depth_goes_to_the_unit_closest_to_a_us_unit() -> None:
    """omaha 2: the German unit closest to a US unit receives the Depth marker."""
    state = fresh()
    de(state, "A1a", "0310")
    de(state, "A8a", "2410")
    us(state, "A-1-116", "2413")
    assert [p.id for p in german.depth_candidates(state)][:2] == ["A8a", "A1a"]


def test_depth_then_one_hex_wn_then_two_hex_wn_then_reinforcement() -> None:
    """omaha 2: at equal distance: 1-hex WN -> 2-hex WN -> Reinforcement."""
    state = fresh()
    de(state, "T1", "1106")  # reinforcement-6
    de(state, "A3a", "0910")  # WN 62, two hexes
    de(state, "A4a", "1209")  # WN 64, one hex
    assert [p.id for p in german.depth_candidates(state)] == ["A4a", "A3a", "T1"]


def test_depth_ties_lowest_id_then_lowest_letter() -> None:
    """omaha 2: choices within the above: lowest ID (no ID -> 0), then lowest letter."""
    state = fresh()
    de(state, "A4a", "1209")  # A4
    de(state, "A1b", "0310")  # A1, letter b
    de(state, "A1a", "0310")  # A1, letter a
    assert [p.id for p in german.depth_candidates(state)] == ["A1a", "A1b", "A4a"]


def test_depth_only_for_units_in_communication_without_depth() -> None:
    """omaha 2: a unit in communication and without a Depth marker."""
    state = fresh()
    de(state, "A1a", "0310", depth="WD1")
    de(state, "A4a", "1209")
    state.marks[german.COMM] = [k for k in position_keys(board()) if k != "wn-64"]
    assert german.depth_candidates(state) == []


def test_depth_pools_by_position() -> None:
    """omaha 2: WN -> WN pool -> Tactical Reinforcement; Reinforcement in buildings ->
    Building pool -> Mobile pool; other Reinforcement -> Mobile pool -> nothing (A5)."""
    state = fresh()
    assert german.pool_chain(state, "wn-70") == ["wn", "tactical"]
    assert german.pool_chain(state, "reinforcement-1") == ["building", "mobile"]
    assert german.pool_chain(state, "reinforcement-5") == ["mobile"]


def test_depth_from_the_wn_pool_hidden() -> None:
    state = fresh()
    de(state, "A4a", "1209")
    state.boxes[POOLS["wn"]] = [Piece("WD3", "depth", board().hex_of("0101"), kind="marker")]
    german.give_depth(state, Dice(1))
    marker = german.depth_of(state, state.map.piece("A4a"))
    assert marker is not None and marker.id == "WD3" and UNREVEALED in marker.status


def test_an_empty_wn_pool_brings_a_tactical_reinforcement_to_the_nearest_position() -> None:
    """omaha 2 (reading A5): the WN Depth pool empty, a Tactical Reinforcement comes
    face down to the nearest empty Reinforcement position (WN 64 at 1209: position 6)."""
    state = fresh()
    de(state, "A4a", "1209")
    state.boxes[POOLS["tactical"]] = [Piece("T2", "machine-gun", board().hex_of("0101"), side="german")]
    german.give_depth(state, Dice(1))
    t2 = state.map.piece("T2")
    assert german.position_of(board(), t2.hex) == "reinforcement-6" and UNREVEALED in t2.status


def test_building_reinforcement_falls_back_to_the_mobile_pool() -> None:
    state = fresh()
    de(state, "T1", "2805")  # reinforcement-1, buildings
    state.boxes[POOLS["mobile"]] = [Piece("MD1", "depth", board().hex_of("0101"), kind="marker")]
    german.give_depth(state, Dice(1))
    assert german.depth_of(state, state.map.piece("T1")).id == "MD1"  # type: ignore[union-attr]


# ---------------------------------------------------------- 2: reinforcements


def _pool(state: GameState, name: str, *ids: str) -> None:
    g = data.germans().units
    state.boxes[POOLS[name]] = [Piece(i, g[i].type, board().hex_of("0101"), side="german") for i in ids]


def test_event_reinforcement_lowest_number_adjacent_to_us_first() -> None:
    """omaha 2: placed in the lowest number adjacent to a US unit -> within 2 hexes ->
    in sector: a US unit next to position 5 wins over positions 1-4."""
    state = fresh()
    _pool(state, "tactical", "T1")
    us(state, "A-1-116", "2406")
    german.event_reinforcement(state, Dice(1))
    assert german.position_of(board(), state.map.piece("T1").hex) == "reinforcement-5"


def test_event_reinforcement_within_two_hexes_next() -> None:
    state = fresh()
    _pool(state, "tactical", "T1")
    us(state, "A-1-116", "1108")  # 2 hexes from position 6 (1106)
    german.event_reinforcement(state, Dice(1))
    assert german.position_of(board(), state.map.piece("T1").hex) == "reinforcement-6"


def test_event_reinforcement_else_the_lowest_number_in_communication() -> None:
    state = fresh()
    _pool(state, "tactical", "T1")
    state.marks[german.COMM] = [k for k in position_keys(board()) if k != "reinforcement-1"]
    german.event_reinforcement(state, Dice(1))
    assert german.position_of(board(), state.map.piece("T1").hex) == "reinforcement-2"


def test_event_reinforcement_from_the_division_pool_comes_with_depth() -> None:
    """omaha 2: Tactical pool without Depth -> Division pool with Depth."""
    state = fresh()
    _pool(state, "division", "D1")
    state.boxes[POOLS["building"]] = [Piece("BD1", "depth", board().hex_of("0101"), kind="marker")]
    german.event_reinforcement(state, Dice(1))
    d1 = state.map.piece("D1")
    assert UNREVEALED in d1.status and german.depth_of(state, d1) is not None


def test_kampfgruppe_meyer() -> None:
    """omaha 2: 4 units and 2 Depth -> Division Reinforcement and Mobile Depth pools."""
    state = fresh()
    german.kampfgruppe_meyer(state)
    assert [p.id for p in state.box(POOLS["division"])] == ["KM1", "KM2", "KM3", "KM4"]
    assert [p.id for p in state.box(POOLS["mobile"])] == ["MD7", "MD8"]


# ------------------------------------------------------------------ 5: artillery


def test_artillery_fires_when_enough_guns_of_the_calibre() -> None:
    """omaha 5: undisrupted calibre-matching artillery of the sector's WNs and the
    Artillery Box, against the card's value."""
    state = fresh(4)
    de(state, "A10a", "2811")  # 88 in WN 72, West sector
    us(state, "A-1-116", "2015")  # infantry in a box: class 1
    c = card(symbols="circle", calibre=88, artillery_value=1)
    assert german.artillery_count(state, "west", c)[0] == 1
    assert german.artillery_count(state, "east", c)[0] == 0
    german.artillery(state, "west", c)
    assert state.map.piece("A-1-116").steps == 2
    c2 = card(symbols="circle", calibre=88, artillery_value=2)
    assert "no fire" in german.artillery(state, "west", c2)[0]


def test_artillery_priority_classes() -> None:
    """omaha 5: infantry in a box -> non-infantry on the beach -> non-infantry in a
    box -> infantry on the beach; most steps within each."""
    state = fresh(4)
    c = card(symbols="circle")
    us(state, "E-2-116", "2014")  # infantry on the beach (class 4)
    us(state, "1-A-743", "2515")  # tank in a box (class 3)
    assert german.artillery_target(state, "west", c)[0].id == "1-A-743"  # type: ignore[union-attr]
    us(state, "2-A-743", "2414")  # tank on the beach (class 2)
    assert german.artillery_target(state, "west", c)[0].id == "2-A-743"  # type: ignore[union-attr]
    us(state, "A-1-116", "2115", steps=2)
    us(state, "I-3-116", "2215", steps=3)  # infantry in boxes (class 1): most steps
    assert german.artillery_target(state, "west", c)[0].id == "I-3-116"  # type: ignore[union-attr]


def test_an_artillery_box_unit_is_inactive_when_all_observers_are_us_controlled() -> None:
    """omaha 5: inactive if all its observer positions are in US control."""
    state = fresh(4)
    state.boxes[POOLS["artillery"]] = [Piece("AB2", "german-artillery", board().hex_of("0101"), side="german")]
    c = card(calibre=88)
    assert german.artillery_count(state, "east", c)[0] == 1
    us(state, "A-1-116", "2410")  # controls WN 70
    assert german.artillery_count(state, "east", c)[0] == 1  # WN 72 still German
    us(state, "E-2-116", "2811")
    us(state, "F-2-116", "2911")
    assert german.artillery_count(state, "east", c)[0] == 0


def test_rally_removes_disrupted_by_card_colour() -> None:
    """omaha 4: remove Disrupted from German units whose colour appears on the card."""
    state = fresh()
    de(state, "A8a", "2410", status=(DISRUPTED,))
    de(state, "A7a", "2110", status=(DISRUPTED,))
    german.rally(state, card("blue"))
    assert DISRUPTED not in state.map.piece("A8a").status and DISRUPTED in state.map.piece("A7a").status
