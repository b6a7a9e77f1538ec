"""D-Day at Omaha Beach: the tables ``tabletop tables omaha`` prints, built from the same
data the rules play by (us.yaml and the scenario's schedule for 9.1, rules.yaml for
9.2, 9.3 and the section 3 action table). The readings of the damaged rows (A1, A2) are
marked in the choices under each table.
"""

from __future__ import annotations

from collections import defaultdict

from tabletop.engine.tables import Table

from . import data
from .actions import COLUMNS
from .common import GAME, SECTORS


def _schedule() -> dict[int, dict[str, list[str]]]:
    """Turn -> sector -> unit ids, from scenarios/omaha.yaml's reinforcements."""
    from tabletop.engine.scenario import load_scenario
    from tabletop.shipped import resolve

    path = resolve("omaha", "scenarios")
    out: dict[int, dict[str, list[str]]] = defaultdict(lambda: {s: [] for s in SECTORS})
    if path is None:
        return out
    for r in load_scenario(path).reinforcements:
        sector = (r.box or "").split("-turn-")[0]
        if sector in SECTORS:
            out[r.turn][sector] += list(r.ids)
    return out


def us_units_table() -> Table:
    units = data.us_units()
    rows = []
    for turn, by in sorted(_schedule().items()):
        cells = []
        for s in SECTORS:
            words = [f"{units[i].name} ({units[i].type}, {units[i].steps})" for i in by[s] if i in units]
            cells.append(" - ".join(words) or "-")
        rows.append((str(turn), *cells, str(sum(len(v) for v in by.values()))))
    return Table(
        "9.1", "US units: arrivals by turn and sector (name, type, steps)", f"{GAME} 9.1",
        ("turn", "East sector", "West sector", "#"), tuple(rows),
        ("types, AT steps, target symbols, divisions, armour and DUKWs: us.yaml (gap G4)",
         "cannon companies are artillery of 2 steps (checklist defect 2)",
         "turn 0 lands with turn 1 on the Turn 1 row of 9.2 (G14)"),
    )  # fmt: skip


def amphibious_table() -> Table:
    rows = []
    for band in data.bands("amphibious"):
        last = "+" if band.last >= 99 else f"-{band.last}" if band.last != band.first else ""
        turns = f"{band.first}{last}"
        for row, cells in band.value["rows"].items():
            rows.append((turns, row, *(", ".join(cells[k]) for k in data.LETTERS)))
    return Table(
        "9.2", "US amphibious: landing results by turn, row and card letter", f"{GAME} 9.2",
        ("turns", "row", *data.LETTERS), tuple(rows),
        ("reading A1: the unlabelled row is infantry (Easy and Fox boxes in turns 2-3); 'infantry-dg-ch' is the text's 'DG & CH'",
         "ranger-choice: rangers drift 0-4 left, the player's choice; other infantry: nothing",
         "the letter is the landing letter of a German card drawn for the box (G15)",
         "HQs and Generals do not check and drift with a unit of their box (omaha 1)",
         "off the row of boxes, or a box not pointing at a beach hex at high tide: +2 turns (omaha 1)"),
    )  # fmt: skip


def fire_table() -> Table:
    t = data.rules()["fire_table"]
    names = {"symbol": "matching symbol", "single": "+ non-armoured, single symbol",
             "double": "+ non-armoured, double symbol"}  # fmt: skip
    rows = tuple(
        (names[r], *(", ".join(t[c][r]) or "-" for c in ("wn", "unrevealed", "ambush"))) for r in names
    )
    return Table(
        "9.3", "German fire: what a hit does", f"{GAME} 9.3",
        ("row", "WN or revealed Reinforcement", "Unrevealed Reinforcement", "Ambush"), rows,
        ("reading A2: row 1 is a unit with a matching symbol; rows 2 and 3 ('+ Non-Armored + sym' twice, an icon "
         "lost) add to it for a non-armoured unit matched by a single or a double symbol; a blank cell adds nothing",
         "armour hit bonus: armoured units count as non-armoured only when the card shows it (A8)"),
    )  # fmt: skip


def action_table() -> Table:
    t = data.rules()["actions_table"]
    rows = tuple(
        (row, *(t[row]["reinforcement"][i] for i in range(3)), *(t[row]["wn"][i] for i in range(3))) for row in t
    )
    cols = tuple(f"{k} {c}" for k in ("Reinf.", "WN") for c in COLUMNS)
    return Table(
        "3", "German actions (EXT turns): card action by position", f"{GAME} 3",
        ("card", *cols), rows,
        ("unoccupied = unoccupied and in communication; no-target / target = occupied, with no US unit / a US "
         "unit in its field of fire; 'none' is the table's empty set",
         "reading A9: the actions happen only in turns 17-32, by the positions whose colour is on the card; "
         "ADVANCE is resolved after every other action; ADVANCE or FIRE fires when the position may not advance",
         "Disrupted positions remove the marker instead (omaha 3)"),
    )  # fmt: skip


