"""DOG SECTOR hits: what one hit does to a unit of either side, and pinning down.

Knows the step and status changes a hit makes (reduce a step, immobilize, eliminate),
which unit types take which (``hits.yaml`` beside this module, with the project's
choices where the player aid is silent), the box eliminated units go to, and the
per-turn ``targeted`` mark a surviving unit gets (phase 4: reduced, immobilized and
pinned down units cannot be targeted again in the same turn). ``pin`` pins down every
American unit in a hex (Table 4 "Pinned Down").

Knows nothing of dice, tables of fire or who fired: callers roll and then call ``hit``
or ``pin`` with a ``cause`` in words, which goes into the returned log lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from tabletop.datareader import Reader
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex
from tabletop.yamlfile import read_yaml

DATA = Path(__file__).with_name("hits.yaml")
AMERICAN = "american"

Effect = Literal["reduce", "immobilize", "eliminate"]
EFFECTS: tuple[Effect, ...] = ("reduce", "immobilize", "eliminate")


@dataclass(frozen=True)
class UnitHit:
    """What a hit does to one unit type: ``effect``, and its full strength in steps."""

    effect: Effect
    steps: int = 1


@dataclass(frozen=True)
class HitTables:
    """Everything ``hits.yaml`` holds, validated."""

    dead_box: str
    targeted_mark: str
    immobilized_status: str
    pinned_status: str
    others: Mapping[str, UnitHit]  # side -> the effect for unlisted types
    types: Mapping[str, Mapping[str, UnitHit]]  # side -> unit type -> effect

    def of(self, side: str | None, unit_type: str) -> UnitHit:
        """The hit effect for a unit of ``side`` and ``unit_type``; ValueError for a side
        the table does not know."""
        if side is None or side not in self.types:
            raise ValueError(f"no DOG SECTOR hit effects for side {side!r} (known: {', '.join(self.types)})")
        return self.types[side].get(unit_type, self.others[side])


class _Reader(Reader):
    def unit_hit(self, node: Any, where: str, line: int | None) -> UnitHit:
        node = self.mapping(node, where, line, ("effect", "steps"), ("effect",))
        effect = node["effect"]
        if effect not in EFFECTS:
            raise self.error(node.key_lines["effect"], f"{where}.effect must be one of {', '.join(EFFECTS)}")
        steps = self.whole_in(node, "steps", where, 2) if effect == "reduce" else 1
        if effect != "reduce" and "steps" in node:
            raise self.error(node.key_lines["steps"], f"{where}: only `effect: reduce` takes steps")
        return UnitHit(effect, steps)

    def tables(self) -> HitTables:
        keys = ("dead_box", "targeted_mark", "immobilized_status", "pinned_status", "sides")
        top = self.mapping(self.data, "the file", 1, keys, keys)
        sides = self.mapping(top["sides"], "sides", top.key_lines["sides"])
        others: dict[str, UnitHit] = {}
        types: dict[str, Mapping[str, UnitHit]] = {}
        for side, node in sides.items():
            where = f"sides.{side}"
            node = self.mapping(node, where, sides.key_lines[side], ("others", "types"), ("others", "types"))
            effect = node["others"]
            if effect not in ("immobilize", "eliminate"):
                raise self.error(node.key_lines["others"], f"{where}.others must be immobilize or eliminate")
            others[side] = UnitHit(effect)
            table = self.mapping(node["types"], f"{where}.types", node.key_lines["types"])
            types[side] = MappingProxyType(
                {t: self.unit_hit(v, f"{where}.types.{t}", table.key_lines[t]) for t, v in table.items()}
            )
        return HitTables(
            dead_box=self.word_in(top, "dead_box", "the file"),
            targeted_mark=self.word_in(top, "targeted_mark", "the file"),
            immobilized_status=self.word_in(top, "immobilized_status", "the file"),
            pinned_status=self.word_in(top, "pinned_status", "the file"),
            others=MappingProxyType(others),
            types=MappingProxyType(types),
        )


def read_tables(path: Path) -> HitTables:
    """Read and validate a ``hits.yaml``; DataError names the line of any problem."""
    return _Reader(path, read_yaml(path), line=1).tables()


@cache
def tables() -> HitTables:
    """The shipped ``hits.yaml`` beside this module, read once."""
    return read_tables(DATA)


# ------------------------------------------------------------------------ the queries


def full_steps(piece: Piece) -> int:
    """The steps of a fresh counter of ``piece``'s side and type (1 for one-step units)."""
    return tables().of(piece.side, piece.type).steps


