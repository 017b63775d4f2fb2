"""Tests of the aftermath: ``Sandbox.advance`` (time jumps between due checks), the care policy (who treats and
stops bleeding, and when), re-test / course timing over game time, the blood-loss statistics of an untended
bleeder, save/load in the middle of an aftermath, the report and the ``run --aftermath`` command line.

Rules: anatomy-tables.md sections 4, 9 and 10; decisions.md 000 #6 and #9. Every creature is a shipped human
(Strength 50, Shock 50, Healing Base 10, Physician 30 unless set). Queued fake streams fail on any extra draw.
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

import sandbox.systems.models.anatomy.care as aftermath
from sandbox.account import aftermath_table
from sandbox.cli import app
from sandbox.components.care import CarePolicy
from sandbox.components.events import (
    BleedingStopped,
    BloodLost,
    CourseTested,
    Died,
    Event,
    HealthChanged,
    InjuryHealed,
    ShockRetested,
    Treated,
)
from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.readout import AftermathRow
from sandbox.components.rules import ShockState
from sandbox.components.state import Condition
from sandbox.systems.models.anatomy.care import tenders
from sandbox.systems.models.anatomy.damage import set_shock
from sandbox.systems.models.anatomy.model import AnatomyModel
from sandbox.systems.models.anatomy.state import anatomy_state
from sandbox.world import Sandbox

DAY = 86400.0
NONE, STUNNED, INCAP, UNCON = ShockState.NONE, ShockState.STUNNED, ShockState.INCAPACITATED, ShockState.UNCONSCIOUS
BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "aftermath.py"


def load_benchmark() -> ModuleType:
    """``benchmarks/aftermath.py`` as a module (it is not a package)."""
    spec = importlib.util.spec_from_file_location("aftermath_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wounded_world: Callable[..., Sandbox] = load_benchmark().wounded_world


def of(world: Sandbox, kind: type, events: list[Event] | None = None) -> list[Any]:
    return [e for e in (world.events if events is None else events) if isinstance(e, kind)]


def anatomy_of(world: Sandbox) -> AnatomyModel:
    model = world.damage_model
    assert isinstance(model, AnatomyModel)
    return model


def report(world: Sandbox, since: float) -> list[AftermathRow]:
    return world.aftermath_report(since)


def shock_to(world: Sandbox, entity: int, state: ShockState) -> None:
    c = world.creatures()[entity]
    set_shock(entity, anatomy_state(c).shock, c.condition, state, anatomy_of(world).rules, world.ctx)


def queue(world: Sandbox, stream: str, rng: Any) -> Any:
    world.ctx.streams[stream] = rng  # type: ignore[index]
    return rng


# ------------------------------------------------------------------------------------------ the clock


def test_advance_refuses_to_go_back() -> None:
    w = Sandbox(seed=1)
    with pytest.raises(ValueError):
        w.advance(-1)
    with pytest.raises(ValueError):
        w.advance(days=-0.5)
    assert w.ctx.clock.time == 0.0


def test_advance_moves_the_clock_by_exactly_the_span() -> None:
    w = wounded_world(10, seed=4)
    t0 = w.ctx.clock.time
    w.advance(seconds=5, minutes=2, hours=1, days=1)
    assert w.ctx.clock.time == t0 + 5 + 120 + 3600 + DAY
    t1 = w.ctx.clock.time
    start = len(w.events)
    events = w.advance(days=100)
    assert w.ctx.clock.time == t1 + 100 * DAY
    assert [e.to_dict() for e in events] == [e.to_dict() for e in w.events[start:]]
    assert events and all(t1 <= e.time <= t1 + 100 * DAY for e in events)
    assert [e.time for e in events] == sorted(e.time for e in events)
    w.advance(0)
    assert w.ctx.clock.time == t1 + 100 * DAY


RULES = ("retest", "bleed", "heal", "treat", "extended_shock_course", "coma_course")


@pytest.fixture
def rule_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float, int]]:
    """Every rule call ``advance`` makes: (rule, game time, entity)."""
    calls: list[tuple[str, float, int]] = []
    for name in RULES:
        original = getattr(aftermath, name)

        def wrapper(entity: int, *args: Any, _f: Callable[..., None] = original, _n: str = name) -> None:
            ctx = args[-1]
            calls.append((_n, ctx.clock.time, entity))
            _f(entity, *args)

        monkeypatch.setattr(aftermath, name, wrapper)
    return calls


def test_hundred_days_cost_far_fewer_rule_calls_than_ticks(rule_calls: list[tuple[str, float, int]]) -> None:
    w = wounded_world(20, seed=1)
    w.advance(days=100)
    ticks = 100 * DAY / w.ctx.clock.seconds_per_tick  # 864,000 ten-second turns
    counts = Counter(name for name, _, _ in rule_calls)
    assert counts["heal"] > 0 and counts["treat"] > 0
    assert sum(counts.values()) < ticks / 100
    assert w.tick == 0  # no combat tick ran


def test_each_wound_has_a_healing_test_every_five_days(rule_calls: list[tuple[str, float, int]], queued) -> None:
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    w.inflict(e, "Right Thigh", "S3", "blunt")
    w.get(e, Injury).wounds[0].healing_rate = 5  # treated already: no first aid
    rng = queue(w, "healing", queued.rolls(*[51] * 20))  # MF each time: nothing heals
    w.advance(days=100)
    assert rng.remaining == 0
    assert [(name, t) for name, t, _ in rule_calls] == [("heal", 5 * DAY * k) for k in range(1, 21)]
    assert w.get(e, Injury).wounds[0].level == 3


def test_healing_through_advance_raises_health_back(queued) -> None:
    """An S2 blunt thigh wound at HR 6 (ML 60): a CS at day 5 heals it; the leg and health recover."""
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    w.inflict(e, "Right Thigh", "S2", "blunt")
    wounds = w.get(e, Injury)
    wounds.wounds[0].healing_rate = 6
    assert wounds.health < 100
    before = wounds.health
    queue(w, "healing", queued.rolls(10))
    events = w.advance(days=6)
    assert [(ev.time, ev.level_code, ev.days) for ev in of(w, InjuryHealed, events)] == [(5 * DAY, "S2", 5.0)]
    assert [(ev.time, ev.before, ev.after) for ev in of(w, HealthChanged, events)] == [(5 * DAY, before, 100)]
    assert wounds.health == 100


# -------------------------------------------------------------------------------- bleeding over time


def lone_bleeder(seed: int, location: str = "Neck", level: str = "G4") -> tuple[Sandbox, int]:
    """A lone human (a team of its own, no healer, no self-care) with an edged bleeding wound, at time 0."""
    w = Sandbox(seed=seed)
    e = w.spawn("human", name="Victim")
    w.care = CarePolicy(self_care=False)
    w.inflict(e, location, level, "edged")
    w.get(e, Injury).wounds[0].bleeder = True
    return w, e


def test_untended_bleeder_tests_every_five_minutes(queued) -> None:
    w, _ = lone_bleeder(1)
    rng = queue(w, "bleeding", queued.rolls(*[50] * 6))  # CS each round: no blood lost
    w.advance(minutes=30)
    assert rng.remaining == 0
    assert [(ev.time, ev.test, ev.points) for ev in of(w, BloodLost)] == [(300.0 * k, "CS", 0) for k in range(1, 7)]
    assert of(w, Treated) == []


def bleeding_deaths(probabilities: Callable[[int], dict[str, float]], rounds: int) -> list[float]:
    """Exact chance of bleeding to death at each 5-minute round (1..rounds) of an untended wound, Strength 50.

    A Markov chain over (shock state, Blood Loss Points, locked in Extended Shock, rounds until an Unconscious
    re-test). Each round: the advance test at Strength 50 - 5 x BLP (CF +3, MF +2, MS +1, CS 0; every point one
    shock step; 4 steps from None kill). Between rounds the re-tests at Shock 50 - 20 - 5 x BLP: Stunned every 10 s
    (30 tries) until CS/MS clears it; Incapacitated once (CS clears, MS Stunned then 29 tries, MF/CF Extended
    Shock: locked, no more re-tests); Unconscious 10 minutes after it fell (just before the second round after).
    """
    points = {"CF": 3, "MF": 2, "MS": 1, "CS": 0}
    dist: dict[tuple[int, int, bool, int], float] = {(0, 0, False, 0): 1.0}
    deaths = []
    for _ in range(rounds):
        after: dict[tuple[int, int, bool, int], float] = defaultdict(float)
        died = 0.0
        for (state, blp, locked, wait), p in dist.items():
            for result, q in probabilities(50 - 5 * blp).items():
                new = state + points[result]
                if new >= 4:
                    died += p * q
                    continue
                lost = blp + points[result]
                wait_next = (2 if new != state else wait) if new == 3 else 0
                for key, r in between_rounds(probabilities, new, lost, locked, wait_next).items():
                    after[key] += p * q * r
        deaths.append(died)
        dist = after
    return deaths


def between_rounds(probabilities: Callable[[int], dict[str, float]], state: int, blp: int, locked: bool,
                   wait: int) -> dict[tuple[int, int, bool, int], float]:
    if locked or state == 0:
        return {(state, blp, locked, wait): 1.0}
    p = probabilities(30 - 5 * blp)
    clears = p["CS"] + p["MS"]
    if state == 1:
        return {(0, blp, False, 0): 1 - (1 - clears) ** 30, (1, blp, False, 0): (1 - clears) ** 30}
    if state == 2:
        stay = (1 - clears) ** 29
        return {(0, blp, False, 0): p["CS"] + p["MS"] * (1 - stay), (1, blp, False, 0): p["MS"] * stay,
                (2, blp, True, 0): p["MF"] + p["CF"]}
    if wait == 2:
        return {(3, blp, False, 1): 1.0}
    # The Unconscious re-test comes just before the round; a Stunned result then re-tests from the round on
    # (approximated here as a full set of 30 tries after the round's test).
    return {(0, blp, False, 0): p["CS"], (1, blp, False, 0): p["MS"], (3, blp, True, 0): p["MF"] + p["CF"]}


def d100_probabilities(ml: int) -> dict[str, float]:
    ml = min(max(ml, 5), 95)
    counts = Counter(("S" if roll <= ml else "F") + ("C" if roll % 5 == 0 else "M") for roll in range(1, 101))
    return {"CS": counts["SC"] / 100, "MS": counts["SM"] / 100, "MF": counts["FM"] / 100, "CF": counts["FC"] / 100}


def test_the_reference_chain_at_strength_50() -> None:
    """The per-round distribution at ML 50 is CF .10, MF .40, MS .40, CS .10; the chain's exact death odds."""
    assert d100_probabilities(50) == {"CS": 0.10, "MS": 0.40, "MF": 0.40, "CF": 0.10}
    cumulative = list(accumulate(bleeding_deaths(d100_probabilities, 6)))
    assert cumulative[0] == 0.0  # at most 3 BLP in one round: Unconscious, never dead
    assert cumulative[1] == pytest.approx(0.285, abs=0.002)
    assert cumulative[2] == pytest.approx(0.602, abs=0.002)
    assert cumulative[5] == pytest.approx(0.973, abs=0.002)


