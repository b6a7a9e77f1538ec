"""The case table: every case of ../shared/reliability-findings.md, with how to build
its inputs, the commands, and the verdict the issue demands (not today's output).

Inputs are the base set of appendix A (data/base) with one change, mid.json made once
with the findings' snippet, and the big maps of appendix B (data/genbig.py). A case id is
``FINDING-short-name``; ``slow`` cases (big maps, long kill loops, every command of a
data input beyond the ones that crashed) run only with TABLETOP_RELIABILITY=long.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import yaml

try:
    from .runner import DATA, LOST, SHARED_DATA, Case, Ctx, Run, child_env, kill_loop, png_ok
except ImportError:  # imported as a top-level module (pytest --doctest-modules)
    from runner import DATA, LOST, SHARED_DATA, Case, Ctx, Run, child_env, kill_loop, png_ok  # type: ignore[no-redef]

Build = Callable[[Ctx], None]

MAP = "maps/small.yaml"
SCEN = "scenarios/battle.yaml"
CTRS = "counters/mine.yaml"
FRAMES = ("--frames", "2", "--size", "400x300")

# --- building inputs -------------------------------------------------------------------


def base(ctx: Ctx) -> None:
    """The base set of appendix A, unchanged."""
    shutil.copytree(SHARED_DATA / "base", ctx.scratch, dirs_exist_ok=True)


def edit(rel: str, old: str, new: str) -> Build:
    """The base set with ``old`` replaced by ``new`` in one of its files."""

    def build(ctx: Ctx) -> None:
        base(ctx)
        p = ctx.scratch / rel
        text = p.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        p.write_text(text.replace(old, new, 1), encoding="utf-8")

    return build


def _append(rel: str, more: str) -> Build:
    def build(ctx: Ctx) -> None:
        base(ctx)
        with (ctx.scratch / rel).open("a", encoding="utf-8") as f:
            f.write(more)

    return build


def then(*steps: Build) -> Build:
    def build(ctx: Ctx) -> None:
        for s in steps:
            s(ctx)

    return build


def mid(rel: str = "mid.json") -> Build:
    def build(ctx: Ctx) -> None:
        p = ctx.scratch / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ctx.mid, p)

    return build


def bad_save(change: Callable[[dict], None]) -> Build:
    """bad.json: mid.json with one edit (as the findings' one-line Python does)."""

    def build(ctx: Ctx) -> None:
        d = json.loads(ctx.mid.read_text(encoding="utf-8"))
        change(d)
        (ctx.scratch / "bad.json").write_text(json.dumps(d, indent=1), encoding="utf-8")

    return build


def bad_save_text(make: Callable[[str], str]) -> Build:
    def build(ctx: Ctx) -> None:
        (ctx.scratch / "bad.json").write_text(make(ctx.mid.read_text(encoding="utf-8")), encoding="utf-8")

    return build


def autosave_mid(name: str = "dog-sector") -> Build:
    """mid.json as yesterday's autosave of ``name`` in the home folder."""

    def build(ctx: Ctx) -> None:
        (ctx.home / "autosave").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ctx.mid, ctx.home / "autosave" / f"{name}.json")

    return build


def big(n: int) -> Build:
    """The appendix B maps and scenario of size n in the scratch folder."""

    def build(ctx: Ctx) -> None:
        (ctx.scratch / "maps").mkdir(exist_ok=True)
        (ctx.scratch / "scenarios").mkdir(exist_ok=True)
        subprocess.run([sys.executable, str(DATA / "genbig.py"), str(n)], cwd=ctx.scratch, check=True)

    return build


# --- checks of what happened -------------------------------------------------------------


