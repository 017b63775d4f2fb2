"""Tests of ``sandbox.systems.models.anatomy.aftercare``: bleeding and blood loss, blood stoppage, shock re-tests,
Extended Shock, Coma, treatment, healing, infection and permanent impairment, one rule function at a time.

Rules: anatomy-tables.md section 4 (shock re-test at -20, Extended Shock, Coma), 8.1 (permanent impairment),
9 (bleeding), 10 (healing, treatment, infection); decisions.md 000 #6 (Stunned re-tests), #9 (5-minute rounds).
d100 tests: roll <= ML succeeds, a roll divisible by 5 is critical (so at ML 50: 50 CS, 49 MS, 51 MF, 55 CF).

Every creature here is a shipped human: Strength 10 (ML 50), Endurance 10, Will 10 (Healing Base 10), Shock 50.
The streams a rule draws from are replaced by queued fakes, which also fail the test on any extra draw.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from sandbox.components.events import (
    BleederOpened,
    BleedingStopped,
    BloodLost,
    CourseTested,
    Died,
    HealthChanged,
    ImpairmentChanged,
    Infected,
    InjuryHealed,
    ShockChanged,
    ShockRetested,
    Treated,
)
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.rules import AnatomyRules, ShockState, TestResult
from sandbox.components.state import Anatomy, Condition, Equipment
from sandbox.systems.context import TickContext
from sandbox.systems.models.anatomy.aftercare import (
    BleedingProcessor,
    begin_coma,
    bleed,
    blood_loss_steps,
    coma_course,
    coma_hr,
    extended_shock_course,
    heal,
    heal_wound,
    healing_base,
    infection_fatigue,
    refresh_fatigue,
    retest,
    stoppage,
    treat,
)
from sandbox.systems.models.anatomy.damage import set_shock
from sandbox.systems.models.anatomy.model import AnatomyModel
from sandbox.systems.models.anatomy.state import anatomy_state
from sandbox.world import Sandbox

DAY = 86400.0
CS, MS, MF, CF = TestResult.CS, TestResult.MS, TestResult.MF, TestResult.CF
NONE, STUNNED, INCAP, UNCON, DEAD = (
    ShockState.NONE,
    ShockState.STUNNED,
    ShockState.INCAPACITATED,
    ShockState.UNCONSCIOUS,
    ShockState.DEAD,
)
NOW = 1000.0
"""Game time the rule calls are made at (so that due times are visibly relative to now)."""


@dataclass
class Patient:
    """One human in a fresh world, with its components at hand for calling the rule functions directly."""

    world: Sandbox
    entity: int
    anat: Anatomy
    wounds: Injury
    shock: Shock
    cond: Condition
    equip: Equipment

    @property
    def ctx(self) -> TickContext:
        return self.world.ctx

    @property
    def rules(self) -> AnatomyRules:
        model = self.world.damage_model
        assert isinstance(model, AnatomyModel)
        return model.rules

    def set_rules(self, rules: AnatomyRules) -> None:
        model = self.world.damage_model
        assert isinstance(model, AnatomyModel)
        model.rules = rules

    def wound(self, location: str = "Neck", level: int | str = "G4", aspect: str = "edged", *,
              bleeder: bool = False) -> int:
        """Inflict a wound (no rolls) and return its index; a bleeder's first round is due now."""
        self.world.inflict(self.entity, location, level, aspect)
        index = len(self.wounds.wounds) - 1
        if bleeder:
            self.wounds.wounds[index].bleeder = True
            self.wounds.wounds[index].next_bleed = self.ctx.clock.time
        return index

    def events(self, kind: type) -> list[Any]:
        return [e for e in self.world.events if isinstance(e, kind)]

    def queue(self, stream: str, rng: Any) -> Any:
        self.ctx.streams[stream] = rng  # type: ignore[index]
        return rng

    def bleed(self, index: int = 0, tender_ml: int | None = None) -> None:
        bleed(self.entity, self.anat, self.wounds, self.shock, self.cond, index, tender_ml, self.rules, self.ctx)

    def retest(self) -> None:
        retest(self.entity, self.anat, self.wounds, self.shock, self.cond, self.rules, self.ctx)

    def set_shock(self, state: ShockState) -> None:
        set_shock(self.entity, self.shock, self.cond, state, self.rules, self.ctx)

    def location(self, name: str) -> int:
        return self.anat.body.location_index(name)


def make_patient(seed: int = 1, **spawn: Any) -> Patient:
    world = Sandbox(seed=seed)
    entity = world.spawn("human", name="Patient", **spawn)
    c = world.creatures()[entity]
    injury, shock = anatomy_state(c)
    world.ctx.clock.seconds = NOW
    return Patient(world, entity, c.anatomy, injury, shock, c.condition, c.equipment)


@pytest.fixture
def patient() -> Iterator[Patient]:
    p = make_patient()
    yield p
    p.world.close()


def roll_for(result: TestResult, ml: int) -> int:
    """A d100 roll giving ``result`` against ``ml`` (5..95; not itself a multiple of 5), at the edge for MS/MF."""
    assert ml % 5 and 5 < ml < 95
    return {CS: ml - ml % 5, MS: ml, MF: ml + 1, CF: ml - ml % 5 + 5}[result]


# ---------------------------------------------------------------------------------------- small functions


@pytest.mark.parametrize(("end", "wil", "base"), [(11, 10, 11), (10, 11, 10), (10, 10, 10), (13, 10, 12),
                                                  (10, 13, 11), (12, 9, 11), (9, 12, 10)])
def test_healing_base_rounds_up_only_when_endurance_is_higher(end: int, wil: int, base: int) -> None:
    p = make_patient(attributes={"endurance": end, "will": wil})
    assert healing_base(p.anat) == base


@pytest.mark.parametrize(("hr", "fatigue"), [(1, 10), (2, 10), (3, 5), (4, 5), (5, 0), (6, 0)])
def test_infection_weakness_fatigue_by_healing_rate(rules, hr: int, fatigue: int) -> None:
    assert infection_fatigue(hr, rules.aftercare) == fatigue


