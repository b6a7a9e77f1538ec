"""D-Day at Omaha Beach: fields of fire and the line-of-sight policy for US ranged fire.

Fields of fire are drawn by the project's own default (tabletop/games/omaha/fields.yaml:
the rules summary gives no rule for them, the printed map shows them); the line-of-sight
findings carry the summary's sections ("omaha 6.2" in the comments is section 6.2 of
dday_at_omaha_beach_summary.txt, cited in findings as "D-Day at Omaha Beach 6.2").
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import small_map

from tabletop.board import Map, load_map
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import los_policy
from tabletop.games.omaha import field_at, fields_of_fire
from tabletop.games.omaha.fields import (
    INTENSITIES,
    FieldsConfig,
    default_config,
    fields,
    fields_of_fire_exact,
    read_config,
)
from tabletop.games.omaha.los import OmahaPolicy
from tabletop.hexgrid import Hex, distance, neighbors
from tabletop.yamlfile import DataError

LEVELS = {"^": 2, "%": 2, "v": 1}  # terrain symbol -> elevation on the small maps; others 0


def omaha_map(
    rows: str, regions: dict[str, tuple[str, list[str]]], climb: str | None = None, orientation: str = "flat"
) -> Map:
    """A small Omaha-like map: "." beach, "v" draw, "^" high ground, "%" bocage, "~" sea;
    draw at level 1, high ground and bocage at level 2. ``climb`` puts that hexside
    feature (bluff, ...) on every side between hexes of different levels. ``regions``:
    key -> (kind, labels)."""
    lines = [r.split() for r in rows.strip().splitlines()]
    terrain_rows = "".join(f"  {' '.join(r)}\n" for r in lines)
    level_rows = "".join("    " + " ".join(str(LEVELS.get(s, 0)) for s in r) + "\n" for r in lines)
    region_lines = "".join(
        f"  {k}: {{kind: {kind}, hexes: [{', '.join(repr(h) for h in hexes)}]}}\n"
        for k, (kind, hexes) in regions.items()
    )
    text = f"""
name: test omaha
rules: omaha
grid: {{orientation: {orientation}, columns: {len(lines[0])}, rows: {len(lines)}}}
terrain:
  sea: {{symbol: "~", colour: "#2f5f8a"}}
  beach: {{symbol: ".", colour: "#e6d59a"}}
  high-ground: {{symbol: "^", colour: "#a8bf6a"}}
  bocage: {{symbol: "%", colour: "#3f6e34"}}
  draw: {{symbol: "v", colour: "#b7a26a"}}
