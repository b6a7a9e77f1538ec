"""Dogs of War blasts (tabletop.games.dogs_of_war.blasts and blasts.yaml): grenade, mine,
C4 and claymore areas with their rings, the full-auto corridor and grenade deviation.

One hex is one inch. Each test cites the rule heading of dogs_of_war.txt it checks;
figures the text does not give are the project's (marked PROJECT CHOICE in the YAML).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import small_map

from tabletop.engine.areas import friends_inside
from tabletop.engine.pieces import MapState, Piece
from tabletop.games.dogs_of_war.blasts import (
    DATA_FILE,
    MAX_REROLLS,
    Ring,
    blast_area,
    blast_effects,
    c4_area,
    c4_blast,
    can_trigger_claymore,
    claymore_area,
    default_table,
    full_auto_area,
    grenade_deviation,
    load_table,
)
from tabletop.hexgrid import DIRECTIONS, Hex, Layout, distance, rotate
from tabletop.yamlfile import DataError

MAP = """
name: Dogs of War blast ground
rules: dogs_of_war
grid: {orientation: flat, offset: odd-q, columns: 12, rows: 9}
terrain:
  open: {symbol: ".", colour: "#b8b07a"}
default_terrain: open
"""


class Scripted:
    """Dice that roll the given numbers in order."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.rolls.pop(0)


def bands(area: dict[Hex, int]) -> list[tuple[int, int]]:
    return sorted(Counter(area.values()).items())


# --- the table ----------------------------------------------------------------------------


def test_the_shipped_table_loads_and_marks_the_projects_choices() -> None:
    table = default_table()
    # the weapons chart's templates (G1, the project's: mini frag, 40 mm, rocket) beside the text's
    assert set(table.blasts) == {"frag_grenade", "anti_personnel_mine", "mini_frag", "grenade_40mm", "rocket"}
    assert DATA_FILE.read_text(encoding="utf-8").count("PROJECT CHOICE") >= 5


def test_a_frag_grenade_has_dpr_5_4_and_3_in_its_1_2_and_3_inch_rings() -> None:
    # Dogs of War, Grenades: a Blast of 3; DPR 5 in the 1-inch radius, 4 in the 2-inch,
    # 3 in the 3-inch; the 1-inch Kill Zone gives two wound rolls, not one.
    frag = default_table().blast("frag_grenade")
    assert frag.rings == (
        Ring(1, wound_rolls=2, dpr=5),
        Ring(2, wound_rolls=1, dpr=4),
        Ring(3, wound_rolls=1, dpr=3),
    )


def test_a_frag_grenade_area_gives_each_hex_the_dpr_of_its_ring() -> None:
    # Dogs of War, Grenades: the DPR varies with the distance from the explosion.
    frag = default_table().blast("frag_grenade")
    center = Hex(4, 2)
    area = blast_area("frag_grenade", center)
    assert bands(area) == [(0, 7), (1, 12), (2, 18)]
    for h, band in area.items():
        assert frag.ring(band).dpr == {0: 5, 1: 5, 2: 4, 3: 3}[distance(center, h)]
    assert frag.ring(area[center]).wound_rolls == 2
    assert Hex(8, 2) not in area


def test_an_anti_personnel_mine_has_the_frag_grenades_template() -> None:
    # Dogs of War, Available Special Equipment: Anti-Personnel Mines have the same blast
    # template as the M67 fragmentation grenade.
    table = default_table()
    assert table.blast("anti_personnel_mine").rings == table.blast("frag_grenade").rings


def test_an_unknown_blast_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="anti_personnel_mine, frag_grenade"):
        blast_area("mortar", Hex(0, 0))


def test_blast_effects_pair_each_model_with_its_ring_friends_included() -> None:
    # Dogs of War, Grenades: every model in the blast takes the ring's wound rolls,
    # whichever side it is on.
    state = MapState.of(small_map(MAP))
    board = state.board
    for piece_id, label, side in [("thrower", "0205", "us"), ("foe", "0605", "op"), ("buddy", "0805", "us")]:
        state.place(Piece(piece_id, "rifleman", board.hex_of(label), side=side))
    frag = default_table().blast("frag_grenade")
    area = blast_area(frag, board.hex_of("0605"), board=board)
    effects = [(p.id, ring.dpr) for p, ring in blast_effects(state, area, frag)]
    assert effects == [("foe", 5), ("buddy", 4)]
    assert [p.id for p in friends_inside(state, area, "us")] == ["buddy"]


