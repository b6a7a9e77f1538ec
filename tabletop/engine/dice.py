"""Seeded dice and card decks, injected into every rule that rolls: one source a game.

Knows dice and nothing else: no rule system, no tables, no pygame. The faces form a
stream fixed by the seed: face number ``k`` is a hash of ``(seed, k)``, so the stream's
position (``drawn``) is the whole of the dice's state. A game records that position in
its state; undoing an action winds the dice back with it, and doing the action again
gives the same faces (no re-rolling by undo), and a replay from the seed and the log
rolls exactly what was rolled. The module-level random state is never read or changed.

Scripted faces ("the next rolls are 6, 2, 5"), for tests and for a player who rolls real
dice, are used first and range-checked; they do not advance the seeded stream.

Two-sided games (issue 12 item 3) must not let a player who holds a save foresee the
rolls, so there the stream is keyed by a per-game ``secret`` (random bytes kept in
memory, never saved) instead of the seed, and every value drawn from the stream is
kept in ``streamed`` for the log. A replay, which has no secret, gives those logged
values back (``recorded``) and computes nothing. Either way each value advances
``drawn`` by exactly one, so a replayed state equals the played one.

Every roll is logged with its purpose and, once the rule has read it, its outcome
("MG pillbox 0407 fires at 0912: rolled 5, hit").

>>> dice = Dice(7)
>>> first = dice.d6()
>>> Dice(7).d6() == first
True
>>> scripted = Dice(1, script=[5])
>>> scripted.d6("spot")
5
>>> scripted.log
[Roll(purpose='spot', result=(5,), outcome='')]
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Mapping, MutableSequence
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


class Roll(NamedTuple):
    """One logged roll: what it was for, each die's face, and what it meant."""

    purpose: str
    result: tuple[int, ...]
    outcome: str = ""

    @property
    def total(self) -> int:
        return sum(self.result)

    def text(self) -> str:
        """The roll in words: "MG 0407 fires at 0912: rolled 5, hit"."""
        faces = "+".join(map(str, self.result))
        shown = f"{faces}={self.total}" if len(self.result) > 1 else faces
        tail = f", {self.outcome}" if self.outcome else ""
        return f"{self.purpose}: rolled {shown}{tail}"


_TOP = 1 << 64  # seeded values are 64-bit hashes
_blake2b = hashlib.blake2b


class ScriptError(ValueError):
    """A scripted (hand-rolled) face that the die being rolled does not have."""


class RecordError(ValueError):
    """A replay's logged dice that do not fit the rolls the rules make (a log edited by
    hand, or rules changed since): a value off the die, or too few values."""


