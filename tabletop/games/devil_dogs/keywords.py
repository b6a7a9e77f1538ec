"""The 21 keyword actions of 9 (The Devil Dogs of Belleau Wood), barrages and gas included.

A keyword is executed as a step of the sector's queue (``ruleset``): ``options`` lists
the acting player's choices for it (none: the rules carry it out themselves, ``auto``),
``execute`` carries out one choice (or the whole keyword when it is automatic) and says
whether the keyword is finished. Readings of the text's gaps are marked "project's
choice" here and in ``rules.yaml``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from tabletop.engine.actions import Action
from tabletop.engine.dice import Dice
from tabletop.engine.game import private
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import combat as cb
from .combat import PINNED, add_effect, in_sector, other, sector_hexes, units
from .data import card_index, figures, parse_keyword
from .movement import POLICY, retreat_ends

Step = dict[str, Any]
#: keywords that last the turn in their sector (read when damage or movement is worked out)
EFFECTS = ("Concealment", "Defensive Fire", "Hesitation", "Hidden MG's", "Shell Holes")
PICKS = ("Audacity", "Rally", "Regroup", "Sniper", "Underfed", "Accurate Fire")
BARRAGES = ("Barrage", "Sausage/Recon'd Barrage", "Gas Barrage")
COMPASS_VECTORS = {
    "N": Hex(0, -1),
    "NE": Hex(1, -1),
    "SE": Hex(1, 0),
    "S": Hex(0, 1),
    "SW": Hex(-1, 1),
    "NW": Hex(-1, 0),
}


def picks(step: Step) -> int:
    """How many targets a picking keyword takes (its X; Accurate Fire 2; Audacity 1)."""
    name = step["kw"]
    if name == "Accurate Fire":
        return 2
    if name == "Audacity":
        return 1
    return int(step["x"])


def compass(n: int) -> Hex:
    """G6 (rules.yaml): compass number -> the direction on the map."""
    return COMPASS_VECTORS[figures().compass[n]]


def deviation_draw(state: GameState, side: str, dice: Dice, lines: list[str]) -> int:
    """5.5, 9: the top card of the side's deck, read for its deviation and discarded (G7)."""
    deck = state.decks[side]
    card = deck.draw(dice)
    deck.discard(card)
    value = card_index()[card].deviation
    lines.append(f"{side} draws {card} for deviation: {'HIT' if value == 0 else value}")
    return value


def _step_away(state: GameState, h: Hex, n: int) -> Hex | None:
    to = Hex(h.q + compass(n).q, h.r + compass(n).r)
    return to if state.board.grid.contains(to) else None


# --- the choices of each keyword --------------------------------------------------------------


def options(state: GameState, step: Step) -> list[Action]:
    """The acting player's choices for keyword ``step``; [] when the rules act alone."""
    name, side, sector = step["kw"], step["side"], step["sector"]
    done = set(step.get("picked", []))
    board = state.board
    if name in PICKS:
        targets = pick_targets(state, step)
        out: list[Action] = [{"do": "target", "piece": p.id} for p in targets]
        if name == "Rally":
            out = []
            for p in targets:
                if p.has(PINNED):
                    out.append({"do": "rally", "piece": p.id, "token": "pinned"})
                if cb.has_falter(p):
                    out.append({"do": "rally", "piece": p.id, "token": "falter"})
        return [*out, {"do": "skip"}] if out else []
    if name in BARRAGES and "first" in step:  # 9 BARRAGE 3: on a HIT, the player's direction
        first = board.hex_of(str(step["first"]))
        return [{"do": "second", "dir": n} for n in range(1, 7) if second_hex(state, first, n) is not None]
    if name in BARRAGES:  # any hex of the sector (9); those hitting most enemies listed first
        foes = [p.hex for p in units(state, other(side))]

        def hit(h: Hex) -> int:
            return sum(1 for f in foes if distance(f, h) <= 1)

        return [
            {"do": "barrage", "at": board.label(h)}
            for h in sorted(sector_hexes(state, sector), key=lambda h: (-hit(h), board.label(h)))
        ]
    if name == "Leadership":
        history = [k for k in state.marks.get(f"kw-{side}", []) if not k.startswith("Leadership")]
        return [{"do": "repeat", "keyword": k} for k in dict.fromkeys(history)]
    if name == "Misdirection":
        return misdirect_options(state, step)
    if name == "Bayonets":
        by, enemies = bayonet_pending(state, step)
        if by is None or len(enemies) < 2:
            return []  # nothing to choose: the rules assign it (or the damage follows)
        return [{"do": "bayonet", "piece": by, "target": e.id} for e in enemies]
    if name == "Reinforcement and Reorganization":
        return reinforcement_options(state, side)
    del done
    return []


