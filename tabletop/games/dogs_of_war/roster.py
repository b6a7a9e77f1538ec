"""Army building (BUILDING PHASE l.167; team lists l.749-1589): a roster is YAML naming
fire teams of the nine factions, their weapons, perks and special equipment, within a
point budget. ``check`` refuses with one reason a line; ``models`` gives each member's
stats and kit as the rules place them.

A roster file::

    name: Crossroads, blue
    budget: 250
    teams:
      - id: rangers-1
        faction: rangers
        upgrade: meu-soc            # USMC only (l.1294-1298)
        members:                    # optional: the list's roles in order when left out
          - {role: team-leader, weapon: m16a2, perks: [dedicated-marksman], gear: [night-vision]}
          - {role: scout, weapon: m16a2, medic: true}   # a combat medic (l.529; project's price)

Run ``python -m tabletop.games.dogs_of_war.roster FILE`` to check one (exit 2 with the
reasons), or ``... roster --new FACTION [FACTION ...] --budget N`` to print a roster of
the standard teams.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.yamlfile import DataError, read_yaml

from .data import Faction, data

ROSTERS = Path(__file__).with_name("rosters")
GEAR_WORDS = ("night-vision", "laser", "motorola", "gps", "ap-mines", "shaped-charge", "c4", "claymore",
              "rpg", "rpg-round", "soviet-frag", "kevlar-vest")  # fmt: skip


@dataclass(frozen=True)
class Member:
    """One model as built: its team, faction, role, weapon, stats and kit."""

    team: str
    faction: str
    role: str
    weapon: str
    launcher: str | None
    stats: Mapping[str, int]
    ar_head: int
    ar_body: int
    ammo: int
    rounds: int
    grenades: Mapping[str, int]
    perks: tuple[str, ...]
    gear: tuple[str, ...]
    status: frozenset[str] = field(default_factory=frozenset)
    points: int = 0
    #: set-down explosives carried (explosives.KINDS -> how many; C4 in quarter pounds)
    kit: Mapping[str, int] = field(default_factory=dict)


def path_of(name: str) -> Path:
    """A roster by file path, or by name among the shipped ``rosters/``."""
    p = Path(name)
    return p if p.suffix in (".yaml", ".yml") and p.exists() else ROSTERS / f"{name}.yaml"


def load(name: str) -> dict[str, Any]:
    path = path_of(name)
    loaded = read_yaml(path)
    if not isinstance(loaded, dict):
        raise DataError(path, None, "a roster is a mapping with name, budget and teams")
    return loaded


def members_of(faction: Faction, team: Mapping[str, Any]) -> list[dict[str, Any]]:
    given = team.get("members")
    if given is None:
        out = []
        for role in faction.roles:
            weapon = role.get("weapon")
            if weapon is None:
                choice = role.get("choice")
                weapon = choice[0] if isinstance(choice, list) else "m4"
            out.append({"role": role["role"], "weapon": weapon})
        return out
    return [dict(m) for m in given]


def check(roster: Mapping[str, Any], where: str = "roster") -> list[str]:
    """Every reason the roster breaks the building rules: unknown faction, weapon, perk
    or gear; a weapon the list fixes or excludes; a perk bought twice; over budget."""
    d = data()
    problems: list[str] = []
    budget = roster.get("budget")
    if not isinstance(budget, int) or budget <= 0:
        problems.append(f"{where}: budget must be a whole number of points; write budget: 500")
    teams = roster.get("teams")
    if not isinstance(teams, list) or not teams:
        return [
            *problems,
            f"{where}: teams must be a list of fire teams; add one: teams: [{{faction: rangers}}]",
        ]
    total = 0
    for i, team in enumerate(teams):
        here = f"{where}: teams[{i}]"
        faction = d.factions.get(str(team.get("faction")))
        if faction is None:
            problems.append(
                f"{here}: no faction {team.get('faction')!r}; choose one of {', '.join(d.factions)}"
            )
            continue
        fixed, excluded = faction.weapons_fixed, set(faction.excluded_blocs)
        upgrade = team.get("upgrade")
        if upgrade is not None:
            up = faction.upgrades.get(str(upgrade))
            if up is None:
                problems.append(
                    f"{here}: {faction.name} has no upgrade {upgrade!r} (upgrades: {', '.join(faction.upgrades) or 'none'})"
                )
            else:
                fixed, excluded = bool(up["weapons_fixed"]), set(up.get("excluded_blocs", ()))
        total += faction.points
        members = members_of(faction, team)
        if len(members) != len(faction.roles):
            problems.append(
                f"{here}: a {faction.name} fire team has {len(faction.roles)} members, not {len(members)}"
            )
        for j, (member, role) in enumerate(zip(members, faction.roles, strict=False)):
            at = f"{here}.members[{j}]"
            if member.get("role", role["role"]) != role["role"]:
                problems.append(f"{at}: member {j + 1} is the {role['role']}, not {member.get('role')}")
            weapon = str(member.get("weapon"))
            w = d.weapons.get(weapon)
            if w is None or not w.modes or w.thrown:
                problems.append(f"{at}: {weapon!r} is no firearm of the weapons chart")
            elif fixed:
                allowed = [role["weapon"]] if "weapon" in role else list(role.get("choice") or [])
                if weapon not in allowed:
                    problems.append(
                        f"{at}: the {faction.name} {role['role']} carries {' or '.join(allowed)} (weapons are fixed, {faction.lines})"
                    )
            else:
                if w.bloc in excluded:
                    problems.append(f"{at}: {faction.name} may not buy {w.bloc} bloc weapons ({w.name})")
                total += w.points
            perks = list(member.get("perks") or [])
            for perk in perks:
                spec = faction.perks.get(str(perk))
                if spec is None:
                    problems.append(
                        f"{at}: {faction.name} has no perk {perk!r} (perks: {', '.join(faction.perks) or 'none'})"
                    )
                else:
                    total += int(spec["points"])
            if member.get("medic") is True:
                total += int(d.rules["medical"]["medic_points"])
            elif "medic" in member:
                problems.append(
                    f"{at}: medic is true or left out (a combat medic, l.529), not {member['medic']!r}"
                )
            if len(set(perks)) != len(perks):
                problems.append(f"{at}: each perk may be bought only once per model")
            for gear in member.get("gear") or []:
                cost = _gear_points(faction, str(gear))
                if cost is None:
                    problems.append(
                        f"{at}: {faction.name} cannot buy {gear!r} (it may buy: {', '.join(_buyable(faction))})"
                    )
                else:
                    total += cost
    if isinstance(budget, int) and total > budget:
        problems.append(
            f"{where}: the teams cost {total} points, over the budget of {budget}; drop a team, a perk or gear"
        )
    return problems


def file_errors(path: Path) -> list[DataError]:
    """Every problem of a roster file, each at its line (``tabletop validate``): the
    line of the member, else of the team, else of ``budget`` or ``teams``."""
    from tabletop.datareader import Collector

    try:
        loaded = read_yaml(path)
    except DataError as exc:
        return [exc]
    if not isinstance(loaded, Mapping):
        return [DataError(path, 1, "a roster is a mapping with name, budget and teams")]
    out: list[DataError] = []
    for problem in check(loaded, "roster"):
        line = _problem_line(loaded, problem, Collector.line_of)
        out.append(DataError(path, line, problem.removeprefix("roster: ")))
    return out


def _problem_line(
    roster: Mapping[str, Any], problem: str, line_of: Callable[[Any, Any], int | None]
) -> int | None:
    """Where ``check``'s message points: teams[i].members[j], teams[i], or the key."""
    import re

    teams = roster.get("teams")
    found = re.search(r"teams\[(\d+)\](?:\.members\[(\d+)\])?", problem)
    if found and isinstance(teams, list):
        i = int(found.group(1))
        members = teams[i].get("members") if isinstance(teams[i], Mapping) else None
        if found.group(2) is not None and isinstance(members, list):
            return line_of(members, int(found.group(2)))
        return line_of(teams, i)
    key = "teams" if "teams must be" in problem else "budget"
    return line_of(roster, key)


