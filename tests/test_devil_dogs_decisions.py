"""The decisions the text of The Devil Dogs of Belleau Wood gives its players and the
game offers them (issue 15): refusing a forced move (8 REFUSING ORDERS: Rout!, gas,
Bayonets), the targets and the advance of Bayonets (9), Misdirection one card at a
time (9), and the hex of a reconstituted unit (5.11, 9); the planner decides each too.
Grounds as in test_devil_dogs_rules.py: rows 18-22 of sector B are open ground.
"""

from __future__ import annotations

from typing import Any

from test_devil_dogs_keywords import run, step
from test_devil_dogs_rules import BOARD, R, at, ground, reinforce, unit

from tabletop.engine.actions import END_PHASE
from tabletop.engine.dice import Deck, Dice
from tabletop.engine.extras import seen_by
from tabletop.engine.game import seen_line
from tabletop.engine.state import GameState
from tabletop.games.devil_dogs import combat as cb
from tabletop.games.devil_dogs import keywords as kw
from tabletop.games.devil_dogs import ruleset as rs
from tabletop.games.devil_dogs.bots import PlannerBot
from tabletop.games.devil_dogs.window import DevilDogsExtras, misdirection_panel


class View:
    """What a bot is given (``SideView``'s fields), for a state made by hand."""

    def __init__(self, state: GameState, side: str) -> None:
        self.side = side
        self.state = R.view(state.copy(), side)
        self.choices = R.choices(state, side)


def queued(state: GameState, *steps: dict[str, Any]) -> None:
    state.phase = "execute"
    rs.set_queue(state, list(steps))


def settle(state: GameState) -> list[str]:
    """The rules' own steps until a player must choose (or the queue is empty)."""
    lines: list[str] = []
    while rs.queue(state) and (action := R.proposal(state)) is not None and action["do"] == "resolve":
        lines += R.apply(state, action, Dice(1))
    return lines


# --- 8 REFUSING ORDERS: forced moves ---------------------------------------------------------


def test_rout_offers_the_owner_the_equally_near_hexes_or_refusing() -> None:
    """9 ROUT!, 8: the routed unit's owner (not the Rout! player) chooses where it goes
    among the equally near hexes, or refuses the move."""
    state = ground(unit("A", "0820"), unit("G", "0815", "german"))
    cb.lose_steps(state, "G", 1, "allied", [])
    queued(state, step("Rout!"))
    settle(state)
    assert R.actor(state) == "german"
    offered = R.choices(state, "german")
    assert offered[-1] == {"do": "retreat", "piece": "G", "to": ""}
    ends = [a["to"] for a in offered[:-1]]
    assert len(ends) > 1 and all(BOARD.hex_of(e) != at(state, "G").hex for e in ends)
    R.apply(state, offered[1], Dice(1))
    assert BOARD.label(at(state, "G").hex) == ends[1] and not rs.queue(state)


def test_refusing_a_forced_move_pins_and_a_pinned_unit_loses_a_step() -> None:
    """8 REFUSING ORDERS: "even compulsory movement caused by Keywords like Rout!": a
    pinning token, or a step loss if already pinned."""
    state = ground(unit("A", "0820"), unit("G", "0815", "german"), unit("H", "0915", "german"))
    cb.lose_steps(state, "G", 1, "allied", [])
    cb.pin(state, "H", "allied", [], "test")
    queued(state, step("Rout!"))
    settle(state)
    R.apply(state, {"do": "retreat", "piece": "G", "to": ""}, Dice(1))
    assert at(state, "G").has("pinned") and BOARD.label(at(state, "G").hex) == "0815"
    R.apply(state, {"do": "retreat", "piece": "H", "to": ""}, Dice(1))
    assert at(state, "H").steps == 2 and at(state, "H").has("pinned")