def pick_targets(state: GameState, step: Step) -> list[Piece]:
    """The units a picking keyword may still take (9)."""
    name, side, sector = step["kw"], step["side"], step["sector"]
    done = step.get("picked", [])
    if name == "Audacity":
        return [p for p in in_sector(state, sector, side) if p.has(PINNED) or p.steps < cb.full_steps(p)]
    if name == "Rally":
        return [p for p in in_sector(state, sector, side) if p.has(PINNED) or cb.has_falter(p)]
    if name == "Regroup":
        return [
            p for p in in_sector(state, sector, side)
            if p.id not in done and not cb.adjacent_enemy(state, p) and (p.has(PINNED) or cb.has_falter(p))
        ]  # fmt: skip
    if name == "Underfed":
        return [p for p in in_sector(state, sector, other(side)) if p.id not in done and p.steps > 1]
    if name == "Accurate Fire":
        return cb.mg_targets(state, sector, side)
    if name == "Sniper":
        friends = units(state, side)
        rng = figures().sniper_range
        near = [
            e for e in units(state, other(side))
            if e.id not in done and any(distance(f.hex, e.hex) <= rng for f in friends)
        ]  # fmt: skip
        free = [e for e in near if not e.has(PINNED)]
        return free or near  # 9: pinned units only once every other is pinned
    return []


def reinforcement_options(state: GameState, side: str) -> list[Action]:
    """9 REINFORCEMENT AND REORGANIZATION with 5.11 (A6): speed a friendly arrival, delay
    an enemy one, or reconstitute a destroyed infantry unit next to its HQ."""
    out: list[Action] = []
    turn = state.turn
    for name, pieces in sorted(state.boxes.items()):
        if not name.startswith("turn-"):
            continue
        n = int(name[5:])
        if any(p.side == side for p in pieces) and n > turn + 1:
            out.append({"do": "reinforce-kw", "speed": n})
        if any(p.side == other(side) for p in pieces) and n > turn:
            out.append({"do": "reinforce-kw", "delay": n})
    for p in state.box(cb.DEAD):
        if p.side == side and figures().kind(p) == "infantry":
            for h in hq_spots(state, p):
                out.append({"do": "reinforce-kw", "reconstitute": p.id, "to": state.board.label(h)})
    return out


def hq_spots(state: GameState, piece: Piece) -> list[Hex]:
    """The free hexes next to the unit's regiment HQ (4, 5.11, G13: the owner picks
    one), HQ by HQ, each by label; [] without an HQ on the map or a free hex."""
    regiment = piece.attr("regiment", None)
    out: list[Hex] = []
    for hq in units(state, piece.side):
        if figures().kind(hq) != "hq" or hq.attr("regiment", None) != regiment:
            continue
        free = [n for n in neighbors(hq.hex) if state.board.grid.contains(n) and not state.map.units_at(n)]
        out += [h for h in sorted(free, key=state.board.label) if h not in out]
    return out


def hq_spot(state: GameState, piece: Piece) -> Hex | None:
    """The first of ``hq_spots`` (the bot's pick); None when there is none (G13)."""
    spots = hq_spots(state, piece)
    return spots[0] if spots else None


