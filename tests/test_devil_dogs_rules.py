"""The rules of The Devil Dogs of Belleau Wood (devil_dogs_of_belleau_wood.txt) as the
ruleset plays them: the turn of 5 (hands, simultaneous sector cards, initiative, orders,
mortars, activation and execution), fire and combat (5.8, 6.2, 7, 7.1-7.3, 8, 8.1-8.3),
reinforcements (5.11) and victory (G5, the project's choice). Each test cites its
section. Grounds are the project's Belleau Wood map: rows 18-22 of sector B (columns
06-11) are open or wheat, 0609/0610/0611 are woods (defensive, 8.2).
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from tabletop.engine.dice import Deck, Dice
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.state import GameState
from tabletop.games.devil_dogs import combat as cb
from tabletop.games.devil_dogs import ruleset as rs
from tabletop.games.devil_dogs.data import figures
from tabletop.games.devil_dogs.ruleset import DevilDogsRules

R = DevilDogsRules()
BOARD = open_map_or_scenario("belleau-wood").board


def unit(ident: str, at: str, side: str = "allied", kind: str = "infantry", **more: Any) -> Piece:
    nation = {"allied": "usmc", "german": "german-defensive"}[side] if "nation" not in more else more.pop("nation")
    steps = 4 if nation in ("usmc", "german-assault", "us-army") else 3
    attrs = (("nation", nation), ("regiment", more.pop("regiment", "r1")))
    return Piece(ident, kind, BOARD.hex_of(at), side, steps=more.pop("steps", steps), attributes=attrs, **more)


def ground(*pieces: Piece, sectors: tuple[str, ...] = ("B", "C"), **game: Any) -> GameState:
    state = GameState(MapState.of(BOARD, pieces), turn=1, phase="draw")
    scenario = SimpleNamespace(game={"sectors": sectors, "attacker": "allied", **game}, turns=6, victory={})
    R.prepare(state, scenario)
    R._shuffle(state, Dice(1))
    return state


def at(state: GameState, ident: str) -> Piece:
    return state.map.piece(ident)


def drain(state: GameState, steps: list[dict[str, Any]]) -> list[str]:
    """Carry out sector steps as the game would: the rules' own steps, and the first
    choice offered wherever a player chooses."""
    state.phase = "execute"
    rs.set_queue(state, steps)
    lines: list[str] = []
    while rs.queue(state):
        action = R.proposal(state)
        if action is None:
            action = R.choices(state, str(R.actor(state)))[0]
        lines += R.apply(state, action, Dice(1))
    return lines


# --- 5.1-5.4: hands, sector cards, initiative, orders ---------------------------------------------


def test_hand_size_is_sectors_plus_one_and_the_discards_are_reshuffled_when_short() -> None:
    """5.1: hand = sectors + 1; with too few cards the discards make a new draw pile."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    R._draw(state, Dice(1))
    assert len(state.hands["allied"]) == 3 and len(state.hands["german"]) == 3
    deck = state.decks["allied"]
    state.decks["allied"] = Deck(deck.cards[:1], deck.cards[1:])
    state.hands["allied"] = []
    state.tracks["drawn"] = 0
    R._draw(state, Dice(2))
    assert len(state.hands["allied"]) == 3 and not state.decks["allied"].discards


def test_both_sides_assign_their_sector_cards_at_once_face_down() -> None:
    """5.2: both players choose at once (the engine's simultaneous step); the other
    side's cards stay face down in its view until the sector is revealed (5.7)."""
    game = new_game(open_map_or_scenario("belleau-wood"), R, seed=4)
    game.use_seeded_dice()
    auto_setup(game)
    while game.state.phase != "assign":
        game.play(game.proposal())
    assert game.simultaneous() == ("allied", "german")
    allied = game.choices("allied")
    assert len(allied) == 6  # 3 cards into 2 sectors: 3 * 2 orders (5.2)
    game.play(allied[0])
    assert game.view_state("german").secret == {"allied": None, "german": None} or "allied" in game.state.secret
    game.play(game.choices("german")[-1])
    game.play(game.proposal())  # the reveal
    view = game.view_state("german")
    assert all(e.endswith(":?") for e in view.marks["cards-allied"])
    assert all(c == "?" for c in view.hands["allied"]) and all(c == "?" for c in view.decks["german"].cards)


