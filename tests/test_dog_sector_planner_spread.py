"""DOG SECTOR's planning autoplayer, issue 20 item 4's fifth pass: the assault spreads its
shots over the German units it can reach, flamethrowers and CE teams aim at what they may
fire at, and the last turn gives up the sections it can no longer clear (planner.py,
``_spread_choice``, ``_typed_aim``, ``_hopeless``)."""

from __future__ import annotations

from functools import cache

import pytest
from test_dog_sector_planner import phase_actions

from tabletop.board import Map, load_map
from tabletop.engine.game import Game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.dog_sector import autoplayer, hits, planner
from tabletop.games.dog_sector.planner import PlanningAutoplayer
from tabletop.games.dog_sector.ruleset import DogSectorRules
from tabletop.hexgrid import Hex


@cache
def board() -> Map:
    return load_map("dog-sector")


def put(state: GameState, pid: str, kind: str, label: str, side: str = "american", steps: int | None = None) -> Piece:
    piece = Piece(pid, kind, board().hex_of(label), side=side)
    piece = Piece(pid, kind, piece.hex, side=side, steps=hits.full_steps(piece) if steps is None else steps)
    state.map.place(piece)
    return piece


def fresh(turn: int = 5) -> GameState:
    return GameState(MapState.of(board()), turn=turn, phase="activity")


def first_action(state: GameState) -> dict[str, object]:
    return dict(PlanningAutoplayer().choose(Game(DogSectorRules(), state, 1).side_view("american")))


def next_to(h: Hex, *, not_next_to: Hex | None = None) -> list[str]:
    """Labels of the land hexes next to ``h`` (not next to ``not_next_to``), in label order."""
    b = autoplayer._board(board())
    out = [n for n in b.around[h] if b.position[n] is not None and b.board.terrain[n] != "trench"]
    if not_next_to is not None:
        out = [n for n in out if n not in b.around[not_next_to]]
    return sorted(b.labels[n] for n in out)


def test_the_chance_left_for_one_more_shot_counts_the_shots_already_next_to_a_german_unit() -> None:
    """Table 6: infantry hits German infantry on 5-6 (its bonus), anything else on 6; a
    flamethrower hits anything but infantry on 4-6. Two infantry units next to a German
    infantry unit both miss it with (4/6)^2; a pinned unit does not fire (phase 6)."""
    assert planner._chance("infantry", "infantry") == pytest.approx(2 / 6)
    assert planner._chance("infantry", "mg-pillbox") == pytest.approx(1 / 6)
    assert planner._chance("flamethrower", "infantry") == 0.0
    assert planner._chance("flamethrower", "at-gun") == pytest.approx(3 / 6)
    s = fresh()
    g = put(s, "G1", "infantry", "0612", "german")
    spots = next_to(g.hex)
    put(s, "A1", "infantry", spots[0])
    put(s, "A2", "infantry", spots[1])
    s.map.place(Piece("A3", "infantry", board().hex_of(spots[2]), side="american", steps=2,
                      status=frozenset({"pinned"})))  # fmt: skip
    misses = planner._misses(autoplayer._now(s), autoplayer._board(board()))
    assert misses["G1"] == pytest.approx((4 / 6) ** 2)


def test_the_assault_spreads_over_the_german_units_it_can_reach() -> None:
    """Phase 6: "If a target is reduced, it cannot be targeted again in the same turn", so
    a shot at a German infantry unit two others already fire at adds little (0.33 times
    the 0.44 chance that both miss). In phase 5 the planner moves its units to the firing
    positions where their shots add most: by the end of the phase both German units of
    the section have an infantry unit next to them, and the log says why."""
    s = fresh()
    g1 = put(s, "G1", "infantry", "0612", "german")
    g2 = put(s, "G2", "infantry", "0912", "german")
    crowded = next_to(g1.hex, not_next_to=g2.hex)
    put(s, "A1", "infantry", crowded[0])
    put(s, "A2", "infantry", crowded[1])
    put(s, "A3", "infantry", "0709")
    game = Game(DogSectorRules(), s, 1)
    whys = [str(a.get("why")) for a in phase_actions(game, 12)]
    b = autoplayer._board(board())
    at = [p.hex for p in game.state.map.pieces() if p.side == "american"]
    assert any(h in b.around[g1.hex] for h in at) and any(h in b.around[g2.hex] for h in at)
    assert any("adds most, a 0.33 chance to hit" in why for why in whys)


def test_a_unit_in_position_stays_while_its_german_unit_draws_no_other_shot() -> None:
    """The other side of the last test: an infantry unit alone next to a German unit
    stays to fire at it (the plain planner's "in position: the assault accepts the fire
    it draws"); no firing position within reach adds more."""
    s = fresh()
    g1 = put(s, "G1", "infantry", "0612", "german")
    put(s, "G2", "infantry", "0912", "german")
    put(s, "A1", "infantry", next_to(g1.hex)[0])
    assert first_action(s) == {"do": "end-phase"}


