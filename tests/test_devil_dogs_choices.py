"""The Devil Dogs of Belleau Wood: withdrawals (1.2 UNIT REMOVAL TOKEN, 5.11), the
optional rule of 5.4, the list of the project's choices (the checklist's gaps G1-G13
and readings A1-A9) and the choices the rules give the player rather than the program
(7.1 damage within a priority class, 5.11 placement and replacements, 9 BARRAGE)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tabletop.engine.dice import Dice
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games.devil_dogs import ruleset as rs
from tabletop.games.devil_dogs.bots import PlannerBot
from tabletop.games.devil_dogs.data import figures
from tabletop.games.devil_dogs.ruleset import WITHDRAWN, DevilDogsRules

R = DevilDogsRules()
BOARD = open_map_or_scenario("belleau-wood").board


def unit(ident: str, at: str, side: str = "allied", kind: str = "infantry", **attrs: Any) -> Piece:
    nation = attrs.pop("nation", "usmc" if side == "allied" else "german-defensive")
    steps = 4 if nation in ("usmc", "german-assault", "us-army") else 3
    pairs = (("nation", nation), ("regiment", attrs.pop("regiment", "r1")), *attrs.items())
    return Piece(ident, kind, BOARD.hex_of(at), side, steps=steps, attributes=tuple(pairs))


def ground(*pieces: Piece, **game: Any) -> GameState:
    state = GameState(MapState.of(BOARD, pieces), turn=1, phase="draw")
    scenario = SimpleNamespace(game={"sectors": ("B", "C"), "attacker": "allied", **game}, turns=6, victory={})
    R.prepare(state, scenario)
    R._shuffle(state, Dice(1))
    return state


# --- 1.2 UNIT REMOVAL TOKEN: withdrawals --------------------------------------------------------


def test_a_unit_withdraws_at_the_reinforcement_step_of_its_turn_and_scores_nothing() -> None:
    """1.2 UNIT REMOVAL TOKEN (project's choice of moment: step 11 of that turn, 5.11):
    the unit leaves the map into the box `withdrawn`, not the dead pool (no VP, G5)."""
    state = ground(unit("FR", "0820", withdraw=1), unit("LATER", "1020", withdraw=2), unit("G", "0810", "german"))
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
    view = SimpleNamespace(state=R.view(state.copy(), "german"), side="german", choices=R.choices(state, "german"))
    assert PlannerBot().choose(view)["do"] == "orders"  # type: ignore[arg-type]
