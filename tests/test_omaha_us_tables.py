"""D-Day at Omaha Beach part 2, the US tables cell by cell (issue 18 "done when": a test
per cell of 9.4-9.8): 9.4 movement rows, 9.5 barrage, 9.6 German defence and its
prohibitions, 9.7 attack results with reveal-and-resolve-again and the 352nd's
withdrawal, 9.8 weapons by type, range and across a bluff or cliff. The expected cells
are written from the rules text here, not read from the YAML the code plays by.
"""

from __future__ import annotations

import pytest
from omaha_us_helpers import action_phase, german, put

from tabletop.engine.dice import Dice
from tabletop.games.omaha import attacks as atk
from tabletop.games.omaha import barrages, data, us_actions
from tabletop.games.omaha.common import DISRUPTED, GERMAN_DEAD, POOLS
from tabletop.games.omaha.movement import default_rules
from tabletop.games.omaha.usdata import attacks
from tabletop.hexgrid import distance, neighbors

# ------------------------------------------------------------------------ 9.4


@pytest.mark.parametrize(("ground", "infantry", "leaders", "others"), [
    ("beach", "open", "open", "open"), ("buildings", "open", "open", "open"), ("draw", "open", "open", "open"),
    ("high-ground", "open", "open", "open"), ("pavillon", "open", "open", "open"),
    ("bocage", "open", "open", "road"), ("orchard", "open", "open", "road"), ("woods", "open", "open", "road"),
    ("hedge", "open", "open", "road"), ("seawall", "open", "open", "road"), ("slope", "open", "open", "road"),
    ("shingle", "open", "open", "prohibited"), ("anti-tank-ditch", "open", "open", "prohibited"),
    ("wall", "open", "open", "prohibited"), ("bluff", "climb", "open", "road"),
    ("scaleable-cliff", "climb-cliff", "prohibited", "prohibited"), ("rough", "prohibited", "prohibited", "prohibited"),
    ("sheer-cliff", "prohibited", "prohibited", "prohibited"),
])  # fmt: skip
def test_every_9_4_cell(ground: str, infantry: str, leaders: str, others: str) -> None:
    """omaha 9.4, each row by unit class (the movement policy plays movement.yaml)."""
    rules = default_rules()
    row = rules.terrain.get(ground) or rules.hexsides[ground]
    assert (row["infantry"], row["leaders"], row["others"]) == (infantry, leaders, others)


# ------------------------------------------------------------------------ 9.5


@pytest.mark.parametrize(("row", "strength", "result"), [
    ("sym", 1, "none"), ("sym", 2, "none"), ("sym", 3, "disrupted-if-no-depth"), ("sym", 5, "disrupted-if-no-depth"),
    ("sym", 6, "disrupted"),
    ("color", 2, "disrupted-if-no-depth"), ("color", 4, "disrupted"), ("color", 6, "disrupted"),
    ("color+sym", 1, "disrupted"), ("color+sym", 3, "disrupted"), ("color+sym", 8, "disrupted"),
    (None, 8, "none"),
])  # fmt: skip
def test_every_9_5_cell(row: str | None, strength: int, result: str) -> None:
    """omaha 9.5 by row and strength column (reading A3: blank cells take the left one)."""
    assert barrages.barrage_result(row, strength) == result


def test_the_9_5_row_is_what_the_card_shows() -> None:
    """omaha 9.5 (project's reading): sym = the barraging unit's symbol on the card,
    color = the target's colour, both = color + sym."""
    g = action_phase()
    s = g.state
    tank = put(s, "1-A-741", "0512")  # symbol circle
    target = german(s, "A1a", "0511")  # colour red
    by = {c.id: c for c in data.cards().values()}
    for card in by.values():
        sym = card.symbol("circle") is not None
        col = card.colour("red") is not None
        want = "color+sym" if sym and col else "color" if col else "sym" if sym else None
        assert barrages.barrage_row(card, tank, target) == want


# ------------------------------------------------------------------------ 9.6


def _mult(attacker: str, target: str) -> tuple[int, int]:
    s = action_phase().state
    h = s.board.hex_of(target)
    u, d, _ = atk.multipliers(s, h, [s.board.hex_of(attacker)])
    return u, d


@pytest.mark.parametrize(("attacker", "target", "want"), [
    ("0201", "0101", (2, 2)),   # bocage
    ("0406", "0306", (2, 2)),   # buildings
    ("0308", "0408", (2, 2)),   # across a slope
    ("0310", "0311", (2, 2)),   # bluff down: from the top of a bluff (6.2: as a slope)
    ("0311", "0312", (2, 1)),   # shingle
    ("0114", "0113", (1, 1)),   # open beach
])  # fmt: skip
def test_9_6_multipliers_on_the_map(attacker: str, target: str, want: tuple[int, int]) -> None:
    """omaha 9.6: unit and Depth strength multipliers by ground and hexside."""
    assert _mult(attacker, target) == want


