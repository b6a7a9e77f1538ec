"""One attack of Dogfaces in Space (VI): the damage points that reach a target, the column,
the roll and its modifiers, the Combat Table's result, and the exact odds of each
result (for the bots and a combat preview).

An attack is the ``Strike``s aimed at one target in one Attack phase (their damage is
summed, VI), or one splash hit (never summed with anything, VI). What the target is made
of is a ``Target``. The resolver rolls with the game's dice; ``odds`` gives the same
procedure's probabilities exactly (fractions), so the bot's arithmetic is the rules'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .data import Roster, roster
from .los import default_table as shot_table

Roll = Callable[[str], int]  # a d6 rolled for a purpose


@dataclass(frozen=True)
class Strike:
    """One weapon's fire at the target: ``damage`` points of ``kind``; ``double``: Harry's
    second shot (+1 point unless it misses); ``sharp``: fired by a sharpshooter (Chuck);
    ``lower``: fired from lower ground (hill)."""

    damage: int
    kind: str
    double: bool = False
    sharp: bool = False
    lower: bool = False
    splash: bool = False


@dataclass(frozen=True)
class Target:
    """What the target's own rules and hex do to an attack."""

    suit: bool = False
    ap_only: bool = False
    vehicle: bool = False
    hard_to_hit: bool = False
    lucky: bool = False
    ignores_stun: bool = False
    terrain: str = "grassland"


def result_of(column: int, roll: int, r: Roster | None = None) -> str:
    """The Combat Table's result (VI): columns above 7 read 7+; below 1, no attack (G-D14)."""
    if column < 1:
        return "miss"
    table = (r or roster()).table
    return table[max(1, min(6, roll))][min(column, 7) - 1]


def strength_shift(target: Target, r: Roster | None = None) -> int:
    """The change to the column: town -1 (V), vehicle -1 (II Foxtrot)."""
    shift = 0
    effect = shot_table().into_hex.get(target.terrain)
    if effect is not None and effect.applies_to == "attack strength":
        shift += effect.amount
    if target.vehicle:
        shift += int((r or roster()).numbers["vehicle-strength"])
    return shift


def roll_modifier(strikes: Sequence[Strike], target: Target, r: Roster | None = None) -> int:
    """The change to the die: sharpshooter +1 (II Chuck), forest -1, hill -1 when shot from
    lower ground (V), hard to hit -1 except frag and flame splash (II Rocky)."""
    r = r or roster()
    mod = 0
    if any(s.sharp for s in strikes):
        mod += int(r.numbers["sharpshooter"])
    effect = shot_table().into_hex.get(target.terrain)
    from_below = effect is not None and (not effect.when_firer_lower or any(s.lower for s in strikes))
    if effect is not None and effect.applies_to == "attack roll" and from_below:
        mod += effect.amount
    if target.hard_to_hit and any(not s.splash and s.kind != "frag" for s in strikes):
        mod += int(r.numbers["hard-to-hit"])
    return mod


def _counts(strike: Strike, target: Target) -> bool:
    """Whether the strike's points can harm the target at all (II armour)."""
    if target.ap_only:
        return strike.kind == "ap"  # II MCV: only armour-piercing weapons harm it
    # II George: completely protected from frag and flame splash
    return not (target.suit and (strike.kind == "frag" or strike.splash))


def _absorbable(strike: Strike, target: Target) -> bool:
    """Points an armoured suit absorbs on 5-6: laser and direct flame (II George; G-D11)."""
    return target.suit and strike.kind in ("laser", "flame") and not strike.splash


def points_distribution(
    strikes: Sequence[Strike], target: Target, r: Roster | None = None
) -> dict[int, Fraction]:
    """The exact distribution of the damage points reaching the target."""
    r = r or roster()
    hit = Fraction(6 - len(r.numbers["double-shot-misses"]), 6)
    absorb = Fraction(len(r.numbers["suit-absorbs"]), 6)
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for s in strikes:
        if not _counts(s, target):
            continue
        parts = [(s.damage, Fraction(1))]
        if s.double:
            parts = [(s.damage + 1, hit), (s.damage, 1 - hit)]
        nxt: dict[tuple[int, int], Fraction] = {}
        for (ap, soft), p in dist.items():
            for d, q in parts:
                key = (ap, soft + d) if _absorbable(s, target) else (ap + d, soft)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        dist = nxt
    out: dict[int, Fraction] = {}
    for (ap, soft), p in dist.items():
        if soft and target.suit:
            out[ap] = out.get(ap, Fraction(0)) + p * absorb
            out[ap + soft] = out.get(ap + soft, Fraction(0)) + p * (1 - absorb)
        else:
            out[ap + soft] = out.get(ap + soft, Fraction(0)) + p
    return out


@cache
def roll_distribution(modifier: int, lucky: bool) -> dict[int, Fraction]:
    """The modified roll (kept within 1..6, VI) with one die, or the lower of two (II Xavier)."""
    out: dict[int, Fraction] = {}
    faces = [(a, b) for a in range(1, 7) for b in range(1, 7)] if lucky else [(a, a) for a in range(1, 7)]
    for a, b in faces:
        roll = max(1, min(6, min(a, b) + modifier))
        out[roll] = out.get(roll, Fraction(0)) + Fraction(1, len(faces))
    return out


def odds(strikes: Sequence[Strike], target: Target, r: Roster | None = None) -> dict[str, Fraction]:
    """The exact probability of each result of this attack (miss, St, R2, R2S, OOC)."""
    r = r or roster()
    out = {k: Fraction(0) for k in ("miss", "St", "R2", "R2S", "OOC")}
    shift = strength_shift(target, r)
    rolls = roll_distribution(roll_modifier(strikes, target, r), target.lucky)
    for points, p in points_distribution(strikes, target, r).items():
        if points <= 0:
            out["miss"] += p
            continue
        for roll, q in rolls.items():
            out[result_of(points + shift, roll, r)] += p * q
    return out


def resolve(
    strikes: Sequence[Strike], target: Target, d6: Roll, who: str, r: Roster | None = None
) -> tuple[str, list[str]]:
    """Roll one attack on ``who``: the result and what happened in words."""
    r = r or roster()
    lines: list[str] = []
    ap = soft = 0
    for s in strikes:
        if not _counts(s, target):
            lines.append(f"{s.kind}{' splash' if s.splash else ''} cannot harm {who} (II)")
            continue
        d = s.damage
        if s.double:
            face = d6(f"Harry's second shot at {who} (misses on 1-2)")
            d += 0 if face in r.numbers["double-shot-misses"] else 1
        if _absorbable(s, target):
            soft += d
        else:
            ap += d
    if soft and target.suit:
        face = d6(f"{who}'s armoured suit (absorbs on 5-6)")
        if face in r.numbers["suit-absorbs"]:
            lines.append(f"{who}'s suit absorbs {soft} point(s)")
            soft = 0
    points = ap + soft
    if points <= 0:
        return "miss", [*lines, f"no damage reaches {who}"]
    column = points + strength_shift(target, r)
    if column < 1:
        return "miss", [*lines, f"{points} point(s) at {who}: column {column}, no effect (G-D14)"]
    mod = roll_modifier(strikes, target, r)
    face = d6(f"attack on {who}: {points} point(s), column {min(column, 7)}, modifier {mod:+d}")
    if target.lucky:
        second = d6(f"{who} is lucky: the lower of two rolls")
        face = min(face, second)
    roll = max(1, min(6, face + mod))
    result = result_of(column, roll, r)
    lines.append(f"attack on {who}: {points} point(s), column {min(column, 7)}, roll {roll}: {result}")
    return result, lines
