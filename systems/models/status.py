"""The status-ladder model (document 004): a creature's harm is one rung of a seven-rung ladder.

healthy -> slightly wounded -> wounded -> seriously wounded -> critically wounded -> mortally wounded -> dead.

- **Damage levels.** A damage level is the creature's Endurance in HP. On each wound, total = minor injuries +
  damage; the creature drops ``total // Endurance`` rungs and the remainder (``total % Endurance``) is the new
  minor-injury tally (decisions.md: the old tally is "erased" by the status change, the remainder stays noted).
  Ultor (Endurance 8): 3 -> healthy, 3 minor; +10 -> 13 -> slightly wounded, 5 minor; +5 -> 10 -> wounded, 2 minor.
- **Death.** A wound that would push a creature past "mortally wounded" kills it on the spot; any damage (at
  least one HP after armour) to a mortally wounded creature kills it.
- **Penalties.** Each rung has a roll penalty (0/-2/-4/-6/-8/-10) on every roll the creature makes (the attack
  roll here) and on its walking speed. An ability that reduces the penalty can never bring it below half the
  table value (``penalty``).
- **Passing out.** A seriously wounded creature that loses at least one more rung, or a critically wounded one
  that takes any damage, tests: d20 > Constitution passes out (``Condition.out``, and it falls prone). Sandbox
  rule: it tests again every ``come_round_seconds`` of game time and comes round on d20 <= Constitution.
- **Attack** (decisions.md): document 002's roll, d20 + attack bonus + the status penalty against the target's
  Defense, hits on a margin of 1 or more; damage is the strike mode's dice (this model's table) minus the
  armour value of every worn piece and the creature's natural armour, floored at 0.
- **Out of combat** (``advance``, sandbox rules): minor injuries fade after a night's rest; each rung heals after
  days of rest that grow with the rung; a mortally wounded creature that nobody tends dies an hour after the
  wound.

Every number is in ``configs/models/status.toml``; the code only reads the tables (``StatusTables``).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import esper

from components.creature import CreatureDef
from components.events import DamageDealt, Event, FellProne, ModelStateChanged
from components.gear import ArmorPiece, Dice, StrikeMode
from components.readout import Readout
from components.state import Anatomy, Condition
from systems.context import TickContext
from systems.creatures import Parts, can_act, query_creatures
from systems.damage import kill
from systems.dice import Rng, roll_dice, roll_die
from systems.models.base import DamageModel, register
from systems.models.d20 import d20_attack, unaimed_attack_events
from systems.phases import Phase

MODEL = "status"

LEVELS: tuple[str, ...] = ("healthy", "slightly wounded", "wounded", "seriously wounded", "critically wounded",
                           "mortally wounded", "dead")
"""The status ladder, best first: the readout's words."""

HEALTHY, SLIGHTLY, WOUNDED, SERIOUSLY, CRITICALLY, MORTALLY, DEAD = range(len(LEVELS))

HOUR = 3600.0
DAY = 86400.0
OVERRIDE_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "constitution": (0, 100), "endurance": (1, None), "defense": (0, None), "armor": (0, None),
    "penalty_reduction": (0, None)}
"""The bounds of a creature's numbers in ``configs/models/status.toml``; a spawn's overrides are kept inside them."""


# --------------------------------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class StatusWeapon:
    """A strike mode under this model.

    Attributes:
        damage: Damage dice in HP.
        attack_bonus: Added to the attack roll with this mode.
    """

    damage: Dice
    attack_bonus: int = 0


@dataclass(frozen=True, slots=True)
class StatusCreature:
    """A creature kind's numbers under this model.

    Attributes:
        constitution: Tested on d20 to stay conscious (d20 > Constitution passes out).
        endurance: HP per damage level.
        attack_bonus: Added to its d20 attack roll.
        defense: What an attack roll must beat.
        armor: Natural armour value (hide, scales), subtracted from damage like worn armour.
        penalty_reduction: How much an ability reduces its damage penalties (never below half the table value).
    """

    constitution: int
    endurance: int
    attack_bonus: int
    defense: int
    armor: int = 0
    penalty_reduction: int = 0


