"""Wounds over time: bleeding and blood loss, shock re-tests, Extended Shock, Coma, treatment, healing, infection.

Every rule here is a function of one creature's components and the shared context, called when its due time
comes: in combat by the EFFECTS and RECOVERY processors each tick, out of combat by ``Sandbox.advance``, which
jumps from due time to due time. Each function moves the due time it served forward (or clears it), and tells
the active scheduler (``schedule``) about every due time it sets, so a time jump never scans the whole world.

Numbers come from ``AftercareRules`` (``configs/models/anatomy.toml``, section ``aftercare``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import esper

from components.events import (
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
from components.rules import LEVEL_CODES, AftercareRules, ShockState, TestResult
from components.state import Anatomy, Condition, Shock
from components.wounds import Injury, Wounds
from systems.context import TickContext
from systems.creatures import effective_ml
from systems.dice import skill_test
from systems.impairment import permanent_impairment_for

SEVERITY: tuple[str, ...] = ("none", "minor", "serious", "serious", "grievous", "grievous")
"""Severity of each injury level."""

DAY = 86400.0

Scheduler = Callable[[str, int, int, float], None]


def rules_of(ctx: TickContext) -> AftercareRules:
    """The aftercare tables (they are part of every shipped rules file)."""
    aftercare = ctx.rules.aftercare
    if aftercare is None:
        raise RuntimeError("these anatomy rules carry no aftercare tables")
    return aftercare


def schedule(ctx: TickContext, kind: str, entity: int, index: int, due: float) -> None:
    """Tell the active scheduler (during ``Sandbox.advance``) about a due time; a no-op in tick-by-tick play."""
    scheduler: Scheduler | None = ctx.scratch.get("scheduler")
    if scheduler is not None and due >= 0:
        scheduler(kind, entity, index, due)


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


def refresh_fatigue(wounds: Wounds, rules: AftercareRules) -> None:
    """Total fatigue: anemia (per Blood Loss Point), active infections, weariness. A penalty on every test."""
    total = wounds.blood_loss * rules.anemia_per_point + wounds.weariness
    for injury in wounds.injuries:
        if injury.infection_hr is not None:
            total += infection_fatigue(injury.infection_hr, rules)
    if total != wounds.fatigue:
        wounds.fatigue = total
        wounds.profile = None  # test MLs changed


def course(result: TestResult, rules: AftercareRules) -> int:
    """HR change of a course test (Extended Shock, Coma, infection): CF -2, MF -1, MS +1, CS +2."""
    return rules.course_change[result]


def course_test(entity: int, anat: Anatomy, wounds: Wounds, hr: int, name: str, ctx: TickContext) -> int:
    """A course test (Extended Shock, Coma, infection) against Healing Base x HR, fatigue included; returns the
    new HR (CF -2, MF -1, MS +1, CS +2) and records it."""
    result = skill_test(healing_base(anat) * hr - wounds.fatigue, ctx.streams["healing"], ctx.rules.tests)
    hr += course(result, rules_of(ctx))
    ctx.emit(CourseTested(ctx.clock.tick, ctx.clock.time, entity, name, result.name, hr))
    return hr


def coma_hr(shock_value: int, level: int, rules: AftercareRules) -> int:
    """Coma Healing Rate = 12 - the causing location's Shock Value - the injury level (skull S3: 4, calf S3: 8)."""
    return rules.coma_hr_base - shock_value - level


# ----------------------------------------------------------------------------------------------- bleeding


def start_bleeding(injury: Injury, now: float, rules: AftercareRules) -> None:
    """Make a wound bleed, its first advance test due one interval from now."""
    injury.bleeder = True
    if injury.next_bleed < 0:
        injury.next_bleed = now + rules.bleed_interval