def _check_count(n: Any, what: str, least: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < least:
        raise ValueError(f"{what} must be a whole number of at least {least}, not {n!r}")
    return n


class Dice:
    """Dice from a seed (and optionally a script of faces to use first); from a
    ``secret`` instead of the seed, or from ``recorded`` stream values (a replay of a
    game whose dice were secret), in two-sided games."""

    def __init__(
        self,
        seed: int,
        *,
        script: Iterable[int] = (),
        drawn: int = 0,
        secret: bytes | None = None,
        recorded: Iterable[int] | None = None,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"dice seed must be an int, not {seed!r}")
        if secret is not None and (not isinstance(secret, bytes) or not 16 <= len(secret) <= 64):
            raise ValueError("a dice secret must be 16 to 64 random bytes")
        self.seed = seed
        self._prefix = f"{seed}:".encode()  # what every seeded value's hash starts with
        self.drawn = _check_count(drawn, "dice position", 0)
        self._script = list(script)
        self.scripted_used = 0  # faces taken from the script so far
        self.log: list[Roll] = []
        self._secret = secret
        self._recorded = None if recorded is None else list(recorded)
        self.streamed: list[int] = []  # every value drawn from the stream, in order
        self.places: list[dict[str, Any]] = []  # where the action's results landed (``happened``)

    @property
    def script_left(self) -> list[int]:
        """The scripted faces not used yet (a game carries them to its next action)."""
        return list(self._script)

    def record_used_up(self) -> None:
        """RecordError if a replay left logged values unused (the rules rolled fewer)."""
        if self._recorded:
            raise RecordError(
                f"the log recorded {len(self._recorded)} more dice than the rules roll for this action"
            )

    def roll(self, n: int, sides: int, purpose: str = "") -> tuple[int, ...]:
        """Roll ``n`` dice of ``sides`` faces; logs them as ``purpose`` (default "nDs").

        >>> Dice(3, script=[2, 6]).roll(2, 6)
        (2, 6)
        """
        if n.__class__ is not int or n < 1:  # (the checks' common case first: a game rolls hundreds)
            _check_count(n, "number of dice", 1)
        if sides.__class__ is not int or sides < 2:
            _check_count(sides, "a die's number of sides", 2)
        faces = (self._face(sides),) if n == 1 else tuple(self._face(sides) for _ in range(n))
        self.log.append(Roll(purpose or f"{n}D{sides}", faces))
        return faces

    def d6(self, purpose: str = "1D6") -> int:
        """One six-sided die."""
        return self.roll(1, 6, purpose)[0]

    def d10(self, purpose: str = "1D10") -> int:
        """One ten-sided die, faces 1-10."""
        return self.roll(1, 10, purpose)[0]

    def total(self, n: int, sides: int = 6, purpose: str = "") -> int:
        """The sum of ``n`` dice (2D6, 3D6...)."""
        return sum(self.roll(n, sides, purpose or f"{n}D{sides}"))

    def rule(self, outcome: str) -> Roll:
        """Record what the last roll meant ("hit", "miss"); returns the completed roll."""
        if not self.log:
            raise ValueError("no roll to record an outcome for")
        done = self.log[-1]._replace(outcome=outcome)
        self.log[-1] = done
        return done

    def happened(self, place: Mapping[str, Any]) -> None:
        """Record where a result of the action being played landed (an
        ``actions.Where`` as JSON), for the window to draw. The dice keep it because
        they already record, per action, what was rolled and what it meant; the game
        logs it with the entry (``Entry.where``). No rule reads it."""
        self.places.append(dict(place))

    def below(self, n: int) -> int:
        """A uniform whole number 0..n-1 from the seeded stream (never the script), not
        logged: for shuffles and picks whose purpose the caller logs itself."""
        return self._stream(_check_count(n, "choices", 1)) - 1

    def pick(self, options: list[T], purpose: str = "") -> T:
        """One of ``options`` at random; logged as a roll of a die with that many faces
        when ``purpose`` is given (friendly fire picks the hex it hits)."""
        if not options:
            raise ValueError("nothing to pick from")
        if len(options) == 1:
            return options[0]
        if purpose:
            return options[self.roll(1, len(options), purpose)[0] - 1]
        return options[self.below(len(options))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates over the stream). Seeded dice draw the same
        values as ``below`` would, in one loop (a setup shuffles every hex of the map)."""
        if self._recorded is not None or self._secret is not None:
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        prefix, drawn, streamed = self._prefix, self.drawn, self.streamed
        for i in range(len(items) - 1, 0, -1):
            limit = _TOP - _TOP % (i + 1)
            while True:
                value = int.from_bytes(_blake2b(prefix + str(drawn).encode(), digest_size=8).digest(), "big")
                drawn += 1
                if value < limit:
                    break
            j = value % (i + 1)
            streamed.append(j + 1)
            items[i], items[j] = items[j], items[i]
        self.drawn = drawn

    def _face(self, sides: int) -> int:
        if self._script:
            face = self._script.pop(0)
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise ScriptError(f"scripted roll {face!r} is not a face of a {sides}-sided die")
            self.scripted_used += 1
            return face
        return self._stream(sides)

    def _stream(self, sides: int) -> int:
        if self._recorded is not None:
            value = self._from_record(sides)
        elif self._secret is not None:
            value = self._from_secret(sides)
        else:
            value = self._from_seed(sides)
        self.streamed.append(value)
        return value

    def _from_record(self, sides: int) -> int:
        """The next logged value (a replay of a secret-dice game)."""
        assert self._recorded is not None
        if not self._recorded:
            raise RecordError("the rules roll more dice than the log recorded for this action")
        value = self._recorded.pop(0)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RecordError(f"logged die value {value!r} is not a face of a {sides}-sided die")
        self.drawn += 1
        return value

    def _from_secret(self, sides: int) -> int:
        """A value only the holder of the secret can compute: a keyed hash of the
        position (and of the attempt, so rejection never moves ``drawn`` by more than 1)."""
        assert self._secret is not None
        limit = (1 << 64) - (1 << 64) % sides
        for attempt in itertools.count():
            message = f"{self.drawn}:{attempt}".encode()
            value = int.from_bytes(hashlib.blake2b(message, key=self._secret, digest_size=8).digest(), "big")
            if value < limit:
                self.drawn += 1
                return value % sides + 1
        raise AssertionError("unreachable")  # pragma: no cover

    def _from_seed(self, sides: int) -> int:
        limit = _TOP - _TOP % sides  # reject the top sliver so faces are uniform
        while True:  # (the hash of "seed:drawn")
            digest = _blake2b(self._prefix + str(self.drawn).encode(), digest_size=8).digest()
            self.drawn += 1
            value = int.from_bytes(digest, "big")
            if value < limit:
                return value % sides + 1


class Deck:
    """A deck of cards drawn from the top, with a discard pile reshuffled (with the
    game's dice) into a new draw pile when the draw pile runs out.

    >>> deck = Deck(["a", "b", "c"])
    >>> dice = Dice(1)
    >>> [deck.draw(dice) for _ in range(3)] == ["a", "b", "c"]
    True
    >>> deck.discard("a"); deck.draw(dice)
    'a'
    """

    def __init__(self, cards: Iterable[str], discards: Iterable[str] = ()) -> None:
        self.cards = list(cards)
        self.discards = list(discards)

    def draw(self, dice: Dice) -> str:
        """The top card; reshuffles the discards first if the draw pile is empty."""
        if not self.cards:
            if not self.discards:
                raise ValueError("the deck and its discard pile are both empty")
            self.cards, self.discards = self.discards, []
            dice.shuffle(self.cards)
        return self.cards.pop(0)

    def discard(self, card: str) -> None:
        self.discards.append(card)

    def to_json(self) -> dict[str, list[str]]:
        return {"cards": list(self.cards), "discards": list(self.discards)}

    @classmethod
    def from_json(cls, data: dict[str, list[str]]) -> Deck:
        return cls(data["cards"], data["discards"])
