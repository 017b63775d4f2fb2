"""The severity model (document 001): wound Severity from d3s, the d6 effect table, Threshold, first aid and rest.

The package, room by room: ``rules`` (the pure rule functions an embedding game calls), ``readout`` (the label and
the effects in words), ``record`` (the attack record and the words that explain it), ``care`` (first aid, rest, the
turn processor and the out-of-combat advance on the shared due queue), ``model`` (the ``DamageModel`` binding,
which registers the model), ``state`` (what a saved state may hold) and ``tables`` (its TOML reader). Its
components are in ``sandbox.components.models.severity``.
"""

__all__: list[str] = []
