"""Each side's outcome of a finished two-sided game, read from its result sentence: the
sim judge's ``standings`` (``tabletop.sim``) for every rule system whose result says
"SIDE wins ..." (one reading instead of the same loop in each)."""

from __future__ import annotations

from collections.abc import Mapping


def standings(result: str | None, scores: Mapping[str, int]) -> dict[str, tuple[str, int]]:
    """Side -> (win, loss or draw, its score): the side the result names as winning
    wins, the others lose; a result naming no winner (or none yet) is a draw for all.

    >>> standings("blue wins: red surrendered", {"blue": 3, "red": 1})
    {'blue': ('win', 3), 'red': ('loss', 1)}
    """
    text = result or ""
    winner = next((side for side in scores if text.startswith(f"{side} wins")), None)
    return {
        side: ("draw" if winner is None else "win" if side == winner else "loss", score)
        for side, score in scores.items()
    }
