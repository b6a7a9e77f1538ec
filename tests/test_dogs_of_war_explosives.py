"""Dogs of War explosives that are set, not fired (AVAILABLE SPECIAL EQUIPMENT
l.782-843): C4, shaped charges, anti-personnel mines and claymores, the claymore blown
as an op-fire reaction."""

from __future__ import annotations

from dataclasses import replace

from test_dogs_of_war_rules import Faces, clear_field, game, put, two_scouts

from tabletop.engine.game import PASS
from tabletop.games.dogs_of_war import combat, explosives, roster
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules


def test_c4_costs_3_ap_a_quarter_pound_and_only_the_trained_set_it() -> None:
    # C4 l.822: "a model must spend 3 action points preparing a quarter piece"; only a
    # Combat Engineer (or a list that describes C4: rules.yaml explosives.c4_trained)
    g = game()
    state = g.state
    blue, _ = two_scouts(state, "2440")
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    state.map.update(state.map.piece(blue.id).with_attr("x-c4", 4))
    sets = [a for a in rules.model_actions(state, state.map.piece(blue.id)) if a["do"] == "set-charge"]
    assert sets == []  # a Ranger scout without the perk
    state.map.update(state.map.piece(blue.id).with_attr("perks", "combat-engineer"))
    sets = [a for a in rules.model_actions(state, state.map.piece(blue.id)) if a["do"] == "set-charge"]
    assert {a["size"] for a in sets} == {1, 2, 3}  # 10 AP: three quarters at most
    half = {"do": "set-charge", "piece": blue.id, "kind": "c4", "at": "2421", "size": 2}
    assert half in sets
    rules.apply(state, half, Faces())  # type: ignore[arg-type]
    p = state.map.piece(blue.id)
    assert p.attr("ap") == 4 and p.attr("x-c4") == 2
    assert [c.at for c in explosives.charges(state)] == ["2421"]
    green = replace(p, attributes=p.attributes).with_attr("perks", None).with_attr("faction", "green-berets")
    assert explosives.may_use(green, "c4") and not explosives.may_use(green, "shaped-charge")


def test_c4_blown_kills_in_its_kill_zone_and_wrecks_the_building_it_is_in() -> None:
    # C4 chart l.826-829: half a pound kills within 3 in; STRUCTURAL DAMAGE l.692 with
    # its structural DPR 8 (weapons.yaml); the wooden house (4 SP) falls at once on a 2
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2019")  # the red scout inside the wooden house
    put(state, blue.id, "2440")  # far out of the blast
    charge = explosives.Charge("c4", "2020", "blue", blue.id, 2)
    state.marks["charges"] = [charge.key()]
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    blow = {"do": "detonate", "piece": blue.id, "charge": charge.key()}
    assert blow in rules.model_actions(state, state.map.piece(blue.id))
    dice = Faces(2)  # structural: 2 - 8 <= 0 on the chart's columns: 3 SP lost
    lines = rules.apply(state, blow, dice)  # type: ignore[arg-type]
    assert state.map.piece(red.id).has(combat.DEAD)  # 1 inch from the charge: the kill zone
    assert state.map.piece(blue.id).attr("ap") == 9  # the trigger, 1 AP
    assert explosives.charges(state) == []
    assert any("loses 3 SP (1 of 4 left" in x for x in lines), lines


def test_a_shaped_charge_needs_a_combat_engineer_and_a_building_beside_him() -> None:
    # Shaped Charge l.804-812: 3 AP, set on a door or wall; Combat Engineers only
    g = game()
    state = g.state
    blue, _ = two_scouts(state, "2440")
    put(state, blue.id, "1917")  # north of the wooden house 1918-2120
    state.marks["active"] = [blue.id]
    rules = DogsOfWarRules()
    p = state.map.piece(blue.id).with_attr("x-shaped-charge", 1).with_attr("perks", "combat-engineer")
    state.map.update(p)
    sets = [a for a in rules.model_actions(state, p) if a["do"] == "set-charge"]
    walls = {a["at"]: state.map.terrain_at(state.board.hex_of(a["at"])) for a in sets}
    assert walls == {"1816": "stone-house-2", "1918": "wood-house"}  # only buildings beside him
    rules.apply(state, {"do": "set-charge", "piece": blue.id, "kind": "shaped-charge", "at": "1918"}, Faces())  # type: ignore[arg-type]
    assert state.map.piece(blue.id).attr("ap") == 7
    c = explosives.charges(state)[0]
    lines = rules.apply(state, {"do": "detonate", "piece": blue.id, "charge": c.key()}, Faces(3))  # type: ignore[arg-type]
    assert any("loses 3 SP (1 of 4 left" in x for x in lines), lines  # 3 - structural DPR 6 <= 0: 3 SP


