"""Finding T4: a die rolled (the window's roll action) before setup is done, in free
play. It must be played as a roll or refused with IllegalAction; nothing else may raise,
and no piece may move. python setuproll.py SCENARIO_OR_MAP -> prints "ok: ..." (exit 0)."""

import sys

from tabletop.engine.game import IllegalAction
from tabletop.engine.newgame import new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import ruleset

if __name__ == "__main__":
    g = new_game(open_map_or_scenario(sys.argv[1]), ruleset("free"), seed=1)
    before = g.state.to_json()["pieces"]
    try:
        g.play({"do": "roll", "n": 1, "sides": 6, "purpose": "test"})
    except IllegalAction as exc:
        print(f"ok: refused: {exc}")
    else:
        after = g.state.to_json()["pieces"]
        if after != before:
            print("moved: the roll changed the pieces on the map")
            sys.exit(3)
        print("ok: played")
