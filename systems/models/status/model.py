"""The status-ladder model (document 004): a creature's harm is one rung of a seven-rung ladder.

healthy -> slightly wounded -> wounded -> seriously wounded -> critically wounded -> mortally wounded -> dead.

- **Damage levels.** A damage level is the creature's Endurance in HP. On each wound, total = minor injuries +
  damage; the creature drops ``total // Endurance`` rungs and the remainder (``total % Endurance``) is the new
  minor-injury tally (decisions.md: the old tally is "erased" by the status change, the remainder stays noted).
  Ultor (Endurance 8): 3 -> healthy, 3 minor; +10 -> 13 -> slightly wounded, 5 minor; +5 -> 10 -> wounded, 2 minor.
- **Death.** A wound that would push a creature past "mortally wounded" kills it on the spot; any damage (at
  least one HP after armour) to a mortally wounded creature kills it.
- **Penalties.** Each rung has a roll penalty (0/-2/-4/-6/-8/-10) on every roll the sandbox makes for the creature
  (its attack roll; its defence, as a lower Defense; its passing-out and coming-round tests, as a lower Constitution
  to roll under) and on its walking speed (``speed_factor``). Constitution lessens it (``reduction_of``: strong will
  or fitness), never below half the table value (``penalty``).
- **Passing out.** A seriously wounded creature that loses at least one more rung, or a critically wounded one
  that takes any damage, tests: d20 > Constitution + the penalty of the rung it was hit on passes out
  (``Condition.out``, and it falls prone). Sandbox rule: it tests again every ``come_round_seconds`` of game time
  and comes round on d20 <= Constitution + penalty.
- **Attack** (decisions.md): document 002's roll, d20 + attack bonus + the status penalty against the target's
  Defense + its own status penalty, hits on a margin of 1 or more; damage is the strike mode's dice (this model's
  table) minus the armour value of every worn piece and the creature's natural armour, floored at 0.
- **Out of combat** (``advance``, sandbox rules): minor injuries fade after a night's rest; each rung heals after
  days of rest that grow with the rung; a mortally wounded creature that nobody tends dies an hour after the
  wound.

Every number is in ``configs/models/status.toml``; the ladder, the tables (``StatusTables``) and the state component
(``StatusState``) are pure data in ``sandbox.components.models.status``; this module holds the rules, the attack record,
the coming-round processor and the ``StatusModel`` that plugs them into the damage-model interface.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import AttackDeclared, DamageDealt, Event, FellProne, ModelStateChanged
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.log import Names
from sandbox.components.models.status import (
    CRITICALLY,
    DEAD,
    HEALTHY,
    LEVELS,
    MORTALLY,
    SERIOUSLY,
    StatusState,
    StatusTables,
    StatusWeapon,
)
from sandbox.components.readout import Readout, WoundReading
from sandbox.components.state import Condition
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, able
from sandbox.systems.d20 import D20Roll, d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, register
from sandbox.systems.dice import Rng, roll_dice, roll_die
from sandbox.systems.models.status.state import check_saved_state
from sandbox.systems.phases import Phase
from sandbox.systems.schedule import Due, DueQueue

MODEL = "status"

HOUR = 3600.0
DAY = 86400.0
OVERRIDE_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "constitution": (0, 100), "endurance": (1, None), "defense": (0, None), "armor": (0, None),
    "penalty_reduction": (0, None)}
"""The bounds of a creature's numbers in ``configs/models/status.toml``; a spawn's overrides are kept inside them."""


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


def reduction_of(constitution: int, above: int, per: int) -> int:
    """The penalty reduction a Constitution gives: one point for every ``per`` points above ``above`` (document
    004: "characters of strong will or fitness (Constitution) ... feel their wounds less"); never negative.

    With the shipped scale (above 10, per 2): Constitution 10 -> 0, 12 -> 1, 15 -> 2, 18 -> 4.
    """
    return max(0, (constitution - above) // per)


@dataclass(frozen=True, slots=True)
class StatusTest:
    """A passing-out or coming-round test: d20 against Constitution, the roller's status penalty included.

    Attributes:
        roll: The die.
        constitution: The creature's Constitution.
        penalty: Its (reduced) status penalty on the roll (0 or less): the Constitution it must roll under drops.
        result: Passed out (a passing-out test) or came round (a coming-round test).
    """

    roll: int
    constitution: int
    penalty: int
    result: bool

    @property
    def against(self) -> int:
        """What the roll is compared with: Constitution + penalty."""
        return self.constitution + self.penalty

    def against_words(self) -> str:
        """``Constitution 10`` or ``Constitution 10 -6 = 4``."""
        if not self.penalty:
            return f"Constitution {self.constitution}"
        return f"Constitution {self.constitution} {self.penalty:+d} = {self.against}"


def speed_factor(roll_penalty: int, loss_per_point: float, minimum: float) -> float:
    """The fraction of its own walking speed a creature keeps under a (reduced) roll penalty."""
    return min(1.0, max(minimum, 1.0 + roll_penalty * loss_per_point))


def damage_after_armor(rolled: int, armor: int) -> int:
    """Damage left after armour, floored at 0."""
    return max(0, rolled - armor)


def levels_left(level: int) -> int:
    """Rungs a creature can still lose before death (healthy 6 .. mortally wounded 1, dead 0)."""
    return max(0, DEAD - level)


def describe(wound: Wound, endurance: int, test: StatusTest | None) -> str:
    """The words of a wound for the log (``test``: the passing-out test, if any)."""
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
        text += (f"; passing-out test d20 {test.roll} vs {test.against_words()}: "
                 f"{'passed out' if test.result else 'stays awake'}")
    return text


def wound_words(wound: Wound, endurance: int) -> str:
    """What a wound did to the ladder, in words."""
    if wound.damage <= 0:
        return f"No HP get through: no effect, still {LEVELS[wound.before]}"
    if wound.before == MORTALLY:
        return f"{wound.damage} HP while mortally wounded: any damage kills, dead"
    lost = f"{wound.levels} level{'s' if wound.levels != 1 else ''} lost" if wound.levels else "no level lost"
    text = (f"{wound.damage} HP + {wound.minor_before} HP of minor injuries = {wound.total}, against Endurance "
            f"{endurance} HP a level: {lost}")
    if wound.killed:
        return f"{text}, past mortally wounded in one wound: dead"
    if wound.after != wound.before:
        return (f"{text}, {LEVELS[wound.before]} -> {LEVELS[wound.after]}; the minor injuries are erased and the "
                f"remainder, {wound.minor_after} HP, is noted")
    return f"{text}, still {LEVELS[wound.after]}; {wound.minor_after} HP of minor injuries noted"


def _test_words(wound: Wound, test: StatusTest) -> str:
    called = "seriously wounded and losing a level" if wound.before == SERIOUSLY else \
        "critically wounded and hurt again"
    verdict = "above it: passes out (out of the fight, prone)" if test.result else "not above it: stays awake"
    against = test.against_words()
    if test.penalty:
        against += f" (the status penalty of being {LEVELS[wound.before]})"
    return f"Passing-out test ({called}): d20 {test.roll} against {against}, {verdict}"


# --------------------------------------------------------------------------------------------- the log


@dataclass(slots=True)
class StatusAttackRecord:
    """One attack under the status model, compactly (it expands into typed events).

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: Attacking entity (-1: a blow struck directly, with no attack roll).
        target: Defending entity.
        mode: The strike mode.
        aim: ``unaimed`` or the part aimed at (the ladder has no hit location).
        roll: The d20 attack roll, its bonus including the status penalty (``None``: struck directly).
        weapon: The mode's numbers under this model.
        penalty: The attacker's status penalty on the roll (0 when struck directly).
        attacker_level: The attacker's rung (-1 when struck directly).
        defense_penalty: The target's status penalty on its defence (its Defense is lowered by it).
        target_level: The target's rung when attacked.
        damage_penalty: The penalty taken off the damage roll (``penalty_to_damage``; else 0).
        rolled: Damage rolled (0 on a miss).
        dealt: Damage after armour.
        armor: The target's armour value.
        endurance: The target's Endurance (HP a level).
        wound: What the damage did to the ladder (``None`` on a miss).
        test: The passing-out test the wound called, or ``None``.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: StrikeMode
    aim: str
    roll: D20Roll | None
    weapon: StatusWeapon
    penalty: int = 0
    attacker_level: int = -1
    defense_penalty: int = 0
    target_level: int = 0
    damage_penalty: int = 0
    rolled: int = 0
    dealt: int = 0
    armor: int = 0
    endurance: int = 1
    wound: Wound | None = None
    test: StatusTest | None = None

    headline: ClassVar[bool] = True

    @property
    def hit(self) -> bool:
        """The attack hit (a blow struck directly always does)."""
        return self.roll is None or self.roll.hit

    @property
    def struck(self) -> bool:
        """The attack hit the target (its damage may still be stopped by armour)."""
        return self.hit and self.wound is not None

    def events(self) -> list[Event]:
        """Declared and rolled and, on a hit, the damage (the wound's own events follow the record in the log)."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.roll is not None:
            out = self.roll.events(t, time, a, d, MODEL, self.mode.id, self.aim)
        else:
            out = [AttackDeclared(t, time, a, d, self.mode.id, self.aim)]
        if self.hit and self.wound is not None:
            out.append(DamageDealt(t, time, a, d, MODEL, self.rolled, self.dealt,
                                   describe(self.wound, self.endurance, self.test)))
        return out

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Bertram: 10 HP (15 rolled): healthy -> slightly wounded, 5 minor``; ``None`` for a miss."""
        wound = self.wound
        if not self.struck or wound is None:
            return None
        head = f"{_who(names, self.attacker)} -> {_who(names, self.target)}: "
        if wound.damage <= 0:
            return f"{head}0 HP after armour ({self.rolled} rolled): no effect"
        line = f"{head}{self.dealt} HP ({self.rolled} rolled): "
        if wound.after != wound.before:
            line += f"{LEVELS[wound.before]} -> {LEVELS[wound.after]}"
            if not wound.killed:
                line += f", {wound.minor_after} minor"
        else:
            line += f"{wound.minor_after} minor, still {LEVELS[wound.after]}"
        if self.test is not None:
            test = self.test
            line += f"; d20 {test.roll} vs {test.against_words()}: {'passes out' if test.result else 'stays awake'}"
        return line

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll and what went into it, the damage through armour, and what
        the wound did to the ladder."""
        attacker, target = _who(names, self.attacker), _who(names, self.target)
        aim = "unaimed" if self.aim == "unaimed" else \
            f"aimed at the {self.aim} (the status ladder has no hit location: the aim changes nothing)"
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode.name}, {aim}"]
        roll = self.roll
        if roll is None:
            lines.append("Struck directly: no attack roll, the blow lands")
        else:
            creature = roll.bonus - self.weapon.attack_bonus - self.penalty
            line = (f"Attack roll: {roll.describe()}; the bonus is {attacker}'s {creature:+d}, the weapon's "
                    f"{self.weapon.attack_bonus:+d} and the status penalty {self.penalty:+d} for being "
                    f"{LEVELS[self.attacker_level]}")
            if self.defense_penalty:
                line += (f"; {target}'s Defense {roll.defense - self.defense_penalty} takes its status penalty "
                         f"{self.defense_penalty:+d} for being {LEVELS[self.target_level]}")
            lines.append(line)
        wound = self.wound
        if not self.hit or wound is None:
            return lines
        damage = f"Damage {self.weapon.damage} rolled {self.rolled}"
        if self.damage_penalty:
            damage += f" (the status penalty {self.damage_penalty:+d} included)"
        if not self.armor:
            damage += f"; no armour: all {self.dealt} HP"
        elif self.dealt:
            damage += f"; armour {self.armor}: {self.rolled} - {self.armor} = {self.dealt} HP"
        else:
            damage += f"; armour {self.armor} stops it all"
        lines.append(damage)
        lines.append(wound_words(wound, self.endurance))
        if self.test is not None:
            lines.append(_test_words(wound, self.test))
        return lines


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


# --------------------------------------------------------------------------------------------- applying


def status_state(creature: Creature) -> StatusState:
    """The status state a creature of a status-model world carries."""
    return cast(StatusState, creature.state)


def resolve_wound(state: StatusState, cond: Condition, damage: int, tables: StatusTables,
                  rng: Rng) -> tuple[Wound, StatusTest | None]:
    """The wound ``damage`` HP (after armour) gives, and its passing-out test when one is called (not for a
    creature already out: it has no wits left to lose). The test belongs to the rung the creature was on when hit
    (document 004: the seriously wounded "Any damage of a level or more can mean passing out", the critically
    wounded "Any damage can mean passing out"), so it takes that rung's penalty: d20 > Constitution + penalty passes
    out."""
    wound = take_damage(state.level, state.minor, damage, state.endurance)
    test = None
    if passing_out_called(wound) and not cond.out:
        roll = roll_die(tables.passing_out_die, rng)
        pen = penalty(wound.before, state.penalty_reduction, tables.penalties)
        test = StatusTest(roll, state.constitution, pen, passes_out(roll, state.constitution + pen))
    return wound, test


def set_level(entity: int, state: StatusState, level: int, tables: StatusTables, ctx: TickContext) -> None:
    """Move a creature to ``level``: the change is logged, the minor tally starts afresh by the caller (its
    walking speed follows the new penalty: ``StatusModel.speed_factor``), and a mortally wounded creature's
    untended clock starts."""
    if level == state.level:
        return
    clock = ctx.clock
    ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "status", LEVELS[state.level], LEVELS[level]))
    state.level = level
    if level == MORTALLY:
        state.dies_at = clock.time + tables.mortal_untended_seconds
    elif level < MORTALLY:
        state.dies_at = -1.0


def apply_wound(creature: Creature, wound: Wound, test: StatusTest | None, tables: StatusTables,
                ctx: TickContext) -> None:
    """Apply a resolved wound at once: the new rung and tally, death, passing out."""
    entity, state, cond = creature.entity, status_state(creature), creature.condition
    clock = ctx.clock
    if wound.damage > 0:
        state.heal_at = -1.0  # a fresh wound: the healing rest starts again
        state.minor_heal_at = -1.0
    if wound.after != wound.before:
        set_level(entity, state, wound.after, tables, ctx)
    state.minor = wound.minor_after
    if wound.killed:
        kill(entity, cond, "killed outright" if wound.before < MORTALLY else "wounded while mortally wounded", ctx)
        return
    if test is not None and test.result and not cond.out:
        cond.out = True
        cond.reeling = True
        state.come_round_at = clock.time + tables.come_round_seconds
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, MODEL, "consciousness", "awake", "passed out"))
        if not cond.prone:
            cond.prone = True
            ctx.emit(FellProne(clock.tick, clock.time, entity, "passed out"))


def come_round_test(entity: int, state: StatusState, cond: Condition, tables: StatusTables, ctx: TickContext,
                    rng: Rng) -> bool:
    """A passed-out creature's coming-round test (due now): it wakes on d20 <= Constitution + its status penalty,
    else tests again ``come_round_seconds`` later. Returns whether it came round."""
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
    """RECOVERY phase: every passed-out creature whose coming-round test is due makes it (in entity order)."""

    def __init__(self, ctx: TickContext, model: StatusModel) -> None:
        self.ctx = ctx
        self.model = model

    def process(self) -> None:
        """Make the due coming-round tests."""
        ctx = self.ctx
        now = ctx.clock.time
        due = [(c.entity, status_state(c), c.condition) for c in ctx.current().creatures.values()
               if c.condition.out and not c.condition.dead and 0 <= status_state(c).come_round_at <= now]
        for entity, state, cond in due:
            come_round_test(entity, state, cond, self.model.tables, ctx, ctx.streams["shock"])


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
    """Who tends a patient: a team-mate able to act (the lowest entity; one of the care policy's healers, when it
    names them), else the patient itself when it can act and self-care is allowed. The ladder has no tending
    skill: any tender will do."""

    def skill(c: Creature, on_self: bool) -> int:
        return 0

    return CareCircle(creatures, care, skill)


def _check_aim(body: BodyStructure, aim: str) -> None:
    """Refuse an aim that names no part or location of ``body``."""
    if aim == "unaimed":
        return
    try:
        body.part_index(aim)
    except KeyError:
        try:
            body.location_index(aim)
        except KeyError:
            raise ModelError(f"{body.name} has no part or location {aim!r}; aim unaimed or at one of its parts: "
                             f"{', '.join(p.name for p in body.parts)}") from None


# --------------------------------------------------------------------------------------------- the model


@register
class StatusModel(DamageModel):
    """Document 004: the status ladder, minor injuries, passing out, penalties on rolls and speed.

    Args:
        tables: The model's ``StatusTables`` (``configs/models/status.toml``).
    """

    name = MODEL
    tables: StatusTables


    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``StatusState`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, StatusState):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, StatusTables):
            raise ModelError("the status model needs its tables (sandbox.models.build_model('status', catalog))")
        super().__init__(tables)

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """``StatusState``."""
        return (StatusState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """A healthy creature with its kind's numbers and the armour value of what it wears.

        Raises:
            ModelError: The kind or a worn piece has no entry in the tables.
        """
        block = self.tables.creatures.get(kind.id)
        if block is None:
            raise ModelError(f"the status model has no block for creature {kind.id!r}; its blocks: "
                             f"{', '.join(sorted(self.tables.creatures))}")
        worn = 0
        for piece in armor:
            value = self.tables.armor.get(piece.id)
            if value is None:
                raise ModelError(f"the status model has no armour value for {piece.id!r}")
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

        constitution = get("constitution", block.constitution)
        tables = self.tables
        reduction = block.penalty_reduction if block.penalty_reduction is not None else \
            reduction_of(constitution, tables.reduction_above, tables.reduction_per)
        return (StatusState(constitution, get("endurance", block.endurance),
                            get("attack_bonus", block.attack_bonus), get("defense", block.defense),
                            worn + get("armor", block.armor), get("penalty_reduction", reduction)),)

    # ------------------------------------------------------------------ the loop's questions

    def speed_factor(self, creature: Creature, ctx: TickContext) -> float:
        """The rung's (reduced) penalty slows the walk: 1 + penalty x the loss per point, never below the
        minimum."""
        state = status_state(creature)
        tables = self.tables
        pen = penalty(state.level, state.penalty_reduction, tables.penalties)
        return speed_factor(pen, tables.speed_loss_per_point, tables.min_speed_factor)

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """Rungs left before death (healthy 6 .. mortally wounded 1, dead 0)."""
        return levels_left(DEAD if creature.condition.dead else status_state(creature).level)

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The coming-round tests."""
        return [(Phase.RECOVERY, ComeRoundProcessor(ctx, self))]

    def _weapon(self, mode: StrikeMode) -> StatusWeapon:
        weapon = self.tables.weapons.get(mode.id)
        if weapon is None:
            raise ModelError(f"the status model has no damage for strike mode {mode.id!r}")
        return weapon

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> StatusAttackRecord:
        """d20 + attack bonus + status penalty against Defense; a hit rolls the mode's damage, armour soaks it and
        the wound is applied at once (after the record is logged, so its events follow it).

        Raises:
            ModelError: The strike mode has no entry in the model's tables.
        """
        return self._attack(attacker, target, mode, "unaimed", ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, aim: str,
                ctx: TickContext) -> StatusAttackRecord:
        tables = self.tables
        state = status_state(attacker)
        weapon = self._weapon(mode)
        pen = penalty(state.level, state.penalty_reduction, tables.penalties)
        theirs = status_state(target)
        guard = penalty(theirs.level, theirs.penalty_reduction, tables.penalties)  # its defence takes its penalty
        roll = d20_attack(state.attack_bonus + weapon.attack_bonus, theirs.defense + guard, ctx.streams["attack"], pen)
        clock = ctx.clock
        record = StatusAttackRecord(clock.tick, clock.time, attacker.entity, target.entity, mode, aim, roll, weapon,
                                    pen, state.level, guard, theirs.level)
        if roll.hit:
            self._blow(record, target, pen if tables.penalty_to_damage else 0, ctx)
        else:
            ctx.log.append(record)
        return record

    def _blow(self, record: StatusAttackRecord, target: Creature, damage_penalty: int, ctx: TickContext) -> None:
        """A blow that hit: its damage through armour, the wound it makes (the record is logged first)."""
        tables = self.tables
        f_state = status_state(target)
        rng = ctx.streams["injury"]
        record.damage_penalty = damage_penalty
        record.rolled = max(0, roll_dice(record.weapon.damage, rng) + damage_penalty)
        record.dealt = damage_after_armor(record.rolled, f_state.armor)
        record.armor = f_state.armor
        record.endurance = f_state.endurance
        wound, test = resolve_wound(f_state, target.condition, record.dealt, tables, rng)
        record.wound, record.test = wound, test
        ctx.log.append(record)
        apply_wound(target, wound, test, tables, ctx)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack (its d20 roll, with its status penalty, may miss), or (no attacker) a blow
        that lands: the mode's damage dice less the target's armour, and what the wound does to the ladder. The
        aim is declared but changes nothing: the ladder has no hit location.

        Raises:
            ModelError: An aim the target's body does not have, a dead target or attacker, or a strike mode with
                no entry in the model's tables.
        """
        _check_aim(target.anatomy.body, aim)
        for who in (target, attacker):
            if who is not None and who.condition.dead:
                raise ModelError(f"{who.name} is dead: a blow needs a living attacker and target")
        if attacker is not None:
            self._attack(attacker, target, mode, aim, ctx)
            return
        clock = ctx.clock
        record = StatusAttackRecord(clock.tick, clock.time, -1, target.entity, mode, aim, None, self._weapon(mode))
        self._blow(record, target, 0, ctx)

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """``damage=N``: N HP after armour, applied as a landed blow applies its damage (passing-out test
        included).

        Raises:
            ModelError: No ``damage``, a negative or non-integer one, an option this model does not take, or a
                dead creature.
        """
        unknown = sorted(set(options) - {"damage"})
        if unknown:
            raise ModelError(f"the status model inflicts damage=N (HP after armour), not {', '.join(unknown)}")
        damage = options.get("damage")
        if not isinstance(damage, int) or isinstance(damage, bool) or damage < 0:
            raise ModelError(f"damage must be a whole number of HP, 0 or more, not {damage!r}")
        if creature.condition.dead:
            raise ModelError(f"{creature.name} is dead: it takes no more damage")
        state = status_state(creature)
        wound, test = resolve_wound(state, creature.condition, damage, self.tables, ctx.streams["injury"])
        clock = ctx.clock
        ctx.emit(DamageDealt(clock.tick, clock.time, -1, creature.entity, MODEL, damage, damage,
                             describe(wound, state.endurance, test)))
        apply_wound(creature, wound, test, self.tables, ctx)

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """The rung's name as label and band, the rungs left before death as health; the rung and the minor
        injuries as wounds, the creature's numbers as details."""
        state = status_state(creature)
        cond = creature.condition
        tables = self.tables
        level = DEAD if cond.dead else state.level
        pen = penalty(level, state.penalty_reduction, tables.penalties)
        conditions: list[str] = []
        wounds: list[WoundReading] = []
        if not cond.dead:
            if cond.out:
                conditions.append("passed out")
            if cond.prone:
                conditions.append("prone")
            if state.minor:
                conditions.append(f"minor injuries: {state.minor}")
            if pen:
                conditions.append(f"penalty {pen}")
            if level > HEALTHY:
                wounds.append(WoundReading("", "", LEVELS[level],
                                           text=f"{LEVELS[level]}: {pen:+d} on every roll, "
                                                f"{levels_left(level)} level{'s' if levels_left(level) != 1 else ''}"
                                                " left before death"))
            if state.minor:
                wounds.append(WoundReading("", "", f"{state.minor} minor",
                                           text=f"{state.minor} HP of minor injuries (a level is {state.endurance})"))
        if cond.dead:
            shock = "dead"
        elif level == MORTALLY:
            shock = "dying"
        elif cond.out:
            shock = "incapacitated"
        else:
            shock = "none"
        details = [("status", LEVELS[level]), ("levels left", f"{levels_left(level)} of {levels_left(HEALTHY)}"),
                   ("minor injuries", f"{state.minor} HP of a level's {state.endurance}"),
                   ("penalty", f"{pen:+d} on every roll" + (f" (reduced by up to {state.penalty_reduction} for its "
                                                             "Constitution, never below half)"
                                                             if state.penalty_reduction else "")),
                   ("walking speed", f"{speed_factor(pen, tables.speed_loss_per_point, tables.min_speed_factor):.0%}"
                                     " of its own"),
                   ("endurance", f"{state.endurance} HP a level"), ("constitution", str(state.constitution)),
                   ("attack bonus", f"{state.attack_bonus:+d}"),
                   ("defense", str(state.defense) + (f" ({state.defense + pen} with its penalty)" if pen else "")),
                   ("armor", str(state.armor)),
                   ("consciousness", "dead" if cond.dead else "passed out" if cond.out else "awake")]
        if not cond.dead and state.level == MORTALLY and state.dies_at >= 0:
            details.append(("dies untended at", f"{state.dies_at:g} s"))
        return Readout(not cond.dead, able(creature), LEVELS[level], levels_left(level), LEVELS[level], shock,
                       tuple(conditions), tuple(wounds), self.part_readings(creature), tuple(details))

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """A living creature is on a living rung with fewer minor injuries than a level; a passed-out one has its
        coming-round test due."""
        state = status_state(creature)
        cond = creature.condition
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if not 0 <= state.level <= DEAD:
            breaches.append(f"{who} is on rung {state.level}, off the ladder 0..{DEAD}")
        if cond.dead:
            return breaches
        if state.level >= DEAD:
            breaches.append(f"{who} is alive on the rung {LEVELS[DEAD]}")
        if not 0 <= state.minor < state.endurance:
            breaches.append(f"{who} has {state.minor} HP of minor injuries, not 0..{state.endurance - 1}")
        if cond.out and state.come_round_at < 0:
            breaches.append(f"{who} is passed out with no coming-round test due")
        return breaches

    # ------------------------------------------------------------------ out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Rest out of combat for ``seconds``: coming-round tests, the untended death of the mortally wounded,
        minor injuries fading and rungs healing, each when due, in time order (the shared due queue).

        Rest clocks start now for every wounded creature that is not already resting: minor injuries clear after
        ``minor_heal_seconds``; a rung heals after the ``heal_seconds`` of the rung it is on (healing a rung also
        forgets the minor injuries, as every status change does). A mortally wounded creature that nobody tends
        when its untended time runs out dies; tended, it lives and heals (the care circle: a team-mate able to
        act, else itself).
        """
        tables = self.tables
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

        ctx.due = queue
        try:
            for c in living:
                push(c)
            for due in queue.pop_due(end, is_due):
                clock.seconds = max(clock.seconds, due.time)
                c = creatures[due.entity]
                self._due_item(c, due.kind, circle, creatures, ctx)
                circle.update(c.entity)
                if not c.condition.dead:
                    push(c)
            clock.seconds = end
        finally:
            ctx.due = None

    def _due_item(self, c: Creature, kind: str, circle: CareCircle, creatures: Mapping[int, Creature],
                  ctx: TickContext) -> None:
        tables = self.tables
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
