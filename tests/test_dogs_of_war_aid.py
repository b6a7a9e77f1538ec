"""Dogs of War combat medics and carrying the wounded (GIVING AID l.515-529, CARRYING
WOUNDED l.531-535, Misc Actions l.226-234)."""

from __future__ import annotations

from dataclasses import replace

from test_dogs_of_war_rules import Faces, clear_field, game, put

from tabletop.engine.state import GameState
from tabletop.games.dogs_of_war import aid, roster
from tabletop.games.dogs_of_war.data import data
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models


def pair(state: GameState, wounded: frozenset[str], hp: int) -> tuple[str, str]:
    """Two Rangers side by side (2420, 2421): the first active with 10 AP, the second
    hurt as given."""
    a, b = [p for p in models(state, "blue")][:2]
    clear_field(state, {a.id, b.id})
    put(state, a.id, "2420")
    put(state, b.id, "2421", status=wounded)
    state.map.update(state.map.piece(b.id).with_attr("hp", hp))
    state.map.update(state.map.piece(a.id).with_attr("ap", 10))
    state.marks["active"] = [a.id]
    return a.id, b.id


def test_a_combat_medic_stops_the_bleeding_gives_one_hp_and_wakes_the_man() -> None:
    # GIVING AID l.529: 5 AP in contact: stop the bleeding, +1 HP; UNCONSCIOUS l.513:
    # medics awaken the unconscious (never at 0 HP or less: he wakes at 1)
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"unconscious", "prone", "bleeding", "immobilized"}), 0)
    rules = DogsOfWarRules()
    treat = {"do": "treat", "piece": a, "target": b}
    assert treat not in rules.model_actions(state, state.map.piece(a))  # not a medic
    medic = state.map.piece(a)
    state.map.update(replace(medic, status=medic.status | {aid.MEDIC}))
    assert treat in rules.model_actions(state, state.map.piece(a))
    rules.apply(state, treat, Faces())  # type: ignore[arg-type]
    man = state.map.piece(b)
    assert man.attr("hp") == 1 and man.has("stabilized")
    assert not man.has("bleeding") and not man.has("unconscious")
    assert man.has("immobilized")  # "Combat Medics do not negate wound effects" (l.529)
    assert state.map.piece(a).attr("ap") == 10 - data().rules["medical"]["medic_ap"] == 5


def test_a_medic_never_heals_above_the_models_own_hp() -> None:
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"bleeding"}), 5)  # HP 5 of 5
    medic = state.map.piece(a)
    state.map.update(replace(medic, status=medic.status | {aid.MEDIC}))
    DogsOfWarRules().apply(state, {"do": "treat", "piece": a, "target": b}, Faces())  # type: ignore[arg-type]
    assert state.map.piece(b).attr("hp") == 5


def test_carrying_a_wounded_friend_costs_5_ap_and_doubles_the_walk() -> None:
    # CARRYING WOUNDED l.533: 5 AP to pick up; movement costs doubled (walk 2 AP an inch)
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"immobilized", "prone"}), 2)
    rules = DogsOfWarRules()
    carry = {"do": "carry", "piece": a, "target": b}
    assert carry in rules.model_actions(state, state.map.piece(a))
    rules.apply(state, carry, Faces())  # type: ignore[arg-type]
    carrier = state.map.piece(a)
    assert carrier.attr("ap") == 5 and carrier.has("carrying")
    assert state.map.piece(b).hex == carrier.hex and state.map.piece(b).has("carried")
    walk = {"do": "move", "piece": a, "to": "2418", "order": "walk"}  # 2 inches
    assert walk in rules.moves(state, carrier)
    assert {"do": "move", "piece": a, "to": "2417", "order": "walk"} not in rules.moves(state, carrier)
    rules.apply(state, walk, Faces())  # type: ignore[arg-type]
    while state.marks.get("path"):
        rules.apply(state, {"do": "step", "piece": a}, Faces())  # type: ignore[arg-type]
    assert state.map.piece(a).attr("ap") == 1  # 5 - 2 inches at 2 AP
    assert state.board.label(state.map.piece(b).hex) == "2418"  # he goes where his carrier goes
    assert b not in [p.id for p in rules.ready(state, "blue")]  # a carried man does not act


def test_a_failed_load_check_forbids_running_with_the_load() -> None:
    # l.533: D10 <= ST at the start of each turn to run with the load; failing, walk only
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"unconscious", "prone"}), 1)
    rules = DogsOfWarRules()
    rules.apply(state, {"do": "carry", "piece": a, "target": b}, Faces())  # type: ignore[arg-type]
    state.map.update(state.map.piece(a).with_attr("ap", 10))
    aid.load_checks(state, Faces(9))  # type: ignore[arg-type]  # ST 5: failed
    orders = {m["order"] for m in rules.moves(state, state.map.piece(a))}
    assert orders == {"walk"}
    aid.load_checks(state, Faces(5))  # type: ignore[arg-type]
    orders = {m["order"] for m in rules.moves(state, state.map.piece(a))}
    assert orders == {"walk", "run"}


def test_a_hit_on_the_carrier_falls_on_the_carried_man_on_1_to_5() -> None:
    # l.535: roll a D10: 1-5 the carried figure is hit, 6-10 the carrier
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"unconscious", "prone"}), 1)
    DogsOfWarRules().apply(state, {"do": "carry", "piece": a, "target": b}, Faces())  # type: ignore[arg-type]
    carrier = state.map.piece(a)
    assert aid.who_is_hit(state, carrier, Faces(5)).id == b  # type: ignore[arg-type]
    assert aid.who_is_hit(state, carrier, Faces(6)).id == a  # type: ignore[arg-type]


def test_putting_the_man_down_is_free_and_lays_him_beside_the_carrier() -> None:
    # Misc Actions l.233: drop 0 AP (project: the first free hex beside, one model a hex)
    g = game()
    state = g.state
    a, b = pair(state, frozenset({"unconscious", "prone"}), 1)
    rules = DogsOfWarRules()
    rules.apply(state, {"do": "carry", "piece": a, "target": b}, Faces())  # type: ignore[arg-type]
    drop = {"do": "drop", "piece": a, "target": b}
    assert drop in rules.model_actions(state, state.map.piece(a))
    rules.apply(state, drop, Faces())  # type: ignore[arg-type]
    carrier, man = state.map.piece(a), state.map.piece(b)
    assert carrier.attr("ap") == 5 and not carrier.has("carrying")
    assert man.hex != carrier.hex and not man.has("carried") and man.attr("carried-by") is None


def test_a_combat_medic_costs_the_projects_points_in_a_roster() -> None:
    # GIVING AID l.529 names no price: rules.yaml medical.medic_points (project)
    base = {"name": "t", "budget": 270, "teams": [{"faction": "rangers"}]}
    medic = {"name": "t", "budget": 270, "teams": [{"faction": "rangers", "members": [
        {"role": "team-leader", "weapon": "m16a2"}, {"role": "scout", "weapon": "m16a2", "medic": True},
        {"role": "machine-gunner", "weapon": "m249"}, {"role": "assistant-gunner", "weapon": "m16a2"},
    ]}]}  # fmt: skip
    assert roster.cost(medic) - roster.cost(base) == data().rules["medical"]["medic_points"] == 20
    assert roster.check(medic) == []
    assert "combat-medic" in roster.models(medic)[1].status
    medic["teams"][0]["members"][1]["medic"] = "yes"  # type: ignore[index]
    assert any("medic is true or left out" in p for p in roster.check(medic))
