"""The lab's Python API.

``sandbox.lab.run(...)`` runs a lab (variants, scale factors, a solve) and returns a ``LabResult`` whose records are
pandas DataFrames (``pip install 'combat-sandbox[lab]'``)

    from sandbox.lab import run

    result = run("duel", runs=200, variants={"mace": {"scenario.combatants.Aldric.weapons": ["mace"]}})
    print(result.runs.groupby("variant")["winner"].value_counts(normalize=True))
    print(result.summary["differences"]["mace"]["anatomy"]["wins"]["Red"])
    result.report("duel.html")
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.config.content import ScenarioRef, scenario_ref

from .errors import LabError
from .executors import check_jobs, make_executor
from .folder import LabFolder
from .plan import LabPlan, check_engine, default_chunk, default_models, read_variants, scale_keys, solve_spec
from .records import BLOWS_FILE, COMBATANTS_FILE, RUNS_FILE
from .report import report_html
from .runner import cast_of, parse_models
from .session import Session, run_session
from .variants import BASELINE, Variant, check_patches

__all__ = ["LabResult", "VariantsArg", "run"]

VariantsArg = Mapping[str, Mapping[str, Any]] | Sequence[Variant] | str | Path | None
"""Variants: name -> {key: value}, ``Variant`` objects, or a variants file (the baseline is added first)."""


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise LabError("the lab's DataFrames need pandas: pip install 'combat-sandbox[lab]'") from None
    return pandas


@dataclass(slots=True)
class LabResult:
    """A finished lab.

    Attributes:
        folder: Where its files are (a temporary folder, kept as long as the result, unless ``out`` was given).
        summary: What ``summary.json`` holds (win rates, paired differences, scale factors, the solve).
        session: The lab as run (tallies, plots).
    """

    folder: Path
    summary: dict[str, Any]
    session: Session
    _keep: Any = field(default=None, repr=False)

    def _frame(self, name: str) -> Any:
        return _pandas().read_csv(self.folder / name, keep_default_na=False)

    @property
    def runs(self) -> Any:
        """``runs.csv`` as a DataFrame: one row per run (variant, model, run, seed, winner, reason, ticks, ...)."""
        return self._frame(RUNS_FILE)

    @property
    def combatants(self) -> Any:
        """``combatants.csv`` as a DataFrame: one row per run and creature."""
        return self._frame(COMBATANTS_FILE)

    @property
    def blows(self) -> Any:
        """``blows.csv`` as a DataFrame: landed blows per run, target, location and wound."""
        return self._frame(BLOWS_FILE)

    def report(self, path: str | Path) -> Path:
        """Write the self-contained HTML report to ``path`` (whole or not at all)."""
        from sandbox.files import atomic_text

        target = Path(path)
        with atomic_text(target) as fh:
            fh.write(report_html(self.summary, self.session.plots))
        return target


def _variants(variants: VariantsArg) -> tuple[Variant, ...]:
    if variants is None:
        return (Variant(BASELINE),)
    if isinstance(variants, str | Path):
        return read_variants(Path(variants))
    if isinstance(variants, Mapping):
        return (Variant(BASELINE), *(Variant(name, tuple(patches.items())) for name, patches in variants.items()))
    listed = tuple(variants)
    return listed if listed and not listed[0].patches else (Variant(BASELINE), *listed)


def run(scenario: str | Path | ScenarioRef, *, runs: int = 100, models: str | Sequence[str] | None = None,
        variants: VariantsArg = None, jobs: int = 1, executor: Executor | None = None, seed: int = 0,
        scale: str | Sequence[str] | None = None, solve: tuple[str, float, float, str] | None = None,
        target_error: float | None = None, chunk: int | None = None, out: str | Path | None = None,
        odds_blows: int = 0, engine: str = "esper", content: Sequence[str | Path] = ()) -> LabResult:
    """Run a lab and return its result.

    Args:
        scenario: A scenario id (of the shipped content or of ``content``'s trees) or a scenario file (one inside a
            content tree brings its tree).
        runs: Runs per variant and model (the solver: the most per probe).
        models: Damage models (a list, or ``"all"``); default: the scenario's, or all of them for a lab with no
            variants, scale factors or solve.
        variants: The variants (see ``VariantsArg``).
        jobs: Worker processes when no ``executor`` is given (1: this process).
        executor: Where the chunks run (a ``ProcessPoolExecutor``, a Dask client's executor ...).
        seed: Root seed.
        scale: Parameters for scale factors (``"KEY[:STEP]"`` each).
        solve: ``(key, low, high, target)`` (``("weapons.mace.modes.crush.impact", 0, 8, "Red=Blue")``).
        target_error: Without a solve, stop once every win rate's 95% half-width is below it; with one, the solved
            value's half-width to reach.
        chunk: Runs per chunk (default: ``plan.default_chunk``: 25 on the esper engine; on the array engine as
            many as make a world of ``plan.ARRAY_WORLD`` creatures, 20,000 for a duel).
        out: A new or empty folder for the files (default: a temporary one).
        odds_blows: Blows per odds card (0: none).
        engine: ``esper``, or ``array``: each chunk one array world of independent fights (the anatomy model;
            default models: the scenario's).
        content: Content trees extending the shipped content; they travel with the work to every worker, on any
            executor (``SANDBOX_CONTENT`` is not read).

    Raises:
        LabError: Bad input (unknown model, bad variant key or value, a target out of reach ...).
        ConfigError: The scenario or a variant's content is invalid.
    """
    from sandbox.config.scenarios import resolve_scenario

    scenario = scenario_ref(scenario, content)  # resolved once: what every worker is sent
    chosen = _variants(variants)
    for variant in chosen:
        check_patches(variant, scenario)
    cast = cast_of(scenario)
    asks = len(chosen) > 1 or scale or solve
    if models is None:
        model_text = default_models(engine, scenario, bool(asks))
    else:
        model_text = models if isinstance(models, str) else ",".join(models)
    keys = scale_keys(scale if isinstance(scale, str) else ",".join(scale), scenario, chosen[0]) if scale else ()
    solving = solve_spec(solve[0], (solve[1], solve[2]), solve[3], cast.team_order, target_error, scenario,
                         chosen[0]) \
        if solve else None
    plan = LabPlan(scenario, parse_models(model_text), runs, seed,
                   chunk or default_chunk(engine, len(cast.names)), None if solving else target_error, chosen, keys,
                   solving, engine)
    check_engine(plan)
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="sandbox-lab-")
        out = Path(keep.name) / "lab"
    folder = LabFolder(Path(out))
    folder.check(plan.as_json())
    pool = executor
    if pool is None:
        check_jobs(jobs)
    own = pool is None
    pool = pool or make_executor(jobs)
    try:
        session = run_session(plan, cast.team_order, pool, folder, jobs=jobs, window=2 * max(1, jobs),
                              odds_blows=odds_blows, bodies=dict(resolve_scenario(scenario)[0].bodies))
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return LabResult(folder.out, session.summary(final=session.lab.complete), session, keep)
