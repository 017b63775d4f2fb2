"""The strength-health model (document 003): health equal to STR, critical damage, dying, the Injuries table.

The package, room by room: ``rules`` (the pure rule functions an embedding game calls: exploding damage dice, the
Armour value, what a blow does to health, ability changes, the Injuries table), ``record`` (the attack and its log
record), ``care`` (dying, the end of the stretch, healing and healing items, rest, and ``advance``: time out of
combat on the shared due queue), ``items`` (when a creature uses a healing item in a fight), ``readout`` (what a
creature reads as), ``state`` (what a saved state may hold), ``model`` (the ``DamageModel`` binding) and ``tables``
(its TOML reader). Its components are in ``sandbox.components.models.strength``.
"""

__all__: list[str] = []
