"""The wound-depth model over time: treatment out of combat, and the death clock of the dying.

Out of combat (``advance``), a tender (the care circle's pick: a team healer or the creature itself) treats one
wound per attempt: d20 + skill bonus + its own wound penalty (+ the self-care modifier) against the injury's
treatment DC. Attempts and deaths run from the shared due queue (``sandbox.systems.schedule``); in a fight the
``DyingProcessor`` runs the death clock tick by tick.

What it holds: the treatment rules (``treatment_order``, ``treatment_check``; a d20 is
``sandbox.systems.d20.roll_d20``), ``refresh`` (the state settled and its changes reported after a wound is dealt or
treated), the ``DyingProcessor``, ``advance_care`` and the due kinds it runs (``KINDS``).
"""

from __future__ import annotations

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.events import ModelStateChanged
from sandbox.components.models.depth import DepthState, DepthTables, DepthWound
from sandbox.components.state import Condition
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.d20 import roll_d20
from sandbox.systems.damage_model import ModelError
from sandbox.systems.models.depth.readout import label_of
from sandbox.systems.models.depth.rules import NAME, depth_state, settle, wounds_of
from sandbox.systems.schedule import Due, DueQueue, run_due

__all__ = ["KINDS", "DyingProcessor", "advance_care", "refresh", "treatment_check", "treatment_order"]

KINDS: tuple[str, ...] = ("care", "die")
"""The due rules out of combat, in the order they run when due at the same time (a treatment before a death)."""


# --------------------------------------------------------------------------------------------------- treatment


def treatment_order(wounds: list[DepthWound]) -> list[int]:
    """Indices of the wounds needing treatment, most urgent first.

    The soonest death clock first, then down, then broken parts, then the heaviest penalty, then the oldest.
    """
    pending = [i for i, w in enumerate(wounds) if w.open]
    return sorted(pending, key=lambda i: (wounds[i].dies_at < 0, wounds[i].dies_at, not wounds[i].down,
                                          not wounds[i].breaks, wounds[i].penalty, i))


def treatment_check(natural: int, bonus: int, dc: int) -> bool:
    """A treatment attempt succeeds when d20 + bonus meets the DC."""
    return natural + bonus >= dc


# -------------------------------------------------------------------------------------------- wounds and dying


def refresh(entity: int, state: DepthState, cond: Condition, before: str, before_broken: set[int],
            body: BodyStructure, collapse_at: int, ctx: TickContext) -> None:
    """Settle the derived state after its wounds changed, sync ``Condition.out`` and emit what changed.

    A creature going down reels: it acts no more this tick. The events name the parts broken, lost or working
    again, and the label's change.
    """
    settle(state, collapse_at)
    clock = ctx.clock
    for p in sorted(state.broken ^ before_broken):
        after = "lost" if p in state.lost else "broken" if p in state.broken else "working"
        was = "broken" if p in before_broken else "working"
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, NAME, f"part {body.parts[p].name}", was, after))
    if state.down and not cond.out:
        cond.out = True
        cond.reeling = True
    elif not state.down and cond.out:
        cond.out = False
    after_label = label_of(state, cond.dead)
    if after_label != before:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, NAME, "state", before, after_label))


def _death_cause(state: DepthState, body: BodyStructure) -> str:
    due = [w for w in wounds_of(state) if not w.treated and w.dies_at >= 0]
    if not due:
        return "wounds"
    w = min(due, key=lambda w: w.dies_at)
    return f"{w.name} ({body.locations[w.location].name}), untreated"


class DyingProcessor(esper.Processor):
    """EFFECTS phase: a creature whose death clock has run out dies."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Kill the creatures whose time has come, in entity order."""
        ctx = self.ctx
        now = ctx.clock.time + 1e-9
        for c in ctx.current().creatures.values():
            state = depth_state(c)
            if 0 <= state.dies_at <= now and not c.condition.dead:
                kill(c.entity, c.condition, _death_cause(state, c.anatomy.body), ctx)
                state.care_at = -1.0


# ----------------------------------------------------------------------------------------------- out of combat


