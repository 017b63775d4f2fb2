"""Damage models behind one interface (``systems.models.base.DamageModel``), found by name in a registry.

A model is a class implementing the interface, registered with ``register``. Adding a sixth model means writing
its module and registering it; the combat loop, ``run``, the viewer and the lab only use the interface.
"""

from systems.models.base import DamageModel, get_model, model_names, register, unregister

__all__ = ["DamageModel", "get_model", "model_names", "register", "unregister"]

# The shipped models register themselves on import (a sixth model registers the same way, from its own module).
from systems.models import anatomy as _anatomy  # noqa: F401
