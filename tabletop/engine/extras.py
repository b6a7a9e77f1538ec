"""What a rule system adds to the window: panels, overlays and extra moves, as plain data.

A rule system's descriptor names a loader, ``RuleSystem.window``, that returns a
``WindowExtras``. The window asks it again each time the game changes (played, undone,
loaded, or handed to another side), never every frame, and draws the answer: it knows
no game by name, and the extras decide nothing the window shows beyond what they return.

- ``panels(seen, selected)``: boxes of text docked at a side of the window (a hand of
  cards, sector card spaces, tracks and pools, a model sheet);
- ``overlays(seen)``: hex marks switched on by a key (fields of fire, ranges, arcs), each
  with its legend; ``tabletop render --extra KEY`` draws one too;
- ``extra_moves(state, piece)``: the hexes a unit may reach outside its move policy's
  reach (a jet pack), each with its reason; ``tabletop reach`` lists them beside the
  policy's reach and the window's reach overlay shows them apart.

What the extras are given is what the side at the screen may know (issue 12, E2):
``seen`` is ``seen_by(game, side)``, the side's ``SideView`` in a two-sided game (its
``state`` has the other sides' hidden cards and secret choices left out), and the
game's own ``GameState`` in a solitaire game or free play, or when no side sits at the
screen (bots play every seat: the window shows the whole table). ``extra_moves`` gets
the map of that same state (``tabletop reach`` has only a scenario's map). So a panel
can never draw an opponent's secret: it is never handed one.

Knows nothing of pygame: styles are words (``STYLES``) or ``#rrggbb`` colours that the
window maps to its colours and pictograms (``tabletop.ui.extras``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, runtime_checkable

from tabletop.engine.game import Game, SideView
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

#: the mark styles the window knows: the fields of fire's three intensities (Omaha's
#: ● ⊕ ○), then good / bad / info for anything else; or an explicit ``#rrggbb`` colour
STYLES = ("intense", "steady", "sporadic", "good", "bad", "info")
#: how a panel row may stand out
EMPHASES = ("plain", "strong", "dim", "good", "bad")
LABEL_MOST = 8  # characters of a mark's label: it sits inside a hex
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

#: what panels and overlays are given: the side's view in a two-sided game, else the state
Seen: TypeAlias = GameState | SideView


def _check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be text, got {type(value).__name__} {value!r}")
    return value


def check_style(style: object) -> str:
    """``style`` itself if it is one of ``STYLES`` or a ``#rrggbb`` colour, else ValueError."""
    text = _check_text(style, "a mark style")
    if text not in STYLES and not _COLOUR.match(text):
        raise ValueError(f"mark style {text!r} is not one of {', '.join(STYLES)} or a #rrggbb colour")
    return text


@dataclass(frozen=True)
class Row:
    """One line of a panel; the window wraps it to the panel's width, never cuts it."""

    text: str
    emphasis: str = "plain"  # one of EMPHASES

    def __post_init__(self) -> None:
        _check_text(self.text, "a panel row")
        if self.emphasis not in EMPHASES:
            raise ValueError(f"row emphasis {self.emphasis!r} is not one of {', '.join(EMPHASES)}")


@dataclass(frozen=True)
class Panel:
    """A box of text the window docks at its side, under ``title``; ``key`` names it
    (the window remembers by it which panels the player collapsed). Rows may be given
    as plain text: they become plain ``Row``s.

    >>> Panel("hand", "Your hand", ("3", Row("1", "dim"))).rows[1]
    Row(text='1', emphasis='dim')
    """

    key: str
    title: str
    rows: tuple[Row, ...] = ()

    def __init__(self, key: str, title: str, rows: Iterable[Row | str] = ()) -> None:
        object.__setattr__(self, "key", _check_text(key, "a panel key"))
        object.__setattr__(self, "title", _check_text(title, "a panel title"))
        object.__setattr__(self, "rows", tuple(r if isinstance(r, Row) else Row(r) for r in rows))


