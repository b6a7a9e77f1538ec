"""Issue 12, item 5: "A rule system is one package, found one way".

Every rule system is one descriptor (``tabletop.engine.rulesystem.RuleSystem``) found
through the ``tabletop.rules`` entry-point group, the shipped five included; a checkout
run without being installed finds the shipped five by name instead, never twice. The
"done when" of the issue: a rule system installed from a separate package (built here
from a temporary directory with pip) shows up in ``tabletop play``, ``validate`` and
``sim`` without touching ``tabletop/games/__init__.py``. A broken third-party entry
point is skipped with a one-line warning naming it, never a crash.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from conftest import REPO

import tabletop.games as games
from tabletop.engine.rulesystem import GROUP, Lazy, RuleSystem
from tabletop.games import SHIPPED, rule_system, rule_systems, rules_problem

pytest.importorskip("hatchling", reason="the test extra installs hatchling to build a package offline")

# --- a rule system shipped as its own package -------------------------------------------

PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "tabletop-tiny-rules"
version = "0.1.0"

[project.entry-points."tabletop.rules"]
tiny = "tiny_rules:RULES"

[tool.hatch.build.targets.wheel]
packages = ["tiny_rules"]
"""

INIT = '''\
"""Tiny Skirmish: a test rule system that is not part of tabletop."""

from tabletop.engine.freeplay import FreePlayMovePolicy, FreePlayPolicy
from tabletop.engine.rulesystem import Knowledge, Lazy, RuleSystem


def knows():
    return Knowledge("Tiny Skirmish", frozenset({"clear", "woods"}), sides=frozenset({"blue", "red"}))


RULES = RuleSystem(
    key="tiny",
    title="Tiny Skirmish",
    los_policy=FreePlayPolicy.for_map,
    move_policy=lambda state: FreePlayMovePolicy(),
    knows=knows,
    ruleset=Lazy("tiny_rules.game", "TinyRules"),
    bots={"waiter": Lazy("tiny_rules.game", "Waiter")},
    default_bots={"blue": "waiter"},
    sim=Lazy("tiny_rules.game"),
)
'''

GAME = '''\
"""One phase a turn, blue's; the game ends after TURNS turns. Also the sim contract."""

from tabletop.engine.actions import END_PHASE, generic_apply, generic_refusal
from tabletop.engine.game import Phase

TURNS = 3
SIDE = "blue"
SCORE = "turns played"


class TinyRules:
    name = "tiny"
    sides = ("blue", "red")
    sequence = (Phase("act", "blue acts", "blue"),)
    undo_across_turns = False

    def begin_phase(self, state, dice):
        return []

    def proposal(self, state):
        return None

    def choices(self, state, side):
        return [dict(END_PHASE)] if side == "blue" else []

    def refusal(self, state, action):
        return generic_refusal(state, action)

    def apply(self, state, action, dice):
        return generic_apply(state, action, dice)

    def outcome(self, state):
        return f"over after {TURNS} turns" if state.turn > TURNS else None


class Waiter:
    """Ends every phase: the first of its legal actions."""

    def choose(self, view):
        return view.choices[0]


def autoplayer():
    return Waiter()


def ranks():
    return ["held"]


def assess(state):
    return "held", state.turn - 1
'''

MAP = """\
name: Tiny field
rules: tiny
grid: {orientation: flat, offset: odd-q, columns: 6, rows: 5}
terrain:
  clear: {symbol: ".", colour: "#9cc46a"}
  woods: {symbol: "W", colour: "#2e6b2e"}
default_terrain: clear
hexes: {"0303": woods}
"""

SCENARIO = """\
name: Tiny skirmish
map: tiny-field
rules: tiny
units:
  - {id: b1, type: infantry, side: blue, hex: "0101"}
  - {id: r1, type: infantry, side: red, hex: "0505"}
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny rule system pip-installed (offline) into a folder of its own: a site
    folder for PYTHONPATH, as a separate package installs beside tabletop."""
    root = tmp_path_factory.mktemp("plugin")
    _write(
        root / "pkg",
        {"pyproject.toml": PYPROJECT, "tiny_rules/__init__.py": INIT, "tiny_rules/game.py": GAME},
    )
    site = root / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "--target",
            str(site),
            str(root / "pkg"),
        ],
        check=True,
        capture_output=True,
    )
    assert (site / "tiny_rules" / "__init__.py").is_file()
    _write(root / "data", {"tiny-field.yaml": MAP, "tiny-skirmish.yaml": SCENARIO})
    return root


