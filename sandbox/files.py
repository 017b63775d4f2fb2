"""Writing an output: a file whole or not at all, a stream as a stream, and never replacing what stands at the path.

Every file the sandbox writes (saves, the lab's ``runs.csv`` and ``summary.json``, ``run --log``, screenshots, JSON
Schemas, the validated-content cache) and every folder (``sandbox init``) goes through here. What happens depends on
what the path names:

- **A regular file, or a path where nothing is yet**: the output goes into a temporary file beside it and is renamed
  over it at the end, so a crash, Ctrl-C or SIGTERM mid-write never leaves half a file: the old one stays, or there
  is none. The new file gets mode 0666 less the user's umask, as any new file does (0644 under the usual 022:
  ``tempfile.mkstemp`` would make it 0600, readable by the user alone, and the rename keeps that mode).
- **A symbolic link** (to a file, or dangling): written through to its target as above; the link stays a link.
- **A device, a FIFO, ``-`` (standard output), ``/dev/stdout``, ``/dev/stderr`` or ``/dev/fd/N``**: written as a
  stream, as the shell's ``>`` does, and never replaced (``run --log -`` and ``--log /dev/stdout`` print the log;
  ``--log /dev/null`` discards it). A stream cannot be written whole or not at all: what was written before an
  interruption has gone.
- **A folder** (or a socket): refused (``IsADirectoryError``, ``OSError``) before anything is written.

``check_writable`` asks the same question before a long piece of work, so a command fails at once, not after the
work.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

__all__ = ["STDOUT", "Target", "atomic_folder", "atomic_path", "atomic_text", "check_writable", "target"]

_ATTEMPTS = 100
_MAX_LINKS = 40
"""Symbolic links followed before giving up (the kernel's own limit)."""
STDOUT = "-"
"""The path that names standard output."""
_FD_PATH = re.compile(r"^/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)$")
_STANDARD = {"/dev/stdout": 1, "/dev/stderr": 2}


@dataclass(frozen=True, slots=True)
class Target:
    """What an output path names, once its symbolic links are followed.

    Attributes:
        path: The file to write: the link's target for a link (``None`` for a descriptor).
        kind: ``file`` (a regular file or a new one: written whole, through a rename), ``stream`` (a device or a
            FIFO, opened and written in place) or ``fd`` (an open file descriptor of this process: standard output
            and error, ``/dev/fd/N``).
        fd: The descriptor, for ``fd``.
    """

    path: Path | None
    kind: str
    fd: int = -1

    @property
    def streamed(self) -> bool:
        """The output is written as it comes (a stream), not whole through a rename."""
        return self.kind != "file"


def _descriptor(text: str) -> int | None:
    """The file descriptor a path names, if it names one of this process's own (``/dev/stdout``, ``/dev/fd/1``)."""
    if text in _STANDARD:
        return _STANDARD[text]
    match = _FD_PATH.match(text)
    if match is None or (match.group(1) is not None and int(match.group(1)) != os.getpid()):
        return None
    return int(match.group(2))


def target(path: str | os.PathLike[str]) -> Target:
    """What writing to ``path`` means (see the module's docstring).

    Raises:
        IsADirectoryError: The path names a folder.
        OSError: The path names a socket, or a chain of more than 40 symbolic links.
    """
    text = os.fspath(path)
    if text == STDOUT:
        return Target(None, "fd", 1)
    current = os.path.abspath(text)
    for _ in range(_MAX_LINKS):
        fd = _descriptor(current)
        if fd is not None:
            return Target(None, "fd", fd)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return Target(Path(current), "file")  # a new file (a dangling link's target is created)
        if stat.S_ISLNK(info.st_mode):
            current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
            continue
        if stat.S_ISREG(info.st_mode):
            return Target(Path(current), "file")
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "it is a folder", text)
        if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            return Target(Path(current), "stream")
        raise OSError(errno.ENXIO, "not a file, a device or a pipe (a socket?)", text)
    raise OSError(errno.ELOOP, "too many levels of symbolic links", text)


def check_writable(path: str | os.PathLike[str]) -> Target:
    """Fail now, not after the work, when ``path`` cannot be written; what it names.

    Raises:
        OSError: A folder, a missing or read-only folder, a stream this user may not write, a closed descriptor.
    """
    where = target(path)
    if where.kind == "fd":
        os.fstat(where.fd)  # EBADF: the descriptor is not open
        return where
    assert where.path is not None
    if where.kind == "stream":
        if not os.access(where.path, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied", str(path))
        return where
    folder = where.path.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(folder))
    with tempfile.TemporaryFile(dir=folder):
        pass
    return where


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
def _binary_stream(where: Target) -> Iterator[IO[bytes]]:
    """The byte stream an output of kind ``stream`` or ``fd`` is written to.

    It is left open when it is this process's standard output or error.
    """
    if where.kind == "fd" and where.fd in (1, 2):
        text = sys.stdout if where.fd == 1 else sys.stderr
        text.flush()  # what was printed before comes first
        buffer = getattr(text, "buffer", None)
        if buffer is not None:
            yield buffer
            buffer.flush()
            return
    if where.kind == "fd":
        fh = os.fdopen(os.dup(where.fd), "wb")
    else:
        assert where.path is not None
        fh = open(os.open(where.path, os.O_WRONLY | os.O_NOCTTY), "wb")  # noqa: SIM115 (closed below)
    with fh:
        yield fh


@contextmanager
def _text_stream(where: Target, newline: str | None) -> Iterator[IO[str]]:
    if where.kind == "fd" and where.fd in (1, 2):
        text = sys.stdout if where.fd == 1 else sys.stderr
        text.flush()
        yield text  # the console's own text stream: what the command prints and the output interleave in order
        text.flush()
        return
    with _binary_stream(where) as raw, open(raw.fileno(), "w", encoding="utf-8", newline=newline,
                                            closefd=False) as fh:
        yield fh


@contextmanager
def atomic_path(path: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path to write to, renamed over the file ``path`` names when the block ends.

    It is ``.<name>.<random><suffix>`` beside that file (a writer that picks the format by the file name wants
    ``suffix=".tmp.png"``), and removed if the block raises. For a stream, the finished file is copied to the stream.
    """
    where = target(path)
    if where.streamed:
        scratch = Path(tempfile.mkdtemp(prefix=".sandbox-"))
        try:
            tmp = scratch / f"output{suffix}"
            yield tmp
            with tmp.open("rb") as src, _binary_stream(where) as dst:
                shutil.copyfileobj(src, dst)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    assert where.path is not None
    tmp = _new_file(where.path, suffix)
    try:
        yield tmp
        os.replace(tmp, where.path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_text(path: Path, newline: str | None = None) -> Iterator[IO[str]]:
    """Write UTF-8 text to ``path``.

    A file whole or not at all (flushed to disk before the rename), a stream as it comes.
    """
    where = target(path)
    if where.streamed:
        with _text_stream(where, newline) as fh:
            yield fh
        return
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline=newline) as fh:
        yield fh
        fh.flush()
        os.fsync(fh.fileno())


@contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A temporary folder beside ``path`` to fill (mode 0777 less the umask).

    Renamed to ``path`` when the block ends, removed with everything in it if it raises. ``path`` must not exist, or be
    an empty folder (a symbolic link to one is written through, and stays).

    Raises:
        NotADirectoryError: ``path`` names a file, a device or a pipe.
    """
    path = Path(os.path.realpath(path))
    if path.exists() and not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))
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
