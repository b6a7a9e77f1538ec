"""The rules of Dogfaces in Space (dogfaces_in_space.txt) as the ruleset plays them:
every soldier's ability of II by name, Leadership, results and the retreat (VI, G-D4),
stun recovery (IV.5), Overwatch inside the enemy's move (V), the LCV and MCV (II
Foxtrot), set-up (III), the turn (IV) and victory (VII).

Grounds are small maps drawn here: on a flat-top odd-q map neighbouring columns of one
row are adjacent, so along row 03 the distance is the difference of the columns.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import small_map

from tabletop.engine.dice import Dice
from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games.dogfaces import ruleset as rs
from tabletop.games.dogfaces.ruleset import DogfacesRules

TERRAIN = """\
terrain:
  grassland: {symbol: ".", colour: "#9cc46a"}
  forest:    {symbol: "F", colour: "#2c6630"}
  water:     {symbol: "~", colour: "#3a78c2"}
  town:      {symbol: "T", colour: "#b3473a"}
  hill:      {symbol: "^", colour: "#a7774a"}
"""
OPEN = [". . . . . . . . . . . ."] * 5
R = DogfacesRules()


def ground(rows: list[str]) -> MapState:
    text = (
        "name: Dogfaces rules ground\nrules: dogfaces\n"
        f"grid: {{orientation: flat, offset: odd-q, columns: {len(rows[0].split())}, rows: {len(rows)}}}\n"
        + TERRAIN
        + "rows: |\n"
        + "".join(f"  {row}\n" for row in rows)
    )
    return MapState.of(small_map(text))


def at(col: int, row: int = 3) -> str:
    return f"{col:02d}{row:02d}"


def make(
    units: list[tuple[str, str, str]], phase: str = "p1-move", rows: list[str] = OPEN, **status: str
) -> GameState:
    """Units (type, side, hex) with ids SIDE-TYPE; blue is Player 1."""
    m = ground(rows)
    for kind, side, label in units:
        ident = f"{side}-{kind}"
        extra = frozenset(status.get(ident.replace("-", "_"), "").split()) - {""}
        attrs = (("rockets", 3),) if kind == "tom" else ()
        m.place(Piece(ident, kind, m.board.hex_of(label), side, status=extra, attributes=attrs))
    return GameState(m, turn=1, phase=phase, tracks={"player1": 0})


def dice(*faces: int) -> Dice:
    return Dice(1, script=list(faces))


def shots(state: GameState, ident: str) -> list[dict]:
    return rs.shots_for(state, state.map.piece(ident))


def label(state: GameState, ident: str) -> str:
    return state.board.label(state.map.piece(ident).hex)


def hit(state: GameState, target: str, result: str, attackers: list[str], *faces: int) -> list[str]:
    hexes = [state.board.hex_of(a) for a in attackers]
    return rs.apply_result(state, state.map.piece(target), result, hexes, dice(*faces))


# --- II: the soldiers, one by one ------------------------------------------------------


def test_default_rifle_range_three() -> None:
    """II: a laser rifle, range 3, 1 damage."""
    s = make([("brett", "blue", at(1)), ("mark", "red", at(4)), ("sam", "red", at(5))])
    assert [a["target"] for a in shots(s, "blue-brett")] == ["red-mark"]


@pytest.mark.parametrize(
    "leader,reach,number", [("andy", 1, 5), ("kyle", 1, 5), ("vic", 1, 5), ("frank", 2, 4), ("paul", 3, 4)]
)
def test_leaders_range_and_recovery_number(leader: str, reach: int, number: int) -> None:
    """II Andy, Kyle, Vic (1 hex, 5-6), Frank (2, 4-6), Paul (3, 4-6): the Benefit reaches
    soldiers within range, the leader included."""
    s = make([(leader, "blue", at(1)), ("mark", "blue", at(1 + reach)), ("sam", "blue", at(2 + reach))])
    assert rs.leader_number(s, s.map.piece("blue-mark")) == number
    assert rs.leader_number(s, s.map.piece(f"blue-{leader}")) == number
    assert rs.leader_number(s, s.map.piece("blue-sam")) is None


def test_only_the_highest_benefit_and_none_from_a_stunned_leader() -> None:
    """II: a soldier within two leaders' range gets only the best Benefit; a Stunned
    leader gives none."""
    s = make([("andy", "blue", at(2)), ("paul", "blue", at(5)), ("mark", "blue", at(3))])
    assert rs.leader_number(s, s.map.piece("blue-mark")) == 4
    s = make([("andy", "blue", at(2)), ("paul", "blue", at(5)), ("mark", "blue", at(3))], blue_paul="stunned")
    assert rs.leader_number(s, s.map.piece("blue-mark")) == 5


def test_brett_moves_three() -> None:
    """II Brett: 3 hexes a turn."""
    s = make([("brett", "blue", at(1)), ("mark", "blue", at(6, 1))])
    far = {a["to"] for a in R.unit_moves(s, s.map.piece("blue-brett")) if a["do"] == "move"}
    assert at(4) in far and at(5) not in far
    near = {a["to"] for a in R.unit_moves(s, s.map.piece("blue-mark")) if a["do"] == "move"}
    assert at(8, 1) in near and at(9, 1) not in near


def test_chuck_adds_one_to_the_roll() -> None:
    """II Chuck: +1 to the roll of any attack he takes part in."""
    s = make([("chuck", "blue", at(1)), ("mark", "red", at(3))])
    strike = rs.strike_of(
        s, s.map.piece("blue-chuck"), rs.weapons_of(s.map.piece("blue-chuck"))[0], s.map.piece("red-mark").hex
    )
    assert strike.sharp


@pytest.mark.parametrize("who", ["dave", "yago"])
def test_slrg_range_four_two_damage_ap(who: str) -> None:
    """II Dave, Yago: the SLRG, range 4, 2 damage, pierces armour."""
    s = make([(who, "blue", at(1)), ("george", "red", at(5)), ("mark", "red", at(6))])
    assert [a["target"] for a in shots(s, f"blue-{who}")] == ["red-george"]
    w = rs.weapons_of(s.map.piece(f"blue-{who}"))[0]
    assert (w.farthest, w.damage, w.kind) == (4, 2, "ap")


def test_ernie_rifle_or_grenade_not_both() -> None:
    """II Ernie: each turn the rifle or a frag grenade (range 2)."""
    s = make([("ernie", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    offered = shots(s, "blue-ernie")
    assert sorted(a["weapon"] for a in offered) == [0, 1]
    R.apply(s, offered[0], dice())
    assert shots(s, "blue-ernie") == []


def test_frag_splash_hits_friend_and_foe_separately_not_george() -> None:
    """II Ernie, VI: the grenade does 1 point to the target and to each soldier around
    it, friend or foe, each a separate 1-point attack; George's suit stops frag."""
    s = make(
        [
            ("ernie", "blue", at(1)),
            ("mark", "red", at(3)),
            ("sam", "red", at(4)),
            ("george", "red", at(2, 2)),
            ("harry", "blue", at(2)),
        ],
        phase="p1-attack",
    )
    R.apply(s, {"do": "shoot", "piece": "blue-ernie", "weapon": 1, "target": "red-mark"}, dice())
    lines = R.apply(s, {"do": "resolve", "side": "blue"}, dice(1, 1, 1, 1, 1, 1))
    text = "\n".join(lines)
    assert "attack on red-mark: 1 point(s)" in text
    assert "splash on red-sam" in text and "splash on blue-harry" in text
    assert "frag splash cannot harm red-george" in text


