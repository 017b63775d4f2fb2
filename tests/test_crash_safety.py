"""Crash safety (issue 8, and issue 14's kill tests): a lab, a run or a save loop stopped at any point leaves every
file it writes whole or absent, and the rerun (``--resume`` for a lab) gives exactly the uninterrupted records.

Every kill synchronises on an event the program emits, never on a sleep: a line it prints, a file it creates, rows
it writes. The polls below wait for that event (their deadline only catches a program that hangs), so the verdict
does not depend on how loaded the machine is."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.waiting import until

LAB = ["lab", "duel", "--runs", "80", "--seed", "3", "--odds-blows", "0", "--chunk", "5"]
RECORDS = ("runs.csv", "combatants.csv", "blows.csv")
HANG = 600.0
"""Seconds after which a poll decides the program hangs (an event it never emits), not that it is slow."""


def _lab(out: Path, jobs: int, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "sandbox", *LAB, "--jobs", str(jobs), "--out", str(out), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _until(event: Callable[[], bool], proc: subprocess.Popen[bytes]) -> bool:
    """Until ``event()`` holds (True) or ``proc`` has ended without it (False)."""
    return until(event, proc, HANG)


def _rows(path: Path) -> int:
    try:
        return max(path.read_bytes().count(b"\n") - 1, 0)
    except FileNotFoundError:
        return 0


def _check_whole_or_absent(out: Path) -> None:
    if not out.exists():
        return  # killed before it wrote anything
    for name in RECORDS:
        records = out / name
        if records.exists():
            text = records.read_text(encoding="utf-8")
            if text:
                assert text.endswith("\n"), f"{name} ends in a partial row"
                rows = list(csv.reader(text.splitlines()))
                width = len(rows[0])
                assert all(len(r) == width for r in rows), f"{name} has a partial row"
    summary = out / "summary.json"
    if summary.exists():
        json.loads(summary.read_text(encoding="utf-8"))  # whole JSON
    for png in out.glob("*.png"):
        assert png.read_bytes().endswith(b"IEND\xaeB`\x82"), f"{png.name} is cut short"
    leftovers = [p.name for p in out.iterdir() if p.name.endswith(".tmp") or p.name.startswith(".lab-probe")]
    assert not leftovers, leftovers


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("reference")
    proc = _lab(out, 1)
    _, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 0, err
    return {name: (out / name).read_bytes() for name in RECORDS}


def _lab_event(stage: str, out: Path, total: int) -> Callable[[], bool]:
    """The lab's own event a kill waits for: at once (``start``: the signal may beat the interpreter), its summary
    written, a tenth or a half of the runs on disk, or every run (the final phase: plots, report, sort)."""
    runs = out / "runs.csv"
    return {"start": lambda: True,
            "summary": lambda: (out / "summary.json").exists(),
            "tenth": lambda: _rows(runs) >= total // 10,
            "half": lambda: _rows(runs) >= total // 2,
            "all": lambda: _rows(runs) >= total}[stage]


@pytest.mark.parametrize(("jobs", "stage"), [(1, "start"), (1, "summary"), (1, "tenth"), (1, "half"), (1, "all"),
                                             (2, "tenth"), (2, "half"), (2, "all")])
def test_lab_killed_by_sigterm_leaves_whole_files_and_resumes(tmp_path: Path, reference: dict[str, bytes], jobs: int,
                                                              stage: str) -> None:
    """SIGTERM at a moment the lab itself marks: exit 130 (or 0 when it had finished, or the signal's own code
    when it beat the interpreter), no traceback, every file whole; the summary and the exit code agree on whether it
    was interrupted; ``--resume`` then completes the records byte for byte as an uninterrupted lab."""
    out = tmp_path / "lab"
    total = reference["runs.csv"].count(b"\n") - 1
    proc = _lab(out, jobs)
    emitted = _until(_lab_event(stage, out, total), proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=HANG)
    assert b"Traceback" not in err, err.decode()
    allowed = (0, 130, -signal.SIGTERM) if stage == "start" else (0, 130)
    assert proc.returncode in allowed, (proc.returncode, err.decode())
    assert emitted or proc.returncode == 0
    _check_whole_or_absent(out)
    summary = out / "summary.json"
    if summary.exists() and proc.returncode in (0, 130):
        data = json.loads(summary.read_text(encoding="utf-8"))
        assert (data["interrupted"], data["final"]) == (proc.returncode == 130, proc.returncode == 0), data
    holds_a_lab = summary.exists() and (out / "runs.csv").exists()
    assert holds_a_lab or not out.exists() or not any(out.iterdir()), sorted(p.name for p in out.iterdir())
    rerun = _lab(out, jobs, *(["--resume"] if holds_a_lab else []))
    _, err = rerun.communicate(timeout=HANG)
    assert rerun.returncode == 0, err.decode()
    _check_whole_or_absent(out)
    assert {name: (out / name).read_bytes() for name in RECORDS} == reference


def test_lab_sigterm_keeps_complete_rows(tmp_path: Path) -> None:
    """A SIGTERM mid-lab is handled as Ctrl-C: exit 130, the finished runs kept as whole rows."""
    out = tmp_path / "lab"
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "lab", "duel", "--runs", "5000", "--seed", "1",
                             "--odds-blows", "0", "--chunk", "5", "--jobs", "1", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert _until(lambda: _rows(out / "runs.csv") >= 20, proc), proc.communicate()  # 20 rows on disk
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 130, err.decode()
    assert b"interrupted" in err and b"Traceback" not in err
    _check_whole_or_absent(out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    rows = _rows(out / "runs.csv")
    assert summary["interrupted"] and not summary["final"]
    assert summary["runs_done"] == rows >= 20


SAVE_LOOP = """
import sys
from pathlib import Path
from sandbox.world import Sandbox
w = Sandbox.from_scenario("skirmish", seed=5)
w.run()
path = Path(sys.argv[1])
w.save(path)
print("ready", flush=True)
n = 0
while True:
    w.advance(days=0.5)
    w.save(path)
    n += 1
    print("saved", n, flush=True)
