"""`tabletop sim --cluster ADDRESS` (issue 19 item 5): the same games on a Dask
distributed cluster, with results identical to a local run for the same seeds; tested
on a local cluster started by the test (threads in this process: quick, and the same
code path as a remote scheduler's address)."""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main
from tabletop.sim import SimError, simulate

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install 'tabletop[cluster]'")


def _figures(report: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in report.items() if "second" not in k}


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        yield c


def test_a_cluster_run_equals_a_local_run(cluster, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    local = simulate("dog-sector", 2, 7, by="bombardment")
    remote = simulate("dog-sector", 2, 7, by="bombardment", cluster=cluster.scheduler_address)
    assert _figures(remote) == _figures(local)
    assert main(["sim", "dog-sector", "--games", "1", "--seed", "3", "--cluster", cluster.scheduler_address, "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["games"] == 1 and "sim: 3/3 games (100%)" in out.err  # progress shown


def test_an_unreachable_scheduler_is_said_with_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SimError, match="cannot reach a Dask scheduler"):
        simulate("dog-sector", 1, 1, cluster="tcp://127.0.0.1:9")
    with pytest.raises(SystemExit) as stop:
        main(["sim", "dog-sector", "--games", "1", "--jobs", "2", "--cluster", "tcp://127.0.0.1:9"])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
