"""D-Day at Omaha Beach, part 1: the landing (omaha 1, 9.1, 9.2) and the tide (gap G7).

States are built on the shipped map (maps/omaha.yaml: the Beach Landing Boxes are the
sea hexes of row 15, each pointing at the hex above it; East sector columns 1-15, West
16-36; Charlie beach columns 30-36; boxes 35 and 36 point at the sea). Cards are put on
top of the deck so each 9.2 letter is chosen.
"""

from __future__ import annotations

from functools import cache

import pytest

from tabletop.board import Map, load_map
from tabletop.engine.dice import Deck, Dice
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import data, landing
from tabletop.games.omaha.common import CATASTROPHIC, DEAD, REMOVED, lose_steps

# omaha 9.2 as printed (dday_at_omaha_beach_summary.txt), with the row names of reading
# A1: the test's own transcription, the oracle the encoded table is checked against.
TABLE_9_2 = {
    (1, 1): {"all": ("delay 1", "eliminated", "steps 1", "steps 1, left 2")},
    (2, 3): {
        "infantry": ("none", "left 1", "steps 1", "left 3"),
        "infantry-dg-ch": ("none", "left 1", "left 4", "right 1"),
        "others": ("left 4", "left 2", "left 9", "none"),
    },
    (4, 14): {
        "infantry": ("ranger-choice", "left 1", "left 4", "right 1"),
        "dukw": ("eliminated", "steps 1", "steps 2", "none"),
        "others": ("delay 3", "left 2", "steps 1", "none"),
    },
    (15, 32): {
        "infantry": ("none", "none", "none", "none"),
        "dukw": ("eliminated", "steps 1", "steps 2", "none"),
        "others": ("delay 3", "removed", "none", "steps 1"),
    },
}
CELLS = [
    (band, row, letter, cells[i])
    for band, rows in TABLE_9_2.items()
    for row, cells in rows.items()
    for i, letter in enumerate("ABCD")
]


@cache
def board() -> Map:
    return load_map("omaha")


def fresh(turn: int = 1) -> GameState:
    state = GameState(MapState.of(board()), turn=turn, phase="landing")
    state.decks["german"] = Deck([], discards=list(data.cards()))
    return state


def unit(state: GameState, uid: str, label: str, steps: int | None = None, landing_now: bool = True) -> Piece:
    info = data.us_units()[uid]
    piece = Piece(uid, info.type, board().hex_of(label), side="us", steps=steps or info.steps)
    state.map.place(piece)
    if landing_now:
        state.mark(landing.NOW, uid)
    return piece


def top(state: GameState, letter: str, mine: bool = False) -> data.Card:
    """Put a card with this landing letter (and mine symbol) on top of the deck."""
    card = next(c for c in data.cards().values() if c.landing == letter and c.mine == mine)
    state.decks["german"] = Deck([card.id])
    return card


def resolve(state: GameState) -> list[str]:
    return landing.resolve_box(state, Dice(1))


# ------------------------------------------------------------------------- 9.1


TABLE_9_1 = {
    0: ("1/B/741 2/B/741 1/C/741 2/C/741", "1/B/743 2/B/743 1/C/743 2/C/743"),
    1: ("1/A/741 2/A/741 E/2/16 F/2/16 L/3/16 I/3/16", "C/2R 1/A/743 2/A/743 A/1/116 E/2/116 F/2/116 G/2/116"),
    3: ("1•2/397 G/2/16 K/3/16", "3•4/397 5•6/397 B/1/116 H/2/116"),
    4: ("H/2/16 M/3/16", "C/1/116 D/1/116 I/3/116 K/3/116 L/3/116"),
    5: ("A•C/81C", "Gen. Cota 116/HQ B•D/81C A•B/2R M/3/116"),
    6: ("A/1/16 B/1/16 C/1/16", "A•B/5R C•D/5R E•F/5R"),
    7: ("16/HQ D/1/16 62AFA", "58AFA"),
    8: ("Can/16 7FA", "Can/116 111FA"),
    9: ("AT/16 A•B/197 C•D/197", "AT/116 A•B/467 C•D/467"),
    10: ("Gen. Wyman", ""),
    16: ("E/2/18 F/2/18 G/2/18 H/2/18", "A/1/115 B/1/115 C/1/115 D/1/115 E/2/115 F/2/115 G/2/115 H/2/115"),
    19: ("", "115/HQ I/3/115 K/3/115 L/3/115 M/3/115"),
    20: ("A/1/18 B/1/18 C/1/18 D/1/18", "AT/115"),
    22: ("18/HQ I/3/18 K/3/18 L/3/18 M/3/18", ""),
    23: ("AT/18", ""),
}


