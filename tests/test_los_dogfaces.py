"""Line of sight and shot modifiers under Dogfaces in Space (Dogfaces V and VI).

Small maps drawn here put one piece of ground between or under a firer and a target;
the last tests use the shipped map, maps/dogfaces.yaml. The test grid is 9 columns by 7
rows, flat-top, odd-q; every line below was chosen by printing its traversal
(``tabletop.hexgrid.traverse``): which hexes it crosses and which it only grazes.
"""

from __future__ import annotations

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import los_policy
from tabletop.games.dogfaces.los import DogfacesPolicy, ShotTable, default_table
from tabletop.hexgrid import traverse

HEADER = """
name: Dogfaces test ground
rules: dogfaces
grid: {orientation: flat, offset: odd-q, columns: 9, rows: 7}
terrain:
  grassland: {symbol: ".", colour: "#9cc46a"}
  forest:    {symbol: "F", colour: "#2c6630"}
  hill:      {symbol: "^", colour: "#a7774a"}
  town:      {symbol: "T", colour: "#b3473a"}
default_terrain: grassland
"""


def ground(hexes: dict[str, str] | None = None, levels: dict[str, int] | None = None) -> MapState:
    """Grassland at level 0 with the given hexes' terrain and levels overridden."""
    text = HEADER
    if hexes:
        text += "hexes: {" + ", ".join(f'"{label}": {kind}' for label, kind in hexes.items()) + "}\n"
    if levels:
        text += "elevation: {hexes: {" + ", ".join(f'"{label}": {n}' for label, n in levels.items()) + "}}\n"
    return MapState.of(small_map(text))


def los(state: MapState, source: str, target: str) -> LosResult:
    board = state.board
    return line_of_sight(state, los_policy(state), LosQuery(board.hex_of(source), board.hex_of(target)))


def blocking(state: MapState, result: LosResult) -> list[str]:
    return [state.board.label(f.hex) for f in result.blocking if f.hex is not None]


def test_the_registry_gives_the_dogfaces_policy_for_a_dogfaces_map() -> None:
    assert isinstance(los_policy(ground()), DogfacesPolicy)


def test_a_shot_of_range_2_through_forest_is_clear() -> None:
    # Dogfaces V (terrain): a shot through forest has its range limited to 2 hexes.
    state = ground({"0402": "forest"})
    result = los(state, "0401", "0403")
    assert result.range == 2
    assert result.result == "clear"


def test_a_shot_of_range_3_through_forest_is_blocked() -> None:
    # Dogfaces V (terrain): beyond 2 hexes, a shot through forest cannot be made.
    state = ground({"0402": "forest"})
    result = los(state, "0401", "0404")
    assert result.range == 3
    assert result.result == "blocked"
    (finding,) = result.blocking
    assert blocking(state, result) == ["0402"]
    assert finding.cause == "passes through forest 0402: range limited to 2"
    assert finding.rule == "Dogfaces V (terrain)"


def test_the_grazing_reading_is_either_side() -> None:
    # Dogfaces V "any portion of a Forest hex": touching counts (project's reading).
    assert DogfacesPolicy().grazing == "either"


def test_a_shot_only_grazing_a_forest_hexside_is_range_limited() -> None:
    # Dogfaces V (terrain): "any portion" - the line 0203-0603 runs along the hexside
    # between forest 0303 and grassland 0304; at range 4 it is blocked.
    state = ground({"0303": "forest"})
    t = traverse(state.board.hex_of("0203"), state.board.hex_of("0603"))
    assert "0303" not in [state.board.label(h) for h in t.crossed]
    assert "0303" in [state.board.label(g.hex) for g in t.grazed if g.side is not None]
    result = los(state, "0203", "0603")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0303"]
    assert result.blocking[0].grazed


def test_a_shot_of_range_2_grazing_forest_is_clear() -> None:
    # Dogfaces V (terrain): the range limit is 2, so the same graze at range 2 is fine.
    state = ground({"0303": "forest"})
    assert los(state, "0203", "0403").result == "clear"


def test_a_shot_through_a_forest_corner_is_range_limited() -> None:
    # Dogfaces V (terrain): "any portion" - the line 0104-0605 touches only a corner of
    # forest 0304; at range 5 it is blocked.
    state = ground({"0304": "forest"})
    t = traverse(state.board.hex_of("0104"), state.board.hex_of("0605"))
    assert "0304" in [state.board.label(g.hex) for g in t.grazed if g.corner is not None]
    result = los(state, "0104", "0605")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0304"]


def test_forest_in_the_firers_or_the_targets_own_hex_does_not_limit_range() -> None:
    # Dogfaces V (terrain): the project's reading - "passes through" means a forest
    # between the two; the ends' own terrain gives the into-hex modifiers instead.
    state = ground({"0401": "forest", "0404": "forest"})
    assert los(state, "0401", "0404").result == "clear"
    assert los(state, "0404", "0401").result == "clear"


def test_hills_towns_and_soldiers_between_never_block() -> None:
    # Dogfaces VI: weapons are omnidirectional, and the text gives no rule by which
    # hills, towns or soldiers stop a shot (the project's choice where it is silent).
    state = ground({"0402": "hill", "0403": "town"}, levels={"0402": 2})
    state.place(Piece("Rocky", "soldier", state.board.hex_of("0404"), side="blue"))
    result = los(state, "0401", "0405")
    assert result.range == 4
    assert result.result == "clear"
    assert result.modifiers == ()


