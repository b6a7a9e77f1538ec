"""Frame time of the table, offscreen with the dummy video driver.

A 50 x 50 map (2,500 hexes) with 200 counters and the line-of-sight overlay, drawn at
1600 x 1000 with the whole map in view: frames per second with a fixed thread, and with
the hover thread following a moving pointer (a new line of sight every frame). The
baseline in the same run draws the same map by redrawing every hex each frame (no tile
cache). Also the time from starting the process to the first frame.

Issue 19 item 4 (a smooth table on big maps), each against the fixed-thread frame of
the same run: the reach overlay of a selected unit, the viewshed overlay following the
pointer (a new viewshed every frame) and fixed on one hex, on the same 2,500-hex table
(target 120 fps); a 200 x 200 map (40,000 hexes, 1,000 counters) panned and zoomed
(target 60 fps), with the frames and seconds the window takes to finish painting the
view once the wheel stops (it paints a new zoom's tiles over several frames, the last
frame scaled standing in meanwhile); and the process's peak memory after it all
(target under 1 GB). Every frames-per-second figure is also given as a ratio against
the fixed-thread frame of the same run (``*_vs_fixed_thread``): the machine's load
moves absolute figures by 2x between runs. ``cpu_ms_*`` are the process's CPU
milliseconds a frame (its own time: other agents move it much less than the wall
clock), and ``*_cpu_vs_fixed_thread`` the same ratios from them (frames a CPU-second).
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from tabletop.board import build_map
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.pieces import MapState, Piece
from tabletop.ui.app import App
from tabletop.ui.table import default_components
from tabletop.yamlfile import parse_yaml

SIZE = (1600, 1000)


def table(seed: int = 1, side: int = 50, counters: int = 200) -> App:
    rng = random.Random(seed)
    rows = "\n".join("  " + " ".join(rng.choice("....,,WH") for _ in range(side)) for _ in range(side))
    text = f"""name: frames
grid: {{columns: {side}, rows: {side}{", labels: {digits: 3}" if side > 99 else ""}}}
terrain:
  open: {{symbol: ".", colour: "#c8d89a"}}
  field: {{symbol: ",", colour: "#e0c060"}}
  woods: {{symbol: "W", colour: "#3f7a3a", properties: {{los: block}}}}
  hill: {{symbol: "H", colour: "#b39b6b", properties: {{los: hinder}}}}