@pytest.mark.parametrize(
    ("position", "band", "pool"),
    [(8, "strong-us", (4, 2, 0)), (3, "simple-us", (3, 2, 1)), (0, "even", (2, 2, 2)),
     (-3, "simple-ge", (2, 3, 1)), (-10, "strong-ge", (2, 4, 0))],
)  # fmt: skip
def test_the_five_initiative_pools(position: int, band: str, pool: tuple[int, int, int]) -> None:
    """5.3.1: the pool of each band of the track (G2: the bands are the project's)."""
    f = figures()
    assert f.band(position) == band
    assert tuple(f.pools[band][k] for k in ("US", "GE", "S")) == pool


def test_chits_are_drawn_without_replacement_and_most_chits_give_battlefield_initiative() -> None:
    """5.3.2, 5.3.3: one chit per sector from the pool, never more of a kind than it holds."""
    for seed in range(30):
        state = ground(unit("A", "0820"), unit("G", "0810", "german"), sectors=("A", "B", "C", "D"), initiative=8)
        R._initiative(state, Dice(seed))
        drawn = list(rs.pairs(state, "chits").values())
        assert drawn.count("US") <= 4 and drawn.count("GE") <= 2 and "S" not in drawn
        bi = rs.bi_side(state)
        us, ge = drawn.count("US"), drawn.count("GE")
        assert bi == ("allied" if us >= ge else "german")  # a tie: the attacker (allied)


def test_a_tie_of_chits_gives_battlefield_initiative_to_the_scenario_attacker() -> None:
    """5.3.3: on a tie the scenario attacker has battlefield initiative."""
    for attacker in ("allied", "german"):
        seen = set()
        for seed in range(40):
            state = ground(unit("A", "0820"), unit("G", "0810", "german"), attacker=attacker)
            R._initiative(state, Dice(seed))
            drawn = list(rs.pairs(state, "chits").values())
            if drawn.count("US") == drawn.count("GE"):
                seen.add(rs.bi_side(state))
        assert seen == {attacker}


def test_active_orders_need_sector_initiative_and_a_stalemate_is_reactive_for_both() -> None:
    """5.3.2, 5.4: Active only with sector initiative; Stalemate: Reactive or General."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.marks["chits"] = ["B:US", "C:S"]
    assert rs.legal_orders(state, "allied", "B") == ("active", "general")
    assert rs.legal_orders(state, "german", "B") == ("reactive", "general")
    assert rs.legal_orders(state, "allied", "C") == rs.legal_orders(state, "german", "C") == ("reactive", "general")
    state.phase = "orders"
    bad = {"do": "orders", "side": "german", "orders": {"B": "active", "C": "general"}}
    assert "sector initiative" in (R.refusal(state, bad) or "")


def test_battlefield_initiative_gives_plus_one_mg_on_active_orders() -> None:
    """5.3.3: +1 to MG orders where the battlefield-initiative player declares Active."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.marks.update({"chits": ["B:US", "C:GE"], "cards-allied": ["B:US-01"], "orders-allied": ["B:active"]})
    state.tracks["bi"] = 0
    steps = R._order_steps(state, "allied", "B")
    mg = next(s for s in steps if s["t"] == "mg")
    assert mg["mg"] == 1 + 1  # US-01's active MG is 1
    state.tracks["bi"] = 1
    assert next(s for s in R._order_steps(state, "allied", "B") if s["t"] == "mg")["mg"] == 1


