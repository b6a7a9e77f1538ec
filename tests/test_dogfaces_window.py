"""Dogfaces in the window (issue 14 item 5): the attack preview with the Combat Table's
exact odds, weapon ranges and overwatch arcs, through the rule system's window extras;
each side sees previews of its own soldiers only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop.engine.extras import seen_by
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.games.dogfaces import combat
from tabletop.games.dogfaces import ruleset as rules
from tabletop.games.dogfaces.window import RESULTS, DogfacesExtras
from tabletop.hexgrid import distance, neighbors
from tabletop.shipped import resolve


@pytest.fixture()
def game():  # type: ignore[no-untyped-def]
    g = new_game(load_scenario(resolve("dogfaces", "scenarios")), ruleset("dogfaces"), seed=3)  # type: ignore[arg-type]
    auto_setup(g)
    return g


def face_off(game):  # type: ignore[no-untyped-def]
    """A blue and a red soldier two hexes apart on open ground: within laser range (II: 3)."""
    state = game.state
    blue = rules.units(state, "blue")[0]
    red = rules.units(state, "red")[0]
    free = [h for h in state.board.grid.hexes() if not state.map.units_at(h)]
    here = next(h for h in free if any(distance(h, x) == 2 and x in free for x in free))
    there = next(x for x in free if distance(here, x) == 2 and rules.sees(state.map, here, x))
    state.map.move(blue.id, here)
    state.map.move(red.id, there)
    return state.map.piece(blue.id), state.map.piece(red.id)


def test_the_attack_preview_gives_the_tables_exact_odds(game) -> None:  # type: ignore[no-untyped-def]
    """VI: the chance of each result is the same combat.odds the attack is rolled with."""
    blue, red = face_off(game)
    (panel,) = DogfacesExtras().panels(game.state, blue.id)
    assert panel.title == f"Attack preview: {blue.id}"
    line = next(r.text for r in panel.rows if red.id in r.text)
    weapon = next(w for w in rules.weapons_of(blue) if w.nearest <= 2 <= w.farthest)
    chances = combat.odds([rules.strike_of(game.state, blue, weapon, red.hex)], rules.target_of(game.state, red))
    for k in RESULTS:
        if chances[k]:
            assert f"{k} {float(chances[k]):.0%}" in line
    shift = combat.strength_shift(rules.target_of(game.state, red))
    assert f"(range 2, column {weapon.damage + shift})" in line  # one laser point, the hex's shift (VI)


def test_a_stunned_soldier_is_told_he_cannot_shoot(game) -> None:  # type: ignore[no-untyped-def]
    blue, _ = face_off(game)
    game.state.map.update(replace(blue, status=blue.status | {rules.STUNNED}))
    (panel,) = DogfacesExtras().panels(game.state, blue.id)
    assert panel.rows[0].emphasis == "bad" and "cannot shoot" in panel.rows[0].text


def test_a_side_gets_no_preview_of_the_enemys_soldiers(game) -> None:  # type: ignore[no-untyped-def]
    """Item 2: the side at the screen sees its own soldiers' previews only."""
    blue, red = face_off(game)
    assert DogfacesExtras().panels(seen_by(game, "blue"), blue.id)
    assert DogfacesExtras().panels(seen_by(game, "blue"), red.id) == ()


def test_weapon_ranges_count_the_soldiers_that_reach_each_hex(game) -> None:  # type: ignore[no-untyped-def]
    blue, _ = face_off(game)
    ranges, _ = DogfacesExtras().overlays(seen_by(game, "blue"))
    counts = {m.hex: int(m.label) for m in ranges.marks}
    farthest = max(w.farthest for w in rules.weapons_of(blue))
    assert all(n > 0 for n in counts.values())
    assert any(n in counts for n in neighbors(blue.hex))
    mine = rules.units(game.state, "blue")
    reach = max(max(w.farthest for w in rules.weapons_of(p)) for p in mine)
    assert all(min(distance(h, p.hex) for p in mine) <= reach for h in counts)
    assert farthest >= 1


def test_overwatch_arcs_show_where_a_soldier_on_overwatch_fires(game) -> None:  # type: ignore[no-untyped-def]
    """V: a soldier on Overwatch fires at an enemy moving in his range and sight."""
    blue, _ = face_off(game)
    extras = DogfacesExtras()
    _, arcs = extras.overlays(seen_by(game, "blue"))
    assert arcs.marks == () and "no blue soldier is on Overwatch" in arcs.legend[-1].text
    game.state.map.update(replace(blue, status=blue.status | {rules.OVERWATCH}))
    _, arcs = extras.overlays(seen_by(game, "blue"))
    assert arcs.marks and all(distance(m.hex, blue.hex) <= max(w.farthest for w in rules.weapons_of(blue)) for m in arcs.marks)


def test_resolved_attacks_are_drawn_at_their_targets_with_the_result(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Item 5: every result shown on the map where it happens. A declared shot is drawn
    from firer to target as declared; resolving (VI) draws the attack from the firer's
    hex with the Combat Table's result in words at the target, in a box of its own."""
    import json

    import pygame

    from tabletop.engine.actions import END_PHASE
    from tabletop.ui.firing import FIRE, Firing
    from tabletop.ui.table import open_table

    app = open_table("dogfaces", size=(1280, 800), seed=3, autosave=tmp_path / "auto.json")
    game = app.play
    while not game.state.phase.endswith("attack"):
        game.play(game.proposal() or dict(END_PHASE))
    side = rules.phase_side(game.state)
    shooter = rules.units(game.state, side)[0]
    enemy = rules.units(game.state, rules.other(side))[0]
    state = game.state
    free = [h for h in state.board.grid.hexes() if not state.map.units_at(h)]
    here = next(h for h in free if any(distance(h, x) == 2 and rules.sees(state.map, h, x) for x in free))
    there = next(x for x in free if distance(here, x) == 2 and rules.sees(state.map, here, x))
    state.map.move(shooter.id, here)
    state.map.move(enemy.id, there)
    shot = next(a for a in rules.shots_for(state, state.map.piece(shooter.id)) if a["target"] == enemy.id)
    game.play(shot)
    app.sync()
    firing = next(c for c in app.components if isinstance(c, Firing))
    firing.update(app, 0.0)
    ((fire, result),) = firing.shown_fires(app)
    label = state.board.label
    assert fire.hexes == (label(here), label(there)) and result == f"{enemy.id}: declared"
    entry = game.play({"do": "resolve", "side": side})
    app.sync()
    firing.update(app, 0.0)
    ((fire, result),) = firing.shown_fires(app)
    words = rules.RESULT_WORDS
    assert fire.hexes[0] == label(here) and fire.hexes[-1] == label(there)
    assert result in {f"{enemy.id}: {w}" for w in words.values()}
    assert entry.where[0]["result"] == result
    assert type(entry).from_json(json.loads(json.dumps(entry.to_json()))).happenings() == entry.happenings()
    surface = pygame.Surface((1280, 800))
    app.camera.center = app.view.center(here)
    app.draw(surface)
    assert "result" in firing.boxes  # the result's box, beside the target
    x, y = app.screen_of(here)
    s = app.camera.scale
    ring = s * 0.85 - max(3, round(s * 0.1)) / 2
    assert tuple(surface.get_at((round(x + ring), round(y))))[:3] == FIRE  # the firer ringed
