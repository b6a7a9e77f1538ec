"""Dice no player can foresee (issue 12 item 3), checked on SKIRMISH, the tests' own
two-sided rule system (tests/twosided), and on DOG SECTOR, the solitaire game.

In a two-sided game the dice are keyed by a per-game secret held in memory only; each
entry logs the values it drew (``stream``), so the log replays the game exactly, but a
save holds nothing from which the next rolls follow: its ``seed`` is only the game's
public id. A solitaire game keeps its seeded, reproducible dice and its saves as they
were."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from helpers import small_map
from twosided import bots, rules

from tabletop.engine import savefile
from tabletop.engine.game import Game, IllegalAction
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.games import ruleset
from tabletop.games.dog_sector.autoplayer import AmericanAutoplayer

BOARD = small_map(rules.MAP_YAML)
SCENARIO = Scenario("SKIRMISH", BOARD, "twosided", (), frozenset(), Path("skirmish.yaml"))
MANY = {"do": "roll", "n": 20, "sides": 100, "purpose": "test: 20D100"}  # two alike: 100**-20


def started(seed: int = 7) -> Game:
    game = new_game(SCENARIO, rules.ruleset(), seed=seed)
    auto_setup(game)
    return game


def played(seed: int = 7, limit: int = 60) -> Game:
    """A SKIRMISH game some way in: draws, secret bids, moves with reaction windows."""
    game = started(seed)
    game.run({s: bots.RandomBot(seed=3) for s in rules.SIDES}, limit=limit)
    assert game.state.result is None and any(e.stream for e in game.entries)
    return game


def faces(game: Game) -> tuple[int, ...]:
    """The faces of a 20D100 roll played now (a table action: any game may roll)."""
    return game.play(dict(MANY)).rolls[-1].result


def restored(game: Game, tmp_path: Path | None = None) -> Game:
    return savefile.restore(savefile.to_json(game, "skirmish.yaml", folder=tmp_path), BOARD, rules.ruleset())


def test_a_two_sided_game_rolls_secret_dice_a_solitaire_game_seeded_ones() -> None:
    """The test for secret dice: the rules' ``secret_dice`` if set, else two-sided."""
    assert started().secret_dice
    solitaire = new_game(dog_sector(), ruleset("dog_sector"), seed=1, history=False)
    assert not solitaire.secret_dice


def test_the_same_seed_and_the_same_log_give_different_next_rolls() -> None:
    """Item 3: the seed does not fix a two-sided game's dice. Two games from the same
    seed, and a game and its own save loaded (the same seed and the same log so far),
    roll different faces next."""
    assert faces(started(seed=5)) != faces(started(seed=5))
    game = played()
    loaded = restored(game)
    assert [e.to_json() for e in loaded.entries] == [e.to_json() for e in game.entries]
    assert faces(loaded) != faces(game)


def test_the_save_holds_neither_the_secret_nor_the_stream_of_the_seed() -> None:
    """Item 3: the save's text does not contain the secret; its ``seed`` is the public
    game id, and the faces the game rolls are not the ones that seed gives."""
    game = played()
    text = json.dumps(savefile.to_json(game, "skirmish.yaml"))
    secret = game._secret
    assert secret is not None
    assert secret.hex() not in text and secret.hex().upper() not in text
    assert str(int.from_bytes(secret, "big")) not in text
    data = json.loads(text)
    assert data["seed"] == 7
    secret_game = new_game(SCENARIO, rules.ruleset(), seed=7)
    seeded_game = new_game(SCENARIO, rules.ruleset(), seed=7)
    seeded_game.use_seeded_dice()
    for g in (secret_game, seeded_game):
        auto_setup(g)
    # the same position, the same 20D100: alike only by a 100**-20 chance
    assert faces(secret_game) != faces(seeded_game)


def test_load_replays_to_the_saved_position_exactly(tmp_path: Path) -> None:
    """Item 3: the log alone (logged faces, no secret) gives back the saved position,
    through bids, reaction windows and loops, and a fresh replay of the loaded log too."""
    game = played(limit=150)
    loaded = restored(game, tmp_path)
    assert loaded.state.to_json() == game.state.to_json()
    assert loaded.replay(check=True).to_json() == game.state.to_json()
    assert [r.text() for e in loaded.entries for r in e.rolls] == [
        r.text() for e in game.entries for r in e.rolls
    ]
    assert loaded.side_view("blue").state.to_json() == game.side_view("blue").state.to_json()


