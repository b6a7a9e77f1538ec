"""DOG SECTOR's tables as the player aid prints them, built from the data the game plays by.

Every cell comes from the loaded yaml the rules themselves read (``procedures.tables()``
for rules.yaml, ``american.tables()``, ``los.tables()``, ``movement.tables()``,
``hits.tables()``) and the counter sheet's names, never from a second copy, so
``tabletop tables dog_sector`` shows the table the game rolls on. Die faces are written
in the aid's style ("1-4", "5-6", "6 (5-6)": the roll with the bonus in brackets); the
project's readings where the aid is silent (and Table 3, missing from the text) are the
tables' ``choices``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tabletop.engine.counters import counters_for
from tabletop.engine.tables import Table

from . import american, hits, los, movement, procedures

RULES = "dog_sector"
FACES = range(1, 7)
DASH = "—"


# ------------------------------------------------------------------------- wording


def _cap(text: str) -> str:
    """The first letter upper case, the rest as written ("MG pillbox" stays)."""
    return text[:1].upper() + text[1:]


def spans(faces: Iterable[int]) -> str:
    """Faces in the aid's style: runs as ranges, "1-3, 5"; "" for none."""
    out: list[str] = []
    run: list[int] = []
    for f in sorted(set(faces)):
        if run and f != run[-1] + 1:
            out.append(_span(run))
            run = []
        run.append(f)
    if run:
        out.append(_span(run))
    return ", ".join(out)


def _span(run: list[int]) -> str:
    return f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0])


def _german_name(kind: str) -> str:
    unit = los.tables().sides[procedures.GERMAN].units.get(kind)
    return unit.name if unit is not None else kind


def _american_name(kind: str) -> str:
    unit = los.tables().sides[procedures.AMERICAN].units.get(kind)
    return unit.name if unit is not None else kind


def _marker_name(kind: str) -> str:
    return counters_for(RULES).marker(kind).name


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _within(hexes: int) -> str:
    return "adjacent" if hexes == 1 else f"within {hexes} hexes"


def _german_list(kinds: Iterable[str], joiner: str = " or ") -> str:
    """German unit types in los.yaml's order (the aid's: infantry, MG, panzerfaust, AT)."""
    order = list(los.tables().sides[procedures.GERMAN].units)
    ranked = sorted(kinds, key=lambda k: order.index(k) if k in order else len(order))
    return joiner.join(_german_name(k) for k in ranked)


def _section_name(key: str) -> str:
    return key.replace("-", " ")


# -------------------------------------------------------------------------- tables


def bombardment_table() -> Table:
    """Table 2 from rules.yaml ``bombardment`` (the scenario's set-up places as many)."""
    levels = procedures.tables().bombardment
    kinds = [k for k in next(iter(levels.values()), {}) if k != "difficulty"]
    rows = [
        (_cap(level), _cap(str(row["difficulty"])), *(str(row[k]) for k in kinds))
        for level, row in levels.items()
    ]
    return Table(
        key="2",
        title="Table 2. American pre-landing bombardment level results",
        section="set-up, Table 2 (rules.yaml bombardment)",
        columns=("Bombardment level", "Difficulty", *(f"{_cap(_marker_name(k))} cleared" for k in kinds)),
        rows=tuple(rows),
        choices=(
            "The scenario's set-up places these CLEARED markers (scenarios/dog-sector.yaml, one step per "
            "level and obstacle type, kept equal to this table by a test), each on an obstacle the set-up "
            "solver picks at random under the aid's two rules (no more than 2 adjacent in a row, at least "
            "one in every row).",
            f"A {_marker_name(movement.tables().cleared_marker).upper()} marker neutralises every obstacle "
            "in its hex; removing the hex's last obstacle removes it too.",
        ),
    )


def landing_table() -> Table:
    """Phase 1 from rules.yaml ``landing``: the roll, the procedure and the option
    choose-landing (the player's units, the procedure's hexes)."""
    t = procedures.tables().landing
    return Table(
        key="landing",
        title="Land American units",
        section="phase 1",
        columns=("Rule", "Units landing", "Which units", "Landing hexes"),
        rows=(
            ("Without options", f"{t.dice}D6", "drawn at random from the landing box", "a random landing-row hex each"),
            ("Option limited-reinforcements", f"{t.limited_dice}D6", "as above", "as above"),
            ("Option choose-landing", "as above", "the player's choice", "rolled as above"),
        ),
        choices=(
            "The aid's list of landing places is missing (\"Place the following units on the map\"): units "
            f"wait in the {t.box} box and land on the map's {t.region_kind} (row 3), one die a unit for the hex.",
            "Choose-landing reads \"Place available units of your choice in the above locations\": the number "
            "and the hexes are rolled as without it; the player picks which waiting unit lands in each hex.",
        ),
    )