def test_a_flamethrower_aims_at_what_it_may_fire_at_when_the_weakest_sections_hold_only_infantry() -> None:
    """Table 6: a flamethrower fires at "All except Infantry; only adjacent". The assault
    aims at the two sections with fewest German steps left (1 and 2 here, infantry
    only), where a flamethrower has no target and its plain plan field no goal; it takes
    its focus among the German units it may fire at (the MG pillbox of section 5) and
    walks toward it rather than stand idle."""
    s = fresh()
    put(s, "G1", "infantry", "0212", "german", steps=1)  # section 1: 1 step
    put(s, "G2", "infantry", "1212", "german")  # section 3: 2 steps
    mg = put(s, "G3", "mg-pillbox", "2312", "german")  # section 5: 5 steps
    put(s, "G4", "infantry", "2212", "german")
    put(s, "G5", "infantry", "2112", "german")
    ft = put(s, "A1", "flamethrower", "2306")
    b = autoplayer._board(board())
    layout = autoplayer._now(s).layout
    germans = list(layout.germans)
    assert planner._typed_aim(b, layout, "flamethrower") == frozenset({"G3"})
    assert not planner.weighted_field(b, "flamethrower", germans, layout.obstacles)  # no goal
    chosen = first_action(s)
    assert chosen["do"] == "move" and chosen["unit"] == "A1"
    assert planner.distance(board().hex_of(str(chosen["to"])), mg.hex) < planner.distance(ft.hex, mg.hex)


def test_the_last_turn_gives_up_a_section_it_cannot_clear() -> None:
    """Table 7 counts a section cleared when its trench hexes are empty at the end, and a
    German infantry unit loses at most one step a turn (phase 6: a reduced target
    "cannot be targeted again in the same turn"). In turn 12 of 12 a section holding a
    full-strength German infantry unit can no longer be cleared: an infantry unit next
    to it moves next to the last German unit of the neighbouring section instead; in
    turn 11 the section may still fall and it stays."""
    def state(turn: int) -> GameState:
        s = fresh(turn)
        g1 = put(s, "G1", "infantry", "0412", "german")  # section 1: 2 steps
        g2 = put(s, "G2", "mg-pillbox", "0612", "german")  # section 2: 1 step
        put(s, "A1", "infantry", next_to(g1.hex, not_next_to=g2.hex)[-1])
        return s

    b = autoplayer._board(board())
    assert planner._hopeless(b, autoplayer._now(state(12)).layout, 12) == frozenset({"G1"})
    assert planner._hopeless(b, autoplayer._now(state(11)).layout, 11) == frozenset()
    assert first_action(state(11)) == {"do": "end-phase"}
    chosen = first_action(state(12))
    assert chosen["do"] == "move" and chosen["unit"] == "A1"
    assert board().hex_of(str(chosen["to"])) in b.around[board().hex_of("0612")]


def test_near_a_crowded_focus_a_unit_takes_a_free_german_unit_off_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phase 5 stacking ("only one unit of each type" a hex): every free hex next to the
    MG pillbox of section 1 (the weakest, 1 step) holds infantry, so another infantry
    unit there has no firing position of the focus to go to. Within ``WIDE_NEAR`` AP of
    the focus the planner counts the firing positions of every German unit, one
    outside the focus at half weight (``SPREAD_OFF_FOCUS``): it goes next to a German
    infantry unit of section 2 (4 steps left, not in the focus) and fires there, where
    without it the unit waited a hex away from the crowd."""
    def state() -> GameState:
        s = fresh()
        mg = put(s, "G1", "mg-pillbox", "0412", "german")  # section 1: 1 step
        put(s, "G2", "infantry", "2212", "german")  # section 5: 2 steps
        put(s, "G3", "infantry", "0712", "german")  # section 2: 4 steps
        put(s, "G4", "infantry", "0812", "german")
        for i, label in enumerate(next_to(mg.hex)):
            put(s, f"A{i}", "infantry", label)
        put(s, "A9", "infantry", "0510")
        return s

    b = autoplayer._board(board())
    germans = {g: board().hex_of(label) for g, label in (("G3", "0712"), ("G4", "0812"))}

    def play(s: GameState) -> tuple[Hex, list[str]]:
        game = Game(DogSectorRules(), s, 1)
        whys = [str(a.get("why")) for a in phase_actions(game, 20)]
        return game.state.map.piece("A9").hex, whys

    at, _ = play(state())
    assert any(at in b.around[h] for h in germans.values())
    monkeypatch.setattr(planner, "WIDE_NEAR", -1)
    at, _ = play(state())
    assert not any(at in b.around[h] for h in germans.values())
