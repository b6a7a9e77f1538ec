"""The `tabletop` command line: one subcommand a job, JSON for tools, clear errors.

Errors go to stderr as ``file:line: what is wrong; how to fix it`` with exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tabletop import __version__, limits
from tabletop.atomicfile import WriteError, check_target, write_atomic
from tabletop.board import Map, load_map
from tabletop.board.blank import blank_map_yaml
from tabletop.board.export import map_to_json
from tabletop.engine.counters import is_counters_data, load_counters
from tabletop.engine.los import LosPolicy, LosQuery, LosResult, line_of_sight
from tabletop.engine.movement import must_stop_overlay, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import (
    Scenario,
    is_scenario_data,
    load_scenario,
    open_map_or_scenario,
    setup_errors,
)
from tabletop.engine.viewshed import viewshed
from tabletop.games import los_policy, move_policy, rule_system, rules_problem
from tabletop.hexgrid import Hex, LabelError
from tabletop.inputfile import NotAFile, read_bounded
from tabletop.yamlfile import DataError, DataErrors, one_line, read_yaml

EXIT_BAD_INPUT = 2
DEFAULT_SCENARIO = "dog-sector"


class CliError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


_open = open_map_or_scenario


def _open_map(source: str) -> Map:
    opened = _open(source)
    return opened.board if isinstance(opened, Scenario) else opened


def _shown(text: str, most: int = 60) -> str:
    """An argument quoted for a message, cut short if long (a 5000-character path)."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text)} characters)"


def _unit_ids(state: MapState) -> list[str]:
    return [str(p.id) for p in state.pieces() if p.kind == "unit"]


def _units_hint(state: MapState) -> str:
    ids = _unit_ids(state)
    listed = ", ".join(ids[:12]) + (f" and {len(ids) - 12} more" if len(ids) > 12 else "")
    return listed or "none"


def locate(state: MapState, text: str, what: str, source: str | None = None) -> tuple[Hex, Piece | None]:
    """A FROM/TO argument: a hex label on the map, or a unit id in the scenario.

    CliError naming ``source`` (the scenario or map file the units come from) when it is
    neither; an all-digit text is taken as a label and gets the label's own problem."""
    try:
        return state.board.hex_of(text), None
    except LabelError as exc:
        for p in state.pieces():
            if p.id == text and p.kind == "unit":
                return p.hex, p
        if not _unit_ids(state) or (text.isascii() and text.isdigit()):
            raise CliError(f"{what} {_shown(text)}: {exc}") from None
        where = f"{source}: " if source else ""
        example = state.board.label(next(iter(state.board.terrain)))
        raise CliError(
            f"{where}{what}: no unit {_shown(text)} here (units: {_units_hint(state)}); "
            f"give a unit id or a hex label like {example}"
        ) from None


def find_unit(state: MapState, text: str, what: str, source: str) -> Piece:
    """A unit argument (reach UNIT, render --reach): CliError naming ``source`` if absent."""
    for p in state.pieces():
        if p.id == text and p.kind == "unit":
            return p
    if not _unit_ids(state):
        raise CliError(f"{source}: {what} {_shown(text)}: no units here (a map); give a scenario with units")
    raise CliError(f"{source}: {what}: no unit {_shown(text)} here (units: {_units_hint(state)}); give a unit id")


def effective_rules(opened: Map | Scenario, given: str | None) -> str | None:
    """The rule system an analysis judges by: --rules, else the scenario's ``rules:``, else
    the map's (a scenario's ``rules`` already falls back to its map's). One place, so
    ``los``, ``viewshed``, ``reach`` and ``render`` agree with each other and the window.
    Both names are known ones: --rules by its argument type, a file's by its loader."""
    return given if given is not None else opened.rules


def is_save(source: str) -> bool:
    """Whether a MAP_OR_SCENARIO argument names a saved game (a ``.json`` file: maps
    and scenarios are YAML), so ``los``, ``viewshed``, ``reach`` and ``render`` judge
    the position a game reached, not its start."""
    try:
        return source.lower().endswith(".json") and Path(source).is_file()
    except OSError:  # a name too long for a path
        return False


def open_save(source: str) -> tuple[MapState, Map | Scenario, str]:
    """A save's position now (its current line replayed), what it was played on, and
    the rules it was played under; CliError for a save that cannot be loaded."""
    from tabletop.engine.newgame import load_game
    from tabletop.engine.savefile import SaveError
    from tabletop.games import ruleset

    try:
        game, _, opened = load_game(Path(source), open_map_or_scenario, ruleset)
    except SaveError as exc:
        raise CliError(str(exc)) from None
    return game.state.map, opened, game.rules.name


def _opening(opened: Scenario, rules: str | None) -> MapState:
    """The scenario's pieces; for one whose rule system places the units when the game
    begins (Dogfaces sets teams up on opposite edges, III), the position the game opens
    at with the table's default seed, as ``render`` draws it, said on stderr."""
    state = opened.state()
    system = rule_system(rules)
    game_rules = None if system is None else system.ruleset
    if game_rules is None or any(p.kind == "unit" for p in state.pieces()):
        return state
    from tabletop.engine.newgame import auto_setup, new_game

    game = new_game(opened, game_rules(), seed=0)
    game.use_seeded_dice()  # the same opening every time, as ``render`` draws it
    auto_setup(game)
    print(
        f"{opened.path}: its rules place the units when the game begins; this is the opening "
        "position (seed 0, as `tabletop render` draws it); give a save for another",
        file=sys.stderr,
    )
    return game.state.map


class _Table:
    """What an analysis command works on: the live state (a scenario's start, or the
    position a saved game reached), the rule system and its line of sight policy, the
    conditions, and the file the names come from."""

    def __init__(self, source: str, rules: str | None) -> None:
        if is_save(source):
            self.state, opened, played = open_save(source)
            self.conditions = opened.conditions if isinstance(opened, Scenario) else frozenset()
            self.source = source
            self.rules = rules if rules is not None else played if played != "free" else opened.rules
        else:
            opened = _open(source)
            if isinstance(opened, Scenario):
                self.state = _opening(opened, effective_rules(opened, rules))
                self.conditions = opened.conditions
            else:
                self.state = MapState.of(opened)
                self.conditions = frozenset()
            self.source = str(opened.path)
            self.rules = effective_rules(opened, rules)
        self.policy: LosPolicy = los_policy(self.state, self.rules)
        self.board = self.state.board

    def where(self, text: str, what: str) -> tuple[Hex, Piece | None]:
        return locate(self.state, text, what, self.source)

    def query(self, a: str, b: str, args: argparse.Namespace) -> LosQuery:
        src, viewer = self.where(a, "FROM")
        dst, target = self.where(b, "TO")
        conditions = self.conditions | ({"night"} if getattr(args, "night", False) else set())
        return LosQuery(
            src, dst, args.from_level, getattr(args, "to_level", None), viewer, target, frozenset(conditions)
        )