def swamping_table() -> Table:
    """Phase 2's check from rules.yaml ``swamping``."""
    t = procedures.tables().swamping
    return Table(
        key="swamping",
        title="Check for swamped American units",
        section="phase 2",
        columns=("1D6", "Result"),
        rows=tuple((spans(range(lo, hi + 1)), _cap(r.result)) for lo, hi, r in t.results.rows),
        choices=(
            f"Rolled for each {' or '.join(sorted(t.terrain))} hex holding an American unit and not "
            f"adjacent to a {' or '.join(sorted(t.not_next_to))} hex (no German unit is ever at sea).",
            "A swamped unit is eliminated.",
        ),
    )


def artillery_table() -> Table:
    """Table 3, the project's reconstruction, from rules.yaml ``artillery``."""
    t = procedures.tables().artillery
    faces = range(1, max(len(t.sections), 6) + 1)
    rows = [
        (
            str(f),
            _section_name(t.sections[f - 1]) if f <= len(t.sections) else DASH,
            ("hit" if f in t.hit else "miss") if f <= 6 else DASH,
        )
        for f in faces
    ]
    return Table(
        key="3",
        title="Table 3. German off-map artillery beach bombardment",
        section="phase 3, Table 3 (missing from the aid's text: the project's reconstruction)",
        columns=("1D6", "Bombarded section", "Hit or miss?"),
        rows=tuple(rows),
        choices=(
            "The whole table is the project's: the aid's Table 3 is not in the text. One die for the "
            f"section (face N is section N), then 1D6 to hit: a hit on {spans(t.hit)} (option "
            "artillery-roll: hit-die, the default).",
            "Option artillery-roll: column: instead of the die to hit, 1D6 picks a hex column of the "
            "section (face N is its Nth column from the west; a face past its last column is a miss) "
            "and that column's target hex is hit.",
            "The text: the American-occupied hex closest to the trenches is hit, if a "
            f"{' or '.join(sorted(t.target_terrain))} hex not adjacent to a "
            f"{' or '.join(sorted(t.not_next_to))} hex (option artillery-target: text, the default: a "
            "closest hex that fails the test is a miss). Option artillery-target: nearest-qualifying "
            "(the project's reading): the closest hex that passes the test is hit.",
            f"Closest: hexes to any {' or '.join(sorted(t.closest_to))} hex on the map; ties go to the "
            "westernmost, then the northernmost hex. No American-occupied hex there is a miss.",
            "A hit hits every unit in the hex once (hits table).",
            f"The phase ends after {t.misses} misses (the aid).",
        ),
    )


def german_fire_table() -> Table:
    """Table 4 from rules.yaml ``german_fire`` and los.yaml's bonus ranges."""
    rules = procedures.tables()
    words = sorted({w for row in rules.german_fire.values() for _, _, w in row.results.rows},
                   key=procedures.RESULTS.index)  # fmt: skip
    markers = counters_for(RULES).markers
    rows = []
    for kind, row in rules.german_fire.items():
        plain: Callable[[int], str] = row.results
        bonus: Callable[[int], str] | None = None
        if row.add:
            add, results = row.add, row.results
            bonus = lambda f, add=add, results=results: results(f + add)  # noqa: E731
        elif row.bonus_results is not None:
            bonus = row.bonus_results
        cells = []
        for w in words:
            cell = spans(f for f in FACES if plain(f) == w) or DASH
            if bonus is not None:
                with_bonus = spans(f for f in FACES if bonus(f) == w) or DASH
                if with_bonus != cell:
                    cell += f" ({with_bonus})"
            cells.append(cell)
        rows.append((_cap(_german_name(kind)), _german_bonus(kind, row.add, bonus is not None), *cells))
    prefer = [
        f"{_german_name(k)}: {_german_list(r.prefer)}" for k, r in rules.german_fire.items() if r.prefer
    ]
    return Table(
        key="4",
        title="Table 4. German fire results",
        section="phase 4 (German Trench Fire), Table 4",
        columns=(
            "German unit type",
            "Bonus (roll in brackets)",
            *(_cap(markers[w].name if w in markers else w) for w in words),
        ),
        rows=tuple(rows),
        choices=(
            "A roll past 6 with the +1 reads as 6.",
            "Pinned down: every American unit in the target hex is pinned down. Hit: one hit on the "
            "target (hits table).",
            "Each German unit fires once a turn, section 1 to 6, then by hex label; at the nearest legal "
            "target, then at the type it hurts most (" + "; ".join(prefer) + "), then at the hex holding "
            "most American units, then the westernmost hex.",
            "A unit reduced, immobilized or pinned down this turn cannot be targeted again this turn; one "
            "reduced or immobilized in an earlier turn can.",
        ),
    )


