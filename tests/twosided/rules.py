"""SKIRMISH, a two-sided test game that uses every turn hook of the engine (issue 12).

Red and blue each have a runner and a sentry on a 7x3 map. A runner that reaches the
far column (red: column 07, blue: column 01) scores a point and goes back to its start;
the first side to 2 points wins. A turn is two rounds (a loop: ``next_phase``), each:

1. draw (automatic): each side draws a card from its own deck into its hand; the cards
   are seen only by their holder (``private`` log lines, ``view``, ``reveals``);
2. bid (simultaneous, secret): each side commits one card of its hand; the reveal puts
   both in the discards; the higher bid has the initiative (a tie: red in odd rounds);
3. act (alternating activations: ``actor``): the side with the initiative first, then
   the other, each moves its runner along a path of up to its bid's value in hexes, or
   holds. The move is applied hex by hex; after each hex that ends next to the enemy
   sentry (not yet fired this round) the enemy may react (``reactions``): its sentry
   shoots (1D6: 4-6 stops the move there; 1-3 misses and the move resumes) or passes.
"""

from __future__ import annotations

from typing import Any

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.dice import Deck, Dice
from tabletop.engine.game import Phase, private
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, neighbors

RED, BLUE = "red", "blue"
SIDES = (RED, BLUE)
START = {RED: "0102", BLUE: "0702"}
GOAL = {RED: 7, BLUE: 1}  # the column a runner scores in
TO_WIN = 2
MAP_YAML = """
name: skirmish test ground
grid: {orientation: flat, offset: odd-q, columns: 7, rows: 3}
terrain:
  clear: {symbol: ".", colour: "#9cc46a"}
default_terrain: clear
"""
SEQUENCE = (
    Phase("draw", "Draw a card", "auto", "SKIRMISH 1"),
    Phase("bid", "Bid for the initiative in secret", "auto", "SKIRMISH 2"),
    Phase("act", "Alternating activations", "auto", "SKIRMISH 3"),
)
PATH = "path"  # marks: the hexes the moving runner has still to enter
MOVER = "mover"  # marks: the runner moving now
FIRED = "fired"  # marks: sentries that have shot this round


def other(side: str) -> str:
    return BLUE if side == RED else RED


def runner(side: str) -> str:
    return f"{side[0].upper()}-run"


def sentry(side: str) -> str:
    return f"{side[0].upper()}-sen"


def column(label: str) -> int:
    return int(label[:2])