def reconstitute(state: GameState, piece_id: str, lines: list[str], to: str | None = None) -> bool:
    """A dead infantry unit back on its reduced face next to its HQ (4, 5.11), on the
    hex ``to`` its owner chose (one of ``hq_spots``; None: the first)."""
    piece = next(p for p in state.box(cb.DEAD) if p.id == piece_id)
    spots = hq_spots(state, piece)
    spot = state.board.hex_of(to) if to else (spots[0] if spots else None)
    if spot is None or spot not in spots:
        return False
    state.from_box(cb.DEAD, piece.id, spot)
    reduced = cb.ladder(piece).index("reduced")
    state.map.update(
        replace(state.map.piece(piece.id), steps=cb.full_steps(piece) - reduced, status=frozenset())
    )
    lines.append(f"{piece.id} is reconstituted, reduced, at {state.board.label(spot)} (5.11)")
    return True


# --- carrying a keyword out ------------------------------------------------------------------


def execute(
    state: GameState, step: Step, action: Action, dice: Dice, queue: list[Step]
) -> tuple[list[str], bool]:
    """Carry out ``action`` (a choice, or {"do": "resolve"} for an automatic keyword) of
    keyword ``step``; returns the lines and whether the keyword is finished."""
    name, side, sector, x = step["kw"], step["side"], step["sector"], int(step["x"])
    lines: list[str] = []
    do = action.get("do")
    if name == "Combat":
        state.marks.setdefault("combats", []).append(json.dumps({"side": side, "x": x}))
        return [f"{side}: Combat {x} in sector {sector} (9; resolved after the keywords, 5.9)"], True
    if name in EFFECTS:
        add_effect(state, name, side, sector)
        return [f"{side}: {name} in sector {sector} this turn (9)"], True
    if name == "Entrench":
        state.tracks[f"entrench-{side}"] = state.track(f"entrench-{side}") + x
        return [f"{side}: Entrench {x}: the next {x} step losses this turn are ignored (9)"], True
    if name == "Bayonets":
        return bayonets(state, step, action, queue)
    if name == "Rout!":
        return rout(state, side, queue), True
    if do == "skip" or (name in PICKS and not options(state, step)):
        return [f"{side}: {step_text(step)} ends"], True
    if name in PICKS:
        piece = state.map.piece(str(action["piece"]))
        step.setdefault("picked", []).append(piece.id)
        lines += pick(state, step, piece, action)
        return lines, len(step["picked"]) >= picks(step) or not options(state, step)
    if name in BARRAGES and "first" in step:
        first = state.board.hex_of(str(step["first"]))
        second = second_hex(state, first, int(action["dir"])) if do == "second" else None
        return barrage_damage(state, step, [first] + ([second] if second is not None else [])), True
    if name in BARRAGES:
        follow: list[Step] = []
        lines = barrage(state, step, state.board.hex_of(str(action["at"])), dice, follow)
        queue[0:0] = follow  # gas: each unit's forced move, its owner's choice (8)
        return lines, "first" not in step
    if name == "Leadership":
        if do == "repeat":
            k = parse_keyword(str(action["keyword"]))
            assert not isinstance(k, str)
            lines.append(f"{side}: Leadership repeats {action['keyword']} (9)")
        else:
            k = parse_keyword("Rally 5")
            assert not isinstance(k, str)
            lines.append(f"{side}: Leadership: no keyword executed yet this turn, so Rally 5 (9)")
        queue.insert(
            0, {"t": "kw", "side": side, "sector": sector, "kw": k.name, "x": k.x, "after": "leadership"}
        )
        return lines, True
    if name == "Misdirection":
        return misdirect(state, step, action)
    if name == "Reinforcement and Reorganization":
        if do == "resolve":
            return [
                f"{side}: Reinforcement and Reorganization: nothing to speed, delay or reconstitute"
            ], True
        return reinforce_kw(state, side, action), True
    raise ValueError(f"keyword {name!r} has no action {do!r}")


