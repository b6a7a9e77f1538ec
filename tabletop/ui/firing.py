"""Fire on the map: the preview before a shot, a refused shot's reason, and the last fire.

- Preview (issue 13 finding 11): a friendly unit selected and an enemy hovered, in the
  phase units fire in (or any time with the attack area, ``x``, on): the fire line, the
  range, the table row the rules would use, the chance of each result, the friendly-fire
  radius and who is inside it, and whether the rules allow the shot. All of it is the
  rule system's answer (its optional ``fire_preview(state, firer_id, target_id)`` hook,
  plain data: see ``games/dog_sector/american.fire_preview``); a rule system without the
  hook whose line-of-sight verdict for a firing viewer is a fire verdict
  (``viewer_fires``) gets that verdict as its answer.
- A click on an enemy that the rules refuse to let the selected unit fire at says why
  on the spot, next to the unit, with the rule (the click is the fire's, not a selection).
- The last action, or the automatic step shown while paused (``o`` cycles them), when it
  names a fire (``engine.actions.where``): the firer ringed, a line to the target, and the
  result at the target (the outcome of the roll the action names, in the rules' words),
  over the counters, for a few seconds or until the next action (issue 13 finding 2).
- The last action's other deeds (finding 2): a move drawn along its path (the path the
  action's ``where`` names, else from where the piece stood to where it stands now: a
  generic move names only ``to``), the hexes it placed, hit or missed in ringed: the
  last action highlighted.
- During automatic steps (the rules' own, or a bot's) the camera gently centres the
  action's hexes when they are near the edge or off the view, unless the player has
  panned or zoomed since the phase began (``Follow``).

Decides no rule: it draws what the rule system answers.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import pairwise
from typing import Any, ClassVar

import pygame

from tabletop.engine.actions import Where, where
from tabletop.engine.areas import radius
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import Piece
from tabletop.hexgrid import Hex, LabelError

from . import theme
from .app import App, Component
from .overlays import ATTACK, CASING, _boundary, _target_unit, _text_box, _thick_line, _wrap, place_near

FIRE = (204, 121, 167)  # the fire line and the firer's ring
HIT = theme.LOS_BLOCKED
MISS = theme.PANEL_DIM
OTHER = theme.HIGHLIGHT  # a result that is neither hit nor miss (pinned down)
MOVE = (86, 180, 233)  # a move's path and the hexes the last action placed in
MAX_MOVERS = 8  # more pieces moved by one action (a landing) are ringed, not traced
FOLLOW_RATE = 5.0  # the following camera closes this fraction of the way a second
FOLLOW_MARGIN = 0.18  # hexes within this fraction of the view's edge make it follow
REFUSED = theme.LOS_BLOCKED
SHOW_SECONDS = 4.0  # how long the last fire stays drawn when nothing follows it
CALLOUT_SECONDS = 6.0
CALLOUT_WIDTH = 360  # pixels: a refusal is wrapped to this width next to the unit

SHORTCUTS = [
    ("hover an enemy, unit selected", "fire preview: range, table row, chances, friendly fire"),
    ("click the enemy", "fire, or why the rules refuse it (next to the unit)"),
]

Preview = dict[str, Any]


def fire_answer(app: App, firer: Piece, target: Piece) -> Preview | None:
    """What the rules say of ``firer`` firing at ``target`` now (the preview's plain data,
    see the module doc), or None when they say nothing (no fire between these two)."""
    hook = getattr(app.play.rules, "fire_preview", None)
    if hook is not None:
        found: Preview | None = hook(app.seen_state(), firer.id, target.id)
        return found
    if not getattr(app.los_policy, "viewer_fires", False):
        return None
    query = LosQuery(firer.hex, target.hex, viewer=firer, target_piece=target, conditions=app.conditions)
    try:
        verdict = line_of_sight(app.state, app.los_policy, query)
    except ValueError as exc:  # the rule system refuses this viewer
        return {"range": None, "refusal": str(exc), "now": True, "outcomes": []}
    label = app.board.label
    refusal = "; ".join(
        f"{f.cause}{f' at {label(f.hex)}' if f.hex is not None else ''} ({f.rule})" for f in verdict.blocking
    )
    return {"range": verdict.range, "refusal": refusal or None, "now": True, "outcomes": []}


def fire_line(answer: Preview) -> tuple[str, tuple[int, int, int]]:
    """The one line that says whether the unit may fire (and why not, with the rule)."""
    refusal = answer.get("refusal")
    if refusal:
        return f"may not fire: {refusal}", REFUSED
    if not answer.get("now", True):
        return f"may fire, in {answer.get('when') or 'its fire phase'}", theme.PANEL_TEXT
    return "may fire: click the target to fire", theme.LOS_CLEAR


class Firing(Component):
    """The fire preview, refused-fire callouts and the last fire drawn on the map."""

    shortcuts: ClassVar[list[tuple[str, str]]] = SHORTCUTS

    def __init__(self) -> None:
        self.clock = 0.0
        self.callout: tuple[str, str, float] | None = None  # (unit id, text, shown until)
        self._head: int | None = None  # the entry whose fire is drawn
        self._until = 0.0
        self._answers: tuple[Hashable, Preview | None] | None = None
        self._boxes: dict[str, tuple[Hashable, pygame.Surface]] = {}
        self.boxes: dict[str, pygame.Rect] = {}  # where its boxes went this frame (others avoid them)
        self._radius: tuple[Hashable, Any] | None = None  # the friendly-fire radius's edge, in world units
        self._positions: dict[str, Hex] = {}  # where each piece stood at the entry drawn
        self.moves: list[tuple[str, list[Hex]]] = []  # the last action's moves: (piece, path)
        self.marked: list[tuple[Hex, tuple[int, int, int]]] = []  # hexes it ringed, and how
        self.follow = Follow()

    # --- what to show ---------------------------------------------------------------

    def preview(self, app: App) -> tuple[Piece, Piece, Preview] | None:
        """The selected unit, the hovered enemy and the rules' answer, when one shows."""
        firer = app.selected_piece()
        if firer is None or app.hover is None or app.hover == firer.hex or not firer.side:
            return None
        target = _target_unit(app, app.hover, firer)
        if target is None or not target.side or target.side == firer.side:
            return None
        answer = self._answer(app, firer, target)
        if answer is None or not (answer.get("now", True) or app.overlays.get(ATTACK)):
            return None
        return firer, target, answer

    def _answer(self, app: App, firer: Piece, target: Piece) -> Preview | None:
        game = app.play
        key = (firer, target, id(game.state), game.state.map.version, game.head, len(game.entries))
        if self._answers is None or self._answers[0] != key:
            self._answers = (key, fire_answer(app, firer, target))
        return self._answers[1]

    def shown_fires(self, app: App) -> list[tuple[Where, str | None]]:
        """The fires to draw: the last action's while it is fresh, with its result (the
        outcome of its roll), and the step shown while paused (the rules' own, or the
        override ``o`` picked), not yet rolled (result None)."""
        out: list[tuple[Where, str | None]] = []
        game = app.play
        if game.head >= 0 and self.clock <= self._until:
            entry = game.entries[game.head]
            for fire in (w for w in entry.happenings() if w.kind == "fire"):
                result = "played"
                if fire.result is not None:
                    result = fire.result
                elif fire.roll is not None and fire.roll < len(entry.rolls):
                    roll = entry.rolls[fire.roll]
                    result = f"{' '.join(map(str, roll.result))}: {roll.outcome}"
                out.append((fire, result))
        panel = next((c for c in app.components if hasattr(c, "alternatives") and hasattr(c, "paused")), None)
        if panel is not None and panel.paused:  # the game panel (gameplay.py) shows this step
            alts = panel.alternatives(app)
            pick = getattr(panel, "override", 0)
            if alts:
                shown = alts[pick] if pick < len(alts) else alts[0]
                aimed = next((w for w in where(shown) if w.kind == "fire"), None)
                if aimed is not None:
                    out.append((aimed, None))
        return out

    # --- events and clock -----------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
            return False
        firer = app.selected_piece()
        h = app.hex_at_screen(*event.pos)
        if firer is None or h is None or h == firer.hex or not firer.side:
            return False
        target = _target_unit(app, h, firer)
        if target is None or not target.side or target.side == firer.side:
            return False
        answer = self._answer(app, firer, target)
        if answer is None or not answer.get("now", True) or not answer.get("refusal"):
            return False  # a legal fire is the game panel's (it plays it); else a selection
        text = f"{firer.id} may not fire at {target.id}: {answer['refusal']}"
        self.callout = (firer.id, text, self.clock + CALLOUT_SECONDS)
        app.say(text)
        return True

    def update(self, app: App, dt: float) -> None:
        self.clock += dt
        head = app.play.head
        automatic = self.follow.automatic
        if head != self._head:  # a new action (or undo): its fire, if any, is fresh
            parent = app.play.entries[head].parent if head >= 0 else None
            self._deeds(app, fresh=parent is not None and parent == self._head)
            self._head = head
            self._until = self.clock + SHOW_SECONDS
            self.callout = None
            if automatic and self._head >= 0:
                self.follow.aim(app, self._action_hexes(app))
        self.follow.update(app, dt)
        if self.callout is not None and self.clock > self.callout[2]:
            self.callout = None

    def _deeds(self, app: App, *, fresh: bool) -> None:
        """What the action now at the head did, for drawing: its moves (the path its
        ``where`` names, else from the piece's hex before to its hex now) and the hexes
        it placed in, hit or missed. Only for an action played after the one drawn
        (``fresh``): an undo or a jump shows nothing."""
        now = {p.id: p.hex for p in app.state.pieces()}
        before, self._positions = self._positions, now
        self.moves, self.marked = [], []
        head = app.play.head
        if not fresh or head < 0:
            return
        said = app.play.entries[head].happenings()
        for w in said:
            hexes = self._hexes(app, w.hexes)
            if w.kind == "move" and len(hexes) >= 2:
                self.moves.append((w.units[0] if w.units else "", hexes))
            elif w.kind in ("place", "hit", "miss", "remove"):
                colour = {"hit": HIT, "miss": MISS, "remove": HIT}.get(w.kind, MOVE)
                self.marked += [(h, colour) for h in hexes]
        if any(w.kind == "move" for w in said):
            return
        moved = [(pid, [before[pid], h]) for pid, h in now.items() if pid in before and before[pid] != h]
        if len(moved) <= MAX_MOVERS:
            self.moves += moved
        else:
            self.marked += [(path[-1], MOVE) for _, path in moved]
        placed = [h for pid, h in now.items() if pid not in before]
        self.marked += [(h, MOVE) for h in dict.fromkeys(placed)]

    def _action_hexes(self, app: App) -> list[Hex]:
        """Every hex the last action happened in (for the following camera)."""
        out = [h for _, path in self.moves for h in path] + [h for h, _ in self.marked]
        if app.play.head >= 0:
            for w in app.play.entries[app.play.head].happenings():
                out += self._hexes(app, w.hexes)
        return out

    def wake_in(self, app: App) -> float | None:
        """A frame now while the camera glides toward the action."""
        return 0.0 if self.follow.target is not None else None

    # --- drawing --------------------------------------------------------------------

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        self.boxes = {}
        if app.play.head == self._head and self.clock <= self._until:
            self._draw_deeds(surface, app)
        for n, (fire, result) in enumerate(reversed(self.shown_fires(app))):  # the played one's on top
            self._draw_fire(surface, app, fire, result, f"result{n}" if n else "result")
        found = self.preview(app)
        if found is not None:
            self._draw_preview(surface, app, *found)
        if self.callout is not None:
            self._draw_callout(surface, app)

    def _hexes(self, app: App, labels: tuple[str, ...]) -> list[Hex]:
        out = []
        for text in labels:
            try:
                h = app.board.hex_of(text)
            except LabelError:
                continue
            if app.board.grid.contains(h):
                out.append(h)
        return out

    def _draw_deeds(self, surface: pygame.Surface, app: App) -> None:
        """The last action's moves along their paths, and the hexes it ringed."""
        s = app.camera.scale
        width = max(3, round(s * 0.1))
        for _, path in self.moves:
            points = [app.screen_of(h) for h in path]
            for a, b in pairwise(points[:-1]):
                _thick_line(surface, CASING, a, b, width + 4, caps=True)
                _thick_line(surface, MOVE, a, b, width, caps=True)
            _arrow(surface, points[-2], points[-1], width, MOVE, gap=s * 0.45)
            _ring(surface, points[-1], s * 0.85, width, MOVE)
        for h, colour in self.marked:
            _ring(surface, app.screen_of(h), s * 0.85, width, colour)

    def _draw_fire(
        self, surface: pygame.Surface, app: App, fire: Where, result: str | None, name: str = "result"
    ) -> None:
        """One fire: each firer ringed with an arrow to the target (a dashed aim for the
        step not yet played), and the result boxed at the target as ``name``."""
        hexes = self._hexes(app, fire.hexes)
        if len(hexes) < 2:
            return
        firers, b = [app.screen_of(h) for h in dict.fromkeys(hexes[:-1])], app.screen_of(hexes[-1])
        s = app.camera.scale
        width = max(3, round(s * 0.1))
        for a in firers:
            _ring(surface, a, s * 0.85, width, FIRE)
            if result is None:  # the step about to be played: a dashed aim, no result yet
                _dashed(surface, a, b, width, FIRE, gap=s * 0.5)
            else:
                _arrow(surface, a, b, width, FIRE, gap=s * 0.5)
        if result is None:
            _ring(surface, b, s * 0.6, max(2, width - 1), FIRE)
            return
        colour = _result_colour(result)
        _ring(surface, b, s * 0.6, width, colour)
        if "hit" in result.split(":", 1)[-1] and colour == HIT:
            _burst(surface, b, s * 0.45, width, colour)
        img = self._box(name, (result, colour), [(result, colour)], colour)
        self.boxes[name] = _blit_near(surface, app, img, b, s * 0.7)

    def _draw_preview(
        self, surface: pygame.Surface, app: App, firer: Piece, target: Piece, answer: Preview
    ) -> None:
        a, b = app.screen_of(firer.hex), app.screen_of(target.hex)
        s = app.camera.scale
        width = max(3, round(s * 0.08))
        refused = bool(answer.get("refusal"))
        colour = REFUSED if refused else FIRE
        _dashed(surface, a, b, width, colour, gap=s * 0.45)
        _ring(surface, b, s * 0.62, width, colour)
        ff = answer.get("friendly_fire")
        if ff:
            self._draw_radius(surface, app, target.hex, int(ff.get("radius") or 0))
            for h in self._hexes(app, tuple(ff.get("hexes", ()))):
                _ring(surface, app.screen_of(h), s * 0.8, max(3, width), theme.HIGHLIGHT)
        lines = self._preview_lines(app, firer, target, answer)
        img = self._box("preview", tuple(lines), lines, colour)
        self.boxes["preview"] = _blit_near(surface, app, img, b, s * 0.7, above=True)  # the thread's: below

    def _draw_radius(self, surface: pygame.Surface, app: App, centre: Hex, size: int) -> None:
        """The edge of the rules' friendly-fire radius around the target (areas.radius)."""
        if size <= 0:
            return
        key = (centre, size, id(app.board))
        if self._radius is None or self._radius[0] != key:
            self._radius = (key, _boundary(app, set(radius(centre, size, board=app.board))))
        width = max(2, round(app.camera.scale * 0.06))
        for (x0, y0), (x1, y1) in self._radius[1].tolist():
            p, q = app.camera.to_screen(x0, y0), app.camera.to_screen(x1, y1)
            _thick_line(surface, CASING, p, q, width + 3, caps=True)
            _thick_line(surface, theme.HIGHLIGHT, p, q, width, caps=True)

    def _preview_lines(
        self, app: App, firer: Piece, target: Piece, answer: Preview
    ) -> list[tuple[str, tuple[int, int, int]]]:
        label = app.board.label
        rng = answer.get("range")
        head = f"FIRE {firer.type} {firer.id} ({label(firer.hex)}) -> {target.type} {target.id} ({label(target.hex)})"
        lines = [(head + (f"   range {rng}" if rng is not None else ""), FIRE)]
        if answer.get("row"):
            lines.append((f"{answer.get('table', 'table')}: {answer['row']}", theme.PANEL_TEXT))
        for o in answer.get("outcomes", ()):
            chance = float(o.get("chance", 0.0))
            lines.append((f"  {o.get('faces', '')}: {o.get('result', '')}   {chance:.0%}", theme.PANEL_TEXT))
        ff = answer.get("friendly_fire")
        if ff:
            who = ", ".join(ff.get("units", ())) or "nobody"
            where_ = ", ".join(ff.get("hexes", ()))
            inside = f"{who} in {where_}" if ff.get("hexes") else "no American unit inside"
            lines.append(
                (f"friendly fire within {ff.get('radius')} ({ff.get('rule')}): {inside}", theme.HIGHLIGHT)
            )
        lines.append(fire_line(answer))
        return lines

    def _draw_callout(self, surface: pygame.Surface, app: App) -> None:
        assert self.callout is not None
        unit_id, text, _ = self.callout
        try:
            unit = app.state.piece(unit_id)
        except KeyError:
            return
        c = app.screen_of(unit.hex)
        img = self._box("callout", text, [(text, REFUSED)], REFUSED, width=CALLOUT_WIDTH)
        self.boxes["callout"] = _blit_near(surface, app, img, c, app.camera.scale * 0.7, above=True)

    def _box(
        self,
        name: str,
        key: Hashable,
        lines: list[tuple[str, tuple[int, int, int]]],
        border: tuple[int, int, int],
        width: int = 0,
    ) -> pygame.Surface:
        cached = self._boxes.get(name)
        if cached is None or cached[0] != key:
            if width:
                lines = [(part, colour) for text, colour in lines for part in _wrap(text, width)]
            cached = self._boxes[name] = (key, _text_box(lines, border))
        return cached[1]