def test_the_non_initiative_player_acts_first_and_movement_mg_keywords_in_order() -> None:
    """5.8: the player without sector initiative first (Stalemate: without battlefield
    initiative, 5.3.2); each does Movement, then MG, then Keywords; combat last (5.9)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.marks.update({"chits": ["B:US", "C:S"], "chooser": ["allied"]})
    state.tracks["bi"] = 1
    assert rs.first_to_act(state, "B") == "german"
    assert rs.first_to_act(state, "C") == "allied"
    state.marks.update({"cards-allied": ["B:US-01"], "orders-allied": ["B:active"]})
    steps = R._order_steps(state, "allied", "B")
    assert [s["t"] for s in steps] == ["move", "mg", "kw", "kw"]
    R._activate(state, "B")
    assert [s["t"] for s in rs.queue(state)] == ["reveal", "order", "order", "combat"]
    assert [s.get("side") for s in rs.queue(state)][1:3] == ["german", "allied"]


def test_activation_alternates_from_the_battlefield_initiative_player() -> None:
    """5.6, 5.10: the BI player picks the first sector; the choice alternates."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.tracks["bi"] = 1
    state.phase = "activate"
    R.begin_phase(state, Dice(1))
    assert R.actor(state) == "german"
    R._activate(state, "C")
    assert state.marks["chooser"] == ["allied"]


# --- movement and refusing orders (5.8, 6.2, 8) -----------------------------------------------------


def test_refusing_an_advance_pins_and_a_pinned_unit_refusing_a_retreat_loses_a_step() -> None:
    """8 REFUSING ORDERS: a pin; if already pinned, a step loss instead (6.2)."""
    state = ground(unit("A", "0820"), unit("B", "1020", status=frozenset({"pinned"})), unit("G", "0810", "german"))
    state.phase = "execute"
    rs.set_queue(state, [{"t": "move", "side": "allied", "sector": "B", "move": "ADV", "hexes": 2, "movers": ["A"]}])
    R._move(state, {"do": "stay", "piece": "A"})
    assert at(state, "A").has("pinned") and at(state, "A").steps == 4
    rs.set_queue(state, [{"t": "move", "side": "allied", "sector": "B", "move": "RET", "hexes": 1, "movers": ["B"]}])
    R._move(state, {"do": "stay", "piece": "B"})
    assert at(state, "B").has("pinned") and at(state, "B").steps == 3


def test_a_pinned_unit_need_not_advance_and_a_retreat_removes_its_pin() -> None:
    """5.8 ADV, 6.2: pinned units take no penalty for not advancing; RET removes the pin."""
    state = ground(unit("A", "0820", status=frozenset({"pinned"})), unit("G", "0810", "german"))
    rs.set_queue(state, [{"t": "move", "side": "allied", "sector": "B", "move": "ADV", "hexes": 2, "movers": ["A"]}])
    assert R._move_choices(state, rs.queue(state)[0]) == [{"do": "stay", "piece": "A"}]
    R._move(state, {"do": "stay", "piece": "A"})
    assert at(state, "A").steps == 4
    rs.set_queue(state, [{"t": "move", "side": "allied", "sector": "B", "move": "RET", "hexes": 1, "movers": ["A"]}])
    R._move(state, {"do": "move", "piece": "A", "to": "0821"})
    assert not at(state, "A").has("pinned")


# --- fire and combat (5.8, 6.1, 6.2, 7, 7.1, 7.2, 7.3, 8.1-8.3) ---------------------------------


def test_combat_damage_of_each_unit_adjacent_bonus_and_pinned_halving() -> None:
    """7, 8.1: mortar 0, HQ 1, infantry 1, MG 2 (gun pit 2, A1); +1 next to the enemy
    (6.1); halved when pinned (6.2)."""
    state = ground(
        unit("I", "0820"), unit("M", "0920", kind="machine-gun"), unit("H", "1020", kind="hq"),
        unit("T", "0720", kind="mortar"), unit("P", "0622", kind="machine-gun", status=frozenset({"pinned"})),
        unit("G", "0621", "german"),
    )  # fmt: skip
    cds = {p: cb.unit_cd(state, at(state, p)) for p in ("I", "M", "H", "T", "P")}
    assert cds == {"I": 1, "M": 2, "H": 1, "T": 0, "P": 1.5}


