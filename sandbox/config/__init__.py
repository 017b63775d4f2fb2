"""Config files: schemas, validation with every problem reported at once, and loading into components.

The names below are imported on first use (PEP 562), so ``import sandbox.config`` and its light modules (``errors``,
``content``, ``layout``, ``limits``) cost nothing on the CLI's start-up path; ``loader`` brings pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.lazy import lazy_attributes

if TYPE_CHECKING:
    from sandbox.config.errors import ConfigError, Problem
    from sandbox.config.loader import Catalog, config_root, default_catalog, load_body, load_catalog

__all__ = ["Catalog", "ConfigError", "Problem", "config_root", "default_catalog", "load_body", "load_catalog"]

__getattr__, __dir__ = lazy_attributes(__name__, globals(), {
    "ConfigError": "sandbox.config.errors", "Problem": "sandbox.config.errors", "Catalog": "sandbox.config.loader",
    "config_root": "sandbox.config.loader", "default_catalog": "sandbox.config.loader",
    "load_body": "sandbox.config.loader", "load_catalog": "sandbox.config.loader"})