@pytest.mark.parametrize(("ground", "want"), [
    ("orchard", [2, 1]), ("woods", [2, 1]), ("bocage", [2, 2]), ("buildings", [2, 2]),
])  # fmt: skip
def test_9_6_terrain_rows(ground: str, want: list[int]) -> None:
    """omaha 9.6, the terrain rows (orchard and woods are not on the shipped map)."""
    assert list(attacks()["defence"]["terrain"][ground]) == want


@pytest.mark.parametrize(("side", "want"), [
    ("anti-tank-ditch", [2, 1]), ("wall", [2, 1]), ("shingle", [2, 1]), ("slope", [2, 2]), ("bluff-down", [2, 2]),
    ("bluff-up", "prohibited"), ("scaleable-cliff", "prohibited"), ("sheer-cliff", "prohibited"),
])  # fmt: skip
def test_9_6_hexside_rows(side: str, want: object) -> None:
    """omaha 9.6, the hexside rows and the prohibitions."""
    got = attacks()["defence"]["hexsides"][side]
    assert (list(got) if isinstance(got, list) else got) == want


@pytest.mark.parametrize(("attacker", "target"), [
    ("0311", "0310"),  # bluff up
    ("0113", "0212"),  # scaleable cliff
    ("3212", "3312"),  # sheer cliff
])  # fmt: skip
def test_9_6_attacks_up_a_bluff_or_across_a_cliff_are_refused(attacker: str, target: str) -> None:
    """omaha 9.6: "Attack prohibited"; the refusal names 9.6."""
    g = action_phase()
    s = g.state
    german(s, "A1a", target)
    put(s, "E-2-16", attacker)
    why = g.refusal({"do": "attack", "target": target, "units": ["E-2-16"]})
    assert why is not None and "omaha 9.6" in why


def test_9_6_heavy_infantry_supports_across_a_bluff() -> None:
    """9.6: heavy infantry may support an attacking infantry across a bluff hexside,
    with the ranged weapons (9.8)."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0310")
    put(s, "E-2-16", "0309")
    heavy = put(s, "A.C-81C", "0311")
    assert atk.weapons_of(s, heavy, s.board.hex_of("0310")) == {"BR", "BZ", "MG", "MO", "RD"}
    assert g.refusal({"do": "attack", "target": "0310", "units": ["E-2-16", "A.C-81C"]}) is None


def test_9_6_the_german_takes_the_least_advantageous_hexside() -> None:
    """omaha 6.2 and reading A7: attacked across a shingle and an open side, x1."""
    s = action_phase().state
    h = s.board.hex_of("0312")
    hexes = [s.board.hex_of("0311"), s.board.hex_of("0412")]
    assert atk.multipliers(s, h, hexes)[:2] == (1, 1)
    assert atk.multipliers(s, h, hexes[:1])[:2] == (2, 1)


# ------------------------------------------------------------------------ 9.7

TEXT_97 = {
    # (weapons met, delta, column): the cell as the text gives it (reading A4)
    (False, "le", "alone"): ("us-disrupted", "add-depth"),
    (False, "le", "hidden"): ("us-disrupted", "unreveal"),
    (False, "le", "revealed"): ("us-disrupted",),
    (False, "gt", "alone"): ("add-depth",),
    (False, "gt", "hidden"): ("us-disrupted",),
    (False, "gt", "revealed"): ("none",),
    (False, "x2", "alone"): ("disrupted",),
    (False, "x2", "hidden"): ("disrupted",),
    (False, "x2", "revealed"): ("disrupted",),
    (True, "lt", "alone"): ("add-depth",),
    (True, "lt", "hidden"): ("us-disrupted",),
    (True, "lt", "revealed"): ("none",),
    (True, "eq", "alone"): ("disrupted",),
    (True, "eq", "hidden"): ("none",),
    (True, "eq", "revealed"): ("disrupted",),
    (True, "gt", "alone"): ("defeated",),
    (True, "gt", "hidden"): ("reveal-again",),
    (True, "gt", "revealed"): ("disrupted", "drop-depth"),
    (True, "x2", "alone"): ("defeated",),
    (True, "x2", "hidden"): ("reveal-again",),
    (True, "x2", "revealed"): ("disrupted", "drop-depth"),
}


@pytest.mark.parametrize("key", sorted(TEXT_97, key=str))
def test_every_9_7_cell(key: tuple[bool, str, str]) -> None:
    """omaha 9.7, every cell of a standard turn."""
    assert atk.cell(*key, ext=False) == TEXT_97[key]


def test_9_7_the_extended_yes_x2_revealed_cell_defeats() -> None:
    """omaha 9.7 "EXT: Defeated - Depth"; the other cells are the same in EXT turns."""
    assert atk.cell(True, "x2", "revealed", ext=True) == ("defeated", "drop-depth")
    assert atk.cell(True, "gt", "revealed", ext=True) == ("disrupted", "drop-depth")


@pytest.mark.parametrize(("us", "ge", "met", "delta"), [
    (3, 3, False, "le"), (2, 3, False, "le"), (4, 3, False, "gt"), (6, 3, False, "x2"),
    (2, 3, True, "lt"), (3, 3, True, "eq"), (5, 3, True, "gt"), (6, 3, True, "x2"), (7, 3, True, "x2"),
])  # fmt: skip
def test_9_7_delta_rows(us: int, ge: int, met: bool, delta: str) -> None:
    """omaha 9.7 Delta: <=, >, x2 without the weapons; <, =, >, x2 with them."""
    assert atk.delta_of(us, ge, met) == delta


def test_9_7_an_attack_that_defeats_eliminates_the_german() -> None:
    """YES > alone: Defeated (eliminated when not of the 352nd)."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0512")  # strength 2, needs BR
    put(s, "E-2-16", "0513")
    put(s, "F-2-16", "0412")
    g.play({"do": "attack", "target": "0512", "units": ["E-2-16", "F-2-16"]})
    assert s.where("A1a") == GERMAN_DEAD
    assert "YES x2, column alone: defeated" in "\n".join(g.log_lines())