def step_text(step: Step) -> str:
    from .data import KEYWORDS

    return f"{step['kw']} {step['x']}" if KEYWORDS[step["kw"]] else str(step["kw"])


def pick(state: GameState, step: Step, piece: Piece, action: Action) -> list[str]:
    """One target of a picking keyword (9)."""
    name, side = step["kw"], step["side"]
    lines: list[str] = []
    if name == "Audacity":
        state.map.update(replace(piece, status=piece.status - {PINNED}, steps=cb.full_steps(piece)))
        lines.append(f"Audacity: {piece.id} loses its tokens and is back to full strength (9)")
    elif name == "Rally":
        if action.get("token") == "pinned":
            cb.unpin(state, piece.id)
            lines.append(f"Rally: {piece.id}'s pinning token removed (9)")
        else:
            state.map.update(replace(piece, steps=piece.steps + 1))
            lines.append(f"Rally: {piece.id}'s falter token removed (9)")
    elif name == "Regroup":
        steps = piece.steps + (1 if cb.has_falter(piece) else 0)
        state.map.update(replace(piece, status=piece.status - {PINNED}, steps=steps))
        lines.append(f"Regroup: every token removed from {piece.id} (9; X = units, A9)")
    elif name == "Sniper":
        cb.pin(state, piece.id, side, lines, "Sniper, 9")
    elif name == "Underfed":
        cb.lose_steps(state, piece.id, 1, side, lines, can_destroy=False)
    elif name == "Accurate Fire":
        cb.lose_steps(state, piece.id, 1, side, lines)
    return lines


HEAVY = ("machine-gun", "gun-pit", "mortar", "artillery")


def bayonet_units(state: GameState, side: str, sector: str) -> list[Piece]:
    """9 BAYONETS: the side's unpinned non-MG company units in the sector next to the enemy."""
    return [
        p for p in in_sector(state, sector, side)
        if not p.has(PINNED) and figures().kind(p) not in HEAVY and cb.adjacent_enemy(state, p)
    ]  # fmt: skip


def bayonet_pending(state: GameState, step: Step) -> tuple[str | None, list[Piece]]:
    """The next bayonet unit still to strike and the adjacent enemies it may hit (not
    yet hit by another: one step a unit from one source, 7.1), priority chart first."""
    side, sector = step["side"], step["sector"]
    struck = step.get("hits", {})
    done = set(step.get("struck", []))
    for p in bayonet_units(state, side, sector):
        if p.id in done:
            continue
        around = set(neighbors(p.hex))
        foes = [e for e in units(state, other(side)) if e.hex in around and e.id not in struck]
        return p.id, sorted(foes, key=lambda e: cb.priority_key(state, e))
    return None, []


def bayonets(state: GameState, step: Step, action: Action, queue: list[Step]) -> tuple[list[str], bool]:
    """9 BAYONETS: each unpinned non-MG company unit next to the enemy hits one adjacent
    enemy, its player's pick where it has two or more (P5); once all have struck the hits
    are applied, and each damaged unit must retreat a hex: its owner moves it or refuses
    (8), and the striking player may advance an adjacent unit into the hex it left."""
    side = step["side"]
    hits: dict[str, str] = step.setdefault("hits", {})
    struck: list[str] = step.setdefault("struck", [])
    if action.get("do") == "bayonet":
        hits[str(action["target"])] = str(action["piece"])
        struck.append(str(action["piece"]))
    while True:
        by, foes = bayonet_pending(state, step)
        if by is None:
            break
        if len(foes) >= 2:
            return [], False  # the player picks (options)
        struck.append(by)
        if foes:
            hits[foes[0].id] = by
    lines: list[str] = []
    follow: list[Step] = []
    for target, by in hits.items():
        lines.append(f"Bayonets: {by} hits {target} (9)")
        if cb.lose_steps(state, target, 1, side, lines) and state.where(target) is None:
            follow.append(forced_step(state, state.map.piece(target), side, None, bayonet=by))
    queue[0:0] = follow
    return lines or [f"{side}: Bayonets: no unit of the sector is next to the enemy"], True