def test_target_priority_costs_one_step_per_unit_and_a_minimum_of_one() -> None:
    """7.1, 8.2: open before defensive; infantry, heavy weapons, HQ; 1 CD a step in the
    open, 2 in woods; one step per unit per source; excess lost; at least one step."""
    state = ground(
        unit("W", "0610", "german"), unit("H", "0820", "german", kind="hq"),
        unit("M", "0920", "german", kind="machine-gun"), unit("I", "1020", "german"), unit("A", "0822"),
    )  # fmt: skip
    targets = [at(state, x) for x in ("W", "H", "M", "I")]
    assert cb.allocate(state, targets, 1) == ["I"]
    assert cb.allocate(state, targets, 3) == ["I", "M", "H"]
    assert cb.allocate(state, targets, 9) == ["I", "M", "H", "W"]  # one each; the rest is lost
    assert cb.allocate(state, [at(state, "W")], 1) == ["W"]  # 2 CD in woods, yet one step (8.2)
    assert cb.allocate(state, targets, 0) == []


def test_four_step_and_three_step_ladders() -> None:
    """7.2, 8.2: US and German assault: falter, flip, falter, destroyed; German
    defensive and French: flip, falter, destroyed."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"), unit("F", "1020", nation="french"))
    faces = []
    for _ in range(3):
        cb.lose_steps(state, "A", 1, "german", [])
        faces.append(cb.face(at(state, "A")))
    assert faces == ["full+falter", "reduced", "reduced+falter"]
    cb.lose_steps(state, "A", 1, "german", [])
    assert state.where("A") == "dead"
    cb.lose_steps(state, "G", 1, "allied", [])
    assert cb.face(at(state, "G")) == "reduced"
    cb.lose_steps(state, "G", 1, "allied", [])
    assert cb.face(at(state, "G")) == "reduced+falter"
    cb.lose_steps(state, "F", 3, "german", [])
    assert state.where("F") == "dead" and state.marks["dead-allied"] == ["A", "F"]


def test_each_step_moves_the_initiative_track_toward_the_side_inflicting_it() -> None:
    """7.2, 8.3 (G12): one space per step inflicted; the track stops at its ends (G2)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    cb.lose_steps(state, "G", 2, "allied", [])
    assert state.track("initiative") == 2
    cb.lose_steps(state, "A", 3, "german", [])
    assert state.track("initiative") == -1
    state.tracks["initiative"] = 10
    cb.lose_steps(state, "G", 1, "allied", [])
    assert state.track("initiative") == 10


def test_mg_fire_hits_by_priority_with_a_minimum_of_one_step() -> None:
    """5.8 EXECUTE MG ACTION: CD on enemy units seen by a friendly unit in the sector;
    in woods 1 CD is not a step, yet one step is inflicted."""
    state = ground(unit("A", "0612"), unit("G", "0611", "german"))
    lines = drain(state, [{"t": "mg", "side": "allied", "sector": "B", "mg": 1}])
    assert at(state, "G").steps == 2 and "MG 1" in lines[0]


def test_combat_is_simultaneous_and_the_reactive_side_applies_first() -> None:
    """7, 8.1, 8.3: both sides' CD is fixed before either applies; both lose steps even
    if one would be destroyed first; the reactive player's damage is applied first."""
    state = ground(unit("A", "0820", steps=1), unit("G", "0821", "german", steps=1))
    state.marks.update({"chits": ["B:US", "C:S"], "combats": ['{"side": "allied", "x": 1}'], "active": ["B"]})
    lines = drain(state, [{"t": "combat", "sector": "B"}])
    assert state.where("A") == "dead" and state.where("G") == "dead"
    assert "german: 2 CD on 1 unit(s) in range and sight (7.1, 8.2)" in lines
    assert "allied: 2 CD on 1 unit(s) in range and sight (7.1, 8.2)" in lines
    dead = [line for line in lines if "destroyed" in line]
    assert dead[0].startswith("A ") and dead[1].startswith("G ")  # the reactive (German) damage first
    assert state.marks["done"] == ["B"]


def test_dual_combats_resolve_the_active_players_first() -> None:
    """7.3: two Combat X in one sector: the Active player's first."""
    state = ground(unit("A", "0820"), unit("G", "0821", "german"))
    state.marks.update({"chits": ["B:GE", "C:S"], "active": ["B"],
                        "combats": ['{"side": "allied", "x": 1}', '{"side": "german", "x": 2}']})  # fmt: skip
    lines = drain(state, [{"t": "combat", "sector": "B"}])
    starts = [line for line in lines if line.startswith("combat")]
    assert starts == ["combat 2 in sector B, started by german (7)", "combat 1 in sector B, started by allied (7)"]