def test_refresh_fatigue_adds_anemia_infections_and_weariness(rules) -> None:
    wounds = Injury(wounds=[Wound(0, 2, 1, 3, infection_hr=2), Wound(1, 2, 1, 3, infection_hr=4),
                              Wound(2, 2, 1, 3)], blood_loss=2, weariness=3)
    wounds.profile = "compiled"
    refresh_fatigue(wounds, rules.aftercare)
    assert wounds.fatigue == 2 * 5 + 10 + 5 + 3
    assert wounds.profile is None  # test MLs changed: the compiled target is dropped
    wounds.profile = "compiled"
    refresh_fatigue(wounds, rules.aftercare)
    assert wounds.profile == "compiled"  # nothing changed: the cache stays


@pytest.mark.parametrize(("shock_value", "level", "hr"), [(5, 3, 4), (1, 3, 8), (5, 4, 3), (4, 5, 3), (1, 1, 10)])
def test_coma_healing_rate_is_12_minus_shock_value_minus_level(rules, shock_value: int, level: int, hr: int) -> None:
    assert coma_hr(shock_value, level, rules.aftercare) == hr


def test_shipped_shock_values_of_the_worked_coma_examples(human) -> None:
    """Skull S3 -> Coma HR 4 and calf S3 -> 8 need the shipped Shock Values 5 and 1."""
    assert human.locations[human.location_index("Skull")].shock_value == 5
    assert human.locations[human.location_index("Right Calf")].shock_value == 1


@pytest.mark.parametrize(("state", "points", "after"), [
    (NONE, 0, NONE), (NONE, 1, STUNNED), (NONE, 2, INCAP), (NONE, 3, UNCON), (NONE, 4, DEAD),
    (INCAP, 1, UNCON), (INCAP, 2, DEAD), (INCAP, 3, DEAD), (STUNNED, 3, DEAD), (STUNNED, 2, UNCON),
    (UNCON, 1, DEAD), (UNCON, 0, UNCON),
])
def test_each_blood_loss_point_is_one_shock_step(state: ShockState, points: int, after: ShockState) -> None:
    assert blood_loss_steps(state, points) is after


# --------------------------------------------------------------------------------------- blood loss


@pytest.mark.parametrize(("roll", "result", "points", "state"), [
    (50, CS, 0, NONE), (45, CS, 0, NONE), (49, MS, 1, STUNNED), (51, MF, 2, INCAP), (55, CF, 3, UNCON),
])
def test_blood_loss_advance_test_points(patient: Patient, queued, roll: int, result: TestResult, points: int,
                                        state: ShockState) -> None:
    """Strength test (ML 50): CF +3 BLP, MF +2, MS +1, CS 0; each point one shock step from None."""
    index = patient.wound(bleeder=True)
    rng = patient.queue("bleeding", queued.rolls(roll))
    patient.bleed(index)
    assert rng.remaining == 0  # no tender: no stoppage roll, just the advance test
    lost = patient.events(BloodLost)
    assert [(e.entity, e.location, e.test, e.points, e.total, e.time) for e in lost] == [
        (patient.entity, "Neck", result.name, points, points, NOW)]
    assert patient.wounds.blood_loss == points
    assert patient.wounds.fatigue == 5 * points  # anemia: 5 weakness fatigue per point
    assert patient.shock.state is state
    injury = patient.wounds.wounds[index]
    assert injury.bleeder and injury.next_bleed == NOW + 300  # next round in 5 minutes
    changes = patient.events(ShockChanged)
    assert [(e.before, e.after) for e in changes] == ([] if state is NONE else [("none", state.label)])


@pytest.mark.parametrize(("roll", "state", "dead"), [(49, UNCON, False), (51, DEAD, True), (50, INCAP, False)])
def test_incapacitated_creature_one_point_unconscious_two_dead(patient: Patient, queued, roll: int,
                                                                state: ShockState, dead: bool) -> None:
    """The rules' worked case: Incapacitated + 1 BLP -> Unconscious; + 2 BLP -> dead."""
    index = patient.wound(bleeder=True)
    patient.set_shock(INCAP)
    patient.queue("bleeding", queued.rolls(roll))
    patient.bleed(index)
    assert patient.shock.state is state
    assert patient.cond.dead is dead
    died = patient.events(Died)
    assert [(e.entity, e.cause) for e in died] == ([(patient.entity, "blood loss")] if dead else [])


def test_anemia_lowers_the_strength_ml_of_later_advance_tests(queued) -> None:
    """44 succeeds against Strength 50 but fails against 50 - 2 x 5 = 40 (two Blood Loss Points)."""
    fresh = make_patient()
    fresh.queue("bleeding", queued.rolls(44))
    fresh.bleed(fresh.wound(bleeder=True))
    assert [e.test for e in fresh.events(BloodLost)] == ["MS"]

    p = make_patient()
    index = p.wound(bleeder=True)
    p.queue("bleeding", queued.rolls(51, 44))
    p.bleed(index)  # MF: 2 BLP, fatigue 10
    assert p.wounds.fatigue == 10
    p.ctx.clock.seconds = p.wounds.wounds[index].next_bleed
    p.bleed(index)
    assert [(e.test, e.points, e.total) for e in p.events(BloodLost)] == [("MF", 2, 2), ("MF", 2, 4)]
    assert p.wounds.fatigue == 20
    assert p.cond.dead  # None + 2 + 2 steps


def test_one_point_of_anemia_costs_five_ml(queued) -> None:
    """47 is an MS at ML 50 and an MF at ML 45."""
    p = make_patient()
    index = p.wound(bleeder=True)
    p.wounds.blood_loss = 1
    refresh_fatigue(p.wounds, p.rules.aftercare)
    p.queue("bleeding", queued.rolls(47))
    p.bleed(index)
    assert [e.test for e in p.events(BloodLost)] == ["MF"]


# ---------------------------------------------------------------------------------------- stoppage


def test_no_tender_counts_as_a_failed_stoppage_without_a_roll(rules, queued) -> None:
    injury = Wound(0, 4, 1, bleeder=True, stoppage_bonus=10)
    rng = queued.rolls()
    assert stoppage(injury, None, lambda ml: TestResult.CS, rules.aftercare) is CF
    assert stoppage(injury, 50, None, rules.aftercare) is CF
    assert injury.bleeder and not injury.stop_after_advance
    assert rng.remaining == 0


