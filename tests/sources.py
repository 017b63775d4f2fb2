"""The package's own source files, each once: the real folders ``components/``, ``systems/`` and ``sandbox/``
(``sandbox/components`` and ``sandbox/systems`` are links to the first two, so walking ``sandbox`` alone would
read them twice)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("components", "systems", "sandbox")
"""The real folders of the package ``sandbox``: ``components/`` is ``sandbox.components``, ``systems/``
``sandbox.systems``."""


def source_files(pattern: str = "*.py", folders: tuple[str, ...] = FOLDERS) -> Iterator[Path]:
    """Every file matching ``pattern`` below the package's real folders, each once, in a stable order."""
    for folder in folders:
        top = (ROOT / folder).resolve()
        for path in sorted((ROOT / folder).rglob(pattern)):
            if path.resolve().is_relative_to(top):
                yield path


def module_name(path: Path) -> str:
    """The import name of a source file (``systems/blow.py`` -> ``sandbox.systems.models.anatomy.blow``; a package's
    ``__init__.py`` names the package)."""
    parts = list(path.resolve().relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts if parts[0] == "sandbox" else ["sandbox", *parts])
