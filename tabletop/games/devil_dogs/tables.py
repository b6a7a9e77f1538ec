"""The Devil Dogs of Belleau Wood's tables as a player aid prints them (``tabletop tables
devil-dogs``), built from the data the game plays by (``rules.yaml``, ``cards.yaml``):
the step ladders (7.2, 8.2), the combat damage contributions (7, 8.1), the target
priority chart (7.1, 8.1), the initiative pools and track (5.3.1, G2), and both decks.
"""

from __future__ import annotations

from tabletop.engine.tables import Table

from .choices import choices
from .data import ORDERS, cards, figures

PROJECT_DECK = (
    "Every card is the project's own (G1): the rule text gives a card's anatomy but prints no card; "
    "the decks follow the design rules written at the top of cards.yaml and were balanced by bot sims."
)


def ladders() -> Table:
    f = figures()
    width = max(len(v) for v in f.ladders.values())
    columns = ("nation", *(f"step {i}" for i in range(1, width + 1)))
    rows = []
    for nation, faces in f.ladders.items():
        hits = [*faces[1:], "destroyed"]
        rows.append((nation, *hits, *([""] * (width - len(hits)))))
    return Table(
        "ladders",
        "Step losses: what each damage step does",
        "Devil Dogs 7.2, 8.2",
        columns,
        tuple(rows),
        ("A unit's steps left are Piece.steps; its falter token and reduced face follow from its ladder "
         "(German defensive and French units have their own counter types, def- and fr-, with 3 steps).",),
    )  # fmt: skip


def contributions() -> Table:
    f = figures()
    rows = tuple((kind, str(cd), str(f.priority[kind])) for kind, cd in f.cd.items())
    return Table(
        "contributions",
        "Combat damage (CD) of each unit and its target priority class",
        "Devil Dogs 7, 7.1, 8.1, 8.2",
        ("unit", "CD", "priority (1 first)"),
        rows,
        (
            f"+{f.adjacent_bonus} CD next to an enemy unit (6.1); a pinned unit's CD is halved, the halves kept "
            "and the total rounded down (6.2, G10).",
            "A1: a gun pit is treated as an MG unit (4): 2 CD; 1-inch artillery 1 CD (7).",
            "Open hexes first, then defensive hexes ("
            + ", ".join(sorted(f.defensive_terrain | f.defensive_features))
            + "): 1 CD a step in the open, 2 CD a step in a defensive hex, one step per unit per source, "
            "at least one step (7.1, 8.2). Within a class the unit with fewest steps left is hit first "
            "(project's choice, G9).",
        ),
    )


def initiative() -> Table:
    f = figures()
    by_band = {name: low for low, name in f.bands}
    ordered = [name for _low, name in f.bands]
    rows = []
    for i, name in enumerate(ordered):
        high = f.track_high if i == 0 else by_band[ordered[i - 1]] - 1
        pool = f.pools[name]
        rows.append((name, f"{by_band[name]}..{high}", str(pool["US"]), str(pool["GE"]), str(pool["S"])))
    return Table(
        "initiative",
        "Initiative pools by the track's band",
        "Devil Dogs 5.3.1, 7.2, 8.3",
        ("band", "track", "US", "GE", "Stalemate"),
        tuple(rows),
        (f"G2: the track runs {f.track_low}..{f.track_high}, + is the Allies'; every step a side inflicts moves it "
         f"one space its way (G12); a barrage at most {f.barrage_cap} (9).",),
    )  # fmt: skip


def deck(side: str) -> Table:
    rows = []
    for c in cards()[side]:
        rows.append((c.id, c.deviation_text(), *(c.order(k).text() for k in ORDERS)))
    return Table(
        f"cards-{side}",
        f"The {side} command deck (30 cards)",
        "Devil Dogs 1.1, 1.2, 5.8, 9 (the project's own cards)",
        ("card", "deviation", "active", "reactive", "general"),
        tuple(rows),
        (PROJECT_DECK,),
    )


def project_choices() -> Table:
    """Every gap of the text and the project's answer (choices.yaml), and the options."""
    rows = [(c.id, c.section, c.gap, c.choice, c.where) for c in choices()]
    for o in figures().options.values():
        rows.append((f"option {o.key}", o.section, o.text, f"off (default {o.default}): {o.without}; on: {o.with_}",
                     "rules.yaml options"))  # fmt: skip
    return Table(
        "choices",
        "The project's choices where the text is silent or contradicts itself",
        "Devil Dogs (checklist G1-G13, A1-A9; P: further project choices)",
        ("id", "section", "the text leaves open", "the project's choice", "where"),
        tuple(rows),
        ("Every entry is the project's choice, not the publisher's (choices.yaml).",),
    )


def tables() -> list[Table]:
    return [ladders(), contributions(), initiative(), deck("allied"), deck("german"), project_choices()]
