"""D-Day at Omaha Beach part 2, the attack builder (issue 18 item 5): the player picks the
attackers and supporters one by one, the builder panel shows the weapons met, the 9.6
multipliers, the 9.7 row and the odds of each result before the attack is committed
(6.2, 9.6-9.8), and the attack played is the one built."""

from __future__ import annotations

import pytest
from omaha_us_helpers import action_phase, german, put

from tabletop.games.omaha import attacks as atk
from tabletop.games.omaha import builder, us_actions
from tabletop.games.omaha.window import OmahaExtras


def _scene():  # type: ignore[no-untyped-def]
    g = action_phase(5)
    s = g.state
    german(s, "A2a", "0711")
    for uid, label in (("E-2-16", "0811"), ("F-2-16", "0611"), ("1-A-741", "0714"), ("16-HQ", "0812")):
        put(s, uid, label)
    return g, s


def _rows(s, selected=None) -> list[str]:  # type: ignore[no-untyped-def]
    panel = next(p for p in OmahaExtras().panels(s, selected) if p.key == "omaha-attack")
    return [r.text for r in panel.rows]


def test_picks_build_the_attack_and_spend_nothing() -> None:
    """A pick adds a unit to the attack being built (a second pick takes it out); no
    action is spent (omaha 6: only the attack pays)."""
    g, s = _scene()
    before = s.track(us_actions.ACTIONS_LEFT + "east")
    g.play({"do": "attack-pick", "target": "0711", "unit": "E-2-16"})
    g.play({"do": "attack-pick", "target": "0711", "unit": "F-2-16"})
    assert builder.draft(s, "0711") == ["E-2-16", "F-2-16"]
    g.play({"do": "attack-pick", "target": "0711", "unit": "F-2-16"})
    assert builder.draft(s, "0711") == ["E-2-16"]
    assert s.track(us_actions.ACTIONS_LEFT + "east") == before


def test_a_unit_that_may_not_take_part_is_refused_naming_the_section() -> None:
    """6.2: infantry attacks from an adjacent hex; a unit far away may not be picked."""
    g, s = _scene()
    put(s, "I-3-16", "0214")
    why = g.refusal({"do": "attack-pick", "target": "0711", "unit": "I-3-16"})
    assert why is not None and "omaha 6.2" in why


def test_the_panel_shows_weapons_multipliers_row_and_odds_of_the_built_attack() -> None:
    """Issue 18 item 5: before committing, the weapons met (9.8), the multipliers (9.6),
    the 9.7 row and column and the odds, as the rules would resolve it."""
    g, s = _scene()
    g.play({"do": "attack-pick", "target": "0711", "unit": "E-2-16"})
    rows = _rows(s)
    a = atk.assess(s, s.board.hex_of("0711"), [s.map.piece("E-2-16")])
    assert any(r.startswith("weapons needed") and ("met" in r) for r in rows)
    assert any(r.startswith("9.6:") and f"x{a.unit_x}" in r for r in rows)
    assert any(f"9.7 row {'YES' if a.met else 'NO'} {a.delta}, column {a.column}" in r for r in rows)
    odds = next(r for r in rows if r.startswith("odds:"))
    assert "100%" in odds
    assert any(r.startswith("commit:") for r in rows)


def test_the_odds_of_a_hidden_depth_marker_add_up_and_resolve_again() -> None:
    """9.7: against a hidden Depth marker a reveal result resolves again with the marker
    revealed; the odds run over the 12 WN Depth markers it may be (11 give Disrupted and
    Depth removed, WD8 - strength 3, FL - only Disrupted), and the attack as played with
    WD8 ends as the builder's WD8 line said."""
    from tabletop.games.omaha import german as gm

    g, s = _scene()
    german(s, "A2a", "0711", depth="WD8")
    party = [s.map.piece(u) for u in ("E-2-16", "F-2-16")]
    first, outcomes = builder.odds(s, s.board.hex_of("0711"), party, False)
    assert first.column == "hidden" and "reveal-again" in first.results
    assert sum(o.chance for o in outcomes) == pytest.approx(1.0)
    by = {o.results: o.chance for o in outcomes}
    assert by == {("reveal-again", "disrupted", "drop-depth"): pytest.approx(11 / 12),
                  ("reveal-again", "disrupted"): pytest.approx(1 / 12)}  # fmt: skip
    g.play({"do": "attack", "target": "0711", "units": ["E-2-16", "F-2-16"], "naval": False})
    a2a = s.map.piece("A2a")
    assert "disrupted" in a2a.status and gm.depth_of(s, a2a) is not None  # WD8 stays: the 1/12 line


