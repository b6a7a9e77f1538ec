"""D-Day at Omaha Beach, victory ranks (gap G2, issue 18 item 1; victory.yaml, the
project's choice): the score is VP positions held free of Germans minus catastrophic
losses, and the upper ranks need positions held, not only few losses, at both game
lengths; the ranks are shown as a table (``tabletop tables omaha``)."""

from __future__ import annotations

import pytest
from omaha_us_helpers import action_phase, put

from tabletop.games.omaha import victory
from tabletop.games.omaha.tables import victory_table
from tabletop.games.omaha.usdata import victory as cfg

UPPER = ("foothold", "breakthrough", "decisive victory")


@pytest.mark.parametrize("length", ["standard", "extended"])
def test_no_upper_rank_without_a_position_held(length: str) -> None:
    """Issue 18 item 1: a game holding no position ends at most "pinned on the beach",
    whatever its score (before, "breakthrough" needed only few catastrophic losses)."""
    ranks = list(cfg()["ranks"][length])
    for n in (-20, 0, 50):
        assert victory.rank_for(ranks, n, 0, 0) not in UPPER


@pytest.mark.parametrize("length", ["standard", "extended"])
def test_breakthrough_and_decisive_need_vp_positions(length: str) -> None:
    """Issue 18 item 1: a position that is not a VP position gives at most "foothold";
    the top rank needs VP positions and a score."""
    ranks = list(cfg()["ranks"][length])
    assert victory.rank_for(ranks, 50, 0, 3) == "foothold"
    assert victory.rank_for(ranks, 50, 3, 3) == "decisive victory"
    top = ranks[-1]
    assert victory.rank_for(ranks, int(top["least"]) - 1, 3, 3) != "decisive victory"


def test_the_ranks_of_a_game_read_its_positions() -> None:
    """Gap G2: holding WN 61 (a VP position) and WN 60, with no catastrophic loss, the
    standard game reaches "decisive victory"; with no position held, "pinned"."""
    s = action_phase(16).state
    assert victory.rank_of(s, victory.score(s)) == "pinned on the beach"
    put(s, "E-2-16", "0711")  # wn-61, a VP position
    put(s, "F-2-16", "0310")  # wn-60, another
    assert "wn-61" in victory.vp_held(s)
    assert victory.rank_of(s, victory.score(s)) == "decisive victory"


def test_the_victory_table_shows_the_ranks_as_the_projects_choice() -> None:
    """The rules aid (`tabletop tables omaha victory`): each rank's needs by length,
    marked as the project's choice (gap G2)."""
    t = victory_table()
    assert t.key == "victory" and "project's choice" in t.title
    assert len(t.rows) == len(cfg()["ranks"]["standard"]) == len(cfg()["ranks"]["extended"])
    assert any("VP position" in cell for row in t.rows for cell in row)