@dataclass(frozen=True, slots=True)
class StatusTables:
    """Every number of the model (``configs/models/status.toml``).

    Attributes:
        penalties: Roll penalty of each living rung, healthy .. mortally wounded (0, -2, -4, -6, -8, -10).
        penalty_to_damage: Whether the attacker's penalty also lowers its damage roll.
        passing_out_die: The die of the passing-out test (passes out when the roll exceeds Constitution).
        come_round_die: The die of the coming-round test (comes round when the roll is at most Constitution).
        come_round_seconds: Game seconds between coming-round tests.
        speed_loss_per_point: Fraction of walking speed lost per point of (reduced) penalty.
        min_speed_factor: Walking speed never falls below this fraction of the creature's own.
        minor_heal_seconds: Rest that clears the minor-injury tally.
        heal_seconds: Rest that heals one rung, from slightly .. mortally wounded (five values).
        mortal_untended_seconds: A mortally wounded creature nobody tends dies this long after the wound.
        weapons: By qualified strike-mode id.
        armor: Armour value by armour piece id.
        creatures: By creature id.
    """

    penalties: tuple[int, ...]
    penalty_to_damage: bool
    passing_out_die: int
    come_round_die: int
    come_round_seconds: float
    speed_loss_per_point: float
    min_speed_factor: float
    minor_heal_seconds: float
    heal_seconds: tuple[float, ...]
    mortal_untended_seconds: float
    weapons: Mapping[str, StatusWeapon]
    armor: Mapping[str, int]
    creatures: Mapping[str, StatusCreature]


# --------------------------------------------------------------------------------------------- the state


@dataclass(slots=True)
class StatusState:
    """A creature's place on the ladder and what it needs to play by it.

    Attributes:
        constitution: Its Constitution (from its creature block).
        endurance: HP per damage level.
        attack_bonus: Added to its attack roll.
        defense: What an attack roll must beat.
        armor: Armour value: the worn pieces' values plus its natural armour.
        penalty_reduction: How much its damage penalties are reduced (never below half).
        level: Its rung (0 healthy .. 6 dead).
        minor: Minor injuries noted (HP short of the next rung).
        base_speed: Its own walking speed (kept when a rung first slows it; -1: not yet slowed).
        come_round_at: Game time of its next coming-round test while passed out (-1: none).
        dies_at: Game time a mortally wounded creature dies unless tended (-1: none).
        heal_at: Game time its next rung heals while resting (-1: not resting).
        minor_heal_at: Game time its minor injuries fade while resting (-1: not resting).
    """

    constitution: int = 10
    endurance: int = 8
    attack_bonus: int = 0
    defense: int = 10
    armor: int = 0
    penalty_reduction: int = 0
    level: int = HEALTHY
    minor: int = 0
    base_speed: float = -1.0
    come_round_at: float = -1.0
    dies_at: float = -1.0
    heal_at: float = -1.0
    minor_heal_at: float = -1.0


# --------------------------------------------------------------------------------------------- the rules


@dataclass(frozen=True, slots=True)
class Wound:
    """What one wound does to the ladder (``take_damage``).

    Attributes:
        damage: HP taken (after armour).
        before: Rung before the wound.
        after: Rung after it.
        minor_before: Minor injuries before.
        minor_after: Minor injuries after.
        total: Minor injuries + damage (the sum compared with Endurance).
        levels: Rungs lost (``total // Endurance``; 0 when a mortally wounded creature dies of a scratch).
        killed: The wound killed (past mortally wounded in one wound, or any damage while mortally wounded).
    """

    damage: int
    before: int
    after: int
    minor_before: int
    minor_after: int
    total: int
    levels: int
    killed: bool


