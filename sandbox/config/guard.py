"""Reading TOML and JSON text within bounds.

How deep it nests and how long its keys are, checked before a parser or anything after it can recurse (an array nested
500 deep would reach Python's recursion limit in the parser, in validation or in an error message) (the standard library
only: the CLI reads manifests with it).

``parse_toml`` and ``parse_json`` scan the text for the depth of its brackets (outside strings and comments) before
parsing, then walk what was parsed, without recursion, for the depth of its tables (a dotted key of a thousand parts
is a thousand tables deep) and the length of its keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import tomli

from sandbox.config.limits import MAX_KEY_LENGTH, MAX_NESTING

__all__ = ["NestingError", "check_structure", "parse_json", "parse_toml"]


class NestingError(ValueError):
    """Text nested deeper than ``MAX_NESTING`` levels, or with a key longer than ``MAX_KEY_LENGTH`` characters.

    Attributes:
        where: Where it was found (``line L`` of the text, or the key path).
        expected: What a config or save may hold.
        found: What this one holds.
    """

    def __init__(self, where: str, expected: str, found: str) -> None:
        super().__init__(f"{where}: expected {expected}, found {found}")
        self.where = where
        self.expected = expected
        self.found = found


def _skip_toml_string(text: str, i: int) -> int:
    """The index just past the TOML string that starts at ``i`` (basic, literal, or multi-line of either)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = i + 3
        while True:
            end = text.find(quote * 3, end)
            if end < 0:
                return len(text)
            if quote == '"' and _escaped(text, end):
                end += 1
                continue
            end += 3
            for _ in range(2):  # a closing delimiter may follow up to two quotes of the string's own
                if end < len(text) and text[end] == quote:
                    end += 1
            return end
    end = i + 1
    while end < len(text):
        c = text[end]
        if c == quote and not (quote == '"' and _escaped(text, end)):
            return end + 1
        if c == "\n":
            return end  # an unterminated string: the parser reports it
        end += 1
    return end


def _escaped(text: str, i: int) -> bool:
    """Whether the character at ``i`` is escaped by an odd run of backslashes before it."""
    run = 0
    while i - run - 1 >= 0 and text[i - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _deepest(text: str, skip_string: Callable[[str, int], int], quotes: str, comment: str | None) -> tuple[int, int]:
    """``(deepest bracket nesting, the line it is first reached on)`` of ``text``, outside strings and comments."""
    depth = deepest = 0
    line = deepest_line = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in quotes:
            start = i
            i = skip_string(text, i)
            line += text.count("\n", start, i)
            continue
        if comment is not None and c == comment:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "\n":
            line += 1
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif c in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return deepest, deepest_line


def _skip_json_string(text: str, i: int) -> int:
    end = i + 1
    while end < len(text):
        c = text[end]
        if c == "\\":
            end += 2
            continue
        if c == '"':
            return end + 1
        end += 1
    return end


def _check_brackets(text: str, skip: Callable[[str, int], int], quotes: str, comment: str | None) -> None:
    deepest, line = _deepest(text, skip, quotes, comment)
    if deepest > MAX_NESTING:
        raise NestingError(f"line {line}", f"arrays and tables nested at most {MAX_NESTING} deep",
                           "a nesting deeper than that")


def check_structure(data: Any) -> None:
    """Walk parsed data without recursion.

    Nesting at most ``MAX_NESTING`` deep, keys at most ``MAX_KEY_LENGTH`` characters.

    Raises:
        NestingError: The first breach, with the key path it was found at.
    """
    stack: list[tuple[Any, int, tuple[str, ...]]] = [(data, 0, ())]
    while stack:
        node, depth, path = stack.pop()
        if depth > MAX_NESTING:
            where = ".".join(p[:20] for p in path[:3]) + (" ..." if len(path) > 3 else "")
            raise NestingError(where or "(top)", f"tables and arrays nested at most {MAX_NESTING} deep",
                               f"a nesting deeper than that (a dotted key of more than {MAX_NESTING} parts?)")
        if isinstance(node, dict):
            for key, value in node.items():
                if len(key) > MAX_KEY_LENGTH:
                    where = ".".join(p[:20] for p in path[:3]) or "(top)"
                    raise NestingError(where, f"keys of at most {MAX_KEY_LENGTH} characters",
                                       f"a key of {len(key):,} characters ({key[:20]!r}...)")
                if isinstance(value, dict | list):
                    stack.append((value, depth + 1, (*path, key)))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, dict | list):
                    stack.append((value, depth + 1, (*path, f"#{i + 1}")))


def parse_toml(text: str) -> dict[str, Any]:
    """TOML text as tables, within the nesting and key bounds.

    Raises:
        NestingError: Nested too deep, or a key too long.
        tomli.TOMLDecodeError: Not TOML.
    """
    _check_brackets(text, _skip_toml_string, "\"'", "#")
    data = tomli.loads(text)
    check_structure(data)
    return data


def parse_json(text: str, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """JSON text as values, within the nesting and key bounds.

    Raises:
        NestingError: Nested too deep, or a key too long.
        json.JSONDecodeError: Not JSON.
    """
    _check_brackets(text, _skip_json_string, '"', None)
    data = json.loads(text, parse_constant=parse_constant)
    check_structure(data)
    return data