# --- mortars and reinforcements (5.5, 5.11) -----------------------------------------------------


def test_mortars_fire_two_to_five_hexes_and_pin_or_damage_friend_or_foe() -> None:
    """5.5: targets 2-5 hexes away; a HIT pins the unit there, or costs a pinned unit a step."""
    state = ground(
        unit("T", "0822", kind="mortar"), unit("N", "0821", "german"), unit("G", "0819", "german"),
        unit("F", "0817", "german"), unit("X", "1416", "german", status=frozenset({"pinned"})),
    )  # fmt: skip
    state.phase = "mortar"
    R.begin_phase(state, Dice(1))
    offered = {a["at"] for a in R.choices(state, "allied")}
    assert offered == {"0819", "0817", ""}  # 0821 is 1 away, 1416 more than 5 (5.5)
    state.decks["allied"] = Deck(["US-01"])  # US-01: deviation HIT
    R._mortar(state, {"do": "mortar", "piece": "T", "at": "0819"}, Dice(1))
    assert at(state, "G").has("pinned")
    state.marks["mortars"] = ["T"]
    state.decks["allied"] = Deck(["US-01"])
    R._mortar(state, {"do": "mortar", "piece": "T", "at": "0819"}, Dice(1))
    assert at(state, "G").steps == 2


def test_reorganization_rounds_german_up_by_three_and_us_down_by_two() -> None:
    """5.11 REORGANIZATION: Germans ceil(dead/3), Americans floor(dead/2) this turn;
    infantry only, reduced, next to the regiment's HQ."""
    state = ground(unit("HQ", "0820", kind="hq"), unit("GHQ", "1410", "german", kind="hq"),
                   *(unit(f"A{i}", f"{6 + i:02d}18") for i in range(3)),
                   *(unit(f"G{i}", f"{12 + i:02d}06", "german") for i in range(4)))  # fmt: skip
    for i in range(3):
        cb.lose_steps(state, f"A{i}", 4, "german", [])
    for i in range(4):
        cb.lose_steps(state, f"G{i}", 3, "allied", [])
    reinforce(state)
    back = {p.id for p in cb.units(state)}
    assert len(back & {"A0", "A1", "A2"}) == 1  # floor(3 / 2)
    assert len(back & {"G0", "G1", "G2", "G3"}) == 2  # ceil(4 / 3)
    returned = next(p for p in cb.units(state) if p.id in {"A0", "A1", "A2"})
    assert cb.face(returned) == "reduced" and cb.distance(returned.hex, at(state, "HQ").hex) == 1


def test_no_reorganization_without_an_hq() -> None:
    """4 HQ UNITS, 5.11: regiments without HQ may not reconstitute."""
    state = ground(unit("A0", "0818"), unit("A1", "0918"), unit("G", "0810", "german"))
    cb.lose_steps(state, "A0", 4, "german", [])
    cb.lose_steps(state, "A1", 4, "german", [])
    reinforce(state)
    assert state.where("A0") == state.where("A1") == "dead"


def test_each_side_picks_which_dead_infantry_it_reconstitutes() -> None:
    """5.11 REORGANIZATION: "select the appropriate number of units from those in the
    Dead Pool": the side picks which (or fewer); only infantry is offered (no MG)."""
    state = ground(unit("HQ", "0820", kind="hq"), unit("A0", "0618"), unit("A1", "0718"),
                   unit("M", "0918", kind="machine-gun"), unit("G", "0810", "german"))  # fmt: skip
    for ident in ("A0", "A1", "M"):
        cb.lose_steps(state, ident, 4, "german", [])
    offered: list[list[str]] = []

    def pick(choices: list[dict[str, Any]]) -> dict[str, Any]:
        offered.append(list(dict.fromkeys(c["piece"] for c in choices)))
        return next(c for c in choices if c["piece"] == "A1")

    reinforce(state, pick)
    assert offered == [["A0", "A1", ""]]  # floor(3 / 2) = 1 unit; the MG is not offered
    assert state.where("A1") is None and state.where("A0") == "dead"


