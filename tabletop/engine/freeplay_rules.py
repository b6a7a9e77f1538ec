"""Free play: no turn sequence to enforce, anyone acts, generic actions only.

A map or scenario whose rule system has no ruleset of its own is played like this:
move, place, remove, mark and roll as on a real table, with the log, undo (across
turns: there are no rules to protect), saves and replays of any game.
"""

from __future__ import annotations

from .actions import END_PHASE, Action, generic_apply, generic_refusal
from .dice import Dice
from .game import Phase
from .state import GameState


class FreePlayRules:
    """Free play: one open phase a turn, anyone acts, generic actions only."""

    name = "free"
    sides: tuple[str, ...] = ()
    sequence = (Phase("play", "free play", "any"),)
    undo_across_turns = True

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        return []

    def proposal(self, state: GameState) -> Action | None:
        return None

    def choices(self, state: GameState, side: str) -> list[Action]:
        return [dict(END_PHASE)]

    def refusal(self, state: GameState, action: Action) -> str | None:
        return generic_refusal(state, action)

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return generic_apply(state, action, dice)

    def outcome(self, state: GameState) -> str | None:
        return None
