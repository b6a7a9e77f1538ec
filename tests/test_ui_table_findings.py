"""Issue 13 ("The table a wargamer wants to look at"), findings 1, 3, 4, 6, 7, 13, 14
and 15, each played through the real loop: events posted to pygame's own queue reach the
table through App.run, one a frame, as in tests/test_ui_loop.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from tabletop.engine import savefile
from tabletop.engine.game import SETUP
from tabletop.games.dog_sector import hits
from tabletop.games.dog_sector.phase_texts import read_phase_texts
from tabletop.ui import counter_art as art
from tabletop.ui.app import App
from tabletop.ui.counters import CounterLayer
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.panels import Panels
from tabletop.ui.table import open_table, start_autosave
from tabletop.yamlfile import DataErrors

SIZE = (1280, 800)
Step = pygame.event.Event | Callable[[App], Any]


def drive(app: App, steps: list[Step], *, after: int = 2) -> None:
    """Play ``steps`` through App.run: an event is posted to the queue (handled in the
    next frame), a callable is called with the app between frames."""
    script = list(steps)

    def on_frame(a: App) -> None:
        while script and callable(script[0]) and not isinstance(script[0], pygame.event.Event):
            script.pop(0)(a)  # type: ignore[operator]
        if script:
            pygame.event.post(script.pop(0))  # type: ignore[arg-type]

    app.run(fps=1000, frames=len(steps) + after, on_frame=on_frame)


def keydown(key: int, mod: int = 0, text: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=text, scancode=0)


def typed(text: str) -> list[Step]:
    """What SDL sends for typed text: a KEYDOWN (with its character) and a TEXTINPUT each."""
    out: list[Step] = []
    for ch in text:
        out.append(keydown(ord(ch) if ch.isalnum() else pygame.K_MINUS, text=ch))
        out.append(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    return out


def press(pos: tuple[int, int], button: int = 1) -> list[Step]:
    x, y = pos
    return [
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=button),
    ]


def click_at(where: Callable[[App], tuple[int, int]], button: int = 1) -> Callable[[App], None]:
    """A click at a point worked out when it is made (after the view has moved)."""

    def post(app: App) -> None:
        for event in press(where(app), button):
            pygame.event.post(event)

    return post


def part(app: App, kind: type) -> Any:
    return next(c for c in app.components if isinstance(c, kind))


def centre(app: App, piece_id: str) -> tuple[int, int]:
    x, y = app.screen_of(app.state.piece(piece_id).hex)
    return round(x), round(y)


def look_at(app: App, piece_id: str, zoom: float = 3.0) -> None:
    app.camera.zoom_at(zoom, app.camera.width / 2, app.camera.height / 2)
    app.camera.center = app.view.center(app.state.piece(piece_id).hex)


def play_until(app: App, done: Callable[[App], bool], limit: int = 400) -> None:
    """Play the rules' steps and the autoplayer's choices until ``done`` (game setup for a test)."""
    gp = part(app, GamePanel)
    gp.helping = None
    for _ in range(limit):
        if done(app):
            return
        action = gp.pending(app)
        if action is None:
            gp.helping = (app.play.state.turn, app.play.state.phase)  # the autoplayer plays the player's phase
            action = gp.pending(app)
        assert action is not None
        app.act(action)
    raise AssertionError("the game never reached the wanted position")


# --- finding 1: reduced units are drawn reduced -----------------------------------------


def test_a_dog_sector_unit_reduced_by_a_hit_is_drawn_on_its_reduced_face() -> None:
    """Issue 13 finding 1: the drawing reads Piece.steps against the counters file's
    steps (infantry: 2), not a status word the rules never set."""
    app = open_table("dog-sector", size=SIZE, seed=3)
    play_until(app, lambda a: any(hits.is_reduced(p) for p in a.state.pieces() if p.kind == "unit"))
    piece = next(p for p in app.state.pieces() if p.kind == "unit" and hits.is_reduced(p))
    layer = part(app, CounterLayer)
    seen: dict[str, Any] = {}

    def look(a: App) -> None:
        size = layer.size(a)
        spec = layer.spec(a, piece)
        colour = layer.side_rgb(a, piece.side)
        seen["face"] = layer._face(a, piece, size)
        seen["reduced"] = art.unit_counter(spec, colour, size, piece.id, reduced=True)
        seen["full"] = art.unit_counter(spec, colour, size, piece.id, reduced=False)

    drive(app, [lambda a: look_at(a, piece.id), keydown(pygame.K_p), look])
    assert piece.steps < hits.full_steps(piece) and not piece.has("reduced")
    assert seen["face"] is seen["reduced"] and seen["face"] is not seen["full"]
    shown = [t for t, _, _ in part(app, Panels).selection_lines(app, piece)]
    assert f"steps: {piece.steps} of {hits.full_steps(piece)} (reduced)" in shown


def test_a_flip_in_free_play_changes_piece_steps_through_a_logged_action() -> None:
    """Finding 1: the right-click flip is a `steps` action in the log (undoable, saved),
    and the counter is redrawn from it."""
    app = open_table("dog-sector", rules="free", size=SIZE, seed=1, setup="auto")
    layer = part(app, CounterLayer)
    pid = next(p.id for p in app.state.pieces() if p.type == "infantry" and p.side == "german")

    def menu_row(a: App) -> tuple[int, int]:
        rect: pygame.Rect = next(r for r, item in layer.menu_layout(a) if item.label == "Flip to reduced")
        return rect.center

    drive(app, [lambda a: look_at(a, pid), click_at(lambda a: centre(a, pid), 3), keydown(pygame.K_UNKNOWN),
                click_at(menu_row), keydown(pygame.K_UNKNOWN)])  # fmt: skip
    assert app.play.entries[-1].action == {"do": "steps", "piece": pid, "steps": 1}
    assert app.state.piece(pid).steps == 1 and not app.state.piece(pid).status
    assert layer.is_reduced(app, app.state.piece(pid))


# --- finding 3: setup's placing mode ends with setup -------------------------------------


def test_placing_ends_when_f5_places_everything_and_later_clicks_do_not_try_to_place() -> None:
    """Issue 13 finding 3: after `--setup manual`, a piece picked in the tray and F5,
    every later click failed with "has no action 'setup-place'" until Esc."""
    app = open_table("dog-sector", size=SIZE, seed=2, setup="manual", options={"random-german-placement": True})
    gp = part(app, GamePanel)
    assert app.play.state.phase == SETUP

    def pick(a: App) -> None:
        rect, _ = gp.tray[0]
        for event in press(rect.center)[1:]:
            pygame.event.post(event)

    drive(app, [keydown(pygame.K_UNKNOWN), pick, keydown(pygame.K_UNKNOWN), keydown(pygame.K_F5)])
    assert gp.placing is None
    before = len(app.messages)
    some = next(p.id for p in app.state.pieces() if p.kind == "unit")
    drive(app, [*press(centre(app, some))])
    assert not any("setup-place" in m for m in app.messages[before:])


# --- finding 4: the rules panel shows text -----------------------------------------------


def test_the_game_box_shows_the_landing_rules_as_text_not_a_mapping() -> None:
    """Issue 13 finding 4: phases.yaml line 8 read as a mapping showed `{'Roll 3D6 ...': ...}`."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    shown: list[str] = []
    drive(app, [keydown(pygame.K_p), lambda a: shown.extend(t for t, _, _ in part(a, GamePanel).box_lines(a)[0])])
    assert app.play.state.phase == "land"
    assert any(line.startswith("Roll 3D6") for line in shown)
    assert not any("{" in line for line in shown)


