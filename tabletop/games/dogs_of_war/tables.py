"""Dogs of War's tables as a player aid prints them (``tabletop tables dogs-of-war``),
built from the data the game plays by (rules.yaml, weapons.yaml, teams.yaml,
blasts.yaml): the ranged modifiers, hit location and wound chart, the difficult throw,
the C4 chart, the close-quarters and morale modifiers, the weapons (each field marked
as the text's or the project's) and the nine factions.
"""

from __future__ import annotations

from tabletop.engine.tables import Table

from .blasts import default_table as blast_table
from .data import Data, data


def _signed(v: int) -> str:
    return f"{v:+d}"


def modifiers_table(d: Data) -> Table:
    rows = tuple(
        (key.replace("_", " "), _signed(int(spec["to_hit"])), str(spec.get("ap", "")))
        for key, spec in d.rules["ranged_modifiers"].items()
    )
    return Table(
        "modifiers",
        "Ranged combat modifiers",
        "Dogs of War RANGED COMBAT MODIFIERS l.379-408",
        ("action", "to hit", "extra AP"),
        rows,
        (
            "Target number = WP + range modifier + modifiers; a natural 1 always hits, a 10 always misses (l.414).",
            "Night vision by faction (los.yaml kits, A5): the table's goggles -1 with night -3/-1; Army issue -2 "
            "in all; special forces -1 in all, 0 with the laser (project's readings).",
            "Turning is free (l.232): a model about to fire faces its target (project).",
        ),
    )


def wound_table(d: Data) -> Table:
    names = ["0 or less", "1-2", "3-5", "6+"]
    faces: dict[str, list[int]] = {}
    for face, loc in d.rules["hit_location"].items():
        faces.setdefault(str(loc), []).append(int(face))
    rows = []
    for loc, fs in faces.items():
        cells = []
        for cell in d.rules["wound_chart"][loc]:
            if cell.get("killed"):
                cells.append("killed")
                continue
            parts = [f"-{cell['hp']} HP"] if cell.get("hp") else []
            parts += list(cell.get("effects", ()))
            cells.append(", ".join(parts))
        faces_text = f"{fs[0]}-{fs[-1]}" if len(fs) > 1 else str(fs[0])
        rows.append((f"{faces_text} {loc}", *cells))
    return Table(
        "wounds",
        "Hit location and wound chart (D10 - DPR)",
        "Dogs of War HIT LOCATION l.418, DAMAGE ASSESSMENT l.430-459",
        ("location (D10)", *names),
        tuple(rows),
        (
            "medical: immediate medical attention (only bandage, walk or crawl first, l.485); bleeding: "
            "-1 HP a turn until bandaged; severe: movement doubled, no running.",
            "Survivability (A4, project's reading): at the start of each turn a model at 0 HP or less, "
            "or bleeding, not stabilized, rolls D10 <= 10 + HP: a pass costs 1 HP, a failure kills; -10 HP kills.",
            "Armour (A6): the helmet covers the head, body armour chest and stomach; D10 <= AR + ARM saves, "
            "a 1 always saves when AR >= 1 (l.422-428).",
            "Cover (A1, project): a wall, hedge, rubble or wreck protects locations 4-8 of a standing "
            "target (every location of a prone one); a building or trees every location; D10 <= the "
            "weapon's cover score and the round gets through.",
        ),
    )


def throw_table(d: Data) -> Table:
    rows = tuple(
        (f"{b['from']}-{b['to']} inches", _signed(int(b["to_hit"]))) for b in d.rules["difficult_throw"]
    )
    return Table(
        "throw",
        "Difficult throw modifiers",
        "Dogs of War DIFFICULT THROW MODIFIERS l.665-670",
        ("range to target", "to hit"),
        rows,
        (
            f"Grenade range {d.turn['grenade_range']} inches (G7, project's choice); a throw into the "
            "open has no modifier; a throw at a target behind cover or in a building is difficult.",
            "A miss deviates: D10 direction (faces 1-6 the hex directions, 7-10 rolled again), D6 inches, "
            "halved (rounded up) under 10 inches.",
        ),
    )


def c4_table() -> Table:
    c4 = blast_table().c4
    names = {1: "quarter pound", 2: "half pound", 3: "three quarters", 4: "full pound"}
    rows = tuple(
        (names.get(q, str(q)), f"{k} in", f"{m} in", f"{b} in") for q, (k, m, b) in sorted(c4.chart.items())
    )
    return Table(
        "c4",
        "C4 chart",
        "Dogs of War C4 l.826-829",
        ("charge", "kill zone", "multiple wounds to", "blast radius"),
        rows,
        ("The chart is followed where the special forces' prose gives other radii (A3).",),
    )