# --- C4 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quarters", "kill", "multiple", "blast"),
    [(1, 2, 3, 4), (2, 3, 4, 6), (3, 4, 5, 8), (4, 5, 6, 10)],
)
def test_c4_follows_the_chart_by_charge_weight(quarters: int, kill: int, multiple: int, blast: int) -> None:
    # Dogs of War, C4 (chart): kill zone, multiple wounds and blast radius by the quarter pound.
    c4 = c4_blast(quarters)
    assert c4.radii == (kill, multiple, blast)
    assert c4.rings[0].killed
    assert c4.rings[1].wound_rolls == 2
    assert c4.rings[2].wound_rolls == 1
    area = c4_area(Hex(0, 0), quarters)
    assert max(distance(Hex(0, 0), h) for h in area) == blast
    assert bands(area)[0] == (0, 1 + 3 * kill * (kill + 1))


def test_c4_over_a_pound_grows_its_kill_zone_not_its_blast() -> None:
    # Dogs of War, C4: over a pound the blast radius stays; the kill zone grows one inch
    # per quarter pound.
    assert c4_blast(5).radii == (6, 10)  # the kill zone has swallowed the multiple-wound ring
    assert c4_blast(6).radii == (7, 10)
    assert c4_blast(20).radii == (10,)  # PROJECT CHOICE: never past the blast radius
    assert c4_blast(20).rings[0].killed


@pytest.mark.parametrize("quarters", [0, -1, True])
def test_a_c4_charge_is_at_least_a_quarter_pound(quarters: int) -> None:
    with pytest.raises(ValueError, match="quarter pounds"):
        c4_blast(quarters)


def test_a_c4_blast_is_clipped_to_the_map() -> None:
    board = small_map(MAP)
    area = c4_area(board.hex_of("0101"), 4, board=board)
    assert all(board.grid.contains(h) for h in area)
    assert len(area) < len(c4_area(board.hex_of("0101"), 4))


# --- claymore -----------------------------------------------------------------------------


def test_a_claymore_kills_to_5_inches_and_wounds_to_10_in_a_cone() -> None:
    # Dogs of War, Claymore: a cone-shaped blast, kill zone to 5 inches, wound zone to 10.
    mine = Hex(0, 0)
    area = claymore_area(mine, 0)
    clay = default_table().claymore.blast
    assert {h for h, b in area.items() if clay.ring(b).killed} == {h for h in area if distance(mine, h) <= 5}
    assert {h for h, b in area.items() if b == 1} == {h for h in area if 6 <= distance(mine, h) <= 10}
    assert clay.ring(1).dpr == 4
    # the cone: straight ahead to 10, nothing behind the mine, nothing past 10
    assert area[DIRECTIONS[0].scale(10)] == 1
    assert DIRECTIONS[0].scale(11) not in area
    assert all(h == mine or distance(h, DIRECTIONS[0]) < distance(h, DIRECTIONS[3]) for h in area)
    # PROJECT CHOICE: a 60-degree fan; its edges run through the diagonal hexes
    assert Hex(10, -5) in area and Hex(5, 5) in area
    assert Hex(10, -6) not in area and Hex(4, 6) not in area


@pytest.mark.parametrize("layout", [Layout("flat"), Layout("pointy")], ids=["flat", "pointy"])
def test_a_claymore_is_the_same_blast_whichever_way_it_faces(layout: Layout) -> None:
    # Dogs of War, Claymore: the mine is placed facing any way.
    mine = Hex(2, -3)
    base = claymore_area(mine, 0, layout=layout)
    for facing in range(6):
        turned = claymore_area(mine, facing, layout=layout)
        assert turned == {rotate(h - mine, facing) + mine: b for h, b in base.items()}
    assert bands(base) == [(0, 1 + 1 + 3 + 3 + 5 + 5), (1, 7 + 7 + 9 + 9 + 11)]  # per inch: 1, 1, 3, 3, 5 ...


def test_the_claymore_wire_reaches_10_inches() -> None:
    # Dogs of War, Claymore: the wire extends up to 10 inches.
    assert can_trigger_claymore(Hex(0, 0), Hex(10, -3))
    assert not can_trigger_claymore(Hex(0, 0), Hex(11, 0))


# --- full auto ----------------------------------------------------------------------------


@pytest.mark.parametrize("layout", [Layout("flat"), Layout("pointy")], ids=["flat", "pointy"])
def test_full_auto_covers_an_inch_and_a_half_each_side_out_to_the_weapons_range(layout: Layout) -> None:
    # Dogs of War, Roll "To Hit" Dice: a three-inch wide corridor of fire; models in
    # front of and behind the target within the weapon's range are subject to it.
    area = full_auto_area(Hex(0, 0), Hex(4, 0), 7, layout=layout)
    assert max(area.values()) == 7
    assert {h for h, d in area.items() if d == 4} == {Hex(4, 0), Hex(4, -1), Hex(3, 1)}
    assert Hex(8, 0) not in area


