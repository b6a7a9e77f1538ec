"""Setting the table: a map or scenario, its rule system's policies, and the components."""

from __future__ import annotations

from tabletop.engine.pieces import MapState
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.games import los_policy, move_policy

from .app import App, Component


def default_components() -> list[Component]:
    """The table's parts, in event order (first asked first) and drawing order."""
    from .counters import CounterLayer
    from .overlays import Overlays
    from .panels import Panels

    return [Panels(), Overlays(), CounterLayer()]


def open_table(source: str, *, rules: str | None = None, size: tuple[int, int] = (1280, 800)) -> App:
    """An App for a map or scenario (path or bare shipped name); DataErrors if unreadable."""
    opened = open_map_or_scenario(source)
    if isinstance(opened, Scenario):
        state = opened.state()
        title = f"{opened.name} ({opened.board.name})"
        conditions = opened.conditions
        rules = rules or opened.rules
    else:
        state = MapState.of(opened)
        title = f"{opened.name} (free play)" if not opened.rules else opened.name
        conditions = frozenset()
        rules = rules or opened.rules
    return App(
        state=state,
        title=title,
        los_policy=los_policy(state, rules),
        move_policy=move_policy(state, rules),
        conditions=conditions,
        rules=None if rules == "free" else rules,
        size=size,
        components=default_components(),
    )
