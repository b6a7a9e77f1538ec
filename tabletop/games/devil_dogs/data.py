"""The command cards (``cards.yaml``) and the figures (``rules.yaml``) of The Devil Dogs
of Belleau Wood, read and checked: every problem is a DataError naming the file and the
line, and every problem of a file is reported at once (DataErrors).

One place for every figure the rules, the bots, the tables and the window read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.pieces import Piece
from tabletop.yamlfile import DataError, DataErrors, LineDict, LineList, read_yaml

HERE = Path(__file__).parent
CARDS = HERE / "cards.yaml"
RULES = HERE / "rules.yaml"
SIDES = ("allied", "german")
ORDERS = ("active", "reactive", "general")
MOVES = ("ADV", "RET", "REP", "HOLD")
DECK_SIZE = 30  # 1.1: each side has a 30 card deck
#: the 21 keywords of 9, and whether each carries a number X
KEYWORDS: dict[str, bool] = {
    "Accurate Fire": False,
    "Bayonets": False,
    "Concealment": False,
    "Combat": True,
    "Defensive Fire": False,
    "Entrench": True,
    "Audacity": False,
    "Hesitation": False,
    "Hidden MG's": False,
    "Leadership": False,
    "Misdirection": False,
    "Rally": True,
    "Regroup": True,
    "Reinforcement and Reorganization": False,
    "Rout!": False,
    "Shell Holes": False,
    "Sniper": True,
    "Underfed": True,
    "Barrage": False,
    "Sausage/Recon'd Barrage": False,
    "Gas Barrage": False,
}
_KEYWORD = re.compile(r"^(?P<name>.+?)(?: (?P<x>\d+))?$")


@dataclass(frozen=True)
class Keyword:
    """One keyword action: its name (a key of KEYWORDS) and its X (0 when it has none)."""

    name: str
    x: int = 0

    def text(self) -> str:
        return f"{self.name} {self.x}" if KEYWORDS[self.name] else self.name


@dataclass(frozen=True)
class Order:
    """One order box of a card (1.2): movement type and number, MG number, keywords."""

    move: str
    distance: int
    mg: int
    keywords: tuple[Keyword, ...]

    def text(self) -> str:
        kws = ", ".join(k.text() for k in self.keywords)
        return f"{self.move} {self.distance} | MG {self.mg} | {kws}"


@dataclass(frozen=True)
class Card:
    """A command card: its three orders and its Artillery Deviation value (0 = HIT)."""

    id: str
    side: str
    deviation: int
    active: Order
    reactive: Order
    general: Order

    def order(self, kind: str) -> Order:
        return {"active": self.active, "reactive": self.reactive, "general": self.general}[kind]

    def deviation_text(self) -> str:
        return "HIT" if self.deviation == 0 else str(self.deviation)


def parse_keyword(text: object) -> Keyword | str:
    """A keyword from its card text ("Combat 2", "Bayonets"), or why it is not one."""
    if not isinstance(text, str):
        return f"a keyword must be text, got {text!r}"
    m = _KEYWORD.match(text.strip())
    name, x = (m.group("name"), m.group("x")) if m else (text, None)
    if name not in KEYWORDS and text.strip() in KEYWORDS:
        name, x = text.strip(), None
    if name not in KEYWORDS:
        return f"unknown keyword {text!r}; the keywords of 9 are: {', '.join(KEYWORDS)}"
    if KEYWORDS[name] and x is None:
        return f"{name} needs its number X (e.g. '{name} 1')"
    if not KEYWORDS[name] and x is not None:
        return f"{name} takes no number"
    value = int(x) if x is not None else 0
    if KEYWORDS[name] and not 1 <= value <= 5:
        return f"{name} {value}: X must be 1 to 5"
    return Keyword(name, value)


def _order(node: Any, line: int, where: str, problems: list[DataError], path: Path) -> Order | None:
    def bad(message: str, at: int | None = None) -> None:
        problems.append(DataError(path, at or line, f"{where}: {message}"))

    if not isinstance(node, LineDict):
        bad("an order must be a mapping {move, mg, keywords}")
        return None
    unknown = sorted(set(node) - {"move", "mg", "keywords"})
    if unknown:
        bad(f"unknown key {unknown[0]!r} (known: move, mg, keywords)", node.key_lines.get(unknown[0]))
    move = node.get("move")
    parts = move.split() if isinstance(move, str) else []
    ok = True
    if len(parts) != 2 or parts[0] not in MOVES or not parts[1].isdigit():
        bad(
            f"move must be 'ADV N', 'RET N', 'REP N' or 'HOLD 0' (5.8), got {move!r}",
            node.key_lines.get("move"),
        )
        ok = False
    elif not 0 <= int(parts[1]) <= 3 or (parts[0] == "HOLD") != (int(parts[1]) == 0):
        bad(f"move {move!r}: the number is 1-3, and 0 exactly for HOLD (5.8, project's range)",
            node.key_lines.get("move"))  # fmt: skip
        ok = False
    mg = node.get("mg")
    if isinstance(mg, bool) or not isinstance(mg, int) or not 0 <= mg <= 3:
        bad(f"mg must be a whole number 0-3 (project's range), got {mg!r}", node.key_lines.get("mg"))
        ok = False
    words = node.get("keywords")
    kws: list[Keyword] = []
    if not isinstance(words, list) or not 1 <= len(words) <= 2:
        bad(
            f"keywords must be a list of one or two keywords (1.2), got {words!r}",
            node.key_lines.get("keywords"),
        )
        ok = False
    else:
        for w in words:
            k = parse_keyword(w)
            if isinstance(k, str):
                bad(k, node.key_lines.get("keywords"))
                ok = False
            else:
                kws.append(k)
    if not ok:
        return None
    assert isinstance(mg, int)
    return Order(parts[0], int(parts[1]), mg, tuple(kws))


def read_cards(path: Path = CARDS) -> dict[str, tuple[Card, ...]]:
    """Both decks, by side; DataErrors listing every problem with its file and line."""
    data = read_yaml(path)
    problems: list[DataError] = []
    if not isinstance(data, LineDict) or set(data) != {"cards"}:
        raise DataErrors(
            [
                DataError(
                    path, 1, "the file must hold exactly one key, `cards:`, mapping each side to its deck"
                )
            ]
        )
    decks = data["cards"]
    if not isinstance(decks, LineDict) or set(decks) != set(SIDES):
        raise DataErrors(
            [
                DataError(
                    path,
                    data.key_lines["cards"],
                    f"cards must map exactly {', '.join(SIDES)} to a list of cards",
                )
            ]
        )
    out: dict[str, tuple[Card, ...]] = {}
    seen: dict[str, int] = {}
    for side in SIDES:
        items = decks[side]
        at = decks.key_lines[side]
        if not isinstance(items, LineList):
            problems.append(DataError(path, at, f"cards.{side} must be a list of cards"))
            continue
        if len(items) != DECK_SIZE:
            problems.append(
                DataError(
                    path, at, f"cards.{side} has {len(items)} cards; a faction deck has {DECK_SIZE} (1.1)"
                )
            )
        cards: list[Card] = []
        for i, node in enumerate(items):
            line = items.item_lines[i]
            if not isinstance(node, LineDict):
                problems.append(DataError(path, line, f"cards.{side}[{i}] must be a mapping"))
                continue
            ident = node.get("id")
            where = f"card {ident}" if isinstance(ident, str) else f"cards.{side}[{i}]"
            if not isinstance(ident, str) or not ident:
                problems.append(DataError(path, line, f"{where}: id must be a word"))
                continue
            if ident in seen:
                problems.append(
                    DataError(path, line, f"{where}: id used twice (first at line {seen[ident]})")
                )
            seen[ident] = line
            unknown = sorted(set(node) - {"id", "deviation", *ORDERS})
            if unknown:
                problems.append(
                    DataError(path, node.key_lines[unknown[0]], f"{where}: unknown key {unknown[0]!r}")
                )
            dev = node.get("deviation")
            if dev == "HIT":
                deviation = 0
            elif isinstance(dev, int) and not isinstance(dev, bool) and 1 <= dev <= 6:
                deviation = dev
            else:
                problems.append(DataError(path, node.key_lines.get("deviation", line),
                                          f"{where}: deviation must be HIT or a compass number 1-6 (5.5), got {dev!r}"))  # fmt: skip
                deviation = -1
            orders: dict[str, Order | None] = {}
            for kind in ORDERS:
                if kind not in node:
                    problems.append(DataError(path, line, f"{where}: the {kind} order is missing (1.2)"))
                    continue
                orders[kind] = _order(node[kind], node.key_lines[kind], f"{where} {kind}", problems, path)
            active, reactive, general = (orders.get(k) for k in ORDERS)
            if deviation >= 0 and active is not None and reactive is not None and general is not None:
                cards.append(Card(ident, side, deviation, active, reactive, general))
        out[side] = tuple(cards)
    used = {k.name for deck in out.values() for c in deck for kind in ORDERS for k in c.order(kind).keywords}
    missing = [k for k in KEYWORDS if k not in used]
    if missing and not problems:
        problems.append(
            DataError(
                path,
                1,
                f"no card carries the keyword(s) {', '.join(missing)}; every keyword of 9 must appear in a deck",
            )
        )
    if problems:
        raise DataErrors(problems)
    return out


@dataclass(frozen=True)
class RuleOption:
    """An optional rule of the text, or a project reading offered beside the text's:
    its default (the text's own reading) and what each value means."""

    key: str
    default: bool
    section: str
    text: str
    without: str
    with_: str


@dataclass(frozen=True)
class Figures:
    """Everything rules.yaml holds (see its comments for the sections)."""

    pools: dict[str, dict[str, int]]
    track_low: int
    track_high: int
    bands: tuple[tuple[int, str], ...]
    barrage_cap: int
    cd: dict[str, int]
    adjacent_bonus: int
    priority: dict[str, int]
    defensive_terrain: frozenset[str]
    defensive_features: frozenset[str]
    kinds: dict[str, str]
    ladders: dict[str, tuple[str, ...]]
    mortar_range: tuple[int, int]
    compass: dict[int, str]
    usmc_replacements: int
    reorganize: dict[str, tuple[int, str]]
    sniper_range: int
    reinforcement_radius: int
    reinforcement_gap: int
    default_turns: int
    victory: dict[str, int]
    options: dict[str, RuleOption]

    def band(self, position: int) -> str:
        """The band of the initiative track at ``position`` (G2)."""
        for low, name in self.bands:
            if position >= low:
                return name
        return self.bands[-1][1]

    def kind(self, piece: Piece) -> str:
        return self.kinds.get(piece.type, "infantry")


def read_figures(path: Path = RULES) -> Figures:
    """rules.yaml, checked; DataError at the line of the first bad entry."""
    data = read_yaml(path)
    if not isinstance(data, LineDict):
        raise DataError(path, 1, "rules.yaml must be a mapping")
    need = ("pools", "track", "barrage_track_cap", "cd", "adjacent_bonus", "priority", "defensive_terrain",
            "defensive_features", "kinds", "ladders", "mortar_range", "compass", "usmc_replacements",
            "reorganize", "sniper_range", "reinforcement_radius", "reinforcement_enemy_gap", "default_turns",
            "victory", "options")  # fmt: skip
    for key in need:
        if key not in data:
            raise DataError(path, 1, f"{key} is missing")
    for key in data:
        if key not in need:
            raise DataError(path, data.key_lines[key], f"unknown key {key!r}")

    def whole_map(key: str) -> dict[str, int]:
        node = data[key]
        if not isinstance(node, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in node.values()
        ):
            raise DataError(path, data.key_lines[key], f"{key} must map words to whole numbers")
        return {str(k): int(v) for k, v in node.items()}

    pools = {}
    for band, pool in data["pools"].items():
        if not isinstance(pool, dict) or set(pool) != {"US", "GE", "S"}:
            raise DataError(path, data["pools"].key_lines[band], f"pools.{band} must give US, GE and S chits")
        pools[str(band)] = {k: int(v) for k, v in pool.items()}
    track = data["track"]
    bands = tuple(sorted(((int(b["from"]), str(b["band"])) for b in track["bands"]), reverse=True))
    for _low, name in bands:
        if name not in pools:
            raise DataError(path, data.key_lines["track"], f"track band {name!r} has no pool")
    ladders = {}
    for nation, steps in data["ladders"].items():
        if not isinstance(steps, list) or not 1 <= len(steps) <= 6:
            raise DataError(path, data["ladders"].key_lines[nation], f"ladders.{nation} must list 1-6 faces")
        ladders[str(nation)] = tuple(str(s) for s in steps)
    compass = {int(k): str(v) for k, v in data["compass"].items()}
    if set(compass) != {1, 2, 3, 4, 5, 6}:
        raise DataError(path, data.key_lines["compass"], "compass must give the numbers 1-6")
    reorg = {str(k): (int(v[0]), str(v[1])) for k, v in data["reorganize"].items()}
    low, high = data["mortar_range"]
    options = {}
    for key, node in data["options"].items():
        if not isinstance(node, dict) or set(node) != {"default", "section", "text", "without", "with"}:
            raise DataError(path, data["options"].key_lines[key],
                            f"options.{key} must give default, section, text, without and with")  # fmt: skip
        if not isinstance(node["default"], bool):
            raise DataError(path, data["options"].key_lines[key], f"options.{key}.default must be true or false")
        options[str(key)] = RuleOption(str(key), node["default"], str(node["section"]), str(node["text"]),
                                       str(node["without"]), str(node["with"]))  # fmt: skip
    return Figures(
        pools=pools,
        track_low=int(track["lowest"]),
        track_high=int(track["highest"]),
        bands=bands,
        barrage_cap=int(data["barrage_track_cap"]),
        cd=whole_map("cd"),
        adjacent_bonus=int(data["adjacent_bonus"]),
        priority=whole_map("priority"),
        defensive_terrain=frozenset(data["defensive_terrain"]),
        defensive_features=frozenset(data["defensive_features"]),
        kinds={str(k): str(v) for k, v in data["kinds"].items()},
        ladders=ladders,
        mortar_range=(int(low), int(high)),
        compass=compass,
        usmc_replacements=int(data["usmc_replacements"]),
        reorganize=reorg,
        sniper_range=int(data["sniper_range"]),
        reinforcement_radius=int(data["reinforcement_radius"]),
        reinforcement_gap=int(data["reinforcement_enemy_gap"]),
        default_turns=int(data["default_turns"]),
        victory=whole_map("victory"),
        options=options,
    )


@cache
def cards() -> dict[str, tuple[Card, ...]]:
    """The shipped decks, read once."""
    return read_cards()


@cache
def card_index() -> dict[str, Card]:
    return {c.id: c for deck in cards().values() for c in deck}


@cache
def figures() -> Figures:
    return read_figures()
