"""The boxes panel and the counter faces (issue 13 findings 9 and 17), driven through the
real event loop where the player acts."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest
from test_ui_table_findings import SIZE, drive, keydown, part, press

from tabletop.engine.counters import counters_for
from tabletop.ui import counter_art as art
from tabletop.ui.app import App
from tabletop.ui.boxes import BoxesPanel, box_order
from tabletop.ui.counters import LOD_PIXELS, CounterLayer
from tabletop.ui.table import open_table


@pytest.fixture(autouse=True)
def fonts() -> None:
    pygame.font.init()


def omaha() -> App:
    """Omaha's landings in free play, the boxes open in the right column."""
    app = open_table("omaha-landings", size=SIZE, seed=1)
    drive(app, [])
    assert part(app, BoxesPanel).is_open(app)
    return app


def omaha_game() -> App:
    """The Omaha game (scenarios/omaha.yaml, rules omaha): its own counters file."""
    app = open_table("omaha", size=SIZE, seed=1)
    drive(app, [])
    return app


def beach(app: App) -> tuple[int, int]:
    """A beach hex on screen, clear of the panels."""
    layer = part(app, CounterLayer)
    for h in app.board.grid.hexes():
        if app.board.terrain[h] != "beach" or app.state.pieces_at(h):
            continue
        x, y = app.screen_of(h)
        pos = (round(x), round(y))
        clear = not part(app, BoxesPanel).rect(app).inflate(60, 60).collidepoint(pos)
        if clear and 60 < x < 600 and 150 < y < app.camera.height - 150 and layer.hit(app, pos) is None:
            return pos
    raise AssertionError("no beach hex in view")


# --- finding 9: the boxes are shown and their units come onto the map -------------------


def test_the_boxes_are_listed_this_turns_first() -> None:
    """Finding 9: every box the game holds is listed, the current turn's first (Omaha
    turn 1: east-turn-1, west-turn-1), the turns already past next, later turns after."""
    app = omaha()
    names = [name for name, _ in part(app, BoxesPanel).listed(app)]
    assert names[:2] == ["east-turn-1", "west-turn-1"]
    assert names.index("east-turn-0") < names.index("east-turn-3") < names.index("east-turn-4")
    assert set(names) == {n for n, pieces in app.play.state.boxes.items() if pieces}
    assert sorted(["dead", "turn-2", "removed", "east-turn-2"], key=lambda n: box_order(n, 2)) == [
        "east-turn-2", "turn-2", "dead", "removed"]  # fmt: skip


def test_a_boxed_counter_clicked_then_a_hex_clicked_lands_there_by_a_logged_unbox() -> None:
    """Finding 9: click a counter in its box, then a beach hex: the unit is in that hex,
    out of the box, through a logged `unbox` action (free play: Omaha has no ruleset)."""
    app = omaha()
    panel = part(app, BoxesPanel)
    piece = app.play.state.box("east-turn-1")[0]
    seen: dict[str, tuple[int, int]] = {}

    def aim(a: App) -> None:
        seen["cell"] = panel.cell_of(a, piece.id).center  # type: ignore[union-attr]
        seen["hex"] = beach(a)

    def click(name: str) -> object:
        def post(a: App) -> None:
            for event in press(seen[name]):
                pygame.event.post(event)

        return post

    drive(app, [aim, click("cell"), lambda a: None, lambda a: None, lambda a: None, click("hex")], after=6)
    target = app.hex_at_screen(*seen["hex"])
    assert app.state.piece(piece.id).hex == target
    assert all(p.id != piece.id for p in app.play.state.box("east-turn-1"))
    assert app.play.entries[-1].action == {
        "do": "unbox", "box": "east-turn-1", "piece": piece.id, "to": app.board.label(target)}  # fmt: skip


