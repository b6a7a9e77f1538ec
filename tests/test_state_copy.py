"""``GameState.copy`` (issue 19 item 1: a bot's view of a game with hidden information
is a copy) against the round trip through JSON it replaced: in real games of every rule
system whose bots are given copies, each copy holds what the round trip gives, equal
piece for piece, and shares no container with the state it was made from, so a view
a bot or a rule's ``view`` hook changes leaves the game as it was."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop import sim
from tabletop.engine.state import GameState

SCENARIOS = [("omaha", {"length": "standard"}), ("belleau-wood", {})]  # the rule systems with a `view`


def _checked_copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []
    copy = GameState.copy

    def checked(self: GameState) -> GameState:
        before = self.to_json()
        out = copy(self)
        trip = GameState.from_json(self.board, before)
        assert out.to_json() == before
        assert list(out.map.pieces()) == list(trip.map.pieces()) and out.boxes == trip.boxes
        assert out.map.terrain_overrides() == trip.map.terrain_overrides()
        for name in ("boxes", "tracks", "marks", "decks", "hands", "options", "secret"):
            mine, theirs = getattr(out, name), getattr(self, name)
            assert mine is not theirs
            shared = [k for k, v in mine.items() if isinstance(v, (list, dict)) and v is theirs[k]]
            assert not shared, f"{name}: {shared} shared with the state"
        assert all(out.decks[k] is not d for k, d in self.decks.items())
        assert out.map is not self.map
        for piece in list(out.map.pieces())[:3]:  # changing the copy leaves the state as it was
            out.map.remove(piece.id)
        for cards in out.hands.values():
            cards.clear()
        assert self.to_json() == before
        made.append(1)
        return copy(self)

    monkeypatch.setattr(GameState, "copy", checked)
    return made


@pytest.mark.parametrize(("scenario", "options"), SCENARIOS)
def test_a_copy_is_the_json_round_trip_and_shares_nothing(
    monkeypatch: pytest.MonkeyPatch, scenario: str, options: dict[str, Any]
) -> None:
    made = _checked_copies(monkeypatch)
    out = sim.play_one(scenario, options, 3)
    assert "error" not in out, out.get("traceback")
    assert made, f"{scenario}: no bot was given a copy; the test checks nothing"
