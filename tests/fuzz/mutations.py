"""Hypothesis strategies that mangle a shipped data file or a save, one mutation at a time.

Why: players edit these files by hand, tools rewrite them and crashes truncate them;
whatever comes out must be accepted or refused with one clear line. Two families:

* textual mutations work on the bytes (delete, insert, duplicate or swap a line, flip a
  byte, truncate, insert NUL, indent with a tab, a BOM, CRLF ends, random bytes);
* structural mutations work on the parsed value (replace a value by another type: list,
  dict, int, huge int, float, bool, null, long string, control characters, a lone
  surrogate escape, deep nesting, an alias bomb, a timestamp; drop a key or an item, add
  an unknown key, duplicate an item, swap two labels) and write the result back as
  YAML (or JSON for a save), so the file parses and the loaders' checks are exercised.

Every mutant carries a one-line description; hypothesis prints it for a failing example.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tabletop.yamlfile import parse_yaml


class Raw(str):
    """Text written into the mutant as it is (deep nesting, aliases, digits past int())."""


@dataclass(frozen=True)
class Source:
    """One original file: where it sits in the tree, its bytes and its parsed value."""

    rel: str  # "maps/omaha.yaml", "saves/mid.json"
    data: bytes
    tree: Any = field(repr=False)
    fmt: str  # "yaml" or "json"

    @classmethod
    def read(cls, root: Path, rel: str) -> Source:
        data = (root / rel).read_bytes()
        text = data.decode("utf-8")
        fmt = "json" if rel.endswith(".json") else "yaml"
        tree = json.loads(text) if fmt == "json" else plain(parse_yaml(text, rel))
        return cls(rel, data, tree, fmt)


@dataclass(frozen=True)
class Mutant:
    """A mangled copy of ``source``: the bytes to write and what was done."""

    source: str
    how: str
    data: bytes = field(repr=False)

    def __repr__(self) -> str:
        return f"Mutant({self.source}: {self.how}; {len(self.data)} bytes)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis prints a failing example with this: the description, not the bytes."""
        printer.text(repr(self))


