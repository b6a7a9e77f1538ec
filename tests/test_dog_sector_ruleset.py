"""DOG SECTOR turn sequence (phases 1-7), the automatic procedures of phases 1, 2, 3
and 7, victory (Table 7) and the whole ruleset played through the engine's ``Game``.

States are built on the shipped map, maps/dog-sector.yaml: row 3 is the landing row
(sea, not next to the beach), row 4 sea next to the beach, rows 5-8 beach (row 8 next to
the bluffs), trenches on rows 12-13, sections of five columns.
"""

from __future__ import annotations

from functools import cache

import pytest

from tabletop.board import Map, load_map
from tabletop.engine.actions import END_PHASE
from tabletop.engine.dice import Dice
from tabletop.engine.game import Game, IllegalAction
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games import ruleset as registry_ruleset
from tabletop.games.dog_sector import german, hits, movement, procedures, victory
from tabletop.games.dog_sector import tables as ds_tables
from tabletop.games.dog_sector.ruleset import DogSectorRules
from tabletop.hexgrid import Hex


@cache
def board() -> Map:
    return load_map("dog-sector")


def fresh(phase: str = "land", turn: int = 1) -> GameState:
    return GameState(MapState.of(board()), turn=turn, phase=phase)


def put(state: GameState, pid: str, kind: str, label: str, side: str = "american") -> Piece:
    piece = Piece(pid, kind, board().hex_of(label), side=side)
    piece = Piece(pid, kind, piece.hex, side=side, steps=hits.full_steps(piece))
    state.map.place(piece)
    return piece


def wait(state: GameState, *kinds: str) -> None:
    """American units waiting in the landing box."""
    for i, kind in enumerate(kinds):
        state.boxes.setdefault("landing", []).append(Piece(f"L{i}", kind, Hex(0, 0), side="american"))


def trench_labels(section: int) -> list[str]:
    b = board()
    return sorted(b.label(h) for h in b.regions[f"section-{section}"].hexes if b.terrain[h] == "trench")


def garrison(state: GameState, sections: range = range(1, 7)) -> None:
    """One German MG pillbox in the first trench hex of each of ``sections``."""
    for n in sections:
        put(state, f"G{n}", "mg-pillbox", trench_labels(n)[0], "german")


# ------------------------------------------------------------------------ the sequence


def test_the_turn_has_seven_phases_with_their_actors() -> None:
    """DOG SECTOR phases 1-7: the rules run 1-4 and 7, the American player 5 and 6."""
    rules = DogSectorRules()
    assert [(p.key, p.actor) for p in rules.sequence] == [
        ("land", "auto"), ("swamp", "auto"), ("artillery", "auto"), ("german-fire", "auto"),
        ("activity", "american"), ("american-fire", "american"), ("end-turn", "auto"),
    ]  # fmt: skip
    assert [p.rule for p in rules.sequence] == [f"DOG SECTOR phase {n}" for n in range(1, 8)]
    assert rules.name == "dog_sector" and rules.sides == ("american", "german")
    assert not rules.undo_across_turns


def test_the_registry_gives_these_rules() -> None:
    """tabletop.games.ruleset("dog_sector") is DogSectorRules."""
    assert isinstance(registry_ruleset("dog_sector"), DogSectorRules)


def test_an_unknown_option_value_is_refused() -> None:
    with pytest.raises(ValueError, match="bombardment"):
        DogSectorRules({"bombardment": "nuclear"})


# ----------------------------------------------------------------- phase 1: landing


def test_phase_1_lands_3d6_units_on_the_landing_row_in_the_order_drawn() -> None:
    """Phase 1: 3D6 units, drawn at random from the landing box, each on a landing-row
    hex chosen by a roll with as many faces as landing-row hexes."""
    s = fresh()
    wait(s, *["infantry"] * 20)
    dice = Dice(0, script=[1, 1, 2, 1, 5, 1, 30, 1, 1, 1, 1])  # 4 units; then draw, hex, ...
    lines = procedures.land(s, dice)
    assert lines[0] == "phase 1: 4 American units land"
    landed = {p.id: board().label(p.hex) for p in procedures.american_units(s)}
    assert landed == {"L0": "0503", "L1": "3003", "L2": "0103", "L3": "0103"}
    assert len(s.box("landing")) == 16
    assert dice.log[0].purpose == "phase 1: 3D6 American units land (20 waiting)"