def test_gas_forced_move_is_the_owners_choice_and_a_refusal_stays_in_the_gas() -> None:
    """9 GAS BARRAGE, 8: units under or next to the token lose a step and must move
    away, which the owner may refuse (a pin); the drift's moves are offered the same way
    in the mortar phase (5.5)."""
    state = ground(unit("A", "0822"), unit("G", "0812", "german"))
    state.decks["allied"] = Deck(["US-01"] * 8)  # deviation HIT: the token stays put
    state.decks["german"] = Deck(["GE-01"] * 8)
    queued(state, step("Gas Barrage"))
    R.apply(state, {"do": "barrage", "at": "0812"}, Dice(1))
    settle(state)
    assert R.actor(state) == "german" and at(state, "G").steps == 2
    R.apply(state, {"do": "retreat", "piece": "G", "to": ""}, Dice(1))
    assert BOARD.label(at(state, "G").hex) == "0812" and at(state, "G").has("pinned")
    state.phase, state.tracks["drift"] = "mortar", 0
    rs.set_queue(state, [])
    R.apply(state, {"do": "gas-drift"}, Dice(1))
    assert R.actor(state) == "german" and at(state, "G").steps == 1
    offered = R.choices(state, "german")
    R.apply(state, offered[0], Dice(1))
    assert cb.distance(at(state, "G").hex, BOARD.hex_of("0812")) > 1
    assert not rs.queue(state) and R.proposal(state) == END_PHASE


def test_a_unit_with_nowhere_to_go_refuses_without_a_choice() -> None:
    """8: with no legal hex the unit refuses; nothing is offered."""
    state = ground(unit("A", "0819"), unit("B", "0920"), unit("C", "0720"), unit("D", "0821"),
                   unit("E", "0921"), unit("F", "0721"), unit("G", "0820", "german"))  # fmt: skip
    cb.pin(state, "G", "allied", [], "test")
    queued(state, step("Rout!"))
    lines = settle(state)
    assert at(state, "G").steps == 2 and "refuses the forced move" in " ".join(lines)


def test_the_planner_refuses_a_forced_move_only_to_keep_an_objective() -> None:
    """8 (P3): the bot moves to the first hex offered, but an unpinned unit holding an
    objective refuses (a pin) to keep it."""
    state = ground(unit("A", "0820"), unit("G", "0815", "german"), objectives=[BOARD.hex_of("0815")])
    cb.lose_steps(state, "G", 1, "allied", [])
    queued(state, step("Rout!"))
    settle(state)
    assert PlannerBot().choose(View(state, "german")) == {"do": "retreat", "piece": "G", "to": ""}  # type: ignore[arg-type]
    cb.pin(state, "G", "allied", [], "test")
    assert PlannerBot().choose(View(state, "german"))["to"] != ""  # type: ignore[arg-type]


# --- 9 BAYONETS ------------------------------------------------------------------------------------


def test_bayonets_the_player_picks_which_adjacent_enemy_each_unit_hits() -> None:
    """9 BAYONETS (P5): a unit next to two enemies: its player picks which it hits; a
    unit next to one hits it without a choice; one step a unit from one source (7.1)."""
    state = ground(unit("A", "0820"), unit("G", "0819", "german"), unit("H", "0920", "german"))
    queued(state, step("Bayonets"))
    settle(state)
    assert R.actor(state) == "allied"
    offered = R.choices(state, "allied")
    assert {a["target"] for a in offered} == {"G", "H"} and {a["piece"] for a in offered} == {"A"}
    R.apply(state, {"do": "bayonet", "piece": "A", "target": "H"}, Dice(1))
    assert at(state, "H").steps == 2 and at(state, "G").steps == 3


def test_bayonets_the_owner_may_refuse_the_retreat_and_the_striker_may_stay() -> None:
    """9 BAYONETS, 8: the damaged unit must retreat a hex, its owner may refuse (a pin);
    when it leaves, "adjacent friendly units may advance": the striking player picks one
    or none."""
    state = ground(unit("A", "0820"), unit("B", "0720"), unit("G", "0819", "german"))
    queued(state, step("Bayonets"))
    settle(state)
    assert R.actor(state) == "german"
    R.apply(state, {"do": "retreat", "piece": "G", "to": ""}, Dice(1))
    assert BOARD.label(at(state, "G").hex) == "0819" and at(state, "G").has("pinned")
    assert not rs.queue(state)  # it stayed: no hex to advance into

    state = ground(unit("A", "0820"), unit("B", "0720"), unit("G", "0819", "german"))
    queued(state, step("Bayonets"))
    settle(state)
    R.apply(state, R.choices(state, "german")[0], Dice(1))
    assert R.actor(state) == "allied"
    offered = R.choices(state, "allied")
    assert [a["piece"] for a in offered] == ["A", "B", ""]  # the unit that struck first
    R.apply(state, offered[-1], Dice(1))
    assert not state.map.units_at(BOARD.hex_of("0819"))
    assert BOARD.label(at(state, "A").hex) == "0820"


# --- 9 MISDIRECTION ---------------------------------------------------------------------------------