rows: |
{terrain_rows}elevation:
  default: 0
  rows: |
{level_rows}regions:
{region_lines}"""
    board = small_map(text)
    if climb is None:
        return board
    sides = sorted(
        {
            "/".join(sorted((board.label(a), board.label(b))))
            for a in board.grid.hexes()
            for b in neighbors(a)
            if board.grid.contains(b) and board.elevation[a] > board.elevation[b]
        }
    )
    between = ", ".join(f'"{s}"' for s in sides)
    return small_map(text + f'hexsides:\n  {climb}: {{colour: "#6b4226", between: [{between}]}}\n')


def wn(*labels: str) -> tuple[str, list[str]]:
    return ("german-position", list(labels))


def los(state: MapState, a: str, b: str, viewer: Piece | None = None) -> LosResult:
    m = state.board
    return line_of_sight(state, los_policy(state), LosQuery(m.hex_of(a), m.hex_of(b), viewer=viewer))


def labelled(board: Map, field: dict[Hex, str]) -> dict[str, str]:
    return {board.label(h): v for h, v in field.items()}


# An open beach, 13 x 11; the tests put the position at 0703, in the middle column.
OPEN = "\n".join([" ".join(["."] * 13)] * 11)


@pytest.fixture(scope="module")
def omaha() -> Map:
    return load_map("omaha")


# ---------------------------------------------------------------- fields: the bands


def test_fields_on_open_beach_have_the_data_bands_by_hex_range_inside_the_cone() -> None:
    # fields.yaml (project's choice): intense/steady/sporadic by hex range, a cone facing
    # the beach (here straight down the map), all round within `all_round`.
    cfg = default_config()
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    src = board.hex_of("0703")
    layout = board.grid.layout()
    sy = layout.center(src)[1]
    expected = {}
    for h in board.grid.hexes():
        d = distance(src, h)
        in_cone = layout.center(h)[1] >= sy - 1e-9 or d <= cfg.all_round  # 180 degrees, facing down
        if 1 <= d <= cfg.bands[2] and in_cone:
            expected[h] = INTENSITIES[next(i for i, top in enumerate(cfg.bands) if d <= top)]
    assert cfg.arc == 180 and cfg.bands == (2, 4, 6)
    assert fields_of_fire(board) == {"wn-1": expected}


def test_straight_down_the_beach_the_bands_step_intense_steady_sporadic_then_stop() -> None:
    # fields.yaml (project's choice): intense 1-2, steady 3-4, sporadic 5-6.
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    field = labelled(board, fields_of_fire(board)["wn-1"])
    down = [field.get(f"07{row:02d}") for row in range(4, 11)]
    assert down == ["intense", "intense", "steady", "steady", "sporadic", "sporadic", None]


def test_the_field_covers_the_adjacent_hex_behind_the_position_but_no_further() -> None:
    # fields.yaml (project's choice): all round within 1 hex; the cone faces the beach.
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    field = labelled(board, fields_of_fire(board)["wn-1"])
    assert field.get("0702") == "intense"
    assert "0701" not in field
    assert "0703" not in field  # a position's own hex is not in its field


def test_changing_the_bands_in_the_data_changes_the_field() -> None:
    # fields.yaml is data: other figures draw other fields.
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    cfg = replace(default_config(), bands=(1, 2, 3))
    field = labelled(board, fields_of_fire(board, config=cfg)["wn-1"])
    assert [field.get(f"07{row:02d}") for row in range(4, 8)] == ["intense", "steady", "sporadic", None]


def test_a_two_hex_position_gives_each_hex_the_strongest_band_of_its_hexes() -> None:
    # fields.yaml: each hex of a position projects; the strongest intensity counts.
    board = omaha_map(OPEN, {"wn-2": wn("0403", "1003")})
    field = labelled(board, fields_of_fire(board)["wn-2"])
    assert field["0405"] == "intense" and field["1005"] == "intense"  # 2 below either hex
    assert field["0705"] == "steady"  # 3 or more from both


def test_per_position_overrides_add_remove_and_face_a_hex() -> None:
    # fields.yaml `positions:` (project's choice of format).
    text = (
        (default_config_text())
        + """
  wn-1:
    toward: "0701"
    arc: 60
    remove: ["0702"]
    add: {"1311": sporadic}