def stoppage(injury: Injury, tender_ml: int | None, rng_draw: Callable[[int | None], TestResult] | None,
             rules: AftercareRules) -> TestResult:
    """A Blood Stoppage Test on one wound: CF keeps bleeding; MF keeps bleeding with +10 on the next try; MS stops
    it after the next advance test; CS stops it at once. With no tender, the wound counts as a CF stoppage."""
    if tender_ml is None or rng_draw is None:
        return TestResult.CF
    result = rng_draw(tender_ml + injury.stoppage_bonus)
    injury.stoppage_bonus = rules.stoppage_carry_bonus if result is TestResult.MF else 0
    if result is TestResult.MS:
        injury.stop_after_advance = True
    elif result is TestResult.CS:
        injury.bleeder = False
        injury.next_bleed = -1.0
    return result


def blood_loss_steps(state: ShockState, points: int) -> ShockState:
    """Each Blood Loss Point moves the shock state one step (None -> Stunned -> ... -> Dead)."""
    return ShockState(min(int(state) + points, int(ShockState.DEAD)))


def bleed(entity: int, anat: Anatomy, wounds: Wounds, shock: Shock, cond: Condition, index: int,
          tender_ml: int | None, ctx: TickContext) -> None:
    """One bleeding round of wound ``index``: the stoppage test (if a tender is at hand), then the Blood Loss
    Advance test (Strength); Blood Loss Points add anemia and move the shock state one step each."""
    from systems.damage import set_shock  # imported here: damage imports the modules this one builds on

    rules = rules_of(ctx)
    injury = wounds.injuries[index]
    clock = ctx.clock
    rng = ctx.streams["bleeding"]
    tests = ctx.rules.tests
    loc = anat.body.locations[injury.location].name
    result = stoppage(injury, tender_ml, (lambda ml: skill_test(ml, rng, tests)) if tender_ml is not None else None,
                      rules)
    if not injury.bleeder:
        ctx.emit(BleedingStopped(clock.tick, clock.time, entity, loc, result.name))
        return
    strength = effective_ml(anat, wounds, "strength", ctx)  # fatigue included
    advance = skill_test(strength, rng, tests)
    points = rules.blood_loss[advance]
    if points:
        wounds.blood_loss += points
        refresh_fatigue(wounds, rules)
    ctx.emit(BloodLost(clock.tick, clock.time, entity, loc, advance.name, points, wounds.blood_loss))
    if injury.stop_after_advance:
        injury.bleeder = False
        injury.stop_after_advance = False
        injury.next_bleed = -1.0
        ctx.emit(BleedingStopped(clock.tick, clock.time, entity, loc, "MS"))
    else:
        injury.next_bleed += rules.bleed_interval
        schedule(ctx, "bleed", entity, index, injury.next_bleed)
    if points and not cond.dead:
        new = blood_loss_steps(shock.state, points)
        if new != shock.state:
            wounds.shock_cause = (injury.location, max(injury.level, 1))  # what a Coma's Healing Rate reads
            set_shock(entity, shock, cond, new, ctx, cause="blood loss")
            schedule(ctx, "retest", entity, 0, shock.retest_at)


# ---------------------------------------------------------------------------------------- shock re-tests


def retest(entity: int, anat: Anatomy, wounds: Wounds, shock: Shock, cond: Condition, ctx: TickContext) -> None:
    """A Shock re-test at -20 (fatigue applies, impairment does not).

    Stunned: CS or MS clears it, MF or CF leaves it Stunned until the next turn. Incapacitated or Unconscious:
    CS clears all shock, MS leaves it Stunned, MF starts Extended Shock at HR 5, CF Extended Shock at HR 4, or a
    Coma from Unconscious.
    """
    rules = rules_of(ctx)
    clock = ctx.clock
    ml = effective_ml(anat, wounds, "shock", ctx, rules.retest_modifier)  # fatigue applies, impairment does not
    result = skill_test(ml, ctx.streams["shock"], ctx.rules.tests)
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
        begin_coma(entity, anat, wounds, ctx)
    else:
        after = before
        wounds.extended_shock_hr = rules.extended_shock_hr[result]
        wounds.next_course = clock.time + rules.extended_shock_interval
        schedule(ctx, "course", entity, 0, wounds.next_course)
    ctx.emit(ShockRetested(clock.tick, clock.time, entity, result.name, before.label, after.label))
    if after != before:
        shock.state = after
        shock.since = clock.tick
        if after < ShockState.INCAPACITATED and cond.prone and after is ShockState.NONE:
            pass  # it gets up on its next turn (standing costs the turn)
    schedule(ctx, "retest", entity, 0, shock.retest_at)


