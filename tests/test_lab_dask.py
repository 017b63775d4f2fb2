"""The lab on a Dask cluster gives the same records as one local process (issue 7: scale out)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from sandbox.cli import app
from tests.waiting import until

distributed = pytest.importorskip("distributed")

runner = CliRunner()


def _on_dask_and_alone(tmp_path: Path, args: list[str]) -> tuple[Result, Result]:
    """The lab of ``args`` on a local two-worker Dask cluster (into ``tmp_path/dask``) and in one process
    (``tmp_path/local``)."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")  # any free port: 8787 may be another run's
    try:
        dask_run = runner.invoke(app, [*args, "--scheduler", cluster.scheduler_address, "--out",
                                       str(tmp_path / "dask")])
    finally:
        cluster.close()
    return dask_run, runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "local")])


def test_a_local_dask_cluster_gives_the_same_runs_as_one_process(tmp_path: Path) -> None:
    args = ["lab", "duel", "--runs", "12", "--models", "anatomy,status", "--seed", "5", "--chunk", "4"]
    dask_run, local_run = _on_dask_and_alone(tmp_path, args)
    assert dask_run.exit_code == 0, dask_run.stderr
    assert local_run.exit_code == 0, local_run.stderr
    dask_csv = (tmp_path / "dask" / "runs.csv").read_text(encoding="utf-8")
    assert dask_csv == (tmp_path / "local" / "runs.csv").read_text(encoding="utf-8")
    assert len(dask_csv.splitlines()) == 1 + 24


def test_a_lab_with_content_on_dask_gives_the_records_of_one_process(tmp_path: Path) -> None:
    """The Dask workers start before the lab (no environment of the lab's reaches them): the content trees travel
    with the work."""
    import shutil

    tree = tmp_path / "mytree"
    shutil.copytree(Path(__file__).resolve().parents[1] / "sandbox" / "starter", tree)
    args = ["lab", "kobold_ambush", "--runs", "6", "--models", "anatomy", "--chunk", "2", "--odds-blows", "0",
            "--content", str(tree)]
    dask_run, local_run = _on_dask_and_alone(tmp_path, args)
    assert dask_run.exit_code == 0, dask_run.stderr
    assert local_run.exit_code == 0, local_run.stderr
    for name in ("runs.csv", "combatants.csv", "blows.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    assert "Kobold 1" in (tmp_path / "local" / "combatants.csv").read_text(encoding="utf-8")


def test_an_unreachable_scheduler_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lab", "duel", "--runs", "2", "--scheduler", "tcp://127.0.0.1:9",
                                 "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_variants_on_dask_give_the_same_records_as_one_process(tmp_path: Path) -> None:
    args = ["lab", "duel", "--runs", "8", "--vary", "scenario.combatants.Aldric.skills.sword=60", "--scale",
            "armor.mail_hauberk.protection.edged", "--chunk", "4", "--odds-blows", "0"]
    dask_run, local_run = _on_dask_and_alone(tmp_path, args)
    assert dask_run.exit_code == 0, dask_run.stderr
    assert local_run.exit_code == 0, local_run.stderr
    for name in ("runs.csv", "combatants.csv", "blows.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_a_solve_on_dask_gives_the_same_probes_and_value_as_one_process(tmp_path: Path) -> None:
    import json

    args = ["lab", "duel", "--runs", "40", "--solve", "scenario.combatants.Aldric.skills.sword", "--between",
            "20", "90", "--target", "Red=0.5", "--chunk", "10", "--odds-blows", "0"]
    dask_run, local_run = _on_dask_and_alone(tmp_path, args)
    assert dask_run.exit_code == 0, dask_run.stderr
    assert local_run.exit_code == 0, local_run.stderr
    assert (tmp_path / "dask" / "runs.csv").read_bytes() == (tmp_path / "local" / "runs.csv").read_bytes()
    solved = [json.loads((tmp_path / where / "summary.json").read_text())["solve"]["results"][0]
              for where in ("dask", "local")]
    assert solved[0]["value"] is not None and len(solved[0]["probes"]) >= 3
    assert [(s["value"], s["ci95"], s["probes"]) for s in solved[:1]] == [(s["value"], s["ci95"], s["probes"])
                                                                          for s in solved[1:]]


def test_a_cluster_with_no_worker_stops_the_lab_with_exit_2(tmp_path: Path) -> None:
    cluster = distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")  # any free port: 8787 may be another run's
    try:
        result = runner.invoke(app, ["lab", "duel", "--runs", "4", "--models", "anatomy", "--odds-blows", "0",
                                     "--scheduler", cluster.scheduler_address, "--worker-timeout", "2",
                                     "--out", str(tmp_path / "x")])
    finally:
        cluster.close()
    assert result.exit_code == 2, result.stderr
    assert "no live worker for 2 s" in result.stderr and "--resume continues" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert (tmp_path / "x" / "summary.json").exists()


def test_a_scheduler_killed_mid_lab_stops_it_with_exit_2(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).parent.parent
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard"], stderr=subprocess.PIPE, text=True)
    address = ""
    assert scheduler.stderr is not None
    for line in scheduler.stderr:  # the scheduler says where it listens
        if "Scheduler at:" in line:
            address = line.split("Scheduler at:")[1].strip()
            break
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                               "--nthreads", "1", "--no-dashboard"], stderr=subprocess.DEVNULL)
    out = tmp_path / "x"
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    lab = subprocess.Popen([sys.executable, "-m", "sandbox", "lab", "duel", "--runs", "100000", "--models", "anatomy",
                            "--odds-blows", "0", "--chunk", "5", "--scheduler", address, "--worker-timeout", "5",
                            "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=root)
    try:
        runs = out / "runs.csv"
        assert until(lambda: runs.exists() and runs.read_bytes().count(b"\n") > 10, lab, 300)
        scheduler.send_signal(signal.SIGKILL)
        _, err = lab.communicate(timeout=300)
    finally:
        for proc in (lab, worker, scheduler):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert lab.returncode == 2, err
    assert b"Traceback" not in err and b"CancelledError" not in err and b"--resume continues" in err
