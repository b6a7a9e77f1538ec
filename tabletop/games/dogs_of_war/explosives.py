"""Special equipment that is set, not fired (AVAILABLE SPECIAL EQUIPMENT l.782-843): C4,
shaped charges, anti-personnel mines and claymores. What a model carries is counted in
its attributes (``x-c4`` in quarter pounds, ``x-shaped-charge``, ``x-ap-mine``,
``x-claymore``); what is set lies on the table as a charge in ``state.marks["charges"]``
(``kind|hex|side|owner|size|facing``), seen by both sides (no hidden set-up: the
engine keeps none, checklist E2; project's choice).

- C4 (l.822-829): 3 AP a quarter pound, set in the model's hex or beside it; only a
  Combat Engineer, or a model of a team whose list describes C4 (rules.yaml
  ``explosives.c4_trained``), may use it; it blows when its setter spends 1 AP on the
  trigger (Misc Actions, project's reading of "the player may declare when").
- Shaped charge (l.804-812): 3 AP against a building beside the model; a Combat
  Engineer only; blown like C4; structural damage to that building.
- Anti-personnel mine (l.800): set beside the model (project: 3 AP, as a grenade); an
  enemy stepping into its hex sets it off: the M67 template.
- Claymore (l.831-835): set beside the model facing away from him (project: 3 AP); its
  setter, on op-fire and within the wire's 10 inches, may blow it as his op-fire attack
  when an enemy acts inside its cone (a reaction, like op-fire).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import DIRECTIONS, Hex

from .blasts import Blast, blast_area, c4_blast, can_trigger_claymore, claymore_area
from .blasts import default_table as blast_table
from .combat import num
from .data import data

KINDS = ("c4", "shaped-charge", "ap-mine", "claymore")
#: gear bought (roster words) -> (kind carried, how many of it a purchase gives)
GEAR = {
    "c4": ("c4", 4),
    "shaped-charge": ("shaped-charge", 1),
    "ap-mines": ("ap-mine", 2),
    "claymore": ("claymore", 1),
}


@dataclass(frozen=True)
class Charge:
    """A charge on the table."""

    kind: str
    at: str  # hex label
    side: str
    owner: str
    size: int = 1  # quarter pounds of C4
    facing: int = 0  # a claymore's direction

    def key(self) -> str:
        return f"{self.kind}|{self.at}|{self.side}|{self.owner}|{self.size}|{self.facing}"

    @staticmethod
    def of(key: str) -> Charge:
        kind, at, side, owner, size, facing = key.split("|")
        return Charge(kind, at, side, owner, int(size), int(facing))


def rules() -> Mapping[str, Any]:
    explosives: Mapping[str, Any] = data().rules["explosives"]
    return explosives


def charges(state: GameState) -> list[Charge]:
    return [Charge.of(k) for k in state.marks.get("charges", ())]


def carried(piece: Piece, kind: str) -> int:
    return num(piece, f"x-{kind}")


def may_use(piece: Piece, kind: str) -> bool:
    """C4 and shaped charges need the training (l.812, 822); mines and claymores do not."""
    perks = str(piece.attr("perks", "") or "")
    engineer = "combat-engineer" in perks
    if kind == "shaped-charge":
        return engineer
    if kind == "c4":
        return engineer or str(piece.attr("faction")) in rules()["c4_trained"]
    return True


def set_actions(state: GameState, a: Piece, beside: list[Hex]) -> list[Action]:
    """What the active model may set with the AP left (``beside``: his hex's free
    neighbours on the map)."""
    ap = num(a, "ap")
    out: list[Action] = []
    set_ap = int(rules()["set_ap"])
    taken = {c.at for c in charges(state)}
    spots = [h for h in beside if state.board.label(h) not in taken]
    quarters = min(carried(a, "c4"), ap // int(rules()["c4_ap_per_quarter"]))
    if quarters and may_use(a, "c4"):
        for h in [a.hex, *spots]:
            if state.board.label(h) in taken:
                continue
            for q in range(1, quarters + 1):
                out.append(
                    {"do": "set-charge", "piece": a.id, "kind": "c4", "at": state.board.label(h), "size": q}
                )
    if ap >= set_ap and carried(a, "shaped-charge") and may_use(a, "shaped-charge"):
        from .structures import is_structure

        for h in beside:
            if is_structure(state, h) and state.board.label(h) not in taken:
                out.append(
                    {"do": "set-charge", "piece": a.id, "kind": "shaped-charge", "at": state.board.label(h)}
                )
    for kind in ("ap-mine", "claymore"):
        if ap >= set_ap and carried(a, kind):
            for h in spots:
                if not state.map.units_at(h):
                    out.append({"do": "set-charge", "piece": a.id, "kind": kind, "at": state.board.label(h)})
    trigger = int(rules()["trigger_ap"])
    if ap >= trigger:
        for c in charges(state):
            if c.owner == a.id and c.kind in ("c4", "shaped-charge"):
                out.append({"do": "detonate", "piece": a.id, "charge": c.key()})
    return out


def place(state: GameState, a: Piece, action: Action) -> tuple[int, int, list[str]]:
    """Set the charge: (the AP it cost, how many of the kind it used, the log lines)."""
    kind = str(action["kind"])
    at = state.board.hex_of(str(action["at"]))
    size = int(action.get("size", 1))
    facing = 0
    if kind == "claymore":
        step = at - a.hex
        facing = DIRECTIONS.index(step) if step in DIRECTIONS else int(a.facing or 0)
    c = Charge(kind, str(action["at"]), str(a.side), a.id, size, facing)
    state.marks.setdefault("charges", []).append(c.key())
    used = size if kind == "c4" else 1
    cost = used * int(rules()["c4_ap_per_quarter"]) if kind == "c4" else int(rules()["set_ap"])
    what = f"{size / 4:g} lb of C4" if kind == "c4" else kind.replace("-", " ")
    return cost, used, [f"{a.id} sets {what} at {action['at']} ({cost} AP)"]


def remove(state: GameState, c: Charge) -> None:
    state.marks["charges"] = [k for k in state.marks.get("charges", ()) if k != c.key()]


def blast_of(c: Charge) -> tuple[Blast, str]:
    """The template of a charge and the weapons.yaml key of its effects."""
    if c.kind == "c4":
        return c4_blast(c.size), "c4"
    if c.kind == "claymore":
        return blast_table().claymore.blast, "claymore"
    if c.kind == "ap-mine":
        return blast_table().blast("frag_grenade"), "ap-mine"
    return Blast("shaped charge", ()), "shaped-charge"


def area_of(state: GameState, c: Charge) -> dict[Hex, int]:
    at = state.board.hex_of(c.at)
    if c.kind == "claymore":
        return dict(claymore_area(at, c.facing, board=state.board))
    blast, _ = blast_of(c)
    if not blast.rings:
        return {at: 0}
    return dict(blast_area(blast, at, board=state.board))


def mine_in(state: GameState, h: Hex, mover: Piece) -> Charge | None:
    """An enemy mine in the hex a model steps into (pressure, l.800)."""
    label = state.board.label(h)
    for c in charges(state):
        if c.kind == "ap-mine" and c.at == label and c.side != mover.side:
            return c
    return None


def claymore_shots(state: GameState, side: str, target: Piece, owners: list[Piece]) -> list[Action]:
    """Claymores ``side`` may blow at ``target`` (l.835): the setter on op-fire
    (``owners``), within the wire, and the target inside the cone."""
    out: list[Action] = []
    by_id = {p.id: p for p in owners}
    for c in charges(state):
        owner = by_id.get(c.owner)
        if c.kind != "claymore" or c.side != side or owner is None:
            continue
        at = state.board.hex_of(c.at)
        if can_trigger_claymore(owner.hex, at) and target.hex in area_of(state, c):
            out.append(
                {"do": "op-shot", "as": "claymore", "piece": owner.id, "target": target.id, "charge": c.key()}
            )
    return out
