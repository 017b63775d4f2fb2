"""Package attributes imported on first use (PEP 562), so importing a package costs only what is used."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, namespace: dict[str, Any], homes: Mapping[str, str]
                    ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` that import each name from its home module when first asked for.

    Args:
        package: The package's ``__name__`` (for the error of an unknown name).
        namespace: The package's ``globals()``: a name once imported is stored there, so later look-ups are plain.
        homes: Public name -> the module that defines it.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace.get("__all__", ()), *homes})

    return __getattr__, __dir__