def test_a_rules_panel_line_that_is_not_text_is_an_error_at_its_line(tmp_path: Path) -> None:
    """Finding 4: the reader names the file and the line, and says to quote it."""
    path = tmp_path / "phases.yaml"
    path.write_text("land:\n  rules:\n    - fine\n    - Roll 3D6: units land\n  choices: [1, ok]\nnope:\n  rules: []\n")
    with pytest.raises(DataErrors) as caught:
        read_phase_texts(path, ["land"])
    text = str(caught.value)
    assert f"{path}:4: item 2 of `rules` in phase 'land'" in text and "quotes" in text
    assert f"{path}:5:" in text  # a number is not a line of text either
    assert f"{path}:6: unknown key 'nope'" in text


# --- finding 6: the finder owns the keyboard ---------------------------------------------


def test_typing_into_the_finder_runs_no_shortcut() -> None:
    """Issue 13 finding 6: typing "ce-team" turned on the reach overlay (c) and ruled
    the last roll a miss (m); e expanded the log."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    panels, layer = part(app, Panels), part(app, CounterLayer)
    overlays = dict(app.overlays)
    entries = len(app.play.entries)
    found: dict[str, str] = {}
    drive(app, [keydown(pygame.K_p), keydown(pygame.K_r, text="r"), keydown(pygame.K_f, text="f"),
                *typed("ce-team"), lambda a: found.setdefault("text", layer.finder.text)])  # fmt: skip
    assert found["text"] == "ce-team"
    assert app.overlays == overlays and not panels.rulings and not panels.expanded
    assert len(app.play.entries) == entries + 1  # the r roll before the finder opened, nothing after


# --- finding 7: a click on one's own stack never acts ------------------------------------


def test_a_click_down_ones_own_stack_selects_and_spends_no_ap() -> None:
    """Issue 13 finding 7: with an exceptional leader selected, a click meant to go down
    its stack played "restores infantry to full strength" (1 AP)."""
    app = open_table("dog-sector", size=SIZE, seed=3)
    play_until(app, lambda a: a.play.state.phase == "activity")
    inf = next(p for p in app.state.pieces() if p.side == "american" and p.type == "infantry")
    label = app.board.label(inf.hex)
    app.edit({"do": "steps", "piece": inf.id, "steps": 1})
    el = next(p for boxed in app.play.state.boxes.values() for p in boxed if p.type == "exceptional-leader")
    app.edit({"do": "unbox", "box": app.play.state.where(el.id), "piece": el.id, "to": label})
    assert any(a.get("do") == "restore" for a in app.play.choices("american"))
    entries = len(app.play.entries)
    app.selected = el.id
    drive(app, [lambda a: look_at(a, el.id), click_at(lambda a: centre(a, el.id))])
    assert len(app.play.entries) == entries  # nothing played
    assert app.selected != el.id and app.state.piece(inf.id).steps == 1


# --- finding 13: saves ---------------------------------------------------------------------


def test_ctrl_s_writes_the_players_save_and_never_the_autosave(tmp_path: Path) -> None:
    """Issue 13 finding 13: Ctrl+S wrote over the autosave."""
    auto = tmp_path / "auto.json"
    app = open_table("dog-sector", size=SIZE, seed=1, autosave=auto)
    start_autosave(app)
    autosaved = auto.read_bytes()
    drive(app, [keydown(pygame.K_p), keydown(pygame.K_n), keydown(pygame.K_s, pygame.KMOD_CTRL)])
    assert auto.read_bytes() == autosaved  # the autosave is written after a phase, not by Ctrl+S
    assert app.player_save is not None and app.player_save.parent == savefile.save_folder()
    assert app.player_save.is_file() and not app.unsaved()


def test_save_as_types_a_name_and_writes_that_save() -> None:
    """Finding 13: Save As with a name, typed in a text entry that owns the keyboard."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    drive(app, [keydown(pygame.K_p), keydown(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT),
                *typed("dawn"), keydown(pygame.K_RETURN)])  # fmt: skip
    assert app.player_save == savefile.player_save_path("dawn") and app.player_save.is_file()
    assert app.overlays.get("viewshed") is None  # no letter ran as a shortcut (finding 6)


