"""Two-sided games in the engine (issue 12 items 1, 2 and 4), played with SKIRMISH, the
tests' own two-sided rule system (tests/twosided): who acts (alternation, a secret
simultaneous choice, a reaction window inside a move, a loop in the turn), what each
side may know (views, the log as a side reads it, undo that refuses to cross a
reveal), bot against bot through the code ``tabletop sim`` uses, replay and saves."""

from __future__ import annotations

from pathlib import Path

import pytest
import twosided
from helpers import small_map
from twosided import bots, rules

from tabletop import sim
from tabletop.engine import savefile
from tabletop.engine.game import COMMIT, PASS, REVEAL, Game, IllegalAction
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario

BOARD = small_map(rules.MAP_YAML)
SCENARIO = Scenario("SKIRMISH", BOARD, "twosided", (), frozenset(), Path("skirmish.yaml"))
SYSTEM = twosided.RULES  # its bots, their seats and its judge, as sim reads them


def started(seed: int = 1) -> Game:
    game = new_game(SCENARIO, rules.ruleset(), seed=seed)
    auto_setup(game)
    return game


def to_bids(game: Game) -> None:
    """Play the automatic draw, up to the secret bids."""
    game.run()
    assert game.state.phase == "bid"


def bid(game: Game, side: str, card: str) -> None:
    game.play({"do": COMMIT, "side": side, "action": {"do": "bid", "side": side, "card": card}})


def test_the_secret_bid_is_hidden_from_the_other_side_until_revealed() -> None:
    """Item 1/2 (Devil Dogs 5.2 kind): each side commits in secret; the other's view and
    log hold that it chose, not what; the reveal applies both together."""
    game = started()
    to_bids(game)
    assert game.actor() == "red" and [a["action"]["card"] for a in game.choices("red")] == ["1", "2", "3"]
    bid(game, "red", "2")
    assert game.actor() == "blue" and game.choices("red") == []
    blue = game.side_view("blue")
    assert blue.state.secret == {"red": None}
    assert all("2" not in line for e in blue.log[-1:] for line in e.lines)
    assert blue.log[-1].action == {"do": COMMIT, "side": "red"}
    assert game.side_view("red").state.secret["red"] == {"do": "bid", "side": "red", "card": "2"}
    with pytest.raises(IllegalAction, match="already chosen"):
        bid(game, "red", "1")
    with pytest.raises(IllegalAction, match="must first choose in secret"):
        game.play({"do": "end-phase"})
    bid(game, "blue", "1")
    assert game.actor() == "auto" and game.proposal() == {"do": REVEAL}
    game.play({"do": REVEAL})
    assert game.state.secret == {} and game.entries[game.head].revealed == ["red", "blue"]
    assert (game.state.track("bid-red"), game.state.track("bid-blue")) == (2, 1)


def test_activations_alternate_initiative_first_and_the_turn_loops() -> None:
    """Item 1 (Dogs of War activations, Devil Dogs 5.6/5.10): the higher bid acts first,
    then the other side; after the first round the sequence loops back to the draw in
    the same turn (``next_phase``), and the second round ends the turn."""
    game = started()
    to_bids(game)
    bid(game, "red", "1")
    bid(game, "blue", "2")
    game.run()
    assert game.state.phase == "act" and game.actor() == "blue"
    game.play({"do": "hold", "side": "blue"})
    assert game.actor() == "red"
    with pytest.raises(IllegalAction, match="red acts now"):
        game.play({"do": "hold", "side": "blue"})
    game.play({"do": "hold", "side": "red"})
    game.run()
    assert (game.state.turn, game.state.phase) == (1, "bid")  # round 2 of turn 1
    bid(game, "red", "2")
    bid(game, "blue", "1")
    game.run()
    game.play({"do": "hold", "side": "red"})
    game.play({"do": "hold", "side": "blue"})
    game.run()
    assert (game.state.turn, game.state.phase) == (2, "bid")


def _blue_runs_past_the_red_sentry(game: Game) -> None:
    """Blue's runner (put in 0602 by an edit) runs 0502 (next to the red sentry in
    0402), then 0501 (out of its reach)."""
    game.play({"do": "move", "piece": "B-run", "to": "0602", "edit": True})
    to_bids(game)
    bid(game, "red", "1")
    bid(game, "blue", "2")
    game.run()
    game.play({"do": "move", "piece": "B-run", "path": ["0502", "0501"]})


