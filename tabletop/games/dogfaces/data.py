"""The roster and combat numbers of Dogfaces in Space (``roster.yaml``), read and checked.

One place for every figure of II and VI the rules and the bots play by; the rules
(``ruleset``), the combat procedure (``combat``) and the printed tables (``tables``)
read it from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.pieces import Piece
from tabletop.yamlfile import DataError, read_yaml

from .movement import unit_type

DATA_FILE = Path(__file__).with_name("roster.yaml")
KINDS = ("laser", "ap", "frag", "flame")
RESULTS = ("miss", "St", "R2", "R2S", "OOC")
ABILITIES = frozenset(
    {
        "sharpshooter", "double-shot", "ignores-retreat", "ignores-stun", "hard-to-hit", "lucky",
        "medic", "suit", "ap-only", "vehicle", "carrier", "jet-pack",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    nearest: int
    farthest: int
    damage: int
    kind: str
    splash: str | None = None
    uses: int | None = None


@dataclass(frozen=True)
class Leader:
    range: int
    recovers: int


@dataclass(frozen=True)
class Soldier:
    key: str
    team: str
    weapons: tuple[str, ...]
    fires: str = "one"
    different_targets: bool = False
    recovers: int = 6
    leader: Leader | None = None
    abilities: frozenset[str] = frozenset()
    count: int = 1

    def has(self, ability: str) -> bool:
        return ability in self.abilities


@dataclass(frozen=True)
class Roster:
    weapons: dict[str, Weapon]
    soldiers: dict[str, Soldier]
    numbers: dict[str, Any]
    teams: tuple[str, ...]
    extra_team: str
    table: dict[int, tuple[str, ...]]
    ignore_retreat_on: int
    retreat: dict[str, Any]
    choices: dict[str, Any] = field(default_factory=dict)

    def soldier(self, piece: Piece) -> Soldier:
        """The roster entry of a piece (its type, lower case, a trailing number dropped)."""
        key = unit_type(piece)
        try:
            return self.soldiers[key]
        except KeyError:
            raise ValueError(f"{piece.id}: unit type {piece.type!r} is not a Dogfaces soldier") from None

    def team(self, team: str) -> list[str]:
        """The unit types of a team, each as many times as a side has it (two LCVs)."""
        return [k for k, s in self.soldiers.items() if s.team == team for _ in range(s.count)]


def _fail(key: str, message: str) -> DataError:
    return DataError(DATA_FILE, None, f"{key}: {message}")


def _weapon(key: str, spec: Any) -> Weapon:
    if not isinstance(spec, dict):
        raise _fail(f"weapons.{key}", "must be a mapping")
    near, far = spec.get("range", [None, None])
    if not (isinstance(near, int) and isinstance(far, int) and 0 < near <= far):
        raise _fail(f"weapons.{key}.range", f"must be [nearest, farthest] hexes, got {spec.get('range')!r}")
    if spec.get("kind") not in KINDS:
        raise _fail(f"weapons.{key}.kind", f"must be one of {', '.join(KINDS)}")
    if spec.get("splash") not in (None, "all", "one"):
        raise _fail(f"weapons.{key}.splash", "must be all or one")
    return Weapon(
        key, str(spec.get("name", key)), near, far, int(spec["damage"]), spec["kind"],
        spec.get("splash"), spec.get("uses"),
    )  # fmt: skip


def _soldier(key: str, spec: Any, weapons: dict[str, Weapon]) -> Soldier:
    if not isinstance(spec, dict):
        raise _fail(f"soldiers.{key}", "must be a mapping")
    for w in spec.get("weapons", []):
        if w not in weapons:
            raise _fail(f"soldiers.{key}.weapons", f"unknown weapon {w!r}; known: {', '.join(weapons)}")
    abilities = frozenset(spec.get("abilities", []))
    if not abilities <= ABILITIES:
        raise _fail(f"soldiers.{key}.abilities", f"unknown {sorted(abilities - ABILITIES)}")
    lead = spec.get("leader")
    return Soldier(
        key,
        str(spec["team"]),
        tuple(spec.get("weapons", ["rifle"])),
        str(spec.get("fires", "one")),
        bool(spec.get("different_targets", False)),
        int(spec.get("recovers", 6)),
        Leader(int(lead["range"]), int(lead["recovers"])) if lead else None,
        abilities,
        int(spec.get("count", 1)),
    )


def load(path: Path = DATA_FILE) -> Roster:
    """Read ``roster.yaml``; DataError naming the key at fault."""
    data = read_yaml(path)
    weapons = {str(k): _weapon(str(k), v) for k, v in data["weapons"].items()}
    soldiers = {str(k): _soldier(str(k), v, weapons) for k, v in data["soldiers"].items()}
    table = {int(k): tuple(v) for k, v in data["combat_table"].items()}
    if sorted(table) != [1, 2, 3, 4, 5, 6] or any(
        len(r) != 7 or set(r) - set(RESULTS) for r in table.values()
    ):
        raise _fail("combat_table", "needs rows 1-6 of 7 results each, from " + ", ".join(RESULTS))
    return Roster(
        weapons,
        soldiers,
        dict(data["abilities"]),
        tuple(data["teams"]),
        str(data["extra_team"]),
        table,
        int(data["leadership"]["ignore_retreat_on"]),
        dict(data["retreat"]),
        dict(data.get("choices", {})),
    )


@cache
def roster() -> Roster:
    """The shipped roster, read once."""
    return load()