def test_stoppage_cf_keeps_bleeding(patient: Patient, queued) -> None:
    index = patient.wound(bleeder=True)
    rng = patient.queue("bleeding", queued.rolls(55, 49))  # stoppage CF at ML 50, then the advance test MS
    patient.bleed(index, tender_ml=50)
    assert rng.remaining == 0
    injury = patient.wounds.wounds[index]
    assert injury.bleeder and injury.stoppage_bonus == 0 and not injury.stop_after_advance
    assert [(e.test, e.points) for e in patient.events(BloodLost)] == [("MS", 1)]
    assert patient.events(BleedingStopped) == []
    assert injury.next_bleed == NOW + 300


def test_stoppage_mf_keeps_bleeding_and_gives_10_to_the_next_try(patient: Patient, queued) -> None:
    index = patient.wound(bleeder=True)
    patient.queue("bleeding", queued.rolls(51, 50, 58, 50))
    patient.bleed(index, tender_ml=50)  # stoppage MF, advance CS
    injury = patient.wounds.wounds[index]
    assert injury.bleeder and injury.stoppage_bonus == 10
    assert patient.events(BleedingStopped) == []
    patient.ctx.clock.seconds = injury.next_bleed
    patient.bleed(index, tender_ml=50)  # 58 succeeds only at 50 + 10: MS, then the advance test, then it stops
    assert injury.stoppage_bonus == 0
    assert not injury.bleeder and injury.next_bleed == -1.0
    assert [(e.test, e.time) for e in patient.events(BleedingStopped)] == [("MS", NOW + 300)]
    assert len(patient.events(BloodLost)) == 2


def test_stoppage_bonus_is_spent_by_the_next_try(patient: Patient, queued) -> None:
    """The +10 applies once: after an MF then a CF, a third try is back at the tender's ML."""
    index = patient.wound(bleeder=True)
    patient.queue("bleeding", queued.rolls(51, 50, 65, 50, 58, 50))
    patient.bleed(index, tender_ml=50)  # MF: +10 next
    patient.bleed(index, tender_ml=50)  # 65 vs 60: CF; the bonus is spent
    assert patient.wounds.wounds[index].stoppage_bonus == 0
    patient.bleed(index, tender_ml=50)  # 58 vs 50: MF, still bleeding
    assert patient.wounds.wounds[index].bleeder
    assert patient.events(BleedingStopped) == []


def test_stoppage_ms_stops_after_that_rounds_advance_test(patient: Patient, queued) -> None:
    """The stoppage comes first (49: MS at Physician 50), then the advance test (55: CF, +3), then it stops."""
    index = patient.wound(bleeder=True)
    rng = patient.queue("bleeding", queued.rolls(49, 55))
    patient.bleed(index, tender_ml=50)
    assert rng.remaining == 0
    injury = patient.wounds.wounds[index]
    assert not injury.bleeder and not injury.stop_after_advance and injury.next_bleed == -1.0
    assert patient.wounds.blood_loss == 3
    assert patient.shock.state is UNCON
    kinds = [type(e).__name__ for e in patient.world.events if isinstance(e, BloodLost | BleedingStopped)]
    assert kinds == ["BloodLost", "BleedingStopped"]
    assert [e.test for e in patient.events(BleedingStopped)] == ["MS"]
    assert "bleeding: Neck" not in patient.world.readout(patient.entity).conditions


def test_stoppage_cs_stops_at_once_with_no_advance_test(patient: Patient, queued) -> None:
    index = patient.wound(bleeder=True)
    rng = patient.queue("bleeding", queued.rolls(50))  # one roll only: a second draw would fail the test
    patient.bleed(index, tender_ml=50)
    assert rng.remaining == 0
    injury = patient.wounds.wounds[index]
    assert not injury.bleeder and injury.next_bleed == -1.0
    assert patient.events(BloodLost) == []
    assert [(e.location, e.test) for e in patient.events(BleedingStopped)] == [("Neck", "CS")]
    assert patient.wounds.blood_loss == 0 and patient.shock.state is NONE


# ------------------------------------------------------------------------------------- shock re-tests


@pytest.mark.parametrize(("state", "delay"), [(STUNNED, 10.0), (INCAP, 10.0), (UNCON, 600.0)])
def test_retest_due_end_of_next_turn_or_after_ten_minutes(patient: Patient, state: ShockState,
                                                          delay: float) -> None:
    patient.set_shock(state)
    assert patient.shock.retest_at == NOW + delay


@pytest.mark.parametrize(("roll", "after", "again"), [(30, NONE, False), (29, NONE, False), (31, STUNNED, True),
                                                      (35, STUNNED, True)])
def test_stunned_retest(patient: Patient, queued, roll: int, after: ShockState, again: bool) -> None:
    """Shock 50 - 20 = ML 30: CS or MS clear the stun; MF or CF leave it Stunned, re-testing next turn."""
    patient.set_shock(STUNNED)
    patient.queue("shock", queued.rolls(roll))
    patient.retest()
    assert patient.shock.state is after
    assert patient.shock.retest_at == (NOW + 10 if again else -1.0)
    assert patient.wounds.extended_shock_hr is None and patient.wounds.coma_hr is None
    retested = patient.events(ShockRetested)
    assert [(e.entity, e.before, e.after) for e in retested] == [(patient.entity, "stunned", after.label)]


@pytest.mark.parametrize("before", [INCAP, UNCON])
@pytest.mark.parametrize(("roll", "after", "retest_at", "es_hr"), [
    (30, NONE, -1.0, None), (29, STUNNED, NOW + 10, None), (31, None, -1.0, 5),
])
def test_incapacitated_and_unconscious_retest(patient: Patient, queued, before: ShockState, roll: int,
                                              after: ShockState | None, retest_at: float, es_hr: int | None) -> None:
    """CS clears all shock, MS leaves it Stunned, MF starts Extended Shock at HR 5 (it stays in its state)."""
    patient.set_shock(before)
    patient.queue("shock", queued.rolls(roll))
    patient.retest()
    expected = before if after is None else after
    assert patient.shock.state is expected
    assert patient.shock.retest_at == retest_at
    assert patient.wounds.extended_shock_hr == es_hr
    assert patient.wounds.next_course == (NOW + 4 * 3600 if es_hr else -1.0)
    assert patient.wounds.coma_hr is None
    assert [(e.test, e.before, e.after) for e in patient.events(ShockRetested)] == [
        ({30: "CS", 29: "MS", 31: "MF"}[roll], before.label, expected.label)]


