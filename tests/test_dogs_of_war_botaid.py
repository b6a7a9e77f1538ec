"""The tactical bot carries the wounded (CARRYING WOUNDED l.531-535, issue 16 item 8
"aid"): an immobilized friend (wound chart l.452-459; IMMOBILIZED l.507 "may not move")
lying in the open under an enemy's eye is picked up (5 AP, l.533) and walked into cover
when the carrier reaches it this activation; otherwise the bot leaves him."""

from __future__ import annotations

from test_dogs_of_war_rules import Faces, clear_field, game, put

from tabletop.engine.state import GameState
from tabletop.games.dogs_of_war import aid
from tabletop.games.dogs_of_war.bots import TacticalBot
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models
from tabletop.hexgrid import distance

# the map near the Rangers' start: 2120 a building hex, 2220 and 2320 open ground, 2330
# open ground 10 inches south with a clear view of 2320


def street(state: GameState, hurt: frozenset[str], ap: int = 10, carrier_at: str = "2220") -> tuple[str, str]:
    """Blue's leader (active, ``ap`` AP) beside a hurt scout in the open at 2320, red's
    leader at 2330 looking at them; the other models aside."""
    a, b = models(state, "blue")[:2]
    r = models(state, "red")[0]
    clear_field(state, {a.id, b.id, r.id})
    put(state, a.id, carrier_at)
    put(state, b.id, "2320", status=hurt)
    put(state, r.id, "2330")
    state.map.update(state.map.piece(a.id).with_attr("ap", ap))
    state.marks["active"] = [a.id]
    return a.id, b.id


def step(state: GameState, bot: TacticalBot, rules: DogsOfWarRules, who: str) -> dict[str, object]:
    act = bot._act(state, state.map.piece(who), rules.model_actions(state, state.map.piece(who)))
    rules.apply(state, act, Faces())  # type: ignore[arg-type]
    while state.marks.get("path"):
        rules.apply(state, {"do": "step", "piece": who}, Faces())  # type: ignore[arg-type]
    return act


def test_the_bot_carries_an_immobilized_friend_out_of_the_enemys_sight_into_cover() -> None:
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone"}))
    bot, rules = TacticalBot(), DogsOfWarRules()
    assert step(state, bot, rules, a) == {"do": "carry", "piece": a, "target": b}
    moved = step(state, bot, rules, a)
    assert moved["do"] == "move" and moved["order"] == "walk"  # doubled costs: no run needed
    carrier = state.map.piece(a)
    assert bot._cover(state, carrier.hex) >= 2.0  # in the building
    assert state.map.piece(b).hex == carrier.hex  # the load went with him (l.533)


def test_the_bot_leaves_an_unconscious_man_and_one_it_cannot_get_to_cover() -> None:
    # unconscious: already counted out by the score and no target for the enemy
    state = game().state
    a, b = street(state, frozenset({"immobilized", "unconscious", "prone"}))
    bot, rules = TacticalBot(), DogsOfWarRules()
    acts = rules.model_actions(state, state.map.piece(a))
    assert {"do": "carry", "piece": a, "target": b} in acts  # the rules allow it (l.533)
    assert bot._act(state, state.map.piece(a), acts)["do"] != "carry"
    # conscious, but with 6 AP only 1 is left after the pick-up: no cover within reach
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone"}), ap=6)
    acts = rules.model_actions(state, state.map.piece(a))
    assert {"do": "carry", "piece": a, "target": b} in acts
    assert bot._act(state, state.map.piece(a), acts)["do"] != "carry"


def test_a_carrier_in_cover_keeps_the_man_while_an_enemy_sees_where_he_would_lie() -> None:
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone"}))
    bot, rules = TacticalBot(), DogsOfWarRules()
    step(state, bot, rules, a)  # the pick-up
    step(state, bot, rules, a)  # into the building
    state.map.update(state.map.piece(a).with_attr("ap", 10))  # his next activation
    here = state.map.piece(a).hex
    laid = aid.drop_hex(state, state.map.piece(a))
    assert laid is not None and bot._cover(state, laid) == 0.0  # the open street beside
    act = bot._act(state, state.map.piece(a), rules.model_actions(state, state.map.piece(a)))
    assert act["do"] not in ("drop", "move"), act  # he holds the building (and may shoot)
    assert state.map.piece(a).hex == here and state.map.piece(b).has(aid.CARRIED)
    # no enemy left within range of where the man would lie: he lays the man down (0 AP, l.233) and is free again
    state.to_box(models(state, "red")[0].id, "aside")
    state.map.update(state.map.piece(a).with_attr("ap", 10))
    assert step(state, bot, rules, a)["do"] == "drop"
    assert state.map.piece(b).hex == laid and not state.map.piece(b).has(aid.CARRIED)


def test_the_bot_walks_up_to_a_stranded_friend_when_the_whole_carry_fits_in_its_ap() -> None:
    # two inches off: walk beside him (2 AP), pick him up (5 AP, l.533), 3 AP left for
    # an inch into the building at 2 AP an inch (doubled, l.533)
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone"}), carrier_at="2218")
    bot, rules = TacticalBot(), DogsOfWarRules()
    first = step(state, bot, rules, a)
    assert first["do"] == "move" and first["order"] == "walk", first
    assert distance(state.map.piece(a).hex, state.map.piece(b).hex) == 1
    assert step(state, bot, rules, a) == {"do": "carry", "piece": a, "target": b}
    step(state, bot, rules, a)
    assert bot._cover(state, state.map.piece(a).hex) >= 2.0
    assert state.map.piece(b).hex == state.map.piece(a).hex
    # with 6 AP the carry would not reach cover this activation: he does not walk up
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone"}), ap=6, carrier_at="2218")
    act = bot._act(state, state.map.piece(a), rules.model_actions(state, state.map.piece(a)))
    assert not (
        act["do"] == "move" and distance(state.board.hex_of(str(act["to"])), state.map.piece(b).hex) == 1
    )


def test_a_carrier_dresses_the_bleeding_man_he_holds_in_cover() -> None:
    # GIVING AID l.517: "any model in base-to-base contact" may bandage; the man carried
    # is in contact with his carrier (l.533), so he need not be laid in the open first
    state = game().state
    a, b = street(state, frozenset({"immobilized", "prone", "bleeding", "medical"}))
    bot, rules = TacticalBot(), DogsOfWarRules()
    assert step(state, bot, rules, a)["do"] == "carry"
    step(state, bot, rules, a)  # into the building, 3 AP left: no dressing yet
    state.map.update(state.map.piece(a).with_attr("ap", 10))  # his next activation
    assert step(state, bot, rules, a) == {"do": "bandage", "piece": a, "target": b}
    assert not state.map.piece(b).has("bleeding") and state.map.piece(b).has(aid.CARRIED)
