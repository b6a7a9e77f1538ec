"""D-Day at Omaha Beach, the German action table of the EXT turns (omaha 3): every cell
as encoded, then each row of the table played through ``actions.play`` on its six
columns (Reinforcement position: unoccupied in communication, occupied with no target,
occupied with US units in its field of fire; the same for a WN position), and the
bullets under the table (Disrupted positions, unoccupied positions single or double,
RE-OCCUPY, RE-SUPPLY, REDEPLOY, REINFORCE, MORTAR, PATROL, ARTILLERY, AMBUSH, ADVANCE).

The two positions used throughout: reinforcement-5 (B5, grey, not VP, hex 2407; its
field: 2406 intense, 2410 steady; 2405 is 2 hexes off and out of its field; its
arrows: WN 70 then WN 68) and WN 70 (A8, blue, hex 2410; 2411 intense, 2413 steady,
2415 sporadic). German units by germans.yaml id: T1 a red Tactical grenadier, D1 a grey
352nd grenadier, A8a WN 70's blue machine-gun, A12a WN 74's blue 75 mm gun.
"""

from __future__ import annotations

import pytest
from omaha_german_helpers import a_card, bare_state, board, us
from omaha_german_helpers import de as german_unit

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import actions, data, german
from tabletop.games.omaha.common import DISRUPTED, GERMAN_DEAD, HERO, POOLS, UNREVEALED
from tabletop.games.omaha.fields import position_keys

R5, WN70 = "reinforcement-5", "wn-70"


def fresh(turn: int = 17) -> GameState:
    return bare_state(turn)


def card(colours: str = "grey red blue", symbols: str = "circle", action: str = "F", **kw: object) -> data.Card:
    return a_card(colours, symbols, action, **kw)


def de(state: GameState, gid: str, label: str, depth: str | None = None, status: tuple[str, ...] = ()) -> Piece:
    """A German unit; its depth marker face down (unrevealed), as the action table meets it."""
    return german_unit(state, gid, label, depth, status, depth_status=(UNREVEALED,))


def pool(state: GameState, name: str, *ids: str) -> None:
    g = data.germans().units
    marker = name in ("wn", "building", "mobile")
    state.boxes[POOLS[name]] = [
        Piece(i, "depth", board().hex_of("0101"), kind="marker") if marker else
        Piece(i, g[i].type, board().hex_of("0101"), side="german")
        for i in ids
    ]  # fmt: skip


def where(state: GameState, uid: str) -> str | None:
    return german.position_of(board(), state.map.piece(uid).hex)


def column(state: GameState, key: str, col: str) -> None:
    """Put position ``key`` in column ``col`` of the table."""
    if col == "unoccupied":
        return
    de(state, "T1" if key == R5 else "A8a", "2407" if key == R5 else "2410")
    if col == "target":
        us(state, "B-1-116", "2406" if key == R5 else "2413")


# omaha 3 as printed: card row x (Reinforcement: unoccupied, no target, target; WN: ...).
TABLE_3 = {
    "F": ("none", "none", "fire", "none", "none", "fire"),
    "O": ("none", "none", "fire", "none", "none", "fire"),
    "*": ("none", "none", "fire", "none", "none", "fire"),
    "R": ("reinforce (if US units within 2 hexes)", "redeploy", "resupply-and-fire", "reoccupy", "none", "fire"),
    "M": ("none", "mortar", "fire", "none", "mortar", "fire"),
    "P": ("none", "patrol", "patrol", "none", "none", "fire"),
    "A": ("ambush (if US units in the field of fire)", "advance", "advance-or-fire", "none", "artillery", "fire"),
}
CELLS = [(row, key, col) for row in TABLE_3 for key in (R5, WN70) for col in actions.COLUMNS]


@pytest.mark.parametrize("row", list(TABLE_3))
@pytest.mark.parametrize("i", range(6))
def test_section_3_every_cell_as_encoded(row: str, i: int) -> None:
    """omaha 3 (EXT): each card action x position column of rules.yaml."""
    kind = "reinforcement" if i < 3 else "wn"
    assert actions.action_for(row, kind, actions.COLUMNS[i % 3]) == TABLE_3[row][i]


