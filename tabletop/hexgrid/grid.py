"""A rectangular map of hexes counted in printed columns and rows, with CCRR labels.

Knows the shape of a printed map (orientation, offset system, columns x rows) and its
label style (first column/row number, zero padding). Knows nothing of terrain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .coords import Hex
from .layout import Layout, Orientation, check_orientation
from .offset import OffsetSystem, axial_to_offset, check_offset, offset_to_axial


class LabelError(ValueError):
    """A hex label that cannot be read, or names a hex that is not on the map."""


@dataclass(frozen=True)
class LabelFormat:
    """How a map prints hex labels: column number then row number, each zero-padded.

    >>> LabelFormat().format(4, 3)
    '0504'
    >>> LabelFormat(first_column=0, digits=3).format(4, 3)
    '004004'
    """

    first_column: int = 1
    first_row: int = 1
    digits: int = 2

    def __post_init__(self) -> None:
        if not 1 <= self.digits <= 4:
            raise ValueError(f"label digits must be 1 to 4, got {self.digits}")

    def format(self, col: int, row: int) -> str:
        """The label of 0-based (col, row)."""
        d = self.digits
        return f"{col + self.first_column:0{d}d}{row + self.first_row:0{d}d}"

    def parse(self, label: str) -> tuple[int, int]:
        """0-based (col, row) of a label; LabelError if it is not CCRR-shaped."""
        d = self.digits
        text = label.strip()
        if len(text) != 2 * d or not (text.isascii() and text.isdigit()):  # int() refuses '²'
            example = self.format(4, 3)
            raise LabelError(f"hex label {label!r} is not {2 * d} digits (column then row, e.g. {example!r})")
        return (int(text[:d]) - self.first_column, int(text[d:]) - self.first_row)


@dataclass(frozen=True)
class RectGrid:
    """``columns`` x ``rows`` hexes in an offset layout, labelled CCRR.

    Column/row 0 is the first printed one; Hex(0, 0) is column 0, row 0.

    >>> g = RectGrid("flat", "odd-q", columns=10, rows=8)
    >>> g.hex_of("0504"), g.label(Hex(4, 1))
    (Hex(q=4, r=1), '0504')
    >>> g.hex_of("1104")
    Traceback (most recent call last):
    ...
    tabletop.hexgrid.grid.LabelError: hex 1104 is not on the map: columns run 01-10, rows 01-08
    """

    orientation: Orientation
    offset: OffsetSystem
    columns: int
    rows: int
    labels: LabelFormat = field(default_factory=LabelFormat)

    def __post_init__(self) -> None:
        check_orientation(self.orientation)
        check_offset(self.orientation, self.offset)
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"a map needs at least 1 column and 1 row, got {self.columns}x{self.rows}")
        top = 10**self.labels.digits
        last_col = self.columns - 1 + self.labels.first_column
        last_row = self.rows - 1 + self.labels.first_row
        if last_col >= top or last_row >= top or min(self.labels.first_column, self.labels.first_row) < 0:
            raise ValueError(
                f"labels with {self.labels.digits} digits cannot number columns "
                f"{self.labels.first_column}-{last_col} and rows {self.labels.first_row}-{last_row}; "
                "raise labels.digits"
            )

    def layout(self, size: float = 1.0, origin: tuple[float, float] = (0.0, 0.0)) -> Layout:
        """A layout of this grid's orientation at the given hex size."""
        return Layout(self.orientation, (size, size), origin)

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map."""
        col, row = axial_to_offset(self.offset, h)
        return 0 <= col < self.columns and 0 <= row < self.rows

    def offset_of(self, h: Hex) -> tuple[int, int]:
        """0-based (col, row) of ``h``."""
        return axial_to_offset(self.offset, h)

    def hex_at(self, col: int, row: int) -> Hex:
        """The hex at 0-based (col, row)."""
        return offset_to_axial(self.offset, col, row)

    def hexes(self) -> list[Hex]:
        """Every hex on the map, column by column (label order); a new list each time,
        copied from one kept per grid shape (a viewshed, its policy and the window each
        ask), unless the map is too big to keep a second copy of."""
        if self.columns * self.rows > KEEP_HEXES:
            return _hexes_of(self.offset, self.columns, self.rows)
        return list(_kept_hexes(self.offset, self.columns, self.rows))

    def label(self, h: Hex) -> str:
        """The printed label of ``h`` (LabelError if it is off the map)."""
        col, row = axial_to_offset(self.offset, h)
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise LabelError(f"{h} is not on the map ({self.columns} columns x {self.rows} rows)")
        return self.labels.format(col, row)

    def hex_of(self, label: str) -> Hex:
        """The hex a label names; LabelError saying the map's range if it is off the map."""
        col, row = self.labels.parse(label)
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            lf = self.labels
            raise LabelError(
                f"hex {label.strip()} is not on the map: columns run "
                f"{lf.format(0, 0)[: lf.digits]}-{lf.format(self.columns - 1, 0)[: lf.digits]}, "
                f"rows {lf.format(0, 0)[lf.digits :]}-{lf.format(0, self.rows - 1)[lf.digits :]}"
            )
        return offset_to_axial(self.offset, col, row)


#: Grids up to this many hexes keep their list of hexes (about 1.5 MB at 20,000).
KEEP_HEXES = 40_000


def _hexes_of(offset: OffsetSystem, columns: int, rows: int) -> list[Hex]:
    return [offset_to_axial(offset, col, row) for col in range(columns) for row in range(rows)]


@lru_cache(maxsize=4)
def _kept_hexes(offset: OffsetSystem, columns: int, rows: int) -> tuple[Hex, ...]:
    return tuple(_hexes_of(offset, columns, rows))
