"""Safe YAML reading that remembers where every value came from.

Why: every data error a player sees must name the file and the line and say how to fix
it. PyYAML's safe loader gives plain dicts and lists with no positions; this one gives
dict/list subclasses that remember the line of each key and item, refuses duplicate
keys (plain YAML silently keeps the last), and keeps zero-padded numbers such as the
hex label ``0504`` as text instead of reading them as octal integers.

Only plain YAML is accepted: no tags at all (so nothing constructs objects or runs code),
and only values JSON can hold: a date or time reads as text, as does a number too big
to be finite. Every input-driven size is bounded before it costs anything
(``tabletop.limits``): the file's bytes, its nesting depth and its number of values with
every alias expanded, so no file can exhaust the stack, the memory or the time, and
every refusal is a DataError naming the file and the line.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tabletop.inputfile import NotAFile, read_bounded
from tabletop.limits import MESSAGE_CHARS, YAML_BYTES, YAML_DEPTH, YAML_DIGITS, YAML_NODES

_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029\ud800-\udfff]")


def escaped(text: str) -> str:
    """``text`` on one line: control characters, line breaks and lone surrogates shown
    as their escapes."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def one_line(message: str, most: int = MESSAGE_CHARS) -> str:
    """A message as one line a person can read: escaped, and past ``most`` characters
    the middle cut out (where an echoed value runs on), so the start still says what is
    wrong and the end how to fix it."""
    text = escaped(message)
    if len(text) <= most:
        return text
    mark = f" ... ({len(text)} characters, the middle cut) ... "
    room = max(most - len(mark), 2)
    head = room * 2 // 3
    return f"{text[:head]}{mark}{text[head - room:]}"


class DataError(ValueError):
    """One problem in a data file, printed as ``file:line: message`` on one line."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = one_line(message)
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{escaped(where)}: {self.message}")


class DataErrors(ValueError):
    """Several problems found in one pass; str() gives one line each."""

    def __init__(self, errors: list[DataError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


class LineDict(dict):  # type: ignore[type-arg]
    """A mapping read from YAML: ``line`` of the mapping, ``key_lines[key]`` of each key,
    ``text_lines[key]`` of the first content line of a string value."""

    line: int = 0
    key_lines: dict[Any, int]
    text_lines: dict[Any, int]


class LineList(list):  # type: ignore[type-arg]
    """A sequence read from YAML: ``line`` of the sequence, ``item_lines[i]`` of each item."""

    line: int = 0
    item_lines: list[int]


_ZERO_PADDED = re.compile(r"^0[0-9]+$")
#: what YAML's reader refuses as raw text; escapes in double quotes are held to it too
_NOT_ALLOWED = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: implicit types whose values JSON cannot hold (dates, times) or that only confuse (`=`):
#: such plain scalars read as text
_TEXT_TAGS = ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value")
_CORE_PREFIX = "tag:yaml.org,2002:"


def _content_line(node: Node) -> int:
    """1-based line where a value's content starts (a block scalar starts after `|`)."""
    line = node.start_mark.line + 1
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        line += 1
    return line


def _line_at(text: str, position: int) -> int:
    """1-based line of character ``position``, counting line breaks as YAML does."""
    head = text[:position]
    breaks = head.count("\n") + head.count("\r") - head.count("\r\n")
    return 1 + breaks + head.count("\x85") + head.count("\u2028") + head.count("\u2029")


def _not_allowed(code: int) -> str:
    """Why a character cannot be in a data file, and what to do."""
    if 0xD800 <= code <= 0xDFFF:
        return (
            f"\\u{code:04x} is half of a UTF-16 surrogate pair, not a character; "
            "write the character itself (or its \\U00XXXXXX escape)"
        )
    return f"character U+{code:04X} is not allowed in a data file; remove it"