@pytest.mark.parametrize(("row", "key", "col"), CELLS)
def test_section_3_each_cell_is_the_action_a_position_takes(row: str, key: str, col: str) -> None:
    """omaha 3: a position read from a state lands in the cell the table prints."""
    state = fresh()
    column(state, key, col)
    i = actions.COLUMNS.index(col) + (0 if key == R5 else 3)
    assert actions.position_column(state, key) == col
    assert actions.position_action(state, key, row) == TABLE_3[row][i]


def test_section_3_columns_out_of_communication_and_disrupted() -> None:
    """omaha 3: "Unoccupied In Communication": out of communication an empty position
    takes no action; a position of Disrupted units removes the marker instead."""
    state = fresh()
    state.marks[german.COMM] = []
    assert actions.position_action(state, WN70, "R") == "none"
    state = fresh()
    de(state, "A8a", "2410", status=(DISRUPTED,))
    lines, fires = actions.play(state, WN70, card(action="F"), Dice(1))
    assert not fires and DISRUPTED not in state.map.piece("A8a").status and "instead" in lines[0]


def test_section_3_unoccupied_positions_act_single_or_double() -> None:
    """omaha 3: "Unoccupied positions conducts actions regardless of whether the color
    symbol is single or double"; an occupied one needs Depth for a double (omaha 4)."""
    state = fresh()
    assert actions.acts(state, WN70, card("blue!"))  # unoccupied WN 70 (blue), double
    de(state, "A7a", "2110")
    assert not actions.acts(state, "wn-68", card("green!"))  # occupied, double, no Depth
    assert actions.acts(state, "wn-68", card("green"))
    assert not actions.acts(state, "wn-68", card("red"))  # its colour is not on the card


# ------------------------------------------------------------- row F, O, ★


@pytest.mark.parametrize("row", ["F", "O", "*"])
def test_row_f_o_star_fire_only_at_targets(row: str) -> None:
    """omaha 3, rows F O ★: ∅ unoccupied, ∅ without target, FIRE at US in the field, for
    both kinds of position (FIRE is the omaha 4 fire: ``play`` says the position fires)."""
    for key in (R5, WN70):
        for col, fires in (("unoccupied", False), ("no-target", False), ("target", True)):
            state = fresh()
            column(state, key, col)
            before = state.to_json()
            lines, fired = actions.play(state, key, card(action=row), Dice(1))
            assert fired is fires, (key, col)
            assert ": fire" in lines[0] if fires else ": none" in lines[0]
            state.marks.pop(actions.ACTED)
            assert state.to_json() == before  # nothing else happens


# ------------------------------------------------------------------------ row R


def test_row_r_reinforce_needs_us_within_2_and_vp_or_intense_steady_fire() -> None:
    """omaha 3 row R, unoccupied Reinforcement position: "if within 2 hexes of US units
    REINFORCE"; REINFORCE "if VP position or US units in ● or ⊕ field of fire, place
    Reinforcement + Depth" (project's reading: both conditions)."""
    state = fresh()
    pool(state, "tactical", "T1")
    pool(state, "mobile", "MD1")
    assert "no US unit within 2 hexes" in actions.play(state, R5, card(action="R"), Dice(1))[0][1]
    state = fresh()
    pool(state, "tactical", "T1")
    pool(state, "mobile", "MD1")
    us(state, "B-1-116", "2405")  # 2 hexes off, out of its field; B5 is not a VP position
    assert "not a VP position" in actions.play(state, R5, card(action="R"), Dice(1))[0][1]
    us(state, "F-2-116", "2406")  # intense
    _lines, fires = actions.play(state, R5, card(action="R"), Dice(1))
    t1 = state.map.piece("T1")
    assert not fires and where(state, "T1") == R5 and UNREVEALED in t1.status
    assert german.depth_of(state, t1) is not None and german.depth_of(state, t1).id == "MD1"  # type: ignore[union-attr]


def test_row_r_reinforce_at_a_vp_position_and_from_the_division_pool() -> None:
    """omaha 3 REINFORCE at a VP position (B1, reinforcement-1) with US units within 2
    hexes but out of its field; the Tactical pool empty: the Division pool."""
    state = fresh()
    pool(state, "division", "D1")
    pool(state, "mobile", "MD1")
    us(state, "B-1-116", "2604")  # 2 hexes from 2805, not in its field
    assert board().hex_of("2604") not in german.field(board(), "reinforcement-1")
    actions.play(state, "reinforcement-1", card(action="R"), Dice(1))
    assert where(state, "D1") == "reinforcement-1"