class Follow:
    """The camera following automatic steps (issue 13 finding 2): it glides to centre an
    action's hexes when they lie near the edge of the view or off it, unless the player
    has panned or zoomed since the phase began (then it stays where the player put it).
    ``automatic`` says whether the game's next step is not a person's (the rules' own
    step, or a side a bot plays), as last seen."""

    def __init__(self) -> None:
        self.target: tuple[float, float] | None = None
        self.taken = False  # the player moved the camera during this phase
        self.automatic = False
        self._phase: tuple[int, str] | None = None
        self._left: tuple[tuple[float, float], float] | None = None  # the camera as it left it
        self._game: Hashable = None

    def aim(self, app: App, hexes: list[Hex]) -> None:
        if self.taken or not hexes:
            return
        cam = app.camera
        inside = [app.screen_of(h) for h in hexes]
        mx, my = cam.width * FOLLOW_MARGIN, cam.height * FOLLOW_MARGIN
        if all(mx <= x <= cam.width - mx and my <= y <= cam.height - my for x, y in inside):
            return  # in plain view: the camera stays still
        points = [app.view.center(h) for h in hexes]
        self.target = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))

    def update(self, app: App, dt: float) -> None:
        cam, game = app.camera, app.play
        phase = (game.state.turn, game.state.phase)
        if phase != self._phase:
            self._phase, self.taken = phase, False
        elif self._left is not None and (cam.center, cam.zoom) != self._left:
            self.taken, self.target = True, None  # the player took the camera
        if self.target is not None:
            (cx, cy), (tx, ty) = cam.center, self.target
            k = min(1.0, dt * FOLLOW_RATE)
            if abs(tx - cx) * cam.scale < 1 and abs(ty - cy) * cam.scale < 1:
                cam.center, self.target = self.target, None
            else:
                cam.center = (cx + (tx - cx) * k, cy + (ty - cy) * k)
        self._left = (cam.center, cam.zoom)
        key = (id(game.state), game.head, len(game.entries))
        if key != self._game:
            self._game = key
            actor = game.actor()
            self.automatic = actor == "auto" or (actor is not None and actor in app.seats)


