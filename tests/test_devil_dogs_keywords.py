"""The 21 keywords of Devil Dogs 9, each tested by name as ``keywords.execute`` carries
it out (the ruleset's keyword step). Grounds as in test_devil_dogs_rules.py: rows 18-22
of sector B are open ground; 0609-0611 are woods.
"""

from __future__ import annotations

import json
from typing import Any

from test_devil_dogs_rules import BOARD, R, at, drain, ground, unit

from tabletop.engine.dice import Deck, Dice
from tabletop.engine.state import GameState
from tabletop.games.devil_dogs import combat as cb
from tabletop.games.devil_dogs import keywords as kw
from tabletop.games.devil_dogs.data import KEYWORDS, cards


def step(name: str, x: int = 0, side: str = "allied", sector: str = "B") -> dict[str, Any]:
    return {"t": "kw", "side": side, "sector": sector, "kw": name, "x": x}


def run(state: GameState, s: dict[str, Any], *actions: dict[str, Any], dice: Dice | None = None) -> list[str]:
    """Execute keyword ``s``: its automatic form, or the given choices in turn."""
    lines: list[str] = []
    for action in actions or ({"do": "resolve"},):
        more, _done = kw.execute(state, s, action, dice or Dice(1), [])
        lines += more
    return lines


def test_every_keyword_of_section_9_is_on_some_card() -> None:
    """9, G1: the 21 keywords, each on at least one card of the decks."""
    assert len(KEYWORDS) == 21
    used = {k.name for deck in cards().values() for c in deck for o in (c.active, c.reactive, c.general) for k in o.keywords}
    assert used == set(KEYWORDS)


def test_accurate_fire_two_steps_may_hit_one_unit() -> None:
    """9 ACCURATE FIRE: two step losses in LOS of a friendly unit; both on one unit allowed."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german"))
    s = step("Accurate Fire")
    assert kw.options(state, s)[0] == {"do": "target", "piece": "G"}
    _, done = kw.execute(state, s, {"do": "target", "piece": "G"}, Dice(1), [])
    assert not done
    _, done = kw.execute(state, s, {"do": "target", "piece": "G"}, Dice(1), [])
    assert done and at(state, "G").steps == 1


def test_bayonets_hit_adjacent_enemies_who_retreat_and_the_attacker_follows() -> None:
    """9 BAYONETS: unpinned non-MG units next to the enemy hit it; it retreats a hex;
    an adjacent friend may advance into the space."""
    state = ground(unit("A", "0820"), unit("M", "0720", kind="machine-gun"), unit("G", "0819", "german"))
    drain(state, [step("Bayonets")])  # the first choice offered: the retreat, then A's advance
    assert at(state, "G").steps == 2 and at(state, "G").hex != BOARD.hex_of("0819")
    assert at(state, "A").hex == BOARD.hex_of("0819")


def test_concealment_reduces_the_enemy_combat_range_by_one() -> None:
    """9 CONCEALMENT: combat range -1 (project's reading: the opponent's fire in the sector)."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german"))
    assert cb.fire_plan(state, "B", "german", 2, "german")[1] == ["A"]
    run(state, step("Concealment"))
    assert cb.fire_plan(state, "B", "german", 2, "german") == (0, [])
    assert cb.fire_plan(state, "B", "allied", 2, "german")[1] == ["G"]


def test_combat_x_starts_a_sector_combat_at_range_x() -> None:
    """9 COMBAT X, 5.9: the keyword only records the combat; it is resolved after the keywords."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german"))
    run(state, step("Combat", 2))
    assert [json.loads(c) for c in state.marks["combats"]] == [{"side": "allied", "x": 2}]
    assert at(state, "G").steps == 3


def test_defensive_fire_adds_two_cd_when_the_opponent_started_the_combat() -> None:
    """9 DEFENSIVE FIRE: +2 CD to the defence in a combat the opponent initiated."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german"))
    run(state, step("Defensive Fire"))
    assert cb.fire_plan(state, "B", "allied", 2, "german")[0] == 3
    assert cb.fire_plan(state, "B", "allied", 2, "allied")[0] == 1


