"""Where the lab's chunks run: any ``concurrent.futures.Executor``.

A process pool by default, this process for one job, or a Dask cluster.

Pool workers leave Ctrl-C to the parent and watch it: a worker whose parent has died (any signal, SIGKILL included)
exits within ``ORPHAN_POLL`` seconds instead of living on. A Dask lab watches the cluster: with no live worker for
``worker_timeout`` seconds (default ``WORKER_TIMEOUT``) it stops with a clear message, its runs kept.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .errors import LabError, LabStopped

__all__ = [
    "JOBS_PER_CORE",
    "ORPHAN_POLL",
    "SCHEMES",
    "WORKER_TIMEOUT",
    "Cluster",
    "InlineExecutor",
    "check_jobs",
    "check_scheduler",
    "dask_executor",
    "make_executor",
    "max_jobs",
    "worker_start",
]

T = TypeVar("T")
ORPHAN_POLL = 0.5
"""Seconds between a pool worker's checks that its parent is alive."""
JOBS_PER_CORE = 4
"""``--jobs`` is at most this many worker processes per core."""
WORKER_TIMEOUT = 60.0
"""Seconds a Dask lab waits with no live worker before it stops (``--worker-timeout``)."""
SCHEMES = ("tcp", "tls", "ws", "wss", "inproc", "ucx")
"""The address schemes of a Dask scheduler."""


class InlineExecutor(Executor):
    """Runs each submitted call at once in the calling process (``--jobs 1``: no pickling, easy to profile)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` now; the returned future is already done."""
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            future.set_exception(exc)
        return future


def max_jobs() -> int:
    """The most worker processes ``--jobs`` takes on this machine (``JOBS_PER_CORE`` per core)."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def check_jobs(jobs: int) -> None:
    """Raises ``LabError`` for more workers than ``max_jobs``."""
    if jobs > max_jobs():
        raise LabError(f"--jobs {jobs}: at most {max_jobs()} ({JOBS_PER_CORE} per core on this machine's "
                       f"{os.cpu_count() or 1})")


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(ORPHAN_POLL)
        if os.getppid() != parent:
            os._exit(1)  # the parent is gone: nobody wants this worker's results


def worker_start(parent: int) -> None:
    """Pool worker initializer.

    Ctrl-C is the parent's to handle (it cancels the rest and keeps what finished), SIGTERM ends the worker at once, and
    a thread ends it when the parent dies.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="parent-watch").start()


def make_executor(jobs: int) -> Executor:
    """An executor for ``jobs`` workers.

    This process for 1, else a process pool of workers that leave Ctrl-C to the parent and die with it.
    """
    if jobs <= 1:
        return InlineExecutor()
    return ProcessPoolExecutor(max_workers=jobs, initializer=worker_start, initargs=(os.getpid(),))


def check_scheduler(address: str) -> None:
    """Refuse at once an address that cannot name a Dask scheduler (``tcp://HOST:PORT``, ``tls://...``).

    Raises:
        LabError: Empty, no scheme or an unknown one, no host, or a bad port.
    """
    shown = repr(address[:80])
    try:
        parts = urlsplit(address.strip())
        port = parts.port
    except ValueError as exc:
        raise LabError(f"--scheduler {shown}: not a scheduler address ({exc}); expected tcp://HOST:PORT") from None
    if not address.strip() or parts.scheme not in SCHEMES or (parts.scheme != "inproc" and not parts.hostname):
        raise LabError(f"--scheduler {shown}: not a scheduler address; expected tcp://HOST:PORT (or "
                       f"{', '.join(s + '://' for s in SCHEMES[1:])})")
    if parts.scheme in ("tcp", "tls") and port is None:
        raise LabError(f"--scheduler {shown}: no port; expected {parts.scheme}://HOST:PORT")


@dataclass(slots=True)
class Cluster:
    """A Dask cluster the lab runs on.

    Attributes:
        executor: Its executor.
        threads: Its worker threads when the lab started.
        health: Raises ``LabStopped`` when it has had no live worker for the timeout, or went away.
    """

    executor: Executor
    threads: int
    health: Callable[[], None]


@contextmanager
def dask_executor(address: str, timeout: float = 5.0, worker_timeout: float = WORKER_TIMEOUT) -> Iterator[Cluster]:
    """An executor on a Dask distributed cluster (the same chunks, the same records as a local pool).

    Raises:
        LabError: Dask is not installed (the ``cluster`` extra), the address is not one, or the scheduler cannot
            be reached.
    """
    check_scheduler(address)
    import logging

    try:
        import distributed
    except ImportError:
        raise LabError("--scheduler needs Dask: pip install 'combat-sandbox[cluster]'") from None
    # The client logs a lost scheduler with tracebacks of its own (importing distributed sets its loggers up, and
    # gives some children, such as tornado.application, levels of their own); the lab says what happened in one line.
    quiet = ("distributed", "tornado", "asyncio")
    named = [name for name in logging.root.manager.loggerDict if name.split(".")[0] in quiet]
    for name in (*quiet, *named):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    client_type: Any = distributed.Client  # distributed is untyped
    try:
        client = client_type(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise LabError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    alone_since: list[float | None] = [None]

    def health() -> None:
        try:
            workers = len(client.scheduler_info(n_workers=-1).get("workers", {})) if client.status == "running" \
                else 0
        except Exception:  # the scheduler went away: the client's calls fail in many ways
            workers = 0
            if client.status in ("closed", "closing", "failed"):
                raise LabStopped(f"the Dask scheduler at {address} went away") from None
        if workers:
            alone_since[0] = None
            return
        now = time.monotonic()
        if alone_since[0] is None:
            alone_since[0] = now
        elif now - alone_since[0] >= worker_timeout:
            raise LabStopped(f"the Dask cluster at {address} has had no live worker for {worker_timeout:g} s")

    try:
        threads = sum(client.nthreads().values()) or 1
        yield Cluster(client.get_executor(pure=False), threads, health)
    finally:
        with suppress(Exception):  # a scheduler already gone: nothing left to close
            client.close(timeout=2)
