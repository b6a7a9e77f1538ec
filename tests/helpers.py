"""Small maps drawn in a test, for rule tests that need a particular piece of ground."""

from __future__ import annotations

from pathlib import Path

from tabletop.board import Map, build_map
from tabletop.yamlfile import parse_yaml


def small_map(text: str, name: str = "test-map.yaml") -> Map:
    """Build a Map from YAML text (see maps/FORMAT.md); DataErrors if it is wrong."""
    return build_map(parse_yaml(text, name), Path(name))
