"""Ground that changes in play (issue 12 item 7, engine gap E6).

A hex's terrain may change during a game (Dogs of War: a building collapses to rubble;
Omaha: a road is cleared). The change is a generic logged action, ``{"do": "terrain",
"hex": ..., "to": ...}``, kept in the state as an override of the map's own terrain,
and seen by line of sight, movement and the window; undone, replayed and saved like any
action. Played with the free-play rules on a map built here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine import savefile
from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Game, IllegalAction
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.movement import reach
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import Scenario
from tabletop.engine.state import GameState
from tabletop.engine.viewshed import viewshed
from tabletop.games.dogs_of_war.movement import DogsOfWarMovePolicy
from tabletop.ui import theme
from tabletop.ui.app import App
from tabletop.ui.panels import Panels

BOARD = small_map(
    """
name: Changing ground
grid: {orientation: flat, offset: odd-q, columns: 7, rows: 3}
terrain:
  clear: {symbol: ".", colour: "#cccc99", properties: {los: clear, move_cost: 1}}
  woods: {symbol: "w", colour: "#226622", properties: {los: block, move_cost: 3}}
  rubble: {symbol: "r", colour: "#8a7f70", properties: {los: hinder, move_cost: 2}}
rows: |
  . . . . . . .
  . . w . . . .
  . . . . . . .
"""
)
WOODS = "0302"  # the woods between 0102 and 0502, on the straight line along row 2
LOOK = LosQuery(BOARD.hex_of("0102"), BOARD.hex_of("0502"))
TO_OPEN = {"do": "terrain", "hex": WOODS, "to": "clear"}


def free_game() -> Game:
    pieces = [Piece("a1", "infantry", BOARD.hex_of("0202"), "blue")]
    return Game(FreePlayRules(), GameState(MapState.of(BOARD, pieces), turn=1, phase="play"), 3)  # type: ignore[arg-type]


def sight(game: Game, policy: FreePlayPolicy) -> str:
    return line_of_sight(game.state.map, policy, LOOK).result


def cost_into_woods(game: Game) -> int:
    state = game.state.map
    model = FreePlayMovePolicy().model(state, state.piece("a1"), budget=10)
    return reach(model, state.piece("a1").hex, "a1").costs[BOARD.hex_of(WOODS)]


def test_woods_that_block_sight_turned_to_open_ground_let_it_through() -> None:
    """E6: LOS reads the live terrain; the policy's cached table follows the change."""
    game = free_game()
    policy = FreePlayPolicy.for_map(game.state.map)
    assert sight(game, policy) == "blocked"
    seen_before = viewshed(game.state.map, policy, BOARD.hex_of("0102"))
    game.play(TO_OPEN)
    assert game.state.map.terrain_at(BOARD.hex_of(WOODS)) == "clear"
    assert BOARD.terrain[BOARD.hex_of(WOODS)] == "woods"  # the map itself is untouched
    assert sight(game, policy) == "clear"
    assert viewshed(game.state.map, policy, BOARD.hex_of("0102")) != seen_before
    game.play({"do": "terrain", "hex": WOODS, "to": "rubble"})
    assert sight(game, policy) == "hindered"


def test_movement_cost_follows_the_changed_ground() -> None:
    """E6: a collapsed building then costs rubble movement (Dogs of War l.690-700)."""
    game = free_game()
    assert cost_into_woods(game) == 3
    game.play({"do": "terrain", "hex": WOODS, "to": "rubble"})
    assert cost_into_woods(game) == 2


def test_undo_restores_the_ground_and_redo_changes_it_again() -> None:
    game = free_game()
    policy = FreePlayPolicy.for_map(game.state.map)
    before = game.state.to_json()
    entry = game.play(TO_OPEN)
    assert entry.lines == ["0302: woods becomes clear"]
    game.undo()
    assert game.state.to_json() == before
    assert "terrain" not in game.state.to_json()  # no changed ground: nothing new in the save
    assert sight(game, policy) == "blocked"
    game.redo()
    assert sight(game, policy) == "clear"


def test_replay_and_save_round_trip(tmp_path: Path) -> None:
    game = free_game()
    game.play({"do": "terrain", "hex": WOODS, "to": "rubble"})
    game.play({"do": "terrain", "hex": "0101", "to": "woods"})
    data = game.state.to_json()
    assert data["terrain"] == {"0101": "woods", "0302": "rubble"}
    assert game.replay().to_json() == data
    assert GameState.from_json(BOARD, json.loads(json.dumps(data))).to_json() == data
    path = tmp_path / "g.json"
    savefile.write_save(path, game, "test")
    loaded = savefile.restore(savefile.read_save(path), BOARD, FreePlayRules())  # type: ignore[arg-type]
    assert loaded.state.to_json() == data
    assert loaded.state.map.terrain_at(BOARD.hex_of(WOODS)) == "rubble"


def test_setting_a_hex_back_to_the_maps_own_terrain_drops_the_override() -> None:
    game = free_game()
    game.play(TO_OPEN)
    game.play({"do": "terrain", "hex": WOODS, "to": "woods"})
    assert game.state.map.terrain_overrides() == {}
    assert "terrain" not in game.state.to_json()


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (
            {"do": "terrain", "hex": WOODS, "to": "lava"},
            "unknown terrain 'lava'; this map knows: clear, rubble, woods",
        ),
        ({"do": "terrain", "hex": "0909", "to": "clear"}, "0909"),
        ({"do": "terrain", "hex": WOODS}, "`terrain` needs `hex` (a hex label) and `to` (a terrain key)"),
        ({"do": "terrain", "to": "clear"}, "`terrain` needs `hex` (a hex label) and `to` (a terrain key)"),
    ],
)
def test_a_bad_change_is_refused_with_the_reason_and_changes_nothing(
    action: dict[str, object], reason: str
) -> None:
    game = free_game()
    before = game.state.to_json()
    problem = game.refusal(action)
    assert problem is not None and reason in problem
    with pytest.raises(IllegalAction):
        game.play(action)
    assert game.state.to_json() == before