"""
    )
    cfg = read_config(text, "test-fields.yaml")
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    field = labelled(board, fields_of_fire(board, config=cfg)["wn-1"])
    assert "0702" not in field and field["1311"] == "sporadic"
    assert field["0701"] == "intense"  # facing up now
    assert "0705" not in field  # no longer facing the beach


def default_config_text() -> str:
    from importlib import resources

    return resources.files("tabletop.games.omaha").joinpath("fields.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("bands:\n  intense: 4\n  steady: 3\n  sporadic: 6\n", "intense <= steady <= sporadic"),
        ("arc: 400\n", "at most 360"),
        ("all_round: -1\n", "0 or more"),
        ("colour: red\n", "unknown key 'colour'"),
    ],
)
def test_a_wrong_fields_file_is_refused_naming_the_line(change: str, message: str) -> None:
    # fields.yaml (the project's data format; STYLE: errors name the file and line).
    text = default_config_text()
    key = change.split(":")[0]
    lines = [line for line in text.splitlines() if not line.startswith(f"{key}:")]
    if key == "bands":
        lines = [line for line in lines if not line.startswith(("  intense:", "  steady:", "  sporadic:"))]
    with pytest.raises(DataError, match=message) as err:
        read_config("\n".join(lines) + "\n" + change, "bad.yaml")
    assert err.value.line is not None and err.value.path == "bad.yaml"


def test_an_override_naming_a_hex_off_the_map_is_refused_with_its_line() -> None:
    # fields.yaml `positions:` overrides name hexes of the map they are used with.
    cfg = read_config(default_config_text() + '  wn-1:\n    remove: ["9999"]\n', "f.yaml")
    board = omaha_map(OPEN, {"wn-1": wn("0703")})
    with pytest.raises(DataError, match="9999 is not on the map"):
        fields_of_fire(board, config=cfg)


# --------------------------------------------------------------- fields: the ground

CLIFF = """
^ ^ ^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^ ^ ^
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("climb", ["bluff", "scaleable-cliff", "sheer-cliff"])
def test_a_field_does_not_climb_a_bluff_or_cliff_hexside(climb: str) -> None:
    # fields.yaml masking.climb (project's choice): no field crosses one going up. All
    # round (arc 360) so that the cone does not hide the high ground anyway.
    cfg = replace(default_config(), arc=360.0)
    regions = {"wn-low": wn("0504")}
    open_side = labelled(
        omaha_map(CLIFF, regions), fields_of_fire(omaha_map(CLIFF, regions), config=cfg)["wn-low"]
    )
    board = omaha_map(CLIFF, regions, climb=climb)
    walled = labelled(board, fields_of_fire(board, config=cfg)["wn-low"])
    above = {label for label in open_side if board.terrain[board.hex_of(label)] == "high-ground"}
    assert "0503" in above  # without the hexside the field runs up onto the high ground
    assert not above & set(walled)
    assert {k: v for k, v in open_side.items() if k not in above} == walled  # the beach is untouched


def test_a_line_through_a_corner_of_the_bluff_line_climbs_it_too() -> None:
    # fields.yaml masking.climb (project's choice): the engine reads a line through a
    # corner as crossing no hexside; passing between two bluff hexsides from below both
    # still climbs the bluff. 0504 -> 0402 runs through the corner 0504/0503/0403.
    cfg = replace(default_config(), arc=360.0)
    regions = {"wn-low": wn("0504")}
    board = omaha_map(CLIFF, regions, climb="bluff")
    assert not board.hexside_features(board.hex_of("0403"), board.hex_of("0503"))
    assert "0402" in labelled(
        omaha_map(CLIFF, regions), fields_of_fire(omaha_map(CLIFF, regions), config=cfg)["wn-low"]
    )
    assert "0402" not in labelled(board, fields_of_fire(board, config=cfg)["wn-low"])
    # omaha 9.8: the same corner counts for fire across the bluff, up and down.
    state = MapState.of(board)
    for a, b, way in (("0504", "0402", "up"), ("0402", "0504", "down")):
        (mod,) = los(state, a, b).modifiers
        assert mod.rule == "D-Day at Omaha Beach 9.8" and f"at a corner ({way})" in mod.cause


def test_a_line_along_the_foot_of_the_bluff_only_touches_its_corners() -> None:
    # fields.yaml masking.climb: touching the bluff line from below is not crossing it.
    board = omaha_map(CLIFF, {"wn-low": wn("0104")}, climb="bluff")
    assert labelled(board, fields_of_fire(board)["wn-low"])["0704"] == "sporadic"
    assert not los(MapState.of(board), "0104", "0904").modifiers


def test_a_field_goes_down_a_bluff_onto_the_beach() -> None:
    # fields.yaml masking.climb: only going up is limited.
    board = omaha_map(CLIFF, {"wn-top": wn("0503")}, climb="bluff")
    field = labelled(board, fields_of_fire(board)["wn-top"])
    assert field["0504"] == "intense" and field["0505"] == "intense" and field["0506"] == "steady"


