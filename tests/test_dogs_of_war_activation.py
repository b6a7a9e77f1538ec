"""Dogs of War team activation (INITIATIVE AND TURN SEQUENCE l.187: "players alternate
activating a team, or a single member of a team, until all models have been
activated")."""

from __future__ import annotations

from test_dogs_of_war_rules import game

from tabletop.games.dogs_of_war.ruleset import models


def test_a_whole_team_acts_member_after_member_before_the_other_side() -> None:
    g = game()
    first = ("blue", "red")[g.state.track("first")]
    second = "red" if first == "blue" else "blue"
    team = str(models(g.state, first)[0].attr("team"))
    members = [p.id for p in models(g.state, first) if p.attr("team") == team]
    whole = {"do": "activate-team", "side": first, "team": team}
    assert whole in g.choices(first)
    g.play(whole)
    acted = []
    for _ in members:
        a = g.state.marks["active"][0]
        acted.append(a)
        assert g.actor() == first  # the other side waits for the whole team
        g.play({"do": "done", "piece": a})
        g.run()  # the next member is activated by the rules (no choice)
    assert sorted(acted) == sorted(members)
    assert g.actor() == second and g.state.marks.get("active") is None


def test_a_single_member_may_still_be_activated_alone() -> None:
    g = game()
    first = ("blue", "red")[g.state.track("first")]
    one = next(c for c in g.choices(first) if c["do"] == "activate")
    g.play(one)
    g.play({"do": "done", "piece": one["piece"]})
    g.run()
    assert g.actor() != first  # one model, then the other side (l.187)