class _Loader(yaml.SafeLoader):
    """SafeLoader with positions, duplicate-key refusal and zero-padded numbers as text,
    which refuses tags, unprintable characters and sizes beyond ``tabletop.limits``.

    The size checks run while composing, one node at a time, before anything below the
    node is read: ``depth`` (collections open around the current node) never passes
    YAML_DEPTH, so neither the composer nor the constructor can recurse past Python's
    limit; ``values`` counts every node with each alias counted as the values it stands
    for, from ``weights`` (values and height of each anchored node, known once it is
    composed), so a billion laughs is refused in time linear in the file's size.
    """

    def __init__(self, text: str, path: Path | str) -> None:
        super().__init__(text)  # yaml.reader.ReaderError: an unprintable character
        self.name = str(path)
        self.depth = 0
        self.deepest = 0  # deepest level reached (aliases expanded) since the innermost anchor
        self.values = 0
        self.expanded = 0  # of ``values``, those that aliases stand for
        self.weights: dict[int, tuple[int, int]] = {}

    def refuse(self, line: int, message: str) -> DataError:
        return DataError(self.name, line, message)

    def count(self, values: int, line: int) -> None:
        """Add ``values`` to the file's total; refused past YAML_NODES."""
        self.values += values
        if self.values > YAML_NODES:
            if self.expanded:
                raise self.refuse(
                    line,
                    f"aliases expand to more than {YAML_NODES} values (limits.YAML_NODES) by "
                    "this line; write the values out or use fewer aliases",
                )
            raise self.refuse(
                line,
                f"more than {YAML_NODES} values (limits.YAML_NODES) by this line; "
                "a data file needs far fewer, so split or shorten it",
            )

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        """PyYAML's compose_node (without path resolvers, which tabletop does not use)
        with the checks above made before the node is composed."""
        event = self.peek_event()  # type: ignore[no-untyped-call]
        line = event.start_mark.line + 1
        anchor = event.anchor  # type: ignore[attr-defined]
        if type(event) is AliasEvent:
            self.get_event()  # type: ignore[no-untyped-call]
            if anchor not in self.anchors:
                raise ComposerError(
                    None,
                    None,
                    f"found undefined alias {anchor!r}",
                    event.start_mark,  # type: ignore[arg-type]
                )
            node: Node = self.anchors[anchor]
            self.expand(node, anchor, line)
            return node
        tag = event.tag  # type: ignore[attr-defined]
        if tag is not None and tag != "!":
            shown = "!!" + tag[len(_CORE_PREFIX) :] if tag.startswith(_CORE_PREFIX) else tag
            raise self.refuse(
                line, f"{shown} is a YAML tag; data files are plain YAML and tags are not allowed"
            )
        if anchor is not None and anchor in self.anchors:
            raise ComposerError(
                f"found duplicate anchor {anchor!r}; first occurrence",
                self.anchors[anchor].start_mark,
                "second occurrence",
                event.start_mark,
            )
        if type(event) is ScalarEvent:
            self.count(1, line)
            if event.style == '"':
                bad = _NOT_ALLOWED.search(event.value)
                if bad:
                    raise self.refuse(line, _not_allowed(ord(bad.group())))
            node = self.compose_scalar_node(anchor)
            if anchor is not None:
                self.weights[id(node)] = (1, 0)
            return node
        if self.depth >= YAML_DEPTH:
            raise self.refuse(
                line,
                f"values nested more than {YAML_DEPTH} levels deep (limits.YAML_DEPTH); "
                "a data file needs a few levels, so flatten or remove this value",
            )
        self.depth += 1
        before, outer = self.values, self.deepest
        self.count(1, line)
        self.deepest = max(self.deepest, self.depth) if anchor is None else self.depth
        if type(event) is SequenceStartEvent:
            node = self.compose_sequence_node(anchor)
        else:
            node = self.compose_mapping_node(anchor)
        if anchor is not None:
            self.weights[id(node)] = (self.values - before, self.deepest - self.depth + 1)
            self.deepest = max(outer, self.deepest)
        self.depth -= 1
        return node

    def expand(self, node: Node, anchor: str, line: int) -> None:
        """Count an alias as the values it stands for; refuse it inside its own anchor."""
        weight = self.weights.get(id(node))
        if weight is None:
            raise self.refuse(
                line,
                f"alias *{anchor} is used inside &{anchor} itself, which makes an endless "
                "value; write the value out instead",
            )
        values, height = weight
        if self.depth + height > YAML_DEPTH:
            raise self.refuse(
                line,
                f"with alias *{anchor} expanded, values nest more than {YAML_DEPTH} levels deep "
                "(limits.YAML_DEPTH); write a flatter value instead",
            )
        self.deepest = max(self.deepest, self.depth + height)
        self.expanded += values
        self.count(values, line)

    def construct_yaml_int(self, node: ScalarNode) -> int | str:  # type: ignore[override]
        text = self.construct_scalar(node)
        if isinstance(text, str) and _ZERO_PADDED.match(text.replace("_", "")):
            return text
        if isinstance(text, str) and len(text) > YAML_DIGITS:
            raise DataError(
                self.name,
                node.start_mark.line + 1,
                f"a number of {len(text)} characters; numbers in data files have at most "
                f"{YAML_DIGITS} (limits.YAML_DIGITS)",
            )
        return super().construct_yaml_int(node)  # type: ignore[no-any-return]

    def construct_yaml_float(self, node: ScalarNode) -> float | str:  # type: ignore[override]
        """A float, or the text as written when it is not finite (JSON has no .inf or .nan)."""
        value = super().construct_yaml_float(node)
        return value if math.isfinite(value) else str(self.construct_scalar(node))

    def construct_line_dict(self, node: MappingNode) -> LineDict:
        out = LineDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        out.text_lines = {}
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
            try:
                hash(key)
            except TypeError:
                raise DataError(
                    self.name, key_node.start_mark.line + 1, "a mapping key must be plain text"
                ) from None
            if key in out:
                raise DataError(
                    self.name,
                    key_node.start_mark.line + 1,
                    f"duplicate key {key!r} (first at line {out.key_lines[key]}); keep one of them",
                )
            out[key] = self.construct_object(value_node, deep=True)  # type: ignore[no-untyped-call]
            out.key_lines[key] = key_node.start_mark.line + 1
            out.text_lines[key] = _content_line(value_node)
        return out

    def construct_line_list(self, node: SequenceNode) -> LineList:
        out = LineList(
            self.construct_object(child, deep=True)  # type: ignore[no-untyped-call]
            for child in node.value
        )
        out.line = node.start_mark.line + 1
        out.item_lines = [child.start_mark.line + 1 for child in node.value]
        return out


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in _TEXT_TAGS]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_yaml_float)
# `x: <<` (the merge key's word, out of a key) is text
_Loader.add_constructor("tag:yaml.org,2002:merge", _Loader.construct_yaml_str)  # type: ignore[type-var]
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_line_dict)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_line_list)