def plain(value: Any) -> Any:
    """LineDict/LineList -> dict/list (the mutators copy and rebuild plain values)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# --- writing a value back ------------------------------------------------------------------


def _printable(c: str) -> bool:
    """Characters YAML allows unescaped in a file (YAML 1.1 c-printable)."""
    o = ord(c)
    return (
        o in (0x9, 0xA, 0xD, 0x85)
        or 0x20 <= o <= 0x7E
        or 0xA0 <= o <= 0xD7FF
        or 0xE000 <= o <= 0xFFFD
        or o >= 0x10000
    )


def _quoted(text: str) -> str:
    """A double-quoted scalar valid in YAML and JSON; unprintable characters and lone
    surrogates become \\uXXXX escapes, so the parsed value holds them exactly."""
    body = json.dumps(text, ensure_ascii=False)
    return "".join(c if _printable(c) else f"\\u{ord(c):04x}" for c in body)


def _scalar(value: Any, *, fmt: str) -> str:
    if isinstance(value, Raw):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if fmt == "json":
            return json.dumps(value)  # NaN / Infinity: Python's json reads them back
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        return text if "." in text else text.replace("e", ".0e")  # YAML 1.1 floats need a dot
    return _quoted(str(value))


def _flow(value: Any, fmt: str) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k, fmt)}: {_flow(v, fmt)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v, fmt) for v in value) + "]"
    return _scalar(value, fmt=fmt)


BLOCK_DEPTH = 3  # YAML mutants: block style for the top levels, flow style below


def _block(value: Any, indent: int, depth: int, out: list[str]) -> None:
    pad = " " * indent
    for key, item in value.items() if isinstance(value, dict) else ((None, v) for v in value):
        head = f"{pad}{_flow(key, 'yaml')}:" if isinstance(value, dict) else f"{pad}-"
        if isinstance(item, dict | list) and item and depth + 1 < BLOCK_DEPTH:
            out.append(head)
            _block(item, indent + 2, depth + 1, out)
        else:
            out.append(f"{head} {_flow(item, 'yaml')}")


def dump(value: Any, fmt: str) -> bytes:
    """The value as a file of format ``fmt``; surrogates stay escapes, so it is UTF-8."""
    if fmt == "json" or not isinstance(value, dict | list) or not value:
        text = _flow(value, fmt)
    else:
        out: list[str] = []
        _block(value, 0, 0, out)
        text = "\n".join(out)
    return (text + "\n").encode("utf-8")


# --- structural mutations ------------------------------------------------------------------

LABEL = re.compile(r"^[0-9]{4,6}(/[0-9]{4,6})?$")


def _alias_bomb(levels: int = 10) -> Raw:
    parts = ['&l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    parts += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return Raw("[" + ", ".join(parts) + "]")


def _deep_list(n: int) -> Raw:
    return Raw("[" * n + "]" * n)


def _deep_dict(n: int, fmt: str) -> Raw:
    key = '"a"' if fmt == "json" else "a"
    return Raw(f"{{{key}: " * n + "1" + "}" * n)


def replacements(fmt: str) -> list[tuple[str, Any]]:
    """(description, value) a structural mutation can put in place of any value."""
    out: list[tuple[str, Any]] = [
        ("a list", ["x", 1]),
        ("an empty list", []),
        ("a mapping", {"k": "v"}),
        ("an empty mapping", {}),
        ("an int", 7),
        ("zero", 0),
        ("-1", -1),
        ("a huge int 10**30", 10**30),
        ("an int of 5000 digits", Raw("9" * 5000)),
        ("a float", 2.5),
        ("a float 1e308", 1e308),
        ("infinity", math.inf),
        ("NaN", math.nan),
        ("true", True),
        ("false", False),
        ("null", None),
        ("an empty string", ""),
        ("a 5000-character string", "a" * 5000),
        ("a string with control characters", "a\x00b\x07\x1b[31mc\x7fd\x85e"),
        ("a string with a lone surrogate escape", "x\ud800y"),
        ("a two-line string", "two\nlines"),
        ("a string of only spaces", "   "),
        ("a 70-level nested list", _deep_list(70)),
        ("a 3000-level nested list", _deep_list(3000)),
        ("a 100000-level nested list", _deep_list(100_000)),
        ("a 600-level nested mapping", _deep_dict(600, fmt)),
    ]
    if fmt == "yaml":
        out += [
            ("an alias bomb (9**10 leaves)", _alias_bomb()),
            ("a recursive alias", Raw("&r [*r]")),
            ("a timestamp", Raw("2001-12-14t21:59:43.10-05:00")),
            ("a !!binary tag", Raw("!!binary aGVsbG8=")),
            ("a !!set tag", Raw("!!set {a, b}")),
            ("a merge key mapping", Raw("{<<: {a: 1}, b: 2}")),
        ]
    return out


def _at(tree: Any, path: list[Any]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _shown(path: list[Any]) -> str:
    return "".join(f"[{p!r}]" for p in path) or "the whole file"


@st.composite
def _path(draw: st.DrawFn, tree: Any) -> list[Any]:
    """A random path from the root into the tree (stopping early now and then)."""
    path: list[Any] = []
    node = tree
    while isinstance(node, dict | list) and node:
        if path and draw(st.integers(0, 3)) == 3:
            break
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    return path


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _leaves(tree: Any, path: list[Any], out: list[list[Any]]) -> None:
    if isinstance(tree, dict):
        for k, v in tree.items():
            _leaves(v, [*path, k], out)
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            _leaves(v, [*path, i], out)
    else:
        out.append(path)


STRUCTURAL = ("replace", "drop", "add-key", "duplicate", "swap-labels", "rename-key")


@st.composite
def structural(draw: st.DrawFn, src: Source) -> Mutant:
    """One structural mutation of ``src``'s parsed value, written back."""
    tree = _deep_copy(src.tree)
    op = draw(st.sampled_from(STRUCTURAL))
    path = draw(_path(tree))
    how: str
    if op == "replace" or not path:
        what, value = draw(st.sampled_from(replacements(src.fmt)))
        if path:
            _at(tree, path[:-1])[path[-1]] = value
        else:
            tree = value
        how = f"{_shown(path)} replaced by {what}"
    elif op == "drop":
        parent = _at(tree, path[:-1])
        del parent[path[-1]]
        how = f"{_shown(path)} dropped"
    elif op in ("add-key", "rename-key"):
        dicts = [i for i in range(len(path) + 1) if isinstance(_at(tree, path[:i]), dict)]
        if not dicts:
            return Mutant(src.rel, f"{_shown(path)}: no mapping on the way, unchanged", src.data)
        at = path[: draw(st.sampled_from(dicts))]
        d = _at(tree, at)
        new = draw(st.sampled_from(["zz-unknown", "", "0504", "Name", "a" * 300, 7, True, None]))
        if op == "add-key" or not d:
            d[new] = "x"
            how = f"unknown key {new!r} added to {_shown(at)}"
        else:
            old = draw(st.sampled_from(list(d)))
            if new in d:
                return Mutant(src.rel, f"key {new!r} already in {_shown(at)}, unchanged", src.data)
            items = [(new if k == old else k, v) for k, v in d.items()]
            d.clear()
            d.update(items)
            how = f"key {old!r} of {_shown(at)} renamed to {new!r}"
    elif op == "duplicate":
        lists = [i for i in range(len(path)) if isinstance(_at(tree, path[:i]), list)]
        if not lists:
            return Mutant(src.rel, f"{_shown(path)}: no list on the way, unchanged", src.data)
        i = draw(st.sampled_from(lists))
        parent = _at(tree, path[:i])
        parent.insert(path[i], _deep_copy(parent[path[i]]))
        how = f"{_shown(path[: i + 1])} duplicated"
    else:  # swap-labels
        leaves: list[list[Any]] = []
        _leaves(tree, [], leaves)
        labels = [p for p in leaves if isinstance(_at(tree, p), str) and LABEL.match(_at(tree, p))]
        pool = labels if len(labels) >= 2 else [p for p in leaves if p]
        if len(pool) < 2:
            return Mutant(src.rel, "fewer than two values to swap, unchanged", src.data)
        a = draw(st.sampled_from(pool))
        b = draw(st.sampled_from(pool))
        va, vb = _at(tree, a), _at(tree, b)
        _at(tree, a[:-1])[a[-1]] = vb
        _at(tree, b[:-1])[b[-1]] = va
        how = f"{_shown(a)} ({va!r}) swapped with {_shown(b)} ({vb!r})"
    return Mutant(src.rel, f"structural: {how}", dump(tree, src.fmt))


