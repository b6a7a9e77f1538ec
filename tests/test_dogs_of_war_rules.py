"""Dogs of War rules as the engine plays them (ruleset.py, combat.py): initiative,
alternating activations, the AP economy, to-hit, armour, wounds, bleeding, op-fire as a
reaction, the priority-target rule, morale and surrender, and the sim. Each test cites
the heading and line of ../shared/rules/dogs_of_war.txt it checks."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tabletop.engine.actions import END_PHASE
from tabletop.engine.game import PASS, Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import Piece
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games.dogs_of_war import combat
from tabletop.games.dogs_of_war.data import data
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, active, models


class Faces:
    """Dice that show the faces given, in order (and record what they were for)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[str] = []

    def d10(self, purpose: str = "") -> int:
        self.asked.append(purpose)
        return self.faces.pop(0)

    def roll(self, n: int, sides: int, purpose: str = "") -> tuple[int, ...]:
        return tuple(self.d10(purpose) for _ in range(n))


def set_up(g: Game) -> None:
    """Play Crossroads' set-up rolls (l.181): the winner keeps his own edge (blue north,
    red south) and places first; then the start of turn 1 up to the initiative choice."""
    g.run()
    for _ in range(2):
        side = g.actor()
        if side is None or not g.choices(side) or g.choices(side)[0]["do"] not in ("edge", "place-first"):
            break
        g.play(g.choices(side)[0])
        g.run()


def game(seed: int = 3) -> Game:
    opened = open_map_or_scenario("dogs-of-war")
    g = new_game(opened, DogsOfWarRules(), seed=seed)
    g.use_seeded_dice()
    auto_setup(g)
    set_up(g)  # the set-up rolls, the start of turn 1 (upkeep, initiative) up to the winner's choice
    g.play({"do": "first", "side": g.actor()})  # the winner goes first
    g.run()
    return g


def put(state: GameState, piece_id: str, label: str, **changes: object) -> Piece:
    p = state.map.piece(piece_id)
    state.map.move(p.id, state.board.hex_of(label))
    p = replace(state.map.piece(p.id), **changes)  # type: ignore[arg-type]
    state.map.update(p)
    return p


def two_scouts(state: GameState, red_at: str, **red_changes: object) -> tuple[Piece, Piece]:
    """Blue's scout alone in 2420 against red's scout at ``red_at`` (the others aside):
    the two models as found, before they were moved."""
    blue = next(p for p in models(state, "blue") if p.type == "scout")
    red = next(p for p in models(state, "red") if p.type == "scout")
    clear_field(state, {blue.id, red.id})
    put(state, blue.id, "2420")
    put(state, red.id, red_at, **red_changes)
    return blue, red


def clear_field(state: GameState, keep: set[str]) -> None:
    """Leave only the models named (the others to a box) for a test of two or three."""
    for p in models(state):
        if p.id not in keep:
            state.to_box(p.id, "aside")


def test_the_scenario_deploys_both_rosters_in_their_set_up_zones() -> None:
    # SETTING UP THE BATTLEFIELD l.181: opposite table edges, 6 inches deep
    g = game()
    state = g.state
    blue, red = models(state, "blue"), models(state, "red")
    assert len(blue) == 4 and len(red) == 8
    north, south = state.board.regions["setup-north"].hexes, state.board.regions["setup-south"].hexes
    assert all(p.hex in north for p in blue) and all(p.hex in south for p in red)
    assert all(p.attr("ap") == 10 for p in blue + red)  # ACTION POINTS l.191


def test_initiative_is_d10_minus_the_leaders_cc_and_the_lowest_wins() -> None:
    # INITIATIVE AND TURN SEQUENCE l.187: blue (CC 7) rolls 9 -> 2; red (CC 6) rolls 7 -> 1
    g = game()
    rules = DogsOfWarRules()
    lines = rules._initiative(g.state, Faces(9, 7))  # type: ignore[arg-type]
    assert g.state.track("initiative") == 1 and "red wins" in lines[0]
    assert g.state.track("choosing") == 1  # the winner decides who activates first (l.187)
    # a tie is rolled again (G4): 8-7 = 1 against 7-6 = 1, then 1-7 against 10-6
    rules._initiative(g.state, Faces(8, 7, 1, 10))  # type: ignore[arg-type]
    assert g.state.track("initiative") == 0


