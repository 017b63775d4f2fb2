"""The rules of the combat sandbox: pure rule functions, the processors that apply them, and the damage models.

One module per rule area (``hit_location``, ``injury``, ``shock``, ``mishaps``, ``impairment``, ``health``,
``aftercare``, ``blow`` ...), the shared skirmish loop (``ai``, ``movement``, ``combat``, ``status``), and the five
damage models behind one interface (``sandbox.systems.models``). ``sandbox.systems.install`` puts the loop and a model
into an esper world of your own; ``sandbox.systems.spawning.creature_components`` builds a creature for it.

Nothing here imports ``sandbox`` or pygame.
"""

from __future__ import annotations

from typing import Any

__all__ = ["install"]


def __getattr__(name: str) -> Any:
    # Lazy, so importing one rule module does not pull in the whole loop.
    if name == "install":
        from sandbox.systems.embedding import install

        return install
    raise AttributeError(f"module 'sandbox.systems' has no attribute {name!r}")