def _describe(r: LosResult, label: Any) -> str:
    q = r.query
    lines = [f"{label(q.source)} -> {label(q.target)}  range {r.range}  {r.result.upper()}  ({r.policy})"]
    for f in r.blocking:
        if f.hex is None:
            lines.append(f"  blocked: {f.cause} [{f.rule}]")
        else:
            lines.append(f"  blocked at {label(f.hex)}: {f.cause} [{f.rule}], {f.at:.0%} along the line")
    if r.hindrances:
        lines.append(f"  hindrances: {r.hindrance_count}")
        for f in r.hindrances:
            where = label(f.hex) if f.hex is not None else "whole line"
            lines.append(f"    {where}: {f.cause} [{f.rule}]" + (f" x{f.amount}" if f.amount != 1 else ""))
    for f in r.modifiers:
        lines.append(f"  modifier: {f.cause} [{f.rule}]")
    for f in r.notes:
        lines.append(f"  note: {f.cause} [{f.rule}]")
    lines.append("  crossed: " + " ".join(label(h) for h in r.crossed))
    if r.grazed:
        lines.append(
            "  grazed:  "
            + " ".join(f"{label(g.hex)}({'side' if g.side is not None else 'corner'})" for g in r.grazed)
        )
    return "\n".join(lines)


def _safe_label(board: Map) -> Any:
    def label(h: Hex) -> str:
        return board.label(h) if board.grid.contains(h) else f"off-map({h.q},{h.r})"

    return label


def cmd_los(args: argparse.Namespace) -> int:
    if args.pairs and (args.frm is not None or args.to is not None):
        raise CliError("give FROM and TO, or --pairs FILE, not both")
    table = _Table(args.map, args.rules)
    label = _safe_label(table.board)
    if args.pairs:
        for number, q in _read_pairs(Path(args.pairs), table, args):
            try:
                r = line_of_sight(table.state, table.policy, q)
            except ValueError as exc:  # a rule system refusing the firer or the target
                raise CliError(f"{args.pairs}:{number}: {exc}") from None
            print(json.dumps(r.to_json(label), separators=(",", ":")) if args.json else _describe(r, label))
        return 0
    if args.frm is None or args.to is None:
        raise CliError("give FROM and TO (hex labels or unit ids), or --pairs FILE")
    try:
        r = line_of_sight(table.state, table.policy, table.query(args.frm, args.to, args))
    except ValueError as exc:  # a rule system refusing the firer or the target
        raise CliError(f"{table.source}: los {args.frm} {args.to}: {exc}") from None
    if args.json:
        _print_json(r.to_json(label))
    else:
        print(_describe(r, label))
    return 0


def read_text_file(path: Path, what: str, most: int) -> str:
    """The UTF-8 text of a regular file given as an argument (inputfile.read_bounded: a
    folder, a pipe or a device is refused, never opened to block or to read forever).
    CliError with ``file:line`` for bytes that are not UTF-8."""
    try:
        data = read_bounded(path, most)
    except FileNotFoundError:
        raise CliError(f"{path}: no such file; check the {what} path") from None
    except NotAFile as exc:
        raise CliError(f"{path}: {exc.why}; give a text file for {what}") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > most:
        raise CliError(f"{path}: more than {most} bytes; a {what} file may hold at most {most}, split it")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CliError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8"
        ) from None


#: bad lines of a --pairs file reported one by one before the rest are only counted
PAIRS_ERRORS_SHOWN = 50


def _read_pairs(path: Path, table: _Table, args: argparse.Namespace) -> list[tuple[int, LosQuery]]:
    """All queries of a pairs file with their line numbers, checked before any is
    answered; DataErrors with one ``file:line`` a bad line."""
    text = read_text_file(path, "--pairs", limits.PAIRS_BYTES)
    rows = text.splitlines()
    if len(rows) > limits.PAIRS_LINES:
        raise CliError(f"{path}: {len(rows)} lines; a --pairs file may hold at most {limits.PAIRS_LINES}, split it")
    queries: list[tuple[int, LosQuery]] = []
    errors: list[DataError] = []
    for number, row in enumerate(rows, start=1):
        words = row.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if len(words) != 2:
                raise CliError(f"expected two hexes or unit ids, 'FROM TO', got {_shown(row.strip())}")
            queries.append((number, table.query(words[0], words[1], args)))
        except CliError as exc:
            errors.append(DataError(path, number, str(exc).removeprefix(f"{table.source}: ")))
    if errors:
        shown = errors[:PAIRS_ERRORS_SHOWN]
        if len(errors) > len(shown):
            shown.append(DataError(path, None, f"and {len(errors) - len(shown)} more bad lines"))
        raise DataErrors(shown)
    if not queries:
        raise CliError(f"{path}: no 'FROM TO' lines; write one pair of hexes or unit ids a line")
    return queries


def _points(cost: int, scale: int) -> int | float:
    return cost // scale if cost % scale == 0 else round(cost / scale, 4)


