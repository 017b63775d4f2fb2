"""The real window, under Xvfb, driven by synthetic input (xdotool): the options given, select, hover a location,
change the speed, pause, scrub the timeline, zoom, resize, quit.

The test never sleeps: it waits for Xvfb to write its display number (``-displayfd``), then for each line the viewer
prints with ``--echo`` (ready, where it drew what, then one line for each thing it did). A line that never comes
fails the test after a generous wait (a hung viewer must not hang the suite); how fast the machine is never
decides the verdict. Skipped where Xvfb or xdotool is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                                reason="the real-window test needs Xvfb and xdotool (apt-get install xvfb xdotool)")

PATIENCE = 120.0
"""Seconds to wait for a line before calling the viewer hung (a safety net, not a speed limit)."""


@pytest.fixture
def display() -> Iterator[str]:
    """A fresh Xvfb server; its display name once it says it is ready."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as fh:
            number = fh.readline().strip()  # Xvfb writes it once it accepts connections
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait()


@dataclass
class Session:
    """A viewer process and the lines it printed."""

    process: subprocess.Popen[str]
    env: dict[str, str]
    lines: list[str] = field(default_factory=list)
    incoming: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def until(self, wanted: Callable[[str], bool], what: str) -> str:
        """Read lines until one is ``wanted``; returns it."""
        while True:
            try:
                line = self.incoming.get(timeout=PATIENCE)
            except queue.Empty:
                raise AssertionError(f"the viewer never said {what}; last lines: {self.lines[-8:]}") from None
            if line is None:
                raise AssertionError(f"the viewer ended before saying {what}; last lines: {self.lines[-8:]}")
            self.lines.append(line)
            if wanted(line):
                return line

    def said(self, prefix: str) -> list[str]:
        """The last line said that starts with ``prefix``, split into words."""
        return next(line for line in reversed(self.lines) if line.startswith(prefix)).split()

    def xdotool(self, *args: str) -> str:
        """Run xdotool on the viewer's display."""
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, check=True)
        return done.stdout


@pytest.fixture
def viewer(display: str) -> Iterator[Session]:
    """``sandbox view duel --echo`` in a window on the Xvfb display."""
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "sandbox", "view", "duel", "--seed", "2", "--speed", "4",
                                "--select", "Bertram", "--size", "1000x700", "--echo"],
                               stdout=subprocess.PIPE, text=True, env=env)
    session = Session(process, env)

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            session.incoming.put(line.rstrip("\n"))
        session.incoming.put(None)

    threading.Thread(target=pump, daemon=True).start()
    try:
        yield session
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def test_the_window_takes_synthetic_input(viewer: Session) -> None:
    session = viewer
    # the options hold in the window as headless: its size, its speed, the creature selected
    session.until(lambda line: line == "ready 1000x700 speed 4 selected Bertram", "ready")
    session.until(lambda line: line == "drawn", "where it drew")
    window = session.xdotool("search", "--sync", "--pid", str(session.process.pid)).split()[-1]
    at = {" ".join(line.split()[1:-2]): (int(line.split()[-2]), int(line.split()[-1]))
          for line in session.lines if line.startswith("at ")}
    assert set(at) == {"Aldric", "Bertram"}

    # select Aldric by clicking him; his body panel lists where it drew every location
    x, y = at["Aldric"]
    session.xdotool("mousemove", "--window", window, str(x), str(y), "click", "1")
    session.until(lambda line: line == "select Aldric", "select Aldric")
    session.until(lambda line: line == "drawn", "where it drew Aldric's body")
    boxes = {" ".join(line.split()[1:-4]): [int(v) for v in line.split()[-4:]]
             for line in session.lines if line.startswith("location ")}
    assert len(boxes) == 32  # every location of the human body

    # hover his Skull
    bx, by, bw, bh = boxes["Skull"]
    session.xdotool("mousemove", "--window", window, str(bx + bw // 2), str(by + bh // 2))
    session.until(lambda line: line == "hover Aldric Skull", "hover Aldric Skull")

    # + steps the speed up from the --speed given
    session.xdotool("key", "--window", window, "plus")
    session.until(lambda line: line == "speed 8", "speed 8")
    session.xdotool("key", "--window", window, "minus")
    session.until(lambda line: line == "speed 4", "speed 4")

    # let it play to tick 3 (perhaps already said while the keys went in), pause with Space, then click the
    # timeline at tick 1
    if "tick 3" not in session.lines:
        session.until(lambda line: line == "tick 3", "tick 3")
    session.xdotool("key", "--window", window, "space")
    session.until(lambda line: line == "paused", "paused")
    first, last, left, right = (int(v) for v in session.said("span")[1:])
    _, _, _, top, _, height = session.said("layout timeline")
    tx = left + (1 - first) * (right - left) // (last - first)
    session.xdotool("mousemove", "--window", window, str(tx), str(int(top) + int(height) // 2), "click", "1")
    session.until(lambda line: line == "seek 1", "seek 1")
    session.until(lambda line: line == "tick 1", "tick 1")

    # zoom in with the wheel over the field
    fx, fy, fw, fh = (int(v) for v in session.said("layout field")[2:])
    before = float(session.said("camera")[3])
    session.xdotool("mousemove", "--window", window, str(fx + fw // 2), str(fy + fh // 2), "click", "4")
    zoomed = float(session.until(lambda line: line.startswith("zoom "), "zoom").split()[1])
    assert zoomed == pytest.approx(before * 1.2, rel=1e-3)

    # resize the window: the layout follows
    session.xdotool("windowsize", window, "900", "640")
    session.until(lambda line: line == "resize 900x640", "resize 900x640")
    session.until(lambda line: line == "drawn", "the new layout")
    assert session.said("layout timeline")[4] == "900"

    # Esc quits, and the process ends cleanly
    session.xdotool("key", "--window", window, "Escape")
    session.until(lambda line: line == "quit", "quit")
    assert session.process.wait() == 0
