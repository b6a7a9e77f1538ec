"""Issue 13 findings 10 and 16: the dock and the text, played through the real loop.

Finding 16: "Panels are fixed boxes over the map: at 1024x640 the log hides the German
line; at 800x500 they overlap each other; only the legend can be hidden." Finding 10:
"The game-over sentence is always cut; text is cut with '…' almost everywhere."
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.extras import ExtrasLayer
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.layout import HIDE_KEY
from tabletop.ui.panels import Panels
from tabletop.ui.result import ResultDialog
from tabletop.ui.settings import settings_path
from tabletop.ui.table import open_table

Step = pygame.event.Event | Callable[[App], Any]
LONG_RESULT = (
    "American defeat (0 of 6 trench sections cleared): the assault waves were thrown back into "
    "the sea with heavy losses and the beach stays in German hands; turn 12 of 12 ended"
)


def drive(app: App, steps: list[Step], *, after: int = 2) -> None:
    """Play ``steps`` through App.run, one a frame: an event is posted to pygame's queue
    (handled in the next frame), a callable is called with the app between frames."""
    script = list(steps)

    def on_frame(a: App) -> None:
        if not script:
            return
        step = script.pop(0)
        if isinstance(step, pygame.event.Event):
            pygame.event.post(step)
        else:
            step(a)

    app.run(fps=1000, frames=len(steps) + after, on_frame=on_frame)


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def move(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(pos: tuple[int, int]) -> list[Step]:
    return [
        move(pos),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ]


def part(app: App, kind: type) -> Any:
    return next(c for c in app.components if isinstance(c, kind))




def mid_game(size: tuple[int, int]) -> App:
    """DOG SECTOR in its second turn, a unit selected, the log full of lines."""
    app = open_table("dog-sector", size=size, seed=5)
    gp = part(app, GamePanel)
    while app.play.state.turn < 2:
        action = gp.pending(app)
        if action is None:
            gp.helping = (app.play.state.turn, app.play.state.phase)
            action = gp.pending(app)
        assert action is not None
        app.act(action)
    gp.paused = True
    app.selected = next(p.id for p in app.state.pieces() if p.kind == "unit")
    return app


def all_boxes(app: App) -> dict[str, pygame.Rect]:
    """Every docked box this frame: the panels', the game box, the rule system's."""
    out = {f"panels:{k}": r for k, r in part(app, Panels).boxes.items() if k != "status"}
    out["game"] = part(app, GamePanel).box
    out.update({f"extras:{k}": r for k, r in part(app, ExtrasLayer).boxes.items()})
    return {k: r for k, r in out.items() if r.width and r.height}


def overlaps(boxes: dict[str, pygame.Rect]) -> list[tuple[str, str]]:
    names = sorted(boxes)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if boxes[a].colliderect(boxes[b])]


# --- finding 16: the dock -------------------------------------------------------------


@pytest.mark.parametrize("size", [(800, 500), (1024, 640), (1280, 800)])
def test_no_panel_covers_the_map_or_another_panel(size: tuple[int, int]) -> None:
    """Finding 16: DOG SECTOR mid-game at 800x500, 1024x640, 1280x800: every box is
    inside the window, off the map's area, and over no other box."""
    app = mid_game(size)
    seen: dict[str, Any] = {}
    drive(app, [lambda a: seen.update(boxes=all_boxes(a), map=a.layout.map.copy(), window=a.camera.width)])
    boxes = seen["boxes"]
    assert {"panels:turn", "panels:log", "panels:dice", "panels:selection", "game"} <= set(boxes)
    assert "panels:minimap" in boxes or size[1] < 640  # at 800x500 it may be folded for want of room
    window = pygame.Rect(0, 0, *size)
    assert [k for k, r in boxes.items() if not window.contains(r)] == []
    assert [k for k, r in boxes.items() if r.colliderect(seen["map"])] == []
    assert overlaps(boxes) == []
    assert seen["map"].width >= size[0] // 3  # the map keeps a good part of a small window