# --- forced moves: Rout!, gas and Bayonets (9), which the owner may refuse (8) ---------------


def forced_step(state: GameState, piece: Piece, by: str, gas_at: Hex | None, bayonet: str = "") -> Step:
    """A unit's forced move, its owner's choice: where among the equally near hexes, or
    refusing (8). ``bayonet``: the unit whose bayonets drove it out, for the advance."""
    return {"t": "forced", "side": str(piece.side), "piece": piece.id, "by": by,
            "gas": state.board.label(gas_at) if gas_at is not None else "", "bayonet": bayonet}  # fmt: skip


_ENDS: dict[tuple[object, ...], list[Hex]] = {}  # the last answers: the turn machine asks often


def forced_ends(state: GameState, step: Step) -> list[Hex]:
    """Where the forced unit may go (``retreat_ends``); [] when it left the map."""
    pid = str(step["piece"])
    on_map = units(state)
    if pid not in {p.id for p in on_map}:
        return []
    key = (state.board.name, pid, step.get("gas"), tuple((p.id, p.hex, p.side, p.status) for p in on_map))
    if key not in _ENDS:
        if len(_ENDS) > 16:
            _ENDS.clear()
        gas_at = state.board.hex_of(str(step["gas"])) if step.get("gas") else None
        _ENDS[key] = retreat_ends(state.map, state.map.piece(pid), gas_at=gas_at, policy=POLICY)[0]
    return list(_ENDS[key])


def forced_choices(state: GameState, step: Step) -> list[Action]:
    """8 REFUSING ORDERS: the owner moves the unit to one of the equally near hexes, or
    refuses (to "": a pin, or a step if already pinned); no choice with nowhere to go."""
    pid = str(step["piece"])
    ends = forced_ends(state, step)
    if not ends:
        return []
    out: list[Action] = [{"do": "retreat", "piece": pid, "to": state.board.label(h)} for h in ends]
    return [*out, {"do": "retreat", "piece": pid, "to": ""}]


def forced_move(state: GameState, step: Step, action: Action | None) -> tuple[list[str], list[Step]]:
    """Carry out a forced move: ``action`` the owner's choice (None: the rules alone,
    when the unit has nowhere to go: it refuses, 8). Returns the lines and, after a
    Bayonets retreat, the striking player's advance step."""
    pid, by = str(step["piece"]), str(step["by"])
    if pid not in {p.id for p in units(state)}:
        return [], []
    lines: list[str] = []
    piece = state.map.piece(pid)
    cause = "gas" if step.get("gas") else "Bayonets" if step.get("bayonet") else "Rout!"
    to = action.get("to") if action is not None else ""
    if not to:
        where = "nowhere legal to go" if action is None else "its owner's choice"
        lines.append(f"{pid} refuses the forced move ({cause}; {where}): 8")
        cb.pin(state, pid, by, lines, "refused a forced move, 8")
        return lines, []
    before = piece.hex
    state.map.move(pid, state.board.hex_of(str(to)))
    cb.unpin(state, pid)
    lines.append(f"{pid} moves to {to} ({cause}; pin removed, 6.2)")
    if step.get("bayonet"):
        advance: Step = {"t": "advance", "side": by, "hex": state.board.label(before), "hitter": step["bayonet"]}
        if advance_choices(state, advance):
            return lines, [advance]
    return lines, []