def test_row_r_redeploy_vp_then_lowest_id_then_more_strength() -> None:
    """omaha 3 row R, occupied Reinforcement position, no target: REDEPLOY into another
    unoccupied position of the same sector, in communication, with targets; VP ->
    lowest ID -> more US strength; a unit in a VP position only to a VP position.
    3012 is in the fields of WN 72 (A10, VP), 73, 71, 70 (A8) and 74."""
    state = fresh()
    de(state, "T1", "2407")
    us(state, "A-1-116", "3012")
    actions.play(state, R5, card(action="R"), Dice(1))
    assert where(state, "T1") == "wn-72"  # VP before lower IDs
    state = fresh()
    de(state, "T1", "2407")
    de(state, "A10a", "2811")  # WN 72 occupied: not a destination
    us(state, "A-1-116", "3012")
    actions.play(state, R5, card(action="R"), Dice(1))
    assert where(state, "T1") == "wn-70"  # lowest ID: A8 (A9, A11, A12 follow)
    state = fresh()
    de(state, "T2", "2805")  # reinforcement-1 is a VP position: only to another VP position
    de(state, "A10a", "2811")
    us(state, "A-1-116", "3012")
    assert "nothing" in actions.redeploy(state, "reinforcement-1", Dice(1))[0]
    state = fresh()
    de(state, "T1", "2407")
    state.marks[german.COMM] = [k for k in position_keys(board()) if k != "wn-72"]  # out of communication
    us(state, "A-1-116", "3012")
    actions.play(state, R5, card(action="R"), Dice(1))
    assert where(state, "T1") == "wn-70"


def test_row_r_redeploy_swaps_the_depth_marker_for_the_right_kind() -> None:
    """omaha 3 REDEPLOY: "If possible, swap Depth markers with the pool to have correct
    Building or Mobile marker": a unit with a Mobile marker moving into a WN takes a WN
    Depth marker; with the right pool empty it keeps its own."""
    state = fresh()
    de(state, "T1", "2407", depth="MD1")
    pool(state, "wn", "WD1")
    us(state, "A-1-116", "3012")
    actions.play(state, R5, card(action="R"), Dice(1))
    t1 = state.map.piece("T1")
    assert where(state, "T1") == "wn-72" and german.depth_of(state, t1).id == "WD1"  # type: ignore[union-attr]
    assert [p.id for p in state.box(POOLS["mobile"])] == ["MD1"]
    state = fresh()
    de(state, "T1", "2407", depth="MD1")
    us(state, "A-1-116", "3012")
    lines = actions.redeploy(state, R5, Dice(1))
    assert german.depth_of(state, state.map.piece("T1")).id == "MD1" and "keeps" in lines[-1]  # type: ignore[union-attr]


def test_row_r_resupply_and_fire_even_if_depth_is_required() -> None:
    """omaha 3 row R, occupied Reinforcement position with a target: RE-SUPPLY ("add a
    Depth marker if in communication, even if Depth is required by the action") and
    FIRE: it acts on a double colour without Depth, and fires with the new marker."""
    state = fresh()
    de(state, "T1", "2407")
    us(state, "B-1-116", "2406")
    pool(state, "mobile", "MD1")
    c = card("red!", action="R")
    assert actions.acts(state, R5, c)
    lines, fires = actions.play(state, R5, c, Dice(1))
    assert fires and german.depth_of(state, state.map.piece("T1")) is not None
    assert german.possible_hits(state, R5) == 4  # (1 unit + 1 Depth) x2 in EXT
    state = fresh()
    de(state, "T1", "2407")
    us(state, "B-1-116", "2406")
    pool(state, "mobile", "MD1")
    state.marks[german.COMM] = []
    lines, fires = actions.play(state, R5, c, Dice(1))
    assert fires and german.depth_of(state, state.map.piece("T1")) is None and "not in communication" in lines[1]