def test_a_resized_window_keeps_every_panel_inside_and_home_fits_the_map_to_the_free_area() -> None:
    """Finding 16: the window shrunk from 1280x800 to 800x500 (VIDEORESIZE), the panels
    follow it; Home then fits the whole map inside the map's area."""
    app = mid_game((1280, 800))
    seen: dict[str, Any] = {}

    def shrink(a: App) -> None:
        pygame.display.set_mode((800, 500), pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=500, size=(800, 500)))

    def look(a: App) -> None:
        seen["boxes"], seen["map"] = all_boxes(a), a.layout.map.copy()
        seen["seen"] = a.camera.visible_world()

    drive(app, [shrink, key(pygame.K_HOME), look])
    window = pygame.Rect(0, 0, 800, 500)
    assert [k for k, r in seen["boxes"].items() if not window.contains(r)] == []
    assert overlaps(seen["boxes"]) == [] and not [r for r in seen["boxes"].values() if r.colliderect(seen["map"])]
    x0, y0, x1, y1 = app.view.bounds
    vx0, vy0, vx1, vy1 = seen["seen"]
    fits = vx0 <= x0 and vx1 >= x1 and vy0 <= y0 and vy1 >= y1
    assert fits or app.camera.zoom == theme.MIN_ZOOM  # the whole map, unless it cannot shrink further


def test_tab_hides_the_columns_and_the_map_takes_the_window() -> None:
    """Finding 16 ("a key to hide/show all side panels"): Tab gives the whole width to
    the map, and Tab again brings the panels back."""
    app = open_table("dog-sector", size=(1024, 640), seed=1)
    seen: list[int] = []
    drive(app, [lambda a: seen.append(a.layout.map.width), key(HIDE_KEY), lambda a: seen.append(a.layout.map.width),
                key(HIDE_KEY), lambda a: seen.append(a.layout.map.width)])  # fmt: skip
    assert seen[1] == 1024 and seen[0] < 1024 and seen[2] == seen[0]
    assert part(app, Panels).boxes.get("dice") is not None


def test_a_folded_panel_stays_folded_in_the_next_run_with_the_same_home() -> None:
    """Finding 16 ("remembered between runs"): a click on the legend's title folds it;
    a new table in the same home opens with it folded."""
    app = open_table("dog-sector", size=(1280, 800), seed=1)
    app.draw(pygame.Surface((1280, 800)))
    title = app.layout.placed["legend"].title
    assert title is not None and app.layout.body("legend") is not None
    drive(app, [*click(title.center)])
    assert "legend" in app.layout.folded
    assert "legend" in json.loads(settings_path().read_text())["folded"]
    again = open_table("omaha-landings", size=(1024, 640), seed=1)
    again.draw(pygame.Surface((1024, 640)))
    assert again.layout.body("legend") is None and again.layout.placed["legend"].folded


