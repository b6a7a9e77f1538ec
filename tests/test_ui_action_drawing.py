"""The battle on the map (issue 13 finding 2): American fire names where it happens, a
move is drawn along its path, the last action is highlighted, and the camera follows
automatic steps unless the player took it. Driven through App.run (tests/test_ui_loop.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest
from test_ui_firing import (
    SIZE,
    at,
    fire_phase,
    firing,
    german_fire_ready,
    motion,
    press,
    put,
    run_loop,
    to_phase,
)

from tabletop.engine.actions import where
from tabletop.hexgrid import neighbor
from tabletop.ui.app import App
from tabletop.ui.counters import CounterLayer
from tabletop.ui.firing import MOVE
from tabletop.ui.table import open_table

__all__ = ["fire_phase"]  # the fixture, used by name


def click(pos: tuple[int, int]) -> list[pygame.event.Event]:
    return [
        motion(pos),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ]


def near(c: pygame.Color, rgb: tuple[int, int, int], tol: int = 8) -> bool:
    return all(abs(a - b) <= tol for a, b in zip((c.r, c.g, c.b), rgb, strict=True))


def test_american_fire_clicked_in_the_window_names_where_it_happens(fire_phase: App) -> None:
    """Finding 2: American fire fills `where` as German fire does (firer's hex, then the
    target's; the Table 6 roll is the result), so the window draws it with its result."""
    app = fire_phase
    bazooka = put(app, "bazooka", "1412")  # adjacent to the AT gun in 1413
    offered = [a for a in app.play.choices("american") if a.get("do") == "fire" and a["unit"] == bazooka]
    assert offered and all(where(a)[0].hexes[0] == "1412" for a in offered)

    def script(a: App) -> list[pygame.event.Event]:
        a.camera.center = a.view.center(a.board.hex_of("1412"))
        a.selected = bazooka
        return click(at(a, "1413"))

    run_loop(app, script)
    entry = app.play.entries[-1]
    assert entry.action["do"] == "fire" and entry.action["target"] == "G-at-gun-3"
    (fire,) = where(entry.action)
    assert (fire.kind, fire.hexes, fire.units, fire.roll) == ("fire", ("1412", "1413"), (bazooka, "G-at-gun-3"), 0)
    shown = firing(app).shown_fires(app)
    assert shown and shown[0][0] == fire and entry.rolls[0].outcome in str(shown[0][1])


def free_table() -> tuple[App, str]:
    app = open_table("dog-sector", rules="free", size=SIZE, seed=1, setup="auto")
    pid = next(p.id for p in app.state.pieces() if p.type == "at-gun")
    return app, pid


def test_a_dragged_counter_is_drawn_moving_along_its_path_with_its_hex_ringed() -> None:
    """Finding 2: a generic move names only `to`; the window draws it from the hex the
    piece stood in to the one it stands in, and rings the end hex (the last action)."""
    app, pid = free_table()
    start = app.state.piece(pid).hex
    seen: dict[str, object] = {}

    def script(a: App) -> list[pygame.event.Event]:
        a.camera.zoom = 1.5
        a.camera.center = a.view.center(start)
        layer = next(c for c in a.components if isinstance(c, CounterLayer))
        src = next(s for s in layer.stacks(a) if s.hex == start).centre
        x0, y0 = round(src[0]), round(src[1])
        end = (x0 + round(a.camera.scale * 4.5), y0)
        seen["end"] = a.hex_at_screen(*end)
        events = [motion((x0, y0)), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x0, y0), button=1)]
        for k in range(1, 5):
            pos = (x0 + (end[0] - x0) * k // 4, y0)
            events.append(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
        return [*events, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1)]

    run_loop(app, script)
    target = seen["end"]
    assert app.state.piece(pid).hex == target
    assert firing(app).moves == [(pid, [start, target])]
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    (ax, ay), (bx, by) = app.screen_of(start), app.screen_of(target)  # type: ignore[arg-type]
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    assert sum(near(surface.get_at((mid[0] + dx, mid[1])), MOVE) for dx in range(-20, 21)) > 5


def test_a_move_naming_its_path_is_drawn_along_that_path() -> None:
    """Finding 2: a rules move may name its path in `where`; the window draws that path,
    not a straight line."""
    app, pid = free_table()
    piece = app.state.piece(pid)
    grid = app.board.grid
    here = piece.hex
    path = [here]
    for _ in range(3):  # three steps along one direction, on the map and empty
        nxt = next(n for n in (neighbor(path[-1], d) for d in range(6)) if grid.contains(n) and n not in path and not app.state.pieces_at(n))
        path.append(nxt)
    labels = [app.board.label(h) for h in path]
    action = {"do": "move", "piece": pid, "to": labels[-1], "where": [{"kind": "move", "hexes": labels, "units": [pid]}]}

    def script(a: App) -> list[pygame.event.Event]:
        a.camera.center = a.view.center(path[1])
        assert a.edit(action)
        return [motion((5, 5))]

    run_loop(app, script)
    assert firing(app).moves == [(pid, path)]
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    (ax, ay), (bx, by) = app.screen_of(path[0]), app.screen_of(path[1])
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    assert sum(near(surface.get_at((mid[0] + dx, mid[1] + dy)), MOVE) for dx in range(-6, 7) for dy in range(-6, 7)) > 5


def _far_corner(app: App, hexes: list[object]) -> None:
    """Point the camera well away from ``hexes`` (they are off the view)."""
    xs = [app.view.center(h)[0] for h in hexes]  # type: ignore[arg-type]
    ys = [app.view.center(h)[1] for h in hexes]  # type: ignore[arg-type]
    app.camera.center = (sum(xs) / len(xs) + app.camera.width / app.camera.scale, sum(ys) / len(ys))


@pytest.mark.parametrize("player_pans", [False, True])
def test_the_camera_follows_an_automatic_step_unless_the_player_took_it(tmp_path: Path, player_pans: bool) -> None:
    """Finding 2: the camera glides toward the hexes of an automatic step (German fire)
    played off the view; once the player has panned in this phase it stays put."""
    app = german_fire_ready(tmp_path)
    proposal = app.play.proposal()
    assert proposal is not None
    hexes = [app.board.hex_of(label) for label in where(proposal)[0].hexes]
    panel = next(c for c in app.components if hasattr(c, "paused"))
    panel.paused = True
    _far_corner(app, hexes)
    start = app.camera.center
    seen: dict[str, object] = {}

    def script(a: App) -> list[pygame.event.Event]:
        pans = [press(pygame.K_LEFT)] if player_pans else []
        return [motion((5, 5)), *pans, press(pygame.K_n)]

    def watch(a: App) -> list[pygame.event.Event]:
        seen["before"] = a.camera.center
        return [motion((6, 6))] * 3

    run_loop(app, script, after=1)
    assert app.play.entries[-1].action["do"] == "german-fire"
    follow = firing(app).follow
    run_loop(app, watch, after=3)
    goal = (sum(app.view.center(h)[0] for h in hexes) / 2, sum(app.view.center(h)[1] for h in hexes) / 2)
    before, after = seen["before"], app.camera.center
    if player_pans:  # the camera stays where the player put it
        assert follow.taken and after == before
    else:  # closer than it started (a slow frame may have brought it all the way)
        assert not follow.taken and math.dist(after, goal) < math.dist(start, goal)


def test_a_dog_sector_move_names_the_path_it_takes(tmp_path: Path) -> None:
    """Finding 2: the phase 5 move a drag makes names its path (the one the move takes,
    as its log line says), so the window draws the move along it."""
    app = open_table("dog-sector", size=SIZE, seed=0, autosave=tmp_path / "auto.json")
    to_phase(app, "activity")
    unit = put(app, "infantry", "0506")
    state = app.play.state
    action = app.play.rules.drag_action(state, unit, "0708", False)  # type: ignore[attr-defined]
    assert action is not None
    (move,) = where(action)
    assert move.kind == "move" and move.hexes[0] == "0506" and move.hexes[-1] == "0708" and len(move.hexes) >= 3
    assert app.act(action)
    assert " ".join(move.hexes) in app.play.entries[-1].lines[0]
