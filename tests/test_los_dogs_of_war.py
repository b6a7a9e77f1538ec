"""Dogs of War line of sight: facing, models in the way, smoke, darkness, cover, and the
10-inch priority targets. Each test names the rule text's heading it checks; "project's
choice" marks a reading of our own where the text is silent (see los.yaml).

Most boards are small: a column of a flat-top map is a straight line of hexes (label
0301, 0302, ... run down it one inch apart), so a range is a row difference.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import small_map

from tabletop.board import Map, load_map
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import los_policy
from tabletop.games.dogs_of_war import DogsOfWarPolicy, priority_targets
from tabletop.games.dogs_of_war.los import DATA_FILE, default_table, load_table
from tabletop.hexgrid import DIAGONALS, DIRECTIONS, Hex
from tabletop.yamlfile import DataError

GROUND = """\
name: Dogs of War test ground
rules: dogs_of_war
grid: {{orientation: flat, offset: odd-q, columns: {columns}, rows: {rows}}}
terrain:
  open:  {{symbol: ".", colour: "#b8c27f", name: Open ground, properties: {{kind: open, cover: none}}}}
  house: {{symbol: "s", colour: "#a9a295", name: Stone house,
          properties: {{kind: building, structure: stone, levels: 1, cover: hard}}}}
  tower: {{symbol: "S", colour: "#8a8377", name: Stone tower,
          properties: {{kind: building, structure: stone, levels: 3, cover: hard}}}}
  trees: {{symbol: "T", colour: "#3d6b34", name: Trees, properties: {{kind: trees, cover: soft}}}}
  rubble: {{symbol: "%", colour: "#9e7f7f", name: Rubble, properties: {{kind: rubble, cover: hard}}}}