def test_incapacitated_retest_cf_is_extended_shock_at_hr_4(patient: Patient, queued) -> None:
    patient.set_shock(INCAP)
    patient.queue("shock", queued.rolls(35))
    patient.retest()
    assert patient.shock.state is INCAP
    assert patient.wounds.extended_shock_hr == 4
    assert patient.wounds.next_course == NOW + 4 * 3600
    assert patient.wounds.coma_hr is None


def test_unconscious_retest_cf_is_a_coma(patient: Patient, queued) -> None:
    """Coma HR from the wound that caused the shock: skull S3 -> 12 - 5 - 3 = 4; next course test in d10 days."""
    patient.wounds.shock_cause = (patient.location("Skull"), 3)
    patient.set_shock(UNCON)
    patient.queue("shock", queued.rolls(35))
    patient.queue("healing", queued(queued.die(6, 10)))
    patient.retest()
    assert patient.shock.state is UNCON
    assert patient.wounds.coma_hr == 4
    assert patient.wounds.extended_shock_hr is None
    assert patient.wounds.coma_since == NOW
    assert patient.wounds.next_coma == NOW + 6 * DAY
    assert [(e.test, e.after) for e in patient.events(ShockRetested)] == [("CF", "unconscious")]


@pytest.mark.parametrize(("blood_loss", "after"), [(0, NONE), (2, STUNNED)])
def test_retest_fatigue_applies(patient: Patient, queued, blood_loss: int, after: ShockState) -> None:
    """24 passes Shock 50 - 20 = 30 but fails 30 - 10 (two Blood Loss Points of anemia)."""
    patient.wounds.blood_loss = blood_loss
    refresh_fatigue(patient.wounds, patient.rules.aftercare)
    patient.set_shock(STUNNED)
    patient.queue("shock", queued.rolls(24))
    patient.retest()
    assert patient.shock.state is after


def test_retest_ignores_impairment(queued) -> None:
    """Impairment does not apply to the re-test: a G4 torso wound leaves the ML at 30 (29 is an MS)."""
    p = make_patient()
    p.wound("Thorax", "G4", "blunt")
    p.set_shock(INCAP)
    p.queue("shock", queued.rolls(29))
    p.retest()
    assert p.shock.state is STUNNED


# ------------------------------------------------------------------------------------- extended shock


def extended(p: Patient, hr: int) -> None:
    p.set_shock(INCAP)
    p.shock.retest_at = -1.0
    p.wounds.extended_shock_hr = hr
    p.wounds.next_course = NOW


@pytest.mark.parametrize(("hr", "roll", "result", "new_hr", "outcome"), [
    (5, 55, CF, 3, "stays"), (5, 51, MF, 4, "stays"), (5, 49, MS, 6, "leaves"), (5, 50, CS, 7, "leaves"),
    (4, 39, MS, 5, "stays"), (2, 25, CF, 0, "dies"), (2, 21, MF, 1, "stays"), (1, 11, MF, 0, "dies"),
    (1, 10, CS, 3, "stays"), (3, 35, CF, 1, "stays"),
])
def test_extended_shock_course(patient: Patient, queued, hr: int, roll: int, result: TestResult, new_hr: int,
                               outcome: str) -> None:
    """Every 4 hours, against Healing Base 10 x HR: CF -2, MF -1, MS +1, CS +2; <= 0 dies; >= 6 leaves it."""
    extended(patient, hr)
    rng = patient.queue("healing", queued.rolls(roll))
    extended_shock_course(patient.entity, patient.anat, patient.wounds, patient.shock, patient.cond, patient.rules,
                          patient.ctx)
    assert rng.remaining == 0
    assert [(e.course, e.test, e.healing_rate) for e in patient.events(CourseTested)] == [
        ("extended shock", result.name, new_hr)]
    wounds = patient.wounds
    if outcome == "stays":
        assert wounds.extended_shock_hr == new_hr and wounds.next_course == NOW + 4 * 3600
        assert patient.shock.state is INCAP and not patient.cond.dead
    elif outcome == "leaves":
        assert wounds.extended_shock_hr is None and wounds.next_course == -1.0
        assert patient.shock.state is NONE and not patient.cond.dead
    else:
        assert wounds.extended_shock_hr is None and wounds.next_course == -1.0
        assert patient.cond.dead
        assert [e.cause for e in patient.events(Died)] == ["extended shock"]


@pytest.mark.parametrize(("end", "wil", "result"), [(10, 10, MF), (11, 10, MS), (10, 11, MF)])
def test_extended_shock_course_reads_the_healing_base(queued, end: int, wil: int, result: TestResult) -> None:
    """53 against HB x 5: MF at HB 10 (ML 50), MS at HB 11 (END 11 > WIL 10 rounds up: ML 55)."""
    p = make_patient(attributes={"endurance": end, "will": wil})
    extended(p, 5)
    p.queue("healing", queued.rolls(53))
    extended_shock_course(p.entity, p.anat, p.wounds, p.shock, p.cond, p.rules, p.ctx)
    assert [e.test for e in p.events(CourseTested)] == [result.name]


def test_extended_shock_course_fatigue_applies(patient: Patient, queued) -> None:
    """44 passes HB 10 x HR 5 = 50 but not 50 - 10 (two Blood Loss Points)."""
    extended(patient, 5)
    patient.wounds.blood_loss = 2
    refresh_fatigue(patient.wounds, patient.rules.aftercare)
    patient.queue("healing", queued.rolls(44))
    extended_shock_course(patient.entity, patient.anat, patient.wounds, patient.shock, patient.cond, patient.rules,
                          patient.ctx)
    assert [(e.test, e.healing_rate) for e in patient.events(CourseTested)] == [("MF", 4)]


def test_leaving_extended_shock_during_a_coma_keeps_the_coma(patient: Patient, queued) -> None:
    extended(patient, 5)
    patient.shock.state = UNCON
    patient.wounds.coma_hr = 4
    patient.queue("healing", queued.rolls(50))
    extended_shock_course(patient.entity, patient.anat, patient.wounds, patient.shock, patient.cond, patient.rules,
                          patient.ctx)
    assert patient.wounds.extended_shock_hr is None
    assert patient.wounds.coma_hr == 4
    assert patient.shock.state is UNCON


# ------------------------------------------------------------------------------------------------ coma


