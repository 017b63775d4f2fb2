"""Loading each damage model's tables (``models/<name>.toml``) and building the model.

Every model package whose ``tables`` module defines ``NAME`` and ``load_tables(catalog, root)``
(``sandbox.systems.models.<name>.tables``, beside the model it reads for) has a loader: it reads its own TOML
through the catalog's content trees (``sandbox.models.tables``), validates it (every problem listed, as for every
config), derives what the file does not cover from the anatomy data (``sandbox.models.derive``) and returns the
model with the entries it derived. A model with no loader (a model that needs no tables, or one registered by an
embedding game) is built with no tables.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from pydantic import BaseModel

from sandbox.config.errors import ConfigError, Problem
from sandbox.config.loader import Catalog, config_root
from sandbox.models.tables import Loaded
from sandbox.systems.models import DamageModel, get_model, model_names

__all__ = ["Loader", "available_models", "build_model", "load_model", "loaders", "structural_problems", "table_schemas"]

Loader = Callable[[Catalog, Path], Loaded]


@lru_cache(maxsize=1)
def _table_modules() -> dict[str, ModuleType]:
    """Model name -> the ``tables`` module of its package (the models that have one)."""
    import sandbox.systems.models as packages

    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(packages.__path__):
        if not info.ispkg or info.name.startswith("_"):
            continue  # a model still being written
        home = f"{packages.__name__}.{info.name}.tables"
        if importlib.util.find_spec(home) is None:
            continue  # a model package with no tables
        module = importlib.import_module(home)
        name = getattr(module, "NAME", None)
        if isinstance(name, str) and callable(getattr(module, "load_tables", None)):
            found[name] = module
    return found


def loaders() -> dict[str, Loader]:
    """Model name -> loader, from the ``tables`` module of each model package."""
    return {name: module.load_tables for name, module in _table_modules().items()}


def table_schemas() -> dict[str, type[BaseModel]]:
    """Model name -> the pydantic schema of its tables file (the models whose tables are a file of their own)."""
    return {name: module.SCHEMA for name, module in _table_modules().items()
            if isinstance(getattr(module, "SCHEMA", None), type)}


def available_models() -> tuple[str, ...]:
    """Every model a world can run under."""
    loaders()  # importing the loaders registers their models
    return model_names()


def load_model(name: str, catalog: Catalog, root: Path | None = None) -> Loaded:
    """The model called ``name`` with its tables loaded and checked against ``catalog``, and what was derived.

    Args:
        name: The model.
        catalog: The content its tables must cover.
        root: The base folder holding ``models/<name>.toml``; default: the one ``catalog`` was loaded from
            (so a world over a config folder of its own uses that folder's tables), else the shipped content. The
            catalog's content trees' files of the same name are laid over it.

    Raises:
        KeyError: Unknown model.
        ConfigError: Its tables file is invalid.
    """
    load = loaders().get(name)
    if load is not None:
        return load(catalog, root or catalog.root or config_root())
    return Loaded(get_model(name)())


def structural_problems(content: Sequence[Path], root: Path | None = None) -> list[Problem]:
    """Every problem each model's tables have on their own, without a catalog.

    A table may be unreadable, not TOML, or not of its schema: this is what ``sandbox validate`` still reports when the
    content it would check them against is broken.

    Args:
        content: The content trees laid over the base.
        root: The base folder (default: the shipped content).
    """
    from sandbox.models.tables import read_tables

    problems: list[Problem] = []
    for name, schema in table_schemas().items():
        try:
            read_tables(name, content, root or config_root(), schema)
        except ConfigError as exc:
            problems.extend(exc.problems)
    return problems


def build_model(name: str, catalog: Catalog, root: Path | None = None) -> DamageModel:
    """The model called ``name`` with its tables loaded and checked against ``catalog`` (see ``load_model``).

    Raises:
        KeyError: Unknown model.
        ConfigError: Its tables file is invalid.
    """
    return load_model(name, catalog, root).model
