"""The DOG SECTOR autoplayer (``tabletop.games.dog_sector.autoplayer``): an engine Bot
for the American player's phases 5 (American Beach Activity) and 6 (American Fire).

``Game.play`` refuses an illegal action with IllegalAction, so a whole game played by
the bot without an exception shows that every action it chose was legal.
"""

from __future__ import annotations

from functools import cache

import pytest

from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.games import autoplayer, autoplayer_module, rule_system, ruleset
from tabletop.games.dog_sector import autoplayer as bot_module
from tabletop.games.dog_sector import victory
from tabletop.games.dog_sector.autoplayer import AmericanAutoplayer, assess


@cache
def scenario() -> Scenario:
    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario)
    return opened


def play(seed: int, bombardment: str = "heavy", *, history: bool = False) -> Game:
    game = new_game(scenario(), ruleset("dog_sector"), seed=seed, options={"bombardment": bombardment},
                    history=history)  # fmt: skip
    auto_setup(game)
    game.run({"american": AmericanAutoplayer()})
    return game


@pytest.mark.parametrize("bombardment", ["light", "moderate", "heavy"])
def test_the_bot_plays_whole_games_with_legal_actions_only(bombardment: str) -> None:
    """Phases 5 and 6 at every Table 2 bombardment level: two games each, start to
    finish (the last turn or no American left), no action refused."""
    for seed in (1, 2):
        game = play(seed, bombardment)
        assert game.state.result is not None
        done = {e.action["do"] for e in game.entries}
        assert "move" in done and "fire" in done  # phase 5 and phase 6 were played
        rank, cleared = assess(game.state)
        assert 0 <= cleared <= 6 and rank in bot_module.ranks()


def test_the_same_seed_gives_the_same_game_and_log() -> None:
    """No randomness of its own: the same seed and options give the same actions (phases
    5 and 6), the same log and the same result (Table 7)."""
    a, b = play(7, "moderate"), play(7, "moderate")
    assert [e.action for e in a.entries] == [e.action for e in b.entries]
    assert a.log_lines() == b.log_lines()
    assert a.state.result == b.state.result


def test_a_game_played_by_the_bot_replays_from_its_log() -> None:
    """The bot's actions are plain data: the log replays to the same final state."""
    game = play(3, "heavy")
    assert game.replay().to_json() == game.state.to_json()


def test_the_bot_fights_with_heavy_bombardment() -> None:
    """Sanity, not strength: with a heavy bombardment (Table 2) the bot's fire (phase 6,
    Table 6) removes German units in every one of 5 games (an idle player removes none;
    seeds 1-5 remove 19, 15, 15, 13 and 10 of the 24) and clears trench sections
    (Table 7) in most of them (3, 2, 2, 0, 0)."""
    removed, cleared = [], []
    for seed in range(1, 6):
        game = play(seed, "heavy")
        germans = [p for p in game.state.map.pieces() if p.kind == "unit" and p.side == "german"]
        removed.append(24 - len(germans))
        cleared.append(len(victory.sections_cleared(game.state)))
    assert min(removed) >= 5 and sum(removed) >= 45, removed
    assert sum(1 for c in cleared if c) >= 3, cleared


def test_in_other_phases_the_bot_ends_the_phase() -> None:
    """Phases 1-4 and 7 are the rules' own; asked anyway, the bot ends the phase."""
    game = new_game(scenario(), ruleset("dog_sector"), seed=1, history=False)
    auto_setup(game)
    assert game.state.phase == "land"
    assert AmericanAutoplayer().choose(game, "american") == {"do": "end-phase"}


def test_phase_6_fires_every_unit_with_a_target_then_ends() -> None:
    """Phase 6: the bot's fire actions are legal, one per unit, and then it ends the
    phase; no unit fires where friendly fire would turn the hit on Americans."""
    from tabletop.games.dog_sector import american

    game = new_game(
        scenario(), ruleset("dog_sector"), seed=4, options={"bombardment": "heavy"}, history=False
    )
    auto_setup(game)
    bot = AmericanAutoplayer()
    fired: list[str] = []
    while game.state.turn < 5 and game.state.result is None:
        action = game.proposal() or bot.choose(game, "american")
        if action["do"] == "fire":
            assert american.friendly_fire_hexes(game.state, action["unit"], action["target"]) == []
            assert action["unit"] not in fired
            fired.append(action["unit"])
        if action["do"] == "end-phase" and game.state.phase == "american-fire":
            fired.clear()
        game.play(action)
    assert game.state.turn == 5


def test_the_descriptor_names_the_autoplayer() -> None:
    # issue 12 item 5: the autoplayer is DOG SECTOR's default bot for the American side
    system = rule_system("dog_sector")
    assert system is not None and system.default_bots == {"american": "autoplayer"}
    assert isinstance(system.bots["autoplayer"](), AmericanAutoplayer)
    assert autoplayer_module("dog_sector") is bot_module
    assert isinstance(autoplayer("dog_sector"), AmericanAutoplayer)
    assert autoplayer_module("dog_sector").SIM_BY == "bombardment"
    with pytest.raises(LookupError, match="no autoplayer"):
        autoplayer("free")  # free play has none (omaha has one since issue 17)
