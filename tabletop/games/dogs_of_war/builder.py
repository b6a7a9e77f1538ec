"""Army building by hand (BUILDING PHASE l.167; team lists l.749-1589; issue 16 item 2,
the window's half): a side's roster edited one step at a time, each step kept only if
``roster.check`` (the CLI's own check, the one source of truth) finds no new problem,
else refused with its reason; saved as roster YAML atomically.

The rules sell fire teams, not lone models (each list prints its team's roles, and
``roster.check`` wants every role filled), so a step adds or removes a whole team of a
faction's list; within a team, each member's weapon is one of those his list allows
(``allowed``), and he may be made the team's combat medic (l.529).

No pygame here: ``builder_window`` draws it and turns clicks into these steps.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tabletop.atomicfile import make_folder, write_atomic

from . import roster
from .data import Faction, data

BUDGET_STEP = 50  # points a click on the budget adds or takes away (project's choice)


def rosters_folder() -> Path:
    """Where rosters built in the window are saved: $TABLETOP_HOME/rosters, else
    ~/.tabletop/rosters (beside the autosaves); a scenario names one by its path."""
    return Path(os.environ.get("TABLETOP_HOME") or Path.home() / ".tabletop") / "rosters"


def allowed(faction: Faction, team: dict[str, Any], member: int) -> list[str]:
    """The weapons member ``member`` of a ``faction`` team may carry: his printed weapon
    or choices where the list fixes them, else every firearm of the chart outside the
    blocs the list excludes (the checks ``roster.check`` makes)."""
    role = faction.roles[member]
    fixed, excluded = faction.weapons_fixed, set(faction.excluded_blocs)
    up = faction.upgrades.get(str(team.get("upgrade"))) if team.get("upgrade") else None
    if up is not None:
        fixed, excluded = bool(up["weapons_fixed"]), set(up.get("excluded_blocs", ()))
    if fixed:
        return [str(role["weapon"])] if "weapon" in role else [str(w) for w in role.get("choice") or []]
    return [k for k, w in data().weapons.items() if w.modes and not w.thrown and w.bloc not in excluded]


def plain(value: Any) -> Any:
    """The roster as plain dicts, lists and scalars (what ``yaml.safe_dump`` writes; the
    reader's mappings carry their lines)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


@dataclass
class Builder:
    """One side's roster being built: the roster mapping, the file it came from, the
    last refusal (None: the last step was kept) and whether it changed since a save."""

    side: str
    roster: dict[str, Any]
    source: str = ""
    refused: str | None = None
    said: str = ""
    changed: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, side: str, name: str) -> Builder:
        """The builder for ``side`` starting from the roster ``name`` (a shipped one or a path)."""
        return cls(side, plain(roster.load(name)), source=name)

    # --- what it shows -------------------------------------------------------------

    def problems(self) -> list[str]:
        return roster.check(self.roster, "roster")

    def spent(self) -> int | None:
        """The points spent (None while the roster has a problem ``cost`` cannot price)."""
        try:
            return roster.cost(self.roster)
        except (KeyError, TypeError, ValueError):
            return None

    def teams(self) -> list[dict[str, Any]]:
        teams: list[dict[str, Any]] = self.roster.setdefault("teams", [])
        return teams

    def faction(self, team: int) -> Faction:
        return data().factions[str(self.teams()[team]["faction"])]

    def members(self, team: int) -> list[dict[str, Any]]:
        """The team's members as written (the list's roles in order when left out)."""
        t = self.teams()[team]
        return [dict(m) for m in roster.members_of(self.faction(team), t)]

    # --- the steps -----------------------------------------------------------------

    def _try(self, change: dict[str, Any], what: str) -> bool:
        """Keep ``change`` (a new roster) if it adds no problem ``roster.check`` finds."""
        before = set(self.problems())
        after = roster.check(change, "roster")
        new = [p for p in after if p not in before]
        if new:
            self.refused = new[0].removeprefix("roster: ")
            self.said = f"refused: {self.refused}"
            return False
        self.history.append(self.roster)
        self.roster, self.refused, self.changed = change, None, True
        self.said = what
        return True

    def add_team(self, faction_key: str) -> bool:
        """A team of ``faction_key``'s list, its printed weapons."""
        change = copy.deepcopy(self.roster)
        teams = change.setdefault("teams", [])
        used = {str(t.get("id")) for t in teams}
        n = 1
        while f"{faction_key}-{n}" in used:
            n += 1
        teams.append({"id": f"{faction_key}-{n}", "faction": faction_key})
        return self._try(change, f"added a {data().factions[faction_key].name} team")

    def remove_team(self, team: int) -> bool:
        change = copy.deepcopy(self.roster)
        gone = change["teams"].pop(team)
        return self._try(change, f"removed team {gone.get('id')}")

    def _with_members(self, team: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        change = copy.deepcopy(self.roster)
        members = self.members(team)
        change["teams"][team]["members"] = members
        return change, members

    def next_weapon(self, team: int, member: int, step: int = 1) -> bool:
        """The member's next weapon (``step`` -1: the one before) among ``allowed``
        that the roster can take; those it cannot (over the budget) are passed over,
        and if none can, the first one's refusal is given."""
        change, members = self._with_members(team)
        choices = allowed(self.faction(team), change["teams"][team], member)
        now = str(members[member].get("weapon"))
        at = choices.index(now) if now in choices else -step
        before = set(self.problems())
        first: str | None = None
        for k in range(1, len(choices) + 1):
            members[member]["weapon"] = choices[(at + k * step) % len(choices)]
            new = [p for p in roster.check(change, "roster") if p not in before]
            if not new:
                break
            first = first or new[0]
        else:
            members[member]["weapon"] = choices[(at + step) % len(choices)]
        passed = f" (passed over {k - 1} the roster cannot take)" if first and k > 1 else ""
        return self._try(change, f"{members[member].get('role')}: {members[member]['weapon']}{passed}")

    def toggle_medic(self, team: int, member: int) -> bool:
        """Make the member a combat medic (l.529; the project's price) or not."""
        change, members = self._with_members(team)
        m = members[member]
        if m.get("medic") is True:
            m.pop("medic")
        else:
            m["medic"] = True
        return self._try(change, f"{m.get('role')}: {'combat medic' if m.get('medic') else 'no medic'}")

    def budget(self, step: int) -> bool:
        change = copy.deepcopy(self.roster)
        change["budget"] = int(change.get("budget") or 0) + step
        return self._try(change, f"budget {change['budget']}")

    def undo(self) -> bool:
        if not self.history:
            self.said = "nothing to undo"
            return False
        self.roster, self.refused, self.changed = self.history.pop(), None, True
        self.said = "undone"
        return True

    # --- saving --------------------------------------------------------------------

    def file_name(self) -> str:
        base = str(self.roster.get("name") or f"{self.side} roster")
        words = "".join(c if c.isalnum() else " " for c in base.lower()).split()
        return "-".join(words or [self.side]) + ".yaml"

    def save(self, folder: Path | None = None) -> Path | None:
        """Write the roster as YAML (atomically: the old file or the whole new one) if
        ``roster.check`` passes; None and the reason in ``refused`` if not."""
        problems = self.problems()
        if problems:
            self.refused = problems[0].removeprefix("roster: ")
            self.said = f"not saved: {self.refused}"
            return None
        folder = folder or rosters_folder()
        make_folder(folder)
        path = folder / self.file_name()
        text = f"# built in the window: {roster.cost(self.roster)} of {self.roster['budget']} points\n"
        write_atomic(path, text + yaml.safe_dump(self.roster, sort_keys=False, allow_unicode=True))
        self.changed = False
        self.said = f"saved {path}"
        return path
