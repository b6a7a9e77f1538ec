"""Dogfaces in Space as a whole (issue 14): the bots play games to the end, a game
replays exactly from its log, sim repeats itself for a seed, the shipped scenarios
load for every option, and ``tabletop tables`` prints the Combat Table the game rolls on."""

from __future__ import annotations

import pytest

from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import bot, ruleset, tables_of
from tabletop.games.dogfaces import bots
from tabletop.games.dogfaces.data import roster
from tabletop.games.dogfaces.ruleset import units
from tabletop.sim import play_out, simulate


def started(source: str, seed: int, secret: bool = False, **options: object) -> Game:
    """A new game set up and at turn 1; dice from the seed (as sim plays) unless ``secret``."""
    opened = open_map_or_scenario(source)
    game = new_game(opened, ruleset(opened.rules), seed=seed, options=options)
    if not secret:
        game.use_seeded_dice()
    auto_setup(game)
    return game


def test_tactical_bots_play_a_game_that_replays_exactly() -> None:
    """Bots on both sides play six turns; replaying the log (each action judged by the
    rules again) gives the same state."""
    game = started("dogfaces", 11)
    seats = {s: bot("dogfaces", s) for s in ("blue", "red")}
    play_out(game, seats, turn_cap=6)
    assert game.state.turn >= 6 or game.state.result is not None
    assert game.replay(check=True).to_json() == game.state.to_json()


def test_the_random_bot_plays_only_legal_moves() -> None:
    """The random bot, both sides, on the whole platoon with Foxtrot: no refusal, no error."""
    game = started("dogfaces-platoon", 2)
    seats = {s: bot("dogfaces", s, "random") for s in ("blue", "red")}
    played = play_out(game, seats, turn_cap=3)
    assert played > 50


def test_sim_repeats_for_a_seed_and_judges_both_sides() -> None:
    """Issue 14: the same seed gives the same figures; every game ends or is capped."""
    first = simulate("dogfaces", 2, seed=5)
    second = simulate("dogfaces", 2, seed=5)
    for report in (first, second):
        report.pop("seconds")
    assert first == second
    group = first["groups"][0]
    assert group["failed"] == 0 and group["played"] == 2
    sides = group["sides"]
    assert sides["blue"]["wins"] + sides["blue"]["losses"] + sides["blue"]["draws"] == 2


def test_standings_from_the_result() -> None:
    """VII: the side named in the result wins, the other loses; score: soldiers left."""
    game = started("dogfaces", 1)
    game.state.result = "red wins (blue surrendered)"
    out = bots.standings(game.state)
    assert out["red"][0] == "win" and out["blue"][0] == "loss"
    assert out["red"][1] == len(units(game.state, "red")) == 10


@pytest.mark.parametrize("source", ["dogfaces", "dogfaces-platoon", "dogfaces-mirror"])
@pytest.mark.parametrize("teams", ["2", "3", "4", "5"])
@pytest.mark.parametrize("foxtrot", [False, True])
def test_every_scenario_sets_up_for_every_option(source: str, teams: str, foxtrot: bool) -> None:
    """III: 2-5 teams, Foxtrot on or off, the same for both sides, on every shipped map."""
    game = started(source, 1, teams=teams, foxtrot=foxtrot)
    n = 5 * int(teams) + (3 if foxtrot else 0)
    assert len(units(game.state, "blue")) == len(units(game.state, "red")) == n


def test_tables_print_the_table_played() -> None:
    """tabletop tables dogfaces: the Combat Table's cells are roster.yaml's."""
    combat = next(t for t in tables_of("dogfaces") if t.key == "combat")
    assert [list(r[1:]) for r in combat.rows] == [list(roster().table[i]) for i in range(1, 7)]
    assert {t.key for t in tables_of("dogfaces")} == {"combat", "weapons", "roster", "terrain"}


def test_a_game_saved_and_loaded_replays_to_the_same_position(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A two-bot game saved mid-way (Tom's rockets, marks, Overwatch and the OOC box in
    it) loads again and replays, every action judged by the rules, to the same state."""
    from tabletop.engine import savefile
    from tabletop.engine.newgame import load_game

    game = started("dogfaces-platoon", 4, secret=True)
    play_out(game, {s: bot("dogfaces", s) for s in ("blue", "red")}, turn_cap=4)
    path = tmp_path / "df.json"
    savefile.write_save(path, game, "dogfaces-platoon")
    loaded, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert loaded.state.to_json() == game.state.to_json()


def test_reach_and_los_answer_on_the_opening_position(capsys) -> None:  # type: ignore[no-untyped-def]
    """III: the rules set the teams up when the game begins, so the scenario file holds
    no soldiers; `tabletop reach` and `tabletop los` answer on the position the game
    opens at (the one `render` draws) and say so, instead of "no units here"."""
    import json

    from tabletop.cli import main

    game = new_game(open_map_or_scenario("dogfaces"), ruleset("dogfaces"), seed=0)  # type: ignore[arg-type]
    game.use_seeded_dice()
    auto_setup(game)
    brett = game.state.map.piece("blue-brett")
    assert main(["reach", "dogfaces", "blue-brett", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["from"] == game.state.board.label(brett.hex)
    assert "opening position" in out.err
    assert main(["los", "dogfaces", "blue-brett", "red-brett", "--json"]) == 0
