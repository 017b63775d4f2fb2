"""The CLI's tables, drawn with rich.

They fit the terminal's width (cells wrap, never the whole line), and are plain text (no colour, no box characters) when
the output is not a terminal, so files, pipes and CI logs read cleanly.

The width: the terminal's when the output is one; else ``COLUMNS`` when it is set (the README's samples are made
at ``COLUMNS=100``); else unbounded, one line per row, for scripts.
"""

from __future__ import annotations

import io
import os
import sys
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from rich import box
from rich.console import Console
from rich.table import Table

from sandbox.blows import Odds
from sandbox.components.body import BodyStructure
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.systems.hit_location import build_hit_table, location_probabilities

__all__ = ["MAX_WORD", "PLAIN", "UNBOUNDED", "body_json", "body_report", "drawn_for_a_file", "odds_report",
           "output_width", "render", "table", "wrapped"]

PLAIN = box.Box("    \n    \n -  \n    \n    \n    \n    \n    \n")
"""A table with no box: columns apart by spaces, a row of dashes under the header (what a non-terminal gets)."""
UNBOUNDED = 100_000
MAX_WORD = 24
"""A word longer than this may be folded across lines (a column keeps at least this many characters for it)."""


_FILE_OUTPUT: ContextVar[bool] = ContextVar("file_output", default=False)


@contextmanager
def drawn_for_a_file() -> Iterator[None]:
    """Inside this block tables and prose are drawn for a file (the lab's report).

    Plain and unbounded, whatever the terminal or ``COLUMNS`` say.
    """
    token = _FILE_OUTPUT.set(True)
    try:
        yield
    finally:
        _FILE_OUTPUT.reset(token)


def output_width() -> tuple[int, bool]:
    """The width to draw in, and whether the output is a terminal."""
    if _FILE_OUTPUT.get():
        return UNBOUNDED, False
    terminal = sys.stdout.isatty()
    if terminal:
        return os.get_terminal_size(sys.stdout.fileno()).columns, True
    columns = os.environ.get("COLUMNS", "")
    return (int(columns) if columns.isdigit() and int(columns) > 0 else UNBOUNDED), False


def render(*renderables: object, width: int | None = None) -> str:
    """``renderables`` (rich tables, text) as the string the CLI prints, at the output's width."""
    columns, terminal = output_width()
    out = io.StringIO()
    console = Console(file=out, width=width or columns, force_terminal=terminal, color_system="auto" if terminal
                      else None, highlight=False, markup=False, emoji=False, soft_wrap=False)
    for r in renderables:
        console.print(r)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").split("\n"))


def wrapped(line: str, indent: int = 0) -> str:
    """``line`` wrapped between words at the output's width.

    Each following line is indented by ``indent`` spaces; the line is unchanged when the width is unbounded.
    """
    width, _ = output_width()
    if len(line) <= width:
        return line
    return textwrap.fill(line, width, subsequent_indent=" " * indent, break_on_hyphens=False)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = (),
          wrap: Iterable[int] | None = None) -> str:
    """Rows as a table that fits the output's width.

    A long cell wraps within its column, between words: a column is kept as wide as its longest word (so
    ``incapacitated`` stays whole), and the first column, which names the row, does not wrap, as long as the
    width allows; past that, words fold.

    Args:
        headers: The column headers.
        rows: The rows, a value per column.
        right: The columns to right-align.
        wrap: The columns that give way first when the width is short (the others keep their width while those
            can); default: every column but the first.
    """
    width, terminal = output_width()
    grid = Table(box=box.SIMPLE_HEAD if terminal else PLAIN, show_edge=False, pad_edge=False,
                 header_style="bold" if terminal else None, padding=(0, 1, 0, 0))
    cells = [[_cell(c) for c in row] for row in rows]
    columns = [[str(h), *(row[i] for row in cells)] for i, h in enumerate(headers)]
    longest_word = [min(max((len(w) for text in col for w in text.split()), default=1), MAX_WORD) for col in columns]
    longest_cell = [max(len(text) for text in col[1:]) if col[1:] else 0 for col in columns]
    # Whole words need every column as wide as its longest word (the first column: its longest name).
    whole_words = bool(headers) and sum([longest_cell[0], *longest_word[1:]]) + len(headers) <= width
    may_wrap = set(range(1, len(headers)) if wrap is None else wrap)
    # The columns that need not wrap keep their width while the ones that may wrap still have their words.
    keep = whole_words and sum(longest_word[i] if i in may_wrap else max(longest_cell[i], longest_word[i])
                               for i in range(len(headers))) + len(headers) <= width
    align_right = set(right)
    for i, h in enumerate(headers):
        grid.add_column(str(h), justify="right" if i in align_right else "left", overflow="fold",
                        no_wrap=(whole_words and i == 0) or (keep and i not in may_wrap),
                        min_width=longest_word[i] if whole_words else None)
    for row in cells:
        grid.add_row(*row)
    return render(grid)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def body_report(body: BodyStructure) -> str:
    """The ``sandbox body`` text: zones with numbers, parts, locations with unaimed hit odds."""
    out = [wrapped(f"{body.name} (id {body.id}), scale {body.scale:g}, highest zone number {body.max_zone_number}")]
    if body.incorporeal:
        out.append(wrapped("Incorporeal: no zone can be struck, so every blow misses."))
        return "\n".join(out)
    out.append("")
    out.append(table(["zone", "weight", "zone numbers"],
                     [(z.name, z.weight, f"{z.first}-{z.last}" if z.weight else "none") for z in body.zones], [1]))
    out.append("")
    out.append(table(
        ["part", "zone", "weight", "roles", "can hold", "critical", "side"],
        [(p.name, body.zones[p.zone].name, f"{p.weight:g}", ", ".join(sorted(p.roles)) or "-", p.can_hold,
          p.critical, p.side) for p in body.parts], [2]))
    probs, _ = location_probabilities(body, build_hit_table(body))
    out.append("")
    out.append(table(
        ["location", "part", "weight", "shock", "bleeding", "amputability", "fumble", "stumble", "protection",
         "unaimed hit %"],
        [(loc.name, body.parts[loc.part].name, f"{loc.weight:g}", loc.shock_value, loc.bleeding, loc.amputability,
          loc.fumble, loc.stumble, "/".join(str(v) for v in loc.protection), f"{100 * p:.2f}")
         for loc, p in zip(body.locations, probs, strict=True)], [2, 3, 9]))
    out.append("\n" + wrapped("protection is natural blunt/edged/piercing/fire"))
    return "\n".join(out)


