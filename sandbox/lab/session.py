"""A whole lab from plan to report: what ``sandbox lab`` and ``sandbox.lab.run`` both do.

The order keeps every promise of the lab's folder: bad input is refused before anything is written (a solver
target out of reach too: its two end probes run in memory first), the records and ``summary.json`` grow as runs
finish, and the plots, odds cards and report are written whole once the runs are done.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from sandbox.components.body import BodyStructure
from sandbox.interrupts import interrupts_deferred

from . import plots
from .compare import differences, scale_factors
from .errors import LabStopped
from .folder import LabFolder
from .odds import cards_csv, odds_cards
from .plan import LabPlan
from .records import RunRecord
from .report import REPORT_FILE, report_html
from .runner import Engine, LabRun, run_plan
from .solver import Solver, probes_json
from .summary import summary_data

__all__ = ["MemorySink", "Session", "draw", "finish", "run_session"]


class MemorySink:
    """Keeps the records in memory (the solver's end probes, before the folder may be written)."""

    def __init__(self) -> None:
        self.records: list[RunRecord] = []

    def write(self, records: Sequence[RunRecord]) -> None:
        """Keep them."""
        self.records.extend(records)


@dataclass(slots=True)
class Session:
    """One lab being run.

    Attributes:
        lab: How it goes (tallies, order, flags).
        folder: Its folder (``None``: nothing written).
        jobs: Workers, for the summary.
        plots: The plots drawn at the end (file name -> PNG).
    """

    lab: LabRun
    folder: LabFolder | None
    jobs: int
    plots: dict[str, bytes] = field(default_factory=dict)

    def summary(self, final: bool = False) -> dict[str, Any]:
        """The summary as it stands."""
        return summary_data(self.lab, self.jobs, final=final)


def run_session(plan: LabPlan, teams: Sequence[str], executor: Executor, folder: LabFolder | None, *, jobs: int,
                window: int, odds_blows: int = 0, bodies: dict[str, BodyStructure] | None = None,
                progress: Callable[[int], None] | None = None, health: Callable[[], None] | None = None,
                on_open: Callable[[], None] | None = None, settle: bool = False) -> Session:
    """Run a plan to its report.

    Args:
        plan: What to run.
        teams: The scenario's teams, in order.
        executor: Where chunks (and odds cards) run.
        folder: The lab's folder (checked: ``LabFolder.check``), or ``None`` to write nothing.
        jobs: Workers, for the summary.
        window: Chunks in flight.
        odds_blows: Blows per odds card (0: none).
        bodies: Body id -> body, for the hit-location map.
        progress: Called with the runs each consumed chunk added.
        health: The executor's health check (``Cluster.health``).
        on_open: Called once the folder exists (a test synchronises on it; the CLI prints a line).
        settle: Once the final summary is written, ignore Ctrl-C and SIGTERM (the command restores them): the
            summary says how the lab ended, and a late signal must not make the exit code say otherwise.

    Raises:
        LabError: A solve target out of reach (before anything is written).
    """
    lab = LabRun(plan, list(teams))
    session = Session(lab, folder, jobs)
    started = time.perf_counter()
    finished = folder.open() if folder is not None and folder.resume else {}
    early = MemorySink()
    engine = Engine(lab, executor, early if folder is None or not folder.resume else folder, window=window,
                    health=health, finished=finished)
    solvers = [Solver(lab, engine, plan.solve, m, plan.runs) for m in plan.models] if plan.solve else []
    try:
        for solver in solvers:  # the target must be within reach before anything is written
            solver.check_ends()
    except KeyboardInterrupt:
        lab.interrupted = True
    except LabStopped as exc:
        lab.stopped = str(exc)
    if folder is not None and not folder.resume:
        folder.open()
        with interrupts_deferred():
            folder.write(early.records)
    if folder is not None:
        engine.sink = folder
        if on_open is not None:
            on_open()
        folder.write_summary(session.summary())

    def advance(runs: int) -> None:
        if progress is not None:
            progress(runs)
        if folder is not None and folder.summary_due():
            lab.elapsed = time.perf_counter() - started
            folder.write_summary(session.summary())

    engine.progress = advance
    if lab.complete:
        run_plan(lab, engine)
    results = []
    for solver in solvers:
        if not lab.complete:
            break
        try:
            results.append(probes_json(solver.solve()))
        except KeyboardInterrupt:
            lab.interrupted = True
        except LabStopped as exc:
            lab.stopped = str(exc)
    if solvers:
        lab.solve = {"method": "bisection on common random numbers (sample-average approximation), the 95% "
                               "interval by inverting the test of the gap being zero", "results": results}
    lab.elapsed = time.perf_counter() - started
    finish(session, executor, odds_blows, bodies or {}, settle)
    return session


def finish(session: Session, executor: Executor, odds_blows: int, bodies: dict[str, BodyStructure],
           settle: bool = False) -> None:
    """The final phase.

    Plots, odds cards, report and the final summary, each file whole; an interrupt in it is recorded in the summary (the
    records are whole either way). With ``settle``, signals are ignored afterwards.
    """
    lab, folder = session.lab, session.folder
    try:
        with interrupts_deferred():
            if folder is not None:
                folder.close()
            if lab.complete:
                session.plots = draw(lab, bodies)
                if odds_blows and folder is not None:
                    cards, problems = odds_cards(lab.plan.scenario, odds_blows, lab.plan.seed, executor)
                    lab.notes.extend(problems)
                    lab.files.append(folder.write_file("odds.csv", cards_csv(cards)))
                if folder is not None:
                    for name, png in session.plots.items():
                        lab.files.append(folder.write_file(name, png))
                    order = lab.order
                    folder.sort(lambda key: (order.get(key[0], len(order)), key[1], key[2]))
            if folder is not None:
                if lab.complete:
                    lab.files.append(REPORT_FILE)
                    folder.write_file(REPORT_FILE, report_html(session.summary(final=True), session.plots)
                                      .encode("utf-8"))
                if lab.complete:
                    lab.files.extend(_parquet(folder))
                folder.write_summary(session.summary(final=lab.complete))
                if lab.complete:
                    folder.put_in_place()
            if settle:
                _ignore_signals()
    except KeyboardInterrupt:
        lab.interrupted = True
        with interrupts_deferred():
            if folder is not None:  # the runs are whole; the summary says the lab did not end cleanly
                folder.write_summary(session.summary(final=False))
            if settle:
                _ignore_signals()


def _ignore_signals() -> None:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)


