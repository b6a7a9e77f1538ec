"""D-Day at Omaha Beach: what the American player may know (omaha 2: Reinforcements are
placed face down; 9.3 and 9.7: unrevealed Reinforcements and hidden Depth). The US side's
view (the ruleset's ``view`` hook, ``hidden.view``) shows face-down counters under
neutral names; the window and ``render`` draw that view; the log names hidden units
neutrally for everyone and by their id only in lines private to the German side.
"""

from __future__ import annotations

import re

from tabletop.engine.dice import Dice
from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.games.omaha import data, german, hidden
from tabletop.games.omaha.common import POOLS, UNREVEALED
from tabletop.games.omaha.hidden import FACE_DOWN
from tabletop.shipped import resolve

#: every id of germans.yaml a US player must not read off a hidden piece
SECRET_ID = re.compile(r"^(T|D|KM|WD|BD|MD)\d+$")


def game(seed: int = 1) -> Game:
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=seed, history=False)  # type: ignore[arg-type]
    g.use_seeded_dice()
    auto_setup(g)
    return g


def with_reinforcements(seed: int = 1) -> Game:
    """Two Tactical units placed face down by the omaha 2 event and a Division unit with
    its Depth marker; the WN garrisons stay face up."""
    g = game(seed)
    state = g.state
    german.snapshot(state)
    dice = Dice(5)
    german.event_reinforcement(state, dice)
    german.event_reinforcement(state, dice)
    state.boxes[POOLS["tactical"]] = []
    german.event_reinforcement(state, dice)
    return g


def test_face_down_reinforcements_are_neutral_counters_in_the_us_view() -> None:
    """omaha 2: "Placed faced down": the US sees a face-down counter whose id and type
    tell nothing; the German side (and the whole table) see the unit itself."""
    g = with_reinforcements()
    real = [p for p in g.state.map.pieces() if p.side == "german" and UNREVEALED in p.status]
    assert len(real) == 3 and all(SECRET_ID.match(p.id) for p in real)
    seen = g.view_state("us")
    faces = [p for p in seen.map.pieces() if p.type == FACE_DOWN]
    assert sorted(p.id for p in faces) == ["face-down-1", "face-down-2", "face-down-3"]
    assert {p.hex for p in faces} == {p.hex for p in real}
    assert all(p.side == "german" and UNREVEALED in p.status for p in faces)
    assert not any(SECRET_ID.match(p.id) for p in seen.map.pieces())
    assert hidden.NAMES not in seen.marks  # the key from neutral to real names stays hidden
    assert {p.id for p in g.view_state("german").map.pieces()} == {p.id for p in g.state.map.pieces()}


def test_the_wn_garrisons_stay_face_up() -> None:
    """Only Reinforcements are placed face down (omaha 2); RE-OCCUPY puts WN units back
    "face up" (omaha 3): the WN units keep their ids and types in the US view."""
    g = with_reinforcements()
    seen = g.view_state("us")
    garrison = {u.id: u.type for units in data.germans().garrisons.values() for u in units}
    shown = {p.id: p.type for p in seen.map.pieces() if p.id in garrison}
    assert shown == garrison


def test_hidden_depth_markers_are_named_after_their_unit() -> None:
    """9.7 "+Hidden Depth": the US knows a Depth marker is there, not which one (its
    strength and required weapons): the marker is named after the unit holding it."""
    g = with_reinforcements()
    seen = g.view_state("us")
    depth = [p for p in seen.map.pieces() if p.type == "depth"]
    assert depth and all(p.id.startswith("depth-of-") for p in depth)
    for p in seen.map.pieces():
        for mid in p.carrying:
            assert mid == f"depth-of-{p.id}"
            assert seen.map.piece(mid).hex == p.hex


def test_a_revealed_depth_marker_shows_its_id() -> None:
    """Once revealed (9.7 "Reveal Depth", part 2) a Depth marker is no secret."""
    g = game(1)
    marker = next(p for p in g.state.map.pieces() if p.type == "depth")
    g.state.map.update(type(marker)(**{**marker.__dict__, "status": frozenset()}))
    assert marker.id in {p.id for p in g.view_state("us").map.pieces()}