def is_reduced(piece: Piece) -> bool:
    """Whether ``piece`` has lost a step (fewer steps than a fresh counter)."""
    return piece.steps < full_steps(piece)


def describe(state: GameState, piece: Piece) -> str:
    """A unit in words for the log: ``infantry A3 at 0703``."""
    return f"{piece.side} {piece.type} {piece.id} at {state.board.label(piece.hex)}"


# ------------------------------------------------------------------------ the changes


def eliminate(state: GameState, unit_id: str, cause: str) -> list[str]:
    """Take a unit off the map into the dead box; returns the log line."""
    t = tables()
    piece = state.map.piece(unit_id)
    state.to_box(unit_id, t.dead_box)
    return [f"{describe(state, piece)} is eliminated ({cause})"]


def hit(state: GameState, unit_id: str, cause: str) -> list[str]:
    """One hit on a unit of either side, per ``hits.yaml``: a step lost (eliminated with
    none left), immobilized (eliminated if it already was) or eliminated. A unit that
    survives is marked ``targeted`` for the turn. Returns what happened in words."""
    t = tables()
    piece = state.map.piece(unit_id)
    if piece.kind != "unit":
        raise ValueError(f"{unit_id!r} is a marker, not a unit: markers take no hits")
    rule = t.of(piece.side, piece.type)
    effect = hit_effect(piece)
    if effect == "reduce":
        state.map.update(replace(piece, steps=piece.steps - 1))
        state.mark(t.targeted_mark, unit_id)
        left = f"{piece.steps - 1} of {rule.steps} steps left"
        return [f"{describe(state, piece)} is reduced, {left} ({cause})"]
    if effect == "immobilize":
        state.map.update(replace(piece, status=piece.status | {t.immobilized_status}))
        state.mark(t.targeted_mark, unit_id)
        return [f"{describe(state, piece)} is immobilized ({cause})"]
    if rule.effect == "immobilize":
        cause = f"hit when already immobilized; {cause}"
    elif rule.effect == "reduce":
        cause = f"hit when reduced; {cause}"
    return eliminate(state, unit_id, cause)


def hit_effect(piece: Piece) -> Effect:
    """What one hit does to ``piece`` now (``hit`` does it; the window's fire preview says
    it): a step lost while it has one to spare, immobilized once, else eliminated."""
    t = tables()
    rule = t.of(piece.side, piece.type)
    if rule.effect == "reduce" and piece.steps > 1:
        return "reduce"
    if rule.effect == "immobilize" and not piece.has(t.immobilized_status):
        return "immobilize"
    return "eliminate"


def hit_words(piece: Piece) -> str:
    """``hit_effect`` in words: "reduced to 1 of 2 steps", "immobilized", "eliminated"."""
    effect = hit_effect(piece)
    if effect == "reduce":
        return f"reduced to {piece.steps - 1} of {full_steps(piece)} steps"
    return "immobilized" if effect == "immobilize" else "eliminated"


def pin(state: GameState, hex: Hex, cause: str) -> list[str]:
    """Pin down every American unit in ``hex`` (status ``pinned``) and mark each one
    ``targeted`` for the turn; returns what happened in words."""
    t = tables()
    label = state.board.label(hex)
    pinned = []
    for piece in state.map.units_at(hex):
        if piece.side != AMERICAN:
            continue
        if not piece.has(t.pinned_status):
            state.map.update(replace(piece, status=piece.status | {t.pinned_status}))
        state.mark(t.targeted_mark, piece.id)
        pinned.append(f"{piece.type} {piece.id}")
    if not pinned:
        return [f"{label}: no American unit there to pin down ({cause})"]
    return [f"{label} is pinned down: {', '.join(pinned)} ({cause})"]