def test_a_broken_settings_file_is_ignored_with_a_line_in_the_log() -> None:
    """A settings file that is not JSON never stops the table: the defaults, and why."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{folded: [", encoding="utf-8")
    app = open_table("dog-sector", size=(1024, 640), seed=1)
    assert not app.layout.folded and not app.layout.hidden
    assert any(str(path) in m and "not JSON" in m for m in app.messages)


def test_the_log_scrolls_with_the_wheel_over_it_and_page_keys(drawn: list[str]) -> None:
    """Finding 10/16: the log keeps every line; the wheel over it shows older lines,
    PageDown brings the newest back."""
    app = open_table("dog-sector", size=(1024, 640), seed=1)
    for i in range(60):
        app.say(f"log line number {i}")
    panels = part(app, Panels)
    seen: dict[str, Any] = {}

    def newest(a: App) -> None:
        seen["log"] = panels.boxes["log"].copy()
        seen["before"] = [t for t, _ in panels.log_view(a)[0]]

    def after_wheel(a: App) -> None:
        seen["after"] = [t for t, _ in panels.log_view(a)[0]]
        seen["scroll"] = panels.log_scroll

    def wheel(a: App) -> None:
        pygame.event.post(move(seen["log"].center))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, precise_x=0.0, precise_y=2.0, flipped=False))

    zoom = app.camera.zoom
    drive(app, [newest, wheel, after_wheel, *[key(pygame.K_PAGEDOWN)] * 6], after=3)
    assert seen["before"][-1] == "log line number 59"
    assert seen["scroll"] == 6 and seen["after"][-1] == "log line number 53"
    assert app.camera.zoom == zoom  # the wheel over the log never zooms the map
    assert panels.log_scroll == 0


# --- finding 10: the text -------------------------------------------------------------


def test_the_game_over_dialog_opens_at_the_result_with_the_whole_sentence(drawn: list[str]) -> None:
    """Finding 10: at the result a dialog opens by itself with the result whole (wrapped,
    no '…'), the turns played, the rule system's score line and the key events; Esc
    closes it, F2 opens it again. The game box wraps the sentence too."""
    app = mid_game((1024, 640))
    dialog = part(app, ResultDialog)
    seen: dict[str, Any] = {}

    def end(a: App) -> None:
        a.play.state.result = LONG_RESULT  # as the rules set it at the end of turn 12

    def look(a: App) -> None:
        seen["open"] = dialog.open
        seen["rows"] = list(dialog.drawn)
        seen["text"] = list(drawn)
        drawn.clear()

    def closed(a: App) -> None:
        seen["closed"] = not dialog.open

    drive(app, [end, look, key(pygame.K_ESCAPE), closed, key(pygame.K_F2), look], after=2)
    assert seen["open"] and seen["closed"] and dialog.open
    rows = seen["rows"]
    assert rows[0] == "Game over" and len(rows) > 4
    result_rows = rows[1 : 1 + len(theme.wrap(LONG_RESULT, dialog.box.width - 36, 24, True))]
    assert " ".join(result_rows) == LONG_RESULT
    assert any(r.startswith("DOG SECTOR") and "turns played: 2" in r for r in rows)
    assert any("sections cleared" in r for r in rows)  # the rule system's score line
    words = f"Game over: {LONG_RESULT}"
    assert not [t for t in seen["text"] if "\u2026" in t and t.rstrip("\u2026").strip() in words]  # never cut
    body = app.layout.body("game")
    assert body is not None
    rows_in_box = theme.wrap(words, body.width, 20, True)  # the game box wraps it to its column
    assert len(rows_in_box) > 1 and [r for r in rows_in_box if r in seen["text"]] == list(rows_in_box)


def test_a_cut_text_shows_whole_on_hover(drawn: list[str]) -> None:
    """Finding 10: a text still shortened (the last roll beside the die, in a small
    window) is drawn whole beside the pointer while it rests on it."""
    app = mid_game((800, 500))
    seen: dict[str, Any] = {}

    def find(a: App) -> None:
        dice = part(a, Panels).boxes["dice"]
        seen["tips"] = [(r.copy(), t) for r, t in a.layout.tips if dice.contains(r)]
        if seen["tips"]:
            pygame.event.post(move(seen["tips"][0][0].center))

    def look(a: App) -> None:
        seen["text"] = list(drawn)
        drawn.clear()

    drive(app, [find, look, look])
    assert seen["tips"], "nothing in the dice box was shortened at 800x500"
    whole = seen["tips"][0][1]
    rows = theme.wrap(whole, 420 - 12, 18)
    assert [r for r in rows if r in seen["text"]] == list(rows)


def test_dragging_a_columns_edge_resizes_it_and_the_width_is_remembered() -> None:
    """Finding 16 ("resizable ... remembered between runs"): the left column's inner
    edge dragged 60 px right widens it, the map's area shrinks by as much, and a new
    table in the same home opens with that width."""
    app = open_table("dog-sector", size=(1280, 800), seed=1)
    app.draw(pygame.Surface((1280, 800)))
    edge = app.layout.left.right
    y = 400
    before = (app.layout.left.width, app.layout.map.width)
    drive(app, [
        move((edge, y)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(edge, y), button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(edge + 60, y), rel=(60, 0), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(edge + 60, y), button=1),
    ])  # fmt: skip
    assert app.layout.left.width == before[0] + 60 and app.layout.map.width == before[1] - 60
    assert app.selected is None  # the drag moved no counter and selected nothing
    again = open_table("dog-sector", size=(1280, 800), seed=1)
    assert again.layout.left.width == before[0] + 60


def test_a_game_box_longer_than_its_column_scrolls_with_the_wheel() -> None:
    """Finding 10: at 800x500 the game box of DOG SECTOR's rules is longer than the
    column leaves it; nothing is cut away for good: the wheel over it shows the rest,
    and the log keeps its rows below it."""
    app = mid_game((800, 500))
    gp = part(app, GamePanel)
    seen: dict[str, Any] = {}

    def look(a: App) -> None:
        seen.setdefault("rows", []).append([r for r, _ in gp.buttons] + [gp.box.copy()])
        seen.setdefault("scroll", []).append(gp.scroll)
        seen["log"] = part(a, Panels).boxes.get("log")

    def wheel(a: App) -> None:
        pygame.event.post(move(gp.box.center))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, precise_x=0.0, precise_y=-2.0, flipped=False))

    drive(app, [look, wheel, look])
    assert seen["scroll"][0] == 0 and seen["scroll"][1] > 0
    assert seen["log"] is not None and app.layout.body("log") is not None


def test_the_game_over_key_events_skip_the_phase_headings() -> None:
    """Finding 10's dialog: key events are losses, objectives, notes and the end, not the
    engine's "turn N, phase" lines (a Dogfaces game listed every "Victory Phase")."""
    from tabletop.ui.result import key_events

    log = ["turn 12, Victory Phase", "blue-dave is Out of Combat", "red-frank retreats to 0908",
           "blue-inigo enters 1116", "game over: red wins (blue surrendered)"]  # fmt: skip
    assert key_events(log) == log[1:3] + log[4:]


