"""D-Day at Omaha Beach, part 1 as a game: the turn sequence (gap G1), the player's
decisions inside the automatic phases, the end of the US Action phase and of the turn
(omaha 6), the game length (gap G13), headless play and ``tabletop sim`` / ``tables``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import Game, IllegalAction, SideView
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import Piece
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.games.omaha import data, german, landing
from tabletop.games.omaha.autoplayer import LandingBot
from tabletop.games.omaha.common import REMOVED
from tabletop.games.omaha.ruleset import OmahaRules, phase_texts, underwater_hexes
from tabletop.shipped import resolve
from tabletop.sim import play_out, simulate


def game(seed: int = 1, length: str = "standard") -> Game:
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=seed,  # type: ignore[arg-type]
                 options={"length": length}, history=False)  # fmt: skip
    g.use_seeded_dice()
    auto_setup(g)
    return g


def take(state: Any, uid: str, label: str, status: frozenset[str] = frozenset()) -> None:
    """Bring a scheduled unit out of its turn box onto a hex (a test's set-up)."""
    box = state.where(uid)
    state.from_box(box, uid, state.board.hex_of(label))
    if status:
        state.map.update(Piece(**{**state.map.piece(uid).__dict__, "status": status}))


class DoNothing:
    """A scripted US side that does nothing it need not: places each arrival in the first
    box offered, answers every question with the first choice, never moves."""

    def choose(self, view: SideView) -> Action:
        if view.state.phase == "us-action":
            return dict(END_PHASE)
        return view.choices[0]


def test_a_scripted_us_side_that_does_nothing_plays_turns_1_to_16_identically() -> None:
    """Issue 17 "done when": with a US side that does nothing, the game runs turns 1-16
    headless with landings and German phases only, the same for the same seed."""
    logs = []
    for _ in range(2):
        g = game(3)
        play_out(g, "us", DoNothing())
        assert g.state.result is not None and "turn 16 of 16 ended" in g.state.result
        logs.append(g.log_lines())
    assert logs[0] == logs[1]
    text = "\n".join(logs[0])
    assert "German card for the turn" in text and "9.2 turn 1" in text and "hits" in text


def test_the_sequence_of_play_g1() -> None:
    """Gap G1: landing, German phase, US Action phase, end of the turn."""
    assert [p.key for p in OmahaRules.sequence] == ["landing", "german", "us-action", "end-turn"]
    g = game(1)
    assert (g.state.turn, g.state.phase) == (1, "landing")
    assert g.actor() == "us"  # the arrivals wait to be placed
    assert {a["do"] for a in g.choices("us")} <= {"land-place", "land-delay"}


def test_the_german_phase_runs_its_steps_in_order() -> None:
    """Every German step is one logged action: communication, the card, its event,
    fire per position, artillery from turn 4, rallying."""
    g = game(1)
    bot = LandingBot()
    while g.state.phase == "landing":
        action = g.proposal() or bot.choose(g.side_view("us"))
        g.play(action)
    seen = []
    while g.state.phase == "german":
        action = g.proposal() or bot.choose(g.side_view("us"))
        seen.append(action["do"])
        g.play(action)
    assert seen[:2] == ["communication", "german-card"]
    assert seen[-2:] == ["german-rally", "end-phase"]
    assert "german-artillery" not in seen  # turn 1: no artillery before turn 4 (omaha 5)


def test_german_steps_out_of_order_are_refused_with_the_section() -> None:
    g = game(1)
    with pytest.raises(IllegalAction, match="belongs to the German phase"):
        g.play({"do": "german-card"})
    with pytest.raises(IllegalAction, match=r"omaha|D-Day at Omaha Beach|9.1"):
        g.play({"do": "land-place", "unit": "E-2-16", "to": "2015"})  # a west box for an east unit


def test_a_german_target_may_be_overridden() -> None:
    """As in DOG SECTOR: another legal target, played with "override": true."""
    g = game(5)
    bot = LandingBot()
    for _ in range(5000):
        p = g.proposal()
        if p is not None and p["do"] == "german-hit":
            others = [a for a in g.choices("us") if a.get("override")]
            if others:
                g.play(others[0])
                assert "[override]" in g.log_lines()[-3] or "[override]" in " ".join(g.log_lines()[-4:])
                return
        g.play(p or bot.choose(g.side_view("us")))
    pytest.fail("no German fire with a choice of targets in the first turns")


def test_game_length_option() -> None:
    """Gap G13: 16 turns standard, 32 extended (EXT from turn 17)."""
    assert game(1).state.track("last-turn") == 16
    assert game(1, "extended").state.track("last-turn") == 32
    assert data.rules()["extended_from"] == 17


def test_stacking_eliminated_at_the_end_of_the_us_action_phase() -> None:
    """omaha 6 (checklist defect 4): units over the limit are eliminated at the end of
    the US Action phase, the player choosing which; moves are not refused for it."""
    g = game(1)
    state = g.state
    for uid in ("A-1-16", "B-1-16", "C-1-16"):
        take(state, uid, "1013")
    state.phase = "end-turn"
    assert g.actor() == "us"
    assert {a["unit"] for a in g.choices("us")} == {"A-1-16", "B-1-16", "C-1-16"}
    g.play({"do": "stack-eliminate", "unit": "C-1-16"})
    assert state.where("C-1-16") == "dead" and g.proposal() == {"do": "underwater"}


def test_underwater_units_removed_at_high_tide() -> None:
    """omaha 6 and gap G7: at high tide units on the Charlie beach hexes next to a
    cliff, without a climb-cliff marker, are removed from play at the end of the turn."""
    g = game(1)
    state = g.state
    wet = sorted(underwater_hexes(state), key=state.board.label)
    assert wet
    take(state, "A.B-5R", state.board.label(wet[0]))
    take(state, "C.D-5R", state.board.label(wet[0]), frozenset({"climb-cliff"}))
    state.turn, state.phase = 16, "end-turn"
    g.play({"do": "underwater"})
    assert state.where("A.B-5R") == REMOVED and state.where("C.D-5R") is None


def test_phase_rules_mark_the_projects_choices() -> None:
    """Every gap and reading used is shown in the rules panel as the project's choice."""
    rules = OmahaRules()
    texts = phase_texts()
    assert set(texts) == {"landing", "german", "us-action", "end-turn"}
    g = game(1)
    lines = rules.phase_rules(g.state)
    assert any(line.startswith("project's choice:") and "G15" in line for line in lines)
    joined = " ".join(c for t in texts.values() for c in t.get("choices", []))
    for tag in ("G7", "G13", "G14", "G15", "A1", "A2", "A5", "A8", "A10", "G5b", "G8"):
        assert tag in joined, tag


def test_the_turn_card_is_shown_in_the_status_line() -> None:
    g = game(1)
    bot = LandingBot()
    while g.state.phase != "us-action":
        g.play(g.proposal() or bot.choose(g.side_view("us")))
    card = german.turn_card(g.state)
    assert card is not None and f"card {card.id}" in OmahaRules().status(g.state)


def test_us_move_one_hex_by_9_4_and_two_actions_a_sector() -> None:
    """A one-hex move (9.4), two actions a sector (omaha 6), once a unit (part 2:
    on high ground, where no free-action class applies)."""
    g = game(1)
    state = g.state
    state.phase = "us-action"
    for s in ("east", "west"):
        state.tracks["actions:" + s] = 2
    for uid, label in (("A-1-16", "0505"), ("B-1-16", "0705"), ("C-1-16", "0905")):
        take(state, uid, label)
    assert g.refusal({"do": "move", "unit": "A-1-16", "to": "0507"}) is not None  # 2 hexes
    g.play({"do": "move", "unit": "A-1-16", "to": "0504"})
    assert "already acted" in (g.refusal({"do": "move", "unit": "A-1-16", "to": "0505"}) or "")
    g.play({"do": "move", "unit": "B-1-16", "to": "0704"})
    assert "0 action(s) left" in (g.refusal({"do": "move", "unit": "C-1-16", "to": "0904"}) or "")


def test_sim_finishes_every_game_the_same_for_the_same_seed() -> None:
    """`tabletop sim omaha`: both lengths, no failure, identical figures for a seed."""
    one = simulate("omaha", 2, seed=1, by="length")
    two = simulate("omaha", 2, seed=1, by="length")
    assert not one["failed"] and [g["played"] for g in one["groups"]] == [2, 2]
    strip: Any = lambda r: [{k: v for k, v in g.items() if k != "seconds"} for g in r["groups"]]  # noqa: E731
    assert strip(one) == strip(two)


def test_cli_tables_prints_9_1_to_9_8_and_section_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "omaha", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["key"] for t in out["tables"]] == ["9.1", "9.2", "9.3", "3", "9.4", "9.5", "9.6", "9.7", "9.8", "victory"]
    t92 = next(t for t in out["tables"] if t["key"] == "9.2")
    assert ["1", "all", "delay 1", "eliminated", "steps 1", "steps 1, left 2"] in t92["rows"]
    assert any("reading A1" in c for c in t92["choices"])