def accumulate(values: list[float]) -> list[float]:
    total, out = 0.0, []
    for v in values:
        total += v
        out.append(total)
    return out


def test_untended_neck_bleeder_usually_dies_in_10_to_15_minutes() -> None:
    """anatomy-tables.md 9: "An unchecked bleeder usually kills in 10-15 minutes."

    A lone human with a G4 edged Neck bleeder, untended, for 30 minutes, 200 seeds. Exact odds (the chain above):
    dead by 5 min 0 (one test gives at most 3 BLP), by 10 min 0.285, by 15 min 0.602, by 20 min 0.812, by 30 min
    0.973. The thresholds leave about three standard errors (0.035 for 200 runs) of room.
    """
    runs = 200
    died_at: list[float | None] = []
    for seed in range(runs):
        w, e = lone_bleeder(seed)
        events = w.advance(minutes=30)
        deaths = [ev for ev in of(w, Died, events) if ev.entity == e]
        assert all(ev.cause == "blood loss" for ev in deaths)
        died_at.append(deaths[0].time if deaths else None)
        w.close()
    share = [sum(1 for t in died_at if t is not None and t <= 300 * k) / runs for k in range(1, 7)]
    assert share[0] == 0.0  # nobody dies in the first 5 minutes
    assert share[2] > 0.5  # most are dead by 15 minutes
    assert share[1] < 0.5  # deaths by 10 minutes are a minority
    exact = accumulate(bleeding_deaths(d100_probabilities, 6))
    for observed, expected in zip(share, exact, strict=True):
        assert observed == pytest.approx(expected, abs=0.1)
    assert all(t is None or t % 300 == 0 for t in died_at)  # deaths fall on the 5-minute rounds


