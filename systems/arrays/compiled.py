"""Compiled loops for the array engine: numba's ``njit``, typed for mypy and cached on disk.

A rule that must walk its cases one at a time in order (each attack against its target as the earlier ones left
it) is written as a plain Python function over arrays and compiled here; numpy alone would need a pass of a few
hundred calls per step of the order. The first call of a process compiles it (a few seconds, once: the machine
code is cached beside the module, or in numba's user-wide cache where that folder is read-only) and later calls
load it. ``NUMBA_DISABLE_JIT=1`` runs the same functions as Python, for a debugger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["compiled"]

_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(function: _F) -> _F:
    """``function`` compiled to machine code on its first call (no Python objects inside: arrays and numbers)."""
    return cast(_F, numba.njit(cache=True, nogil=True)(function))