def structures_table(d: Data) -> Table:
    """The structure points by material (l.696-700) as the shipped map's buildings carry
    them, and how a hit and a collapse are read."""
    from tabletop.board.loader import load_map
    from tabletop.shipped import resolve

    from .structures import collapse_dpr, structure_points

    path = resolve("dogs-of-war", "maps")
    rows = []
    if path is not None:
        for t in load_map(path).terrain_types.values():
            props = t.properties
            if props.get("kind") not in ("building", "bunker"):
                continue
            total = structure_points(props)
            rows.append((
                t.name, str(props.get("structure")), str(props.get("structure_points_per_level")),
                str(props.get("levels", 1)), str(total), str(collapse_dpr(total)),
            ))  # fmt: skip
    loss = d.rules["structural"]["loss"]
    return Table(
        "structures",
        "Structural damage (structure points per level: wood 4, stone 6, concrete 8, steel 9)",
        "Dogs of War STRUCTURAL DAMAGE l.690-700",
        ("building", "material", "SP a level", "levels", "SP", "collapse DPR"),
        tuple(rows),
        (
            "(project) a blast damages the building it is centred in: a round or rocket striking a "
            "model inside is a direct hit, a grenade landing inside a blast from the interior (l.692).",
            f"(project) a hit: D10 - structural DPR on the wound chart's columns <=0/1-2/3-5/6+ takes "
            f"{'/'.join(str(x) for x in loss)} SP; at 0 the building collapses whole to rubble, DPR half "
            "its SP (rounded up) on each model inside (l.694: two storeys of concrete, DPR 8).",
        ),
    )


def cq_table(d: Data) -> Table:
    rows = tuple(
        (k.replace("_", " "), _signed(int(v)))
        for k, v in d.rules["cq_modifiers"].items()
        if k != "charge_min_inches"
    )
    return Table(
        "close-quarters",
        "Close quarters modifiers (not yet played by the rules)",
        "Dogs of War CLOSE QUARTERS COMBAT MODIFIERS l.563-605",
        ("modifier", "CQ"),
        rows,
        ("Target number = 5 + own CQ - opponent's CQ, both modified (l.539, 557).",),
    )


def morale_table(d: Data) -> Table:
    m = d.rules["morale"]
    rows = (
        ("team break point", f"{int(m['break_fraction'] * 100)}% incapacitated"),
        ("witnessed a leader killed", _signed(int(m["leader_killed"]))),
        ("lost the entire team in one turn", _signed(int(m["team_lost_in_turn"]))),
        ("surrender demanded within", f"{m['surrender_within']} inches"),
    )
    return Table(
        "morale",
        "Morale",
        "Dogs of War MORALE l.712-747",
        ("check", "value"),
        rows,
        ("Disciplined ignores the first check; Jihad never checks; high on khat ignores morale.",),
    )


def weapons_table(d: Data) -> Table:
    rows = []
    for w in d.weapons.values():
        modes = " ".join(f"{k.upper()} {m.ap}AP/{m.dice}d" for k, m in w.modes.items())
        ranges = " ".join(f"<={r}:{_signed(v)}" for r, v in w.ranges)
        cover = f"{w.cover.get('soft', '')}/{w.cover.get('hard', '')}" if w.cover else ""
        text = ", ".join(sorted(w.text)) or "none"
        rows.append(
            (
                w.key,
                w.bloc,
                str(w.difficulty),
                str(w.points),
                modes,
                ranges,
                str(w.dpr),
                str(w.arm),
                cover,
                w.blast or "",
                text,
            )
        )
    return Table(
        "weapons",
        "Weapons chart (never printed by the text: every field the project's except those named)",
        "Dogs of War Weapons Chart (G1)",
        (
            "key",
            "bloc",
            "diff",
            "pts",
            "modes",
            "ranges",
            "DPR",
            "ARM",
            "cover s/h",
            "blast",
            "fields from the text",
        ),
        tuple(rows),
        (
            "weapons.yaml cites the line of each field the text gives; every other field is the project's choice.",
        ),
    )


def factions_table(d: Data) -> Table:
    rows = []
    for f in d.factions.values():
        s = f.stats
        weapons = ", ".join(
            str(
                r.get("weapon")
                or ("/".join(r["choice"]) if isinstance(r.get("choice"), list) else "player's choice")
            )
            for r in f.roles
        )
        rows.append((
            f.name, str(f.points), f"{s['wp']}/{s['wk']}/{s['cq']}/{s['st']}/{s['ft']}/{s['hp']}/{s['ml']}/{s['cc']}{'R' if f.cc_kind == 'radio' else ''}",
            f"{f.armour['head']}/{f.armour['body']}", weapons, ", ".join(sorted(f.innate)) or "-", f.lines,
        ))  # fmt: skip
    return Table(
        "factions",
        "The nine factions",
        "Dogs of War team lists l.749-1589",
        ("faction", "points", "WP/WK/CQ/ST/FT/HP/ML/CC", "AR head/body", "weapons", "innate", "text"),
        tuple(rows),
        ("Somali militia ST 4 (lost at a page break, G9); CC in inches (G3); R: radio.",),
    )


def tables() -> list[Table]:
    d = data()
    return [
        modifiers_table(d), wound_table(d), throw_table(d), c4_table(), structures_table(d), cq_table(d),
        morale_table(d),
        weapons_table(d), factions_table(d),
    ]  # fmt: skip