def advance_choices(state: GameState, step: Step) -> list[Action]:
    """9 BAYONETS: the striking side's unpinned units next to the vacated hex may advance
    into it (the one that struck first), or none; [] when the hex is taken or none can."""
    h = state.board.hex_of(str(step["hex"]))
    if state.map.units_at(h):
        return []
    near = [p for p in units(state, str(step["side"])) if distance(p.hex, h) == 1 and not p.has(PINNED)]
    near.sort(key=lambda p: (p.id != step.get("hitter"), p.id))
    if not near:
        return []
    out: list[Action] = [{"do": "advance", "piece": p.id, "to": step["hex"]} for p in near]
    return [*out, {"do": "advance", "piece": "", "to": step["hex"]}]


def advance(state: GameState, action: Action) -> list[str]:
    if not action.get("piece"):
        return [f"no unit advances into {action['to']} (9 BAYONETS)"]
    state.map.move(str(action["piece"]), state.board.hex_of(str(action["to"])))
    return [f"{action['piece']} advances into {action['to']} (9 BAYONETS)"]


def rout(state: GameState, side: str, queue: list[Step]) -> list[str]:
    """9 ROUT!: every enemy unit damaged or pinned this turn must retreat from its hex;
    each is a forced move its owner carries out or refuses (8)."""
    hit = set(state.marks.get("damaged", [])) | set(state.marks.get("pinned-now", []))
    routed = [e for e in units(state, other(side)) if e.id in hit]
    queue[0:0] = [forced_step(state, e, side, None) for e in routed]
    if not routed:
        return [f"{side}: Rout!: no enemy unit was damaged or pinned this turn"]
    return [f"{side}: Rout!: {', '.join(e.id for e in routed)} must retreat (9 ROUT!)"]


def _under(state: GameState, centres: list[Hex]) -> list[Piece]:
    area = {h for c in centres for h in (c, *neighbors(c))}
    return [p for p in units(state) if p.hex in area]


def _gas_tokens(state: GameState) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "marker" and p.type in ("gas", "gas-2")]


def barrage(state: GameState, step: Step, first: Hex, dice: Dice, follow: list[Step]) -> list[str]:
    """9 BARRAGE, SAUSAGE/RECON'D BARRAGE and GAS BARRAGE from the first token's hex."""
    name, side = step["kw"], step["side"]
    board = state.board
    lines = [f"{side}: {name} aimed at {board.label(first)} (9)"]
    if name == "Gas Barrage" and len(_gas_tokens(state)) >= 2:
        lines.append("both gas tokens are on the map: a regular barrage instead (9 GAS BARRAGE)")
        name = "Barrage"
    value = deviation_draw(state, side, dice, lines)
    if name == "Barrage" and value:
        moved = _step_away(state, first, value)
        if moved is None:
            lines.append("the token deviates off the map: no effect (G6, project's choice)")
            return lines
        first = moved
        lines.append(f"the first token deviates to {board.label(first)}")
    if name == "Gas Barrage":
        return lines + gas(state, side, first, follow)
    if value == 0:  # a HIT: the second token's direction is the player's (9 BARRAGE 3, P8)
        step["first"] = board.label(first)
        lines.append("a HIT: the player places the second token two hexes away in a direction of his choice")
        return lines
    second = second_hex(state, first, value)
    return lines + barrage_damage(state, step, [first] + ([second] if second is not None else []))


def barrage_damage(state: GameState, step: Step, centres: list[Hex]) -> list[str]:
    """9 BARRAGE 4: a step from every unit under or next to either token; the track
    moves by the enemy's steps, at most 5."""
    side = step["side"]
    lines = ["tokens at " + ", ".join(state.board.label(h) for h in centres)]
    lost = 0
    for p in _under(state, centres):
        lost_here = cb.lose_steps(state, p.id, 1, side, lines, track=False)
        if p.side != side:
            lost += lost_here
    cap = figures().barrage_cap
    cb._track_move(state, side, min(lost, cap))  # 9: never more than 5 spaces
    if lost > cap:
        lines.append(f"the track moves only {cap} spaces (9 BARRAGE)")
    return lines


