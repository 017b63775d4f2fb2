"""The wound-depth model (document 002): no hit points; a blow goes somewhere and does something.

The package, room by room: ``rules`` (the pure rules: the attack's numbers, where a hit lands, the injury a wound
opens, the state its wounds make), ``record`` (the attack's log record and its words), ``care`` (treatment out of
combat on the shared due queue, and the death clock of the dying), ``readout`` (the label, health, conditions and
wound readings), ``state`` (what a saved state may hold), ``model`` (the ``DamageModel`` binding) and ``tables``
(its TOML reader). Its components are in ``sandbox.components.models.depth``.
"""

__all__: list[str] = []  # the package defines no names: import them from its rooms
