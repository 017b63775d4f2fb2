"""The array engine's random streams: one counter-based stream per (fight, purpose), drawn for many fights at once.

A fight's draws depend only on ``(seed, its run index, purpose)`` and on the order in which the rules ask for them
within that fight, never on which other fights share the world. So run ``i`` of a lab is the same fight whether
it runs alone, in a batch of 25 or of 20,000, on any worker, and after a resume; and run ``i`` of two variants of
a lab draws the same numbers until the variants' rules part (common random numbers).

Each value is SplitMix64's output for the stream's key plus its counter times the golden gamma (the construction
of ``java.util.SplittableRandom``), computed over numpy ``uint64`` arrays; the key mixes the seed, the run index
and the purpose. A draw asks for one value per row, each row naming its fight: the rows of one fight take that
fight's next counters in row order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sandbox.systems.arrays.compiled import compiled
from sandbox.systems.arrays.tables import FloatArray, IntArray

__all__ = ["U64", "BoundStream", "FightStreams"]

U64 = npt.NDArray[np.uint64]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
"""SplitMix64's increment (the golden ratio as a 64-bit odd number)."""
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@compiled
def _mix64(z: U64) -> U64:
    """SplitMix64's finaliser, of one ``uint64`` or over an array (wrapping arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    out: U64 = z ^ (z >> np.uint64(31))
    return out


_UNIT = 1.0 / (1 << 53)
"""A uniform's 53 bits as a fraction of one."""


@compiled
def _uniforms(keys: U64, counters: U64, fights: IntArray, out: FloatArray) -> None:
    """Row by row, its fight's next counter mixed with that fight's key, as a uniform in [0, 1).

    The uniform is made of the mix's top 53 bits.
    """
    for j in range(fights.shape[0]):
        f = fights[j]
        at = counters[f] + np.uint64(1)
        counters[f] = at
        out[j] = np.float64(_mix64(keys[f] + at * _GAMMA) >> np.uint64(11)) * _UNIT


@compiled
def _integers(keys: U64, counters: U64, fights: IntArray, low: IntArray, span: IntArray, out: IntArray) -> None:
    """Row by row, an integer in ``[low, low + span)`` from its fight's next uniform (``_uniforms``).

    The uniform times the span, truncated, at most ``span - 1``.
    """
    for j in range(fights.shape[0]):
        f = fights[j]
        at = counters[f] + np.uint64(1)
        counters[f] = at
        u = np.float64(_mix64(keys[f] + at * _GAMMA) >> np.uint64(11)) * _UNIT
        out[j] = low[j] + min(np.int64(u * span[j]), max(span[j] - 1, 0))


@compiled
def _integer_rounds(keys: U64, counters: U64, fights: IntArray, low: int, span: int, out: IntArray) -> None:
    """``out.shape[0]`` rounds of ``_integers`` over the rows of ``fights``, each in ``[low, low + span)``.

    Round ``k`` is row ``k`` of ``out``, drawn after the rounds before it (as that many calls would draw them).

    The draw is written out here as in ``_uniforms`` and ``_integers``: one compiled helper for the three made each
    1.5 to 1.7 times slower (measured), and so did drawing the rounds through ``_integers`` on repeated rows.
    """
    for k in range(out.shape[0]):
        for j in range(fights.shape[0]):
            f = fights[j]
            at = counters[f] + np.uint64(1)
            counters[f] = at
            u = np.float64(_mix64(keys[f] + at * _GAMMA) >> np.uint64(11)) * _UNIT
            out[k, j] = low + min(int(u * span), max(span - 1, 0))


def _per_row(value: int | IntArray, n: int) -> IntArray:
    """``value`` as one int64 per row (``np.broadcast_to`` costs several times as much for a small draw)."""
    if isinstance(value, np.ndarray):
        return value.astype(np.int64, copy=False)
    return np.full(n, value, dtype=np.int64)


