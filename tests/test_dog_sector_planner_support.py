"""DOG SECTOR's planning autoplayer, issue 20 item 4's support units: tanks and dozers
in a firing position move on to the one nearest the trenches (planner.py, ``_forward``)."""

from __future__ import annotations

from functools import cache

from tabletop.board import Map, load_map
from tabletop.engine.game import Game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import autoplayer, hits
from tabletop.games.dog_sector.autoplayer import AmericanAutoplayer
from tabletop.games.dog_sector.planner import PlanningAutoplayer
from tabletop.games.dog_sector.ruleset import DogSectorRules


@cache
def board() -> Map:
    return load_map("dog-sector")


def put(state: GameState, pid: str, kind: str, label: str, side: str = "american") -> Piece:
    piece = Piece(pid, kind, board().hex_of(label), side=side)
    piece = Piece(pid, kind, piece.hex, side=side, steps=hits.full_steps(piece))
    state.map.place(piece)
    return piece


def fresh(turn: int = 3) -> GameState:
    return GameState(MapState.of(board()), turn=turn, phase="activity")


def first_action(state: GameState, bot: AmericanAutoplayer | None = None) -> dict[str, object]:
    bot = bot or PlanningAutoplayer()
    return dict(bot.choose(Game(DogSectorRules(), state, 1).side_view("american")))


def test_a_tank_in_a_firing_position_moves_on_to_the_one_nearest_the_trenches() -> None:
    """Phase 4 (german.py): AT guns and panzerfausts fire at the nearest legal target,
    tanks and dozers first among the nearest, and infantry and MG pillboxes never at a
    tank's hex or the hex behind it; a tank hit is immobilized, never destroyed (hits.yaml),
    and still fires (american.yaml). Table 6: a tank hits an MG pillbox on 5-6 within 8
    hexes. A tank on the open beach 7 hexes from an MG pillbox is already in a firing
    position (the simple bot stays there); the planner moves it on to the firing position
    nearest the trenches within its 6 AP, where it draws the AT guns' fire and screens the
    hexes behind it, and the log says why."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0612", "german")
    tank = put(s, "A1", "tank", "0605")
    b = autoplayer._board(board())
    assert first_action(s, AmericanAutoplayer()) == {"do": "end-phase"}  # in position: stays
    action = first_action(s)
    assert action["do"] == "move" and action["unit"] == "A1"
    to = board().hex_of(str(action["to"]))
    assert b.to_trench[to] < b.to_trench[tank.hex]
    assert b.position[to] == "any"  # it may still fire from there (phase 6)
    assert "nearest the trenches" in str(action["why"])


def test_a_tank_does_not_move_on_into_a_land_mine() -> None:
    """Phase 5, Land Mine Explosion Check: a unit entering a live land-mine hex is hit on
    4-6, and a hit immobilizes a tank. The forward move takes no mined hex: with mines on
    every firing position nearer the trenches, the tank stays where it is."""
    s = fresh()
    put(s, "G1", "mg-pillbox", "0612", "german")
    tank = put(s, "A1", "tank", "0607")
    b = autoplayer._board(board())
    nearer = [h for h in b.hexes if b.to_trench[h] < b.to_trench[tank.hex] and b.position[h] == "any"]
    for i, h in enumerate(nearer):
        s.map.place(Piece(f"M{i}", "land-mine", h, kind="marker"))
    action = first_action(s)
    assert (
        action == {"do": "end-phase"}
        or b.to_trench[board().hex_of(str(action["to"]))] >= b.to_trench[tank.hex]
    )
