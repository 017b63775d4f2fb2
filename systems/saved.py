"""Reading saved state back with its meaning checked.

A value the world could not have reached is refused, naming its key, before anything is built from it.

A save is JSON a user can edit; ``Sandbox.load`` must refuse a wound at level 99, a part index past the body's
last, a health of 500 or a position of ``1e999`` (JSON reads it as infinity) instead of building a world that
fails ticks later. ``typed_fields`` reads a component's fields as their declared types (an int is not a bool, a
float is finite, a set holds what it says); ``need``, ``number``, ``index`` and ``choice`` check what a value may
be; every failure is a ``StateError`` whose message starts with the key.
"""

from __future__ import annotations

import enum
import math
import types
import typing
from collections.abc import Collection, Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any

from sandbox.components.codec import SAVED_SINCE

__all__ = ["AMOUNT", "LARGEST", "LONGEST", "StateError", "choice", "index", "is_int", "need", "number",
           "past_time", "past_time_or_never", "shown", "time_or_never", "typed_fields"]

LARGEST = 10**15
"""The largest magnitude of any number a save may hold (every bounded config number is far below; a float past
it would lose whole units)."""
AMOUNT = 1_000_000
"""The most any tally of a saved state may hold (effect points, HP, a Defense with every piece of armour worn)."""
LONGEST = 1000
"""The longest text a save may hold in one value, in characters."""


class StateError(ValueError):
    """A saved value the world could not have reached; the message names its key."""


def shown(value: Any) -> str:
    """A saved value as a message shows it, cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}... ({len(text):,} characters)"


def need(ok: bool, key: str, expected: str, found: Any) -> None:
    """Refuse ``found`` at ``key`` unless ``ok``.

    Raises:
        StateError: ``key: expected ..., found ...``.
    """
    if not ok:
        raise StateError(f"{key}: expected {expected}, found {shown(found)}")


def is_int(value: Any) -> bool:
    """An int that is not a bool."""
    return type(value) is int


def number(key: str, value: Any, lo: float, hi: float, *, whole: bool = False) -> float:
    """``value`` as a number from ``lo`` to ``hi`` (an int when ``whole``).

    Raises:
        StateError: Not a number (a bool is not one), not finite, or out of range.
    """
    kind = "a whole number" if whole else "a number"
    ok = is_int(value) if whole else is_int(value) or type(value) is float
    need(ok, key, kind, value)
    need(math.isfinite(value) and lo <= value <= hi, key, f"{kind} from {lo:g} to {hi:g}", value)
    return float(value)


def index(key: str, value: Any, size: int, what: str) -> int:
    """``value`` as an index into ``size`` things (``what``: "a location of the body").

    Raises:
        StateError: Not an int from 0 to ``size - 1``.
    """
    need(is_int(value) and 0 <= value < size, key, f"{what} (0 to {size - 1})" if size else f"{what} (it has none)",
         value)
    return int(value)


def choice(key: str, value: Any, choices: Collection[Any], what: str = "one of") -> Any:
    """``value`` as one of ``choices``.

    Raises:
        StateError: Anything else.
    """
    listed = ", ".join(repr(c) for c in list(choices)[:12]) + (" ..." if len(choices) > 12 else "")
    need(value in choices and type(value) in {type(c) for c in choices}, key, f"{what} {listed}", value)
    return value


def time_or_never(key: str, value: Any) -> float:
    """A game time in seconds, or -1 for none (what the due times of a state hold).

    Raises:
        StateError: Not -1 nor a finite time from 0.
    """
    need((is_int(value) or type(value) is float) and (value == -1 or 0 <= value <= LARGEST), key,
         "a game time in seconds (0 or more) or -1 (none)", value)
    return float(value)


def past_time(key: str, value: Any) -> float:
    """A game time something happened at, in seconds: before 0 too, for a creature carried in from an older world.

    Raises:
        StateError: Not a finite time within the largest magnitude a save holds.
    """
    return number(key, value, -LARGEST, LARGEST)


def past_time_or_never(key: str, value: Any) -> float:
    """A game time something happened at (before 0 too, ``past_time``), or -1 for not (yet).

    Raises:
        StateError: Not a finite time within the largest magnitude a save holds.
    """
    need((is_int(value) or type(value) is float) and -LARGEST <= value <= LARGEST, key,
         "a game time in seconds or -1 (none)", value)
    return float(value)


@cache
def _hints(component_type: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(component_type)


def _typed(value: Any, tp: Any, key: str) -> Any:
    """``value`` (as ``sandbox.components.codec.plain`` wrote it) as a value of type ``tp``."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any or tp is object:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        arms = [a for a in args if a is not type(None)]
        errors = []
        for arm in arms:
            try:
                return _typed(value, arm, key)
            except StateError as exc:
                errors.append(exc)
        raise errors[0]
    if tp is bool:
        need(type(value) is bool, key, "true or false", value)
        return value
    if isinstance(tp, type) and issubclass(tp, enum.IntEnum):
        need(is_int(value) and value in {int(m) for m in tp}, key, f"one of {', '.join(str(int(m)) for m in tp)}",
             value)
        return tp(value)
    if tp is int:
        return int(number(key, value, -LARGEST, LARGEST, whole=True))
    if tp is float:
        return float(number(key, value, -LARGEST, LARGEST))
    if tp is str:
        need(isinstance(value, str) and len(value) <= LONGEST, key, f"text of at most {LONGEST} characters", value)
        return value
    if origin in (set, frozenset):
        need(isinstance(value, dict) and set(value) == {"set"} and isinstance(value["set"], list), key,
             'a set ({"set": [...]})', value)
        items = [_typed(v, args[0], f"{key}#{i + 1}") for i, v in enumerate(value["set"])]
        need(len(set(items)) == len(items), key, "a set of distinct values", value)
        return set(items) if origin is set else frozenset(items)
    if origin is tuple:
        need(isinstance(value, dict) and set(value) == {"tuple"} and isinstance(value["tuple"], list), key,
             'a tuple ({"tuple": [...]})', value)
        items = value["tuple"]
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(v, args[0], f"{key}#{i + 1}") for i, v in enumerate(items))
        need(len(items) == len(args), key, f"a tuple of {len(args)}", value)
        return tuple(_typed(v, a, f"{key}#{i + 1}") for i, (v, a) in enumerate(zip(items, args, strict=True)))
    if origin is list:
        need(isinstance(value, list), key, "a list", value)
        return [_typed(v, args[0], f"{key}#{i + 1}") for i, v in enumerate(value)]
    if origin in (dict, Mapping, typing.Mapping) or tp is dict:
        need(isinstance(value, dict) and set(value) == {"dict"} and isinstance(value["dict"], list)
             and all(isinstance(p, list) and len(p) == 2 for p in value["dict"]), key,
             'a table ({"dict": [[key, value], ...]})', value)
        out = {}
        for i, (k, v) in enumerate(value["dict"]):
            k = _typed(k, args[0], f"{key}#{i + 1}")
            need(k not in out, key, "distinct keys", k)
            out[k] = _typed(v, args[1], f"{key}.{k}")
        return out
    raise StateError(f"{key}: a value of type {tp!r} cannot be read from a save")


