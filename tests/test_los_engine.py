"""The rules-agnostic line-of-sight engine: grazing rules, ends, hexsides, live state.

Checked with the free-play policy, whose effects come from the map's own data
(maps/FORMAT.md, `line_of_sight:` and `properties: {los: ...}`).
"""

from __future__ import annotations

import pytest
from helpers import small_map

from tabletop.engine.freeplay import FreePlayPolicy
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.viewshed import viewshed
from tabletop.hexgrid import Hex, traverse


def board(rows: str, grazing: str = "both", extra: str = "") -> MapState:
    lines = [r for r in rows.strip().splitlines()]
    text = (
        f"""
name: t
grid: {{columns: {len(lines[0].split())}, rows: {len(lines)}}}
terrain:
  open: {{symbol: ".", colour: "#aaaaaa"}}
  brush: {{symbol: "b", colour: "#88aa44", properties: {{los: hinder}}}}
  woods: {{symbol: "W", colour: "#00aa00", properties: {{los: block}}}}
rows: |
"""
        + "".join(f"  {r.strip()}\n" for r in lines)
        + f"line_of_sight: {{grazing: {grazing}}}\n"
        + extra
    )
    return MapState.of(small_map(text))


def los(state: MapState, a: str, b: str):  # type: ignore[no-untyped-def]
    m = state.board
    return line_of_sight(state, FreePlayPolicy.for_map(state), LosQuery(m.hex_of(a), m.hex_of(b)))


# 0102 -> 0502 on an odd-q map runs along the hexsides between 0201/0202 and 0401/0402.
RUN = """
. W . . .
. . . . .
. . . . .
"""
RUN_BOTH = """
. W . . .
. W . . .
. . . . .
"""


def test_the_along_hexside_line_really_grazes_those_hexes() -> None:
    m = board(RUN).board
    t = traverse(m.hex_of("0102"), m.hex_of("0502"))
    assert {m.label(g.hex) for g in t.grazed} == {"0201", "0202", "0401", "0402"}
    assert all(g.side is not None for g in t.grazed)


@pytest.mark.parametrize(
    ("grazing", "rows", "verdict"),
    [
        ("both", RUN, "clear"),  # walled on one side only
        ("both", RUN_BOTH, "blocked"),  # walled on both sides
        ("either", RUN, "blocked"),
        ("never", RUN_BOTH, "clear"),
    ],
)
def test_a_line_along_a_hexside_is_read_by_the_grazing_rule(grazing: str, rows: str, verdict: str) -> None:
    r = los(board(rows, grazing), "0102", "0502")
    assert r.result == verdict
    if verdict == "blocked":
        assert r.blocking[0].grazed and r.blocked_at == 1 / 6  # the run spans 1/6 to 1/3


def test_both_sides_walled_by_different_effects_takes_the_weaker() -> None:
    r = los(board(". W . . .\n. b . . .\n. . . . .", "both"), "0102", "0502")
    assert r.result == "hindered" and "on both sides" in r.hindrances[0].cause


def corner_case(state: MapState) -> tuple[str, str, str]:
    """Some on-map line that passes through a corner, with the hex it grazes there."""
    m = state.board
    for a in m.grid.hexes():
        for b in m.grid.hexes():
            for g in traverse(a, b).grazed:
                if g.corner is not None and m.grid.contains(g.hex):
                    return m.label(a), m.label(b), m.label(g.hex)
    raise AssertionError("no corner graze on this map")


@pytest.mark.parametrize(
    ("grazing", "verdict"), [("both", "clear"), ("either", "blocked"), ("never", "clear")]
)
def test_a_line_through_a_corner_is_read_by_the_grazing_rule(grazing: str, verdict: str) -> None:
    empty = board("\n".join([". . . . . ."] * 6), grazing)
    a, b, touched = corner_case(empty)
    rows = [r.split() for r in [". . . . . ."] * 6]
    col, row = empty.board.grid.offset_of(empty.board.hex_of(touched))
    rows[row][col] = "W"
    state = board("\n".join(" ".join(r) for r in rows), grazing)
    assert los(state, a, b).result == verdict


def test_the_firer_and_target_hexes_never_block() -> None:
    state = board("W . W\n. . .")
    assert los(state, "0101", "0301").result == "clear"


def test_blocking_and_hindering_hexes_are_listed_in_order_along_the_line() -> None:
    state = board(".\nb\nW\nW\nb\n.", "both")  # one column: the line 0101-0106 crosses every hex
    r = los(state, "0101", "0106")
    assert r.result == "blocked"
    assert [state.board.label(f.hex) for f in r.blocking] == ["0103", "0104"]
    assert [state.board.label(f.hex) for f in r.hindrances] == ["0102", "0105"]
    assert r.hindered_at == 1 / 10 and r.blocked_at == 3 / 10
    assert r.hindrance_count == 2