# --------------------------------------------------------------------------------- re-tests over time


def test_incapacitated_retests_after_one_turn_then_extended_shock_locks_it(queued) -> None:
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    w.ctx.clock.seconds = 1000.0
    shock_to(w, e, INCAP)
    shock_rng = queue(w, "shock", queued.rolls(31))  # MF: Extended Shock at HR 5; any second re-test would fail
    healing_rng = queue(w, "healing", queued.rolls(49))  # the course test at +4 h: MS, HR 6, leaves it
    w.advance(hours=4)
    assert [(ev.time, ev.test, ev.after) for ev in of(w, ShockRetested)] == [(1010.0, "MF", "incapacitated")]
    shock = w.get(e, Shock)
    assert shock.state is INCAP and w.get(e, Injury).extended_shock_hr == 5
    assert of(w, CourseTested) == []
    w.advance(minutes=1)
    assert [(ev.time, ev.course, ev.healing_rate) for ev in of(w, CourseTested)] == [
        (1010.0 + 4 * 3600, "extended shock", 6)]
    assert shock.state is NONE
    assert shock_rng.remaining == 0 and healing_rng.remaining == 0


def test_unconscious_retests_after_ten_minutes(queued) -> None:
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    shock_to(w, e, UNCON)
    queue(w, "shock", queued.rolls(30))  # CS: clears
    w.advance(seconds=599)
    assert of(w, ShockRetested) == []
    w.advance(seconds=1)
    assert [(ev.time, ev.test, ev.after) for ev in of(w, ShockRetested)] == [(600.0, "CS", "none")]
    assert w.get(e, Shock).state is NONE