def _tabletop(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI in a fresh process, with ``site`` on its path (the checkout's own
    tabletop first, run uninstalled as the tests are)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(site)]))
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.setdefault("TABLETOP_HOME", str(site.parent / "home"))
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        cwd=cwd or REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_an_installed_rule_system_validates_its_map_and_scenario(installed: Path) -> None:
    data = installed / "data"
    done = _tabletop(
        installed / "site", "validate", str(data / "tiny-field.yaml"), str(data / "tiny-skirmish.yaml")
    )
    assert done.returncode == 0, done.stderr
    assert "tiny_rules" not in done.stderr  # no warning: it loaded


def test_an_installed_rule_system_judges_a_map_by_its_own_knowledge(installed: Path) -> None:
    # the map's terrain must be words Tiny Skirmish knows (its descriptor's knows())
    bad = installed / "data" / "bad-field.yaml"
    bad.write_text(MAP.replace("woods: {", "swamp: {").replace(": woods}", ": swamp}"), encoding="utf-8")
    done = _tabletop(installed / "site", "validate", str(bad))
    assert done.returncode == 2
    assert "terrain 'swamp' is not known to Tiny Skirmish" in done.stderr


def test_an_installed_rule_system_is_simulated_by_its_bot(installed: Path) -> None:
    scenario = installed / "data" / "tiny-skirmish.yaml"
    done = _tabletop(installed / "site", "sim", str(scenario), "--games", "2", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["rules"] == "tiny" and report["autoplayer"] == "tiny_rules.game"
    (group,) = report["groups"]
    assert group["played"] == 2 and group["failed"] == 0


def test_an_installed_rule_system_is_played_in_the_window(installed: Path) -> None:
    scenario = installed / "data" / "tiny-skirmish.yaml"
    done = _tabletop(installed / "site", "play", str(scenario), "--frames", "1", "--size", "400x300")
    assert done.returncode == 0, done.stderr


def test_without_the_package_the_key_is_unknown(installed: Path, tmp_path: Path) -> None:
    # the same files with the package not installed: the name is refused, not free play
    done = _tabletop(tmp_path, "validate", str(installed / "data" / "tiny-field.yaml"))
    assert done.returncode == 2
    assert "unknown rule system 'tiny'" in done.stderr


# --- a broken third-party entry point ---------------------------------------------------


def _dist_info(site: Path, name: str, entry: str) -> None:
    """A distribution's metadata written by hand: importlib.metadata reads any
    ``.dist-info`` folder on sys.path."""
    info = site / f"{name}-0.1.dist-info"
    _write(
        info,
        {
            "METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n",
            "entry_points.txt": f"[{GROUP}]\n{entry}\n",
        },
    )


def test_a_broken_entry_point_is_one_warning_line_and_the_rest_works(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _dist_info(site, "broken_rules", "broken = broken_rules_missing:RULES")
    done = _tabletop(site, "validate", "dog-sector")
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()
    assert "broken = 'broken_rules_missing:RULES'" in line and "skipped" in line
    assert "ModuleNotFoundError" in line


# --- the descriptors, in process --------------------------------------------------------


@pytest.fixture
def entry(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The entry points tabletop.games sees, given by the test (none: a plain checkout)."""
    given: list[EntryPoint] = []
    monkeypatch.setattr(games, "entry_points", lambda group: [e for e in given if e.group == group])
    rule_systems.cache_clear()
    yield given
    rule_systems.cache_clear()


def test_the_pyproject_declares_exactly_the_five_shipped_rule_systems() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    assert declared[GROUP] == SHIPPED
    assert set(SHIPPED) == {"dog_sector", "devil_dogs", "omaha", "dogfaces", "dogs_of_war"}


def test_installed_or_not_the_same_five_are_found_once(entry: list[EntryPoint]) -> None:
    plain = rule_systems()  # no entry points: the shipped packages by name
    assert list(plain) == list(SHIPPED)
    rule_systems.cache_clear()
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    # installed, and found twice on sys.path (a wheel and an editable checkout): once each
    entry.extend(EntryPoint(k, v, GROUP) for k, v in declared[GROUP].items())
    entry.extend(EntryPoint(k, v, GROUP) for k, v in reversed(declared[GROUP].items()))
    assert rule_systems() == plain
    for key, system in plain.items():
        assert system.key == key and system.problem() is None


def test_finding_the_rule_systems_imports_no_policy_or_table() -> None:
    # the descriptors are cheap: policies, rulesets and bots load on first use
    code = (
        "import sys; from tabletop.games import rule_systems; rule_systems(); "
        "print(sorted(m for m in sys.modules if m.startswith('tabletop.games.') and "
        "m.split('.')[-1] in ('movement', 'ruleset', 'autoplayer', 'procedures')))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_dog_sector_keeps_its_ruleset_and_autoplayer_on_its_descriptor() -> None:
    from tabletop.games.dog_sector import autoplayer as bot_module
    from tabletop.games.dog_sector.ruleset import DogSectorRules

    system = rule_system("dog_sector")
    assert system is not None and system.ruleset is not None and system.sim is not None
    assert isinstance(system.ruleset(), DogSectorRules)
    assert system.sim() is bot_module and system.default_bots == {"american": "autoplayer"}
    # all five are played by their rulesets: dog_sector, dogfaces (14), devil_dogs (15),
    # dogs_of_war (16) and omaha (17)
    assert all(rule_systems()[k].ruleset is not None for k in SHIPPED)


def _fake(key: str, title: str = "Fake") -> RuleSystem:
    return RuleSystem(key, title, los_policy=Lazy("x", "y"), move_policy=Lazy("x", "y"))


FAKES = {"good": _fake("fake_game"), "taken": _fake("omaha", "Not Omaha"), "badkey": _fake("Bad Key")}


def test_a_third_party_descriptor_is_found_and_a_bad_one_skipped(
    entry: list[EntryPoint], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "fake_rules", type(sys)("fake_rules"))
    for name, rules in FAKES.items():
        setattr(sys.modules["fake_rules"], name.upper(), rules)
    sys.modules["fake_rules"].MAKE = lambda: FAKES["good"]  # type: ignore[attr-defined]
    sys.modules["fake_rules"].WRONG = 42  # type: ignore[attr-defined]
    entry.extend(
        [
            EntryPoint("a_good", "fake_rules:MAKE", GROUP),  # a function returning a descriptor
            EntryPoint("b_taken", "fake_rules:TAKEN", GROUP),  # a shipped key: the shipped one stays
            EntryPoint("c_badkey", "fake_rules:BADKEY", GROUP),
            EntryPoint("d_wrong", "fake_rules:WRONG", GROUP),
            EntryPoint("e_gone", "fake_rules:GONE", GROUP),
        ]
    )
    with caplog.at_level(logging.WARNING, logger="tabletop.games"):
        found = rule_systems()
    assert list(found) == [*SHIPPED, "fake_game"]
    assert found["omaha"].title == "D-Day at Omaha Beach"
    assert rules_problem("fake_game") is None
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 4 and all("\n" not in w for w in warned)
    for name, why in [
        ("b_taken", "rule system key 'omaha' is already D-Day at Omaha Beach"),
        ("c_badkey", "key 'Bad Key' must be lower-case"),
        ("d_wrong", "it names a int, not a tabletop.engine.rulesystem.RuleSystem"),
        ("e_gone", "AttributeError"),
    ]:
        assert any(w.startswith(f"entry point {name} = ") and why in w for w in warned), (name, warned)


def test_a_descriptor_names_only_bots_it_has() -> None:
    bad = RuleSystem("x", "X", Lazy("m", "f"), Lazy("m", "f"), bots={}, default_bots={"blue": "smart"})
    assert bad.problem() == "rule system 'x': default bot 'smart' for 'blue' is not one of its bots"


def test_a_package_registers_itself_as_the_readme_says() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert '[project.entry-points."tabletop.rules"]' in readme