default_terrain: open
"""


def board(columns: int = 5, rows: int = 15, extra: str = "") -> Map:
    return small_map(GROUND.format(columns=columns, rows=rows) + extra)


def unit(pid: str, m: Map, label: str, side: str | None = "red", **kw: object) -> Piece:
    return Piece(pid, "rifleman", m.hex_of(label), side=side, **kw)  # type: ignore[arg-type]


def smoke(pid: str, m: Map, label: str) -> Piece:
    return Piece(pid, "smoke", m.hex_of(label), kind="marker")


def look(
    state: MapState,
    viewer: Piece | str,
    target: Piece | str,
    conditions: frozenset[str] = frozenset(),
    policy: DogsOfWarPolicy | None = None,
) -> LosResult:
    """Line of sight between two pieces (or bare labels)."""
    m = state.board
    v = viewer if isinstance(viewer, Piece) else None
    t = target if isinstance(target, Piece) else None
    src = v.hex if v else m.hex_of(viewer)  # type: ignore[arg-type]
    dst = t.hex if t else m.hex_of(target)  # type: ignore[arg-type]
    query = LosQuery(src, dst, viewer=v, target_piece=t, conditions=conditions)
    return line_of_sight(state, policy or DogsOfWarPolicy(), query)


def causes(findings: tuple) -> list[str]:  # type: ignore[type-arg]
    return [f.cause for f in findings]


# --- facing --------------------------------------------------------------------------


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("toward", range(6))
def test_a_model_sees_ninety_degrees_either_side_of_its_facing_and_not_behind(
    facing: int, toward: int
) -> None:
    # Dogs of War: Model Placement/Facing - 90 degrees to his left and to his right.
    m = board(13, 13)
    centre = m.hex_of("0707")
    target = centre + DIRECTIONS[toward].scale(3)
    viewer = Piece("v", "rifleman", centre, side="red", facing=facing)
    state = MapState.of(m, [viewer])
    r = line_of_sight(state, DogsOfWarPolicy(), LosQuery(centre, target, viewer=viewer))
    off = (toward - facing) % 6  # in sixths of a turn: 0 ahead, 1 and 5 at 60 degrees
    if off in (0, 1, 5):
        assert r.result == "clear"
    else:  # 120 or 180 degrees off
        assert r.result == "blocked"
        assert causes(r.blocking) == ["outside the front arc"]
        assert r.blocking[0].rule == "Dogs of War: Model Placement/Facing"


@pytest.mark.parametrize("facing", range(6))
def test_a_target_exactly_ninety_degrees_off_the_facing_is_seen(facing: int) -> None:
    # Dogs of War: Model Placement/Facing. Project's choice: the 90-degree line itself is
    # inside the arc (facing.edge_seen); the diagonal between two hexsides lies on it.
    m = board(13, 13)
    centre = m.hex_of("0707")
    viewer = Piece("v", "rifleman", centre, facing=facing)
    state = MapState.of(m, [viewer])
    left, right = DIAGONALS[(facing + 1) % 6], DIAGONALS[(facing - 2) % 6]  # +90, -90 degrees
    behind = DIAGONALS[(facing + 2) % 6]  # 150 degrees off
    strict = DogsOfWarPolicy(replace(default_table(), edge_seen=False))
    for edge in (left, right):
        q = LosQuery(centre, centre + edge.scale(2), viewer=viewer)
        assert line_of_sight(state, DogsOfWarPolicy(), q).result == "clear"
        assert line_of_sight(state, strict, q).result == "blocked"
    q = LosQuery(centre, centre + behind.scale(2), viewer=viewer)
    assert line_of_sight(state, DogsOfWarPolicy(), q).result == "blocked"


def test_a_viewer_without_a_facing_sees_all_round() -> None:
    # Dogs of War: Model Placement/Facing - no facing given, no arc to apply.
    m = board(13, 13)
    centre = m.hex_of("0707")
    viewer = Piece("v", "rifleman", centre)
    state = MapState.of(m, [viewer])
    for d in DIRECTIONS:
        q = LosQuery(centre, centre + d.scale(4), viewer=viewer)
        assert line_of_sight(state, DogsOfWarPolicy(), q).result == "clear"


# --- models in the way ---------------------------------------------------------------


def test_a_model_between_blocks_the_line() -> None:
    # Dogs of War: Moving and Shooting Through Models - no shooting through one another.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    friend = unit("c", m, "0304")
    state = MapState.of(m, [firer, target, friend])
    r = look(state, firer, target)
    assert r.result == "blocked"
    assert causes(r.blocking) == ["model c in the way"]
    assert r.blocking[0].rule == "Dogs of War: Moving and Shooting Through Models"
    assert r.blocking[0].hex == m.hex_of("0304")


def test_a_prone_model_between_does_not_block_a_standing_firer() -> None:
    # Dogs of War: Moving and Shooting Through Models - a standing model may shoot over a
    # model that is prone.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target, unit("c", m, "0304", status=frozenset({"prone"}))])
    assert look(state, firer, target).result == "clear"


def test_a_prone_firer_cannot_shoot_over_a_prone_model_at_its_level() -> None:
    # Dogs of War: Moving and Shooting Through Models. Project's choice: the text lets a
    # *standing* model shoot over a prone one; two figures lying flat do not.
    m = board()
    firer = unit("a", m, "0301", status=frozenset({"prone"}))
    target = unit("b", m, "0308", side="blue", status=frozenset({"prone"}))
    state = MapState.of(m, [firer, target, unit("c", m, "0304", status=frozenset({"prone"}))])
    assert look(state, firer, target).result == "blocked"


def test_a_firer_one_level_up_shoots_over_a_model() -> None:
    # Dogs of War: Moving and Shooting Through Models - one inch or more above another
    # model, he may shoot over his head (one level is one inch).
    m = board(extra='elevation: {default: 0, hexes: {"0301": 1}}\n')
    target = unit("b", m, "0308", side="blue")
    blocker = unit("c", m, "0307")  # right in front of the target, where the line is lowest
    firer_up = unit("a", m, "0301")
    state = MapState.of(m, [firer_up, target, blocker])
    assert look(state, firer_up, target).result == "clear"
    # on level ground the same line is blocked by that model
    flat = board()
    state = MapState.of(
        flat, [unit("a", flat, "0301"), unit("b", flat, "0308", side="blue"), unit("c", flat, "0307")]
    )
    assert look(state, state.piece("a"), state.piece("b")).result == "blocked"


def test_a_model_up_a_floor_shoots_over_a_model_one_level_below() -> None:
    # Dogs of War: Moving and Shooting Through Models - the height may come from the
    # piece's own level as well as from the ground.
    m = board()
    firer = unit("a", m, "0301", level=1)
    target = unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target, unit("c", m, "0306")])
    assert look(state, firer, target).result == "clear"


# --- smoke ---------------------------------------------------------------------------


def test_smoke_between_hinders_the_shot_by_three() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - a target beyond smoke: -3 to hit.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target, smoke("s", m, "0304")])
    r = look(state, firer, target)
    assert r.result == "hindered"
    assert [(f.cause, f.amount, f.hex) for f in r.hindrances] == [
        ("smoke between firer and target", 3, m.hex_of("0304"))
    ]
    assert r.hindrances[0].rule == "Dogs of War: Line of Sight (LOS) Checks"
    assert r.hindrance_count == 3


def test_firing_out_of_smoke_hinders_the_shot_by_three() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - the -3 also affects firing out of smoke.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target, smoke("s", m, "0301")])
    r = look(state, firer, target)
    assert r.result == "hindered"
    assert [(f.cause, f.amount) for f in r.hindrances] == [("firing out of smoke", 3)]


def test_a_target_in_smoke_is_hindered_by_three() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - a target in smoke: -3 to hit.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target, smoke("s", m, "0308")])
    assert [(f.cause, f.amount) for f in look(state, firer, target).hindrances] == [("target in smoke", 3)]


def test_smoke_counts_once_per_shot_however_much_the_line_meets() -> None:
    # Dogs of War: Ranged Combat Modifiers - one line, "Smoke Between You and Target -3".
    # Project's choice (smoke.stacks: false); with stacking each smoke hex counts.
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(
        m, [firer, target, smoke("s1", m, "0301"), smoke("s2", m, "0304"), smoke("s3", m, "0305")]
    )
    r = look(state, firer, target)
    assert r.hindrance_count == 3
    assert causes(r.hindrances) == ["firing out of smoke"]  # the first along the line
    stacking = DogsOfWarPolicy(replace(default_table(), smoke_stacks=True))
    assert look(state, firer, target, policy=stacking).hindrance_count == 9


def test_placing_smoke_changes_the_verdict_at_once() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - smoke placed or cleared is read by the
    # very next query (no cached view of what blocks).
    m = board()
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target])
    policy = DogsOfWarPolicy()
    assert look(state, firer, target, policy=policy).result == "clear"
    state.place(smoke("s", m, "0305"))
    assert look(state, firer, target, policy=policy).result == "hindered"
    state.remove("s")
    assert look(state, firer, target, policy=policy).result == "clear"


# --- darkness ------------------------------------------------------------------------

NIGHT = frozenset({"night"})


def test_at_night_a_model_sees_ten_inches_and_no_further() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - darkness limits sight to 10 inches.
    m = board()
    firer = unit("a", m, "0301")
    at_ten, at_eleven = unit("b", m, "0311", side="blue"), unit("c", m, "0312", side="blue")
    near = look(MapState.of(m, [firer, at_ten]), firer, at_ten, NIGHT)
    far_state = MapState.of(m, [firer, at_eleven])
    far = look(far_state, firer, at_eleven, NIGHT)
    assert (near.range, near.result) == (10, "clear")
    assert (far.range, far.result) == (11, "blocked")
    assert causes(far.blocking) == ["darkness: beyond 10 inches"]
    assert far.blocked_at == pytest.approx(10 / 11)
    # by day the same line is clear
    assert look(far_state, firer, at_eleven).result == "clear"


def test_night_vision_lifts_the_darkness_limit_but_costs_to_hit() -> None:
    # Dogs of War: Line of Sight (LOS) Checks (goggles restore sight) and Ranged Combat
    # Modifiers (night over 10 inches -3, within -1, goggles -1).
    m = board()
    firer = unit("a", m, "0301", status=frozenset({"night-vision"}))
    near, far = unit("b", m, "0106", side="blue"), unit("c", m, "0312", side="blue")
    state = MapState.of(m, [firer, near, far])
    r = look(state, firer, far, NIGHT)
    assert r.result == "clear"
    assert sorted((f.cause, f.amount) for f in r.modifiers) == [
        ("-1 to hit: night vision goggles", 1),
        ("-3 to hit: at night, target over 10 inches", 3),
    ]
    assert {f.rule for f in r.modifiers} == {"Dogs of War: Ranged Combat Modifiers"}
    close = look(state, firer, near, NIGHT)
    assert "-1 to hit: at night, target within 10 inches" in causes(close.modifiers)


def test_a_laser_targeter_offsets_the_goggles_penalty() -> None:
    # Dogs of War: Line of Sight (LOS) Checks - a laser targeter offsets the penalty.
    m = board()
    firer = unit("a", m, "0301", status=frozenset({"night-vision", "laser-targeter"}))
    state = MapState.of(m, [firer, unit("b", m, "0306", side="blue")])
    assert causes(look(state, firer, state.piece("b"), NIGHT).modifiers) == [
        "-1 to hit: at night, target within 10 inches"
    ]


# --- buildings, terrain and cover ----------------------------------------------------


def test_a_wall_crossed_between_the_models_calls_for_a_hard_cover_roll() -> None:
    # Dogs of War: Cover Modifier - a brick wall partly in the way: cover roll (hard).
    m = board(
        extra="hexsides:\n"
        '  wall: {colour: "#5b5048", name: Low wall, properties: {cover: hard}, between: ["0306/0307"]}\n'
        '  hedge: {colour: "#2f5a2a", name: Hedge, properties: {cover: soft}, between: ["0303/0304"]}\n'
    )
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target])
    r = look(state, firer, target)
    assert r.result == "clear"  # cover does not block
    assert causes(r.modifiers) == [
        "soft cover: Hedge, cover roll due",
        "hard cover: Low wall, cover roll due",
    ]
    assert {f.rule for f in r.modifiers} == {"Dogs of War: Cover Modifier"}


def test_a_wall_on_the_firers_own_hex_gives_the_target_no_cover() -> None:
    # Dogs of War: Cover Modifier. Project's choice (cover.ignore_firer_hex): the firer
    # fires over his own wall.
    m = board(
        extra='hexsides:\n  wall: {colour: "#5b5048", name: Low wall, properties: {cover: hard}, between: ["0301/0302"]}\n'
    )
    firer, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [firer, target])
    assert look(state, firer, target).modifiers == ()
    # seen the other way round, the wall is right in front of the target: cover
    assert causes(look(state, target, firer).modifiers) == ["hard cover: Low wall, cover roll due"]


def test_a_building_between_blocks_unless_the_line_passes_over_its_roof() -> None:
    # Dogs of War: Obstacle Effects - buildings; heights in levels of one inch.
    m = board(
        extra='hexes: {"0304": house, "0310": tower}\nelevation: {default: 0, hexes: {"0304": 1, "0310": 3}}\n'
    )
    ground, target = unit("a", m, "0301"), unit("b", m, "0308", side="blue")
    state = MapState.of(m, [ground, target])
    r = look(state, ground, target)
    assert r.result == "blocked"
    assert causes(r.blocking) == ["Stone house stands above the line"]
    assert r.blocking[0].rule == "Dogs of War: Obstacle Effects"
    # a model on the tower's roof (level 3 = its levels) sees over the house
    on_roof = unit("c", m, "0310", level=3)
    state.place(on_roof)
    beyond = unit("d", m, "0302", side="blue")
    state.place(beyond)
    assert look(state, on_roof, beyond).result == "clear"


def test_a_model_inside_a_building_is_seen_with_hard_cover_and_one_on_the_roof_without() -> None:
    # Dogs of War: Cover Modifier (a building is hard cover on this map) and Line of Sight
    # (LOS) Checks. Project's choice: a piece's level in a building hex counts floors up
    # from the ground under it, so level 0 is inside and level == levels is the roof.
    m = board(extra='hexes: {"0308": house}\nelevation: {default: 0, hexes: {"0308": 1}}\n')
    firer = unit("a", m, "0301")
    inside, on_roof = unit("b", m, "0308", side="blue"), unit("c", m, "0308", side="blue", level=1)
    state = MapState.of(m, [firer, inside, on_roof])
    r = look(state, firer, inside)
    assert r.result == "clear"
    assert causes(r.modifiers) == ["hard cover: target inside Stone house, cover roll due"]
    assert look(state, firer, on_roof).modifiers == ()


def test_trees_give_soft_cover_and_block_after_two_inches() -> None:
    # Dogs of War: Cover Modifier (shrubs and branches: soft cover) and Obstacle Effects.
    # Project's choice (terrain.trees.see_through: 2): the third hex of trees blocks.
    m = board(extra='hexes: {"0303": trees, "0304": trees, "0305": trees}\n')
    firer = unit("a", m, "0301")
    behind_two, behind_three = unit("b", m, "0305", side="blue"), unit("c", m, "0307", side="blue")
    two = look(MapState.of(m, [firer, behind_two]), firer, behind_two)
    assert two.result == "clear"
    assert causes(two.modifiers) == ["soft cover: Trees, cover roll due"] * 2 + [
        "soft cover: target in Trees, cover roll due"
    ]
    three = look(MapState.of(m, [firer, behind_three]), firer, behind_three)
    assert three.result == "blocked"
    assert causes(three.blocking) == ["more than 2 inches of Trees"]


def test_a_prone_target_is_harder_to_hit_unless_close_or_from_above() -> None:
    # Dogs of War: Prone - -1 to hit a prone target, not within 3 inches nor from a base
    # at least half as high as the distance (4 inches apart, 2 inches up).
    m = board(extra='elevation: {default: 0, hexes: {"0301": 2}}\n')
    prone = frozenset({"prone"})
    target = unit("b", m, "0305", side="blue", status=prone)
    high, low_far, low_near = unit("a", m, "0301"), unit("c", m, "0310"), unit("d", m, "0308")
    state = MapState.of(m, [target, high, low_far, low_near])
    assert causes(look(state, low_far, target).modifiers) == ["-1 to hit: target is prone"]
    assert look(state, low_near, target).modifiers == ()  # within 3 inches
    assert look(state, high, target).modifiers == ()  # 2 inches up, 4 inches away


# --- priority targets ----------------------------------------------------------------


def test_priority_targets_are_the_enemies_within_ten_inches_in_sight() -> None:
    # Dogs of War: Declare Target - enemy models within 10 inches must be targeted first.
    m = board(9, 15, extra='hexes: {"0705": house}\nelevation: {default: 0, hexes: {"0705": 1}}\n')
    shooter = unit("me", m, "0501", side="red")
    pieces = [
        shooter,
        unit("near", m, "0302", side="blue"),
        unit("ten", m, "0511", side="blue"),  # straight down column 5, through smoke
        unit("eleven", m, "0711", side="blue"),
        unit("friend", m, "0303", side="red"),
        unit("hidden", m, "0706", side="blue"),  # behind the house at 0705
        unit("dead", m, "0306", side="blue", status=frozenset({"dead"})),
        smoke("smoke", m, "0508"),
    ]
    state = MapState.of(m, pieces)
    policy = DogsOfWarPolicy()
    assert look(state, shooter, state.piece("hidden")).result == "blocked"
    assert [p.id for p in priority_targets(state, policy, shooter)] == ["near", "ten"]
    # at night without goggles the same rule still reaches 10 inches
    assert [p.id for p in priority_targets(state, policy, shooter, conditions=NIGHT)] == ["near", "ten"]
    # turned away, the shooter sees none of them
    facing_away = replace(shooter, facing=2)  # direction 2 is up the column, off the map
    state.update(facing_away)
    assert priority_targets(state, policy, facing_away) == []


def test_priority_targets_refuse_a_marker() -> None:
    # Dogs of War: Declare Target - only a model fires.
    m = board()
    state = MapState.of(m, [smoke("s", m, "0301")])
    with pytest.raises(ValueError, match="marker"):
        priority_targets(state, DogsOfWarPolicy(), state.piece("s"))


# --- the shipped map, through the registry -------------------------------------------


def test_the_registry_gives_the_dogs_of_war_policy_for_the_shipped_map() -> None:
    # Dogs of War: Obstacle Effects and Model Placement/Facing, on maps/dogs-of-war.yaml.
    m = load_map("dogs-of-war")
    state = MapState.of(m)
    policy = los_policy(state)
    assert isinstance(policy, DogsOfWarPolicy)
    assert policy.grazing == "both"
    # down the main street (column 24): clear, a burnt-out vehicle at 2409 is cover
    street = line_of_sight(state, policy, LosQuery(m.hex_of("2402"), m.hex_of("2412")))
    assert street.result == "clear"
    assert causes(street.modifiers) == ["hard cover: Burnt-out vehicle, cover roll due"]
    # across the concrete headquarters (3014-3418, 3 levels): blocked by it
    across = line_of_sight(state, policy, LosQuery(m.hex_of("2816"), m.hex_of("3616")))
    assert across.result == "blocked"
    assert across.blocking
    assert all(f.cause.startswith("Concrete headquarters (3 levels) stands above") for f in across.blocking)
    # a sentry on its roof facing west sees the street; facing east he does not
    sentry = Piece("sentry", "rifleman", m.hex_of("3016"), side="red", level=3, facing=3)
    state.place(sentry)
    street_hex = m.hex_of("2416")
    assert line_of_sight(state, policy, LosQuery(sentry.hex, street_hex, viewer=sentry)).result == "clear"
    turned = replace(sentry, facing=0)
    state.update(turned)
    r = line_of_sight(state, policy, LosQuery(turned.hex, street_hex, viewer=turned))
    assert causes(r.blocking) == ["outside the front arc"]


# --- the table -----------------------------------------------------------------------


def test_the_shipped_table_loads_and_a_bad_value_names_its_line(tmp_path: Path) -> None:
    # Project's data: los.yaml is checked like the maps are.
    table = load_table(DATA_FILE)
    assert (table.smoke_to_hit, table.night_sight, table.priority_within) == (3, 10, 10)
    bad = tmp_path / "los.yaml"
    text = DATA_FILE.read_text(encoding="utf-8").replace("  to_hit: 3 ", "  to_hit: three ")
    bad.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "to_hit: three" in row)
    with pytest.raises(DataError, match=rf"los\.yaml:{line}: smoke\.to_hit: must be a whole number"):
        load_table(bad)


def test_the_tests_use_a_straight_column_of_hexes() -> None:
    # Geometry the tests above lean on: down a flat-top column is one hex direction.
    m = board()
    assert m.hex_of("0308") - m.hex_of("0301") == Hex(0, 7)


# --- grazing ---------------------------------------------------------------------------


def test_models_on_both_sides_of_a_hexside_run_block_but_one_side_alone_does_not() -> None:
    # Dogs of War: Moving and Shooting Through Models, read with the "both" grazing rule
    # (los.yaml: the project's choice). 0102 -> 0502 runs along the hexsides between
    # 0201/0202 and 0401/0402 without entering them.
    m = board(columns=5, rows=3)
    shooter, target = unit("A", m, "0102", side="blue"), unit("B", m, "0502")
    state = MapState.of(m, [shooter, target, unit("C", m, "0201")])
    assert look(state, shooter, target).result == "clear"
    state.place(unit("D", m, "0202"))
    blocked = look(state, shooter, target)
    assert blocked.result == "blocked" and all(f.grazed for f in blocked.blocking)


def test_a_model_only_touched_at_a_corner_never_blocks() -> None:
    # Dogs of War: Moving and Shooting Through Models; "both" grazing: a corner touch alone
    # never counts. 0101 -> 0205 passes exactly through corners of 0202 and 0104.
    m = board(columns=6, rows=8)
    from tabletop.hexgrid import traverse

    a, b = m.hex_of("0101"), m.hex_of("0205")
    corners = [g.hex for g in traverse(a, b).grazed if g.corner is not None and m.grid.contains(g.hex)]
    assert corners, "this line must touch a hex at a corner"
    shooter, target = unit("A", m, "0101", side="blue"), unit("B", m, "0205")
    pieces = [shooter, target] + [Piece(f"X{i}", "rifleman", h, side="red") for i, h in enumerate(corners)]
    assert look(MapState.of(m, pieces), shooter, target).result == "clear"