def test_the_ranger_drift_is_asked_of_the_player() -> None:
    """9.2 rangers +[0-4] left: the engine's actor hook asks the US inside the landing."""
    g = game(1)
    state = g.state
    take(state, "A.B-5R", "3315")
    state.boxes = {k: v for k, v in state.boxes.items() if not k.endswith("-turn-1")}
    state.marks[landing.ASK_RANGER] = ["A.B-5R"]
    assert g.proposal() is None and g.actor() == "us"
    assert [a["left"] for a in g.choices("us")] == [0, 1, 2, 3, 4]


def test_a_game_replays_exactly_from_its_log() -> None:
    """The engine's replay (a save): the same actions from the initial state and seed
    give the same state, every rule of part 1 judging each action again."""
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=4)  # type: ignore[arg-type]
    g.use_seeded_dice()
    auto_setup(g)
    bot = LandingBot()
    while g.state.turn < 3:
        g.play(g.proposal() or bot.choose(g.side_view("us")))
    assert g.replay(check=True).to_json() == g.state.to_json()


def test_the_window_panels_show_the_card_the_landing_and_the_pools() -> None:
    """What a player reads beside the map: the German card of the turn and who fires,
    the arrivals still to place, the pools and loss boxes."""
    from tabletop.games.omaha.window import extras

    g = game(1)
    panels = {p.key: p for p in extras().panels(g.state, None)}
    assert set(panels) == {"omaha-landing"}  # no card drawn yet in the Landing; pools only in German phases
    assert any("to place:" in r.text for r in panels["omaha-landing"].rows)
    s = g.state
    phase, s.phase = s.phase, "german"
    panels = {p.key: p for p in extras().panels(s, None)}
    assert any("Tactical pool 6" in r.text for r in panels["omaha-pools"].rows)
    s.phase = phase
    bot = LandingBot()
    while g.state.phase != "us-action":
        g.play(g.proposal() or bot.choose(g.side_view("us")))
    card = german.turn_card(g.state)
    panels = {p.key: p for p in extras().panels(g.state, None)}
    rows = [r.text for r in panels["omaha-card"].rows]
    assert card is not None and rows[0].startswith(f"action {card.action}")
    assert set(panels) == {"omaha-actions", "omaha-attack", "omaha-card"}  # the US Action phase's (room for Boxes)


def test_the_one_hex_moves_offered_are_the_movement_policys_reach() -> None:
    """The fast one-hex judgement agrees with movement.py's whole reach (9.4) for every
    unit, including one below a bluff and one in a landing box."""
    from tabletop.engine.movement import plan_move
    from tabletop.games.omaha.movement import OmahaMovePolicy
    from tabletop.games.omaha.ruleset import _move_choices

    g = game(1)
    state = g.state
    state.phase = "us-action"
    state.tracks.update({"actions:east": 2, "actions:west": 2})
    for uid, label in (("A-1-16", "1012"), ("B-1-16", "0615"), ("1-A-741", "1111"), ("16-HQ", "0413")):
        take(state, uid, label)
    offered = {(a["unit"], a["to"]) for a in _move_choices(state)}
    want = set()
    for p in state.map.pieces():
        if p.side == "us":
            reach = plan_move(state.map, OmahaMovePolicy(), p)
            want |= {(p.id, state.board.label(h)) for h in reach.costs if h != p.hex}
    assert offered == want
