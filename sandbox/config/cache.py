"""The validated-content cache: ``sandbox validate`` of content that passed before, with the same code, answers at once.

Validating the shipped content means importing pydantic, building some hundred schema classes and every damage
model's tables: about a third of a second before any file is read. That work has one answer for the same files and
the same code, so a report that validated is kept in the user's cache folder, keyed by a fingerprint of everything
the answer depends on: the sandbox's version and the size and modification time of each of its modules, the working
folder and terminal width (the report names paths and may draw a table), the command's arguments, and the bytes of
every file and the name of every entry the loader looks at. Only a clean report is kept: a content with problems is
always loaded and checked in full, so every error message comes from the checks themselves. The standard library
only, so a cache hit never imports the loader.

``SANDBOX_CACHE`` names the cache folder, or turns the cache off with ``off``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from sandbox.config.layout import KIND_DIRS, MODELS_DIR, folder_files
from sandbox.config.limits import MAX_FILE_BYTES

__all__ = ["CACHE_ENV", "FORMAT", "KEEP", "cache_folder", "cached_report", "fingerprint", "keep_report"]

CACHE_ENV = "SANDBOX_CACHE"
"""A folder for the cache instead of the user's cache folder, or ``off``."""
FORMAT = "1"
"""Bumped when what a key covers changes."""
KEEP = 64
"""The most reports kept (the oldest are removed)."""
_PACKAGES = ("sandbox",)


def cache_folder() -> Path | None:
    """Where reports are kept (``None``: the cache is off)."""
    where = os.environ.get(CACHE_ENV)
    if where is not None:
        return None if where.strip().lower() in ("", "off", "0", "no") else Path(where)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "combat-sandbox" / "validated"


def _code(digest: hashlib._Hash) -> None:
    from sandbox import __version__

    digest.update(__version__.encode())
    for package in _PACKAGES:
        spec = importlib.util.find_spec(package)  # finds the package without importing it
        for location in (spec.submodule_search_locations or []) if spec else []:
            # in a clone, sandbox/systems is a link
            for folder, _, names in sorted(os.walk(location, followlinks=True)):
                for name in sorted(n for n in names if n.endswith(".py")):
                    st = os.stat(os.path.join(folder, name))
                    digest.update(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())


def _folder(digest: hashlib._Hash, root: Path, tree: bool) -> None:
    """Every file the loader reads in a content folder, and, for a tree, every entry its layout check looks at."""
    digest.update(f"folder {root.resolve()} {tree}\n".encode())
    if tree:
        for entry in sorted(root.iterdir()):
            digest.update(f"entry {entry.name} {entry.is_dir()}\n".encode())
            if entry.is_dir() and not entry.name.startswith(".") and entry.name not in KIND_DIRS \
                    and entry.name != MODELS_DIR:
                digest.update(" ".join(sorted(p.name for p in entry.glob("*.toml"))).encode())
    for path in folder_files(root):
        _file(digest, path)


def _file(digest: hashlib._Hash, path: Path) -> None:
    """Hash one file.

    ``OSError`` for anything the full check refuses anyway (so it runs and says why): not a regular file (``/dev/zero``
    would never end), or too big a file.
    """
    if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
        raise OSError(f"not a config file the cache covers: {path}")
    digest.update(f"file {path.resolve()}\n".encode())
    with path.open("rb") as fh:
        digest.update(hashlib.sha256(fh.read()).digest())


def fingerprint(args: Sequence[str], root: Path, trees: Iterable[Path], named: Iterable[Path]) -> str | None:
    """The key of a validation: ``None`` when something cannot be read (then the full check reports it).

    Args:
        args: What else the report depends on (the command's options).
        root: The base content folder.
        trees: The content trees.
        named: Files (or folders of files) named on the command line.
    """
    digest = hashlib.sha256(f"{FORMAT}\n{os.getcwd()}\n{os.get_terminal_size(1).columns if os.isatty(1) else 0}\n"
                            f"{args}\n".encode())
    try:
        _code(digest)
        _folder(digest, root, tree=False)
        for tree in trees:
            _folder(digest, tree, tree=True)
        for path in named:
            for file in sorted(path.rglob("*.toml")) if path.is_dir() else [path]:
                _file(digest, file)
    except OSError:
        return None
    return digest.hexdigest()


def cached_report(key: str | None) -> str | None:
    """The report kept for ``key``, if any."""
    folder = cache_folder()
    if key is None or folder is None:
        return None
    try:
        return (folder / f"{key}.txt").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def keep_report(key: str | None, report: str) -> None:
    """Keep a clean report for ``key`` (best effort: a cache that cannot be written is no cache)."""
    folder = cache_folder()
    if key is None or folder is None:
        return
    from sandbox.files import atomic_text

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with atomic_text(folder / f"{key}.txt") as fh:
            fh.write(report)
        kept = sorted(folder.glob("*.txt"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