def take_damage(level: int, minor: int, damage: int, endurance: int) -> Wound:
    """The rung and minor-injury tally ``damage`` HP (after armour) leave.

    Args:
        level: Current rung (0 healthy .. 5 mortally wounded; a dead creature takes no more).
        minor: Minor injuries noted.
        damage: HP of the wound, after armour (0 or less: no effect).
        endurance: HP per damage level (at least 1).

    Returns:
        The wound: ``levels = (minor + damage) // endurance`` rungs lost, the remainder the new tally; past
        mortally wounded, or any damage while mortally wounded, kills.

    Raises:
        ValueError: Endurance below 1.
    """
    if endurance < 1:
        raise ValueError(f"Endurance must be at least 1, not {endurance}")
    if level >= DEAD or damage <= 0:
        return Wound(max(damage, 0), level, level, minor, minor, minor, 0, False)
    if level == MORTALLY:
        return Wound(damage, level, DEAD, minor, 0, minor + damage, 0, True)
    total = minor + damage
    levels, remainder = divmod(total, endurance)
    after = level + levels
    if after > MORTALLY:
        return Wound(damage, level, DEAD, minor, 0, total, levels, True)
    return Wound(damage, level, after, minor, remainder, total, levels, False)


def passing_out_called(wound: Wound) -> bool:
    """Whether a wound calls a passing-out test: seriously wounded and losing at least one rung, or critically
    wounded and taking any damage (a wound that kills calls none)."""
    if wound.killed or wound.damage <= 0:
        return False
    return (wound.before == SERIOUSLY and wound.levels >= 1) or wound.before == CRITICALLY


def passes_out(roll: int, constitution: int) -> bool:
    """The passing-out test: the roll exceeds Constitution."""
    return roll > constitution


def comes_round(roll: int, constitution: int) -> bool:
    """The coming-round test: the roll is at most Constitution."""
    return roll <= constitution


def penalty(level: int, reduction: int, penalties: Sequence[int]) -> int:
    """The roll penalty of a rung, reduced by ``reduction`` but never below half the table value.

    A mortally wounded creature (-10) with any reduction still has at least -5; an odd table value keeps the
    larger half (-5 keeps at least -3). The dead and out-of-table rungs have none.

    Args:
        level: The rung (0 healthy .. 6 dead).
        reduction: Points of penalty an ability removes (0 or more).
        penalties: The table, one value (0 or less) per living rung.
    """
    if not 0 <= level < len(penalties):
        return 0
    table = penalties[level]
    if table >= 0:
        return 0
    floor = -math.ceil(-table / 2)
    return min(table + max(reduction, 0), floor)


def speed_factor(roll_penalty: int, loss_per_point: float, minimum: float) -> float:
    """The fraction of its own walking speed a creature keeps under a (reduced) roll penalty."""
    return min(1.0, max(minimum, 1.0 + roll_penalty * loss_per_point))


def damage_after_armor(rolled: int, armor: int) -> int:
    """Damage left after armour, floored at 0."""
    return max(0, rolled - armor)


def levels_left(level: int) -> int:
    """Rungs a creature can still lose before death (healthy 6 .. mortally wounded 1, dead 0)."""
    return max(0, DEAD - level)


def describe(wound: Wound, endurance: int, test: tuple[int, int, bool] | None) -> str:
    """The words of a wound for the log (``test``: the passing-out roll, Constitution and result, if any)."""
    if wound.damage <= 0:
        return f"0 HP after armour: no effect ({LEVELS[wound.before]})"
    if wound.before == MORTALLY:
        text = f"{wound.damage} HP while mortally wounded: dead"
    else:
        text = (f"{wound.damage} HP + {wound.minor_before} minor = {wound.total} vs Endurance {endurance}: "
                f"{wound.levels} level{'s' if wound.levels != 1 else ''}")
        if wound.killed:
            text += ", past mortally wounded: dead"
        elif wound.after != wound.before:
            text += f" ({LEVELS[wound.before]} -> {LEVELS[wound.after]}), {wound.minor_after} minor"
        else:
            text += f", {wound.minor_after} minor ({LEVELS[wound.after]})"
    if test is not None:
        roll, con, out = test
        text += f"; passing-out test d20 {roll} vs Constitution {con}: {'passed out' if out else 'stays awake'}"
    return text


