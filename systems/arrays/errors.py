"""What the array engine refuses.

A model it has no array implementation of, or a scenario feature it does not run.
"""

from __future__ import annotations

__all__ = ["EngineError"]


class EngineError(ValueError):
    """The array engine cannot run this world; the message says which model or feature, and what runs it."""
