"""Crash safety (issue 8): a lab or a save loop killed at any point leaves every file it writes whole or absent,
and a rerun with the same seed completes the lab exactly as an uninterrupted run."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LAB = ["lab", "duel", "--runs", "200", "--seed", "3", "--odds-blows", "0", "--chunk", "5"]


def _lab(out: Path, jobs: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "sandbox", *LAB, "--jobs", str(jobs), "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _check_whole_or_absent(out: Path) -> None:
    if not out.exists():
        return  # killed before it wrote anything
    runs = out / "runs.csv"
    if runs.exists():
        text = runs.read_text(encoding="utf-8")
        if text:
            assert text.endswith("\n"), "runs.csv ends in a partial row"
            rows = list(csv.reader(text.splitlines()))
            width = len(rows[0])
            assert all(len(r) == width for r in rows), "runs.csv has a partial row"
    summary = out / "summary.json"
    if summary.exists():
        json.loads(summary.read_text(encoding="utf-8"))  # whole JSON
    for png in out.glob("*.png"):
        assert png.read_bytes().endswith(b"IEND\xaeB`\x82"), f"{png.name} is cut short"
    leftovers = [p.name for p in out.iterdir() if p.name.endswith(".tmp") or p.name.startswith(".lab-probe")]
    assert not leftovers, leftovers


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("reference")
    proc = _lab(out, 1)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return (out / "runs.csv").read_bytes()


@pytest.mark.parametrize(("jobs", "delay"), [(1, 0.3), (1, 1.5), (1, 2.5), (1, 3.2), (2, 2.0), (2, 3.0)])
def test_lab_killed_by_sigterm_leaves_whole_files_and_reruns(tmp_path: Path, reference: bytes, jobs: int,
                                                             delay: float) -> None:
    out = tmp_path / "lab"
    proc = _lab(out, jobs)
    time.sleep(delay)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode in (0, 130, -signal.SIGTERM), (proc.returncode, err.decode())
    _check_whole_or_absent(out)
    if proc.returncode == 130:
        summary = out / "summary.json"
        if summary.exists():
            assert json.loads(summary.read_text(encoding="utf-8"))["runs_done"] >= 0
    rerun = _lab(out, jobs)
    _, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err.decode()
    _check_whole_or_absent(out)
    assert (out / "runs.csv").read_bytes() == reference


def test_lab_sigterm_keeps_complete_rows(tmp_path: Path) -> None:
    """A SIGTERM mid-lab is handled as Ctrl-C: exit 130, the finished runs kept as whole rows."""
    out = tmp_path / "lab"
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "lab", "duel", "--runs", "5000", "--seed", "1",
                             "--odds-blows", "0", "--chunk", "5", "--jobs", "1", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until some rows are on disk
        runs = out / "runs.csv"
        if runs.exists() and runs.read_bytes().count(b"\n") > 20:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    assert b"interrupted" in err and b"Traceback" not in err
    _check_whole_or_absent(out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    rows = (out / "runs.csv").read_bytes().count(b"\n") - 1
    assert summary["runs_done"] == rows >= 20  # the wait above saw at least 20 rows (21 lines with the header)


SAVE_LOOP = """
import sys
from pathlib import Path
from sandbox.world import Sandbox
w = Sandbox.from_scenario("skirmish", seed=5)
w.run()
path = Path(sys.argv[1])
w.save(path)
print("ready", flush=True)
while True:
    w.advance(days=0.5)
    w.save(path)
"""


def test_save_killed_mid_loop_is_always_valid_json(tmp_path: Path) -> None:
    path = tmp_path / "aftermath.json"
    proc = subprocess.Popen([sys.executable, "-c", SAVE_LOOP, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        from sandbox.world import Sandbox

        for i in range(40):
            doc = json.loads(path.read_text(encoding="utf-8"))  # never half a file, even while it is replaced
            assert doc["format"] == "combat-sandbox-save"
            if i % 10 == 9:
                Sandbox.load(path).close()
            time.sleep(0.01 * (i % 5))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "combat-sandbox-save"
    from sandbox.world import Sandbox

    Sandbox.load(path).close()
    # a SIGKILL may leave the temp file of the save it cut short, never a broken save
    assert {p.name for p in tmp_path.iterdir() if not p.name.startswith(".aftermath.json.")} == {path.name}


RUN = ["run", "battle", "--seed", "2", "--aftermath", "100", "--quiet"]


def _run_cmd(log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "sandbox", *RUN, "--log", str(log)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


@pytest.fixture(scope="module")
def run_reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    log = tmp_path_factory.mktemp("run-reference") / "events.jsonl"
    _, err = _run_cmd(log).communicate(timeout=300)
    assert log.exists(), err.decode()
    return log.read_bytes()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("delay", [0.4, 0.7, 0.9, 1.1])
def test_run_with_aftermath_interrupted_leaves_the_log_whole_or_absent(tmp_path: Path, run_reference: bytes,
                                                                       sig: int, delay: float) -> None:
    """``sandbox run --aftermath --log`` stopped at any point: exit 130 (or killed before Python handles it), no
    traceback, the log whole or absent and no temporary file left; the rerun writes the uninterrupted log."""
    log = tmp_path / "events.jsonl"
    proc = _run_cmd(log)
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode in (0, 130, -sig), (proc.returncode, err.decode())
    if proc.returncode == 130:
        assert b"interrupted" in err
    assert not log.exists() or log.read_bytes() == run_reference
    assert [p.name for p in tmp_path.iterdir() if p.name != log.name] == []
    _, err = _run_cmd(log).communicate(timeout=300)
    assert log.read_bytes() == run_reference, err.decode()


def test_run_refuses_an_unwritable_log_before_the_fight(tmp_path: Path) -> None:
    for bad in (tmp_path / "missing" / "events.jsonl", tmp_path):
        proc = subprocess.run([sys.executable, "-m", "sandbox", "run", "duel", "--quiet", "--log", str(bad)],
                              capture_output=True, timeout=120)
        assert proc.returncode == 2, proc.stderr.decode()
        assert b"cannot write the log" in proc.stderr and b"Traceback" not in proc.stderr
        assert proc.stdout == b""  # refused before anything ran
