"""Stopping cleanly: SIGTERM handled as Ctrl-C, and interrupts held while a file is being written whole.

``sandbox lab`` and ``sandbox run`` stop the same way whether a designer presses Ctrl-C or a scheduler sends
``kill`` (SIGTERM): the work finished so far is kept, every file written is whole or absent, exit code 130.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["INTERRUPTS", "interrupts_deferred", "sigterm_as_interrupt"]

INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a lab the way Ctrl-C does (``kill`` sends SIGTERM)."""


def _raise_interrupt(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the command as Ctrl-C does (work kept, files whole)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM until the block is done (so a chunk's rows, or a file, are written whole)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, _frame: caught.append(signum)) for sig in INTERRUPTS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise KeyboardInterrupt

