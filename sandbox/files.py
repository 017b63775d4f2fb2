"""Writing a file whole or not at all: into a temporary file beside it, renamed over it at the end.

Every file the sandbox writes (saves, the lab's ``runs.csv`` and ``summary.json``, ``run --log``, screenshots) goes
through here, so a crash, Ctrl-C or SIGTERM mid-write never leaves half a file: the old one stays, or there is none.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_path(path: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path`` to write to, ``.<name>.<random><suffix>`` (a writer that picks the format
    by the file name wants ``suffix=".tmp.png"``); renamed over ``path`` when the block ends, removed if it raises.
    """
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_text(path: Path, newline: str | None = None) -> Iterator[IO[str]]:
    """Write a UTF-8 text file whole or not at all (flushed to disk before the rename)."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline=newline) as fh:
        yield fh
        fh.flush()
        os.fsync(fh.fileno())