# --------------------------------------------------------------------------------------------- the log


@dataclass(slots=True)
class StatusAttackRecord:
    """One attack under the status model, compactly (it expands into typed events).

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: Attacking entity.
        target: Defending entity.
        mode: Qualified strike mode id.
        natural: The d20.
        total: d20 + attack bonus + penalty.
        defense: The target's Defense.
        hit: The margin was at least 1.
        rolled: Damage rolled (0 on a miss).
        dealt: Damage after armour.
        detail: What the wound came to, in words.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    natural: int
    total: int
    defense: int
    hit: bool
    rolled: int
    dealt: int
    detail: str

    def events(self) -> list[Event]:
        """The roll and, on a hit, the damage."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        out = unaimed_attack_events(t, time, a, d, MODEL, self.mode, self.natural, self.total, self.defense,
                                    self.total - self.defense, self.hit)
        if self.hit:
            out.append(DamageDealt(t, time, a, d, MODEL, self.rolled, self.dealt, self.detail))
        return out


# --------------------------------------------------------------------------------------------- applying


def state_of(entity: int) -> StatusState:
    """The creature's status state (the world must be active)."""
    return esper.component_for_entity(entity, StatusState)


def resolve_wound(state: StatusState, cond: Condition, damage: int, tables: StatusTables,
                  rng: Rng) -> tuple[Wound, tuple[int, int, bool] | None]:
    """The wound ``damage`` HP (after armour) gives, and its passing-out test (roll, Constitution, passed out)
    when one is called (not for a creature already out: it has no wits left to lose)."""
    wound = take_damage(state.level, state.minor, damage, state.endurance)
    test = None
    if passing_out_called(wound) and not cond.out:
        roll = roll_die(tables.passing_out_die, rng)
        test = (roll, state.constitution, passes_out(roll, state.constitution))
    return wound, test


def set_level(entity: int, state: StatusState, anat: Anatomy, level: int, tables: StatusTables,
              ctx: TickContext) -> None:
    """Move a creature to ``level``: the change is logged, the minor tally starts afresh by the caller, its walking
    speed follows the new penalty, and a mortally wounded creature's untended clock starts."""
    if level == state.level:
        return
    clock = ctx.clock
    ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "status", LEVELS[state.level], LEVELS[level]))
    state.level = level
    if level < DEAD:
        if state.base_speed < 0:
            state.base_speed = anat.speed
        pen = penalty(level, state.penalty_reduction, tables.penalties)
        anat.speed = state.base_speed * speed_factor(pen, tables.speed_loss_per_point, tables.min_speed_factor)
    if level == MORTALLY:
        state.dies_at = clock.time + tables.mortal_untended_seconds
    elif level < MORTALLY:
        state.dies_at = -1.0


def apply_wound(entity: int, me: Parts, state: StatusState, wound: Wound, test: tuple[int, int, bool] | None,
                tables: StatusTables, ctx: TickContext) -> None:
    """Apply a resolved wound at once: the new rung and tally, death, passing out."""
    anat, cond = me[1], me[5]
    clock = ctx.clock
    if wound.damage > 0:
        state.heal_at = -1.0  # a fresh wound: the healing rest starts again
        state.minor_heal_at = -1.0
    if wound.after != wound.before:
        set_level(entity, state, anat, wound.after, tables, ctx)
    state.minor = wound.minor_after
    if wound.killed:
        kill(entity, cond, "killed outright" if wound.before < MORTALLY else "wounded while mortally wounded", ctx)
        return
    if test is not None and test[2] and not cond.out:
        cond.out = True
        cond.reeling = True
        state.come_round_at = clock.time + tables.come_round_seconds
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "consciousness", "awake", "passed out"))
        if not cond.prone:
            cond.prone = True
            ctx.emit(FellProne(clock.tick, clock.time, entity, "passed out"))


