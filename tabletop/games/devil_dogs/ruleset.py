"""The Devil Dogs of Belleau Wood as a rule system the engine plays: the turn of 5.

Phases (5): draw the hands (5.1); assign a card to each sector, both sides at once and
face down (5.2, the engine's simultaneous hook); the initiative pool, chits and
battlefield initiative (5.3); sector orders, both at once (5.4); mortar fire and gas
drift (5.5); then, once per sector (5.10, the ``next_phase`` loop), the activation
(5.6) and the sector's execution (5.7-5.9: reveal, the non-initiative player's movement,
MG and keywords, then the initiative player's, then combat); reinforcements, USMC
replacements and reorganization (5.11).

State kept (plain data, saved with the game):
- ``hands`` and ``decks`` by side; ``tracks``: ``initiative`` (-10..10, + Allied, G2),
  ``bi`` (0 Allied, 1 German has battlefield initiative), ``turns``, ``usmc-points``,
  ``entrench-SIDE``, ``over``;
- ``marks``: ``sectors``, ``objectives``, ``attacker``, ``cards-SIDE`` ("B:US-03"),
  ``orders-SIDE`` ("B:active"), ``chits`` ("B:US"), ``revealed``, ``done``, ``active``,
  ``chooser``, ``queue`` (the sector's steps, JSON), ``combats``, ``effects``,
  ``mortars``, ``damaged``/``pinned-now``/``dead-SIDE`` (this turn), ``kw-SIDE``
  (keywords executed this turn, for Leadership), ``held-SIDE`` (objectives last held);
- box ``dead`` (the dead pool), ``turn-N`` (reinforcements).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.dice import Deck, Dice
from tabletop.engine.game import Phase
from tabletop.engine.movement import plan_move
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.engine.wordhooks import WordsFromModule
from tabletop.hexgrid import Hex, distance, neighbors

from . import combat as cb
from . import keywords as kw
from .combat import ALLIED, DEAD, GERMAN, PINNED, SIDES, in_sector, other, units
from .data import card_index, cards, figures
from .movement import POLICY

GAME = "Devil Dogs"
SEQUENCE = (
    Phase("draw", "Draw Command Card Hand", "auto", f"{GAME} 5.1"),
    Phase("assign", "Assign Sector Command Cards", "auto", f"{GAME} 5.2"),
    Phase("initiative", "Initiative Phase", "auto", f"{GAME} 5.3"),
    Phase("orders", "Assign Sector Orders", "auto", f"{GAME} 5.4"),
    Phase("mortar", "Mortar Fire and Gas Drift", "auto", f"{GAME} 5.5"),
    Phase("activate", "Alternate Sector Activation", "auto", f"{GAME} 5.6, 5.10"),
    Phase("execute", "Order Execution and Combat", "auto", f"{GAME} 5.7-5.9"),
    Phase("reinforce", "Reinforcements", "auto", f"{GAME} 5.11"),
)
CHIT_SIDE = {"US": ALLIED, "GE": GERMAN}
WITHDRAWN = "withdrawn"  # the box of units withdrawn by their scenario (1.2)
#: the phases where a side sees its hand and face-down cards in the window: it draws and
#: assigns them (5.1, 5.2), sets its orders (5.4) and picks a sector to activate (5.6)
PRIVATE_PHASES = ("draw", "assign", "orders", "activate")
Step = dict[str, Any]


# --- small readers of the state ---------------------------------------------------------------


def sectors(state: GameState) -> list[str]:
    return list(state.marks.get("sectors", []))


def pairs(state: GameState, key: str) -> dict[str, str]:
    """A mark of "SECTOR:value" entries as a mapping."""
    return dict(e.split(":", 1) for e in state.marks.get(key, []))


def bi_side(state: GameState) -> str:
    return SIDES[state.track("bi")]


def attacker(state: GameState) -> str:
    return (state.marks.get("attacker") or [ALLIED])[0]


def scenario_initiative(state: GameState) -> str:
    """The scenario-initiative player (5.4 optional rule, 5.11); the attacker when the
    scenario names none (project's choice)."""
    return (state.marks.get("scenario-initiative") or [attacker(state)])[0]


def option(state: GameState, key: str) -> bool:
    """A rules.yaml option (the text's optional rules), as the scenario's options set it."""
    value = state.options.get(key, figures().options[key].default)
    return bool(value)


def orders_first(state: GameState) -> str | None:
    """5.4 (Optional: Scenario initiative player places tokens first): the side placing
    its order indicators first, or None when both place them at once (the text's rule)."""
    return scenario_initiative(state) if option(state, "orders-first") else None


def sector_initiative(state: GameState, sector: str) -> str | None:
    """The side with sector initiative (5.3.2); None on a Stalemate."""
    return CHIT_SIDE.get(pairs(state, "chits").get(sector, "S"))


def order_of(state: GameState, side: str, sector: str) -> str | None:
    return pairs(state, f"orders-{side}").get(sector)


def card_of(state: GameState, side: str, sector: str) -> str | None:
    return pairs(state, f"cards-{side}").get(sector)


def hand_size(state: GameState) -> int:
    """5.1: the sectors in play plus one."""
    return len(sectors(state)) + 1


def queue(state: GameState) -> list[Step]:
    return [json.loads(s) for s in state.marks.get("queue", [])]


def set_queue(state: GameState, steps: list[Step]) -> None:
    if steps:
        state.marks["queue"] = [json.dumps(s, sort_keys=True) for s in steps]
    else:
        state.marks.pop("queue", None)


def first_to_act(state: GameState, sector: str) -> str:
    """5.8: the non-initiative player acts first; on a Stalemate the player without
    battlefield initiative (5.3.2)."""
    holder = sector_initiative(state, sector)
    return other(holder) if holder is not None else other(bi_side(state))


def legal_orders(state: GameState, side: str, sector: str) -> tuple[str, ...]:
    """5.3.2, 5.4: Active only with sector initiative, Reactive without (Stalemate: both
    Reactive); the General side always."""
    holder = sector_initiative(state, sector)
    return ("active", "general") if holder == side else ("reactive", "general")


def movers(state: GameState, sector: str, side: str, move: str) -> list[str]:
    """The units an order moves now (5.8, 5.11 note): the side's units in the sector."""
    if move == "HOLD":
        return []
    return [p.id for p in in_sector(state, sector, side)]


def budget(state: GameState, sector: str, side: str, distance_: int) -> int:
    """9 HESITATION: the enemy's Hesitation here cuts movement by 2, to a minimum of 1."""
    if cb.has_effect(state, "Hesitation", other(side), sector):
        return max(1, distance_ - 2)
    return distance_


def unit_moves(state: GameState, piece: Piece, move: str, hexes: int) -> list[Hex]:
    """The hexes ``piece`` may end in under ``move`` (5.8, 6; movement.py), start included."""
    reach = plan_move(state.map, POLICY, piece, move, hexes)
    return sorted(reach.costs, key=state.board.label)


def refusal_penalty(state: GameState, piece: Piece, move: str, ends: list[Hex]) -> bool:
    """Whether staying put refuses the order (5.8, 8): ADV or RET with a legal end
    elsewhere, not pinned under ADV, not starting next to the enemy under ADV."""
    if move not in ("ADV", "RET") or not any(h != piece.hex for h in ends):
        return False
    return not (move == "ADV" and (piece.has(PINNED) or cb.adjacent_enemy(state, piece)))


def hits_step(side: str, sector: str, cd: int, targets: list[Piece], source: str) -> Step:
    """A damage source's assignment (7.1, G9): ``side`` picks the units hit."""
    return {"t": "hits", "side": side, "sector": sector, "cd": cd, "source": source,
            "targets": [p.id for p in targets], "picked": []}  # fmt: skip


def step_candidates(state: GameState, step: Step) -> list[Piece]:
    wanted = set(step["targets"])
    on_map = [p for p in units(state) if p.id in wanted]
    return cb.hit_candidates(state, on_map, int(step["cd"]), step["picked"])


def hit_choices(state: GameState, step: Step) -> list[Action]:
    """G9: the units of the priority class the inflicting player picks from, when the
    CD cannot hit them all; [] when the rules need no choice."""
    group = step_candidates(state, step)
    if not cb.hit_is_a_choice(state, group, int(step["cd"]), step["picked"]):
        return []
    return [{"do": "hit", "piece": p.id} for p in group]


# --- the ruleset ------------------------------------------------------------------------------


class DevilDogsRules(WordsFromModule):
    """The Devil Dogs turn machine (see the module doc)."""

    words_module = "tabletop.games.devil_dogs.words"  # the window's word hooks (engine.wordhooks)

    name = "devil_dogs"
    sides = SIDES
    players = SIDES
    sequence = SEQUENCE
    undo_across_turns = True
    player_aid_dice = False  # E8: a diceless game; the dice box offers no roll buttons

    # -- set-up (3.1) ------------------------------------------------------------------------

    def prepare(self, state: GameState, scenario: Any = None) -> None:
        """The scenario's sectors, objectives, attacker, track start and length (3.1, G3)."""
        game: Mapping[str, Any] = getattr(scenario, "game", {}) or {}
        board = state.board
        state.marks["sectors"] = list(game.get("sectors") or ["B", "C"])
        state.marks["objectives"] = [board.label(h) for h in game.get("objectives", ())]
        state.marks["attacker"] = [str(game.get("attacker", ALLIED))]
        state.marks["scenario-initiative"] = [str(game.get("scenario-initiative", attacker(state)))]
        state.tracks["initiative"] = int(game.get("initiative", 0))
        state.tracks["turns"] = int(getattr(scenario, "turns", None) or figures().default_turns)
        state.tracks["usmc-points"] = figures().usmc_replacements
        victory = getattr(scenario, "victory", {}) or {}
        for key, value in victory.items():
            state.tracks[f"vp-{key}"] = int(value)
        for side in SIDES:
            entry = game.get(f"{side}-entry")
            if entry:
                state.marks[f"entry-{side}"] = [board.label(h) for h in entry]
        defender = other(attacker(state))
        state.marks[f"held-{defender}"] = list(state.marks["objectives"])

    # -- the hooks ---------------------------------------------------------------------------

    def simultaneous(self, state: GameState) -> tuple[str, ...]:
        """5.2 and 5.4: both sides choose at once, face down."""
        if state.phase == "assign" and "cards-allied" not in state.marks:
            return SIDES
        if state.phase == "orders" and "orders-allied" not in state.marks and orders_first(state) is None:
            return SIDES
        return ()

    def reveal_text(self, commits: Mapping[str, Action]) -> list[str]:
        """5.2: the cards stay face down until their sector is revealed (5.7), so the
        log names no card; the order indicators (5.4) are public and logged by apply."""
        del commits
        return ["both players have made their choice"]

    def reveal(self, state: GameState, commits: Mapping[str, Action], dice: Dice) -> list[str]:
        lines: list[str] = []
        for side in SIDES:
            lines += self.apply(state, dict(commits[side]), dice)
        return lines

    def actor(self, state: GameState) -> str | None:
        if state.phase == "orders" and orders_first(state) is not None:
            return self._orders_actor(state)
        if state.phase == "mortar":
            left = state.marks.get("mortars", [])
            if left:
                return str(state.map.piece(left[0]).side)
            steps = queue(state)  # after the gas drift: the forced moves it causes (8, 9)
            return str(steps[0]["side"]) if steps and self._player_step(state, steps[0]) else "auto"
        if state.phase == "activate" and state.marks.get("chooser"):
            # 5.6: once a sector is chosen the rules end the phase; nobody chooses again
            return "auto" if state.marks.get("active") else state.marks["chooser"][0]
        if state.phase in ("execute", "reinforce"):
            steps = queue(state)
            if steps and self._player_step(state, steps[0]):
                return str(steps[0]["side"])
            return "auto"
        return None

    def _orders_actor(self, state: GameState) -> str | None:
        """5.4 optional rule: the scenario-initiative player sets his indicators, then
        the other, who sees them (they lie face up)."""
        first = orders_first(state)
        assert first is not None
        for side in (first, other(first)):
            if f"orders-{side}" not in state.marks:
                return side
        return None

    def handoff(self, state: GameState, side: str) -> bool:
        """Hot-seat: cover the screen before it passes to ``side`` only where it shows
        that side's secret cards (PRIVATE_PHASES, and 9 MISDIRECTION's cards while its
        player examines them); while mortars fire and sectors are carried out the window
        otherwise shows what both players may see (window.py), so the many changes of
        hands there need no cover."""
        return state.phase in PRIVATE_PHASES or any(self._misdirected(state, side))

    def view(self, state: GameState, side: str) -> GameState:
        """What ``side`` may know (5.2, 5.7): the other hand, every deck's order and the
        other side's unrevealed sector cards are hidden."""
        foe = other(side)
        examined, looked = self._misdirected(state, side)
        state.hands[foe] = ["?"] * len(state.hands.get(foe, []))
        for deck in state.decks.values():
            deck.cards = ["?"] * len(deck.cards)
        shown = set(state.marks.get("revealed", []))
        key = f"cards-{foe}"
        if key in state.marks:
            state.marks[key] = [
                e if e.split(":")[0] in shown else f"{e.split(':')[0]}:?" for e in state.marks[key]
            ]
        if examined:  # 9 MISDIRECTION: the card examined and the reserve, to their examiner
            sector = queue(state)[0]["examine"]
            state.marks[key] = [f"{sector}:{examined[0]}" if e.startswith(f"{sector}:") else e for e in state.marks[key]]
            state.hands[foe][0] = examined[1]
        if looked:  # 9 MISDIRECTION: the top cards of the opponent's deck, to the one looking
            state.decks[foe].cards[: len(looked)] = looked
        return state

    def _misdirected(self, state: GameState, side: str) -> tuple[list[str], list[str]]:
        """What ``side``'s Misdirection at the head of the queue lets it examine now."""
        steps = queue(state) if state.phase == "execute" else []
        if not steps or steps[0]["t"] != "kw" or steps[0]["kw"] != "Misdirection" or steps[0]["side"] != side:
            return [], []
        return kw.misdirect_seen(state, steps[0])

    def reveals(self, state: GameState, action: Action) -> tuple[str, ...]:
        """Drawing cards, chits and deviation, and flipping sector cards, show what was hidden."""
        if action.get("do") in ("draw", "initiative", "resolve", "mortar", "barrage", "misdirect", "repeat"):
            return SIDES
        return ()

    def next_phase(self, state: GameState) -> str | None:
        """5.10: steps 6-9 again for each sector still to activate."""
        if state.phase == "execute" and len(state.marks.get("done", [])) < len(sectors(state)):
            return "activate"
        return None

    # -- the protocol ------------------------------------------------------------------------

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        if state.phase == "draw" and not state.decks:
            return self._shuffle(state, dice)
        if state.phase == "mortar":
            return self._mortar_list(state)
        if state.phase == "activate" and "chooser" not in state.marks:
            state.marks["chooser"] = [bi_side(state)]
        return []

    def _shuffle(self, state: GameState, dice: Dice) -> list[str]:
        """3.1: each side's deck shuffled."""
        for side in SIDES:
            ids = [c.id for c in cards()[side]]
            dice.shuffle(ids)
            state.decks[side] = Deck(ids)
            state.hands[side] = []
        return ["both faction decks are shuffled (3.1)"]

    def _mortar_list(self, state: GameState) -> list[str]:
        """5.5: every mortar fires, the battlefield-initiative player's first."""
        bi = bi_side(state)
        order = [p for s in (bi, other(bi)) for p in units(state, s) if figures().kind(p) == "mortar"]
        if order:
            state.marks["mortars"] = [p.id for p in order]
        return []

    def proposal(self, state: GameState) -> Action | None:
        phase = state.phase
        if phase == "draw":
            return {"do": "draw"} if state.track("drawn") != state.turn else dict(END_PHASE)
        if phase == "orders" and orders_first(state) is not None and self._orders_actor(state):
            return None
        if phase in ("assign", "orders"):
            return dict(END_PHASE)
        if phase == "initiative":
            return {"do": "initiative"} if "chits" not in state.marks else dict(END_PHASE)
        if phase == "mortar":
            if state.marks.get("mortars"):
                return None
            if state.track("drift") != state.turn:
                return {"do": "gas-drift"}
            return self._queued(state)
        if phase == "activate":
            return None if not state.marks.get("active") else dict(END_PHASE)
        if phase == "execute":
            return self._queued(state)
        if phase == "reinforce":
            if state.track("reinforced") != state.turn:
                return {"do": "reinforce"}
            return self._queued(state)
        return None

    def _queued(self, state: GameState) -> Action | None:
        """The rules' move for the phase's queue of steps: end the phase when it is empty,
        wait for a player whose decision heads it, else resolve its head."""
        steps = queue(state)
        if not steps:
            return dict(END_PHASE)
        return None if self._player_step(state, steps[0]) else {"do": "resolve"}

    def _player_step(self, state: GameState, step: Step) -> bool:
        """Whether the head step waits for its side's choice."""
        if step["t"] == "move":
            return any(state.where(m) is None for m in step.get("movers", []))
        return bool(self._step_choices(state, step))

    def _step_choices(self, state: GameState, step: Step) -> list[Action]:
        """The choices of the queue's head step for its side; [] when the rules carry it out."""
        t = step["t"]
        if t == "move":
            return self._move_choices(state, step)
        if t == "hits":
            return hit_choices(state, step)
        if t == "usmc":
            return self._usmc_choices(state, step)
        if t == "place":
            return self._place_choices(state, step)
        if t == "reorg":
            return self._reorg_choices(state, step)
        if t == "kw":
            return kw.options(state, step)
        if t == "forced":
            return kw.forced_choices(state, step)
        if t == "advance":
            return kw.advance_choices(state, step)
        return []

    def choices(self, state: GameState, side: str) -> list[Action]:
        phase = state.phase
        if phase == "assign" and "cards-allied" not in state.marks:
            hand = state.hands.get(side, [])
            return [
                {"do": "assign", "side": side, "cards": dict(zip(sectors(state), combo, strict=True))}
                for combo in itertools.permutations(hand, len(sectors(state)))
            ]
        if phase == "orders" and f"orders-{side}" not in state.marks:
            if orders_first(state) is not None and self._orders_actor(state) != side:
                return []
            options = [legal_orders(state, side, s) for s in sectors(state)]
            return [
                {"do": "orders", "side": side, "orders": dict(zip(sectors(state), combo, strict=True))}
                for combo in itertools.product(*options)
            ]
        if side not in SIDES or self.actor(state) != side:
            return []  # the rules' own steps ("auto") are proposals, never choices
        if phase == "mortar" and state.marks.get("mortars"):
            return self._mortar_choices(state)
        if phase == "activate":
            left = [s for s in sectors(state) if s not in state.marks.get("done", [])]
            return [{"do": "activate", "sector": s} for s in left]
        if phase in ("mortar", "execute", "reinforce"):
            return self._step_choices(state, queue(state)[0])
        return []

    def _mortar_choices(self, state: GameState) -> list[Action]:
        """5.5: a hex 2-5 from the mortar; G8 (project's choice): no LOS needed, a mortar
        may decline; offered: the enemy-held hexes in range (an empty hex has no target)."""
        mortar = state.map.piece(state.marks["mortars"][0])
        low, high = figures().mortar_range
        targets = sorted(
            {
                e.hex
                for e in units(state, other(str(mortar.side)))
                if low <= distance(mortar.hex, e.hex) <= high
            },
            key=state.board.label,
        )
        out: list[Action] = [
            {"do": "mortar", "piece": mortar.id, "at": state.board.label(h)} for h in targets
        ]
        return [*out, {"do": "mortar", "piece": mortar.id, "at": ""}]

    def _move_choices(self, state: GameState, step: Step) -> list[Action]:
        """5.8, 6: each unit still to move, to each hex its order allows, or staying
        (refusing an ADV or RET: a pin, or a step if already pinned, 8)."""
        out: list[Action] = []
        for pid in step["movers"]:
            if state.where(pid) is not None:
                continue
            piece = state.map.piece(pid)
            for h in unit_moves(state, piece, step["move"], step["hexes"]):
                if h != piece.hex:
                    out.append({"do": "move", "piece": pid, "to": state.board.label(h)})
            out.append({"do": "stay", "piece": pid})
        return out

    def refusal(self, state: GameState, action: Action) -> str | None:
        do = action.get("do")
        proposed = self.proposal(state)
        if do == END_PHASE["do"]:
            return None if proposed == END_PHASE else "the phase is not done (5)"
        if do in ("draw", "initiative", "gas-drift", "resolve", "reinforce"):
            return None if proposed == action else f"no {do} now (5)"
        if do in ("assign", "orders"):
            side = str(action.get("side"))
            if action not in self.choices(state, side):
                if do == "orders":
                    return "an Active order needs sector initiative; without it only Reactive or General (5.3.2, 5.4)"
                return "one card of your hand in each sector (5.2)"
            return None
        actor = self.actor(state)
        if actor not in SIDES:
            return f"{do}: nobody chooses now"
        if action not in self.choices(state, str(actor)):
            return f"{do} is not one of {actor}'s choices now ({self._rule(state)})"
        return None

    def _rule(self, state: GameState) -> str:
        return next((p.rule for p in SEQUENCE if p.key == state.phase), GAME)

    # -- applying ----------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        lines: list[str]
        if do == "draw":
            lines = self._draw(state, dice)
        elif do == "assign":
            lines = self._assign(state, action)
        elif do == "initiative":
            lines = self._initiative(state, dice)
        elif do == "orders":
            side = str(action["side"])
            state.marks[f"orders-{side}"] = [f"{s}:{o}" for s, o in action["orders"].items()]
            lines = [
                f"{side} orders: " + ", ".join(f"{s} {o}" for s, o in action["orders"].items()) + " (5.4)"
            ]
        elif do == "mortar":
            lines = self._mortar(state, action, dice)
        elif do == "gas-drift":
            state.tracks["drift"] = state.turn
            follow: list[Step] = []
            lines = kw.gas_drift(state, dice, follow)
            set_queue(state, follow)  # each unit the gas reaches moves away, or refuses (8)
        elif do == "activate":
            lines = self._activate(state, str(action["sector"]))
        elif do in ("move", "stay"):
            lines = self._move(state, action)
        elif do in ("replace", "place", "reconstitute"):
            steps = queue(state)
            step = steps.pop(0)
            if do == "reconstitute":
                lines = self._reconstitute(state, step, action, steps)
            else:
                lines = self._replace(state, step, action) if do == "replace" else self._place(state, action)
            set_queue(state, steps)
        elif do == "hit":
            steps = queue(state)
            lines = self._hits(state, steps.pop(0), steps, str(action["piece"]))
            set_queue(state, steps)
        elif do in ("retreat", "advance"):
            steps = queue(state)
            step = steps.pop(0)
            if do == "advance":
                lines = kw.advance(state, action)
            else:
                lines, more = kw.forced_move(state, step, action)
                steps[0:0] = more
            set_queue(state, steps)
        elif do == "resolve":
            lines = self._resolve(state, dice)
        elif do in ("target", "rally", "skip", "barrage", "second", "repeat", "misdirect", "reinforce-kw", "bayonet"):
            lines = self._keyword(state, action, dice)
        elif do == "reinforce":
            lines = self._reinforce(state)
        else:
            raise ValueError(f"{GAME} has no action {do!r}")
        self._hold_objectives(state)
        return lines

    def _draw(self, state: GameState, dice: Dice) -> list[str]:
        """5.1 (G7): each side draws up to its hand size; the discards are reshuffled when short."""
        state.tracks["drawn"] = state.turn
        lines = []
        for side in SIDES:
            hand = state.hands.setdefault(side, [])
            new = []
            while len(hand) < hand_size(state):
                card = state.decks[side].draw(dice)
                hand.append(card)
                new.append(card)
            lines.append(f"{side} draws {len(new)} cards (5.1)")
        return lines

    def _assign(self, state: GameState, action: Action) -> list[str]:
        side = str(action["side"])
        chosen: dict[str, str] = dict(action["cards"])
        for card in chosen.values():
            state.hands[side].remove(card)
        state.marks[f"cards-{side}"] = [f"{s}:{c}" for s, c in chosen.items()]
        return [f"{side} places a card face down in sectors {', '.join(chosen)} (5.2)"]

    def _initiative(self, state: GameState, dice: Dice) -> list[str]:
        """5.3: the pool of the track's band, a chit per sector drawn without
        replacement, battlefield initiative to the most chits (a tie: the attacker)."""
        f = figures()
        band = f.band(state.track("initiative"))
        pool = [chit for chit, n in f.pools[band].items() for _ in range(n)]
        dice.shuffle(pool)
        drawn = pool[: len(sectors(state))]
        state.marks["chits"] = [f"{s}:{c}" for s, c in zip(sectors(state), drawn, strict=True)]
        us, ge = drawn.count("US"), drawn.count("GE")
        bi = ALLIED if us > ge else GERMAN if ge > us else attacker(state)
        state.tracks["bi"] = SIDES.index(bi)
        chits = ", ".join(f"{s}: {c}" for s, c in zip(sectors(state), drawn, strict=True))
        return [
            f"initiative pool {band} (5.3.1); chits {chits} (5.3.2)",
            f"{bi} has battlefield initiative (5.3.3)",
        ]

    def _mortar(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """5.5: the chit deviates one hex on the deviation draw; a unit there, friend or
        foe, is pinned, or loses a step if already pinned, terrain ignored."""
        mortar = state.map.piece(str(action["piece"]))
        state.marks["mortars"].pop(0)
        if not state.marks["mortars"]:
            del state.marks["mortars"]
        side = str(mortar.side)
        if not action.get("at"):
            return [f"{mortar.id} does not fire (G8, project's choice)"]
        at = state.board.hex_of(str(action["at"]))
        lines = [f"{mortar.id} fires at {action['at']} (5.5)"]
        value = kw.deviation_draw(state, side, dice, lines)
        if value:
            moved = kw._step_away(state, at, value)
            if moved is None:
                return [*lines, "the chit deviates off the map: no effect (G6)"]
            at = moved
            lines.append(f"the chit lands in {state.board.label(at)}")
        for p in state.map.units_at(at):
            cb.pin(state, p.id, other(str(p.side)), lines, "mortar, 5.5")
        on_map = {p.id for p in units(state)}
        left = [m for m in state.marks.get("mortars", []) if m in on_map]  # one destroyed fires no more
        if left:
            state.marks["mortars"] = left
        else:
            state.marks.pop("mortars", None)
        return lines

    def _activate(self, state: GameState, sector: str) -> list[str]:
        """5.6, 5.7: the chosen sector; its steps queued: reveal, then each side's
        movement, MG and keywords (the non-initiative player first, 5.8), then combat."""
        state.marks["active"] = [sector]
        chooser = state.marks["chooser"][0]
        state.marks["chooser"] = [other(chooser)]
        steps: list[Step] = [{"t": "reveal", "sector": sector}]
        first = first_to_act(state, sector)
        for side in (first, other(first)):
            steps.append({"t": "order", "side": side, "sector": sector})
        steps.append({"t": "combat", "sector": sector})
        set_queue(state, steps)
        return [f"{chooser} activates sector {sector} (5.6)"]

    def _order_steps(self, state: GameState, side: str, sector: str) -> list[Step]:
        card = card_index()[card_of(state, side, sector) or ""]
        kind = order_of(state, side, sector) or "general"
        order = card.order(kind)
        steps: list[Step] = []
        if order.move != "HOLD":
            hexes = budget(state, sector, side, order.distance)
            steps.append({"t": "move", "side": side, "sector": sector, "move": order.move, "hexes": hexes,
                          "movers": movers(state, sector, side, order.move)})  # fmt: skip
        mg = order.mg + (1 if kind == "active" and side == bi_side(state) else 0)
        if mg:
            steps.append({"t": "mg", "side": side, "sector": sector, "mg": mg})
        for k in order.keywords:
            steps.append({"t": "kw", "side": side, "sector": sector, "kw": k.name, "x": k.x})
        return steps

    def _move(self, state: GameState, action: Action) -> list[str]:
        steps = queue(state)
        step = steps[0]
        piece = state.map.piece(str(action["piece"]))
        step["movers"].remove(piece.id)
        lines: list[str] = []
        if action["do"] == "move":
            to = state.board.hex_of(str(action["to"]))
            state.map.move(piece.id, to)
            lines.append(f"{piece.id} moves to {action['to']} ({step['move']}, 5.8)")
            if step["move"] == "RET" and piece.has(PINNED):
                cb.unpin(state, piece.id)
                lines.append(f"{piece.id}'s pinning token is removed by the retreat (6.2)")
        else:
            ends = unit_moves(state, piece, step["move"], step["hexes"])
            if refusal_penalty(state, piece, step["move"], ends):
                lines.append(f"{piece.id} refuses the {step['move']} order (8)")
                cb.pin(state, piece.id, other(str(piece.side)), lines, "refused an order, 8")
            else:
                lines.append(f"{piece.id} stays")
        if not step["movers"]:
            steps.pop(0)
        set_queue(state, steps)
        return lines

    def _resolve(self, state: GameState, dice: Dice) -> list[str]:
        """The head step of the sector, carried out by the rules."""
        steps = queue(state)
        step = steps.pop(0)
        t = step["t"]
        lines: list[str] = []
        if t == "reveal":
            sector = step["sector"]
            state.mark("revealed", sector)
            for side in SIDES:
                card = card_index()[card_of(state, side, sector) or ""]
                kind = order_of(state, side, sector) or "general"
                lines.append(
                    f"{side} reveals {card.id} in sector {sector}: {kind} order {card.order(kind).text()} (5.7)"
                )
        elif t == "order":
            steps[0:0] = self._order_steps(state, step["side"], step["sector"])
        elif t == "move":
            lines.append(f"{step['side']}: no unit to move")
        elif t == "mg":
            lines += self._mg(state, step, steps)
        elif t == "hits":
            lines += self._hits(state, step, steps, None)
        elif t == "usmc":
            lines.append(f"no USMC replacement for the {step['regiment']} this turn")
        elif t == "reorganize":
            steps[0:0] = self._reorganize(state)
        elif t == "reorg":
            lines.append(f"{step['side']}: no destroyed infantry can return next to its HQ (5.11)")
        elif t == "deploy":
            steps[0:0] = self._place_steps(state)
        elif t == "place":
            lines += self._wait(state, str(step["piece"]))
        elif t == "end-turn":
            lines += self._end_turn(state)
        elif t == "fire":
            lines += self._fire(state, step, steps)
        elif t == "sector-done":
            state.marks.setdefault("done", []).append(step["sector"])
            state.marks.pop("active", None)
            if not step.get("fought"):
                lines.append(f"sector {step['sector']}: no combat (5.9)")
        elif t == "kw":
            set_queue(state, steps)
            return self._keyword(state, {"do": "resolve"}, dice, step)
        elif t == "forced":  # nowhere to go: the unit refuses (8)
            more_lines, more = kw.forced_move(state, step, None)
            lines += more_lines
            steps[0:0] = more
        elif t == "combat":
            lines += self._combat(state, step["sector"], steps)
        set_queue(state, steps)
        return lines

    def _mg(self, state: GameState, step: Step, steps: list[Step]) -> list[str]:
        """5.8 EXECUTE MG ACTION: the MG number as CD on enemy units in the sector any
        friendly unit there sees, by the priority chart; at least one step; not combat.
        The units hit are picked by the firing player within a class (G9: a hits step)."""
        side, sector = step["side"], step["sector"]
        cd = cb.halved(state, sector, int(step["mg"]))
        targets = cb.mg_targets(state, sector, side)
        if not targets:
            return [f"{side}: MG {step['mg']}: no enemy in sight in sector {sector} (5.8)"]
        steps.insert(0, hits_step(side, sector, cd, targets, f"MG {step['mg']}"))
        return [f"{side}: MG {step['mg']} in sector {sector}: {cd} CD (5.8)"]

    def _hits(self, state: GameState, step: Step, steps: list[Step], pick: str | None) -> list[str]:
        """One source's damage (7.1, 8.2, G9): ``pick`` (the player's choice within a
        priority class) joins the units hit, every unit the CD must hit without a
        choice follows; once nothing more can be assigned each loses its step."""
        if pick is not None:
            step["picked"].append(pick)
        while True:
            group = step_candidates(state, step)
            if not group or cb.hit_is_a_choice(state, group, int(step["cd"]), step["picked"]):
                break
            step["picked"].append(group[0].id)
        if group:
            steps.insert(0, step)
            return []
        lines: list[str] = []
        for pid in step["picked"]:
            cb.lose_steps(state, pid, 1, step["side"], lines)
        return lines

    def _fire(self, state: GameState, step: Step, steps: list[Step]) -> list[str]:
        """7, 8.1: one Combat X: both sides' CD and targets worked out before either
        applies (simultaneous); the reactive player's damage applied first (8.3)."""
        sector, initiator, x, lead = step["sector"], str(step["side"]), int(step["x"]), str(step["lead"])
        lines = [f"combat {x} in sector {sector}, started by {initiator} (7)"]
        new: list[Step] = []
        for s in (other(lead), lead):
            cd, targets = cb.fire_targets(state, sector, s, x, initiator)
            lines.append(f"{s}: {cd} CD on {len(targets)} unit(s) in range and sight (7.1, 8.2)")
            if targets and cd > 0:
                new.append(hits_step(s, sector, cd, targets, f"combat {x}"))
        steps[0:0] = new
        return lines

    def _keyword(self, state: GameState, action: Action, dice: Dice, step: Step | None = None) -> list[str]:
        steps = queue(state)
        if step is None:
            step = steps.pop(0)
        lines, finished = kw.execute(state, step, action, dice, steps)
        if finished:
            side = str(step["side"])
            text = kw.step_text(step)
            if step.get("after") != "leadership":
                state.mark(f"kw-{side}", text)
            if step["kw"] == "Leadership":
                self._reshuffle(state, side, dice)
                lines.append(f"{side} shuffles the discards back into the deck (9 LEADERSHIP)")
        else:
            steps.insert(0, step)
        set_queue(state, steps)
        return lines

    def _reshuffle(self, state: GameState, side: str, dice: Dice) -> None:
        deck = state.decks[side]
        deck.cards.extend(deck.discards)
        deck.discards = []
        dice.shuffle(deck.cards)

    def _combat(self, state: GameState, sector: str, steps: list[Step]) -> list[str]:
        """5.9, 7.3, 8.1: each Combat X of the sector, the Active player's first (else
        the battlefield-initiative player's), then the sector is done."""
        combats = [json.loads(c) for c in state.marks.pop("combats", [])]
        holder = sector_initiative(state, sector)
        lead = holder if holder is not None else bi_side(state)
        combats.sort(key=lambda c: c["side"] != lead)
        new: list[Step] = [{"t": "fire", "sector": sector, "side": c["side"], "x": c["x"], "lead": lead} for c in combats]
        new.append({"t": "sector-done", "sector": sector, "fought": bool(combats)})
        steps[0:0] = new
        return []

    # -- reinforcements and the end of the turn (5.11) ----------------------------------------

    def _reinforce(self, state: GameState) -> list[str]:
        """5.11 in order: withdrawals (1.2), fresh USMC troops (a choice per regiment),
        reorganization, the arrivals (each placed by its owner), then the turn's end."""
        state.tracks["reinforced"] = state.turn
        lines = self._withdraw(state)
        steps: list[Step] = [
            {"t": "usmc", "side": ALLIED, "regiment": r} for r in sorted(self._usmc_regiments(state))
        ]
        steps += [{"t": "reorganize"}, {"t": "deploy"}, {"t": "end-turn"}]
        set_queue(state, steps)
        return lines

    def _end_turn(self, state: GameState) -> list[str]:
        """G7: the sector cards are discarded; the turn's marks cleared; the last turn ends the game."""
        for side in SIDES:
            for entry in state.marks.pop(f"cards-{side}", []):
                state.decks[side].discard(entry.split(":", 1)[1])  # G7: sector cards discarded
            state.marks.pop(f"orders-{side}", None)
            state.marks.pop(f"kw-{side}", None)
            state.marks.pop(f"dead-{side}", None)
            state.tracks.pop(f"entrench-{side}", None)
        for key in ("chits", "revealed", "done", "active", "chooser", "effects", "damaged", "pinned-now", "combats"):
            state.marks.pop(key, None)
        if state.turn >= state.track("turns"):
            state.tracks["over"] = 1
        return []

    def _withdraw(self, state: GameState) -> list[str]:
        """1.2 UNIT REMOVAL TOKEN: a unit whose `withdraw` turn this is leaves the map at
        this turn's step 11, before the arrivals (project's choice of moment). It goes
        to the box `withdrawn`, not the dead pool: it scores nothing (project's choice)."""
        lines = []
        for p in units(state):
            if p.attr("withdraw", None) == state.turn:
                state.to_box(p.id, WITHDRAWN)
                lines.append(f"{p.id} withdraws from the battle (1.2 UNIT REMOVAL TOKEN)")
        return lines

    def _usmc_regiments(self, state: GameState) -> dict[str, list[Piece]]:
        """5.11 FRESH USMC TROOPS: per USMC regiment, its units a point may restore: hurt
        or pinned, not next to the enemy."""
        by_regiment: dict[str, list[Piece]] = {}
        for p in units(state, ALLIED):
            if (
                cb.nation(p) == "usmc"
                and (p.steps < cb.full_steps(p) or p.has(PINNED))
                and not cb.adjacent_enemy(state, p)
            ):
                by_regiment.setdefault(str(p.attr("regiment", "usmc")), []).append(p)
        return by_regiment

    def _usmc_choices(self, state: GameState, step: Step) -> list[Action]:
        """P7 (project's choice of moment): the US player restores one unit of the
        regiment, or saves the point; nothing to choose once the 12 points are spent."""
        if state.track("usmc-points") <= 0:
            return []
        hurt = self._usmc_regiments(state).get(str(step["regiment"]), [])
        if not hurt:
            return []
        out: list[Action] = [{"do": "replace", "piece": p.id} for p in sorted(hurt, key=lambda u: u.id)]
        return [*out, {"do": "replace", "piece": ""}]

    def _replace(self, state: GameState, step: Step, action: Action) -> list[str]:
        if not action.get("piece"):
            return [f"the US player saves the replacement point of the {step['regiment']} (5.11)"]
        p = state.map.piece(str(action["piece"]))
        state.map.update(replace(p, steps=cb.full_steps(p), status=p.status - {PINNED}))
        state.tracks["usmc-points"] -= 1
        return [
            f"a USMC replacement point restores {p.id} ({step['regiment']}; {state.track('usmc-points')} left, 5.11)"
        ]

    def _reorganize(self, state: GameState) -> list[Step]:
        """5.11 REORGANIZATION: German ceil(dead/3), US floor(dead/2) this turn; each side
        then picks that many of its dead infantry (a reorg step a side)."""
        steps: list[Step] = []
        for side in SIDES:
            dead = state.marks.get(f"dead-{side}", [])
            per, rounding = figures().reorganize[side]
            n = math.ceil(len(dead) / per) if rounding == "up" else len(dead) // per
            if n > 0:
                steps.append({"t": "reorg", "side": side, "left": n})
        return steps

    def _reorg_choices(self, state: GameState, step: Step) -> list[Action]:
        """5.11: the side's destroyed infantry (no heavy weapons or HQ) that can return
        reduced next to its regiment's HQ (none without one), in the dead pool's order;
        or none ("may reconstitute")."""
        side = str(step["side"])
        board = state.board
        out: list[Action] = [
            {"do": "reconstitute", "piece": p.id, "to": board.label(h)}
            for p in state.box(DEAD)
            if p.side == side and figures().kind(p) == "infantry"
            for h in kw.hq_spots(state, p)
        ]  # G13: the owner picks the hex next to the HQ
        if not out:
            return []
        return [*out, {"do": "reconstitute", "piece": ""}]

    def _reconstitute(self, state: GameState, step: Step, action: Action, steps: list[Step]) -> list[str]:
        if not action.get("piece"):
            return [f"{step['side']} reconstitutes no more units this turn (5.11)"]
        lines: list[str] = []
        kw.reconstitute(state, str(action["piece"]), lines, action.get("to"))
        step["left"] = int(step["left"]) - 1
        if step["left"] > 0:
            steps.insert(0, step)
        return lines

    def _place_steps(self, state: GameState) -> list[Step]:
        """5.11 DEPLOY: next turn's reinforcements, one step a unit, the
        scenario-initiative player's first."""
        nxt = f"turn-{state.turn + 1}"
        first = scenario_initiative(state)
        return [
            {"t": "place", "side": side, "piece": p.id, "box": nxt}
            for side in (first, other(first))
            for p in state.box(nxt)
            if p.side == side
        ]

    def _entry_hexes(self, state: GameState, side: str) -> list[Hex]:
        board = state.board
        labels = state.marks.get(f"entry-{side}")
        if labels:
            return [board.hex_of(x) for x in labels]
        edge = board.regions["edge-allied" if side == ALLIED else "edge-german"].hexes
        inside = set().union(*(cb.sector_hexes(state, s) for s in sectors(state)))
        return sorted((h for h in edge if h in inside), key=board.label)

    def entry_spots(self, state: GameState, side: str) -> list[tuple[int, str, Hex]]:
        """5.11 (G13): the free hexes within 5 of an entry and more than 3 from every
        enemy, each with its distance to the nearest entry, nearest first then by label."""
        f = figures()
        entries = self._entry_hexes(state, side)
        foes = [p.hex for p in units(state, other(side))]
        out = []
        for h in state.board.terrain:
            d = min((distance(h, e) for e in entries), default=99)
            if d > f.reinforcement_radius or state.map.units_at(h):
                continue
            if any(distance(h, x) <= f.reinforcement_gap for x in foes):
                continue
            out.append((d, state.board.label(h), h))
        return sorted(out)

    def _place_choices(self, state: GameState, step: Step) -> list[Action]:
        """G13: the owner places the arriving unit on any legal entry hex."""
        return [{"do": "place", "piece": step["piece"], "to": label} for _d, label, _h in self.entry_spots(state, str(step["side"]))]

    def _place(self, state: GameState, action: Action) -> list[str]:
        pid, to = str(action["piece"]), str(action["to"])
        state.from_box(f"turn-{state.turn + 1}", pid, state.board.hex_of(to))
        self._drop_empty_box(state)
        return [f"{pid} arrives at {to} (5.11)"]

    def _wait(self, state: GameState, pid: str) -> list[str]:
        """5.11 (G13): with no legal hex the unit waits a turn."""
        nxt = f"turn-{state.turn + 1}"
        piece = next(p for p in state.box(nxt) if p.id == pid)
        state.boxes[nxt].remove(piece)
        state.boxes.setdefault(f"turn-{state.turn + 2}", []).append(piece)
        self._drop_empty_box(state)
        return [f"{pid} finds no room to enter and waits (5.11)"]

    def _drop_empty_box(self, state: GameState) -> None:
        nxt = f"turn-{state.turn + 1}"
        if nxt in state.boxes and not state.boxes[nxt]:
            del state.boxes[nxt]

    # -- victory (G5) --------------------------------------------------------------------------

    def _hold_objectives(self, state: GameState) -> None:
        """1.2 OBJECTIVE HEX: each objective counts for the side that last occupied it."""
        board = state.board
        for label in state.marks.get("objectives", []):
            here = [p for p in state.map.units_at(board.hex_of(label)) if p.kind == "unit"]
            if not here:
                continue
            side = str(here[0].side)
            for s in SIDES:
                held = state.marks.setdefault(f"held-{s}", [])
                if s == side and label not in held:
                    held.append(label)
                elif s != side and label in held:
                    held.remove(label)

    def outcome(self, state: GameState) -> str | None:
        if state.phase == "setup" or state.turn == 0:
            return None
        alive = {s: len(units(state, s)) for s in SIDES}
        for side in SIDES:
            if not alive[side]:
                return f"{other(side)} wins ({side} has no unit on the map)"
        if not state.track("over"):
            return None
        vp = victory_points(state)
        text = f"Allied {vp[ALLIED]} VP, German {vp[GERMAN]} VP"
        if vp[ALLIED] == vp[GERMAN]:
            return f"{other(attacker(state))} wins ({text}; a tie goes to the defender, G5)"
        win = ALLIED if vp[ALLIED] > vp[GERMAN] else GERMAN
        return f"{win} wins ({text}, G5)"


def victory_points(state: GameState) -> dict[str, int]:
    """G5 (project's choice, rules.yaml): objectives held, enemy units in the dead pool."""
    v = dict(figures().victory)
    for key in v:
        if f"vp-{key}" in state.tracks:
            v[key] = state.track(f"vp-{key}")
    out = {}
    for side in SIDES:
        held = len(state.marks.get(f"held-{side}", []))
        dead = [p for p in state.box(DEAD) if p.side == other(side)]
        kills = sum(v["dead_hq"] if figures().kind(p) == "hq" else v["dead"] for p in dead)
        out[side] = v["objective"] * held + kills
    return out


def ruleset() -> DevilDogsRules:
    return DevilDogsRules()


__all__ = ["SEQUENCE", "DevilDogsRules", "neighbors", "ruleset", "victory_points"]
