"""The window's word hooks of a ruleset (``phase_rules``, ``status``, ``unit_lines``,
``describe``, ``drag_action``: see ``engine.game``), answered by a rule system's own
words module. The module imports the ruleset, so it is imported on first use; one
mixin instead of the same five delegations in every rule system."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any, ClassVar

from .actions import Action
from .pieces import Piece
from .state import GameState


class WordsFromModule:
    """Mix into a ruleset and set ``words_module`` (a dotted module name) to answer the
    window's word hooks with that module's functions of the same names."""

    words_module: ClassVar[str]

    def _words(self) -> ModuleType:
        return import_module(self.words_module)

    def phase_rules(self, state: GameState) -> list[str]:
        found: list[str] = self._words().phase_rules(state)
        return found

    def status(self, state: GameState) -> str:
        return str(self._words().status(state))

    def unit_lines(self, state: GameState, piece: Piece) -> list[str]:
        found: list[str] = self._words().unit_lines(state, piece)
        return found

    def describe(self, state: GameState, action: Action) -> str:
        return str(self._words().describe(state, action))

    def drag_action(self, state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
        found: Any = self._words().drag_action(state, piece_id, to, forced)
        return found if isinstance(found, dict) or found is None else dict(found)