def move_table() -> Table:
    """9.4 from movement.yaml (the movement policy's own data)."""
    from .movement import default_rules

    rules = default_rules()
    rows = [(k, "terrain", *(rules.terrain[k][c] for c in ("infantry", "leaders", "others"))) for k in rules.terrain]
    rows += [(k, "hexside", *(rules.hexsides[k][c] for c in ("infantry", "leaders", "others"))) for k in rules.hexsides]
    return Table(
        "9.4", "US move: what each unit class may enter or cross", f"{GAME} 9.4",
        ("ground", "kind", "infantry", "leaders", "others"), tuple(rows),
        ("open = no effect; road = only along a road; climb / climb-cliff = the 6.1 markers; prohibited = No",
         "a standard move is one hex; EXT: infantry and leaders 2, tanks 2/4 along secondary/major roads (movement.yaml)",
         "the sea has no 9.4 row: project's choice, no unit moves into it"),
    )  # fmt: skip


def barrage_table() -> Table:
    from .usdata import attacks

    b = attacks()["barrage"]
    cols = tuple(f"{lo}-{hi}" if hi < 99 else f"{lo}+" for lo, hi in b["columns"])
    return Table(
        "9.5", "US barrage: the card drawn against the barraging unit's strength", f"{GAME} 9.5",
        ("card shows", *cols), tuple((row, *cells) for row, cells in b["rows"].items()),
        ("reading A3: columns are the barraging unit's attack strength (its steps); a blank cell takes the one to its left",
         "project's choice: sym = the barraging unit's symbol is on the card; color = the target's colour",
         "naval barrage (6.5): no card; the target is Disrupted and loses its Depth marker"),
    )  # fmt: skip


def defence_table() -> Table:
    from .usdata import attacks

    d = attacks()["defence"]

    def cells(v: object) -> tuple[str, str]:
        return ("attack prohibited", "") if v == "prohibited" else (f"x{v[0]}", f"x{v[1]}")  # type: ignore[index]

    rows = [(k, "terrain", *cells(v)) for k, v in d["terrain"].items()]
    rows += [(k, "hexside", *cells(v)) for k, v in d["hexsides"].items()]
    return Table(
        "9.6", "German defence: strength multipliers", f"{GAME} 9.6",
        ("ground", "kind", "unit strength", "Depth strength"), tuple(rows),
        ("the German takes the least advantageous hexside (6.2; reading A7: the attacker's best)",
         "bluff-down: from the top of a bluff, as a slope (6.2); heavy infantry may support across a bluff or cliff"),
    )  # fmt: skip


def attack_table() -> Table:
    from .usdata import COLUMNS, attacks

    r = attacks()["results"]
    rows = tuple((row.upper(), delta, *(", ".join(r[row][delta][c]) for c in COLUMNS)) for row in r for delta in r[row])
    return Table(
        "9.7", "US attack: weapons met x strength delta x German Depth", f"{GAME} 9.7",
        ("weapons", "delta", "alone", "+ hidden Depth", "+ revealed Depth"), rows,
        ("delta: le/lt/eq/gt = US strength <=, <, =, > the German defence (x 9.6); x2 = double or more",
         "reading A4: a blank YES cell takes the one above; the '[-1 step adj -> - Depth]?' bracket is left out",
         "EXT: YES x2 with a revealed Depth: defeated, Depth removed",
         "reveal-again: the hidden Depth marker is revealed and the attack resolved again in the revealed column",
         "defeated 352nd units in communication withdraw to the Division Reinforcement box (6.2)",
         "unreveal: the German units turn face down again (project's reading of 'Unreveal German')"),
    )  # fmt: skip


def weapons_table() -> Table:
    from .usdata import attacks

    w = attacks()["weapons"]
    rows = tuple((k, f"{v['range'][0]}-{v['range'][1]}", " ".join(v["weapons"])) for k, v in w.items())
    return Table(
        "9.8", "US weapons by unit type and range", f"{GAME} 9.8",
        ("unit", "range", "weapons"), rows,
        ("across a bluff or cliff hexside only BR BZ MG MO RD (9.8)",
         "infantry has RD only in command of an HQ, attacking from an adjacent hex (6.2)",
         "ranges and the heavy-infantry rows are the project's reading (gap G4)",
         "FL flanking: 2 hexes adjacent to the target, not to each other; 3+ when the unit and its Depth need it"),
    )  # fmt: skip


def victory_table() -> Table:
    """Gap G2, the project's victory (victory.yaml): the ranks each length needs."""
    from .usdata import victory as cfg
    from .victory import needs

    v = cfg()
    standard, extended = needs("standard"), needs("extended")
    rows = tuple((str(i + 1), a, b) for i, (a, b) in enumerate(zip(standard, extended, strict=True)))
    return Table(
        "victory", "Victory ranks by game length (project's choice, gap G2)", f"{GAME} 3 (VP positions); gap G2",
        ("rank", "standard (16 turns)", "extended (32 turns)"), rows,
        (f"score at the end: {v['per_position']} VP a VP position and {v['per_position_free']} any other position "
         f"free of German units with every hex US-controlled, {v['per_catastrophic_loss']} a unit in the "
         "catastrophic loss box (G12)",
         "the upper ranks need VP positions held, not only few losses; thresholds calibrated with tabletop sim "
         "and the tactical autoplayer (victory.yaml)"),
    )  # fmt: skip


def tables() -> list[Table]:
    return [us_units_table(), amphibious_table(), fire_table(), action_table(), move_table(), barrage_table(),
            defence_table(), attack_table(), weapons_table(), victory_table()]  # fmt: skip