def reinforce(state: GameState, pick: Any = None) -> list[str]:
    """Step 11 (5.11) as the game plays it; ``pick(choices)`` makes each player choice
    (default: the first offered)."""
    state.phase = "reinforce"
    lines = R.apply(state, {"do": "reinforce"}, Dice(1))
    while rs.queue(state):
        action = R.proposal(state)
        if action is None:
            offered = R.choices(state, str(R.actor(state)))
            action = pick(offered) if pick else offered[0]
        lines += R.apply(state, action, Dice(1))
    return lines


def test_fresh_usmc_troops_one_point_per_regiment_not_next_to_the_enemy() -> None:
    """5.11 FRESH USMC TROOPS: 12 points a game, one per USMC regiment a turn, never
    on a unit next to the enemy; the unit returns to full strength. The US player
    picks the unit, or saves the point (P7)."""
    state = ground(unit("A", "0820", steps=2), unit("B", "0920", steps=1), unit("C", "0811", steps=1),
                   unit("G", "0810", "german"))  # fmt: skip
    assert state.track("usmc-points") == 12
    offered: list[list[str]] = []

    def pick(choices: list[dict[str, Any]]) -> dict[str, Any]:
        offered.append([c["piece"] for c in choices])
        return next(c for c in choices if c["piece"] == "A")

    reinforce(state, pick)
    assert offered == [["A", "B", ""]]  # C is next to the enemy; one regiment, one point
    assert at(state, "A").steps == 4 and at(state, "B").steps == 1 and at(state, "C").steps == 1
    assert state.track("usmc-points") == 11


def test_the_bot_spends_a_usmc_point_on_the_most_damaged_unit() -> None:
    """5.11, P7: the planner restores the unit with fewest steps left."""
    from tabletop.games.devil_dogs.bots import PlannerBot

    state = ground(unit("A", "0820", steps=2), unit("B", "0920", steps=1), unit("G", "0810", "german"))
    state.phase = "reinforce"
    R.apply(state, {"do": "reinforce"}, Dice(1))
    view = SimpleNamespace(state=state, side="allied", choices=R.choices(state, "allied"))
    assert PlannerBot().choose(view) == {"do": "replace", "piece": "B"}  # type: ignore[arg-type]


def test_reinforcements_arrive_within_five_of_the_entry_and_not_within_three_of_an_enemy() -> None:
    """5.11 DEPLOY SCENARIO REINFORCEMENTS: the owner places each arriving unit (G13) on
    a free hex within 5 of the entry and more than 3 from every enemy."""
    state = ground(unit("A", "0820"), unit("G", "0920", "german"), **{"allied-entry": (BOARD.hex_of("0922"),)})
    state.boxes["turn-2"] = [unit("R", "0101")]
    offered: list[str] = []

    def pick(choices: list[dict[str, Any]]) -> dict[str, Any]:
        offered.extend(c["to"] for c in choices)
        return choices[-1]

    reinforce(state, pick)
    assert len(offered) > 3
    for label in offered:
        h = BOARD.hex_of(label)
        assert cb.distance(h, BOARD.hex_of("0922")) <= 5 and cb.distance(h, BOARD.hex_of("0920")) > 3
    assert BOARD.label(at(state, "R").hex) == offered[-1]


def test_a_reinforcement_with_no_legal_hex_waits_a_turn() -> None:
    """5.11 (G13, project's choice): with no free hex within 5 of the entry and more
    than 3 from every enemy, the arriving unit waits for the next turn."""
    from tabletop.games.devil_dogs.keywords import COMPASS_VECTORS
    from tabletop.hexgrid import Hex

    entry = BOARD.hex_of("1015")
    foes = [entry] + [Hex(entry.q + 4 * v.q, entry.r + 4 * v.r) for v in COMPASS_VECTORS.values()]
    pieces = [unit(f"G{i}", BOARD.label(h), "german") for i, h in enumerate(foes) if BOARD.grid.contains(h)]
    state = ground(unit("A", "0820"), *pieces, **{"allied-entry": (entry,)})
    state.boxes["turn-2"] = [unit("R", "0101")]
    assert R.entry_spots(state, "allied") == []
    lines = reinforce(state)
    assert "R finds no room to enter and waits (5.11)" in lines and state.where("R") == "turn-3"