def test_row_r_reoccupy_face_up_without_artillery_closest_to_us_first() -> None:
    """omaha 3 row R, unoccupied WN position: RE-OCCUPY "face up with a random previously
    eliminated WN unit(s) without artillery"; "No re-occupation if 1 of a 2 hexes WN is
    occupied by US"; "Re-occupy hexes closest to US units first"."""
    state = fresh()
    g = data.germans().units
    dead = [Piece(i, g[i].type, board().hex_of("0101"), side="german", status=frozenset({DISRUPTED}))
            for i in ("A2a", "A9a")]  # fmt: skip
    state.boxes[GERMAN_DEAD] = dead
    actions.play(state, WN70, card(action="R"), Dice(1))
    a9 = state.map.piece("A9a")
    assert where(state, "A9a") == WN70 and not a9.status  # face up; A2a is an 88: never
    state = fresh()
    state.boxes[GERMAN_DEAD] = [Piece(i, g[i].type, board().hex_of("0101"), side="german") for i in ("A9a", "A1a")]
    us(state, "A-1-116", "2913")  # nearer 2911 than 2811
    actions.reoccupy(state, "wn-72", Dice(1))
    first = next(p for p in state.map.pieces() if p.side == "german" and p.hex == board().hex_of("2911"))
    assert first is not None and len([p for p in state.map.pieces() if p.side == "german"]) == 2
    state = fresh()
    state.boxes[GERMAN_DEAD] = [Piece("A9a", "grenadier", board().hex_of("0101"), side="german")]
    us(state, "A-1-116", "2811")
    assert "no re-occupation" in actions.reoccupy(state, "wn-72", Dice(1))[0]


def test_row_r_wn_no_target_nothing_and_target_fires() -> None:
    """omaha 3 row R, WN position: ∅ without target, FIRE at US units in its field."""
    state = fresh()
    column(state, WN70, "no-target")
    assert actions.play(state, WN70, card(action="R"), Dice(1)) == ([f"{WN70} (no-target), card action R: none (omaha 3)"], False)
    state = fresh()
    column(state, WN70, "target")
    assert actions.play(state, WN70, card(action="R"), Dice(1))[1] is True


# ------------------------------------------------------------------------ row M


def test_row_m_mortar_ranges() -> None:
    """omaha 3 MORTAR: 3 hexes from a Reinforcement position; from a WN 2 toward draw
    and high ground, 5 toward beach hexes and the pavillon next to the beach."""
    state = fresh()
    reach = actions.mortar_hexes(state, WN70)
    b = board()
    assert b.hex_of("2415") not in reach and b.hex_of("2414") in reach  # beach at 4
    assert b.hex_of("2408") in reach and b.hex_of("2407") not in reach  # high ground at 2, 3
    assert b.hex_of("2404") in actions.mortar_hexes(state, R5)
    for h in reach:
        if state.map.terrain_at(h) == "pavillon":
            assert any(state.map.terrain_at(n) == "beach" for n in actions._around(b, h))


def test_row_m_mortar_most_steps_two_units_with_depth() -> None:
    """omaha 3 row M, occupied with no target (Reinforcement and WN): MORTAR, US units
    (most steps) with the matching symbol lose 1 step, up to 2 units with Depth."""
    state = fresh()
    de(state, "A8a", "2410", depth="WD1")
    us(state, "A-1-116", "2011", steps=3)  # beach 4 hexes off, out of its field (no target)
    us(state, "1-A-743", "2711", steps=2)  # a tank on the beach 3 hexes off, out of its field
    lines, fires = actions.play(state, WN70, card(action="M"), Dice(1))
    assert not fires and ": mortar" in lines[0]
    assert {u: state.map.piece(u).steps for u in ("A-1-116", "1-A-743")} == {"A-1-116": 2, "1-A-743": 1}
    state = fresh()
    de(state, "T1", "2407")  # no Depth: 1 unit
    us(state, "A-1-116", "2404", steps=3)
    us(state, "I-3-116", "2405", steps=2)
    us(state, "B-1-116", "2305", steps=3)  # square: not matched by a circle card
    actions.play(state, R5, card(action="M"), Dice(1))
    got = {u: state.map.piece(u).steps for u in ("A-1-116", "I-3-116", "B-1-116")}
    assert got == {"A-1-116": 2, "I-3-116": 2, "B-1-116": 3}
    state = fresh()
    de(state, "T1", "2407", depth="MD1")  # Depth: 2 units
    us(state, "A-1-116", "2404", steps=3)
    us(state, "1-A-743", "2405", steps=2)
    actions.play(state, R5, card(action="M"), Dice(1))
    assert {u: state.map.piece(u).steps for u in ("A-1-116", "1-A-743")} == {"A-1-116": 2, "1-A-743": 1}


