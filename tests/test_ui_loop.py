"""The real loop: events posted to pygame's own queue reach the table through App.run.

Under SDL_VIDEODRIVER=dummy (tests/conftest.py) the window is a dummy display, so this
runs the same code a player's window runs, frame by frame.
"""

from __future__ import annotations

import pygame

from tabletop.ui import theme
from tabletop.ui.table import open_table


def test_posted_events_zoom_toggle_an_overlay_and_drag_a_counter_through_the_loop() -> None:
    app = open_table("dogs-of-war-demo", size=(1000, 700))
    unit = app.state.piece("A1")
    target = app.board.hex_of("2010")
    seen: dict[str, object] = {}
    script: list[pygame.event.Event] = []

    def on_frame(a):  # type: ignore[no-untyped-def]
        frame = seen.setdefault("frame", 0)
        seen["frame"] = int(frame) + 1  # type: ignore[call-overload]
        if seen["frame"] == 1:  # the first frame drew the table: now script the player
            a.camera.zoom_at(3.0, a.camera.width / 2, a.camera.height / 2)  # the target in the map's area
            a.camera.center = a.view.center(unit.hex)
            seen["zoom"] = a.camera.zoom
            x, y = (round(v) for v in a.camera.to_screen(*a.view.center(unit.hex)))
            tx, ty = (round(v) for v in a.camera.to_screen(*a.view.center(target)))
            script.extend([
                pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1),
                pygame.event.Event(pygame.MOUSEMOTION, pos=(tx, ty), rel=(tx - x, ty - y), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(tx, ty), button=1),
                pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False),
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g"),
            ])  # fmt: skip
        if script:
            pygame.event.post(script.pop(0))  # one event a frame, through the queue
        elif seen["frame"] > 12 and "pixel" not in seen:
            surface = pygame.display.get_surface()
            h = a.board.hex_of("3030")
            a.camera.center = a.view.center(h)
            a.draw(surface)
            x, y = (round(v) for v in a.screen_of(h))
            seen["pixel"] = tuple(surface.get_at((x, y)))[:3]
            seen["expected"] = theme.hex_colour(a.board.terrain_types[a.board.terrain[h]].colour)

    app.run(fps=1000, frames=20, on_frame=on_frame)
    assert app.camera.zoom < seen["zoom"]  # the wheel, turned back, zoomed out
    assert app.overlays.get("range ring") is True
    assert app.state.piece("A1").hex == target  # dragged and dropped
    assert seen["pixel"] == seen["expected"]