@dataclass(frozen=True)
class Mark:
    """One hex of an overlay: its style and an optional short label drawn in it."""

    hex: Hex
    style: str
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.hex, Hex):
            raise TypeError(f"a mark's hex must be a Hex, got {type(self.hex).__name__} {self.hex!r}")
        check_style(self.style)
        label = _check_text(self.label, "a mark label")
        if len(label) > LABEL_MOST or "\n" in label:
            raise ValueError(f"mark label {label!r} is longer than {LABEL_MOST} characters on one line")


@dataclass(frozen=True)
class LegendEntry:
    """A line of an overlay's legend: the swatch of ``style`` (None: text only) and what it means."""

    style: str | None
    text: str

    def __post_init__(self) -> None:
        if self.style is not None:
            check_style(self.style)
        _check_text(self.text, "a legend entry")


@dataclass(frozen=True)
class Overlay:
    """Marks on hexes, with a legend; ``key`` is how ``render --extra`` names it."""

    key: str
    title: str
    legend: tuple[LegendEntry, ...] = ()
    marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        _check_text(self.key, "an overlay key")
        _check_text(self.title, "an overlay title")
        object.__setattr__(self, "legend", tuple(self.legend))
        object.__setattr__(self, "marks", tuple(self.marks))


@runtime_checkable
class WindowExtras(Protocol):
    """What ``RuleSystem.window()`` returns. Subclass ``NoExtras`` to give only some.

    Two optional methods the table looks for (``tabletop.ui.table``): ``opening_hexes
    (state)``, the hexes the window opens fitted on (Omaha: the East beach), and
    ``components()``, window parts of the game's own put ahead of the table's (Dogs of
    War: the roster builder dialog). The engine declares neither, as it knows no window.
    """

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        """The panels to dock now; ``selected`` is the id of the unit selected at the
        screen (for a model sheet), None when there is none."""
        ...

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        """The overlays the player may switch on now (each key once)."""
        ...

    def extra_moves(self, state: MapState, piece: Piece) -> Mapping[Hex, str]:
        """Hexes ``piece`` may reach outside its move policy's reach -> why (shown to
        the player); empty when it has none. ValueError if the rules refuse the piece."""
        ...


class NoExtras:
    """A ``WindowExtras`` that adds nothing: the base of a rule system's own."""

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        return ()

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        return ()

    def extra_moves(self, state: MapState, piece: Piece) -> Mapping[Hex, str]:
        return {}


def seen_by(game: Game, side: str | None, *, shared_screen: bool = True) -> Seen:
    """What the extras are given when ``side`` sits at the screen (None: nobody in
    particular): the side's ``SideView`` in a two-sided game, or in a solitaire game
    whose rules hide something from its player (a ``view`` hook), else the game's state.
    ``shared_screen``: False when the other seats are bots, so the side's own secrets
    may show at any time (the view's ``shared_screen``)."""
    if side is not None and (game.two_sided or getattr(game.rules, "view", None) is not None):
        view = game.side_view(side)
        view.shared_screen = shared_screen
        return view
    return game.state


def state_of(seen: Seen) -> GameState:
    """The state inside ``seen`` (the side's view of it, for a SideView)."""
    return seen.state if isinstance(seen, SideView) else seen


def overlay_named(overlays: Sequence[Overlay], key: str) -> Overlay:
    """The overlay ``key``; LookupError naming the keys there are (or that there are none)."""
    for overlay in overlays:
        if overlay.key == key:
            return overlay
    known = ", ".join(o.key for o in overlays)
    if not known:
        raise LookupError(f"no overlay {key!r}; this rule system draws no overlays of its own")
    raise LookupError(f"no overlay {key!r}; give one of: {known}")


__all__ = [
    "EMPHASES",
    "STYLES",
    "LegendEntry",
    "Mark",
    "NoExtras",
    "Overlay",
    "Panel",
    "Row",
    "Seen",
    "WindowExtras",
    "check_style",
    "overlay_named",
    "seen_by",
    "state_of",
]
