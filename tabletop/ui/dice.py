"""A seeded dice roller for the table's dice box: the player's own rolls, logged.

Knows dice and nothing else: no rule system, no tables, no pygame. Each roller owns its
own ``random.Random``, so the module-level random state is never read or changed, and
the same seed (shown on the table) gives the same rolls. Scripted rolls, for tests and
for replaying a game, are used first and range-checked.

>>> dice = Dice(7)
>>> first = dice.d6()
>>> Dice(7).d6() == first
True
>>> scripted = Dice(1, script=[5])
>>> scripted.d6("spot")
5
>>> scripted.log
[Roll(purpose='spot', result=(5,))]
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import NamedTuple


class Roll(NamedTuple):
    """One logged roll: what it was for, and each die's face."""

    purpose: str
    result: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.result)


class Dice:
    """Dice from a seed (and optionally a script of faces to use first)."""

    def __init__(self, seed: int, *, script: Iterable[int] = ()) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"dice seed must be an int, not {seed!r}")
        self.seed = seed
        self._random = random.Random(seed)
        self._script = list(script)
        self.log: list[Roll] = []

    def roll(self, n: int, sides: int, purpose: str = "") -> tuple[int, ...]:
        """Roll ``n`` dice of ``sides`` faces; logs them as ``purpose`` (default "nDs").

        >>> Dice(3, script=[2, 6]).roll(2, 6)
        (2, 6)
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of dice must be a whole number of at least 1, not {n!r}")
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
            raise ValueError(f"a die needs a whole number of at least 2 sides, not {sides!r}")
        faces = tuple(self._face(sides) for _ in range(n))
        self.log.append(Roll(purpose or f"{n}D{sides}", faces))
        return faces

    def d6(self, purpose: str = "1D6") -> int:
        """One six-sided die."""
        return self.roll(1, 6, purpose)[0]

    def d10(self, purpose: str = "1D10") -> int:
        """One ten-sided die, faces 1-10."""
        return self.roll(1, 10, purpose)[0]

    def _face(self, sides: int) -> int:
        if self._script:
            face = self._script.pop(0)
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise ValueError(f"scripted roll {face!r} is not a face of a {sides}-sided die")
            return face
        return self._random.randint(1, sides)
