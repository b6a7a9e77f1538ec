"""Setting the table: a map or scenario, its rule system's policies and game, the components."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tabletop.atomicfile import WriteError
from tabletop.board import Map
from tabletop.engine import savefile
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.game import Game
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.games import los_policy, move_policy, rule_system, ruleset

from .app import App, Component


def default_components() -> list[Component]:
    """The table's parts, in event order (first asked first) and drawing order."""
    from .boxes import BoxesPanel
    from .counters import CounterLayer
    from .extras import ExtrasLayer
    from .firing import Firing
    from .gameplay import GamePanel
    from .overlays import Overlays
    from .panels import Panels
    from .result import ResultDialog

    return [
        BoxesPanel(),
        GamePanel(),
        Firing(),
        Panels(),
        ExtrasLayer(),
        Overlays(),
        CounterLayer(),
        ResultDialog(),
    ]


class Autosaver:
    """The autosave hook (``Game.on_phase_end``): once started, writes the game after
    every phase. A failed write never stops play: it becomes a warning bar in the window
    (the reason and the last good save), and the next phase tries again."""

    def __init__(self, path: Path | None, source: str, last_good: Path | None = None) -> None:
        self.path = path
        self.source = source
        self.last_good = last_good
        self.started = False  # nothing is written while the table is being set up
        self.app: App | None = None

    def __call__(self, game: Game) -> None:
        if self.started:
            self.save(game)

    def start(self, game: Game, path: Path | None = None) -> bool:
        """Begin autosaving (into ``path`` if given) and save once now, unless the game
        goes on in the save it was loaded from: that file already holds this position,
        and opening a save never rewrites it (its next write comes with the next phase)."""
        if path is not None:
            self.path = path
            if self.app is not None:
                self.app.save_path = path
        self.started = True
        if self.path is not None and self.path == self.last_good:
            return True
        return self.save(game)

    def save(self, game: Game) -> bool:
        """Write the autosave; False (and the warning shown) if it failed."""
        if self.path is None:
            return True
        try:
            savefile.write_autosave(self.path, game, self.source)
        except OSError as exc:
            reason = exc.reason if isinstance(exc, WriteError) else (exc.strerror or str(exc))
            last = self.last_good if self.last_good is not None else "none yet"
            self._tell(f"autosave failed: {reason}; last good save: {last}", str(exc))
            return False
        self.last_good = self.path
        if self.app is not None:
            self.app.mark_saved()
        if self.app is not None and self.app.warning:
            self._tell("", f"autosave works again: {self.path}")
        return True

    def _tell(self, warning: str, line: str) -> None:
        if self.app is not None:
            self.app.warning = warning
            self.app.say(line)


def start_autosave(app: App, path: Path | None = None) -> bool:
    """Begin the autosave of a table made by ``open_table`` (into ``path`` if given) and
    write it once; False if that write failed (the window shows why)."""
    hook = app.play.on_phase_end
    if not isinstance(hook, Autosaver):
        return False
    if hook.last_good is None and app.source:  # a new game: the last one may be resumed
        last = savefile.latest_autosave(Path(app.source).stem, besides=path or hook.path)
        if last is not None:
            app.say(f"your last game of this scenario was saved: resume it with tabletop play --load {last}")
    return hook.start(app.play, path)


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
    seeded_dice: bool = False,
) -> App:
    """An App for a map or scenario (path or bare shipped name) with a game begun on it,
    or for a saved game (``load``). DataErrors if unreadable, SaveError for a bad save,
    ValueError for an unknown option. ``seeded_dice``: roll from ``seed`` even in a
    two-sided game (a picture that must repeat, ``tabletop render``; nobody plays it).

    Nothing is written while the table is set up (auto setup ends a phase): the
    autosave into ``autosave`` runs from the first phase ended after this returns, or
    from ``start_autosave``."""
    save_phase = Autosaver(autosave, source, last_good=load)  # a loaded save is a good one
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
            opened,
            ruleset(None if key == "free" else key),
            seed=seed,
            options=options,
            on_phase_end=save_phase,
        )
        if seeded_dice:
            game.use_seeded_dice()
        if setup == "auto":
            auto_setup(game)
    save_phase.source = source
    rules = rules or opened.rules
    key = None if rules == "free" else rules
    state = game.state.map
    app = open_game(
        game,
        opened,
        size=size,
        rules=key,
        policies=(los_policy(state, rules), move_policy(state, rules)),
        source=source,
        save_path=autosave or load,
    )
    save_phase.app = app
    game.on_phase_end = save_phase
    save_phase.started = autosave is not None
    open_on(app, key)
    add_parts(app, key)
    return app


def open_on(app: App, rules: str | None) -> None:
    """A rule system whose window extras name ``opening_hexes(state)`` opens the window
    on those hexes (a map too wide to read whole: D-Day at Omaha Beach's beach); Home
    still shows the whole map."""
    system = rule_system(rules)
    if system is None or system.window is None:
        return
    hexes = list(getattr(system.window(), "opening_hexes", lambda _s: [])(app.play.state))
    if hexes:
        xs, ys = zip(*(app.view.center(h) for h in hexes), strict=True)
        app.camera.fit((min(xs), min(ys), max(xs), max(ys)))


def add_parts(app: App, rules: str | None) -> None:
    """A rule system whose window extras name ``components()`` adds those window parts
    ahead of the table's own (a dialog of its own: Dogs of War's roster builder)."""
    system = rule_system(rules)
    if system is not None and system.window is not None:
        app.components[:0] = list(getattr(system.window(), "components", lambda: [])())


def open_game(
    game: Game,
    opened: Map | Scenario,
    *,
    size: tuple[int, int] = (1280, 800),
    rules: str | None = None,
    policies: tuple[LosPolicy, MovePolicy] | None = None,
    source: str = "",
    save_path: Path | None = None,
) -> App:
    """An App for a game already made on ``opened`` (the table ``open_table`` builds,
    and the way a test opens a rule system that is not installed): ``rules`` the rule
    system's key (None: free play), ``policies`` its LOS and move policies (free play's
    when not given)."""
    if isinstance(opened, Scenario):
        title = f"{opened.name} ({opened.board.name})"
        conditions = opened.conditions
    else:
        title = f"{opened.name} (free play)" if not opened.rules else opened.name
        conditions = frozenset()
    state = game.state.map
    los, move = policies if policies is not None else (FreePlayPolicy.for_map(state), FreePlayMovePolicy())
    parts = default_components()
    if isinstance(opened, Scenario) and opened.counters:  # its own counter sheet (pictures, an import's)
        from tabletop.engine.scenario_document import scenario_counters

        from .counters import CounterLayer

        parts = [CounterLayer(scenario_counters(opened)) if isinstance(c, CounterLayer) else c for c in parts]
    return App(
        state=state,
        title=title,
        los_policy=los,
        move_policy=move,
        conditions=conditions,
        rules=rules,
        size=size,
        components=parts,
        game=game,
        source=source,
        save_path=save_path,
    )