def cmd_reach(args: argparse.Namespace) -> int:
    table = _Table(args.scenario, args.rules)
    unit = find_unit(table.state, args.unit, "UNIT", table.source)
    policy = move_policy(table.state, table.rules)
    try:
        result = plan_move(table.state, policy, unit, args.order, args.budget)
    except ValueError as exc:  # a rule system refusing the order, the unit or its side
        raise CliError(f"{table.source}: reach {unit.id}: {exc}") from None
    label = table.board.label
    zone = must_stop_overlay(table.state, policy, unit)
    data: dict[str, Any] = {
        "unit": unit.id,
        "from": label(unit.hex),
        "policy": policy.name,
        "reachable": {label(h): _points(c, result.scale) for h, c in sorted(result.costs.items())},
        "stops": sorted(label(h) for h in result.stops),
        "stop_reasons": {label(h): why for h, why in sorted(result.stops.items())},
        "refused": {label(h): why for h, why in sorted(result.refused.items())},
        "passed": sorted(label(h) for h in result.passed),
        "must_stop_zone": sorted(label(h) for h in zone),
        "notes": list(result.notes),
        "extra": {label(h): why for h, why in sorted(_extra_moves(table, unit).items())},
    }
    if args.to is not None:
        dest, _ = table.where(args.to, "--to")
        if dest not in result.costs:
            raise CliError(f"--to {args.to}: {unit.id} cannot end its move there"
                           + (f" ({result.refused[dest]})" if dest in result.refused else ""))  # fmt: skip
        data["path"] = [label(h) for h in result.path_to(dest)]
    if args.json:
        _print_json(data)
        return 0
    print(f"{unit.id} at {data['from']} ({policy.name}): {len(result.costs)} hexes reachable")
    for text, cost in data["reachable"].items():
        mark = f"  stop: {data['stop_reasons'][text]}" if text in data["stop_reasons"] else ""
        print(f"  {text}  {cost}{mark}")
    for text, why in data["refused"].items():
        print(f"  {text}  refused: {why}")
    for note in data["notes"]:
        print(f"  note: {note}")
    if data["extra"]:
        print(f"  beyond the move policy's reach ({len(data['extra'])} more hexes, by the rule system):")
    for text, why in data["extra"].items():
        print(f"  {text}  extra: {why}")
    if "path" in data:
        print("  path: " + " ".join(data["path"]))
    return 0


def _extra_moves(table: _Table, unit: Piece) -> dict[Hex, str]:
    """The hexes the rule system's window extras let ``unit`` reach outside its move
    policy's reach (a jet pack), with the reason; {} for rule systems without."""
    system = rule_system(table.rules)
    if system is None or system.window is None:
        return {}
    try:
        return dict(system.window().extra_moves(table.state, unit))
    except ValueError as exc:  # the rule system refusing the unit
        raise CliError(f"{table.source}: reach {unit.id}: {exc}") from None


def cmd_viewshed(args: argparse.Namespace) -> int:
    table = _Table(args.map, args.rules)
    src, viewer = table.where(args.frm, "FROM")
    conditions = table.conditions | ({"night"} if args.night else set())
    try:
        seen = viewshed(
            table.state, table.policy, src, source_level=args.from_level, viewer=viewer,
            conditions=frozenset(conditions), max_range=args.range,
        )  # fmt: skip
    except ValueError as exc:  # a rule system refusing the viewer
        raise CliError(f"{table.source}: viewshed {args.frm}: {exc}") from None
    label = table.board.label
    visible = sorted(label(h) for h in seen)
    hindered = sorted(label(h) for h, v in seen.items() if v == "hindered")
    if args.json:
        _print_json(
            {"from": label(src), "policy": table.policy.name, "visible": visible, "hindered": hindered}
        )
    else:
        print(
            f"{label(src)} sees {len(visible)} of {len(table.board.terrain)} hexes ({len(hindered)} hindered), {table.policy.name}"
        )
        print("  " + " ".join(visible))
    return 0




def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1600x1000") from None
    if not (200 <= w <= 8000 and 150 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"{text!r}: width 200-8000 and height 150-8000 pixels")
    return (w, h)


def _check_load_args(args: argparse.Namespace) -> str | None:
    """With --load the save keeps its own seed, options and setup, so naming them too is
    refused rather than ignored (finding W7a). Returns the scenario the player named to
    load the save on, if any (the save's rules must be its own). Fills in --setup. A saved
    game named where the scenario goes (``tabletop play game.json``, as ``render`` takes
    it) is loaded, as with --load."""
    if not args.load and args.scenario and is_save(args.scenario):
        args.load, args.scenario = args.scenario, None
    if not args.load:
        args.setup = args.setup or "auto"
        return None
    given = [flag for flag in ("seed", "option", "setup") if getattr(args, flag) is not None]
    if given:
        flags = " and ".join(f"--{flag}" for flag in given)
        raise CliError(
            f"{args.load}: a saved game keeps its seed, options and setup; drop {flags}, "
            "or start a new game without --load"
        )
    args.setup = "auto"
    scenario: str | None = args.scenario
    return scenario


def cmd_play(args: argparse.Namespace) -> int:
    import secrets

    from tabletop.engine.savefile import SaveError, save_folder
    from tabletop.ui.table import open_table, start_autosave

    named = _check_load_args(args)

    source = args.scenario or DEFAULT_SCENARIO
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    load = Path(args.load) if args.load else None
    save = _checked_save_target(args, load)
    try:
        app = open_table(
            source, rules=args.rules, size=args.size, seed=seed, options=dict(args.option or []),
            setup=args.setup, load=load, scenario=named,
        )  # fmt: skip
    except (DataError, DataErrors):
        raise  # already one line per problem, each naming its file
    except (SaveError, ValueError) as exc:
        raise CliError(str(exc)) from None
    game = app.play
    for seat in args.bot or []:
        side, made = _bot_for(game.rules.name, seat, game.rules.sides)
        app.seats[side] = made
    if len(app.humans()) < 2:  # one person against bots: no screen to pass (the cover came before the seats)
        app.handoff = None
        app.sync()
    # every argument is good: from here on the game may be written
    autosave, note = _autosave_target(save, load, app.source, game.seed)
    print(f"tabletop {__version__}: {app.title}; F1 lists the shortcuts")
    if load is None:
        print(f"seed {seed} (the same game again: tabletop play {source} --seed {seed})")
    else:
        print(f"loaded {load}: turn {game.state.turn}, {game.state.phase}, {len(game.entries)} log entries")
    if note:
        print(note)
    print(f"autosave after every phase: {autosave}")
    print(f"Ctrl+S saves into {save_folder()} (Ctrl+Shift+S: under a name you type)")
    if not start_autosave(app, autosave):
        print(app.messages[-1] if app.messages else f"{autosave}: autosave failed", file=sys.stderr)
    try:
        app.run(frames=args.frames)
    except pygame_error() as exc:
        raise CliError(
            f"cannot open a window ({exc}); on a machine without a display, draw the table "
            f"with: tabletop render {source} --out table.png"
        ) from None
    return 0


