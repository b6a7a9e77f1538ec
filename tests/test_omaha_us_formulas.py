"""D-Day at Omaha Beach part 2: the section 10 formulas as property tests of the
eligibility functions (issue 18 "done when"). Each test places a tank, an artillery
unit, two infantry units and the leaders at random around a German position and checks
the function against the formula as the text writes it:

- Tank Support: ``Tank.adj(target || atk Inf) or (HQ || Ge).command(Tank || atk Inf)``
- Artillery Support: ``!Arty.adj(target) and HQ.command(Arty && atk Inf)``, with
  ``!Arty.inFoF(Undisrupted) unless Armored``
- Tank Barrage: ``Tank.inFoF(target) or (Undisrupted Inf.inFoF(target) and (HQ ||
  Ge).command(Tank || Inf))``, with Barrage ``!unit.adj(target) and target !=
  Unrevealed Reinforcement`` (and the 9.8 range, 6.2 high ground)
- Artillery Barrage: ``(HQ || CP).command(Arty) and (Arty || same (HQ ||
  CP).command(Undisrupted Inf)).inFoF(target)``

"command" is omaha 6: stacked or adjacent to an HQ or General that has not moved yet
(the project's reading: "adjacent to an attacking infantry" includes stacked with it).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omaha_us_helpers import action_phase, german, put

from tabletop.games.omaha import attacks as atk
from tabletop.games.omaha import german as ger
from tabletop.games.omaha.command import MOVED
from tabletop.hexgrid import Hex, distance

TARGET = "2110"  # wn-68, high ground with a field of fire into the beach
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@cache
def _board() -> tuple[Any, list[str]]:
    g = action_phase(17, "extended")
    s = g.state
    german(s, "A7a", TARGET)
    t = s.board.hex_of(TARGET)
    near = sorted(s.board.label(h) for h in s.board.grid.hexes()
                  if 0 < distance(h, t) <= 7 and s.map.terrain_at(h) not in ("sea",))  # fmt: skip
    for uid, label in (("1-A-741", near[0]), ("62AFA", near[0]), ("7FA", near[0]), ("E-2-16", near[0]),
                       ("F-2-16", near[0]), ("16-HQ", near[0]), ("Gen-Wyman", near[0])):  # fmt: skip
        put(s, uid, label)
    return g, near


hexes = st.sampled_from(_board()[1])


def _place(s: Any, where: dict[str, str], moved: dict[str, bool], disrupted: set[str]) -> None:
    for uid, label in where.items():
        s.map.move(uid, s.board.hex_of(label))
        p = s.map.piece(uid)
        s.map.update(replace(p, status=frozenset({"disrupted"}) if uid in disrupted else frozenset()))
    s.marks[MOVED] = [k for k, v in moved.items() if v]


def _fof(s: Any, h: Hex) -> bool:
    return h in ger.field(s.board, "wn-68")


def _commands(s: Any, leader: str, h: Hex) -> bool:
    p = s.map.piece(leader)
    return not s.marked(MOVED, leader) and distance(p.hex, h) <= 1


def _exposed(s: Any, h: Hex) -> bool:
    return any(ger.active_units(s, k) and h in ger.field(s.board, k) for k in ger.position_keys(s.board))


@SETTINGS
@given(tank=hexes, inf=hexes, hq=hexes, gen=hexes, hq_moved=st.booleans(), gen_moved=st.booleans())
def test_tank_support_formula(tank: str, inf: str, hq: str, gen: str, hq_moved: bool, gen_moved: bool) -> None:
    g, _ = _board()
    s = g.state
    _place(s, {"1-A-741": tank, "E-2-16": inf, "16-HQ": hq, "Gen-Wyman": gen},
           {"16-HQ": hq_moved, "Gen-Wyman": gen_moved}, set())  # fmt: skip
    t, T, Inf = s.board.hex_of(TARGET), s.map.piece("1-A-741"), s.map.piece("E-2-16")
    command = lambda h: _commands(s, "16-HQ", h) or _commands(s, "Gen-Wyman", h)  # noqa: E731
    want = distance(T.hex, t) == 1 or distance(T.hex, Inf.hex) <= 1 or command(T.hex) or command(Inf.hex)
    assert atk.tank_support(s, T, t, [Inf]) == want


@SETTINGS
@given(arty=hexes, inf=hexes, hq=hexes, gen=hexes, hq_moved=st.booleans(), armored=st.booleans())
def test_artillery_support_formula(arty: str, inf: str, hq: str, gen: str, hq_moved: bool, armored: bool) -> None:
    g, _ = _board()
    s = g.state
    uid = "62AFA" if armored else "7FA"
    _place(s, {uid: arty, "E-2-16": inf, "16-HQ": hq, "Gen-Wyman": gen}, {"16-HQ": hq_moved}, set())
    t, A, Inf = s.board.hex_of(TARGET), s.map.piece(uid), s.map.piece("E-2-16")
    want = (distance(A.hex, t) != 1 and (armored or not _exposed(s, A.hex))
            and _commands(s, "16-HQ", A.hex) and _commands(s, "16-HQ", Inf.hex))  # fmt: skip
    assert atk.artillery_support(s, A, t, [Inf]) == want


@SETTINGS
@given(tank=hexes, inf=hexes, hq=hexes, gen=hexes, hq_moved=st.booleans(), inf_disrupted=st.booleans())
def test_tank_barrage_formula(tank: str, inf: str, hq: str, gen: str, hq_moved: bool, inf_disrupted: bool) -> None:
    g, _ = _board()
    s = g.state
    _place(s, {"1-A-741": tank, "E-2-16": inf, "16-HQ": hq, "Gen-Wyman": gen}, {"16-HQ": hq_moved},
           {"E-2-16"} if inf_disrupted else set())  # fmt: skip
    t, T, Inf = s.board.hex_of(TARGET), s.map.piece("1-A-741"), s.map.piece("E-2-16")
    command = lambda h: _commands(s, "16-HQ", h) or _commands(s, "Gen-Wyman", h)  # noqa: E731
    barrage = distance(T.hex, t) != 1 and distance(T.hex, t) <= 5
    want = barrage and (_fof(s, T.hex) or (not inf_disrupted and _fof(s, Inf.hex) and (command(T.hex) or command(Inf.hex))))
    assert atk.tank_barrage(s, T, t) == want


@SETTINGS
@given(arty=hexes, inf=hexes, hq=hexes, hq_moved=st.booleans(), inf_disrupted=st.booleans(), armored=st.booleans())
def test_artillery_barrage_formula(arty: str, inf: str, hq: str, hq_moved: bool, inf_disrupted: bool,
                                   armored: bool) -> None:  # fmt: skip
    g, near = _board()
    s = g.state
    uid = "62AFA" if armored else "7FA"
    _place(s, {uid: arty, "E-2-16": inf, "16-HQ": hq, "Gen-Wyman": near[-1]}, {"16-HQ": hq_moved, "Gen-Wyman": True},
           {"E-2-16"} if inf_disrupted else set())  # fmt: skip
    t, A, Inf = s.board.hex_of(TARGET), s.map.piece(uid), s.map.piece("E-2-16")
    led = _commands(s, "16-HQ", A.hex)
    sees = _fof(s, A.hex) or (not inf_disrupted and _commands(s, "16-HQ", Inf.hex) and _fof(s, Inf.hex))
    want = (distance(A.hex, t) not in (0, 1) and distance(A.hex, t) <= 6 and (armored or not _exposed(s, A.hex))
            and led and sees)  # fmt: skip
    assert atk.artillery_barrage(s, A, t) == want


def test_an_unrevealed_reinforcement_is_never_barraged() -> None:
    """Section 10 Barrage: target != Unrevealed Reinforcement, whatever else holds."""
    g = action_phase(17, "extended")
    s = g.state
    german(s, "T1", "2407", status=("unrevealed",))
    tank = put(s, "1-A-741", "2410")
    assert not atk.barrageable(s, tank, s.board.hex_of("2407"))
    german(s, "T1", "2407")
    assert atk.barrageable(s, tank, s.board.hex_of("2407"))