# --- textual mutations ---------------------------------------------------------------------

GARBAGE_LINES = (
    b"key: value",
    b"  - [",
    b"}",
    b": :",
    b"? complex",
    b"&a *a",
    b"- *undefined",
    b"---",
    b"...",
    b"%YAML 1.1",
    b"!!binary aGk=",
    b'"unterminated',
    b"\x00",
    b"\xff\xfe",
    b"name: [",
    b"<<: *x",
)

TEXTUAL = (
    "delete-line", "insert-line", "garbage-line", "duplicate-line", "swap-lines", "flip-byte",
    "truncate", "insert-nul", "tab-indent", "bom", "crlf", "insert-char", "random-bytes",
)  # fmt: skip


@st.composite
def textual(draw: st.DrawFn, src: Source) -> Mutant:
    """One textual mutation of ``src``'s bytes."""
    data = src.data
    lines = data.split(b"\n")
    op = draw(st.sampled_from(TEXTUAL))
    n = len(lines)
    if op == "delete-line":
        i = draw(st.integers(0, n - 1))
        out, how = b"\n".join(lines[:i] + lines[i + 1 :]), f"line {i + 1} deleted"
    elif op == "insert-line":
        i, j = draw(st.integers(0, n)), draw(st.integers(0, n - 1))
        out, how = b"\n".join([*lines[:i], lines[j], *lines[i:]]), f"line {j + 1} copied before line {i + 1}"
    elif op == "garbage-line":
        i = draw(st.integers(0, n))
        g = draw(st.sampled_from(GARBAGE_LINES))
        out, how = b"\n".join([*lines[:i], g, *lines[i:]]), f"{g!r} inserted before line {i + 1}"
    elif op == "duplicate-line":
        i = draw(st.integers(0, n - 1))
        out, how = b"\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]]), f"line {i + 1} duplicated"
    elif op == "swap-lines":
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        swapped = list(lines)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out, how = b"\n".join(swapped), f"lines {i + 1} and {j + 1} swapped"
    elif op == "flip-byte":
        i, x = draw(st.integers(0, len(data) - 1)), draw(st.integers(1, 255))
        out, how = data[:i] + bytes([data[i] ^ x]) + data[i + 1 :], f"byte {i} xor {x:#04x}"
    elif op == "truncate":
        i = draw(st.integers(0, len(data) - 1))
        out, how = data[:i], f"truncated to {i} bytes"
    elif op == "insert-nul":
        i = draw(st.integers(0, len(data)))
        out, how = data[:i] + b"\x00" + data[i:], f"NUL inserted at byte {i}"
    elif op == "tab-indent":
        i = draw(st.integers(0, n - 1))
        line = lines[i]
        stripped = line.lstrip(b" ")
        tabbed = b"\t" * max(1, (len(line) - len(stripped)) // 2) + stripped
        out, how = b"\n".join([*lines[:i], tabbed, *lines[i + 1 :]]), f"line {i + 1} indented with tabs"
    elif op == "bom":
        out, how = b"\xef\xbb\xbf" + data, "a UTF-8 byte order mark put first"
    elif op == "crlf":
        out, how = data.replace(b"\n", b"\r\n"), "CRLF line ends"
    elif op == "insert-char":
        i = draw(st.integers(0, len(data)))
        c = draw(st.characters(codec="utf-8"))
        out, how = data[:i] + c.encode("utf-8") + data[i:], f"{c!r} inserted at byte {i}"
    else:  # random-bytes
        junk = draw(st.binary(max_size=64))
        out, how = junk, f"the file replaced by {len(junk)} random bytes {junk[:16]!r}..."
    return Mutant(src.rel, f"textual: {how}", out)


def mutants(sources: list[Source]) -> st.SearchStrategy[Mutant]:
    """A textual or a structural mutant of one of ``sources``."""
    picked = st.sampled_from(sources)
    return st.one_of(picked.flatmap(textual), picked.flatmap(structural))