def clear_shock(entity: int, shock: Shock, ctx: TickContext) -> None:
    """Extended Shock or a Coma has run its course: all shock clears (a prone creature gets up on its turn)."""
    if shock.state is not ShockState.NONE:
        ctx.emit(ShockChanged(ctx.clock.tick, ctx.clock.time, entity, shock.state.label, ShockState.NONE.label))
    shock.state = ShockState.NONE
    shock.since = ctx.clock.tick
    shock.retest_at = -1.0


def begin_coma(entity: int, anat: Anatomy, wounds: Wounds, ctx: TickContext) -> None:
    """Fall into a Coma: HR from the wound that caused the shock; a course test every d10 days."""
    rules = rules_of(ctx)
    location, level = wounds.shock_cause if wounds.shock_cause is not None else (0, 1)
    shock_value = anat.body.locations[location].shock_value if anat.body.locations else 5
    wounds.coma_hr = coma_hr(shock_value, level, rules)
    wounds.coma_since = ctx.clock.time
    wounds.next_coma = ctx.clock.time + coma_interval(ctx)
    schedule(ctx, "coma", entity, 0, wounds.next_coma)


def coma_interval(ctx: TickContext) -> float:
    """d10 days (the rules' die and unit) until the next coma course test."""
    rules = rules_of(ctx)
    roll = int(ctx.streams["healing"].random() * rules.coma_interval_die) + 1
    return roll * rules.coma_interval_unit


def extended_shock_course(entity: int, anat: Anatomy, wounds: Wounds, shock: Shock, cond: Condition,
                          ctx: TickContext) -> None:
    """Every 4 hours: a course test against Healing Base x HR; HR <= 0 dies, HR >= 6 leaves Extended Shock."""
    from systems.damage import kill

    rules = rules_of(ctx)
    clock = ctx.clock
    if wounds.extended_shock_hr is None:
        wounds.next_course = -1.0
        return
    hr = course_test(entity, anat, wounds, wounds.extended_shock_hr, "extended shock", ctx)
    if hr <= rules.hr_death_at:
        wounds.extended_shock_hr = None
        wounds.next_course = -1.0
        kill(entity, cond, "extended shock", ctx)
    elif hr >= rules.hr_recover_at:
        wounds.extended_shock_hr = None
        wounds.next_course = -1.0
        if wounds.coma_hr is None:
            clear_shock(entity, shock, ctx)
    else:
        wounds.extended_shock_hr = hr
        wounds.next_course = clock.time + rules.extended_shock_interval
        schedule(ctx, "course", entity, 0, wounds.next_course)


def coma_course(entity: int, anat: Anatomy, wounds: Wounds, shock: Shock, cond: Condition,
                ctx: TickContext) -> None:
    """Every d10 days: a course test against Healing Base x Coma HR; HR <= 0 dies; HR >= 6 wakes, with weariness
    fatigue equal to the days spent in the coma."""
    from systems.damage import kill

    rules = rules_of(ctx)
    clock = ctx.clock
    if wounds.coma_hr is None:
        wounds.next_coma = -1.0
        return
    hr = course_test(entity, anat, wounds, wounds.coma_hr, "coma", ctx)
    if hr <= rules.hr_death_at:
        wounds.coma_hr = None
        wounds.next_coma = -1.0
        kill(entity, cond, "coma", ctx)
    elif hr >= rules.hr_recover_at:
        days = math.ceil((clock.time - wounds.coma_since) / DAY)
        wounds.coma_hr = None
        wounds.next_coma = -1.0
        wounds.coma_since = -1.0
        wounds.weariness += days
        refresh_fatigue(wounds, rules)
        wounds.extended_shock_hr = None
        wounds.next_course = -1.0
        clear_shock(entity, shock, ctx)
    else:
        wounds.coma_hr = hr
        wounds.next_coma = clock.time + coma_interval(ctx)
        schedule(ctx, "coma", entity, 0, wounds.next_coma)


