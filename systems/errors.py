"""The one family of errors a bad request raises, at every layer.

``SandboxError`` lives here, below the application, so the systems (the own-world route of a game that installs
them) refuse a bad request with the same error ``Sandbox`` raises; ``sandbox.world`` re-exports it.
"""

from __future__ import annotations

__all__ = ["SandboxError"]


class SandboxError(ValueError):
    """A request the world cannot honour.

    An unknown creature, name, location, mode, aspect, aim or model; the message names the bad value and the valid ones.
    The world is unchanged. Every more particular refusal of the public surface is a subclass.
    """
