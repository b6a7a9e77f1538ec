"""What Dogfaces in Space adds to the window and to ``tabletop reach``.

- Larry's jet-pack landing hexes (II, Charlie) as extra moves, beside the walk his move
  policy reaches (``movement.jet_pack_targets``: 4-5 hexes in a straight line over any
  terrain; each landing hex comes with the note of its flight as the reason shown).
- An attack preview for the selected soldier (issue 14 item 5): each enemy he may shoot
  now, per weapon, with the exact chance of each result of the VI table from the same
  ``combat.odds`` the attack is rolled with.
- Overlays: the weapon ranges of the side at the screen (how many of its soldiers reach
  each hex) and the overwatch arcs (the hexes a soldier on Overwatch would fire into
  during the enemy's move, V).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Panel, Row, Seen, state_of
from tabletop.engine.game import SideView
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, hexes_within

from . import combat, ruleset
from .movement import has_jet_pack, jet_pack_targets

RESULTS = ("St", "R2", "R2S", "OOC")


class DogfacesExtras(NoExtras):
    """The jet pack, the attack preview, weapon ranges and overwatch arcs."""

    def extra_moves(self, state: MapState, piece: Piece) -> Mapping[Hex, str]:
        if piece.kind != "unit" or not has_jet_pack(piece):
            return {}
        return jet_pack_targets(state, piece)

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        state = state_of(seen)
        piece = _unit(state, selected)
        if piece is None or not _mine(seen, piece):
            return ()
        return (Panel("attack", f"Attack preview: {piece.id}", attack_rows(state, piece)),)

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        state = state_of(seen)
        side = seen.side if isinstance(seen, SideView) else ruleset.phase_side(state)
        if side is None:
            return ()
        return (weapon_ranges(state, side), overwatch_arcs(state, side))


def _unit(state: GameState, piece_id: str | None) -> Piece | None:
    if piece_id is None:
        return None
    try:
        piece = state.map.piece(piece_id)
    except KeyError:
        return None
    return piece if piece.kind == "unit" and piece.side is not None else None


def _mine(seen: Seen, piece: Piece) -> bool:
    """Only the side at the screen gets its own soldiers' previews (a two-sided game)."""
    return not isinstance(seen, SideView) or piece.side == seen.side


def attack_rows(state: GameState, piece: Piece) -> list[Row]:
    """The selected soldier's shots now: per weapon its range and damage, then each enemy
    in range and sight with the chance of each result if he fires alone (VI: the shots
    of every shooter at one target are summed, so a joint attack does better)."""
    rows: list[Row] = []
    enemies = ruleset.units(state, ruleset.other(str(piece.side)))
    can = ruleset.can_shoot(state, piece)
    if not can:
        rows.append(Row("cannot shoot now: stunned, aboard an LCV, or he fired on Overwatch (II, V)", "bad"))
    free = set(ruleset.free_weapons(state, piece)) if can else set()
    for i, weapon in enumerate(ruleset.weapons_of(piece)):
        used = "" if i in free or not can else " (used this turn)"
        rows.append(
            Row(f"{weapon.name}: range {weapon.nearest}-{weapon.farthest}, {weapon.damage} damage{used}", "strong")
        )
        for enemy in sorted(enemies, key=lambda e: (distance(piece.hex, e.hex), e.id)):
            d = distance(piece.hex, enemy.hex)
            if not weapon.nearest <= d <= weapon.farthest or not ruleset.targetable(state, enemy):
                continue
            if not ruleset.sees(state.map, piece.hex, enemy.hex):
                continue
            strike, target = ruleset.strike_of(state, piece, weapon, enemy.hex), ruleset.target_of(state, enemy)
            chances = combat.odds([strike], target)
            text = ", ".join(f"{k} {float(chances[k]):.0%}" for k in RESULTS if chances[k])
            where = f"  {enemy.id} at {state.board.label(enemy.hex)} (range {d}, {_columns(strike, target)})"
            rows.append(Row(f"{where}: {text or 'no effect'}"))
            if weapon.splash:
                near = sorted(p.id for p in ruleset.units(state) if distance(p.hex, enemy.hex) == 1)
                rows.append(Row(f"    splash (VI, 1 point each): {', '.join(near) or 'nobody next to him'}", "dim"))
    if len(rows) == len(ruleset.weapons_of(piece)) + (0 if can else 1):
        rows.append(Row("no enemy in range and in sight", "dim"))
    rows.append(Row("one shooter alone; shots at one target are summed (VI)", "dim"))
    return rows


def _columns(strike: combat.Strike, target: combat.Target) -> str:
    """The Combat Table column(s) the shot alone lands in (VI: damage points, shifted by
    the target's hex and kind, at most 7); "no column" when no point gets through."""
    shift = combat.strength_shift(target)
    columns = sorted({min(7, p + shift) for p in combat.points_distribution([strike], target) if p + shift >= 1})
    if not columns:
        return "no column"
    return f"column {columns[0]}" if len(columns) == 1 else f"columns {columns[0]}-{columns[-1]}"


def weapon_ranges(state: GameState, side: str) -> Overlay:
    """Every hex some soldier of ``side`` can shoot into with a weapon, labelled with
    how many can (range and sight, V and VI; weapons fire all round)."""
    counts: dict[Hex, int] = {}
    for piece in ruleset.units(state, side):
        reach: set[Hex] = set()
        for weapon in ruleset.weapons_of(piece):
            for h in hexes_within(piece.hex, weapon.farthest):
                fresh = h not in reach and state.board.grid.contains(h) and distance(piece.hex, h) >= weapon.nearest
                if fresh and ruleset.sees(state.map, piece.hex, h):
                    reach.add(h)
        for h in reach:
            counts[h] = counts.get(h, 0) + 1
    marks = tuple(Mark(h, "info", str(n)) for h, n in sorted(counts.items(), key=lambda kv: (kv[0].q, kv[0].r)))
    return Overlay(
        "ranges",
        f"Weapon ranges: {side}",
        (LegendEntry("info", "in range and sight of this many of your soldiers (V, VI)"),),
        marks,
    )


def overwatch_arcs(state: GameState, side: str) -> Overlay:
    """The hexes a soldier of ``side`` on Overwatch fires into when an enemy moves there
    (V: all round, within his weapons' range and sight)."""
    covered: dict[Hex, list[str]] = {}
    for piece in ruleset.units(state, side):
        if not piece.has(ruleset.OVERWATCH):
            continue
        farthest = max((w.farthest for w in ruleset.weapons_of(piece)), default=0)
        for h in hexes_within(piece.hex, farthest):
            if h != piece.hex and state.board.grid.contains(h) and ruleset.sees(state.map, piece.hex, h):
                covered.setdefault(h, []).append(piece.id)
    marks = tuple(Mark(h, "bad", str(len(ids))) for h, ids in sorted(covered.items(), key=lambda kv: (kv[0].q, kv[0].r)))
    legend = [LegendEntry("bad", "an enemy moving here is fired on by this many soldiers on Overwatch (V)")]
    if not marks:
        legend.append(LegendEntry(None, f"no {side} soldier is on Overwatch"))
    return Overlay("overwatch", f"Overwatch arcs: {side}", tuple(legend), marks)


def extras() -> DogfacesExtras:
    return DogfacesExtras()