# ------------------------------------------------------------------------------------------- treatment


def treat(entity: int, anat: Anatomy, wounds: Wounds, index: int, physician_ml: int | None, self_care: bool,
          ctx: TickContext) -> None:
    """Treat one wound: a Physician test with the aspect and severity modifier sets its Healing Rate (a CS on a
    minor wound heals it outright); a failed surgery or a grievous wound treated to HR 2-3 bleeds; some Healing
    Rates mark the wound as able to leave permanent impairment."""
    rules = rules_of(ctx)
    clock = ctx.clock
    injury = wounds.injuries[index]
    severity = SEVERITY[injury.level]
    aspect = ASPECT_NAMES[injury.aspect]
    procedure = rules.treatment[aspect][severity]
    ml = None
    if physician_ml is not None:
        ml = physician_ml + procedure.modifier + (rules.self_treatment_modifier if self_care else 0)
    result = skill_test(ml, ctx.streams["healing"], ctx.rules.tests)
    hr = rules.treatment_hr[severity][result]
    loc = anat.body.locations[injury.location].name
    if hr == 0:
        heal_wound(entity, anat, wounds, index, ctx)
        ctx.emit(Treated(clock.tick, clock.time, entity, loc, procedure.procedure, result.name, 0, False))
        return
    injury.healing_rate = hr
    wounds.dirty = True  # a minor wound healing well (HR 6) no longer impairs
    injury.next_heal = clock.time + rules.healing_period
    schedule(ctx, "heal", entity, index, injury.next_heal)
    bleeds = (procedure.procedure == "SUR" and result in rules.surgery_bleeder_on) or (
        severity == "grievous" and hr in rules.grievous_bleeder_hr.get(aspect, ()))
    if bleeds and not injury.bleeder:
        start_bleeding(injury, clock.time, rules)
        schedule(ctx, "bleed", entity, index, injury.next_bleed)
        ctx.emit(BleederOpened(clock.tick, clock.time, entity, loc))
    injury.permanent_eligible = hr in rules.permanent_eligible.get(aspect, {}).get(severity, ())
    ctx.emit(Treated(clock.tick, clock.time, entity, loc, procedure.procedure, result.name, hr,
                     injury.permanent_eligible))


ASPECT_NAMES = ("blunt", "edged", "piercing", "fire")


# --------------------------------------------------------------------------------------------- healing


def heal_wound(entity: int, anat: Anatomy, wounds: Wounds, index: int, ctx: TickContext) -> None:
    """A wound closes: it stops bleeding, and leaves permanent impairment by the days it took (when eligible)."""
    clock = ctx.clock
    injury = wounds.injuries[index]
    injury.level = 0
    injury.healed_at = clock.time
    injury.bleeder = False
    injury.next_bleed = -1.0
    injury.next_heal = -1.0
    days = (clock.time - injury.received) / DAY
    permanent = permanent_impairment_for(days, ctx.rules) if injury.permanent_eligible else 0
    part = anat.body.locations[injury.location].part
    if permanent < 0:
        wounds.permanent_impairment[part] = min(wounds.permanent_impairment.get(part, 0), permanent)
    wounds.reindex()
    wounds.dirty = True
    ctx.emit(InjuryHealed(clock.tick, clock.time, entity, anat.body.locations[injury.location].name,
                          LEVEL_CODES[injury.initial_level], round(days, 2), permanent))