RIDGE = """
. . . ^ . . .
. . . . . . .
. . . . . . .
. . . ^ . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_high_ground_nearer_a_beach_hex_hides_it_from_a_position_on_high_ground() -> None:
    # fields.yaml masking.crest (project's choice): dead ground behind a crest.
    board = omaha_map(RIDGE, {"wn-1": wn("0401")})
    field = labelled(board, fields_of_fire(board)["wn-1"])
    assert field["0403"] == "intense"  # in front of the crest hex
    assert field["0404"] == "steady"  # the crest hex itself, level with the position
    assert "0405" not in field and "0406" not in field and "0407" not in field  # behind it
    flat = omaha_map(RIDGE.replace("^", "."), {"wn-1": wn("0401")})
    assert {"0405", "0406", "0407"} <= set(labelled(flat, fields_of_fire(flat)["wn-1"]))


EDGE = """
. . . ^ . . .
. . . ^ . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_a_position_sees_down_past_the_high_ground_around_it_but_not_right_behind_it() -> None:
    # fields.yaml masking.crest: a crest hex hides only ground at least as near to it as
    # the position is.
    board = omaha_map(EDGE, {"wn-1": wn("0401")})
    field = labelled(board, fields_of_fire(board)["wn-1"])
    assert "0403" not in field  # right behind the crest hex, as near it as the position
    assert field["0404"] == "steady" and field["0405"] == "steady"


def test_bocage_screens_a_field_but_is_itself_covered() -> None:
    # fields.yaml masking.screen (project's choice): hedgerows stop a field.
    board = omaha_map(
        """
        . . . . . . .
        . . . . . . .
        . . . % . . .
        . . . . . . .
        . . . . . . .
        """,
        {"wn-1": wn("0401")},
    )
    field = labelled(board, fields_of_fire(board)["wn-1"])
    assert field["0403"] == "intense" and "0404" not in field and "0405" not in field


def random_map(seed: int, orientation: str) -> Map:
    rnd = random.Random(seed)
    symbols = "..v^^%"
    rows = "\n".join(" ".join(rnd.choice(symbols) for _ in range(15)) for _ in range(12))
    lines = rows.splitlines()
    spots = [(c, r) for r, line in enumerate(lines) for c, s in enumerate(line.split())]
    picks = rnd.sample(spots, 5)
    regions = {f"wn-{i}": wn(f"{c + 1:02d}{r + 1:02d}") for i, (c, r) in enumerate(picks[:4])}
    regions["reinforcement-1"] = ("reinforcement-position", [f"{picks[4][0] + 1:02d}{picks[4][1] + 1:02d}"])
    return omaha_map(rows, regions, climb=rnd.choice(["bluff", "sheer-cliff"]), orientation=orientation)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("seed", range(5))
def test_the_shapely_areas_agree_with_the_exact_traversal_on_rough_ground(
    seed: int, orientation: str
) -> None:
    # The vectorised fields (cones, balls and shadows matched against hex centres) equal
    # the same rules applied along each exact centre-to-centre traversal, grazes included.
    board = random_map(seed, orientation)
    cfg = replace(default_config(), arc=150.0)
    assert fields_of_fire(board, config=cfg) == fields_of_fire_exact(board, config=cfg)


# ------------------------------------------------------------ fields: the shipped map


def test_the_shapely_areas_agree_with_the_exact_traversal_on_the_shipped_map(omaha: Map) -> None:
    # fields.yaml (project's choice) on maps/omaha.yaml, both ways of computing it.
    assert fields_of_fire(omaha) == fields_of_fire_exact(omaha)


def test_every_german_position_on_the_shipped_map_projects_a_field(omaha: Map) -> None:
    # omaha 3, 4: every WN position fires at US units in its field of fire.
    f = fields_of_fire(omaha)
    positions = [k for k, r in omaha.regions.items() if r.kind == "german-position"]
    assert len(positions) == 12
    assert all(f[k] for k in positions), [k for k in positions if not f[k]]


def test_positions_near_the_beach_reach_the_beach(omaha: Map) -> None:
    # omaha 6.2: only a position projecting into a beach hex may be fired at; the WNs
    # overlooking the beach must (fields.yaml reach 6).
    f = fields_of_fire(omaha)
    beach = {h for h in omaha.grid.hexes() if omaha.terrain[h] == "beach"}
    near = [
        k
        for k, r in omaha.regions.items()
        if r.kind == "german-position" and min(distance(a, b) for a in r.hexes for b in beach) <= 2
    ]
    assert len(near) >= 10
    missing = [k for k in near if not beach & set(f[k])]
    assert not missing