@pytest.mark.parametrize(("location", "level", "hr"), [("Skull", 3, 4), ("Right Calf", 3, 8), ("Neck", 4, 3)])
def test_begin_coma_reads_the_shock_cause(patient: Patient, queued, location: str, level: int, hr: int) -> None:
    patient.wounds.shock_cause = (patient.location(location), level)
    rng = patient.queue("healing", queued(queued.die(7, 10)))
    begin_coma(patient.entity, patient.anat, patient.wounds, patient.rules, patient.ctx)
    assert rng.remaining == 0
    assert patient.wounds.coma_hr == hr
    assert patient.wounds.coma_since == NOW
    assert patient.wounds.next_coma == NOW + 7 * DAY


@pytest.mark.parametrize("die", [1, 10])
def test_coma_course_test_every_d10_days(patient: Patient, queued, die: int) -> None:
    patient.wounds.shock_cause = (patient.location("Skull"), 3)
    patient.queue("healing", queued(queued.die(die, 10)))
    begin_coma(patient.entity, patient.anat, patient.wounds, patient.rules, patient.ctx)
    assert patient.wounds.next_coma == NOW + die * DAY


def comatose(p: Patient, hr: int, days: float) -> None:
    p.set_shock(UNCON)
    p.shock.retest_at = -1.0
    p.wounds.coma_hr = hr
    p.wounds.coma_since = NOW - days * DAY
    p.wounds.next_coma = NOW


@pytest.mark.parametrize(("days", "weariness"), [(7.5, 8), (7.0, 7), (0.25, 1), (12.01, 13)])
def test_waking_from_a_coma_leaves_weariness_of_the_days_spent(patient: Patient, queued, days: float,
                                                               weariness: int) -> None:
    """HR 4 + CS = 6: wakes, with weariness fatigue equal to the days in the coma, rounded up."""
    comatose(patient, 4, days)
    patient.queue("healing", queued.rolls(40))  # CS against HB 10 x 4
    coma_course(patient.entity, patient.anat, patient.wounds, patient.shock, patient.cond, patient.rules, patient.ctx)
    assert [(e.course, e.test, e.healing_rate) for e in patient.events(CourseTested)] == [("coma", "CS", 6)]
    wounds = patient.wounds
    assert wounds.coma_hr is None and wounds.next_coma == -1.0
    assert wounds.weariness == weariness and wounds.fatigue == weariness
    assert patient.shock.state is NONE and not patient.cond.dead


@pytest.mark.parametrize(("hr", "roll", "result", "new_hr", "outcome"), [
    (4, 39, MS, 5, "stays"), (4, 41, MF, 3, "stays"), (4, 45, CF, 2, "stays"), (5, 49, MS, 6, "wakes"),
    (1, 11, MF, 0, "dies"), (2, 25, CF, 0, "dies"), (2, 20, CS, 4, "stays"),
])
def test_coma_course(patient: Patient, queued, hr: int, roll: int, result: TestResult, new_hr: int,
                     outcome: str) -> None:
    comatose(patient, hr, 3)
    queue = [queued.d100(roll)] + ([queued.die(4, 10)] if outcome == "stays" else [])
    rng = patient.queue("healing", queued(*queue))
    coma_course(patient.entity, patient.anat, patient.wounds, patient.shock, patient.cond, patient.rules, patient.ctx)
    assert rng.remaining == 0
    assert [(e.course, e.test, e.healing_rate) for e in patient.events(CourseTested)] == [
        ("coma", result.name, new_hr)]
    if outcome == "stays":
        assert patient.wounds.coma_hr == new_hr and patient.wounds.next_coma == NOW + 4 * DAY
        assert patient.shock.state is UNCON
    elif outcome == "wakes":
        assert patient.wounds.coma_hr is None and patient.shock.state is NONE
        assert patient.wounds.weariness == 3
    else:
        assert patient.cond.dead and [e.cause for e in patient.events(Died)] == ["coma"]
        assert patient.wounds.coma_hr is None and patient.wounds.next_coma == -1.0


# ------------------------------------------------------------------------------------------- treatment

PROCEDURE = {
    ("blunt", "minor"): ("CMP", 30), ("blunt", "serious"): ("SET", 10), ("blunt", "grievous"): ("SUR", 0),
    ("edged", "minor"): ("CLN", 20), ("edged", "serious"): ("CLN", 10), ("edged", "grievous"): ("SUR", 0),
    ("piercing", "minor"): ("CLN", 10), ("piercing", "serious"): ("CLN", 0), ("piercing", "grievous"): ("SUR", -10),
    ("fire", "minor"): ("CMP", 20), ("fire", "serious"): ("CLN", 10), ("fire", "grievous"): ("CLN", 0),
}
"""anatomy-tables.md 10: procedure and modifier by aspect and severity."""
TREATED_HR = {
    "minor": {CF: 4, MF: 5, MS: 6, CS: 0},  # 0: healed outright
    "serious": {CF: 3, MF: 4, MS: 5, CS: 6},
    "grievous": {CF: 2, MF: 3, MS: 4, CS: 5},
}
PERMANENT_RISK = {
    ("blunt", "serious"): {3, 4}, ("blunt", "grievous"): {2, 3, 4}, ("edged", "grievous"): {2, 3, 4},
    ("piercing", "serious"): {3}, ("piercing", "grievous"): {2, 3, 4}, ("fire", "grievous"): {1, 2, 3},
}
LEVEL_OF = {"minor": 1, "serious": 3, "grievous": 4}
PHYSICIAN = 52
"""A Physician ML that is not a multiple of 5, so an MS and an MF roll pin the modified ML exactly."""