def test_9_7_without_the_weapons_the_attackers_are_disrupted_and_the_german_gains_depth() -> None:
    """NO <= alone: US Disrupted + Depth (the Depth from the omaha 2 pools)."""
    g = action_phase()
    s = g.state
    german(s, "A10a", "0711")  # wn-61; strength 4, needs DE BG and FL
    put(s, "E-2-16", "0811", steps=1)
    g.play({"do": "attack", "target": "0711", "units": ["E-2-16"]})
    assert DISRUPTED in s.map.piece("E-2-16").status
    assert s.map.piece("A10a").carrying


def test_9_7_reveal_and_resolve_again() -> None:
    """YES > with a hidden Depth marker: reveal it and resolve again in the revealed
    column, with the marker's strength and weapons (9.7)."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0512", depth="WD1")  # 2 + a Depth of 1, no weapons
    put(s, "E-2-16", "0513")
    put(s, "F-2-16", "0412", steps=1)
    g.play({"do": "attack", "target": "0512", "units": ["E-2-16", "F-2-16"]})
    text = "\n".join(g.log_lines())
    assert "column hidden: reveal-again" in text and "resolve again" in text
    # US 4 against 2 + 1 revealed: YES gt revealed -> Disrupted, Depth removed
    assert "column revealed: disrupted, drop-depth" in text
    assert DISRUPTED in s.map.piece("A1a").status and s.where("WD1") == POOLS["wn"]


def test_9_7_the_352nd_withdraws_when_defeated_in_communication() -> None:
    """omaha 6.2 and 9.7: a defeated 352nd unit in communication goes to the Division
    Reinforcement box; out of communication it is eliminated."""
    for comm, box in ((True, POOLS["division"]), (False, GERMAN_DEAD)):
        g = action_phase()
        s = g.state
        german(s, "D1", "2407")  # reinforcement-5, 352nd, strength 3, needs BR
        s.marks["in-communication"] = ["reinforcement-5"] if comm else []
        put(s, "E-2-16", "2408")
        put(s, "F-2-16", "2507")
        put(s, "G-2-16", "2307")
        s.tracks["actions:west"] = 3
        g.play({"do": "attack", "target": "2407", "units": ["E-2-16", "F-2-16", "G-2-16"]})
        assert s.where("D1") == box


def test_a_german_hex_is_attacked_once_a_phase() -> None:
    """omaha 6.2: no attack twice, nor barrage and attack, in one phase."""
    g = action_phase()
    s = g.state
    german(s, "A10a", "0512")
    put(s, "E-2-16", "0513", steps=1)
    put(s, "F-2-16", "0412")
    g.play({"do": "attack", "target": "0512", "units": ["E-2-16"]})
    why = g.refusal({"do": "attack", "target": "0512", "units": ["F-2-16"]})
    assert why is not None and "omaha 6.2" in why


# ------------------------------------------------------------------------ 9.8


def _line(s: object, target: str, d: int) -> str:
    """A hex at distance d from target along its column, upward (toward the bluffs)."""
    board = s.board  # type: ignore[attr-defined]
    t = board.hex_of(target)
    return next(board.label(h) for h in sorted(board.grid.hexes(), key=board.label)
                if distance(h, t) == d and board.terrain[h] not in ("sea", "rough")
                and not any(board.hexside_features(h, n) for n in neighbors(h) if board.grid.contains(n)))  # fmt: skip


@pytest.mark.parametrize(("uid", "d", "want"), [
    ("E-2-16", 1, {"BG", "BR", "BZ", "DE", "MO"}), ("E-2-16", 2, set()),
    ("A.B-2R", 1, {"BG", "BR", "BZ", "DE", "MO"}),
    ("A.C-81C", 1, {"BG", "BR", "BZ", "DE", "MO", "MG"}), ("A.C-81C", 2, {"BR", "BZ", "MG", "MO", "RD"}),
    ("A.C-81C", 3, {"BR", "BZ", "MG", "MO", "RD"}), ("A.C-81C", 4, set()),
    ("1-A-741", 1, {"AR", "BZ", "BR", "MG"}), ("1-A-741", 3, {"AR", "BZ", "BR", "MG"}),
    ("1-A-741", 4, {"AR", "BZ"}), ("1-A-741", 5, {"AR", "BZ"}), ("1-A-741", 6, set()),
    ("1.2-397", 2, {"BR", "MG"}), ("1.2-397", 4, set()),
    ("AT-16", 3, {"AR", "BZ"}), ("AT-16", 4, set()),
    ("62AFA", 1, set()), ("62AFA", 2, {"AR", "DE", "MO"}), ("62AFA", 6, {"AR", "DE", "MO"}), ("62AFA", 7, set()),
])  # fmt: skip
def test_9_8_weapons_by_type_and_range(uid: str, d: int, want: set[str]) -> None:
    """omaha 9.8: each type's weapons, by range (gap G4 ranges)."""
    s = action_phase().state
    target = "1405"
    german(s, "A1a", target)
    unit = put(s, uid, _line(s, target, d))
    assert set(atk.weapons_of(s, unit, s.board.hex_of(target))) == want


