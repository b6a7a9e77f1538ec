"""D-Day at Omaha Beach, the part-1 panels beside the map: after a Beach Landing Box is
resolved the Landing panel says what the card's 9.2 letter does this turn, row by row
(reading A1), in the words of the table, so the player need not search the log."""

from __future__ import annotations

from omaha_us_helpers import action_phase, put

from tabletop.engine.dice import Dice
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.games.omaha import data, landing
from tabletop.games.omaha.window import OmahaExtras, landing_panel, letter_rows
from tabletop.shipped import resolve


def test_letter_rows_read_9_2_in_its_own_words() -> None:
    """9.2 Turn 1 D: "-1 step +2 left"; Turn 4-14 A: ∅ (rangers 0-4 left), DUKW
    eliminated, others +3 turns; Turn 2-3 C by the three rows."""
    assert letter_rows(1, "D") == ["  9.2 all: -1 step, drift 2 left"]
    assert letter_rows(5, "A") == ["  9.2 infantry: no effect (rangers drift 0-4 left)",
                                   "  9.2 dukw: eliminated", "  9.2 others: +3 turns"]  # fmt: skip
    assert letter_rows(2, "C") == ["  9.2 infantry: -1 step", "  9.2 infantry-dg-ch: drift 4 left",
                                   "  9.2 others: drift 9 left"]  # fmt: skip
    assert letter_rows(15, "B") == ["  9.2 infantry: no effect", "  9.2 dukw: -1 step", "  9.2 others: removed from play"]


def test_the_landing_panel_shows_the_last_box_and_its_letter() -> None:
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=2, history=False)  # type: ignore[arg-type]
    g.use_seeded_dice()
    auto_setup(g)
    state = g.state
    while landing.waiting(state):
        g.play(g.choices("us")[0])
    landing.resolve_box(state, Dice(4))
    cid, box = state.hands[landing.LANDING_CARD]
    rows = [r.text for r in landing_panel(state).rows]
    letter = data.cards()[cid].landing
    assert any(r.startswith(f"box {box}: card {cid}, 9.2 letter {letter}") for r in rows)
    assert letter_rows(1, letter)[0] in rows


def test_the_us_actions_panel_shows_each_sectors_budget_and_the_selected_units_cost() -> None:
    """omaha 6 in front of the player (issue 18 item 5): the actions left in each sector
    as the rules hold them, and whether the selected unit's action costs one or is free
    (found watching a game: the budget was only in log lines)."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0509")
    put(s, "F-2-16", "0709")

    def rows(selected: str | None) -> list[str]:
        panel = next(p for p in OmahaExtras().panels(s, selected) if p.key == "omaha-actions")
        return [r.text for r in panel.rows]

    assert "east sector: 2 action(s) left, 1 naval fire marker(s)" in rows(None)
    assert "E-2-16: an action costs 1 of the east sector" in rows("E-2-16")
    g.play({"do": "move", "unit": "E-2-16", "to": "0508"})
    assert "east sector: 1 action(s) left, 1 naval fire marker(s)" in rows("F-2-16")
    assert "E-2-16 has acted this phase (one action a unit, omaha 6)" in rows("E-2-16")
