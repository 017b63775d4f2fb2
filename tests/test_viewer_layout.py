"""The body panel's drawing of a body (``sandbox.bodymap.figure_layout``): every location of any body, in its part,
named where there is room, the parts where ``body_layout`` puts them."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings

from sandbox.bodymap import Rect, body_layout, figure_layout
from sandbox.components.body import BodyStructure
from sandbox.config import default_catalog
from tests.configgen import BODY
from tests.strategies import GenSet, gen_set
from tests.test_bodymap import _inside, hinted_human


def _overlap(a: Rect, b: Rect) -> bool:
    eps = 1e-9
    return a[0] < b[0] + b[2] - eps and b[0] < a[0] + a[2] - eps and a[1] < b[1] + b[3] - eps and \
        b[1] < a[1] + a[3] - eps


def check(body: BodyStructure, aspect: float = 1.0) -> tuple[dict[int, Rect], dict[int, Rect]]:
    parts, locations = figure_layout(body, aspect=aspect)
    assert sorted(parts) == sorted(body_layout(body))
    assert set(locations) == {li for p in body.parts for li in p.locations}  # every location, once
    for li, box in locations.items():
        assert box[2] > 0 and box[3] > 0
        assert _inside(box, parts[body.locations[li].part]), body.locations[li].name
        assert _inside(box, (0.0, 0.0, 1.0, 1.0))
    for boxes in (list(parts.values()), list(locations.values())):
        assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    return parts, locations


def test_every_shipped_body_lays_out_every_location_in_its_part() -> None:
    for body in default_catalog().bodies.values():
        for aspect in (0.6, 1.0, 2.5):
            check(body, aspect)


def test_parts_keep_their_places_and_a_row_is_as_tall_as_its_parts_need() -> None:
    human = default_catalog().bodies["human"]
    parts, locations = check(human)
    plain = body_layout(human)
    for a in range(len(human.parts)):
        for b in range(len(human.parts)):  # the same left-to-right and top-to-bottom order as body_layout
            assert (parts[a][0] < parts[b][0]) == (plain[a][0] < plain[b][0] - 1e-9)
            assert (parts[a][1] < parts[b][1] - 1e-9) == (plain[a][1] < plain[b][1] - 1e-9)
    head, torso = parts[human.part_index("Head")], parts[human.part_index("Torso")]
    assert head[3] > torso[3]  # eleven locations (eight rows) against three
    skull, shoulder = locations[human.location_index("Skull")], locations[human.location_index("Right Shoulder")]
    assert skull[3] == pytest.approx(shoulder[3], rel=0.01)  # the parts that set their row's height: one row height
    thorax = locations[human.location_index("Thorax")]
    assert thorax[3] > shoulder[3]  # the torso's three locations share the five rows its row has
    captioned, boxes = figure_layout(human, caption=0.05)
    for pi, part in enumerate(human.parts):
        first = min(boxes[li][1] for li in part.locations)
        assert first >= captioned[pi][1] + 0.05 - 1e-9  # the part's name has its strip


def test_right_and_left_pairs_share_a_row_the_right_first() -> None:
    human = default_catalog().bodies["human"]
    _, locations = check(human)
    for right, left in (("Right Eye", "Left Eye"), ("Right Cheek", "Left Cheek"), ("Right Ear", "Left Ear")):
        r, left_box = locations[human.location_index(right)], locations[human.location_index(left)]
        assert r[1] == left_box[1] and r[0] < left_box[0], right
    skull, nose = locations[human.location_index("Skull")], locations[human.location_index("Nose")]
    eye = locations[human.location_index("Right Eye")]
    assert skull[1] < eye[1] < nose[1] and skull[2] > eye[2]  # the body file's order; a lone location spans


def test_a_wide_part_puts_its_locations_side_by_side() -> None:
    snake = default_catalog().bodies["constrictor_snake"]
    _, locations = check(snake, aspect=2.0)
    head, neck = locations[snake.location_index("Head")], locations[snake.location_index("Neck")]
    assert head[1] == neck[1] and head[0] < neck[0]


def test_a_location_hint_places_it() -> None:
    hinted, first, second = hinted_human()
    head = hinted.parts[hinted.part_index("Head")]
    _, boxes = check(hinted)
    assert boxes[second][0] < boxes[first][0] and boxes[second][1] == boxes[first][1]
    others = [boxes[li] for li in head.locations[2:]]
    assert all(box[1] > boxes[first][1] for box in others)  # the unhinted follow below the hinted


@settings(max_examples=40, deadline=None)
@given(gen=gen_set())
def test_every_generated_body_lays_out_every_location_in_its_part(gen: GenSet) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog, _ = gen.load(Path(tmp))
        check(catalog.bodies[BODY])
