"""Issue 17 "done when": with a scripted American side that does nothing, the game
`tabletop play omaha` opens (scenarios/omaha.yaml, the omaha rule system) runs turns
1-16 headless with landings and German phases only, identically for the same seed.

The scripted side places each arrival in the first box offered, answers every question
the rules ask it (mine losses, ranger drift, tied targets, stacking) with the first
choice, and ends its US Action phase at once. It sees only the US view (face-down
German units hidden), as any bot does.
"""

from __future__ import annotations

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import Game, SideView
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.shipped import resolve
from tabletop.sim import play_out


class DoNothing:
    """The American side that does nothing it need not."""

    def choose(self, view: SideView) -> Action:
        if view.state.phase == "us-action":
            return dict(END_PHASE)
        return view.choices[0]


def played(seed: int) -> Game:
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=seed, history=False)  # type: ignore[arg-type]
    g.use_seeded_dice()
    auto_setup(g)
    play_out(g, "us", DoNothing())
    return g


def test_turns_1_to_16_with_landings_and_german_phases_only() -> None:
    """Every turn 1-16 has its landing and German phase; the US plays no action of its
    own phase but ending it; the game ends after turn 16 (standard length, gap G13)."""
    g = played(5)
    assert g.state.result is not None and "turn 16 of 16 ended" in g.state.result
    entries = [g.entries[i] for i in g.path()]
    for turn in range(1, 17):
        phases = {e.phase for e in entries if e.turn == turn}
        assert {"landing", "german", "us-action", "end-turn"} <= phases, turn
    us_phase = {str(e.action.get("do")) for e in entries if e.phase == "us-action"}
    assert us_phase == {"end-phase"}
    dos = {str(e.action.get("do")) for e in entries}
    assert {"land", "german-card", "german-fire", "german-hit", "german-artillery"} <= dos


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    """Deterministic game logic (seeded dice): the same seed gives the same log and the
    same final state; another seed, another game."""
    a, b, c = played(7), played(7), played(8)
    assert a.log_lines() == b.log_lines()
    assert a.state.to_json() == b.state.to_json()
    assert a.log_lines() != c.log_lines()