def test_every_field_hex_on_the_shipped_map_is_in_sight_of_its_position(omaha: Map) -> None:
    # The project's choice: fields and line of sight share the same ground rules.
    state = MapState.of(omaha)
    policy = OmahaPolicy()
    for key, field in fields_of_fire(omaha).items():
        for h in field:
            sources = omaha.regions[key].hexes
            assert any(line_of_sight(state, policy, LosQuery(s, h)).result != "blocked" for s in sources), (
                key,
                omaha.label(h),
            )


def test_field_at_lists_the_positions_covering_a_hex_strongest_first(omaha: Map) -> None:
    # omaha 4 target priority: intense, then steady, then sporadic hexes.
    f = fields_of_fire(omaha)
    h = omaha.hex_of("2412")
    at = field_at(omaha, h)
    assert at and set(at) == {(k, v[h]) for k, v in f.items() if h in v}
    ranks = [INTENSITIES.index(i) for _, i in at]
    assert ranks == sorted(ranks)
    with pytest.raises(ValueError, match="not a hex on the map"):
        field_at(omaha, Hex(-40, 0))


def test_fields_are_computed_once_per_map_and_handed_out_as_copies(omaha: Map) -> None:
    # omaha 3, 4, 6, 7, 8 all ask for fields of fire: computed once per map.
    assert fields(omaha) is fields(omaha)
    first = fields_of_fire(omaha)
    first["wn-60"].clear()
    assert fields_of_fire(omaha)["wn-60"]


# ----------------------------------------------------------- line of sight: the rules

HIGH_POSITIONS = """
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
^ ^ ^ ^ ^ ^ ^
. . . . . . .
. . . . . . .
~ ~ ~ ~ ~ ~ ~
"""


@pytest.fixture(scope="module")
def heights() -> MapState:
    # wn-edge overlooks the beach; wn-back is 8 hexes inland, out of reach of the beach.
    return MapState.of(
        omaha_map(HIGH_POSITIONS, {"wn-edge": wn("0409"), "wn-back": wn("0401")}, climb="bluff")
    )


def test_a_high_ground_position_with_beach_in_its_field_can_be_fired_at(heights: MapState) -> None:
    # omaha 6.2: ranged fire to a high ground position is possible if it projects a field
    # of fire into at least 1 beach hex.
    board = heights.board
    assert any(board.terrain[h] == "beach" for h in fields_of_fire(board)["wn-edge"])
    result = los(heights, "0411", "0409")
    assert result.result == "clear"
    assert not [f for f in (*result.blocking, *result.modifiers) if f.rule.endswith("6.2, 6.4")]


def test_a_high_ground_position_without_beach_in_its_field_cannot_be_fired_at(heights: MapState) -> None:
    # omaha 6.2 (and 6.4, artillery barrage): no beach hex in its field, no ranged fire.
    board = heights.board
    assert fields_of_fire(board)["wn-back"]
    assert not any(board.terrain[h] == "beach" for h in fields_of_fire(board)["wn-back"])
    result = los(heights, "0403", "0401")
    assert result.result == "blocked"
    (block,) = result.blocking
    assert block.rule == "D-Day at Omaha Beach 6.2, 6.4"
    assert "no field of fire into a beach hex" in block.cause
    assert block.hex == board.hex_of("0401") and block.at == 1.0


def test_from_an_adjacent_hex_the_high_ground_rule_is_a_modifier_not_a_block(heights: MapState) -> None:
    # omaha 6.2: an attack needs an adjacent infantry; only ranged support is barred.
    result = los(heights, "0402", "0401")
    assert result.result == "clear"
    assert [f.rule for f in result.modifiers] == ["D-Day at Omaha Beach 6.2, 6.4"]


