"""Binding the sandbox to one esper world by name, whatever world is current when it is called.

esper keeps one current world, module-wide; a game switches it freely (a dungeon, a town, a menu). Everything the
sandbox holds for a world (its context, its roster) remembers the world's name and switches to it around a call
made while another world is current, so a read between calls never answers from the wrong world. When the world
is current already (every call inside a tick) nothing is switched: the fast path is one string comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import esper

from sandbox.systems.errors import SandboxError

__all__ = ["AlreadyInstalledError", "in_world"]


class AlreadyInstalledError(SandboxError):
    """The sandbox's systems are installed in that esper world already (a second install would run two clocks)."""


@contextmanager
def in_world(name: str) -> Iterator[None]:
    """Make esper world ``name`` current inside the block, then put the caller's back (nothing when it is current)."""
    previous = esper.current_world
    if previous == name:
        yield
        return
    esper.switch_world(name)
    try:
        yield
    finally:
        esper.switch_world(previous)

