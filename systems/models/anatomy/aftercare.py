"""Wounds over time: bleeding and blood loss, shock re-tests, Extended Shock, Coma, treatment, healing, infection.

Every rule here is a function of one creature's components, the anatomy rule tables and the shared context,
called when its due time comes: in combat by the EFFECTS and RECOVERY processors each tick, out of combat by the
anatomy model's ``advance``, which jumps from due time to due time. Each function moves the due time it served
forward (or clears it), and tells the active due queue (``_schedule``) about every due time it sets, so a time
jump never scans the whole world.

Numbers come from ``AftercareRules`` (``configs/models/anatomy.toml``, section ``aftercare``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import esper

from sandbox.components.events import (
    BleederOpened,
    BleedingStopped,
    BloodLost,
    CourseTested,
    Infected,
    InjuryHealed,
    ShockChanged,
    ShockRetested,
    Treated,
)
from sandbox.components.models.anatomy import Injury, Shock, Wound
from sandbox.components.rules import LEVEL_CODES, AftercareRules, AnatomyRules, ShockState, TestResult
from sandbox.components.state import Anatomy, Condition
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.dice import skill_test
from sandbox.systems.models.anatomy.damage import enter_state, refresh_status, set_shock
from sandbox.systems.models.anatomy.impairment import injury_penalty, permanent_impairment_for
from sandbox.systems.models.anatomy.mastery import effective_ml

__all__ = ["BleedingProcessor", "begin_coma", "bleed", "blood_loss_steps", "coma_course", "coma_hr", "course",
           "extended_shock_course", "heal", "heal_wound", "healing_base", "infection_fatigue", "refresh_fatigue",
           "retest", "rules_of", "start_healing_clock", "stoppage", "treat"]

_SEVERITY: tuple[str, ...] = ("none", "minor", "serious", "serious", "grievous", "grievous")
"""Severity of each injury level."""
_ASPECT_NAMES = ("blunt", "edged", "piercing", "fire")

_DAY = 86400.0


def rules_of(rules: AnatomyRules) -> AftercareRules:
    """The aftercare tables (they are part of every shipped rules file)."""
    aftercare = rules.aftercare
    if aftercare is None:
        raise RuntimeError("these anatomy rules carry no aftercare tables")
    return aftercare


def _schedule(ctx: TickContext, kind: str, entity: int, index: int, due: float) -> None:
    """Tell the active due queue (while ``advance`` runs) about a due time; a no-op in tick-by-tick play."""
    queue = ctx.due
    if queue is not None:
        queue.push(kind, entity, due, index)


def healing_base(anat: Anatomy) -> int:
    """Healing Base = (END + WIL) / 2, rounded up if END > WIL, otherwise down."""
    end = anat.attributes.get("endurance", 10)
    wil = anat.attributes.get("will", 10)
    return (end + wil + 1) // 2 if end > wil else (end + wil) // 2


def infection_fatigue(hr: int, rules: AftercareRules) -> int:
    """Weakness fatigue of an infection at Healing Rate ``hr`` (1-2: 10, 3-4: 5, 5+: 0)."""
    fatigue = rules.infection_fatigue[0][1]
    for lowest, points in rules.infection_fatigue:
        if hr >= lowest:
            fatigue = points
    return fatigue


def refresh_fatigue(injury: Injury, rules: AftercareRules) -> None:
    """Total fatigue: anemia (per Blood Loss Point), active infections, weariness. A penalty on every test."""
    total = injury.blood_loss * rules.anemia_per_point + injury.weariness
    for wound in injury.wounds:
        if wound.infection_hr is not None:
            total += infection_fatigue(wound.infection_hr, rules)
    if total != injury.fatigue:
        injury.fatigue = total
        injury.profile = None  # test MLs changed


def course(result: TestResult, rules: AftercareRules) -> int:
    """HR change of a course test (Extended Shock, Coma, infection): CF -2, MF -1, MS +1, CS +2."""
    return rules.course_change[result]


def _course_test(entity: int, anat: Anatomy, injury: Injury, hr: int, name: str, rules: AnatomyRules,
                ctx: TickContext) -> int:
    """A course test (Extended Shock, Coma, infection) against Healing Base x HR, fatigue included.

    Returns the new HR (CF -2, MF -1, MS +1, CS +2) and records it.
    """
    result = skill_test(healing_base(anat) * hr - injury.fatigue, ctx.streams["healing"], rules.tests)
    hr += course(result, rules_of(rules))
    ctx.emit(CourseTested(ctx.clock.tick, ctx.clock.time, entity, name, result.name, hr))
    return hr


def coma_hr(shock_value: int, level: int, rules: AftercareRules) -> int:
    """Coma Healing Rate = 12 - the causing location's Shock Value - the injury level (skull S3: 4, calf S3: 8)."""
    return rules.coma_hr_base - shock_value - level