def _buyable(faction: Faction) -> list[str]:
    out = list(faction.specials)
    if faction.night_vision.get("points"):
        out += ["night-vision", "laser"]
    return out


def _gear_points(faction: Faction, gear: str) -> int | None:
    if gear == "night-vision" and faction.night_vision.get("points"):
        return int(faction.night_vision["points"])
    if gear == "laser" and faction.night_vision.get("laser_points"):
        return int(faction.night_vision["laser_points"])
    return faction.specials.get(gear)


def cost(roster: Mapping[str, Any]) -> int:
    """The points a valid roster spends."""
    d = data()
    total = 0
    for team in roster["teams"]:
        faction = d.factions[str(team["faction"])]
        total += faction.points
        fixed = faction.weapons_fixed
        if team.get("upgrade"):
            fixed = bool(faction.upgrades[str(team["upgrade"])]["weapons_fixed"])
        for member in members_of(faction, team):
            if not fixed:
                total += d.weapons[str(member["weapon"])].points
            total += sum(int(faction.perks[str(p)]["points"]) for p in member.get("perks") or [])
            total += sum(_gear_points(faction, str(g)) or 0 for g in member.get("gear") or [])
            total += int(d.rules["medical"]["medic_points"]) if member.get("medic") is True else 0
    return total


