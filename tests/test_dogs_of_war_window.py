"""Dogs of War in the window (issue 16 item 9): the model sheet, the to-hit odds from
the same ``combat.to_hit`` the shot is rolled with, the op-fire watch, the words the
window shows, and ``tabletop tables dogs-of-war`` (item 10)."""

from __future__ import annotations

from test_dogs_of_war_rules import set_up

from tabletop.engine.extras import seen_by
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games.dogs_of_war import combat, words
from tabletop.games.dogs_of_war.data import data
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models
from tabletop.games.dogs_of_war.tables import tables
from tabletop.games.dogs_of_war.window import DogsOfWarExtras


def game():  # type: ignore[no-untyped-def]
    g = new_game(open_map_or_scenario("dogs-of-war"), DogsOfWarRules(), seed=3)
    g.use_seeded_dice()
    auto_setup(g)
    set_up(g)
    g.play({"do": "first", "side": g.actor()})
    g.run()
    return g


def test_the_model_sheet_shows_stats_ap_hp_armour_and_ammunition() -> None:
    g = game()
    blue = next(p for p in models(g.state, "blue") if p.type == "team-leader")
    sheet, _odds = DogsOfWarExtras().panels(g.state, blue.id)
    text = [r.text for r in sheet.rows]
    assert text[1] == "WP 6 WK 7 CQ 5 ST 5 FT 5 ML 8 CC 7"  # Rangers, ABILITIES l.1006-1016
    assert "HP 5 of 5   AP left 10" in text
    assert "armour: head 5, chest and stomach 5" in text  # STANDARD EQUIPMENT l.894-895
    assert "launcher: m203, 4 rounds" in text and "grenades: 2 m67" in text  # l.898-900


def test_the_odds_panel_gives_the_rules_own_to_hit_number() -> None:
    g = game()
    state = g.state
    blue = next(p for p in models(state, "blue") if p.type == "scout")
    red = next(p for p in models(state, "red") if p.type == "scout")
    for p in models(state):
        if p.id not in (blue.id, red.id):
            state.to_box(p.id, "aside")
    state.map.move(blue.id, state.board.hex_of("2420"))
    state.map.move(red.id, state.board.hex_of("2428"))
    _sheet, odds = DogsOfWarExtras().panels(state, blue.id)
    want = combat.to_hit(
        state, state.map.piece(blue.id), state.map.piece(red.id), data().weapon("m16a2"), "ss"
    )
    assert any(r.text.startswith(f"{red.id} SS: {want.need} or less") for r in odds.rows)
    assert any("priority targets" in r.text for r in odds.rows)


def test_the_side_at_the_screen_sees_no_odds_for_the_enemys_models() -> None:
    g = game()
    red = models(g.state, "red")[0]
    panels = DogsOfWarExtras().panels(seen_by(g, "blue"), red.id)
    assert [p.key for p in panels] == ["sheet"]


def test_actions_are_described_in_words() -> None:
    g = game()
    assert (
        words.describe(g.state, {"do": "fire", "piece": "a", "target": "b", "mode": "bu"})
        == "a fires (burst) at b"
    )
    assert words.describe(g.state, {"do": "op-fire", "piece": "a"}) == "a goes on op-fire (10 AP)"
    assert "fighting" in words.status(g.state)


def test_the_active_models_own_choices_are_short_enough_to_list_eight_and_more() -> None:
    # found playing under Xvfb (issue 16): "b-rangers-team-leader fires (single shot,
    # aimed) at r-militia-machine-gunner" took three lines of the game box, so its eighth
    # choice was cut and the '... more' line fell out of the box
    g = game()
    side = ("blue", "red")[g.state.track("first")]
    g.play({"do": "activate", "piece": models(g.state, side)[0].id})
    a = g.state.marks["active"][0]
    shown = [words.describe(g.state, c) for c in g.choices(side)]
    assert all(a not in text for text in shown), shown
    assert all(len(text) <= 48 for text in shown), max(shown, key=len)
    fire = {"do": "fire", "piece": a, "target": "r-militia-machine-gunner", "mode": "ss", "aimed": True}
    assert words.describe(g.state, fire) == "fire single shot, aimed at militia machine gunner"


def test_a_to_hit_number_below_one_says_only_a_natural_one_hits() -> None:
    # ROLL "TO HIT" DICE l.414: a natural 1 always hits, a 10 always misses
    from tabletop.games.dogs_of_war.ruleset import needs

    assert needs(-2) == "a natural 1 only (needs -2)"
    assert needs(4) == "4 or less" and needs(12) == "anything but a 10 (needs 12)"


def test_tables_print_every_printed_table_and_the_weapons_as_encoded() -> None:
    keys = [t.key for t in tables()]
    assert keys == [
        "modifiers", "wounds", "throw", "c4", "structures", "close-quarters", "morale", "weapons", "factions",
    ]  # fmt: skip
    structures = next(t for t in tables() if t.key == "structures")  # STRUCTURAL DAMAGE l.696-700
    per_level = {r[1]: r[2] for r in structures.rows}
    assert per_level == {"wood": "4", "stone": "6", "concrete": "8", "steel": "9"}
    weapons = next(t for t in tables() if t.key == "weapons")
    assert len(weapons.rows) == len(data().weapons)
    m16 = next(r for r in weapons.rows if r[0] == "m16a2")
    assert m16[-1] == "difficulty, modes"  # the fields the text gives; the rest the project's


