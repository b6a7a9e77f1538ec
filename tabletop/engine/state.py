"""The whole state of a game in play, as plain data that goes to JSON and back unchanged.

A game is more than the pieces on the map: units wait in boxes off the map (the dead
pool, reinforcement and landing boxes), numbers are kept on tracks (victory points,
replacement points, artillery misses this phase), card games have decks and hands, the
turn and phase are somewhere, and so is the position of the dice stream. ``GameState``
holds all of it; ``to_json``/``from_json`` are exact inverses (tested), which is what
saves, undo snapshots and replay checks rest on.

The map itself is not in the state: it comes from the scenario (a save names it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.board import Map
from tabletop.hexgrid import Hex

from .attributes import pairs
from .dice import Deck
from .pieces import MapState, Piece

JsonDict = dict[str, Any]


def piece_to_json(piece: Piece) -> JsonDict:
    """A piece as JSON: axial ``hex`` as [q, r] (labels are for people, at the edges)."""
    out: JsonDict = {"id": piece.id, "type": piece.type, "hex": [piece.hex.q, piece.hex.r]}
    if piece.side is not None:
        out["side"] = piece.side
    if piece.kind != "unit":
        out["kind"] = piece.kind
    if piece.level:
        out["level"] = piece.level
    if piece.facing is not None:
        out["facing"] = piece.facing
    if piece.status:
        out["status"] = sorted(piece.status)
    if piece.steps != 1:
        out["steps"] = piece.steps
    if piece.carrying:
        out["carrying"] = list(piece.carrying)
    if piece.attributes:
        out["attributes"] = {k: list(v) if isinstance(v, tuple) else v for k, v in piece.attributes}
    return out


def piece_from_json(data: JsonDict) -> Piece:
    q, r = data["hex"]
    return Piece(
        id=data["id"],
        type=data["type"],
        hex=Hex(q, r),
        side=data.get("side"),
        kind=data.get("kind", "unit"),
        level=data.get("level", 0),
        facing=data.get("facing"),
        status=frozenset(data.get("status", ())),
        steps=data.get("steps", 1),
        carrying=tuple(data.get("carrying", ())),
        attributes=pairs(data.get("attributes", {})),
    )


@dataclass
class GameState:
    """Everything that changes during a game.

    - ``map``: the pieces on the map (units and hex markers) and the hexes whose ground
      changed in play (``terrain_at``), what LOS and movement read;
    - ``boxes``: pieces off the map by box name ("dead", "landing", "turn-3"...); a
      piece in a box keeps the hex it last stood on, which means nothing there;
    - ``tracks``: named whole numbers (victory points, misses this phase);
    - ``marks``: named lists of ids the rules remember for a while (units already
      targeted this turn), cleared by the rules when their time is up;
    - ``decks`` and ``hands``: cards by deck name and by holder;
    - ``options``: the optional rules chosen for this game;
    - ``turn``/``phase``: where the turn sequence stands ("setup" before the first turn);
    - ``drawn``: the dice stream position (see ``tabletop.engine.dice``);
    - ``result``: the outcome once the game is over;
    - ``secret``: the actions sides have chosen in secret and not yet revealed, by side
      (a simultaneous step; a side's view holds None for the others');
    - ``window``: an open reaction window, ``{"side": who may react, "after": the
      action that opened it}``, or None.

    ``secret``, ``window`` and ``terrain`` (label -> terrain key) go to JSON only when
    set, so a game that never uses them (every solitaire game) saves exactly as before.
    """

    map: MapState
    turn: int = 0
    phase: str = "setup"
    boxes: dict[str, list[Piece]] = field(default_factory=dict)
    tracks: dict[str, int] = field(default_factory=dict)
    marks: dict[str, list[str]] = field(default_factory=dict)
    decks: dict[str, Deck] = field(default_factory=dict)
    hands: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    drawn: int = 0
    result: str | None = None
    secret: dict[str, Any] = field(default_factory=dict)
    window: dict[str, Any] | None = None

    @property
    def board(self) -> Map:
        return self.map.board

    # -- off-map boxes ----------------------------------------------------------------

    def box(self, name: str) -> list[Piece]:
        """The pieces in box ``name`` (an empty list if none), in the order put there."""
        return self.boxes.get(name, [])

    def to_box(self, piece_id: str, name: str) -> Piece:
        """Take a piece off the map into a box (the dead pool, a landing box)."""
        piece = self.map.remove(piece_id)
        self.boxes.setdefault(name, []).append(piece)
        return piece

    def from_box(self, name: str, piece_id: str, to: Hex) -> Piece:
        """Put a piece from a box on the map at ``to``."""
        pieces = self.boxes.get(name, [])
        for i, piece in enumerate(pieces):
            if piece.id == piece_id:
                moved = replace(piece, hex=to)
                self.map.place(moved)
                del pieces[i]
                if not pieces:
                    del self.boxes[name]
                return moved
        raise KeyError(f"no piece {piece_id!r} in box {name!r}")

    def where(self, piece_id: str) -> str | None:
        """The box holding ``piece_id``, or None (on the map, or unknown)."""
        for name, pieces in self.boxes.items():
            if any(p.id == piece_id for p in pieces):
                return name
        return None

    # -- marks and tracks -------------------------------------------------------------

    def marked(self, name: str, piece_id: str) -> bool:
        return piece_id in self.marks.get(name, ())

    def mark(self, name: str, piece_id: str) -> None:
        ids = self.marks.setdefault(name, [])
        if piece_id not in ids:
            ids.append(piece_id)

    def track(self, name: str) -> int:
        return self.tracks.get(name, 0)

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> JsonDict:
        out = self._to_json()
        if self.secret:
            out["secret"] = {k: (dict(v) if v is not None else None) for k, v in self.secret.items()}
        # ground changed in play: only when set, so saves without it stay byte-identical
        if overrides := self.map.terrain_overrides():
            out["terrain"] = dict(sorted((self.board.label(h), key) for h, key in overrides.items()))
        if self.window is not None:
            out["window"] = {"side": self.window["side"], "after": dict(self.window["after"])}
        return out

    def _to_json(self) -> JsonDict:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "pieces": [piece_to_json(p) for p in self.map.pieces()],
            "boxes": {k: [piece_to_json(p) for p in v] for k, v in self.boxes.items()},
            "tracks": dict(self.tracks),
            "marks": {k: list(v) for k, v in self.marks.items()},
            "decks": {k: d.to_json() for k, d in self.decks.items()},
            "hands": {k: list(v) for k, v in self.hands.items()},
            "options": dict(self.options),
            "drawn": self.drawn,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, board: Map, data: JsonDict) -> GameState:
        """Rebuild a state on ``board``; KeyError/ValueError for malformed data."""
        state = cls(
            map=MapState.of(board, (piece_from_json(p) for p in data["pieces"])),
            turn=data["turn"],
            phase=data["phase"],
            boxes={k: [piece_from_json(p) for p in v] for k, v in data["boxes"].items()},
            tracks=dict(data["tracks"]),
            marks={k: list(v) for k, v in data["marks"].items()},
            decks={k: Deck.from_json(d) for k, d in data["decks"].items()},
            hands={k: list(v) for k, v in data["hands"].items()},
            options=dict(data["options"]),
            drawn=data["drawn"],
            result=data["result"],
            secret={k: (dict(v) if v is not None else None) for k, v in data.get("secret", {}).items()},
            window=(
                {"side": data["window"]["side"], "after": dict(data["window"]["after"])}
                if data.get("window") is not None
                else None
            ),
        )
        for label, key in data.get("terrain", {}).items():
            state.map.set_terrain(board.hex_of(str(label)), str(key))
        return state

    def copy(self) -> GameState:
        """An independent copy: every container new, the pieces (frozen) shared. It is
        what a round trip through ``to_json``/``from_json`` gives (tested), at a small
        part of its cost: each bot's view of a game with hidden information is a copy
        (``Game.view_state``), and rebuilding every piece was most of it (issue 19)."""
        state = GameState(
            map=MapState.of(self.board, self.map.pieces()),
            turn=self.turn,
            phase=self.phase,
            boxes={k: list(v) for k, v in self.boxes.items()},
            tracks=dict(self.tracks),
            marks={k: list(v) for k, v in self.marks.items()},
            decks={k: Deck(d.cards, d.discards) for k, d in self.decks.items()},
            hands={k: list(v) for k, v in self.hands.items()},
            options=dict(self.options),
            drawn=self.drawn,
            result=self.result,
            secret={k: (dict(v) if v is not None else None) for k, v in self.secret.items()},
            window=(
                {"side": self.window["side"], "after": dict(self.window["after"])}
                if self.window is not None
                else None
            ),
        )
        for h, key in sorted(self.map.terrain_overrides().items(), key=lambda hk: self.board.label(hk[0])):
            state.map.set_terrain(h, key)
        return state
