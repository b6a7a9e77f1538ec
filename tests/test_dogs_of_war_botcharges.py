"""The tactical bot's explosives (AVAILABLE SPECIAL EQUIPMENT l.782-843, issue 16 item
8): it sets a claymore facing the enemy and waits on op-fire to blow it (l.835), and it
blows a charge only when the blast catches more enemies than friends."""

from __future__ import annotations

from test_dogs_of_war_rules import game, put, two_scouts

from tabletop.games.dogs_of_war import botcharges, explosives
from tabletop.games.dogs_of_war.bots import TacticalBot
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules
from tabletop.hexgrid import distance


def test_the_bot_sets_its_claymore_beside_him_toward_the_enemy_then_waits_on_op_fire() -> None:
    state = game().state
    blue, red = two_scouts(state, "2436")  # 16 inches down the street, unseen at night
    state.marks["conditions"] = ["night"]
    state.map.update(state.map.piece(blue.id).with_attr("x-claymore", 1))
    state.marks["active"] = [blue.id]
    rules, bot = DogsOfWarRules(), TacticalBot()
    a = state.map.piece(blue.id)
    first = bot._act(state, a, rules.model_actions(state, a))
    assert first["do"] == "set-charge" and first["kind"] == "claymore", first
    at = state.board.hex_of(str(first["at"]))
    assert distance(at, a.hex) == 1
    assert distance(at, state.map.piece(red.id).hex) < distance(a.hex, state.map.piece(red.id).hex)
    rules.apply(state, first, None)  # type: ignore[arg-type]
    assert botcharges.owns_claymore(state, state.map.piece(blue.id))
    # next activation, 10 AP again: he goes on op-fire to hold the clacker (l.831-835)
    state.map.update(state.map.piece(blue.id).with_attr("ap", 10))
    a = state.map.piece(blue.id)
    assert bot._ambush(state, a, [state.map.piece(red.id)])


def test_a_charge_is_blown_on_enemies_but_not_on_friends() -> None:
    state = game().state
    blue, _red = two_scouts(state, "2432")  # 12 inches off
    c = explosives.Charge("c4", "2432", "blue", blue.id, 2)  # half a pound under the red scout
    state.marks["charges"] = [c.key()]
    blow = [{"do": "detonate", "piece": blue.id, "charge": c.key()}]
    assert state.board.hex_of("2420") not in explosives.area_of(state, c)
    assert botcharges.detonation(state, blow) == blow[0]
    put(state, blue.id, "2430")  # now the setter stands in his own blast (C4 chart l.826)
    assert botcharges.detonation(state, blow) is None
    assert state.board.hex_of("2430") in botcharges.danger(state, state.map.piece(blue.id))
