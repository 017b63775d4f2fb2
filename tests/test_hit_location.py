"""Tests of ``sandbox.systems.hit_location``: zone numbers, aiming, Spread, and where unaimed blows land.

Rules: anatomy-tables.md section 1 (human zone numbers 1 / 2-5 / 6-9 / 10-15; unaimed odds 1/15, 4/15, 4/15,
6/15; hit ZN = (target ZN - 1) + Spread roll; past the edge or in a zone with no hittable part is a miss),
section 6.2 (location weights) and decisions.md 000 #1 and #2.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from sandbox.components.body import BodyStructure
from sandbox.systems.hit_location import (
    MISS,
    build_hit_table,
    hit_zone_number,
    locate,
    location_probabilities,
    target_zone_number,
)


def zone_shares(body: BodyStructure, probs: list[float]) -> dict[str, float]:
    """Sum per-location probabilities per zone name."""
    shares = dict.fromkeys((z.name for z in body.zones), 0.0)
    for li, p in enumerate(probs):
        shares[body.zones[body.parts[body.locations[li].part].zone].name] += p
    return shares


def zone_name_of(body: BodyStructure, location: int) -> str:
    return body.zones[body.parts[body.locations[location].part].zone].name


# --------------------------------------------------------------------------------------------- zone numbers


def test_human_zone_numbers(human: BodyStructure) -> None:
    assert [(z.name, z.weight, z.first, z.last) for z in human.zones] == [
        ("Head", 1, 1, 1),
        ("Arms", 4, 2, 5),
        ("Torso", 4, 6, 9),
        ("Legs", 6, 10, 15),
    ]
    assert human.max_zone_number == 15
    assert build_hit_table(human).max_zone_number == 15


@pytest.mark.parametrize(
    ("zone_number", "zone"),
    [
        (1, "Head"),
        (2, "Arms"),
        (5, "Arms"),
        (6, "Torso"),
        (9, "Torso"),
        (10, "Legs"),
        (15, "Legs"),
        (0, None),
        (16, None),
        (-3, None),
    ],
)
def test_zone_of_number(human: BodyStructure, zone_number: int, zone: str | None) -> None:
    zi = human.zone_of_number(zone_number)
    assert (human.zones[zi].name if zi is not None else None) == zone


@pytest.mark.parametrize(
    ("part_name", "expected"),
    [("Head", 1), ("Right Arm", 2), ("Left Arm", 2), ("Torso", 6), ("Right Leg", 10), ("Left Leg", 10)],
)
def test_target_zone_number(human: BodyStructure, part_name: str, expected: int) -> None:
    assert target_zone_number(human, human.part_index(part_name)) == expected


# ------------------------------------------------------------------------------------------- unaimed odds


def test_unaimed_zone_odds_are_zone_number_counts(human: BodyStructure) -> None:
    probs, miss = location_probabilities(human, build_hit_table(human))
    assert miss == 0.0
    shares = zone_shares(human, probs)
    assert shares["Head"] == pytest.approx(1 / 15, abs=1e-12)
    assert shares["Arms"] == pytest.approx(4 / 15, abs=1e-12)
    assert shares["Torso"] == pytest.approx(4 / 15, abs=1e-12)
    assert shares["Legs"] == pytest.approx(6 / 15, abs=1e-12)
    assert sum(probs) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("location", "share_of_head"),
    [
        ("Skull", 0.5),
        ("Neck", 0.2),
        ("Left Eye", 0.015),
        ("Right Eye", 0.015),
        ("Left Ear", 0.015),
        ("Right Ear", 0.015),
        ("Nose", 0.03),
        ("Jaw", 0.06),
    ],
)
def test_head_location_shares(human: BodyStructure, location: str, share_of_head: float) -> None:
    probs, _ = location_probabilities(human, build_hit_table(human))
    head = zone_shares(human, probs)["Head"]
    assert probs[human.location_index(location)] / head == pytest.approx(share_of_head, abs=1e-12)


def test_right_forearm_unaimed_probability(human: BodyStructure) -> None:
    probs, _ = location_probabilities(human, build_hit_table(human))
    assert probs[human.location_index("Right Forearm")] == pytest.approx(4 / 15 * 1 / 2 * 20 / 100, abs=1e-12)


def test_every_unaimed_probability_is_zone_x_part_x_location_share(human: BodyStructure) -> None:
    probs, _ = location_probabilities(human, build_hit_table(human))
    for li, loc in enumerate(human.locations):
        part = human.parts[loc.part]
        zone = human.zones[part.zone]
        zone_share = Fraction(zone.weight, human.max_zone_number)
        part_share = Fraction(part.weight) / sum(Fraction(human.parts[p].weight) for p in zone.parts)
        loc_share = Fraction(loc.weight) / sum(Fraction(human.locations[i].weight) for i in part.locations)
        assert probs[li] == pytest.approx(float(zone_share * part_share * loc_share), abs=1e-12), loc.name


# --------------------------------------------------------------------------------------------- aimed blows


@pytest.mark.parametrize("zone_number", range(1, 16))
def test_spread_1_lands_in_the_zone_aimed_at(human: BodyStructure, zone_number: int) -> None:
    table = build_hit_table(human)
    expected_zone = human.zones[human.zone_of_number(zone_number)].name
    probs, miss = location_probabilities(human, table, aim=zone_number, spread=1)
    assert miss == 0.0
    assert zone_shares(human, probs)[expected_zone] == pytest.approx(1.0)
    rng = random.Random(zone_number)
    for _ in range(200):
        zn, li = locate(table, zone_number, 1, rng)
        assert zn == zone_number
        assert zone_name_of(human, li) == expected_zone


def test_spread_1_draws_no_zone_die(queued) -> None:
    rng = queued()
    assert hit_zone_number(7, 1, rng) == 7
    assert hit_zone_number(7, 0, rng) == 7  # a Spread below 1 is clamped up to 1
    assert rng.drawn == 0


@pytest.mark.parametrize(("roll", "zone_number"), [(1, 12), (4, 15), (5, 16), (6, 17)])
def test_hit_zone_number_walks_upward(queued, roll: int, zone_number: int) -> None:
    assert hit_zone_number(12, 6, queued(queued.die(roll, 6))) == zone_number


def test_spread_6_at_zone_number_12_misses_two_sixths(human: BodyStructure) -> None:
    # decisions.md 000 #1: rolls 5 and 6 give zone numbers 16 and 17 (a miss); a roll of 4 gives 15, the legs.
    probs, miss = location_probabilities(human, build_hit_table(human), aim=12, spread=6)
    assert miss == pytest.approx(2 / 6, abs=1e-12)
    shares = zone_shares(human, probs)
    assert shares["Legs"] == pytest.approx(4 / 6, abs=1e-12)
    assert shares["Head"] == shares["Arms"] == shares["Torso"] == 0.0


@pytest.mark.parametrize(("roll", "missed"), [(1, False), (4, False), (5, True), (6, True)])
def test_locate_spread_6_at_12_by_roll(human: BodyStructure, queued, roll: int, missed: bool) -> None:
    table = build_hit_table(human)
    rng = queued(queued.die(roll, 6), 0.5)
    zn, li = locate(table, 12, 6, rng)
    assert zn == 11 + roll
    if missed:
        assert li == MISS
        assert rng.drawn == 1  # no location draw after a miss
    else:
        assert zone_name_of(human, li) == "Legs"


def test_spread_6_at_zone_number_1_never_misses(human: BodyStructure) -> None:
    probs, miss = location_probabilities(human, build_hit_table(human), aim=1, spread=6)
    assert miss == 0.0
    shares = zone_shares(human, probs)
    assert shares["Head"] == pytest.approx(1 / 6, abs=1e-12)
    assert shares["Arms"] == pytest.approx(4 / 6, abs=1e-12)
    assert shares["Torso"] == pytest.approx(1 / 6, abs=1e-12)
    assert shares["Legs"] == 0.0
    table = build_hit_table(human)
    rng = random.Random(11)
    for _ in range(2000):
        zn, li = locate(table, 1, 6, rng)
        assert 1 <= zn <= 6
        assert li != MISS
        assert zone_name_of(human, li) in {"Head", "Arms", "Torso"}


def test_spread_8_aimed_at_legs_misses_seven_eighths_of_the_overshoot(human: BodyStructure) -> None:
    # aim at a leg (10) with Spread 8: 10..17, so 16 and 17 miss.
    _, miss = location_probabilities(human, build_hit_table(human), aim=10, spread=8)
    assert miss == pytest.approx(2 / 8, abs=1e-12)


# -------------------------------------------------------------------------------------------- statistics


def test_unaimed_frequencies_match_probabilities(human: BodyStructure) -> None:
    table = build_hit_table(human)
    probs, _ = location_probabilities(human, table)
    rng = random.Random(20240601)
    n = 200_000
    counts = Counter(locate(table, None, 6, rng)[1] for _ in range(n))
    assert MISS not in counts
    for li, p in enumerate(probs):
        assert abs(counts[li] / n - p) < 0.005, human.locations[li].name
    chi2 = sum((counts[li] - n * p) ** 2 / (n * p) for li, p in enumerate(probs))
    assert chi2 < 80  # 31 degrees of freedom: the 99.99th percentile is about 70


def test_aimed_frequencies_match_probabilities(human: BodyStructure) -> None:
    table = build_hit_table(human)
    probs, miss = location_probabilities(human, table, aim=12, spread=6)
    rng = random.Random(99)
    n = 60_000
    counts = Counter(locate(table, 12, 6, rng)[1] for _ in range(n))
    assert abs(counts[MISS] / n - miss) < 0.01
    for li, p in enumerate(probs):
        assert abs(counts[li] / n - p) < 0.005, human.locations[li].name


# ---------------------------------------------------------------------------------------- other bodies


def test_spirit_every_blow_misses(catalog, queued) -> None:
    spirit = catalog.bodies["spirit"]
    assert spirit.incorporeal
    assert spirit.max_zone_number == 0
    table = build_hit_table(spirit)
    rng = queued(0.5, 0.5, 0.5)
    assert locate(table, None, 6, rng) == (0, MISS)
    assert rng.drawn == 0
    _, li = locate(table, 1, 6, rng)
    assert li == MISS
    assert location_probabilities(spirit, table) == ([], 1.0)
    probs, miss = location_probabilities(spirit, table, aim=1, spread=6)
    assert probs == []
    assert miss == pytest.approx(1.0, abs=1e-12)


def test_wolf_zones(catalog) -> None:
    wolf = catalog.bodies["wolf"]
    assert [(z.name, z.first, z.last) for z in wolf.zones] == [
        ("Forequarters", 1, 2),
        ("Torso", 3, 4),
        ("Hindquarters", 5, 6),
    ]
    assert wolf.max_zone_number == 6
    table = build_hit_table(wolf)
    probs, miss = location_probabilities(wolf, table)
    assert miss == 0.0
    for share in zone_shares(wolf, probs).values():
        assert share == pytest.approx(1 / 3, abs=1e-12)
    # Head part 10 of 20 in Forequarters, Head location 3 of 5 in the part.
    assert probs[wolf.location_index("Head")] == pytest.approx(1 / 3 * 10 / 20 * 3 / 5, abs=1e-12)
    # the Tail (no roles) is hittable: 10 of 20 in Hindquarters
    assert probs[wolf.location_index("Tail")] == pytest.approx(1 / 3 * 10 / 20, abs=1e-12)


def test_small_creature_loses_more_of_the_spread(catalog) -> None:
    wolf = catalog.bodies["wolf"]
    table = build_hit_table(wolf)
    assert location_probabilities(wolf, table, aim=1, spread=6)[1] == 0.0
    assert location_probabilities(wolf, table, aim=3, spread=6)[1] == pytest.approx(2 / 6, abs=1e-12)
    assert location_probabilities(wolf, table, aim=5, spread=8)[1] == pytest.approx(6 / 8, abs=1e-12)


def test_dragon_zones(catalog) -> None:
    dragon = catalog.bodies["fire_dragon"]
    assert dragon.max_zone_number == 50
    assert [z.first for z in dragon.zones] == [1, 9, 17, 23, 31, 37, 45]
    assert target_zone_number(dragon, dragon.part_index("Tail")) == 45
    table = build_hit_table(dragon)
    _, miss = location_probabilities(dragon, table, aim=45, spread=8)
    assert miss == pytest.approx(2 / 8, abs=1e-12)
    probs, miss = location_probabilities(dragon, table)
    assert miss == 0.0
    assert zone_shares(dragon, probs)["Tail"] == pytest.approx(6 / 50, abs=1e-12)


def test_zone_with_weight_0_owns_no_numbers(make_body, body_loc) -> None:
    body = make_body(
        zones=[
            {"name": "Front", "weight": 2},
            {"name": "Hidden", "weight": 0},
            {"name": "Back", "weight": 3},
        ],
        parts=[
            {"name": "Fore", "zone": "Front", "weight": 1, "locations": [body_loc("A")]},
            {"name": "Secret", "zone": "Hidden", "weight": 1, "locations": [body_loc("H")]},
            {"name": "Aft", "zone": "Back", "weight": 1, "locations": [body_loc("B")]},
        ],
    )
    assert body.max_zone_number == 5
    assert [(z.first, z.last) for z in body.zones] == [(1, 2), (0, -1), (3, 5)]
    assert [body.zone_of_number(zn) for zn in range(0, 7)] == [None, 0, 0, 2, 2, 2, None]
    table = build_hit_table(body)
    hidden = body.location_index("H")
    probs, miss = location_probabilities(body, table)
    assert miss == 0.0
    assert probs[hidden] == 0.0
    assert probs[body.location_index("A")] == pytest.approx(2 / 5)
    assert probs[body.location_index("B")] == pytest.approx(3 / 5)
    for aim in range(1, 6):
        for spread in range(1, 9):
            assert location_probabilities(body, table, aim=aim, spread=spread)[0][hidden] == 0.0
    rng = random.Random(5)
    assert all(locate(table, None, 1, rng)[1] != hidden for _ in range(3000))


def test_zone_with_no_hittable_part(make_body, body_loc, queued) -> None:
    body = make_body(
        zones=[
            {"name": "Head", "weight": 1},
            {"name": "Ghost", "weight": 2},
            {"name": "Void", "weight": 1},
            {"name": "Legs", "weight": 3},
        ],
        parts=[
            {"name": "Head", "zone": "Head", "weight": 1, "locations": [body_loc("Skull")]},
            {"name": "Wisp", "zone": "Ghost", "weight": 0, "locations": [body_loc("Mist")]},
            {"name": "Legs", "zone": "Legs", "weight": 1, "locations": [body_loc("Shin")]},
        ],
    )
    assert body.max_zone_number == 7
    assert not body.incorporeal
    table = build_hit_table(body)
    # an aimed blow landing in a zone with no hittable part misses
    for aim in (2, 3, 4):
        assert locate(table, aim, 1, queued(0.5)) == (aim, MISS)
        probs, miss = location_probabilities(body, table, aim=aim, spread=1)
        assert miss == 1.0
        assert sum(probs) == 0.0
    assert locate(table, 1, 4, queued(queued.die(2, 4))) == (2, MISS)
    assert location_probabilities(body, table, aim=1, spread=4)[1] == pytest.approx(3 / 4)
    # unaimed draws exclude such zones: Head 1 of 4 numbers, Legs 3 of 4
    probs, miss = location_probabilities(body, table)
    assert miss == 0.0
    assert probs[body.location_index("Skull")] == pytest.approx(1 / 4)
    assert probs[body.location_index("Shin")] == pytest.approx(3 / 4)
    assert probs[body.location_index("Mist")] == 0.0
    rng = random.Random(3)
    counts = Counter(locate(table, None, 1, rng)[1] for _ in range(20_000))
    assert set(counts) == {body.location_index("Skull"), body.location_index("Shin")}
    assert abs(counts[body.location_index("Skull")] / 20_000 - 0.25) < 0.015


def test_a_part_in_a_zone_without_numbers_cannot_be_aimed_at(make_body, body_loc) -> None:
    body = make_body(
        zones=[{"name": "Head", "weight": 1}, {"name": "Hidden", "weight": 0}],
        parts=[
            {"name": "Head", "zone": "Head", "weight": 1, "locations": [body_loc("Skull")]},
            {"name": "Core", "zone": "Hidden", "weight": 1, "locations": [body_loc("Heart")]},
        ],
    )
    assert target_zone_number(body, 0) == 1
    with pytest.raises(ValueError, match="owns no zone numbers"):
        target_zone_number(body, 1)