def test_row_m_with_targets_fires_and_unoccupied_does_nothing() -> None:
    """omaha 3 row M: ∅ unoccupied, FIRE at US units in the field (both kinds)."""
    for key in (R5, WN70):
        state = fresh()
        assert actions.play(state, key, card(action="M"), Dice(1))[1] is False
        state = fresh()
        column(state, key, "target")
        assert actions.play(state, key, card(action="M"), Dice(1))[1] is True


# ------------------------------------------------------------------------ row P


def test_row_p_patrol_disrupts_every_unit_in_intense_and_steady_never_leaders() -> None:
    """omaha 3 row P, Reinforcement position with US in its field: PATROL, "place a
    Disrupted marker on every US unit in ● and ⊕"; "HQs and Generals are not Disrupted"."""
    state = fresh()
    de(state, "T1", "2407")
    us(state, "A-1-116", "2406")  # intense
    us(state, "I-3-116", "2410")  # steady
    us(state, "116-HQ", "2406")
    us(state, "B-1-116", "1807")  # sporadic: not
    lines, fires = actions.play(state, R5, card(action="P"), Dice(1))
    assert not fires and ": patrol" in lines[0]
    status = {u: DISRUPTED in state.map.piece(u).status for u in ("A-1-116", "I-3-116", "116-HQ", "B-1-116")}
    assert status == {"A-1-116": True, "I-3-116": True, "116-HQ": False, "B-1-116": False}


def test_row_p_patrol_without_targets_one_unit_closest_then_symbol_then_strength() -> None:
    """omaha 3 PATROL: "if none, place a Disrupted marker on 1 unit within 3 hexes,
    closests -> symbol -> attack strength"."""
    state = fresh()
    de(state, "T1", "2407")
    us(state, "B-1-116", "2405", steps=3)  # 2 hexes, square
    us(state, "A-1-116", "2306", steps=1)  # 2 hexes, circle (matches), weaker
    us(state, "I-3-116", "2206", steps=3)  # circle, but 2 hexes too? (2206 is 2 from 2407)
    actions.play(state, R5, card(symbols="circle", action="P"), Dice(1))
    hit = {u for u in ("B-1-116", "A-1-116", "I-3-116") if DISRUPTED in state.map.piece(u).status}
    assert hit == {"I-3-116"}  # closest tie, matching symbol, then the greater strength
    state = fresh()
    de(state, "T1", "2407")
    us(state, "B-1-116", "2405", steps=3)
    us(state, "C-1-116", "2404", steps=3)  # 3 hexes
    actions.play(state, R5, card(symbols="circle", action="P"), Dice(1))
    assert DISRUPTED in state.map.piece("B-1-116").status and DISRUPTED not in state.map.piece("C-1-116").status


def test_row_p_wn_fires_only_at_targets() -> None:
    """omaha 3 row P, WN position: ∅ unoccupied, ∅ no target, FIRE with targets; an
    unoccupied Reinforcement position does nothing."""
    for col, fires in (("unoccupied", False), ("no-target", False), ("target", True)):
        state = fresh()
        column(state, WN70, col)
        assert actions.play(state, WN70, card(action="P"), Dice(1))[1] is fires
    state = fresh()
    assert actions.play(state, R5, card(action="P"), Dice(1))[0][0].endswith("none (omaha 3)")


# ------------------------------------------------------------------------ row A


def test_row_a_ambush_from_an_empty_reinforcement_position() -> None:
    """omaha 3 row A, unoccupied Reinforcement position: "if US in FoF AMBUSH": 1 unit of
    any type with a matching symbol, closest -> more steps; 9.3 Ambush column."""
    state = fresh()
    us(state, "A-1-116", "2410", steps=3)  # steady, 3 hexes
    us(state, "A.B-5R", "2406", steps=2)  # intense, adjacent: closest
    us(state, "B-1-116", "2408")  # adjacent, square: no match
    _lines, fires = actions.play(state, R5, card(action="A"), Dice(1))
    r = state.map.piece("A.B-5R")
    assert not fires and r.steps == 1 and DISRUPTED in r.status and state.map.piece("B-1-116").steps == 3
    state = fresh()
    us(state, "B-1-116", "2405")  # not in its field
    assert "no US unit with a matching symbol" in actions.play(state, R5, card(action="A"), Dice(1))[0][1]


