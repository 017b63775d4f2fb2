"""The lab: many seeded skirmishes per variant and damage model, for balance questions.

They run on any ``concurrent.futures.Executor``. The lab gives win rates with intervals, variants compared run by run on
common random numbers (paired differences), scale factors, a solve for a target win rate, tidy records (``runs.csv``,
``combatants.csv``, ``blows.csv``) and one self-contained ``report.html``.

The Python API::

    from sandbox.lab import run

    result = run("duel", runs=500, variants={"mace": {"scenario.combatants.Aldric.weapons": ["mace"]}},
                 jobs=2)
    result.runs          # a pandas DataFrame, one row per run
    result.combatants    # one row per run and creature
    result.summary["differences"]["mace"]["anatomy"]["wins"]["Red"]   # the paired difference, with intervals
    result.report("duel.html")

The names are imported on first use, so ``import sandbox.lab`` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.lazy import lazy_attributes

if TYPE_CHECKING:
    from sandbox.lab.api import LabResult, run
    from sandbox.lab.errors import LabError, LabStopped
    from sandbox.lab.executors import InlineExecutor, dask_executor, make_executor
    from sandbox.lab.plan import LabPlan
    from sandbox.lab.records import RunRecord, run_one, world_of
    from sandbox.lab.runner import Cast, cast_of, parse_models
    from sandbox.lab.stats import ModelTally, counted_quantile, wilson
    from sandbox.lab.variants import Variant

__all__ = ["Cast", "InlineExecutor", "LabError", "LabPlan", "LabResult", "LabStopped", "ModelTally", "RunRecord",
           "Variant", "cast_of", "counted_quantile", "dask_executor", "make_executor", "parse_models", "run",
           "run_one", "wilson", "world_of"]

__getattr__, __dir__ = lazy_attributes(__name__, globals(), {
    "LabResult": "sandbox.lab.api", "run": "sandbox.lab.api", "LabError": "sandbox.lab.errors",
    "LabStopped": "sandbox.lab.errors", "InlineExecutor": "sandbox.lab.executors",
    "dask_executor": "sandbox.lab.executors", "make_executor": "sandbox.lab.executors", "LabPlan": "sandbox.lab.plan",
    "RunRecord": "sandbox.lab.records", "run_one": "sandbox.lab.records", "world_of": "sandbox.lab.records",
    "Cast": "sandbox.lab.runner", "cast_of": "sandbox.lab.runner", "parse_models": "sandbox.lab.runner",
    "ModelTally": "sandbox.lab.stats", "counted_quantile": "sandbox.lab.stats", "wilson": "sandbox.lab.stats",
    "Variant": "sandbox.lab.variants"})