def test_shooting_into_forest_is_minus_one_on_the_attack_roll() -> None:
    # Dogfaces V (terrain table): forest -1 on attack rolls, when shooting into it.
    state = ground({"0403": "forest"})
    result = los(state, "0401", "0403")
    (modifier,) = result.modifiers
    assert modifier.severity == "modifier"
    assert modifier.amount == -1
    assert modifier.cause == "shooting into forest 0403: attack roll -1"
    assert modifier.rule == "Dogfaces V (terrain)"
    assert modifier.hex == state.board.hex_of("0403")
    assert result.result == "clear"


@pytest.mark.parametrize("kind", ["forest", "town", "hill"])
def test_shooting_out_of_forest_town_or_hill_has_no_modifier(kind: str) -> None:
    # Dogfaces V: the combat limits apply only when shooting into such a hex, not out.
    state = ground({"0401": kind}, levels={"0401": 1} if kind == "hill" else None)
    result = los(state, "0401", "0403")
    assert result.modifiers == ()


def test_shooting_into_town_is_minus_one_attack_strength_and_softens_retreat() -> None:
    # Dogfaces V (terrain table): town -1 on attack strength; Retreat 2 becomes Retreat 1.
    state = ground({"0403": "town"})
    (modifier,) = los(state, "0401", "0403").modifiers
    assert modifier.amount == -1
    assert modifier.cause == "shooting into town 0403: attack strength -1; Retreat 2 becomes Retreat 1"


@pytest.mark.parametrize(
    ("firer_level", "hill_level", "modified"),
    [(0, 1, True), (1, 2, True), (1, 1, False), (2, 1, False)],
)
def test_shooting_into_a_hill_is_minus_one_only_from_lower_down(
    firer_level: int, hill_level: int, modified: bool
) -> None:
    # Dogfaces V (terrain table): hill -1 on attack rolls if at a lower height.
    state = ground({"0401": "hill" if firer_level else "grassland", "0403": "hill"},
                   levels={"0401": firer_level, "0403": hill_level})  # fmt: skip
    result = los(state, "0401", "0403")
    assert (result.source_level, result.target_level) == (firer_level, hill_level)
    if modified:
        (modifier,) = result.modifiers
        assert modifier.amount == -1
        assert modifier.cause.endswith("attack roll -1")
        assert f"level {firer_level} into {hill_level}" in modifier.cause
    else:
        assert result.modifiers == ()


def test_a_firer_raised_above_the_hill_by_its_own_level_has_no_hill_modifier() -> None:
    # Dogfaces V (terrain table): height is the firer's, so a query's own levels count.
    state = ground({"0403": "hill"}, levels={"0403": 1})
    board = state.board
    query = LosQuery(board.hex_of("0401"), board.hex_of("0403"), source_level=1)
    assert line_of_sight(state, los_policy(state), query).modifiers == ()


def test_the_shipped_table_names_terrain_keys_of_the_dogfaces_map() -> None:
    # Dogfaces V (terrain table): forest limits range to 2; forest, hill, town modify.
    table = default_table()
    assert table.range_limit == {"forest": 2}
    assert {kind: e.amount for kind, e in table.into_hex.items()} == {"forest": -1, "hill": -1, "town": -1}
    assert table.into_hex["hill"].when_firer_lower
    keys = set(load_map("dogfaces").terrain_types)
    assert set(table.range_limit) | set(table.into_hex) <= keys


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"range_limit": {"forest": 0}}, "range_limit.forest"),
        ({"into_hex": {"town": {"amount": "-1", "applies_to": "attack strength"}}}, "into_hex.town.amount"),
        ({"into_hex": {"town": {"amount": -1}}}, "into_hex.town.applies_to"),
        ({"blocking": ["forest"]}, "unknown keys"),
    ],
)
def test_a_malformed_table_is_refused_naming_the_bad_value(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ShotTable.from_data(data)


def test_on_the_shipped_map_the_forest_at_1507_limits_shots_across_it() -> None:
    # Dogfaces V (terrain): straight down column 15, 1505-1508 crosses forest 1507 at
    # range 3 (blocked); from 1506 the same shot is range 2 (clear).
    m = load_map("dogfaces")
    state = MapState.of(m)
    assert m.terrain[m.hex_of("1507")] == "forest"
    far = los(state, "1505", "1508")
    assert far.result == "blocked"
    assert blocking(state, far) == ["1507"]
    assert far.blocking[0].cause == "passes through forest 1507: range limited to 2"
    assert los(state, "1506", "1508").result == "clear"


def test_on_the_shipped_map_shots_into_the_north_town_and_up_the_hill_are_modified() -> None:
    # Dogfaces V (terrain table): into town 1005 from the grassland; into hill 1702
    # (level 1) from level 0; hill 1904 to hill 1803, both level 2, is not modified.
    m = load_map("dogfaces")
    state = MapState.of(m)
    (town,) = los(state, "1002", "1005").modifiers
    assert town.cause == "shooting into town 1005: attack strength -1; Retreat 2 becomes Retreat 1"
    (hill,) = los(state, "1401", "1702").modifiers
    assert hill.cause == "shooting into hill 1702 from lower down (level 0 into 1): attack roll -1"
    assert los(state, "1904", "1803").modifiers == ()
