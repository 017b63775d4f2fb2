"""Where content comes from: the shipped content in the installed package, and the user's content trees.

A content tree is a folder with the shipped layout (``bodies/``, ``weapons/``, ``armor/``, ``items/``, ``creatures/``,
``scenarios/``, ``models/``, optional ``skills.toml`` and ``sandbox.toml``) and a ``content.toml`` manifest at its
root. The content a command works on is the shipped content extended by the trees named with ``--content`` (else
the ``SANDBOX_CONTENT`` variable), plus the tree a scenario file given by path lies in. Loading and merging the
trees is ``sandbox.config.loader``'s; this module only finds them (standard library only: the CLI calls it first).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sandbox.config.layout import MANIFEST
from sandbox.setup_error import SetupError

CONTENT_ENV = "SANDBOX_CONTENT"
"""Content trees to use when a command names none with ``--content`` (several: separated by ``os.pathsep``)."""
SHIPPED_PACKAGE = "sandbox.shipped"
"""The package the wheel carries the shipped content in (the repository's top-level ``configs/`` folder)."""


def shipped_root() -> Path:
    """The folder of the shipped content, wherever the package is installed (a wheel, or editable from a clone).

    The import system finds the package (as ``importlib.resources.files`` would, without importing that module and
    its dependencies on the CLI's start-up path, nor the package itself).

    Raises:
        SetupError: The package cannot be found as a folder on disk (a broken or zipped install).
    """
    spec = importlib.util.find_spec(SHIPPED_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations or not Path(locations[0]).is_dir():
        raise SetupError(f"the shipped content (the package {SHIPPED_PACKAGE}) is not installed as a folder: "
                         "reinstall combat-sandbox")
    return Path(locations[0])


def is_scenario_path(scenario: str | Path) -> bool:
    """Whether a scenario argument names a file (``mytree/scenarios/ambush.toml``) rather than an id (``duel``)."""
    path = Path(scenario)
    return path.suffix == ".toml" or path.exists()


def is_tree(folder: Path) -> bool:
    """Whether ``folder`` is a content tree: its manifest says which content it extends (the shipped content's own
    manifest, and a copy of the whole shipped folder, say none: they are a base, not a tree). A manifest that is not
    TOML counts as a tree's, so loading it reports the syntax error."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return False
    import tomli

    from sandbox.config.guard import NestingError, parse_toml
    from sandbox.config.limits import MAX_FILE_BYTES

    try:
        with manifest.open("rb") as fh:
            return "extends" in parse_toml(fh.read(MAX_FILE_BYTES + 1).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError, NestingError):
        return True


def find_tree(path: Path) -> Path | None:
    """The content tree a file or folder lies in: the nearest folder at or above it that holds ``content.toml``.

    ``None`` when there is none, or when that manifest is a base's (the shipped content itself: a shipped scenario
    run by path).
    """
    here = path.absolute()
    for folder in (here, *here.parents):
        if (folder / MANIFEST).is_file():
            return folder if is_tree(folder) and not _same(folder, shipped_root()) else None
    return None


def trees_from_env() -> tuple[Path, ...]:
    """The content trees ``SANDBOX_CONTENT`` names (empty entries skipped)."""
    value = os.environ.get(CONTENT_ENV, "")
    return tuple(Path(part) for part in value.split(os.pathsep) if part.strip())


def resolve_content(named: Sequence[Path] | None, near: Iterable[Path] = ()) -> tuple[Path, ...]:
    """The content trees a command uses, each once, in order.

    Args:
        named: The trees given with ``--content``; ``None`` (or empty): those of ``SANDBOX_CONTENT``.
        near: Files the command was given by path (a scenario): the tree each lies in is used too.

    Returns:
        Absolute folders; the shipped content is never one of them (it is always the base).
    """
    trees: list[Path] = list(named) if named else list(trees_from_env())
    for path in near:
        tree = find_tree(path)
        if tree is not None:
            trees.append(tree)
    shipped = shipped_root()
    out: list[Path] = []
    for tree in trees:
        absolute = tree.absolute()
        if not _same(absolute, shipped) and not any(_same(absolute, seen) for seen in out):
            out.append(absolute)
    return tuple(out)


@contextmanager
def using_content(trees: Sequence[Path]) -> Iterator[None]:
    """Inside the block, ``trees`` are the content of this process and of the processes it starts (the lab's
    workers); the caller's ``SANDBOX_CONTENT`` is back afterwards.

    ``default_catalog()`` reads ``SANDBOX_CONTENT``, so everything that resolves an id (``body``, ``blows``, ``lab``,
    ``view``, a world built without a catalog) sees the same content.
    """
    before = os.environ.get(CONTENT_ENV)
    if trees:
        os.environ[CONTENT_ENV] = os.pathsep.join(str(t) for t in trees)
    else:
        os.environ.pop(CONTENT_ENV, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CONTENT_ENV, None)
        else:
            os.environ[CONTENT_ENV] = before


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