def test_a_reaction_window_stops_the_move_on_a_hit() -> None:
    """Item 1 (op-fire, overwatch): after the hex next to the red sentry, red may react;
    its shot is logged under the window; a hit (4-6) stops the move there."""
    game = started()
    _blue_runs_past_the_red_sentry(game)
    opener = game.head
    assert game.state.window == {"side": "red", "after": game.entries[opener].action}
    assert game.actor() == "red" and game.proposal() is None
    assert game.choices("red") == [{"do": "shoot", "piece": "R-sen", "target": "B-run"}, {"do": PASS}]
    assert game.choices("blue") == []
    game.roll_by_hand([5])
    game.play({"do": "shoot", "piece": "R-sen", "target": "B-run"})
    assert game.entries[game.head].window == opener and game.state.window is None
    assert BOARD.label(game.state.map.piece("B-run").hex) == "0502"
    assert game.actor() == "red"  # blue's move is over: red activates


def test_a_reaction_that_misses_or_passes_lets_the_move_resume() -> None:
    """Item 1: a miss (1-3) or a pass closes the window and the move goes on hex by hex."""
    for reaction in ({"do": "shoot", "piece": "R-sen", "target": "B-run"}, {"do": PASS}):
        game = started()
        _blue_runs_past_the_red_sentry(game)
        game.roll_by_hand([2])
        game.play(reaction)
        assert game.state.window is None and game.proposal() == {"do": "step", "piece": "B-run"}
        game.play(game.proposal() or {})
        assert BOARD.label(game.state.map.piece("B-run").hex) == "0501"


def test_replay_and_save_round_trip_through_bids_windows_and_loops(tmp_path: Path) -> None:
    """Replay from seed and log equals the final state; a save (JSON, with a map built
    here) loads back to the same game and the same views."""
    game = started(seed=7)
    game.run({s: bots.RandomBot(seed=3) for s in rules.SIDES}, limit=150)
    assert any(e.window is not None for e in game.entries)
    assert any(e.action["do"] == REVEAL for e in game.entries)
    assert game.replay(check=True).to_json() == game.state.to_json()
    data = savefile.to_json(game, "skirmish.yaml", folder=tmp_path)
    loaded = savefile.restore(data, BOARD, rules.ruleset())
    assert loaded.state.to_json() == game.state.to_json()
    assert [e.to_json() for e in loaded.entries] == [e.to_json() for e in game.entries]
    assert loaded.side_view("red").state.to_json() == game.side_view("red").state.to_json()


def test_a_pending_secret_choice_survives_a_save() -> None:
    game = started()
    to_bids(game)
    bid(game, "red", "2")
    loaded = savefile.restore(savefile.to_json(game, "skirmish.yaml"), BOARD, rules.ruleset())
    assert loaded.state.secret == {"red": {"do": "bid", "side": "red", "card": "2"}}
    assert loaded.actor() == "blue"


def test_undo_refuses_to_cross_a_reveal_in_a_two_sided_game() -> None:
    """Item 2: undo never reveals: once the bids are shown (or a card drawn), neither
    side may take the entry back; before the reveal a commit may be undone."""
    game = started()
    to_bids(game)
    bid(game, "red", "2")
    game.undo()  # nothing was shown yet
    assert game.state.secret == {}
    bid(game, "red", "2")
    bid(game, "blue", "1")
    game.play({"do": REVEAL})
    assert game.can_undo() is not None and "showed red, blue what was hidden" in str(game.can_undo())
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        game.undo()
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        game.goto(-1)


def test_the_log_as_a_side_reads_it_keeps_the_other_hand_private() -> None:
    game = started()
    to_bids(game)
    red_lines = [line for e in game.log_view("red") for line in e.lines]
    assert any(line.startswith("red draws ") for line in red_lines)
    assert [line for line in red_lines if line.startswith("blue draws")] == ["blue draws a card"]
    assert "blue draws a card" in red_lines
    assert any(line.startswith("[only blue]") for line in game.log_lines())


@pytest.mark.parametrize("name", ["runner", "random"])
def test_a_bots_choice_does_not_change_with_the_opponents_hidden_cards(name: str) -> None:
    """Item 2 (the issue's test): change blue's hand and deck; red's view, and so red's
    bot's choice, stay the same."""
    chosen = []
    for hand, deck in (
        (["1", "2", "3"], ["2", "3", "1", "1", "3"]),
        (["3", "3", "3"], ["1", "1", "1", "2", "2"]),
    ):
        game = started()
        to_bids(game)
        game.state.hands["blue"] = list(hand)
        game.state.decks["blue"].cards = list(deck)
        view = game.side_view("red")
        assert view.state.hands["blue"] == ["?", "?", "?"]
        chosen.append((view.state.to_json(), bots.BOTS[name]().choose(view)))
    assert chosen[0] == chosen[1]


