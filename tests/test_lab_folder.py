"""Labs never lose results (issue 14, point 5 and 6): an empty or new folder only, --resume after a kill gives the
records of an uninterrupted lab, --force keeps the earlier lab whole until the new one is complete, summary.json
grows as runs finish, and pool workers die with their parent. The kills synchronise on what the lab writes (rows
in its files), never on a sleep."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
from typer.testing import CliRunner

from sandbox.cli import app
from tests.waiting import until

runner = CliRunner()
ROOT = Path(__file__).parent.parent
ARGS = ["duel", "--runs", "300", "--models", "anatomy", "--chunk", "10", "--odds-blows", "0", "--seed", "7"]
RECORDS = ("runs.csv", "combatants.csv", "blows.csv")


def lab(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def start(*args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.Popen([sys.executable, "-m", "sandbox", "lab", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ROOT)


def wait_for_rows(path: Path, rows: int, proc: subprocess.Popen[bytes]) -> None:
    """Until the lab has written ``rows`` rows to ``path`` (the program's own event); the deadline only catches
    a lab that hangs."""
    assert until(lambda: path.exists() and path.read_bytes().count(b"\n") > rows, proc, 300), proc.communicate()


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    code, _, err = lab(*ARGS, "--out", str(tmp_path))
    assert code == 2 and "not empty" in err and (tmp_path / "keep.txt").read_text() == "mine"
    code, _, err = lab(*ARGS, "--out", str(tmp_path), "--force")
    assert code == 2 and "does not hold a lab" in err
    code, _, err = lab(*ARGS, "--out", str(tmp_path), "--resume")
    assert code == 2 and "holds no lab" in err


def test_resume_after_sigkill_gives_the_records_of_an_uninterrupted_lab(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    code, _, err = lab(*ARGS, "--jobs", "1", "--out", str(whole))
    assert code == 0, err
    proc = start(*ARGS, "--jobs", "1", "--out", str(cut))
    wait_for_rows(cut / "runs.csv", 60, proc)
    proc.kill()
    proc.wait()
    summary = json.loads((cut / "summary.json").read_text())  # written as runs finish: whole, current
    assert not summary["final"] and summary["runs_done"] >= 0 and summary["plan"]["runs"] == 300
    code, _, err = lab(*ARGS, "--jobs", "1", "--out", str(cut))
    assert code == 2 and "--resume continues it" in err
    code, _, err = lab(*ARGS, "--jobs", "1", "--runs", "301", "--out", str(cut), "--resume")
    assert code == 2 and "another plan" in err
    code, _, err = lab(*ARGS, "--jobs", "2", "--out", str(cut), "--resume")
    assert code == 0, err
    for name in RECORDS:
        assert (cut / name).read_bytes() == (whole / name).read_bytes(), name
    done = json.loads((cut / "summary.json").read_text())
    assert done["final"] and done["runs_done"] == 300
    assert done["by_variant"] == json.loads((whole / "summary.json").read_text())["by_variant"]


def test_force_keeps_the_earlier_lab_whole_until_the_new_one_is_complete(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    code, _, err = lab("duel", "--runs", "5", "--models", "anatomy", "--odds-blows", "0", "--jobs", "1",
                       "--out", str(out))
    assert code == 0, err
    before = {name: (out / name).read_bytes() for name in (*RECORDS, "summary.json", "report.html")}
    proc = start(*ARGS, "--jobs", "1", "--out", str(out), "--force")
    wait_for_rows(tmp_path / ".lab.next" / "runs.csv", 30, proc)
    proc.send_signal(signal.SIGINT)
    _, err_bytes = proc.communicate(timeout=120)
    assert proc.returncode == 130 and b"untouched" in err_bytes and b"--force --resume" in err_bytes
    assert {name: (out / name).read_bytes() for name in before} == before
    code, _, err = lab(*ARGS, "--jobs", "1", "--out", str(out), "--force", "--resume")
    assert code == 0, err
    assert not (tmp_path / ".lab.next").exists()
    assert json.loads((out / "summary.json").read_text())["runs_done"] == 300


def test_pool_workers_die_with_their_parent_even_on_sigkill(tmp_path: Path) -> None:
    out = tmp_path / "orphans"
    proc = start(*ARGS, "--runs", "100000", "--jobs", "2", "--out", str(out))
    wait_for_rows(out / "runs.csv", 20, proc)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert workers
    proc.kill()
    proc.wait()
    _gone, alive = psutil.wait_procs(workers, timeout=30)  # they poll their parent every half second
    assert not alive, [p.pid for p in alive]
