"""Plain-text tables for the CLI: aligned columns, no colour, stable under any terminal width."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from components.anatomy import BodyStructure
from components.rules import LEVEL_CODES, ShockState
from sandbox.blows import Odds
from systems.hit_location import build_hit_table, location_probabilities


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = ()) -> str:
    """Format rows as an aligned text table; columns in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [[_cell(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align_right = set(right)
    lines = []
    for n, row in enumerate(cells):
        parts = [c.rjust(w) if i in align_right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths,
                                                                                              strict=True))]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def body_report(body: BodyStructure) -> str:
    """The ``sandbox body`` text: zones with numbers, parts, locations with unaimed hit odds."""
    out = [f"{body.name} (id {body.id}), scale {body.scale:g}, highest zone number {body.max_zone_number}"]
    if body.incorporeal:
        out.append("Incorporeal: no zone can be struck, so every blow misses.")
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
    out.append("\nprotection is natural blunt/edged/piercing/fire")
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
    out = [header, f"{n} blows: {odds.missed} missed ({100 * odds.missed / n:.2f}%), {landed} landed, "
                   f"{odds.dead} killed ({100 * odds.dead / n:.2f}%). Percentages are of all blows."]
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
