"""The game engine: what undo snapshots, replays and saves cost against plain play.

A DOG SECTOR game played by the autoplayer is the workload. The baseline is the same
game played with ``history=False`` (no snapshot per action), measured in the same run;
the ratios say what the log's conveniences cost: a snapshot after every action (instant
undo), a replay of the whole log from the seed (loading a save checks one), and writing
the save. The setup solver is timed against the whole game it begins.
"""

from __future__ import annotations

import json
import time
from typing import Any

from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import autoplayer_module, ruleset
from tabletop.shipped import resolve


def _play(seed: int, history: bool) -> tuple[Any, float, float]:
    scenario = load_scenario(resolve("dog-sector", "scenarios"))  # type: ignore[arg-type]
    bot = autoplayer_module("dog_sector").autoplayer()
    start = time.perf_counter()
    game = new_game(scenario, ruleset("dog_sector"), seed=seed, history=history)
    auto_setup(game)
    setup = time.perf_counter() - start
    game.run({"american": bot})
    return game, time.perf_counter() - start, setup


def _frame_seconds(app: Any, surface: Any, frames: int = 60) -> float:
    app.draw(surface)
    start = time.perf_counter()
    for _ in range(frames):
        app.update(1 / 60)
        app.draw(surface)
    return (time.perf_counter() - start) / frames


def frames() -> dict[str, object]:
    """Frame time of the DOG SECTOR table in the player's phases (the game box lists the
    choices, the selection box the unit's AP, the friendly-fire ring) against the same
    map and pieces in free play, measured in the same run."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from tabletop.ui.table import open_table

    pygame.init()
    surface = pygame.Surface((1280, 800))
    app = open_table("dog-sector", size=(1280, 800), seed=3)
    app.components[0].paused = True
    while app.play.state.phase != "activity":
        app.act(app.play.proposal())
    free = open_table("dog-sector", rules="free", size=(1280, 800), seed=3)
    base = _frame_seconds(free, surface)
    app.selected = next(p.id for p in app.state.pieces() if p.side == "american")
    activity = _frame_seconds(app, surface)
    app.act({"do": "end-phase"})
    app.hover = next(p.hex for p in app.state.pieces() if p.side == "german")
    fire = _frame_seconds(app, surface)
    return {
        "free_play_fps": round(1 / base),
        "phase_5_vs_free_play": round(activity / base, 2),
        "phase_6_hover_vs_free_play": round(fire / base, 2),
    }


def run(games: int = 5) -> dict[str, object]:
    plain = snap = replay = save = setup = 0.0
    actions = size = 0
    for seed in range(1, games + 1):
        _, t_plain, _ = _play(seed, history=False)
        game, t_snap, t_setup = _play(seed, history=True)
        start = time.perf_counter()
        replayed = game.replay()
        replay += time.perf_counter() - start
        assert replayed.to_json() == game.state.to_json()
        start = time.perf_counter()
        text = json.dumps(savefile.to_json(game, "dog-sector"))
        save += time.perf_counter() - start
        plain, snap, setup = plain + t_plain, snap + t_snap, setup + t_setup
        actions += len(game.entries)
        size += len(text)
    return {
        "games": games,
        "actions_per_game": actions / games,
        "seconds_per_game_plain": round(plain / games, 3),
        "snapshots_vs_plain": round(snap / plain, 2),
        "replay_vs_plain": round(replay / plain, 2),
        "save_json_vs_plain": round(save / plain, 3),
        "setup_vs_plain": round(setup / plain, 3),
        "save_kib_per_game": round(size / games / 1024, 1),
        "frames": frames(),
    }