def test_full_auto_beyond_the_weapons_range_is_refused() -> None:
    with pytest.raises(ValueError, match="beyond the weapon's range"):
        full_auto_area(Hex(0, 0), Hex(9, 0), 8)


def test_full_auto_warns_of_a_friend_beside_the_target() -> None:
    # Dogs of War, Roll "To Hit" Dice: models within an inch and a half of the target
    # model are subject to the fire, friends too.
    state = MapState.of(small_map(MAP))
    board = state.board
    state.place(Piece("gunner", "SAW", board.hex_of("0205"), side="us"))
    state.place(Piece("target", "rifleman", board.hex_of("0805"), side="op"))
    state.place(Piece("buddy", "rifleman", board.hex_of("0804"), side="us"))
    area = full_auto_area(board.hex_of("0205"), board.hex_of("0805"), 10, board=board)
    assert [p.id for p in friends_inside(state, area, "us")] == ["buddy"]


# --- deviation ----------------------------------------------------------------------------


def test_a_deviating_grenade_rolls_a_d10_for_direction_and_a_d6_for_distance() -> None:
    # Dogs of War, Grenades: the D10 gives the direction, the D6 the distance in inches.
    dice = Scripted(3, 5)
    result = grenade_deviation(Hex(0, 0), Hex(12, 0), dice)
    assert dice.asked == [(1, 10), (1, 6)]
    assert result.direction == 2  # PROJECT CHOICE: face 3 is hexside direction 2
    assert result.distance == 5
    assert result.lands == Hex(12, 0) + DIRECTIONS[2].scale(5)


def test_a_grenade_thrown_less_than_ten_inches_deviates_half_the_d6_rounded_up() -> None:
    # Dogs of War, Grenades: under ten inches the D6 is halved (PROJECT CHOICE: rounded up).
    assert grenade_deviation(Hex(0, 0), Hex(9, 0), Scripted(1, 5)).distance == 3
    assert grenade_deviation(Hex(0, 0), Hex(9, 0), Scripted(1, 1)).distance == 1
    assert grenade_deviation(Hex(0, 0), Hex(10, 0), Scripted(1, 5)).distance == 5


def test_d10_faces_7_to_10_are_rolled_again() -> None:
    # PROJECT CHOICE: ten faces onto six hexside directions, evenly.
    result = grenade_deviation(Hex(0, 0), Hex(12, 0), Scripted(7, 10, 6, 2))
    assert result.direction_rolls == (7, 10, 6)
    assert result.direction == 5
    assert result.distance_roll == 2


def test_a_die_that_only_shows_reroll_faces_gives_up() -> None:
    with pytest.raises(ValueError, match="roll again"):
        grenade_deviation(Hex(0, 0), Hex(12, 0), Scripted(*([8] * MAX_REROLLS)))


def test_a_seeded_deviation_is_reproducible_and_reaches_every_direction() -> None:
    runs = [grenade_deviation(Hex(0, 0), Hex(12, 0), random.Random(seed)) for seed in range(60)]
    again = [grenade_deviation(Hex(0, 0), Hex(12, 0), random.Random(seed)) for seed in range(60)]
    assert runs == again
    assert {r.direction for r in runs} == set(range(6))
    assert all(1 <= r.distance <= 6 and distance(r.lands, Hex(12, 0)) == r.distance for r in runs)


# --- a broken table -----------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "blasts.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "{radius: 2, wound_rolls: 1, dpr: 4}",
            "{radius: 1, wound_rolls: 1, dpr: 4}",
            "beyond the ring before",
        ),
        ("same_as: frag_grenade", "same_as: mortar", "not a blast with rings"),
        ("reroll: [7, 8, 9, 10]", "reroll: [8, 9, 10]", "exactly one of"),
        ("half_angle: 30", "half_angle: 180", "below 180"),
        (
            "  inside: centre\n  wound_rolls",
            "  inside: middle\n  wound_rolls",
            "must be one of centre, overlap",
        ),
        ("    2: {kill: 3", "    5: {kill: 3", "expected 2"),
        ("  halve_rounding: up", "  halve_rounding: up\n  colour: red", "unknown key"),
    ],
)
def test_a_broken_table_is_refused_naming_the_file_and_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(DataError, match=message) as caught:
        load_table(path)
    assert caught.value.path == str(path)
    assert caught.value.line is not None
