"""The anatomy model (document 000): hit location, injury, bleeding, shock, impairment and health.

The package, room by room: the rule modules (``injury``, ``shock``, ``mishaps``, ``impairment``, ``health``, the
blow pipeline ``blow`` and its array form ``vector_blows``, ``damage`` (what a landed blow does to a creature),
``mastery``, ``targets``, ``recovery``, ``aftercare`` (wounds over time)); ``record`` (the attack and its log
record), ``care`` (``advance``: care and healing over time on the shared due queue), ``state`` (how its state
travels in a ``Creature`` record), ``model`` (the ``DamageModel`` binding), ``tables`` (its TOML reader) and
``arrays`` (its array-engine half). Where a blow lands on the body (``sandbox.systems.hit_location``) is shared:
the depth model and the AI's aim read the same body structure. Its components are in
``sandbox.components.models.anatomy``.
"""

__all__: list[str] = []
