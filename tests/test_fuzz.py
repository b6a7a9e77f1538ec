"""Fuzz test: random mutations of every shipped map, counter sheet and scenario, and of a
save, thrown at the loaders and at the command line (issue 11: "every bad input a clear
refusal").

Each mutant is written into a scratch copy of the shipped tree (maps/, counters/ and
scenarios/ side by side, so the names in the files resolve, and saves/mid.json) and:

* loaded in this process (load_map, load_counters, load_scenario, read_save +
  load_game): success, or DataError / DataErrors / SaveError whose every line reads
  `PATH(:LINE)?: message`; anything else, a hang past the time limit or MemoryError
  past the memory limit is a failure;
* run through `tabletop validate`, `map --json`, `los`, `viewshed --range 5`, `reach`,
  `render` and `play --frames 1` (and `play --load` for the save) in a child process
  with a memory, file-size and time limit: exit 0, or exit 2 with one
  `PATH(:LINE)?: message` line per problem; no traceback, no hang, no file of the tree
  changed.

Profiles (registered here, chosen by TABLETOP_FUZZ):

* unset or `ci`: derandomised (a fixed seed), a few examples a test; the module runs in
  well under a minute;
* `long`: random, thousands of examples, one command:
  `TABLETOP_FUZZ=long python -m pytest tests/test_fuzz.py -p no:cacheprovider`.

TABLETOP_FUZZ_EXAMPLES overrides the number of examples a test, TABLETOP_FUZZ_SECONDS
the CPU time a run may take (default 10 s, twenty times what a run needs; four times
that on the clock, so a busy machine is not taken for a hang).
With TABLETOP_FUZZ_LOG=FILE a test does not stop at its first failure:
it writes every failing example to FILE (one JSON object a line), keeps going, and fails
at the end listing them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzz.mutations import Mutant, Source, mutants
from fuzz.runner import call, cli_problems, error_lines_ok, run_cli, snapshot, where_raised
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tabletop.board import load_map
from tabletop.engine import savefile
from tabletop.engine.counters import load_counters
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.savefile import SaveError
from tabletop.engine.scenario import Scenario, load_scenario, open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset
from tabletop.yamlfile import DataError, DataErrors

REPO = Path(__file__).resolve().parent.parent
KINDS = ("maps", "counters", "scenarios")
SAVE = "saves/mid.json"

_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "tabletop-fuzz-ci", max_examples=12, derandomize=True, deadline=None, database=None,
    suppress_health_check=_CHECKS, print_blob=False,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
)  # fmt: skip
settings.register_profile(
    "tabletop-fuzz-long", max_examples=1500, deadline=None, database=None,
    suppress_health_check=_CHECKS, print_blob=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
)  # fmt: skip
LONG = os.environ.get("TABLETOP_FUZZ", "ci") == "long"
PROFILE = settings.get_profile("tabletop-fuzz-long" if LONG else "tabletop-fuzz-ci")
#: examples a test: the profile's (the command line tests take a quarter: a child each)
EXAMPLES = int(os.environ.get("TABLETOP_FUZZ_EXAMPLES", PROFILE.max_examples))
SECONDS = float(os.environ.get("TABLETOP_FUZZ_SECONDS", "10"))
LOG = os.environ.get("TABLETOP_FUZZ_LOG")


def fuzz_settings(examples: int) -> settings:
    return settings(PROFILE, max_examples=max(1, examples))


# --- the scratch tree ------------------------------------------------------------------------


def make_save(path: Path) -> None:
    """A DOG SECTOR save in mid game: seed 7, auto setup, 60 bot actions (the findings'
    mid.json, turn 2)."""
    opened = open_map_or_scenario("dog-sector")
    assert isinstance(opened, Scenario)
    game = new_game(opened, ruleset(opened.rules), seed=7)
    auto_setup(game)
    mod = autoplayer_module(opened.rules)
    game.run({mod.SIDE: mod.autoplayer()}, limit=60)
    savefile.write_save(path, game, "dog-sector")


class Tree:
    """A scratch copy of the shipped data plus a save; one file at a time is swapped for
    a mutant and put back afterwards."""

    def __init__(self, base: Path) -> None:
        self.root = base / "tree"
        for kind in KINDS:
            (self.root / kind).mkdir(parents=True)
            for p in sorted((REPO / kind).glob("*.yaml")):
                shutil.copyfile(p, self.root / kind / p.name)
        (self.root / SAVE).parent.mkdir()
        make_save(self.root / SAVE)
        self.work = base / "work"  # the commands' working folder, home and output
        self.work.mkdir()
        self.sources = {
            rel: Source.read(self.root, rel)
            for rel in [f"{k}/{p.name}" for k in KINDS for p in sorted((self.root / k).glob("*.yaml"))]
            + [SAVE]
        }
        self.users = self._users()

    def _users(self) -> dict[str, list[str]]:
        """For each file, the scenarios that read it from this tree (`map:`, `counters:`)."""
        users: dict[str, list[str]] = {rel: [] for rel in self.sources}
        for rel, src in self.sources.items():
            if rel.startswith("scenarios/") and isinstance(src.tree, dict):
                for key, kind in (("map", "maps"), ("counters", "counters")):
                    ref = f"{kind}/{src.tree.get(key)}.yaml"
                    if ref in users:
                        users[ref].append(rel)
        return users

    def path(self, rel: str) -> Path:
        return self.root / rel

    def put(self, m: Mutant) -> None:
        self.path(m.source).write_bytes(m.data)

    def restore(self, m: Mutant) -> None:
        self.path(m.source).write_bytes(self.sources[m.source].data)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return Tree(tmp_path_factory.mktemp("fuzz"))


def _sources(tree: Tree, kinds: tuple[str, ...]) -> list[Source]:
    return [s for rel, s in tree.sources.items() if rel.split("/")[0] in kinds]


class Found:
    """Failures of one test: the first raises at once (hypothesis then shrinks it),
    unless TABLETOP_FUZZ_LOG asks to log them all and fail at the end."""

    def __init__(self, test: str) -> None:
        self.test = test
        self.seen: dict[str, dict[str, Any]] = {}

    def report(self, m: Mutant, what: str, problems: list[str], key: str) -> None:
        if not problems:
            return
        key = re.sub(r"\d+", "N", key.replace(str(REPO), "").replace("/tmp/", ""))
        entry = {"test": self.test, "mutant": repr(m), "run": what, "problems": problems, "key": key}
        if LOG is None:
            raise AssertionError(f"{m!r}\n  {what}\n  " + "\n  ".join(problems))
        if key not in self.seen:
            self.seen[key] = entry
            with open(LOG, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=True) + "\n")

    def finish(self) -> None:
        assert not self.seen, f"{len(self.seen)} distinct failures (see {LOG}):\n" + "\n".join(
            f"{e['mutant']} | {e['run']} | {e['problems'][0]}" for e in self.seen.values()
        )


# --- loaders in this process ----------------------------------------------------------------


def _judge_raised(exc: BaseException, allowed: tuple[type[BaseException], ...]) -> list[str]:
    if not isinstance(exc, allowed):
        return [f"{type(exc).__name__}: {str(exc)[:300]} (at {where_raised(exc)})"]
    return error_lines_ok(str(exc))


def _loads(tree: Tree, m: Mutant) -> list[tuple[str, Callable[[], Any], tuple[type[BaseException], ...]]]:
    """The in-process loads a mutant of ``m.source`` goes through."""
    p = tree.path(m.source)
    data_errors = (DataError, DataErrors)
    if m.source == SAVE:

        def load() -> Any:
            return load_game(p, open_map_or_scenario, ruleset)

        return [(f"load_game({p.name})", load, (SaveError, *data_errors))]
    kind = m.source.split("/")[0]
    loader = {"maps": load_map, "counters": load_counters, "scenarios": load_scenario}[kind]
    out = [(f"{loader.__name__}({m.source})", lambda: loader(p), data_errors)]
    for user in tree.users[m.source]:
        up = tree.path(user)
        out.append((f"load_scenario({user})", lambda up=up: load_scenario(up), data_errors))
    return out


def _check_loads(tree: Tree, found: Found, m: Mutant) -> None:
    tree.put(m)
    try:
        for what, fn, allowed in _loads(tree, m):
            outcome, exc = call(fn, SECONDS)
            if outcome == "hang":
                found.report(m, what, [f"hang: {exc}"], f"hang {what} {m.how.split(' ')[0]}")
            elif exc is not None:
                problems = _judge_raised(exc, allowed)
                key = (
                    f"{type(exc).__name__} {where_raised(exc)}"
                    if not isinstance(exc, allowed)
                    else (f"message {what.split('(')[0]} {problems[0][:40] if problems else ''}")
                )
                found.report(m, what, problems, key)
    finally:
        tree.restore(m)


@pytest.mark.parametrize("kinds", [("maps",), ("counters",), ("scenarios",), ("saves",)], ids=lambda k: k[0])
def test_loaders_refuse_mutants_cleanly(tree: Tree, kinds: tuple[str, ...]) -> None:
    """Issue 11 (findings T1, T2, H1, H2): a mangled file loads or is refused with
    DataError(s) / SaveError, one `PATH(:LINE)?: message` line each; nothing else is
    raised, nothing hangs, memory stays bounded."""
    found = Found(f"loaders[{kinds[0]}]")

    @fuzz_settings(EXAMPLES)
    @given(mutants(_sources(tree, kinds)))
    def check(m: Mutant) -> None:
        _check_loads(tree, found, m)

    check()
    found.finish()


# --- the command line in a child -------------------------------------------------------------


def _first_last(tree: Tree, rel: str) -> tuple[str, str]:
    """Two places the original file names: first and last unit ids of a scenario, else the
    first and last hex labels of the map."""
    src = tree.sources[rel]
    units = src.tree.get("units") if isinstance(src.tree, dict) else None
    if rel.startswith("scenarios/") and isinstance(units, list) and len(units) >= 2:
        return str(units[0]["id"]), str(units[-1]["id"])
    opened = open_map_or_scenario(str(tree.path(rel)))
    board = opened.board if isinstance(opened, Scenario) else opened
    hexes = sorted(board.grid.hexes(), key=lambda h: board.grid.offset_of(h)[::-1])
    return board.label(hexes[0]), board.label(hexes[-1])


COMMANDS: dict[str, Callable[[str, str, str, Path], list[str]]] = {
    "validate": lambda t, a, b, out: ["validate", t],
    "map-json": lambda t, a, b, out: ["map", t, "--json"],
    "los": lambda t, a, b, out: ["los", t, a, b],
    "viewshed": lambda t, a, b, out: ["viewshed", t, a, "--range", "5"],
    "reach": lambda t, a, b, out: ["reach", t, a],
    "render": lambda t, a, b, out: ["render", t, "--size", "300x200", "--out", str(out / "tmp.png")],
    "play": lambda t, a, b, out: ["play", t, "--frames", "1", "--size", "300x200", "--seed", "1"],
    "play-load": lambda t, a, b, out: ["play", "--load", t, "--frames", "1", "--size", "300x200"],
}


def _targets(tree: Tree, command: str, rel: str) -> list[str]:
    """The files the command is run on for a mutant of ``rel``: the file itself (when the
    command takes that kind) and the scenarios that read it."""
    if command == "play-load":
        return [rel] if rel == SAVE else []
    own = [rel] if rel.startswith("scenarios/") or (rel.startswith("maps/") and command != "reach") else []
    if command == "validate" and rel.startswith("counters/"):
        own = [rel]
    return own + tree.users[rel]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_commands_refuse_mutants_cleanly(tree: Tree, command: str) -> None:
    """Issue 11 (findings T1, T2, H1-H3, H6): `tabletop COMMAND` on a mangled file exits 0,
    or 2 with one `PATH(:LINE)?: message` line per problem; no traceback, no hang, no
    memory past the limit, and no file of the tree changed."""
    found = Found(f"cli[{command}]")
    sources = [s for s in tree.sources.values() if _targets(tree, command, s.rel)]
    places = {rel: _first_last(tree, rel) for rel in tree.sources if rel.startswith(("maps/", "scenarios/"))}
    out = tree.work / "out"
    out.mkdir(exist_ok=True)

    @fuzz_settings(max(1, EXAMPLES // 4))
    @given(mutants(sources), st.data())
    def check(m: Mutant, data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(_targets(tree, command, m.source)), label="target")
        a, b = places.get(target, ("0101", "0102"))
        argv = COMMANDS[command](str(tree.path(target)), a, b, out)
        home = tree.work / "home"
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir()
        tree.put(m)
        try:
            before = snapshot(tree.root)
            run = run_cli(argv, cwd=tree.work, home=home, logs=tree.work, seconds=SECONDS)
            after = snapshot(tree.root)
        finally:
            tree.restore(m)
        problems = cli_problems(run, before, after)
        shown = "tabletop " + " ".join(argv).replace(str(tree.root) + "/", "")
        found.report(m, shown, problems, f"{command} {problems[0][:60] if problems else ''}")

    check()
    found.finish()


def test_unmutated_tree_is_accepted(tree: Tree) -> None:
    """The harness itself: every shipped file and the save load, and every command on
    them exits 0 (so a failure above comes from the mutation, not from the set-up)."""
    for rel in tree.sources:
        m = Mutant(rel, "unchanged", tree.sources[rel].data)
        for what, fn, _ in _loads(tree, m):
            outcome, exc = call(fn, SECONDS)
            assert outcome == "ok", f"{what}: {outcome} {exc!r}"
    out = tree.work / "out"
    out.mkdir(exist_ok=True)
    for command, make in COMMANDS.items():
        targets = sorted({t for rel in tree.sources for t in _targets(tree, command, rel)})
        target = targets[0]
        a, b = _first_last(tree, target) if target.startswith(("maps/", "scenarios/")) else ("", "")
        before = snapshot(tree.root)
        run = run_cli(make(str(tree.path(target)), a, b, out), cwd=tree.work, home=tree.work,
                      logs=tree.work, seconds=SECONDS)  # fmt: skip
        assert run.code == 0 and not cli_problems(run, before, snapshot(tree.root)), (command, run)