def misdirection_state() -> GameState:
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.marks["cards-german"] = ["B:GE-01", "C:GE-02"]
    state.marks["orders-german"] = ["B:general", "C:general"]
    state.hands["german"] = ["GE-03"]
    return state


def test_misdirection_puts_any_number_of_the_six_cards_on_the_bottom() -> None:
    """9 MISDIRECTION: "place any number of them on the bottom": one decision a card."""
    state = misdirection_state()
    top = state.decks["german"].cards[:6]
    rest = state.decks["german"].cards[6:]
    picks = [{"do": "misdirect", "card": k, "bury": k in (2, 5)} for k in range(1, 7)]
    run(state, step("Misdirection"), {"do": "misdirect", "look": True}, *picks)
    cards = state.decks["german"].cards
    assert cards == [top[0], top[2], top[3], top[5], *rest, top[1], top[4]]


def test_misdirection_examines_before_exchanging_and_may_leave_the_cards() -> None:
    """9 MISDIRECTION: "Examine ... you may exchange the two"; the order type stays."""
    state = misdirection_state()
    s = step("Misdirection")
    run(state, s, {"do": "misdirect", "sector": "C"})
    assert kw.options(state, s) == [{"do": "misdirect", "swap": True}, {"do": "misdirect", "swap": False}]
    run(state, s, {"do": "misdirect", "swap": False})
    assert state.marks["cards-german"] == ["B:GE-01", "C:GE-02"] and state.hands["german"] == ["GE-03"]
    assert state.marks["orders-german"] == ["B:general", "C:general"]


def test_only_the_misdirection_player_sees_the_cards_it_examines() -> None:
    """9 MISDIRECTION, 5.2: the cards looked at are in the Misdirection player's view,
    panel and a log line only it reads; never in the opponent's or a third view."""
    state = misdirection_state()
    queued(state, step("Misdirection"))
    lines = R.apply(state, {"do": "misdirect", "look": True}, Dice(1))
    top = state.decks["german"].cards[:6]
    mine = R.view(state.copy(), "allied")
    theirs = R.view(state.copy(), "german")
    assert mine.decks["german"].cards[:6] == top and mine.decks["german"].cards[6] == "?"
    assert set(theirs.decks["german"].cards) == {"?"}
    assert any(top[0] in (seen_line(x, "allied") or "") for x in lines)
    assert not any(top[0] in (seen_line(x, "german") or "") for x in lines)
    shown = misdirection_panel(mine, "allied")
    assert shown is not None and top[0] in " ".join(r.text for r in shown.rows)
    assert misdirection_panel(theirs, "german") is None


def test_hot_seat_covers_the_screen_while_misdirection_shows_the_cards() -> None:
    """9 MISDIRECTION (hot-seat, found reviewing issue 15): the cards it examines show
    only in its player's view mid-sector, where no cover is otherwise needed; the
    rules' hand-off hook now asks for the cover then, for that player only."""
    state = misdirection_state()
    queued(state, step("Misdirection"))
    assert not R.handoff(state, "allied") and not R.handoff(state, "german")
    R.apply(state, {"do": "misdirect", "look": True}, Dice(1))
    assert R.handoff(state, "allied") and not R.handoff(state, "german")
    for k in range(1, 7):
        R.apply(state, {"do": "misdirect", "card": k, "bury": False}, Dice(1))
    assert not R.handoff(state, "allied")  # done: nothing secret on the screen any more


def test_the_planner_buries_strong_cards_and_keeps_weak_ones() -> None:
    """9 MISDIRECTION: the bot sends a card to the bottom when it is stronger than the
    opponent's average card, from what its view shows (bots.card_power)."""
    from tabletop.games.devil_dogs.bots import card_power
    from tabletop.games.devil_dogs.data import cards

    state = misdirection_state()
    deck = sorted((c.id for c in cards()["german"]), key=card_power)
    state.decks["german"] = Deck([deck[-1], deck[0], *deck[1:-1]])
    queued(state, step("Misdirection"))
    R.apply(state, {"do": "misdirect", "look": True}, Dice(1))
    assert PlannerBot().choose(View(state, "allied"))["bury"] is True  # type: ignore[arg-type]
    R.apply(state, {"do": "misdirect", "card": 1, "bury": True}, Dice(1))
    assert PlannerBot().choose(View(state, "allied"))["bury"] is False  # type: ignore[arg-type]


# --- 5.11, 9: the reconstituted unit's hex --------------------------------------------------------


