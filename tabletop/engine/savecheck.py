"""The shape of a save's data, checked before anything is replayed.

Why: a save is a file that anyone can edit or share. The engine and the rules expect
well-formed data: an action is a mapping with a ``do`` word, an entry's parent is an
earlier entry, a turn is a whole number. A save that breaks this must be refused with
what is wrong and where, not crash deep inside the rules or loop forever (a log whose
parents form a cycle, finding H1). ``check_save`` raises ``SaveProblem`` naming the
field (``entries[5].turn``); ``savefile`` adds the save's path and what to do.
"""

from __future__ import annotations

import reprlib
from collections.abc import Collection, Mapping
from typing import Any

from tabletop.limits import SAVE_DEPTH, SAVE_ENTRIES, SAVE_INT

from .attributes import Attribute, json_problem

#: the keys of a save of the current version: required, then optional
SAVE_KEYS = (
    "format",
    "version",
    "source",
    "rules",
    "seed",
    "initial",
    "entries",
    "head",
    "snapshot",
    "hand_dice",
)
ENTRY_KEYS = ("action", "parent", "rolls", "lines", "turn", "phase")
ENTRY_OPTIONAL = ("script", "last_child", "window", "revealed", "stream", "where")
STATE_KEYS = (
    "turn",
    "phase",
    "pieces",
    "boxes",
    "tracks",
    "marks",
    "decks",
    "hands",
    "options",
    "drawn",
    "result",
)
STATE_OPTIONAL = ("secret", "window", "terrain")  # two-sided games, ground changed in play (issue 12)
PIECE_KEYS = ("id", "type", "hex")
PIECE_OPTIONAL = ("side", "kind", "level", "facing", "status", "steps", "carrying", "attributes")
#: characters of the ``source`` a save names (a path; longer ones are not real paths)
SOURCE_CHARS = 4096
#: the largest face a die rolled by hand may show (the window takes 1-100)
HAND_FACE = 100
_LEVELS_ABOVE_ACTION = 3  # the save, its entries and the entry hold each action

_shown = reprlib.Repr()
_shown.maxstring = 40
_shown.maxother = 40
_shown.maxlong = 40
_shown.maxlist = _shown.maxdict = _shown.maxtuple = 4
_shown.maxlevel = 2


class SaveProblem(ValueError):
    """One thing wrong in a save's data: ``what`` is wrong at ``where`` (a field path)."""

    def __init__(self, where: str, what: str) -> None:
        self.where = where or "the save"
        self.what = f"`{where.rsplit('.', 1)[-1]}` {what}" if where else f"the save {what}"
        super().__init__(f"{self.what} ({self.where})")


def field(where: str, key: str) -> str:
    """The path of ``key`` inside the part at ``where`` ("" is the save itself)."""
    return f"{where}.{key}" if where else key


def shown(value: Any) -> str:
    """A value of the save, short and on one line, for a message."""
    return _shown.repr(value)