def test_the_pools_and_the_deck_order_are_hidden() -> None:
    """The reserve pools are drawn at random (omaha 2): the US sees how many counters a
    pool holds, not which; the German deck's order is not seen either."""
    g = with_reinforcements()
    state = g.state
    state.decks["german"].cards = list(data.cards())[:5]
    seen = g.view_state("us")
    for key in ("wn", "building", "mobile", "division"):
        box = POOLS[key]
        assert len(seen.box(box)) == len(state.box(box))
        assert [p.id for p in seen.box(box)] == [f"{box}-{i + 1}" for i in range(len(state.box(box)))]
    assert seen.decks["german"].cards == ["?"] * 5
    assert [p.id for p in seen.box(POOLS["artillery"])] == [p.id for p in state.box(POOLS["artillery"])]


def test_the_log_names_hidden_units_neutrally_for_the_us() -> None:
    """The log as the US reads it never names a face-down unit; the German side's
    private line does."""
    g = game(2)
    g.state.boxes[POOLS["tactical"]] = g.state.box(POOLS["tactical"])[:1]
    uid = g.state.box(POOLS["tactical"])[0].id
    g.state.boxes[POOLS["wn"]] = []  # a WN Depth marker now brings a Tactical Reinforcement (omaha 2)
    german.snapshot(g.state)
    lines = german.give_depth(g.state, Dice(1))
    public = [line for line in lines if not line.startswith("[")]
    assert any("face-down-1 from the Tactical pool" in line for line in public)
    assert not any(uid in line for line in public)
    assert any(uid in line for line in lines if line.startswith("[only german]"))


def test_the_names_stay_the_same_from_view_to_view() -> None:
    """A face-down unit keeps its neutral name while it stays hidden (the window's
    selection follows it), whatever arrives after it."""
    g = with_reinforcements()
    first = {p.hex: p.id for p in g.view_state("us").map.pieces() if p.type == FACE_DOWN}
    german.event_reinforcement(g.state, Dice(9))
    later = {p.hex: p.id for p in g.view_state("us").map.pieces() if p.type == FACE_DOWN}
    assert all(later[h] == name for h, name in first.items())


def test_the_window_and_render_draw_the_us_view() -> None:
    """The window of a person playing the US draws the US view (the side at the screen
    is the solitaire player when the rules hide something), through the real loop."""
    from tabletop.ui.table import open_table

    app = open_table("omaha", size=(1000, 700))
    state = app.play.state
    german.snapshot(state)
    german.event_reinforcement(state, Dice(3))
    app.sync()
    app.run(fps=1000, frames=3)
    assert app.at_screen == "us"
    ids = {p.id for p in app.state.pieces()}
    assert "face-down-1" in ids and not any(SECRET_ID.match(i) for i in ids)
    assert app.state.piece("face-down-1").type == FACE_DOWN


def test_a_bot_playing_every_seat_sees_the_whole_table() -> None:
    """With the US seat taken by a bot nobody sits at the screen: the whole table."""
    from tabletop.games.omaha.autoplayer import LandingBot
    from tabletop.ui.table import open_table

    app = open_table("omaha", size=(1000, 700))
    app.seats["us"] = LandingBot()
    app.sync()
    assert app.at_screen is None


def test_the_panels_do_not_tell_a_face_down_units_colour() -> None:
    """The card panel lists the positions the card makes fire: for the US at the screen
    a face-down unit's colour is unknown, so its position shows only once it fires."""
    from tabletop.engine.extras import seen_by
    from tabletop.games.omaha.window import extras
    from tabletop.ui.table import open_table

    app = open_table("omaha", size=(1000, 700))
    state = app.play.state
    german.snapshot(state)
    german.event_reinforcement(state, Dice(3))
    hidden_unit = next(p for p in state.map.pieces() if p.side == "german" and UNREVEALED in p.status)
    key = german.position_of(state.board, hidden_unit.hex)
    colour = german.colour(hidden_unit)
    cid = next(c.id for c in data.cards().values() if c.colour(colour) is False)
    state.hands[german.CARD] = [cid]
    app.sync()

    def fire_row(seen: object) -> str:
        card = next(p for p in extras().panels(seen, None) if p.key == "omaha-card")  # type: ignore[arg-type]
        return next(r.text for r in card.rows if r.text.startswith("fire"))

    assert key in fire_row(seen_by(app.play, None))  # the whole table knows
    assert key not in fire_row(seen_by(app.play, app.at_screen))  # the US does not
    state.tracks[german.HITS + str(key)] = 1  # it fires: now everyone sees it
    assert key in fire_row(seen_by(app.play, app.at_screen))
