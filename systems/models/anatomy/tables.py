"""The anatomy model's tables are the catalog's own.

``models/anatomy.toml`` is read with every content tree, since bodies are checked against its thresholds: building the
model needs nothing more, and nothing is derived.
"""

from __future__ import annotations

from pathlib import Path

from sandbox.config.loader import Catalog
from sandbox.models.tables import Loaded
from sandbox.systems.models.anatomy.model import AnatomyModel

__all__ = ["NAME", "load_tables"]

NAME = "anatomy"


def load_tables(catalog: Catalog, root: Path) -> Loaded:
    """The anatomy model over ``catalog``'s rule tables."""
    return Loaded(AnatomyModel(catalog.rules), derives=False)
