"""What The Devil Dogs of Belleau Wood adds to the window: its panels and an overlay.

- ``hand``: the cards of the side at the screen, each with its three orders (5.1, 5.2);
  the opponent's hand is never given to the extras (only ``seen``, the side's view).
  In hot-seat its own hand and face-down cards show only in PRIVATE_PHASES (5.1-5.4,
  5.6): the screen is covered there and nowhere else (``DevilDogsRules.handoff``);
  against a bot (the view's ``shared_screen`` False) they show all the time.
- ``sectors``: each sector's card space: the cards face down ("?") until revealed
  (5.2, 5.7), the order indicators, the sector chit, and whether it was activated.
- ``initiative``: the track's position and band, its pool (5.3.1), battlefield
  initiative, victory points so far (G5), the dead pool and USMC replacement points.
- ``choices``: every gap of the text with the project's answer (choices.yaml), and the
  text's optional rules with the reading in force (rules.yaml options);
- ``misdirection``: while the side at the screen carries out 9 MISDIRECTION, the
  opponent's cards it examines (its view holds them, ``DevilDogsRules.view``);
- ``combat``: in a sector being executed, each side's CD and the steps it would inflict
  in a Combat of the ranges on its revealed cards (the odds before the combat, 7, 8.1).
- overlay ``sectors``: the sectors in play, and the objective hexes with who holds them;
  overlay ``hits``: the MG, combat, barrage and mortar results of this turn on the map.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Panel, Row, Seen, state_of
from tabletop.engine.game import SideView
from tabletop.engine.state import GameState

from . import combat as cb
from . import keywords as kw
from . import ruleset as ro
from .choices import choices
from .combat import DEAD, SIDES
from .data import ORDERS, card_index, figures
from .ruleset import PRIVATE_PHASES, card_of, order_of, pairs, sector_initiative, sectors, victory_points


class DevilDogsExtras(NoExtras):
    """The hand, the sector card spaces, the initiative panel and the combat preview."""

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        state = state_of(seen)
        if not state.marks.get("sectors"):
            return ()
        side = seen.side if isinstance(seen, SideView) else None
        own = own_cards_shown(seen)
        out = [sector_panel(state, side, own), initiative_panel(state)]  # short ones first: the hand may be long
        if side is not None:
            out.append(hand_panel(state, side, own))
            examined = misdirection_panel(state, side)
            if examined is not None:
                out.insert(0, examined)
        active = state.marks.get("active")
        if active:
            out.append(combat_panel(state, active[0]))
        out.append(choices_panel(state))
        return tuple(out)

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        state = state_of(seen)
        if not state.marks.get("sectors"):
            return ()
        return (sector_overlay(state), hits_overlay(state))


def hits_overlay(state: GameState) -> Overlay:
    """The fire of this turn on the map (5.5, 5.8, 7, 9): units that lost steps and units
    pinned, where they stand now."""
    damaged = set(state.marks.get("damaged", []))
    pinned = set(state.marks.get("pinned-now", []))
    marks = []
    for p in cb.units(state):
        if p.id in damaged:
            marks.append(Mark(p.hex, "bad", f"{p.steps}/{cb.full_steps(p)}"))
        elif p.id in pinned:
            marks.append(Mark(p.hex, "steady", "PIN"))
    legend = (
        LegendEntry("bad", "lost steps this turn (MG, combat, barrage, mortar, keyword): steps left / full"),
        LegendEntry("steady", "pinned this turn (mortar, Sniper, a refused order)"),
    )
    return Overlay("hits", "Fire this turn", legend, tuple(marks))


def own_cards_shown(seen: Seen) -> bool:
    """Whether the side at the screen sees its own hand and face-down cards now: always
    against a bot; in hot-seat only in PRIVATE_PHASES, where the screen was covered for
    it (elsewhere the table is public and the other player may be looking)."""
    if not isinstance(seen, SideView):
        return True
    return not seen.shared_screen or state_of(seen).phase in PRIVATE_PHASES


def hand_panel(state: GameState, side: str, own: bool = True) -> Panel:
    """5.1: the side's own hand, every order of every card (``own``: shown now)."""
    rows: list[Row] = []
    if not own:
        n = len(state.hands.get(side, []))
        rows.append(Row(f"{n} card(s) in hand: shown at 5.1-5.4 and 5.6 (hot-seat: the table is public now)", "dim"))
        return Panel("hand", f"Your hand ({side})", rows)
    for card_id in state.hands.get(side, []):
        card = card_index().get(card_id)
        if card is None:
            rows.append(Row(f"{card_id} (hidden)", "dim"))
            continue
        rows.append(Row(f"{card.id} (dev. {card.deviation_text()})", "strong"))
        for kind in ORDERS:
            rows.append(Row(f" {kind[0].upper()}: {card.order(kind).text()}"))
    if not rows:
        rows.append(Row("no cards in hand", "dim"))
    return Panel("hand", f"Your hand ({side})", rows)


def sector_panel(state: GameState, side: str | None, own: bool = True) -> Panel:
    """5.2-5.7: each sector's card space, face down until revealed; ``side``'s own cards
    face up to it when ``own``."""
    rows: list[Row] = []
    chits = pairs(state, "chits")
    shown = set(state.marks.get("revealed", []))
    done = set(state.marks.get("done", []))
    for sector in sectors(state):
        status = (
            "activated" if sector in done else "active now" if sector in state.marks.get("active", []) else ""
        )
        chit = chits.get(sector, "-")
        rows.append(Row(f"Sector {sector}  chit {chit}  {status}".rstrip(), "strong"))
        for s in SIDES:
            card_id = card_of(state, s, sector)
            order = order_of(state, s, sector)
            if card_id is None:
                rows.append(Row(f"  {s}: no card yet", "dim"))
                continue
            card = card_index().get(card_id)
            face_up = sector in shown or (s == side and own)
            what = order or "order not set"
            if face_up and card is not None:
                text = f"  {s}: {card.id} {what}" + (f": {card.order(order).text()}" if order else "")
                rows.append(Row(text, "good" if sector in shown else "plain"))
            else:
                rows.append(Row(f"  {s}: card face down, {what}", "dim"))
    return Panel("sectors", "Sector card spaces", rows)


