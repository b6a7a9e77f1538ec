"""D-Day at Omaha Beach, the attack builder (issue 18 item 5): the player picks the units
of an attack one by one (``attack-pick``, a planning step that spends no action and
decides nothing), reads what the attack would be before committing it (the weapons
met, the 9.6 multipliers, the 9.7 row and column, the odds of each result), then plays
the ``attack`` with exactly the picked units.

The odds: an attack on a German unit with a hidden Depth marker is resolved again once
the marker is revealed (9.7); the player does not know which marker it is, so each
marker of the pool it may come from (germans.yaml ``depth``: a WN position's WN Depth,
a Reinforcement position's Building and Mobile Depth) counts once. The German side's
face-down units count at the strength the US view gives them (unknown: 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import attacks as atk
from . import data, german
from .common import extended, rule
from .usdata import attacks

DRAFT = "attack-draft:"  # + target label: the picked unit ids (state.marks)


def draft(state: GameState, target: str) -> list[str]:
    return list(state.marks.get(DRAFT + target, ()))


def drafts(state: GameState) -> dict[str, list[str]]:
    """Every attack being built this phase: target label -> picked unit ids."""
    return {k[len(DRAFT):]: list(v) for k, v in state.marks.items() if k.startswith(DRAFT) and v}


def clear(state: GameState, target: str | None = None) -> None:
    for key in [k for k in state.marks if k.startswith(DRAFT) and (target is None or k == DRAFT + target)]:
        state.marks.pop(key, None)


def toggle(state: GameState, target: str, uid: str) -> list[str]:
    """Add the unit to the attack on ``target``, or take it out."""
    picked = draft(state, target)
    if uid in picked:
        picked.remove(uid)
        word = "taken out of"
    else:
        picked.append(uid)
        word = "added to"
    state.marks[DRAFT + target] = picked
    return [f"attack builder: {uid} {word} the attack on {target} (planning: no action spent)"]


def units(state: GameState, target: str) -> list[Piece]:
    out = []
    for uid in draft(state, target):
        try:
            out.append(state.map.piece(uid))
        except KeyError:
            continue
    return out


# ------------------------------------------------------------------------ the odds


@dataclass(frozen=True)
class Outcome:
    chance: float
    results: tuple[str, ...]


def _candidates(state: GameState, target: Hex) -> list[data.GermanUnit]:
    """The Depth markers a hidden one on ``target`` may be (module doc)."""
    key = atk.target_key(state, target)
    pools = ("wn",) if key is None or german.kind(state.board, key) == "wn" else ("building", "mobile")
    return [m for p in pools for m in data.germans().depth.get(p, ())]


def _again(state: GameState, target: Hex, party: Sequence[Piece], first: atk.Assessment,
           marker: data.GermanUnit) -> tuple[str, ...]:  # fmt: skip
    """The 9.7 cell of the resolve-again with ``marker`` revealed (as ``atk.resolve``:
    no naval weapons the second time, the +9 goes on counting)."""
    needed: set[str] = set()
    unit_fl = False
    for u in atk.germans_at(state, target):
        info = german.info(u)
        if info is not None:
            needed |= set(info.weapons)
            unit_fl = unit_fl or info.fl
    needed |= set(marker.weapons) - {"FL"}
    fl = 3 if unit_fl and marker.fl else 2 if unit_fl or marker.fl else 0
    brought: set[str] = set()
    for u in party:
        brought |= atk.weapons_of(state, u, target)
    if fl and atk.flanked([u.hex for u in party], target, fl):
        brought.add("FL")
    need = needed | ({"FL"} if fl else set())
    missing = need - brought
    strength = sum(u.steps for u in party) + (int(attacks()["naval_bonus"]) if first.naval.startswith("+") else 0)
    if atk.heroes_near(state, target):
        if len(missing) == 1 and "FL" not in missing:
            missing = set()
        else:
            strength += int(attacks()["hero_bonus"])
    defence = sum((i.strength if (i := german.info(u)) else 1) * first.unit_x for u in atk.germans_at(state, target))
    defence += marker.strength * first.depth_x
    delta = atk.delta_of(strength, defence, not missing)
    return atk.cell(not missing, delta, "revealed", extended(state))


def odds(state: GameState, target: Hex, party: Sequence[Piece], naval: bool) -> tuple[atk.Assessment, list[Outcome]]:
    """The attack's assessment and the chance of each list of results."""
    first = atk.assess(state, target, party, naval)
    if first.refused:
        return first, []
    if "reveal-again" not in first.results:
        return first, [Outcome(1.0, first.results)]
    markers = _candidates(state, target)
    if not markers:
        return first, [Outcome(1.0, first.results)]
    count: Counter[tuple[str, ...]] = Counter()
    for m in markers:
        count[_again(state, target, party, first, m)] += 1
    total = sum(count.values())
    out = [Outcome(n / total, (*first.results, *again)) for again, n in count.items()]
    out.sort(key=lambda o: (-o.chance, o.results))
    return first, out


WORDS = {"defeated": "German defeated", "disrupted": "German Disrupted", "drop-depth": "Depth removed",
         "add-depth": "German + Depth", "reveal-again": "Depth revealed, resolve again", "none": "no effect",
         "unreveal": "German face down again", "us-disrupted": "attackers Disrupted"}  # fmt: skip


def outcome_words(o: Outcome) -> str:
    shown = [WORDS.get(w, w) for w in o.results if w != "reveal-again"] or ["no effect"]
    return f"{round(100 * o.chance)}% {', '.join(shown)}"


def summary(state: GameState, target_label: str, party: Sequence[Piece]) -> list[tuple[str, str]]:
    """Lines (text, emphasis) the builder panel shows for an attack being built."""
    target = state.board.hex_of(target_label)
    lines: list[tuple[str, str]] = [(f"attack on {target_label}: {', '.join(u.id for u in party) or 'nobody picked yet'}",
                                     "strong")]  # fmt: skip
    if not party:
        return lines
    a, outcomes = odds(state, target, party, False)
    if a.refused:
        return [*lines, (a.refused, "bad")]
    lines.append((f"attackers {', '.join(a.attackers)}" + (f"; supporters {', '.join(a.supporters)}" if a.supporters else ""), "plain"))
    need = ", ".join(sorted(a.needed)) or "none"
    fl = f", FL from {a.flanking}+ hexes" if a.flanking else ""
    met = "met" if a.met else f"NOT met (missing {', '.join(sorted(a.missing))})"
    lines.append((f"weapons needed {need}{fl}; brought {', '.join(sorted(a.brought)) or 'none'}: {met} ({rule('9.8')})",
                  "plain" if a.met else "bad"))  # fmt: skip
    lines.append((f"9.6: {a.ground}: German units x{a.unit_x}, Depth x{a.depth_x}", "plain"))
    lines.append((f"US {a.strength} against German {a.defence}: 9.7 row {'YES' if a.met else 'NO'} {a.delta}, "
                  f"column {a.column}" + (f"; {'; '.join(a.notes)}" if a.notes else ""), "plain"))  # fmt: skip
    lines.append(("odds: " + "; ".join(outcome_words(o) for o in outcomes), "strong"))
    n, n_out = odds(state, target, party, True)
    if n.refused:
        lines.append(("naval fire: not available (none left, or no attacker with a radio or in HQ command, 6.2)", "dim"))
    else:
        lines.append((f"with naval fire ({n.naval}): row {'YES' if n.met else 'NO'} {n.delta}: "
                      + "; ".join(outcome_words(o) for o in n_out), "plain"))  # fmt: skip
    return lines