def body_json(body: BodyStructure) -> dict[str, object]:
    """The ``sandbox body --json`` document."""
    probs, _ = location_probabilities(body, build_hit_table(body))
    return {
        "name": body.name,
        "scale": body.scale,
        "max_zone_number": body.max_zone_number,
        "zones": [{"name": z.name, "weight": z.weight, "first": z.first, "last": z.last} for z in body.zones],
        "parts": [{"name": p.name, "zone": body.zones[p.zone].name, "weight": p.weight, "roles": sorted(p.roles),
                   "can_hold": p.can_hold, "critical": p.critical} for p in body.parts],
        "locations": [{"name": loc.name, "part": body.parts[loc.part].name, "weight": loc.weight,
                       "shock_value": loc.shock_value, "bleeding": loc.bleeding, "amputability": loc.amputability,
                       "fumble": loc.fumble, "stumble": loc.stumble, "hit_probability": p}
                      for loc, p in zip(body.locations, probs, strict=True)],
    }


def _section(title: str, counts: Iterable[tuple[str, int]], total: int) -> str:
    rows = [(k, v, f"{100 * v / total:.2f}%") for k, v in counts] if total else []
    return f"{title}\n" + table([title.split(" ")[0].lower(), "count", "percent"], rows, [1, 2])


def odds_report(odds: Odds, header: str) -> str:
    """The ``sandbox blows --format table`` text."""
    n = odds.n
    landed = n - odds.missed
    out = [wrapped(header), wrapped(f"{n} blows: {odds.missed} missed ({100 * odds.missed / n:.2f}%), {landed} "
                                    f"landed, {odds.dead} killed ({100 * odds.dead / n:.2f}%). Percentages are of "
                                    "all blows.")]
    if landed:
        out.append("")
        out.append(_section("Location", odds.location.most_common(), n))
        out.append("")
        out.append(_section("Level", [(c, odds.level[c]) for c in LEVEL_CODES if odds.level[c]], n))
        out.append("")
        out.append(_section("Outcome", [("glancing", odds.glancing), ("bleeder", odds.bleeder)], n))
        out.append("")
        out.append(_section("Amputation", [(k, odds.amputation[k]) for k in ("none", "kept", "severed")
                                           if odds.amputation[k]], n))
        out.append("")
        out.append(_section("Shock state", [(s.label, odds.shock[s.label]) for s in ShockState
                                            if odds.shock[s.label]], n))
        out.append("")
        out.append(_section("Mishap (fumble)", sorted(odds.fumble.items()), n))
        out.append("")
        out.append(_section("Mishap (stumble)", sorted(odds.stumble.items()), n))
    return "\n".join(out)
