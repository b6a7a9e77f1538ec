"""The Devil Dogs of Belleau Wood: withdrawals (1.2 UNIT REMOVAL TOKEN, 5.11), the
optional rule of 5.4, the list of the project's choices (the checklist's gaps G1-G13
and readings A1-A9) and the choices the rules give the player rather than the program
(7.1 damage within a priority class, 5.11 placement and replacements, 9 BARRAGE)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tabletop.engine.dice import Dice
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games.devil_dogs import ruleset as rs
from tabletop.games.devil_dogs.bots import PlannerBot
from tabletop.games.devil_dogs.choices import CHOICES, choices, read_choices
from tabletop.games.devil_dogs.data import figures
from tabletop.games.devil_dogs.ruleset import WITHDRAWN, DevilDogsRules
from tabletop.games.devil_dogs.tables import tables
from tabletop.games.devil_dogs.window import choices_panel
from tabletop.yamlfile import DataError

R = DevilDogsRules()
BOARD = open_map_or_scenario("belleau-wood").board


def unit(ident: str, at: str, side: str = "allied", kind: str = "infantry", **attrs: Any) -> Piece:
    nation = attrs.pop("nation", "usmc" if side == "allied" else "german-defensive")
    steps = 4 if nation in ("usmc", "german-assault", "us-army") else 3
    pairs = (("nation", nation), ("regiment", attrs.pop("regiment", "r1")), *attrs.items())
    return Piece(ident, kind, BOARD.hex_of(at), side, steps=steps, attributes=tuple(pairs))


def ground(*pieces: Piece, **game: Any) -> GameState:
    state = GameState(MapState.of(BOARD, pieces), turn=1, phase="draw")
    scenario = SimpleNamespace(
        game={"sectors": ("B", "C"), "attacker": "allied", **game}, turns=6, victory={}
    )
    R.prepare(state, scenario)
    R._shuffle(state, Dice(1))
    return state


# --- 1.2 UNIT REMOVAL TOKEN: withdrawals --------------------------------------------------------


def test_a_unit_withdraws_at_the_reinforcement_step_of_its_turn_and_scores_nothing() -> None:
    """1.2 UNIT REMOVAL TOKEN (project's choice of moment: step 11 of that turn, 5.11):
    the unit leaves the map into the box `withdrawn`, not the dead pool (no VP, G5)."""
    state = ground(
        unit("FR", "0820", withdraw=1), unit("LATER", "1020", withdraw=2), unit("G", "0810", "german")
    )
    before = rs.victory_points(state)
    lines = R._reinforce(state)
    assert "FR withdraws from the battle (1.2 UNIT REMOVAL TOKEN)" in lines
    assert [p.id for p in state.box(WITHDRAWN)] == ["FR"] and not state.box("dead")
    assert state.where("LATER") is None  # still on the map: its turn is 2
    assert rs.victory_points(state) == before


def test_the_counterattack_scenario_withdraws_the_french_company_after_turn_two() -> None:
    """1.2: the scenario's removal token (belleau-wood-counterattack: FR-1, turn 2)."""
    scenario = open_map_or_scenario("belleau-wood-counterattack")
    game = new_game(scenario, DevilDogsRules(), seed=3)
    auto_setup(game)
    assert game.state.map.piece("FR-1").attr("withdraw", None) == 2


# --- 5.4 (Optional: Scenario initiative player places tokens first) ------------------------------


def _at_orders(**options: object) -> GameState:
    state = ground(unit("A", "0820"), unit("G", "0810", "german"), **{"scenario-initiative": "german"})
    state.options.update(options)
    state.phase = "orders"
    state.marks.update({"chits": ["B:US", "C:GE"], "cards-allied": ["B:US-01", "C:US-02"],
                        "cards-german": ["B:GE-01", "C:GE-02"]})  # fmt: skip
    return state


def test_without_the_option_both_sides_set_their_orders_at_once() -> None:
    """5.4, the text's rule: both players set their order indicators simultaneously."""
    assert figures().options["orders-first"].default is False
    state = _at_orders()
    assert R.simultaneous(state) == ("allied", "german")


def test_with_the_option_the_scenario_initiative_player_sets_his_orders_first() -> None:
    """5.4 optional rule: the scenario-initiative player (here German) places first, the
    other after him; the phase ends only once both have."""
    state = _at_orders(**{"orders-first": True})
    assert R.simultaneous(state) == ()
    assert R.actor(state) == "german" and R.choices(state, "allied") == []
    assert R.proposal(state) is None
    first = R.choices(state, "german")[0]
    assert R.refusal(state, {**first, "side": "allied"}) is not None
    R.apply(state, first, Dice(1))
    assert R.actor(state) == "allied" and R.choices(state, "german") == []
    R.apply(state, R.choices(state, "allied")[0], Dice(1))
    assert R.actor(state) is None and R.proposal(state) == {"do": "end-phase"}


def test_the_planner_sets_its_orders_when_they_are_not_secret() -> None:
    """5.4 optional rule: the bot decides the order indicators set in turn as well."""
    state = _at_orders(**{"orders-first": True})
    view = SimpleNamespace(
        state=R.view(state.copy(), "german"), side="german", choices=R.choices(state, "german")
    )
    assert PlannerBot().choose(view)["do"] == "orders"  # type: ignore[arg-type]


# --- the project's choices (checklist G1-G13, A1-A9), in the data and in the window -------------

CHECKLIST = Path("/work/shared/games/devil-dogs.md")
GAP_IDS = [f"G{i}" for i in range(1, 14)] + [f"A{i}" for i in range(1, 10)]


def test_every_gap_and_reading_of_the_checklist_has_a_project_choice() -> None:
    """Issue 15 done-when: every gap (G1-G13) and contradiction (A1-A9) of the text is
    settled in YAML (choices.yaml) as the project's choice. When the checklist is at
    hand its ids are read from it, so a gap added there without an entry fails here."""
    ids = GAP_IDS
    if CHECKLIST.exists():
        found = re.findall(r"^\*\*(G\d+)\.|^- \*\*(A\d+)\.", CHECKLIST.read_text(), re.M)
        ids = sorted({a or b for a, b in found}, key=lambda x: (x[0], int(x[1:])))
        assert set(GAP_IDS) <= set(ids)
    settled = {c.id: c for c in choices()}
    missing = [i for i in ids if i not in settled]
    assert not missing, f"no project's choice for {missing} in choices.yaml"
    assert "ALL OF THESE ARE THE PROJECT'S CHOICES" in CHOICES.read_text()


def test_the_window_lists_every_project_choice_and_the_option_in_force() -> None:
    """Issue 15: every project choice shown as such in the window (panel `choices`),
    with the 5.4 optional rule and the reading in force."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    panel = choices_panel(state)
    texts = [r.text for r in panel.rows]
    for c in choices():
        assert f"{c.id} ({c.section}) project's choice" in texts
    assert "option orders-first (5.4): off" in texts
    assert "  both players set their order indicators at once (5.4, the text's rule)" in texts
    state.options["orders-first"] = True
    assert "option orders-first (5.4): ON" in [r.text for r in choices_panel(state).rows]
    assert [t.key for t in tables()][-1] == "choices" and len(tables()[-1].rows) == len(choices()) + 1


def test_a_bad_choice_entry_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    """choices.yaml is data: a missing field names its file and line."""
    text = CHOICES.read_text().replace("    where: cards.yaml\n", "", 1)
    bad = tmp_path / "choices.yaml"
    bad.write_text(text)
    line = text.splitlines().index("  - id: G1") + 1
    with pytest.raises(DataError) as caught:
        read_choices(bad)
    assert str(caught.value).startswith(
        f"{bad}:{line}: choices[0] must give exactly id, section, gap, choice, where"
    )


# --- choices the rules give the player (G9, G13, P7, P8), the bot deciding for bot seats -------


def _drain_to_choice(state: GameState, steps: list[dict[str, Any]]) -> list[str]:
    state.phase = "execute"
    rs.set_queue(state, steps)
    lines: list[str] = []
    while rs.queue(state) and R.proposal(state) is not None:
        lines += R.apply(state, R.proposal(state), Dice(1))  # type: ignore[arg-type]
    return lines


def test_the_firing_player_picks_within_a_priority_class_when_the_cd_cannot_hit_it_all() -> None:
    """7.1, 8.2 (G9): MG 1 on two open infantry units: one step, and the firing player
    picks which; the bot picks the unit with fewest steps left."""
    state = ground(unit("A", "0822"), unit("G1", "0819", "german"), unit("G2", "0919", "german"))
    state.map.update(replace(state.map.piece("G2"), steps=2))
    _drain_to_choice(state, [{"t": "mg", "side": "allied", "sector": "B", "mg": 1}])
    assert R.actor(state) == "allied"
    offered = R.choices(state, "allied")
    assert offered == [{"do": "hit", "piece": "G2"}, {"do": "hit", "piece": "G1"}]
    view = SimpleNamespace(state=state, side="allied", choices=offered)
    assert PlannerBot().choose(view) == {"do": "hit", "piece": "G2"}  # type: ignore[arg-type]
    R.apply(state, {"do": "hit", "piece": "G1"}, Dice(1))
    assert state.map.piece("G1").steps == 2 and state.map.piece("G2").steps == 2
    assert not rs.queue(state)


def test_no_choice_is_offered_when_the_cd_hits_the_whole_class() -> None:
    """7.1 (G9): MG 3 on the same two units: both are hit, nothing to choose."""
    state = ground(unit("A", "0822"), unit("G1", "0819", "german"), unit("G2", "0919", "german"))
    _drain_to_choice(state, [{"t": "mg", "side": "allied", "sector": "B", "mg": 3}])
    assert not rs.queue(state)
    assert state.map.piece("G1").steps == 2 and state.map.piece("G2").steps == 2


def test_random_players_finish_both_scenarios_through_every_choice() -> None:
    """Issue 15: every new choice (damage within a class, USMC points, arrivals, the
    barrage's second token) is a legal action a random player can take to the end."""
    from tabletop.sim import simulate

    for scenario in ("belleau-wood", "belleau-wood-counterattack"):
        report = simulate(scenario, 2, 3, bots={"allied": "random", "german": "random"})
        assert report["groups"][0]["failed"] == 0, report["failed"]
        assert report["groups"][0]["draws_at_cap"] == 0