def test_row_a_advance_without_targets_and_advance_or_fire() -> None:
    """omaha 3 row A, occupied Reinforcement position: ADVANCE without targets (marked,
    resolved after the other actions); ADVANCE or FIRE with targets: it fires when no
    unit may advance, it advances when one may (Depth and unrevealed)."""
    state = fresh()
    de(state, "T1", "2407")
    lines, fires = actions.play(state, R5, card(action="A"), Dice(1))
    assert not fires and state.marked(actions.ADVANCING, R5) and "will advance to wn-70" in lines[0]
    state = fresh()
    de(state, "T1", "2407")
    us(state, "B-1-116", "2406")
    lines, fires = actions.play(state, R5, card(action="A"), Dice(1))
    assert fires and not state.marked(actions.ADVANCING, R5)
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))
    us(state, "B-1-116", "2406")
    lines, fires = actions.play(state, R5, card(action="A"), Dice(1))
    assert not fires and state.marked(actions.ADVANCING, R5)


def test_row_a_wn_artillery_as_in_section_5() -> None:
    """omaha 3 row A, occupied WN without target: ARTILLERY, "a position with a 75 or 88
    caliber conducts an Artillery fire, as previously described" (omaha 5: the card's
    calibre counted in the sector against its value; the omaha 5 priority); a WN
    without a gun does nothing."""
    state = fresh()
    de(state, "A12a", "3512")  # WN 74's 75 mm, West sector
    us(state, "A-1-116", "2415", steps=3)  # an infantry unit in a West Beach Landing Box, out of its field
    lines, fires = actions.play(state, "wn-74", card(action="A", calibre=75, artillery_value=1), Dice(1))
    assert not fires and state.map.piece("A-1-116").steps == 2 and "omaha 5" in "\n".join(lines)
    state = fresh()
    de(state, "A12a", "3512")
    us(state, "A-1-116", "2415", steps=3)
    actions.play(state, "wn-74", card(action="A", calibre=75, artillery_value=2), Dice(1))
    assert state.map.piece("A-1-116").steps == 3  # 1 gun < value 2: no fire
    state = fresh()
    column(state, WN70, "no-target")
    lines, _ = actions.play(state, WN70, card(action="A"), Dice(1))
    assert "no undisrupted 75 or 88" in lines[1]


def test_row_a_wn_unoccupied_nothing_target_fires() -> None:
    """omaha 3 row A, WN position: ∅ unoccupied, FIRE at targets."""
    state = fresh()
    assert actions.play(state, WN70, card(action="A"), Dice(1))[1] is False
    state = fresh()
    column(state, WN70, "target")
    assert actions.play(state, WN70, card(action="A"), Dice(1))[1] is True


# --------------------------------------------------------------- ADVANCE, resolved


def test_advance_conditions_judged_unit_by_unit() -> None:
    """omaha 3 ADVANCE: toward an empty or US-held position of its arrows (B5 -> WN 70,
    then WN 68) if there is no US unit in its field of fire, or "the german unit has a
    Depth marker and is unrevealed", or "has a Depth marker and is revealed and is from
    the 352th"."""
    state = fresh()
    de(state, "T1", "2407")
    assert actions.advance_check(state, R5)[0] == "wn-70"
    de(state, "A8a", "2410")
    assert actions.advance_check(state, R5)[0] == "wn-68"  # the next arrow
    us(state, "A-1-116", "2406")  # in its field of fire
    assert actions.advance_check(state, R5)[0] is None
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))  # Depth, unrevealed unit
    us(state, "A-1-116", "2406")
    assert actions.advance_check(state, R5)[0] == "wn-70"
    state = fresh()
    de(state, "T1", "2407", depth="MD1")  # Depth, revealed, 716th: no
    us(state, "A-1-116", "2406")
    assert actions.advance_check(state, R5)[0] is None
    state = fresh()
    de(state, "D1", "2407", depth="MD1")  # Depth, revealed, 352nd: yes
    us(state, "A-1-116", "2406")
    assert actions.advance_check(state, R5)[0] == "wn-70"
    state = fresh()
    de(state, "D1", "2407", depth="MD1")
    de(state, "T1", "2407")  # no Depth: stays behind
    us(state, "A-1-116", "2406")
    units, _ = actions.advancing_units(state, R5)
    assert [u.id for u in units] == ["D1"]