def _names(text: str) -> list[str]:
    return text.replace("Gen. ", "Gen.").split() if text else []


def test_9_1_every_unit_arrives_on_its_turn_in_its_sector() -> None:
    """omaha 9.1: each unit, by its printed name, waits in its turn and sector's box of
    scenarios/omaha.yaml (the game's scenario)."""
    from tabletop.engine.newgame import new_game
    from tabletop.engine.scenario import load_scenario
    from tabletop.games.omaha.ruleset import OmahaRules
    from tabletop.shipped import resolve as find

    game = new_game(load_scenario(find("omaha", "scenarios")), OmahaRules(), seed=1)  # type: ignore[arg-type]
    units = data.us_units()
    for turn, (east, west) in TABLE_9_1.items():
        for sector, text in (("east", east), ("west", west)):
            got = [units[p.id].name.replace("Gen. ", "Gen.") for p in game.state.box(f"{sector}-turn-{turn}")]
            assert got == _names(text), (turn, sector)
    assert sum(len(v) for k, v in game.state.boxes.items() if "-turn-" in k) == 90


@pytest.mark.parametrize(
    "name, kind, steps",
    [("1/B/741", "tank", 2), ("C/2R", "ranger", 2), ("E/2/16", "infantry", 3), ("1•2/397", "anti-aircraft", 2),
     ("A•C/81C", "heavy-infantry", 2), ("Gen. Cota", "general", 1), ("116/HQ", "hq", 1), ("62AFA", "artillery", 4),
     ("Can/16", "artillery", 2), ("7FA", "artillery", 4), ("AT/16", "anti-tank", 2), ("A•B/5R", "ranger", 2)],
)  # fmt: skip
def test_9_1_steps_column_and_types(name: str, kind: str, steps: int) -> None:
    """omaha 9.1 steps column (AT, HQ, Gen blank: 2, 1, 1) and the project's typing of
    the names (gap G4); the cannon companies are artillery of 2 steps (defect 2)."""
    (u,) = [u for u in data.us_units().values() if u.name == name]
    assert (u.type, u.steps) == (kind, steps)


def test_9_1_steps_come_from_us_yaml_into_piece_steps() -> None:
    """Defect 1 and G4: the game's units carry their 9.1 steps in Piece.steps."""
    from tabletop.engine.newgame import new_game
    from tabletop.engine.scenario import load_scenario
    from tabletop.games.omaha.ruleset import OmahaRules
    from tabletop.shipped import resolve as find

    game = new_game(load_scenario(find("omaha", "scenarios")), OmahaRules(), seed=1)  # type: ignore[arg-type]
    cannon = next(p for p in game.state.box("east-turn-8") if p.id == "Can-16")
    assert (cannon.type, cannon.steps) == ("artillery", 2)


def test_armour_and_dukw_flags() -> None:
    """Gap G4: tanks and the AFA battalions are armoured; 7FA and 111FA land by DUKW."""
    units = data.us_units()
    assert {u.name for u in units.values() if u.dukw} == {"7FA", "111FA"}
    assert {u.name for u in units.values() if u.armored and u.type != "tank"} == {"62AFA", "58AFA"}
    assert all(u.armored for u in units.values() if u.type == "tank")


# ------------------------------------------------------------------------- 9.2


@pytest.mark.parametrize("band, row, letter, want", CELLS)
def test_9_2_every_cell(band: tuple[int, int], row: str, letter: str, want: str) -> None:
    """omaha 9.2, each band x row x letter, at the band's first and last turn."""
    for turn in band:
        assert ", ".join(landing.results_for(turn, row, letter)) == want