def test_limited_reinforcements_land_2d6_units() -> None:
    """Phase 1, OPTIONAL Limited Reinforcements!: 2D6 units instead of 3D6."""
    s = fresh()
    s.options["limited-reinforcements"] = True
    wait(s, *["infantry"] * 20)
    dice = Dice(0)
    procedures.land(s, dice)
    assert len(dice.log[0].result) == 2
    assert len(procedures.american_units(s)) == sum(dice.log[0].result)


def test_no_more_units_land_than_wait() -> None:
    """Phase 1: the roll is capped by the units left in the landing box."""
    s = fresh()
    wait(s, "tank", "dozer")
    procedures.land(s, Dice(0, script=[6, 6, 6]))
    assert len(procedures.american_units(s)) == 2 and not s.box("landing")


def test_choose_landing_lets_the_player_choose_units_for_the_rolled_hexes() -> None:
    """Phase 1, OPTIONAL RULE: "Place available units of your choice in the above
    locations" (issue 20 item 3): the player chooses the units; the hexes are the ones
    the landing procedure rolls (one landing-row hex a unit), never a free pick."""
    s = fresh()
    s.options["choose-landing"] = True
    wait(s, "tank", "infantry", "dozer", "bazooka")
    garrison(s)
    rules = DogSectorRules()
    # 3D6 = 3 units; then three rolls of the landing-row die: hexes 1, 7, 7
    game = Game(rules, s, 1, dice=Dice(1, script=[1, 1, 1, 1, 7, 7]))
    assert game.proposal() == {"do": "land"}
    game.play({"do": "land"})
    assert game.proposal() is None
    assert procedures.landing_places(game.state) == {"0103": 1, "0703": 2}
    offered = game.choices("american")
    assert {a["to"] for a in offered} == {"0103", "0703"}
    assert {a["unit"] for a in offered} == {"L0", "L1", "L2", "L3"}  # any waiting unit
    assert "not a landing-row hex" in str(game.refusal({"do": "land-unit", "unit": "L1", "to": "0105"}))
    assert "put no unit at 0503" in str(game.refusal({"do": "land-unit", "unit": "L1", "to": "0503"}))
    assert "still to be placed" in str(game.refusal(END_PHASE))
    game.play({"do": "land-unit", "unit": "L3", "to": "0103"})
    assert "put no unit at 0103" in str(game.refusal({"do": "land-unit", "unit": "L0", "to": "0103"}))
    for uid in ("L0", "L2"):
        game.play({"do": "land-unit", "unit": uid, "to": "0703"})
    assert game.proposal() == END_PHASE
    assert [p.id for p in game.state.box("landing")] == ["L1"]  # the unit not chosen waits
    assert {p.id: board().label(p.hex) for p in procedures.american_units(game.state)} == {
        "L0": "0703", "L2": "0703", "L3": "0103"
    }


def test_choose_landing_is_said_in_the_rules_panel() -> None:
    """Phase 1, OPTIONAL RULE (issue 20 item 3): the panel says the units are the
    player's choice and the hexes still the procedure's."""
    text = " ".join(DogSectorRules().phase_rules(fresh())).lower()
    assert "units of your choice in the above locations" in text and "hexes are still rolled" in text


# ---------------------------------------------------------------- phase 2: swamping


def test_only_occupied_sea_hexes_not_next_to_the_beach_are_checked() -> None:
    """Phase 2: roll for each occupied sea hex not adjacent to a beach hex."""
    s = fresh("swamp")
    put(s, "A1", "infantry", "0503")  # landing row: no beach next to it
    put(s, "A2", "tank", "0504")  # row 4: next to the beach
    put(s, "A3", "tank", "0505")  # beach
    put(s, "A4", "infantry", "0201")
    assert [board().label(h) for h in procedures.swamp_hexes(s)] == ["0201", "0503"]


@pytest.mark.parametrize(
    ("face", "lost"), [(1, set()), (4, set()), (5, {"A2", "A3"}), (6, {"A1", "A2", "A3"})]
)
def test_swamping_results(face: int, lost: set[str]) -> None:
    """Phase 2: 1-4 all good; 5 tank/dozer swamped; 6 all units swamped (eliminated)."""
    s = fresh("swamp")
    put(s, "A1", "infantry", "0503")
    put(s, "A2", "tank", "0503")
    put(s, "A3", "dozer", "0503")
    procedures.swamp_check(s, board().hex_of("0503"), Dice(0, script=[face]))
    assert {p.id for p in s.box("dead")} == lost
    assert s.marked("swamp-checked", "0503")