def models(roster: Mapping[str, Any]) -> list[Member]:
    """Each member of a checked roster with his stats and kit (perks added)."""
    d = data()
    out: list[Member] = []
    for i, team in enumerate(roster["teams"]):
        faction = d.factions[str(team["faction"])]
        team_id = str(team.get("id") or f"{faction.key}-{i + 1}")
        for member, role in zip(members_of(faction, team), faction.roles, strict=True):
            stats = {k: v for k, v in faction.stats.items()}
            perks = tuple(str(p) for p in member.get("perks") or [])
            for p in perks:
                for k, v in faction.perks[p].items():
                    if k in stats:
                        stats[k] += int(v)
            gear = tuple(str(g) for g in member.get("gear") or [])
            status: set[str] = set()
            if "night-vision" in gear:
                status.add(str(faction.night_vision["status"]))
            if "laser" in gear:
                status.add("laser-targeter")
            if member.get("medic") is True:
                status.add("combat-medic")  # aid.MEDIC: GIVING AID l.529
            grenades = {str(k): int(v) for k, v in faction.gear.get("grenades", {}).items()}
            launcher = role.get("launcher")
            rounds = int(faction.gear.get("launcher_rounds", 0)) if launcher else 0
            if "rpg" in gear:
                launcher = "rpg"
                rounds = 1 + gear.count("rpg-round")
            if "soviet-frag" in gear:
                grenades["soviet-frag"] = grenades.get("soviet-frag", 0) + gear.count("soviet-frag")
            ammo = int(faction.gear.get("ammo", 0)) + int(faction.gear.get("extra", {}).get(role["role"], 0))
            body = faction.armour["body"] + (4 if "kevlar-vest" in gear and faction.armour["body"] < 4 else 0)
            out.append(
                Member(
                    team=team_id,
                    faction=faction.key,
                    role=str(role["role"]),
                    weapon=str(member["weapon"]),
                    launcher=str(launcher) if launcher else None,
                    stats=stats,
                    ar_head=faction.armour["head"],
                    ar_body=body,
                    ammo=ammo,
                    rounds=rounds,
                    grenades=grenades,
                    perks=perks,
                    gear=gear,
                    status=frozenset(status),
                    kit=_kit(gear),
                )
            )
    return out


def _kit(gear: tuple[str, ...]) -> dict[str, int]:
    """The explosives bought: C4 by the pound (four quarters, l.822), mines two to a
    purchase (l.800), shaped charges and claymores one each."""
    from .explosives import GEAR

    kit: dict[str, int] = {}
    for g in gear:
        if g in GEAR:
            kind, n = GEAR[g]
            kit[kind] = kit.get(kind, 0) + n
    return kit


def standard(factions: list[str], budget: int, name: str = "new roster") -> dict[str, Any]:
    """A roster of the listed factions' standard teams (their printed weapons)."""
    return {
        "name": name,
        "budget": budget,
        "teams": [{"id": f"{f}-{i + 1}", "faction": f} for i, f in enumerate(factions)],
    }


def main(argv: list[str] | None = None) -> int:
    """Check a roster file, or print a new one of standard teams (exit 2: refused)."""
    import yaml

    parser = argparse.ArgumentParser(
        prog="python -m tabletop.games.dogs_of_war.roster", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("file", nargs="?", help="a roster YAML file (or a shipped roster's name) to check")
    parser.add_argument(
        "--new", nargs="+", metavar="FACTION", help="print a roster of these factions' standard teams"
    )
    parser.add_argument("--budget", type=int, default=500)
    args = parser.parse_args(argv)
    if args.new:
        roster = standard(list(args.new), args.budget)
        problems = check(roster, "new roster")
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 2
        sys.stdout.write(yaml.safe_dump(roster, sort_keys=False))
        print(f"# {cost(roster)} of {args.budget} points")
        return 0
    if not args.file:
        parser.error("name a roster file, or --new FACTION ...")
    try:
        roster = load(args.file)
    except (DataError, OSError) as exc:
        print(exc, file=sys.stderr)
        return 2
    problems = check(roster, str(path_of(args.file)))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    print(
        f"{roster.get('name', args.file)}: {cost(roster)} of {roster['budget']} points; {len(models(roster))} models"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
