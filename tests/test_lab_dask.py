"""The lab on a Dask cluster gives the same records as one local process (issue 7: scale out)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app

distributed = pytest.importorskip("distributed")

runner = CliRunner()


def test_a_local_dask_cluster_gives_the_same_runs_as_one_process(tmp_path: Path) -> None:
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    try:
        args = ["lab", "duel", "--runs", "12", "--models", "anatomy,status", "--seed", "5", "--chunk", "4"]
        dask_run = runner.invoke(app, [*args, "--scheduler", cluster.scheduler_address, "--out",
                                       str(tmp_path / "dask")])
        local_run = runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "local")])
    finally:
        cluster.close()
    assert dask_run.exit_code == 0, dask_run.stderr
    assert local_run.exit_code == 0, local_run.stderr
    dask_csv = (tmp_path / "dask" / "runs.csv").read_text(encoding="utf-8")
    assert dask_csv == (tmp_path / "local" / "runs.csv").read_text(encoding="utf-8")
    assert len(dask_csv.splitlines()) == 1 + 24


def test_an_unreachable_scheduler_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lab", "duel", "--runs", "2", "--scheduler", "tcp://127.0.0.1:9",
                                 "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
