"""The body map the viewer's body panel and the lab's heat map share: a box per part and per location, from the
body data alone, for any anatomy."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings

from sandbox.bodymap import Rect, body_layout, location_layout
from sandbox.components.body import BodyStructure
from sandbox.config import default_catalog
from tests.configgen import BODY
from tests.strategies import GenSet, gen_set


def _inside(inner: Rect, outer: Rect) -> bool:
    eps = 1e-9
    return (inner[0] >= outer[0] - eps and inner[1] >= outer[1] - eps
            and inner[0] + inner[2] <= outer[0] + outer[2] + eps and inner[1] + inner[3] <= outer[1] + outer[3] + eps)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def check(body: BodyStructure) -> None:
    parts, locations = body_layout(body), location_layout(body)
    assert set(locations) == {li for p in body.parts for li in p.locations}  # every location, drawn once
    for li, box in locations.items():
        assert box[2] > 0 and box[3] > 0
        assert _inside(box, parts[body.locations[li].part])  # grouped in its part
        assert _inside(box, (0.0, 0.0, 1.0, 1.0))
    boxes = list(locations.values())
    assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_every_shipped_body_draws_every_location_inside_its_part() -> None:
    for body in default_catalog().bodies.values():
        check(body)
    assert len(location_layout(default_catalog().bodies["human"])) == 32


def hinted_human() -> tuple[BodyStructure, int, int]:
    """The human body with its Head's first two locations hinted into one row, swapped: (body, first, second)."""
    import dataclasses

    human = default_catalog().bodies["human"]
    head = human.parts[human.part_index("Head")]
    first, second = head.locations[0], head.locations[1]
    locations = list(human.locations)
    locations[first] = dataclasses.replace(locations[first], layout=(0.0, 1.0))
    locations[second] = dataclasses.replace(locations[second], layout=(0.0, 0.0))
    return dataclasses.replace(human, locations=tuple(locations)), first, second


def test_a_location_hint_places_it_in_its_part() -> None:
    hinted, first, second = hinted_human()
    boxes = location_layout(hinted)
    assert boxes[second][0] < boxes[first][0] and boxes[second][1] == boxes[first][1]  # side by side, as hinted
    check(hinted)


@settings(max_examples=60, deadline=None)
@given(gen=gen_set())
def test_every_generated_body_draws_every_location_inside_its_part(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, _ = gen.load(Path(tmp))
        check(catalog.bodies[BODY])
