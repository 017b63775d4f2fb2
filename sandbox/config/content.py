"""Where content comes from: the shipped content in the installed package, and the user's content trees.

A content tree is a folder with the shipped layout (``bodies/``, ``weapons/``, ``armor/``, ``items/``, ``creatures/``,
``scenarios/``, ``models/``, optional ``skills.toml`` and ``sandbox.toml``) and a ``content.toml`` manifest at its
root. The content a world or a command works on is the shipped content extended by the trees it is given (an
argument: ``content=`` in Python, ``--content`` on the command line), plus the tree a scenario file given by path lies
in; nothing here reads the environment. A scenario is resolved once (``scenario_ref``) into a ``ScenarioRef``: the
file, its tree and the content, which is what worlds, labs and the viewer are handed. Loading and merging the trees is
``sandbox.config.loader``'s; this module only finds them (standard library only: the CLI calls it first).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sandbox.config.layout import MANIFEST
from sandbox.setup_error import SetupError

__all__ = ["SHIPPED_PACKAGE", "ScenarioRef", "find_tree", "is_scenario_path", "is_tree", "resolve_content",
           "scenario_ref", "shipped_root"]

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
    """Whether ``folder`` is a content tree.

    Its manifest says which content it extends (the shipped content's own manifest, and a copy of the whole shipped
    folder, say none: they are a base, not a tree). A manifest that is not TOML counts as a tree's, so loading it
    reports the syntax error.
    """
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


def resolve_content(named: Iterable[str | Path], near: Iterable[Path] = ()) -> tuple[Path, ...]:
    """The content trees a world or a command uses, each once, in order.

    Args:
        named: The trees it was given (``content=``, ``--content``).
        near: Files it was given by path (a scenario, a body): the tree each lies in is used too, after ``named``.

    Returns:
        Absolute folders; the shipped content is never one of them (it is always the base).
    """
    trees: list[Path] = [Path(t) for t in named]
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


@dataclass(frozen=True, slots=True)
class ScenarioRef:
    """A scenario resolved once: which scenario, and the content it runs over.

    Plain data: it travels with a lab's work to its pool and Dask workers, which load the scenario from it as the
    process that resolved it would.

    Attributes:
        name: The scenario as it was given: an id (``duel``) or a file's path as typed (what messages, a lab's
            ``summary.json`` and its report call it).
        file: The scenario's file, absolute (``None``: an id, looked up in the content).
        tree: The content tree that file lies in (``None``: an id, or a file in no tree).
        content: The content trees it runs over, in order, each once: those given, then ``tree``.
    """

    name: str
    file: Path | None = None
    tree: Path | None = None
    content: tuple[Path, ...] = ()


def scenario_ref(scenario: str | Path | ScenarioRef, content: Iterable[str | Path] = ()) -> ScenarioRef:
    """Resolve a scenario: an id of the content, or a scenario file (which brings the content tree it lies in).

    Args:
        scenario: An id (``duel``), a file's path, or a scenario resolved already (returned as it is).
        content: Content trees extending the shipped content (never with a ``ScenarioRef``: it carries its own).

    Raises:
        ValueError: ``content`` given with a ``ScenarioRef``.
        SetupError: The shipped content is not installed as a folder.
    """
    if isinstance(scenario, ScenarioRef):
        if tuple(content):
            raise ValueError(f"the scenario {scenario.name!r} was resolved with its content already: give no content "
                             "with it")
        return scenario
    text = str(scenario)
    if not is_scenario_path(scenario):
        return ScenarioRef(text, content=resolve_content(content))
    path = Path(text)
    tree = find_tree(path)
    return ScenarioRef(text, path.absolute(), tree, resolve_content([*content, *([tree] if tree else [])]))


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
