"""The strength-health model (document 003): health equal to STR, critical damage, dying, the Injuries table.

The same rooms as every model package: its rules, its log record, its care over time, its ``DamageModel`` binding
(``model``) and its TOML reader (``tables``). Its components are in ``sandbox.components.models.strength``.
"""