def _refuse_size(data: bytes, path: Path | str) -> None:
    """DataError if ``data`` (a file's bytes, or its first YAML_BYTES + 1) is too big."""
    if len(data) > YAML_BYTES:
        raise DataError(
            path,
            data.count(b"\n", 0, YAML_BYTES) + 1,
            f"the file passes {YAML_BYTES // 2**20} MiB (limits.YAML_BYTES) on this line; "
            "a data file is far smaller, so remove what does not belong (a long comment?)",
        )


def parse_yaml(text: str, path: Path | str) -> Any:
    """Parse YAML text safely; any problem becomes a DataError naming ``path`` and the line."""
    if len(text) > YAML_BYTES // 4:  # only then can its UTF-8 pass YAML_BYTES
        _refuse_size(text.encode("utf-8", "surrogatepass"), path)
    if "\t" in text:
        for number, row_text in enumerate(text.splitlines(), start=1):
            stripped = row_text.lstrip(" ")
            if stripped.startswith("\t"):
                raise DataError(
                    path,
                    number,
                    "indented with a tab; YAML indentation must be spaces, so replace the tab with spaces",
                )
    try:
        loader = _Loader(text, path)
    except yaml.reader.ReaderError as exc:
        raise DataError(path, _line_at(text, exc.position), _not_allowed(exc.character)) from None
    try:
        return loader.get_single_data()
    except DataError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "not valid YAML"
        if isinstance(exc, yaml.constructor.ConstructorError) and "tag" in problem:
            problem = (
                f"{problem.split(' for the tag ')[-1]} is a YAML tag; data files are plain "
                "YAML and tags are not allowed"
            )
        lines = text.splitlines()
        suspects = [n for n in (line, exc.context_mark.line + 1 if exc.context_mark else None) if n]
        suspects += [n - 1 for n in suspects if n > 1]
        for suspect in sorted(set(suspects)):
            if suspect <= len(lines) and re.search(r":\s+#", lines[suspect - 1]):
                line = suspect
                problem += ' (an unquoted # starts a comment: quote colours, e.g. "#2f5f8a")'
                break
        raise DataError(path, line, f"not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise DataError(path, None, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def read_yaml(path: Path) -> Any:
    """Read and parse a YAML file (UTF-8); missing, unreadable or too big files become
    DataError. No more than YAML_BYTES + 1 bytes are ever read."""
    try:
        data = read_bounded(path, YAML_BYTES)
        _refuse_size(data, path)
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text
    except FileNotFoundError:
        raise DataError(path, None, "no such file") from None
    except NotAFile as exc:
        raise DataError(path, None, f"{exc.why}; give a YAML file") from None
    except UnicodeDecodeError as exc:
        raise DataError(path, None, f"not UTF-8 text ({exc.reason}); save it as UTF-8") from None
    except OSError as exc:
        raise DataError(path, None, f"cannot read: {exc.strerror}") from None
    return parse_yaml(text, path)


def read_data(path: Path) -> Any:
    """``read_yaml`` for loaders that report every problem at once: a file that cannot be
    read or parsed raises DataErrors holding its one DataError."""
    try:
        return read_yaml(path)
    except DataError as exc:
        raise DataErrors([exc]) from None