def advance_care(tables: DepthTables, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
    """Out of combat for ``seconds``: treatment attempts and deaths in time order (see ``DepthModel.advance``).

    The wounded are first seen to after the care policy's first-aid delay. Each attempt, the care circle's tender
    (the best team-mate able to act, else the creature itself) treats the most urgent wound it can treat at all;
    the next attempt follows after ``attempt_seconds``. With nobody at hand, or nothing the tender can do, the
    creature waits until a treatment on its team succeeds (a tender may then be back on its feet or steadier).

    Raises:
        ModelError: A negative span.
    """
    if seconds < 0:
        raise ModelError(f"time only moves forward, not by {seconds:g} s")
    rules = tables.care
    clock = ctx.clock
    end = clock.seconds + seconds
    delay = rules.first_aid_delay if care.first_aid_delay is None else float(care.first_aid_delay)
    creatures = ctx.creatures()
    queue = DueQueue(KINDS)
    for e, c in creatures.items():
        st = depth_state(c)
        if c.condition.dead:
            continue
        if st.care_at < 0 and any(w.open for w in wounds_of(st)):
            st.care_at = clock.seconds + delay
        queue.push("care", e, st.care_at)
        queue.push("die", e, st.dies_at)

    def skill(c: Creature, on_self: bool) -> int:
        ml = c.anatomy.mls.get(rules.skill, 0)
        st = depth_state(c)
        bonus = ml // rules.skill_divisor + st.penalty + st.mishap  # a pulled muscle spoils its next roll too
        return bonus + rules.self_care_modifier if on_self else bonus

    def eligible(c: Creature, on_self: bool) -> bool:
        return on_self or c.anatomy.mls.get(rules.skill) is not None

    circle = CareCircle(creatures, care, skill, eligible)
    waiting: dict[str, set[int]] = {}  # per team, the wounded whose care lapsed (nobody could help them)

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        if c.condition.dead:
            return False
        st = depth_state(c)
        return (st.care_at if due.kind == "care" else st.dies_at) == due.time

    rng = ctx.streams["healing"]

    def run(due: Due) -> None:
        e = due.entity
        c = creatures[e]
        st = depth_state(c)
        cond, body = c.condition, c.anatomy.body
        if due.kind == "die":
            kill(e, cond, _death_cause(st, body), ctx)
            st.care_at = -1.0
            circle.update(e)
            return
        tender = circle.tender_for(e)
        wounds = wounds_of(st)
        # The most urgent wound this tender can treat at all (a DC beyond d20 + bonus is not attempted).
        order = [] if tender is None or tender.skill is None else \
            [i for i in treatment_order(wounds) if 20 + tender.skill >= wounds[i].treat_dc]
        if tender is None or tender.skill is None or not order:
            st.care_at = -1.0  # re-armed when a treatment on its team succeeds
            waiting.setdefault(c.team, set()).add(e)
            return
        bonus = tender.skill
        index = order[0]
        wound = wounds[index]
        natural = roll_d20(rng)
        success = treatment_check(natural, bonus, wound.treat_dc)
        tender_state = depth_state(creatures[tender.entity])
        if tender_state.mishap:  # the roll it spoiled
            tender_state.mishap = 0
            circle.update(tender.entity)
        loc = body.locations[wound.location].name
        verdict = "treated" if success else "untreated"
        ctx.emit(ModelStateChanged(clock.tick, clock.time, e, NAME, f"treatment: {wound.name} ({loc})",
                                   "untreated", f"{verdict} (d20 {natural} {bonus:+d} vs DC {wound.treat_dc})"))
        if success:
            before, before_broken, dies_before = label_of(st, cond.dead), set(st.broken), st.dies_at
            st.wounds[index] = (*st.wounds[index][:-1], True)
            refresh(e, st, cond, before, before_broken, body, tables.collapse_at, ctx)
            if st.dies_at != dies_before:
                queue.push("die", e, st.dies_at)
            team = waiting.get(c.team, set())
            for other in sorted(team - {e}):  # a tender may be back on its feet or steadier: re-arm the waiting
                oc = creatures[other]
                ost = depth_state(oc)
                if ost.care_at < 0 and not oc.condition.dead and any(w.open for w in wounds_of(ost)):
                    ost.care_at = clock.seconds
                    queue.push("care", other, ost.care_at)
                team.discard(other)
        st.care_at = clock.seconds + rules.attempt_seconds if any(w.open for w in wounds_of(st)) else -1.0
        queue.push("care", e, st.care_at)
        circle.update(e)

    run_due(ctx, queue, end, is_due, run)