def test_entrench_ignores_the_first_x_step_losses_this_turn() -> None:
    """9 ENTRENCH X: from any source."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german"))
    run(state, step("Entrench", 2))
    cb.lose_steps(state, "A", 3, "german", [])
    assert at(state, "A").steps == 3


def test_audacity_restores_a_unit_to_full_strength_and_removes_its_tokens() -> None:
    """9 AUDACITY."""
    state = ground(unit("A", "0820", steps=1, status=frozenset({"pinned"})), unit("G", "0810", "german"))
    run(state, step("Audacity"), {"do": "target", "piece": "A"})
    assert at(state, "A").steps == 4 and not at(state, "A").has("pinned")


def test_hesitation_cuts_enemy_movement_by_two_to_a_minimum_of_one() -> None:
    """9 HESITATION (A7: movement still to come in that sector this turn)."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    run(state, step("Hesitation", side="german"))
    from tabletop.games.devil_dogs.ruleset import budget

    assert budget(state, "B", "allied", 3) == 1 and budget(state, "B", "allied", 1) == 1
    assert budget(state, "C", "allied", 3) == 3 and budget(state, "B", "german", 3) == 3


def test_hidden_mgs_cannot_take_combat_damage_unless_adjacent() -> None:
    """9 HIDDEN MG'S: combat damage only; other sources (MG fire, barrages) still hit."""
    state = ground(unit("A", "0820"), unit("M", "0818", "german", kind="machine-gun"))
    run(state, step("Hidden MG's", side="german"))
    assert cb.fire_plan(state, "B", "allied", 2, "allied")[1] == []
    assert cb.mg_targets(state, "B", "allied")[0].id == "M"


def test_leadership_repeats_a_keyword_and_reshuffles_or_is_rally_5() -> None:
    """9 LEADERSHIP: repeat a keyword executed this turn; none yet: Rally 5; then the
    discards go back into the deck."""
    state = ground(unit("A", "0820", status=frozenset({"pinned"})), unit("G", "0810", "german"))
    queue: list[dict[str, Any]] = []
    _lines, done = kw.execute(state, step("Leadership"), {"do": "resolve"}, Dice(1), queue)
    assert done and queue[0]["kw"] == "Rally" and queue[0]["x"] == 5
    state.marks["kw-allied"] = ["Combat 2", "Leadership"]
    assert kw.options(state, step("Leadership")) == [{"do": "repeat", "keyword": "Combat 2"}]
    state.phase = "execute"
    state.decks["allied"].discards = ["US-01"]
    state.decks["allied"].cards.remove("US-01")
    from tabletop.games.devil_dogs import ruleset as rs

    rs.set_queue(state, [step("Leadership")])
    R._keyword(state, {"do": "repeat", "keyword": "Combat 2"}, Dice(1))
    assert rs.queue(state)[0]["kw"] == "Combat" and not state.decks["allied"].discards
    assert "US-01" in state.decks["allied"].cards


def test_misdirection_swaps_a_card_with_the_reserve_or_buries_six_cards() -> None:
    """9 MISDIRECTION."""
    state = ground(unit("A", "0820"), unit("G", "0810", "german"))
    state.marks["cards-german"] = ["B:GE-01", "C:GE-02"]
    state.hands["german"] = ["GE-03"]
    assert {"do": "misdirect", "sector": "C"} in kw.options(state, step("Misdirection"))
    run(state, step("Misdirection"), {"do": "misdirect", "sector": "C"}, {"do": "misdirect", "swap": True})
    assert state.marks["cards-german"] == ["B:GE-01", "C:GE-03"] and state.hands["german"] == ["GE-02"]
    top = state.decks["german"].cards[:6]
    bury = [{"do": "misdirect", "card": k, "bury": True} for k in range(1, 7)]
    run(state, step("Misdirection"), {"do": "misdirect", "look": True}, *bury)
    assert state.decks["german"].cards[-6:] == top


def test_rally_removes_x_pin_or_falter_tokens() -> None:
    """9 RALLY X."""
    state = ground(unit("A", "0820", steps=3, status=frozenset({"pinned"})), unit("G", "0810", "german"))
    s = step("Rally", 2)
    run(state, s, {"do": "rally", "piece": "A", "token": "pinned"}, {"do": "rally", "piece": "A", "token": "falter"})
    assert at(state, "A").steps == 4 and not at(state, "A").has("pinned")


