"""D-Day at Omaha Beach part 2, the US Action phase (omaha 6, 6.1, 6.3-6.5, 7, 8): the
action budget, each of the 7 classes of free action, moving, climbing, infiltration,
barrages, obstacle clearing and Command Posts, every refusal naming its section.
"""

from __future__ import annotations

import pytest
from omaha_us_helpers import action_phase, german, put

from tabletop.engine.actions import END_PHASE
from tabletop.games.omaha import data, landing, us_actions
from tabletop.games.omaha.common import DISRUPTED, HERO
from tabletop.hexgrid import distance


def _left(s: object, sector: str) -> int:
    return s.track(us_actions.ACTIONS_LEFT + sector)  # type: ignore[attr-defined]


def test_two_actions_a_sector_three_in_extended_turns() -> None:
    """omaha 6: 2 (EXT 3) actions per sector."""
    assert _left(action_phase(5).state, "east") == 2 and _left(action_phase(5).state, "west") == 2
    assert _left(action_phase(17, "extended").state, "east") == 3


def test_a_paid_move_spends_its_sectors_action_and_a_unit_acts_once() -> None:
    """omaha 6: at most 1 action a unit; the budget runs out."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0509")
    put(s, "F-2-16", "0709")
    put(s, "L-3-16", "0909", steps=3)
    g.play({"do": "move", "unit": "E-2-16", "to": "0508"})
    assert _left(s, "east") == 1
    why = g.refusal({"do": "move", "unit": "E-2-16", "to": "0509"})
    assert why is not None and "at most 1 action a unit" in why and "omaha 6" in why
    g.play({"do": "move", "unit": "F-2-16", "to": "0708"})
    why = g.refusal({"do": "move", "unit": "L-3-16", "to": "0908"})
    assert why is not None and "omaha 6" in why and "0 action(s) left" in why


def test_two_stacked_units_doing_the_same_action_pay_one() -> None:
    """omaha 6: 2 units stacked together conduct the exact same action at the cost of 1."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0509")
    put(s, "F-2-16", "0509")
    g.play({"do": "move", "unit": "E-2-16", "with": "F-2-16", "to": "0508"})
    assert _left(s, "east") == 1
    assert s.board.label(s.map.piece("F-2-16").hex) == "0508"


@pytest.mark.parametrize(("case", "why"), [
    ("ranger", "rangers act free"),
    ("hero", "hero or Inspired"),
    ("climb", "climb marker"),
    ("shelter", "toward a protecting hexside"),
    ("disrupted", "removes its marker free"),
    ("leader", "HQs and Generals act free"),
    ("command", "in command of an HQ or General"),
])  # fmt: skip
def test_each_class_of_free_action(case: str, why: str) -> None:
    """omaha 6, the 7 classes of free action: none spends a sector's action."""
    g = action_phase()
    s = g.state
    if case == "ranger":
        put(s, "A.B-2R", "0509")
        action = {"do": "move", "unit": "A.B-2R", "to": "0508"}
    elif case == "hero":
        put(s, "E-2-16", "0509", status=(HERO,))
        action = {"do": "move", "unit": "E-2-16", "to": "0508"}
    elif case == "climb":
        put(s, "E-2-16", "0509", status=("climb",))
        action = {"do": "drop-climb", "unit": "E-2-16"}
    elif case == "shelter":
        put(s, "E-2-16", "0314")  # the shingle is at 0311/0312
        action = {"do": "move", "unit": "E-2-16", "to": "0313"}
    elif case == "disrupted":
        put(s, "E-2-16", "0509", status=(DISRUPTED,))
        action = {"do": "rally", "unit": "E-2-16"}
    elif case == "leader":
        put(s, "16-HQ", "0509")
        action = {"do": "move", "unit": "16-HQ", "to": "0508"}
    else:
        put(s, "E-2-16", "0509")
        put(s, "16-HQ", "0609")
        action = {"do": "move", "unit": "E-2-16", "to": "0508"}
    unit = s.map.piece(str(action["unit"]))
    to = s.board.hex_of(str(action["to"])) if "to" in action else None
    assert why in (us_actions.free_reason(s, unit, str(action["do"]), to) or "")
    g.play(action)
    assert _left(s, "east") == 2


