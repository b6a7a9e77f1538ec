"""Safe YAML reading that remembers where every value came from.

Why: every data error a player sees must name the file and the line and say how to fix
it. PyYAML's safe loader gives plain dicts and lists with no positions; this one gives
dict/list subclasses that remember the line of each key and item, refuses duplicate
keys (plain YAML silently keeps the last), and keeps zero-padded numbers such as the
hex label ``0504`` as text instead of reading them as octal integers.

Only the safe subset of YAML is accepted: no tags that construct objects, no code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


class DataError(ValueError):
    """One problem in a data file, printed as ``file:line: message``."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


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


def _content_line(node: Node) -> int:
    """1-based line where a value's content starts (a block scalar starts after `|`)."""
    line = node.start_mark.line + 1
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        line += 1
    return line


class _Loader(yaml.SafeLoader):
    """SafeLoader with positions, duplicate-key refusal and zero-padded numbers as text."""

    def construct_yaml_int(self, node: ScalarNode) -> int | str:  # type: ignore[override]
        text = self.construct_scalar(node)
        if isinstance(text, str) and _ZERO_PADDED.match(text.replace("_", "")):
            return text
        return super().construct_yaml_int(node)  # type: ignore[no-any-return]

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


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_line_dict)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_line_list)


def parse_yaml(text: str, path: Path | str) -> Any:
    """Parse YAML text safely; any problem becomes a DataError naming ``path`` and the line."""
    if "\t" in text:
        for number, row_text in enumerate(text.splitlines(), start=1):
            stripped = row_text.lstrip(" ")
            if stripped.startswith("\t"):
                raise DataError(
                    path,
                    number,
                    "indented with a tab; YAML indentation must be spaces, so replace the tab with spaces",
                )
    loader = _Loader(text)
    loader.name = str(path)
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
    """Read and parse a YAML file (UTF-8); missing or unreadable files become DataError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(path, None, "no such file") from None
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