def typed_fields(component_type: type[Any], data: Mapping[str, Any], where: str,
                 skip: Collection[str] = ()) -> dict[str, Any]:
    """Every field of a dataclass component from ``sandbox.components.codec.dump_fields`` output, as its declared type.

    Args:
        component_type: The component's class.
        data: The saved fields.
        where: The key of the component in the save (``entities#2.model_state.StatusState``).
        skip: Fields the save does not hold (caches); they keep their defaults.

    A field whose metadata holds ``sandbox.components.codec.SAVED_SINCE`` may be missing (a save older than the
    field): it is left out, so it keeps its default.

    Raises:
        StateError: A field missing, one the component does not have, or a value not of its field's type.
    """
    assert is_dataclass(component_type)
    need(isinstance(data, Mapping), where, "a table of fields", data)
    hints = _hints(component_type)
    wanted = [f for f in fields(component_type) if f.name not in skip]
    for name in sorted(set(data) - {f.name for f in wanted}):
        raise StateError(f"{where}: expected the fields of {component_type.__name__} "
                         f"({', '.join(f.name for f in wanted)}), found the unknown {shown(name)}")
    out = {}
    for f in wanted:
        key = f"{where}.{f.name}"
        if f.name not in data:
            if SAVED_SINCE in f.metadata:
                continue  # a field added since the save was written: it keeps its default
            raise StateError(f"{key}: expected a value (a save holds every field), found nothing")
        out[f.name] = _typed(data[f.name], hints[f.name], key)
    return out