# --- drawing helpers ------------------------------------------------------------------


def _result_colour(result: str) -> tuple[int, int, int]:
    """Hit, miss or something else, read from the rules' own word for the result."""
    words = result.split(":", 1)[-1].replace(",", " ").replace("(", " ").split()
    if "miss" in words:
        return MISS
    if "hit" in words:
        return HIT
    return OTHER


def _ring(
    surface: pygame.Surface, c: tuple[float, float], r: float, width: int, colour: tuple[int, ...]
) -> None:
    pygame.draw.circle(surface, CASING, c, r + 2, width + 4)
    pygame.draw.circle(surface, colour, c, r, width)


def _direction(a: tuple[float, float], b: tuple[float, float], gap: float) -> tuple[float, float, float] | None:
    """The unit vector from ``a`` to ``b`` and their distance, or None when the two
    are too close for a line that keeps ``gap`` clear of each end."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = (dx * dx + dy * dy) ** 0.5
    if n <= gap * 2:
        return None
    return dx / n, dy / n, n


def _arrow(
    surface: pygame.Surface,
    a: tuple[float, float],
    b: tuple[float, float],
    width: int,
    colour: tuple[int, ...],
    *,
    gap: float,
) -> None:
    """A line from ``a`` to ``b`` stopping ``gap`` short of ``b``, with a head there."""
    along = _direction(a, b, gap)
    if along is None:
        return
    ux, uy, _ = along
    start = (a[0] + ux * gap, a[1] + uy * gap)
    tip = (b[0] - ux * gap, b[1] - uy * gap)
    size = width * 3.2
    base = (tip[0] - ux * size, tip[1] - uy * size)
    head = [
        tip,
        (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6),
        (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6),
    ]
    _thick_line(surface, CASING, start, base, width + 4, caps=True)
    pygame.draw.polygon(surface, CASING, head, 0)
    pygame.draw.polygon(surface, CASING, head, 4)
    _thick_line(surface, colour, start, base, width, caps=True)
    pygame.draw.polygon(surface, colour, head, 0)


def _dashed(
    surface: pygame.Surface,
    a: tuple[float, float],
    b: tuple[float, float],
    width: int,
    colour: tuple[int, ...],
    *,
    gap: float,
) -> None:
    """A dashed line: a shot not yet fired."""
    along = _direction(a, b, gap)
    if along is None:
        return
    ux, uy, n = along
    dash = max(8.0, width * 3.0)
    t = gap
    while t < n - gap:
        end = min(t + dash, n - gap)
        p, q = (a[0] + ux * t, a[1] + uy * t), (a[0] + ux * end, a[1] + uy * end)
        _thick_line(surface, CASING, p, q, width + 4, caps=True)
        _thick_line(surface, colour, p, q, width, caps=True)
        t += dash * 1.8


def _burst(
    surface: pygame.Surface, c: tuple[float, float], r: float, width: int, colour: tuple[int, ...]
) -> None:
    """Eight short spokes: a hit."""
    for i in range(8):
        ux, uy = _SPOKES[i]
        p, q = (c[0] + ux * r * 0.35, c[1] + uy * r * 0.35), (c[0] + ux * r, c[1] + uy * r)
        _thick_line(surface, CASING, p, q, width + 4, caps=True)
        _thick_line(surface, colour, p, q, width, caps=True)


_SPOKES = [
    (1, 0),
    (0.7071, 0.7071),
    (0, 1),
    (-0.7071, 0.7071),
    (-1, 0),
    (-0.7071, -0.7071),
    (0, -1),
    (0.7071, -0.7071),
]


def _blit_near(
    surface: pygame.Surface,
    app: App,
    img: pygame.Surface,
    at: tuple[float, float],
    off: float,
    *,
    above: bool = False,
) -> pygame.Rect:
    """``img`` beside the point ``at``, inside the window and clear of the other boxes;
    returns where it went."""
    rect = pygame.Rect(place_near(surface, app, img.get_size(), at, off, above=above), img.get_size())
    surface.blit(img, rect)
    return rect
