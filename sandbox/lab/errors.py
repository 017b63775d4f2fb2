"""The lab's one error type (its own module, so every part of the lab can raise it without importing the rest)."""

from __future__ import annotations

__all__ = ["LabError", "LabStopped"]


class LabError(ValueError):
    """A lab request that cannot run.

    An unknown model, a bad scenario, variant or option, an output folder that is not free, a target out of reach; the
    message says which and why (the CLI prints it, exit code 2).
    """


class LabStopped(RuntimeError):
    """The lab stopped before its work was done for a reason of its own making, not the user's.

    For example a Dask cluster that went away or has had no worker for too long. The finished runs are kept and
    ``--resume`` continues.
    """
