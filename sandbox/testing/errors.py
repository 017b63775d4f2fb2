"""The one error of the testing helpers: a request they cannot carry out."""

from __future__ import annotations

from sandbox.systems.errors import SandboxError

__all__ = ["HelperError"]


class HelperError(SandboxError):
    """A testing helper was asked for something it cannot do.

    A die value no die of that size shows, a location no body has or no blow of the moment can reach, a field an
    event type does not have, scripted values the world never drew, or a world it cannot script.
    """
