"""The combat sandbox application: content loading, seeded streams, the CLI.

The embedding surface: ``load_body``, ``load_catalog``, ``default_catalog``, ``Catalog`` and ``ConfigError`` here,
the pure rule functions in ``systems``, the data in ``components``. The names are imported on first use (PEP 562),
so ``import sandbox`` is cheap (the CLI's start-up) and never imports pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.lazy import lazy_attributes

if TYPE_CHECKING:
    from sandbox.config.errors import ConfigError
    from sandbox.config.loader import Catalog, default_catalog, load_body, load_catalog

__all__ = ["Catalog", "ConfigError", "default_catalog", "load_body", "load_catalog"]
__version__ = "0.1.0"

__getattr__, __dir__ = lazy_attributes(__name__, globals(), {
    "ConfigError": "sandbox.config.errors", "Catalog": "sandbox.config.loader",
    "default_catalog": "sandbox.config.loader", "load_body": "sandbox.config.loader",
    "load_catalog": "sandbox.config.loader"})
