"""DOG SECTOR's planning autoplayer, issue 20 item 4's sixth pass, the assault units: in
phase 6 the units yet to fire act fewest open targets first (planner.py,
``_fewest_first``)."""

from __future__ import annotations

import pytest
from test_dog_sector_planner import phase_actions
from test_dog_sector_planner_spread import board, put

from tabletop.engine.game import Game
from tabletop.engine.pieces import MapState
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import autoplayer, planner
from tabletop.games.dog_sector.planner import PlanningAutoplayer
from tabletop.games.dog_sector.ruleset import DogSectorRules


def fire_phase(turn: int = 5) -> GameState:
    return GameState(MapState.of(board()), turn=turn, phase="american-fire")


def shots(state: GameState, bot: PlanningAutoplayer | None = None) -> list[dict[str, object]]:
    """The planner's phase 6 actions until it ends the phase (the dice roll them)."""
    return phase_actions(Game(DogSectorRules(), state, 1), 20, bot)


def two_targets_one_shared() -> GameState:
    """German infantry at 0912 and an MG pillbox at 0812; American infantry A1 at 0811
    next to both, A2 at 0911 next to the German infantry only."""
    s = fire_phase()
    put(s, "G1", "infantry", "0912", "german")
    put(s, "G2", "mg-pillbox", "0812", "german")
    put(s, "A1", "infantry", "0811")
    put(s, "A2", "infantry", "0911")
    return s


def test_the_unit_with_one_target_fires_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phase 6: "If a target is reduced, it cannot be targeted again in the same turn."
    A1 may fire at both German units, A2 only at the German infantry. The simple bot's
    order (nearest the trenches, then by hex) lets A1 fire first, at the infantry (5-6,
    Table 6's bonus): a hit leaves A2 without a target. The planner lets A2 fire first,
    so A1 still has a target after it, whatever A2 rolls; the log says why A2 fires
    first."""
    b = autoplayer._board(board())
    s = two_targets_one_shared()
    now = autoplayer._now(s)
    assert planner._open_targets(s, now, b, s.map.piece("A1")) == 2
    assert planner._open_targets(s, now, b, s.map.piece("A2")) == 1
    fired = shots(two_targets_one_shared())
    assert fired[0]["unit"] == "A2" and fired[0]["target"] == "G1"
    assert [a["unit"] for a in fired] == ["A2", "A1"]
    assert "fires now: 1 German unit open to it, the units with fewest fire first" in str(fired[0]["why"])
    monkeypatch.setattr(planner, "FEWEST_FIRST", False)
    assert shots(two_targets_one_shared())[0]["unit"] == "A1"
