"""DOG SECTOR phase 4 (German trench fire, Table 4) and what a hit does (hits.yaml).

States are built on the shipped map, maps/dog-sector.yaml (sections of five columns;
row 12-13 trenches; row 8 beach next to the bluffs; rows 9-11 bluffs and draws). Dice
are scripted, so each Table 4 row is checked face by face.
"""

from __future__ import annotations

from functools import cache

import pytest

from tabletop.board import Map, load_map
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import german, hits
from tabletop.hexgrid import distance


@cache
def board() -> Map:
    return load_map("dog-sector")


def fresh() -> GameState:
    return GameState(MapState.of(board()), turn=1, phase="german-fire")


def put(state: GameState, pid: str, kind: str, label: str, side: str = "american", steps: int = 0) -> Piece:
    piece = Piece(pid, kind, board().hex_of(label), side=side)
    piece = Piece(pid, kind, piece.hex, side=side, steps=steps or hits.full_steps(piece))
    state.map.place(piece)
    return piece


def legal(state: GameState, gid: str) -> list[str]:
    return [p.id for p in german.legal_targets(state, gid)]


def reason(state: GameState, gid: str, tid: str) -> str:
    why = dict((p.id, w) for p, w in german.target_reasons(state, gid))[tid]
    assert why is not None
    return why


def test_the_hexes_these_tests_use_are_what_their_names_say() -> None:
    b = board()
    terrain = {
        label: b.terrain[b.hex_of(label)] for label in ("0212", "0312", "0211", "0313", "0213", "0408")
    }
    assert terrain == {"0212": "trench", "0312": "draw", "0211": "bluff", "0313": "hilltop",
                       "0213": "trench", "0408": "beach"}  # fmt: skip
    for label in ("0312", "0211", "0313", "0213"):
        assert distance(b.hex_of("0212"), b.hex_of(label)) == 1


# ------------------------------------------------------------------------- Table 4


@pytest.mark.parametrize(("face", "result"), [(1, "miss"), (4, "miss"), (5, "pinned"), (6, "hit")])
def test_table_4_german_infantry_not_adjacent(face: int, result: str) -> None:
    """Table 4, infantry squad: 1-4 miss, 5 pinned down, 6 hit (target not adjacent)."""
    s = fresh()
    put(s, "G1", "infantry", "0412", "german")
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "ce-team", "0405")
    dice = Dice(0, script=[face])
    lines = german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome == result
    a1, a2 = s.map.piece("A1"), s.map.piece("A2")
    assert a1.has("pinned") == a2.has("pinned") == (result == "pinned")
    assert a1.steps == (1 if result == "hit" else 2)
    assert s.marked("german-fired", "G1")
    assert any(result in line for line in lines)


@pytest.mark.parametrize(("face", "result"), [(3, "miss"), (4, "pinned"), (5, "hit"), (6, "hit")])
def test_table_4_german_infantry_adds_one_to_the_die_when_adjacent(face: int, result: str) -> None:
    """Table 4 (*): +1 to the die roll if adjacent to the target; a 6+1 still hits."""
    s = fresh()
    put(s, "G1", "infantry", "0212", "german")
    put(s, "A1", "infantry", "0211")  # a bluff hex: targeted only from an adjacent hex
    dice = Dice(0, script=[face])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome == f"+1 adjacent = {face + 1}, {result}"