def _checked_save_target(args: argparse.Namespace, load: Path | None) -> Path | None:
    """--save FILE checked before anything else happens: a path tabletop may write, and
    not another game's save unless --force (or it is the --load file itself)."""
    from tabletop.atomicfile import WriteError, check_target

    if not args.save:
        return None
    save = Path(args.save)
    try:
        target = check_target(save)
    except WriteError as exc:
        raise CliError(str(exc)) from None
    same = load is not None and load.exists() and target.exists() and target.samefile(load)
    if target.exists() and not same and not args.force:
        raise CliError(
            f"--save {save}: already exists; tabletop will not replace it with this game; continue "
            f"it with --load {save}, choose another --save, or add --force to replace it"
        )
    return save


def _autosave_target(save: Path | None, load: Path | None, source: str, seed: int) -> tuple[Path, str]:
    """Where this game autosaves, and a note if that is not where the player might think:
    --save FILE; else the loaded save itself (its previous versions kept as .1 .. .3);
    else, or if the loaded save cannot be written, a new file for this game alone."""
    from tabletop.atomicfile import WriteError, check_target
    from tabletop.engine.savefile import KEEP, new_autosave_path

    if save is not None:
        return save, ""
    fresh = new_autosave_path(Path(source).stem, seed)
    if load is None:
        return fresh, ""
    try:
        target = check_target(load)
    except WriteError as exc:
        return fresh, f"{load} cannot be written ({exc.reason}); this game now saves into a new file"
    return load, f"saving into {load}; its previous versions are kept as {target.name}.1 to .{KEEP}"


def _bot_for(rules: str, seat: str, sides: tuple[str, ...]) -> tuple[str, Any]:
    """The side and a new bot for ``--bot SIDE`` (the side's default bot) or ``--bot
    SIDE=NAME`` (one of the rule system's bots); CliError if there is none."""
    from tabletop.games import bot

    side, _, name = seat.partition("=")
    if side not in sides:
        raise CliError(f"--bot {seat}: the sides of {rules} are {', '.join(sides) or 'none (free play)'}")
    try:
        return side, bot(rules, side, name or None)
    except LookupError as exc:
        raise CliError(f"--bot {seat}: {exc}") from None


