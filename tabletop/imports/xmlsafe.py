"""XML from files a player downloaded (a Tiled map, a VASSAL module's buildFile),
parsed with the standard library only after the things it would trust are refused.

Why: Python's ElementTree expands entities a document declares (the "billion laughs"
bomb) and defusedxml is not a dependency, so any DOCTYPE or ENTITY declaration is
refused outright: neither Tiled nor VASSAL writes one. Sizes are bounded first.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

from tabletop.yamlfile import DataError

_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def parse_xml(data: bytes, where: str | Path) -> ElementTree.Element:
    """The root element of ``data``; DataError for a DOCTYPE/ENTITY declaration or XML
    that does not parse."""
    found = _DECLARATION.search(data)
    if found:
        word = found.group(1).decode().upper()
        raise DataError(
            where, data.count(b"\n", 0, found.start()) + 1,
            f"holds a {word} declaration, which tabletop never reads (it can expand without bound); "
            "remove it and import again",
        )  # fmt: skip
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise DataError(
            where, line, f"not well-formed XML ({exc}); save it again from the program that made it"
        ) from None
