"""The ``[health_tiers]`` check every point model's TOML reader runs, in the wording of its other problems."""

from __future__ import annotations

from typing import Any

from sandbox.config.health_tiers import TiersModel, tier_problem
from sandbox.models.tables import Tables

__all__ = ["check_tiers"]


def check_tiers(tables: Tables[Any], tiers: TiersModel) -> None:
    """Record a problem of the model's ``[health_tiers]`` table (``sandbox.config.health_tiers.tier_problem``)."""
    problem = tier_problem(tiers)
    if problem is not None:
        key, expected, found = problem
        tables.bad(("health_tiers", key), None, expected, found)
