"""Finding W7b and section D: dice typed by hand (used or still pending) survive a save
and reload; the reloaded game goes on exactly as the original.

python handdice.py pending|used -> prints "same" or "differs: ..."."""

import sys
from pathlib import Path

from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset

if __name__ == "__main__":
    mod = autoplayer_module("dog_sector")
    seats = {mod.SIDE: mod.autoplayer()}
    g = new_game(open_map_or_scenario("dog-sector"), ruleset("dog_sector"), seed=1)
    auto_setup(g)
    g.run(seats, limit=5)
    if sys.argv[1] == "pending":
        g.roll_by_hand([1, 1, 1, 1])
    else:
        g.roll_by_hand([6, 6, 6, 1, 2, 3, 4, 5])
        g.run(seats, limit=40)
    savefile.write_save(Path("s.json"), g, "dog-sector")
    g2, _, _ = load_game(Path("s.json"), open_map_or_scenario, ruleset)
    problems = []
    if g.hand_dice != g2.hand_dice:
        problems.append(f"hand dice {g.hand_dice} became {g2.hand_dice}")
    g.run(seats, limit=3)
    g2.run(seats, limit=3)
    if g.state.to_json() != g2.state.to_json():
        problems.append("the states differ 3 actions later")
    print("differs: " + "; ".join(problems) if problems else "same")
