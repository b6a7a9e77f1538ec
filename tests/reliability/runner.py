"""Run one acceptance case of the reliability findings in a child process and judge it.

Why a child process: the cases hang, blow up memory, write files and get killed; none of
that may touch the test process. Each run gets a scratch folder as its working folder, a
scratch TABLETOP_HOME, no display, a time limit ("hang") and an address-space limit
("blowup"), and optionally a file-size limit (a full disk). The outcome is sorted into the
verdicts of the findings file: accepted correctly, clean error, traceback, hang / blowup,
wrong result, data lost, and clean error with a weak message.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: the checkout under test (another worktree can be judged with TABLETOP_RELIABILITY_REPO)
REPO = Path(os.environ.get("TABLETOP_RELIABILITY_REPO") or Path(__file__).resolve().parents[2])
DATA = Path(__file__).resolve().parent / "data"
#: the data shared with the other reliability tests: appendix A's base set, dw-free.yaml
SHARED_DATA = Path(__file__).resolve().parent.parent / "data"

TIMEOUT = 20.0  # seconds a run may take before it counts as a hang
MEMORY = 2 * 1024**3  # bytes of address space a run may use before it counts as a blowup

ACCEPTED = "accepted correctly"
CLEAN = "clean error"
TRACEBACK = "traceback"
HANG = "hang / blowup"
WRONG = "wrong result"
LOST = "data lost"
WEAK = "clean error, weak message"
SKIPPED = "skipped"
VERDICTS = (ACCEPTED, CLEAN, TRACEBACK, HANG, WRONG, LOST, WEAK)

CATEGORIES = {
    1: "1 bad data files",
    2: "2 bad saves + autosave behaviour",
    3: "3 faults (kill -9, disk full, RLIMIT_FSIZE, read-only home)",
    4: "4 CLI arguments",
    5: "5 load (big maps)",
    6: "6 determinism",
}

Command = tuple[str, ...]
"""Arguments after ``python -m tabletop``; ``("@py", "script.py", ...)`` runs a script of
data/ instead. ``{S}`` and ``{H}`` stand for the scratch folder and the home folder."""


class Skip(Exception):
    """The fault a case needs cannot be made on this machine (e.g. no mount)."""


@dataclass
class Run:
    """What one child process did."""

    argv: list[str]
    code: int | None
    out: str
    err: str
    timed_out: bool


@dataclass
class Ctx:
    """The scratch world of one case: its folder, its home, the shared mid.json."""

    scratch: Path
    home: Path
    mid: Path
    mounts: list[Path] = field(default_factory=list)

    def write(self, rel: str, text: str | bytes) -> Path:
        """Create a file under the scratch folder (parents too)."""
        p = self.scratch / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return p

    def tmpfs(self, rel: str, size: str, *, readonly: bool = False) -> Path:
        """A private tmpfs mounted at scratch/rel (Skip when mount is not allowed)."""
        p = self.scratch / rel
        p.mkdir(parents=True, exist_ok=True)
        opts = f"size={size}" + (",ro" if readonly else "")
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(p)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise Skip(f"cannot mount a tmpfs here ({done.stderr.strip()})")
        self.mounts.append(p)
        return p

    def node(self, rel: str, major: int, minor: int) -> Path:
        """A private character device in the scratch folder (1,3 null; 1,5 zero; 1,7 full)."""
        p = self.scratch / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        except PermissionError as exc:
            raise Skip(f"cannot make a device node ({exc})") from None
        return p

    def cleanup(self) -> None:
        for p in reversed(self.mounts):
            subprocess.run(["umount", "-l", str(p)], capture_output=True, check=False)
        self.mounts.clear()


Check = Callable[[Ctx, list[Run]], str | None]


@dataclass(frozen=True)
class Case:
    """One case of the findings: how to build it, what to run, what must happen.

    expect: "refused" (exit 2, every stderr line ``PATH(:LINE)?: `` for a file of
    ``wrong``, LINE when ``line``), "accepted" (exit 0 and ``check`` holds) or "either".
    Every file that exists before the run must be byte-identical after it (kind and mode
    too), except the ones in ``may_change``; no new ``*.tmp`` file may be left.
    """

    id: str
    category: int
    build: Callable[[Ctx], None]
    commands: tuple[Command, ...]
    expect: str = "refused"
    wrong: tuple[str, ...] = ()
    line: bool = False
    check: Check | None = None
    check_verdict: str = WRONG
    may_change: tuple[str, ...] = ()
    fsize: int | None = None
    timeout: float = TIMEOUT
    slow: bool = False
    custom: Callable[[Case, Ctx], tuple[str, str]] | None = None

    def passing(self) -> tuple[str, ...]:
        """The verdicts that mean the finding is fixed."""
        return {"refused": (CLEAN,), "accepted": (ACCEPTED,), "either": (ACCEPTED, CLEAN)}[self.expect]


# --- the child process ---------------------------------------------------------------


def child_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env.update(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TABLETOP_HOME=str(home),
        PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1",
    )  # fmt: skip
    return env


def _limits(fsize: int | None) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return apply


def argv_of(command: Command, ctx: Ctx) -> list[str]:
    words = [w.replace("{S}", str(ctx.scratch)).replace("{H}", str(ctx.home)) for w in command]
    if words and words[0] == "@py":
        return [sys.executable, str(DATA / words[1]), *words[2:]]
    return [sys.executable, "-m", "tabletop", *words]


def start(argv: list[str], ctx: Ctx, fsize: int | None = None) -> subprocess.Popen[str]:
    """A child in its own session (so a hang can be killed with all it started)."""
    return subprocess.Popen(
        argv, cwd=ctx.scratch, env=child_env(ctx.home), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
        preexec_fn=_limits(fsize), start_new_session=True,
    )  # fmt: skip


def run(command: Command, ctx: Ctx, *, fsize: int | None = None, timeout: float = TIMEOUT) -> Run:
    argv = argv_of(command, ctx)
    proc = start(argv, ctx, fsize)
    try:
        out, err = proc.communicate(timeout=timeout)
        return Run(argv, proc.returncode, out, err, False)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Run(argv, None, out, err, True)


# --- looking at the disk -------------------------------------------------------------

Snapshot = dict[str, tuple[object, ...]]


def snapshot(*roots: Path) -> Snapshot:
    """Every entry under the roots: kind, mode and content hash (never opening devices,
    FIFOs or symlinks, so a device node or a loop cannot hang the check)."""
    seen: Snapshot = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                p = Path(dirpath) / name
                try:
                    st = p.lstat()
                except OSError:
                    continue
                kind = stat.S_IFMT(st.st_mode)
                if stat.S_ISREG(st.st_mode):
                    try:
                        digest = hashlib.sha1(p.read_bytes()).hexdigest()
                    except OSError:
                        digest = "unreadable"
                    seen[str(p)] = (kind, stat.S_IMODE(st.st_mode), digest)
                elif stat.S_ISLNK(st.st_mode):
                    seen[str(p)] = (kind, os.readlink(p))
                elif stat.S_ISDIR(st.st_mode):
                    seen[str(p)] = (kind,)
                else:
                    seen[str(p)] = (kind, stat.S_IMODE(st.st_mode), st.st_rdev)
    return seen


def png_ok(path: Path) -> bool:
    """True when ``path`` is a whole PNG: the signature, chunks with good CRCs, IEND last."""
    data = path.read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return False
    i = 8
    while i + 12 <= len(data):
        n = int.from_bytes(data[i : i + 4], "big")
        kind, body = data[i + 4 : i + 8], data[i + 8 : i + 8 + n]
        crc = data[i + 8 + n : i + 12 + n]
        if len(body) != n or len(crc) != 4 or zlib.crc32(kind + body) != int.from_bytes(crc, "big"):
            return False
        if kind == b"IEND":
            return i + 12 + n == len(data)
        i += 12 + n
    return False


# "PATH: ...", "PATH:LINE: ...", or for a file given as an option "--save PATH: ..."
_LINE = re.compile(r"^(?:--[a-z][a-z-]* )?(?P<path>.+?)(?::(?P<line>\d+))?: \S")


def _names(printed: str, wanted: Path, cwd: Path) -> bool:
    p = Path(printed) if os.path.isabs(printed) else cwd / printed
    if os.path.normpath(p) == os.path.normpath(wanted):
        return True
    try:
        return os.path.realpath(p.parent) == os.path.realpath(wanted.parent) and p.name == wanted.name
    except OSError:
        return False


def refusal_problem(case: Case, ctx: Ctx, r: Run) -> str | None:
    """Why a clean exit-2 refusal is weak (the wrong file, no line), or None if it is good."""
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    if not lines:
        return "exit 2 with nothing on stderr"
    if not case.wrong:
        return None
    wanted = [ctx.home / w[2:] if w.startswith("~/") else ctx.scratch / w for w in case.wrong]
    for ln in lines:
        m = _LINE.match(ln)
        if m is None or not any(_names(m["path"], w, ctx.scratch) for w in wanted):
            return f"does not start with {' or '.join(case.wrong)}: {ln[:160]}"
        if case.line and m["line"] is None:
            return f"names no line: {ln[:160]}"
    return None


# --- judging -------------------------------------------------------------------------


def judge_run(case: Case, ctx: Ctx, r: Run) -> tuple[str, str]:
    """The verdict of one command of a case, before the disk is looked at."""
    tail = (r.err.strip().splitlines() or [""])[-1][:200]
    if r.timed_out:
        return HANG, f"killed after {case.timeout:.0f} s"
    if r.code is not None and r.code < 0:
        return HANG, f"killed by signal {-r.code}: {tail}"
    if "MemoryError" in r.err:
        return HANG, f"MemoryError under the {MEMORY // 1024**3} GB limit: {tail}"
    if "Traceback (most recent call last)" in r.err:
        return TRACEBACK, tail
    if r.code == 0:
        if case.expect == "refused":
            return WRONG, "exit 0 for an input that must be refused: " + (r.out.strip().splitlines() or [""])[0][:160]
        return ACCEPTED, ""
    if r.code == 2:
        if case.expect == "accepted":
            return WRONG, f"refused a good input: {tail}"
        weak = refusal_problem(case, ctx, r)
        return (WEAK, weak) if weak else (CLEAN, "")
    return WRONG, f"exit {r.code}: {tail}"


_RANK = {ACCEPTED: 0, CLEAN: 1, WEAK: 2, WRONG: 3, TRACEBACK: 4, HANG: 5, LOST: 6}


def judge(case: Case, ctx: Ctx, runs: list[Run], before: Snapshot) -> tuple[str, str]:
    """The verdict of a whole case: the worst of its commands, then the disk checks."""
    verdict, detail = ACCEPTED, ""
    for r in runs:
        v, d = judge_run(case, ctx, r)
        if _RANK[v] > _RANK[verdict]:
            verdict, detail = v, f"{' '.join(r.argv[2:])[:120]}: {d}"
    after = snapshot(ctx.scratch.parent)
    exempt = {str(ctx.scratch / p) for p in case.may_change} | {str(ctx.home / p[2:]) for p in case.may_change if p.startswith("~/")}
    refused_wrongly = verdict == WRONG and case.expect == "refused"  # the findings' verdict, whatever it wrote
    for path, was in before.items():
        if path in exempt or refused_wrongly:
            continue
        now = after.get(path)
        if now != was:
            what = "is gone" if now is None else "changed"
            return LOST, f"{path} {what} ({was[:2]} -> {now[:2] if now else None})"
    stray = [p for p in after if p.endswith(".tmp") and p not in before]
    if stray and _RANK[verdict] < _RANK[WRONG]:
        return WRONG, f"stray temp file {stray[0]}"
    if verdict in (ACCEPTED, CLEAN) and case.check is not None:
        problem = case.check(ctx, runs)
        if problem:
            return case.check_verdict, problem
    return verdict, detail


@dataclass
class Outcome:
    case: Case
    verdict: str
    detail: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.verdict in self.case.passing()


def execute(case: Case, mid: Path, keep: Path | None = None) -> Outcome:
    """Build the case in a fresh scratch folder, run it, judge it, clean up."""
    t0 = time.monotonic()
    top = Path(tempfile.mkdtemp(prefix=f"rel-{re.sub(r'[^A-Za-z0-9]+', '-', case.id)[:40]}-", dir=keep))
    ctx = Ctx(top / "case", top / "home", mid)
    ctx.scratch.mkdir()
    ctx.home.mkdir()
    try:
        try:
            case.build(ctx)
        except Skip as exc:
            return Outcome(case, SKIPPED, str(exc), time.monotonic() - t0)
        if case.custom is not None:
            verdict, detail = case.custom(case, ctx)
        else:
            before = snapshot(ctx.scratch.parent)
            runs = [run(c, ctx, fsize=case.fsize, timeout=case.timeout) for c in case.commands]
            verdict, detail = judge(case, ctx, runs, before)
        return Outcome(case, verdict, detail, time.monotonic() - t0)
    finally:
        ctx.cleanup()
        if keep is None:
            _remove(top)


def _remove(top: Path) -> None:
    for dirpath, dirnames, _ in os.walk(top):
        for d in dirnames:  # a case may have made a folder unreadable or unwritable
            p = Path(dirpath) / d
            if not p.is_symlink():
                with contextlib.suppress(OSError):
                    p.chmod(0o755)
    shutil.rmtree(top, ignore_errors=True)


def make_mid(folder: Path) -> Path:
    """mid.json made once with the findings' snippet (DOG SECTOR, turn 2, swamp, 62 entries)."""
    out = folder / "mid.json"
    if not out.exists():
        subprocess.run(
            [sys.executable, str(DATA / "make_mid.py"), str(out)], env=child_env(folder), cwd=folder,
            check=True, timeout=120,
        )  # fmt: skip
    return out