def test_a_marker_placed_on_the_map_changes_the_verdict_at_once() -> None:
    state = board(". . . . .\n. . . . .")
    assert los(state, "0101", "0501").result == "clear"
    state.place(Piece("s1", "smoke", state.board.hex_of("0301"), kind="marker"))
    assert los(state, "0101", "0501").result == "hindered"
    state.remove("s1")
    assert los(state, "0101", "0501").result == "clear"


def test_a_hexside_feature_on_the_crossed_hexside_counts() -> None:
    extra = """hexsides:
  wall: {colour: "#555555", between: ["0102/0103"], properties: {los: block}}
"""
    state = board(".\n.\n.\n.", extra=extra)
    assert los(state, "0101", "0102").result == "clear"
    r = los(state, "0101", "0104")
    assert r.result == "blocked" and r.blocking[0].cause == "wall" and r.blocking[0].hex is None


def test_off_map_hexes_the_line_touches_are_empty() -> None:
    state = board(". . .\n. . .")
    m = state.board
    t = traverse(m.hex_of("0101"), m.hex_of("0301"))
    assert any(not m.grid.contains(g.hex) for g in t.grazed)
    assert los(state, "0101", "0301").result == "clear"


def test_an_end_off_the_map_is_refused() -> None:
    state = board(". . .\n. . .")
    with pytest.raises(ValueError, match="not on the map"):
        line_of_sight(state, FreePlayPolicy.for_map(state), LosQuery(Hex(0, 0), Hex(40, 0)))


def test_the_viewshed_agrees_with_single_queries_and_leaves_out_blocked_hexes() -> None:
    state = board(". . . . . .\n. . W . . .\n. . b . . .\n. . . . . .")
    m = state.board
    src = m.hex_of("0102")
    seen = viewshed(state, FreePlayPolicy.for_map(state), src)
    for h in m.grid.hexes():
        verdict = (
            line_of_sight(state, FreePlayPolicy.for_map(state), LosQuery(src, h)).result
            if h != src
            else "clear"
        )
        assert seen.get(h, "blocked") == verdict
    assert m.hex_of("0602") not in seen and m.hex_of("0202") in seen
    assert set(viewshed(state, FreePlayPolicy.for_map(state), src, max_range=1)) == {
        src,
        *(
            h
            for h in m.grid.hexes()
            if h != src and max(abs(h.q - src.q), abs(h.r - src.r), abs(h.q + h.r - src.q - src.r)) == 1
        ),
    }


class _PerHex(FreePlayPolicy):
    """The same policy with the static fast path turned off: asked hex by hex."""

    def static_obstacles(self, state: MapState) -> None:  # type: ignore[override]
        return None

    def static_hexsides(self, state: MapState) -> None:  # type: ignore[override]
        return None


@pytest.mark.parametrize("grazing", ["both", "either", "never"])
def test_the_static_fast_path_gives_the_same_answers_as_asking_hex_by_hex(grazing: str) -> None:
    import random

    rng = random.Random(7)
    rows = "\n".join(" ".join(rng.choice("...bW") for _ in range(9)) for _ in range(8))
    extra = 'hexsides:\n  wall: {colour: "#555555", between: ["0304/0404", "0506/0507"], properties: {los: hinder}}\n'
    state = board(rows, grazing, extra)
    fast, slow = FreePlayPolicy.for_map(state), _PerHex(grazing, {"smoke": "hinder"})
    hexes = state.board.grid.hexes()
    for a in hexes[::5]:
        for b in hexes:
            x = line_of_sight(state, fast, LosQuery(a, b))
            y = line_of_sight(state, slow, LosQuery(a, b))
            assert (x.result, x.blocking, x.hindrances) == (y.result, y.blocking, y.hindrances)


@pytest.mark.parametrize("grazing", ["both", "either", "never"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_vectorised_viewshed_agrees_with_single_queries(grazing: str, seed: int) -> None:
    import random

    from tabletop.engine.viewshed import has_fixed_effects

    rng = random.Random(seed)
    rows = "\n".join(" ".join(rng.choice("....bW") for _ in range(11)) for _ in range(9))
    state = board(rows, grazing)
    policy = FreePlayPolicy.for_map(state)
    assert has_fixed_effects(state, policy)
    m = state.board
    in_woods = [h for h in m.grid.hexes() if m.terrain[h] == "woods"][:3]  # a source's own hex never blocks
    assert in_woods
    for src in m.grid.hexes()[::7] + in_woods:
        seen = viewshed(state, policy, src)
        for h in m.grid.hexes():
            expected = "clear" if h == src else line_of_sight(state, policy, LosQuery(src, h)).result
            assert seen.get(h, "blocked") == expected, (m.label(src), m.label(h))


def test_a_viewshed_after_a_change_of_the_map_state_sees_the_change() -> None:
    state = board(". . . . .\n. . . . .\n. . . . .")
    policy = FreePlayPolicy.for_map(state)
    src = state.board.hex_of("0102")
    before = viewshed(state, policy, src)
    state.place(Piece("s1", "smoke", state.board.hex_of("0302"), kind="marker"))
    after = viewshed(state, policy, src)
    assert before[state.board.hex_of("0502")] == "clear"
    assert after[state.board.hex_of("0502")] == "hindered"
