"""Hypothesis strategies for generated configs: the generator of ``tests/configgen.py`` driven by hypothesis.

``gen_set()`` draws a whole ``GenSet`` (body, weapon, armour piece, creature, scenario and each point model's
entries for them); ``HypothesisDraw`` turns each of the generator's ``Draw`` calls into a strategy, so a failing
example shrinks (fewer zones, smaller numbers) and replays from hypothesis's database. The soak draws the same
generator from a seeded ``random.Random`` instead (``configgen.RandomDraw``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

from tests.configgen import GenSet, Written
from tests.configgen import gen_set as _generate

T = TypeVar("T")

__all__ = ["GenSet", "HypothesisDraw", "Written", "gen_set"]


class HypothesisDraw:
    """The generator's ``Draw`` from a hypothesis ``draw`` function."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        """An integer from ``lo`` to ``hi`` inclusive."""
        return self._draw(st.integers(lo, hi))

    def real(self, lo: float, hi: float) -> float:
        """A finite float from ``lo`` to ``hi``."""
        return self._draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))

    def boolean(self) -> bool:
        """True or False."""
        return self._draw(st.booleans())

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``."""
        return self._draw(st.sampled_from(options))

    def subset(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        """``lo`` to ``hi`` distinct elements of ``options``."""
        return self._draw(st.lists(st.sampled_from(options), min_size=lo, max_size=min(hi, len(options)),
                                   unique=True))


@st.composite
def gen_set(draw: st.DrawFn) -> GenSet:
    """A whole generated set of configs (see ``tests/configgen.py``)."""
    return _generate(HypothesisDraw(draw))