def test_phase_2_checks_each_hex_once_then_ends() -> None:
    """Phase 2 through the ruleset: one swamp-check per qualifying hex, then end-phase."""
    s = fresh("swamp")
    put(s, "A1", "infantry", "0503")
    put(s, "A2", "infantry", "0903")
    garrison(s)
    rules = DogSectorRules()
    game = Game(rules, s, 3, dice=Dice(3, script=[1, 1]))
    assert game.proposal() == {"do": "swamp-check", "hex": "0503"}
    assert "not done" in str(game.refusal(END_PHASE))
    game.play(game.proposal() or {})
    assert "already checked" in str(game.refusal({"do": "swamp-check", "hex": "0503"}))
    game.play(game.proposal() or {})
    assert game.proposal() == END_PHASE


# --------------------------------------------------------------- phase 3: artillery


def test_the_text_hits_the_closest_occupied_hex_only_if_it_can_be_hit() -> None:
    """Phase 3, the aid: "American-occupied hex closest to the trenches is hit, if sea or
    beach hex and not adjacent to bluffs" (option artillery-target: text, the default):
    the closest occupied hex failing the test is a miss, not a reason to look further."""
    s = fresh("artillery")
    assert s.options.get("artillery-target", "text") == "text"
    put(s, "A2", "infantry", "0310")  # draw, 2 hexes from a trench: the closest, and not a target
    put(s, "A4", "infantry", "0407")  # beach that could be hit, farther away
    dice = Dice(0, script=[1, 6])
    lines = procedures.bombard(s, dice)
    assert dice.log[0].outcome == "section-1: the closest American-occupied hex 0310 (draw) cannot be hit, a miss"
    assert lines == ["artillery on section-1: no target, a miss (1 of 3)"] and s.map.piece("A4").steps == 2
    s.map.remove("A2")
    dice = Dice(0, script=[1, 6])
    procedures.bombard(s, dice)
    assert dice.log[0].outcome == "section-1: 0407 is the hex closest to the trenches"
    assert s.map.piece("A4").steps == 1


def test_the_column_reading_picks_a_hex_column_of_the_section_and_hits_without_a_second_die() -> None:
    """Phase 3, option artillery-roll: column (the project's reconstruction of the missing
    "Bombarded Section Hex Columns / Hit or Miss?"): 1D6 picks the section, 1D6 a column
    of it; that column's target hex is hit; a column without one, or face 6 of a five-column
    section, is a miss."""
    s = fresh("artillery")
    s.options["artillery-roll"] = "column"
    put(s, "A4", "infantry", "0407")  # column 4 of section 1
    dice = Dice(0, script=[1, 4])
    lines = procedures.bombard(s, dice)
    assert dice.log[1].outcome == "section-1 column 4: 0407 is the hex closest to the trenches"
    assert lines[0] == "artillery on section-1 at 0407: a hit on 1 unit" and len(dice.log) == 2
    for column in (2, 6):
        before = s.track("misses")
        procedures.bombard(s, Dice(0, script=[1, column]))
        assert s.track("misses") == before + 1


def test_artillery_targets_sea_or_beach_hexes_away_from_the_bluffs_closest_to_the_trenches() -> None:
    """Phase 3, option artillery-target: nearest-qualifying (the project's reading): the
    closest American-occupied hex that is sea or beach and not adjacent to bluffs is hit
    (ties west first)."""
    s = fresh("artillery")
    s.options["artillery-target"] = "nearest-qualifying"
    put(s, "A1", "infantry", "0408")  # beach next to the bluffs: never
    put(s, "A2", "infantry", "0310")  # draw: never
    put(s, "A3", "infantry", "0403")  # sea
    put(s, "A4", "infantry", "0407")  # beach, closest that qualifies
    put(s, "A5", "infantry", "0207")  # beach, as close: the western one is hit
    put(s, "A6", "infantry", "0607")  # as close, in section 2
    labels = [board().label(h) for h in procedures.artillery_candidates(s, "section-1")]
    assert labels == ["0207", "0407", "0403"]  # 5, 5 and 9 hexes from a trench hex
    dice = Dice(0, script=[1, 6])
    procedures.bombard(s, dice)
    assert dice.log[0].outcome == "section-1: 0207 is the hex closest to the trenches that can be hit"
    assert s.map.piece("A5").steps == 1 and s.map.piece("A4").steps == 2