@pytest.mark.parametrize("result", [CF, MF, MS, CS])
@pytest.mark.parametrize(("aspect", "severity"), list(PROCEDURE))
def test_treatment_table(queued, aspect: str, severity: str, result: TestResult) -> None:
    procedure, modifier = PROCEDURE[(aspect, severity)]
    p = make_patient()
    index = p.wound("Right Thigh", LEVEL_OF[severity], aspect)
    rng = p.queue("healing", queued.rolls(roll_for(result, PHYSICIAN + modifier)))
    treat(p.entity, p.anat, p.wounds, index, PHYSICIAN, False, p.rules, p.ctx)
    assert rng.remaining == 0
    hr = TREATED_HR[severity][result]
    injury = p.wounds.wounds[index]
    risk = hr in PERMANENT_RISK.get((aspect, severity), set())
    bleeds = (procedure == "SUR" and result in (MF, CF)) or (
        severity == "grievous" and aspect != "fire" and hr in (2, 3))
    treated = p.events(Treated)
    assert [(e.entity, e.location, e.procedure, e.test, e.healing_rate, e.permanent_risk) for e in treated] == [
        (p.entity, "Right Thigh", procedure, result.name, hr, risk)]
    if hr == 0:
        assert injury.level == 0 and injury.healed_at == NOW
        assert [(e.location, e.level_code) for e in p.events(InjuryHealed)] == [("Right Thigh", "M1")]
        return
    assert injury.healing_rate == hr
    assert injury.permanent_eligible is risk
    assert injury.next_heal == NOW + 5 * DAY
    assert injury.bleeder is bleeds
    assert len(p.events(BleederOpened)) == int(bleeds)
    if bleeds:
        assert injury.next_bleed == NOW + 300


@pytest.mark.parametrize(("result", "bleeds"), [(CF, True), (MF, True), (MS, False), (CS, False)])
def test_failed_surgery_bleeds_by_itself(queued, result: TestResult, bleeds: bool) -> None:
    """With the "grievous at HR 2-3" bleeder rule switched off, a failed surgery (SUR MF/CF) still bleeds."""
    p = make_patient()
    aftercare = replace(p.rules.aftercare, grievous_bleeder_hr={})
    p.set_rules(replace(p.rules, aftercare=aftercare))
    index = p.wound("Right Thigh", "G4", "piercing")
    p.queue("healing", queued.rolls(roll_for(result, PHYSICIAN - 10)))
    treat(p.entity, p.anat, p.wounds, index, PHYSICIAN, False, p.rules, p.ctx)
    assert p.wounds.wounds[index].bleeder is bleeds


def test_shipped_permanent_risk_table_is_the_rules_table(rules) -> None:
    """Fire G at HR 1 is never reached by a treatment (its lowest HR is 2), so the table itself is checked."""
    shipped = {(aspect, severity): set(hrs) for aspect, by in rules.aftercare.permanent_eligible.items()
               for severity, hrs in by.items() if hrs}
    assert shipped == PERMANENT_RISK
    assert {a: set(h) for a, h in rules.aftercare.grievous_bleeder_hr.items() if h} == {
        "blunt": {2, 3}, "edged": {2, 3}, "piercing": {2, 3}}


def test_treatment_table_covers_both_serious_and_both_grievous_levels(queued) -> None:
    p = make_patient()
    s2 = p.wound("Right Thigh", "S2", "blunt")
    g5 = p.wound("Left Thigh", "G5", "edged")
    p.queue("healing", queued.rolls(PHYSICIAN + 10, PHYSICIAN))  # MS at SET +10, MS at SUR 0
    treat(p.entity, p.anat, p.wounds, s2, PHYSICIAN, False, p.rules, p.ctx)
    treat(p.entity, p.anat, p.wounds, g5, PHYSICIAN, False, p.rules, p.ctx)
    assert [(e.procedure, e.healing_rate) for e in p.events(Treated)] == [("SET", 5), ("SUR", 4)]


@pytest.mark.parametrize(("self_care", "roll", "result", "hr"), [
    (False, 82, MS, 6), (False, 73, MS, 6), (True, 72, MS, 6), (True, 73, MF, 5),
])
def test_self_treatment_is_at_minus_10(queued, self_care: bool, roll: int, result: TestResult, hr: int) -> None:
    """Blunt minor (CMP +30) at Physician 52: ML 82, or 72 on oneself."""
    p = make_patient()
    index = p.wound("Right Thigh", "M1", "blunt")
    p.queue("healing", queued.rolls(roll))
    treat(p.entity, p.anat, p.wounds, index, PHYSICIAN, self_care, p.rules, p.ctx)
    assert [(e.test, e.healing_rate) for e in p.events(Treated)] == [(result.name, hr)]


def test_treatment_without_physician_skill_is_a_cf_without_a_roll(patient: Patient, queued) -> None:
    index = patient.wound("Right Thigh", "S3", "blunt")
    rng = patient.queue("healing", queued.rolls())
    treat(patient.entity, patient.anat, patient.wounds, index, None, False, patient.rules, patient.ctx)
    assert rng.remaining == 0
    assert [(e.test, e.healing_rate) for e in patient.events(Treated)] == [("CF", 3)]


def test_minor_wound_treated_to_hr_6_no_longer_impairs(patient: Patient, queued) -> None:
    """An untreated M1 is slow to heal (-5); at HR 6 it does not impair (anatomy-tables 8.1, decisions 000 #8)."""
    index = patient.wound("Right Thigh", "M1", "blunt")
    leg = patient.anat.body.part_index("Right Leg")
    assert patient.wounds.impairments[leg].penalty == -5
    patient.queue("healing", queued.rolls(82))  # MS: HR 6
    treat(patient.entity, patient.anat, patient.wounds, index, PHYSICIAN, False, patient.rules, patient.ctx)
    patient.world.refresh(patient.entity)
    assert patient.wounds.impairments[leg].penalty == 0
    assert patient.wounds.health == 100
    assert [(e.part, e.penalty) for e in patient.events(ImpairmentChanged)][-1] == ("Right Leg", 0)


# ---------------------------------------------------------------------------------------------- healing


def call_heal(p: Patient, index: int) -> None:
    heal(p.entity, p.anat, p.wounds, p.cond, index, p.rules, p.ctx)


@pytest.mark.parametrize(("aspect", "infected"), [("edged", True), ("piercing", True), ("fire", True),
                                                  ("blunt", False)])
def test_untreated_wound_fails_its_healing_test_automatically(patient: Patient, queued, aspect: str,
                                                              infected: bool) -> None:
    """No HR: an automatic CF (no roll): no healing, and an infection (at HR 0 + 1) if the wound can take one."""
    index = patient.wound("Right Thigh", "S3", aspect)
    rng = patient.queue("healing", queued.rolls())
    call_heal(patient, index)
    assert rng.remaining == 0
    injury = patient.wounds.wounds[index]
    assert injury.level == 3
    assert injury.next_heal == NOW + 5 * DAY
    assert injury.infection_hr == (1 if infected else None)
    assert patient.wounds.fatigue == (10 if infected else 0)
    assert [(e.location, e.healing_rate) for e in patient.events(Infected)] == (
        [("Right Thigh", 1)] if infected else [])