def misdirection_panel(state: GameState, side: str) -> Panel | None:
    """9 MISDIRECTION: the opponent's cards ``side`` examines now, each with its orders;
    None when it examines nothing (the view shows them to it alone)."""
    steps = ro.queue(state) if state.phase == "execute" else []
    if not steps or steps[0]["t"] != "kw" or steps[0]["kw"] != "Misdirection" or steps[0]["side"] != side:
        return None
    examined, looked = kw.misdirect_seen(state, steps[0])
    if not examined and not looked:
        return None
    rows: list[Row] = []
    if examined:
        names = (f"card in sector {steps[0]['examine']}", "reserve card")
        pairs_ = list(zip(names, examined, strict=True))
    else:
        decided = steps[0].get("decided", [])
        pairs_ = [
            (f"{i + 1}" + (f" ({'bottom' if decided[i] else 'top'})" if i < len(decided) else ""), c)
            for i, c in enumerate(looked)
        ]
    for name, card_id in pairs_:
        card = card_index().get(card_id)
        rows.append(Row(f"{name}: {card_id}", "strong"))
        if card is not None:
            rows += [Row(f" {kind[0].upper()}: {card.order(kind).text()}") for kind in ORDERS]
    return Panel("misdirection", "Misdirection: the enemy's cards you examine", rows)


def initiative_panel(state: GameState) -> Panel:
    """5.3: the track and its pool; G5: the points so far; 5.11: dead pool, USMC points."""
    f = figures()
    position = state.track("initiative")
    band = f.band(position)
    pool = f.pools[band]
    vp = victory_points(state)
    bi = SIDES[state.track("bi")] if "chits" in state.marks else "not drawn yet"
    dead = {s: sum(1 for p in state.box(DEAD) if p.side == s) for s in SIDES}
    rows = [
        Row(f"track {position:+d}: {band}, pool {pool['US']} US / {pool['GE']} GE / {pool['S']} S (5.3.1)", "strong"),
        Row(f"battlefield initiative: {bi} · turn {state.turn} of {state.track('turns')}"),
        Row(f"VP (G5) Allied {vp['allied']}, German {vp['german']} · dead Allied {dead['allied']}, "
            f"German {dead['german']} · USMC points {state.track('usmc-points')}", "dim"),
    ]  # fmt: skip
    return Panel("initiative", "Initiative", rows)


def combat_panel(state: GameState, sector: str) -> Panel:
    """7, 8.1: before a combat, each side's CD and the steps it would inflict now, for
    every Combat X shown on the sector's revealed cards."""
    rows: list[Row] = []
    ranges: set[int] = set()
    for s in SIDES:
        card_id = card_of(state, s, sector)
        kind = order_of(state, s, sector)
        card = card_index().get(card_id or "")
        if card is None or kind is None or sector not in state.marks.get("revealed", []):
            continue
        ranges |= {k.x for k in card.order(kind).keywords if k.name == "Combat"}
    if not ranges:
        rows.append(Row("no Combat keyword revealed in this sector", "dim"))
    lead = sector_initiative(state, sector) or SIDES[state.track("bi")]
    for x in sorted(ranges):
        rows.append(Row(f"Combat {x} (started by the active side):", "strong"))
        for s in SIDES:
            cd, hits = cb.fire_plan(state, sector, s, x, lead)
            rows.append(Row(f"  {s}: {cd} CD -> {len(hits)} step(s) on {', '.join(hits) or 'nobody'}"))
    return Panel("combat", f"Combat odds in sector {sector}", rows)


def choices_panel(state: GameState) -> Panel:
    """Every gap of the text and the project's answer (choices.yaml), and the text's
    optional rules with the reading in force (rules.yaml options)."""
    rows: list[Row] = [Row("Where the text is silent or contradicts itself: the project's choices", "dim")]
    for o in figures().options.values():
        on = ro.option(state, o.key)
        rows.append(Row(f"option {o.key} ({o.section}): {'ON' if on else 'off'}", "strong"))
        rows.append(Row(f"  {o.with_ if on else o.without}"))
    for c in choices():
        rows.append(Row(f"{c.id} ({c.section}) project's choice", "strong"))
        rows.append(Row(f"  {c.choice}"))
    return Panel("choices", "Project's choices", rows)


def sector_overlay(state: GameState) -> Overlay:
    """The sectors in play (their letters) and the objectives with their holder."""
    board = state.board
    marks: dict[object, Mark] = {}
    for sector in sectors(state):
        for h in cb.sector_hexes(state, sector):
            marks[h] = Mark(h, "info", sector)
    for label in state.marks.get("objectives", []):
        h = board.hex_of(label)
        holder = next((s for s in SIDES if label in state.marks.get(f"held-{s}", [])), None)
        marks[h] = Mark(h, "good" if holder == "allied" else "bad" if holder == "german" else "steady", "OBJ")
    legend = (
        LegendEntry("info", "a sector in play (1.2); border columns belong to both (5.8)"),
        LegendEntry("good", "objective held by the Allies (1.2, G5)"),
        LegendEntry("bad", "objective held by the Germans"),
    )
    return Overlay("sectors", "Sectors and objectives", legend, tuple(marks.values()))


def extras() -> DevilDogsExtras:
    return DevilDogsExtras()