def test_an_artillery_hit_hits_every_unit_in_the_hex() -> None:
    """Phase 3: section roll, then a hit on 6 (project's choice, issue 20 item 5) hits
    each unit."""
    s = fresh("artillery")
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "tank", "0405")
    lines = procedures.bombard(s, Dice(0, script=[1, 6]))
    assert lines[0] == "artillery on section-1 at 0405: a hit on 2 units"
    assert s.map.piece("A1").steps == 1 and s.map.piece("A2").has("immobilized")
    assert s.track("misses") == 0


def test_an_artillery_roll_of_5_is_a_miss() -> None:
    """Phase 3, the project's reconstruction of Table 3 re-set by issue 20 item 5: the
    die to hit hits on 6 only (it hit on 5-6 before), so a 5 is a miss."""
    s = fresh("artillery")
    put(s, "A1", "infantry", "0405")
    lines = procedures.bombard(s, Dice(0, script=[1, 5]))
    assert lines == ["artillery on section-1 at 0405: a miss (1 of 3)"]
    assert s.map.piece("A1").steps == 2 and s.track("misses") == 1


def test_an_artillery_miss_and_an_empty_section_count_as_misses() -> None:
    """Phase 3: a miss, or no eligible hex in the section, adds to the misses."""
    s = fresh("artillery")
    put(s, "A1", "infantry", "0405")
    procedures.bombard(s, Dice(0, script=[1, 4]))
    assert s.track("misses") == 1
    dice = Dice(0, script=[6])
    procedures.bombard(s, dice)
    assert s.track("misses") == 2 and len(dice.log) == 1


def test_phase_3_ends_after_3_misses() -> None:
    """Phase 3: the phase ends after 3 misses."""
    s = fresh("artillery")
    put(s, "A1", "infantry", "0405")
    garrison(s)
    game = Game(DogSectorRules(), s, 0, dice=Dice(0, script=[6, 6, 1, 2]))
    s.tracks["misses"] = 0
    for _ in range(3):
        assert game.proposal() == {"do": "artillery"}
        game.play({"do": "artillery"})
    assert game.state.track("misses") == 3
    assert game.proposal() == END_PHASE
    assert "after 3 misses" in str(game.refusal({"do": "artillery"}))


def test_phase_3_ends_at_once_with_no_target_for_the_guns() -> None:
    """Phase 3: no American-occupied sea or beach hex away from the bluffs: nothing to do."""
    s = fresh("artillery")
    put(s, "A1", "infantry", "0408")
    garrison(s)
    assert DogSectorRules().proposal(s) == END_PHASE


# ------------------------------------------------------------ phase 4 in the ruleset


def test_phase_4_proposes_the_next_german_unit_with_its_target_and_why() -> None:
    """Phase 4: the next German unit in firing order fires at the target the priority
    picks; the player may override with another legal target, or hold fire."""
    s = fresh("german-fire")
    garrison(s)
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "ce-team", "0705")
    rules = DogSectorRules()
    proposal = rules.proposal(s)
    assert proposal is not None and proposal["unit"] == "G1" and proposal["target"] == "A1"
    choices = rules.choices(s, "american")
    bare = [{k: v for k, v in c.items() if k != "where"} for c in choices]  # where: for the window
    assert {"do": "german-fire", "unit": "G1", "target": "A2", "override": True} in bare
    assert {"do": "german-fire", "unit": "G1", "target": None, "override": True} in bare
    plain = {"do": "german-fire", "unit": "G1", "target": "A2"}
    assert "override" in str(rules.refusal(s, plain))
    assert "G1 fires next" in str(rules.refusal(s, {"do": "german-fire", "unit": "G2", "target": "A1"}))
    game = Game(rules, s, 0, dice=Dice(0, script=[6]))
    entry = game.play({**plain, "override": True})
    assert "override" in entry.lines[0]
    assert game.state.marked("german-fired", "G1")


def test_an_override_at_an_illegal_target_is_refused_with_the_reason() -> None:
    """Phase 4: an override must still be a legal target."""
    s = fresh("german-fire")
    garrison(s)
    put(s, "A1", "infantry", "0405")
    put(s, "A2", "infantry", "0408")
    why = DogSectorRules().refusal(s, {"do": "german-fire", "unit": "G1", "target": "A2", "override": True})
    assert why is not None and "only from an adjacent hex" in why


def test_a_german_unit_with_no_legal_target_holds_fire() -> None:
    """Phase 4: no legal target: the unit is recorded as holding fire."""
    s = fresh("german-fire")
    garrison(s, range(1, 2))
    game = Game(DogSectorRules(), s, 0)
    wait(game.state, "infantry")
    proposal = game.proposal()
    assert proposal == {"do": "german-fire", "unit": "G1", "target": None, "why": "no legal target"}
    entry = game.play(proposal)
    assert "holds fire" in entry.lines[0]
    assert game.proposal() == END_PHASE