def test_an_hq_that_has_moved_commands_no_more() -> None:
    """omaha 6: in command of an HQ or General "that has not moved yet"."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0509")
    put(s, "16-HQ", "0609")
    g.play({"do": "move", "unit": "16-HQ", "to": "0608"})
    assert us_actions.free_reason(s, s.map.piece("E-2-16"), "move", s.board.hex_of("0508")) is None


def test_a_beach_move_away_from_shelter_is_not_free() -> None:
    """omaha 6: only a move closer to a protecting hexside is free."""
    s = action_phase().state
    put(s, "E-2-16", "0313")
    assert us_actions.free_reason(s, s.map.piece("E-2-16"), "move", s.board.hex_of("0314")) is None


def test_a_disrupted_unit_only_removes_its_marker() -> None:
    """omaha 6: removing the Disrupted marker is its only possible action."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0509", status=(DISRUPTED,))
    why = g.refusal({"do": "move", "unit": "E-2-16", "to": "0508"})
    assert why is not None and "omaha 6" in why
    g.play({"do": "rally", "unit": "E-2-16"})
    assert DISRUPTED not in s.map.piece("E-2-16").status


def test_crossing_a_bluff_puts_a_climb_marker_and_that_is_all_it_does_next() -> None:
    """omaha 6.1: infantry crossing a bluff takes a climb marker; with it, removing the
    marker is its only action (free)."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0311")
    g.play({"do": "move", "unit": "E-2-16", "to": "0310"})
    assert "climb" in s.map.piece("E-2-16").status
    us_actions.begin(s)
    why = g.refusal({"do": "move", "unit": "E-2-16", "to": "0309"})
    assert why is not None and "omaha 6.1" in why
    g.play({"do": "drop-climb", "unit": "E-2-16"})
    assert "climb" not in s.map.piece("E-2-16").status and _left(s, "east") == 2


def test_a_scaleable_cliff_is_climbed_in_two_actions() -> None:
    """omaha 6.1: a climb-cliff marker first, without moving; then cross the cliff and
    flip the marker to climb. Only infantry; not below a cliff: refused."""
    g = action_phase()
    s = g.state
    put(s, "E-2-16", "0113")
    why = g.refusal({"do": "move", "unit": "E-2-16", "to": "0212"})
    assert why is not None
    g.play({"do": "climb-cliff", "unit": "E-2-16"})
    assert "climb-cliff" in s.map.piece("E-2-16").status
    us_actions.begin(s)
    g.play({"do": "move", "unit": "E-2-16", "to": "0212"})
    p = s.map.piece("E-2-16")
    assert s.board.label(p.hex) == "0212" and "climb" in p.status and "climb-cliff" not in p.status
    put(s, "1-A-741", "0113")
    why = g.refusal({"do": "climb-cliff", "unit": "1-A-741"})
    assert why is not None and "omaha 6.1" in why


def test_infiltration_draws_a_card_and_may_cost_a_step() -> None:
    """omaha 6.1: a move from a hex adjacent to and in the field of fire of an
    undisrupted position to a similar hex draws a card; the unit loses a step on its
    symbol and the position's colour."""
    g = action_phase()
    s = g.state
    german(s, "A4a", "1209")  # wn-64, blue
    put(s, "E-2-16", "1110")  # circle
    put(s, "16-HQ", "1111")
    g.play({"do": "move", "unit": "E-2-16", "to": "1210"})
    text = "\n".join(g.log_lines())
    assert "infiltrates" in text and "omaha 6.1" in text
    card = data.cards()[s.decks[landing.DECK].discards[-1]]
    lost = card.symbol("circle") is not None and card.colour("blue") is not None
    assert (s.map.piece("E-2-16").steps < 3) == lost


