"""Acceptance suite of issue 11: every case of the reliability findings
(../shared/reliability-findings.md) as one parametrised test, ids = case ids
("FINDING-short-name", e.g. "S1-save-to-symlink", "T2-action-str", "H5-big150-viewshed-corner").

Besides the failing cases, the table keeps the findings' "What held up" list (YAML tags,
names reaching outside their folder, bad saves refused cleanly) as ``held-...`` cases.
The table is tests/reliability/cases.py; its data (appendix A base set, the big-map
generator of appendix B, the helper scripts) is in tests/reliability/data/. Each case runs
in a child process (``sys.executable -m tabletop``) in a scratch folder, with a scratch
TABLETOP_HOME, no display, a 20 s time limit ("hang") and a 2 GB address-space limit
("blowup"), and is judged like the findings did (tests/reliability/runner.py). A test
asserts the verdict the issue demands: a refusal is exit 2 with every stderr line
``PATH(:LINE)?: ...`` for the file that is actually wrong, no traceback, every file that
existed before byte-identical and no stray ``.tmp``; an acceptance is exit 0 and the
case's behavioural check.

Slow cases (the big maps of section L at 200, 500 and 999 hexes, the 150-kill loop,
20-game sims, 48 reload checks, every command of a data input beyond the ones that
crashed) run only with ``TABLETOP_RELIABILITY=long``; by default the 150x150 maps, a
10-kill loop and the rest run.

Re-run the whole table and print the counts table of the findings' categories and the
failing ids:

    python tests/reliability/recount.py [--long] [--jobs 2] [--only S3-,T2-]

(``TABLETOP_RELIABILITY_REPO=/path/to/checkout`` judges another checkout, e.g. a merge.)
On today's code most of these tests fail: they assert the behaviour the issue demands.

Faults need root for private device nodes and tmpfs mounts; a case whose fault cannot
be made here is skipped with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from reliability.cases import all_cases
from reliability.runner import SKIPPED, Case, execute, make_mid

LONG = os.environ.get("TABLETOP_RELIABILITY") == "long"
CASES = [c for c in all_cases() if LONG or not c.slow]


@pytest.fixture(scope="session")
def mid_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mid.json, made once with the findings' snippet."""
    return make_mid(tmp_path_factory.mktemp("mid"))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_finding(case: Case, mid_json: Path) -> None:
    outcome = execute(case, mid_json)
    if outcome.verdict == SKIPPED:
        pytest.skip(outcome.detail)
    assert outcome.ok, f"{case.id}: {outcome.verdict} (wanted {' or '.join(case.passing())}): {outcome.detail}"
