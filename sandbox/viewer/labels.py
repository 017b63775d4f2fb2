"""Placing text on the field so that no two labels overlap, none covers a name, and none is cut by the edge.

Requests are placed in priority order (names of the selected and hovered creature first, then the newest blow
labels, then the other names); each tries a ring of places around its creature, then the same places stacked
further out, and takes the first that lies wholly inside the field and meets nothing already placed. A request
with no such place is not drawn (the combat log lists every blow anyway). A grid of buckets keeps the overlap
test cheap with a thousand names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["BUCKET", "RINGS", "Box", "Request", "overlaps", "place"]

Box = tuple[int, int, int, int]
"""x, y, width, height in pixels."""

BUCKET = 64
"""Pixels per side of a bucket of the overlap grid."""
RINGS = 4
"""How many times further out a request tries its places before giving up."""


@dataclass(frozen=True, slots=True)
class Request:
    """A label to place.

    Attributes:
        key: What the label is (handed back with its place).
        anchor: The pixel it belongs to (its creature's centre).
        size: Its width and height in pixels.
        gap: Pixels to keep clear around the anchor (the creature's radius).
    """

    key: object
    anchor: tuple[int, int]
    size: tuple[int, int]
    gap: int = 6


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class _Grid:
    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _keys(self, box: Box) -> Iterable[tuple[int, int]]:
        x, y, w, h = box
        for cx in range(x // BUCKET, (x + w - 1) // BUCKET + 1):
            for cy in range(y // BUCKET, (y + h - 1) // BUCKET + 1):
                yield cx, cy

    def free(self, box: Box) -> bool:
        return not any(overlaps(box, other) for key in self._keys(box) for other in self.cells.get(key, ()))

    def add(self, box: Box) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)


def _candidates(request: Request) -> Iterable[tuple[int, int]]:
    (ax, ay), (w, h), g = request.anchor, request.size, request.gap
    for ring in range(RINGS):
        out = g + ring * (h + 2)
        yield from (
            (ax - w // 2, ay - out - h),  # above
            (ax + g, ay - out - h + h // 2),  # above right
            (ax + out, ay - h // 2),  # right
            (ax - w // 2, ay + out),  # below
            (ax - out - w, ay - h // 2),  # left
            (ax - w - g, ay - out - h + h // 2),  # above left
            (ax + g, ay + out - h // 2),  # below right
            (ax - w - g, ay + out - h // 2),  # below left
        )


def place(requests: Sequence[Request], bounds: Box, taken: Iterable[Box] = ()) -> list[tuple[Request, Box]]:
    """Place ``requests`` in their order inside ``bounds``, clear of ``taken`` and of one another.

    Returns the placed ones with their boxes (a request that finds no place is left out).
    """
    grid = _Grid()
    for box in taken:
        grid.add(box)
    bx, by, bw, bh = bounds
    placed: list[tuple[Request, Box]] = []
    for request in requests:
        w, h = request.size
        if w > bw or h > bh:
            continue
        for x, y in _candidates(request):
            box = (x, y, w, h)
            if x >= bx and y >= by and x + w <= bx + bw and y + h <= by + bh and grid.free(box):
                grid.add(box)
                placed.append((request, box))
                break
    return placed