def _german_bonus(kind: str, add: int, has_bonus: bool) -> str:
    reach = los.tables().sides[procedures.GERMAN].units[kind].bonus_range if has_bonus else None
    if reach is None:
        return DASH
    where = "adjacent to target" if reach == 1 else f"target within {reach} hexes"
    return f"+{add} to the die roll if {where}" if add else f"if {where}"


def terrain_table() -> Table:
    """Phase 5's movement costs from movement.yaml."""
    m = movement.tables()
    ap = sorted(set(m.action_points.values()))
    allowance = (
        f"Every unit type has {ap[0]} AP a phase"
        if len(ap) == 1
        else "AP a phase: " + ", ".join(f"{_american_name(k)} {v}" for k, v in m.action_points.items())
    )
    barred = [k for k, o in m.obstacles.items() if o.others_barred]
    return Table(
        key="movement",
        title="Movement costs",
        section="phase 5 (American Beach Activity), movement actions",
        columns=("Terrain", "AP a hex"),
        rows=tuple((_cap(k), str(v)) for k, v in m.terrain_costs.items()),
        choices=(
            f"{allowance} (the aid prints no allowance).",
            "Pinned-down and immobilized units do not move; a unit may not enter a hex held by a German unit.",
            *(
                f"{_cap(_marker_name(k))} bars every unit but "
                + " and ".join(_american_name(u) for u in m.obstacles[k].units)
                + " until it is removed."
                for k in barred
            ),
        ),
    )


def removal_table() -> Table:
    """Table 5 from american.yaml ``removal``."""
    a = american.tables()
    removers = list(a.removers.values())
    rows = []
    for ob in a.obstacles:
        cells = []
        for r in removers:
            cell = r.cells.get(ob)
            if cell is None:
                cells.append("NA")
            elif r.with_leader:
                cells.append(f"NA ({cell.ap})")
            elif cell.how == "entry":
                cells.append(f"{cell.ap} (on entry)")
            else:
                cells.append(str(cell.ap))
        rows.append((_cap(_marker_name(ob)), *cells))
    choices = []
    for r in removers:
        if r.with_leader:
            unit, leader = _american_name(r.type), _american_name(a.leader)
            strength = "a full-strength" if r.full_strength else _article(unit)
            choices.append(
                f'{_cap(r.name)}, "NA (1)": {_article(unit)} {unit} unit alone may not remove obstacles; '
                f"{strength} {unit} unit with {_article(leader)} {leader} in its hex may, for the AP shown "
                f"(its own; the leader spends none), from an adjacent hex like the "
                f"{_american_name(a.bangalore_unit)}."
            )
        for ob, cell in r.cells.items():
            if cell is not None and cell.how == "entry" and cell.ap > 0:
                choices.append(
                    f"{_cap(r.name)}, {_marker_name(ob)}: removed on entering its hex for {cell.ap} AP more "
                    "than the terrain cost."
                )
    choices.append(
        f"A {_american_name(a.bangalore_unit)} has one bangalore torpedo a game ({a.bangalore_ap} AP: "
        "two adjacent obstacles, adjacent to each other)."
    )
    return Table(
        key="5",
        title="Table 5. Obstacle removal capability (AP)",
        section="phase 5 (American Beach Activity), Table 5",
        columns=(
            "Obstacle",
            *(_cap(r.name) + (" (full strength)" if r.full_strength else "") for r in removers),
        ),
        rows=tuple(rows),
        choices=tuple(choices),
    )


def land_mine_table() -> Table:
    """Phase 5's land-mine explosion check from american.yaml ``land_mine``."""
    a = american.tables()
    clear = [f for f in FACES if f not in a.mine_explodes]
    results = sorted((min(faces), spans(faces), word) for faces, word in
                     ((clear, "Clear"), (sorted(a.mine_explodes), "Explosion")) if faces)  # fmt: skip
    return Table(
        key="land-mine",
        title="Land mine explosion check",
        section="phase 5 (American Beach Activity), land mine explosion check",
        columns=("1D6", "Result"),
        rows=tuple((faces, word) for _, faces, word in results),
        choices=(
            "On a clear roll the unit is unharmed and the mine stays for the next unit.",
            "The move ends in the mine hex either way.",
        ),
    )


