"""Dice: d100 skill tests and ``NdX+M`` expressions, drawing from an explicitly passed generator.

Every function takes the generator as an argument; nothing here keeps random state. Any object with a
``random()`` method returning a float in [0, 1) will do: the sandbox passes ``random.Random`` instances seeded
from ``numpy.random.SeedSequence`` streams, because a scalar draw from them costs tens of nanoseconds where a
scalar draw from a numpy ``Generator`` costs about a microsecond, and the blow pipeline makes several per blow.
"""

from __future__ import annotations

import re
from typing import Protocol

from sandbox.components.gear import Dice
from sandbox.components.rules import TestResult, TestRules

__all__ = ["Rng", "parse_dice", "read_test", "roll_dice", "roll_die", "skill_test", "success_probabilities"]


class Rng(Protocol):
    """The one thing the rules need from a random generator."""

    def random(self) -> float:
        """A float uniformly drawn from [0, 1)."""
        ...


_DICE = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")
_FLAT = re.compile(r"^\s*([+-]?\d+)\s*$")


def parse_dice(text: str) -> Dice:
    """Parse ``NdX+M`` (``1d10+3``, ``d6-3``, ``2d4``) or a flat value (``3``).

    Raises:
        ValueError: The text is not a dice expression, or has zero dice or faces.
    """
    flat = _FLAT.match(text)
    if flat:
        return Dice(0, 0, int(flat.group(1)))
    match = _DICE.match(text)
    if not match or match.group(2) is None:
        raise ValueError(f"not a dice expression: {text!r} (expected NdX+M, e.g. 1d10+3)")
    count = int(match.group(1)) if match.group(1) else 1
    sides = int(match.group(2))
    if count < 1 or sides < 1:
        raise ValueError(f"dice expression {text!r} needs at least one die of at least one face")
    modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    return Dice(count, sides, modifier)


def roll_dice(dice: Dice, rng: Rng) -> int:
    """Roll a dice expression and return its total (which may be negative, e.g. ``1d6-3``)."""
    total = dice.modifier
    sides = dice.sides
    for _ in range(dice.count):
        total += int(rng.random() * sides) + 1
    return total


def roll_die(sides: int, rng: Rng) -> int:
    """Roll one die of ``sides`` faces (values below 1 are treated as 1)."""
    return int(rng.random() * sides) + 1 if sides > 1 else 1


def read_test(roll: int, ml: int, rules: TestRules) -> TestResult:
    """Read a d100 roll against a Mastery Level (clamped to the rules' range).

    A roll at or under the ML succeeds; a roll divisible by the critical divisor is critical.
    """
    if ml < rules.ml_min:  # comparisons, not min/max: every test of every rule reads through here
        ml = rules.ml_min
    elif ml > rules.ml_max:
        ml = rules.ml_max
    critical = roll % rules.critical_divisor == 0
    if roll <= ml:
        return TestResult.CS if critical else TestResult.MS
    return TestResult.CF if critical else TestResult.MF


def skill_test(ml: int | None, rng: Rng, rules: TestRules) -> TestResult:
    """Make a d100 test against ``ml``.

    Args:
        ml: The effective Mastery Level, modifiers included; ``None`` means the test cannot succeed at all (an
            unusable part on a role the skill names, or a creature with no such ability): it critically fails
            without a roll.
        rng: The generator to draw from.
        rules: How tests read.
    """
    if ml is None:
        return TestResult.CF
    return read_test(int(rng.random() * 100) + 1, ml, rules)


def success_probabilities(ml: int, rules: TestRules) -> dict[TestResult, float]:
    """Exact probability of each result for a test against ``ml``."""
    counts = dict.fromkeys(TestResult, 0)
    for roll in range(1, 101):
        counts[read_test(roll, ml, rules)] += 1
    return {result: n / 100 for result, n in counts.items()}
