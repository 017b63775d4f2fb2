"""The combat sandbox application: config loading, seeded streams, the CLI.

The embedding surface: ``load_body`` and ``ConfigError`` here, the pure rule functions in ``systems``, the data
in ``components``. Importing this package never imports pygame.
"""

from sandbox.config import Catalog, ConfigError, default_catalog, load_body, load_catalog

__all__ = ["Catalog", "ConfigError", "default_catalog", "load_body", "load_catalog"]
__version__ = "0.1.0"