def test_the_initiative_winner_may_let_the_opponent_activate_first() -> None:
    # INITIATIVE AND TURN SEQUENCE l.187
    opened = open_map_or_scenario("dogs-of-war")
    g = new_game(opened, DogsOfWarRules(), seed=3)
    g.use_seeded_dice()
    auto_setup(g)
    set_up(g)
    winner = g.actor()
    loser = "red" if winner == "blue" else "blue"
    assert g.state.phase == "upkeep" and g.choices(winner) == [
        {"do": "first", "side": winner},
        {"do": "first", "side": loser},
    ]
    g.play({"do": "first", "side": loser})
    g.run()
    assert g.state.phase == "activations" and g.actor() == loser


def test_sides_alternate_activating_one_model_at_a_time() -> None:
    # INITIATIVE AND TURN SEQUENCE l.187: alternate until every model has acted
    g = game()
    first = ("blue", "red")[g.state.track("first")]
    assert g.actor() == first
    choice = g.choices(first)[0]
    assert choice["do"] == "activate"
    g.play(choice)
    g.play({"do": "done", "piece": choice["piece"]})
    assert g.actor() == ("red" if first == "blue" else "blue")


def test_op_fire_costs_all_ten_ap_then_fires_inside_the_enemys_move() -> None:
    # Misc Actions, Op-Fire l.231: 10 AP; later a ranged attack of up to 6 AP at any moment
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2432")
    state.tracks["next"] = 0
    g.play({"do": "activate", "piece": blue.id})
    assert {"do": "op-fire", "piece": blue.id} in g.choices("blue")
    g.play({"do": "op-fire", "piece": blue.id})
    after = state.map.piece(blue.id)
    assert after.has(combat.OP_FIRE) and after.attr("ap") == 0
    g.play({"do": "activate", "piece": red.id})
    g.play({"do": "move", "piece": red.id, "to": "2430", "order": "walk"})
    assert g.state.window is not None and g.actor() == "blue"  # the reaction window (G5)
    shots = [c for c in g.choices("blue") if c["do"] == "op-shot"]
    assert shots and all(c["target"] == red.id for c in shots)
    costs = {c.get("mode"): c for c in shots}
    assert "bu" in costs  # a burst (3 AP) fits the 6 AP of op-fire
    g.play(shots[0])
    assert not g.state.map.piece(blue.id).has(combat.OP_FIRE)  # one attack, then op-fire is spent
    assert any(e.window is not None for e in g.entries)


def test_priority_targets_within_ten_inches_must_be_fired_at_first() -> None:
    # DECLARE TARGET l.319: enemies within 10 inches must be targeted first
    g = game()
    state = g.state
    blue = next(p for p in models(state, "blue") if p.type == "scout")
    near, far = [p for p in models(state, "red")][:2]
    clear_field(state, {blue.id, near.id, far.id})
    put(state, blue.id, "2420")
    put(state, near.id, "2428")
    put(state, far.id, "2436")
    state.tracks["next"] = 0
    g.play({"do": "activate", "piece": blue.id})
    fired_at = {c["target"] for c in g.choices("blue") if c["do"] == "fire"}
    assert fired_at == {near.id}
    state.map.move(near.id, state.board.hex_of("0101"))
    fired_at = {c["target"] for c in DogsOfWarRules().choices(state, "blue") if c["do"] == "fire"}
    assert far.id in fired_at


def test_a_natural_one_hits_and_a_ten_misses_whatever_the_number() -> None:
    # ROLL "TO HIT" DICE l.412
    odds = combat.Odds(-4, (), True, None, False)
    assert odds.chance == 0.1
    assert combat.Odds(14, (), True, None, False).chance == 0.9


def test_the_to_hit_number_is_wp_plus_range_and_modifiers() -> None:
    # l.414: target number = WP + range modifier + modifiers; aimed +1 (l.381), burst -1 (l.385)
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2428")
    w = data().weapon("m16a2")
    assert combat.to_hit(state, state.map.piece(blue.id), state.map.piece(red.id), w, "ss").need == 6 + 1
    assert (
        combat.to_hit(state, state.map.piece(blue.id), state.map.piece(red.id), w, "ss", aimed=True).need == 8
    )
    assert combat.to_hit(state, state.map.piece(blue.id), state.map.piece(red.id), w, "bu").need == 6
    put(state, blue.id, "2420", status=frozenset({"prone"}))  # Prone Firing +1 (l.384)
    assert combat.to_hit(state, state.map.piece(blue.id), state.map.piece(red.id), w, "ss").need == 8