def come_round_test(entity: int, state: StatusState, cond: Condition, tables: StatusTables, ctx: TickContext,
                    rng: Rng) -> bool:
    """A passed-out creature's coming-round test (due now): it wakes on d20 <= Constitution, else tests again
    ``come_round_seconds`` later. Returns whether it came round."""
    roll = roll_die(tables.come_round_die, rng)
    if comes_round(roll, state.constitution):
        cond.out = False
        state.come_round_at = -1.0
        clock = ctx.clock
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL,
                                   f"consciousness (d20 {roll} vs Constitution {state.constitution})",
                                   "passed out", "awake"))
        return True
    state.come_round_at += tables.come_round_seconds
    return False


class ComeRoundProcessor(esper.Processor):
    """RECOVERY phase: every passed-out creature whose coming-round test is due makes it (in entity order)."""

    def __init__(self, ctx: TickContext, tables: StatusTables) -> None:
        self.ctx = ctx
        self.tables = tables

    def process(self) -> None:
        """Make the due coming-round tests."""
        ctx = self.ctx
        now = ctx.clock.time
        due = sorted((e, s, c) for e, (s, c) in esper.get_components(StatusState, Condition)
                     if c.out and not c.dead and 0 <= s.come_round_at <= now)
        for entity, state, cond in due:
            come_round_test(entity, state, cond, self.tables, ctx, ctx.streams["shock"])


def tender_of(patient: int, creatures: Mapping[int, Parts], care: Any) -> int | None:
    """Who tends a patient: a team-mate able to act (one of the care policy's healers, when it names them), else
    the patient itself when it can act and self-care is allowed; ``None`` when nobody can."""
    healers = getattr(care, "healers", None)
    team = creatures[patient][6].team
    for entity, parts in sorted(creatures.items()):
        if entity == patient or parts[6].team != team or not can_act(parts[5], parts[4]):
            continue
        if healers is not None and parts[0].name not in healers:
            continue
        return entity
    me = creatures[patient]
    if getattr(care, "self_care", True) and can_act(me[5], me[4]):
        return patient
    return None


_KINDS = ("come round", "untended", "heal", "minor")


def _due(state: StatusState, cond: Condition, kind: str) -> float:
    if cond.dead:
        return -1.0
    if kind == "come round":
        return state.come_round_at if cond.out else -1.0
    if kind == "untended":
        return state.dies_at if state.level == MORTALLY else -1.0
    if kind == "heal":
        return state.heal_at if HEALTHY < state.level < DEAD else -1.0
    return state.minor_heal_at if state.minor > 0 else -1.0


# --------------------------------------------------------------------------------------------- the model