# ----------------------------------------------------------------------------------------------- bleeding


def _start_bleeding(wound: Wound, now: float, rules: AftercareRules) -> None:
    """Make a wound bleed, its first advance test due one interval from now."""
    wound.bleeder = True
    if wound.next_bleed < 0:
        wound.next_bleed = now + rules.bleed_interval


def stoppage(wound: Wound, tender_ml: int | None, rng_draw: Callable[[int | None], TestResult] | None,
             rules: AftercareRules) -> TestResult:
    """A Blood Stoppage Test on one wound.

    CF keeps bleeding; MF keeps bleeding with +10 on the next try; MS stops it after the next advance test; CS stops it
    at once. With no tender, the wound counts as a CF stoppage.
    """
    if tender_ml is None or rng_draw is None:
        return TestResult.CF
    result = rng_draw(tender_ml + wound.stoppage_bonus)
    wound.stoppage_bonus = rules.stoppage_carry_bonus if result is TestResult.MF else 0
    if result is TestResult.MS:
        wound.stop_after_advance = True
    elif result is TestResult.CS:
        wound.bleeder = False
        wound.next_bleed = -1.0
    return result


def blood_loss_steps(state: ShockState, points: int) -> ShockState:
    """Each Blood Loss Point moves the shock state one step (None -> Stunned -> ... -> Dead)."""
    return ShockState(min(int(state) + points, int(ShockState.DEAD)))


def bleed(entity: int, anat: Anatomy, injury: Injury, shock: Shock, cond: Condition, index: int,
          tender_ml: int | None, rules: AnatomyRules, ctx: TickContext) -> None:
    """One bleeding round of wound ``index``.

    The stoppage test (if a tender is at hand), then the Blood Loss Advance test (Strength); Blood Loss Points add
    anemia and move the shock state one step each.
    """
    aftercare = rules_of(rules)
    wound = injury.wounds[index]
    clock = ctx.clock
    rng = ctx.streams["bleeding"]
    tests = rules.tests
    loc = anat.body.locations[wound.location].name
    result = stoppage(wound, tender_ml, (lambda ml: skill_test(ml, rng, tests)) if tender_ml is not None else None,
                      aftercare)
    if not wound.bleeder:
        ctx.emit(BleedingStopped(clock.tick, clock.time, entity, loc, result.name))
        return
    strength = effective_ml(anat, injury, "strength", ctx.skills)  # fatigue included
    advance = skill_test(strength, rng, tests)
    points = aftercare.blood_loss[advance]
    if points:
        injury.blood_loss += points
        refresh_fatigue(injury, aftercare)
    ctx.emit(BloodLost(clock.tick, clock.time, entity, loc, advance.name, points, injury.blood_loss))
    if wound.stop_after_advance:
        wound.bleeder = False
        wound.stop_after_advance = False
        wound.next_bleed = -1.0
        ctx.emit(BleedingStopped(clock.tick, clock.time, entity, loc, "MS"))
    else:
        wound.next_bleed += aftercare.bleed_interval
        _schedule(ctx, "bleed", entity, index, wound.next_bleed)
    if points and not cond.dead:
        new = blood_loss_steps(shock.state, points)
        if new != shock.state:
            injury.shock_cause = (wound.location, max(wound.level, 1))  # what a Coma's Healing Rate reads
            set_shock(entity, shock, cond, new, rules, ctx, cause="blood loss")
            _schedule(ctx, "retest", entity, 0, shock.retest_at)


# ---------------------------------------------------------------------------------------- shock re-tests