def test_an_action_belongs_to_its_phase() -> None:
    """The phase check: an action is refused outside its phase, naming both."""
    s = fresh("swamp")
    why = DogSectorRules().refusal(s, {"do": "artillery"})
    assert (
        why
        == "`artillery` belongs to Phase 3: German off-map artillery, not Phase 2: check for swamped American units (DOG SECTOR)"
    )
    assert "no action 'dance'" in str(DogSectorRules().refusal(s, {"do": "dance"}))


# ------------------------------------------------------------- phase 7 and the turn


def test_phase_7_removes_every_pinned_marker() -> None:
    """Phase 7: remove pinned down markers."""
    s = fresh("end-turn")
    put(s, "A1", "infantry", "0405")
    hits.pin(s, board().hex_of("0405"), "x")
    assert procedures.end_turn(s) == ["phase 7: pinned down markers removed from A1"]
    assert not s.map.piece("A1").has("pinned")


def test_a_new_turn_clears_the_marks_and_tracks_of_the_last() -> None:
    """Per-turn marks (targeted, fired, german-fired) and ap-spent tracks end with the turn."""
    s = fresh("land")
    for mark in ("targeted", "fired", "german-fired"):
        s.mark(mark, "A1")
    s.tracks["ap-spent:A1"] = 3
    s.tracks["misses"] = 3
    s.tracks["bangalore-used:C1"] = 1
    DogSectorRules().begin_phase(s, Dice(0))
    assert not s.marks
    assert s.tracks == {"bangalore-used:C1": 1}


# ----------------------------------------------------------------------- Table 7


@pytest.mark.parametrize(
    ("cleared", "rank"),
    [(0, "Private"), (1, "Private"), (2, "Corporal"), (3, "Sergeant Major"), (4, "Lieutenant"),
     (5, "Captain"), (6, "Colonel")],
)  # fmt: skip
def test_table_7_ranks_by_sections_cleared(cleared: int, rank: str) -> None:
    """Table 7: the level of victory by trench sections cleared (0-1, 2, ..., 6)."""
    s = fresh("end-turn", turn=8)
    garrison(s, range(cleared + 1, 7))
    assert len(victory.sections_cleared(s)) == cleared
    assert victory.rank(cleared).rank == rank
    assert victory.result_text(s).startswith(f"{rank} ({cleared} of 6 trench sections cleared)")


def test_a_german_unit_off_the_trench_hexes_does_not_hold_its_section() -> None:
    """Project's choice: a section is cleared when none of its trench hexes holds a German unit."""
    s = fresh()
    put(s, "G1", "infantry", "0114", "german")  # hilltop in section 1
    assert victory.section_cleared(s, "section-1")
    put(s, "G2", "infantry", trench_labels(1)[-1], "german")
    assert not victory.section_cleared(s, "section-1")


def test_the_game_ends_after_phase_7_of_the_last_turn() -> None:
    """Project's choice: 12 turns; the result is the Table 7 rank."""
    s = fresh("american-fire", turn=12)
    garrison(s, range(4, 7))
    put(s, "A1", "infantry", "0405")
    game = Game(DogSectorRules(), s, 0)
    game.play(END_PHASE)
    assert game.state.result == (
        "Sergeant Major (3 of 6 trench sections cleared): a fair day's work on the bluffs; turn 12 of 12 ended"
    )


def test_the_panel_and_the_tables_give_the_project_figures_of_the_data() -> None:
    """Issue 20 item 5: the project's figures re-set with the planner (the game length,
    every unit's AP, the die to hit of the phase 3 reconstruction) are data, rules.yaml,
    the scenario's `turns:` and movement.yaml; the rules panel (phases.yaml) and
    `tabletop tables dog-sector` say the same figures."""
    rules = procedures.tables()
    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario) and opened.turns == rules.turns
    (ap,) = set(movement.tables().action_points.values())
    hit = ds_tables.spans(rules.artillery.hit)
    keys = ("land", "artillery", "activity")
    panel = {key: " ".join(DogSectorRules().phase_rules(fresh(key))) for key in keys}
    assert f"the game lasts {rules.turns} turns" in panel["land"]
    assert f"1D6 hits on {hit} (hit-die)" in panel["artillery"]
    assert f"every unit has {ap} AP" in panel["activity"]
    printed = {t.key: " ".join(t.choices) for t in ds_tables.tables()}
    assert f"The game lasts {rules.turns} turns" in printed["7"]
    assert f"a hit on {hit} (option artillery-roll: hit-die" in printed["3"]
    assert f"Every unit type has {ap} AP a phase" in printed["movement"]


