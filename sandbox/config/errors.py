"""``ConfigError``: every problem in a set of config files, reported at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in one config file.

    Attributes:
        file: The file, as the user named it (or its path under ``configs/``).
        key: Dotted key of the offending value (``parts.2.locations.0.weight``); empty for the whole file.
        entry: Display name of the innermost named entry on the key's path ("Left Elbow"), if any.
        expected: What was expected.
        found: What was found.
    """

    file: str
    key: str
    entry: str | None
    expected: str
    found: str

    def __str__(self) -> str:
        where = self.key or "(file)"
        entry = f' ("{self.entry}")' if self.entry else ""
        return f"{self.file}: {where}{entry}: expected {self.expected}, found {self.found}"


class ConfigError(Exception):
    """One or more config files are invalid. ``problems`` lists every one; ``str()`` prints them a line each."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        count = len(self.problems)
        lines = [f"{count} problem{'s' if count != 1 else ''} in config files:"]
        lines += [f"  {p}" for p in self.problems]
        super().__init__("\n".join(lines))