@pytest.mark.parametrize(("roll", "level"), [(55, 3), (51, 3), (49, 2), (50, 1)])
def test_healing_test_changes_the_level(patient: Patient, queued, roll: int, level: int) -> None:
    """HB 10 x HR 5 = ML 50: CF and MF nothing (blunt: no infection), MS one level better, CS two."""
    index = patient.wound("Right Thigh", "S3", "blunt")
    patient.wounds.wounds[index].healing_rate = 5
    patient.queue("healing", queued.rolls(roll))
    call_heal(patient, index)
    injury = patient.wounds.wounds[index]
    assert injury.level == level
    assert injury.infection_hr is None
    assert patient.wounds.levels.get(patient.location("Right Thigh")) == [level]
    assert patient.events(InjuryHealed) == []


@pytest.mark.parametrize(("aspect", "infected"), [("edged", True), ("piercing", True), ("fire", True),
                                                  ("blunt", False)])
def test_cf_healing_test_infects_at_hr_plus_one(patient: Patient, queued, aspect: str, infected: bool) -> None:
    """HR 3 (ML 30), CF: infection at HR 4, weakness fatigue 5."""
    index = patient.wound("Right Thigh", "S3", aspect)
    patient.wounds.wounds[index].healing_rate = 3
    patient.queue("healing", queued.rolls(35))
    call_heal(patient, index)
    assert patient.wounds.wounds[index].infection_hr == (4 if infected else None)
    assert patient.wounds.fatigue == (5 if infected else 0)
    assert len(patient.events(Infected)) == int(infected)


def test_mf_healing_test_never_infects(patient: Patient, queued) -> None:
    index = patient.wound("Right Thigh", "S3", "edged")
    patient.wounds.wounds[index].healing_rate = 3
    patient.queue("healing", queued.rolls(31))
    call_heal(patient, index)
    assert patient.wounds.wounds[index].infection_hr is None
    assert patient.events(Infected) == []


@pytest.mark.parametrize(("level", "roll", "result"), [(1, 49, MS), (2, 50, CS), (1, 50, CS)])
def test_wound_healed_at_level_zero(patient: Patient, queued, level: int, roll: int, result: TestResult) -> None:
    """A wound reaching level <= 0 is healed: InjuryHealed, its part's impairment and health rise."""
    index = patient.wound("Right Thigh", level, "blunt")
    patient.wounds.wounds[index].healing_rate = 5
    patient.wounds.wounds[index].received = NOW - 10 * DAY
    before = patient.wounds.health
    assert before < 100
    patient.queue("healing", queued.rolls(roll))
    call_heal(patient, index)
    injury = patient.wounds.wounds[index]
    assert injury.level == 0 and injury.healed_at == NOW and injury.next_heal == -1.0
    healed = patient.events(InjuryHealed)
    assert [(e.location, e.level_code, e.days, e.permanent) for e in healed] == [
        ("Right Thigh", ["NA", "M1", "S2"][level], 10.0, 0)]
    assert patient.wounds.levels == {}
    patient.world.refresh(patient.entity)
    assert patient.wounds.health == 100
    changes = patient.events(HealthChanged)
    assert (changes[-1].before, changes[-1].after) == (before, 100)


def test_active_infection_stops_all_healing(patient: Patient, queued) -> None:
    infected = patient.wound("Left Thigh", "S2", "edged")
    other = patient.wound("Right Thigh", "S3", "blunt")
    patient.wounds.wounds[infected].infection_hr = 3
    patient.wounds.wounds[other].healing_rate = 6
    rng = patient.queue("healing", queued.rolls())  # no roll at all for the other wound
    call_heal(patient, other)
    assert rng.remaining == 0
    assert patient.wounds.wounds[other].level == 3
    assert patient.wounds.wounds[other].next_heal == NOW + 5 * DAY


@pytest.mark.parametrize(("hr", "roll", "result", "new_hr"), [
    (3, 30, CF, 1), (3, 26, MF, 2), (3, 24, MS, 4), (3, 25, CS, 5), (4, 40, CF, 2), (2, 10, CS, 4),
])
def test_infection_course(patient: Patient, queued, hr: int, roll: int, result: TestResult, new_hr: int) -> None:
    """Against HB 10 x infection HR, less the infection's own weakness fatigue: CF -2, MF -1, MS +1, CS +2."""
    index = patient.wound("Right Thigh", "S3", "edged")
    patient.wounds.wounds[index].healing_rate = 4
    patient.wounds.wounds[index].infection_hr = hr
    refresh_fatigue(patient.wounds, patient.rules.aftercare)
    assert roll_result(roll, 10 * hr - infection_fatigue(hr, patient.rules.aftercare)) is result
    patient.queue("healing", queued.rolls(roll))
    call_heal(patient, index)
    assert [(e.course, e.test, e.healing_rate) for e in patient.events(CourseTested)] == [
        ("infection (Right Thigh)", result.name, new_hr)]
    assert patient.wounds.wounds[index].infection_hr == new_hr
    assert patient.wounds.fatigue == infection_fatigue(new_hr, patient.rules.aftercare)
    assert patient.wounds.wounds[index].level == 3  # no healing while infected


def roll_result(roll: int, ml: int) -> TestResult:
    ml = min(max(ml, 5), 95)
    if roll <= ml:
        return CS if roll % 5 == 0 else MS
    return CF if roll % 5 == 0 else MF


def test_infection_cured_at_hr_6(patient: Patient, queued) -> None:
    index = patient.wound("Right Thigh", "S3", "edged")
    patient.wounds.wounds[index].infection_hr = 5
    refresh_fatigue(patient.wounds, patient.rules.aftercare)
    patient.queue("healing", queued.rolls(49))
    call_heal(patient, index)
    assert patient.wounds.wounds[index].infection_hr is None
    assert patient.wounds.fatigue == 0
    assert [e.healing_rate for e in patient.events(CourseTested)] == [6]
    assert not patient.cond.dead


