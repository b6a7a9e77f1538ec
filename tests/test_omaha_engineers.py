"""D-Day at Omaha Beach part 2, engineer bases (omaha 7 EXT) and Command Posts advancing
(omaha 8 EXT): where a base may stand, 1 a Division, the advance blocked by German
artillery, and the benefits in its range (traffic management, road clearing, shingle
lanes); a CP advances only out of an occupied field of fire."""

from __future__ import annotations

from dataclasses import replace

from omaha_us_helpers import action_phase, german, put

from tabletop.games.omaha import engineers, us_actions
from tabletop.games.omaha.ruleset import step_refusal
from tabletop.hexgrid import distance, neighbors


def _beach(s: object, near: str, most: int = 2) -> str:
    board = s.board  # type: ignore[attr-defined]
    h0 = board.hex_of(near)
    found = sorted((h for h in board.grid.hexes() if s.map.terrain_at(h) == "beach"  # type: ignore[attr-defined]
                    and distance(h, h0) <= most), key=lambda h: (distance(h, h0), board.label(h)))  # fmt: skip
    return board.label(found[0])


def test_a_base_only_in_extended_turns() -> None:
    """omaha 7 EXT: no Engineer Base in a standard turn."""
    g = action_phase(5)
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "0513"})
    assert why is not None and "omaha 7 EXT" in why


def test_a_base_stands_on_a_beach_hex_out_of_occupied_fields() -> None:
    """omaha 7 EXT: a beach hex, not in the field of fire of an occupied or
    in-communication position."""
    g = action_phase(17, "extended")
    s = g.state
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "0505"})
    assert why is not None and "not a beach hex" in why and "omaha 7" in why
    german(s, "A1a", "0310")
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "0312"})
    assert why is not None and "field of fire" in why and "omaha 7" in why
    assert g.refusal({"do": "engineer-base", "division": "1st", "to": "1812"}) is None


def test_one_base_a_division_a_phase_and_it_advances() -> None:
    """omaha 7 EXT: establish or advance 1 base per Division: the 1st and the 29th each
    once a phase; the next phase the base advances (at most 2 hexes, project's choice)."""
    g = action_phase(17, "extended")
    s = g.state
    g.play({"do": "engineer-base", "division": "1st", "to": "1812"})
    assert s.map.piece("engineer-base-1st").hex == s.board.hex_of("1812")
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "1912"})
    assert why is not None and "1 a Division" in why
    assert g.refusal({"do": "engineer-base", "division": "29th", "to": "2212"}) is None
    us_actions.begin(s)
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "2512"})
    assert why is not None and "at most 2" in why
    g.play({"do": "engineer-base", "division": "1st", "to": "1912"})
    assert s.map.piece("engineer-base-1st").hex == s.board.hex_of("1912")


def test_german_artillery_in_the_sector_stops_the_advance_and_traffic() -> None:
    """omaha 7 EXT: no advance and no traffic management after German artillery fire
    in the base's sector."""
    g = action_phase(17, "extended")
    s = g.state
    g.play({"do": "engineer-base", "division": "1st", "to": "1812"})
    put(s, "E-2-16", "1813")
    unit = s.map.piece("E-2-16")
    assert "traffic management" in (us_actions.free_reason(s, unit, "move") or "")
    us_actions.begin(s)
    s.mark(engineers.SHELLED, "east" if s.board.hex_of("1812") in s.board.regions["sector-east"].hexes else "west")
    why = g.refusal({"do": "engineer-base", "division": "1st", "to": "1912"})
    assert why is not None and "artillery" in why and "omaha 7" in why
    assert us_actions.free_reason(s, s.map.piece("E-2-16"), "move") is None


def test_traffic_management_only_from_beach_pavillon_or_draw_in_range() -> None:
    """omaha 7 EXT: a move that begins in a beach, pavillon or draw hex in the base's
    range (2 hexes, gap G10) is free; from further away it costs an action."""
    g = action_phase(17, "extended")
    s = g.state
    g.play({"do": "engineer-base", "division": "1st", "to": "1812"})
    put(s, "E-2-16", "1813")
    put(s, "F-2-16", "1816" if s.board.grid.contains(s.board.hex_of("1816")) else "2312")
    far = s.map.piece("F-2-16")
    assert distance(far.hex, s.board.hex_of("1812")) > 2
    assert us_actions.free_reason(s, far, "move") is None
    before = s.track(us_actions.ACTIONS_LEFT + "east") + s.track(us_actions.ACTIONS_LEFT + "west")
    near = s.map.piece("E-2-16")
    to = next(n for n in neighbors(near.hex) if s.board.grid.contains(n)
              and g.refusal({"do": "move", "unit": "E-2-16", "to": s.board.label(n)}) is None)  # fmt: skip
    g.play({"do": "move", "unit": "E-2-16", "to": s.board.label(to)})
    after = s.track(us_actions.ACTIONS_LEFT + "east") + s.track(us_actions.ACTIONS_LEFT + "west")
    assert after == before


