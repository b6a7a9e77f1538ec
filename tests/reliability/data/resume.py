"""Determinism (section D): a game saved after N actions, reloaded and continued must end
in the same state and log as the same game played without a break.

python resume.py SEED N OPTIONS_JSON -> prints "same" or "differs: ..."; exit 0 either way."""

import json
import sys
from pathlib import Path

from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset

LIMIT = 3000


def play(seed: int, options: dict, stop: int | None, save: Path) -> tuple[dict, list]:
    """Play with the bot to the end (or LIMIT), with a save and reload after ``stop`` actions."""
    opened = open_map_or_scenario("dog-sector")
    mod = autoplayer_module(opened.rules)
    seats = {mod.SIDE: mod.autoplayer()}
    game = new_game(opened, ruleset(opened.rules), seed=seed, options=options)
    auto_setup(game)
    if stop is not None:
        game.run(seats, limit=stop)
        savefile.write_save(save, game, "dog-sector")
        game, _, _ = load_game(save, open_map_or_scenario, ruleset)
    game.run(seats, limit=LIMIT)
    return game.state.to_json(), [e.to_json() for e in game.entries]


if __name__ == "__main__":
    seed, n, options = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
    whole = play(seed, options, None, Path("unused.json"))
    broken = play(seed, options, n, Path(f"resume-{seed}-{n}.json"))
    if whole == broken:
        print("same")
    else:
        print(f"differs: states equal {whole[0] == broken[0]}, logs {len(whole[1])} vs {len(broken[1])} entries")
