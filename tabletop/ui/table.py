"""Setting the table: a map or scenario, its rule system's policies and game, the components."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tabletop.engine import savefile
from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.games import los_policy, move_policy, ruleset

from .app import App, Component


def default_components() -> list[Component]:
    """The table's parts, in event order (first asked first) and drawing order."""
    from .counters import CounterLayer
    from .gameplay import GamePanel
    from .overlays import Overlays
    from .panels import Panels

    return [GamePanel(), Panels(), Overlays(), CounterLayer()]


def open_table(
    source: str,
    *,
    rules: str | None = None,
    size: tuple[int, int] = (1280, 800),
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    setup: str = "auto",
    load: Path | None = None,
    autosave: Path | None = None,
    scenario: str | None = None,
) -> App:
    """An App for a map or scenario (path or bare shipped name) with a game begun on it,
    or for a saved game (``load``). DataErrors if unreadable, SaveError for a bad save,
    ValueError for an unknown option."""

    def save_phase(game: Game) -> None:
        if autosave is not None:
            savefile.write_save(autosave, game, source)

    if load is not None:
        game, source, opened = load_game(
            load, open_map_or_scenario, ruleset, on_phase_end=save_phase, scenario=scenario
        )  # ``scenario``: one the player named to load the save on, instead of the save's own
    else:
        opened = open_map_or_scenario(source)
        if Path(source).is_file():
            source = str(Path(source).resolve())  # a save must find it from any folder
        key = rules or opened.rules
        game = new_game(
            opened, ruleset(None if key == "free" else key), seed=seed, options=options, on_phase_end=save_phase
        )
        if setup == "auto":
            auto_setup(game)
    if isinstance(opened, Scenario):
        title = f"{opened.name} ({opened.board.name})"
        conditions = opened.conditions
        rules = rules or opened.rules
    else:
        title = f"{opened.name} (free play)" if not opened.rules else opened.name
        conditions = frozenset()
        rules = rules or opened.rules
    state = game.state.map
    return App(
        state=state,
        title=title,
        los_policy=los_policy(state, rules),
        move_policy=move_policy(state, rules),
        conditions=conditions,
        rules=None if rules == "free" else rules,
        size=size,
        components=default_components(),
        game=game,
        source=source,
        save_path=load or autosave,
    )
