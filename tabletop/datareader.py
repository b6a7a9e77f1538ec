"""Checked reading of the rule systems' YAML tables: typed values, or a DataError naming
the file and the line.

A ``Reader`` stands at one mapping of a file: ``data``, named ``where`` in messages ("" at
the top of the file, ``terrain.hill`` further down). Two sets of methods share it:

- key methods (``get``, ``sub``, ``only``, ``whole``, ``number``, ``word``, ``words``,
  ``boolean``, ``choice``) read the keys of that mapping and word their problems
  ``where.key: must be ..., got ...``;
- node methods (``mapping``, ``whole_in``, ``words_in``, ``word_in``) check any mapping of
  the same file, passed in with its name and line, and word their problems
  ``where.key must be ...``.

Each table reads with one set, so its messages keep one style. A package adds the checks
only its table needs in a subclass.

>>> r = Reader("t.yaml", {"speed": 4, "roads": ["track"]})
>>> r.whole("speed", minimum=1), sorted(r.words("roads"))
(4, ['track'])
>>> r.whole("roads")
Traceback (most recent call last):
...
tabletop.yamlfile.DataError: t.yaml: roads: must be a whole number >= 0, got ['track']
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Self

from tabletop.limits import NAME_CHARS
from tabletop.yamlfile import DataError, LineDict, LineList


def dotted(where: str, key: object) -> str:
    """The name of ``key`` under ``where`` in messages: ``where.key``, or ``key`` at the top."""
    return f"{where}.{key}" if where else str(key)


class Reader:
    """One mapping of a YAML data file, read with checks; every problem is a DataError
    naming the file and the line."""

    def __init__(self, path: Path | str, data: Any, where: str = "", line: int | None = None) -> None:
        """DataError if ``data`` is not a mapping, at ``line`` (default: the data's own line)."""
        if not isinstance(data, dict):
            at = line if line is not None else getattr(data, "line", None)
            raise DataError(path, at, f"{where or 'the file'} must be a mapping")
        self.path = path
        self.data: dict[Any, Any] = data
        self.where = where

    # --- the keys of this mapping: "where.key: must be ..., got ..." ----------------------

    def line(self, key: object) -> int | None:
        """The line of ``key``; the mapping's own line if it is absent, None if unknown."""
        if isinstance(self.data, LineDict):
            return self.data.key_lines.get(key, self.data.line)
        return None

    def name(self, key: object) -> str:
        """``key`` as messages name it: ``where.key``."""
        return dotted(self.where, key)

    def fail(self, key: object, message: str) -> DataError:
        """The error ``where.key: message`` at the line of ``key``, for the caller to raise."""
        return DataError(self.path, self.line(key), f"{self.name(key)}: {message}")

    def only(self, *keys: str) -> None:
        """DataError naming the first unknown key (in sorted order) if there is one."""
        unknown = sorted(str(k) for k in set(self.data) - set(keys))
        if unknown:
            raise self.fail(unknown[0], f"unknown key (known: {', '.join(keys)})")

    def get(self, key: object) -> Any:
        """The value at ``key``, which must be there."""
        if key not in self.data:
            raise self.fail(key, "missing")
        return self.data[key]

    def sub(self, key: object) -> Self:
        """A reader of the mapping at ``key``."""
        return type(self)(self.path, self.get(key), self.name(key))

    def whole(self, key: object, *, minimum: int = 0) -> int:
        """A whole number (not a boolean) of at least ``minimum``."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(key, f"must be a whole number >= {minimum}, got {value!r}")
        return value

    def number(self, key: object) -> Fraction:
        """A number >= 0, exact: ``0.1`` reads as 1/10."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise self.fail(key, f"must be a number >= 0, got {value!r}")
        return Fraction(str(value))

    def word(self, key: object) -> str:
        """Text that is not empty."""
        value = self.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a word, got {value!r}")
        return value

    def words(self, key: object, *, blank: bool = False) -> frozenset[str]:
        """A list of words; ``blank``: an empty word is allowed too."""
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and (blank or v) for v in value):
            raise self.fail(key, f"must be a list of words, got {value!r}")
        return frozenset(value)

    def boolean(self, key: object) -> bool:
        """true or false."""
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def choice(self, key: object, allowed: tuple[str, ...]) -> str:
        """One of the words ``allowed``."""
        value = self.get(key)
        if value not in allowed:
            raise self.fail(key, f"must be one of {', '.join(allowed)}, got {value!r}")
        return str(value)

    # --- any mapping of the file, passed in: "where.key must be ..." ----------------------

    def error(self, line: int | None, message: str) -> DataError:
        """The error ``message`` at ``line`` of this file, for the caller to raise."""
        return DataError(self.path, line, message)

    def mapping(
        self,
        node: Any,
        where: str,
        line: int | None,
        keys: Sequence[str] | None = None,
        required: Sequence[str] = (),
    ) -> LineDict:
        """``node`` (found at ``line``) as a mapping with only ``keys`` (any keys if None)
        and all of ``required``."""
        if not isinstance(node, LineDict):
            raise self.error(line, f"{where} must be a mapping")
        for key in node:
            if keys is not None and key not in keys:
                raise self.error(
                    node.key_lines[key], f"{where}: unknown key {key!r} (known: {', '.join(keys)})"
                )
        for key in required:
            if key not in node:
                raise self.error(node.line, f"{where}: `{key}:` is missing")
        return node

    def whole_in(self, node: LineDict, key: str, where: str, least: int) -> int:
        """``node[key]`` as a whole number (not a boolean) of at least ``least``."""
        value = node.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise self.error(
                node.key_lines.get(key, node.line),
                f"{dotted(where, key)} must be a whole number, {least} or more",
            )
        return value

    def words_in(self, node: LineDict, key: str, where: str) -> tuple[str, ...]:
        """``node[key]`` as a list of words, none empty, in the file's order."""
        value = node.get(key)
        if not isinstance(value, LineList) or not all(isinstance(w, str) and w for w in value):
            raise self.error(
                node.key_lines.get(key, node.line), f"{dotted(where, key)} must be a list of words"
            )
        return tuple(value)

    def word_in(self, node: LineDict, key: str, where: str, what: str = "a word") -> str:
        """``node[key]`` as text that is not empty; ``what`` names it in the message."""
        value = node.get(key)
        if not isinstance(value, str) or not value:
            raise self.error(node.key_lines.get(key, node.line), f"{dotted(where, key)} must be {what}")
        return value


COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
#: what a one-line text (a name, a label) may not hold: control characters and line breaks
NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class Collector:
    """The other way to check a file: collect every problem in one pass (a player sees
    them all at once) rather than stop at the first. Checks return None where a value is
    unusable; the caller raises ``DataErrors(errors)`` at the end if there are any.
    Used by the map and counter-sheet loaders, which add their own checks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.errors: list[DataError] = []

    def fail(self, line: int | None, message: str) -> None:
        self.errors.append(DataError(self.path, line, message))

    def one_line(self, d: LineDict, key: str, where: str, value: str) -> str | None:
        """``value``, the text at ``key``, if it is one line of printable text no longer
        than NAME_CHARS (it is shown in lists, titles and on counters); else reported."""
        bad = NOT_ONE_LINE.search(value)
        if bad:
            self.fail(
                self.line_of(d, key),
                f"`{key}` in {where} holds the control character U+{ord(bad.group()):04X}; "
                "it must be one line of printable text, so remove it",
            )
            return None
        if len(value) > NAME_CHARS:
            self.fail(
                self.line_of(d, key),
                f"`{key}` in {where} is {len(value)} characters; at most {NAME_CHARS} "
                "(limits.NAME_CHARS), so shorten it",
            )
            return None
        return value

    def colour(self, d: LineDict, key: str, where: str) -> str | None:
        """A required '#rrggbb' colour (the hint: YAML reads an unquoted # as a comment)."""
        value = d.get(key)
        if value is None:
            self.fail(
                self.line_of(d, key),
                f'{where} needs `colour: "#rrggbb"` (quoted: an unquoted # starts a comment)',
            )
            return None
        if not isinstance(value, str) or not COLOUR.match(value):
            self.fail(self.line_of(d, key), f'colour in {where} must be "#rrggbb", got {value!r}')
            return None
        return value

    @staticmethod
    def line_of(container: Any, key: Any) -> int | None:
        """The line of a key of a mapping or an item of a list (the container's own line
        when the key is missing), or None for plain data."""
        if isinstance(container, LineDict):
            return container.key_lines.get(key, container.line)
        if isinstance(container, LineList) and isinstance(key, int):
            return container.item_lines[key] if 0 <= key < len(container) else container.line
        return None

    def known_keys(self, d: LineDict, allowed: tuple[str, ...], where: str) -> None:
        """Report every key of ``d`` not in ``allowed`` (a typo would otherwise be ignored)."""
        for key in d:
            if key not in allowed:
                self.unknown_key(d, key, allowed, where)

    def unknown_key(self, d: LineDict, key: Any, allowed: tuple[str, ...], where: str) -> None:
        close = difflib.get_close_matches(str(key), allowed, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"{where} takes: {', '.join(allowed)}"
        self.fail(self.line_of(d, key), f"unknown key {key!r} in {where}; {hint}")

    def mapping(self, d: LineDict, key: str, where: str, required: bool = False) -> LineDict | None:
        """The mapping under ``key``, or None (reported if it is required or not a mapping)."""
        value = d.get(key)
        if value is None:
            if required:
                self.fail(self.line_of(d, key), f"{where} needs a `{key}:` block")
            return None
        if not isinstance(value, LineDict):
            self.fail(self.line_of(d, key), f"`{key}` in {where} must be a mapping of `name: value` lines")
            return None
        return value
