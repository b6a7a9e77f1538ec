"""The Combat Table of Dogfaces in Space (VI) and one attack's arithmetic (combat.py):
all 42 cells, the roll kept within 1..6, the strength shifts, the roll modifiers of II
and V, armour, Harry's double shot, Xavier's luck, and the exact odds against rolls."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tabletop.games.dogfaces import combat
from tabletop.games.dogfaces.combat import Strike, Target, odds, points_distribution, result_of
from tabletop.games.dogfaces.data import roster


def by_sum(column: int, roll: int) -> str:
    """VI's table read as damage + roll (damage capped at 7): <=5 miss, 6 St, 7 R2, 8 R2S, >=9 OOC."""
    total = min(column, 7) + roll
    return "miss" if total <= 5 else {6: "St", 7: "R2", 8: "R2S"}.get(total, "OOC")


@pytest.mark.parametrize("column", range(1, 8))
@pytest.mark.parametrize("roll", range(1, 7))
def test_every_cell_of_the_combat_table(column: int, roll: int) -> None:
    """VI: the 42 cells as printed (roster.yaml) agree with the table's diagonal pattern."""
    assert result_of(column, roll) == by_sum(column, roll)


def test_columns_past_seven_read_seven_plus_and_below_one_no_effect() -> None:
    """VI: the last column is 7+; G-D14: a column shifted below 1 has no effect."""
    assert result_of(12, 1) == result_of(7, 1) == "R2S"
    assert result_of(0, 6) == "miss"


def test_the_modified_roll_stays_within_one_and_six() -> None:
    """VI: an adjusted roll is never lower than 1 or higher than 6."""
    assert combat.roll_distribution(+1, False)[6] == Fraction(2, 6)
    assert combat.roll_distribution(-2, False)[1] == Fraction(3, 6)
    assert set(combat.roll_distribution(-3, True)) <= set(range(1, 7))


def test_strength_shifts_town_and_vehicle() -> None:
    """V: town -1 to the attack strength; II Foxtrot: -1 against a vehicle; both add up."""
    assert combat.strength_shift(Target(terrain="town")) == -1
    assert combat.strength_shift(Target(vehicle=True)) == -1
    assert combat.strength_shift(Target(vehicle=True, terrain="town")) == -2
    one = [Strike(1, "laser")]
    assert odds(one, Target(terrain="town"))["miss"] == 1  # column 0: no effect (G-D14)


def test_roll_modifiers_forest_hill_chuck_rocky() -> None:
    """V: forest -1; hill -1 only when fired from lower ground; II Chuck +1; Rocky -1
    except frag and flame splash."""
    laser = Strike(1, "laser")
    assert combat.roll_modifier([laser], Target(terrain="forest")) == -1
    assert combat.roll_modifier([laser], Target(terrain="hill")) == 0
    assert combat.roll_modifier([Strike(1, "laser", lower=True)], Target(terrain="hill")) == -1
    assert combat.roll_modifier([Strike(1, "laser", sharp=True), laser], Target()) == 1
    assert combat.roll_modifier([laser], Target(hard_to_hit=True)) == -1
    assert combat.roll_modifier([Strike(1, "frag")], Target(hard_to_hit=True)) == 0
    assert combat.roll_modifier([Strike(1, "flame", splash=True)], Target(hard_to_hit=True)) == 0


def test_suit_absorbs_laser_on_five_six_but_not_ap_and_ignores_frag() -> None:
    """II George: laser absorbed on 5-6 (one roll per attack, G-D11); AP always counts;
    frag and flame splash never harm him."""
    suit = Target(suit=True)
    assert points_distribution([Strike(1, "laser"), Strike(1, "laser")], suit) == {
        0: Fraction(1, 3),
        2: Fraction(2, 3),
    }
    assert points_distribution([Strike(2, "ap"), Strike(1, "laser")], suit) == {
        2: Fraction(1, 3),
        3: Fraction(2, 3),
    }
    assert points_distribution([Strike(1, "frag")], suit) == {0: 1}
    assert points_distribution([Strike(1, "flame", splash=True)], suit) == {0: 1}


def test_mcv_is_harmed_only_by_ap() -> None:
    """II MCV: only armour-piercing weapons can harm it (Zack's flame cannot, G-D10)."""
    mcv = Target(ap_only=True, vehicle=True)
    assert points_distribution([Strike(1, "laser"), Strike(2, "flame"), Strike(1, "frag")], mcv) == {0: 1}
    assert points_distribution([Strike(3, "ap")], mcv) == {3: 1}


def test_harrys_second_shot_misses_on_one_two() -> None:
    """II Harry (G-D8): two shots at one target; the second adds a point on 3-6."""
    assert points_distribution([Strike(1, "laser", double=True)], Target()) == {
        2: Fraction(2, 3),
        1: Fraction(1, 3),
    }


def test_xavier_takes_the_lower_of_two_rolls() -> None:
    """II Xavier: P(lower of two dice is 6) = 1/36."""
    assert combat.roll_distribution(0, True)[6] == Fraction(1, 36)
    assert combat.roll_distribution(0, True)[1] == Fraction(11, 36)


def test_three_points_put_out_of_combat_on_a_six() -> None:
    """VI: column 3 gives OOC on a 6 only; column 4 on 5-6."""
    assert odds([Strike(3, "ap")], Target())["OOC"] == Fraction(1, 6)
    assert odds([Strike(2, "ap"), Strike(2, "ap")], Target())["OOC"] == Fraction(2, 6)


@pytest.mark.parametrize(
    ("strikes", "target"),
    [
        ([Strike(1, "laser", double=True), Strike(2, "ap")], Target(suit=True, terrain="forest")),
        ([Strike(1, "laser"), Strike(1, "laser", sharp=True)], Target(lucky=True)),
    ],
)
def test_resolve_matches_the_exact_odds(strikes: list[Strike], target: Target) -> None:
    """The resolver rolled 6000 times lands within 0.03 of ``odds`` for every result."""
    rng = random.Random(7)
    counts = dict.fromkeys(odds(strikes, target), 0)
    n = 6000
    for _ in range(n):
        result, _ = combat.resolve(strikes, target, lambda why: rng.randint(1, 6), "x")
        counts[result] += 1
    for key, p in odds(strikes, target).items():
        assert abs(counts[key] / n - float(p)) < 0.03, key


def test_odds_sum_to_one() -> None:
    assert sum(odds([Strike(1, "laser", double=True)], Target(suit=True, hard_to_hit=True)).values()) == 1


def test_roster_has_25_soldiers_and_foxtrot() -> None:
    """II: 25 soldiers A-Z without Q, and the vehicles lcv and mcv."""
    r = roster()
    names = [k for k, s in r.soldiers.items() if s.team != "foxtrot"]
    assert len(names) == 25 and sorted(n[0] for n in names) == sorted("ABCDEFGHIJKLMNOPRSTUVWXYZ".lower())
    assert r.team("foxtrot") == ["lcv", "lcv", "mcv"]  # II: LCV 1, LCV 2, MCV 1