def test_choices_past_the_eighth_are_reached_by_paging_the_game_box() -> None:
    """A player with more legal choices than the box lists (no unit selected, nothing to
    narrow by) reaches every one: the '... more' line turns the page, after the last the
    first again; the rule's choices themselves do not change (issue 15: barrage aims and
    arrival hexes past the eighth could not be played in the window)."""
    app = open_table("dog-sector", size=(1280, 800), seed=5)
    gp = part(app, GamePanel)
    while not (app.play.actor() not in (None, "auto") and len(gp.unit_choices(app)) > 8):
        action = gp.pending(app)
        if action is None:
            gp.helping = (app.play.state.turn, app.play.state.phase)
            action = gp.pending(app)
        app.act(action)
    gp.helping, app.selected = None, None
    every = gp.unit_choices(app)
    pages: list[list[Any]] = []

    def listed(a: App) -> None:
        pages.append([act for _, act in gp.buttons])

    def more_row(a: App) -> tuple[int, int]:
        return next(r for r, act in gp.buttons if act.get("do") == "more-choices").center

    drive(app, [listed])
    drive(app, [lambda a: [pygame.event.post(e) for e in click(more_row(a))], move((5, 5)), listed])
    drive(app, [lambda a: [pygame.event.post(e) for e in click(more_row(a))], move((5, 5)), listed])
    first, second, third = (
        [act for act in page if act.get("do") != "more-choices"] for page in pages
    )
    assert first == every[:8] and second == every[8:16] and third == first
    assert app.play.state.phase == "american-fire" and gp.unit_choices(app) == every  # nothing played