def out_has(text: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        bad = [r for r in runs if r.code == 0 and text not in r.out]
        return f"stdout lacks {text!r}: {bad[0].out.strip()[:160]}" if bad else None

    return check


def err_mentions(text: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        bad = [r for r in runs if r.code == 2 and text not in r.err]
        return f"stderr does not name {text!r}: {bad[0].err.strip()[:160]}" if bad else None

    return check


def load_says_what_it_ignores(ctx: Ctx, runs: list[Run]) -> str | None:
    """Finding W7a: --load with other arguments is refused, or says which it ignores."""
    r = runs[-1]
    if r.code != 0:
        return None
    said = r.out + r.err
    missing = [a for a in ("dogfaces-demo", "--option", "--seed", "--setup") if a not in said]
    return f"--load ignored {', '.join(missing)} without a word" if missing else None


def out_lacks(text: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        bad = [r for r in runs if r.code == 0 and text in r.out]
        return f"stdout says {text!r}: {bad[0].out.strip()[:160]}" if bad else None

    return check


def nothing_printed(secret: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        leaked = [r for r in runs if secret in r.out or secret in r.err]
        return f"the private file's contents were printed ({secret!r})" if leaked else None

    return check


def png_whole_or_absent(rel: str) -> Callable[[Ctx, list[Run]], str | None]:
    """Finding S4: the PNG written is a valid PNG, or nothing was written."""

    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        p = ctx.scratch / rel
        if p.is_file() and not png_ok(p):
            return f"{rel} is a broken PNG ({p.stat().st_size} bytes)"
        if runs[-1].code == 0 and not p.is_file():
            return f"exit 0 but no {rel}"
        return None

    return check


def absent(rel: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        return f"{rel} was left behind after a failure" if (ctx.scratch / rel).exists() and runs[-1].code else None

    return check


def mid_survives(ctx: Ctx, runs: list[Run]) -> str | None:
    """Finding S2: yesterday's game (mid.json's bytes) is still somewhere in the home."""
    want = ctx.mid.read_bytes()
    for p in ctx.home.rglob("*"):
        if p.is_file() and not p.is_symlink() and p.stat().st_size == len(want) and p.read_bytes() == want:
            return None
    return "the previous autosave (62 entries) is gone"


def save_loads(rel: str) -> Callable[[Ctx, list[Run]], str | None]:
    """The file at ``rel`` (~/ for the home) is a whole save (JSON with its 7 keys)."""

    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        p = ctx.home / rel[2:] if rel.startswith("~/") else ctx.scratch / rel
        try:
            d = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return f"{rel} is not a whole save: {exc}"
        return None if isinstance(d, dict) and d.get("format") == "tabletop-save" else f"{rel} is not a save"

    return check


def all_of(*checks: Callable[[Ctx, list[Run]], str | None]) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        for c in checks:
            problem = c(ctx, runs)
            if problem:
                return problem
        return None

    return check


def same_json_but_seconds(ctx: Ctx, runs: list[Run]) -> str | None:
    """Section D: the runs print the same JSON apart from the wall-clock "seconds"."""

    def strip(x: object) -> object:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "seconds"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    try:
        outs = [strip(json.loads(r.out)) for r in runs]
    except ValueError as exc:
        return f"not JSON: {exc}"
    return None if all(o == outs[0] for o in outs) else "the runs differ"


def map_named(name: str, rel: str = "m.yaml") -> Callable[[Ctx, list[Run]], str | None]:
    """Finding W5: the map written is valid YAML whose name is exactly --name, nothing injected."""

    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        p = ctx.scratch / rel
        if runs[-1].code != 0:
            return f"{rel} was left behind after a refusal" if p.exists() and not runs[-1].argv.count("--force") else None
        try:
            d = yaml.safe_load(p.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            return f"{rel} is not valid YAML: {exc}"
        if not isinstance(d, dict) or d.get("name") != name:
            return f"{rel} has name {d.get('name') if isinstance(d, dict) else d!r}, not {name!r}"
        if "rules" in d:
            return f"{rel} got a `rules:` key from --name"
        return None

    return check


def still_good_map(rel: str) -> Callable[[Ctx, list[Run]], str | None]:
    """map new --force with a bad name: the old map is replaced by a good one or kept."""

    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        try:
            d = yaml.safe_load((ctx.scratch / rel).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            return f"{rel} is broken now: {exc}"
        return None if isinstance(d, dict) and isinstance(d.get("name"), str) and "rules" not in d else f"{rel} is broken now"

    return check


def mode_kept(rel: str, mode: int) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        got = (ctx.scratch / rel).stat().st_mode & 0o777
        return None if got == mode else f"{rel} mode {oct(mode)} became {oct(got)}"

    return check


def bad_files_named(*rels: str) -> Callable[[Ctx, list[Run]], str | None]:
    def check(ctx: Ctx, runs: list[Run]) -> str | None:
        missing = [r for r in rels if Path(r).name not in runs[-1].err]
        return f"not reported: {', '.join(missing)}" if missing else None

    return check


# --- the commands of appendix A ---------------------------------------------------------------

MAP_CMDS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", MAP),
    "map": ("map", MAP),
    "map-json": ("map", MAP, "--json"),
    "los": ("los", MAP, "0101", "0604"),
    "viewshed": ("viewshed", MAP, "0101"),
    "render": ("render", MAP, "--out", "out.png", "--size", "400x300"),
    "play": ("play", MAP, *FRAMES, "--save", "save.json", "--seed", "1"),
    "scen-validate": ("validate", SCEN),
    "scen-play": ("play", SCEN, *FRAMES, "--save", "save.json", "--seed", "1"),
}
SCEN_CMDS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", SCEN),
    "map-json": ("map", SCEN, "--json"),
    "los": ("los", SCEN, "larry", "zack"),
    "reach": ("reach", SCEN, "larry"),
    "render": ("render", SCEN, "--out", "out.png", "--size", "400x300"),
    "play": ("play", SCEN, *FRAMES, "--save", "save.json", "--seed", "1"),
}
CTRS_CMDS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", CTRS),
    "scen-validate": ("validate", SCEN),
    "scen-render": ("render", SCEN, "--out", "out.png", "--size", "400x300"),
    "scen-play": ("play", SCEN, *FRAMES, "--save", "save.json", "--seed", "1"),
}
KINDS = {"map": MAP_CMDS, "scen": SCEN_CMDS, "ctrs": CTRS_CMDS}


def data_cases(
    fid: str,
    name: str,
    build: Build,
    kind: str,
    *,
    ci: Iterable[str] = ("validate",),
    only: Iterable[str] | None = None,
    expect: str = "refused",
    wrong: tuple[str, ...] = (),
    line: bool = True,
    category: int = 1,
    **more: object,
) -> list[Case]:
    """One input sent through the commands of its kind; the ``ci`` ones run by default."""
    cmds = KINDS[kind]
    keys = list(only) if only is not None else list(cmds)
    ci = set(ci)
    return [
        Case(f"{fid}-{name}-{k}", category, build, (cmds[k],), expect=expect, wrong=wrong, line=line,
             slow=k not in ci, **more)  # type: ignore[arg-type]
        for k in keys
    ]  # fmt: skip


def deep_flow(n: int) -> str:
    return "[" * n + "]" * n


def deep_block(n: int) -> str:
    return "x:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(n)) + " " * (n + 1) + "k: 1\n"


def billion_laughs() -> str:
    lines = ['      l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"      l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "\n".join(lines)


WOODS = 'woods: {symbol: "W", colour: "#2e6b2e", properties: {los: block}}'


def only_brackets(ctx: Ctx) -> None:
    """The map file is only 100000 `[` and then 100000 `]`."""
    base(ctx)
    ctx.write(MAP, deep_flow(100000) + "\n")


def woods_with(extra: str) -> Build:
    return edit(MAP, WOODS, 'woods: {symbol: "W", colour: "#2e6b2e", properties: {los: block, ' + extra + "}}")


# --- category 1: bad data files --------------------------------------------------------------


def t1_cases() -> list[Case]:
    """T1 and the data rows of H2, H3, H6: each input through every command that reads it."""
    both = (MAP, SCEN)
    out: list[Case] = []
    out += data_cases("T1", "deep-flow-2000", woods_with("deep: " + deep_flow(2000)), "map",
                      ci=("validate", "scen-validate"), wrong=(MAP,))
    out += data_cases("T1", "deep-flow-50000", woods_with("deep: " + deep_flow(50000)), "map",
                      ci=("map-json",), wrong=(MAP,))
    out += data_cases("T1", "only-brackets-100000",
                      only_brackets, "map", ci=("los",), wrong=(MAP,))
    out += data_cases("T1", "block-mapping-3000", _append(MAP, deep_block(3000)), "map",
                      ci=("viewshed",), wrong=(MAP,))
    out += data_cases("T1", "flow-mapping-900", woods_with("deep: " + "{a: " * 900 + "1" + "}" * 900), "map",
                      ci=("render",), wrong=(MAP,))
    out += data_cases("T1", "scen-victory-mapping-900", _append(SCEN, "victory: " + "{deep: " * 900 + "1" + "}" * 900 + "\n"),
                      "scen", ci=("reach",), wrong=(SCEN,))
    out += data_cases("T1", "scen-victory-flow-50000", _append(SCEN, "victory: {deep: " + deep_flow(50000) + "}\n"),
                      "scen", ci=("play",), wrong=(SCEN,))
    out += data_cases("T1", "ctrs-flow-50000", _append(CTRS, "x: " + deep_flow(50000) + "\n"), "ctrs",
                      ci=("scen-validate",), wrong=(CTRS,))
    out += data_cases("T1", "map-name-nul", edit(MAP, "name: Small test map", "name: Small\x00map"), "map",
                      ci=("scen-play",), wrong=(MAP,))
    out += data_cases("T1", "map-name-control", edit(MAP, "name: Small test map", "name: Small\x07\x1bmap"), "map",
                      ci=("map",), wrong=(MAP,))
    out += data_cases("T1", "scen-name-nul", edit(SCEN, "name: Small test scenario", "name: Small\x00scenario"),
                      "scen", ci=("los",), wrong=(SCEN,))
    out += data_cases("T1", "ctrs-name-nul", edit(CTRS, "name: Mine", "name: Mi\x00ne"), "ctrs",
                      ci=("scen-render",), wrong=(CTRS,))
    out += data_cases("T1", "default-terrain-list", edit(MAP, "default_terrain: grass", "default_terrain: [grass]"),
                      "map", ci=("play",), wrong=(MAP,))
    out += data_cases("T1", "default-terrain-dict", edit(MAP, "default_terrain: grass", "default_terrain: {a: 1}"),
                      "map", ci=("map-json",), wrong=(MAP,))
    out += data_cases("T1", "hexes-list", edit(MAP, '"0504": woods', '"0504": [woods]'), "map",
                      ci=("scen-validate",), wrong=(MAP,))
    out += data_cases("T1", "name-surrogate", edit(MAP, "name: Small test map", 'name: "Small \\ud800 map"'), "map",
                      only=("validate", "map", "play", "render", "scen-validate", "scen-play"),
                      ci=("validate", "render"), expect="either", wrong=(MAP,))
    out += data_cases("T1", "scen-map-5000-chars", edit(SCEN, "map: small", "map: " + "a" * 5000), "scen",
                      ci=("render",), wrong=(SCEN,))
    out += data_cases("T1", "timestamp-property", woods_with("when: 2001-12-14t21:59:43.10-05:00"), "map",
                      only=("validate", "map-json"), ci=("validate", "map-json"), expect="either", wrong=(MAP,))
    empty_region = edit(MAP, "north-edge: {kind: setup, rows: [1, 1]}", "north-edge: {kind: setup, hexes: []}")
    out += data_cases("T1", "region-no-hexes", empty_region, "map",
                      only=("validate", "render", "play", "scen-play"), ci=("render", "play"),
                      expect="either", wrong=(MAP,))
    unsat1 = _append(SCEN, "setup:\n  - {side: blue, type: larry, count: 30, zone: {regions: [north-edge]}}\n"
                           "constraints:\n  - {per-hex: all, pieces: {side: blue}, max: 1}\n")
    unsat2 = _append(SCEN, "setup:\n  - {side: blue, type: larry, count: 12, zone: {}}\n"
                           "  - {side: red, type: zack, count: 12, zone: {}}\n"
                           "constraints:\n  - {per-hex: all, pieces: {kind: unit}, max: 1}\n"
                           "  - {run: setup, pieces: {side: blue}, max: 1}\n"
                           "  - {every: setup, pieces: {side: red}, exactly: 5}\n")
    for name, b in (("unsatisfiable-setup-1", unsat1), ("unsatisfiable-setup-2", unsat2)):
        out += data_cases("T1", name, b, "scen", only=("validate", "render", "play"), ci=("render", "play"),
                          wrong=(SCEN,))
    out += data_cases("T1", "dog-sector-rules-no-sections-map", _append(MAP, "rules: dog_sector\n"), "map",
                      only=("render", "scen-play"), ci=("render", "scen-play"), wrong=both)
    out += data_cases("T1", "dog-sector-rules-no-sections-scen", _append(SCEN, "rules: dog_sector\n"), "scen",
                      only=("render", "play"), ci=("render", "play"), wrong=both)
    # H2: a huge setup count; H3: a huge reinforcement count; H6: a billion laughs
    out += data_cases("H2", "setup-count-1e12", _append(SCEN, "setup:\n  - {side: blue, type: larry, count: 1000000000000}\n"),
                      "scen", ci=("validate", "los"), wrong=(SCEN,))
    out += data_cases("H2", "setup-count-1e6", _append(SCEN, "setup:\n  - {side: blue, type: larry, count: 1000000}\n"),
                      "scen", only=("validate", "render", "play"), ci=("validate",), wrong=(SCEN,))
    out += data_cases("H3", "reinforcements-1e12",
                      _append(SCEN, "reinforcements:\n  - {turn: 1, side: blue, type: larry, count: 1000000000000}\n"),
                      "scen", only=("validate", "play", "render"), ci=("validate", "play", "render"), wrong=(SCEN,))
    out += data_cases("H3", "reinforcements-1e6",
                      _append(SCEN, "reinforcements:\n  - {turn: 1, side: blue, type: larry, count: 1000000}\n"),
                      "scen", only=("validate", "play"), ci=(), wrong=(SCEN,))
    laughs = edit(MAP, WOODS, 'woods:\n    symbol: "W"\n    colour: "#2e6b2e"\n    properties:\n      los: block\n' + billion_laughs())
    out += data_cases("H6", "billion-laughs-properties", laughs, "map", only=("validate", "map-json"),
                      ci=("validate", "map-json"), wrong=(MAP,))
    return out


RULES = ("omaha", "dogfaces", "dogs_of_war", "dog_sector", "devil_dogs")


def w_data_cases() -> list[Case]:
    """W1 (terrain unknown to the rules), W2 (reach honours the scenario's rules), W3
    (a misspelt rules name), W4 (unit types, sides and markers checked)."""
    out: list[Case] = []
    for rules in RULES:
        out += data_cases("W1", f"map-rules-{rules}", _append(MAP, f"rules: {rules}\n"), "map",
                          only=("validate", "los", "viewshed"), ci=("validate", "los") if rules == "omaha" else ("validate",),
                          wrong=(MAP,))
        out += data_cases("W1", f"scen-rules-{rules}", _append(SCEN, f"rules: {rules}\n"), "scen",
                          only=("validate", "los"), ci=("validate",), wrong=(MAP, SCEN))
        out.append(Case(f"W1-scen-rules-{rules}-viewshed", 1, _append(SCEN, f"rules: {rules}\n"),
                        (("viewshed", SCEN, "larry"),), wrong=(MAP, SCEN), line=True, slow=True))
    dw = then(base, lambda ctx: ctx.write("scenarios/dw-free.yaml", (SHARED_DATA / "dw-free.yaml").read_text()))
    out.append(Case("W2-dw-free-reach", 1, dw, (("reach", "scenarios/dw-free.yaml", "A1"),), expect="accepted",
                    check=out_has("(free play)")))
    out.append(Case("W2-dw-free-los", 1, dw, (("los", "scenarios/dw-free.yaml", "A1", "R1"),), expect="accepted",
                    check=out_has("(free play)")))
    for rules in ("devil_dogs", "dogs_of_war", "omaha", "dog_sector"):
        out.append(Case(f"W2-scen-rules-{rules}-reach", 1, _append(SCEN, f"rules: {rules}\n"),
                        (("reach", SCEN, "larry"),), expect="either", wrong=(MAP, SCEN), line=True,
                        check=out_lacks("(free play)")))
    typo_map = _append(MAP, "rules: dog_secter\n")
    out += data_cases("W3", "map-rules-typo", typo_map, "map",
                      only=("validate", "map", "map-json", "los", "viewshed", "render", "play"),
                      ci=("validate", "play"), wrong=(MAP,))
    out += data_cases("W3", "scen-rules-chess", _append(SCEN, "rules: chess\n"), "scen",
                      ci=("validate", "los", "render"), wrong=(SCEN,))
    w4 = {
        "unit-type-moe": edit(SCEN, "{id: larry, type: larry,", "{id: larry, type: moe,"),
        "unit-side-green": edit(SCEN, "type: larry, side: blue", "type: larry, side: green"),
        "marker-fog": edit(SCEN, "{type: smoke,", "{type: fog,"),
        "unit-id-true": edit(SCEN, "{id: larry,", "{id: true,"),
    }
    for name, b in w4.items():
        out += data_cases("W4", name, b, "scen", ci=("validate", "play") if name == "unit-type-moe" else ("validate",),
                          wrong=(SCEN,))
    return out


def m_data_cases() -> list[Case]:
    """M1 (counters errors keep the counters file and line), M2 (an unreadable map is
    not 'missing'), M3 (rule-system and lookup errors name a file)."""
    out: list[Case] = []
    m1 = {
        "label-too-long": edit(CTRS, "label: JET}", "label: JETPACKER}"),
        "unknown-symbol": edit(CTRS, "symbol: soldier", "symbol: tuba"),
        "bad-colour": edit(CTRS, '"#568cc8"', '"#56zz"'),
        "unknown-key": _append(CTRS, "colour_scheme: dark\n"),
    }
    for name, b in m1.items():
        ci = ("scen-validate", "scen-render") if name == "label-too-long" else ("scen-validate",)
        out += data_cases("M1", name, b, "ctrs", ci=ci, wrong=(CTRS,))

    def small_is(make: Callable[[Ctx, Path], None]) -> Build:
        def build(ctx: Ctx) -> None:
            base(ctx)
            p = ctx.scratch / MAP
            p.unlink()
            make(ctx, p)

        return build

    m2 = {
        "broken-symlink": small_is(lambda ctx, p: p.symlink_to("nowhere.yaml")),
        "device-zero": small_is(lambda ctx, p: ctx.node(MAP, 1, 5) and None),
        "directory": small_is(lambda ctx, p: p.mkdir()),
        "fifo": small_is(lambda ctx, p: __import__("os").mkfifo(p)),
        "symlink-loop": small_is(lambda ctx, p: p.symlink_to("small.yaml")),
    }
    for name, b in m2.items():
        # the map that exists but cannot be read is named, and why (at the scenario's `map:` line or its own)
        out += data_cases("M2", name, b, "scen", only=("validate", "play"),
                          ci=("validate", "play") if name == "fifo" else ("validate",), wrong=(MAP, SCEN),
                          line=False, check=err_mentions("small.yaml"))
    out.append(Case("M3-play-dog-sector-no-sections", 1, _append(SCEN, "rules: dog_sector\n"),
                    (("play", SCEN, *FRAMES, "--save", "save.json", "--seed", "1"),), wrong=(MAP, SCEN), line=True))
    out.append(Case("M3-los-dog-sector-sides", 1, _append(SCEN, "rules: dog_sector\n"),
                    (("los", SCEN, "larry", "zack"),), wrong=(MAP, SCEN)))
    out.append(Case("M3-los-unknown-unit", 1, base, (("los", SCEN, "moe", "zack"),), wrong=(SCEN,)))
    out.append(Case("M3-reach-unknown-unit", 1, base, (("reach", SCEN, "moe"),), wrong=(SCEN,)))
    out.append(Case("M3-los-id-true", 1, edit(SCEN, "{id: larry,", "{id: true,"), (("los", SCEN, "larry", "zack"),),
                    wrong=(SCEN,)))
    out.append(Case("M1-control-validate-counters-direct", 1, edit(CTRS, "label: JET}", "label: JETPACKER}"),
                    (("validate", CTRS),), wrong=(CTRS,), line=True))
    return out


# --- category 2: bad saves ----------------------------------------------------------------------

LOAD = ("play", "--load", "bad.json", "--frames", "3", "--size", "400x300")


def entry(i: int, key: str, value: object) -> Callable[[dict], None]:
    return lambda d: d["entries"][i].__setitem__(key, value)


def top(key: str, value: object) -> Callable[[dict], None]:
    return lambda d: d.__setitem__(key, value)


def initial(key: str, value: object) -> Callable[[dict], None]:
    return lambda d: d["initial"].__setitem__(key, value)


def save_cases() -> list[Case]:
    out: list[Case] = []

    def bad(fid: str, name: str, b: Build, **more: object) -> None:
        out.append(Case(f"{fid}-{name}", 2, b, (LOAD,), wrong=("bad.json",), **more))  # type: ignore[arg-type]

    bad("H1", "head-own-parent", bad_save(entry(61, "parent", 61)))
    bad("H1", "parent-cycle-10-20", bad_save(entry(10, "parent", 20)))
    for name, value in (("str", "move"), ("list", ["move"]), ("null", None)):
        bad("T2", f"action-{name}", bad_save(entry(3, "action", value)))
    bad("T2", "parent-9999", bad_save(entry(10, "parent", 9999)))
    bad("T2", "initial-boxes-list", bad_save(initial("boxes", [])))
    bad("T2", "initial-options-list", bad_save(initial("options", ["x"])))
    bad("T2", "rules-free", bad_save(top("rules", "free")))
    bad("T2", "rules-list", bad_save(top("rules", ["dog_sector"])))
    for name, value in (("int", 5), ("null", None), ("list", ["dog-sector"])):
        bad("T2", f"source-{name}", bad_save(top("source", value)))
    deep = '{"format": "tabletop-save", "version": 1, "x": ' + "[" * 200000 + "]" * 200000 + "}"
    bad("T2", "json-nested-200000", bad_save_text(lambda t: deep))
    bad("T2", "json-nested-in-entries", bad_save_text(lambda t: t.replace('"entries": [', '"entries": [' + "[" * 100000 + "]" * 100000 + ",", 1)))
    secret = "root:$6$NOT-A-REAL-HASH$leak:20263:0:99999:7:::"

    def private(name: str, text: str) -> Build:
        def build(ctx: Ctx) -> None:
            p = ctx.write(f"private/{name}", text)
            bad_save(top("source", str(p)))(ctx)

        return build

    bad("X1", "source-private-shadow-like", private("shadow", f"{secret}\nsystemd-network:!*:20263:::::\n"),
        check=nothing_printed("NOT-A-REAL-HASH"))
    bad("X1", "source-private-passwd-like", private("passwd", "root:x:0:0:root:/root:/bin/bash\n"),
        check=nothing_printed("/root:/bin/bash"))
    bad("X1", "source-relative-path", bad_save(top("source", "../case/private.yaml")))

    def node_source(ctx: Ctx) -> None:
        p = ctx.node("zero", 1, 5)
        bad_save(top("source", str(p)))(ctx)

    def dir_source(ctx: Ctx) -> None:
        (ctx.scratch / "adir").mkdir()
        bad_save(top("source", str(ctx.scratch / "adir")))(ctx)

    bad("M4", "source-device-zero", node_source)
    bad("M4", "source-directory", dir_source)
    bad("M4", "source-empty", bad_save(top("source", "")))
    for digits in (5000, 4301):
        bad("M4", f"seed-{digits}-digits", bad_save_text(lambda t, n=digits: t.replace('"seed": 7', '"seed": ' + "9" * n, 1)))
    bad("W7d", "entry-turn-text", bad_save(entry(5, "turn", "one")))
    out.append(Case("W7a-load-ignores-arguments", 2, then(base, mid()),
                    (("play", "dogfaces-demo", "--load", "mid.json", "--option", "bombardment=heavy", "--seed", "99",
                      "--setup", "manual", "--frames", "2", "--size", "400x300"),),
                    expect="either", check=load_says_what_it_ignores))
    out.append(Case("S2-new-game-over-autosave", 2, autosave_mid(), (("play", "--frames", "1", "--size", "400x300"),),
                    expect="either", may_change=("~/autosave/dog-sector.json",), check=mid_survives,
                    check_verdict=LOST))
    user = then(base, autosave_mid(),
                lambda ctx: ctx.write("scenarios/dog-sector.yaml", (ctx.scratch / SCEN).read_text()))
    out.append(Case("S2-user-scenario-same-stem", 2, user,
                    (("play", "scenarios/dog-sector.yaml", "--frames", "1", "--size", "400x300", "--seed", "1"),),
                    expect="either", may_change=("~/autosave/dog-sector.json",), check=mid_survives,
                    check_verdict=LOST))
    out.append(Case("control-load-mid", 2, mid(), (("play", "--load", "mid.json", "--frames", "3", "--size", "400x300"),),
                    expect="accepted", check=out_has("62 log entries")))
    return out


# --- category 3: faults --------------------------------------------------------------------------

KIB = 1024
PLAY3 = ("play", "--frames", "2", "--size", "400x300", "--seed", "3")


def fault_cases() -> list[Case]:
    out: list[Case] = []

    def readonly_autosave(ctx: Ctx) -> None:
        autosave_mid()(ctx)
        (ctx.home / "autosave" / "dog-sector.json").chmod(0o444)

    out.append(Case("S1-readonly-autosave-replaced", 3, readonly_autosave, (PLAY3,), expect="either"))

    def home_on_tmpfs(size: str) -> Build:
        def build(ctx: Ctx) -> None:
            ctx.tmpfs("../home", size)

        return build

    def home_readonly(ctx: Ctx) -> None:
        ctx.tmpfs("../home", "1m", readonly=True)

    def home_is_file(ctx: Ctx) -> None:
        ctx.home.rmdir()
        ctx.home.write_text("not a folder\n")

    def home_no_write(ctx: Ctx) -> None:  # as root mode 555 is ignored: an empty read-only mount is the same fault
        ctx.tmpfs("../home", "1m", readonly=True)

    s3 = {
        "home-tmpfs-16k": (home_on_tmpfs("16k"), None),
        "home-mode-555": (home_no_write, None),
        "home-is-a-file": (home_is_file, None),
        "home-readonly-mount": (home_readonly, None),
        "ulimit-f-16": (lambda ctx: None, 16 * KIB),
    }
    for name, (b, fsize) in s3.items():
        out.append(Case(f"S3-{name}", 3, b, (PLAY3,), expect="either", fsize=fsize))
    out.append(Case("S3-home-tmpfs-64k-mid-game", 3, home_on_tmpfs("64k"),
                    (("play", "--frames", "300", "--size", "400x300", "--seed", "3", "--bot", "american"),),
                    expect="either", timeout=60))
    out.append(Case("S3-ulimit-f-60-continue-mid", 3, autosave_mid(),
                    (("play", "--load", "{H}/autosave/dog-sector.json", "--bot", "american", "--frames", "400",
                      "--size", "400x300"),),
                    expect="either", fsize=60 * KIB, timeout=60, may_change=("~/autosave/dog-sector.json",),
                    check=save_loads("~/autosave/dog-sector.json"), check_verdict=LOST))
    out.append(Case("S3-map-new-readonly", 3, lambda ctx: ctx.tmpfs("ro", "1m", readonly=True) and None,
                    (("map", "new", "--columns", "5", "--rows", "5", "--out", "ro/m.yaml"),), wrong=("ro/m.yaml",)))
    out.append(Case("S3-map-new-ulimit-f-16", 3, lambda ctx: None,
                    (("map", "new", "--columns", "99", "--rows", "99", "--out", "m.yaml"),), wrong=("m.yaml",),
                    fsize=16 * KIB, check=absent("m.yaml")))
    render = ("render", "dog-sector", "--out")
    out.append(Case("S4-render-tmpfs-16k", 3, lambda ctx: ctx.tmpfs("small", "16k") and None,
                    ((*render, "small/x.png"),), wrong=("small/x.png",), check=png_whole_or_absent("small/x.png")))
    out.append(Case("S4-render-ulimit-f-16", 3, lambda ctx: None, ((*render, "x.png"),), wrong=("x.png",),
                    fsize=16 * KIB, check=png_whole_or_absent("x.png")))

    def old_png(ctx: Ctx) -> None:
        subprocess.run([sys.executable, "-m", "tabletop", "render", "dog-sector", "--out", "x.png", "--size", "400x300"],
                       cwd=ctx.scratch, env=child_env(ctx.home), check=True, capture_output=True)

    out.append(Case("S4-render-ulimit-f-16-existing-png", 3, old_png, ((*render, "x.png"),), wrong=("x.png",),
                    fsize=16 * KIB))
    out.append(Case("S4-render-readonly-mount", 3, lambda ctx: ctx.tmpfs("ro", "1m", readonly=True) and None,
                    ((*render, "ro/x.png", "--size", "400x300"),), wrong=("ro/x.png",)))
    out.append(Case("W7c-kill-9-save-loop-10", 3, lambda ctx: None, (), expect="accepted",
                    custom=kill_loop(10, 11), timeout=200))
    out.append(Case("W7c-kill-9-save-loop-150", 3, lambda ctx: None, (), expect="accepted",
                    custom=kill_loop(150, 12), timeout=900, slow=True))
    return out


# --- category 4: CLI arguments ----------------------------------------------------------------------


def cli_cases() -> list[Case]:
    out: list[Case] = []

    def c(cid: str, b: Build, *cmds: tuple[str, ...], **more: object) -> None:
        out.append(Case(cid, 4, b, cmds, **more))  # type: ignore[arg-type]

    play = ("play", "--frames", "2", "--size", "400x300")
    c("S1-save-to-device-node", lambda ctx: ctx.node("null", 1, 3) and None, (*play, "--save", "null"),
      expect="either", wrong=("null",))

    def link(ctx: Ctx) -> None:
        ctx.write("target.json", '{"keep":"me"}\n')
        (ctx.scratch / "link").symlink_to("target.json")

    c("S1-save-to-symlink", link, (*play, "--save", "link"), expect="either", wrong=("link",),
      may_change=("target.json",), check=lambda ctx, runs: None if runs[0].code else save_loads("target.json")(ctx, runs))

    def old_save(ctx: Ctx) -> None:
        mid("out.json")(ctx)
        (ctx.scratch / "out.json").chmod(0o644)

    c("S1-save-keeps-file-mode", old_save, (*play, "--seed", "3", "--save", "out.json"), expect="either",
      wrong=("out.json",), may_change=("out.json",), check=mode_kept("out.json", 0o644))
    for name, args in (
        ("bot-german", ("play", "--bot", "german", "--frames", "1", "--size", "400x300")),
        ("bot-nobody", ("play", "--bot", "nobody", "--frames", "2", "--size", "400x300")),
    ):
        c(f"S2-{name}-over-autosave", autosave_mid(), args)
    c("S2-dogfaces-bot-green-over-autosave", autosave_mid("dogfaces"),  # a side it has not (issue 14: it has bots)
      ("play", "dogfaces", "--bot", "green", "--frames", "2", "--size", "400x300"))
    c("S3-save-to-folder", lambda ctx: (ctx.scratch / "cli").mkdir(), (*play, "--save", "cli"), wrong=("cli",))
    c("S3-save-below-a-file", lambda ctx: ctx.write("file.txt", "x\n") and None, (*play, "--save", "file.txt/x.json"),
      wrong=("file.txt/x.json", "file.txt"))
    c("S4-render-to-folder", lambda ctx: (ctx.scratch / "cli").mkdir(), ("render", "dog-sector", "--out", "cli"),
      wrong=("cli",))
    c("S4-render-to-full-device", lambda ctx: ctx.node("full", 1, 7) and None,
      ("render", "dog-sector", "--out", "full", "--size", "400x300"), wrong=("full",))
    huge = "999999999999999999999999999999"
    for scen, unit in (("dogfaces-demo", "larry"), ("dogs-of-war-demo", "A1"), ("belleau-wood-demo", "M1")):
        c(f"H4-reach-budget-1e30-{scen}", lambda ctx: None, ("reach", scen, unit, "--budget", huge), expect="either")
    c("H4-reach-budget-1e8", lambda ctx: None, ("reach", "dogfaces-demo", "larry", "--budget", "100000000"),
      expect="either")
    c("H4-reach-budget-1e7", lambda ctx: None, ("reach", "dogfaces-demo", "larry", "--budget", "10000000"),
      expect="either")

    def pairs(ctx: Ctx) -> None:
        import random

        ctx.write("pairs-binary.txt", random.Random(5).randbytes(5000))
        ctx.write("pairs-latin.txt", b"\xff\xfe0101 0202\n")

    c("T3-los-pairs-binary", pairs, ("los", "dog-sector", "--pairs", "pairs-binary.txt"), wrong=("pairs-binary.txt",))
    c("T3-los-pairs-latin", pairs, ("los", "dog-sector", "--pairs", "pairs-latin.txt"), wrong=("pairs-latin.txt",))
    c("T3-render-los-same-hex", lambda ctx: None,
      ("render", "dog-sector", "--out", "x.png", "--size", "400x300", "--los", "0101", "0101"), expect="either")
    c("W3-play-rules-chess", lambda ctx: None, ("play", "--rules", "chess", "--frames", "2", "--size", "400x300"))
    c("W3-render-rules-chess", lambda ctx: None, ("render", "dog-sector", "--out", "x.png", "--rules", "chess"))
    names = {
        "colon": "Hill 112: the assault",
        "hash": "#1 map",
        "quote": '"quoted',
        "brackets": "[draft] map",
        "alias": "*alias",
        "yes": "yes",
        "empty": "",
        "tab": "a\tb",
        "newline-injection": "x\nrules: dog_sector",
    }
    for key, name in names.items():
        c(f"W5-map-new-name-{key}", lambda ctx: None,
          ("map", "new", "--columns", "5", "--rows", "5", "--out", "m.yaml", "--name", name),
          expect="either", check=map_named(name))

    def good_map(ctx: Ctx) -> None:
        subprocess.run([sys.executable, "-m", "tabletop", "map", "new", "--columns", "5", "--rows", "5", "--out",
                        "m.yaml"], cwd=ctx.scratch, env=child_env(ctx.home), check=True, capture_output=True)

    c("W5-map-new-force-bad-name", good_map,
      ("map", "new", "--columns", "5", "--rows", "5", "--out", "m.yaml", "--force", "--name", "Hill 112: the assault"),
      expect="either", may_change=("m.yaml",), check=still_good_map("m.yaml"))
    sim = ("sim", "dog-sector", "--by", "none")
    c("W6-sim-choose-landing", lambda ctx: None, (*sim, "--games", "1", "--option", "choose-landing=true"),
      expect="either", check=out_lacks("FAILED"), timeout=60)
    c("W6-sim-choose-landing-random-german", lambda ctx: None,
      (*sim, "--games", "3", "--option", "random-german-placement=true", "--option", "choose-landing=true"),
      expect="either", check=out_lacks("FAILED"), timeout=90)
    c("W8-validate-bare-shipped-name", lambda ctx: None, ("validate", "dog-sector"), expect="accepted",
      check=out_has("ok"))

    def folder(ctx: Ctx) -> None:
        base(ctx)
        ctx.write("inputs/a-good.yaml", (ctx.scratch / MAP).read_text())
        ctx.write("inputs/b-deep.yaml", (ctx.scratch / MAP).read_text().replace(
            WOODS, 'woods: {symbol: "W", colour: "#2e6b2e", properties: {los: block, deep: ' + deep_flow(2000) + "}}"))
        ctx.write("inputs/c-nul.yaml", (ctx.scratch / MAP).read_text().replace("Small test map", "Small\x00map"))
        ctx.write("inputs/d-good.yaml", (ctx.scratch / MAP).read_text())

    c("T1-validate-folder-reports-every-file", folder, ("validate", "inputs"),
      check=all_of(bad_files_named("b-deep.yaml", "c-nul.yaml"), out_has("d-good.yaml")))
    free_setup = _append(SCEN, "setup:\n  - {side: blue, type: larry, count: 1, zone: {regions: [north-edge]}}\n")
    c("T4-roll-before-setup-done-scenario", free_setup, ("@py", "setuproll.py", SCEN), expect="accepted",
      check=out_has("ok"))
    c("T4-roll-before-setup-done-map", base, ("@py", "setuproll.py", MAP), expect="accepted", check=out_has("ok"))
    return out


# --- category 5: load (section L) ---------------------------------------------------------------


def load_cases() -> list[Case]:
    """Every row of section L: at 150x150 by default (fits CI), the findings' own sizes
    (200, 500, 999) with TABLETOP_RELIABILITY=long."""
    out: list[Case] = []
    for n in (150, 200, 500, 999):
        d = max(2, len(str(n)))
        corner, mid_, last = f"{1:0{d}d}" * 2, f"{n // 2:0{d}d}" * 2, f"{n:0{d}d}" * 2
        m, s = f"maps/big{n}.yaml", f"scenarios/big{n}.yaml"
        rows: dict[str, tuple[str, ...]] = {
            "validate": ("validate", m),
            "map": ("map", m),
            "map-json": ("map", m, "--json"),
            "los-corner-corner": ("los", m, corner, last),
            "viewshed-mid": ("viewshed", m, mid_),
            "viewshed-corner": ("viewshed", m, corner),
            "viewshed-mid-range10": ("viewshed", m, mid_, "--range", "10"),
            "reach-mid": ("reach", s, "a1"),
            "reach-budget": ("reach", s, "a1", "--budget", str(4 * n), "--to", last),
            "render": ("render", m, "--out", f"big{n}.png"),
            "render-viewshed": ("render", s, "--out", f"big{n}-vs.png", "--viewshed", "a1"),
            "render-reach": ("render", s, "--out", f"big{n}-reach.png", "--reach", "a1"),
            "render-los": ("render", s, "--out", f"big{n}-los.png", "--los", "b1", "c1"),
            "play-frames-30": ("play", s, "--frames", "30", "--seed", "1", "--save", f"big{n}-save.json"),
        }
        if n == 999:
            for k in ("viewshed-mid", "viewshed-corner", "render-viewshed"):
                rows.pop(k)  # not in section L: 999x999 full viewsheds were not tried
        for k, cmd in rows.items():
            fid = "H5" if "viewshed" in k and "range10" not in k else "L"
            out.append(Case(f"{fid}-big{n}-{k}", 5, big(n), (cmd,), expect="accepted", slow=n != 150,
                            timeout=30 if n == 150 else 240))
    return out


# --- category 6: determinism (section D) -------------------------------------------------------


def determinism_cases() -> list[Case]:
    out: list[Case] = []
    for games, slow in ((3, False), (20, True)):
        sim = ("sim", "dog-sector", "--games", str(games), "--seed", "5", "--json")
        out.append(Case(f"D-sim-{games}-twice", 6, lambda ctx: None, (sim, sim), expect="accepted",
                        check=same_json_but_seconds, slow=slow, timeout=120))
        out.append(Case(f"D-sim-{games}-jobs-2", 6, lambda ctx: None, (sim, (*sim, "--jobs", "2")), expect="accepted",
                        check=same_json_but_seconds, slow=slow, timeout=120))
    options = {"none": {}, "heavy": {"bombardment": "heavy"}, "random-german": {"random-german-placement": True}}
    for seed in (1, 5, 17, 99):
        for oname, opts in options.items():
            for n in (10, 73, 200, 450):
                ci = (seed, oname, n) in ((5, "none", 73), (17, "heavy", 200))
                out.append(Case(f"D-resume-seed{seed}-{oname}-after{n}", 6, lambda ctx: None,
                                (("@py", "resume.py", str(seed), str(n), json.dumps(opts)),), expect="accepted",
                                check=out_has("same"), slow=not ci, timeout=120))
    out.append(Case("D-hand-dice-used", 6, lambda ctx: None, (("@py", "handdice.py", "used"),), expect="accepted",
                    check=out_has("same")))
    out.append(Case("W7b-hand-dice-pending", 6, lambda ctx: None, (("@py", "handdice.py", "pending"),),
                    expect="accepted", check=out_has("same")))
    return out


# --- what held up: the findings' passing cases, kept as regression checks ------------------------


def held_up_cases() -> list[Case]:
    """The "What held up" list: YAML tags, names that reach outside, bad saves refused
    cleanly; plus the related small issues of S2 and X1 that have no table row."""
    out: list[Case] = []
    tags = {
        "python-apply-os-system": '!!python/object/apply:os.system ["touch marker"]',
        "python-name": "!!python/name:os.system",
        "python-new-popen": '!!python/object/new:subprocess.Popen [["touch", "marker"]]',
        "custom-tag": "!mine x",
        "binary": "!!binary aGVsbG8=",
        "set": "!!set {a, b}",
    }
    for name, tag in tags.items():
        out.append(Case(f"held-yaml-tag-{name}", 1, edit(MAP, "name: Small test map", f"name: {tag}"),
                        (MAP_CMDS["validate"],), wrong=(MAP,), line=True,
                        check=lambda ctx, runs: "a tag ran code" if (ctx.scratch / "marker").exists() else None))
    for name, value in (("dotdot", "../../private/small"), ("dots", ".."), ("home", "~/x"), ("with-suffix", "small.yaml"),
                        ("cyrillic", "sm\u0430ll"), ("nul", '"sm\\0all"')):
        out.append(Case(f"held-scen-map-name-{name}", 1, edit(SCEN, "map: small", f"map: {value}"),
                        (SCEN_CMDS["validate"],), wrong=(SCEN,), line=True))
    out.append(Case("held-scen-map-absolute", 1,
                    lambda ctx: edit(SCEN, "map: small", f"map: {ctx.scratch / MAP}")(ctx),
                    (SCEN_CMDS["validate"],), wrong=(SCEN,), line=True))

    def passwd_link(ctx: Ctx) -> None:
        base(ctx)
        ctx.write("private/passwd.yaml", "root:x:0:0:root:/root:/bin/bash\nkey: PRIVATE-VALUE\n")
        (ctx.scratch / "scenarios" / "passwd.yaml").symlink_to(ctx.scratch / "private" / "passwd.yaml")
        text = (ctx.scratch / SCEN).read_text().replace("map: small", "map: passwd")
        (ctx.scratch / SCEN).write_text(text)

    out.append(Case("X1-scenario-follows-symlink-beside-it", 1, passwd_link, (SCEN_CMDS["validate"],),
                    wrong=(SCEN, "scenarios/passwd.yaml"), check=nothing_printed("PRIVATE-VALUE")))

    def load(fid: str, b: Build) -> Case:
        return Case(fid, 2, b, (LOAD,), wrong=("bad.json",))

    for name, value in (("0", 0), ("-1", -1), ("newer-3", 3), ("text-1", "1"), ("true", True), ("1.0", 1.0),
                        ("null", None), ("1e30", 10**30)):
        out.append(load(f"held-save-version-{name}", bad_save(top("version", value))))
    out.append(load("held-save-version-missing", bad_save(lambda d: d.pop("version"))))
    out.append(load("held-save-format-wrong", bad_save(top("format", "other-save"))))
    for key in ("source", "rules", "seed", "initial", "entries", "head", "snapshot"):
        out.append(load(f"held-save-lacks-{key}", bad_save(lambda d, k=key: d.pop(k))))
    out.append(load("held-save-truncated", bad_save_text(lambda t: t[: len(t) // 2])))
    out.append(load("held-save-not-json", bad_save_text(lambda t: "this is not json\n")))
    out.append(load("held-save-bom", bad_save_text(lambda t: "\ufeff" + t)))
    out.append(load("held-save-snapshot-edited", bad_save(lambda d: d["snapshot"].__setitem__("turn", 9))))
    out.append(load("held-save-unknown-action", bad_save(lambda d: d["entries"][-1]["action"].__setitem__("do", "teleport"))))

    def other_game_named_dog_sector(ctx: Ctx) -> None:
        autosave_mid()(ctx)
        (ctx.scratch / "saves").mkdir()
        subprocess.run([sys.executable, "-m", "tabletop", "play", "--frames", "1", "--size", "400x300", "--seed", "5",
                        "--save", "saves/dog-sector.json"], cwd=ctx.scratch, env=child_env(ctx.scratch), check=True,
                       capture_output=True)

    out.append(Case("S2-loaded-save-same-stem", 2, other_game_named_dog_sector,
                    (("play", "--load", "saves/dog-sector.json", "--bot", "american", "--frames", "300",
                      "--size", "400x300"),),
                    expect="either", timeout=60, may_change=("~/autosave/dog-sector.json", "saves/dog-sector.json"),
                    check=mid_survives, check_verdict=LOST))
    return out


def all_cases() -> list[Case]:
    """The whole table, in the order of the findings' categories."""
    cases = [*t1_cases(), *w_data_cases(), *m_data_cases(), *save_cases(), *fault_cases(), *cli_cases(),
             *load_cases(), *determinism_cases(), *held_up_cases()]  # fmt: skip
    cases.sort(key=lambda c: c.category)
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    return cases
