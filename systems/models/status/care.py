"""The status-ladder model over time: coming round, the untended death of the dying, rest and healing.

- **Coming round** (sandbox rule). A passed-out creature tests every ``come_round_seconds`` of game time and comes
  round on d20 <= Constitution + its status penalty: in combat the RECOVERY phase's ``ComeRoundProcessor`` makes the
  tests that are due, out of combat ``advance`` does.
- **Out of combat** (``advance``, sandbox rules): minor injuries fade after a night's rest; each rung heals after
  days of rest that grow with the rung; a mortally wounded creature that nobody tends dies an hour after the
  wound. Each rule is due at a time kept in the creature's ``StatusState``; ``advance`` runs them in time order on
  the shared due queue (``sandbox.systems.schedule``), and who tends the dying is the care circle
  (``sandbox.systems.care``).

This module holds those rules, the move from rung to rung they share with a fresh wound (``set_level``, which
starts and stops the untended clock), the due times of a creature (``KINDS``, ``current_due``) and the care circle.
"""

from __future__ import annotations

from collections.abc import Mapping

import esper

from sandbox.components.care import CarePolicy
from sandbox.components.events import ModelStateChanged
from sandbox.components.models.status import DEAD, HEALTHY, LEVELS, MORTALLY, StatusState, StatusTables
from sandbox.components.state import Condition
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng, roll_die
from sandbox.systems.models.status.rules import MODEL, StatusTest, comes_round, penalty, status_state
from sandbox.systems.schedule import Due, DueQueue, run_due

__all__ = ["KINDS", "ComeRoundProcessor", "advance", "care_circle", "come_round_test", "current_due", "set_level"]


def set_level(entity: int, state: StatusState, level: int, tables: StatusTables, ctx: TickContext) -> None:
    """Move a creature to ``level``, logging the change.

    The minor tally starts afresh by the caller (its walking speed follows the new penalty:
    ``StatusModel.speed_factor``), and a mortally wounded creature's untended clock starts.
    """
    if level == state.level:
        return
    clock = ctx.clock
    ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "status", LEVELS[state.level], LEVELS[level]))
    state.level = level
    if level == MORTALLY:
        state.dies_at = clock.time + tables.mortal_untended_seconds
    elif level < MORTALLY:
        state.dies_at = -1.0


def come_round_test(entity: int, state: StatusState, cond: Condition, tables: StatusTables, ctx: TickContext,
                    rng: Rng) -> bool:
    """A passed-out creature's coming-round test (due now); returns whether it came round.

    It wakes on d20 <= Constitution + its status penalty, else tests again ``come_round_seconds`` later.
    """
    roll = roll_die(tables.come_round_die, rng)
    pen = penalty(state.level, state.penalty_reduction, tables.penalties)
    test = StatusTest(roll, state.constitution, pen, comes_round(roll, state.constitution + pen))
    if test.result:
        cond.out = False
        state.come_round_at = -1.0
        clock = ctx.clock
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL,
                                   f"consciousness (d20 {roll} vs {test.against_words()})", "passed out", "awake"))
        return True
    state.come_round_at += tables.come_round_seconds
    return False


class ComeRoundProcessor(esper.Processor):
    """RECOVERY phase: every passed-out creature whose coming-round test is due makes it (in entity order).

    Args:
        ctx: The shared tick context.
        tables: The model's ``StatusTables``.
    """

    def __init__(self, ctx: TickContext, tables: StatusTables) -> None:
        self.ctx = ctx
        self.tables = tables

    def process(self) -> None:
        """Make the due coming-round tests."""
        ctx = self.ctx
        now = ctx.clock.time
        due = [(c.entity, status_state(c), c.condition) for c in ctx.current().creatures.values()
               if c.condition.out and not c.condition.dead and 0 <= status_state(c).come_round_at <= now]
        for entity, state, cond in due:
            come_round_test(entity, state, cond, self.tables, ctx, ctx.streams["shock"])


KINDS = ("come round", "untended", "heal", "minor")
"""The due rules out of combat, in the order they run when due at the same time."""