def test_regroup_clears_units_not_next_to_the_enemy() -> None:
    """9 REGROUP X (A9: X units)."""
    state = ground(unit("A", "0820", steps=3, status=frozenset({"pinned"})),
                   unit("B", "0812", steps=3), unit("G", "0811", "german"))  # fmt: skip
    assert [a.get("piece") for a in kw.options(state, step("Regroup", 2))] == ["A", None]
    run(state, step("Regroup", 2), {"do": "target", "piece": "A"})
    assert at(state, "A").steps == 4 and not at(state, "A").has("pinned")


def test_reinforcement_and_reorganization_speeds_delays_or_reconstitutes() -> None:
    """9 REINFORCEMENT AND REORGANIZATION with 5.11 (A6)."""
    state = ground(unit("HQ", "0820", kind="hq"), unit("A", "0920"), unit("G", "0810", "german"))
    state.boxes["turn-4"] = [unit("R", "0101")]
    state.boxes["turn-3"] = [unit("S", "0101", "german")]
    cb.lose_steps(state, "A", 4, "german", [])
    options = kw.options(state, step("Reinforcement and Reorganization"))
    assert {"do": "reinforce-kw", "speed": 4} in options and {"do": "reinforce-kw", "delay": 3} in options
    run(state, step("Reinforcement and Reorganization"), {"do": "reinforce-kw", "speed": 4})
    assert [p.id for p in state.box("turn-3")] == ["S", "R"]
    spot = next(a for a in kw.options(state, step("Reinforcement and Reorganization")) if "reconstitute" in a)
    assert spot == {"do": "reinforce-kw", "reconstitute": "A", "to": "0720"}  # next to HQ 0820
    run(state, step("Reinforcement and Reorganization"), spot)
    assert cb.face(at(state, "A")) == "reduced" and BOARD.label(at(state, "A").hex) == "0720"


def test_rout_retreats_every_enemy_damaged_or_pinned_this_turn() -> None:
    """9 ROUT!: they retreat, their pins removed."""
    state = ground(unit("A", "0820"), unit("G", "0817", "german"), unit("H", "0611", "german"))
    cb.pin(state, "G", "allied", [], "test")
    drain(state, [step("Rout!")])  # G's owner takes the first hex offered
    assert at(state, "G").hex != BOARD.hex_of("0817") and not at(state, "G").has("pinned")
    assert at(state, "H").hex == BOARD.hex_of("0611")


def test_shell_holes_halve_damage_rounded_up() -> None:
    """9 SHELL HOLES: both sides."""
    state = ground(unit("A", "0919"), unit("M", "1019", kind="machine-gun"), unit("G", "0918", "german"))
    before = cb.fire_plan(state, "B", "allied", 2, "allied")[0]
    run(state, step("Shell Holes", side="german"))
    assert (before, cb.fire_plan(state, "B", "allied", 2, "allied")[0]) == (2, 1)
    assert cb.halved(state, "B", 3) == 2 and cb.halved(state, "C", 3) == 3


def test_sniper_pins_units_within_five_unpinned_first_no_unit_twice() -> None:
    """9 SNIPER X: no LOS, ignores priority; pinned units only once all others are."""
    state = ground(unit("A", "0820"), unit("G", "0818", "german", status=frozenset({"pinned"})),
                   unit("H", "0817", "german"), unit("F", "0805", "german"))  # fmt: skip
    s = step("Sniper", 2)
    assert [a.get("piece") for a in kw.options(state, s)] == ["H", None]
    run(state, s, {"do": "target", "piece": "H"})
    assert at(state, "H").has("pinned")
    assert [a.get("piece") for a in kw.options(state, s)] == ["G", None]


def test_underfed_cannot_destroy_and_hits_each_unit_once() -> None:
    """9 UNDERFED X."""
    state = ground(unit("A", "0820"), unit("G", "0610", "german", steps=2), unit("H", "0810", "german", steps=1))
    s = step("Underfed", 2)
    assert [a.get("piece") for a in kw.options(state, s)] == ["G", None]
    run(state, s, {"do": "target", "piece": "G"})
    assert at(state, "G").steps == 1 and kw.options(state, s) == []