@pytest.mark.parametrize(("hr", "roll"), [(1, 6), (1, 10), (2, 15)])
def test_infection_at_hr_0_kills(patient: Patient, queued, hr: int, roll: int) -> None:
    """HR 1 less fatigue 10 clamps to ML 5: 6 is an MF (-> 0) and 10 a CF; HR 2 (ML 10): 15 a CF (-> 0)."""
    index = patient.wound("Right Thigh", "S3", "edged")
    patient.wounds.wounds[index].infection_hr = hr
    refresh_fatigue(patient.wounds, patient.rules.aftercare)
    patient.queue("healing", queued.rolls(roll))
    call_heal(patient, index)
    assert patient.cond.dead
    assert [(e.entity, e.cause) for e in patient.events(Died)] == [(patient.entity, "infection")]


# ---------------------------------------------------------------------------------- permanent impairment


@pytest.mark.parametrize(("days", "permanent"), [
    (5, 0), (19.5, 0), (20, -5), (39.5, -5), (40, -10), (60, -15), (80, -20), (99, -20), (100, -25), (250, -25),
])
def test_permanent_impairment_by_days_to_heal(patient: Patient, days: float, permanent: int) -> None:
    index = patient.wound("Right Thigh", "G4", "edged")
    injury = patient.wounds.wounds[index]
    injury.permanent_eligible = True
    injury.received = NOW - days * DAY
    heal_wound(patient.entity, patient.anat, patient.wounds, index, patient.rules, patient.ctx)
    leg = patient.anat.body.part_index("Right Leg")
    assert patient.wounds.permanent_impairment.get(leg, 0) == permanent
    assert [(e.location, e.level_code, e.days, e.permanent) for e in patient.events(InjuryHealed)] == [
        ("Right Thigh", "G4", days, permanent)]


def test_permanent_impairment_only_for_eligible_wounds(patient: Patient) -> None:
    index = patient.wound("Right Thigh", "G4", "edged")
    patient.wounds.wounds[index].received = NOW - 150 * DAY
    heal_wound(patient.entity, patient.anat, patient.wounds, index, patient.rules, patient.ctx)
    assert patient.wounds.permanent_impairment == {}
    assert [e.permanent for e in patient.events(InjuryHealed)] == [0]


def test_permanent_impairment_never_makes_a_part_unusable(patient: Patient) -> None:
    """A healed G4 thigh wound that took 100 days: the leg is at -25 (grievous tier, one limb: health 30)."""
    index = patient.wound("Right Thigh", "G4", "edged")
    leg = patient.anat.body.part_index("Right Leg")
    assert patient.wounds.impairments[leg].unusable and patient.wounds.health == 20
    injury = patient.wounds.wounds[index]
    injury.permanent_eligible = True
    injury.received = NOW - 100 * DAY
    heal_wound(patient.entity, patient.anat, patient.wounds, index, patient.rules, patient.ctx)
    patient.world.refresh(patient.entity)
    assert patient.wounds.impairments[leg].penalty == -25
    assert not patient.wounds.impairments[leg].unusable
    assert patient.wounds.health == 30
    assert (patient.events(HealthChanged)[-1].before, patient.events(HealthChanged)[-1].after) == (20, 30)


def test_permanent_impairment_keeps_the_worst(patient: Patient) -> None:
    first = patient.wound("Right Thigh", "G4", "edged")
    second = patient.wound("Right Calf", "S3", "blunt")
    for index, days in ((first, 100), (second, 30)):
        injury = patient.wounds.wounds[index]
        injury.permanent_eligible = True
        injury.received = NOW - days * DAY
        heal_wound(patient.entity, patient.anat, patient.wounds, index, patient.rules, patient.ctx)
    assert patient.wounds.permanent_impairment == {patient.anat.body.part_index("Right Leg"): -25}


# ------------------------------------------------------------------------------------ in combat (ticks)


def test_bleeding_in_combat_every_five_minutes_of_ticks(queued) -> None:
    """Tick by tick (10 s each), a bleeder received at time 0 makes its advance tests at 300 s and 600 s."""
    w = Sandbox(seed=3)
    e = w.spawn("human", name="Lone")
    w.inflict(e, "Neck", "G4", "edged")
    w.get(e, Injury).wounds[0].bleeder = True
    rng = queued.rolls(50, 50)
    w.ctx.streams["bleeding"] = rng  # type: ignore[index]
    for _ in range(60):
        w.step()
    assert rng.remaining == 0
    assert [(ev.tick, ev.time, ev.test) for ev in w.events if isinstance(ev, BloodLost)] == [
        (30, 300.0, "CS"), (60, 600.0, "CS")]
    w.close()


def test_bleeding_processor_tests_only_due_bleeders(queued) -> None:
    p = make_patient()
    index = p.wound(bleeder=True)
    p.wounds.wounds[index].next_bleed = NOW + 1
    p.queue("bleeding", queued.rolls())
    with p.world.active():
        BleedingProcessor(p.ctx, p.rules).process()
    assert p.events(BloodLost) == []


def test_extended_shock_course_in_combat_when_due(queued) -> None:
    w = Sandbox(seed=3)
    e = w.spawn("human", name="Lone")
    w.get(e, Shock).state = INCAP
    w.get(e, Injury).extended_shock_hr = 5
    w.get(e, Injury).next_course = 30.0
    w.refresh(e)
    rng = queued.rolls(50)  # CS: HR 7, out of Extended Shock
    w.ctx.streams["healing"] = rng  # type: ignore[index]
    for _ in range(4):
        w.step()
    assert rng.remaining == 0
    assert [(ev.tick, ev.course, ev.healing_rate) for ev in w.events if isinstance(ev, CourseTested)] == [
        (3, "extended shock", 7)]
    assert w.get(e, Injury).extended_shock_hr is None and w.get(e, Shock).state is NONE
    w.close()


def test_no_retests_in_combat_while_in_extended_shock(queued) -> None:
    w = Sandbox(seed=3)
    e = w.spawn("human", name="Lone")
    shock, wounds = w.get(e, Shock), w.get(e, Injury)
    shock.state = INCAP
    shock.retest_at = 10.0
    wounds.extended_shock_hr = 5
    w.refresh(e)
    w.ctx.streams["shock"] = queued.rolls()  # type: ignore[index]
    for _ in range(5):
        w.step()
    assert not [ev for ev in w.events if isinstance(ev, ShockRetested)]
    assert shock.state is INCAP
    w.close()