@pytest.mark.parametrize(("sym", "col", "depth", "lost"), [
    ((False,), (False,), False, True), ((True,), (False,), False, False), ((True,), (False,), True, True),
    ((False,), None, False, False), (None, (False,), False, False), ((False,), (True,), False, False),
    ((False,), (True,), True, True),
])  # fmt: skip
def test_infiltration_strict_matching(sym: tuple[bool] | None, col: tuple[bool] | None, depth: bool, lost: bool) -> None:
    """omaha 6.1 "strictly matching symbols and Depth count" (project's reading): a
    double symbol or colour costs a step only if the position has Depth."""
    s = action_phase().state
    german(s, "A4a", "1209", depth="WD1" if depth else None)
    unit = put(s, "E-2-16", "1110")
    card = data.Card("X", "F", "A", tuple(("blue", d) for d in col) if col else (("red", False),),
                     tuple(("circle", d) for d in sym) if sym else (("square", False),), False, 75, 1, False, False)  # fmt: skip
    assert us_actions.infiltration_hit(s, card, unit, ["wn-64"]) == lost


def test_infiltrating_past_two_positions_either_colour() -> None:
    """omaha 6.1: past 2 German positions, lose a step on the symbol and either colour."""
    s = action_phase().state
    german(s, "A4a", "1209")
    german(s, "A5a", "1410")
    unit = put(s, "E-2-16", "1310")
    card = data.Card("X", "F", "A", (("red", True),), (("circle", True),), False, 75, 1, False, False)
    assert us_actions.infiltration_hit(s, card, unit, ["wn-64", "wn-65"])


def test_a_tank_barrage_needs_the_field_of_fire_or_command() -> None:
    """omaha 6.3: a tank in range, not adjacent, in the target's field of fire; or an
    undisrupted infantry is and one of them is in command."""
    g = action_phase()
    s = g.state
    german(s, "A3a", "0910")
    put(s, "1-A-741", "0913")
    assert g.refusal({"do": "barrage", "unit": "1-A-741", "target": "0910"}) is None
    put(s, "1-A-741", "0911")
    why = g.refusal({"do": "barrage", "unit": "1-A-741", "target": "0910"})
    assert why is not None and "omaha 6.3" in why


def test_artillery_barrages_only_in_extended_turns() -> None:
    """omaha 6.4 EXT."""
    g = action_phase(5)
    s = g.state
    german(s, "A3a", "0910")
    put(s, "62AFA", "0914")
    why = g.refusal({"do": "barrage", "unit": "62AFA", "target": "0910"})
    assert why is not None and "omaha 6.4" in why


def test_a_naval_barrage_disrupts_and_strips_depth_free() -> None:
    """omaha 6.5: an undisrupted infantry in the field of fire, with a radio or in
    command of an HQ: for free, Disrupted and the Depth marker removed; gap G9: one
    marker a sector a turn."""
    g = action_phase()
    s = g.state
    german(s, "A3a", "0910", depth="WD1")
    put(s, "E-2-16", "0912")
    why = g.refusal({"do": "naval-barrage", "target": "0910"})
    assert why is not None and "omaha 6.5" in why
    put(s, "16-HQ", "0913")
    g.play({"do": "naval-barrage", "target": "0910"})
    p = s.map.piece("A3a")
    assert DISRUPTED in p.status and not p.carrying and _left(s, "east") == 2
    german(s, "A3b", "0909")
    why = g.refusal({"do": "naval-barrage", "target": "0909"})
    assert why is not None and "gap G9" in why


def test_an_unrevealed_reinforcement_cannot_be_barraged() -> None:
    """omaha 6.3, 6.5, section 10: target != Unrevealed Reinforcement."""
    g = action_phase()
    s = g.state
    german(s, "T1", "2407", status=("unrevealed",))
    put(s, "E-2-16", "2409")
    put(s, "116-HQ", "2410")
    why = g.refusal({"do": "naval-barrage", "target": "2407"})
    assert why is not None and "omaha 6.5" in why


@pytest.mark.parametrize(("turn", "most"), [(1, 0), (2, 2), (6, 2), (7, 1), (15, 1), (16, 0), (23, 0)])
def test_obstacle_clearing_by_turn_band(turn: int, most: int) -> None:
    """omaha 7: turns 2-6 two hexes a sector, 7-15 one; reading A6: none in 16-23."""
    g = action_phase(turn, "extended" if turn > 16 else "standard")
    s = g.state
    beach = [m for m in s.map.pieces() if m.type == "beach-obstacles" and s.board.label(m.hex) <= "1114"]
    done = 0
    for m in beach:
        action = {"do": "clear-obstacle", "hex": s.board.label(m.hex)}
        if g.refusal(action) is None:
            g.play(action)
            done += 1
    assert done == most
    if most:
        assert _left(s, "east") == 2
    else:
        why = g.refusal({"do": "clear-obstacle", "hex": s.board.label(beach[0].hex)})
        assert why is not None and "omaha 7" in why