def test_stunned_retests_every_turn_until_it_clears(queued) -> None:
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    shock_to(w, e, STUNNED)
    rng = queue(w, "shock", queued.rolls(31, 35, 29))
    w.advance(minutes=1)
    assert rng.remaining == 0
    assert [(ev.time, ev.test, ev.after) for ev in of(w, ShockRetested)] == [
        (10.0, "MF", "stunned"), (20.0, "CF", "stunned"), (30.0, "MS", "none")]


def test_a_due_retest_comes_before_a_bleeding_round_at_the_same_time(queued) -> None:
    """Unconscious from a CF round at 5 min (3 BLP); a CS round at 10 min; at 15 min the re-test (Shock
    50 - 20 - 15 = 15: 15 is a CS) clears it first, so that round's MS (+1) leaves it Stunned, not dead."""
    w, e = lone_bleeder(1)
    bleeding = queue(w, "bleeding", queued.rolls(55, 35, 34))
    shock = queue(w, "shock", queued.rolls(15))
    w.advance(seconds=900)
    assert bleeding.remaining == 0 and shock.remaining == 0
    at_900 = [type(ev).__name__ for ev in w.events if ev.time == 900.0 and isinstance(ev, ShockRetested | BloodLost)]
    assert at_900 == ["ShockRetested", "BloodLost"]
    assert w.get(e, Shock).state is STUNNED
    assert not w.get(e, Condition).dead


