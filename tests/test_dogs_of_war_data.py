"""Dogs of War data: the nine team lists (teams.yaml), the project's weapons chart
(weapons.yaml), the printed tables (rules.yaml), the night-vision kits per faction
(los.yaml) and army building (roster.py). Each test cites the text's heading and line
(../shared/rules/dogs_of_war.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games.dogs_of_war import roster
from tabletop.games.dogs_of_war.data import data, load_weapons
from tabletop.games.dogs_of_war.los import DogsOfWarPolicy
from tabletop.yamlfile import DataError


def test_the_nine_factions_are_listed_with_their_printed_points() -> None:
    # team lists l.751, 885, 1020, 1154, 1273, 1392, 1442, 1486, 1535
    points = {k: f.points for k, f in data().factions.items()}
    assert points == {
        "airborne": 250, "rangers": 250, "green-berets": 250, "delta": 300, "usmc": 250,
        "somali-militia": 100, "somali-civilians": 50, "al-qaeda": 200, "taliban": 150,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("faction", "stats"),
    [
        ("rangers", (6, 7, 5, 5, 5, 5, 8, 7)),  # ABILITIES l.1006-1016
        ("green-berets", (7, 8, 6, 5, 6, 5, 8, 8)),  # l.1130-1140
        ("delta", (7, 8, 6, 5, 6, 5, 8, 8)),  # l.1247-1257
        ("somali-militia", (5, 5, 4, 4, 4, 5, 6, 5)),  # l.1416-1436 (ST lost: G9, 4)
        ("somali-civilians", (4, 4, 3, 4, 4, 5, 6, 5)),  # l.1474-1484
        ("al-qaeda", (5, 5, 5, 4, 4, 5, 7, 6)),  # l.1523-1533
        ("taliban", (5, 5, 5, 4, 4, 5, 6, 5)),  # l.1568-1578
    ],
)
def test_faction_stats_are_the_printed_abilities(faction: str, stats: tuple[int, ...]) -> None:
    s = data().factions[faction].stats
    assert tuple(s[k] for k in ("wp", "wk", "cq", "st", "ft", "hp", "ml", "cc")) == stats


def test_every_weapon_a_team_list_names_is_in_the_weapons_chart() -> None:
    # G1: the Weapons Chart is never printed; every weapon named in l.749-1589 must exist
    d = data()
    for f in d.factions.values():
        for w in f.weapons_named():
            assert w in d.weapons, (f.key, w)
    named = {"m16a2", "m4", "m203", "m249", "m249-para", "m60e3", "ak47", "ak74", "rpk", "rpk74", "rpd",
             "rpg", "m67", "mini-m67", "soviet-frag", "knife", "bayonet", "claymore", "c4", "shaped-charge"}  # fmt: skip
    assert named <= set(d.weapons)


def test_the_m16a2_difficulty_is_the_texts_and_marked_so_the_rest_the_projects() -> None:
    # ABILITIES l.126: the rifle has a difficulty of 3
    m16 = data().weapon("m16a2")
    assert m16.difficulty == 3 and m16.source("difficulty").startswith("text: ABILITIES l.126")
    assert m16.source("dpr") == "project"


def test_a_weapon_without_its_sources_is_refused_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "w.yaml"
    bad.write_text(
        "weapons:\n  pea:\n    name: pea shooter\n    bloc: none\n    difficulty: 1\n    points: 1\n    hands: 1\n"
    )
    with pytest.raises(DataError) as err:
        load_weapons(bad)
    assert "w.yaml" in str(err.value) and "text" in str(err.value)


def test_the_hit_location_chart_maps_each_d10_face() -> None:
    # HIT LOCATION l.418, chart l.449-459
    d = data()
    assert [d.location(i) for i in range(1, 11)] == [
        "head", "chest", "chest", "stomach", "stomach", "abdomen", "right-leg", "left-leg", "right-arm", "left-arm",
    ]  # fmt: skip


# DAMAGE ASSESSMENT l.449-459: the 10 x 4 chart, cell by cell (location, D10 - DPR) -> (HP, effects)
CHART = {
    "head": ["killed", (4, {"medical", "immobilized", "unconscious"}), (1, set()), (0, {"near-miss"})],
    "chest": [(4, {"medical", "bleeding", "immobilized", "shell-shock"}), (3, {"medical", "severe"}), (1, set()), (0, {"near-miss"})],
    "stomach": [(3, {"medical", "bleeding", "immobilized", "shell-shock"}), (3, {"medical", "severe"}), (1, set()), (0, {"near-miss"})],
    "abdomen": [(3, {"medical", "bleeding", "immobilized", "shell-shock"}), (2, {"medical", "severe"}), (1, set()), (0, {"near-miss"})],
    "right-leg": [(3, {"medical", "bleeding", "immobilized", "shell-shock"}), (2, {"medical", "severe"}), (1, set()), (0, {"near-miss"})],
    "left-leg": [(3, {"medical", "bleeding", "immobilized", "shell-shock"}), (2, {"medical", "severe"}), (1, set()), (0, {"near-miss"})],
    "right-arm": [(3, {"medical", "bleeding", "immobilized", "shell-shock"}), (2, {"medical", "one-action"}), (1, set()), (0, {"near-miss"})],
    "left-arm": [(3, {"medical", "bleeding", "one-handed", "shell-shock"}), (2, {"medical", "one-action"}), (1, set()), (0, {"near-miss"})],
}  # fmt: skip


@pytest.mark.parametrize("location", sorted(CHART))
def test_the_wound_chart_cell_by_cell(location: str) -> None:
    d = data()
    for column, modified in enumerate((-3, 1, 4, 7)):  # 0 or less, 1-2, 3-5, 6+
        cell = d.wound(location, modified)
        want = CHART[location][column]
        if want == "killed":
            assert cell.get("killed") is True
        else:
            assert (cell.get("hp", 0), set(cell.get("effects", ()))) == want, (location, modified)
    # the column edges: 0 and 1, 2 and 3, 5 and 6
    assert d.wound(location, 0) == d.wound(location, -9)
    assert d.wound(location, 2) == d.wound(location, 1) != d.wound(location, 3)
    assert d.wound(location, 5) != d.wound(location, 6) == d.wound(location, 12)


def test_the_difficult_throw_table() -> None:
    # DIFFICULT THROW MODIFIERS l.665-670
    bands = [(b["from"], b["to"], b["to_hit"]) for b in data().rules["difficult_throw"]]
    assert bands == [(2, 5, -1), (6, 9, -2), (10, 15, -3)]


def test_the_sixteen_ranged_modifiers() -> None:
    # RANGED COMBAT MODIFIERS l.379-408
    m = {k: v["to_hit"] for k, v in data().rules["ranged_modifiers"].items()}
    assert m["aimed"] == m["scope"] == m["spotter"] == m["prone_firing"] == m["laser"] == 1
    assert (m["burst"], m["full_auto"], m["walking"], m["running"]) == (-1, -3, -2, -4)
    assert (m["target_running"], m["target_walking"], m["target_prone"], m["smoke"]) == (-2, -1, -1, -3)
    assert (m["night_over_10"], m["night_within_10"], m["goggles"]) == (-3, -1, -1)
    ap = {k: v.get("ap") for k, v in data().rules["ranged_modifiers"].items()}
    assert (ap["aimed"], ap["scope"], ap["spotter"]) == (2, 2, 5)


# --- night vision per faction (A5; LOS CHECKS l.299-303, team lists) ----------------------


def _night(kit: str, laser: bool, inches: int) -> list[tuple[str, int]]:
    from tabletop.board import load_map

    board = load_map(Path(__file__).resolve().parent.parent / "maps" / "dogs-of-war.yaml")
    a = board.hex_of("2440")
    b = board.hex_of(f"24{40 - inches:02d}")
    status = {kit} | ({"laser-targeter"} if laser else set())
    viewer = Piece("a", "rifleman", a, "blue", status=frozenset(status))
    target = Piece("b", "rifleman", b, "red")
    state = MapState.of(board, [viewer, target])
    r = line_of_sight(
        state,
        DogsOfWarPolicy(),
        LosQuery(a, b, viewer=viewer, target_piece=target, conditions=frozenset({"night"})),
    )
    assert r.result != "blocked"
    return [(f.cause, f.amount) for f in r.modifiers if "to hit" in f.cause]


def test_goggles_by_faction_give_each_lists_penalty() -> None:
    # the table (l.393-396): -3 at night over 10 in and -1 for the goggles
    assert sum(a for _, a in _night("night-vision", False, 12)) == 4
    # Airborne and Rangers (l.794, 919): "the wearer has a -2 modifier"; the laser takes one off
    assert sum(a for _, a in _night("night-vision-army", False, 12)) == 2
    assert sum(a for _, a in _night("night-vision-army", True, 12)) == 1
    # special forces and USMC (l.1061, 1318): -1 instead of -3 over 10 in; no penalty with the laser
    assert sum(a for _, a in _night("night-vision-sof", False, 12)) == 1
    assert _night("night-vision-sof", True, 12) == []


def test_teams_give_their_goggles_kit_when_bought() -> None:
    built = roster.models({"budget": 500, "teams": [{"faction": "delta", "members": [
        {"role": "team-leader", "weapon": "m4", "gear": ["night-vision", "laser"]},
        {"role": "rifleman", "weapon": "m4"}, {"role": "machine-gunner", "weapon": "m249"},
        {"role": "assistant-gunner", "weapon": "m4"}]}]})  # fmt: skip
    assert built[0].status == {"night-vision-sof", "laser-targeter"}
    assert data().factions["rangers"].night_vision["status"] == "night-vision-army"


# --- army building (BUILDING PHASE l.167) ----------------------------------------------------


def test_the_shipped_rosters_keep_their_budgets() -> None:
    for name in ("crossroads-blue", "crossroads-red"):
        r = roster.load(name)
        assert roster.check(r, name) == []
        assert roster.cost(r) <= r["budget"]


def test_a_roster_over_budget_or_with_forbidden_weapons_is_refused_with_reasons() -> None:
    over = roster.standard(["rangers", "taliban"], 300)
    assert any("over the budget of 300" in p for p in roster.check(over))
    # Rangers' weapons are fixed (l.887-890); MEU SOC may not buy Soviet bloc weapons (l.1296)
    fixed = {"budget": 500, "teams": [{"faction": "rangers", "members": [
        {"role": "team-leader", "weapon": "ak47"}, {"role": "scout", "weapon": "m16a2"},
        {"role": "machine-gunner", "weapon": "m249"}, {"role": "assistant-gunner", "weapon": "m16a2"}]}]}  # fmt: skip
    assert any("weapons are fixed" in p for p in roster.check(fixed))
    meu = {"budget": 500, "teams": [{"faction": "usmc", "upgrade": "meu-soc", "members": [
        {"role": "team-leader", "weapon": "ak47"}, {"role": "rifleman", "weapon": "m16a2"},
        {"role": "machine-gunner", "weapon": "m249"}, {"role": "assistant-gunner", "weapon": "m16a2"}]}]}  # fmt: skip
    assert any("soviet bloc" in p for p in roster.check(meu))
    recon = {
        **meu,
        "teams": [{**meu["teams"][0], "upgrade": "force-recon"}],
    }  # l.1298: Soviet weapons allowed
    assert roster.check(recon) == []


def test_player_choice_weapons_and_perks_are_added_to_the_teams_points() -> None:
    # Green Berets l.1022: weapons are added to the total point value; perks l.1122-1128
    r = {"budget": 1000, "teams": [{"faction": "green-berets", "members": [
        {"role": "team-leader", "weapon": "m4", "perks": ["dedicated-marksman"]}, {"role": "rifleman", "weapon": "m4"},
        {"role": "machine-gunner", "weapon": "m60e3"}, {"role": "assistant-gunner", "weapon": "m4"}]}]}  # fmt: skip
    d = data()
    want = 250 + 3 * d.weapon("m4").points + d.weapon("m60e3").points + 30
    assert roster.check(r) == [] and roster.cost(r) == want
    assert roster.models(r)[0].stats["wp"] == 8  # 7 + Dedicated Marksman


def test_the_roster_cli_refuses_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert roster.main(["--new", "delta", "delta", "--budget", "500"]) == 2
    assert "over the budget of 500" in capsys.readouterr().err
    assert roster.main(["crossroads-blue"]) == 0


def test_tabletop_validate_checks_a_roster_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BUILDING PHASE l.167 and the team lists: a roster over its points or with weapons
    # its list does not allow is refused, one problem a line at its line, exit code 2
    from tabletop.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\nbudget: 250\nteams:\n  - id: r\n    faction: rangers\n    members:\n"
        "      - {role: team-leader, weapon: ak47}\n"
        "      - {role: scout, weapon: m16a2}\n"
        "      - {role: machine-gunner, weapon: m249}\n"
        "      - {role: assistant-gunner, weapon: m16a2}\n"
        "  - faction: al-qaeda\n"
    )
    assert main(["validate", str(bad)]) == 2
    out = capsys.readouterr()
    lines = (out.out + out.err).splitlines()
    assert any(f"{bad}:7: teams[0].members[0]: the US Rangers team-leader carries m16a2" in x for x in lines)
    assert any(f"{bad}:2: the teams cost 450 points, over the budget of 250" in x for x in lines)
    good = roster.path_of("crossroads-red")
    assert main(["validate", str(good)]) == 0
    assert "575 of 575 points" in capsys.readouterr().out
