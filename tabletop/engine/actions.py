"""Actions as data, and the generic ones every game can use.

An action is a plain JSON mapping with a ``do`` word (``{"do": "move", "piece": "A1",
"to": "0503"}``), so it can be logged, saved and replayed. The generic actions move,
place and remove pieces, put them in boxes and take them out, change status, facing,
steps and a unit's attributes (its ammunition left), keep numbers on tracks, roll dice, draw cards and change a hex's ground (a
building collapses to rubble). Free play is made of them; in a
rule system's game they are the player's *edits* (``"edit": true``): changes outside the
rules, made on purpose and logged as such. Each is checked before it changes anything,
so a bad action is refused with the reason.

Any action may also name where it happens, for the window to draw (issue 13 finding 2:
German fire was text only): ``"where": [{"kind": "fire", "hexes": ["0405", "0607"],
"units": ["G1", "A3"], "roll": 0}]``, read by ``where``. The rules that make the action
fill it; no rule reads it, and an action without it (every older save) is drawn as
before. What is known only once the action is played (where the results of several
attacks resolved together land) the rules record while applying it
(``Dice.happened``); the log keeps it beside the action (``Entry.where``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from tabletop.hexgrid import LabelError

from .attributes import json_problem
from .dice import Dice
from .state import GameState, piece_from_json

Action = dict[str, Any]
END_PHASE: Action = {"do": "end-phase"}

GENERIC = frozenset(
    {
        "move",
        "place",
        "remove",
        "unbox",
        "status",
        "steps",
        "track",
        "roll",
        "draw",
        "face",
        "note",
        "load",
        "unload",
        "terrain",
        "attribute",
    }
)
CARRIED = "carried"  # the box of units aboard another (the carrier lists them in ``carrying``)
# harmless in any phase of any game: a player's own rolls and notes, logged
TABLE_ACTIONS = frozenset({"roll", "note"})

WHERE = "where"  # the action key that names where it happens
Kind = Literal["move", "fire", "hit", "miss", "place", "remove"]
KINDS: tuple[Kind, ...] = ("move", "fire", "hit", "miss", "place", "remove")


@dataclass(frozen=True)
class Where:
    """One thing an action does somewhere: its ``kind``, the hexes it happens in, in
    order (a move's path; a fire's firer then target), the units it concerns (the
    firer first), and, for a result decided by dice, which of the action's rolls
    (``Entry.rolls`` index) says it (the roll's outcome is the result, in the rules'
    words), or the ``result`` itself in words when no single roll says it. A fire may
    name several firers: every hex but the last fires at the last."""

    kind: Kind
    hexes: tuple[str, ...]
    units: tuple[str, ...] = ()
    roll: int | None = None
    result: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": list(self.hexes)}
        if self.units:
            out["units"] = list(self.units)
        if self.roll is not None:
            out["roll"] = self.roll
        if self.result is not None:
            out["result"] = self.result
        return out


def where(action: Mapping[str, Any]) -> tuple[Where, ...]:
    """Where ``action`` says it happens; () when it says nothing. What is not well formed
    (a save edited by hand) is left out rather than refused: it is only drawn."""
    return wheres(action.get(WHERE))


def wheres(found: Any) -> tuple[Where, ...]:
    """The well-formed ``Where`` records of a JSON list (an action's ``where``, or an
    entry's: see ``Entry.where``); the rest left out."""
    if not isinstance(found, list):
        return ()
    out = []
    for item in found:
        if not isinstance(item, dict) or item.get("kind") not in KINDS:
            continue
        hexes, units, roll = item.get("hexes"), item.get("units", []), item.get("roll")
        if not isinstance(hexes, list) or not hexes or not all(isinstance(h, str) for h in hexes):
            continue
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            continue
        if roll is not None and (type(roll) is not int or roll < 0):
            roll = None
        result = item.get("result")
        out.append(Where(item["kind"], tuple(hexes), tuple(units), roll, result if isinstance(result, str) else None))
    return tuple(out)


def _label_error(state: GameState, label: Any) -> str | None:
    try:
        state.board.hex_of(str(label))
    except LabelError as exc:
        return str(exc)
    return None


def generic_refusal(state: GameState, action: Action) -> str | None:
    """Why a generic action cannot be done in ``state``, or None."""
    do = action.get("do")
    if do == END_PHASE["do"]:
        return None
    pid = action.get("piece")
    on_map = {p.id for p in state.map.pieces()}
    if do in ("move", "remove", "status", "steps", "face", "attribute") and pid not in on_map:
        return f"no piece {pid!r} on the map"
    if do in ("move", "unbox"):
        if "to" not in action:
            return f"`{do}` needs `to`: a hex label"
        problem = _label_error(state, action["to"])
        if problem:
            return problem
    if do == "unbox" and state.where(str(pid)) != action.get("box"):
        return f"no piece {pid!r} in box {action.get('box')!r}"
    if do == "place":
        data = action.get("piece")
        if not isinstance(data, dict) or not {"id", "type", "hex"} <= data.keys():
            return "`place` needs `piece: {id, type, hex}`"
        if data["id"] in on_map or state.where(data["id"]) is not None:
            return f"a piece with id {data['id']!r} is already in the game"
        if "attributes" in data and (problem := json_problem(data["attributes"], {})) is not None:
            return problem
        if not state.board.grid.contains(piece_from_json(data).hex):
            return f"{data['hex']} is not on the map"
    if do in ("load", "unload"):
        if pid not in on_map:
            return f"no carrier {pid!r} on the map"
        unit = action.get("unit")
        carrier = state.map.piece(str(pid))
        if do == "load":
            if unit not in on_map or unit == pid:
                return f"no unit {unit!r} on the map to load aboard {pid}"
            if state.map.piece(str(unit)).hex != carrier.hex:
                return f"{unit} must be in {pid}'s hex to board it"
        elif unit not in carrier.carrying:
            return f"{pid} does not carry {unit!r}"
        elif (problem := _label_error(state, action.get("to", state.board.label(carrier.hex)))) is not None:
            return problem
    if do == "terrain":
        if "hex" not in action or not isinstance(action.get("to"), str):
            return "`terrain` needs `hex` (a hex label) and `to` (a terrain key)"
        problem = _label_error(state, action["hex"])
        if problem:
            return problem
        if not state.board.grid.contains(state.board.hex_of(str(action["hex"]))):
            return f"{action['hex']} is not on the map"
        if action["to"] not in state.board.terrain_types:
            known = ", ".join(sorted(state.board.terrain_types))
            return f"unknown terrain {action['to']!r}; this map knows: {known}"
    if do == "attribute":
        key, value = action.get("key"), action.get("to")
        if not isinstance(key, str):
            return "`attribute` needs `key` (an attribute's name) and `to` (its value, or null to remove it)"
        problem = None if value is None else json_problem({key: value}, {})
        if problem:
            return problem
    if do == "steps" and (type(action.get("steps")) is not int or action["steps"] < 1):
        return "`steps` must be a whole number of at least 1"
    if do == "face" and (type(action.get("facing")) is not int or not 0 <= action["facing"] <= 5):
        return "`face` needs `facing`: a direction 0-5"
    if do == "track" and (not isinstance(action.get("name"), str) or type(action.get("add")) is not int):
        return "`track` needs `name` (text) and `add` (a whole number)"
    if do == "roll":
        n, sides = action.get("n", 1), action.get("sides", 6)
        if type(n) is not int or type(sides) is not int or not 1 <= n <= 20 or not 2 <= sides <= 100:
            return "`roll` takes n 1-20 dice of 2-100 sides"
    if do == "note" and (not isinstance(action.get("text"), str) or not action["text"].strip()):
        return "`note` needs `text`"
    if do == "draw":
        deck = state.decks.get(action.get("deck"))  # type: ignore[arg-type]
        if deck is None:
            return f"no deck {action.get('deck')!r}"
        if not deck.cards and not deck.discards:
            return f"deck {action['deck']!r} is empty and has no discards to reshuffle"
    if do not in GENERIC:
        return f"unknown action {do!r}; free play knows: {', '.join(sorted(GENERIC))}, end-phase"
    return None


def generic_apply(state: GameState, action: Action, dice: Dice) -> list[str]:
    """Carry out a generic action already checked by ``generic_refusal``."""
    do = action["do"]
    board = state.board
    if do == "move":
        moved = state.map.move(action["piece"], board.hex_of(str(action["to"])))
        return [f"{moved.id} moves to {board.label(moved.hex)}"]
    if do == "place":
        piece = piece_from_json(action["piece"])
        state.map.place(piece)
        return [f"{piece.id} placed in {board.label(piece.hex)}"]
    if do == "remove":
        box = action.get("box") or "removed"
        state.to_box(action["piece"], box)
        return [f"{action['piece']} to {box}"]
    if do == "unbox":
        piece = state.from_box(action["box"], action["piece"], board.hex_of(str(action["to"])))
        return [f"{piece.id} from {action['box']} to {board.label(piece.hex)}"]
    if do == "status":
        piece = state.map.piece(action["piece"])
        status = (piece.status | set(action.get("add", ()))) - set(action.get("drop", ()))
        state.map.update(replace(piece, status=frozenset(status)))
        return [f"{piece.id}: {', '.join(sorted(status)) or 'no status'}"]
    if do == "steps":
        state.map.update(replace(state.map.piece(action["piece"]), steps=action["steps"]))
        return [f"{action['piece']} at {action['steps']} steps"]
    if do == "attribute":
        piece = state.map.piece(action["piece"]).with_attr(action["key"], action["to"])
        state.map.update(piece)
        shown = "none" if action["to"] is None else action["to"]
        return [f"{piece.id}: {action['key']} {shown}"]
    if do == "face":
        state.map.update(replace(state.map.piece(action["piece"]), facing=action["facing"]))
        return [f"{action['piece']} faces direction {action['facing']}"]
    if do == "track":
        state.tracks[action["name"]] = state.track(action["name"]) + action["add"]
        return [f"{action['name']}: {state.tracks[action['name']]}"]
    if do == "roll":
        n, sides = action.get("n", 1), action.get("sides", 6)
        dice.roll(n, sides, action.get("purpose") or f"{n}D{sides}")
        return []  # the logged roll says it all
    if do == "note":
        return [f"note: {action['text'].strip()}"]
    if do == "load":
        carrier = state.map.piece(action["piece"])
        state.to_box(action["unit"], CARRIED)
        state.map.update(replace(carrier, carrying=(*carrier.carrying, action["unit"])))
        return [f"{action['unit']} boards {carrier.id}"]
    if do == "unload":
        carrier = state.map.piece(action["piece"])
        to = board.hex_of(str(action.get("to", board.label(carrier.hex))))
        state.from_box(CARRIED, action["unit"], to)
        state.map.update(replace(carrier, carrying=tuple(u for u in carrier.carrying if u != action["unit"])))
        return [f"{action['unit']} leaves {carrier.id} in {board.label(to)}"]
    if do == "terrain":
        h = board.hex_of(str(action["hex"]))
        before = state.map.set_terrain(h, action["to"])
        return [f"{board.label(h)}: {before} becomes {action['to']}"]
    if do == "draw":
        card = state.decks[action["deck"]].draw(dice)
        state.hands.setdefault(action.get("hand", "table"), []).append(card)
        return [f"drew {card} from {action['deck']}"]
    raise AssertionError(do)