@pytest.mark.parametrize(
    ("face", "result"), [(1, "miss"), (2, "miss"), (3, "pinned"), (4, "pinned"), (5, "hit"), (6, "hit")]
)
def test_table_4_mg_pillbox(face: int, result: str) -> None:
    """Table 4, MG pillbox: 1-2 miss, 3-4 pinned down, 5-6 hit."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    put(s, "A1", "infantry", "0405")
    dice = Dice(0, script=[face])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome == result


@pytest.mark.parametrize(("face", "result"), [(1, "miss"), (4, "miss"), (5, "hit"), (6, "hit")])
def test_table_4_panzerfaust(face: int, result: str) -> None:
    """Table 4, panzerfaust: 1-4 miss, 5-6 hit; a hit immobilizes a tank (hits.yaml)."""
    s = fresh()
    put(s, "G1", "panzerfaust", "0412", "german")
    put(s, "A1", "tank", "0405")
    dice = Dice(0, script=[face])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome == result
    assert s.map.piece("A1").has("immobilized") == (result == "hit")


@pytest.mark.parametrize(("face", "result"), [(1, "miss"), (5, "miss"), (6, "hit")])
def test_table_4_at_gun_beyond_10_hexes(face: int, result: str) -> None:
    """Table 4, AT gun: 1-5 miss, 6 hit (target 11 hexes away)."""
    s = fresh()
    put(s, "G1", "at-gun", "0112", "german")
    put(s, "A1", "tank", "0101")
    assert distance(board().hex_of("0112"), board().hex_of("0101")) == 11
    dice = Dice(0, script=[face])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome == result


@pytest.mark.parametrize(("face", "result"), [(1, "miss"), (4, "miss"), (5, "hit"), (6, "hit")])
def test_table_4_at_gun_within_10_hexes(face: int, result: str) -> None:
    """Table 4, AT gun bonus if the target is within 10 hexes: 1-4 miss, 5-6 hit."""
    s = fresh()
    put(s, "G1", "at-gun", "0112", "german")
    put(s, "A1", "tank", "0102")
    dice = Dice(0, script=[face])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].outcome.startswith(result)
    assert "within 10 hexes" in dice.log[0].outcome


def test_a_roll_is_logged_with_its_purpose_in_map_labels() -> None:
    """Every roll says who fires at what, where (phase 4)."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    put(s, "A1", "infantry", "0405")
    dice = Dice(0, script=[1])
    german.fire(s, "G1", "A1", dice)
    assert dice.log[0].purpose == "phase 4: MG pillbox G1 at 0412 fires at infantry A1 in 0405 (range 7)"


def test_a_unit_that_has_fired_may_not_fire_again_this_turn() -> None:
    """Phase 4: each German unit fires once a turn."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    put(s, "A1", "infantry", "0405")
    german.fire(s, "G1", "A1", Dice(0, script=[1]))
    with pytest.raises(ValueError, match="already fired"):
        german.fire(s, "G1", "A1", Dice(0, script=[1]))


def test_fire_at_an_illegal_target_is_refused_with_the_reason() -> None:
    """Phase 4: an illegal target is refused and nothing is rolled."""
    s = fresh()
    put(s, "G1", "infantry", "0412", "german")
    put(s, "A1", "infantry", "0408")
    dice = Dice(0, script=[6])
    with pytest.raises(ValueError, match="only from an adjacent hex"):
        german.fire(s, "G1", "A1", dice)
    assert not dice.log


# ---------------------------------------------------------- phase 4 targeting rules


def test_the_target_must_be_in_the_same_or_an_adjacent_section() -> None:
    """Phase 4: target in the same or adjacent map section."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")  # section 1
    put(s, "A1", "infantry", "0405")  # section 1
    put(s, "A2", "infantry", "0805")  # section 2
    put(s, "A3", "infantry", "1205")  # section 3
    assert legal(s, "G1") == ["A1", "A2"]
    assert "same or an adjacent section" in reason(s, "G1", "A3")


@pytest.mark.parametrize(
    ("far", "near", "what"),
    [("0310", "0312", "draw"), ("0209", "0211", "bluff"), ("0213", "0213", "trench")],
)
def test_draw_bluff_and_trench_hexes_are_targeted_only_from_an_adjacent_hex(
    far: str, near: str, what: str
) -> None:
    """Phase 4: draw, trench and bluff hexes cannot be targeted unless adjacent."""
    s = fresh()
    put(s, "G1", "infantry", "0212", "german")
    put(s, "G2", "infantry", "0412", "german")  # 2 hexes from 0213
    put(s, "A1", "infantry", far)
    if near != far:
        put(s, "A2", "infantry", near)
        assert legal(s, "G1") == ["A2"]
        assert f"{what} hex {far} can be targeted only from an adjacent hex" in reason(s, "G1", "A1")
    else:
        assert legal(s, "G1") == ["A1"]
        assert legal(s, "G2") == []
        assert "only from an adjacent hex" in reason(s, "G2", "A1")


def test_a_beach_hex_next_to_the_bluffs_is_targeted_only_from_an_adjacent_hex() -> None:
    """Phase 4: beach hexes adjacent to bluffs cannot be targeted unless adjacent."""
    s = fresh()
    put(s, "G1", "at-gun", "0412", "german")
    put(s, "A1", "tank", "0408")
    put(s, "A2", "tank", "0407")
    assert legal(s, "G1") == ["A2"]
    assert "beach hex 0408 next to bluff" in reason(s, "G1", "A1")