def test_a_one_always_saves_on_an_armour_check() -> None:
    # ARMOR CHECK l.426: a 1 always saves, even if ARM takes AR below 1 (AR >= 1 only)
    g = game()
    state = g.state
    ranger = next(p for p in models(state, "blue") if p.type == "scout")
    rpg = data().weapon("rpg")  # ARM -3: helmet AR 5 + (-3) = 2
    faces = Faces(1, 1)  # location 1 (head), armour roll 1
    lines = combat.resolve_hit(state, ranger, rpg, None, False, faces)  # type: ignore[arg-type]
    assert any("armour saves" in line for line in lines)
    militia = next(p for p in models(state, "red"))  # AR 0: the rule does not apply
    lines = combat.resolve_hit(state, militia, rpg, None, False, Faces(1, 1))  # type: ignore[arg-type]
    assert any("killed" in line for line in lines)  # 1 - DPR 6: head, 0 or less: killed


def test_a_chest_wound_bleeds_and_immobilizes_and_bandaging_stabilizes() -> None:
    # DAMAGE ASSESSMENT l.449 (chest, 0 or less); GIVING AID l.517-519
    g = game()
    state = g.state
    p = next(p for p in models(state, "red") if p.type == "scout")
    lines = combat.wound(state, p, "chest", 4, Faces(3, 10))  # type: ignore[arg-type]  # 3-4 = -1; shell shock 10 fails
    hurt = state.map.piece(p.id)
    assert hurt.attr("hp") == 1 and {"bleeding", "medical", "immobilized", "prone"} <= hurt.status
    assert any("breaks" in line for line in lines)  # Make a Shell Shock Morale check (l.449)
    state.marks["active"] = [p.id]
    rules = DogsOfWarRules()
    assert {"do": "bandage", "piece": p.id, "target": p.id} in rules.model_actions(state, hurt)
    rules.apply(state, {"do": "bandage", "piece": p.id, "target": p.id}, Faces())  # type: ignore[arg-type]
    after = state.map.piece(p.id)
    assert after.has("stabilized") and not after.has("bleeding") and after.attr("ap") == 5


def test_survivability_at_the_start_of_the_turn_follows_the_chosen_reading() -> None:
    # BLEEDING CONTINUES l.489-501 (A4): at -1 HP, roll D10 <= 10 + HP = 9: a pass costs 1 HP
    g = game()
    state = g.state
    p = next(p for p in models(state, "red") if p.type == "scout")
    state.map.update(replace(p, status=p.status | {"unconscious", "prone"}).with_attr("hp", -1))
    rules = DogsOfWarRules()
    faces = Faces(*([9] + [5] * 40))
    rules._upkeep(state, faces)  # type: ignore[arg-type]
    assert state.map.piece(p.id).attr("hp") == -2 and "9 or less" in faces.asked[0]
    state.map.update(state.map.piece(p.id).with_attr("hp", -2))
    rules._upkeep(state, Faces(*([9] + [5] * 40)))  # type: ignore[arg-type]  # needs 8 or less: 9 kills
    assert state.map.piece(p.id).has("dead")


def test_a_team_at_half_strength_checks_morale_and_breaks_on_a_failure() -> None:
    # MORALE l.714, TEAM MORALE CHECKS l.722: 50% incapacitated, the team's best ML
    g = game()
    state = g.state
    team = [p for p in models(state, "red") if p.attr("team") == "al-qaeda"]
    for p in team[:2]:
        state.map.update(replace(p, status=p.status | {"dead"}))
    rules = DogsOfWarRules()
    lines = rules._morale(state, Faces(10))  # type: ignore[arg-type]  # 10 > ML 7
    assert "team al-qaeda breaks (l.722)" in lines
    assert all(state.map.piece(p.id).has("broken") for p in team[2:])


def test_a_broken_model_within_five_inches_surrenders_when_it_is_demanded() -> None:
    # MORALE l.716-718: quartering, within five inches
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2424", status=frozenset({"broken"}))
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    demand = {"do": "demand", "piece": blue.id, "target": red.id}
    assert demand in rules.model_actions(state, state.map.piece(blue.id))
    rules.apply(state, demand, Faces())  # type: ignore[arg-type]
    assert state.where(red.id) == "captured"