def _option(text: str) -> tuple[str, object]:
    """KEY=VALUE for --option; true/false become yes-no values."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE, e.g. bombardment=heavy")
    words: dict[str, object] = {"true": True, "yes": True, "false": False, "no": False}
    return key, words.get(value.lower(), value)


def _seat(text: str) -> tuple[str, str]:
    """SIDE=NAME for sim --bot (issue 12 item 4)."""
    side, sep, name = text.partition("=")
    if not sep or not side or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not SIDE=NAME, e.g. american=autoplayer")
    return side, name


def pygame_error() -> type[Exception]:
    import pygame

    return pygame.error


def cmd_render(args: argparse.Namespace) -> int:
    from tabletop.ui.render import render_png
    from tabletop.ui.table import open_table

    out = Path(args.out)
    try:
        check_target(out)  # before the work of drawing: a folder, a device, no such folder
    except WriteError as exc:
        raise CliError(str(exc)) from None
    if is_save(args.map):
        from tabletop.engine.savefile import SaveError

        try:
            app = open_table(args.map, rules=args.rules, size=args.size, load=Path(args.map))
        except SaveError as exc:
            raise CliError(str(exc)) from None
    else:
        app = open_table(args.map, rules=args.rules, size=args.size, seeded_dice=True)
    _render_overlays(app, args)
    try:
        render_png(app, out, args.size)
    except WriteError as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {out} ({args.size[0]}x{args.size[1]})")
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    """The map editor: the table window in editing mode on a map file (a scenario's map
    for a scenario)."""
    from tabletop.board.editing import MapDocument
    from tabletop.engine.scenario_document import ScenarioDocument
    from tabletop.ui.editor import open_editor, with_background

    if args.new_map is not None:
        _new_scenario(args)
    opened = _open(args.map)
    path = opened.board.path if isinstance(opened, Scenario) else opened.path
    if path is None:
        raise CliError(f"{args.map}: its map has no file to edit")
    scenario = ScenarioDocument.open(opened.path) if isinstance(opened, Scenario) else None
    if scenario is not None:
        print(f"editing the scenario {scenario.path} and its map {path}")
    doc = MapDocument.open(path)
    if args.background is not None:
        try:
            print(with_background(doc, args.background))
        except ValueError as exc:
            raise CliError(str(exc)) from None
    print(f"tabletop {__version__}: editing {path}; F1 lists the shortcuts, Ctrl+S saves")
    app = open_editor(doc, args.size, scenario)
    try:
        app.run(frames=args.frames)
    except pygame_error() as exc:
        raise CliError(f"cannot open a window ({exc}); the editor needs a display") from None
    for d in (doc, scenario):
        if d is not None and d.unsaved:
            print(f"{d.path}: closed with unsaved edits (not written)", file=sys.stderr)
    return 0


def _new_scenario(args: argparse.Namespace) -> None:
    """``tabletop edit NEW.yaml --map MAP``: write a new scenario on MAP first (the map
    must be where a scenario finds it: beside it, in ../maps, or shipped)."""
    from tabletop.engine.scenario import load_scenario
    from tabletop.engine.scenario_document import new_scenario_text

    target = Path(args.map)
    if target.exists():
        raise CliError(f"{target}: already exists; drop --map to edit it, or give a new file name")
    try:
        check_target(target)
    except WriteError as exc:
        raise CliError(str(exc)) from None
    board = load_map(args.new_map)
    ref = Path(args.new_map).stem if Path(args.new_map).suffix else str(args.new_map)
    text = new_scenario_text(target.stem.replace("-", " ").capitalize(), ref, board.rules)
    try:
        write_atomic(target, text)
        load_scenario(target)  # it finds its map: else nothing is left behind
    except DataErrors as exc:
        target.unlink(missing_ok=True)
        raise CliError(
            f"{target}: a scenario there cannot find the map {ref!r} ({exc.errors[0].message}); "
            "put the scenario beside the map, or in a folder next to its maps/ folder"
        ) from None
    except WriteError as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {target}: a new scenario on {ref}")


def _render_overlays(app: Any, args: argparse.Namespace) -> None:
    """render's --los, --reach and --viewshed, looked up as ``los``, ``reach`` and
    ``viewshed`` look them up, and --extra. One hex twice is a line of sight of range 0, as ``los``
    answers it: there is no thread to draw, and the note says so."""
    overlays = app.overlay_component()
    source = str(app.source)
    if args.los:
        a, _ = locate(app.state, args.los[0], "--los FROM", source)
        b, _ = locate(app.state, args.los[1], "--los TO", source)
        if a == b:
            print(f"--los {args.los[0]} {args.los[1]}: one hex ({app.board.label(a)}), range 0; no line drawn")
        else:
            overlays.set_los(app, a, b)
    if args.reach:
        unit = find_unit(app.state, args.reach, "--reach", source)
        try:
            overlays.show_reach(app, unit.id)
        except ValueError as exc:  # a rule system refusing the unit or its side
            raise CliError(f"{source}: --reach {unit.id}: {exc}") from None
    if args.viewshed:
        h, _ = locate(app.state, args.viewshed, "--viewshed", source)
        overlays.show_viewshed(app, h)
    _render_extras(app, args, source)


def _render_extras(app: Any, args: argparse.Namespace, source: str) -> None:
    """render's --extra KEY: the rule system's own overlay (the window's ``j``); with
    --reach, the unit's extra moves (a jet pack) beside its reach, as the window shows them."""
    from tabletop.ui.extras import ExtrasLayer

    layer = next(c for c in app.components if isinstance(c, ExtrasLayer))
    if args.reach:
        layer.pin_reach(find_unit(app.state, args.reach, "--reach", source).id)
    if args.extra:
        try:
            layer.show_overlay(app, args.extra)
        except LookupError as exc:
            raise CliError(f"{source}: --extra: {exc.args[0]}") from None


def cmd_map(args: argparse.Namespace) -> int:
    opened = _open(args.map)
    m = opened.board if isinstance(opened, Scenario) else opened
    if args.json:
        data = map_to_json(m)
        if isinstance(opened, Scenario):
            data["scenario"] = opened.name
            data["units"] = [
                {"id": p.id, "type": p.type, "side": p.side, "hex": m.label(p.hex)}
                for p in opened.pieces
                if p.kind == "unit"
            ]
            data["markers"] = [
                {"id": p.id, "type": p.type, "hex": m.label(p.hex)}
                for p in opened.pieces
                if p.kind == "marker"
            ]
        _print_json(data)
        return 0
    grid = m.grid
    counts = Counter(m.terrain.values())
    print(f"{m.name}  ({m.path})")
    print(
        f"  grid: {grid.columns} columns x {grid.rows} rows, {grid.orientation}-top, {grid.offset}, "
        f"labels {grid.label(grid.hex_at(0, 0))}-{grid.label(grid.hex_at(grid.columns - 1, grid.rows - 1))}"
        + (f", {m.scale}" if m.scale else "")
    )
    if m.rules:
        print(f"  rules: {m.rules}")
    print("  terrain: " + ", ".join(f"{k} {counts.get(k, 0)}" for k in m.terrain_types))
    if m.features:
        print("  features: " + ", ".join(f"{k} {len(f.hexes)} hexes" for k, f in m.features.items()))
    if m.hexsides:
        print("  hexsides: " + ", ".join(f"{k} {len(f.sides)}" for k, f in m.hexsides.items()))
    if m.regions:
        kinds = Counter(r.kind for r in m.regions.values())
        print("  regions: " + ", ".join(f"{n} {k}" for k, n in kinds.items()))
        for r in m.regions.values():
            print(f"    {r.key:<16} {r.kind:<12} {len(r.hexes):>4} hexes  {r.name}")
    return 0


def cmd_map_new(args: argparse.Namespace) -> int:
    """A blank map, proved to load (with the very name given) before anything is written."""
    from tabletop.board.blank import name_problem
    from tabletop.board.loader import build_map
    from tabletop.yamlfile import parse_yaml

    out = Path(args.out)
    problem = name_problem(args.name)
    if problem is not None:
        raise CliError(f"--name {args.name!r} {problem}")
    try:
        target = check_target(out)
    except WriteError as exc:
        raise CliError(str(exc)) from None
    if target.exists() and not args.force:
        raise CliError(f"{out}: already exists; choose another --out or add --force to replace it")
    terrain = None
    if args.rules not in (None, "free"):
        from tabletop.board.blank import terrain_for
        from tabletop.games import knowledge

        knows = knowledge(args.rules)
        if knows is not None and knows.terrain:
            terrain = terrain_for(sorted(knows.terrain), knows.terrain_property)
    text = blank_map_yaml(
        columns=args.columns, rows=args.rows, orientation=args.orientation, name=args.name,
        rules=args.rules, terrain=terrain,
    )  # fmt: skip
    m = build_map(parse_yaml(text, out), out)  # DataErrors here would be a bug; nothing written yet
    if m.name != args.name:
        raise CliError(f"--name {args.name!r}: the map file would read it back as {m.name!r}; choose another name")
    try:
        write_atomic(out, text)
    except WriteError as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {out}: {m.grid.columns} x {m.grid.rows} {m.grid.orientation}-top hexes")
    from tabletop.engine.scenario import map_rules_errors

    needs = [e.message for e in map_rules_errors(m)]  # what it lacks for its rule system: regions
    if needs:
        print(f"before {args.rules} can play on it (paint them with: tabletop edit {out}):")
        print("\n".join(f"  {line}" for line in needs))
    return 0


def _validate_one(path: Path) -> tuple[str, list[DataError]]:
    """What one file is and every problem in it; never raises for a bad file, so a
    folder is always reported whole."""
    from tabletop.engine.scenario import map_rules_errors
    from tabletop.inputfile import not_a_file

    why = not_a_file(path)  # a FIFO or a device is never opened: reading it would block
    if why is not None:
        return ("file", [DataError(path, None, f"it is {why}; validate takes YAML files and folders")])
    try:
        data = read_yaml(path)
    except DataError as exc:
        return ("file", [exc])
    except DataErrors as exc:
        return ("file", exc.errors)
    if is_counters_data(data):
        try:
            c = load_counters(path)
        except DataErrors as exc:
            return ("counters", exc.errors)
        return (f"counters: {len(c.unit_types)} unit types, {len(c.markers)} markers", [])
    if is_scenario_data(data):
        try:
            s = load_scenario(path)
        except DataErrors as exc:
            return ("scenario", exc.errors)
        conflicts = setup_errors(s)  # the setup must be possible under every option
        if conflicts:
            return ("scenario", conflicts)
        return (f"scenario: {s.name}, map {s.board.name}, {len(s.pieces)} pieces", [])
    deck = _card_deck(path, data)
    if deck is not None:
        return deck
    army = _roster(path, data)
    if army is not None:
        return army
    if hasattr(data, "get") and "grid" in data:
        try:
            m = load_map(path)
        except DataErrors as exc:
            return ("map", exc.errors)
        problems = map_rules_errors(m)  # its rule system must know its terrain and regions
        if problems:
            return ("map", problems)
        return (f"map: {m.name}, {m.grid.columns} x {m.grid.rows}", [])
    return (
        "file",
        [DataError(path, 1, "neither a map (a `grid:` block), a scenario (a `map:` line) nor "
                   "a counter sheet (`unit_types:`)")],
    )  # fmt: skip


def _roster(path: Path, data: object) -> tuple[str, list[DataError]] | None:
    """A Dogs of War roster (top-level `budget:` and `teams:`, issue 16): its points and
    weapons checked against the team lists; None for any other file."""
    if not (isinstance(data, dict) and "teams" in data and "budget" in data):
        return None
    from tabletop.games.dogs_of_war import roster

    problems = roster.file_errors(path)
    if problems:
        return ("roster", problems)
    return (f"roster: {data.get('name', path.stem)}, {roster.cost(data)} of {data['budget']} points", [])


def _card_deck(path: Path, data: object) -> tuple[str, list[DataError]] | None:
    """A command-card file (a top-level `cards:`, Devil Dogs' cards.yaml, issue 15): its
    decks checked card by card; None for any other file."""
    if not (isinstance(data, dict) and "cards" in data):
        return None
    from tabletop.games.devil_dogs.data import read_cards

    try:
        decks = read_cards(path)
    except DataErrors as exc:
        return ("cards", exc.errors)
    return ("cards: " + ", ".join(f"{len(deck)} {side}" for side, deck in decks.items()), [])


def _validate_paths(given: str) -> list[Path]:
    """The files one VALIDATE argument names: a file, the .yaml files of a folder, or a
    bare shipped name (a scenario, else a map, else counters), as every command takes."""
    import os

    from tabletop.inputfile import MISSING, not_a_file
    from tabletop.limits import NAME_CHARS
    from tabletop.shipped import resolve

    p = Path(given)
    shown = given if len(given) <= 80 else f"{given[:60]}... ({len(given)} characters)"
    if os.path.isdir(p):  # False, not OSError, for a name too long
        found = sorted(p.rglob("*.yaml"))
        if not found:
            raise CliError(f"{p}: no .yaml files in this folder")
        return found
    why = not_a_file(p)
    if why is None:
        return [p]
    for kind in ("scenarios", "maps", "counters"):
        shipped = resolve(given, kind)  # type: ignore[arg-type]
        if shipped is not None:
            return [shipped]
    if why == MISSING:
        raise CliError(f"{shown}: no such file or folder, nor a shipped scenario, map or counters of that name")
    if len(given) > NAME_CHARS:
        raise CliError(f"{shown}: {why}; give a YAML file, a folder or a shipped name")
    return [p]  # reported with the other files, as what it is


def cmd_validate(args: argparse.Namespace) -> int:
    files: list[Path] = []
    report = []
    failed = 0
    for given in args.paths:
        try:
            files.extend(_validate_paths(given))
        except CliError as exc:  # one bad argument: the others are still checked
            failed += 1
            report.append({"path": given, "ok": False, "what": "argument",
                           "errors": [{"file": given, "line": None, "message": str(exc)}]})  # fmt: skip
            if not args.json:
                print(exc, file=sys.stderr)
    for path in files:
        what, errors = _validate_one(path)
        failed += bool(errors)
        report.append({"path": str(path), "ok": not errors, "what": what,
                       "errors": [{"file": e.path, "line": e.line, "message": e.message} for e in errors]})  # fmt: skip
        if not args.json:
            if errors:
                for e in errors:
                    print(e, file=sys.stderr)
            else:
                print(f"ok  {path}  ({what})")
    if args.json:
        _print_json(report)
    elif len(report) > 1:
        print(f"{len(report) - failed} of {len(report)} files valid", file=sys.stderr if failed else sys.stdout)
    return EXIT_BAD_INPUT if failed else 0


def cmd_sim(args: argparse.Namespace) -> int:
    """Solitaire games played headless by the rule system's autoplayer: the distribution
    of outcomes (per choice of --by), one progress line on stderr every ~5%."""
    from tabletop.games import autoplayer_module
    from tabletop.sim import SimError, simulate, table

    options = dict(args.option or [])
    by = args.by
    if by is None:
        opened = _open(args.scenario)
        if not isinstance(opened, Scenario):
            raise CliError(f"sim {args.scenario}: a map, not a scenario; a simulation needs a scenario")
        try:
            default = getattr(autoplayer_module(opened.rules), "SIM_BY", None)
        except LookupError as exc:
            raise CliError(f"sim {args.scenario}: {exc}") from None
        if default in opened.options and default not in options:
            by = default
    if by in ("none", "-"):
        by = None
    step = [0]

    def progress(done: int, total: int) -> None:
        tick = max(1, total // 20)
        if done == total or done // tick > step[0]:
            step[0] = done // tick
            print(f"sim: {done}/{total} games ({100 * done // total}%)", file=sys.stderr, flush=True)

    try:
        report = simulate(
            args.scenario, args.games, args.seed, options, by=by, progress=progress, jobs=args.jobs,
            bots=dict(args.bot or []), cluster=args.cluster,
        )  # fmt: skip
    except SimError as exc:
        raise CliError(f"sim {args.scenario}: {exc}") from None
    if args.json:
        _print_json(report)
    else:
        print(table(report))
    if report["failed"]:
        print(f"sim: {len(report['failed'])} games failed (seeds above)", file=sys.stderr)
        return 1
    return 0


def cmd_tables(args: argparse.Namespace) -> int:
    """A rule system's tables as a player aid prints them, built from the data it plays by."""
    from tabletop.engine.tables import tables_json, tables_text
    from tabletop.games import tables_of

    rules = args.rules
    if rules_problem(rules) is not None and rules_problem(rules.replace("-", "_")) is None:
        rules = rules.replace("-", "_")  # the scenario's spelling, dog-sector, names its rules too
    problem = rules_problem(rules)
    if problem is not None:
        raise CliError(f"tables: {problem}")
    found = tables_of(rules)
    if args.table is not None:
        keys = [t.key for t in found]
        if args.table not in keys:
            known = f"known: {', '.join(keys)}" if keys else "it has no tables encoded yet"
            raise CliError(f"tables {rules}: no table {args.table!r}; {known}")
        found = [t for t in found if t.key == args.table]
    if args.json:
        _print_json(tables_json(rules, found))
    else:
        print(tables_text(found))
    return 0


def _whole(text: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``; the text is checked before it is
    converted, so 10**5000 is refused at once and not by Python's digit limit."""
    plain = text.strip().replace("_", "")
    digits = plain.removeprefix("-").removeprefix("+")
    if not digits.isascii() or not digits.isdigit():
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number")
    if len(digits.lstrip("0")) > len(str(max(abs(low), abs(high)))) or not low <= int(plain) <= high:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range ({low} to {high})")
    return int(plain)


def _ranged(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        return _whole(text, low, high)

    parse.__name__ = "whole number"  # argparse's word for it in "invalid ... value"
    return parse


_positive = _ranged(1, 999)
_count = _ranged(1, limits.SIM_GAMES)
_jobs = _ranged(1, limits.SIM_JOBS)
_seed = _ranged(0, limits.SEED)
_level = _ranged(-limits.LEVEL, limits.LEVEL)
_budget = _ranged(0, limits.REACH_BUDGET)


def _path(text: str) -> str:
    """A file or folder argument that some system call could take: no NUL, not empty,
    and within the lengths Linux allows, so a bad one is a clear argument error and not
    ``ValueError: embedded null byte`` or ``File name too long`` from deep inside."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path; give a file name")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{_shown(text)} holds a NUL character, which no file name can")
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a valid file name (stray surrogate)") from None
    if len(raw) > limits.PATH_BYTES:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is {len(raw)} bytes; a path has at most {limits.PATH_BYTES}")
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > limits.NAME_CHARS:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)}: a name in it is {len(longest)} bytes; a file name has at most {limits.NAME_CHARS}"
        )
    return text


def _rules_name(text: str) -> str:
    """--rules: free or a rule system tabletop knows (a typo is refused, not free play)."""
    problem = rules_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def _rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rules", type=_rules_name,
        help="rule system to judge by (default: the scenario's, else the map's); 'free' for free play",
    )  # fmt: skip


def _sight_options(p: argparse.ArgumentParser) -> None:
    """The options a line of sight or a viewshed shares: the looker's level, darkness."""
    p.add_argument("--from-level", type=_level, help="level at FROM (default: ground + the unit's level)")
    p.add_argument("--night", action="store_true", help="darkness (games with night rules)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop",
        description="A hex-map tabletop simulator: maps, counters, exact line of sight.",
    )
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "play", help="open the table window on a scenario or map (default: the solo DOG SECTOR scenario)"
    )
    p.add_argument(
        "scenario",
        nargs="?",
        type=_path,
        help=f"scenario or map, path or bare name (default {DEFAULT_SCENARIO}), or a saved game (.json: as --load)",
    )
    p.add_argument("--size", type=_size, default=(1280, 800), help="window size WxH (default 1280x800)")
    _rules_option(p)
    p.add_argument("--frames", type=_positive, help="close after this many frames (scripted checks)")
    p.add_argument("--seed", type=_seed, help="dice seed (default: a random one, printed so the game can be replayed)")
    p.add_argument("--load", metavar="SAVE", type=_path, help="play on from a saved game (its own scenario and seed)")
    p.add_argument(
        "--save", metavar="FILE", type=_path,
        help="where Ctrl+S and the autosave write (default: the --load file, or a new file for each "
        "game in ~/.tabletop/autosave/); an existing file is refused unless --force",
    )  # fmt: skip
    p.add_argument("--force", action="store_true", help="let --save replace an existing file")
    p.add_argument(
        "--option", type=_option, action="append", metavar="KEY=VALUE",
        help="an optional rule of the scenario, e.g. --option bombardment=heavy (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--bot", action="append", metavar="SIDE[=NAME]",
        help="a bot plays SIDE: its default one, or bot NAME of the rule system's (repeatable; other sides "
        "are people at this screen)",
    )  # fmt: skip
    p.add_argument(
        "--setup", choices=("auto", "manual"),
        help="auto (default): the solver sets up and turn 1 begins; manual: place the setup pieces from the tray",
    )  # fmt: skip
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("render", help="draw the table to a PNG, no window needed")
    p.add_argument("map", type=_path, help="map, scenario (path or bare shipped name) or saved game (.json)")
    p.add_argument("--out", required=True, type=_path, help="PNG file to write")
    p.add_argument("--size", type=_size, default=(1600, 1000), help="image size WxH (default 1600x1000)")
    p.add_argument("--los", nargs=2, metavar=("FROM", "TO"), help="draw the line-of-sight thread")
    p.add_argument("--reach", metavar="UNIT", help="shade where this unit may move")
    p.add_argument("--viewshed", metavar="FROM", help="shade what this hex or unit sees")
    p.add_argument(
        "--extra", metavar="KEY", help="draw the rule system's own overlay KEY, e.g. fields (omaha's fields of fire)"
    )
    _rules_option(p)
    p.set_defaults(func=cmd_render)

    p = sub.add_parser(
        "edit",
        help="edit a map in the window: paint terrain, elevation, features, hexsides, regions; "
        "align a printed map's picture",
        description="Open the map editor on a map file (a scenario's map for a scenario). F3-F8 "
        "choose the tool, 1-9 picks a terrain (or feature, hexside, region), click or drag "
        "paints, Ctrl+Z / Ctrl+Y undo and redo, Ctrl+S saves (keeping the file's comments and "
        "layout). Start a new map with `tabletop map new` first.",
    )
    p.add_argument("map", type=_path, help="map or scenario file (path or bare shipped name)")
    p.add_argument(
        "--map",
        dest="new_map",
        metavar="MAP",
        type=_path,
        help="make MAP_OR_SCENARIO a new scenario on this map first (then place its pieces in the window)",
    )
    p.add_argument(
        "--background",
        metavar="IMAGE",
        type=_path,
        help="a printed map's picture (PNG/JPEG) to lay under the grid; copied beside the map",
    )
    p.add_argument("--size", type=_size, default=(1280, 800), help="window size WxH (default 1280x800)")
    p.add_argument("--frames", type=_positive, help="close after this many frames (scripted checks)")
    p.set_defaults(func=cmd_edit)

    p = sub.add_parser(
        "map",
        help="show a map, or its grid as JSON; `tabletop map new` makes a blank map",
        description="Show a map (path or bare shipped name), or print it as JSON with --json. "
        "To make a blank free-play map: tabletop map new --columns C --rows R --out FILE.",
    )
    p.add_argument("map", type=_path, help="map file path or bare name of a shipped map")
    p.add_argument("--json", action="store_true", help="print the grid as JSON")
    p.set_defaults(func=cmd_map)

    p = sub.add_parser(
        "los",
        help="line of sight between two hexes or units, with the reason and the rule",
        description="Judge a line of sight under the map's rule system (or --rules). FROM and TO are hex "
        "labels (0504) or, in a scenario, unit ids. --pairs FILE answers one 'FROM TO' a line.",
    )
    p.add_argument("map", type=_path, help="map, scenario (path or bare shipped name) or saved game (.json)")
    p.add_argument("frm", nargs="?", metavar="FROM", help="hex label or unit id")
    p.add_argument("to", nargs="?", metavar="TO", help="hex label or unit id")
    p.add_argument("--pairs", metavar="FILE", type=_path, help="file of 'FROM TO' lines; one answer a line")
    _sight_options(p)
    p.add_argument("--to-level", type=_level, help="level at TO (default: ground + the unit's level)")
    _rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON (one object a line with --pairs)")
    p.set_defaults(func=cmd_los)

    p = sub.add_parser("viewshed", help="every hex visible from a hex or unit")
    p.add_argument("map", type=_path, help="map, scenario (path or bare shipped name) or saved game (.json)")
    p.add_argument("frm", metavar="FROM", help="hex label or unit id")
    p.add_argument("--range", type=_positive, help="only hexes within this range")
    _sight_options(p)
    _rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_viewshed)

    p = sub.add_parser(
        "reach",
        help="where a unit may move, at what cost, and where it must stop",
        description="The cheapest-cost reach of a unit in a scenario under its rule system: every hex it "
        "may end in with the cost, the hexes where it must stop (zones of control, ...) and why, and "
        "the hexes whole-move rules rule out.",
    )
    p.add_argument("scenario", type=_path, help="scenario (or map): path or bare shipped name, or a saved game (.json)")
    p.add_argument("unit", help="unit id")
    p.add_argument(
        "--order", help="the rule system's move order, e.g. ADV, RET, REP (Devil Dogs), run (Dogs of War)"
    )
    p.add_argument("--budget", type=_budget, help="movement points (default: the rule system's for this unit)")
    p.add_argument("--to", help="also print the cheapest path to this hex")
    _rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_reach)

    p = sub.add_parser("validate", help="check map and scenario files (and folders of them)")
    p.add_argument("paths", nargs="+", metavar="PATH", type=_path, help="files or folders to check")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "sim",
        help="play solitaire games headless with the bot and print the distribution of outcomes",
        description="Play a solitaire scenario start to finish with the rule system's autoplayer, GAMES "
        "times (for each choice of --by), game i with seed SEED+i, and print how often each level of "
        "victory came out.",
    )
    p.add_argument("scenario", type=_path, help="scenario: path or bare shipped name (e.g. dog-sector)")
    p.add_argument("--games", type=_count, default=100, help="games per group (default 100)")
    p.add_argument("--seed", type=_seed, default=1, help="seed of the first game; game i uses SEED+i (default 1)")
    p.add_argument(
        "--option", type=_option, action="append", metavar="KEY=VALUE",
        help="an optional rule of the scenario, e.g. --option limited-reinforcements=true (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--by", metavar="OPTION",
        help="play GAMES games for each choice of this option (default: the autoplayer's, e.g. "
        "bombardment for DOG SECTOR; 'none' for one group)",
    )  # fmt: skip
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=_jobs, default=1, help="processes to play in (default 1; same figures)")
    where.add_argument(
        "--cluster", metavar="ADDRESS",
        help="play on an existing Dask distributed cluster, e.g. tcp://10.0.0.5:8786 (same figures; "
        "pip install 'tabletop[cluster]'; workers need tabletop and the scenario's path)",
    )  # fmt: skip
    p.add_argument(
        "--bot", type=_seat, action="append", metavar="SIDE=NAME",
        help="the rule system's bot NAME on SIDE (repeatable; default: its default bot on every side it has one for)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the distribution as JSON")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser(
        "tables",
        help="a rule system's tables as a player aid prints them (cells from the data it plays by)",
        description="Print every table a rule system encodes (or only TABLE), each with the section of the "
        "rule text it comes from and the project's own choices.",
    )
    p.add_argument("rules", metavar="RULES", help="rule system, e.g. dog_sector (or dog-sector)")
    p.add_argument("table", nargs="?", metavar="TABLE", help="only the table with this key, e.g. 4")
    p.add_argument("--json", action="store_true", help="print the tables as JSON, every cell a string")
    p.set_defaults(func=cmd_tables)

    from tabletop.imports.cli import add_import_parser  # issue 21 item 3: tiled and vassal imports

    add_import_parser(sub)
    return parser


