"""Property tests over random wound sets on the human body: impairment and Health invariants.

Rules: anatomy-tables.md sections 8.1 and 8.2 and decisions.md 000 #8 and #11. Health is 1..100 while alive
and 0 only when dead; a part's impairment is never better than its permanent floor; wounds never make a part
better; and the ceiling is the minimum over (critical?, tier) buckets of the documented tables.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.models.anatomy import Injury, Wound
from sandbox.config import default_catalog
from sandbox.systems.models.anatomy.health import band, health, health_ceiling
from sandbox.systems.models.anatomy.impairment import Impairment, body_impairments, tier
from sandbox.systems.models.anatomy.impairment import test_penalty as role_penalty

CATALOG = default_catalog()
RULES = CATALOG.rules
HUMAN = CATALOG.bodies["human"]
N_LOC = len(HUMAN.locations)
N_PART = len(HUMAN.parts)

LIMB_TABLE = {
    "minor": (80, 50, 30),
    "serious": (50, 20, 20),
    "grievous": (30, 10, 10),
    "unusable": (20, 10, 10),
}
CRITICAL_TABLE = {"minor": (50, 25), "serious": (20, 10), "grievous": (10, 10), "unusable": (0, 0)}

single_wounds = st.builds(
    Wound,
    location=st.integers(0, N_LOC - 1),
    level=st.integers(0, 5),
    aspect=st.integers(0, 3),
    healing_rate=st.one_of(st.none(), st.integers(0, 6)),
)
permanents = st.dictionaries(
    st.integers(0, N_PART - 1), st.sampled_from([0, -5, -10, -15, -20, -25]), max_size=3
)
wound_sets = st.builds(
    Injury,
    wounds=st.lists(single_wounds, max_size=8),
    severed=st.sets(st.integers(0, N_LOC - 1), max_size=1),
    unusable_parts=st.sets(st.integers(0, N_PART - 1), max_size=1),
    permanent_impairment=permanents,
)


def copy_with(wounds: Injury, extra: Wound) -> Injury:
    return Injury(
        [*wounds.wounds, extra],
        set(wounds.severed),
        set(wounds.unusable_parts),
        dict(wounds.permanent_impairment),
    )


def oracle_ceiling(imps: tuple[Impairment, ...]) -> int:
    """The ceiling straight from the document tables (anatomy-tables.md 8.2)."""
    buckets: Counter[tuple[bool, str]] = Counter()
    for part, imp in zip(HUMAN.parts, imps, strict=True):
        if imp.unusable:
            state = "unusable"
        elif imp.penalty >= 0:
            continue
        elif imp.penalty >= -5:
            state = "minor"
        elif imp.penalty >= -10:
            state = "serious"
        else:
            state = "grievous"
        buckets[(part.critical, state)] += 1
    ceiling = 100
    for (critical, state), count in buckets.items():
        column = (CRITICAL_TABLE if critical else LIMB_TABLE)[state]
        ceiling = min(ceiling, column[min(count, len(column)) - 1])
    return ceiling


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets, alive=st.booleans())
def test_health_is_1_to_100_while_alive_and_0_when_dead(wounds: Injury, alive: bool) -> None:
    ceiling = health_ceiling(HUMAN, body_impairments(HUMAN, wounds, RULES), RULES)
    assert 0 <= ceiling <= 100
    pct = health(ceiling, alive, RULES)
    if alive:
        assert 1 <= pct <= 100
        assert band(pct, RULES) != "Dead"
    else:
        assert pct == 0
        assert band(pct, RULES) == "Dead"


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets)
def test_ceiling_matches_the_document_tables(wounds: Injury) -> None:
    imps = body_impairments(HUMAN, wounds, RULES)
    assert health_ceiling(HUMAN, imps, RULES) == oracle_ceiling(imps)


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets)
def test_impairment_never_better_than_the_permanent_floor(wounds: Injury) -> None:
    imps = body_impairments(HUMAN, wounds, RULES)
    for pi, imp in enumerate(imps):
        floor = min(0, wounds.permanent_impairment.get(pi, 0), HUMAN.parts[pi].permanent_impairment)
        assert imp.penalty <= floor
        assert imp.penalty in (0, -5, -10, -15, -20, -25)
        open_levels = [
            i.level for i in wounds.wounds if i.level > 0 and HUMAN.locations[i.location].part == pi
        ]
        severed = any(HUMAN.locations[li].part == pi for li in wounds.severed)
        must_be_unusable = severed or pi in wounds.unusable_parts or any(lv >= 4 for lv in open_levels)
        assert imp.unusable is must_be_unusable
        if not imp.unusable and any(lv in (2, 3) for lv in open_levels):
            assert imp.penalty <= -10
        if not imp.unusable and imp.penalty < floor:
            assert open_levels  # anything worse than the floor comes from a wound


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets, roles=st.sets(st.sampled_from(["vital", "core", "manipulator", "locomotor"])))
def test_test_penalty_is_worst_of_role_parts(wounds: Injury, roles: set[str]) -> None:
    imps = body_impairments(HUMAN, wounds, RULES)
    penalty = role_penalty(HUMAN, imps, roles)
    involved = [imp for part, imp in zip(HUMAN.parts, imps, strict=True) if part.roles & roles]
    if any(imp.unusable for imp in involved):
        assert penalty is None
    else:
        assert penalty == min([0, *(imp.penalty for imp in involved)])


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets, extra=single_wounds)
def test_a_wound_never_makes_a_part_better(wounds: Injury, extra: Wound) -> None:
    before = body_impairments(HUMAN, wounds, RULES)
    after = body_impairments(HUMAN, copy_with(wounds, extra), RULES)
    for b, a in zip(before, after, strict=True):
        assert a.unusable or not b.unusable
        assert a.unusable or a.penalty <= b.penalty


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets, extra=single_wounds)
def test_a_wound_on_a_sound_part_never_raises_the_ceiling(wounds: Injury, extra: Wound) -> None:
    before = body_impairments(HUMAN, wounds, RULES)
    if before[HUMAN.locations[extra.location].part].impaired:
        extra = Wound(extra.location, 0, extra.aspect)  # keep the example: a healed wound changes nothing
    after = body_impairments(HUMAN, copy_with(wounds, extra), RULES)
    assert health_ceiling(HUMAN, after, RULES) <= health_ceiling(HUMAN, before, RULES)


@settings(max_examples=200, deadline=None)
@given(wounds=wound_sets, extra=single_wounds)
def test_a_wound_that_keeps_every_tier_keeps_the_ceiling(wounds: Injury, extra: Wound) -> None:
    before = body_impairments(HUMAN, wounds, RULES)
    after = body_impairments(HUMAN, copy_with(wounds, extra), RULES)
    if [tier(i, RULES) for i in before] == [tier(i, RULES) for i in after]:
        assert health_ceiling(HUMAN, after, RULES) == health_ceiling(HUMAN, before, RULES)
