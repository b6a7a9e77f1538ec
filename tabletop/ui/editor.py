"""The map and scenario editor: the table window in an editing mode (``tabletop edit``).

Tools, on F3-F9 or a click in the editor's panel: paint terrain with a brush, set
elevation, put hex features (roads) on hexes, hexside features (walls) on hexsides,
paint regions, on a map with a background picture align the picture with the grid by
clicking three hex centres, and in a scenario add setup entries and limits; a
scenario's pieces are placed with the table's own counter tools. Each change is an
edit of the file as a document (``board.editing``, ``engine.scenario_document``), so
undo and redo are exact and the saved file keeps what its author wrote; after each one
the documents are checked as ``tabletop validate`` checks them (the setup solver
included), and their problems are listed in the editor's panel, the hexes they name
ringed on the map. The map shown is always the one the rules would read: line of sight
(``l``) and the legend follow each stroke; a drag paints every hex the pointer passes
over and undoes as one edit.

Decides nothing of the map's meaning: it edits the file the loader reads.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

import pygame

from tabletop.atomicfile import WriteError
from tabletop.board.align import AlignError, fit
from tabletop.board.editing import MapDocument, YamlDocument
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Game
from tabletop.engine.pieces import MapState
from tabletop.engine.scenario_document import ScenarioDocument, scenario_counters
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, neighbors

from . import theme
from .app import App, Component
from .board_view import BoardView
from .layout import Section, draw_lines, lines_height

TOOLS = ("terrain", "elevation", "feature", "hexside", "region", "align", "setup")
TOOL_NAMES = {
    "terrain": "Terrain brush",
    "elevation": "Elevation",
    "feature": "Hex features (roads)",
    "hexside": "Hexside features (walls)",
    "region": "Regions",
    "align": "Align the background picture",
    "setup": "Setup zones and constraints",
}
BLOCKS = {"terrain": "terrain", "feature": "features", "hexside": "hexsides", "region": "regions"}
SECTION = "editor"
SMALL = 18
SWATCH = 14
PROBLEMS_SHOWN = 6
SWEEP_PX = 4  # a drag's path is looked at every few pixels: motion events come far apart
LABEL = re.compile(r"\b\d{4,6}\b")  # a hex label named in a problem's message
PROBLEM = theme.LOS_BLOCKED
HOVER = theme.HIGHLIGHT

TOOL_KEYS = dict(
    zip(TOOLS, (pygame.K_F3, pygame.K_F4, pygame.K_F5, pygame.K_F6, pygame.K_F7, pygame.K_F8, pygame.K_F9), strict=True)
)
Lines = list[tuple[str, tuple[int, ...], bool]]

SHORTCUTS = [
    ("F3-F9, or click a tool", "editor: terrain, elevation, hex features, hexsides, regions, align the picture, setup"),
    ("t, then click a hex", "editor (a scenario): place a piece from the counter tray; drag moves, right-click changes"),
    ("a / + / - / c", "editor, setup tool: a setup entry of the last counter placed, in the region picked (F7); "
     "its count up / down; a constraint: at most one per hex"),
    ("1-9", "editor: pick the tool's terrain, feature, hexside or region"),
    ("click, drag", "editor: paint the hexes (features and regions: on or off, as the first hex)"),
    ("[ / ]", "editor, with the elevation tool (F4): elevation to paint, one lower / higher"),
    ("n", "editor: a new terrain, feature, hexside or region in the file (rename it there)"),
    ("Ctrl+Z / Ctrl+Y", "editor: undo / redo (a drag at a time)"),
    ("Ctrl+S", "editor: save the files edited (their comments and layout kept)"),
]


def align_targets(board: Any) -> list[Hex]:
    """The hexes whose centres the align tool asks for: three corners of the grid, far
    apart across and down (the best-conditioned fit)."""
    grid = board.grid
    return [grid.hex_at(0, 0), grid.hex_at(grid.columns - 1, 0), grid.hex_at(0, grid.rows - 1)]


def swept(app: App, start: tuple[int, int], end: tuple[int, int]) -> list[Hex]:
    """The map hexes under the pointer on its way from ``start`` to ``end``, in order,
    each once, leaving out the panels: a quick drag's motion events come tens of pixels
    apart, and a stroke that painted only the hexes they land on would leave gaps."""
    steps = max(1, math.ceil(math.dist(start, end) / SWEEP_PX))
    out: list[Hex] = []
    for i in range(1, steps + 1):
        pos = (round(start[0] + (end[0] - start[0]) * i / steps), round(start[1] + (end[1] - start[1]) * i / steps))
        h = app.hex_at_screen(*pos)
        if h is not None and h not in out and not app.layout.covers(pos):
            out.append(h)
    return out


class Editor(Component):
    """The editing mode's tools, panel and map marks (see the module doc)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = SHORTCUTS

    def __init__(self, doc: MapDocument, scenario: ScenarioDocument | None = None) -> None:
        self.doc = doc
        self.scenario = scenario
        if scenario is not None:
            scenario.map_of = lambda: self.doc.board
        self.edits: list[YamlDocument] = []  # the document of each edit, newest last (undo)
        self.undone: list[YamlDocument] = []  # the documents undone, for redo
        self.last_type: tuple[str, str, str | None] | None = None  # (kind, type, side) last chosen in the tray
        self._version = -1  # the table's map version last written into the scenario
        self.tool = "terrain"
        self.pick: dict[str, int] = dict.fromkeys(TOOLS, 0)
        self.level = 1
        self.stroke: bool | None = None  # a drag in progress: None, or what it sets (on / off)
        self.stroked: set[Hex] = set()  # hexes this drag has done
        self.stroke_at: tuple[int, int] = (0, 0)  # where the pointer was last in this drag
        self.stroke_recorded = False  # this drag has changed the file (one undo step)
        self.clicks: list[tuple[tuple[float, float], tuple[float, float]]] = []  # align: (hex centre, picture pixel)
        self.rows: list[tuple[int, pygame.Rect]] = []  # the panel's clickable rows drawn last
        self.clickable: list[tuple[str, str]] = []  # what each of those rows is: ("tool"|"pick", key)
        self.new_region = False  # the next click on the map starts a new region
        self._shown: tuple[Any, Any] | None = None  # the map and scenario the table shows
        self.boxes: dict[str, pygame.Rect] = {}

    # --- what the tool works with --------------------------------------------------------

    def choices(self) -> list[str]:
        """The keys the current tool picks among (1-9)."""
        board = self.doc.board
        return {
            "terrain": list(board.terrain_types),
            "feature": list(board.features),
            "hexside": list(board.hexsides),
            "region": list(board.regions),
        }.get(self.tool, [])

    def chosen(self) -> str | None:
        found = self.choices()
        return found[min(self.pick[self.tool], len(found) - 1)] if found else None

    def tools(self) -> list[str]:
        out = [t for t in TOOLS if t != "align" or self.doc.board.background is not None]
        return [t for t in out if t != "setup" or self.scenario is not None]

    def documents(self) -> list[YamlDocument]:
        return [self.doc] + ([self.scenario] if self.scenario is not None else [])

    def unsaved(self) -> bool:
        return any(d.unsaved for d in self.documents())

    def record(self, doc: YamlDocument) -> None:
        """``doc`` was just edited: Ctrl+Z undoes the newest edit, of whichever file (a
        drag's edits are one: ``begin_stroke``)."""
        if not (self.stroke is not None and self.stroke_recorded):
            self.edits.append(doc)
            self.stroke_recorded = self.stroke is not None
        self.undone.clear()
        if doc is self.doc and self.scenario is not None:
            self.scenario.recheck()  # its regions and hexes are the map's

    # --- events ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type == pygame.KEYDOWN:
            self._end_stroke()  # a release lost outside the window ends the drag too
            return self._key(event, app)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._note_placing(app)  # before the counter tools place it and forget it
            for i, rect in self.rows:
                if rect.collidepoint(event.pos) and i < len(self.clickable):
                    return self._row_clicked(i, app)
            if app.layout.covers(event.pos) or self._counters_take(app, event.pos):
                return False
            h = app.hex_at_screen(*event.pos)
            if self.tool == "align":
                return self._align_click(app, event.pos)
            if h is None:
                return False
            if self.tool == "region" and self.new_region:
                self.new_region = False
                key = self.doc.add_kind("regions", h, *self.region_wanted())
                if key is not None:
                    self.record(self.doc)
                    self.pick["region"] = self.choices().index(key)
                    self.show(app)
                    app.say(f"new region {key} at {self.doc.board.label(h)}: drag to add hexes")
                return True
            self._end_stroke()
            self.stroke, self.stroked, self.stroke_at = self._sets(h), set(), event.pos
            self.doc.begin_stroke()
            self._apply(app, h, event.pos)
            return True
        if event.type == pygame.MOUSEMOTION and self.stroke is not None and self.tool != "hexside":
            for h in swept(app, self.stroke_at, event.pos):
                if h not in self.stroked:
                    self._apply(app, h, event.pos)
            self.stroke_at = event.pos
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.stroke is not None:
            self._end_stroke()
            return True
        return False

    def _end_stroke(self) -> None:
        self.stroke, self.stroke_recorded = None, False
        self.doc.end_stroke()

    def _recheck(self) -> None:
        if self.scenario is not None:
            self.scenario.recheck()

    def _note_placing(self, app: App) -> None:
        """The counter chosen in the tray, kept for the setup tool's next entry."""
        layer = next((c for c in app.components if hasattr(c, "placing")), None)
        placing = getattr(layer, "placing", None)
        if placing is not None and placing.kind in ("unit", "marker"):
            self.last_type = (placing.kind, placing.type, placing.side)

    def _counters_take(self, app: App, pos: tuple[int, int]) -> bool:
        """Whether a click is the counter tools' (a scenario's): in the tray, placing a
        piece from it, or on a piece (to drag it or open its menu)."""
        from .counters import CounterLayer

        layer = next((c for c in app.components if isinstance(c, CounterLayer)), None)
        if layer is None:
            return False
        if layer.placing is not None or (layer.tray_open and layer.tray_rect(app).collidepoint(pos)):
            return True
        h = app.hex_at_screen(*pos)
        return h is not None and bool(app.state.pieces_at(h))

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        key, mods = event.key, event.mod
        ctrl = bool(mods & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if ctrl and key == pygame.K_z and not mods & pygame.KMOD_SHIFT:
            done = bool(self.edits) and self.edits[-1].undo()
            if done:
                self.undone.append(self.edits.pop())
                self._recheck()
            app.say(f"undone in {self.undone[-1].path.name}" if done else "nothing to undo")
        elif ctrl and (key == pygame.K_y or (key == pygame.K_z and mods & pygame.KMOD_SHIFT)):
            done = bool(self.undone) and self.undone[-1].redo()
            if done:
                self.edits.append(self.undone.pop())
                self._recheck()
            app.say(f"redone in {self.edits[-1].path.name}" if done else "nothing to redo")
        elif ctrl and key == pygame.K_s:
            self.save(app)
        elif ctrl:
            return False
        elif key in TOOL_KEYS.values():
            tool = next(t for t, k in TOOL_KEYS.items() if k == key)
            self.choose_tool(app, tool)
        elif pygame.K_1 <= key <= pygame.K_9 and self.choices():
            self.pick[self.tool] = min(key - pygame.K_1, len(self.choices()) - 1)
            app.say(f"{TOOL_NAMES[self.tool]}: {self.chosen()}")
        elif self.tool == "setup" and key in (pygame.K_a, pygame.K_c, pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS,
                                                pygame.K_MINUS, pygame.K_KP_MINUS):
            self.setup_key(app, key)
        elif key == pygame.K_n and self.tool in BLOCKS:
            self.add_new(app)
        elif key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET) and self.tool == "elevation":
            self.level = max(-99, min(99, self.level + (1 if key == pygame.K_RIGHTBRACKET else -1)))
            app.say(f"elevation to paint: {self.level}")
        elif key == pygame.K_ESCAPE and self.tool == "align" and self.clicks:
            self.clicks = []
            app.say("alignment: clicks cleared")
        else:
            return False
        return True

    def add_new(self, app: App) -> None:
        """A new terrain type, feature or hexside declared in the file and picked; a new
        region starts at the next hex clicked. The terrain first offered is one the
        map's rule system knows and the file does not declare yet."""
        block = BLOCKS[self.tool]
        if block == "regions":
            self.new_region = True
            key, kind = self.region_wanted()
            app.say(f"new region{f' {key} ({kind}, the rules need it)' if key else ''}: click its first hex")
            return
        suggestion = None
        if block == "terrain":
            from tabletop.games import knowledge

            knows = knowledge(self.doc.board.rules)
            missing = sorted(set(knows.terrain) - set(self.doc.board.terrain_types)) if knows is not None else []
            suggestion = missing[0] if missing and knows is not None and knows.terrain_property is None else None
        key = self.doc.add_kind(block, key=suggestion)
        if key is None:
            app.say(f"no new {self.tool}: the file has no room for one (every symbol is used)")
            return
        self.record(self.doc)
        self.pick[self.tool] = self.choices().index(key)
        self.show(app)
        app.say(f"new {TOOL_NAMES[self.tool].lower()}: {key} (rename it and set its colour in the file)")

    def region_wanted(self) -> tuple[str | None, str]:
        """The key and kind of the next region the map's rule system needs and the map
        lacks (DOG SECTOR: section-1..6, a landing row), else a fresh one of kind zone."""
        from tabletop.games import knowledge

        knows = knowledge(self.doc.board.rules)
        if knows is None:
            return None, "zone"
        regions = self.doc.board.regions
        for name in knows.regions:
            if name not in regions and not any(r.name == name for r in regions.values()):
                kind = next((k for k in knows.region_kinds if name.startswith(f"{k}-")), "zone")
                return name, kind
        for kind in knows.region_kinds:
            if not any(r.kind == kind for r in regions.values()):
                return f"{kind}-1", kind
        return None, "zone"

    def choose_tool(self, app: App, tool: str) -> None:
        if tool not in self.tools():
            app.say("align needs a background picture: tabletop edit MAP --background PICTURE.png")
            return
        self.tool, self.clicks = tool, []
        app.say(f"tool: {TOOL_NAMES[tool]}")
        if tool == "align":
            app.say(f"alignment: click the centre of hex {self.doc.board.label(align_targets(self.doc.board)[0])} on the picture")

    def _row_clicked(self, index: int, app: App) -> bool:
        """A click on a tool row chooses the tool; on a palette row, picks it."""
        kind, value = self.clickable[index]
        if kind == "tool":
            self.choose_tool(app, value)
        else:
            self.pick[self.tool] = self.choices().index(value)
            app.say(f"{TOOL_NAMES[self.tool]}: {value}")
        return True

    def _sets(self, h: Hex) -> bool:
        """What a stroke starting on ``h`` does to features and regions: on where the
        first hex is off, off where it is on."""
        key, board = self.chosen(), self.doc.board
        if self.tool == "feature" and key is not None:
            return h not in board.features[key].hexes
        if self.tool == "region" and key is not None:
            return h not in board.regions[key].hexes
        return True

    def _apply(self, app: App, h: Hex, pos: tuple[int, int]) -> None:
        self.stroked.add(h)
        key, board, doc = self.chosen(), self.doc.board, self.doc
        changed = False
        if self.tool == "terrain" and key is not None:
            changed = doc.paint(h, key)
        elif self.tool == "elevation":
            changed = doc.set_elevation(h, self.level)
        elif self.tool == "feature" and key is not None and (h in board.features[key].hexes) != self.stroke:
            changed = doc.toggle_feature(key, h)
        elif self.tool == "region" and key is not None and (h in board.regions[key].hexes) != self.stroke:
            changed = doc.toggle_region(key, h)
            if not changed:
                app.say(f"region {key}: its last hex stays (a region is never empty)")
        elif self.tool == "hexside" and key is not None:
            other = self.side_at(app, h, pos)
            if other is not None:
                changed = doc.toggle_hexside(key, h, other)
        if changed:
            self.record(doc)
            self.show(app)

    def side_at(self, app: App, h: Hex, pos: tuple[int, int]) -> Hex | None:
        """The neighbour of ``h`` across the hexside nearest the point ``pos``."""
        x, y = pos
        near = [(math.dist((x, y), app.screen_of(n)), n) for n in neighbors(h) if app.board.grid.contains(n)]
        return min(near)[1] if near else None

    def _align_click(self, app: App, pos: tuple[int, int]) -> bool:
        """One named hex centre clicked on the picture; the third fixes the alignment."""
        bg = self.doc.board.background
        if bg is None:
            return False
        view = app.view
        wx, wy = app.camera.to_world(*pos)
        targets = align_targets(self.doc.board)
        target = targets[len(self.clicks)]
        self.clicks.append((view.center(target), bg.pixel((wx, wy), view.first)))
        if len(self.clicks) < len(targets):
            app.say(f"alignment: now click the centre of hex {self.doc.board.label(targets[len(self.clicks)])} on the picture")
            return True
        try:
            origin, scale = fit(self.clicks, view.first)
        except AlignError as exc:
            app.say(f"alignment not changed: {exc}")
        else:
            if self.doc.set_alignment(origin, scale):
                self.record(self.doc)
            self.show(app)
            app.say(f"background aligned: origin {origin[0]:.1f}, {origin[1]:.1f}; scale {scale[0]:.2f} x {scale[1]:.2f} (Ctrl+Z undoes)")
        self.clicks = []
        return True

    def save(self, app: App) -> None:
        """Every file with edits, each written atomically (a failed write changes nothing
        and says why)."""
        changed = [d for d in self.documents() if d.unsaved]
        if not changed:
            app.say("nothing to save: the files are as written")
        for d in changed:
            try:
                d.save()
            except WriteError as exc:
                app.say(f"not saved: {exc}")
                continue
            problems = f" with {len(d.problems)} problem(s) listed in the editor panel" if d.problems else ""
            app.say(f"saved {d.path}{problems}")

    # --- the setup tool (a scenario) ---------------------------------------------------

    def setup_key(self, app: App, key: int) -> None:
        """a: a setup entry, one piece of the type last chosen in the tray in the region
        picked with the region tool; + / -: the newest entry's count; c: at most one of
        those pieces per hex of that region."""
        scen = self.scenario
        assert scen is not None
        entries = scen.doc.get("setup") or []
        region = self.pick_of("region")
        if key == pygame.K_a:
            if self.last_type is None or region is None:
                app.say("setup: choose a counter in the tray (t) and a region (F7, 1-9) first")
                return
            kind, kind_type, side = self.last_type
            done = scen.add_setup(count=1, regions=[region], side=side, **{"unit" if kind == "unit" else "marker": kind_type})
            if done:
                app.say(f"setup: 1 {kind_type} ({side or 'marker'}) in {region}; + / - change the count")
        elif key == pygame.K_c:
            if not entries:
                app.say("setup: add an entry first (a)")
                return
            last = entries[-1]
            zone = list(last.get("zone", {}).get("regions", []))
            pieces = {k: str(last[k]) for k in ("side", "type") if k in last}
            if "marker" in last:
                pieces["type"] = str(last["marker"])
            done = scen.add_constraint(
                text=f"no more than one {pieces.get('type')} in any hex of {', '.join(zone)}",
                pieces=pieces, bound="max", value=1, per_hex=zone,
            )  # fmt: skip
        else:
            if not entries:
                app.say("setup: add an entry first (a)")
                return
            step = -1 if key in (pygame.K_MINUS, pygame.K_KP_MINUS) else 1
            done = scen.set_setup_count(len(entries) - 1, int(entries[-1].get("count", 1)) + step)
        if done:
            self.record(scen)
            self.show(app)

    def pick_of(self, tool: str) -> str | None:
        keys = {"region": list(self.doc.board.regions)}.get(tool, [])
        return keys[min(self.pick[tool], len(keys) - 1)] if keys else None

    # --- the table shows the document's map ---------------------------------------------

    def show(self, app: App) -> None:
        """Point the table at the documents' map and pieces (after an edit, undo or redo)."""
        board = self.doc.board
        scenario = self.scenario.scenario if self.scenario is not None else None
        if (board, scenario) == self._shown:
            return
        new_board = self._shown is None or self._shown[0] is not board
        self._shown = (board, scenario)
        pieces = scenario.state().pieces() if scenario is not None else ()
        state = MapState.of(board, (p for p in pieces if board.grid.contains(p.hex)))
        app.game = Game(FreePlayRules(), GameState(state, turn=1, phase="play"), 0)
        app.los_policy = FreePlayPolicy.for_map(state)
        app.sync()
        self._version = state.version
        if new_board:
            tint, drawn, progressive = app.view.tint, app.view.ground_changes, app.view.progressive
            app.view = BoardView(board)
            app.view.ground_changes = drawn + 1  # the minimap is drawn again
            app.view.progressive = progressive
            if app.view.picture is not None and tint < 1.0:
                app.view.tint = tint

    def update(self, app: App, dt: float) -> None:
        """Undo and redo change the documents; pieces placed, moved or removed on the
        table are written into the scenario."""
        self.show(app)
        self._note_placing(app)
        if self.scenario is not None and app.play.state.map.version != self._version:
            self._version = app.play.state.map.version
            if self.scenario.sync_pieces(app.play.state.map):
                self.record(self.scenario)
                self.show(app)

    # --- drawing -----------------------------------------------------------------------

    def panel_parts(self) -> tuple[Lines, Lines, Lines, Lines]:
        """The panel: its head (the file), the tools, the palette of the tool (drawn
        indented, after a swatch), and the tail (hints and problems)."""
        doc, text, dim, hot = self.doc, theme.PANEL_TEXT, theme.PANEL_DIM, theme.HIGHLIGHT
        head: Lines = []
        for d in self.documents():
            state = "unsaved changes (Ctrl+S saves)" if d.unsaved else "saved"
            head.append((f"{d.path.parent.name}/{d.path.name}: {state}", hot if d.unsaved else dim, False))
        tools: Lines = []
        for tool in TOOLS:
            key = pygame.key.name(TOOL_KEYS[tool]).upper()
            usable = tool in self.tools()
            colour = hot if tool == self.tool else (text if usable else dim)
            why = "" if usable else (" (no picture)" if tool == "align" else " (a scenario's)")
            tools.append((f"{key}  {TOOL_NAMES[tool]}{why}", colour, tool == self.tool))
        board = doc.board
        names = {
            "terrain": lambda k: f"{board.terrain_types[k].name} ({board.terrain_types[k].symbol})",
            "feature": lambda k: board.features[k].name,
            "hexside": lambda k: board.hexsides[k].name,
            "region": lambda k: f"{board.regions[k].name} ({board.regions[k].kind}, {len(board.regions[k].hexes)} hexes)",
        }
        chosen = self.chosen()
        palette: Lines = [
            (f"{i + 1 if i < 9 else ' '}  {names[self.tool](key)}", hot if key == chosen else text, key == chosen)
            for i, key in enumerate(self.choices())
        ]
        tail: Lines = []
        if self.tool in BLOCKS:
            what = "the next click starts it" if self.new_region and self.tool == "region" else "n: add a new one"
            tail.append((f"{what} (rename it in the file)", dim, False))
        if self.tool == "elevation":
            tail.append((f"painting level {self.level}  ([ / ] to change)", hot, False))
        if self.tool == "hexside":
            tail.append(("click near a hexside to put it on or take it off", dim, False))
        if self.tool == "align":
            targets = align_targets(board)
            if len(self.clicks) < len(targets):
                n = len(self.clicks)
                tail.append((f"click the centre of hex {board.label(targets[n])} on the picture ({n + 1} of 3)", hot, True))
            tail.append(("Esc: start again  ·  Ctrl+Z: undo an alignment", dim, False))
        if self.tool == "setup" and self.scenario is not None:
            scenario = self.scenario.scenario
            for placement in scenario.placements:
                said = placement.text or f"{len(placement.ids)} {placement.pieces.describe()} on {placement.zone.describe()}"
                tail.append((f"setup: {said}", text, False))
            for constraint in scenario.constraints:
                tail.append((f"limit: {constraint.sentence()}", text, False))
            last = f"{self.last_type[1]}" if self.last_type else "none yet (t: the tray)"
            tail.append((f"counter: {last}; region: {self.pick_of('region') or 'none (F7)'}", dim, False))
            tail.append(("a: add an entry  + / -: its count  c: at most one a hex", dim, False))
        problems = [p for d in self.documents() for p in d.problems]
        if problems:
            tail.append((f"{len(problems)} problem(s), as `tabletop validate` says:", PROBLEM, True))
            tail += [(str(p), PROBLEM, False) for p in problems[:PROBLEMS_SHOWN]]
        else:
            tail.append(("no problems: the files validate" + (", the setup can be done" if self.scenario else ""), theme.LOS_CLEAR, False))
        return head, tools, palette, tail

    def dock(self, app: App) -> list[Section]:
        width = app.layout.inner_width("left")
        head, tools, palette, tail = self.panel_parts()
        height = (
            lines_height(head + tools + tail, width, SMALL) + lines_height(palette, width - SWATCH - 6, SMALL) + 8
        )
        return [Section(SECTION, "Editor  (F1: keys)", "left", 5, height, priority=0)]

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        self.rows, self.clickable, self.boxes = [], [], {}
        body = app.layout.body(SECTION)
        if body is None:
            return
        self.boxes[SECTION] = body
        head, tools, palette, tail = self.panel_parts()
        y = body.y

        def block(lines: Lines, indent: int = 0) -> list[tuple[int, pygame.Rect]]:
            nonlocal y
            rect = pygame.Rect(body.x + indent, y, body.width - indent, body.bottom - y)
            drawn = draw_lines(surface, app.layout, rect, lines, SMALL) if rect.height > 0 else []
            y = drawn[-1][1].bottom if drawn else y
            return drawn

        block(head)
        for i, rect in block(tools):
            self.rows.append((len(self.clickable), rect))
            self.clickable.append(("tool", TOOLS[i]))
        y += 4
        board = self.doc.board
        for i, rect in block(palette, SWATCH + 6):
            key = self.choices()[i]
            self.rows.append((len(self.clickable), rect.inflate(SWATCH + 6, 0).move(-(SWATCH + 6) // 2, 0)))
            self.clickable.append(("pick", key))
            colour = {
                "terrain": lambda k: board.terrain_types[k].colour,
                "feature": lambda k: board.features[k].colour,
                "hexside": lambda k: board.hexsides[k].colour,
            }.get(self.tool)
            if colour is not None:
                swatch = pygame.Rect(body.x + 2, rect.y + 2, SWATCH, SWATCH)
                pygame.draw.rect(surface, theme.hex_colour(colour(key)), swatch)
                pygame.draw.rect(surface, theme.PANEL_DIM, swatch, 1)
        y += 4
        block(tail)

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        s = app.camera.scale
        board = self.doc.board
        for problem in (p for d in self.documents() for p in d.problems):
            for label in LABEL.findall(problem.message):
                try:
                    h = board.hex_of(label)
                except Exception:  # a number that is not a hex of this map
                    continue
                pygame.draw.circle(surface, PROBLEM, app.screen_of(h), s * 0.8, max(2, round(s * 0.08)))
        if self.tool == "hexside" and app.hover is not None and not app.layout.covers(app.mouse):
            other = self.side_at(app, app.hover, app.mouse)
            if other is not None:
                a, b = app.view.shared_edge(app.hover, other)
                p, q = app.camera.to_screen(*a), app.camera.to_screen(*b)
                pygame.draw.line(surface, HOVER, p, q, max(3, round(s * 0.12)))
        if self.tool == "align":
            targets = align_targets(board)
            if len(self.clicks) < len(targets):
                centre = app.screen_of(targets[len(self.clicks)])
                pygame.draw.circle(surface, HOVER, centre, s * 0.5, 2)
            for (_, pixel) in self.clicks:
                world = _world_of_pixel(self.doc, app, pixel)
                x, y = app.camera.to_screen(*world)
                pygame.draw.line(surface, PROBLEM, (x - 8, y), (x + 8, y), 2)
                pygame.draw.line(surface, PROBLEM, (x, y - 8), (x, y + 8), 2)


def _world_of_pixel(doc: MapDocument, app: App, pixel: tuple[float, float]) -> tuple[float, float]:
    """The world point the picture pixel ``pixel`` lies on now (the inverse of
    ``Background.pixel``)."""
    bg = doc.board.background
    assert bg is not None
    fx, fy = app.view.first
    return (fx + (pixel[0] - bg.origin[0]) / bg.scale[0], fy + (pixel[1] - bg.origin[1]) / bg.scale[1])


def open_editor(doc: MapDocument, size: tuple[int, int] = (1280, 800), scenario: ScenarioDocument | None = None) -> App:
    """The table in editing mode on ``doc`` (and ``scenario``, whose pieces are placed
    with the counter tray): the editor, the legend, the log and the minimap, and the
    line-of-sight tools (``l``, ``v``) to check the ground as painted."""
    from .counters import CounterLayer
    from .overlays import Overlays
    from .panels import Panels

    state = MapState.of(doc.board)
    editor = Editor(doc, scenario)
    parts: list[Component] = [editor, Panels(shows=("legend", "log", "minimap", "selection")), Overlays()]
    if scenario is not None:
        parts.append(CounterLayer(scenario_counters(scenario.scenario)))
    app = App(
        state=state,
        title=f"editing {scenario.scenario.name if scenario else doc.board.name}",
        los_policy=FreePlayPolicy.for_map(state),
        move_policy=FreePlayMovePolicy(),
        size=size,
        components=parts,
    )
    editor.show(app)
    app.say(f"editing {doc.path}: F3-F9 choose the tool, 1-9 picks, click or drag paints, Ctrl+S saves")
    if scenario is not None:
        app.say(f"and {scenario.path}: t opens the counter tray to place pieces; F9 sets up zones and limits")
    if doc.problems:
        app.say(f"the file has {len(doc.problems)} problem(s): see the editor panel")
    return app


def with_background(doc: MapDocument, image: Any) -> str:
    """Name ``image`` (a PNG or JPEG) as ``doc``'s background picture, copied beside the
    map unless it is already in the map's folder, laid over the whole grid to begin
    with (the align tool then fits it exactly). What was done, in words; ValueError
    (nothing changed) for a file that cannot be used."""
    import shutil
    from pathlib import Path

    from tabletop.board.model import Background

    from .board_view import load_picture

    source = Path(image).resolve()
    folder = doc.path.parent.resolve()
    if not source.is_file():
        raise ValueError(f"{image}: no such picture file")
    target = source if source.parent == folder else folder / source.name
    if target != source and target.exists():
        raise ValueError(f"{target} already exists and is another file; rename the picture or copy it there yourself")
    try:
        picture = load_picture(Background(source, (0.0, 0.0), (1.0, 1.0)))
    except (pygame.error, OSError) as exc:
        raise ValueError(f"{image}: not a picture pygame can read ({exc}); give a PNG or JPEG") from None
    if target != source:
        shutil.copyfile(source, target)
    view = BoardView(doc.board)
    x0, y0, x1, y1 = view.bounds
    w, h = picture.get_size()
    scale = (w / (x1 - x0), h / (y1 - y0))
    origin = ((view.first[0] - x0) * scale[0], (view.first[1] - y0) * scale[1])
    doc.set_background(target.name, origin, scale)
    copied = f"copied to {target}; " if target != source else ""
    return f"background {target.name}: {copied}laid over the whole grid; F8 (align) fits it exactly"