def test_no_retests_in_extended_shock_even_when_blood_loss_moves_the_state(queued) -> None:
    w, e = lone_bleeder(1)
    shock_to(w, e, INCAP)
    wounds = w.get(e, Injury)
    wounds.extended_shock_hr = 5
    wounds.next_course = 4 * 3600.0
    queue(w, "bleeding", queued.rolls(49, 45, 45, 45))  # +1 BLP (Unconscious), then CS rounds at ML 45
    queue(w, "shock", queued.rolls())  # any re-test fails the test
    w.advance(minutes=20)
    assert of(w, ShockRetested) == []
    assert w.get(e, Shock).state is UNCON
    assert not w.get(e, Condition).dead


def test_coma_through_advance(queued) -> None:
    """Unconscious from a skull S3 blow, CF re-test at 10 min: Coma HR 4; in 2 days a CS (ML 40) wakes it with
    2 days of weariness."""
    w = Sandbox(seed=1)
    e = w.spawn("human", name="Lone")
    wounds = w.get(e, Injury)
    wounds.shock_cause = (w.catalog.bodies["human"].location_index("Skull"), 3)
    shock_to(w, e, UNCON)
    queue(w, "shock", queued.rolls(35))
    rng = queue(w, "healing", queued(queued.die(2, 10), queued.d100(40)))
    w.advance(days=3)
    assert rng.remaining == 0
    assert [(ev.time, ev.course, ev.test, ev.healing_rate) for ev in of(w, CourseTested)] == [
        (600.0 + 2 * DAY, "coma", "CS", 6)]
    assert wounds.coma_hr is None and wounds.weariness == 2 and wounds.fatigue == 2
    assert w.get(e, Shock).state is NONE


# ---------------------------------------------------------------------------------------------- care


@pytest.fixture
def ward() -> Sandbox:
    """Pat (wounded), Medic (Physician 60), Surgeon (Physician 80, incapacitated) on team A; Enemy (95) on B."""
    w = Sandbox(seed=2)
    for name, team, physician in (("Pat", "A", 30), ("Medic", "A", 60), ("Surgeon", "A", 80), ("Enemy", "B", 95)):
        w.spawn("human", name=name, team=team, skills={"physician": physician})
    shock_to(w, w.entity("Surgeon"), INCAP)
    return w


def tender(w: Sandbox, policy: CarePolicy, patient: str = "Pat") -> tuple[str, int | None, bool] | None:
    found = tenders(w.creatures(), policy, "physician", w.ctx).tender_for(w.entity(patient))
    return None if found is None else (w.name_of(found.entity), found.skill, found.on_self)


def test_best_physician_of_the_team_able_to_act_tends(ward: Sandbox) -> None:
    assert tender(ward, CarePolicy()) == ("Medic", 60, False)
    ward.get(ward.entity("Surgeon"), Shock).state = STUNNED  # a stunned creature can act
    ward.refresh("Surgeon")
    assert tender(ward, CarePolicy()) == ("Surgeon", 80, False)


def test_healers_restrict_who_tends(ward: Sandbox) -> None:
    ward.get(ward.entity("Surgeon"), Shock).state = NONE
    ward.refresh("Surgeon")
    assert tender(ward, CarePolicy(healers=("Medic",))) == ("Medic", 60, False)
    assert tender(ward, CarePolicy(healers=("Enemy",))) == ("Pat", 30, True)  # not of Pat's team: self-care
    assert tender(ward, CarePolicy(healers=("Enemy",), self_care=False)) is None


