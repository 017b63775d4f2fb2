"""Stopping cleanly: SIGTERM handled as Ctrl-C, and interrupts held while a file is being written whole.

``sandbox lab`` and ``sandbox run`` stop the same way whether a designer presses Ctrl-C or a scheduler sends
``kill`` (SIGTERM): the work finished so far is kept, every file written is whole or absent, exit code 130.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["INTERRUPTS", "REDELIVERY_DELAY", "interrupts_deferred", "sigterm_as_interrupt"]

INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a lab the way Ctrl-C does (``kill`` sends SIGTERM)."""


def _raise_interrupt(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


REDELIVERY_DELAY = 0.05
"""Seconds after a finalizer dropped an interrupt before it is raised again (time to leave the finalizer)."""


def _interrupt_main_soon() -> threading.Timer:
    """Start the timer that raises the interrupt again in the main thread (returned: a test joins it)."""
    timer = threading.Timer(REDELIVERY_DELAY, _thread.interrupt_main)
    timer.daemon = True
    timer.start()
    return timer


def _redeliver_dropped_interrupt(previous: Any) -> Any:
    """An unraisable hook that hands a dropped Ctrl-C or SIGTERM back to the main code.

    A signal's handler runs wherever the interpreter happens to be, a finalizer (``__del__``, a generator closed by
    the garbage collector) included. Python cannot raise out of a finalizer: it prints the KeyboardInterrupt as
    "Exception ignored" with a traceback and drops it, so the command would go on and the user would see a trace.
    Instead the interrupt is raised again, as a fresh Ctrl-C, a moment later: by then the interpreter is back in
    ordinary code (should it be in another finalizer, the same happens again).
    """

    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            try:
                _interrupt_main_soon()
            except KeyboardInterrupt:  # the redelivered one landed here, in the hook: once more
                _interrupt_main_soon()
            return
        previous(unraisable)

    return hook


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the command as Ctrl-C does (work kept, files whole).

    A Ctrl-C or SIGTERM that lands inside a finalizer is not lost (nor printed): it stops the command at the next
    line of ordinary code.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _redeliver_dropped_interrupt(previous_hook)
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
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

