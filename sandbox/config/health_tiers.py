"""The ``[health_tiers]`` table of every damage model's TOML file: where its health fraction crosses the tiers.

One schema for the five files (``models/anatomy.toml`` through the catalog's own reader, the four point models'
through their ``tables`` modules), one semantic check (``tier_problem``) and one builder (``tier_table``), so a bad
entry reads the same under every model.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from sandbox.components.health_tiers import TierTable

__all__ = ["Fraction", "TiersModel", "tier_problem", "tier_table"]

Fraction = Annotated[float, Field(ge=0.0, le=1.0)]
"""A health fraction: 0 (dead) .. 1 (unhurt)."""

_DEFAULT = TierTable()


class TiersModel(BaseModel):
    """The readout's tiers on the model's health fraction (``Readout.health_fraction``, ``docs/readout.md``).

    Dead and down come from the readout's ``alive`` and ``can_act``; a creature able to act is badly hurt at or below
    ``badly_hurt_at_most``, hurt below ``unhurt_at_least`` (or with any open wound), unhurt otherwise.
    """

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)

    unhurt_at_least: Fraction = Field(default=_DEFAULT.unhurt_at_least, description=(
        "The lowest health fraction that reads unhurt (with no open wound); 1.0: any lost health reads hurt."))
    badly_hurt_at_most: Fraction = Field(default=_DEFAULT.badly_hurt_at_most, description=(
        "The highest health fraction that reads badly hurt; below unhurt_at_least."))


def tier_problem(tiers: TiersModel) -> tuple[str, str, str] | None:
    """What is wrong with a valid ``[health_tiers]`` table: (its key, expected, found), or ``None``.

    The badly-hurt threshold must lie below the unhurt one, or no fraction would read hurt (and a creature could read
    badly hurt and unhurt at once).
    """
    if tiers.badly_hurt_at_most >= tiers.unhurt_at_least:
        return ("badly_hurt_at_most", f"a fraction below unhurt_at_least ({tiers.unhurt_at_least:g})",
                repr(tiers.badly_hurt_at_most))
    return None


def tier_table(tiers: TiersModel) -> TierTable:
    """The frozen ``TierTable`` of a checked ``[health_tiers]`` table."""
    return TierTable(tiers.unhurt_at_least, tiers.badly_hurt_at_most)
