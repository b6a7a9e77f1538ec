"""D-Day at Omaha Beach part 2 as a whole game: victory (gap G2), the tactical
autoplayer through ``tabletop sim`` at both lengths, and the golden game: a fixed seed
played from set-up to victory replays exactly from its save (issue 18 "done when").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omaha_us_helpers import action_phase, game, german, put

from tabletop.engine import savefile
from tabletop.engine.newgame import load_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import ruleset
from tabletop.games.omaha import victory
from tabletop.games.omaha.autoplayer import TacticalBot, assess, ranks
from tabletop.games.omaha.common import CATASTROPHIC
from tabletop.sim import play_out, simulate

GOLDEN_SEED = 11


def test_victory_counts_positions_held_free_of_germans_minus_catastrophic_losses() -> None:
    """Gap G2 (victory.yaml): 3 VP a VP position, 1 another position, free of Germans
    and every hex US-controlled; -1 a unit in the catastrophic loss box."""
    s = action_phase(16).state
    assert victory.score(s) == 0
    put(s, "E-2-16", "0711")  # wn-61, a VP position
    put(s, "F-2-16", "0310")  # wn-60, another
    assert set(victory.held(s)) >= {"wn-61", "wn-60"}
    base = victory.score(s)
    assert base >= 3 + 1
    german(s, "A2a", "0711")
    assert "wn-61" not in victory.held(s) and victory.score(s) == base - 3
    s.boxes.setdefault(CATASTROPHIC, []).append(s.map.piece("F-2-16"))
    assert victory.score(s) == base - 4


def test_ranks_by_length() -> None:
    """Gap G2: the rank is the highest whose needs the score and the positions held
    meet, by length; holding nothing, even a score of 999 stays below "foothold"."""
    s = action_phase(16).state
    names = ranks()
    assert victory.rank_of(s, -50) == names[0]
    assert victory.held(s) == [] and victory.rank_of(s, 999) == "pinned on the beach"
    assert len(names) >= 3


def _golden() -> Any:
    g = game(GOLDEN_SEED, history=True)
    play_out(g, "us", TacticalBot())
    return g


def test_the_golden_game_replays_exactly_from_its_save(tmp_path: Path) -> None:
    """Issue 18: a golden game (fixed seed, set-up to victory) replays exactly from its
    save: the same final state and the same result."""
    g = _golden()
    assert g.state.result is not None and "turn 16 of 16 ended" in g.state.result
    path = tmp_path / "golden.json"
    savefile.write_save(path, g, "omaha")
    loaded, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert loaded.state.to_json() == g.state.to_json()
    assert loaded.state.result == g.state.result
    assert g.replay(check=True).to_json() == g.state.to_json()
    text = "\n".join(g.log_lines())
    assert "attack on" in text and "omaha 9.7" in text


def test_sim_plays_both_lengths_to_the_end_identically_for_a_seed() -> None:
    """`tabletop sim omaha --by length`: both lengths finish, no failure, the same
    figures for the same seed, judged by victory (gap G2)."""
    one = simulate("omaha", 1, seed=5, by="length")
    two = simulate("omaha", 1, seed=5, by="length")
    assert not one["failed"] and [g["played"] for g in one["groups"]] == [1, 1]
    strip: Any = lambda r: [{k: v for k, v in g.items() if k != "seconds"} for g in r["groups"]]  # noqa: E731
    assert strip(one) == strip(two)
    assert one["ranks"] == ranks()


def test_the_judge_reads_the_result() -> None:
    g = game(3)
    play_out(g, "us", TacticalBot(), turn_cap=2)
    rank, n = assess(g.state)
    assert rank in ranks() and n == victory.score(g.state)