def test_george_and_nick_suits_absorb_laser_on_five_six() -> None:
    """II George, Nick: laser absorbed on 5-6, AP not."""
    for who in ("george", "nick"):
        s = make([("brett", "blue", at(1)), (who, "red", at(3))], phase="p1-attack")
        R.apply(s, shots(s, "blue-brett")[0], dice())
        lines = R.apply(s, {"do": "resolve", "side": "blue"}, dice(5))
        assert any("suit absorbs 1" in line for line in lines)


def test_harry_shoots_twice_at_one_target() -> None:
    """II Harry: the second shot misses on 1-2 (G-D8: one attack of 2 points, else 1)."""
    s = make([("harry", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    R.apply(s, shots(s, "blue-harry")[0], dice())
    assert any("2 point(s)" in x for x in R.apply(s, {"do": "resolve", "side": "blue"}, dice(3, 1)))
    s = make([("harry", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    R.apply(s, shots(s, "blue-harry")[0], dice())
    assert any("1 point(s)" in x for x in R.apply(s, {"do": "resolve", "side": "blue"}, dice(2, 1)))


def test_inigo_sniper_range_four() -> None:
    """II Inigo: range 4."""
    s = make([("inigo", "blue", at(1)), ("mark", "red", at(5)), ("sam", "red", at(6))])
    assert [a["target"] for a in shots(s, "blue-inigo")] == ["red-mark"]


def test_jack_launcher_two_to_three_never_adjacent() -> None:
    """II Jack: frag or AP grenade at 2-3 hexes; he can't hit an adjacent foe."""
    s = make([("jack", "blue", at(3)), ("mark", "red", at(4)), ("sam", "red", at(6))])
    offered = shots(s, "blue-jack")
    assert {(a["target"], a["weapon"]) for a in offered} == {("red-sam", 0), ("red-sam", 1)}


def test_larry_jet_pack_is_offered() -> None:
    """II Larry: 4-5 hexes in a straight line, across any terrain (water in between)."""
    rows = [". . . . . ."] + [". . ~ . . ."] * 3 + [". . . . . ."]
    s = make([("larry", "blue", at(3, 1))], rows=rows)
    jets = {a["to"] for a in R.unit_moves(s, s.map.piece("blue-larry")) if a["do"] == "jet"}
    assert at(3, 5) in jets and at(3, 3) not in jets
    R.apply(s, {"do": "jet", "piece": "blue-larry", "to": at(3, 5)}, dice())
    assert label(s, "blue-larry") == at(3, 5)


@pytest.mark.parametrize("who", ["mark", "lcv", "mcv"])
def test_mark_and_vehicles_ignore_retreat(who: str) -> None:
    """II Mark, Foxtrot: "retreat" results ignored; R2S on Mark still stuns (VI)."""
    s = make([("brett", "red", at(1)), (who, "blue", at(3))])
    hit(s, f"blue-{who}", "R2S", [at(1)])
    assert label(s, f"blue-{who}") == at(3) and s.map.piece(f"blue-{who}").has("stunned")


def test_oscar_rifle_or_launcher() -> None:
    """II Oscar: rifle or launcher (frag or AP), one a turn."""
    s = make([("oscar", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    assert sorted(a["weapon"] for a in shots(s, "blue-oscar")) == [0, 1, 2]


def test_rocky_is_hard_to_hit() -> None:
    """II Rocky: -1 to the roll of an attack at him."""
    s = make([("brett", "blue", at(1)), ("rocky", "red", at(3))])
    assert rs.target_of(s, s.map.piece("red-rocky")).hard_to_hit


def test_sam_ignores_stun() -> None:
    """II Sam: ignores all Stun results."""
    s = make([("brett", "red", at(1)), ("sam", "blue", at(3))])
    hit(s, "blue-sam", "St", [at(1)])
    assert not s.map.piece("blue-sam").has("stunned")


def test_tom_three_rockets_and_a_pistol() -> None:
    """II Tom: rocket launcher range 2-4, 3 damage, AP, three shots; a laser pistol
    (range 2); one of the two a turn (G-D9)."""
    s = make([("tom", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    assert sorted(a["weapon"] for a in shots(s, "blue-tom")) == [0, 1]
    for left in (2, 1, 0):
        s.marks.pop("shots", None)
        R.apply(s, {"do": "shoot", "piece": "blue-tom", "weapon": 0, "target": "red-mark"}, dice())
        assert shots(s, "blue-tom") == []
        R.apply(s, {"do": "resolve", "side": "blue"}, dice(1, 1, 1, 1))
        if s.where("red-mark") is not None:
            break
        assert s.map.piece("blue-tom").attr("rockets") == left
    s = make([("tom", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    s.map.update(s.map.piece("blue-tom").with_attr("rockets", 0))
    assert [a["weapon"] for a in shots(s, "blue-tom")] == [1]


def test_uriah_heals_adjacent_stunned_soldiers() -> None:
    """II Uriah: a Stunned soldier next to him recovers automatically (no roll)."""
    s = make(
        [("uriah", "blue", at(2)), ("mark", "blue", at(3)), ("sam", "blue", at(6))],
        phase="stun",
        blue_mark="stunned",
        blue_sam="stunned",
    )
    R.apply(s, {"do": "recover"}, dice(1))
    assert not s.map.piece("blue-mark").has("stunned") and s.map.piece("blue-sam").has("stunned")


def test_wally_fires_both_pistols_at_two_targets() -> None:
    """II Wally: two pistols (range 2), both each turn, even at two different targets."""
    s = make([("wally", "blue", at(3)), ("mark", "red", at(5)), ("sam", "red", at(1))], phase="p1-attack")
    R.apply(s, {"do": "shoot", "piece": "blue-wally", "weapon": 0, "target": "red-mark"}, dice())
    assert {(a["weapon"], a["target"]) for a in shots(s, "blue-wally")} == {(1, "red-mark"), (1, "red-sam")}


def test_xavier_is_lucky() -> None:
    """II Xavier: roll twice, use the lower."""
    s = make([("brett", "blue", at(1)), ("xavier", "red", at(3))], phase="p1-attack")
    R.apply(s, shots(s, "blue-brett")[0], dice())
    lines = R.apply(s, {"do": "resolve", "side": "blue"}, dice(6, 1))
    assert any("roll 1: miss" in x for x in lines)


def test_zack_chooses_one_splash_hex_and_cannot_harm_the_mcv() -> None:
    """II Zack: range 2, 2 damage, 1 splash point on one adjacent hex he chooses; cannot
    harm armoured targets (the MCV, G-D10)."""
    s = make(
        [("zack", "blue", at(1)), ("mark", "red", at(3)), ("sam", "red", at(4)), ("mcv", "red", at(2, 2))],
        phase="p1-attack",
    )
    offered = [a for a in shots(s, "blue-zack") if a["target"] == "red-mark"]
    assert len(offered) == 6 and {a["splash"] for a in offered} >= {at(4), at(2)}
    R.apply(
        s, {"do": "shoot", "piece": "blue-zack", "weapon": 0, "target": "red-mark", "splash": at(4)}, dice()
    )
    text = "\n".join(R.apply(s, {"do": "resolve", "side": "blue"}, dice(1, 1)))
    assert "splash on red-sam" in text
    z = make([("zack", "blue", at(1)), ("mcv", "red", at(2))])
    assert (
        rs.combat.odds(
            [
                rs.strike_of(
                    z,
                    z.map.piece("blue-zack"),
                    rs.weapons_of(z.map.piece("blue-zack"))[0],
                    z.map.piece("red-mcv").hex,
                )
            ],
            rs.target_of(z, z.map.piece("red-mcv")),
        )["miss"]
        == 1
    )


# --- Foxtrot ---------------------------------------------------------------------------------


def test_lcv_carries_riders_who_began_aboard_and_stuns_them() -> None:
    """II LCV: speed 4, an SLRG; carries two soldiers who start the turn in its hex;
    they cannot fire or be shot while aboard (G-D13); Stunned with the LCV."""
    s = make([("lcv", "blue", at(1)), ("mark", "blue", at(1)), ("sam", "red", at(3))], phase="p2-move")
    R.begin_phase(s, dice())  # red's phase: nothing aboard for blue
    s.phase = "p1-move"
    R.begin_phase(s, dice())
    assert s.marked("aboard", "blue-mark")
    assert rs.shots_for(s, s.map.piece("blue-mark")) == []
    assert all(a["target"] != "blue-mark" for a in shots(s, "red-sam"))
    R.apply(s, {"do": "move", "piece": "blue-lcv", "to": at(1, 1)}, dice())
    while s.marks.get("path"):
        R.apply(s, R.proposal(s), dice())
    assert label(s, "blue-mark") == at(1, 1)
    hit(s, "blue-lcv", "St", [at(3)])
    assert s.map.piece("blue-mark").has("stunned")


def test_mcv_fires_rail_gun_and_rifle_at_different_targets() -> None:
    """II MCV: a medium rail gun (3 damage, AP) and a rifle, which must fire at a
    different target."""
    s = make([("mcv", "blue", at(1)), ("mark", "red", at(3)), ("sam", "red", at(1, 1))], phase="p1-attack")
    R.apply(s, {"do": "shoot", "piece": "blue-mcv", "weapon": 0, "target": "red-mark"}, dice())
    assert {(a["weapon"], a["target"]) for a in shots(s, "blue-mcv")} == {(1, "red-sam")}


def test_vehicle_strength_minus_one() -> None:
    """II Foxtrot: subtract 1 from the attack strength against a vehicle."""
    s = make([("brett", "blue", at(1)), ("lcv", "red", at(3))])
    assert rs.combat.strength_shift(rs.target_of(s, s.map.piece("red-lcv"))) == -1


# --- VI results and the retreat ----------------------------------------------------------------


def test_retreat_two_away_from_every_attacker() -> None:
    """VI R2 with G-D4: two hexes, each farther from every attacker."""
    s = make([("brett", "red", at(1)), ("mark", "red", at(2, 2)), ("sam", "blue", at(4))])
    hit(s, "blue-sam", "R2", [at(1), at(2, 2)])
    h = s.map.piece("blue-sam").hex
    assert rs.distance(h, s.board.hex_of(at(1))) == 5 and rs.distance(h, s.board.hex_of(at(2, 2))) >= 4


def test_town_makes_retreat_two_retreat_one() -> None:
    """V Town: Retreat 2 becomes Retreat 1."""
    rows = [". . . . . . . . . . . ."] * 2 + [". . . T . . . . . . . ."] + [". . . . . . . . . . . ."] * 2
    s = make([("brett", "red", at(1)), ("sam", "blue", at(4))], rows=rows)
    hit(s, "blue-sam", "R2", [at(1)])
    assert rs.distance(s.map.piece("blue-sam").hex, s.board.hex_of(at(4))) == 1


def test_stunned_soldier_retreating_is_unstunned() -> None:
    """VI: a Stunned soldier who gets Retreat 2 is un-Stunned after he retreats."""
    s = make([("brett", "red", at(1)), ("sam", "blue", at(4))], blue_sam="stunned")
    hit(s, "blue-sam", "R2", [at(1)])
    assert label(s, "blue-sam") != at(4) and not s.map.piece("blue-sam").has("stunned")


def test_leadership_ignores_retreat_on_three_to_six() -> None:
    """II Leadership Benefit: Retreat ignored on 3-6."""
    s = make([("brett", "red", at(1)), ("sam", "blue", at(4)), ("frank", "blue", at(6))])
    hit(s, "blue-sam", "R2", [at(1)], 3)
    assert label(s, "blue-sam") == at(4)
    hit(s, "blue-sam", "R2", [at(1)], 2)
    assert label(s, "blue-sam") != at(4)


def test_blocked_retreat_stuns_then_puts_out() -> None:
    """G-D4 (project's choice): no retreat possible: Stunned; already Stunned: OOC."""
    rows = ["~ ~ ~ ~ ~ ~"] * 2 + [". . . . ~ ~"] + ["~ ~ ~ ~ ~ ~"] * 2
    s = make([("sam", "red", at(2)), ("brett", "blue", at(4))], rows=rows)
    hit(s, "blue-brett", "R2", [at(2)])
    assert s.map.piece("blue-brett").has("stunned")
    hit(s, "blue-brett", "R2", [at(2)])
    assert s.where("blue-brett") == "ooc"


def test_damage_summed_per_target() -> None:
    """VI: the points aimed at one enemy are added into one column: one roll."""
    s = make(
        [("brett", "blue", at(1)), ("dave", "blue", at(2, 2)), ("mark", "red", at(4))], phase="p1-attack"
    )
    for who in ("blue-brett", "blue-dave"):
        R.apply(s, next(a for a in shots(s, who) if a["target"] == "red-mark"), dice())
    lines = R.apply(s, {"do": "resolve", "side": "blue"}, dice(6))
    assert any("3 point(s), column 3, roll 6: OOC" in x for x in lines) and s.where("red-mark") == "ooc"


def test_results_are_recorded_where_they_happen() -> None:
    """Issue 14 item 5 (VI): every result is shown on the map where it happens: the summed
    attack as one fire from both firers' hexes to the target with the Combat Table's
    result in words, and a retreat (VI R2, G-D4) as a move along its path."""
    s = make(
        [("brett", "blue", at(1)), ("dave", "blue", at(2, 2)), ("mark", "red", at(4)), ("sam", "red", at(6))],
        phase="p1-attack",
    )
    declare = dice()
    for who in ("blue-brett", "blue-dave"):
        R.apply(s, next(a for a in shots(s, who) if a["target"] == "red-mark"), declare)
    assert [p["result"] for p in declare.places] == ["red-mark: declared", "red-mark: declared"]
    roll = dice(3)  # 3 points, column 3, roll 3: Stunned (VI table)
    R.apply(s, {"do": "resolve", "side": "blue"}, roll)
    (fire,) = roll.places
    assert fire["kind"] == "fire" and fire["hexes"] == [at(1), at(2, 2), at(4)]
    assert fire["units"] == ["blue-brett", "blue-dave", "red-mark"] and fire["result"] == "red-mark: hit, Stunned"
    s = make([("brett", "red", at(1)), ("sam", "blue", at(4))])
    retreat = dice()
    rs.apply_result(s, s.map.piece("blue-sam"), "R2", [s.board.hex_of(at(1))], retreat)
    (move,) = retreat.places
    assert move["kind"] == "move" and move["hexes"][0] == at(4) and move["hexes"][-1] == label(s, "blue-sam")
    assert len(move["hexes"]) == 3


def test_forest_limits_range_to_two() -> None:
    """V: a shot through any portion of a forest hex has its range limited to 2."""
    rows = [". . . . . . . . . . . ."] * 2 + [". . F . . . . . . . . ."] + [". . . . . . . . . . . ."] * 2
    s = make([("brett", "blue", at(1)), ("mark", "red", at(4))], rows=rows)
    assert shots(s, "blue-brett") == []


# --- IV.5, V Overwatch, VII --------------------------------------------------------------------


def test_stun_recovery_on_six_or_the_leaders_number() -> None:
    """IV.5: a roll of 6, or the leader's number within his range (Frank: 4-6)."""
    s = make(
        [("mark", "blue", at(1)), ("sam", "blue", at(5)), ("frank", "blue", at(7))],
        phase="stun",
        blue_mark="stunned",
        blue_sam="stunned",
    )
    R.apply(s, {"do": "recover"}, dice(5, 4))
    assert s.map.piece("blue-mark").has("stunned") and not s.map.piece("blue-sam").has("stunned")


def overwatch_game() -> Game:
    s = make([("andy", "blue", at(2, 5)), ("brett", "blue", at(3)), ("mark", "red", at(7))], phase="p2-move")
    return Game(R, s, 1)


def test_overwatch_needs_a_leader_and_at_most_two() -> None:
    """V: Overwatch only within a friendly leader's range; 1-2 soldiers (G-D12: 2)."""
    s = make(
        [
            ("andy", "blue", at(2)),
            ("brett", "blue", at(3)),
            ("mark", "blue", at(1)),
            ("sam", "blue", at(6)),
            ("kyle", "blue", at(8)),
        ]
    )
    assert not R.may_overwatch(s, s.map.piece("blue-sam"))
    for who in ("blue-andy", "blue-brett"):
        R.apply(s, {"do": "overwatch", "piece": who}, dice())
    assert not R.may_overwatch(s, s.map.piece("blue-mark"))
    assert not R.unit_moves(s, s.map.piece("blue-brett"))  # in Overwatch he does not move


def test_overwatch_shoots_inside_the_enemy_move_once() -> None:
    """V: an enemy moving into his range is shot during the move, at the hex in range;
    no shot in his next Attack phase; the marker goes when he moves."""
    game = overwatch_game()
    st = game.state
    st.map.update(replace(st.map.piece("blue-brett"), status=frozenset({"overwatch"})))
    game.play({"do": "move", "piece": "red-mark", "to": at(5)})
    assert st.window is not None and st.window["side"] == "blue"
    fire = next(a for a in game.choices("blue") if a["do"] == "overwatch-fire")
    game.roll_by_hand([1])
    game.play(fire)
    assert game.state.marked("ow-fired", "blue-brett")
    while game.proposal() is not None and game.state.phase == "p2-move":
        game.play(game.proposal())
    game.state.phase = "p1-attack"
    assert rs.shots_for(game.state, game.state.map.piece("blue-brett")) == []
    game.state.phase = "p1-move"
    game.state.marks.clear()
    R.apply(game.state, {"do": "move", "piece": "blue-brett", "to": at(3, 2)}, dice())
    assert not game.state.map.piece("blue-brett").has("overwatch")


def test_victory_last_side_standing_and_surrender() -> None:
    """VII: the last player with soldiers on the map wins; a player may surrender."""
    s = make([("brett", "blue", at(1)), ("mark", "red", at(3))])
    assert R.outcome(s) is None
    rs.out_of_combat(s, s.map.piece("red-mark"), [])
    assert R.outcome(s) == "blue wins (red has no soldiers on the map)"
    s = make([("brett", "blue", at(1)), ("mark", "red", at(3))])
    R.apply(s, {"do": "surrender", "side": "blue"}, dice())
    assert R.outcome(s) == "red wins (blue surrendered)"


# --- III set-up and IV turn ------------------------------------------------------------------


@pytest.mark.parametrize("teams,foxtrot,count", [("2", False, 10), ("3", False, 15), ("5", True, 28)])
def test_set_up_same_teams_on_opposite_edges(teams: str, foxtrot: bool, count: int) -> None:
    """III: the same teams for both sides, taken in order, Foxtrot added; each side on
    its own edge, the edge row filled before the next."""
    opened = open_map_or_scenario("dogfaces-platoon")
    game = new_game(
        opened, DogfacesRules(), seed=1, options={"teams": teams, "foxtrot": foxtrot, "edges": "fixed"}
    )
    for side, edge_row in (("blue", 0), ("red", 17)):
        mine = rs.units(game.state, side)
        assert len(mine) == count
        rows = [game.state.board.grid.offset_of(p.hex)[1] for p in mine]
        assert min(abs(r - edge_row) for r in rows) == 0 and max(abs(r - edge_row) for r in rows) <= 1
        assert rows.count(edge_row) == min(count, 24) or count > 24
    assert sorted(p.type for p in rs.units(game.state, "blue")) == sorted(
        p.type for p in rs.units(game.state, "red")
    )


def test_turn_sequence_and_player_one() -> None:
    """IV: Player 1 moves and attacks, then Player 2, stun recovery, victory check."""
    game = new_game(open_map_or_scenario("dogfaces"), DogfacesRules(), seed=3, options={"player1": "red"})
    auto_setup(game)
    assert (game.state.phase, game.actor()) == ("p1-move", "red")
    keys = [p.key for p in DogfacesRules.sequence]
    assert keys == ["p1-move", "p1-attack", "p2-move", "p2-attack", "stun", "victory"]
    game.play({"do": "end-phase"})
    game.play({"do": "resolve", "side": "red"})
    game.play(game.proposal())
    assert (game.state.phase, game.actor()) == ("p2-move", "blue")


def test_tom_both_weapons_option() -> None:
    """II Tom "in addition to a laser pistol": the option gives him both in one turn
    (the project's default reading, G-D9, is one of the two)."""
    s = make([("tom", "blue", at(1)), ("mark", "red", at(3))], phase="p1-attack")
    s.options["tom-both-weapons"] = True
    R.apply(s, {"do": "shoot", "piece": "blue-tom", "weapon": 0, "target": "red-mark"}, dice())
    assert [a["weapon"] for a in shots(s, "blue-tom")] == [1]


def test_window_words_and_drag() -> None:
    """The game box: a soldier's numbers and state (II), the score line (VII), a drag in
    the Movement phase is a move, Larry's drag beyond his walk a jet (II)."""
    s = make(
        [("tom", "blue", at(1)), ("larry", "blue", at(3, 1)), ("mark", "red", at(9))], blue_tom="stunned"
    )
    lines = R.unit_lines(s, s.map.piece("blue-tom"))
    assert "rockets left: 3" in lines and "Stunned" in lines
    assert R.status(s).startswith("blue 2 on the map, 0 out · red 1 on the map")
    assert R.drag_action(s, "blue-tom", at(2), False) == {"do": "move", "piece": "blue-tom", "to": at(2)}
    assert R.drag_action(s, "blue-larry", at(3, 5), False) == {
        "do": "jet",
        "piece": "blue-larry",
        "to": at(3, 5),
    }
    assert R.drag_action(s, "red-mark", at(8), False) is None  # not red's phase
    assert R.describe(s, {"do": "overwatch", "piece": "blue-tom"}) == "blue-tom goes into Overwatch"


def test_edges_by_roll_put_player_one_on_the_first_edge() -> None:
    """G-D3 (project's choice): the roll-off's winner is Player 1 and sets up on the
    scenario's first edge (north), the other side on the second, as turn 1 begins."""
    for seed in (1, 2, 3, 4):
        game = new_game(
            open_map_or_scenario("dogfaces"), DogfacesRules(), seed=seed, options={"edges": "roll"}
        )
        assert rs.units(game.state) == []  # not set up before the roll
        auto_setup(game)
        first = rs.SIDES[game.state.track("player1")]
        rows = {game.state.board.grid.offset_of(p.hex)[1] for p in rs.units(game.state, first)}
        assert rows == {0} and game.actor() == first
