"""The Devil Dogs of Belleau Wood in the window (issue 15 item 7) and in saves: the hand
and sector card space panels show only what the side at the screen may know (5.2, 5.7),
the initiative panel the track and its pool (5.3.1), the combat panel the CD before a
combat (7, 8.1); actions are described in words; a game saved in the middle of a
sector, card draws included, loads and replays to the same position.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.engine.extras import seen_by
from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import bot, ruleset
from tabletop.games.devil_dogs import words
from tabletop.games.devil_dogs.window import DevilDogsExtras


def played_to(turn: int, phase: str, *, secret: bool = False, seed: int = 5) -> Game:
    """A bot-played game stopped where a side must choose in ``phase`` of ``turn``."""
    game = new_game(open_map_or_scenario("belleau-wood"), ruleset("devil_dogs"), seed=seed)
    if not secret:
        game.use_seeded_dice()
    auto_setup(game)
    seats = {s: bot("devil_dogs", s) for s in ("allied", "german")}
    while not (game.state.turn == turn and game.state.phase == phase and game.proposal() is None):
        action = game.proposal()
        if action is None:
            actor = game.actor()
            action = seats[actor].choose(game.side_view(actor))
        game.play(action)
    return game


def rows(panel: object) -> list[str]:
    return [r.text for r in panel.rows]  # type: ignore[attr-defined]


def test_the_hand_panel_shows_the_own_hand_and_never_the_opponents() -> None:
    """5.1, 5.2: each side sees its own cards with their three orders; the extras are
    given the side's view, which holds no opponent card."""
    game = played_to(1, "assign")
    extras = DevilDogsExtras()
    for side, foe in (("allied", "german"), ("german", "allied")):
        panels = {p.key: p for p in extras.panels(seen_by(game, side), None)}
        text = " ".join(rows(panels["hand"]))
        assert all(card in text for card in game.state.hands[side])
        assert not any(card in text for card in game.state.hands[foe])


def test_sector_cards_are_face_down_to_the_opponent_until_revealed() -> None:
    """5.2, 5.7: the opponent's sector cards show face down; once the sector is
    revealed both cards show with their orders."""
    game = played_to(1, "activate")
    extras = DevilDogsExtras()
    allied_cards = [e.split(":")[1] for e in game.state.marks["cards-allied"]]
    german_view = " ".join(rows({p.key: p for p in extras.panels(seen_by(game, "german"), None)}["sectors"]))
    assert "card face down" in german_view and not any(c in german_view for c in allied_cards)
    own = " ".join(rows({p.key: p for p in extras.panels(seen_by(game, "allied"), None)}["sectors"]))
    assert all(c in own for c in allied_cards)
    game.play(game.choices(game.actor())[0])  # activate
    game.play(game.proposal())  # end of the activation phase
    game.play(game.proposal())  # the reveal
    sector = game.state.marks["revealed"][0]
    revealed = next(c for e in game.state.marks["cards-allied"] for s, c in [e.split(":")] if s == sector)
    german_view = " ".join(rows({p.key: p for p in extras.panels(seen_by(game, "german"), None)}["sectors"]))
    assert revealed in german_view


def test_the_initiative_panel_shows_the_track_band_and_pool() -> None:
    """5.3.1: the track's position, band and pool."""
    game = played_to(1, "orders")
    panel = {p.key: p for p in DevilDogsExtras().panels(seen_by(game, "allied"), None)}["initiative"]
    assert rows(panel)[0] == "track +3: simple-us, pool 3 US / 2 GE / 1 S (5.3.1)"


def test_the_combat_panel_gives_each_sides_cd_before_the_combat() -> None:
    """7, 8.1: in a sector being executed, each side's CD and steps for every Combat X
    on the revealed cards (the same fire_plan the combat applies)."""
    game = played_to(2, "execute")
    panels = {p.key: p for p in DevilDogsExtras().panels(seen_by(game, "allied"), None)}
    text = rows(panels["combat"])
    assert text and (text[0].startswith("Combat ") or text[0] == "no Combat keyword revealed in this sector")


def test_actions_are_described_in_words() -> None:
    """The game box lists secret choices as the side's own words, not raw data."""
    game = played_to(1, "assign")
    choice = game.choices("allied")[0]
    assert words.describe(game.state, choice).startswith("cards: B ")
    assert words.describe(game.state, {"do": "activate", "sector": "C"}) == "activate sector C"


def test_a_game_saved_mid_sector_loads_and_replays_to_the_same_position(tmp_path: Path) -> None:
    """Card draws, secret choices and a sector half executed replay exactly from a save
    (secret dice, as a game between people is played)."""
    from tabletop.engine import savefile

    game = played_to(2, "execute", secret=True)
    path = tmp_path / "dd.json"
    savefile.write_save(path, game, "belleau-wood")
    loaded, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert loaded.state.to_json() == game.state.to_json()


def test_the_hits_overlay_marks_units_damaged_or_pinned_this_turn() -> None:
    """Issue 15 item 7: MG and combat results drawn on the map (this turn's losses and pins)."""
    game = played_to(2, "execute")
    overlays = {o.key: o for o in DevilDogsExtras().overlays(seen_by(game, "allied"))}
    hits = overlays["hits"]
    damaged = set(game.state.marks.get("damaged", [])) | set(game.state.marks.get("pinned-now", []))
    on_map = {p.hex for p in game.state.map.pieces() if p.id in damaged}
    assert {m.hex for m in hits.marks} == on_map