"""


def test_save_killed_mid_loop_is_always_valid_json(tmp_path: Path) -> None:
    """A loop saving over one path, read after each save it announces and SIGKILLed in the middle of the next one:
    the path always holds a whole save that loads."""
    path = tmp_path / "aftermath.json"
    proc = subprocess.Popen([sys.executable, "-c", SAVE_LOOP, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        from sandbox.world import Sandbox

        for i in range(1, 13):  # each read races the next save, which the loop is writing now
            assert proc.stdout.readline().split() == [b"saved", str(i).encode()]
            doc = json.loads(path.read_text(encoding="utf-8"))  # never half a file, even while it is replaced
            assert doc["format"] == "combat-sandbox-save"
            if i % 4 == 0:
                Sandbox.load(path).close()
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
    return subprocess.Popen([sys.executable, "-m", "sandbox", *RUN, "--log", str(log)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


@pytest.fixture(scope="module")
def run_reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[bytes]]:
    log = tmp_path_factory.mktemp("run-reference") / "events.jsonl"
    out, err = _run_cmd(log).communicate(timeout=HANG)
    assert log.exists(), err.decode()
    return log.read_bytes(), out.splitlines(keepends=True)


def _first_words(line: bytes) -> bytes:
    return line.strip()[:20]


RUN_STAGES = {"start": None, "fought": 0, "aftermath": "Aftermath:", "written": "events written"}
"""The line of its own output a kill waits for: none (at once), the first line (the fight is over: the aftermath
runs), the aftermath's heading (its table follows, then the log is written) or the last line (the log written)."""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("stage", sorted(RUN_STAGES))
def test_run_with_aftermath_interrupted_leaves_the_log_whole_or_absent(tmp_path: Path,
                                                                       run_reference: tuple[bytes, list[bytes]],
                                                                       sig: int, stage: str) -> None:
    """``sandbox run --aftermath --log`` stopped at a moment it marks itself (a line it prints): exit 130, or 0
    once it has finished (or the signal's own code when sent before the interpreter starts), no traceback, the log
    whole or absent and no temporary file left; the rerun writes the uninterrupted log."""
    reference, lines = run_reference
    log = tmp_path / "events.jsonl"
    proc = _run_cmd(log)
    assert proc.stdout is not None
    marker = RUN_STAGES[stage]
    if marker is not None:
        wanted = lines[marker] if isinstance(marker, int) else next(line for line in lines if marker.encode() in line)
        while (line := proc.stdout.readline()) and _first_words(line) != _first_words(wanted):
            pass
        assert line, "the run ended without printing the line the kill waits for"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=HANG)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode in ((0, 130, -sig) if marker is None else (0, 130)), (proc.returncode, err.decode())
    if proc.returncode == 130:
        assert b"interrupted" in err
    if stage == "written":
        assert log.read_bytes() == reference  # the line says so: it was written before the signal
    assert not log.exists() or log.read_bytes() == reference
    assert [p.name for p in tmp_path.iterdir() if p.name != log.name] == []
    _, err = _run_cmd(log).communicate(timeout=HANG)
    assert log.read_bytes() == reference, err.decode()


def test_run_refuses_an_unwritable_log_before_the_fight(tmp_path: Path) -> None:
    for bad in (tmp_path / "missing" / "events.jsonl", tmp_path):
        proc = subprocess.run([sys.executable, "-m", "sandbox", "run", "duel", "--quiet", "--log", str(bad)],
                              capture_output=True, timeout=120)
        assert proc.returncode == 2, proc.stderr.decode()
        assert b"cannot write the log" in proc.stderr and b"Traceback" not in proc.stderr
        assert proc.stdout == b""  # refused before anything ran
