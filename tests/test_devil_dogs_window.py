"""The Devil Dogs of Belleau Wood in the window (issue 15 item 7) and in saves: the hand
and sector card space panels show only what the side at the screen may know (5.2, 5.7),
the initiative panel the track and its pool (5.3.1), the combat panel the CD before a
combat (7, 8.1); actions are described in words; a game saved in the middle of a
sector, card draws included, loads and replays to the same position.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
    """The game box lists secret choices as the side's own words, not raw data; a USMC
    replacement choice gives the unit's steps (found under Xvfb: only the names showed)."""
    game = played_to(1, "assign")
    choice = game.choices("allied")[0]
    assert words.describe(game.state, choice).startswith("cards: B ")
    assert words.describe(game.state, {"do": "activate", "sector": "C"}) == "activate sector C"
    assert words.describe(game.state, {"do": "replace", "piece": "5M-A"}) == "USMC replacement point on 5M-A (4 of 4 steps)"
    assert words.describe(game.state, {"do": "retreat", "piece": "5M-A", "to": ""}).startswith("5M-A refuses")


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


def test_hot_seat_covers_the_screen_only_where_a_side_sees_its_secret_cards() -> None:
    """Issue 15 item 7 (hot-seat): the hand-off screen comes before 5.2, 5.4 and 5.6,
    where a side sees its hand and face-down cards; while sectors are carried out the
    panels show only what both may see, so no cover is needed at every change of hands."""
    from tabletop.games.devil_dogs.ruleset import DevilDogsRules

    rules = DevilDogsRules()
    game = played_to(1, "execute")
    assert not rules.handoff(game.state, "allied") and not rules.handoff(game.state, "german")
    panels = {p.key: p for p in DevilDogsExtras().panels(seen_by(game, "allied"), None)}
    hand = " ".join(rows(panels["hand"]))
    assert "card(s) in hand" in hand and not any(c in hand for c in game.state.hands["allied"])
    unrevealed = [e.split(":")[1] for e in game.state.marks["cards-allied"]
                  if e.split(":")[0] not in game.state.marks.get("revealed", [])]  # fmt: skip
    assert unrevealed and not any(c in " ".join(rows(panels["sectors"])) for c in unrevealed)
    for phase in ("assign", "orders", "activate"):
        game.state.phase = phase
        assert rules.handoff(game.state, "german")


def test_the_screen_is_covered_when_misdirection_turns_it_secret_for_the_same_side() -> None:
    """9 MISDIRECTION, hot-seat: the side at the screen keeps it, but its next view
    shows the opponent's cards; both players may have been watching the sector, so the
    hand-off screen covers the table until Space (found reviewing issue 15)."""
    import pygame
    from test_devil_dogs_keywords import step

    from tabletop.games.devil_dogs import ruleset as rs
    from tabletop.ui.table import open_game

    game = played_to(1, "execute")
    side = str(game.actor())
    rs.set_queue(game.state, [step("Misdirection", side=side)])
    app = open_game(game, open_map_or_scenario("belleau-wood"), size=(1000, 700), rules="devil_dogs")
    app.handoff = None  # the player at the screen pressed Space
    app.sync()
    assert app.handoff is None and app.at_screen == side
    assert app.act({"do": "misdirect", "look": True})
    assert app.at_screen == side and app.handoff == side
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    assert app.handoff is None
    assert app.act({"do": "misdirect", "card": 1, "bury": True})
    assert app.handoff is None  # still secret, still the same player: no second cover


def test_render_draws_the_table_not_the_hand_off_screen(tmp_path: Path) -> None:
    """`tabletop render belleau-wood --extra sectors` draws the map (the hot-seat cover
    is for people at a window, not for a picture)."""
    from tabletop.ui.render import frame
    from tabletop.ui.table import open_table

    app = open_table("belleau-wood", seeded_dice=True)
    assert app.handoff is not None  # two human sides with hidden hands: the window covers
    surface = frame(app, (800, 500))
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 800, 37) for y in range(0, 500, 23)}
    assert len(colours) > 10  # the map and its panels, not one flat cover with a line of text


def test_the_log_names_no_card_when_both_sides_have_placed_theirs() -> None:
    """5.2, 5.7: the cards stay face down after both sides have placed them; the log
    (read by both players in hot-seat) said which card went where (found playing)."""
    from tabletop.engine.game import seen_line

    game = played_to(1, "orders")
    lines = [line for e in game.entries for line in e.lines]
    for side in ("allied", "german"):
        foe = "german" if side == "allied" else "allied"
        foe_cards = [e.split(":")[1] for e in game.state.marks[f"cards-{foe}"]]
        seen = [x for x in (seen_line(m, side) for m in lines) if x is not None]
        assert foe_cards and not any(c in line for line in seen for c in foe_cards), seen
    assert "both players have made their choice" in lines


def test_the_game_box_lists_every_choice_when_the_selected_unit_has_none() -> None:
    """Found playing belleau-wood under Xvfb: a unit dragged to its hex stays selected,
    and the box listed only its choices (none left), hiding the other units' "stay";
    now it lists every choice, headed "select a unit to narrow"."""
    from tabletop.ui.gameplay import GamePanel
    from tabletop.ui.table import open_game

    game = played_to(1, "execute")
    actor = str(game.actor())
    app = open_game(game, open_map_or_scenario("belleau-wood"), size=(1280, 800), rules="devil_dogs")
    box = next(c for c in app.components if isinstance(c, GamePanel))
    every = box.unit_choices(app)
    foe = next(p.id for p in game.state.map.pieces() if p.kind == "unit" and p.side != actor)
    app.selected = foe
    assert every and box.unit_choices(app) == every
    lines = [text for text, _colour, _hot in box.box_lines(app)[0]]
    assert "choices (select a unit to narrow):" in lines
    mine = str(every[0]["piece"])
    app.selected = mine
    assert {a.get("piece") for a in box.unit_choices(app)} == {mine}


def test_a_game_against_a_bot_opens_without_the_hot_seat_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found under Xvfb: `tabletop play belleau-wood --bot german=planner` opened on
    "Pass to ALLIED" (the cover was set before the bot took its seat); one person
    against a bot has nobody to pass the screen to. Hot-seat still opens covered."""
    from tabletop.cli import main
    from tabletop.ui.app import App

    opened: list[App] = []
    monkeypatch.setattr(App, "run", lambda self, **_kw: opened.append(self))
    assert main(["play", "belleau-wood", "--seed", "3", "--bot", "german=planner"]) == 0
    assert main(["play", "belleau-wood", "--seed", "3"]) == 0
    assert opened[0].handoff is None and opened[0].at_screen == "allied"
    assert opened[1].handoff == "allied"


def test_the_secret_choice_is_logged_in_words_to_its_side() -> None:
    """5.2 (found under Xvfb): the private log line of a secret choice read as raw data
    ("{'do': 'orders', ...}"); it is now the rules' words, to its side only."""
    from tabletop.engine.game import seen_line

    game = played_to(1, "orders")
    lines = [x for e in game.entries for x in e.lines]
    mine = [seen_line(x, "allied") for x in lines if "allied chose" in (seen_line(x, "allied") or "")]
    assert mine and all(str(x).startswith("allied chose: cards: ") or str(x).startswith("allied chose: orders: ") for x in mine)
    assert not any("allied chose" in (seen_line(x, "german") or "") for x in lines)
