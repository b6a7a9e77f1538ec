"""Load every save named on the command line; print one line per save that fails.
Exit 0 when all load (the check after the kill -9 loop)."""

import sys
from pathlib import Path

from tabletop.engine.newgame import load_game
from tabletop.engine.savefile import SaveError
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import ruleset

if __name__ == "__main__":
    bad = 0
    for name in sys.argv[1:]:
        try:
            game, _, _ = load_game(Path(name), open_map_or_scenario, ruleset)
        except SaveError as exc:
            print(f"{name}: does not load: {exc}")
            bad += 1
        else:
            print(f"{name}: loads, {len(game.entries)} entries")
    sys.exit(1 if bad else 0)
