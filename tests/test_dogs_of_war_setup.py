"""Dogs of War's set-up rolls (SETTING UP THE BATTLEFIELD l.181): a D10 each for the
side of the table, low die wins and picks the edge; a second D10 for who places first,
and the winner may make his opponent place first; "unless the scenario dictates
otherwise" (the night raid fixes both regions and rolls nothing)."""

from __future__ import annotations

from test_dogs_of_war_rules import Faces

from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games.dogs_of_war import setup
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models


def opened(name: str = "dogs-of-war"):  # type: ignore[no-untyped-def]
    g = new_game(open_map_or_scenario(name), DogsOfWarRules(), seed=3)
    g.use_seeded_dice()
    auto_setup(g)
    return g


def test_the_low_die_wins_and_ties_are_rolled_again() -> None:
    # l.181 "low die wins"; ties again (the golden rule l.91): 4-4, then 7 against 2
    assert setup.roll_off(Faces(4, 4, 7, 2), "table side") == (7, 2, 1)  # type: ignore[arg-type]
    assert setup.roll_off(Faces(1, 9), "table side")[2] == 0  # type: ignore[arg-type]


def test_nobody_is_placed_until_both_rolls_are_settled() -> None:
    g = opened()
    g.run()
    assert not models(g.state)  # the rolls come first (l.181)
    winner = g.actor()
    assert winner in ("blue", "red") and g.state.result is None  # no side "has nobody left"
    edges = [c["region"] for c in g.choices(winner)]
    assert sorted(edges) == ["setup-north", "setup-south"]


def test_the_winner_picks_his_edge_and_the_other_side_takes_the_opposite_one() -> None:
    g = opened()
    g.run()
    winner = g.actor()
    loser = "red" if winner == "blue" else "blue"
    # the winner takes the edge that is not his default one
    away = next(c for c in g.choices(winner) if c["region"] != g.choices(winner)[0]["region"])
    g.play(away)
    g.run()
    chooser = g.actor()
    assert g.choices(chooser) == [
        {"do": "place-first", "side": chooser},
        {"do": "place-first", "side": "red" if chooser == "blue" else "blue"},
    ]
    g.play(g.choices(chooser)[1])  # the placement winner makes his opponent place first
    g.run()
    zones = {
        s: g.state.board.regions[r].hexes
        for s, r in zip(("blue", "red"), g.state.marks["regions"], strict=True)
    }
    assert g.state.marks["regions"][("blue", "red").index(winner)] == away["region"]
    assert g.state.marks["regions"][("blue", "red").index(loser)] != away["region"]
    assert all(p.hex in zones[str(p.side)] for p in models(g.state))
    assert len(models(g.state)) == 12
    assert g.state.phase == "upkeep" and g.state.track("choosing") == 1  # initiative next (l.185)
    log = " ".join(line for e in g.entries for line in e.lines)
    assert "places his models first" in log


def test_a_scenario_that_fixes_the_regions_rolls_nothing() -> None:
    # l.181 "unless the scenario dictates otherwise": the night raid's garrison
    g = opened("dogs-of-war-night")
    assert len(models(g.state)) == 12 and not setup.pending(g.state)
    g.run()
    assert g.choices(g.actor())[0]["do"] == "first"  # straight to the initiative choice
