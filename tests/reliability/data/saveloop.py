"""The kill -9 target of category 3: headless DOG SECTOR games that write a save after
every action (manual.json) and an autosave after every phase (auto.json), for ever;
with a third argument `once`, the next session: one write of each, then exit (a write
clears the temp files an earlier killed write left)."""

import sys
from pathlib import Path

from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset


def main(folder: Path, seed: int, once: bool = False) -> None:
    """Play game after game from ``seed`` on, saving all the time, until killed."""
    opened = open_map_or_scenario("dog-sector")
    mod = autoplayer_module(opened.rules)
    if once:
        game = new_game(opened, ruleset(opened.rules), seed=seed)
        auto_setup(game)
        for name in ("auto.json", "manual.json"):
            savefile.write_save(folder / name, game, "dog-sector")
        return
    while True:
        game = new_game(
            opened, ruleset(opened.rules), seed=seed,
            on_phase_end=lambda g: savefile.write_save(folder / "auto.json", g, "dog-sector"),
        )  # fmt: skip
        auto_setup(game)
        while game.state.result is None and game.run({mod.SIDE: mod.autoplayer()}, limit=1):
            savefile.write_save(folder / "manual.json", game, "dog-sector")
        seed += 1


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), once=sys.argv[3:] == ["once"])
