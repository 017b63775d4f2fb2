"""Body drawings from body data: a rectangle per part, for any anatomy, with no per-creature drawing code.

Shared by the viewer's body panel and the lab's hit-location heat map (the lab draws no window, so this lives
outside ``sandbox/viewer/``).

Each part goes in a grid cell: its ``layout`` hint ``(row, column)`` when the body file gives one; otherwise its
zone's row (in definition order, after any hinted rows), parts ordered right side first (as a figure facing the
viewer), then central, then left, and centred in the row.
"""

from __future__ import annotations

from components.anatomy import BodyStructure

Rect = tuple[float, float, float, float]


def body_layout(body: BodyStructure, gap: float = 0.06) -> dict[int, Rect]:
    """Part index -> (x, y, width, height) in the unit square."""
    cells: dict[int, tuple[float, float]] = {}
    hinted_rows = [p.layout[0] for p in body.parts if p.layout is not None]
    first_free = (max(hinted_rows) + 1) if hinted_rows else 0
    side_order = {"right": 0, "center": 1, "left": 2}
    rows: dict[float, list[int]] = {}
    zone_rows: dict[int, float] = {}
    for pi, part in enumerate(body.parts):
        if part.layout is not None:
            cells[pi] = part.layout
        else:
            row = zone_rows.setdefault(part.zone, first_free + len(zone_rows))
            rows.setdefault(row, []).append(pi)
    widest = max([len(v) for v in rows.values()] + [int(max((c for _, c in cells.values()), default=-1)) + 1, 1])
    for row, parts in rows.items():
        parts.sort(key=lambda p: (side_order.get(body.parts[p].side, 1), p))
        offset = (widest - len(parts)) / 2
        for k, pi in enumerate(parts):
            cells[pi] = (row, offset + k)
    if not cells:
        return {}
    n_rows = max(r for r, _ in cells.values()) + 1
    n_cols = max(max(c for _, c in cells.values()) + 1, float(widest))
    w, h = 1.0 / n_cols, 1.0 / n_rows
    return {pi: (c * w + gap * w / 2, r * h + gap * h / 2, w * (1 - gap), h * (1 - gap))
            for pi, (r, c) in cells.items()}
