"""Waiting on what a program emits (a file it writes, a row it appends), never on a sleep."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

POLL = 0.05
"""How often the event is looked at: the wait is on the process itself, which wakes at once when it ends."""


def until(event: Callable[[], bool], proc: subprocess.Popen[bytes], bound: float) -> bool:
    """Until ``event()`` holds (True) or ``proc`` has ended without it (False); ``bound`` seconds only catch a
    program that hangs."""
    deadline = time.monotonic() + bound
    while not event():
        try:
            proc.wait(timeout=POLL)
        except subprocess.TimeoutExpired:
            assert time.monotonic() < deadline, "the program never emitted the event"
        else:
            return event()
    return True
