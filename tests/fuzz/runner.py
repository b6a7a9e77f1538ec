"""Run a loader or a `tabletop` command on a mutant with a time and a memory limit.

Why: a fuzz test must turn a hang into a failure instead of a stuck test, and a memory
blow-up into a failure instead of a swapping machine. Loaders run in this process under
a timer (SIGALRM) and a lowered soft RLIMIT_AS; commands run in a forked child (cheap:
everything is imported already) with RLIMIT_AS, RLIMIT_FSIZE and a wall-clock limit,
and the parent kills it (by its pid) when the limit passes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import resource
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: address space a run may add to what the process already maps
MEMORY = 2 * 1024**3
#: bytes a command may write to any one file (stdout included)
FILE_SIZE = 64 * 1024**2
#: the longest error line we accept (one line per problem, not a dump of the input)
LINE_CHARS = 1000
#: `PATH(:LINE)?: message` - a place, then what is wrong
ERROR_LINE = re.compile(r"^(?P<where>\S(?:[^:\n]*?\S)?)(?::(?P<line>\d+))?: \S")


class Hang(BaseException):
    """Raised by the timer inside a guarded call (a BaseException, so that no product
    `except Exception` can swallow it)."""


def _vm_size() -> int:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmSize:"):
            return int(row.split()[1]) * 1024
    return 0


#: wall-clock seconds a run may take, as a multiple of its CPU seconds (a run blocked on
#: nothing but a busy machine is not a hang; one sleeping forever is)
WALL_FACTOR = 4


@contextlib.contextmanager
def limits(seconds: float) -> Iterator[None]:
    """Raise Hang after ``seconds`` of CPU time (or WALL_FACTOR times that on the clock);
    MemoryError past MEMORY more than is mapped now."""

    def ring(signum: int, frame: Any) -> None:
        clock = "CPU" if signum == signal.SIGPROF else "wall-clock"
        raise Hang(
            f"no answer within {seconds * (1 if signum == signal.SIGPROF else WALL_FACTOR):g} s of {clock} time"
        )

    old_handlers = {sig: signal.signal(sig, ring) for sig in (signal.SIGPROF, signal.SIGALRM)}
    old_as = resource.getrlimit(resource.RLIMIT_AS)
    cap = _vm_size() + MEMORY
    if old_as[0] == resource.RLIM_INFINITY or old_as[0] > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, old_as[1]))
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in old_handlers.items():
            signal.signal(sig, handler)
        resource.setrlimit(resource.RLIMIT_AS, old_as)


# --- commands in a child ---------------------------------------------------------------------


@dataclass
class Run:
    """What a command did: exit code (or the signal that ended it), stderr, a hang."""

    argv: list[str]
    code: int | None
    signal: int | None
    stderr: str
    hung: bool
    seconds: float

    def last_line(self) -> str:
        """The exception line of a traceback (the last unindented line), else the last."""
        lines = [x for x in self.stderr.splitlines() if x.strip()]
        flush = [x for x in lines if not x[0].isspace()]
        return (flush or lines or [""])[-1][:300]


def _child(argv: list[str], cwd: Path, home: Path, err: Path, out: Path, seconds: float) -> int:
    """Body of the forked child: `tabletop ARGV` as `python -m tabletop` would run it."""
    os.chdir(cwd)
    os.environ.update(TABLETOP_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    for sig in (
        signal.SIGALRM,
        signal.SIGINT,
        signal.SIGTERM,
        signal.SIGPIPE,
        signal.SIGXFSZ,
        signal.SIGXCPU,
    ):
        signal.signal(sig, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_PROF, 0)
    fd_out = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    fd_err = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd_out, 1)
    os.dup2(fd_err, 2)
    # what an interpreter gives a command writing to a pipe or a file
    sys.stdout = open(1, "w", encoding="utf-8", errors="strict", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    resource.setrlimit(resource.RLIMIT_AS, (_vm_size() + MEMORY,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    spent = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(spent.ru_utime + spent.ru_stime + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    from tabletop.cli import main

    sys.argv = ["tabletop", *argv]
    try:
        code = main(argv)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # the interpreter reports a failed final flush too
            traceback.print_exc(file=sys.__stderr__)
            code = 120
    return code


def _pygame_live() -> bool:
    """Whether pygame is initialised in this process (then a fork would inherit SDL's
    state, so the command runs in a fresh interpreter instead)."""
    pygame = sys.modules.get("pygame")
    return bool(pygame is not None and pygame.get_init())


def run_cli(argv: list[str], *, cwd: Path, home: Path, logs: Path, seconds: float) -> Run:
    """`tabletop ARGV` in a child with the limits: past ``seconds`` of CPU time the kernel
    ends it (SIGXCPU), past WALL_FACTOR times that on the clock this process kills it."""
    err, out = logs / "stderr.txt", logs / "stdout.txt"
    start = time.monotonic()
    if _pygame_live():
        return _run_fresh(argv, cwd=cwd, home=home, err=err, out=out, seconds=seconds)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            code = _child(argv, cwd, home, err, out, seconds)
        finally:
            os._exit(code)
    hung = not _wait(pid, seconds * WALL_FACTOR)
    if hung:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return Run(
        argv, code if code >= 0 else None, -code if code < 0 else None,
        err.read_text(encoding="utf-8", errors="replace"), hung, time.monotonic() - start,
    )  # fmt: skip


def _wait(pid: int, seconds: float) -> bool:
    """Whether the child ended within ``seconds`` (it stays a zombie for waitpid)."""
    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
        return bool(ready)
    finally:
        os.close(fd)


def _run_fresh(argv: list[str], *, cwd: Path, home: Path, err: Path, out: Path, seconds: float) -> Run:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY + 512 * 1024**2,) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds) + 2, int(seconds) + 7))

    env = dict(os.environ, TABLETOP_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    start = time.monotonic()
    with err.open("wb") as fe, out.open("wb") as fo:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tabletop", *argv], cwd=cwd, env=env, stdout=fo, stderr=fe,
            stdin=subprocess.DEVNULL, preexec_fn=limit,
        )  # fmt: skip
        try:
            proc.wait(seconds * WALL_FACTOR)
            hung = False
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            hung = True
    code = proc.returncode
    return Run(
        argv, code if code >= 0 else None, -code if code < 0 else None,
        err.read_text(encoding="utf-8", errors="replace"), hung, time.monotonic() - start,
    )  # fmt: skip


# --- judging -----------------------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` and a hash of its bytes."""
    return {
        str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def cli_problems(run: Run, before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What is wrong with a run: a hang, a signal, a traceback, an exit code other than
    0 or 2, a refusal that is not one `PATH(:LINE)?: message` line per problem, a file
    of the tree changed."""
    problems = []
    if run.hung:
        problems.append(f"hang: no exit within {run.seconds:.0f} s on the clock")
    elif run.signal is not None:
        name = signal.Signals(run.signal).name
        why = {"SIGXFSZ": " (wrote past the file-size limit)", "SIGXCPU": " (hang: past the CPU-time limit)"}
        problems.append(f"killed by {name}{why.get(name, '')}")
    elif run.code not in (0, 2):
        problems.append(f"exit {run.code}: {run.last_line()}")
    if "Traceback (most recent call last)" in run.stderr:
        problems.append(f"traceback: {run.last_line()}")
    elif run.code == 2:
        lines = run.stderr.splitlines()
        if not lines:
            problems.append("exit 2 with nothing on stderr")
        for line in lines:
            if len(line) > LINE_CHARS:
                problems.append(f"error line of {len(line)} characters: {line[:160]}...")
            elif not ERROR_LINE.match(line):
                problems.append(f"error line not `PATH(:LINE)?: message`: {line[:300]!r}")
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        problems.append(f"files of the tree changed: {', '.join(changed)}")
    return problems


def error_lines_ok(text: str) -> list[str]:
    """Problems with the text of a refusal raised in process (DataError(s), SaveError)."""
    out = []
    for line in text.split("\n"):
        if len(line) > LINE_CHARS:
            out.append(f"error line of {len(line)} characters: {line[:160]}...")
        elif not ERROR_LINE.match(line):
            out.append(f"error line not `PATH(:LINE)?: message`: {line[:300]!r}")
    return out


def call(fn: Callable[[], T], seconds: float) -> tuple[str, BaseException | None]:
    """Run ``fn`` under ``limits``: ("ok", None), ("raised", exc) or ("hang", exc)."""
    try:
        with limits(seconds):
            fn()
    except Hang as exc:
        return "hang", exc
    except BaseException as exc:  # the caller judges what was raised
        if isinstance(exc, KeyboardInterrupt):
            raise
        return "raised", exc
    return "ok", None


def where_raised(exc: BaseException) -> str:
    """`file:line in function` of the innermost frame of the traceback (for grouping)."""
    tb = traceback.extract_tb(exc.__traceback__)
    if not tb:
        return "?"
    frame = tb[-1]
    short = frame.filename.split("/tabletop/")[-1] if "/tabletop/" in frame.filename else frame.filename
    return f"{short}:{frame.lineno} in {frame.name}"
