"""Starting a game from a scenario (or a bare map), and loading one from a save.

The scenario gives the map, the fixed pieces, the optional rules and their defaults,
the setup (placements and constraints) and the reinforcements, which wait in boxes
off the map. The game begins in the "setup" phase: setting up is played like the rest
(``setup-place`` by hand, ``setup-solve`` for the solver, ``end-phase`` to begin), so
the log holds it and a replay repeats it. ``auto_setup`` plays the solver and begins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from tabletop.board import Map
from tabletop.hexgrid import Hex
from tabletop.yamlfile import DataError, DataErrors

from . import savefile
from .actions import END_PHASE
from .freeplay_rules import FreePlayRules
from .game import SETUP, Game, Ruleset
from .pieces import MapState, Piece
from .savecheck import shown
from .scenario import Scenario, map_rules_errors, unsatisfiable_error
from .setup import SetupUndecided, Unsatisfiable, check
from .state import GameState, JsonDict


def reinforcement_id(side: str | None, type_key: str, n: int) -> str:
    """"A-infantry-3": the side's initial, the type, a number."""
    return f"{(side or 'x')[0].upper()}-{type_key}-{n}"


def new_game(
    opened: Scenario | Map,
    rules: Ruleset,
    *,
    seed: int,
    options: Mapping[str, object] | None = None,
    history: bool = True,
    on_phase_end: Callable[[Game], None] | None = None,
) -> Game:
    """A game in its setup phase. ValueError for an unknown option or value;
    DataErrors if ``rules`` (given instead of the map's or scenario's own) cannot judge
    the map: its terrain or the regions it needs."""
    _check_rules(opened, rules)
    if isinstance(opened, Map):
        state = GameState(MapState.of(opened), phase=SETUP)
        return Game(rules, state, seed, history=history, on_phase_end=on_phase_end)
    problem = opened.setup_problem(options or {})
    values = {key: (options or {}).get(key, o.default) for key, o in opened.options.items()}
    state = GameState(opened.state(values), phase=SETUP, options=values)
    counts: dict[tuple[str | None, str], int] = {}
    for r in opened.reinforcements:
        box = r.box or f"turn-{r.turn}"
        for i in range(r.count):
            n = counts[(r.side, r.type)] = counts.get((r.side, r.type), 0) + 1
            ident = r.ids[i] if r.ids else reinforcement_id(r.side, r.type, n)
            piece = Piece(ident, r.type, Hex(0, 0), r.side, attributes=r.attributes)
            state.boxes.setdefault(box, []).append(opened.newcomers.full(piece))
    prepare = getattr(rules, "prepare", None)
    if prepare is not None:
        prepare(state, opened)
    game = Game(rules, state, seed, history=history, on_phase_end=on_phase_end, setup=problem)
    game.newcomers = opened.newcomers
    return game


def _check_rules(opened: Scenario | Map, rules: Ruleset) -> None:
    """A rule system chosen over the map's own (--rules) must know the map as well."""
    key = getattr(rules, "name", None)
    if not isinstance(key, str) or key in ("free", opened.rules):
        return
    board = opened.board if isinstance(opened, Scenario) else opened
    problems = map_rules_errors(board, key, ("--rules", None))
    if problems:
        raise DataErrors(problems)


def auto_setup(game: Game) -> None:
    """Let the solver place whatever setup pieces are left, then begin turn 1.
    DataError (at the scenario's line) if no setup exists or the solver cannot find one."""
    if game.state.phase != SETUP:
        return
    problem = game.setup
    if problem is not None and game.refusal({"do": "setup-solve"}) is None:
        where = problem.path or "the scenario"
        try:
            game.play({"do": "setup-solve"})
        except Unsatisfiable as exc:
            raise unsatisfiable_error(where, exc, game.state.options) from None
        except SetupUndecided:
            line = min((p.line for p in problem.placements if p.line), default=None)
            raise DataError(
                where,
                line,
                "the setup solver found no setup within its search limit (not proven impossible); "
                "loosen a constraint, give smaller counts, or set up by hand with --setup manual",
            ) from None
    refused = game.refusal(dict(END_PHASE))
    if refused is not None and problem is not None:  # the fixed pieces break a constraint
        broken = check(game.state.map, problem)
        line = min((v.constraint.line for v in broken if v.constraint.line), default=None)
        raise DataError(
            problem.path or "the scenario", line,
            f"the setup cannot begin: {broken[0].message if broken else refused}; "
            "change the pieces or loosen the constraint",
        )  # fmt: skip
    game.play(dict(END_PHASE))


def load_game(
    path: Path,
    open_source: Callable[[str], Scenario | Map],
    rules_for: Callable[[str | None], Ruleset],
    *,
    on_phase_end: Callable[[Game], None] | None = None,
    scenario: str | None = None,
) -> tuple[Game, str, Scenario | Map]:
    """A saved game, the scenario argument it was started from and that scenario (or
    map) opened; SaveError if the save cannot be read or no longer replays.

    The save names its scenario (a shipped name, or a file in the save's folder); a
    ``scenario`` the player names instead (``play SCENARIO --load SAVE``) is used in its
    place, and must play the save's rules (findings X1, W7a)."""
    data = savefile.read_save(path)
    if scenario is None:
        file, source = savefile.locate_source(path, data["source"])
        try:
            opened = open_source(str(file))
        except (DataError, DataErrors) as exc:
            raise savefile.opening_failed(path, file, exc) from None
    else:
        opened = open_source(scenario)  # the player's own choice: its errors as for `play`
        source = str(Path(scenario).resolve()) if _is_file(scenario) else scenario
    rules = _saved_rules(data, opened, rules_for, path, scenario)
    if isinstance(opened, Scenario):
        try:
            problem = opened.setup_problem(data["initial"]["options"])
        except ValueError as exc:
            fix = f"it was made from {data['source']}: name that scenario instead of {scenario}, or none"
            raise savefile.SaveError(
                f"{path}: the scenario's options changed since: {exc} (initial.options); "
                + (savefile.DAMAGED if scenario is None else fix)
            ) from None
        game = savefile.restore(
            data, opened.board, rules, where=str(path), setup=problem, newcomers=opened.newcomers, named=scenario
        )
    else:
        game = savefile.restore(data, opened, rules, where=str(path), named=scenario)
    game.on_phase_end = on_phase_end
    return game, source, opened


def _saved_rules(
    data: JsonDict,
    opened: Scenario | Map,
    rules_for: Callable[[str | None], Ruleset],
    path: Path,
    named: str | None,
) -> Ruleset:
    """The rule system a checked save names: one this tabletop plays, and its scenario's
    own or free play (any scenario may be played free, ``--rules free``). The phases of
    its log are checked against it before replay (finding T2)."""
    name = data["rules"]
    try:
        rules: Ruleset | None = rules_for(name)
    except DataError:  # a name that is no rule system
        rules = None
    if rules is None or rules.name != name:
        raise savefile.SaveError(
            f"{path}: `rules` is {shown(name)}, not a rule system this tabletop plays (rules); {savefile.DAMAGED}"
        )
    own = rules_for(opened.rules).name
    if name in (own, FreePlayRules.name):
        return rules
    if named is not None:
        raise savefile.SaveError(
            f"{path}: this save was played under the {name} rules, but {named} is played under {own} (rules); "
            f"name the scenario the save was made from ({data['source']}), or load it without naming one"
        )
    raise savefile.SaveError(
        f"{path}: this save was played under the {name} rules, but its scenario {data['source']} is played "
        f"under {own} (rules); the scenario changed since it was saved, or {savefile.DAMAGED}"
    )


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except OSError:  # a name too long for a path
        return False
