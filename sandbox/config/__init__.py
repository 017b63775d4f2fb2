"""Config files: schemas, validation with every problem reported at once, and loading into components."""

from sandbox.config.errors import ConfigError, Problem
from sandbox.config.loader import Catalog, config_root, default_catalog, load_body, load_catalog

__all__ = ["Catalog", "ConfigError", "Problem", "config_root", "default_catalog", "load_body", "load_catalog"]
