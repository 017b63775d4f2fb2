"""The status-ladder model (document 004): a creature's harm is one rung of a seven-rung ladder.

The same rooms as every model package: ``rules`` (the pure rule functions: what a wound does to the ladder, the
penalties, passing out), ``record`` (its log record, the attack record, and the words it explains itself in),
``care`` (coming round, the untended death, rest and healing over time: ``advance`` on the shared due queue),
``model`` (its ``DamageModel`` binding, ``StatusModel``), ``state`` (the check of a saved state) and ``tables`` (its
TOML reader). Its components are in ``sandbox.components.models.status``.
"""

__all__: list[str] = []
