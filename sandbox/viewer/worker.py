"""Where the worlds are ticked.

At once in the caller's thread (tests, headless frames: the same frames give the same ticks), or in a thread of its own
(the window and the benchmark: a tick of a large battle takes longer than a frame, so it must not run inside one).

Only jobs touch the worlds; the drawing thread reads what they publish (each feed's ``Shown``), so the two never
meet inside a world. While the thread runs, the interpreter switches threads every millisecond instead of every
five, so a frame waits at most that long for its turn; a job that is about to hold the interpreter for a while
(writing a snapshot) first waits for the frame being drawn to finish (``quiet``).
"""

from __future__ import annotations

import sys
import threading
from collections import deque
from collections.abc import Callable

__all__ = ["QUIET_WAIT", "SWITCH_INTERVAL", "Job", "Worker"]

SWITCH_INTERVAL = 0.0002
"""Seconds between thread switches while the worker thread runs (Python's default is 0.005): every time a frame
hands the interpreter over (pygame releases it while it blits) it waits at most this long to get it back."""
QUIET_WAIT = 0.05
"""The longest a job waits for the frame being drawn to finish."""

Job = Callable[[], None]


class Worker:
    """Runs jobs in order, inline or in one thread of its own.

    Args:
        threaded: Run jobs in a thread of their own.
    """

    def __init__(self, threaded: bool = False) -> None:
        self.threaded = threaded
        self._jobs: deque[tuple[str | None, Job]] = deque()
        self._lock = threading.Condition()
        self._busy = False
        self._running: str | None = None
        self._closed = False
        self._error: BaseException | None = None
        self._drawing = threading.Event()
        self._drawing.set()  # set: no frame is being drawn
        self._thread: threading.Thread | None = None
        self._switch = sys.getswitchinterval()
        if threaded:
            sys.setswitchinterval(SWITCH_INTERVAL)
            self._thread = threading.Thread(target=self._run, name="sandbox-viewer-worker", daemon=True)
            self._thread.start()

    def submit(self, job: Job, key: str | None = None, replace: bool = False) -> None:
        """Run ``job`` (inline: now).

        With ``replace``, it replaces the jobs of the same ``key`` still waiting (a scrub to a newer tick replaces the
        older one).
        """
        if not self.threaded:
            job()
            return
        with self._lock:
            if replace:
                self._jobs = deque((k, j) for k, j in self._jobs if k != key)
            self._jobs.append((key, job))
            self._lock.notify_all()

    def pending(self, key: str | None = None) -> int:
        """Jobs waiting or running (of ``key`` only, when given)."""
        with self._lock:
            waiting = sum(1 for k, _ in self._jobs if key is None or k == key)
            return waiting + (1 if self._busy and (key is None or self._running == key) else 0)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every job submitted has run; ``False`` if ``timeout`` seconds passed first."""
        if not self.threaded:
            return True
        with self._lock:
            done = self._lock.wait_for(lambda: not self._jobs and not self._busy, timeout)
        self.check()
        return done

    def check(self) -> None:
        """Raise, in the caller's thread, the error a job raised."""
        error, self._error = self._error, None
        if error is not None:
            raise error

    def frame_started(self) -> None:
        """The drawing thread starts a frame."""
        self._drawing.clear()

    def frame_done(self) -> None:
        """The drawing thread finished its frame."""
        self._drawing.set()

    def quiet(self) -> None:
        """Inside a job: wait (briefly) until no frame is being drawn."""
        if self.threaded:
            self._drawing.wait(QUIET_WAIT)

    def close(self) -> None:
        """Stop the thread (after the job it is running) and restore the switch interval."""
        if self._thread is None:
            return
        with self._lock:
            self._closed = True
            self._jobs.clear()
            self._lock.notify_all()
        self._thread.join()
        self._thread = None
        sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._jobs or self._closed)
                if self._closed:
                    return
                self._running, job = self._jobs.popleft()
                self._busy = True
            try:
                job()
            except BaseException as exc:  # handed to the drawing thread (check), which raises it
                self._error = exc
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()
