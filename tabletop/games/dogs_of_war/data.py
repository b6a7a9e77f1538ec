"""The Dogs of War data the turn is played by, read and checked once: the weapons chart
(``weapons.yaml``, the project's where the text never printed it), the nine factions
(``teams.yaml``, the text's team lists) and the printed tables and readings
(``rules.yaml``). Errors name the file and line (``DataError``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.datareader import Reader
from tabletop.yamlfile import DataError, parse_yaml

HERE = Path(__file__).parent
WEAPONS_FILE = HERE / "weapons.yaml"
TEAMS_FILE = HERE / "teams.yaml"
RULES_FILE = HERE / "rules.yaml"
MODES = ("ss", "bu", "fa")
BLOCS = ("nato", "soviet", "none")
SPECIAL_BLASTS = frozenset({"claymore", "c4", "shaped_charge"})
WEAPON_FIELDS = (
    "name", "bloc", "difficulty", "points", "hands", "modes", "ranges", "dpr", "arm", "cover", "cq",
    "blast", "ammo", "structural", "thrown", "scope", "text",
)  # fmt: skip
STATS = ("wp", "wk", "cq", "st", "ft", "hp", "ml", "cc")


@dataclass(frozen=True)
class Mode:
    """One fire mode: ``ap`` a shot, ``dice`` to-hit dice, ``rounds`` spent."""

    ap: int
    dice: int
    rounds: int


@dataclass(frozen=True)
class Weapon:
    """One row of the weapons chart; ``text`` names the fields the rule text gives (with
    its line), every other field is the project's choice."""

    key: str
    name: str
    bloc: str
    difficulty: int
    points: int
    hands: int
    modes: Mapping[str, Mode] = field(default_factory=dict)
    ranges: tuple[tuple[int, int], ...] = ()
    dpr: int = 0
    arm: int = 0
    cover: Mapping[str, int] = field(default_factory=dict)
    cq: Mapping[str, Any] = field(default_factory=dict)
    blast: str | None = None
    ammo: str | None = None
    structural: int = 0
    thrown: bool = False
    scope: bool = False
    text: Mapping[str, str] = field(default_factory=dict)

    @property
    def max_range(self) -> int:
        return self.ranges[-1][0] if self.ranges else 0

    def range_modifier(self, inches: int) -> int | None:
        """The to-hit modifier at ``inches`` (the first band that reaches), None beyond."""
        for limit, mod in self.ranges:
            if inches <= limit:
                return mod
        return None

    def source(self, name: str) -> str:
        """Where a field's value comes from: the text's line, or the project."""
        return f"text: {self.text[name]}" if name in self.text else "project"


@dataclass(frozen=True)
class Faction:
    """One team list as printed (teams.yaml)."""

    key: str
    name: str
    lines: str
    points: int
    roles: tuple[Mapping[str, Any], ...]
    weapons_fixed: bool
    excluded_blocs: frozenset[str]
    stats: Mapping[str, int]
    cc_kind: str
    armour: Mapping[str, int]
    gear: Mapping[str, Any]
    night_vision: Mapping[str, Any]
    specials: Mapping[str, int]
    innate: frozenset[str]
    perks: Mapping[str, Mapping[str, Any]]
    upgrades: Mapping[str, Mapping[str, Any]]
    project: str

    def weapons_named(self) -> list[str]:
        """Every weapon key its list names (the fixed weapons and the choices given)."""
        out: list[str] = []
        for role in self.roles:
            if "weapon" in role:
                out.append(str(role["weapon"]))
            if isinstance(role.get("choice"), list):
                out += [str(w) for w in role["choice"]]
            if "launcher" in role:
                out.append(str(role["launcher"]))
        out += [str(g) for g in self.gear.get("grenades", {})]
        return out


@dataclass(frozen=True)
class Data:
    """Everything of the three files."""

    weapons: Mapping[str, Weapon]
    factions: Mapping[str, Faction]
    special_effects: Mapping[str, Mapping[str, Any]]
    rules: Mapping[str, Any]

    def weapon(self, key: str) -> Weapon:
        return self.weapons[key]

    def location(self, roll: int) -> str:
        return str(self.rules["hit_location"][roll])

    def wound(self, location: str, modified: int) -> Mapping[str, Any]:
        """The wound chart's cell for ``location`` and the roll D10 - DPR."""
        for i, (lo, hi) in enumerate(self.rules["wound_columns"]):
            if lo <= modified <= hi or (i == 0 and modified < lo) or (i == 3 and modified > hi):
                return dict(self.rules["wound_chart"][location][i])
        raise ValueError(f"no wound column for {modified}")

    @property
    def turn(self) -> Mapping[str, Any]:
        return dict(self.rules["turn"])


def _read(path: Path) -> Reader:
    return Reader(path, parse_yaml(path.read_text(encoding="utf-8"), path))