def test_a_unit_reduced_immobilized_or_pinned_this_turn_cannot_be_targeted_again() -> None:
    """Phase 4: reduced, immobilized and pinned down units cannot be targeted again in the
    same turn (the per-turn `targeted` mark, and the pinned status)."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "tank", "0406")
    put(s, "A3", "infantry", "0705")
    put(s, "A4", "ce-team", "0105")
    hits.hit(s, "A1", "test")  # reduced this turn
    hits.hit(s, "A2", "test")  # immobilized this turn
    hits.pin(s, board().hex_of("0705"), "test")
    assert legal(s, "G1") == ["A4"]
    for tid in ("A1", "A2", "A3"):
        assert "cannot be targeted again" in reason(s, "G1", tid)


def test_a_unit_reduced_in_an_earlier_turn_may_be_targeted_again() -> None:
    """Phase 4, project's reading: the limit lasts the turn; a unit reduced or immobilized
    in an earlier turn (no `targeted` mark now) is a legal target."""
    s = fresh()
    put(s, "G1", "panzerfaust", "0412", "german")
    put(s, "A1", "infantry", "0405", steps=1)
    put(s, "A2", "tank", "0705")
    s.map.update(
        Piece("A2", "tank", board().hex_of("0705"), side="american", status=frozenset({"immobilized"}))
    )
    assert legal(s, "G1") == ["A1", "A2"]


def test_infantry_and_mg_cannot_target_a_tank_hex_nor_the_hex_behind_it() -> None:
    """Phase 4: infantry and MG pillboxes cannot target tank/dozer hexes or the hex
    directly behind them; a panzerfaust or AT gun can."""
    s = fresh()
    for gid, kind in (("G1", "infantry"), ("G2", "mg-pillbox"), ("G3", "panzerfaust")):
        put(s, gid, kind, {"G1": "0412", "G2": "0413", "G3": "0512"}[gid], "german")
    put(s, "A1", "infantry", "0406")
    put(s, "A2", "dozer", "0406")
    put(s, "A3", "infantry", "0405")  # behind the dozer, seen down column 4 from 0412
    assert legal(s, "G1") == []
    assert "cannot target a hex holding a dozer" in reason(s, "G1", "A1")
    assert "directly behind a dozer" in reason(s, "G1", "A3")
    assert legal(s, "G2") == []
    assert set(legal(s, "G3")) == {"A1", "A2", "A3"}


def test_at_guns_and_mg_pillboxes_cannot_target_trench_or_hilltop_hexes() -> None:
    """Phase 4: AT guns and MG pillboxes cannot target trench and hilltop hexes, even
    adjacent; infantry can."""
    s = fresh()
    put(s, "G1", "at-gun", "0212", "german")
    put(s, "A1", "infantry", "0313")  # hilltop, adjacent
    put(s, "A2", "infantry", "0213")  # trench, adjacent
    assert legal(s, "G1") == []
    assert "cannot target hilltop hex 0313" in reason(s, "G1", "A1")
    assert "cannot target trench hex 0213" in reason(s, "G1", "A2")
    s.map.remove("G1")
    put(s, "G2", "mg-pillbox", "0212", "german")
    assert legal(s, "G2") == []
    s.map.remove("G2")
    put(s, "G3", "infantry", "0212", "german")
    assert legal(s, "G3") == ["A2", "A1"]  # label order: 0213, 0313


# ------------------------------------------------------------------ the priority rule


def test_the_nearest_legal_target_is_chosen_and_the_why_names_the_others() -> None:
    """Phase 4 (project's choice): nearest legal target first."""
    s = fresh()
    put(s, "G1", "at-gun", "0412", "german")
    put(s, "A1", "tank", "0405")  # range 7
    put(s, "A2", "infantry", "0407")  # range 5
    target, why = german.choose_target(s, "G1")
    assert target is not None and target.id == "A2"
    assert why == "nearest legal target (range 5); 1 farther: tank A1 at 0405"


def test_at_the_same_range_an_at_gun_prefers_a_tank() -> None:
    """Phase 4 (project's choice): among the nearest, the type the roll hurts most."""
    s = fresh()
    put(s, "G1", "at-gun", "0412", "german")
    put(s, "A1", "infantry", "0106")  # range 8
    put(s, "A2", "tank", "0706")  # range 8
    target, why = german.choose_target(s, "G1")
    assert target is not None and target.id == "A2"
    assert "tank/dozer is the AT gun's first choice over infantry A1 at 0106" in why


def test_at_the_same_range_and_type_the_fullest_hex_is_chosen_then_the_lowest_label() -> None:
    """Phase 4 (project's choice): then the hex with most American units, then label."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    put(s, "A1", "infantry", "0105")  # range 9, alone
    put(s, "A2", "infantry", "0705")  # range 9, with a CE team
    put(s, "A3", "ce-team", "0705")
    target, why = german.choose_target(s, "G1")
    assert target is not None and target.id == "A2"
    assert "holds the most American units (2)" in why
    s.map.remove("A3")
    target, why = german.choose_target(s, "G1")
    assert target is not None and target.id == "A1"
    assert "lowest hex label" in why


def test_no_legal_target_means_none() -> None:
    """Phase 4: a German unit with no legal target holds fire."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0412", "german")
    assert german.choose_target(s, "G1") == (None, "no legal target")
    assert german.hold_fire(s, "G1", "no legal target") == [
        "MG pillbox G1 at 0412 holds fire: no legal target"
    ]
    assert s.marked("german-fired", "G1")


