"""The anatomy model's tables are the catalog's own (``configs/models/anatomy.toml`` is read with every config
tree, since bodies are checked against its thresholds): building the model needs nothing more."""

from __future__ import annotations

from pathlib import Path

from sandbox.config import Catalog
from systems.models.anatomy import AnatomyModel

NAME = "anatomy"


def load(catalog: Catalog, root: Path) -> AnatomyModel:
    """The anatomy model over ``catalog``'s rule tables."""
    return AnatomyModel(catalog.rules)