class FightStreams:
    """Every fight's stream of every purpose.

    Args:
        seed: Root seed.
        runs: Per fight (by fight index), its run index under the seed.
        purposes: The purposes, in a fixed order (a purpose's position is part of its key).
    """

    def __init__(self, seed: int, runs: Sequence[int], purposes: Sequence[str]) -> None:
        self.purposes = {name: k for k, name in enumerate(purposes)}
        run = np.asarray(runs, dtype=np.uint64)
        with np.errstate(over="ignore"):
            base = _mix64(np.asarray([seed & (2**64 - 1)], dtype=np.uint64) + _GAMMA)
            self.keys: U64 = np.stack([_mix64(_mix64(base + (run + np.uint64(1)) * _GAMMA) + np.uint64(k + 1) * _M1)
                                       for k in range(len(purposes))])
        self.counters: U64 = np.zeros((len(purposes), len(runs)), dtype=np.uint64)

    def keep(self, fights: IntArray) -> None:
        """Keep the streams of ``fights`` only, in that order (each where it was: its next draw is unchanged)."""
        self.keys, self.counters = self.keys[:, fights], self.counters[:, fights]

    def random(self, purpose: str, fights: IntArray) -> FloatArray:
        """One uniform in [0, 1) per row (``fights[j]``: row ``j``'s fight).

        Each fight's rows take its next counters in row order (53 bits each).
        """
        out = np.empty(fights.shape[0], dtype=np.float64)
        _uniforms(self.keys[self.purposes[purpose]], self.counters[self.purposes[purpose]], fights, out)
        return out

    def integers(self, purpose: str, fights: IntArray, low: int | IntArray, high: int | IntArray) -> IntArray:
        """One integer in ``[low, high)`` per row, from the row's next uniform (``random``).

        ``low`` and ``high`` may be one per row.
        """
        n = fights.shape[0]
        lows = _per_row(low, n)
        span = _per_row(high, n) - lows
        out = np.empty(n, dtype=np.int64)
        _integers(self.keys[self.purposes[purpose]], self.counters[self.purposes[purpose]], fights, lows, span, out)
        return out

    def integer_rounds(self, purpose: str, fights: IntArray, low: int, high: int, rounds: int) -> IntArray:
        """``rounds`` calls of ``integers(purpose, fights, low, high)`` at once, as rows.

        The same numbers, one kernel call (a tick's attack and injury rolls are several rounds over the same rows).
        """
        out = np.empty((rounds, fights.shape[0]), dtype=np.int64)
        k = self.purposes[purpose]
        _integer_rounds(self.keys[k], self.counters[k], fights, low, high - low, out)
        return out

    def bound(self, purpose: str, fights: IntArray) -> BoundStream:
        """A generator-like view drawing one value per row of ``fights`` per call (for ``resolve_blow_batch``)."""
        return BoundStream(self, purpose, fights)


class BoundStream:
    """The ``numpy.random.Generator`` calls the blow pipeline makes.

    They are ``random(n)`` and ``integers(low, high, size=n)``, each drawing one value per bound row from that row's
    fight stream.

    Args:
        streams: The streams.
        purpose: The purpose drawn from.
        fights: Per row, its fight.
    """

    def __init__(self, streams: FightStreams, purpose: str, fights: IntArray) -> None:
        self.streams = streams
        self.purpose = purpose
        self.fights = fights

    def _rows(self, size: int | tuple[int, ...] | None, like: int | IntArray | None = None) -> int:
        n = int(self.fights.shape[0])
        if size is None:
            size = int(np.asarray(like).shape[0]) if like is not None and np.ndim(like) else n
        wanted = size if isinstance(size, int) else int(np.prod(size))
        if wanted != n:
            raise ValueError(f"a bound stream draws one value per row ({n}), not {wanted}")
        return n

    def random(self, size: int | tuple[int, ...] | None = None) -> FloatArray:
        """One uniform per row."""
        self._rows(size)
        return self.streams.random(self.purpose, self.fights)

    def integers(self, low: int | IntArray, high: int | IntArray | None = None,
                 size: int | tuple[int, ...] | None = None, dtype: object = np.int64) -> IntArray:
        """One integer in ``[low, high)`` per row (``integers(high)``: in ``[0, high)``).

        ``size=(k, rows)`` with scalar bounds draws ``k`` rounds as rows, as ``k`` calls would (and as a ``Generator``
        fills them).
        """
        if high is None:
            low, high = 0, low
        if isinstance(size, tuple) and len(size) == 2 and isinstance(low, int) and isinstance(high, int):
            self._rows(size[1])
            return self.streams.integer_rounds(self.purpose, self.fights, low, high, size[0])
        self._rows(size, high)
        return self.streams.integers(self.purpose, self.fights, low, high)
