"""Dogs of War's Misc Actions table (ACTION POINTS, Misc Actions l.226-234), row by row,
each through the action the rules play: throw a grenade 3 AP, op-fire 10 AP (then 6 for
the attack), bandage 5 AP, trigger 1 AP. Pick Up Item (1 AP) has nothing to act on: the
project models no loose items on the table (reported in the issue's note)."""

from __future__ import annotations

from dataclasses import replace

from test_dogs_of_war_rules import Faces, game, two_scouts

from tabletop.games.dogs_of_war import explosives
from tabletop.games.dogs_of_war.data import data
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules


def test_the_misc_actions_table_as_the_rules_spend_it() -> None:
    g = game()
    state = g.state
    blue, _ = two_scouts(state, "2432")  # 12 in down the street
    rules = DogsOfWarRules()
    state.marks["active"] = [blue.id]

    def ap() -> int:
        return int(state.map.piece(blue.id).attr("ap"))  # type: ignore[arg-type]

    # Throw Grenade l.229: 3 AP (the grenade misses and deviates: faces for it)
    throw = next(a for a in rules.model_actions(state, state.map.piece(blue.id)) if a["do"] == "throw")
    rules.apply(state, throw, Faces(10, 1, 6, *[10] * 30))  # type: ignore[arg-type]
    assert ap() == 7
    # Bandage l.234: 5 AP
    hurt = state.map.piece(blue.id)
    state.map.update(replace(hurt, status=hurt.status | {"bleeding"}))
    rules.apply(state, {"do": "bandage", "piece": blue.id, "target": blue.id}, Faces())  # type: ignore[arg-type]
    assert ap() == 2
    # Trigger l.233: 1 AP to blow a remotely controlled device (a C4 charge here)
    c = explosives.Charge("c4", "4040", "blue", blue.id, 1)
    state.marks["charges"] = [c.key()]
    rules.apply(state, {"do": "detonate", "piece": blue.id, "charge": c.key()}, Faces(*[10] * 40))  # type: ignore[arg-type]
    assert ap() == 1
    # Op-Fire l.231: all 10 AP, then 6 for one attack; the table as data
    turn = data().turn
    assert (turn["op_fire_ap"], turn["op_fire_attack_ap"]) == (10, 6)
    assert data().rules["medical"]["bandage_ap"] == 5
    assert data().rules["explosives"]["trigger_ap"] == 1