def current_due(state: StatusState, cond: Condition, kind: str) -> float:
    """The due time a creature's state holds now for ``kind``; -1 when none."""
    if cond.dead:
        return -1.0
    if kind == "come round":
        return state.come_round_at if cond.out else -1.0
    if kind == "untended":
        return state.dies_at if state.level == MORTALLY else -1.0
    if kind == "heal":
        return state.heal_at if HEALTHY < state.level < DEAD else -1.0
    return state.minor_heal_at if state.minor > 0 else -1.0


def care_circle(creatures: Mapping[int, Creature], care: CarePolicy) -> CareCircle:
    """Who tends a patient: a team-mate able to act, else the patient itself.

    The team-mate is the lowest entity (one of the care policy's healers, when it names them); the patient tends
    itself when it can act and self-care is allowed. The ladder has no tending skill: any tender will do.
    """

    def skill(c: Creature, on_self: bool) -> int:
        return 0

    return CareCircle(creatures, care, skill)


def advance(tables: StatusTables, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
    """Rest out of combat for ``seconds``, each due rule when due, in time order (the shared due queue).

    The rules: coming-round tests, the untended death of the mortally wounded, minor injuries fading and rungs
    healing. Rest clocks start now for every wounded creature that is not already resting: minor injuries clear
    after ``minor_heal_seconds``; a rung heals after the ``heal_seconds`` of the rung it is on (healing a rung also
    forgets the minor injuries, as every status change does). A mortally wounded creature that nobody tends when
    its untended time runs out dies; tended, it lives and heals (the care circle: a team-mate able to act, else
    itself).

    Args:
        tables: The model's ``StatusTables``.
        ctx: The shared tick context (its clock moves on to the end of the rest).
        seconds: Game seconds of rest.
        care: Who may tend whom.
    """
    clock = ctx.clock
    start = clock.seconds
    end = start + seconds
    creatures = ctx.creatures()
    living: list[Creature] = []
    for c in creatures.values():
        if c.condition.dead:
            continue
        living.append(c)
        state = status_state(c)
        if HEALTHY < state.level < DEAD and state.heal_at < 0:
            state.heal_at = start + tables.heal_seconds[state.level - 1]
        if state.minor > 0 and state.minor_heal_at < 0:
            state.minor_heal_at = start + tables.minor_heal_seconds
        # The untended clock is not re-armed here: becoming mortally wounded arms it (set_level), and a
        # mortally wounded creature without one was found tended already (a second advance would check again).
    queue = DueQueue(KINDS)
    circle = care_circle(creatures, care)

    def push(c: Creature) -> None:
        state, cond = status_state(c), c.condition
        for kind in KINDS:
            queue.push(kind, c.entity, current_due(state, cond, kind))

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        return current_due(status_state(c), c.condition, due.kind) == due.time  # else stale

    for c in living:
        push(c)

    def run(due: Due) -> None:
        c = creatures[due.entity]
        _due_item(c, due.kind, circle, creatures, tables, ctx)
        circle.update(c.entity)
        if not c.condition.dead:
            push(c)

    run_due(ctx, queue, end, is_due, run)


def _due_item(c: Creature, kind: str, circle: CareCircle, creatures: Mapping[int, Creature], tables: StatusTables,
              ctx: TickContext) -> None:
    clock = ctx.clock
    entity, state, cond = c.entity, status_state(c), c.condition
    if kind == "come round":
        come_round_test(entity, state, cond, tables, ctx, ctx.streams["shock"])
    elif kind == "untended":
        state.dies_at = -1.0
        tender = circle.tender_for(entity)
        if tender is None:
            kill(entity, cond, "mortally wounded, untended", ctx)
        else:
            who = "itself" if tender.on_self else creatures[tender.entity].name
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "care", "untended",
                                       f"tended by {who}"))
    elif kind == "heal":
        state.minor = 0
        state.minor_heal_at = -1.0
        set_level(entity, state, state.level - 1, tables, ctx)
        state.heal_at = clock.time + tables.heal_seconds[state.level - 1] if state.level > HEALTHY else -1.0
    else:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "minor injuries", str(state.minor),
                                   "0"))
        state.minor = 0
        state.minor_heal_at = -1.0