def test_play_continues_after_a_load_with_fresh_dice_and_saves_again() -> None:
    """Item 3: after a load the game goes on to its end with new unpredictable dice
    (a fresh secret); the continued game's own save loads back to the same position."""
    game = played()
    loaded = restored(game)
    assert loaded._secret is not None and loaded._secret != game._secret
    loaded.run({s: bots.RandomBot(seed=4) for s in rules.SIDES}, limit=2000)
    assert loaded.state.result is not None
    assert loaded.replay(check=True).to_json() == loaded.state.to_json()
    again = restored(loaded)
    assert again.state.to_json() == loaded.state.to_json()


def test_a_two_sided_game_cannot_be_taken_back_across_a_roll() -> None:
    """No re-rolling by undo: both sides saw the faces, so a two-sided game refuses to
    go back across a roll (a choice made again knowing them would be a reroll; and
    after a load the secret is new, so the same position would roll new faces)."""
    game = started()
    game.play(dict(MANY))
    before = game.state.to_json()
    assert game.can_undo() == (
        f"entry {game.head} (roll) rolled dice both sides saw: a two-sided game cannot be taken back "
        "across a roll; play on"
    )
    with pytest.raises(IllegalAction):
        game.undo()
    assert game.state.to_json() == before


def test_solitaire_undo_and_redo_replay_the_logged_faces() -> None:
    """A solitaire game may undo a roll: redo gives the same faces (seeded dice)."""
    game = new_game(dog_sector(), ruleset("dog_sector"), seed=1)
    auto_setup(game)
    first = game.play(dict(MANY)).rolls[-1].result
    game.undo()
    game.redo()
    assert game.entries[game.head].rolls[-1].result == first
    assert game.replay(check=True).to_json() == game.state.to_json()


def test_a_save_with_edited_dice_is_refused() -> None:
    """The logged values are checked when the log is replayed: a value off the die, or
    one too few, is refused with the entry it is in."""
    game = played()
    data = savefile.to_json(game, "skirmish.yaml")
    at = next(i for i, e in enumerate(data["entries"]) if e.get("stream"))
    off = json.loads(json.dumps(data))
    off["entries"][at]["stream"][0] = 99
    with pytest.raises(savefile.SaveError, match=rf"entries\[{at}\]"):
        savefile.restore(off, BOARD, rules.ruleset())
    short = json.loads(json.dumps(data))
    short["entries"][at]["stream"] = []
    with pytest.raises(savefile.SaveError, match=rf"entries\[{at}\]"):
        savefile.restore(short, BOARD, rules.ruleset())
    bad = json.loads(json.dumps(data))
    bad["entries"][at]["stream"] = ["six"]
    with pytest.raises(savefile.SaveError, match=rf"entries\[{at}\]\.stream\[0\]"):
        savefile.restore(bad, BOARD, rules.ruleset())


@cache
def dog_sector() -> Scenario:
    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario)
    return opened


def dog_game(seed: int) -> Game:
    game = new_game(dog_sector(), ruleset("dog_sector"), seed=seed, options={"bombardment": "heavy"})
    auto_setup(game)
    game.run({"american": AmericanAutoplayer()}, limit=120)
    return game


def test_dog_sector_keeps_seeded_dice_and_its_saves_as_they_were() -> None:
    """Item 3: solitaire games keep seeded, reproducible dice: the same seed and the same
    actions roll the same faces; the save holds the seed and the log (no ``stream``),
    and replays from them."""
    game, twin = dog_game(3), dog_game(3)
    assert [e.to_json() for e in game.entries] == [e.to_json() for e in twin.entries]
    assert any(e.rolls for e in game.entries)
    data = savefile.to_json(game, "dog-sector")
    assert set(data) == {
        "format",
        "version",
        "source",
        "rules",
        "seed",
        "initial",
        "entries",
        "head",
        "snapshot",
        "hand_dice",
    }
    assert data["seed"] == 3 and not any("stream" in e for e in data["entries"])
    assert game.replay(check=True).to_json() == game.state.to_json()
