"""The wound-depth model (document 002): no hit points; a blow goes somewhere and does something.

The same rooms as every model package: its rules, its log record, its care over time, its ``DamageModel`` binding
(``model``) and its TOML reader (``tables``). Its components are in ``sandbox.components.models.depth``.
"""
