"""D-Day at Omaha Beach 6.2, naval fire and HQ command (issue 18 item 2: naval support
never became available). The rules reading: naval fire supports an attack only if "at
least 1 attacking infantry has a radio or is in command of an HQ" (a tank in command
does not count); the fault found was the autoplayer's: its HQs waited for units to
come next to them and stood 4-6 hexes behind the attacking infantry, so an HQ with no
better neighbouring hex now steps toward a hex up to 4 off that commands clearly more
(front infantry count 4).
"""

from __future__ import annotations

from omaha_us_helpers import action_phase, german, put

from tabletop.engine.game import Game
from tabletop.engine.pieces import Piece
from tabletop.games.omaha import attacks as atk
from tabletop.games.omaha import command
from tabletop.games.omaha.autoplayer import TacticalBot
from tabletop.hexgrid import Hex, distance, neighbors


def _setup() -> tuple[Game, Hex, Piece, Piece]:
    g = action_phase()
    s = g.state
    german(s, "A1a", "0512")
    target = s.board.hex_of("0512")
    inf = put(s, "E-2-16", "0513")
    ring = [n for n in neighbors(target) if s.board.grid.contains(n) and s.map.terrain_at(n) != "sea"]
    tank_hex = next(n for n in ring if distance(n, inf.hex) >= 2)
    tank = put(s, "1-A-741", s.board.label(tank_hex))
    hq_hex = next(n for n in neighbors(tank_hex) if s.board.grid.contains(n) and distance(n, inf.hex) >= 2
                  and n != target and s.map.terrain_at(n) != "sea")  # fmt: skip
    put(s, "16-HQ", s.board.label(hq_hex))
    return g, target, inf, tank


def test_a_tank_in_hq_command_gives_no_naval_fire() -> None:
    """6.2: "at least 1 attacking infantry" in command of an HQ or with a radio; the
    tank in command of 16-HQ does not open naval fire, and the refusal names 6.2."""
    g, target, inf, tank = _setup()
    s = g.state
    assert command.in_command(s, tank, command.HQ_KINDS) and not command.in_command(s, inf, command.HQ_KINDS)
    assert not atk.naval_available(s, target, [inf, tank])
    a = atk.assess(s, target, [inf, tank], naval=True)
    assert a.refused and "6.2" in a.refused


def test_an_infantry_in_hq_command_opens_naval_fire() -> None:
    """6.2: with 16-HQ next to the attacking infantry, naval fire may support (+9 or
    its weapons)."""
    g, target, _, _ = _setup()
    s = g.state
    put(s, "16-HQ", "0514")
    assert command.in_command(s, s.map.piece("E-2-16"), command.HQ_KINDS)
    a = atk.assess(s, target, [s.map.piece("E-2-16")], naval=True)
    assert not a.refused and a.naval


def test_the_autoplayer_steps_a_lagging_hq_toward_the_front() -> None:
    """Issue 18 item 2: an HQ 3+ hexes from infantry next to a German hex, with nobody
    around it, moves one hex closer (its moves come last in the phase, so it commands
    them next phase); once it is next to them it stays."""
    g = action_phase()
    s = g.state
    german(s, "A1a", "0512")
    inf = put(s, "E-2-16", "0513")
    hq = put(s, "16-HQ", "0913")
    before = distance(hq.hex, inf.hex)
    assert 3 <= before <= 4
    a = TacticalBot()._leader_move(s)
    assert a is not None and a["unit"] == "16-HQ"
    assert distance(s.board.hex_of(str(a["to"])), inf.hex) < before
    assert g.refusal(a) is None
    put(s, "16-HQ", "0514")
    a = TacticalBot()._leader_move(s)
    assert a is None or a["unit"] != "16-HQ"