def test_9_2_rows_a_unit_reads() -> None:
    """Reading A1: turn 1 all; 2-3 infantry in Easy/Fox vs Dog/Charlie; DUKW; others."""
    state = fresh(2)
    b = board()
    easy = unit(state, "E-2-16", "1015")
    dog = unit(state, "A-1-116", "2215")
    tank = unit(state, "1-A-741", "0515")
    band = data.band_at("amphibious", 2)
    assert landing.row_of(state, easy, easy.hex, band) == "infantry"
    assert landing.row_of(state, dog, dog.hex, band) == "infantry-dg-ch"
    assert landing.row_of(state, tank, tank.hex, band) == "others"
    fa = unit(state, "7FA", "0415")
    assert landing.row_of(state, fa, fa.hex, data.band_at("amphibious", 8)) == "dukw"
    assert landing.row_of(state, tank, tank.hex, data.band_at("amphibious", 1)) == "all"
    assert b.label(dog.hex) == "2215"


def test_9_2_drift_left_moves_along_the_boxes() -> None:
    """9.2 turn 1 D: -1 step and +2 left: the unit ends two boxes left (lower column)."""
    state = fresh(1)
    unit(state, "E-2-16", "1015")
    top(state, "D")
    resolve(state)
    piece = state.map.piece("E-2-16")
    assert board().label(piece.hex) == "0815" and piece.steps == 2


def test_9_2_drift_right() -> None:
    """9.2 turns 2-3, DG & CH infantry, D: +1 right."""
    state = fresh(2)
    unit(state, "A-1-116", "2215")
    top(state, "D")
    resolve(state)
    assert board().label(state.map.piece("A-1-116").hex) == "2315"


def test_9_2_drifting_off_the_row_delays_two_turns() -> None:
    """omaha 1: drifting out of the Beach Landing Boxes: placed +2 turns later."""
    state = fresh(2)
    unit(state, "1-A-741", "0315")  # others, C: +9 left from column 3
    top(state, "C")
    resolve(state)
    assert state.where("1-A-741") == "east-turn-4" and state.marked("delayed", "1-A-741")


@pytest.mark.parametrize("letter, box", [("A", "east-turn-2"), ("B", DEAD)])
def test_9_2_turn_1_delay_and_elimination(letter: str, box: str) -> None:
    """9.2 turn 1: A +1 turn; B eliminated."""
    state = fresh(1)
    unit(state, "E-2-16", "1015")
    top(state, letter)
    resolve(state)
    assert state.where("E-2-16") == box


def test_9_2_removed_from_play_and_three_turns() -> None:
    """9.2 turn 15+: others B remove from play; A +3 turns."""
    state = fresh(15)
    unit(state, "1-A-741", "1015")
    top(state, "B")
    resolve(state)
    assert state.where("1-A-741") == REMOVED
    state = fresh(15)
    unit(state, "1-A-741", "1015")
    top(state, "A")
    resolve(state)
    assert state.where("1-A-741") == "east-turn-18"


def test_9_2_dukw_losses() -> None:
    """9.2 turns 4-14 DUKW: C -2 steps; A eliminated."""
    state = fresh(8)
    unit(state, "7FA", "1015")
    top(state, "C")
    resolve(state)
    assert state.map.piece("7FA").steps == 2
    state = fresh(8)
    unit(state, "7FA", "1015")
    top(state, "A")
    resolve(state)
    assert state.where("7FA") == DEAD


def test_9_2_rangers_choose_their_drift() -> None:
    """9.2 turns 4-14 infantry A: rangers +[0-4] left, the player's choice (E1)."""
    state = fresh(6)
    unit(state, "A.B-5R", "3315")
    top(state, "A")
    resolve(state)
    assert state.marks[landing.ASK_RANGER] == ["A.B-5R"]
    assert landing.ranger_refusal(state, "A.B-5R", 5) is not None
    assert landing.ranger_refusal(state, "A.B-5R", 3) is None
    landing.ranger_drift(state, "A.B-5R", 3)
    assert board().label(state.map.piece("A.B-5R").hex) == "3015" and not state.marks[landing.ASK_RANGER]


def test_9_2_other_infantry_on_a_is_unaffected() -> None:
    """9.2 turns 4-14 infantry A: only rangers choose; other infantry: nothing."""
    state = fresh(6)
    unit(state, "A-1-16", "1015")
    top(state, "A")
    resolve(state)
    assert board().label(state.map.piece("A-1-16").hex) == "1015" and not state.marks.get(landing.ASK_RANGER)


