"""The entry point: an interrupt at any moment from its first instruction ends ``sandbox`` with exit code 130 and
no traceback, including while the CLI is still being imported (issue 14, point 3). Each signal here is sent by
the process to itself at a known point (no sleeps racing a child)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

DURING_IMPORT = """
import builtins, os, signal, sys
import sandbox.entry as entry
real = builtins.__import__
def interrupting(name, *args, **kwargs):
    if name == "sandbox.cli":
        os.kill(os.getpid(), signal.{sig})  # arrives while the CLI is being imported
    return real(name, *args, **kwargs)
builtins.__import__ = interrupting
sys.argv = ["sandbox", "run", "duel"]
entry.main()
"""

DURING_THE_COMMAND = """
import os, signal, sys
import sandbox.entry as entry
import sandbox.world
real = sandbox.world.Sandbox.run
def interrupted_run(self, *args, **kwargs):
    os.kill(os.getpid(), signal.{sig})  # arrives while the fight runs
    return real(self, *args, **kwargs)
sandbox.world.Sandbox.run = interrupted_run
sys.argv = ["sandbox", "run", "duel"]
entry.main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("when", [DURING_IMPORT, DURING_THE_COMMAND])
def test_an_interrupt_ends_the_command_with_130_and_no_traceback(sig: str, when: str) -> None:
    proc = subprocess.run([sys.executable, "-c", when.format(sig=sig)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "interrupted" in proc.stderr
    assert "wins after" not in proc.stdout  # it stopped: no account of a finished fight


def test_the_console_script_and_module_use_the_entry_point() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'sandbox = "sandbox.entry:main"' in text
    assert "from sandbox.entry import main" in (ROOT / "sandbox" / "__main__.py").read_text(encoding="utf-8")
    assert signal.SIGTERM in __import__("sandbox.entry").entry.INTERRUPTS