def test_moving_spends_action_points_at_the_tables_rates() -> None:
    # ACTION POINTS l.200-204: walk 1 AP an inch, run 3 AP for up to 5 inches
    g = game()
    state = g.state
    blue = next(p for p in models(state, "blue") if p.type == "scout")
    clear_field(state, {blue.id})
    put(state, blue.id, "2410")
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    rules.apply(state, {"do": "move", "piece": blue.id, "to": "2413", "order": "walk"}, Faces())  # type: ignore[arg-type]
    assert state.map.piece(blue.id).attr("ap") == 7
    while state.marks.get("path"):
        rules.apply(state, {"do": "step", "piece": blue.id}, Faces())  # type: ignore[arg-type]
    rules.apply(state, {"do": "move", "piece": blue.id, "to": "2417", "order": "run"}, Faces())  # type: ignore[arg-type]
    assert state.map.piece(blue.id).attr("ap") == 4 and state.marked("ran", blue.id)


def test_the_demo_without_rosters_stays_free_play() -> None:
    opened = open_map_or_scenario("dogs-of-war-demo")
    g = new_game(opened, DogsOfWarRules(), seed=1)
    auto_setup(g)
    assert g.actor() == "any" and g.refusal({"do": "move", "piece": "A1", "to": "2010"}) is None


def test_a_whole_game_between_the_bots_ends_and_repeats_from_its_seed() -> None:
    # G10: every game ends (by points after the last turn at the latest); same seed, same game
    from tabletop.sim import play_one

    one = play_one("dogs-of-war", {}, 5)
    two = play_one("dogs-of-war", {}, 5)
    assert "error" not in one, one.get("traceback")
    assert one == two and one["result"]
    assert one["turns"] <= data().turn["turn_cap"]
    json.dumps(one)


def test_the_tactical_bot_beats_random_on_either_side() -> None:
    from tabletop.sim import play_one

    for seed in (1, 2):
        blue = play_one("dogs-of-war", {}, seed, {"red": "random"})
        red = play_one("dogs-of-war", {}, seed, {"blue": "random"})
        assert blue["sides"]["blue"][0] == "win", blue["result"]
        assert red["sides"]["red"][0] == "win", red["result"]


@pytest.mark.parametrize("end", [END_PHASE, {"do": PASS}])
def test_nothing_illegal_is_accepted_out_of_turn(end: dict[str, str]) -> None:
    g = game()
    first = ("blue", "red")[g.state.track("first")]
    second = "red" if first == "blue" else "blue"
    piece = models(g.state, second)[0]
    assert g.refusal({"do": "activate", "piece": piece.id}) is not None
    assert g.refusal(dict(end)) is not None
    assert active(g.state) is None


# --- the text's worked examples and close quarters ------------------------------------------


def test_weapon_knowledge_4_against_difficulty_3_needs_6_or_less() -> None:
    # ABILITIES l.126 (the Iraqi soldier and the M16A2)
    assert combat.wk_need(4, data().weapon("m16a2").difficulty) == 6


def test_firing_into_a_melee_three_friends_against_two_needs_4_outnumbered_by_two_needs_7() -> None:
    # FIRING INTO CLOSE QUARTERS COMBAT l.637
    assert combat.melee_fire_need(3, 2) == 4
    assert combat.melee_fire_need(1, 3) == 7
    assert combat.melee_fire_need(1, 1) == 5  # l.635: 5 or less hits the intended target


def test_tackle_and_close_quarters_are_five_plus_own_minus_the_opponents() -> None:
    # TACKLING l.617; CLOSE QUARTERS COMBAT l.557
    assert combat.tackle_need(5, 4) == 6 and combat.tackle_need(4, 5) == 4
    assert combat.cq_need(5, 3) == 7 and combat.cq_need(3, 5) == 3


def test_the_close_quarters_modifiers_table() -> None:
    # CLOSE QUARTERS COMBAT MODIFIERS l.563-605
    m = data().rules["cq_modifiers"]
    assert (m["charge"], m["bayonet"], m["high_ground"], m["prone"], m["charged_in_cover"]) == (
        1,
        1,
        1,
        -1,
        1,
    )
    assert (m["trained"], m["deadly_hands"], m["opponent_fired"], m["charge_min_inches"]) == (1, 2, 1, 3)


