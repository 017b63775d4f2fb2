"""Writing a file (or a folder) whole or not at all: into a temporary one beside it, renamed over it at the end.

Every file the sandbox writes (saves, the lab's ``runs.csv`` and ``summary.json``, ``run --log``, screenshots, JSON
Schemas, the validated-content cache) and every folder (``sandbox init``) goes through here, so a crash, Ctrl-C or
SIGTERM mid-write never leaves half a file: the old one stays, or there is none.

The temporary file is created with mode 0666 and the folder with 0777, both less the user's umask, as any new file
is: what the sandbox writes can be shared as the user's other files are (0644 and 0755 under the usual umask 022).
``tempfile.mkstemp`` would make them 0600, readable by the user alone, and the rename keeps that mode.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

_ATTEMPTS = 100


def _fresh_name(path: Path, suffix: str) -> Path:
    return path.parent / f".{path.name}.{secrets.token_hex(4)}{suffix}"


def _new_file(path: Path, suffix: str) -> Path:
    """An empty temporary file beside ``path`` (mode 0666 less the umask), created exclusively."""
    for _ in range(_ATTEMPTS):
        tmp = _fresh_name(path, suffix)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise FileExistsError(f"no free temporary name beside {path}")


@contextmanager
def atomic_path(path: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path`` to write to, ``.<name>.<random><suffix>`` (a writer that picks the format
    by the file name wants ``suffix=".tmp.png"``); renamed over ``path`` when the block ends, removed if it raises.
    """
    tmp = _new_file(path, suffix)
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


@contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A temporary folder beside ``path`` to fill (mode 0777 less the umask); renamed to ``path`` when the block
    ends, removed with everything in it if it raises. ``path`` must not exist, or be an empty folder.
    """
    for _ in range(_ATTEMPTS):
        tmp = _fresh_name(path, ".tmp")
        try:
            os.mkdir(tmp, 0o777)
        except FileExistsError:
            continue
        break
    else:
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
