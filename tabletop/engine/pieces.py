"""Units and markers on a map: the live state that line of sight and movement read.

A change here (a unit moves, smoke is placed) is seen by the next query at once: there
is no separate copy of "what blocks" to keep in step.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from tabletop.board import Map
from tabletop.engine.attributes import Attribute, Attributes, Value, pairs
from tabletop.hexgrid import Hex

PieceKind = Literal["unit", "marker"]
_CHANGES = itertools.count(1)  # versions are unique across all states, so caches never mix two
_JOURNAL_KEPT = 4096  # changes a map remembers the hexes of (``MapState.changed_since``)


def _first(change: tuple[int, Hex]) -> int:
    return change[0]


@dataclass(frozen=True)
class Piece:
    """A counter on the map: a unit (``kind="unit"``) or a marker (smoke, wreck, ...).

    ``level`` is the piece's height above its hex's ground level (a building floor);
    ``facing`` is a direction index 0-5 for games with facing; ``status`` holds words a
    rule system reads ("prone", "pinned", "night-vision"): a unit's own markers.
    ``steps`` is the strength left (a two-step unit is reduced at 1); ``carrying`` the
    ids of units it carries (kept off the map, in the game's boxes); ``attributes`` its
    own numbers and words as its rule system declares them (``tabletop.engine.attributes``:
    a regiment, a nation, a strength), sorted ``(key, value)`` pairs.
    """

    id: str
    type: str
    hex: Hex
    side: str | None = None
    kind: PieceKind = "unit"
    level: int = 0
    facing: int | None = None
    status: frozenset[str] = frozenset()
    steps: int = 1
    carrying: tuple[str, ...] = ()
    attributes: Attributes = ()

    def has(self, word: str) -> bool:
        """Whether ``word`` is among this piece's status words."""
        return word in self.status

    def attr(self, key: str, default: Value | None = None) -> Value | None:
        """The value of attribute ``key``, or ``default`` when the piece has none."""
        for k, v in self.attributes:
            if k == key:
                return v
        return default

    def with_attr(self, key: str, value: Value | None) -> Piece:
        """This piece with attribute ``key`` set to ``value`` (None removes it): how a
        rule changes a unit's count of ammunition or uses of a weapon."""
        values = dict(self.attributes)
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
        return replace(self, attributes=pairs(values))


@dataclass(frozen=True)
class Newcomers:
    """What a unit is when it comes into play (set up, arriving, placed from the tray):
    its counter's full ``steps`` by type, and the attribute values its rule system gives
    every unit (``base``: the schema's defaults) and its type gives (``by_type``: the
    counter file's ``attributes:``), each under the unit's own. One place, so a unit
    set up by hand and one written in the scenario start alike. ``declared``: the
    attributes the scenario's rule system declares, which edits and saves keep to."""

    steps: Mapping[str, int] = field(default_factory=dict)
    base: Mapping[str, Value] = field(default_factory=dict)
    by_type: Mapping[str, Mapping[str, Value]] = field(default_factory=dict)
    declared: Mapping[str, Attribute] = field(default_factory=dict)

    def full_steps(self, type_key: str) -> int:
        """A full-strength unit's steps for ``type_key`` (1 when the counters say none)."""
        return self.steps.get(type_key, 1)

    def attributes(self, type_key: str, own: Mapping[str, Value] | None = None) -> Attributes:
        """The attributes of a new unit of ``type_key`` that has ``own`` values."""
        return pairs({**self.base, **self.by_type.get(type_key, {}), **(own or {})})

    def full(self, piece: Piece) -> Piece:
        """``piece`` (a unit) at its type's full steps with its attributes filled in;
        a marker unchanged."""
        if piece.kind != "unit":
            return piece
        steps = self.steps.get(piece.type, piece.steps)
        return replace(piece, steps=steps, attributes=self.attributes(piece.type, dict(piece.attributes)))


@dataclass
class MapState:
    """A map with the pieces currently on it, indexed by hex."""

    board: Map
    _pieces: dict[str, Piece] = field(default_factory=dict)
    _by_hex: dict[Hex, list[Piece]] = field(default_factory=dict)  # each hex's pieces, in the order placed
    version: int = 0  # a new unique number on every change, so derived caches know when to refresh
    _terrain: dict[Hex, str] = field(default_factory=dict)  # hexes whose ground changed in play (E6)
    # (version, hex) of the latest changes, oldest first: what a cache kept across versions
    # must work out again (``changed_since``); not part of the state's value
    _journal: list[tuple[int, Hex]] = field(default_factory=list, repr=False, compare=False)
    _journal_from: int = field(default=0, repr=False, compare=False)  # changes after it are all kept

    @classmethod
    def of(cls, board: Map, pieces: Iterable[Piece] = ()) -> MapState:
        state = cls(board)
        for p in pieces:
            state.place(p)
        return state

    def _changed(self, h: Hex) -> None:
        """A new version, with ``h`` noted as changed in it."""
        self.version = next(_CHANGES)
        journal = self._journal
        journal.append((self.version, h))
        if len(journal) > _JOURNAL_KEPT:
            self._journal_from = journal[_JOURNAL_KEPT // 2 - 1][0]
            del journal[: _JOURNAL_KEPT // 2]

    def changed_since(self, version: int) -> set[Hex] | None:
        """The hexes whose pieces or ground changed after ``version`` (one this map had),
        or None when the changes kept do not reach back that far: a cache kept across
        versions works out only these again (issue 19 item 1)."""
        if version < self._journal_from:
            return None
        journal = self._journal
        i = bisect_right(journal, version, key=_first)
        return {h for _, h in journal[i:]}

    def terrain_at(self, h: Hex) -> str:
        """The terrain key of ``h`` now: a change made in play (rubble), else the map's own.

        Every reader with the live state at hand asks here, not ``board.terrain``, so a
        collapsed building is seen by sight, movement and the window alike.
        """
        return self._terrain.get(h) or self.board.terrain[h]

    def terrain_overrides(self) -> dict[Hex, str]:
        """The hexes whose terrain changed in play, hex -> terrain key (a copy)."""
        return dict(self._terrain)

    def set_terrain(self, h: Hex, key: str) -> str:
        """Change the ground of ``h`` to terrain ``key``; returns the key it had.

        Setting a hex back to the map's own terrain drops the override, so an undone or
        reverted change leaves no trace in a save. ValueError for an off-map hex or a
        terrain type the map does not define.
        """
        if not self.board.grid.contains(h):
            raise ValueError(f"{h} is not on the map")
        if key not in self.board.terrain_types:
            raise ValueError(
                f"unknown terrain {key!r}; this map knows: {', '.join(sorted(self.board.terrain_types))}"
            )
        before = self.terrain_at(h)
        if key == self.board.terrain[h]:
            self._terrain.pop(h, None)
        else:
            self._terrain[h] = key
        self._changed(h)
        return before

    def place(self, piece: Piece) -> None:
        """Put a new piece on the map; ValueError for a duplicate id or an off-map hex."""
        if piece.id in self._pieces:
            raise ValueError(f"piece id {piece.id!r} is already on the map")
        if not self.board.grid.contains(piece.hex):
            raise ValueError(f"piece {piece.id!r}: {piece.hex} is not on the map")
        self._pieces[piece.id] = piece
        self._by_hex.setdefault(piece.hex, []).append(piece)
        self._changed(piece.hex)

    def remove(self, piece_id: str) -> Piece:
        """Take a piece off the map and return it."""
        piece = self.piece(piece_id)
        del self._pieces[piece_id]
        here = self._by_hex[piece.hex]
        del here[next(i for i, p in enumerate(here) if p is piece)]  # (the very object placed)
        if not here:
            del self._by_hex[piece.hex]
        self._changed(piece.hex)
        return piece

    def move(self, piece_id: str, to: Hex) -> Piece:
        """Move a piece to another hex; returns the moved piece."""
        moved = replace(self.remove(piece_id), hex=to)
        self.place(moved)
        return moved

    def update(self, piece: Piece) -> None:
        """Replace a piece by a changed copy with the same id (status, level, facing)."""
        self.remove(piece.id)
        self.place(piece)

    def piece(self, piece_id: str) -> Piece:
        """The piece with this id; KeyError naming it if there is none."""
        try:
            return self._pieces[piece_id]
        except KeyError:
            raise KeyError(f"no piece with id {piece_id!r} on the map") from None

    def pieces(self) -> list[Piece]:
        """Every piece, in the order placed."""
        return list(self._pieces.values())

    def pieces_at(self, h: Hex) -> list[Piece]:
        """The pieces in hex ``h``, units and markers."""
        here = self._by_hex.get(h)
        return list(here) if here else []  # (most hexes a bot asks about are empty, issue 19)

    def units_at(self, h: Hex) -> list[Piece]:
        """The units in hex ``h``."""
        return [p for p in self._by_hex.get(h, ()) if p.kind == "unit"]

    def markers_at(self, h: Hex) -> list[Piece]:
        """The markers in hex ``h``."""
        return [p for p in self._by_hex.get(h, ()) if p.kind == "marker"]

    def occupied(self) -> set[Hex]:
        """Hexes holding at least one unit."""
        return {h for h, here in self._by_hex.items() if any(p.kind == "unit" for p in here)}