def test_the_high_ground_rule_is_not_applied_to_german_fire(heights: MapState) -> None:
    # omaha 6.2 is a rule of US attacks.
    german = Piece("g", "infantry", heights.board.hex_of("0403"), side="german")
    assert los(heights, "0403", "0401", viewer=german).result == "clear"


def test_on_the_shipped_map_an_inland_high_ground_position_cannot_be_fired_at(omaha: Map) -> None:
    # omaha 6.2: reinforcement position 5 (2407) sees no beach; WN 70 (2410) does.
    state = MapState.of(omaha)
    assert [f.rule for f in los(state, "2409", "2407").blocking] == ["D-Day at Omaha Beach 6.2, 6.4"]
    assert los(state, "2413", "2410").result == "clear"


def test_fire_across_a_bluff_counts_ranged_weapons_only(heights: MapState) -> None:
    # omaha 9.8: "ranged from dist or across bluff/cliff hexside": BR - BZ - MG - MO - RD.
    result = los(heights, "0411", "0409")
    (mod,) = result.modifiers
    assert mod.rule == "D-Day at Omaha Beach 9.8" and mod.hex is None
    assert "bluff" in mod.cause and "(up)" in mod.cause and "BR BZ MG MO RD" in mod.cause
    assert 0.0 < mod.at < 1.0
    assert not los(heights, "0410", "0710").modifiers  # along the beach: no bluff crossed


def test_an_adjacent_line_up_a_bluff_or_a_cliff_is_no_attack(heights: MapState) -> None:
    # omaha 9.6: Bluff up, Scaleable Cliff, Sheer Cliff: attack prohibited.
    result = los(heights, "0410", "0409")
    assert result.result == "clear"
    assert sorted(f.rule for f in result.modifiers) == [
        "D-Day at Omaha Beach 9.6",
        "D-Day at Omaha Beach 9.8",
    ]
    assert any("no attack across a bluff hexside up" in f.cause for f in result.modifiers)


def test_an_adjacent_line_down_a_bluff_is_an_attack_as_across_a_slope(heights: MapState) -> None:
    # omaha 6.2: a US unit can attack from the top of a bluff, as across a slope hexside.
    result = los(heights, "0409", "0410")
    assert "D-Day at Omaha Beach 6.2, 9.6" in [f.rule for f in result.modifiers]


def test_a_sheer_cliff_is_named_in_the_finding_on_the_shipped_map(omaha: Map) -> None:
    # omaha 9.8: across a cliff hexside, ranged weapons only.
    state = MapState.of(omaha)
    result = los(state, "3413", "3412")
    assert any("sheer cliff" in f.cause and f.rule == "D-Day at Omaha Beach 9.8" for f in result.modifiers)


def test_high_ground_between_hides_the_beach_and_bocage_blocks(omaha: Map) -> None:
    # Project's choice (fields.yaml masking): the ground that limits fields also blocks.
    state = MapState.of(omaha)
    result = los(state, "3212", "3512")
    assert result.result == "blocked" and result.blocking[0].hex == omaha.hex_of("3312")
    assert "project's choice" in result.blocking[0].rule
    inland = los(state, "0201", "0203")  # through the bocage at 0202
    assert omaha.terrain[omaha.hex_of("0202")] == "bocage"
    assert inland.result == "blocked" and inland.blocking[0].cause == "bocage screens the line"


def test_units_do_not_block_the_line(heights: MapState) -> None:
    # Project's choice: the text has no rule that units block line of sight.
    state = MapState.of(heights.board, [Piece("u", "infantry", heights.board.hex_of("0410"), side="us")])
    assert los(state, "0411", "0409").result == "clear"


def test_the_registry_gives_the_omaha_policy_for_the_omaha_map(omaha: Map) -> None:
    # maps/omaha.yaml says `rules: omaha`; its descriptor (tabletop.games.omaha.RULES) maps it here.
    policy = los_policy(MapState.of(omaha))
    assert isinstance(policy, OmahaPolicy)
    assert policy.name == "D-Day at Omaha Beach" and policy.grazing == "never"
    assert isinstance(policy.config, FieldsConfig)