class SkirmishRules:
    """The rules of SKIRMISH (see the module doc)."""

    name = "twosided"
    sides = SIDES
    players = SIDES
    sequence = SEQUENCE
    undo_across_turns = True

    # -- preparing --------------------------------------------------------------------

    def prepare(self, state: GameState, scenario: Any = None) -> None:
        """Decks of 1-3 in a fixed order (the dice reshuffle the discards), two cards in
        each hand, the four units on the map."""
        board = state.board
        for side, (run_at, sen_at) in {RED: (START[RED], "0402"), BLUE: (START[BLUE], "0403")}.items():
            state.decks[side] = Deck(
                ["3", "1", "2", "2", "1", "3"] if side == RED else ["2", "3", "1", "1", "3", "2"]
            )
            state.hands[side] = ["1", "2"]
            state.map.place(Piece(runner(side), "runner", board.hex_of(run_at), side))
            state.map.place(Piece(sentry(side), "sentry", board.hex_of(sen_at), side))

    # -- who acts (issue 12 item 1) ----------------------------------------------------

    def actor(self, state: GameState) -> str | None:
        if state.phase != "act":
            return None
        if state.marks.get(PATH):
            return "auto"  # a move goes on hex by hex
        side = self._to_activate(state)
        return side or "auto"

    def _to_activate(self, state: GameState) -> str | None:
        first = RED if state.track("initiative") == 0 else BLUE
        for side in (first, other(first)):
            if not state.track(f"acted-{side}"):
                return side
        return None

    def simultaneous(self, state: GameState) -> tuple[str, ...]:
        if state.phase == "bid" and not state.track("bids-done"):
            return SIDES
        return ()

    def next_phase(self, state: GameState) -> str | None:
        """Two rounds a turn: after the first round's activations, draw again."""
        if state.phase == "act" and state.track("round") % 2 == 1:
            return "draw"
        return None

    def reactions(self, state: GameState, action: Action) -> str | None:
        """After each hex of a move: the enemy of the mover, if the mover now stands
        next to the enemy sentry and that sentry has not shot this round."""
        if action.get("do") not in ("move", "step"):
            return None
        mover = state.map.piece(str(action["piece"]))
        enemy = other(str(mover.side))
        guard = sentry(enemy)
        if state.marked(FIRED, guard):
            return None
        return enemy if state.map.piece(guard).hex in neighbors(mover.hex) else None

    # -- what each side may know (issue 12 item 2) -------------------------------------

    def view(self, state: GameState, side: str) -> GameState:
        """The other side's hand and both decks' order are hidden (counts are known)."""
        foe = other(side)
        state.hands[foe] = ["?"] * len(state.hands.get(foe, []))
        for deck in state.decks.values():
            deck.cards = ["?"] * len(deck.cards)
        return state

    def reveals(self, state: GameState, action: Action) -> tuple[str, ...]:
        """A draw shows each side its own new card."""
        return SIDES if action.get("do") == "draw-cards" else ()

    # -- the Ruleset protocol -----------------------------------------------------------

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        if state.phase == "draw":
            state.tracks.pop("drawn-round", None)
            state.tracks.pop("bids-done", None)
            for side in SIDES:
                state.tracks.pop(f"bid-{side}", None)
            return []
        if state.phase == "act":
            state.tracks["round"] = state.track("round") + 1
            red, blue = state.track(f"bid-{RED}"), state.track(f"bid-{BLUE}")
            odd = state.track("round") % 2 == 1
            state.tracks["initiative"] = 0 if red > blue or (red == blue and odd) else 1
            for side in SIDES:
                state.tracks.pop(f"acted-{side}", None)
            state.marks.pop(FIRED, None)
            return [f"{RED if state.tracks['initiative'] == 0 else BLUE} has the initiative"]
        return []

    def proposal(self, state: GameState) -> Action | None:
        if state.phase == "draw":
            return {"do": "draw-cards"} if not state.track("drawn-round") else dict(END_PHASE)
        if state.phase == "bid":
            return dict(END_PHASE) if state.track("bids-done") else None
        if state.marks.get(PATH):
            return {"do": "step", "piece": state.marks[MOVER][0]}
        return dict(END_PHASE) if self._to_activate(state) is None else None

    def choices(self, state: GameState, side: str) -> list[Action]:
        if state.window is not None:  # a reaction: the sentry shoots at the mover
            guard, mover = sentry(side), state.window["after"]["piece"]
            return [{"do": "shoot", "piece": guard, "target": mover}]
        if state.phase == "bid":
            return [{"do": "bid", "side": side, "card": c} for c in sorted(set(state.hands.get(side, [])))]
        if state.phase == "act" and self.actor(state) == side:
            return [*self._moves(state, side), {"do": "hold", "side": side}]
        return []

    def _moves(self, state: GameState, side: str) -> list[Action]:
        """Every path of 1 to the bid's value hexes, each into an empty hex."""
        board, piece = state.board, state.map.piece(runner(side))
        most = state.track(f"bid-{side}")
        found: list[Action] = []

        def walk(at: Hex, path: list[Hex]) -> None:
            if path:
                found.append({"do": "move", "piece": piece.id, "path": [board.label(h) for h in path]})
            if len(path) == most:
                return
            for n in sorted(neighbors(at), key=lambda h: (h.q, h.r)):
                if board.grid.contains(n) and n not in path and not state.map.units_at(n):
                    walk(n, [*path, n])

        walk(piece.hex, [])
        return found

    def refusal(self, state: GameState, action: Action) -> str | None:
        do = action.get("do")
        if do == END_PHASE["do"]:
            proposal = self.proposal(state)
            return None if proposal == END_PHASE else f"the phase is not done (next: {proposal})"
        if do == "draw-cards":
            return None if state.phase == "draw" and not state.track("drawn-round") else "no draw now"
        if do == "step":
            moving = state.marks.get(MOVER, [None])[0] if state.marks.get(PATH) else None
            return None if moving == action.get("piece") else "no such move is under way"
        if do == "bid":
            side = action.get("side")
            return (
                None
                if state.phase == "bid" and action.get("card") in state.hands.get(str(side), [])
                else "no such bid"
            )
        who = self.actor(state) if state.window is None else state.window["side"]
        side = action.get("side") or (
            state.map.piece(str(action.get("piece"))).side if action.get("piece") else None
        )
        if side != who:
            return f"{who} acts now, not {side}"
        if action not in self.choices(state, str(who)):
            return f"{action} is not a legal choice of {who}"
        return None

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        if do == "draw-cards":
            state.tracks["drawn-round"] = 1
            lines = []
            for side in SIDES:
                card = state.decks[side].draw(dice)
                state.hands[side].append(card)
                lines += [f"{side} draws a card", private(side, f"{side} draws {card}")]
            return lines
        if do == "bid":
            side, card = str(action["side"]), str(action["card"])
            state.hands[side].remove(card)
            state.decks[side].discard(card)
            state.tracks[f"bid-{side}"] = int(card)
            if all(f"bid-{s}" in state.tracks for s in SIDES):
                state.tracks["bids-done"] = 1
            return [f"{side} bids {card}"]
        if do == "hold":
            state.tracks[f"acted-{action['side']}"] = 1
            return [f"{action['side']} holds"]
        if do == "move":
            piece = state.map.piece(str(action["piece"]))
            state.tracks[f"acted-{piece.side}"] = 1
            state.marks[MOVER] = [piece.id]
            state.marks[PATH] = list(action["path"])
            return [f"{piece.id} sets off", *self._step(state)]
        if do == "step":
            return self._step(state)
        if do == "shoot":
            state.mark(FIRED, str(action["piece"]))
            face = dice.d6(f"{action['piece']} shoots at {action['target']}")
            if face >= 4:
                state.marks.pop(PATH, None)
                state.marks.pop(MOVER, None)
                return [f"{action['target']} is stopped by {action['piece']}'s fire"]
            return [f"{action['piece']} misses; {action['target']} moves on"]
        raise ValueError(f"SKIRMISH has no action {do!r}")

    def _step(self, state: GameState) -> list[str]:
        """The mover enters the next hex of its path; a runner in its goal column scores
        and goes back to its start."""
        path, mover = state.marks[PATH], state.map.piece(state.marks[MOVER][0])
        label = path.pop(0)
        if not path:
            state.marks.pop(PATH)
        moved = state.map.move(mover.id, state.board.hex_of(label))
        lines = [f"{moved.id} enters {label}"]
        side = str(moved.side)
        if column(label) == GOAL[side]:
            state.tracks[f"points-{side}"] = state.track(f"points-{side}") + 1
            state.map.move(moved.id, state.board.hex_of(START[side]))
            state.marks.pop(PATH, None)
            lines.append(f"{side} scores ({state.track(f'points-{side}')})")
        if PATH not in state.marks:
            state.marks.pop(MOVER, None)
        return lines

    def outcome(self, state: GameState) -> str | None:
        for side in SIDES:
            if state.track(f"points-{side}") >= TO_WIN:
                return f"{side} wins {state.track(f'points-{side}')}-{state.track(f'points-{other(side)}')}"
        return None


def ruleset() -> SkirmishRules:
    return SkirmishRules()
