"""Component state as plain JSON values and back (what a save holds), for any slots dataclass of plain fields.

Sets and tuples become tagged lists and dicts lists of pairs, so each comes back as the type it was.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

__all__ = ["JSON", "SAVED_SINCE", "dump_fields", "load_fields", "plain", "restore"]

JSON = Any
"""A JSON-ready value (what ``json.dumps`` takes)."""

SAVED_SINCE = "saved_since"
"""The metadata key of a component field added after saves of its format were written.

``field(default_factory=list, metadata={SAVED_SINCE: "issue 32"})``: saves always write it, and loading a save
without it (one written before) gives its default, so the save format keeps its version (``systems.saved``).
"""


def plain(value: Any) -> JSON:
    """A value as JSON (sets and tuples become tagged lists, dicts lists of pairs)."""
    if isinstance(value, set | frozenset):
        return {"set": sorted(plain(v) for v in value)}
    if isinstance(value, tuple):
        return {"tuple": [plain(v) for v in value]}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[plain(k), plain(v)] for k, v in value.items()]}
    return value


def restore(value: JSON) -> Any:
    """The inverse of ``plain``."""
    if isinstance(value, dict):
        if "set" in value:
            return {restore(v) for v in value["set"]}
        if "tuple" in value:
            return tuple(restore(v) for v in value["tuple"])
        if "dict" in value:
            return {restore(k): restore(v) for k, v in value["dict"]}
    if isinstance(value, list):
        return [restore(v) for v in value]
    return value


def dump_fields(component: object, skip: tuple[str, ...] = ()) -> dict[str, JSON]:
    """Every field of a dataclass component (but ``skip``) as JSON."""
    if not is_dataclass(component):
        raise TypeError(f"{type(component).__name__} is not a dataclass")
    return {f.name: plain(getattr(component, f.name)) for f in fields(component) if f.name not in skip}


def load_fields(component_type: type[Any], data: dict[str, JSON]) -> Any:
    """A component of ``component_type`` from ``dump_fields`` output.

    Raises:
        TypeError: A field it does not have, or a required one missing.
    """
    return component_type(**{k: restore(v) for k, v in data.items()})