def test_bot_against_bot_through_sim_reports_each_side() -> None:
    """Item 4: a bot on every seat; per side wins, losses, draws and mean score, and the
    games' mean length; the real bot beats the random one; the same run repeats."""

    def run(seats: dict[str, str]) -> dict[str, object]:
        return sim.simulate(
            "skirmish.yaml", 12, 1, bots=seats, opened=SCENARIO, rules=rules.ruleset(), system=SYSTEM
        )

    report = run({"blue": "random"})
    (group,) = report["groups"]  # type: ignore[index]
    assert report["failed"] == [] and report["bots"] == {"red": "runner", "blue": "random"}
    assert group["played"] == 12
    assert group["sides"]["red"]["wins"] > group["sides"]["blue"]["wins"]
    for side in rules.SIDES:
        c = group["sides"][side]
        assert c["wins"] + c["losses"] + c["draws"] == 12
    assert group["sides"]["red"]["wins"] == group["sides"]["blue"]["losses"]
    assert group["mean_turns"] > 0 and group["mean_actions"] > 0
    assert "runner" in sim.table(report) and "mean length" in sim.table(report)
    again = run({"blue": "random"})
    assert again["groups"] == report["groups"]
    with pytest.raises(sim.SimError, match="no bot 'clever'"):
        run({"red": "clever"})


def test_a_game_with_no_end_is_a_draw_at_the_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 4: where the rules have no last turn, sim stops at the cap: a draw for all."""
    monkeypatch.setattr(bots, "TURN_CAP", 1)
    monkeypatch.setattr(rules, "TO_WIN", 99)
    report = sim.simulate("skirmish.yaml", 3, 1, opened=SCENARIO, rules=rules.ruleset(), system=SYSTEM)
    (group,) = report["groups"]
    assert group["draws_at_cap"] == 3 and group["sides"]["red"]["draws"] == 3


def test_the_solitaire_player_decides_inside_an_automatic_phase() -> None:
    """Item 1 (E1; Omaha's choices inside German phases): DOG SECTOR's choose-landing
    names the American player as the actor of automatic phase 1 while units wait, so
    ``Game.run`` with a bot on the American seat plays the landing (no sim special
    case); without the option phase 1 stays the rules' own, and the state's JSON has no
    trace of the two-sided machinery (saves unchanged)."""
    from tabletop.engine.scenario import open_map_or_scenario
    from tabletop.games import ruleset
    from tabletop.games.dog_sector.autoplayer import autoplayer

    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario)
    game = new_game(opened, ruleset(opened.rules), seed=1, options={"choose-landing": True}, history=False)
    auto_setup(game)
    game.run()
    assert (game.state.phase, game.actor()) == ("land", "american")
    assert {a["do"] for a in game.choices("american")} == {"land-unit"}
    game.run({"american": autoplayer()}, limit=40)
    assert game.state.phase != "land" or game.state.turn > 1
    assert not {"secret", "window"} & game.state.to_json().keys()
    plain = new_game(opened, ruleset(opened.rules), seed=1, history=False)
    auto_setup(plain)
    assert (plain.state.phase, plain.actor()) == ("land", "auto")


def test_sim_bot_flag_names_a_side_and_a_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: ``--bot SIDE=NAME`` picks among the rule system's bots; a side or a name
    it has no bot for is refused before any game, exit 2, with what to give instead."""
    from tabletop.cli import main

    assert main(["sim", "dog-sector", "--games", "1", "--by", "none", "--bot", "german=autoplayer"]) == 2
    assert "the bots play american, not 'german'" in capsys.readouterr().err
    assert main(["sim", "dog-sector", "--games", "1", "--by", "none", "--bot", "american=clever"]) == 2
    assert "choose one of: autoplayer" in capsys.readouterr().err


def test_play_seats_a_named_bot_of_the_descriptor(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: `play --bot SIDE=NAME` picks among the descriptor's bots, `--bot SIDE`
    seats the side's default; an unknown name lists the ones there are."""
    from tabletop.cli import main
    from tabletop.games import bot, bot_names
    from tabletop.games.dog_sector.autoplayer import AmericanAutoplayer

    assert bot_names("dog_sector") == ({"american": "autoplayer"}, ["autoplayer", "simple"])  # issue 20: simple kept
    assert isinstance(bot("dog_sector", "american"), AmericanAutoplayer)
    small = ["--size", "640x400"]
    assert main(["play", "dog-sector", "--bot", "american=autoplayer", "--frames", "1", *small]) == 0
    capsys.readouterr()
    assert main(["play", "dog-sector", "--bot", "american=clever", "--frames", "1", *small]) == 2
    err = capsys.readouterr().err
    assert "--bot american=clever: DOG SECTOR has no bot 'clever'; choose one of: autoplayer" in err
    with pytest.raises(LookupError, match="bots play american, not 'german'"):
        bot("dog_sector", "german")
    with pytest.raises(LookupError, match="has no bots"):
        bot("free", "us")  # free play has none (omaha has a part-1 bot since issue 17)