def heal(entity: int, anat: Anatomy, wounds: Wounds, cond: Condition, index: int, ctx: TickContext) -> None:
    """One healing period of wound ``index``.

    An infected wound makes its infection course test (HR <= 0 kills, HR >= 6 cures). Otherwise, while any
    infection is active the wound does not heal; else the Injury Healing Test against Healing Base x HR
    (untreated: an automatic CF): CF no healing (and infection, if the wound can take one), MF nothing, MS one
    level better, CS two.
    """
    from systems.damage import kill

    rules = rules_of(ctx)
    clock = ctx.clock
    injury = wounds.injuries[index]
    loc = anat.body.locations[injury.location].name
    hb = healing_base(anat)
    rng = ctx.streams["healing"]
    injury.next_heal = clock.time + rules.healing_period
    if injury.infection_hr is not None:
        hr = course_test(entity, anat, wounds, injury.infection_hr, f"infection ({loc})", ctx)
        if hr <= rules.hr_death_at:
            injury.infection_hr = None
            refresh_fatigue(wounds, rules)
            kill(entity, cond, "infection", ctx)
            return
        injury.infection_hr = None if hr >= rules.infection_cured_at else hr
        refresh_fatigue(wounds, rules)
    elif any(i.infection_hr is not None for i in wounds.injuries):
        pass  # an active infection elsewhere stops all healing this period
    else:
        ml = None if injury.healing_rate is None else hb * injury.healing_rate - wounds.fatigue
        result = skill_test(ml, rng, ctx.rules.tests)
        change = rules.healing_change[result]
        if result is TestResult.CF and injury.aspect in rules.infectable and injury.infection_hr is None:
            injury.infection_hr = (injury.healing_rate or 0) + 1
            refresh_fatigue(wounds, rules)
            ctx.emit(Infected(clock.tick, clock.time, entity, loc, injury.infection_hr))
        if change:
            injury.level += change
            if injury.level <= 0:
                heal_wound(entity, anat, wounds, index, ctx)
                return
            wounds.reindex()
            wounds.dirty = True
    schedule(ctx, "heal", entity, index, injury.next_heal)


def start_healing_clock(wounds: Wounds, index: int, ctx: TickContext) -> None:
    """Give an open wound its first healing period (from when it was received), if it has none yet."""
    injury = wounds.injuries[index]
    if injury.level > 0 and injury.next_heal < 0:
        injury.next_heal = injury.received + rules_of(ctx).healing_period


class BleedingProcessor(esper.Processor):
    """EFFECTS phase: in combat, every bleeder whose advance test is due makes it (no one tends wounds mid-fight:
    the stoppage counts as failed), and due Extended Shock and Coma course tests run."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Run what is due this tick."""
        from systems.creatures import query_creatures
        from systems.damage import refresh_status

        ctx = self.ctx
        if ctx.rules.aftercare is None:
            return
        now = ctx.clock.time
        interval = ctx.rules.aftercare.bleed_interval
        for entity, (_, anat, wounds, _, shock, cond, _, _, equip) in (
                ctx.scratch.get("creatures") or query_creatures()).items():
            if cond.dead:
                continue
            for index, injury in enumerate(wounds.injuries):
                if injury.bleeder and injury.level >= 0:
                    if injury.next_bleed < 0:
                        injury.next_bleed = injury.received + interval
                    if injury.next_bleed <= now and not cond.dead:
                        bleed(entity, anat, wounds, shock, cond, index, None, ctx)
            if 0 <= wounds.next_course <= now and not cond.dead:
                extended_shock_course(entity, anat, wounds, shock, cond, ctx)
            if 0 <= wounds.next_coma <= now and not cond.dead:
                coma_course(entity, anat, wounds, shock, cond, ctx)
            if cond.dead:
                # Died this phase, after the DAMAGE phase settled the wounded: health goes to 0 now, not next tick
                # (a fight that ends this tick would leave a dead creature reading its old health).
                refresh_status(entity, anat, wounds, cond, equip, ctx)
