"""``ConfigError``: every problem in a set of config files, reported at once, and how a problem is spelt.

Light on purpose (the standard library only): the CLI imports it on every command, before it knows whether it will
load anything.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["SHOWN", "ConfigError", "Problem", "dotted", "escaped", "readable", "shorten", "suggest", "unknown"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
SHOWN = 80
"""The most characters of one value a message shows (a 5,000-character name is cut, with its length said)."""
# Longer than a cut value (``SHOWN`` characters with its "..."), so a message cut once is not cut again.
_LONG_QUOTED = re.compile(rf"'[^'\n]{{{SHOWN + 1},}}'|\"[^\"\n]{{{SHOWN + 1},}}\"")
_LONG_WORD = re.compile(rf"[^\s'\":]{{{2 * SHOWN + 1},}}")


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to about ``limit`` characters, saying how long it was (``'aaaa...' (5,000 characters)``)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit - 3]}... ({len(text):,} characters)"


def readable(message: str) -> str:
    """A message with every long value in it cut, so an error never echoes a value whole.

    A long value is a quoted value of more than ``SHOWN`` characters, or any run of more than ``2 x SHOWN`` characters
    without a space, such as a path. Every character a terminal would not show as itself is escaped too (``escaped``).
    """
    def cut(match: re.Match[str]) -> str:
        value = match.group(0)
        quote = value[0] if value[0] in "'\"" else ""
        inner = value[1:-1] if quote else value
        return f"{quote}{inner[:SHOWN - 3]}...{quote} ({len(inner):,} characters)"

    return escaped(_LONG_WORD.sub(cut, _LONG_QUOTED.sub(cut, message)))


def escaped(text: str) -> str:
    r"""``text`` with every character a terminal would not show as itself spelt as its escape.

    Such a character is a NUL, an escape, a bidirectional override such as U+202E (spelt ``\u202e``), so a message is
    printed as it reads.
    """
    if all(c.isprintable() or c in "\n\t" for c in text):
        return text
    return "".join(c if c.isprintable() or c in "\n\t" else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def dotted(*segments: str | int) -> str:
    """A key path as a designer reads it: TOML's dotted key, with list entries numbered from 1.

    A string that is not a bare TOML key is quoted as TOML quotes it (``weapons."broadsword.cut"``); an int is a
    0-based list index and is shown as ``#n``, counting from 1 (``parts#4.zone`` is the fourth ``[[parts]]``).

    Args:
        *segments: The path, outermost first.
    """
    out = ""
    for seg in segments:
        if isinstance(seg, int):
            out += f"#{seg + 1}"
            continue
        text = seg if _BARE_KEY.match(seg) else '"' + seg.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out += f".{text}" if out else text
    return out


def suggest(word: str, known: Iterable[str]) -> str | None:
    """The known name closest to a misspelt ``word`` (``'giant_spidr'`` -> ``'giant_spider'``), or ``None``.

    Case is ignored in the comparison; the known name is returned as it is spelt.
    """
    by_fold: dict[str, str] = {}
    for name in known:
        by_fold.setdefault(name.casefold(), name)
    close = difflib.get_close_matches(word.casefold(), list(by_fold), n=1, cutoff=0.7)
    return by_fold[close[0]] if close else None


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in one config file.

    Attributes:
        file: The file, as the user named it (or its path under its content folder).
        key: Dotted key of the offending value (``parts#3.locations#1.weight``, see ``dotted``); empty for the whole
            file, or ``line L, column C`` for a TOML syntax error.
        entry: Display name of the innermost named entry on the key's path ("Left Elbow"), if any.
        expected: What was expected.
        found: What was found.
        suggestion: The closest known id or key to an unknown one (``did you mean``), if any.
    """

    file: str
    key: str
    entry: str | None
    expected: str
    found: str
    suggestion: str | None = None

    def __str__(self) -> str:
        where = self.key or "(file)"
        entry = f' ("{self.entry}")' if self.entry else ""
        hint = f"; did you mean {self.suggestion!r}?" if self.suggestion else ""
        return readable(f"{self.file}: {where}{entry}: expected {self.expected}, found {self.found}{hint}")


def unknown(file: str, key: str, entry: str | None, expected: str, name: str, known: Sequence[str] | Iterable[str]
            ) -> Problem:
    """The problem of a name that is not one of ``known``, with the closest known one as its suggestion."""
    return Problem(file, key, entry, expected, repr(name), suggest(name, known))


class ConfigError(Exception):
    """One or more config files are invalid. ``problems`` lists every one; ``str()`` prints them a line each."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        count = len(self.problems)
        lines = [f"{count} problem{'s' if count != 1 else ''} in config files:"]
        lines += [f"  {p}" for p in self.problems]
        super().__init__("\n".join(lines))
