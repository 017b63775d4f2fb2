"""The lab: many seeded skirmishes per damage model on any ``concurrent.futures.Executor``, one flat record per
run (``runs.csv``), a summary with Wilson intervals (``summary.json``) and plots.

Typical use (what ``sandbox lab`` does)::

    cast = cast_of("duel")
    plan = LabPlan("duel", parse_models("all"), runs=200, seed=0)
    prepare_out(out)
    with make_executor(4) as pool:
        result = run_lab(plan, cast, pool, out)
"""

from __future__ import annotations

from .executors import InlineExecutor, dask_executor, make_executor
from .runner import (
    RUNS_FILE,
    SUMMARY_FILE,
    Cast,
    LabError,
    LabPlan,
    LabResult,
    cast_of,
    columns,
    parse_models,
    prepare_out,
    run_lab,
    run_one,
)
from .stats import ModelTally, counted_quantile, wilson
from .summary import summary_data, summary_table, write_summary

__all__ = [
    "RUNS_FILE",
    "SUMMARY_FILE",
    "Cast",
    "InlineExecutor",
    "LabError",
    "LabPlan",
    "LabResult",
    "ModelTally",
    "cast_of",
    "columns",
    "counted_quantile",
    "dask_executor",
    "make_executor",
    "parse_models",
    "prepare_out",
    "run_lab",
    "run_one",
    "summary_data",
    "summary_table",
    "wilson",
    "write_summary",
]
