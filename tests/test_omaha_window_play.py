"""D-Day at Omaha Beach played in the window through the real loop (issue 18 item 6):
the finder (f, an id, Enter) selects a US unit by the id the choices name, and a drag of
its counter onto a hex is its move in the US Action phase (the game box lists no moves:
"drag a unit to move it"). Events are posted to pygame's own queue, one a frame."""

from __future__ import annotations

from typing import Any

import pygame

from tabletop.games.omaha.autoplayer import LandingBot
from tabletop.ui.counters import CounterLayer
from tabletop.ui.table import open_table


def _to_us_action(app: Any) -> None:
    g, bot = app.play, LandingBot()
    while g.state.phase != "us-action":
        g.play(g.proposal() or bot.choose(g.side_view("us")))
    app.sync()


def _counter_point(app: Any, layer: CounterLayer, uid: str) -> tuple[int, int]:
    """A screen point on ``uid``'s own counter, not on one stacked over it."""
    for stack in layer.stacks(app):
        ids = [p.id for p in stack.counters]
        if uid in ids:
            size = layer.size(app)
            r = stack.rect(len(ids) - 1 - ids.index(uid), size, layer.step(size))
            for fx in (0.5, 0.2, 0.8, 0.1, 0.9):
                for fy in (0.5, 0.8, 0.2, 0.9, 0.1):
                    pt = (round(r.x + fx * r.w), round(r.y + fy * r.h))
                    got = layer.hit(app, pt)
                    if got is not None and got[1].id == uid:
                        return pt
    raise AssertionError(f"{uid} is not on screen")


def test_find_a_unit_by_id_and_drag_it_to_move_through_the_loop() -> None:
    """Issue 18 item 6: f + id + Enter selects the unit; the drag plays its move (omaha
    6.1) through the rules, logged, with an action of the sector spent or a free one."""
    app = open_table("omaha", size=(1280, 800), seed=7)
    _to_us_action(app)
    layer = next(c for c in app.components if isinstance(c, CounterLayer))
    g = app.play
    move = next(a for a in g.choices("us") if a.get("do") == "move" and "with" not in a)
    uid, to = str(move["unit"]), str(move["to"])
    script: list[pygame.event.Event] = []
    seen: dict[str, Any] = {"frame": 0}

    def key(k: int, ch: str) -> pygame.event.Event:
        return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch, scancode=0)

    def on_frame(a: Any) -> None:
        seen["frame"] += 1
        if seen["frame"] == 1:
            script.append(key(pygame.K_f, "f"))
            script.extend(key(ord(c.lower()) if c.isalpha() else ord(c), c) for c in uid)
            script.append(key(pygame.K_RETURN, "\r"))
        if script:
            pygame.event.post(script.pop(0))
        elif "selected" not in seen:
            seen["selected"] = a.selected
            x, y = _counter_point(a, layer, uid)
            tx, ty = (round(v) for v in a.screen_of(a.board.hex_of(to)))
            script.extend([
                pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1),
                pygame.event.Event(pygame.MOUSEMOTION, pos=(tx, ty), rel=(tx - x, ty - y), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(tx, ty), button=1),
            ])  # fmt: skip

    app.run(fps=1000, frames=len(uid) + 14, on_frame=on_frame)
    assert seen["selected"] == uid
    assert app.board.label(g.state.map.piece(uid).hex) == to
    assert g.entries[g.head].action.get("do") == "move" and g.entries[g.head].action.get("unit") == uid