def test_a_boxed_counter_dragged_onto_a_hex_lands_there() -> None:
    """Finding 9: dragging a counter from its box onto a hex does the same."""
    app = omaha()
    panel = part(app, BoxesPanel)
    piece = app.play.state.box("west-turn-1")[0]
    start = panel.cell_of(app, piece.id).center  # type: ignore[union-attr]
    end = beach(app)
    steps: list[object] = [
        pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
    ]
    for k in range(1, 5):
        pos = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        steps.append(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    steps.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    drive(app, steps)  # type: ignore[arg-type]
    assert app.state.piece(piece.id).hex == app.hex_at_screen(*end)
    assert app.play.entries[-1].action["do"] == "unbox"


def test_y_folds_and_opens_the_boxes() -> None:
    app = omaha()
    panel = part(app, BoxesPanel)
    drive(app, [keydown(pygame.K_y, text="y")])
    assert not panel.is_open(app) and "boxes" in app.layout.folded
    drive(app, [keydown(pygame.K_y, text="y")])
    assert panel.is_open(app)


def test_the_tray_never_shows_a_negative_count() -> None:
    """Finding 9: the tray showed "heavy infantry -2/2": the scenario's boxed units
    count as part of the sheet, so every count is "left/of" with 0 <= left <= of."""
    app = omaha_game()
    layer = part(app, CounterLayer)
    layer.tray_open = True
    seen = []
    for k, _ in enumerate(layer.tray_tabs(app)):
        layer.tray_tab = k
        seen += [note for _, _, placing, note in layer.tray_rows(app) if placing is not None and "/" in note]
    assert seen
    for note in seen:
        left, of = (int(n) for n in note.split("/"))
        assert 0 <= left <= of, note
    row = next(note for _, label, _, note in _rows(layer, app, "us") if label == "heavy infantry")
    assert row == "0/2"  # 2 heavy infantry (81C) in the boxes, 2 on the sheet (issue 17: defect 2 fixed)


def _rows(layer: CounterLayer, app: App, tab: str) -> list[tuple[object, str, object, str]]:
    layer.tray_tab = layer.tray_tabs(app).index(tab)
    return layer.tray_rows(app)  # type: ignore[return-value]


# --- finding 17: counters like printed counters ---------------------------------------


def test_a_counter_prints_its_values_from_the_counters_file() -> None:
    """Finding 17: the face prints the counters file's `full` values, and `reduced` once
    the unit has lost its steps (Omaha tank company: 2, then 1)."""
    app = omaha_game()
    layer = part(app, CounterLayer)
    piece = next(p for p in app.play.state.box("east-turn-1") if p.type == "tank")
    spec = counters_for("omaha").unit("tank")
    colour = layer.side_rgb(app, piece.side)
    assert (spec.full, spec.reduced) == ("2", "1")
    face = layer._face(app, piece, 60)
    assert face is art.unit_counter(spec, colour, 60, piece.id, values="2")
    assert face is not art.unit_counter(spec, colour, 60, piece.id, values="")
    reduced = replace(piece, steps=1)
    assert layer._face(app, reduced, 60) is art.unit_counter(spec, colour, 60, piece.id, reduced=True, values="1")


def test_zoomed_out_counters_draw_the_far_face_and_zoomed_in_the_full_one() -> None:
    """Finding 17: below LOD_PIXELS a counter is a big symbol and its values, no id;
    at LOD_PIXELS and above the id is back. Checked on the drawn frame."""
    app = open_table("dog-sector", size=SIZE, seed=1, setup="auto")
    layer = part(app, CounterLayer)
    piece = next(p for p in app.state.pieces() if p.type == "mg-pillbox")
    spec = layer.spec(app, piece)
    colour = layer.side_rgb(app, piece.side)
    for size, far in ((LOD_PIXELS - 1, True), (LOD_PIXELS, False)):
        app.camera.zoom = 1.0
        app.camera.zoom *= size / layer.size(app)
        while layer.size(app) != size:  # rounding: nudge to the exact pixel size
            app.camera.zoom *= 1.001 if layer.size(app) < size else 0.999
        app.camera.center = app.view.center(piece.hex)
        surface = pygame.Surface(SIZE)
        app.draw(surface)
        stack = next(s for s in layer.stacks(app) if s.hex == piece.hex)
        rect = stack.rect(0, size, layer.step(size))
        want = art.unit_counter(spec, colour, size, piece.id, lod=far)
        other = art.unit_counter(spec, colour, size, piece.id, lod=not far)
        drawn = surface.subsurface(rect)
        assert _same(drawn, want) > _same(drawn, other), size


def _same(drawn: pygame.Surface, face: pygame.Surface) -> int:
    """Pixels of an opaque face that the drawn frame shows unchanged."""
    n = 0
    for x in range(2, face.get_width() - 2):
        for y in range(2, face.get_height() - 2):
            c = face.get_at((x, y))
            d = drawn.get_at((x, y))
            n += c.a == 255 and abs(c.r - d.r) + abs(c.g - d.g) + abs(c.b - d.b) < 6
    return n


def test_status_chips_are_legible_and_obstacles_quieter_than_units() -> None:
    """Finding 17: a status chip's text is at least 12 pixels tall, and a marker alone
    in a hex (DOG SECTOR wire) is a see-through tag smaller than a unit's counter."""
    cs = counters_for("dog_sector")
    chip = art.chip(cs.marker("pinned").text, art.rgb(cs.marker("pinned").colour), 18)
    assert chip.get_height() >= 18
    inside = range(3, chip.get_width() - 3)
    rows = [y for y in range(2, chip.get_height() - 2) if any(chip.get_at((x, y))[:3] == art.INK_DARK for x in inside)]
    assert rows and max(rows) - min(rows) + 1 >= 8  # capitals 8+ pixels: a 12-pixel line of text
    tag = art.hex_marker(cs.marker("barbed-wire"), 40)
    assert tag.get_height() < 40 and tag.get_at((tag.get_width() // 2, 2)).a < 200


def test_the_boxes_are_a_section_of_the_right_column_never_over_the_map() -> None:
    """Findings 9 and 16: the boxes show whenever a box holds a piece (DOG SECTOR: the
    landing box), docked in the right column so they never hide the map; a click on the
    section's title folds them, and again opens them."""
    app = open_table("dog-sector", size=SIZE, seed=1)
    panel = part(app, BoxesPanel)
    drive(app, [])
    assert panel.is_open(app)
    rect = panel.rect(app)
    assert app.layout.right.contains(rect) and not rect.colliderect(app.layout.map)
    title = app.layout.placed["boxes"].title
    assert title is not None
    drive(app, press(title.center))
    assert not panel.is_open(app)
    drive(app, press(app.layout.placed["boxes"].title.center))
    assert panel.is_open(app)