def retest(entity: int, anat: Anatomy, injury: Injury, shock: Shock, cond: Condition, rules: AnatomyRules,
           ctx: TickContext) -> None:
    """A Shock re-test at -20 (fatigue applies, impairment does not).

    Stunned: CS or MS clears it, MF or CF leaves it Stunned until the next turn. Incapacitated or Unconscious:
    CS clears all shock, MS leaves it Stunned, MF starts Extended Shock at HR 5, CF Extended Shock at HR 4, or a
    Coma from Unconscious.
    """
    aftercare = rules_of(rules)
    clock = ctx.clock
    ml = effective_ml(anat, injury, "shock", ctx.skills, aftercare.retest_modifier)
    result = skill_test(ml, ctx.streams["shock"], rules.tests)
    before = shock.state
    shock.retest_at = -1.0
    if before is ShockState.STUNNED:
        after = ShockState.NONE if result.success else ShockState.STUNNED
        if after is ShockState.STUNNED:
            shock.retest_at = clock.time + clock.seconds_per_tick
    elif result is TestResult.CS:
        after = ShockState.NONE
    elif result is TestResult.MS:
        after = ShockState.STUNNED
        shock.retest_at = clock.time + clock.seconds_per_tick
    elif result is TestResult.CF and before is ShockState.UNCONSCIOUS:
        after = before
        begin_coma(entity, anat, injury, rules, ctx)
    else:
        after = before
        injury.extended_shock_hr = aftercare.extended_shock_hr[result]
        injury.next_course = clock.time + aftercare.extended_shock_interval
        _schedule(ctx, "course", entity, 0, injury.next_course)
    ctx.emit(ShockRetested(clock.tick, clock.time, entity, result.name, before.label, after.label))
    if after != before:
        enter_state(shock, cond, after, clock.tick)  # a prone creature gets up on its next turn (it costs the turn)
    _schedule(ctx, "retest", entity, 0, shock.retest_at)


def _clear_shock(entity: int, shock: Shock, cond: Condition, ctx: TickContext) -> None:
    """Extended Shock or a Coma has run its course: all shock clears (a prone creature gets up on its turn)."""
    if shock.state is not ShockState.NONE:
        ctx.emit(ShockChanged(ctx.clock.tick, ctx.clock.time, entity, shock.state.label, ShockState.NONE.label))
    enter_state(shock, cond, ShockState.NONE, ctx.clock.tick)
    shock.retest_at = -1.0


def begin_coma(entity: int, anat: Anatomy, injury: Injury, rules: AnatomyRules, ctx: TickContext) -> None:
    """Fall into a Coma: HR from the wound that caused the shock; a course test every d10 days."""
    aftercare = rules_of(rules)
    location, level = injury.shock_cause if injury.shock_cause is not None else (0, 1)
    shock_value = anat.body.locations[location].shock_value if anat.body.locations else 5
    injury.coma_hr = coma_hr(shock_value, level, aftercare)
    injury.coma_since = ctx.clock.time
    injury.next_coma = ctx.clock.time + _coma_interval(aftercare, ctx)
    _schedule(ctx, "coma", entity, 0, injury.next_coma)


def _coma_interval(aftercare: AftercareRules, ctx: TickContext) -> float:
    """d10 days (the rules' die and unit) until the next coma course test."""
    roll = int(ctx.streams["healing"].random() * aftercare.coma_interval_die) + 1
    return roll * aftercare.coma_interval_unit


def extended_shock_course(entity: int, anat: Anatomy, injury: Injury, shock: Shock, cond: Condition,
                          rules: AnatomyRules, ctx: TickContext) -> None:
    """Every 4 hours: a course test against Healing Base x HR; HR <= 0 dies, HR >= 6 leaves Extended Shock."""
    aftercare = rules_of(rules)
    clock = ctx.clock
    if injury.extended_shock_hr is None:
        injury.next_course = -1.0
        return
    hr = _course_test(entity, anat, injury, injury.extended_shock_hr, "extended shock", rules, ctx)
    if hr <= aftercare.hr_death_at:
        injury.extended_shock_hr = None
        injury.next_course = -1.0
        kill(entity, cond, "extended shock", ctx)
    elif hr >= aftercare.hr_recover_at:
        injury.extended_shock_hr = None
        injury.next_course = -1.0
        if injury.coma_hr is None:
            _clear_shock(entity, shock, cond, ctx)
    else:
        injury.extended_shock_hr = hr
        injury.next_course = clock.time + aftercare.extended_shock_interval
        _schedule(ctx, "course", entity, 0, injury.next_course)


