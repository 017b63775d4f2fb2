"""The layout of a content folder: which file holds which kind of config, and every file a folder contributes.

The standard library only: the CLI's start-up path (finding a content tree, the validated-content cache) reads it
without importing pydantic.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["FILE_KIND_NAMES", "FOLDER_WORDS", "KIND_DIRS", "MANIFEST", "MODELS_DIR", "SCHEMAS_DIR", "SINGLE_FILES",
           "definition_files", "folder_files", "is_content_tree", "kind_of", "kind_of_folder", "model_files"]

KIND_DIRS: dict[str, str] = {"bodies": "body", "weapons": "weapon", "armor": "armor", "items": "item",
                             "creatures": "creature", "scenarios": "scenario"}
"""The folders of definitions (one id a file, the file's stem), and the kind of file each holds."""
SINGLE_FILES: dict[str, str] = {"skills": "skills.toml", "anatomy_rules": "models/anatomy.toml",
                                "sandbox_rules": "sandbox.toml"}
"""The rule files with exactly one of their kind, and where each lives in a content folder."""
MANIFEST = "content.toml"
"""The manifest that marks a folder as a content tree."""
MODELS_DIR = "models"
"""Where each damage model's tables live (``models/<model>.toml``; ``models/anatomy.toml`` is a rule file)."""
SCHEMAS_DIR = "schemas"
"""Where a content folder keeps the JSON Schemas its ``#:schema`` lines point at."""
FILE_KIND_NAMES: frozenset[str] = frozenset(
    {"body", "weapon", "armor", "item", "creature", "skills", "anatomy_rules", "sandbox_rules", "scenario", "content"})
"""Every config file kind (``sandbox.config.schema.FILE_KINDS`` has a model for each: a test keeps them equal)."""
FOLDER_WORDS: dict[str, str] = {"bodies": "body", "body": "body", "weapons": "weapon", "weapon": "weapon",
                                 "armor": "armor", "armour": "armor", "armors": "armor", "armours": "armor",
                                 "items": "item", "item": "item",
                                 "creatures": "creature", "creature": "creature", "scenarios": "scenario",
                                 "scenario": "scenario"}
"""The words of a folder's name that tell the kind of its files (``my_bodies/``, ``troll-weapons/``, ``Armour/``)."""
_WORD = re.compile(r"[a-z]+")
_SCHEMA_LINE = re.compile(r"^#:schema\s+\S*?([a-z_]+)\.schema\.json\s*$")


def kind_of(path: Path) -> str | None:
    """The config kind of a file.

    From its name, its folder (``bodies/`` ...), its ``#:schema`` first line, or the words of its folder's name
    (``my_bodies/``); ``sandbox.config.schema.kinds_fitting`` tells it from its keys when none of these does.
    """
    if path.name == "skills.toml":
        return "skills"
    if path.name == "sandbox.toml":
        return "sandbox_rules"
    if path.name == MANIFEST:
        return "content"
    if path.parent.name == MODELS_DIR and path.stem == "anatomy":
        return "anatomy_rules"
    if path.parent.name == MODELS_DIR:
        return f"{path.stem}_model"  # a damage model's tables: its loader in sandbox/models/ checks them
    if path.parent.name in KIND_DIRS:
        return KIND_DIRS[path.parent.name]
    return _kind_of_first_line(path) or kind_of_folder(path.parent)


def _kind_of_first_line(path: Path) -> str | None:
    if not path.is_file():
        return None  # a folder, a device or a pipe: never opened (reading /dev/zero would never end)
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            first = fh.readline(4096).strip()
    except OSError:
        return None
    match = _SCHEMA_LINE.match(first)
    if match and (match.group(1) in FILE_KIND_NAMES or match.group(1).endswith("_model")):
        return match.group(1)
    return None


def kind_of_folder(folder: Path) -> str | None:
    """The kind a folder's name tells (``my_bodies``: ``body``), when its words name exactly one kind."""
    kinds = {FOLDER_WORDS[w] for w in _WORD.findall(folder.name.lower()) if w in FOLDER_WORDS}
    return kinds.pop() if len(kinds) == 1 else None


def definition_files(root: Path) -> list[Path]:
    """Every definition file of a content folder (``bodies/*.toml`` ...), folder by folder, sorted."""
    return [path for sub in KIND_DIRS for path in sorted((root / sub).glob("*.toml"))]


def model_files(root: Path) -> list[Path]:
    """Every damage model's tables file of a content folder (``models/<model>.toml``, not ``anatomy.toml``)."""
    return [p for p in sorted((root / MODELS_DIR).glob("*.toml")) if p.stem != "anatomy"]


def folder_files(root: Path) -> list[Path]:
    """Every file a content folder contributes: its manifest, rule files, definitions and model tables."""
    files = [root / MANIFEST] if (root / MANIFEST).is_file() else []
    files += [root / where for where in SINGLE_FILES.values() if (root / where).is_file()]
    return files + definition_files(root) + model_files(root)


def is_content_tree(folder: Path) -> bool:
    """Whether ``folder`` holds a content manifest (``content.toml``)."""
    return (folder / MANIFEST).is_file()