def test_the_owner_picks_the_hex_next_to_the_hq_of_a_reconstituted_unit() -> None:
    """5.11 REORGANIZATION, 4 (G13): "placed ... adjacent to their HQ unit": each free
    hex next to the HQ is offered; the unit goes where its owner puts it."""
    state = ground(unit("HQ", "0820", kind="hq"), unit("A0", "0618"), unit("A1", "0718"),
                   unit("X", "0720"), unit("G", "0810", "german"))  # fmt: skip
    for ident in ("A0", "A1"):
        cb.lose_steps(state, ident, 4, "german", [])
    offered: list[list[dict[str, Any]]] = []

    def pick(choices: list[dict[str, Any]]) -> dict[str, Any]:
        offered.append(choices)
        return next(c for c in choices if c["piece"] == "A1" and c["to"] == "0821")

    reinforce(state, pick)
    hexes = {c["to"] for c in offered[0] if c["piece"] == "A1"}
    assert hexes == {"0819", "0821", "0721", "0920", "0921"}  # 0720 is taken by X
    assert BOARD.label(at(state, "A1").hex) == "0821" and cb.face(at(state, "A1")) == "reduced"


# --- issue 15 item 2: against a bot, the human's own cards show all along -----------------------


def test_against_a_bot_the_panels_show_the_own_cards_while_sectors_are_carried_out() -> None:
    """5.2, 5.7: with the other seat a bot nobody else looks at the screen, so the
    side's own hand and face-down sector cards show in every phase; in hot-seat they
    show only where the screen was covered for it (PRIVATE_PHASES)."""
    from test_devil_dogs_window import played_to, rows

    game = played_to(1, "execute")
    hand = game.state.hands["allied"]
    unrevealed = [e.split(":")[1] for e in game.state.marks["cards-allied"]
                  if e.split(":")[0] not in game.state.marks.get("revealed", [])]  # fmt: skip
    extras = DevilDogsExtras()
    alone = {p.key: p for p in extras.panels(seen_by(game, "allied", shared_screen=False), None)}
    assert hand and all(c in " ".join(rows(alone["hand"])) for c in hand)
    assert unrevealed and all(c in " ".join(rows(alone["sectors"])) for c in unrevealed)
    shared = {p.key: p for p in extras.panels(seen_by(game, "allied"), None)}
    assert not any(c in " ".join(rows(shared["hand"])) for c in hand)
    german = [e.split(":")[1] for e in game.state.marks["cards-german"]
              if e.split(":")[0] not in game.state.marks.get("revealed", [])]  # fmt: skip
    assert not any(c in " ".join(rows(alone["sectors"])) for c in german)


def test_the_window_tells_the_extras_whether_the_other_seat_is_a_bot() -> None:
    """The window (ui/extras.py) gives the extras a view whose shared_screen is False
    when one person plays against a bot, True in hot-seat."""
    from test_devil_dogs_window import played_to

    from tabletop.engine.scenario import open_map_or_scenario
    from tabletop.games import bot
    from tabletop.ui.extras import ExtrasLayer
    from tabletop.ui.table import open_game

    texts = {}
    for seated in ((), ("german",)):
        game = played_to(1, "execute")
        app = open_game(game, open_map_or_scenario("belleau-wood"), size=(1200, 800), rules="devil_dogs")
        for side in seated:
            app.seats[side] = bot("devil_dogs", side)
        app.at_screen = "allied"
        layer = next(c for c in app.components if isinstance(c, ExtrasLayer))
        layer.refresh(app)
        texts[seated] = " ".join(r.text for p in layer.panels if p.key == "hand" for r in p.rows)
    hand = played_to(1, "execute").state.hands["allied"]
    assert all(c in texts[("german",)] for c in hand)
    assert not any(c in texts[()] for c in hand)


def test_the_misdirection_choice_reads_only_the_cards_examined() -> None:
    """9 MISDIRECTION, 5.2 (issue 15: a bot sees only its view): the planner's pick for
    a card looked at does not change when the opponent's hidden cards (the rest of his
    deck, his reserve) change."""
    state = misdirection_state()
    queued(state, step("Misdirection"))
    R.apply(state, {"do": "misdirect", "look": True}, Dice(1))
    chosen = PlannerBot().choose(View(state, "allied"))  # type: ignore[arg-type]
    deck = state.decks["german"]
    for shift in (1, 5, 11):
        rest = deck.cards[6:]
        deck.cards = deck.cards[:6] + rest[shift:] + rest[:shift]
        state.hands["german"] = [rest[0]]
        assert PlannerBot().choose(View(state, "allied")) == chosen  # type: ignore[arg-type]
