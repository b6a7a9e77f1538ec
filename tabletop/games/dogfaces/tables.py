"""Dogfaces in Space's tables as a player aid prints them (``tabletop tables dogfaces``),
built from the data the game plays by: the Combat Table (VI) and the roster (II) from
``roster.yaml``, move units from ``movement.yaml``, shot terrain from ``los.yaml``; the
project's readings where the text is silent are each table's ``choices``.
"""

from __future__ import annotations

from tabletop.engine.tables import Table

from .data import Roster, roster
from .los import default_table as shot_table
from .movement import default_table as move_table

ABILITY_TEXT = {
    "sharpshooter": "+1 to the roll of any attack he takes part in",
    "double-shot": "shoots the same target twice; the 2nd shot misses on 1-2",
    "ignores-retreat": "ignores Retreat results",
    "ignores-stun": "ignores Stun results",
    "hard-to-hit": "-1 to the roll of attacks at him (not frag or flame splash)",
    "lucky": "attacked: roll twice, use the lower",
    "medic": "adjacent Stunned friends recover automatically",
    "suit": "armoured suit: immune to frag and splash; laser and direct flame absorbed on 5-6",
    "ap-only": "only armour-piercing weapons harm it",
    "vehicle": "vehicle: -1 to the attack strength against it",
    "carrier": "carries 2 soldiers who began the turn in its hex",
    "jet-pack": "jet pack: 4-5 hexes in a straight line over any terrain",
}


def _faces(lowest: int) -> str:
    """A roll of ``lowest`` or more, as the text writes it: "6", "5-6"."""
    return "6" if lowest >= 6 else f"{lowest}-6"


def combat_table(r: Roster) -> Table:
    columns = ("Die roll", *(str(c) if c < 7 else "7+" for c in range(1, 8)))
    rows = tuple((str(roll), *r.table[roll]) for roll in range(1, 7))
    return Table(
        "combat",
        "Combat Table (damage points summed per target)",
        "Dogfaces VI",
        columns,
        rows,
        (
            "A column below 1 (town -1, vehicle -1 to the strength) has no effect (G-D14).",
            "Hill -1 to the roll when any soldier of the attack shoots from lower ground.",
            "Retreat (G-D4): 2 hexes (1 in a town), each farther from every attacker, into empty "
            "hexes; cover first; a soldier who cannot retreat is Stunned (already Stunned: Out of Combat).",
            f"Overwatch: at most {r.choices['overwatch_max']} soldiers a side (G-D12); any result "
            "stops the rest of the mover's move.",
            "Harry's double shot counts 2 points on 3-6 (G-D8); an armoured suit rolls once per "
            "attack for its laser and direct-flame points (G-D11).",
        ),
    )


def weapons_table(r: Roster) -> Table:
    rows = tuple(
        (
            w.key,
            w.name,
            f"{w.nearest}-{w.farthest}",
            str(w.damage),
            w.kind,
            w.splash or "",
            "" if w.uses is None else str(w.uses),
        )
        for w in r.weapons.values()
    )
    return Table(
        "weapons",
        "Weapons",
        "Dogfaces II",
        ("key", "weapon", "range", "damage", "kind", "splash", "uses"),
        rows,
        ("Tom fires the rocket launcher or the pistol in a turn, not both (G-D9).",),
    )


def roster_table(r: Roster) -> Table:
    moves = move_table().move_units
    rows = []
    for key, s in r.soldiers.items():
        lead = f"range {s.leader.range}, {_faces(s.leader.recovers)}" if s.leader else ""
        rows.append(
            (
                key,
                s.team,
                str(moves.get(key, moves["default"])),
                " + ".join(s.weapons) if s.fires == "each" else " or ".join(s.weapons),
                _faces(s.recovers),
                lead,
                "; ".join(ABILITY_TEXT[a] for a in sorted(s.abilities)),
            )
        )
    return Table(
        "roster",
        "The soldiers and vehicles",
        "Dogfaces II",
        ("soldier", "team", "moves", "weapons", "recovers", "leadership", "abilities"),
        tuple(rows),
        (
            "A vehicle's Leadership Benefit: adjacent soldiers, 5-6 (G-D7).",
            "A Stunned soldier does not move, shoot, lead, heal or go into Overwatch (G-D5).",
        ),
    )


def terrain_table() -> Table:
    shots = shot_table()
    rows = tuple(
        (
            kind,
            spec.applies_to,
            f"{spec.amount:+d}",
            "from lower ground" if spec.when_firer_lower else "",
            spec.also,
        )
        for kind, spec in shots.into_hex.items()
    )
    rows += tuple((kind, "range through it", f"at most {n}", "", "") for kind, n in shots.range_limit.items())
    return Table(
        "terrain", "Shooting into terrain", "Dogfaces V", ("terrain", "changes", "by", "when", "also"), rows
    )


def tables() -> list[Table]:
    r = roster()
    return [combat_table(r), weapons_table(r), roster_table(r), terrain_table()]