def test_tender_fatigue_lowers_its_ml_and_the_dead_do_not_tend(ward: Sandbox) -> None:
    ward.get("Medic", Injury).fatigue = 10
    assert tender(ward, CarePolicy()) == ("Medic", 50, False)
    ward.get("Medic", Condition).dead = True
    assert tender(ward, CarePolicy()) == ("Pat", 30, True)
    ward.get(ward.entity("Pat"), Shock).state = INCAP  # cannot tend itself either
    ward.refresh("Pat")
    assert tender(ward, CarePolicy()) is None


def test_tender_physician_ml_includes_its_arm_impairment() -> None:
    """Physician names the manipulator role (configs/skills.toml; docs/rules.md): a Medic (60) with an S3 forearm
    (-10) tends at 50, so an unhurt Nurse (55) is the better healer; a healer with an unusable arm cannot succeed.

    (Was a bug of ``tender_for``, now ``sandbox.systems.care``: it read ``anat.mls[physician] - fatigue`` and ignored
    impairment, unlike ``effective_ml``: the impaired Medic was chosen at ML 60.)
    """
    w = Sandbox(seed=2)
    pat = w.spawn("human", name="Pat", team="A")
    w.spawn("human", name="Medic", team="A", skills={"physician": 60})
    w.spawn("human", name="Nurse", team="A", skills={"physician": 55})
    w.inflict(w.entity("Medic"), "Right Forearm", "S3", "blunt")
    assert tender(w, CarePolicy()) == ("Nurse", 55, False)
    assert tender(w, CarePolicy(healers=("Medic",))) == ("Medic", 50, False)
    w.inflict(pat, "Left Forearm", "G4", "blunt")  # its own arm unusable: no Physician test can succeed
    assert tender(w, CarePolicy(healers=("Nobody",))) == ("Pat", None, True)


def test_stoppage_is_a_test_of_the_stoppage_skill(queued) -> None:
    """``[aftercare] stoppage_skill`` names the skill of the Blood Stoppage Test. Set to Dexterity (50), the
    Medic's stoppage roll of 55 is a CF (at Physician 60 it would be a CS that stops the bleeding at once).

    (Was a bug of the old ``advance``): the stoppage ML is the tender's ``treatment_skill``
    ML; ``AftercareRules.stoppage_skill`` is loaded but never read.
    """
    w = Sandbox(seed=2)
    rules = anatomy_of(w).rules
    assert rules.aftercare is not None
    anatomy_of(w).rules = replace(rules, aftercare=replace(rules.aftercare, stoppage_skill="dexterity"))
    pat = w.spawn("human", name="Pat", team="A")
    w.spawn("human", name="Medic", team="A", skills={"physician": 60})
    w.inflict(pat, "Neck", "S3", "edged")
    w.get(pat, Injury).wounds[0].bleeder = True
    rng = queue(w, "bleeding", queued.rolls(55, 50))  # stoppage CF at Dexterity 50, then the advance test (CS)
    w.advance(minutes=5)
    assert of(w, BleedingStopped) == []
    assert rng.remaining == 0


def test_first_aid_by_the_medic_names_the_patient(ward: Sandbox, queued) -> None:
    """Two blunt M1 wounds (CMP +30): Medic ML 90. 88 is an MS (HR 6) only at >= 88, 92 an MF (HR 5) only at
    <= 91: any other tender (Pat 50, Surgeon or Enemy 95) gives another pair."""
    pat = ward.entity("Pat")
    ward.inflict(pat, "Right Thigh", "M1", "blunt")
    ward.inflict(pat, "Left Thigh", "M1", "blunt")
    rng = queue(ward, "healing", queued.rolls(88, 92))
    ward.advance(minutes=11)
    assert rng.remaining == 0
    assert [(ev.time, ev.entity, ev.location, ev.healing_rate) for ev in of(ward, Treated)] == [
        (600.0, pat, "Right Thigh", 6), (600.0, pat, "Left Thigh", 5)]


