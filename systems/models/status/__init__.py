"""The status-ladder model (document 004): a creature's harm is one rung of a seven-rung ladder.

The same rooms as every model package: its rules, its log record, its care over time, its ``DamageModel`` binding
(``model``) and its TOML reader (``tables``). Its components are in ``sandbox.components.models.status``.
"""