def second_hex(state: GameState, first: Hex, n: int) -> Hex | None:
    """9 BARRAGE 3: two hexes from the first token in compass direction ``n``; None off the map."""
    v = compass(n)
    h = Hex(first.q + 2 * v.q, first.r + 2 * v.r)
    return h if state.board.grid.contains(h) else None


def second_worth(state: GameState, side: str, first: Hex, n: int) -> int:
    """What a second token in direction ``n`` adds (the bot's measure, P8): enemy units
    newly under it, friendly ones counted twice against."""
    h = second_hex(state, first, n)
    if h is None:
        return -99
    hit = [p for p in _under(state, [h]) if p.hex not in {first, *neighbors(first)}]
    return sum(1 if p.side != side else -2 for p in hit)


def gas(state: GameState, side: str, at: Hex, follow: list[Step]) -> list[str]:
    """9 GAS BARRAGE: one token; units under or next to it lose a step and move away."""
    n = state.track("gas-serial") + 1
    state.tracks["gas-serial"] = n
    state.map.place(Piece(f"GAS{n}", "gas", at, side, kind="marker"))
    lines = [f"gas token GAS{n} at {state.board.label(at)} (9 GAS BARRAGE)"]
    return lines + gas_effect(state, at, follow)


def gas_effect(state: GameState, at: Hex, follow: list[Step]) -> list[str]:
    """9 GAS BARRAGE: a step from each unit under or next to the token; each still on
    the map "not only" loses it but must move away (``follow``: its owner's forced move,
    which he may refuse, 8), even when Entrench saved the step."""
    lines: list[str] = []
    for p in _under(state, [at]):
        cb.lose_steps(state, p.id, 1, other(str(p.side)), lines)
        if p.id in {u.id for u in units(state)}:
            follow.append(forced_step(state, state.map.piece(p.id), other(str(p.side)), at))
    return lines


def gas_drift(state: GameState, dice: Dice, follow: list[Step]) -> list[str]:
    """5.5 GAS DRIFT (A5): flipped tokens are removed; the others flip to #2, drift one
    hex on their owner's deviation draw and act again."""
    lines: list[str] = []
    for token in _gas_tokens(state):
        if token.type == "gas-2":
            state.map.remove(token.id)
            lines.append(f"gas token {token.id} is removed (5.5)")
            continue
        owner = str(token.side)
        value = deviation_draw(state, owner, dice, lines)
        at = token.hex
        if value:
            moved = _step_away(state, at, value)
            at = moved if moved is not None else at
        state.map.remove(token.id)
        state.map.place(replace(token, type="gas-2", hex=at))
        lines.append(f"gas token {token.id} flips to #2 at {state.board.label(at)} (5.5)")
        lines += gas_effect(state, at, follow)
    return lines


def misdirect_options(state: GameState, step: Step) -> list[Action]:
    """9 MISDIRECTION: first which half (examine the opponent's card in an unactivated
    sector with his reserve, or look at the next six cards of his deck); then, having
    examined, exchange the two or not; having looked, each card in turn to the bottom
    or left on top ("any number of them")."""
    side, sector = step["side"], step["sector"]
    foe = other(side)
    if "examine" in step:
        return [{"do": "misdirect", "swap": True}, {"do": "misdirect", "swap": False}]
    if "six" in step:
        k = len(step["decided"]) + 1
        return [{"do": "misdirect", "card": k, "bury": True}, {"do": "misdirect", "card": k, "bury": False}]
    out: list[Action] = []
    if state.decks.get(foe) is not None and state.decks[foe].cards:
        out.append({"do": "misdirect", "look": True})
    if state.hands.get(foe):
        played = [e.split(":", 1)[0] for e in state.marks.get(f"cards-{foe}", [])]
        for s in state.marks.get("sectors", []):
            if s in played and s not in state.marks.get("done", []) and s != sector:
                out.append({"do": "misdirect", "sector": s})
    return out