def test_the_sheet_says_a_model_with_a_flesh_wound_is_wounded() -> None:
    # DAMAGE ASSESSMENT l.449: "Minor flesh wound. Subtract 1 Health Point" leaves no status word
    g = game()
    blue = next(p for p in models(g.state, "blue") if p.type == "scout")
    g.state.map.update(blue.with_attr("hp", 4))
    sheet = DogsOfWarExtras().panels(g.state, blue.id)[0]
    assert sheet.rows[-1].text == "state: wounded (-1 HP)"


def test_the_rules_panel_shows_each_phases_rules_and_the_projects_choices_as_such() -> None:
    # issue 16 done-when: every gap the project settled is shown in the rules panel
    # (phases.yaml), marked as the project's choice; no phase is longer than the panel's
    # expanded rows, so every line can be read (tabletop/ui/gameplay.py RULE_ROWS_EXPANDED)
    from tabletop.ui.gameplay import RULE_ROWS_EXPANDED

    g = game()
    texts = words.phase_texts()
    assert set(texts) == {"upkeep", "activations", "morale"}
    for phase, text in texts.items():
        g.state.phase = phase
        shown = words.phase_rules(g.state)
        assert shown[: len(text["rules"])] == text["rules"]
        choices = shown[len(text["rules"]) :]
        assert choices and all(c.startswith("project's choice: ") for c in choices)
        assert len(shown) <= RULE_ROWS_EXPANDED, phase
    every = " ".join(" ".join(t["choices"]) for t in texts.values())
    for gap in (
        "G1",
        "G4",
        "G5",
        "G6",
        "G7",
        "G10",
        "G11",
        "A1",
        "A2",
        "A4",
        "A5",
        "575 points",
        "structural",
    ):
        assert gap in every, gap


def test_the_initiative_choice_stays_in_the_game_box_with_a_model_selected(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # found playing under Xvfb (issue 16): with a model selected, the game box listed no
    # choice at the start of a turn, though the initiative winner had to choose (l.187)
    from tabletop.ui.gameplay import GamePanel
    from tabletop.ui.table import open_table

    app = open_table("dogs-of-war", size=(1280, 800), seed=5, autosave=tmp_path / "auto.json")
    app.play.run()
    gp = next(c for c in app.components if isinstance(c, GamePanel))
    roller = app.play.actor()  # the set-up rolls first (l.181): the edge is offered
    assert {"do": "edge", "side": roller, "region": "setup-north"} in gp.unit_choices(app)
    set_up(app.play)
    side = app.play.actor()
    assert app.play.state.phase == "upkeep" and side in ("blue", "red")
    app.selected = next(p.id for p in models(app.play.state, side))
    shown = gp.unit_choices(app)
    assert {"do": "first", "side": side} in shown


def test_the_roll_key_throws_the_games_d10(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # found playing under Xvfb (issue 16): the dice box offered "r roll 1D6" in a game
    # "based on a D10 system" (l.46): the to-hit, wound and morale rolls are all D10s
    import pygame

    from tabletop.ui.panels import Panels
    from tabletop.ui.table import open_table

    app = open_table("dogs-of-war", size=(1280, 800), seed=5, autosave=tmp_path / "auto.json")
    panels = next(c for c in app.components if isinstance(c, Panels))
    assert panels.dice_lines(app)[-1][0] == "r roll 1D10"
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="r", scancode=0))
    assert app.play.entries[-1].action["sides"] == 10
    assert app.play.entries[-1].rolls[-1].purpose == "1D10"


def test_with_no_model_selected_the_rosters_panel_gives_points_and_refusals(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # BUILDING PHASE l.167 (issue 16 item 2): each side's points against its budget and
    # what its lists refuse; the Rangers may not buy Soviet weapons (l.905)
    from tabletop.games.dogs_of_war.window import roster_rows

    g = game()
    panels = DogsOfWarExtras().panels(seen_by(g, "blue"), None)
    assert [p.key for p in panels] == ["rosters"]
    text = [r.text for r in panels[0].rows]
    assert "250 of 250 points (crossroads-blue.yaml)" in text
    assert "575 of 575 points (crossroads-red.yaml)" in text
    assert "refused: weapons the list does not offer; no soviet weapons" in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\nbudget: 250\nteams:\n  - id: rangers\n    faction: rangers\n    members:\n"
        "      - {role: team-leader, weapon: ak47}\n"
    )
    rows = roster_rows([str(bad)])
    assert rows[1].text.startswith("? of 250 points") and rows[1].emphasis == "bad"
    refused = [r.text for r in rows if r.emphasis == "bad" and r.text.startswith("refused: ")]
    assert any("4 members, not 1" in t for t in refused) and any("carries m16a2" in t for t in refused)
