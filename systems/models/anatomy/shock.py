"""Shock: Shock Value -> Shock Index -> Shock State."""

from __future__ import annotations

from sandbox.components.rules import AnatomyRules, ShockState, TestResult

__all__ = ["adjusted_index", "needs_test", "opening_index", "resolve_opening", "state_for_index", "worsen"]


def opening_index(shock_value: int, level: int, glancing: bool, rules: AnatomyRules) -> int:
    """The opening Shock Index: Shock Value + injury level (+1 if the blow glanced).

    A blow that neither wounds nor glances causes no shock: the index is 0.
    """
    if glancing:
        return shock_value + rules.glancing_shock_index
    if level <= 0:
        return 0
    return shock_value + level


def needs_test(index: int, rules: AnatomyRules) -> bool:
    """Whether an opening index calls for a Shock test (5 through 10 on the shipped rules)."""
    return rules.shock_no_test_max < index <= rules.shock_death_above


def adjusted_index(index: int, result: TestResult, rules: AnatomyRules) -> int:
    """Move the index by the Shock test result (CF +2, MF +1, MS 0, CS -1)."""
    return index + rules.shock_index_change[result]


def state_for_index(index: int, rules: AnatomyRules) -> ShockState:
    """Read the shock state off an (adjusted) index: <=6 none, 7 stunned, 8 incapacitated, 9 unconscious, >=10 dead."""
    state = ShockState.NONE
    for ordinal, first in enumerate(rules.shock_state_from, start=1):
        if index >= first:
            state = ShockState(ordinal)
    return state


def resolve_opening(index: int, result: TestResult | None, rules: AnatomyRules) -> ShockState:
    """The shock state an opening index leads to, given the test result when one was needed.

    Args:
        index: The opening index.
        result: The Shock test result, or ``None`` when no test was made.
        rules: The rule tables.
    """
    if index <= rules.shock_no_test_max:
        return ShockState.NONE
    if index > rules.shock_death_above:
        return ShockState.DEAD
    if result is None:
        raise ValueError(f"a Shock test is needed for opening index {index}")
    return state_for_index(adjusted_index(index, result, rules), rules)


def worsen(current: ShockState, offered: ShockState) -> ShockState:
    """A shock result from an injury is only ever offered to worsen the current state."""
    return offered if offered > current else current
