"""Whether the sandbox's systems run in an esper world, and the refusal of a second install there."""

from __future__ import annotations

import esper

from sandbox.systems.ending import ClockProcessor
from sandbox.systems.worlds import AlreadyInstalledError, in_world

__all__ = ["installed", "refuse_second_install"]


def installed(name: str) -> bool:
    """Whether the sandbox's systems run in esper world ``name`` (its clock is registered there)."""
    if name not in esper.list_worlds():
        return False  # asking must not create the world
    with in_world(name):
        return esper.get_processor(ClockProcessor) is not None


def refuse_second_install(name: str) -> None:
    """Raise ``AlreadyInstalledError`` when the systems run in esper world ``name`` already.

    Raises:
        AlreadyInstalledError: Naming the world.
    """
    if installed(name):
        raise AlreadyInstalledError(f"the sandbox's systems are installed in the esper world {name!r} already; "
                                    "one install per world (a second would run a second clock): use the context "
                                    "the first returned, or another world")
