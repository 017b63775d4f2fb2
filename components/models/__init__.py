"""Each damage model's own per-creature state and tables.

One module a model, pure data (the standard library only).
"""

__all__: list[str] = []
