"""The severity model (document 001): wound Severity from d3s, the d6 effect table, Threshold, first aid and rest.

The same rooms as every model package: its rules, its log record, its care over time, its ``DamageModel`` binding
(``model``) and its TOML reader (``tables``). Its components are in ``sandbox.components.models.severity``.
"""
