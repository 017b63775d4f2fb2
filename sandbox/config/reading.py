"""Reading one TOML file, and turning pydantic's validation errors into designer-readable problems.

Every config file (definitions, rule files, manifests, each damage model's tables) is read and reported through here,
so a syntax error always names its line, list entries are numbered from 1, an unknown key offers the closest known
one, and every message is spelt the same way.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import tomli
from pydantic import BaseModel, ValidationError

from sandbox.config.errors import Problem, dotted, suggest
from sandbox.config.guard import NestingError, parse_toml
from sandbox.config.limits import MAX_FILE_BYTES

__all__ = ["KEYED_TABLES", "entry_name", "expected_text", "fields_at", "not_a_file", "read_toml", "validation_problems"]

KEYED_TABLES = ("weapons", "armor", "creatures")
"""The tables of a damage model's file keyed by config id (``[weapons."broadsword.cut"]``): that id names the entry."""


def not_a_file(path: Path) -> str:
    """What stands at a path that is not a regular file, for a problem's "found"."""
    if path.is_dir():
        return "a folder"
    if path.exists():
        return "not a regular file (a device, pipe or socket)"
    return "no such file"


def read_toml(path: Path, label: str, problems: list[Problem]) -> dict[str, Any] | None:
    """The tables of one TOML file, or ``None`` with the reason appended to ``problems``.

    Only a regular file is opened (a folder, a device or a pipe could block or never end), of at most
    ``MAX_FILE_BYTES``, in UTF-8, nested at most ``MAX_NESTING`` deep with keys of at most ``MAX_KEY_LENGTH``
    characters (``sandbox.config.guard``); a syntax error names its line and column.
    """
    if not path.is_file():
        problems.append(Problem(label, "", None, "an existing file", not_a_file(path)))
        return None
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            problems.append(Problem(label, "", None, f"a config file of at most {MAX_FILE_BYTES:,} bytes",
                                    f"{path.stat().st_size:,} bytes"))
            return None
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(label, "", None, "a readable UTF-8 TOML file", f"an unreadable file ({exc})"))
        return None
    try:
        return parse_toml(text)
    except NestingError as exc:
        problems.append(Problem(label, exc.where, None, exc.expected, exc.found))
        return None
    except tomli.TOMLDecodeError as exc:
        msg = getattr(exc, "msg", str(exc))
        where = f"line {getattr(exc, 'lineno', '?')}, column {getattr(exc, 'colno', '?')}"
        problems.append(Problem(label, where, None, "valid TOML 1.0", f"a syntax error ({msg})"))
        return None


def entry_name(data: Any, loc: Sequence[int | str]) -> str | None:
    """Display name of the innermost named table on a key path (its ``name``, else its ``id``)."""
    name = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else None
    node = data
    for step in loc:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict):
            for key in ("name", "id"):
                if isinstance(node.get(key), str):
                    name = node[key]
                    break
    return name


def expected_text(msg: str, kind: str) -> str:
    """What a pydantic error says was expected, as a problem's "expected" (``greater than 0``)."""
    if kind == "missing":
        return "a value (the key is required)"
    if kind == "extra_forbidden":
        return "no such key (unknown keys are rejected)"
    for prefix in ("Input should be ", "Value should be ", "Value error, "):
        if msg.startswith(prefix):
            return msg[len(prefix):]
    return msg[0].lower() + msg[1:] if msg else "a valid value"


def _found(error: Mapping[str, Any]) -> str:
    if error["type"] == "missing":
        return "nothing"
    value = error.get("input")
    text = repr(value)
    if isinstance(value, dict | list):
        text = f"a {'table' if isinstance(value, dict) else 'list'}"
    return text if len(text) <= 60 else text[:57] + "..."


def _unwrap(tp: Any) -> Any:
    """The type inside ``Annotated[...]`` and ``X | None``, for walking a model's fields."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            arms = [a for a in typing.get_args(tp) if a is not type(None)]
            structured = [a for a in arms if typing.get_origin(_unwrap(a)) in (list, dict) or _is_model(_unwrap(a))]
            tp = (structured or arms)[0]
        else:
            return tp


def _is_model(tp: Any) -> bool:
    return inspect.isclass(tp) and issubclass(tp, BaseModel)


def fields_at(model: type[BaseModel], loc: Sequence[int | str]) -> list[str]:
    """The keys the table at ``loc`` of a ``model`` file may hold (none when it is not a fixed table)."""
    tp: Any = model
    for step in loc:
        tp = _unwrap(tp)
        if _is_model(tp):
            field = tp.model_fields.get(step) if isinstance(step, str) else None
            if field is None:
                return []
            tp = field.annotation
        elif typing.get_origin(tp) is list and isinstance(step, int):
            tp = typing.get_args(tp)[0]
        elif typing.get_origin(tp) is dict:
            tp = typing.get_args(tp)[1]
        else:
            return []
    tp = _unwrap(tp)
    return list(tp.model_fields) if _is_model(tp) else []


def _suggestion(error: Mapping[str, Any], model: type[BaseModel]) -> str | None:
    loc = error["loc"]
    if error["type"] == "extra_forbidden" and loc and isinstance(loc[-1], str):
        return suggest(loc[-1], fields_at(model, loc[:-1]))
    if error["type"] == "literal_error" and isinstance(error.get("input"), str):
        expected = str((error.get("ctx") or {}).get("expected", ""))
        return suggest(error["input"], [part.strip("'") for part in expected.replace(" or ", ", ").split(", ")])
    return None


def validation_problems(exc: ValidationError, data: Mapping[str, Any], model: type[BaseModel],
                        label_for: Callable[[Sequence[int | str]], str], keyed: Sequence[str] = ()) -> list[Problem]:
    """Every error of a failed validation as a ``Problem``.

    Args:
        exc: Pydantic's error.
        data: The tables validated.
        model: The model they were validated against (for the keys an unknown one may have meant).
        label_for: The file that gave the key at a path (one file, or the file of each key of merged tables).
        keyed: Top-level tables keyed by config id: the id names the entry (``weapons``, ``armor``,
            ``creatures`` of a damage model's tables).
    """
    problems = []
    for err in exc.errors():
        loc = err["loc"]
        entry = str(loc[1]) if len(loc) > 1 and loc[0] in keyed else entry_name(data, loc)
        problems.append(Problem(label_for(loc), dotted(*loc), entry, expected_text(err["msg"], err["type"]),
                                _found(err), _suggestion(err, model)))
    return problems
