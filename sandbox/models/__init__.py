"""Loading each damage model's tables (``configs/models/<name>.toml``) and building the model.

Every module in this package that defines ``NAME`` and ``load(catalog, root)`` is a model loader: it validates
its own TOML (every problem listed, as for every config) and returns the model. A model with no loader here (a
model that needs no tables, or one registered by an embedding game) is built with no tables.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from sandbox.config import Catalog, config_root
from systems.models import DamageModel, get_model, model_names

Loader = Callable[[Catalog, Path], DamageModel]


@lru_cache(maxsize=1)
def loaders() -> dict[str, Loader]:
    """Model name -> loader, from the modules of this package."""
    found: dict[str, Loader] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue  # a model still being written
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "NAME", None)
        load = getattr(module, "load", None)
        if isinstance(name, str) and callable(load):
            found[name] = load
    return found


def available_models() -> tuple[str, ...]:
    """Every model a world can run under."""
    loaders()  # importing the loaders registers their models
    return model_names()


def build_model(name: str, catalog: Catalog, root: Path | None = None) -> DamageModel:
    """The model called ``name`` with its tables loaded and checked against ``catalog``.

    Args:
        name: The model.
        catalog: The configs its tables must cover.
        root: The config folder holding ``models/<name>.toml``; default: the one ``catalog`` was loaded from
            (so a world over a config tree of its own uses that tree's tables), else the shipped configs.

    Raises:
        KeyError: Unknown model.
        ConfigError: Its tables file is invalid.
    """
    load = loaders().get(name)
    if load is not None:
        return load(catalog, root or catalog.root or config_root())
    return get_model(name)()