def kill_loop(kills: int, seed: int) -> Callable[[Case, Ctx], tuple[str, str]]:
    """Finding W7c and category 3: kill -9 a headless save loop ``kills`` times at random
    moments (fixed seed); afterwards every save must load and no ``.tmp`` may remain."""
    import random

    def custom(case: Case, ctx: Ctx) -> tuple[str, str]:
        rng = random.Random(seed)
        saves = ctx.scratch / "saves"
        saves.mkdir()
        for i in range(kills):
            proc = start(argv_of(("@py", "saveloop.py", str(saves), str(seed + i)), ctx), ctx)
            time.sleep(rng.uniform(0.8, 2.5))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
            if proc.returncode != -signal.SIGKILL:
                verdict = TRACEBACK if "Traceback" in err else WRONG
                return verdict, f"the save loop ended by itself ({proc.returncode}): {err.strip()[-200:]}"
        found = sorted(str(p.relative_to(ctx.scratch)) for p in saves.glob("*.json"))
        if not found:
            return WRONG, "no save was written before the kills"
        loaded = run(("@py", "loadall.py", *found), ctx, timeout=120)
        if loaded.code != 0:
            bad = [ln for ln in loaded.out.splitlines() if "does not load" in ln] or [loaded.err[-200:]]
            return LOST, bad[0]
        # the last kill may land inside a write: its temp file is cleared by the next write
        # of the same save, which a next session makes (W7c: before, nothing ever did)
        again = run(("@py", "saveloop.py", str(saves), str(seed), "once"), ctx, timeout=120)
        if again.code != 0:
            return (TRACEBACK if "Traceback" in again.err else WRONG), f"the next session failed: {again.err[-200:]}"
        stray = sorted(p.name for p in saves.iterdir() if p.name.endswith(".tmp"))
        if stray:
            return WRONG, f"{len(stray)} temp files left after {kills} kills and a next write: {', '.join(stray[:3])}"
        return ACCEPTED, ""

    return custom


BROKEN = "case broken"


def _guarded(case: Case, mid: Path, keep: Path | None) -> Outcome:
    """execute(), with a case whose own set-up fails reported, not raised."""
    try:
        return execute(case, mid, keep)
    except (OSError, subprocess.SubprocessError, AssertionError) as exc:
        return Outcome(case, BROKEN, f"{type(exc).__name__}: {exc}"[:300], 0.0)


def run_all(cases: Sequence[Case], mid: Path, jobs: int = 1, keep: Path | None = None) -> list[Outcome]:
    """Run cases (``jobs`` at a time: each is a child process) in table order."""
    if jobs <= 1:
        return [_guarded(c, mid, keep) for c in cases]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda c: _guarded(c, mid, keep), cases))