# --- victory (G5, the project's choice) --------------------------------------------------------------


def test_victory_counts_objectives_last_held_and_the_enemy_dead() -> None:
    """G5 (rules.yaml, project's choice): 2 VP an objective last occupied, 1 per enemy
    unit in the dead pool (2 for an HQ); ties go to the defender."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"), unit("H", "1410", "german", kind="hq"),
                   objectives=(BOARD.hex_of("0820"), BOARD.hex_of("1515")))  # fmt: skip
    assert rs.victory_points(state) == {"allied": 0, "german": 4}  # the defender holds both at first
    R._hold_objectives(state)
    cb.lose_steps(state, "H", 3, "allied", [])
    assert rs.victory_points(state) == {"allied": 2 + 2, "german": 2}
    state.tracks["over"] = 1
    assert R.outcome(state) == "allied wins (Allied 4 VP, German 2 VP, G5)"
    state.map.place(replace(unit("X", "1515"), id="X"))
    R._hold_objectives(state)
    assert R.outcome(state).startswith("allied wins")


def test_a_side_with_no_unit_on_the_map_loses() -> None:
    """G5 (project's choice): sudden defeat when a side has no unit left."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german", steps=1))
    cb.lose_steps(state, "G", 1, "allied", [])
    assert R.outcome(state) == "allied wins (german has no unit on the map)"


def test_a_mortar_destroyed_by_an_earlier_mortar_does_not_fire() -> None:
    """5.5: every mortar on the map fires; one destroyed by an earlier chit (friend or
    foe, pinned twice) is in the dead pool and is skipped (sim seeds 14 and 58 found it)."""
    state = ground(unit("T", "0822", kind="mortar"), unit("M", "0818", "german", kind="mortar", steps=1,
                                                          status=frozenset({"pinned"})))  # fmt: skip
    state.phase = "mortar"
    state.tracks["bi"] = 0
    R.begin_phase(state, Dice(1))
    assert state.marks["mortars"] == ["T", "M"]
    state.decks["allied"] = Deck(["US-01"])  # HIT
    R._mortar(state, {"do": "mortar", "piece": "T", "at": "0818"}, Dice(1))
    assert state.where("M") == "dead" and "mortars" not in state.marks
    assert R.actor(state) == "auto" and R.proposal(state) == {"do": "gas-drift"}


def test_the_rules_own_steps_offer_no_choices_to_auto() -> None:
    """The window asks the choices of "auto" at an automatic step (its override list):
    none, in every phase (found playing in the window: the mortar phase raised)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    for phase in ("draw", "initiative", "mortar", "activate", "execute", "reinforce"):
        state.phase = phase
        assert R.choices(state, "auto") == []


def test_line_of_sight_keeps_its_direction_a_slope_sees_out_but_not_in() -> None:
    """7.1: a slope crossed blocks unless it is nearer the firer, so 0608 sees 0307 while
    0307 does not see 0608 (slope 0508 halfway); asking one way first must not answer
    the other (the sight cache once did, and combat targets followed the order asked)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    a, b = BOARD.hex_of("0608"), BOARD.hex_of("0307")
    assert cb.sees(state.map, a, b) is True
    assert cb.sees(state.map, b, a) is False


def test_a_sector_once_activated_is_not_offered_again_before_it_is_carried_out() -> None:
    """5.6: one activation, then the sector is carried out; the next chooser picks only
    after it (found playing in the window: the other side could activate it again)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.tracks["bi"] = 0
    state.phase = "activate"
    R.begin_phase(state, Dice(1))
    R.apply(state, {"do": "activate", "sector": "C"}, Dice(1))
    assert R.actor(state) == "auto" and R.choices(state, "german") == []
    assert R.refusal(state, {"do": "activate", "sector": "C"}) is not None
    assert R.proposal(state) == {"do": "end-phase"}