def whole(value: Any, where: str, least: int = -SAVE_INT, most: int = SAVE_INT) -> int:
    """``value`` as a whole number in ``least..most``; SaveProblem if it is not."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SaveProblem(where, f"must be a whole number, not {shown(value)}")
    if not least <= value <= most:
        raise SaveProblem(where, f"must be a whole number from {least} to {most}, not {shown(value)}")
    return value


def text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise SaveProblem(where, f"must be text, not {shown(value)}")
    return value


def texts(value: Any, where: str) -> list[str]:
    for i, item in enumerate(items(value, where)):
        text(item, f"{where}[{i}]")
    return list(value)


def items(value: Any, where: str, most: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise SaveProblem(where, f"must be a list, not {shown(value)}")
    if most is not None and len(value) > most:
        raise SaveProblem(where, f"holds {len(value)} items; at most {most} are read")
    return value


def record(
    value: Any, where: str, required: Collection[str], optional: Collection[str] = ()
) -> dict[str, Any]:
    """A mapping with exactly these keys (``optional`` ones may be missing)."""
    if not isinstance(value, dict):
        raise SaveProblem(where, f"must be a mapping, not {shown(value)}")
    for key in required:
        if key not in value:
            raise SaveProblem(field(where, key), "is missing")
    for key in value:
        if key not in required and key not in optional:
            known = ", ".join([*required, *optional])
            raise SaveProblem(
                field(where, shown(key)), f"is not a field of this part of a save (its fields: {known})"
            )
    return value


def table(value: Any, where: str) -> dict[str, Any]:
    """A mapping from names (text) to values checked by the caller."""
    if not isinstance(value, dict):
        raise SaveProblem(where, f"must be a mapping, not {shown(value)}")
    return value


def nesting(value: Any, where: str, levels: int) -> None:
    """Free-form JSON (an action's fields) nested at most ``levels`` deep."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth >= levels:
                raise SaveProblem(where, f"is nested deeper than {SAVE_DEPTH} levels in all")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def check_piece(value: Any, where: str) -> None:
    """One piece; of its attributes only their shape (``check_attributes`` knows more)."""
    piece = record(value, where, PIECE_KEYS, PIECE_OPTIONAL)
    text(piece["id"], f"{where}.id")
    text(piece["type"], f"{where}.type")
    hexes = items(piece["hex"], f"{where}.hex")
    if len(hexes) != 2:
        raise SaveProblem(f"{where}.hex", f"must be [q, r], not {shown(hexes)}")
    whole(hexes[0], f"{where}.hex[0]")
    whole(hexes[1], f"{where}.hex[1]")
    if piece.get("side") is not None:
        text(piece["side"], f"{where}.side")
    if piece.get("kind", "unit") not in ("unit", "marker"):
        raise SaveProblem(f"{where}.kind", f"must be 'unit' or 'marker', not {shown(piece['kind'])}")
    whole(piece.get("level", 0), f"{where}.level")
    if piece.get("facing") is not None:
        whole(piece["facing"], f"{where}.facing", 0, 5)
    texts(piece.get("status", []), f"{where}.status")
    whole(piece.get("steps", 1), f"{where}.steps", 0)
    texts(piece.get("carrying", []), f"{where}.carrying")
    if "attributes" in piece:
        problem = json_problem(piece["attributes"], {})
        if problem is not None:
            raise SaveProblem(f"{where}.attributes", problem)


def check_state(value: Any, where: str) -> None:
    """A ``GameState.to_json()``: the initial position or the snapshot."""
    state = record(value, where, STATE_KEYS, STATE_OPTIONAL)
    for side, chosen in table(state.get("secret", {}), f"{where}.secret").items():
        if chosen is not None and not isinstance(chosen, dict):
            raise SaveProblem(f"{where}.secret.{side}", f"must be an action or null, not {shown(chosen)}")
    if state.get("window") is not None:
        window = record(state["window"], f"{where}.window", ("side", "after"))
        text(window["side"], f"{where}.window.side")
        table(window["after"], f"{where}.window.after")
    for label, key in table(state.get("terrain", {}), f"{where}.terrain").items():
        text(key, f"{where}.terrain.{label}")
    whole(state["turn"], f"{where}.turn", 0)
    text(state["phase"], f"{where}.phase")
    for i, piece in enumerate(items(state["pieces"], f"{where}.pieces")):
        check_piece(piece, f"{where}.pieces[{i}]")
    for name, pieces in table(state["boxes"], f"{where}.boxes").items():
        for i, piece in enumerate(items(pieces, f"{where}.boxes.{name}")):
            check_piece(piece, f"{where}.boxes.{name}[{i}]")
    for name, number in table(state["tracks"], f"{where}.tracks").items():
        whole(number, f"{where}.tracks.{name}")
    for key in ("marks", "hands"):
        for name, ids in table(state[key], f"{where}.{key}").items():
            texts(ids, f"{where}.{key}.{name}")
    for name, deck in table(state["decks"], f"{where}.decks").items():
        record(deck, f"{where}.decks.{name}", ("cards", "discards"))
        texts(deck["cards"], f"{where}.decks.{name}.cards")
        texts(deck["discards"], f"{where}.decks.{name}.discards")
    for name, chosen in table(state["options"], f"{where}.options").items():
        if chosen is not None and not isinstance(chosen, (str, int, float)):
            raise SaveProblem(
                f"{where}.options.{name}", f"must be a word, number or yes/no, not {shown(chosen)}"
            )
    whole(state["drawn"], f"{where}.drawn", 0)
    if state["result"] is not None:
        text(state["result"], f"{where}.result")


def check_entry(value: Any, index: int, count: int) -> None:
    """Log entry ``index`` of ``count``: its parent is an earlier entry (or -1, the
    start), so the log is a tree and following parents always ends (finding H1)."""
    where = f"entries[{index}]"
    entry = record(value, where, ENTRY_KEYS, ENTRY_OPTIONAL)
    action = entry["action"]
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        raise SaveProblem(f"{where}.action", f"must be a mapping with a `do` word, not {shown(action)}")
    nesting(action, f"{where}.action", SAVE_DEPTH - _LEVELS_ABOVE_ACTION)
    parent = whole(entry["parent"], f"{where}.parent")
    if not -1 <= parent < index:
        raise SaveProblem(
            f"{where}.parent",
            f"is {parent}, but an entry follows an earlier one (-1 to {index - 1}): the log is not a tree",
        )
    for i, roll in enumerate(items(entry["rolls"], f"{where}.rolls")):
        at = f"{where}.rolls[{i}]"
        if not isinstance(roll, list) or len(roll) != 3:
            raise SaveProblem(at, f"must be [purpose, faces, outcome], not {shown(roll)}")
        text(roll[0], f"{at}[0]")
        for j, face in enumerate(items(roll[1], f"{at}[1]")):
            whole(face, f"{at}[1][{j}]", 1)
        text(roll[2], f"{at}[2]")
    texts(entry["lines"], f"{where}.lines")
    whole(entry["turn"], f"{where}.turn", 0)
    text(entry["phase"], f"{where}.phase")
    for i, face in enumerate(items(entry.get("script", []), f"{where}.script")):
        whole(face, f"{where}.script[{i}]", 1)
    for i, face in enumerate(items(entry.get("stream", []), f"{where}.stream")):
        whole(face, f"{where}.stream[{i}]", 1)  # secret dice's values (issue 12 item 3)
    if entry.get("window") is not None and not 0 <= whole(entry["window"], f"{where}.window") < index:
        raise SaveProblem(f"{where}.window", "must name an earlier entry: the one that opened the window")
    texts(entry.get("revealed", []), f"{where}.revealed")
    for i, place in enumerate(items(entry.get("where", []), f"{where}.where")):
        if not isinstance(place, dict):  # where results landed: only drawn (Entry.where)
            raise SaveProblem(f"{where}.where[{i}]", f"must be a mapping, not {shown(place)}")
        nesting(place, f"{where}.where[{i}]", SAVE_DEPTH - _LEVELS_ABOVE_ACTION)
    if entry.get("last_child") is not None:
        child = whole(entry["last_child"], f"{where}.last_child")
        if not index < child < count:
            raise SaveProblem(
                f"{where}.last_child", f"is {child}, not a later entry of the log (0 to {count - 1})"
            )


def check_log(entries: Any, head: Any) -> None:
    """Every entry, each child named by ``last_child`` pointing back, and the head."""
    log = items(entries, "entries", SAVE_ENTRIES)
    for index, entry in enumerate(log):
        check_entry(entry, index, len(log))
    for index, entry in enumerate(log):
        child = entry.get("last_child")
        if child is not None and log[child]["parent"] != index:
            raise SaveProblem(
                f"entries[{index}].last_child", f"is {child}, whose parent is not entry {index}"
            )
    whole(head, "head", -1, len(log) - 1)


def check_attributes(data: dict[str, Any], declared: Mapping[str, Attribute]) -> None:
    """Every piece's attributes in a checked save against what its scenario's rule
    system declares (known only once the scenario is open)."""
    for where in ("initial", "snapshot"):
        state = data[where]
        groups = [(f"{where}.pieces", state["pieces"])]
        groups += [(f"{where}.boxes.{name}", pieces) for name, pieces in state["boxes"].items()]
        for path, pieces in groups:
            for i, piece in enumerate(pieces):
                if "attributes" in piece:
                    problem = json_problem(piece["attributes"], declared)
                    if problem is not None:
                        raise SaveProblem(f"{path}[{i}].attributes", problem)


def check_save(data: dict[str, Any]) -> None:
    """A save of the current version, field by field; SaveProblem at the first fault.
    Where the scenario is and which rules it plays are checked on loading."""
    record(data, "", SAVE_KEYS)
    source = text(data["source"], "source")
    if not source or "\0" in source or len(source) > SOURCE_CHARS:
        raise SaveProblem("source", f"must name the scenario the game was played on, not {shown(source)}")
    text(data["rules"], "rules")
    whole(data["seed"], "seed")
    check_state(data["initial"], "initial")
    check_log(data["entries"], data["head"])
    check_state(data["snapshot"], "snapshot")
    for i, face in enumerate(items(data["hand_dice"], "hand_dice", SAVE_ENTRIES)):
        whole(face, f"hand_dice[{i}]", 1, HAND_FACE)
