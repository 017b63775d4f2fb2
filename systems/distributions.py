"""Exact distributions of the dice the rules roll, for the models' outcome previews (``DamageModel.preview``).

Every function sums over the faces a roll can show, in the order the rules read them (``sandbox.systems.dice``,
``sandbox.systems.d20``), so a preview built from them gives the probabilities the real rolls have, never an
estimate. A distribution is a ``Pmf``: value -> probability, the values with no chance left out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from math import comb
from typing import TypeVar

from sandbox.components.gear import Dice
from sandbox.components.preview import Chance
from sandbox.components.rules import TestResult, TestRules
from sandbox.systems.d20 import D20Roll
from sandbox.systems.dice import success_probabilities

__all__ = ["Pmf", "add", "binomial", "chances", "convolve", "d20_rolls", "dice_pmf", "die_pmf", "push",
           "test_results"]

Pmf = dict[int, float]
"""A distribution over whole numbers: value -> probability."""

K = TypeVar("K", bound=Hashable)


def die_pmf(sides: int) -> Pmf:
    """One die as ``roll_die`` rolls it: uniform over 1..``sides`` (a die below two faces always shows 1)."""
    if sides <= 1:
        return {1: 1.0}
    return dict.fromkeys(range(1, sides + 1), 1.0 / sides)


def convolve(a: Mapping[int, float], b: Mapping[int, float]) -> Pmf:
    """The distribution of the sum of two independent values."""
    out: Pmf = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def dice_pmf(dice: Dice, bonus: int = 0) -> Pmf:
    """A dice expression's total plus ``bonus``, as ``roll_dice`` rolls it (``NdX+M``; a flat value: one total)."""
    out: Pmf = {dice.modifier + bonus: 1.0}
    face = dict.fromkeys(range(1, max(dice.sides, 1) + 1), 1.0 / max(dice.sides, 1))
    for _ in range(dice.count):
        out = convolve(out, face)
    return out


def push(pmf: Mapping[int, float], f: Callable[[int], int]) -> Pmf:
    """The distribution of ``f(value)`` (a floor, armour taken off ...)."""
    out: Pmf = {}
    for x, p in pmf.items():
        y = f(x)
        out[y] = out.get(y, 0.0) + p
    return out


def binomial(n: int, p: float) -> list[float]:
    """The chance of each count 0..``n`` of successes in ``n`` independent tries of chance ``p``."""
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def d20_rolls(bonus: int, defense: int, modifier: int = 0) -> tuple[D20Roll, ...]:
    """The twenty rolls ``d20_attack(bonus, defense, rng, modifier)`` can make, one per natural (each 1 in 20)."""
    out = []
    for natural in range(1, 21):
        total = natural + bonus + modifier
        margin = total - defense
        out.append(D20Roll(natural, total, defense, margin, margin >= 1))
    return tuple(out)


def test_results(ml: int | None, rules: TestRules) -> dict[TestResult, float]:
    """The chance of each result of a d100 test against ``ml`` (``None``: a critical failure without a roll)."""
    if ml is None:
        return {TestResult.CF: 1.0}
    return {r: p for r, p in success_probabilities(ml, rules).items() if p > 0}


def add(bucket: dict[K, float], key: K, p: float) -> None:
    """Add ``p`` to ``bucket[key]``."""
    bucket[key] = bucket.get(key, 0.0) + p


def chances(bucket: Mapping[str, float], order: Iterable[str] | None = None) -> tuple[Chance, ...]:
    """A bucket of outcomes as ``Chance`` rows, those with no chance left out.

    In ``order`` (default: the bucket's), then any outcome ``order`` does not name, in the bucket's.
    """
    names = list(order) if order is not None else []
    names += [name for name in bucket if name not in names]
    return tuple(Chance(name, bucket[name]) for name in names if bucket.get(name, 0.0) > 0.0)
