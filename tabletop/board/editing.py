"""A map file as an editable document: the edits `tabletop edit` makes, undo and redo,
live validation, and saving that keeps the file a person wrote.

Why a round-trip document: a map file is written and read by people (comments saying
where the ground comes from, keys in a chosen order, the terrain as a picture in
``rows: |``). The edits change the YAML itself, through ruamel.yaml's round-trip mode,
so a saved file keeps its comments, key order, quoting and block style; a painted hex
changes one symbol of its row, in place. ruamel.yaml re-spaces some lines it writes
(aligned flow mappings); every line an edit did not touch is kept exactly as the file
had it (``_keep_lines``). The file is first read with the project's safe
loader (``load_map``: no tags, bounded size), so nothing reaches the round-trip reader
that the loader refuses; the round-trip reader builds plain mappings, lists and
strings, never objects.

After every edit the document is dumped and read back through the same loader and the
same rule-system check as ``tabletop validate`` (``problems``), so the editor shows
exactly the messages the validator would print for the file it would save. Undo and
redo keep the dumped text of each state: exact, and small next to a map's tiles.
"""

from __future__ import annotations

import difflib
import io
import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

from tabletop.atomicfile import write_atomic
from tabletop.hexgrid import Hex, hexside
from tabletop.yamlfile import DataError, DataErrors, parse_yaml

from .loader import build_map, load_map
from .model import Map

TOKEN = re.compile(r"\S+")
UNDO_DEPTH = 200  # states kept for undo
NEW_COLOURS = ("#8a6d3b", "#5d6d7e", "#b03a2e", "#2e86c1", "#7d3c98", "#d68910", "#117a65")
SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+*#@&=$<>!?"