def load_weapons(path: Path = WEAPONS_FILE, blasts: frozenset[str] = frozenset()) -> dict[str, Weapon]:
    """The weapons chart, checked: known fields, modes, range bands rising, cover scores."""
    top = _read(path).sub("weapons")
    out: dict[str, Weapon] = {}
    for key in top.data:
        w = top.sub(str(key))
        unknown = sorted(set(w.data) - set(WEAPON_FIELDS))
        if unknown:
            raise w.fail(unknown[0], f"unknown weapon field (known: {', '.join(WEAPON_FIELDS)})")
        if "text" not in w.data:
            raise w.fail("name", "every weapon needs `text:` (the fields the rule text gives, {} for none)")
        bloc = w.choice("bloc", BLOCS)
        modes: dict[str, Mode] = {}
        if "modes" in w.data:
            ms = w.sub("modes")
            for m in ms.data:
                if m not in MODES:
                    raise ms.fail(m, f"unknown fire mode (known: {', '.join(MODES)})")
                spec = ms.sub(m)
                modes[str(m)] = Mode(
                    spec.whole("ap", minimum=1),
                    spec.whole("dice", minimum=1),
                    spec.whole("rounds", minimum=1),
                )
        ranges: list[tuple[int, int]] = []
        for band in w.get("ranges") if "ranges" in w.data else []:
            if not (isinstance(band, list) and len(band) == 2 and all(isinstance(v, int) for v in band)):
                raise w.fail("ranges", "each band is [up to inches, to-hit modifier]")
            if ranges and band[0] <= ranges[-1][0]:
                raise w.fail("ranges", "range bands must rise")
            ranges.append((int(band[0]), int(band[1])))
        if modes and not ranges:
            raise w.fail("modes", "a weapon that fires needs `ranges`")
        blast = str(w.get("blast")) if "blast" in w.data else None
        if blast is not None and blasts and blast not in blasts | SPECIAL_BLASTS:
            raise w.fail("blast", f"no blast {blast!r} in blasts.yaml (known: {', '.join(sorted(blasts))})")
        out[str(key)] = Weapon(
            key=str(key),
            name=w.word("name") if " " not in str(w.get("name")) else str(w.get("name")),
            bloc=bloc,
            difficulty=w.whole("difficulty"),
            points=w.whole("points"),
            hands=w.whole("hands", minimum=1),
            modes=modes,
            ranges=tuple(ranges),
            dpr=int(w.get("dpr")) if "dpr" in w.data else 0,
            arm=int(w.get("arm")) if "arm" in w.data else 0,
            cover=dict(w.get("cover")) if "cover" in w.data else {},
            cq=dict(w.get("cq")) if "cq" in w.data else {},
            blast=blast,
            ammo=str(w.get("ammo")) if "ammo" in w.data else None,
            structural=w.whole("structural") if "structural" in w.data else 0,
            thrown=w.boolean("thrown") if "thrown" in w.data else False,
            scope=w.boolean("scope") if "scope" in w.data else False,
            text={str(k): str(v) for k, v in (w.get("text") or {}).items()},
        )
    return out


def load_factions(path: Path, weapons: Mapping[str, Weapon]) -> tuple[dict[str, Faction], dict[str, Any]]:
    """The team lists, checked: stats 1-10, and every weapon a list names in the chart."""
    top = _read(path)
    fs = top.sub("factions")
    out: dict[str, Faction] = {}
    for key in fs.data:
        f = fs.sub(str(key))
        st = f.sub("stats")
        stats = {s: st.whole(s, minimum=1) for s in STATS}
        for s, v in stats.items():
            if v > 10:
                raise st.fail(s, "abilities are 1-10 (ABILITIES l.97)")
        faction = Faction(
            key=str(key),
            name=str(f.get("name")),
            lines=str(f.get("lines")),
            points=f.whole("points", minimum=1),
            roles=tuple(dict(r) for r in f.get("roles")),
            weapons_fixed=f.boolean("weapons_fixed"),
            excluded_blocs=f.words("excluded_blocs", blank=True),
            stats=stats,
            cc_kind=st.choice("cc_kind", ("los", "radio")),
            armour={k: int(v) for k, v in f.get("armour").items()},
            gear=dict(f.get("gear")),
            night_vision=dict(f.get("night_vision")),
            specials={str(k): int(v) for k, v in (f.get("specials") or {}).items()},
            innate=f.words("innate", blank=True),
            perks={str(k): dict(v) for k, v in (f.get("perks") or {}).items()},
            upgrades={str(k): dict(v) for k, v in (f.get("upgrades") or {}).items()}
            if "upgrades" in f.data
            else {},
            project=str(f.get("project") or ""),
        )
        for name in faction.weapons_named():
            if name not in weapons:
                raise f.fail("roles", f"weapon {name!r} is not in weapons.yaml; add it to the chart")
        out[str(key)] = faction
    effects = {str(k): dict(v or {}) for k, v in (top.get("special_effects") or {}).items()}
    return out, effects


def load_rules(path: Path = RULES_FILE) -> dict[str, Any]:
    """The printed tables and readings, checked for the shape the rules read."""
    r = _read(path)
    data: dict[str, Any] = dict(r.data)
    locs = data["hit_location"]
    if sorted(locs) != list(range(1, 11)):
        raise r.fail("hit_location", "needs each D10 face 1-10")
    chart = r.sub("wound_chart")
    for loc in set(locs.values()):
        if loc not in chart.data:
            raise r.fail("wound_chart", f"no row for location {loc!r}")
        if len(chart.get(loc)) != len(data["wound_columns"]):
            raise chart.fail(loc, "one cell per wound column")
    return data


@cache
def data() -> Data:
    """The shipped files, read once."""
    from .blasts import default_table

    blasts = frozenset(default_table().blasts)
    weapons = load_weapons(WEAPONS_FILE, blasts)
    factions, effects = load_factions(TEAMS_FILE, weapons)
    return Data(weapons, factions, effects, load_rules(RULES_FILE))


__all__ = [
    "Data",
    "DataError",
    "Faction",
    "Mode",
    "Weapon",
    "data",
    "load_factions",
    "load_rules",
    "load_weapons",
]