def _parquet(folder: LabFolder) -> list[str]:
    """``runs.parquet``, ``combatants.parquet`` and ``blows.parquet`` beside the CSV files.

    Written only when pandas and pyarrow are installed (the ``lab`` extra).
    """
    try:
        import pandas
        import pyarrow  # noqa: F401 (pandas writes Parquet through it)
    except ImportError:
        return []
    import io

    from .records import BLOWS_FILE, COMBATANTS_FILE, RUNS_FILE

    written = []
    for name in (RUNS_FILE, COMBATANTS_FILE, BLOWS_FILE):
        frame = pandas.read_csv(folder.work / name, keep_default_na=False)
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        written.append(folder.write_file(name.replace(".csv", ".parquet"), buffer.getvalue()))
    return written


def draw(lab: LabRun, bodies: dict[str, BodyStructure]) -> dict[str, bytes]:
    """Every plot of the lab: file name -> PNG."""
    out = {"win_rates.png": plots.win_rates(lab)}
    if len(lab.plan.variants) > 1:
        out["differences.png"] = plots.differences(lab, differences(lab))
    if lab.plan.scale:
        out["scale_factors.png"] = plots.scale_factors(lab, scale_factors(lab))
    if lab.solve and lab.solve["results"]:
        out["solve.png"] = plots.solve(lab, lab.solve["results"])
    out["time_to_out.png"] = plots.time_to_out(lab)
    hits = plots.hit_locations(lab, bodies)
    if hits is not None:
        out["hit_locations.png"] = hits
    out["injury_levels.png"] = plots.injury_mix(lab)
    return out