def test_no_healer_and_no_self_care_treats_nothing() -> None:
    w = Sandbox(seed=2)
    e = w.spawn("human", name="Lone")
    w.care = CarePolicy(self_care=False)
    w.inflict(e, "Right Thigh", "S3", "edged")
    w.advance(days=1)
    assert of(w, Treated) == []
    assert w.get(e, Injury).wounds[0].healing_rate is None


def test_self_care_treats_at_minus_10(queued) -> None:
    """Alone, Physician 30, blunt M1 (CMP +30) on itself: ML 50; 53 is an MF (HR 5), an MS at 60."""
    w = Sandbox(seed=2)
    e = w.spawn("human", name="Lone")
    w.inflict(e, "Right Thigh", "M1", "blunt")
    queue(w, "healing", queued.rolls(53))
    w.advance(minutes=10)
    assert [(ev.entity, ev.test, ev.healing_rate) for ev in of(w, Treated)] == [(e, "MF", 5)]


@pytest.mark.parametrize(("delay", "expected"), [(None, 600.0), (120.0, 120.0), (0.0, 0.0)])
def test_first_aid_comes_the_delay_after_the_advance_starts(delay: float | None, expected: float) -> None:
    w = Sandbox(seed=2)
    e = w.spawn("human", name="Lone")
    w.inflict(e, "Right Thigh", "S3", "blunt")
    w.ctx.clock.seconds = 1000.0
    w.care = CarePolicy(first_aid_delay=delay)
    w.advance(hours=1)
    assert [ev.time for ev in of(w, Treated)] == [1000.0 + expected]


def test_healer_stops_the_bleeding_before_the_advance_test(queued) -> None:
    """The Medic's stoppage at 5 min: 60 is a CS at Physician 60: it stops at once, no advance test."""
    w = Sandbox(seed=2)
    pat = w.spawn("human", name="Pat", team="A")
    medic = w.spawn("human", name="Medic", team="A", skills={"physician": 60})
    w.inflict(pat, "Neck", "S3", "edged")
    w.get(pat, Injury).wounds[0].bleeder = True
    rng = queue(w, "bleeding", queued.rolls(60))
    w.advance(hours=1)
    assert rng.remaining == 0
    assert [(ev.time, ev.entity, ev.test) for ev in of(w, BleedingStopped)] == [(300.0, pat, "CS")]
    assert of(w, BloodLost) == []
    assert w.get(medic, Injury).tending_until == 600.0


def test_self_stoppage_is_at_minus_10(queued) -> None:
    """Alone, Physician 52: its own stoppage is at 42; 43 is an MF (+10 next time), the advance test then a CS."""
    w = Sandbox(seed=2)
    e = w.spawn("human", name="Lone", skills={"physician": 52})
    w.inflict(e, "Neck", "S3", "edged")
    injury = w.get(e, Injury).wounds[0]
    injury.bleeder = True
    queue(w, "bleeding", queued.rolls(43, 50))
    w.advance(minutes=5)
    assert of(w, BleedingStopped) == []
    assert injury.bleeder and injury.stoppage_bonus == 10


def test_a_tender_makes_one_stoppage_test_per_round(queued) -> None:
    """Two patients bleed in the same round: the Medic tries only the first; the second counts as a CF."""
    w = Sandbox(seed=2)
    first = w.spawn("human", name="P1", team="A")
    second = w.spawn("human", name="P2", team="A")
    w.spawn("human", name="Medic", team="A", skills={"physician": 60})
    for e in (first, second):
        w.inflict(e, "Neck", "S3", "edged")
        w.get(e, Injury).wounds[0].bleeder = True
    rng = queue(w, "bleeding", queued.rolls(61, 50, 50))  # P1: stoppage MF, advance CS; P2: advance CS only
    w.advance(minutes=5)
    assert rng.remaining == 0
    assert w.get(first, Injury).wounds[0].stoppage_bonus == 10
    assert w.get(second, Injury).wounds[0].stoppage_bonus == 0
    assert [(ev.entity, ev.test) for ev in of(w, BloodLost)] == [(first, "CS"), (second, "CS")]