def test_hqs_and_generals_do_not_check_and_drift_with_a_unit() -> None:
    """omaha 1: HQs and Generals do not check for landing hazard; stacked with a unit,
    they drift with it (project's choice: always, with the first unit that drifts)."""
    state = fresh(1)
    unit(state, "E-2-16", "1015")
    unit(state, "16-HQ", "1015")
    top(state, "B")  # turn 1 B: eliminated
    resolve(state)
    assert state.where("E-2-16") == DEAD and state.map.piece("16-HQ").hex == board().hex_of("1015")
    state = fresh(1)
    unit(state, "E-2-16", "1015")
    unit(state, "16-HQ", "1015")
    top(state, "D")
    resolve(state)
    assert board().label(state.map.piece("16-HQ").hex) == "0815"


def test_high_tide_box_not_pointing_at_the_beach_delays() -> None:
    """omaha 1 with gap G7: at high tide (turns 16-22) a box not pointing at a beach hex
    (3515: the hex above is sea) delays its units +2 turns; at low tide it does not."""
    state = fresh(16)
    unit(state, "A.B-5R", "3515")
    top(state, "D")
    resolve(state)
    assert state.where("A.B-5R") == "west-turn-18"
    state = fresh(5)
    unit(state, "A.B-5R", "3515")
    top(state, "D")
    resolve(state)
    assert state.where("A.B-5R") is None


def test_a_unit_drifting_into_another_box_is_not_resolved_again() -> None:
    """Each unit placed this turn reads 9.2 once, wherever it drifts."""
    state = fresh(2)
    unit(state, "1-A-741", "1215")  # others A: +4 left to 0815
    top(state, "A")
    resolve(state)
    assert landing.next_box(state) is None


# ---------------------------------------------------------------- mines (omaha 1)


def _obstacle(state: GameState, label: str) -> None:
    state.map.place(Piece(f"obst-{label}", "beach-obstacles", board().hex_of(label), kind="marker"))


@pytest.mark.parametrize("turn, obstacle_at, goes_off", [
    (5, "1014", False),   # turns before 7: no check
    (7, "1014", True),    # 7-15: lands on the obstacle hex it points at
    (7, "1013", False),   # ... not the one behind it
    (16, "1013", True),   # 16-22: passes through the next hex up too
    (23, "1014", False),  # 23+: all cleared
])  # fmt: skip
def test_exploding_mine_by_turn_band(turn: int, obstacle_at: str, goes_off: bool) -> None:
    """omaha 1, Exploding Mine Symbol by turn band (the hexes checked: project's choice)."""
    state = fresh(turn)
    _obstacle(state, obstacle_at)
    assert bool(landing.mine_hexes(state, board().hex_of("1015"))) is goes_off


def test_a_mine_takes_a_step_from_the_unit_the_player_chooses() -> None:
    """omaha 1: -1 step to a unit of your choice in the box (asked when two are there)."""
    state = fresh(15)
    _obstacle(state, "1014")
    unit(state, "A-1-16", "1015")
    unit(state, "B-1-16", "1015")
    top(state, "C", mine=True)  # 15+: infantry C none
    resolve(state)
    assert state.marks[landing.ASK_MINE] == ["1015"]
    assert landing.mine_refusal(state, "1015", "B-1-16") is None
    landing.mine_loss(state, "1015", "B-1-16")
    assert state.map.piece("B-1-16").steps == 2 and state.map.piece("A-1-16").steps == 3


def test_a_mine_with_only_an_hq_delays_it_and_spares_generals() -> None:
    """omaha 1: the only available unit an HQ: delayed +2 turns; Generals not affected."""
    state = fresh(10)
    _obstacle(state, "1014")
    unit(state, "16-HQ", "1015")
    top(state, "A", mine=True)
    resolve(state)
    assert state.where("16-HQ") == "east-turn-12"
    state = fresh(10)
    _obstacle(state, "1014")
    unit(state, "Gen-Wyman", "1015")
    top(state, "A", mine=True)
    resolve(state)
    assert state.where("Gen-Wyman") is None


# ------------------------------------------------------------ placing (omaha 1)


