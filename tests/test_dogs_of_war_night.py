"""Dogs of War at night: the muzzle flash that shows a firer in the dark (LINE OF SIGHT
(LOS) CHECKS l.297 with the darkness of l.299, the project's reading in los.yaml), and
the night raid scenario as the project set it up (the garrison in its compound, the
raiders on the south edge, objectives worth 100; scenarios/dogs-of-war-night.yaml)."""

from __future__ import annotations

from test_dogs_of_war_rules import clear_field, game, put, two_scouts

from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games.dogs_of_war import bots, combat
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models, score


def night_raid() -> object:
    g = new_game(open_map_or_scenario("dogs-of-war-night"), DogsOfWarRules(), seed=3)
    g.use_seeded_dice()
    auto_setup(g)
    return g


def test_a_muzzle_flash_shows_a_firer_beyond_ten_inches_at_night() -> None:
    # l.299: darkness limits sight to 10 inches; l.297: a model that has fired a weapon
    # with no flash suppressor can still be seen (project's reading: beyond 10 at night)
    state = game().state
    blue, red = two_scouts(state, "2432")  # 12 inches down the street
    state.marks["conditions"] = ["night"]
    blue, red = state.map.piece(blue.id), state.map.piece(red.id)
    assert combat.policy().kit_of(red) is None
    assert not combat.sees(state, red, blue)
    state.mark("fired-last", blue.id)
    assert combat.sees(state, red, blue)
    odds = combat.to_hit(state, red, blue, bots.weapon_of(red), "ss")
    assert any("night" in k and v == -3 for k, v in odds.parts), odds.parts  # l.393: -3 over 10
    # the flash is gone once he activates again (the mark is cleared, ruleset._do_activate)
    state.marks["fired-last"].remove(blue.id)
    assert not combat.sees(state, red, blue)


def test_the_flash_does_not_show_through_walls_or_by_day() -> None:
    state = game().state
    blue, red = two_scouts(state, "2432")
    state.mark("fired-last", blue.id)
    assert combat.sees(state, state.map.piece(red.id), state.map.piece(blue.id))  # by day, as ever
    state.marks["conditions"] = ["night"]
    put(state, red.id, "4040")  # far off behind the town's buildings
    assert not combat.sees(state, state.map.piece(red.id), state.map.piece(blue.id))


def test_the_night_raid_garrison_stands_in_its_compound_and_the_raiders_on_the_south_edge() -> None:
    # l.181: "deployment is determined by the scenario": red in the map's compound
    # region, blue in the south 6-inch zone, each facing the other way across the table
    g = night_raid()
    state = g.state
    compound = state.board.regions["compound"].hexes
    south = state.board.regions["setup-south"].hexes
    blue, red = models(state, "blue"), models(state, "red")
    assert blue and red
    assert all(p.hex in south for p in blue) and all(p.hex in compound for p in red)
    assert {p.facing for p in blue} == {1} and {p.facing for p in red} == {4}


def test_the_night_raid_prices_an_objective_at_100_points() -> None:
    # G10 with the scenario's objective-points: 100 (50 in Crossroads)
    state = night_raid().state
    red = models(state, "red")[0]
    clear_field(state, {red.id})
    put(state, red.id, state.marks["objectives"][0])
    assert score(state)["red"] == 100
    assert state.marks["scenario-choices"], "the scenario's choices reach the rules panel"


def test_a_lone_holder_keeps_his_objective_rather_than_walk_off_it() -> None:
    # the bot: an objective no friend holds is worth holding (G10 score), and a side
    # holding more objectives than the enemy guards them
    state = night_raid().state
    red = models(state, "red")
    holder = red[0]
    clear_field(state, {holder.id, *(p.id for p in models(state, "blue"))})
    put(state, holder.id, state.marks["objectives"][1])
    objectives = [state.board.hex_of(x) for x in state.marks["objectives"]]
    assert bots.guarding(state, "red", objectives)
    state.marks["active"] = [holder.id]
    a = state.map.piece(holder.id)
    choices = DogsOfWarRules().model_actions(state, a)
    move = bots.TacticalBot()._act(state, a, choices)
    if move["do"] == "move":
        to = state.board.hex_of(str(move["to"]))
        assert min(bots.distance(to, o) for o in objectives) <= 1, move