def test_9_8_across_a_bluff_only_ranged_weapons() -> None:
    """omaha 9.8: fire across a bluff or cliff hexside allows BR BZ MG MO RD only."""
    s = action_phase().state
    german(s, "A1a", "0310")
    tank = put(s, "1-A-741", "0311")  # below the bluff
    assert set(atk.weapons_of(s, tank, s.board.hex_of("0310"))) == {"BR", "BZ", "MG"}


def test_9_8_radio_infantry_in_command_of_an_hq_and_the_hq_row() -> None:
    """omaha 6.2 RD: an infantry in command of an HQ attacking from an adjacent hex has
    a radio; 9.8 gives HQs RD and the naval marker AR DE NA."""
    s = action_phase().state
    german(s, "A1a", "0512")
    inf = put(s, "E-2-16", "0513")
    assert "RD" not in atk.weapons_of(s, inf, s.board.hex_of("0512"))
    put(s, "16-HQ", "0514")
    assert "RD" in atk.weapons_of(s, inf, s.board.hex_of("0512"))
    assert attacks()["weapons"]["hq"]["weapons"] == ["RD"]
    assert set(attacks()["weapons"]["naval"]["weapons"]) == {"AR", "DE", "NA"}


def test_naval_fire_gives_its_weapons_or_plus_9() -> None:
    """omaha 6.2: naval fire (an attacking infantry with a radio or in command of an HQ)
    gives NA AR DE, or +9."""
    g = action_phase()
    s = g.state
    german(s, "A2a", "0512")  # needs DE
    put(s, "E-2-16", "0513")
    put(s, "16-HQ", "0514")
    units = [s.map.piece("E-2-16")]
    plain = atk.assess(s, s.board.hex_of("0512"), units)
    naval = atk.assess(s, s.board.hex_of("0512"), units, naval=True)
    assert plain.met and naval.naval == "+9" and naval.strength == plain.strength + 9
    german(s, "A10b", "0512")  # + needs BZ: infantry has it; AR missing? no: add an AR need via a unit
    s.marks["in-communication"] = []
    assert us_actions.refusal(s, {"do": "attack", "target": "0512", "units": ["E-2-16"], "naval": True}) is None


def test_barrage_with_dice_disrupts_by_the_card() -> None:
    """omaha 6.3 and 9.5 played: a card is drawn and the cell applied to each unit."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0510")
    put(s, "1-A-741", "0512")
    put(s, "E-2-16", "0511")  # infantry in the field? the tank's own field decides below
    lines = barrages.barrage(s, s.map.piece("1-A-741"), s.board.hex_of("0510"), Dice(3), "test")
    assert "9.5 row" in "\n".join(lines)