def test_the_firing_order_is_by_section_then_label_then_id() -> None:
    """Phase 4 (project's choice): section 1 to 6, then hex label, then id."""
    s = fresh()
    put(s, "G3", "infantry", "2812", "german")  # section 6
    put(s, "G2", "infantry", "0412", "german")  # section 1
    put(s, "G1", "mg-pillbox", "0612", "german")  # section 2
    put(s, "G0", "at-gun", "0212", "german")  # section 1
    assert [p.id for p in german.firing_order(s)] == ["G0", "G2", "G1", "G3"]


# ----------------------------------------------------------------------- hits.yaml


def test_american_infantry_has_two_steps() -> None:
    """hits.yaml: American infantry full -> reduced -> eliminated; marked targeted."""
    s = fresh()
    put(s, "A1", "infantry", "0405")
    assert not hits.is_reduced(s.map.piece("A1"))
    hits.hit(s, "A1", "test")
    assert s.map.piece("A1").steps == 1 and hits.is_reduced(s.map.piece("A1"))
    assert s.marked("targeted", "A1")
    hits.hit(s, "A1", "test")
    assert s.where("A1") == "dead"


@pytest.mark.parametrize("kind", ["tank", "dozer"])
def test_a_tank_or_dozer_is_immobilized_then_eliminated(kind: str) -> None:
    """hits.yaml (project's choice): hit -> immobilized; hit when immobilized -> eliminated."""
    s = fresh()
    put(s, "A1", kind, "0405")
    assert hits.hit(s, "A1", "x") == [f"american {kind} A1 at 0405 is immobilized (x)"]
    assert s.map.piece("A1").has("immobilized") and s.marked("targeted", "A1")
    hits.hit(s, "A1", "x")
    assert s.where("A1") == "dead"


@pytest.mark.parametrize(
    ("side", "kind"),
    [("american", t) for t in ("sharpshooter", "forward-observer", "ce-team", "flamethrower", "bazooka",
                                "exceptional-leader")]
    + [("german", t) for t in ("mg-pillbox", "at-gun", "panzerfaust")],
)  # fmt: skip
def test_one_step_units_are_eliminated_by_one_hit(side: str, kind: str) -> None:
    """hits.yaml (project's choice): other American types and German MG pillboxes, AT
    guns and panzerfausts are eliminated by one hit."""
    s = fresh()
    put(s, "U1", kind, "0412" if side == "german" else "0405", side)
    hits.hit(s, "U1", "x")
    assert s.where("U1") == "dead"
    assert not s.marked("targeted", "U1")


def test_german_infantry_has_two_steps() -> None:
    """hits.yaml (project's choice, from phase 6 "If a target is reduced"): German
    infantry is reduced by a first hit."""
    s = fresh()
    put(s, "G1", "infantry", "0412", "german")
    hits.hit(s, "G1", "x")
    assert s.map.piece("G1").steps == 1
    hits.hit(s, "G1", "x")
    assert s.where("G1") == "dead"


def test_pin_pins_every_american_unit_in_the_hex() -> None:
    """Table 4 "Pinned Down": every American unit in the hex is pinned and targeted."""
    s = fresh()
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "tank", "0405")
    put(s, "A3", "infantry", "0406")
    lines = hits.pin(s, board().hex_of("0405"), "x")
    assert lines == ["0405 is pinned down: infantry A1, tank A2 (x)"]
    assert s.map.piece("A1").has("pinned") and s.map.piece("A2").has("pinned")
    assert not s.map.piece("A3").has("pinned")
    assert s.marks["targeted"] == ["A1", "A2"]
