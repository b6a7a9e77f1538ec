"""The monkey: random real events (keys and typed text, clicks, drags, the wheel, window
resizes) posted to each shipped scenario's window through App.run, for a fixed seed.

Nothing may raise, and no mode may be left stuck: after a few Esc presses no text
entry, placing, menu, finder, help or quit box is open (issue 13: modes that outlived
what they needed, text entries that leaked keys). CI plays a few hundred events per
scenario; ``TABLETOP_MONKEY=long`` plays thousands.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from tabletop.ui.app import App
from tabletop.ui.counters import CounterLayer
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.panels import Panels
from tabletop.ui.table import open_table

# Found by this test: with a marker selected (a DOG SECTOR cleared-mine marker) the line
# of sight and viewshed overlays asked the rules with the marker as the viewer, which
# DOG SECTOR's rules refuse (ValueError); the overlays now take only units as viewers.
SCENARIOS = [p.stem for p in sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml"))]
LONG = os.environ.get("TABLETOP_MONKEY") == "long"
EVENTS = 3000 if LONG else 300
PER_FRAME = 4  # events posted between two frames (players are faster than one per frame)
SIZE = (900, 640)
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [str(d) for d in range(10)] + list("[];/-=.,'")
SPECIAL = [
    pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_BACKSPACE, pygame.K_SPACE, pygame.K_TAB, pygame.K_HOME,
    pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_PAGEUP, pygame.K_PAGEDOWN,
    pygame.K_DELETE, pygame.K_KP_ENTER, pygame.K_KP_PLUS, pygame.K_KP_MINUS,
    *[getattr(pygame, f"K_F{n}") for n in range(1, 12)],  # F12 (screenshot) is sent to a temp folder
]  # fmt: skip
MODS = [0] * 6 + [pygame.KMOD_SHIFT, pygame.KMOD_CTRL, pygame.KMOD_ALT, pygame.KMOD_CTRL | pygame.KMOD_SHIFT]


def random_events(rng: random.Random, size: tuple[int, int]) -> list[pygame.event.Event]:
    """One player gesture as the events SDL would send for it."""
    w, h = size
    pos = (rng.randrange(w), rng.randrange(h))
    kind = rng.choices(["key", "text", "click", "drag", "wheel", "move", "resize"], [30, 10, 20, 10, 8, 20, 2])[0]
    if kind in ("key", "text"):
        mod = rng.choice(MODS) if kind == "key" else 0
        if kind == "text" or rng.random() < 0.6:
            ch = rng.choice(LETTERS)
            key, text = ord(ch), ch
        else:
            key, text = rng.choice(SPECIAL), ""
        if key == pygame.K_q and mod & pygame.KMOD_CTRL:
            mod = 0  # Ctrl+Q would end the run (it is tested on its own)
        down = pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=text, scancode=0)
        out = [down]
        if text and not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            out.append(pygame.event.Event(pygame.TEXTINPUT, text=text))
        out.append(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=text, scancode=0))
        return out
    if kind == "click":
        button = rng.choice([1, 1, 1, 3, 2])
        return [
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
        ]
    if kind == "drag":
        button = rng.choice([1, 1, 3])
        to = (rng.randrange(w), rng.randrange(h))
        mid = ((pos[0] + to[0]) // 2, (pos[1] + to[1]) // 2)
        held = (button == 1, False, button == 3)
        return [
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
            pygame.event.Event(pygame.MOUSEMOTION, pos=mid, rel=(mid[0] - pos[0], mid[1] - pos[1]), buttons=held),
            pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(to[0] - mid[0], to[1] - mid[1]), buttons=held),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=to, button=button),
        ]
    if kind == "wheel":
        y = rng.choice([-2, -1, 1, 2])
        return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, precise_x=0.0, precise_y=float(y), flipped=False)]
    if kind == "move":
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]
    nw, nh = rng.randrange(320, 1400), rng.randrange(240, 1000)
    return [pygame.event.Event(pygame.VIDEORESIZE, w=nw, h=nh, size=(nw, nh))]


def open_modes(app: App) -> list[str]:
    """The modes left open: text entries, placing, menus, the finder, help, the quit box."""
    out = []
    for c in app.components:
        if isinstance(c, GamePanel):
            out += ["game box text entry"] * (c.note is not None) + ["setup placing"] * (c.placing is not None)
        elif isinstance(c, CounterLayer):
            names = {"menu": c.menu, "finder": c.finder, "tray placing": c.placing}
            out += [name for name, value in names.items() if value is not None]
        elif isinstance(c, Panels) and c.help_open:
            out.append("shortcuts help")
    if app.keyboard_owner() is not None:
        out.append(f"keyboard owned by {type(app.keyboard_owner()).__name__}")
    if app.confirm_quit:
        out.append("quit box")
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_events_raise_nothing_and_leave_no_mode_stuck(scenario: str, tmp_path: Path) -> None:
    """Issue 13 monkey test: every shipped scenario's window survives random input."""
    rng = random.Random(f"monkey-{scenario}")
    app = open_table(scenario, size=SIZE, seed=13)
    app.screenshot_dir = tmp_path
    sent = {"events": 0}
    size = [SIZE]

    def on_frame(a: App) -> None:
        for _ in range(PER_FRAME):
            if sent["events"] >= EVENTS:
                return
            for event in random_events(rng, size[0]):
                if event.type == pygame.VIDEORESIZE:
                    size[0] = (event.w, event.h)
                pygame.event.post(event)
                sent["events"] += 1

    app.run(fps=1000, frames=EVENTS // PER_FRAME + 2, on_frame=on_frame)
    assert app.running, "the monkey quit the table (it sends no Ctrl+Q and no window close)"
    escapes: list[Any] = [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0)]
    space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)

    def calm(a: App) -> None:
        for event in (space if a.handoff is not None else escapes[0],):
            pygame.event.post(event)

    app.run(fps=1000, frames=8, on_frame=calm)
    assert open_modes(app) == [], f"{scenario}: still open after Esc: {open_modes(app)}"
