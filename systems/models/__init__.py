"""Damage models behind one interface (``sandbox.systems.damage_model.DamageModel``), found by name in a registry.

Importing this package registers the five shipped models in the order of their documents (anatomy 000, severity
001, depth 002, strength 003, status 004: the order ``--model all`` shows them in). Each shipped model
is a package of the same rooms (``sandbox.systems.models.<name>``: ``model`` registers it, ``tables`` reads its TOML).
A sixth model is a module that subclasses ``DamageModel`` and registers itself with ``register``; the combat loop,
``run``, the viewer and the lab only use the interface.
"""

# ruff: noqa: I001 (the imports register the models: keep the documents' order, not the alphabet's)
from sandbox.systems.models.anatomy import model as _anatomy
from sandbox.systems.models.severity import model as _severity
from sandbox.systems.models.depth import model as _depth
from sandbox.systems.models.strength import model as _strength
from sandbox.systems.models.status import model as _status
from sandbox.systems.models.anatomy.model import DEFAULT_MODEL
from sandbox.systems.damage_model import DamageModel, ModelError, get_model, model_names, register, unregister

__all__ = ["DEFAULT_MODEL", "DamageModel", "ModelError", "get_model", "model_names", "register", "unregister"]

del _anatomy, _depth, _severity, _status, _strength