def test_advance_moves_in_pushes_us_units_out_and_costs_a_step() -> None:
    """omaha 3 ADVANCE: below 7 on the route, 1 unit loses a step, units in the
    destination are moved 1 hex out of the route, the Germans advance with their Depth
    (swapped for a WN marker: the right kind for a WN position)."""
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))
    pool(state, "wn", "WD1")
    us(state, "B-1-116", "2410", steps=3)  # square: not Disrupted by a circle card
    actions.advance(state, R5, card(symbols="circle"), Dice(1))
    b = state.map.piece("B-1-116")
    assert where(state, "T1") == WN70
    assert b.steps == 2 and b.hex != board().hex_of("2410")
    assert b.hex not in actions.route(board(), board().hex_of("2407"), board().hex_of("2410"))
    assert german.depth_of(state, state.map.piece("T1")).id == "WD1"  # type: ignore[union-attr]


def test_advance_repulsed_by_7_undisrupted_strength_and_disruption_on_the_route() -> None:
    """omaha 3 ADVANCE: "Disrupt tanks and infantry with matching symbol only and all
    other types"; undisrupted strength on the route (x2 in buildings and bocage) + 1
    for a hero >= 7: repulsed."""
    path = actions.route(board(), board().hex_of("2407"), board().hex_of("2410"))
    first = board().label(path[0])
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))
    us(state, "B-1-116", first, steps=3)
    us(state, "F-2-116", first, steps=3, status=(HERO,))
    lines = actions.advance(state, R5, card(symbols="circle"), Dice(1))
    assert "repulsed" in lines[-1] and where(state, "T1") == R5
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))
    us(state, "B-1-116", first, steps=3)
    us(state, "F-2-116", first, steps=3, status=(HERO,))
    actions.advance(state, R5, card(symbols="square"), Dice(1))  # both Disrupted: no repulse
    assert where(state, "T1") == WN70
    state = fresh()
    de(state, "T1", "2407", depth="MD1", status=(UNREVEALED,))
    us(state, "Can-116", first)  # artillery: "all other types", whatever the symbol
    us(state, "1-A-743", first)  # a tank with no matching symbol: not Disrupted
    actions.advance(state, R5, card(symbols="triangle"), Dice(1))
    assert DISRUPTED in state.map.piece("Can-116").status and DISRUPTED not in state.map.piece("1-A-743").status


def test_advance_is_resolved_after_every_other_action() -> None:
    """omaha 3: "ADVANCE is always resolved after all other german action": the German
    phase of an EXT turn offers the advances only once no position is left to act."""
    from tabletop.games.omaha.ruleset import OmahaRules

    state = fresh()
    state.marks["german-steps"] = ["communication", "card", "event"]
    de(state, "D1", "2407")  # grey, no target: ADVANCE (B5's arrows: WN 70 held, so WN 68)
    de(state, "A8a", "2410")  # blue, no target: ARTILLERY (no gun: nothing)
    de(state, "D3", "2805")  # grey, reinforcement-1, acts after reinforcement-5? no: before
    state.hands[german.CARD] = ["G08"]  # action A; grey and blue single
    rules = OmahaRules()
    seen = []
    for _ in range(40):
        p = rules.proposal(state)
        assert p is not None
        seen.append((p["do"], p.get("position")))
        if p["do"] in ("german-artillery", "german-rally", "end-phase"):
            break
        rules.apply(state, p, Dice(1))
    acted = [i for i, (do, _) in enumerate(seen) if do == "german-action"]
    advanced = [i for i, (do, _) in enumerate(seen) if do == "german-advance"]
    assert ("german-action", R5) in seen and ("german-action", "reinforcement-7") in seen
    assert advanced and min(advanced) > max(acted)
    assert where(state, "D1") == "wn-68"
