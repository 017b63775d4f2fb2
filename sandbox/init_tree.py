"""``sandbox init DIR``: a starter content tree that validates and runs under every model as it is written.

The starter is the package's ``starter/`` folder (a content tree itself): a manifest, one body, a weapon, an armour
piece made for the body, a creature that carries and wears them, a scenario that sets them against a shipped
creature, and a README saying what each folder is for. ``init`` copies it, names the manifest after the folder,
adds an empty ``models/`` for the designer's overrides and the JSON Schemas every file's ``#:schema`` line points at.
The folder is written whole or not at all (``sandbox.files.atomic_folder``).
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from sandbox.config.layout import MANIFEST, MODELS_DIR, SCHEMAS_DIR
from sandbox.config.limits import MAX_NAME
from sandbox.setup_error import SetupError

__all__ = ["STARTER_NAME", "InitError", "content_name", "starter_files", "write_starter"]

STARTER_NAME = 'name = "starter"'
"""The manifest line ``init`` rewrites with the tree's own name."""


class InitError(SetupError):
    """The folder cannot take a starter tree (it holds files already, or it is a file)."""


def _walk(folder: Traversable, prefix: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir() and not entry.name.startswith("__"):
            found.update(_walk(entry, f"{prefix}{entry.name}/"))
        elif entry.is_file() and entry.name.endswith((".toml", ".md")):
            found[prefix + entry.name] = entry.read_text(encoding="utf-8")
    return found


def starter_files() -> dict[str, str]:
    """The starter tree's files: path in the tree -> text."""
    return _walk(resources.files("sandbox") / "starter")


def content_name(folder: Path) -> str:
    """A manifest name made from a folder's name (``My Bestiary`` -> ``my-bestiary``)."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", folder.absolute().name.lower()).strip("-_")
    slug = re.sub(r"^[^a-z]+", "", slug)
    return slug or "my-content"


def write_starter(folder: Path, name: str | None = None) -> list[Path]:
    """Write the starter content tree into ``folder`` (made if need be, with its parents).

    Args:
        folder: A folder that does not exist yet, or an empty one.
        name: The content's name in the manifest (default: from the folder's name).

    Returns:
        The files written, in their final place.

    Raises:
        InitError: ``folder`` is a file or holds something already.
        OSError: It cannot be written.
    """
    from sandbox.files import atomic_folder
    from sandbox.schemas import write_schemas

    if folder.exists() and not folder.is_dir():
        raise InitError(f"cannot write a content tree to {folder}: it is a file")
    if folder.is_dir() and any(folder.iterdir()):
        raise InitError(f"cannot write a content tree to {folder}: the folder is not empty (init writes a new tree; "
                        "give a new folder)")
    name = name or content_name(folder)
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", name) or len(name) > MAX_NAME:
        raise InitError(f"cannot name the content {name!r}: a name is lower-case letters, digits, - and _, "
                        f"starting with a letter, at most {MAX_NAME} characters")
    folder.absolute().parent.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with atomic_folder(folder.absolute()) as tmp:
        for rel, text in starter_files().items():
            if rel == MANIFEST:
                text = text.replace(STARTER_NAME, f'name = "{name}"', 1)
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(folder / rel)
        (tmp / MODELS_DIR).mkdir(exist_ok=True)
        written += [folder / SCHEMAS_DIR / p.name for p in write_schemas(tmp / SCHEMAS_DIR)]
    return written