rows: |
{rows}
"""
    board = build_map(parse_yaml(text, "frames.yaml"), Path("frames.yaml"))
    hexes = board.grid.hexes()
    pieces = [
        Piece(f"U{i}", rng.choice(["infantry", "tank", "machine-gun", "hq"]), h, rng.choice(["blue", "red"]))
        for i, h in enumerate(rng.sample(hexes, counters))
    ]
    state = MapState.of(board, pieces)
    app = App(
        state=state, title="frames", los_policy=FreePlayPolicy.for_map(state), move_policy=FreePlayMovePolicy(),
        size=SIZE, components=default_components(),
    )  # fmt: skip
    app.camera.fit(app.view.bounds)
    app.view.progressive = True  # as in the window (App.run): a new zoom's tiles over several frames
    return app


#: CPU milliseconds a frame of the last ``_fps`` run: the process's own time, which
#: other agents on the machine move much less than the wall clock
LAST_CPU_MS: list[float] = [0.0]


def _fps(app: App, surface: pygame.Surface, frames: int, step: Any = None) -> float:
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(frames):
        if step is not None:
            step(i)
        app.update(1 / 60)
        app.draw(surface)
    LAST_CPU_MS[0] = round(1000 * (time.process_time() - c0) / frames, 2)
    return frames / (time.perf_counter() - t0)


def _no_tiles(app: App) -> None:
    """The baseline: forget the tiles every frame, so every hex is drawn every frame."""
    view = app.view
    original = view.draw

    def draw(surface: pygame.Surface, camera: Any, *rest: Any) -> None:  # (the map state since issue 12)
        view.invalidate()
        original(surface, camera, *rest)

    view.draw = draw  # type: ignore[method-assign,assignment]


def startup_seconds() -> float:
    """Process start to the first frame drawn (a fresh interpreter, dummy driver)."""
    code = (
        "import time; t0 = time.perf_counter(); import pygame; "
        "from tabletop.ui.table import open_table; app = open_table('dog-sector'); "
        "pygame.init(); s = pygame.display.set_mode((1280, 800)); app.draw(s); pygame.display.flip(); "
        "print(time.perf_counter() - t0)"
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - t0


def run(frames: int = 240) -> dict[str, Any]:
    pygame.font.init()
    surface = pygame.Surface(SIZE)
    app = table()
    overlays = app.overlay_component()
    hexes = app.state.board.grid.hexes()
    overlays.set_los(app, hexes[0], hexes[-1])
    app.draw(surface)  # first frame builds the tiles
    out: dict[str, Any] = {
        "hexes": len(hexes),
        "counters": len(app.state.pieces()),
        "size": f"{SIZE[0]}x{SIZE[1]}",
    }
    out["fps_fixed_thread"] = round(_fps(app, surface, frames), 1)
    out["cpu_ms_fixed_thread"] = LAST_CPU_MS[0]

    overlays.clear(app)
    app.selected = "U0"
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l"))
    rng = random.Random(2)
    points = [app.screen_of(h) for h in rng.sample(hexes, 64)]

    def hover(i: int) -> None:  # the pointer moves to another hex every frame
        x, y = points[i % len(points)]
        app.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0), buttons=(0, 0, 0))
        )

    out["fps_hover_thread"] = round(_fps(app, surface, frames, hover), 1)
    out["cpu_ms_hover_thread"] = LAST_CPU_MS[0]
    out.update(_overlays(app, surface, frames, hover))
    fixed = out["fps_fixed_thread"]
    for name in ("hover_thread", "reach", "hover_viewshed", "fixed_viewshed"):
        out[f"{name}_vs_fixed_thread"] = round(out[f"fps_{name}"] / fixed, 2)
        out[f"{name}_cpu_vs_fixed_thread"] = round(out["cpu_ms_fixed_thread"] / out[f"cpu_ms_{name}"], 2)
    base = table()
    base.overlay_component().set_los(base, hexes[0], hexes[-1])
    _no_tiles(base)
    out["fps_baseline_no_tiles"] = round(_fps(base, surface, max(20, frames // 8)), 1)
    out["speedup_vs_no_tiles"] = round(out["fps_fixed_thread"] / out["fps_baseline_no_tiles"], 1)
    out["startup_to_first_frame_s"] = round(startup_seconds(), 2)
    out.update(big_map(surface, max(60, frames // 2)))
    for name in ("zoom", "pan"):
        out[f"big_fps_{name}_vs_fixed_thread"] = round(out[f"big_fps_{name}"] / fixed, 2)
        out[f"big_{name}_cpu_vs_fixed_thread"] = round(out["cpu_ms_fixed_thread"] / out[f"big_cpu_ms_{name}"], 2)
    out["peak_memory_mb"] = peak_memory_mb()
    return out


def _overlays(app: App, surface: pygame.Surface, frames: int, hover: Any) -> dict[str, float]:
    """Frames per second with the reach overlay of a selected unit (the pointer moving
    over the map), the viewshed overlay following the pointer, and a fixed viewshed."""
    overlays = app.overlay_component()
    out: dict[str, float] = {}
    overlays.clear(app)
    app.selected = "U0"
    overlays.show_reach(app, "U0")
    app.draw(surface)
    out["fps_reach"] = round(_fps(app, surface, frames, hover), 1)
    out["cpu_ms_reach"] = LAST_CPU_MS[0]
    overlays.clear(app)
    app.selected = None
    app.overlays["viewshed"] = True
    # the first two viewsheds of a process read the vector table from the cache folder,
    # or work out their own lines and then build it (a fresh home: about a second): a
    # cold start, which ``speed.cold_viewshed`` measures, not the frame rate measured here
    start = time.process_time()
    for i in (-1, -2):
        hover(i)
        app.update(1 / 60)
        app.draw(surface)
    out["cpu_ms_viewshed_warm_up"] = round(1000 * (time.process_time() - start), 1)
    out["fps_hover_viewshed"] = round(_fps(app, surface, frames, hover), 1)
    out["cpu_ms_hover_viewshed"] = LAST_CPU_MS[0]
    overlays.clear(app)
    overlays.show_viewshed(app, app.state.board.grid.hexes()[1275])
    app.draw(surface)
    out["fps_fixed_viewshed"] = round(_fps(app, surface, frames), 1)
    out["cpu_ms_fixed_viewshed"] = LAST_CPU_MS[0]
    overlays.clear(app)
    return out


def big_map(surface: pygame.Surface, frames: int) -> dict[str, Any]:
    """A 200 x 200 map (40,000 hexes, 1,000 counters): frames per second while panning
    (a drag of 7 pixels a frame, zoomed in as a player reads counters) and while zooming
    in and out at the pointer, from the whole map in view to counters' size."""
    t0 = time.perf_counter()
    app = table(seed=3, side=200, counters=1000)
    app.draw(surface)
    out: dict[str, Any] = {"big_hexes": len(app.state.board.grid.hexes()), "big_counters": 1000}
    out["big_first_frame_s"] = round(time.perf_counter() - t0, 2)
    cx, cy = SIZE[0] / 2, SIZE[1] / 2

    def zoom(i: int) -> None:  # 24 wheel steps in, 24 out, and again
        app.camera.zoom_at(1.15 if (i // 24) % 2 == 0 else 1 / 1.15, cx, cy)

    out["big_fps_zoom"] = round(_fps(app, surface, frames, zoom), 1)
    out["big_cpu_ms_zoom"] = LAST_CPU_MS[0]
    # the window paints a new zoom's tiles over several frames (a stand-in meanwhile):
    # how many frames, and how long, until the view is whole once the wheel stops
    settle, t0 = 0, time.perf_counter()
    while getattr(app.view, "pending", False) and settle < 1000:
        app.draw(surface)
        settle += 1
    out["big_zoom_settle_frames"] = settle
    out["big_zoom_settle_s"] = round(time.perf_counter() - t0, 3)
    app.camera.fit(app.view.bounds)
    app.camera.zoom_at(8.0, cx, cy)
    app.draw(surface)

    def pan(i: int) -> None:  # back and forth across the screen's width
        app.camera.pan(7 if (i // 100) % 2 == 0 else -7, 3 if (i // 50) % 2 == 0 else -3)

    out["big_fps_pan"] = round(_fps(app, surface, frames, pan), 1)
    out["big_cpu_ms_pan"] = LAST_CPU_MS[0]
    return out


def peak_memory_mb() -> float:
    """The process's peak resident memory so far (Linux reports kilobytes)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
