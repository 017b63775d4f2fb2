"""Mishaps: whether a wound threatens a fumble or a stumble, and the keep-control tests."""

from __future__ import annotations

from sandbox.components.rules import AnatomyRules, TestResult

__all__ = ["disposition", "fumble_outcome", "keep_control_ml", "stumble_outcome"]


def disposition(flagged: bool, level: int, glancing: bool, rules: AnatomyRules) -> str:
    """``none``, ``roll`` or ``auto`` for a wound of ``level`` at a location flagged (or not) for the mishap.

    M1, a glancing blow or no injury threatens nothing; S2/S3 call for a test; G4/G5 make the mishap certain.
    """
    if not flagged or glancing:
        return "none"
    return rules.mishap_by_level[level]


def fumble_outcome(disposition_: str, result: TestResult | None) -> str:
    """What a fumble disposition and its keep-control test (if made) do to the grip.

    Returns:
        ``none`` (nothing threatened), ``kept``, ``dropped`` or ``flung`` (a critical failure flings the item).
    """
    if disposition_ == "none":
        return "none"
    if disposition_ == "auto":
        return "dropped"
    if result is None:
        raise ValueError("a fumble test result is needed for a 'roll' disposition")
    if result.success:
        return "kept"
    return "flung" if result is TestResult.CF else "dropped"


def stumble_outcome(disposition_: str, result: TestResult | None) -> str:
    """What a stumble disposition and its keep-control test (if made) do: ``none``, ``kept`` or ``prone``."""
    if disposition_ == "none":
        return "none"
    if disposition_ == "auto":
        return "prone"
    if result is None:
        raise ValueError("a stumble test result is needed for a 'roll' disposition")
    return "kept" if result.success else "prone"


def keep_control_ml(attribute_ml: int | None, skill_ml: int | None) -> int | None:
    """The better of the attribute and the skill; ``None`` when the creature has neither (it cannot test)."""
    options = [ml for ml in (attribute_ml, skill_ml) if ml is not None]
    return max(options) if options else None
