"""Where the lab's chunks run: any ``concurrent.futures.Executor``. A process pool by default, or this process."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

from .runner import ignore_interrupts

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