def coma_course(entity: int, anat: Anatomy, injury: Injury, shock: Shock, cond: Condition, rules: AnatomyRules,
                ctx: TickContext) -> None:
    """Every d10 days.

    A course test against Healing Base x Coma HR; HR <= 0 dies; HR >= 6 wakes, with weariness fatigue equal to the days
    spent in the coma.
    """
    aftercare = rules_of(rules)
    clock = ctx.clock
    if injury.coma_hr is None:
        injury.next_coma = -1.0
        return
    hr = _course_test(entity, anat, injury, injury.coma_hr, "coma", rules, ctx)
    if hr <= aftercare.hr_death_at:
        injury.coma_hr = None
        injury.next_coma = -1.0
        kill(entity, cond, "coma", ctx)
    elif hr >= aftercare.hr_recover_at:
        days = math.ceil((clock.time - injury.coma_since) / _DAY)
        injury.coma_hr = None
        injury.next_coma = -1.0
        injury.coma_since = -1.0
        injury.weariness += days
        refresh_fatigue(injury, aftercare)
        injury.extended_shock_hr = None
        injury.next_course = -1.0
        _clear_shock(entity, shock, cond, ctx)
    else:
        injury.coma_hr = hr
        injury.next_coma = clock.time + _coma_interval(aftercare, ctx)
        _schedule(ctx, "coma", entity, 0, injury.next_coma)


# ------------------------------------------------------------------------------------------- treatment


def treat(entity: int, anat: Anatomy, injury: Injury, index: int, physician_ml: int | None, self_care: bool,
          rules: AnatomyRules, ctx: TickContext) -> None:
    """Treat one wound.

    A Physician test with the aspect and severity modifier sets its Healing Rate (a CS on a minor wound heals it
    outright); a failed surgery or a grievous wound treated to HR 2-3 bleeds; some Healing Rates mark the wound as able
    to leave permanent impairment.
    """
    aftercare = rules_of(rules)
    clock = ctx.clock
    wound = injury.wounds[index]
    severity = _SEVERITY[wound.level]
    aspect = _ASPECT_NAMES[wound.aspect]
    procedure = aftercare.treatment[aspect][severity]
    ml = None
    if physician_ml is not None:
        ml = physician_ml + procedure.modifier + (aftercare.self_treatment_modifier if self_care else 0)
    result = skill_test(ml, ctx.streams["healing"], rules.tests)
    hr = aftercare.treatment_hr[severity][result]
    location = anat.body.locations[wound.location]
    if hr == 0:
        heal_wound(entity, anat, injury, index, rules, ctx)
        ctx.emit(Treated(clock.tick, clock.time, entity, location.name, procedure.procedure, result.name, 0, False))
        return
    before = injury_penalty(wound.level, wound.healing_rate, rules)
    wound.healing_rate = hr
    if injury_penalty(wound.level, hr, rules) != before:
        injury.touch(location.part)  # a minor wound healing well (HR 6) no longer impairs
    wound.next_heal = clock.time + aftercare.healing_period
    _schedule(ctx, "heal", entity, index, wound.next_heal)
    bleeds = (procedure.procedure == "SUR" and result in aftercare.surgery_bleeder_on) or (
        severity == "grievous" and hr in aftercare.grievous_bleeder_hr.get(aspect, ()))
    if bleeds and not wound.bleeder:
        _start_bleeding(wound, clock.time, aftercare)
        _schedule(ctx, "bleed", entity, index, wound.next_bleed)
        ctx.emit(BleederOpened(clock.tick, clock.time, entity, location.name))
    wound.permanent_eligible = hr in aftercare.permanent_eligible.get(aspect, {}).get(severity, ())
    ctx.emit(Treated(clock.tick, clock.time, entity, location.name, procedure.procedure, result.name, hr,
                     wound.permanent_eligible))


# --------------------------------------------------------------------------------------------- healing


def heal_wound(entity: int, anat: Anatomy, injury: Injury, index: int, rules: AnatomyRules,
               ctx: TickContext) -> None:
    """A wound closes: it stops bleeding, and leaves permanent impairment by the days it took (when eligible)."""
    clock = ctx.clock
    wound = injury.wounds[index]
    wound.level = 0
    wound.healed_at = clock.time
    wound.bleeder = False
    wound.next_bleed = -1.0
    wound.next_heal = -1.0
    days = (clock.time - wound.received) / _DAY
    permanent = permanent_impairment_for(days, rules) if wound.permanent_eligible else 0
    location = anat.body.locations[wound.location]
    if permanent < 0:
        injury.permanent_impairment[location.part] = min(injury.permanent_impairment.get(location.part, 0),
                                                         permanent)
    injury.reindex()
    injury.touch(location.part)
    ctx.emit(InjuryHealed(clock.tick, clock.time, entity, location.name, LEVEL_CODES[wound.initial_level],
                          round(days, 2), permanent))


