"""Where the lab's chunks run: any ``concurrent.futures.Executor``. A process pool by default, or this process."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from .runner import LabError, ignore_interrupts

T = TypeVar("T")


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


def make_executor(jobs: int) -> Executor:
    """An executor for ``jobs`` workers: this process for 1, else a process pool whose workers leave Ctrl-C to
    the parent."""
    if jobs <= 1:
        return InlineExecutor()
    return ProcessPoolExecutor(max_workers=jobs, initializer=ignore_interrupts)


@contextmanager
def dask_executor(address: str, timeout: float = 5.0) -> Iterator[tuple[Executor, int]]:
    """An executor on a Dask distributed cluster, and how many worker threads it has.

    The same chunks, the same records: the lab's results do not depend on what runs them.

    Raises:
        LabError: Dask is not installed (the ``cluster`` extra), or the scheduler cannot be reached.
    """
    try:
        import distributed
    except ImportError:
        raise LabError("--scheduler needs Dask: pip install -e '.[cluster]'") from None
    client_type: Any = distributed.Client  # distributed is untyped
    try:
        client = client_type(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise LabError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        threads = sum(client.nthreads().values()) or 1
        yield client.get_executor(pure=False), threads
    finally:
        client.close()
