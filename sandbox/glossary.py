"""The rules' codes in words: the one-line key that ends an account, and ``--plain``, which spells every code out.

The words are the rules' own (``sandbox.components.rules.LEVEL_WORDS`` and ``TEST_WORDS``), the same the attack records'
explanations (and so the viewer) use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sandbox.components.rules import LEVEL_CODES, LEVEL_WORDS, TEST_WORDS

__all__ = ["BLEEDING_MARK", "CODES", "codes_in", "key_line", "spell_out"]

CODES: dict[str, str] = {
    **{code: f"{LEVEL_WORDS[level]}, level {level}" for level, code in enumerate(LEVEL_CODES) if level},
    **TEST_WORDS,
    "HR": "Healing Rate",
}
"""Every code an account may print, in words (``S3``: ``serious wound, level 3``; ``MF``: ``marginal failure``)."""

_CODE = re.compile(r"(?<![\w-])(" + "|".join(sorted(CODES, key=len, reverse=True)) + r")(?![\w-])")
_LEVEL_ASPECT = re.compile(r"(?<![\w-])(" + "|".join(LEVEL_CODES[1:]) + r") (blunt|edged|piercing|fire)\b")
BLEEDING_MARK = "*"


def codes_in(lines: Iterable[str]) -> list[str]:
    """The codes used in ``lines``, in the order the key lists them (levels, tests, then the rest)."""
    found = {m.group(1) for line in lines for m in _CODE.finditer(line)}
    return [code for code in CODES if code in found]


def key_line(codes: Iterable[str]) -> str:
    """``Key: S2 serious wound, level 2; MF marginal failure`` (empty when there is nothing to explain)."""
    entries = [f"{code} {CODES[code]}" for code in codes]
    return "Key: " + "; ".join(entries) if entries else ""


def _level_and_aspect(match: re.Match[str]) -> str:
    level = LEVEL_CODES.index(match.group(1))
    severity = LEVEL_WORDS[level].removesuffix(" wound")
    return f"{severity} {match.group(2)} wound, level {level}"


def spell_out(text: str) -> str:
    """``text`` with every code in words.

    For example ``S3 edged``: ``serious edged wound, level 3``; ``shock 6 MF -> stunned``:
    ``shock 6 marginal failure -> stunned``; ``HR 5``: ``Healing Rate 5``.
    """
    return _CODE.sub(lambda m: CODES[m.group(1)], _LEVEL_ASPECT.sub(_level_and_aspect, text))