@register
class StatusModel(DamageModel):
    """Document 004: the status ladder, minor injuries, passing out, penalties on rolls and speed."""

    name = MODEL
    tables: StatusTables

    def __init__(self, tables: StatusTables | None = None) -> None:
        if tables is None:
            raise ValueError("the status model needs its tables (configs/models/status.toml)")
        super().__init__(tables)

    def state_types(self) -> tuple[type, ...]:
        """``StatusState``."""
        return (StatusState,)

    def spawn_state(self, kind: CreatureDef, attributes: Mapping[str, int], armor: Sequence[ArmorPiece]
                    ) -> tuple[object, ...]:
        """A healthy creature with its kind's numbers and the armour value of what it wears.

        Raises:
            ValueError: The kind or a worn piece has no entry in the tables.
        """
        block = self.tables.creatures.get(kind.id)
        if block is None:
            raise ValueError(f"the status model has no block for creature {kind.id!r}")
        worn = 0
        for piece in armor:
            value = self.tables.armor.get(piece.id)
            if value is None:
                raise ValueError(f"the status model has no armour value for {piece.id!r}")
            worn += value
        # A spawn may override the block's numbers by their names (constitution, endurance ...). ``attributes``
        # holds the creature's own attributes too (the anatomy model's Endurance shares a name), so only a value
        # the spawn changed counts as an override.
        changed = {k: v for k, v in attributes.items() if kind.attributes.get(k) != v}

        def get(name: str, default: int) -> int:
            # An override is kept within the bounds the tables file has for the number (as the strength model
            # clamps its abilities): a scenario's anatomy Endurance of 0 is valid there, but 0 HP per level has no
            # meaning here (``take_damage`` refuses it, and the first wound would end the fight in an exception).
            lo, hi = OVERRIDE_BOUNDS.get(name, (None, None))
            value = int(changed.get(name, default))
            if lo is not None:
                value = max(value, lo)
            return value if hi is None else min(value, hi)

        return (StatusState(get("constitution", block.constitution), get("endurance", block.endurance),
                            get("attack_bonus", block.attack_bonus), get("defense", block.defense),
                            worn + get("armor", block.armor), get("penalty_reduction", block.penalty_reduction)),)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The coming-round tests."""
        return [(Phase.RECOVERY, ComeRoundProcessor(ctx, self.tables))]

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """d20 + attack bonus + status penalty against Defense; a hit rolls the mode's damage, armour soaks it and
        the wound is applied at once."""
        tables = self.tables
        state = state_of(entity)
        f_state = state_of(foe_entity)
        weapon = tables.weapons.get(mode.id)
        if weapon is None:
            raise ValueError(f"the status model has no damage for strike mode {mode.id!r}")
        pen = penalty(state.level, state.penalty_reduction, tables.penalties)
        roll = d20_attack(state.attack_bonus + weapon.attack_bonus, f_state.defense, ctx.streams["attack"], pen)
        rolled = dealt = 0
        detail = ""
        wound = test = None
        if roll.hit:
            rng = ctx.streams["injury"]
            rolled = max(0, roll_dice(weapon.damage, rng) + (pen if tables.penalty_to_damage else 0))
            dealt = damage_after_armor(rolled, f_state.armor)
            wound, test = resolve_wound(f_state, foe[5], dealt, tables, rng)
            detail = describe(wound, f_state.endurance, test)
        clock = ctx.clock
        record = StatusAttackRecord(clock.tick, clock.time, entity, foe_entity, mode.id, roll.natural, roll.total,
                                    roll.defense, roll.hit, rolled, dealt, detail)
        ctx.log.append(record)
        if wound is not None:
            apply_wound(foe_entity, foe, f_state, wound, test, tables, ctx)
        return record

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """``damage=N``: N HP after armour, applied as a landed blow applies its damage (passing-out test
        included).

        Raises:
            ValueError: No ``damage``, a negative or non-integer one, or an option this model does not take.
        """
        unknown = sorted(set(kwargs) - {"damage"})
        if unknown:
            raise ValueError(f"the status model inflicts damage=N (HP after armour), not {', '.join(unknown)}")
        damage = kwargs.get("damage")
        if not isinstance(damage, int) or isinstance(damage, bool) or damage < 0:
            raise ValueError(f"damage must be a whole number of HP, 0 or more, not {damage!r}")
        if me[5].dead:
            raise ValueError("the creature is dead")
        state = state_of(entity)
        wound, test = resolve_wound(state, me[5], damage, self.tables, ctx.streams["injury"])
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, entity, MODEL, damage, damage,
                             describe(wound, state.endurance, test)))
        apply_wound(entity, me, state, wound, test, self.tables, ctx)

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """The rung's name as label and band, the rungs left before death as health."""
        state = state_of(entity)
        cond = me[5]
        level = DEAD if cond.dead else state.level
        conditions: list[str] = []
        if not cond.dead:
            if cond.out:
                conditions.append("passed out")
            if cond.prone:
                conditions.append("prone")
            if state.minor:
                conditions.append(f"minor injuries: {state.minor}")
            pen = penalty(level, state.penalty_reduction, self.tables.penalties)
            if pen:
                conditions.append(f"penalty {pen}")
        if cond.dead:
            shock = "dead"
        elif level == MORTALLY:
            shock = "dying"
        elif cond.out:
            shock = "incapacitated"
        else:
            shock = "none"
        return Readout(not cond.dead, can_act(cond, me[4]), LEVELS[level], levels_left(level), LEVELS[level], shock,
                       tuple(conditions))

    def advance(self, ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any) -> None:
        """Rest out of combat for ``seconds``: coming-round tests, the untended death of the mortally wounded,
        minor injuries fading and rungs healing, each when due, in time order.

        Rest clocks start now for every wounded creature that is not already resting: minor injuries clear after
        ``minor_heal_seconds``; a rung heals after the ``heal_seconds`` of the rung it is on (healing a rung also
        forgets the minor injuries, as every status change does). A mortally wounded creature that nobody tends
        when its untended time runs out dies; tended, it lives and heals.
        """
        tables = self.tables
        clock = ctx.clock
        start = clock.seconds
        end = start + seconds
        if not creatures:
            creatures = query_creatures()
        states: dict[int, StatusState] = {}
        for entity in sorted(creatures):
            found = esper.try_component(entity, StatusState)
            if found is None or creatures[entity][5].dead:
                continue
            states[entity] = found
            if HEALTHY < found.level < DEAD and found.heal_at < 0:
                found.heal_at = start + tables.heal_seconds[found.level - 1]
            if found.minor > 0 and found.minor_heal_at < 0:
                found.minor_heal_at = start + tables.minor_heal_seconds
            if found.level == MORTALLY and found.dies_at < 0:
                found.dies_at = start + tables.mortal_untended_seconds
        heap: list[tuple[float, int, int]] = []

        def push(entity: int) -> None:
            state, cond = states[entity], creatures[entity][5]
            for order, kind in enumerate(_KINDS):
                due = _due(state, cond, kind)
                if due >= 0:
                    heapq.heappush(heap, (due, order, entity))

        for entity in states:
            push(entity)
        while heap:
            due, order, entity = heapq.heappop(heap)
            if due > end:
                break
            state, parts = states[entity], creatures[entity]
            kind = _KINDS[order]
            if _due(state, parts[5], kind) != due:
                continue  # stale: the item moved or went away
            clock.seconds = max(clock.seconds, due)
            self._due_item(entity, parts, state, kind, creatures, care, ctx)
            if not parts[5].dead:
                push(entity)
        clock.seconds = end

    def _due_item(self, entity: int, parts: Parts, state: StatusState, kind: str, creatures: Mapping[int, Parts],
                  care: Any, ctx: TickContext) -> None:
        tables = self.tables
        clock = ctx.clock
        cond = parts[5]
        if kind == "come round":
            come_round_test(entity, state, cond, tables, ctx, ctx.streams["shock"])
        elif kind == "untended":
            state.dies_at = -1.0
            tender = tender_of(entity, creatures, care)
            if tender is None:
                kill(entity, cond, "mortally wounded, untended", ctx)
            else:
                who = "itself" if tender == entity else creatures[tender][0].name
                ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "care", "untended",
                                           f"tended by {who}"))
        elif kind == "heal":
            state.minor = 0
            state.minor_heal_at = -1.0
            set_level(entity, state, parts[1], state.level - 1, tables, ctx)
            state.heal_at = clock.time + tables.heal_seconds[state.level - 1] if state.level > HEALTHY else -1.0
        else:
            ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "minor injuries", str(state.minor),
                                       "0"))
            state.minor = 0
            state.minor_heal_at = -1.0
