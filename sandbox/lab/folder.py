"""The lab's folder: never loses results.

- A new lab takes an absent or empty folder, nothing else.
- ``--resume`` continues the interrupted lab a folder holds (the same plan): its finished runs are kept, the missing
  ones run, and the records come out identical to those of a lab never interrupted.
- ``--force`` replaces an earlier lab: the new one is written beside it (``.<name>.next``) and takes its place only
  once complete, so the earlier results stay whole until then. ``--force --resume`` continues such a replacement.
- The records (``runs.csv``, ``combatants.csv``, ``blows.csv``) grow by whole chunks as runs finish (one ``write``
  per file and chunk; ``runs.csv`` last, so a run in it has all its rows in the other two), ``summary.json`` is
  rewritten as they grow, and every other file (plots, ``odds.csv``, ``report.html``) is written whole or not at
  all (``sandbox.files``). At the end the records are rewritten sorted, atomically.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sandbox.files import atomic_path, atomic_text

from .errors import LabError
from .records import (
    BLOW_COLUMNS,
    BLOWS_FILE,
    COMBATANT_COLUMNS,
    COMBATANTS_FILE,
    RUN_COLUMNS,
    RUNS_FILE,
    RunRecord,
)
from .runner import RunKey

__all__ = ["RECORDS", "SUMMARY_EVERY", "SUMMARY_FILE", "LabFolder"]

SUMMARY_FILE = "summary.json"
RECORDS = ((BLOWS_FILE, BLOW_COLUMNS), (COMBATANTS_FILE, COMBATANT_COLUMNS), (RUNS_FILE, RUN_COLUMNS))
"""The record files in the order a chunk is appended to them (``runs.csv`` last: its rows mark finished runs)."""
SUMMARY_EVERY = 2.0
"""Seconds between two rewrites of ``summary.json`` while runs finish."""


def _rows(records: Sequence[RunRecord], which: str) -> list[tuple[Any, ...]]:
    if which == RUNS_FILE:
        return [r.run for r in records]
    if which == COMBATANTS_FILE:
        return [row for r in records for row in r.combatants]
    return [row for r in records for row in r.blows]


def _csv(rows: Sequence[Sequence[Any]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _key(line: str) -> RunKey:
    row = next(csv.reader([line]))
    return row[0], row[1], int(row[2])


def _is_lab(folder: Path) -> bool:
    return (folder / SUMMARY_FILE).is_file() and (folder / RUNS_FILE).is_file()


class LabFolder:
    """The folder a lab writes, under the rules of the module docstring.

    Args:
        out: The folder the user named.
        resume: Continue the lab in it.
        force: Replace the lab in it once the new one is complete.
    """

    def __init__(self, out: Path, *, resume: bool = False, force: bool = False) -> None:
        self.out = out
        self.resume = resume
        self.force = force
        self.work = out.parent / f".{out.name}.next" if force else out
        self._last_summary = 0.0
        self._fds: dict[str, int] = {}

    # ------------------------------------------------------------------ before the lab

    def check(self, plan: Mapping[str, Any]) -> None:
        """Refuse a folder the lab may not write, before any work.

        Raises:
            LabError: Not empty (without ``--resume`` or ``--force``), not a lab's, another plan's, unwritable.
        """
        out = self.out
        if out.exists() and not out.is_dir():
            raise LabError(f"--out {out}: not a folder")
        if self.resume:
            where = self.work
            if not _is_lab(where):
                if self.force:
                    raise LabError(f"--force --resume: no interrupted replacement of the lab in {out} to continue "
                                   f"({where} holds none); --force alone starts one")
                raise LabError(f"--resume: {out} holds no lab to continue (no {SUMMARY_FILE} and {RUNS_FILE})")
            earlier = self._plan_of(where)
            if earlier != dict(plan):
                changed = sorted(k for k in set(earlier) | set(plan) if earlier.get(k) != plan.get(k))
                raise LabError(f"--resume: the lab in {where} was run with another plan (it differs in "
                               f"{', '.join(changed)}); give the same options, or --force to replace it")
        elif self.force:
            if out.exists() and any(out.iterdir()) and not _is_lab(out):
                raise LabError(f"--force: {out} does not hold a lab ({SUMMARY_FILE} and {RUNS_FILE}); --force only "
                               "replaces a lab, never other files")
        elif out.exists() and any(out.iterdir()):
            hint = " (it holds a lab: --resume continues it, --force replaces it)" if _is_lab(out) else ""
            raise LabError(f"--out {out}: the folder is not empty{hint}; a lab writes into an empty or new folder")
        probe_at = out if out.exists() else _existing_parent(out)
        if not os.access(probe_at, os.W_OK | os.X_OK):
            raise LabError(f"cannot write to {out}: permission denied")

    @staticmethod
    def _plan_of(folder: Path) -> dict[str, Any]:
        try:
            data = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LabError(f"--resume: {folder / SUMMARY_FILE} cannot be read ({exc})") from None
        plan = data.get("plan") if isinstance(data, dict) else None
        if not isinstance(plan, dict):
            raise LabError(f"--resume: {folder / SUMMARY_FILE} holds no plan (a lab of an older version?)")
        return plan

    def open(self) -> dict[RunKey, RunRecord]:
        """Create (or take up) the folder and its record files; the finished runs of a resumed lab.

        Raises:
            LabError: The folder cannot be created or written.
        """
        try:
            if self.force and not self.resume:
                shutil.rmtree(self.work, ignore_errors=True)
            self.work.mkdir(parents=True, exist_ok=True)
            finished = self._take_up() if self.resume else {}
            for name, columns in RECORDS:
                path = self.work / name
                if not self.resume:
                    with atomic_path(path) as tmp:
                        tmp.write_bytes(_csv([columns]))
                self._fds[name] = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise LabError(f"cannot write to {self.work}: {exc.strerror or exc}") from None
        return finished

    def _take_up(self) -> dict[RunKey, RunRecord]:
        """Read the records of an interrupted lab.

        A run is finished when ``runs.csv`` has its row; rows of the other files for runs not finished (and a last line
        cut short) are dropped, the files rewritten whole.
        """
        lines: dict[str, list[str]] = {}
        for name, _ in RECORDS:
            path = self.work / name
            text = path.read_bytes().decode("utf-8") if path.is_file() else ""
            body = text.split("\r\n")
            if body and body[-1] != "":
                body[-1] = ""  # a line cut short by a crash
            lines[name] = [line for line in body[1:] if line]
        finished = {_key(line) for line in lines[RUNS_FILE]}
        parsed: dict[str, dict[RunKey, list[tuple[str, ...]]]] = {}
        for name, columns in RECORDS:
            kept = [line for line in lines[name] if _key(line) in finished]
            with atomic_path(self.work / name) as tmp:
                tmp.write_bytes(_csv([columns]) + "".join(f"{line}\r\n" for line in kept).encode("utf-8"))
            rows: dict[RunKey, list[tuple[str, ...]]] = {}
            for line in kept:
                row = tuple(next(csv.reader([line])))
                rows.setdefault((row[0], row[1], int(row[2])), []).append(row)
            parsed[name] = rows
        return {key: RunRecord(parsed[RUNS_FILE][key][0], tuple(parsed[COMBATANTS_FILE].get(key, ())),
                               tuple(parsed[BLOWS_FILE].get(key, ()))) for key in finished}

    # ------------------------------------------------------------------ while it runs

    def write(self, records: Sequence[RunRecord]) -> None:
        """Append a consumed chunk's rows, one ``write`` per file (``runs.csv`` last)."""
        for name, _ in RECORDS:
            data = _csv(_rows(records, name))
            view = memoryview(data)
            while view:
                written = os.write(self._fds[name], view)
                view = view[written:]

    def summary_due(self) -> bool:
        """Time to rewrite ``summary.json`` (at most every ``SUMMARY_EVERY`` seconds)."""
        now = time.monotonic()
        if now - self._last_summary >= SUMMARY_EVERY:
            self._last_summary = now
            return True
        return False

    def write_summary(self, data: Mapping[str, Any]) -> None:
        """Write ``summary.json`` whole."""
        with atomic_text(self.work / SUMMARY_FILE) as fh:
            fh.write(json.dumps(data, indent=2, default=_json_default) + "\n")

    def write_file(self, name: str, data: bytes) -> str:
        """Write a file of the lab whole or not at all; its name."""
        with atomic_path(self.work / name, suffix=f".tmp{Path(name).suffix}") as tmp:
            tmp.write_bytes(data)
        return name

    # ------------------------------------------------------------------ at the end

    def close(self) -> None:
        """Close the record files."""
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()

    def sort(self, rank: Callable[[RunKey], tuple[int, str, int]]) -> None:
        """Rewrite each record file sorted by ``rank`` of its runs' keys, atomically.

        Rows of one run keep their order.
        """
        for name, _ in RECORDS:
            path = self.work / name
            text = path.read_bytes().decode("utf-8")
            header, _, rest = text.partition("\r\n")
            rows = [line for line in rest.split("\r\n") if line]
            order = sorted(range(len(rows)), key=lambda i: (rank(_key(rows[i])), i))
            with atomic_path(path) as tmp:
                tmp.write_bytes((header + "\r\n" + "".join(rows[i] + "\r\n" for i in order)).encode("utf-8"))

    def put_in_place(self) -> None:
        """A complete ``--force`` lab takes the earlier one's place (which is removed)."""
        if self.work == self.out:
            return
        old = self.out.parent / f".{self.out.name}.old"
        shutil.rmtree(old, ignore_errors=True)
        if self.out.exists():
            os.replace(self.out, old)
        os.replace(self.work, self.out)
        shutil.rmtree(old, ignore_errors=True)
        self.work = self.out


def _existing_parent(path: Path) -> Path:
    for parent in path.absolute().parents:
        if parent.exists():
            return parent
    return Path("/")


def _json_default(value: object) -> object:
    if isinstance(value, float):
        return None
    raise TypeError(f"not JSON: {type(value).__name__}")