def test_a_new_game_of_the_same_scenario_gets_its_own_autosave() -> None:
    """Finding 13: autosaves are per game, not per scenario (same scenario, same seed,
    same minute: still another file)."""
    first = savefile.new_autosave_path("dog-sector", 7)
    app = open_table("dog-sector", size=SIZE, seed=7, autosave=first)
    start_autosave(app)
    assert first.is_file() and savefile.new_autosave_path("dog-sector", 7) != first


def test_a_new_game_points_at_the_last_autosave_of_its_scenario() -> None:
    """Finding 13 (resume at start): starting a scenario again says where the last game
    of it was autosaved, and how to resume it; a first game says nothing of the kind."""
    first = open_table("dog-sector", size=SIZE, seed=1, autosave=savefile.new_autosave_path("dog-sector", 1))
    start_autosave(first)
    assert not any("resume" in m for m in first.messages)
    path = first.play.on_phase_end.path  # type: ignore[attr-defined]
    again = open_table("dog-sector", size=SIZE, seed=2, autosave=savefile.new_autosave_path("dog-sector", 2))
    start_autosave(again)
    drive(again, [keydown(pygame.K_p)])
    assert any(m.endswith(f"tabletop play --load {path}") for m in again.messages)


def test_closing_with_unsaved_changes_asks_and_n_keeps_playing_y_quits() -> None:
    """Finding 13: quitting with unsaved changes asks first (y / Enter quits, n / Esc stays)."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    quit_event = pygame.event.Event(pygame.QUIT)
    drive(app, [keydown(pygame.K_p), keydown(pygame.K_n), quit_event, keydown(pygame.K_n), keydown(pygame.K_g)])
    assert app.running and not app.confirm_quit and app.unsaved()
    drive(app, [quit_event, keydown(pygame.K_y)], after=5)
    assert not app.running


def test_closing_with_nothing_unsaved_quits_at_once() -> None:
    app = open_table("dog-sector", size=SIZE, seed=1)
    drive(app, [pygame.event.Event(pygame.QUIT)], after=3)
    assert not app.running and not app.confirm_quit


# --- finding 14: one line per action, panels from the game -------------------------------


def test_each_action_is_logged_once() -> None:
    """Issue 13 finding 14: a German shot was logged twice in two wordings (the rules'
    line and the roll's)."""
    app = open_table("dog-sector", size=SIZE, seed=3)
    before = len(app.messages)
    first = len(app.play.entries)
    drive(app, [keydown(pygame.K_p)] + [keydown(pygame.K_n)] * 40)
    lines = [line for e in app.play.entries[first:] for line in (e.lines or [r.text() for r in e.rolls])]
    said = [m for m in app.messages[before:] if not m.startswith(("paused", "nothing done"))]
    assert any(e.rolls for e in app.play.entries[first:]) and said == lines


def test_the_status_line_follows_the_map_under_a_still_pointer_after_home() -> None:
    """Finding 14: after Home the status line named the hex that was under the pointer before."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    panels = part(app, Panels)
    pos = (640, 500)
    seen: dict[str, Any] = {}

    def zoom(a: App) -> None:
        a.camera.zoom_at(4.0, 200, 200)  # the hex under the pointer changes with Home

    def remember(a: App) -> None:
        seen["before"] = a.hover

    def look(a: App) -> None:
        seen["hover"], seen["under"] = a.hover, a.hex_at_screen(*pos)
        seen["status"] = panels.status_line(a)[0]

    drive(app, [keydown(pygame.K_p), zoom, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                buttons=(0, 0, 0)), remember, keydown(pygame.K_HOME), keydown(pygame.K_UNKNOWN), look])  # fmt: skip
    assert seen["hover"] == seen["under"] and seen["under"] != seen["before"]
    under = seen["under"]
    assert seen["status"].startswith(app.board.label(under) if under is not None else "no hex")


# --- finding 15: idle means idle ---------------------------------------------------------


def test_an_idle_table_draws_no_frames_while_nothing_changes() -> None:
    """Issue 13 finding 15: the window redrew at 60 fps while the player thought. Half a
    second of nothing (a two-sided game waiting for its player) draws a few frames at most:
    the first, those for the window's own events, the last."""
    app = open_table("dogs-of-war-demo", size=SIZE, seed=1)
    assert app.wake_in() is None
    frames: list[int] = []
    timer = threading.Timer(0.5, lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    timer.start()
    try:
        app.run(on_frame=lambda a: frames.append(1))
    finally:
        timer.cancel()
    assert not app.running and len(frames) <= 6


def test_automatic_steps_still_wake_the_idle_loop() -> None:
    """Finding 15: the rules' automatic steps play on with no event (the clock asks for
    the frame), at their pace."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    assert app.wake_in() is not None and app.wake_in() <= 0.6  # type: ignore[operator]
    part(app, GamePanel).paused = True
    assert app.wake_in() is None


def test_phase_6_shows_no_ap_and_no_move_hint_left_from_phase_5() -> None:
    """Finding 14: the AP of phase 5 were still shown in phase 6 (American fire), and the
    game box still said to drag units to move them."""
    app = open_table("dog-sector", size=SIZE, seed=3)
    play_until(app, lambda a: a.play.state.phase == "activity")
    move = next(a for a in app.play.choices("american") if a.get("do") == "move")
    app.selected = move["unit"]
    seen: dict[str, list[str]] = {}
    gp, panels = part(app, GamePanel), part(app, Panels)

    def look(name: str) -> Callable[[App], None]:
        def remember(a: App) -> None:
            piece = a.selected_piece()
            assert piece is not None
            seen[name] = [t for t, _, _ in gp.box_lines(a)[0]] + a.play.rules.unit_lines(a.play.state, piece)
            assert "selection" in panels.boxes

        return remember

    drive(app, [keydown(pygame.K_p), lambda a: a.act(move), look("phase 5"), keydown(pygame.K_n),
                keydown(pygame.K_n), keydown(pygame.K_UNKNOWN), look("phase 6")])  # fmt: skip
    assert app.play.state.phase == "american-fire"
    assert any(line.startswith("AP left") for line in seen["phase 5"])
    assert any("drag a unit" in line for line in seen["phase 5"])
    assert not any(line.startswith("AP left") or "drag a unit" in line for line in seen["phase 6"])


def test_the_status_line_names_the_ground_as_it_is_after_a_change_in_play() -> None:
    """Finding 14: the status line kept the hovered hex's text from before a terrain change."""
    app = open_table("dogs-of-war-demo", size=SIZE, seed=1)
    panels = part(app, Panels)
    pos = (450, 400)
    seen: list[str] = []

    def change(a: App) -> None:
        h = a.hover
        assert h is not None
        other = next(k for k in a.board.terrain_types if k != a.state.terrain_at(h))
        seen.append(a.board.terrain_types[other].name)
        a.edit({"do": "terrain", "hex": a.board.label(h), "to": other})

    drive(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                lambda a: seen.append(panels.status_line(a)[0]), change, keydown(pygame.K_UNKNOWN),
                lambda a: seen.append(panels.status_line(a)[0])])  # fmt: skip
    before, new_ground, after = seen
    assert new_ground not in before and new_ground in after
