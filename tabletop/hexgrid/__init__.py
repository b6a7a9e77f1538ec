"""Pure hex geometry: coordinates, layouts, labels, exact segment traversal.

No game words here: nothing about terrain, units, rules or rendering.
"""

from .coords import (
    DIAGONALS,
    DIRECTIONS,
    ORIGIN,
    Hex,
    Hexside,
    diagonal_neighbors,
    direction,
    direction_to,
    distance,
    hexes_within,
    hexside,
    length,
    neighbor,
    neighbors,
    reflect_q,
    reflect_r,
    reflect_s,
    ring,
    rotate,
    rotate_left,
    rotate_right,
    spiral,
)
from .grid import LabelError, LabelFormat, RectGrid
from .layout import ORIENTATIONS, Layout, Orientation, round_hex
from .offset import OFFSET_SYSTEMS, OffsetSystem, axial_to_offset, offset_to_axial
from .traversal import Graze, Traversal, lattice_point, relative_traversal, traverse

__all__ = [
    "DIAGONALS",
    "DIRECTIONS",
    "OFFSET_SYSTEMS",
    "ORIENTATIONS",
    "ORIGIN",
    "Graze",
    "Hex",
    "Hexside",
    "LabelError",
    "LabelFormat",
    "Layout",
    "OffsetSystem",
    "Orientation",
    "RectGrid",
    "Traversal",
    "axial_to_offset",
    "diagonal_neighbors",
    "direction",
    "direction_to",
    "distance",
    "hexes_within",
    "hexside",
    "lattice_point",
    "length",
    "neighbor",
    "neighbors",
    "offset_to_axial",
    "reflect_q",
    "reflect_r",
    "reflect_s",
    "relative_traversal",
    "ring",
    "rotate",
    "rotate_left",
    "rotate_right",
    "round_hex",
    "spiral",
    "traverse",
]