def test_no_clearing_under_an_undisrupted_field_of_fire() -> None:
    """omaha 7: not in the field of fire of an undisrupted, occupied position."""
    g = action_phase(3)
    s = g.state
    german(s, "A1a", "0310")
    why = g.refusal({"do": "clear-obstacle", "hex": "0313"})
    assert why is not None and "omaha 7" in why


def test_command_posts_are_established_in_extended_turns_and_revert() -> None:
    """omaha 8 EXT: an HQ out of every occupied or in-communication field establishes a
    CP; a CP reverts to an HQ to move; in a standard turn: refused."""
    g = action_phase(5)
    s = g.state
    put(s, "16-HQ", "0505")
    why = g.refusal({"do": "establish-cp", "unit": "16-HQ"})
    assert why is not None and "omaha 8" in why
    g = action_phase(17, "extended")
    s = g.state
    put(s, "16-HQ", "0505")
    g.play({"do": "establish-cp", "unit": "16-HQ"})
    assert s.map.piece("16-HQ").type == "command-post"
    us_actions.begin(s)
    why = g.refusal({"do": "move", "unit": "16-HQ", "to": "0504"})
    assert why is not None and "omaha 8" in why
    g.play({"do": "revert-cp", "unit": "16-HQ"})
    g.play({"do": "move", "unit": "16-HQ", "to": "0504"})
    assert s.map.piece("16-HQ").type == "hq"


def test_a_command_post_commands_within_two_hexes() -> None:
    """Gap G10: CP range 2 gives free actions (omaha 8)."""
    g = action_phase(17, "extended")
    s = g.state
    put(s, "16-HQ", "0505")
    put(s, "E-2-16", "0507")
    assert us_actions.free_reason(s, s.map.piece("E-2-16"), "move") is None
    g.play({"do": "establish-cp", "unit": "16-HQ"})
    assert "in command" in (us_actions.free_reason(s, s.map.piece("E-2-16"), "move") or "")


def test_every_offered_choice_is_legal() -> None:
    """The choices the window offers are actions the rules accept."""
    g = action_phase(5)
    s = g.state
    german(s, "A2a", "0711")
    for uid, label in (("E-2-16", "0811"), ("F-2-16", "0611"), ("1-A-741", "0714"), ("16-HQ", "0812"),
                       ("A.B-2R", "0113"), ("62AFA", "0914")):  # fmt: skip
        put(s, uid, label)
    offered = g.choices("us")
    assert END_PHASE in offered
    kinds = {a["do"] for a in offered}
    assert {"move", "attack", "barrage", "naval-barrage"} <= kinds
    for a in offered:
        assert g.refusal(a) is None, a


def test_unknown_actions_are_refused_with_the_list() -> None:
    g = action_phase()
    why = g.refusal({"do": "fly", "unit": "E-2-16"})
    assert why is not None and "no action" in why


def test_a_dice_seeded_attack_is_logged_with_its_cell() -> None:
    """The log of an attack names the weapons, strengths, 9.7 row, column and cell."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0711")
    put(s, "E-2-16", "0811")
    g.play({"do": "attack", "target": "0711", "units": ["E-2-16"]})
    line = next(x for x in g.log_lines() if "attack on 0711" in x)
    assert "weapons needed BR" in line and "9.7 row YES" in line and "omaha 9.7" in line


def test_extended_turns_offer_two_hex_infantry_moves() -> None:
    """omaha 6.1 EXT: infantry moves 2 hexes; the choices offer the whole reach."""
    g = action_phase(17, "extended")
    s = g.state
    put(s, "E-2-16", "0505")
    ends = {a["to"] for a in g.choices("us") if a.get("do") == "move" and a.get("unit") == "E-2-16"}
    far = sorted(e for e in ends if distance(s.board.hex_of(e), s.board.hex_of("0505")) == 2)
    assert far and "0504" in ends
    g.play({"do": "move", "unit": "E-2-16", "to": far[0]})
    assert s.board.label(s.map.piece("E-2-16").hex) == far[0]