def test_the_committed_attack_is_the_one_built() -> None:
    """The game offers the attack with exactly the picked units; playing it clears the
    builder (6.2: a hex is attacked once a phase)."""
    g, s = _scene()
    g.play({"do": "attack-pick", "target": "0711", "unit": "E-2-16"})
    built = {"do": "attack", "target": "0711", "units": ["E-2-16"], "naval": False}
    assert built in g.choices("us")
    g.play(built)
    assert builder.draft(s, "0711") == []
    assert s.marked(us_actions.ACTED, "E-2-16") and not s.marked(us_actions.ACTED, "F-2-16")


def test_the_builder_through_the_real_loop() -> None:
    """The window: select a unit, click its 'attack builder: add' choice in the game box,
    the builder panel fills; click the commit choice: the attack is played."""
    import pygame

    from tabletop.ui.gameplay import GamePanel
    from tabletop.ui.table import open_table

    app = open_table("omaha", size=(1280, 800))
    g = app.play
    s = g.state
    s.turn = 5
    for p in list(s.map.pieces()):
        if p.side == "german" or (p.kind == "marker" and p.type == "depth"):
            s.to_box(p.id, "german-eliminated")
    s.phase = "us-action"
    s.marks["in-communication"] = []
    us_actions.begin(s)
    german(s, "A2a", "0711")
    for uid, label in (("E-2-16", "0811"), ("16-HQ", "0812")):
        put(s, uid, label)
    app.sync()
    app.selected = "E-2-16"
    box = next(c for c in app.components if isinstance(c, GamePanel))
    seen: dict[str, object] = {}

    def click_on(a, want):  # type: ignore[no-untyped-def]
        for rect, action in box.buttons:
            if isinstance(action, dict) and want(action):
                x, y = rect.center
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
                return True
        return False

    def on_frame(a):  # type: ignore[no-untyped-def]
        n = int(seen.get("frame", 0)) + 1  # type: ignore[call-overload]
        seen["frame"] = n
        if "picked" not in seen and click_on(a, lambda x: x.get("do") == "attack-pick" and x.get("unit") == "E-2-16"):
            seen["picked"] = n
        elif "picked" in seen and "rows" not in seen and builder.draft(a.play.state, "0711"):
            seen["rows"] = _rows(a.play.view_state("us"))
        elif "rows" in seen and "committed" not in seen and click_on(
            a, lambda x: x.get("do") == "attack" and x.get("units") == ["E-2-16"]
        ):
            seen["committed"] = n

    app.run(fps=1000, frames=30, on_frame=on_frame)
    rows = seen.get("rows")
    assert isinstance(rows, list) and any(r.startswith("odds:") for r in rows)
    assert s.marked(atk.STRUCK, "0711")  # the attack was played


def test_dragging_a_us_unit_in_the_us_action_phase_moves_it() -> None:
    """Issue 18 item 6 (played in the window): the game box lists no moves ("drag a unit
    to move it"); a drag is the rules' move (omaha 6.1), refused with its reason when
    illegal, and nothing outside the US Action phase."""
    from omaha_us_helpers import action_phase, put

    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0513")
    move = g.rules.drag_action(s, "E-2-16", "0512", False)
    assert move == {"do": "move", "unit": "E-2-16", "to": "0512"} and g.refusal(move) is None
    g.play(move)
    assert s.board.label(s.map.piece("E-2-16").hex) == "0512"
    assert g.rules.drag_action(s, "E-2-16", "0511", True) is None  # Shift: an edit, not a move
    s.phase = "landing"
    assert g.rules.drag_action(s, "E-2-16", "0511", False) is None