def misdirect_seen(state: GameState, step: Step) -> tuple[list[str], list[str]]:
    """What the Misdirection player examines now: (the opponent's card in the sector and
    his reserve) or (the top cards of his deck), real card ids; ([], []) otherwise."""
    foe = other(step["side"])
    if "examine" in step:
        sector = str(step["examine"])
        card = next(e.split(":", 1)[1] for e in state.marks[f"cards-{foe}"] if e.startswith(f"{sector}:"))
        return [card, state.hands[foe][0]], []
    if "six" in step:
        return [], list(state.decks[foe].cards[: int(step["six"])])
    return [], []


def misdirect(state: GameState, step: Step, action: Action) -> tuple[list[str], bool]:
    """9 MISDIRECTION, one choice at a time (``misdirect_options``); what the player
    examines is written in a log line only he reads."""
    side = step["side"]
    foe = other(side)
    if action.get("do") == "resolve":
        return [f"{side}: Misdirection: no card of {foe}'s to examine or look at (9)"], True
    if action.get("sector"):
        step["examine"] = str(action["sector"])
        (card, reserve), _ = misdirect_seen(state, step)
        return [
            f"{side}: Misdirection examines {foe}'s card in sector {step['examine']} and his reserve card (9)",
            private(side, f"Misdirection: {foe}'s card in sector {step['examine']} is {card}, his reserve {reserve}"),
        ], False
    if action.get("look"):
        step["six"] = min(6, len(state.decks[foe].cards))
        step["decided"] = []
        _, top = misdirect_seen(state, step)
        return [
            f"{side}: Misdirection looks at {foe}'s next {step['six']} cards (9)",
            private(side, f"Misdirection: {foe}'s next cards, top first: {', '.join(top)}"),
        ], False
    if "swap" in action:
        sector = str(step["examine"])
        if not action["swap"]:
            return [f"{side}: Misdirection leaves {foe}'s card in sector {sector} (9)"], True
        cards = state.marks[f"cards-{foe}"]
        i = next(i for i, c in enumerate(cards) if c.startswith(f"{sector}:"))
        old = cards[i].split(":", 1)[1]
        cards[i] = f"{sector}:{state.hands[foe][0]}"
        state.hands[foe][0] = old
        return [f"{side}: Misdirection swaps {foe}'s card in sector {sector} with his reserve card (9)"], True
    step["decided"].append(bool(action.get("bury")))
    if len(step["decided"]) < int(step["six"]):
        return [], False
    deck = state.decks[foe]
    n = int(step["six"])
    top, rest = deck.cards[:n], deck.cards[n:]
    buried = [c for c, b in zip(top, step["decided"], strict=True) if b]
    deck.cards = [c for c, b in zip(top, step["decided"], strict=True) if not b] + rest + buried
    return [f"{side}: Misdirection puts {len(buried)} of {foe}'s next {n} cards on the bottom of his deck (9)"], True


def reinforce_kw(state: GameState, side: str, action: Action) -> list[str]:
    """9 REINFORCEMENT AND REORGANIZATION (A6)."""
    if "reconstitute" in action:
        lines: list[str] = []
        reconstitute(state, str(action["reconstitute"]), lines, action.get("to"))
        return lines
    if "speed" in action:
        n, owner, to = int(action["speed"]), side, int(action["speed"]) - 1
    else:
        n, owner, to = int(action["delay"]), other(side), int(action["delay"]) + 1
    moving = [p for p in state.box(f"turn-{n}") if p.side == owner]
    state.boxes[f"turn-{n}"] = [p for p in state.box(f"turn-{n}") if p.side != owner]
    if not state.boxes[f"turn-{n}"]:
        del state.boxes[f"turn-{n}"]
    state.boxes.setdefault(f"turn-{to}", []).extend(moving)
    return [f"{side}: {owner}'s reinforcements of turn {n} now arrive on turn {to} (9, 5.11)"]