def _file_size_limit_is_an_error() -> None:
    """Past the file-size limit (ulimit -f) a write fails with EFBIG, which tabletop
    reports, instead of SIGXFSZ killing the process midway."""
    import signal

    if hasattr(signal, "SIGXFSZ"):
        with contextlib.suppress(ValueError):  # not the main thread: leave it as it is
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def build_map_new_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tabletop map new", description="Write a blank free-play map.")
    p.add_argument("--columns", type=_positive, required=True, help="number of hex columns")
    p.add_argument("--rows", type=_positive, required=True, help="number of hex rows")
    p.add_argument(
        "--orientation", choices=("flat", "pointy"), default="flat", help="hex orientation (default flat)"
    )
    p.add_argument("--name", default="Free-play map", help="the map's display name")
    p.add_argument(
        "--rules",
        type=_rules_name,
        help="made for this rule system: its terrain declared (colours to adjust), `rules:` set",
    )
    p.add_argument("--out", required=True, type=_path, help="YAML file to write")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.set_defaults(func=cmd_map_new)
    return p


def _printable_output() -> None:
    """Printing never crashes: a name holding a lone surrogate (a YAML "\\ud800" escape, or a
    file name that is not UTF-8) is written as a backslash escape, not UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    _printable_output()
    argv = list(sys.argv[1:] if argv is None else argv)
    _file_size_limit_is_an_error()
    if argv[:2] == ["map", "new"]:
        args = build_map_new_parser().parse_args(argv[2:])
    else:
        args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DataErrors as exc:
        for e in exc.errors:
            print(e, file=sys.stderr)
        return EXIT_BAD_INPUT
    except (DataError, CliError) as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