def test_road_clearing_clears_the_mined_roads_in_range() -> None:
    """omaha 7 EXT road clearing: mined roads in the base's range count as cleared (a
    cleared marker; the 9.4 Mined Roads row stops applying)."""
    g = action_phase(17, "extended")
    s = g.state
    mined = next(m for m in s.map.pieces() if m.kind == "marker" and m.type == "mined-road")
    label = s.board.label(mined.hex)
    put(s, "1-A-741", _beach(s, label, 4))
    spot = _beach(s, label, 2)
    g.play({"do": "engineer-base", "division": "1st" if mined.hex in s.board.regions["sector-east"].hexes else "29th",
            "to": spot})  # fmt: skip
    assert any(p.type == "road-cleared" for p in s.map.markers_at(mined.hex))
    assert f"road-cleared-{label}" in {p.id for p in s.map.markers_at(mined.hex)}


def test_obstacle_and_road_clearing_in_one_hex_lay_two_markers() -> None:
    """Issue 18 item 4: a hex with both beach obstacles (omaha 7 clearing) and a mined
    road (omaha 7 EXT road clearing) gets two markers with distinct ids: clearing the
    obstacles neither clears the road nor stops road clearing from marking it."""
    from tabletop.engine.pieces import Piece

    g = action_phase(17, "extended")
    s = g.state
    obstacle = next(m for m in s.map.pieces() if m.kind == "marker" and m.type == "beach-obstacles")
    label = s.board.label(obstacle.hex)
    s.map.place(Piece("mined-test", "mined-road", obstacle.hex, None, kind="marker"))
    g.state.turn = 7  # a clearing band (omaha 7: turns 7-15, 1 hex a sector)
    assert g.refusal({"do": "clear-obstacle", "hex": label}) is None
    g.play({"do": "clear-obstacle", "hex": label})
    ids = {p.id for p in s.map.markers_at(obstacle.hex)}
    assert f"cleared-{label}" in ids and f"road-cleared-{label}" not in ids
    g.state.turn = 17
    engineers.clear_roads(s, obstacle.hex)
    ids = {p.id for p in s.map.markers_at(obstacle.hex)}
    assert {f"cleared-{label}", f"road-cleared-{label}"} <= ids


def test_shingle_lanes_open_shingle_to_every_unit() -> None:
    """omaha 7 EXT shingle lanes: in a base's range a shingle hexside does not impede a
    tank (9.4: others may not cross shingle)."""
    g = action_phase(17, "extended")
    s = g.state
    board = s.board
    pair = next((a, b) for a in sorted(board.grid.hexes(), key=board.label) for b in neighbors(a)
                if board.grid.contains(b) and "shingle" in board.hexside_features(a, b)
                and s.map.terrain_at(a) == "beach" and not s.map.units_at(a) and not s.map.units_at(b))  # fmt: skip
    a, b = pair
    put(s, "1-A-741", board.label(a))
    tank = s.map.piece("1-A-741")
    assert step_refusal(s, tank, b) is not None
    g.play({"do": "engineer-base", "division": "1st" if a in board.regions["sector-east"].hexes else "29th",
            "to": board.label(a)})  # fmt: skip
    assert step_refusal(s, s.map.piece("1-A-741"), b) is None


def test_a_command_post_advances_out_of_occupied_fields_only() -> None:
    """omaha 8 EXT: a CP not in the field of fire of an occupied position may advance
    (one hex, into a hex where a CP may stand: project's choice); in an occupied
    position's field it may not."""
    g = action_phase(17, "extended")
    s = g.state
    put(s, "16-HQ", "0505")
    g.play({"do": "establish-cp", "unit": "16-HQ"})
    us_actions.begin(s)
    assert g.refusal({"do": "advance-cp", "unit": "16-HQ", "to": "0507"}) is not None  # two hexes
    g.play({"do": "advance-cp", "unit": "16-HQ", "to": "0504"})
    cp = s.map.piece("16-HQ")
    assert cp.type == "command-post" and s.board.label(cp.hex) == "0504"
    g2 = action_phase(17, "extended")
    s2 = g2.state
    german(s2, "A1a", "0310")
    put(s2, "16-HQ", "0312")
    s2.map.update(replace(s2.map.piece("16-HQ"), type="command-post"))
    why = g2.refusal({"do": "advance-cp", "unit": "16-HQ", "to": "0412"})
    assert why is not None and "field of fire" in why and "omaha 8" in why


def test_the_extended_choices_offer_bases_and_every_one_is_legal() -> None:
    """The window offers the bases (omaha 7 EXT); each offered one is accepted."""
    g = action_phase(17, "extended")
    offered = [a for a in g.choices("us") if a["do"] in ("engineer-base", "advance-cp")]
    assert {a["division"] for a in offered if a["do"] == "engineer-base"} == {"1st", "29th"}
    for a in offered[:20]:
        assert g.refusal(a) is None, a


def test_the_autoplayer_sets_up_bases_and_command_posts_in_extended_turns() -> None:
    """Issue 18 item 4: in EXT turns the bot establishes a base where its range holds
    US units on the beach (omaha 7), and an HQ with units around it establishes a CP
    (omaha 8)."""
    from tabletop.games.omaha.autoplayer import TacticalBot

    g = action_phase(17, "extended")
    s = g.state
    for uid, label in (("E-2-16", "1813"), ("F-2-16", "1713"), ("16-HQ", "1712"), ("L-3-16", "1812")):
        put(s, uid, label)
    bot = TacticalBot()
    first = bot.choose(g.side_view("us"))
    assert first["do"] == "engineer-base" and first["division"] == "1st"
    g.play(first)
    done = [first["do"]]
    for _ in range(3):
        a = bot.choose(g.side_view("us"))
        done.append(a["do"])
        g.play(a)
    assert "establish-cp" in done