def waiting(state: GameState, *ids: str, sector: str = "east") -> None:
    for uid in ids:
        info = data.us_units()[uid]
        state.boxes.setdefault(f"{sector}-turn-{state.turn}", []).append(
            Piece(uid, info.type, board().hex_of("0101"), side="us", steps=info.steps)
        )


def test_at_most_two_units_a_box_leaders_free() -> None:
    """omaha 1: max 2 units per box; HQs and Generals do not count."""
    state = fresh(7)
    unit(state, "A-1-16", "1015")
    unit(state, "B-1-16", "1015")
    waiting(state, "D-1-16", "16-HQ")
    assert "already holds 2 units" in (landing.place_refusal(state, "D-1-16", "1015") or "")
    assert landing.place_refusal(state, "16-HQ", "1015") is None


def test_only_rangers_in_charlie_boxes() -> None:
    """omaha 1: only rangers may be placed in the Charlie boxes (CH)."""
    state = fresh(6)
    waiting(state, "A.B-5R", "M-3-116", sector="west")
    assert "only rangers" in (landing.place_refusal(state, "M-3-116", "3215") or "")
    assert landing.place_refusal(state, "A.B-5R", "3215") is None


def test_a_general_is_not_placed_alone() -> None:
    """omaha 1: a General may not be placed alone if units arrive with him."""
    state = fresh(5)
    waiting(state, "Gen-Cota", "M-3-116", sector="west")
    assert "alone" in (landing.place_refusal(state, "Gen-Cota", "2015") or "")
    landing.place(state, "M-3-116", "2015")
    assert landing.place_refusal(state, "Gen-Cota", "2115") is not None
    assert landing.place_refusal(state, "Gen-Cota", "2015") is None


def test_units_land_in_their_own_sector_until_turn_11() -> None:
    """9.1 sectors; omaha 1 turn 11+: a delayed unit may be placed in any box (A10)."""
    state = fresh(9)
    waiting(state, "A-1-16")
    assert "east sector" in (landing.place_refusal(state, "A-1-16", "2015") or "")
    state.mark("delayed", "A-1-16")
    assert landing.place_refusal(state, "A-1-16", "2015") is not None
    state = fresh(11)
    waiting(state, "A-1-16")
    state.mark("delayed", "A-1-16")
    assert landing.place_refusal(state, "A-1-16", "2015") is None


def test_voluntary_delay_from_turn_7() -> None:
    """omaha 1: turn 7+ units may be voluntarily delayed."""
    state = fresh(6)
    waiting(state, "A-1-16")
    assert landing.delay_refusal(state, "A-1-16") is not None
    state = fresh(7)
    waiting(state, "A-1-16")
    assert landing.delay_refusal(state, "A-1-16") is None
    landing.delay_by_choice(state, "A-1-16")
    assert [p.id for p in state.box("east-turn-8")] == ["A-1-16"]


def test_only_boxes_of_row_15_take_arrivals() -> None:
    state = fresh(1)
    waiting(state, "A-1-16")
    assert "not a Beach Landing Box" in (landing.place_refusal(state, "A-1-16", "1014") or "")


# ------------------------------------------------------------------ tide (G7)


@pytest.mark.parametrize("turn, tide", [(1, "low"), (6, "low"), (7, "rising"), (15, "rising"), (16, "high"),
                                        (22, "high"), (23, "falling"), (32, "falling")])  # fmt: skip
def test_the_tide_by_turn(turn: int, tide: str) -> None:
    """Gap G7 (project's choice), from the obstacle bands of omaha 1."""
    assert data.tide(turn) == tide


def test_catastrophic_loss_box_for_infantry_that_lost_its_second_step() -> None:
    """omaha 4: a non-ranger infantry unit losing its second step goes to the
    catastrophic loss box (German fire only); rangers do not."""
    state = fresh(3)
    inf = unit(state, "A-1-116", "2014", steps=2)
    lose_steps(state, inf, 1, "test", catastrophic=True)
    assert state.where("A-1-116") == CATASTROPHIC
    rgr = unit(state, "C-2R", "2114", steps=2)
    lose_steps(state, rgr, 1, "test", catastrophic=True)
    assert state.where("C-2R") is None and state.map.piece("C-2R").steps == 1
