"""What Dogs of War adds to the window: a model sheet for the selected model (stats, AP
left, HP, wounds, ammunition and grenades) and, for a model of the side at the screen,
the to-hit number and its parts against each enemy it may fire at now, from the same
``combat.to_hit`` the shot is rolled with (issue 16 item 9). Overlays: the models on
op-fire of the side at the screen and the hexes they watch.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Panel, Row, Seen, state_of
from tabletop.engine.game import SideView
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, hexes_within

from . import combat, ruleset
from .combat import num

WOUND_WORDS = ("bleeding", "medical", "severely-wounded", "immobilized", "unconscious", "one-action",
               "one-handed", "stabilized", "broken", "op-fire", "prone", "dead", "high")  # fmt: skip


class DogsOfWarExtras(NoExtras):
    """The model sheet, the to-hit odds and the op-fire watch."""

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        state = state_of(seen)
        piece = _unit(state, selected)
        if piece is None or piece.attr("faction") is None:
            names = state.marks.get("rosters")
            return (Panel("rosters", "Rosters (army building)", roster_rows(names)),) if names else ()
        out = [Panel("sheet", f"Model sheet: {piece.id}", sheet_rows(piece))]
        if not isinstance(seen, SideView) or piece.side == seen.side:
            out.append(Panel("to-hit", f"To hit: {piece.id}", odds_rows(state, piece)))
        return out

    def components(self) -> list[object]:
        """The window's own parts this game adds (ui.table.add_parts): the roster
        builder dialog (F10)."""
        from .builder_window import components

        return list(components())

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        state = state_of(seen)
        if ruleset.free_play(state):
            return ()
        side = seen.side if isinstance(seen, SideView) else None
        return tuple(op_fire_watch(state, s) for s in ((side,) if side else ruleset.SIDES))


def roster_rows(names: Sequence[str]) -> list[Row]:
    """Each side's roster (BUILDING PHASE l.167): its points against the budget, its
    teams, what each faction's list refuses (fixed weapons, a bloc it may not buy) and
    every problem ``roster.check`` finds, in its own words (issue 16 item 2)."""
    from . import roster
    from .data import data

    rows: list[Row] = []
    for side, name in zip(ruleset.SIDES, names, strict=False):
        r = roster.load(name)
        problems = roster.check(r, name)
        spent = "?" if problems else str(roster.cost(r))
        rows.append(Row(f"{side}: {r.get('name', name)}", "strong"))
        rows.append(
            Row(
                f"{spent} of {r.get('budget')} points ({roster.path_of(name).name})",
                "bad" if problems else "good",
            )
        )
        for team in r.get("teams") or ():
            f = data().factions.get(str(team.get("faction")))
            if f is None:
                continue
            refuses = []
            if f.weapons_fixed and not team.get("upgrade"):
                refuses.append("weapons the list does not offer")
            if f.excluded_blocs:
                refuses.append(f"no {', '.join(sorted(f.excluded_blocs))} weapons")
            rows.append(Row(f"team {team.get('id', f.key)}: {f.name}, {f.points} points ({f.lines})"))
            if refuses:
                rows.append(Row(f"refused: {'; '.join(refuses)}", "dim"))
        rows += [Row(f"refused: {p}", "bad") for p in problems]
    rows.append(Row("build or edit one: F10 (or python -m tabletop.games.dogs_of_war.roster)", "dim"))
    return rows


def _unit(state: GameState, piece_id: str | None) -> Piece | None:
    if piece_id is None:
        return None
    try:
        piece = state.map.piece(piece_id)
    except KeyError:
        return None
    return piece if piece.kind == "unit" else None


def sheet_rows(piece: Piece) -> list[Row]:
    """The model's stats and state (ABILITIES l.95-150; DAMAGE DEFINITIONS l.473)."""
    stats = " ".join(f"{k.upper()} {num(piece, k)}" for k in ("wp", "wk", "cq", "st", "ft", "ml", "cc"))
    rows = [
        Row(f"{piece.attr('faction')} {piece.attr('role')} (team {piece.attr('team')})", "strong"),
        Row(stats),
        Row(f"HP {num(piece, 'hp')} of {num(piece, 'hp-max')}   AP left {num(piece, 'ap')}", "strong"),
        Row(f"armour: head {num(piece, 'ar-head')}, chest and stomach {num(piece, 'ar-body')}"),
        Row(f"weapon: {piece.attr('weapon')}, {num(piece, 'ammo')} rounds"),
    ]
    if piece.attr("launcher"):
        rows.append(Row(f"launcher: {piece.attr('launcher')}, {num(piece, 'rounds')} rounds"))
    grenades = ruleset.grenades_of(piece)
    if grenades:
        rows.append(Row("grenades: " + ", ".join(f"{n} {k}" for k, n in grenades.items())))
    words = [w for w in WOUND_WORDS if piece.has(w)]
    lost = num(piece, "hp-max") - num(piece, "hp")
    if lost > 0:
        words.insert(0, f"wounded (-{lost} HP)")
    rows.append(Row("state: " + (", ".join(words) if words else "unhurt"), "bad" if words else "dim"))
    return rows


def odds_rows(state: GameState, piece: Piece) -> list[Row]:
    """Each enemy the model may fire at now, with the to-hit number and its parts for
    each mode (the chance of one die hitting)."""
    rows: list[Row] = []
    if not ruleset.able(piece) or ruleset.free_play(state):
        return [Row("cannot fire now", "dim")]
    w = ruleset.weapon_of(piece)
    first = ruleset.priority(state, piece)
    if first:
        rows.append(Row(f"priority targets within 10 in: {', '.join(p.id for p in first)} (l.319)", "bad"))
    targets = ruleset.targets(state, piece, w.max_range)
    for t in sorted(targets, key=lambda t: (distance(piece.hex, t.hex), t.id)):
        for mode in w.modes:
            o = combat.to_hit(state, piece, t, w, mode)
            parts = ", ".join(f"{k} {v:+d}" for k, v in o.parts[1:])
            cover = f"; {o.cover} cover roll" if o.cover else ""
            rows.append(
                Row(
                    f"{t.id} {mode.upper()}: {o.need} or less ({o.chance:.0%} a die) = WP {o.parts[0][1]} {parts}{cover}"
                )
            )
    if not targets:
        rows.append(Row("no enemy in range and in sight", "dim"))
    return rows


def op_fire_watch(state: GameState, side: str) -> Overlay:
    """The hexes within range of a model of ``side`` on op-fire (l.231): an enemy acting
    there may be fired on (sight is checked when he acts)."""
    watched: dict[Hex, int] = {}
    for p in ruleset.models(state, side):
        if not p.has(combat.OP_FIRE):
            continue
        for h in hexes_within(p.hex, min(ruleset.weapon_of(p).max_range, 24)):
            if h != p.hex and state.board.grid.contains(h):
                watched[h] = watched.get(h, 0) + 1
    marks = tuple(
        Mark(h, "bad", str(n)) for h, n in sorted(watched.items(), key=lambda kv: (kv[0].q, kv[0].r))
    )
    legend = [LegendEntry("bad", "within range of this many models on op-fire (l.231)")]
    if not marks:
        legend.append(LegendEntry(None, f"no {side} model is on op-fire"))
    return Overlay(f"op-fire-{side}", f"Op-fire: {side}", tuple(legend), marks)


def extras() -> DogsOfWarExtras:
    return DogsOfWarExtras()