def test_a_changed_hex_is_refused_as_a_direct_change_off_the_map_or_of_unknown_terrain() -> None:
    state = MapState.of(BOARD)
    with pytest.raises(ValueError, match="unknown terrain 'lava'"):
        state.set_terrain(BOARD.hex_of(WOODS), "lava")
    with pytest.raises(ValueError, match="not on the map"):
        state.set_terrain(BOARD.hex_of("0909"), "clear")


def test_the_window_draws_the_new_terrain_and_the_old_again_after_undo() -> None:
    """E6: the window's tile cache redraws a hex whose ground changed."""
    pygame.font.init()
    game = free_game()
    state = game.state.map
    app = App(
        state=state,
        title="t",
        los_policy=FreePlayPolicy.for_map(state),
        move_policy=FreePlayMovePolicy(),
        size=(400, 300),
        game=game,
    )

    def colour_at_woods() -> tuple[int, ...]:
        surface = pygame.Surface((app.camera.width, app.camera.height))
        app.draw(surface)
        x, y = app.screen_of(BOARD.hex_of(WOODS))
        return tuple(surface.get_at((round(x), round(y))))[:3]

    assert colour_at_woods() == theme.hex_colour("#226622")
    app.edit({"do": "terrain", "hex": WOODS, "to": "rubble"})
    assert colour_at_woods() == theme.hex_colour("#8a7f70")
    game.undo()
    app.sync()
    assert colour_at_woods() == theme.hex_colour("#226622")


def test_a_dogs_of_war_building_that_collapses_to_rubble_is_moved_through_at_rubble_rates() -> None:
    """Dogs of War STRUCTURAL DAMAGE (E6): a collapsed building becomes rubble; the move
    policy reads the live ground, so the hex is no longer enclosed and costs rubble rates."""
    board = load_map("dogs-of-war")
    house = next(h for h in board.grid.hexes() if board.terrain[h] == "wood-house")
    state = MapState.of(board)
    policy = DogsOfWarMovePolicy()
    assert policy.is_enclosed(state, house) and not policy.is_rubble(state, house)
    model = policy.model(state, Piece("m1", "rifleman", house))
    state.set_terrain(house, "rubble")
    assert policy.is_rubble(state, house) and not policy.is_enclosed(state, house)
    rubble = policy.model(state, Piece("m1", "rifleman", house))
    assert rubble.enter[house] > model.enter[house]


def test_in_a_rule_systems_game_the_change_is_an_edit_logged_and_undone_as_such() -> None:
    """Issue 12 item 7: outside free play the change is a player's edit (``"edit": true``),
    refused with the reason like any edit, logged, and undone."""
    twosided = pytest.importorskip("twosided.rules")
    scenario = Scenario("SKIRMISH", BOARD, "twosided", (), frozenset(), Path("skirmish.yaml"))
    game = new_game(scenario, twosided.ruleset(), seed=1)
    auto_setup(game)
    before = game.state.to_json()
    with pytest.raises(IllegalAction, match="unknown terrain 'lava'"):
        game.play({"do": "terrain", "hex": WOODS, "to": "lava", "edit": True})
    entry = game.play({"do": "terrain", "hex": WOODS, "to": "rubble", "edit": True})
    assert entry.lines == ["edit (outside the rules): 0302: woods becomes rubble"]
    assert game.state.map.terrain_at(BOARD.hex_of(WOODS)) == "rubble"
    assert game.replay().to_json() == game.state.to_json()
    game.undo()
    assert game.state.to_json() == before


def test_the_minimap_is_drawn_again_when_the_ground_changes() -> None:
    """E6: the window's cached minimap follows a changed hex too."""
    pygame.font.init()
    game = free_game()
    app = App(
        state=game.state.map,
        title="t",
        los_policy=FreePlayPolicy.for_map(game.state.map),
        move_policy=FreePlayMovePolicy(),
        size=(800, 600),
        game=game,
        components=[Panels()],
    )
    panels = app.components[0]
    assert isinstance(panels, Panels)
    app.draw(pygame.Surface((800, 600)))
    first, _ = panels.minimap_surface(app)
    app.edit({"do": "terrain", "hex": WOODS, "to": "rubble"})
    app.draw(pygame.Surface((800, 600)))
    again, _ = panels.minimap_surface(app)
    assert again is not first


def test_omaha_control_and_communication_read_the_changed_ground() -> None:
    """E6 for Omaha (omaha 2): control and the German communication path read the live
    ground. A US company on ground turned to sea (the project's `afloat` choice)
    controls nothing; a path hex turned to rough is not traced through."""
    from tabletop.games.omaha.control import communication_path, us_control

    omaha = load_map("omaha")
    state = MapState.of(omaha, [Piece("E/2/116", "infantry", omaha.hex_of("1807"), side="us")])
    assert omaha.hex_of("1807") in us_control(state)
    state.set_terrain(omaha.hex_of("1807"), "sea")
    assert us_control(state) == {}
    path = communication_path(state, "wn-70")
    assert path is not None
    step = path[1]
    state.set_terrain(step, "rough")
    after = communication_path(state, "wn-70")
    assert after is None or step not in after
