"""Damage models behind one interface (``sandbox.systems.models.base.DamageModel``), found by name in a registry.

Importing this package registers the five shipped models in the order of their documents (anatomy 000, severity
001, depth 002, strength 003, status 004: the order ``--model all`` shows them in). A sixth
model is a module that subclasses ``DamageModel`` and registers itself with ``register``; the combat loop,
``run``, the viewer and the lab only use the interface.
"""

# ruff: noqa: I001 (the imports register the models: keep the documents' order, not the alphabet's)
from sandbox.systems.models import anatomy as _anatomy
from sandbox.systems.models import severity as _severity
from sandbox.systems.models import depth as _depth
from sandbox.systems.models import strength as _strength
from sandbox.systems.models import status as _status
from sandbox.systems.models.anatomy import DEFAULT_MODEL
from sandbox.systems.models.base import DamageModel, ModelError, get_model, model_names, register, unregister

__all__ = ["DEFAULT_MODEL", "DamageModel", "ModelError", "get_model", "model_names", "register", "unregister"]

del _anatomy, _depth, _severity, _status, _strength