def round_trip() -> YAML:
    """The round-trip reader and writer every editable document uses."""
    y = YAML()  # round-trip: comments, order, quotes and block styles kept
    y.preserve_quotes = True
    y.width = 96  # a list an edit rewrites is wrapped to about this width (untouched lines stay as written)
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def flow(items: list[Any]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def same_label(key: Any, label: str) -> bool:
    """Whether a YAML key names the hex ``label``: ``"0504"`` or an unquoted 0504 (read
    as the number 504)."""
    if isinstance(key, bool):
        return False
    if isinstance(key, int):
        return str(key).zfill(len(label)) == label
    return str(key) == label


class YamlDocument:
    """A YAML data file being edited: its round-trip document, its problems as the
    validator gives them, undo and redo, and saving that keeps what its author wrote.
    A kind of file says how it is checked (``rebuild``)."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.doc: CommentedMap = round_trip().load(text)
        self.problems: list[DataError] = []
        self._undo: list[str] = []
        self._redo: list[str] = []
        self._stroke = False  # a stroke is open (``begin_stroke``): its edits are one undo step
        self._joining = False  # ... and its first edit is already on the undo list
        self._written = (text, dump(self.doc))  # the file as last read or saved, and ruamel's dump of it
        self._text: str | None = None  # ``text()`` until the document next changes
        self._saved = self.text()

    def text(self) -> str:
        """The file as it would be saved now (worked out once per change: the window
        asks every frame whether there are unsaved edits, and a dump of a large map
        takes tens of milliseconds)."""
        if self._text is None:
            self._text = keep_lines(*self._written, dump(self.doc))
        return self._text

    @property
    def unsaved(self) -> bool:
        return self.text() != self._saved

    def rebuild(self, text: str) -> None:
        """Read ``text`` back as the loader would, setting ``problems``; what the kind of
        file builds stays the last good one while the text does not load."""
        try:
            self.problems = self.build(text)
        except DataErrors as exc:
            self.problems = list(exc.errors)
        except DataError as exc:
            self.problems = [exc]

    def build(self, text: str) -> list[DataError]:
        """Load ``text`` (DataErrors if it does not), keep what it builds, and return the
        problems of what loaded (a rule system's, a solver's)."""
        raise NotImplementedError

    def _edit(self, change: Any) -> bool:
        """Apply ``change`` (a function of the document returning whether it changed it),
        keeping the state before it for undo."""
        before = self.text()
        changed = change()
        self._text = None
        if not changed:
            return False
        if not self._joining:
            self._undo.append(before)
            del self._undo[:-UNDO_DEPTH]
        self._joining = self._stroke
        self._redo.clear()
        self.rebuild(self.text())
        return True

    def begin_stroke(self) -> None:
        """The edits from now until ``end_stroke`` undo and redo as one step: a brush
        stroke painting ten hexes is one Ctrl+Z, as in any paint program."""
        self._stroke, self._joining = True, False

    def end_stroke(self) -> None:
        self._stroke = self._joining = False

    def undo(self) -> bool:
        return self._step(self._undo, self._redo)

    def redo(self) -> bool:
        return self._step(self._redo, self._undo)

    def _step(self, source: list[str], target: list[str]) -> bool:
        self._joining = False  # an edit after an undo mid-stroke starts a step of its own
        if not source:
            return False
        target.append(self.text())
        text = source.pop()
        self.doc = round_trip().load(text)
        self._text = None
        self.rebuild(text)
        return True

    def save(self) -> None:
        """Write the file atomically (WriteError, file unchanged, if it cannot be)."""
        text = self.text()
        write_atomic(self.path, text)
        self._saved = text
        self._written = (text, dump(self.doc))


class MapDocument(YamlDocument):
    """The map file being edited, and the map it builds."""

    def __init__(self, path: Path, text: str, board: Map) -> None:
        super().__init__(path, text)
        self.board = board
        self.problems = _rules_problems(board)

    @classmethod
    def open(cls, path: Path) -> MapDocument:
        """The map at ``path`` (DataErrors, as ``tabletop validate`` gives them, when it
        does not load: a broken file is fixed in a text editor first)."""
        board = load_map(path)
        assert board.path is not None
        return cls(board.path, board.path.read_text(encoding="utf-8"), board)

    def build(self, text: str) -> list[DataError]:
        self.board = build_map(parse_yaml(text, self.path), self.path)
        return _rules_problems(self.board)

    # --- terrain and elevation ---------------------------------------------------------

    def terrain_keys(self) -> list[str]:
        return [str(k) for k in self.doc.get("terrain", {})]

    def paint(self, h: Hex, terrain: str) -> bool:
        """Give hex ``h`` the terrain ``terrain`` (a declared key): its symbol written into
        ``rows`` in place, or an entry of ``hexes`` on a map without rows."""
        if terrain not in self.doc.get("terrain", {}) or self.board.terrain.get(h) == terrain:
            return False
        label = self.board.label(h)

        def change() -> bool:
            dropped = _drop_label(self.doc, "hexes", label)
            if "rows" in self.doc:
                symbol = str(self.doc["terrain"][terrain]["symbol"])
                return _set_token(self.doc, "rows", self.board, h, symbol) or dropped
            if terrain != self.doc.get("default_terrain"):
                self.doc.setdefault("hexes", CommentedMap())[quoted(label)] = terrain
            return True

        return self._edit(change)

    def set_elevation(self, h: Hex, level: int) -> bool:
        """Hex ``h`` at ``level``: written into ``elevation.rows`` in place, else as an
        entry of ``elevation.hexes`` (none when it is the default)."""
        if self.board.elevation.get(h) == level:
            return False
        label = self.board.label(h)

        def change() -> bool:
            block = self.doc.setdefault("elevation", CommentedMap())
            dropped = _drop_label(block, "hexes", label)
            if "rows" in block:
                return _set_token(block, "rows", self.board, h, str(level)) or dropped
            if level != block.get("default", 0):
                block.setdefault("hexes", CommentedMap())[quoted(label)] = level
            return True

        return self._edit(change)

    # --- hex features, hexsides and regions --------------------------------------------

    def toggle_feature(self, key: str, h: Hex) -> bool:
        """Put the hex feature ``key`` (a road) on ``h``, or take it off."""
        return self._toggle_listed("features", key, "hexes", self.board.label(h))

    def toggle_hexside(self, key: str, a: Hex, b: Hex) -> bool:
        """Put the hexside feature ``key`` (a wall) on the edge between adjacent ``a`` and
        ``b``, or take it off (either spelling of the pair counts)."""
        if hexside(a, b) is None:
            return False
        one, two = self.board.label(a), self.board.label(b)
        spec = self.doc.get("hexsides", {}).get(key)
        if not isinstance(spec, dict):
            return False
        listed = spec.get("between") or []
        found = [i for i, pair in enumerate(listed) if str(pair).replace(" ", "") in (f"{one}/{two}", f"{two}/{one}")]

        def change() -> bool:
            if found:
                for i in reversed(found):
                    del spec["between"][i]
            else:
                spec.setdefault("between", flow([])).append(f"{one}/{two}")
            return True

        return self._edit(change)

    def toggle_region(self, key: str, h: Hex) -> bool:
        """Add ``h`` to region ``key`` or take it out. A region given by column and row
        spans becomes an explicit list of its hexes first (the loader reads ``hexes``
        instead of spans). A region is never left empty (the loader refuses that)."""
        spec = self.doc.get("regions", {}).get(key)
        region = self.board.regions.get(key)
        if not isinstance(spec, dict) or region is None:
            return False
        if h in region.hexes and len(region.hexes) == 1:
            return False
        label = self.board.label(h)

        def change() -> bool:
            if "hexes" not in spec:
                members = [quoted(x) for x in sorted(self.board.label(x) for x in region.hexes)]
                for span in ("columns", "rows"):
                    spec.pop(span, None)
                spec["hexes"] = flow(members)
            _toggle(spec["hexes"], label)
            return True

        return self._edit(change)

    def _toggle_listed(self, block: str, key: str, list_key: str, label: str) -> bool:
        spec = self.doc.get(block, {}).get(key)
        if not isinstance(spec, dict):
            return False

        def change() -> bool:
            _toggle(spec.setdefault(list_key, flow([])), label)
            return True

        return self._edit(change)

    # --- new kinds --------------------------------------------------------------------------

    def add_kind(
        self, block: str, first: Hex | None = None, key: str | None = None, kind: str = "zone"
    ) -> str | None:
        """Declare a new terrain type, hex feature, hexside feature or region (``block``:
        terrain, features, hexsides, regions) with a fresh key (``key`` if free), a
        colour and, for terrain, an unused symbol; a region begins with the hex
        ``first`` (a region is never empty), of ``kind``. Its key; the player renames
        it in the file."""
        taken = set(self.doc.get(block) or {})
        stem = {"terrain": "terrain", "features": "feature", "hexsides": "hexside", "regions": "region"}[block]
        if key is None or key in taken:
            key = next(f"{stem}-{n}" for n in range(1, len(taken) + 2) if f"{stem}-{n}" not in taken)
        colour = NEW_COLOURS[len(taken) % len(NEW_COLOURS)]
        spec = CommentedMap()
        if block == "terrain":
            used = {str(t.get("symbol")) for t in self.doc["terrain"].values() if isinstance(t, dict)}
            symbol = next((c for c in SYMBOLS if c not in used), None)
            if symbol is None:
                return None
            spec.update({"symbol": symbol, "colour": colour, "name": key.replace("-", " ").capitalize()})
            spec.fa.set_flow_style()
        elif block == "regions":
            if first is None:
                return None
            spec.update({"kind": kind, "name": key, "hexes": flow([quoted(self.board.label(first))])})
        else:
            spec.update({"colour": colour, "name": key.replace("-", " ").capitalize()})
            spec["hexes" if block == "features" else "between"] = flow([])

        def change() -> bool:
            self.doc.setdefault(block, CommentedMap())[key] = spec
            return True

        return key if self._edit(change) else None

    # --- the background picture --------------------------------------------------------

    def set_alignment(self, origin: tuple[float, float], scale: tuple[float, float]) -> bool:
        """The background picture's origin and scale (``tabletop/board/align.py`` works
        them out from clicked hex centres), rounded to a hundredth of a pixel."""
        block = self.doc.get("background")
        if not isinstance(block, dict):
            return False

        def change() -> bool:
            block["origin"] = flow([round(origin[0], 2), round(origin[1], 2)])
            block["scale"] = flow([round(scale[0], 4), round(scale[1], 4)])
            return True

        return self._edit(change)

    def set_background(self, image: str, origin: tuple[float, float], scale: tuple[float, float]) -> bool:
        """Name a background picture (a file already inside the map's folder)."""

        def change() -> bool:
            block = CommentedMap()
            block["image"] = image
            block["origin"] = flow([round(origin[0], 2), round(origin[1], 2)])
            block["scale"] = flow([round(scale[0], 4), round(scale[1], 4)])
            self.doc["background"] = block
            return True

        return self._edit(change)


def quoted(label: str) -> DoubleQuotedScalarString:
    """A hex label as the shipped files write it, ``"0504"`` (unquoted, YAML would read
    the number 504)."""
    quoted: DoubleQuotedScalarString = DoubleQuotedScalarString(label)
    return quoted


def _toggle(listed: Any, label: str) -> None:
    """``label`` out of the YAML list ``listed`` if it is there (however spelt), else in."""
    found = [i for i, x in enumerate(listed) if same_label(x, label)]
    for i in reversed(found):
        del listed[i]
    if not found:
        listed.append(quoted(label))


def _drop_label(block: Any, key: str, label: str) -> bool:
    """Take ``label``'s entry out of the mapping ``block[key]`` (the whole key when it
    empties); whether there was one."""
    overrides = block.get(key)
    if not isinstance(overrides, dict):
        return False
    found = [k for k in overrides if same_label(k, label)]
    for k in found:
        del overrides[k]
    if not overrides:
        del block[key]
    return bool(found)


def dump(doc: Any) -> str:
    """The document as ruamel.yaml writes it, without the space it leaves at the end of
    a flow mapping it wraps."""
    buffer = io.StringIO()
    round_trip().dump(doc, buffer)
    return "\n".join(line.rstrip(" ") for line in buffer.getvalue().split("\n"))


COMMENT = re.compile(r"(?:^|\s)(#.*)$")


def _norm(line: str) -> str:
    return " ".join(line.split())


def keep_lines(written: str, written_dump: str, dumped: str) -> str:
    """``dumped`` (ruamel's dump of the edited document) with every part an edit did not
    touch taken from ``written`` (the file as the person wrote it) instead.

    ``written_dump`` is ruamel's dump of the file as written: it lines up with the file
    except where ruamel re-spaced a line or joined a flow list written over several
    lines. Those correspondences (segments) come from matching lines by their words;
    the edit's changes come from comparing the two dumps exactly. An untouched segment
    is the person's text; a touched one is ruamel's, with any comment of the person's
    that ruamel dropped from inside a flow list kept on a line of its own above it."""
    old = written.splitlines(keepends=True)
    d0 = written_dump.splitlines(keepends=True)
    d1 = dumped.splitlines(keepends=True)
    segments = []  # (d0 from, d0 to, file from, file to): a line each where they match
    matcher = difflib.SequenceMatcher(None, [_norm(x) for x in d0], [_norm(x) for x in old], autojunk=False)
    for tag, i1, i2, o1, o2 in matcher.get_opcodes():
        if tag == "equal":
            segments += [(i1 + n, i1 + n + 1, o1 + n, o1 + n + 1) for n in range(i2 - i1)]
        else:
            segments.append((i1, i2, o1, o2))
    changes = difflib.SequenceMatcher(None, d0, d1, autojunk=False).get_opcodes()
    owner = [0] * (len(d0) + 1)  # the segment of each line of the first dump
    for k, (i1, i2, _, _) in enumerate(segments):
        for i in range(i1, i2):
            owner[i] = k
    owner[len(d0)] = len(segments) - 1 if segments else 0
    touched: set[int] = set()
    for tag, i1, i2, _, _ in changes:
        if tag == "equal":
            continue
        lines = range(i1, i2) if i2 > i1 else [max(0, i1 - 1)]  # an insertion: the segment before it
        touched |= {owner[i] for i in lines if i < len(d0)} or {owner[len(d0)]}

    def at(a: int, end: bool) -> int:
        """The place in ``d1`` of the boundary before line ``a`` of ``d0``."""
        found = []
        for tag, i1, i2, j1, j2 in changes:
            if tag == "equal":
                if i1 <= a <= i2:
                    found.append(j1 + a - i1)
                continue
            if a == i1:
                found.append(j1)
            if a == i2:
                found.append(j2)
        return (max if end else min)(found) if found else len(d1)

    out: list[str] = []
    k = 0
    while k < len(segments):
        i1, i2, o1, o2 = segments[k]
        if k not in touched:
            out += old[o1:o2]
            k += 1
            continue
        first_o, first_i = o1, i1
        while k < len(segments) and k in touched:
            _, i2, _, o2 = segments[k]
            k += 1
        fresh = d1[at(first_i, end=False) : at(i2, end=True)]
        out += _lost_comments(old[first_o:o2], fresh) + fresh
    return "".join(out)


def _lost_comments(before: list[str], after: list[str]) -> list[str]:
    """The comments of ``before`` that ``after`` no longer has, each on a line of its
    own, indented as ``after`` begins."""
    text = "".join(after)
    first = after[0] if after else ""
    indent = first[: len(first) - len(first.lstrip(" "))]
    lost = []
    for line in before:
        found = COMMENT.search(line.rstrip("\n"))
        if found and found.group(1) not in text:
            lost.append(f"{indent}{found.group(1)}\n")
    return lost


def _set_token(block: Any, key: str, board: Map, h: Hex, token: str) -> bool:
    """Write ``token`` as hex ``h``'s entry of the rows block ``block[key]`` (a text block
    or a list of lines), in place: the other entries and the spacing stay as written
    (a wider token shifts the rest of its line only)."""
    col, row = board.grid.offset_of(h)
    value = block[key]
    lines = value.split("\n") if isinstance(value, str) else [str(x) for x in value]
    spans = list(TOKEN.finditer(lines[row]))
    start, end = spans[col].span()
    if lines[row][start:end] == token:
        return False
    lines[row] = lines[row][:start] + token + lines[row][end:]
    if isinstance(value, str):
        block[key] = LiteralScalarString("\n".join(lines))
    else:
        value[row] = lines[row]
    return True


def _rules_problems(board: Map) -> list[DataError]:
    from tabletop.engine.scenario import map_rules_errors

    return map_rules_errors(board)