# ---------------------------------------------------------------------------------- save, load, report


def event_dicts(world: Sandbox) -> list[dict[str, Any]]:
    return [e.to_dict() for e in world.events]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("k", [0.0, 300.0, 610.0, 900.0, 3 * DAY, 37.5 * DAY])
def test_save_and_load_mid_aftermath_continues_identically(tmp_path: Path, seed: int, k: float) -> None:
    total = 100 * DAY
    whole = wounded_world(20, seed)
    whole.advance(days=100)
    expected = event_dicts(whole)

    split = wounded_world(20, seed)
    split.advance(seconds=k)
    path = tmp_path / "aftermath.json"
    split.save(path)
    loaded = Sandbox.load(path)
    loaded.advance(seconds=total - k)
    assert loaded.ctx.clock.time == whole.ctx.clock.time
    assert event_dicts(loaded) == expected
    assert report(loaded, 0.0) == report(whole, 0.0)

    split.advance(seconds=total - k)  # and the same world, split without a save
    assert event_dicts(split) == expected


def test_report_fates(queued) -> None:
    """A bled-out neck wound, a thigh wound healed at day 5, and an unhurt bystander."""
    w, victim = lone_bleeder(7)
    mended = w.spawn("human", name="Mended")
    w.inflict(mended, "Right Thigh", "M1", "blunt")
    w.get(mended, Injury).wounds[0].healing_rate = 6
    w.spawn("human", name="Bystander")
    queue(w, "healing", queued.rolls(10))
    w.advance(days=10)
    died = [ev for ev in of(w, Died) if ev.entity == victim]
    assert len(died) == 1
    rows = {row.name: row for row in report(w, 0.0)}
    assert not rows["Victim"].alive and rows["Victim"].cause == "blood loss"
    assert rows["Victim"].died_day == pytest.approx(died[0].time / DAY)
    assert rows["Victim"].health == 0
    assert rows["Mended"].alive and rows["Mended"].healed_day == 5.0 and rows["Mended"].open_wounds == 0
    assert rows["Bystander"].healed_day == 0.0 and rows["Bystander"].health == 100
    table = aftermath_table(w, 0.0)
    assert "died of blood loss" in table and "all healed by day 5" in table and "unhurt" in table


def test_cli_run_with_aftermath_prints_a_fate_per_creature() -> None:
    result = CliRunner().invoke(app, ["run", "wolf_pack", "--seed", "3", "-q", "--aftermath", "100"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Aftermath: 100 days" in out
    table = out.split("Aftermath", 1)[1]
    world = Sandbox.from_scenario("wolf_pack", seed=3)
    names = sorted(world.names.values())
    assert names
    for name in names:
        lines = [line for line in table.splitlines() if line.startswith(name + " ")]
        assert len(lines) == 1, name
        assert "survived" in lines[0] or "died of " in lines[0]
    world.close()


def test_aftermath_benchmark_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark()
    monkeypatch.setattr(sys, "argv", ["aftermath.py", "--creatures", "100"])
    bench.main()
    out = capsys.readouterr().out
    assert "100-day aftermath for 100 wounded creatures" in out
    fates = out.split("fates:", 1)[1]
    assert sum(int(n) for n in re.findall(r" (\d+)(?:,|$)", fates.strip())) == 100


def test_hundred_creatures_hundred_days_all_accounted_for() -> None:
    w = wounded_world(100, seed=1)
    w.advance(days=100)
    rows = report(w, 0.0)
    assert len(rows) == 100
    for row in rows:
        if row.alive:
            assert row.cause == "" and row.died_day is None and row.health >= 1
        else:
            assert row.cause and row.died_day is not None and 0 <= row.died_day <= 100 and row.health == 0
    assert any(not r.alive for r in rows) and any(r.alive and r.healed_day is not None for r in rows)
    assert math.isclose(w.ctx.clock.time, 100 * DAY)