def test_an_enemy_stepping_on_a_mine_sets_it_off_and_stops() -> None:
    # Anti-Personnel Mines l.800: "detonated when pressure is placed upon it"; the M67 template
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2430")
    mine = explosives.Charge("ap-mine", "2428", "blue", blue.id)
    state.marks["charges"] = [mine.key()]
    state.marks["active"] = [red.id]
    state.map.update(state.map.piece(red.id).with_attr("ap", 10))
    rules = DogsOfWarRules()
    walk = {"do": "move", "piece": red.id, "to": "2426", "order": "walk"}
    assert walk in rules.moves(state, state.map.piece(red.id))
    lines = rules.apply(state, walk, Faces(*[9, 10] * 6))  # type: ignore[arg-type]
    while state.marks.get("path"):
        lines += rules.apply(state, {"do": "step", "piece": red.id}, Faces(*[9, 10] * 6))  # type: ignore[arg-type]
    assert state.board.label(state.map.piece(red.id).hex) == "2428"  # the move ends on the mine
    assert any("steps on a mine" in x for x in lines)
    assert explosives.charges(state) == []


def test_a_claymore_is_blown_as_an_op_fire_reaction_when_an_enemy_enters_its_cone() -> None:
    # Claymore l.831-835: "may be triggered via the clacker as an Op-Fire attack"
    g = game()
    state = g.state
    blue, red = two_scouts(state, "2436")
    clear_field(state, {blue.id, red.id})
    state.tracks["next"] = 0
    state.map.update(state.map.piece(blue.id).with_attr("x-claymore", 1))
    g.play({"do": "activate", "piece": blue.id})
    south = {"do": "set-charge", "piece": blue.id, "kind": "claymore", "at": "2421"}
    assert south in g.choices("blue")
    g.play(south)  # faces away from him: south, down the street
    assert state.map.piece(blue.id).attr("ap") == 7 and state.map.piece(blue.id).attr("x-claymore") == 0
    g.play({"do": "done", "piece": blue.id})
    blue_p = state.map.piece(blue.id)
    state.map.update(replace(blue_p, status=blue_p.status | {combat.OP_FIRE}))
    g.play({"do": "activate", "piece": red.id})
    g.play({"do": "move", "piece": red.id, "to": "2430", "order": "walk"})  # into the cone (10 in)
    clay: list[dict[str, object]] = []
    while not clay:
        if g.state.window is None:
            assert state.marks.get("path"), "the claymore never came into play"
            g.play({"do": "step", "piece": red.id})
            continue
        clay = [c for c in g.choices("blue") if c.get("as") == "claymore"]
        if not clay:
            g.play({"do": PASS})  # rifle shots offered outside the cone: let them pass
    assert clay[0]["target"] == red.id
    assert g.state.map.piece(red.id).hex in explosives.area_of(state, explosives.charges(state)[0])
    g.play(clay[0])
    assert explosives.charges(state) == []
    assert not state.map.piece(blue.id).has(combat.OP_FIRE)
    assert any("claymore" in line for e in g.entries for line in e.lines)


def test_explosives_bought_in_a_roster_are_carried_by_the_model() -> None:
    # C4 25 points a pound (four quarters, l.822); AP mines 2 for 25 (l.800)
    r = {"name": "t", "budget": 400, "teams": [{"faction": "rangers", "members": [
        {"role": "team-leader", "weapon": "m16a2", "perks": ["combat-engineer"], "gear": ["c4", "claymore"]},
        {"role": "scout", "weapon": "m16a2", "gear": ["ap-mines"]},
        {"role": "machine-gunner", "weapon": "m249"}, {"role": "assistant-gunner", "weapon": "m16a2"},
    ]}]}  # fmt: skip
    assert roster.check(r) == []
    leader, scout = roster.models(r)[:2]
    assert leader.kit == {"c4": 4, "claymore": 1} and scout.kit == {"ap-mine": 2}