def test_the_game_ends_when_every_section_is_cleared() -> None:
    """Table 7: six sections cleared ends the game at once."""
    s = fresh("american-fire", turn=2)
    garrison(s, range(1, 2))
    put(s, "A1", "infantry", "0405")
    game = Game(DogSectorRules(), s, 0)
    game.play({"do": "status", "piece": "G1", "add": [], "edit": True})
    assert game.state.result is None
    game.play({"do": "remove", "piece": "G1", "box": "dead", "edit": True})
    assert game.state.result is not None and game.state.result.startswith("Colonel (6 of 6")


def test_the_game_ends_when_no_american_unit_is_left() -> None:
    """No American unit on the map and none to land: the game is over."""
    s = fresh("swamp")
    garrison(s)
    put(s, "A1", "tank", "0503")
    game = Game(DogSectorRules(), s, 0, dice=Dice(0, script=[5]))
    game.play({"do": "swamp-check", "hex": "0503"})
    assert game.state.result is not None and "no American unit left" in game.state.result


# ---------------------------------------------------------------- the whole game


def scenario_state() -> GameState:
    """A set-up game: German MG, AT gun and infantry in every section, a force to land."""
    s = GameState(MapState.of(board()), phase="setup")
    kinds = ("infantry", "mg-pillbox", "at-gun", "panzerfaust")
    for n in range(1, 7):
        for i, label in enumerate(trench_labels(n)[:3]):
            s.map.place(Piece(f"G{n}{i}", kinds[(n + i) % 4], board().hex_of(label), side="german"))
    force = ["infantry"] * 12 + ["tank"] * 3 + ["dozer"] * 2 + ["ce-team"] * 3 + ["exceptional-leader"] * 2
    s.boxes["american"] = [Piece(f"A{i:02}", k, Hex(0, 0), side="american") for i, k in enumerate(force)]
    return s


def play_turns(seed: int, turns: int) -> Game:
    """Play ``turns`` turns with the American player ending phases 5 and 6 at once."""
    state = scenario_state()
    rules = DogSectorRules()
    rules.start(state)
    game = Game(rules, state, seed)
    game.play(END_PHASE)  # the set-up is over: turn 1 begins
    while game.state.result is None and game.state.turn <= turns:
        game.run()
        if game.state.result is None:
            assert game.actor() == "american"
            game.play(END_PHASE)
    return game


def test_start_puts_the_force_in_the_landing_box_at_full_strength() -> None:
    """Phase 1: the American force waits in the box "landing"; infantry has 2 steps."""
    s = scenario_state()
    DogSectorRules().start(s)
    assert len(s.box("landing")) == 22 and not s.box("american")
    assert {p.steps for p in s.box("landing") if p.type == "infantry"} == {2}
    assert {s.map.piece(f"G{n}{i}").steps for n in range(1, 7) for i in range(3)
            if s.map.piece(f"G{n}{i}").type == "infantry"} == {2}  # fmt: skip


def test_turns_run_through_the_game_and_the_same_seed_gives_the_same_log() -> None:
    """The whole sequence, phases 1-7, for three turns with no American decisions."""
    one, two = play_turns(11, 3), play_turns(11, 3)
    assert one.log_lines() == two.log_lines()
    assert one.state.to_json() == two.state.to_json()
    assert one.state.turn >= 3 or one.state.result is not None
    lines = one.log_lines()
    for phase in range(1, 8):
        assert any(line.startswith("turn 1, Phase " + str(phase)) for line in lines)
    assert any("phase 4: " in line for line in lines)
    assert play_turns(12, 3).log_lines() != lines


def test_replay_rebuilds_the_final_state() -> None:
    """Game.replay() from the initial state and the seed equals the state played."""
    game = play_turns(5, 3)
    assert game.replay().to_json() == game.state.to_json()


def test_the_game_is_played_to_its_end() -> None:
    """Eight turns (or an earlier end); the result is a Table 7 rank."""
    game = play_turns(2, 99)
    assert game.state.result is not None
    assert any(r.rank in game.state.result for r in procedures.tables().ranks)
    assert german.GERMAN_FIRED == "german-fired"
    with pytest.raises(IllegalAction, match="the game is over"):
        game.play(END_PHASE)
