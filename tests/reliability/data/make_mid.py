"""Make mid.json byte for byte as the findings do (seed 7, 60 bot actions after auto
setup -> turn 2, swamp, 62 entries): python make_mid.py OUT."""

import sys
from pathlib import Path

from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset

if __name__ == "__main__":
    opened = open_map_or_scenario("dog-sector")
    game = new_game(opened, ruleset(opened.rules), seed=7)
    auto_setup(game)
    mod = autoplayer_module(opened.rules)
    game.run({mod.SIDE: mod.autoplayer()}, limit=60)
    savefile.write_save(Path(sys.argv[1]), game, "dog-sector")
