"""The ``sandbox`` command's entry point.

From its first instruction to its last, Ctrl-C and SIGTERM end it with exit code 130 and a one-word message, never a
traceback.

The CLI's imports take a fraction of a second, and an interrupt arriving while Python builds a module (a
dataclass is compiled with ``exec``) escapes every handler; so the signals are held while the CLI is imported,
and a held one ends the command before it starts. From then on SIGTERM stops the command as Ctrl-C does (the
commands that write files hold it while a file is being written whole), and once the command is done a late
signal changes nothing (it is ignored until the process ends): the work is finished.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

__all__ = ["INTERRUPTED", "INTERRUPTS", "main"]

INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
INTERRUPTED = 130
"""The exit code of an interrupted command (128 + SIGINT), whichever of the two signals stopped it."""


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Import the CLI with the signals held, then run it with SIGTERM as Ctrl-C."""
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    for sig in INTERRUPTS:
        signal.signal(sig, hold)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's banner is not the sandbox's to print
    from sandbox.cli import main as cli_main

    if held:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        cli_main()
    finally:
        # The command is over: a signal now has nothing left to stop. Ignored, not held by a Python handler, since
        # the interpreter resets its handlers to the default as it shuts down (a late SIGTERM would end it -15).
        for sig in INTERRUPTS:
            signal.signal(sig, signal.SIG_IGN)