def american_fire_table() -> Table:
    """Table 6 from american.yaml ``fire`` with los.yaml's ranges and bonus ranges."""
    a = american.tables()
    sight = los.tables().sides[a.side].units
    rows = []
    for kind, line in a.fire_units.items():
        if line.targets is None:
            targets = "all" + (f" except {_german_list(line.excepted)}" if line.excepted else "")
        else:
            targets = _german_list(line.targets)
        unit = sight.get(kind)
        bonus = DASH
        if line.bonus_hit is not None and line.bonus_in_range and unit is not None and unit.bonus_range:
            bonus = _within(unit.bonus_range)
        elif line.bonus_hit is not None and line.bonus_against:
            bonus = f"against {_german_list(line.bonus_against)}"
        hit = spans(range(line.hit, 7)) + (f" ({spans(range(line.bonus_hit, 7))})" if line.bonus_hit else "")
        rows.append((_cap(_american_name(kind)), targets, _range(unit), bonus, hit))
    silent = [_american_name(k) for k, u in sight.items() if not u.fires or k not in a.fire_units]
    return Table(
        key="6",
        title="Table 6. American fire results",
        section="phase 6 (American Fire), Table 6",
        columns=("American unit type firing", "German target types", "Range", "Bonus", "1D6 hit (bonus)"),
        rows=tuple(rows),
        choices=(
            "Each American unit fires at most once a turn; a pinned-down unit does not fire, an "
            "immobilized tank or dozer does.",
            *(f"The {n} has no line in Table 6 and does not fire." for n in silent),
            f"Friendly fire ({', '.join(_american_name(k) for k in sorted(a.ff_units))}): a miss hurts "
            f"nobody; a hit lands on an American-occupied hex within {a.ff_radius} of the target (the "
            "firer's own included; one at random if several), on one unit there picked at random.",
            "A hit is one hit (hits table).",
        ),
    )


def _range(unit: los.UnitFire | None) -> str:
    if unit is None or unit.max_range is None:
        return "any"
    text = _within(unit.max_range)
    longer: dict[int, list[str]] = {}
    for kind, reach in unit.max_range_against.items():
        longer.setdefault(reach, []).append(kind)
    for reach, kinds in sorted(longer.items()):
        text += f"; {_german_list(kinds)} {_within(reach)}"
    return text


def hits_table() -> Table:
    """What one hit does, from hits.yaml (the project's own chart)."""
    h = hits.tables()
    counters = counters_for(RULES)
    words = {"reduce": "loses a step ({steps} steps; eliminated with none left)",
             "immobilize": "immobilized; a second hit eliminates it",
             "eliminate": "eliminated"}  # fmt: skip
    rows = []
    for side, types in h.types.items():
        name = counters.sides[side].name if side in counters.sides else side
        units = los.tables().sides[side].units if side in los.tables().sides else {}
        for kind, effect in types.items():
            unit = units[kind].name if kind in units else counters.unit(kind).name
            rows.append((name, _cap(unit), words[effect.effect].format(steps=effect.steps)))
        other = h.others.get(side)
        if other is not None:
            rows.append((name, "Every other unit", words[other.effect].format(steps=other.steps)))
    return Table(
        key="hits",
        title="What a hit does",
        section="phases 3-6 (the aid names reduced, immobilized and pinned-down units; it prints no chart)",
        columns=("Side", "Unit type", "One hit"),
        rows=tuple(rows),
        choices=(
            "The whole chart is the project's reading: the aid names the states but not what a hit does.",
            "A unit reduced or immobilized by a hit cannot be targeted again that turn.",
        ),
    )


def victory_table() -> Table:
    """Table 7 from rules.yaml ``victory``."""
    rules = procedures.tables()
    rows = tuple((_sections(r.low, r.high), r.rank, r.words) for r in rules.ranks)
    return Table(
        key="7",
        title="Table 7. Level of victory",
        section="phase 7 / end of game, Table 7",
        columns=("Trench sections cleared", "Rank", "Result"),
        rows=rows,
        choices=(
            "The ranks are the aid's; the words of the Result column are the project's own.",
            "A trench section is cleared when none of its trench hexes holds a German unit.",
            f"The game lasts {rules.turns} turns (the aid gives no length; a scenario may set another) "
            "and ends at once when every section is cleared.",
        ),
    )


def _sections(low: int, high: int) -> str:
    def n(x: int) -> str:
        return "None" if x == 0 else str(x)

    if low == high:
        return n(low)
    return f"{n(low)} or {high}" if high == low + 1 else f"{n(low)}-{high}"


def tables() -> list[Table]:
    """Every DOG SECTOR table, in the order of play."""
    return [
        bombardment_table(),
        landing_table(),
        swamping_table(),
        artillery_table(),
        german_fire_table(),
        terrain_table(),
        removal_table(),
        land_mine_table(),
        american_fire_table(),
        hits_table(),
        victory_table(),
    ]


__all__ = ["spans", "tables"]