def test_barrage_two_tokens_hit_under_and_next_to_either_and_the_track_caps_at_five() -> None:
    """9 BARRAGE: token 1 deviates on a compass number, token 2 two hexes on; a step to
    every unit under or next to either; the track moves at most 5."""
    around = [BOARD.hex_of("0812"), *cb.neighbors(BOARD.hex_of("0812"))]
    pieces = [unit(f"G{i}", BOARD.label(h), "german") for i, h in enumerate(around)]
    state = ground(unit("A", "0822"), *pieces)
    state.decks["allied"] = Deck(["US-01"])  # HIT: the second token at the player's choice
    s = step("Barrage")
    run(state, s, {"do": "barrage", "at": "0812"})
    assert all(at(state, p.id).steps == 3 for p in pieces)  # nothing lands before the choice
    assert kw.options(state, s) == [{"do": "second", "dir": n} for n in range(1, 7)]  # 9 BARRAGE 3 (P8)
    lines = run(state, s, {"do": "second", "dir": 4})
    hit = [p for p in pieces if cb.units(state) and at(state, p.id).steps < 3]
    assert len(hit) == 7 and state.track("initiative") == 5 and "tokens at 0812, 0814" in " ".join(lines)


def test_sausage_barrage_does_not_deviate_the_first_token() -> None:
    """9 SAUSAGE/RECON'D BARRAGE."""
    state = ground(unit("A", "0822"), unit("G", "0812", "german"))
    state.decks["allied"] = Deck(["US-03"])  # deviation 2
    run(state, step("Sausage/Recon'd Barrage"), {"do": "barrage", "at": "0812"})
    assert at(state, "G").steps == 2
    state2 = ground(unit("A", "0822"), unit("G", "0812", "german"))
    state2.decks["allied"] = Deck(["US-03"])
    run(state2, step("Barrage"), {"do": "barrage", "at": "0812"})
    assert state2.map.piece("G").steps == 2  # deviated one hex: still next to token 1


def test_gas_barrage_token_life_cycle_and_the_limit_of_two() -> None:
    """9 GAS BARRAGE, 5.5 GAS DRIFT (A5): a step and a move away; the token stays, flips
    to #2 and drifts at the next mortar phase, and is removed at the one after; with
    both gas tokens on the map a gas barrage is a regular barrage."""
    state = ground(unit("A", "0822"), unit("G", "0812", "german", status=frozenset({"pinned"})))
    state.decks["german"] = Deck(["GE-01"] * 8)
    state.decks["allied"] = Deck(["US-01"] * 8)
    follow: list[dict[str, Any]] = []
    kw.execute(state, step("Gas Barrage"), {"do": "barrage", "at": "0812"}, Dice(1), follow)
    drain(state, follow)  # G's forced move: its owner takes the first hex offered
    g = at(state, "G")
    assert g.steps == 2 and cb.distance(g.hex, BOARD.hex_of("0812")) > 1 and not g.has("pinned")
    tokens = [p for p in state.map.pieces() if p.kind == "marker"]
    assert [(t.type, BOARD.label(t.hex)) for t in tokens] == [("gas", "0812")]
    kw.gas_drift(state, Dice(1), [])
    assert [p.type for p in state.map.pieces() if p.kind == "marker"] == ["gas-2"]
    kw.gas_drift(state, Dice(1), [])
    assert [p for p in state.map.pieces() if p.kind == "marker"] == []
    run(state, step("Gas Barrage"), {"do": "barrage", "at": "0820"})
    run(state, step("Gas Barrage"), {"do": "barrage", "at": "1520"})
    lines = run(state, step("Gas Barrage"), {"do": "barrage", "at": "0810"})
    assert "a regular barrage instead" in " ".join(lines)
    assert len([p for p in state.map.pieces() if p.kind == "marker"]) == 2


def test_every_keyword_is_tested_here_by_name() -> None:
    """9: one test per keyword (this file's test names)."""
    names = " ".join(n for n in globals() if n.startswith("test_"))
    for k in KEYWORDS:
        word = k.split()[0].split("/")[0].lower().replace("'s", "s").rstrip("!")
        assert word in names, k