def heal(entity: int, anat: Anatomy, injury: Injury, cond: Condition, index: int, rules: AnatomyRules,
         ctx: TickContext) -> None:
    """One healing period of wound ``index``.

    An infected wound makes its infection course test (HR <= 0 kills, HR >= 6 cures). Otherwise, while any
    infection is active the wound does not heal; else the Injury Healing Test against Healing Base x HR
    (untreated: an automatic CF): CF no healing (and infection, if the wound can take one), MF nothing, MS one
    level better, CS two.
    """
    aftercare = rules_of(rules)
    clock = ctx.clock
    wound = injury.wounds[index]
    location = anat.body.locations[wound.location]
    hb = healing_base(anat)
    rng = ctx.streams["healing"]
    wound.next_heal = clock.time + aftercare.healing_period
    if wound.infection_hr is not None:
        hr = _course_test(entity, anat, injury, wound.infection_hr, f"infection ({location.name})", rules, ctx)
        if hr <= aftercare.hr_death_at:
            wound.infection_hr = None
            refresh_fatigue(injury, aftercare)
            kill(entity, cond, "infection", ctx)
            return
        wound.infection_hr = None if hr >= aftercare.infection_cured_at else hr
        refresh_fatigue(injury, aftercare)
    elif _infected(injury):
        pass  # an active infection elsewhere stops all healing this period
    else:
        ml = None if wound.healing_rate is None else hb * wound.healing_rate - injury.fatigue
        result = skill_test(ml, rng, rules.tests)
        change = aftercare.healing_change[result]
        if result is TestResult.CF and wound.aspect in aftercare.infectable and wound.infection_hr is None:
            wound.infection_hr = (wound.healing_rate or 0) + 1
            refresh_fatigue(injury, aftercare)
            ctx.emit(Infected(clock.tick, clock.time, entity, location.name, wound.infection_hr))
        if change:
            before = injury_penalty(wound.level, wound.healing_rate, rules)
            wound.level += change
            if wound.level <= 0:
                heal_wound(entity, anat, injury, index, rules, ctx)
                return
            injury.reindex()
            if injury_penalty(wound.level, wound.healing_rate, rules) != before:
                injury.touch(location.part)  # S3 to S2 impairs as much: only a new penalty changes the part
    _schedule(ctx, "heal", entity, index, wound.next_heal)


def _infected(injury: Injury) -> bool:
    # A loop, not any() over a generator: every healing period of every wound asks.
    for wound in injury.wounds:  # noqa: SIM110
        if wound.infection_hr is not None:
            return True
    return False


def start_healing_clock(injury: Injury, index: int, aftercare: AftercareRules) -> None:
    """Give an open wound its first healing period (from when it was received), if it has none yet."""
    wound = injury.wounds[index]
    if wound.level > 0 and wound.next_heal < 0:
        wound.next_heal = wound.received + aftercare.healing_period


class BleedingProcessor(esper.Processor):
    """EFFECTS phase.

    In combat, every bleeder whose advance test is due makes it (no one tends wounds mid-fight: the stoppage counts as
    failed), and due Extended Shock and Coma course tests run.
    """

    def __init__(self, ctx: TickContext, rules: AnatomyRules) -> None:
        self.ctx = ctx
        self.rules = rules

    def process(self) -> None:
        """Run what is due this tick."""
        ctx, rules = self.ctx, self.rules
        if rules.aftercare is None:
            return
        now = ctx.clock.time
        interval = rules.aftercare.bleed_interval
        creatures = ctx.current().creatures
        for entity, (injury, shock) in esper.get_components(Injury, Shock):
            wounds = injury.wounds
            if not wounds and injury.next_course < 0 and injury.next_coma < 0:
                continue  # unhurt and no course running: nothing can be due (most creatures, most ticks)
            c = creatures[entity]
            cond = c.condition
            if cond.dead:
                continue
            for index, wound in enumerate(wounds):
                if wound.bleeder and wound.level >= 0:
                    if wound.next_bleed < 0:
                        wound.next_bleed = wound.received + interval
                    if wound.next_bleed <= now and not cond.dead:
                        bleed(entity, c.anatomy, injury, shock, cond, index, None, rules, ctx)
            if 0 <= injury.next_course <= now and not cond.dead:
                extended_shock_course(entity, c.anatomy, injury, shock, cond, rules, ctx)
            if 0 <= injury.next_coma <= now and not cond.dead:
                coma_course(entity, c.anatomy, injury, shock, cond, rules, ctx)
            if cond.dead:
                # Died this phase, after the DAMAGE phase settled the wounded: health goes to 0 now, not next tick
                # (a fight that ends this tick would leave a dead creature reading its old health).
                refresh_status(entity, c.anatomy, injury, cond, c.equipment, rules, ctx)