def test_a_close_quarters_attack_costs_its_ap_and_rolls_against_both_cq_scores() -> None:
    # l.557: an unarmed attack costs 2 AP; CHARGE l.565 +1 after a run
    g = game()
    state = g.state
    blue = next(p for p in models(state, "blue") if p.type == "scout")  # CQ 5
    red = next(p for p in models(state, "red") if p.attr("faction") == "somali-civilians")  # CQ 3
    clear_field(state, {blue.id, red.id})
    put(state, blue.id, "2420")
    put(state, red.id, "2421")
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    choices = rules.model_actions(state, state.map.piece(blue.id))
    attack = {"do": "cq", "piece": blue.id, "target": red.id, "weapon": "unarmed"}
    assert attack in choices and {**attack, "weapon": "knife"} in choices
    lines = rules.apply(state, attack, Faces(8))  # type: ignore[arg-type]  # 5 + 5 - 3 = 7: 8 misses
    assert state.map.piece(blue.id).attr("ap") == 8
    assert "7 or less" in lines[0] and lines[-1] == "no hit"
    state.mark("moving-run", blue.id)
    lines = rules.apply(state, attack, Faces(8, 2, 9, 1))  # type: ignore[arg-type]  # charge: 8 or less hits; a near miss, nerve held
    assert "8 or less" in lines[0] and "charge (l.565) +1" in lines[0]
    assert any("hit in the chest" in line for line in lines)


def test_the_morale_modifiers() -> None:
    # MORALE MODIFIERS l.744-745
    m = data().rules["morale"]
    assert (m["leader_killed"], m["team_lost_in_turn"], m["break_fraction"]) == (-1, -2, 0.5)


def test_the_c4_chart() -> None:
    # C4 l.826-829: kill zone, multiple wound radius, blast radius by charge
    from tabletop.games.dogs_of_war.blasts import default_table

    assert dict(default_table().c4.chart) == {1: (2, 3, 4), 2: (3, 4, 6), 3: (4, 5, 8), 4: (5, 6, 10)}


def test_a_friend_in_contact_may_spend_3_ap_to_wake_an_unconscious_model() -> None:
    # UNCONSCIOUS l.513: 3 AP, -2 to the roll; never at 0 HP or less
    g = game()
    state = g.state
    a, b = [p for p in models(state, "blue")][:2]
    clear_field(state, {a.id, b.id})
    put(state, a.id, "2420")
    put(state, b.id, "2421", status=frozenset({"unconscious", "prone"}))
    state.map.update(state.map.piece(b.id).with_attr("hp", 2))
    state.marks["active"] = [a.id]
    rules = DogsOfWarRules()
    wake = {"do": "wake", "piece": a.id, "target": b.id}
    assert wake in rules.model_actions(state, state.map.piece(a.id))
    rules.apply(state, wake, Faces(4))  # type: ignore[arg-type]  # 4 - 2 = 2 <= HP 2
    assert not state.map.piece(b.id).has("unconscious") and state.map.piece(a.id).attr("ap") == 7
    state.map.update(replace(state.map.piece(b.id), status=frozenset({"unconscious"})).with_attr("hp", 0))
    assert wake not in rules.model_actions(state, state.map.piece(a.id))


def test_a_run_through_rubble_checks_strength_or_falls_prone() -> None:
    # ACTION POINTS, Run in Rubble l.209: roll ST or less or fall prone at the end
    g = game()
    state = g.state
    blue = next(p for p in models(state, "blue") if p.type == "scout")  # ST 5
    clear_field(state, {blue.id})
    put(state, blue.id, "1318")  # beside the rubble of the ruined stone house, 1319-1521
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    run = {"do": "move", "piece": blue.id, "to": "1320", "order": "run"}
    assert run in rules.moves(state, state.map.piece(blue.id))
    lines = rules.apply(state, run, Faces(9))  # type: ignore[arg-type]
    while state.marks.get("path"):
        lines += rules.apply(state, {"do": "step", "piece": blue.id}, Faces(9))  # type: ignore[arg-type]
    assert state.map.piece(blue.id).has("prone") and any("rubble" in line for line in lines)
