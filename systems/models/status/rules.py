"""The status-ladder model's rules: what a wound does to the ladder, the penalties, passing out and coming round.

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
  and comes round on d20 <= Constitution + penalty (``comes_round``; the test itself is made in ``care``).

This module holds the pure rule functions an embedding game can call (numbers in, numbers or records out, every
random draw from the ``Rng`` it is given), the records they give (``StatusWound``, ``StatusTest``), the typed
accessor of a creature's ``StatusState`` and the model's constants. Every number is in
``configs/models/status.toml`` (``StatusTables``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sandbox.components.models.status import CRITICALLY, DEAD, MORTALLY, SERIOUSLY, StatusState, StatusTables
from sandbox.components.state import Condition
from sandbox.systems.creatures import Creature
from sandbox.systems.dice import Rng, roll_die

__all__ = ["DAY", "HOUR", "MODEL", "StatusTest", "StatusWound", "comes_round", "damage_after_armor", "levels_left",
           "passes_out", "passing_out_called", "penalty", "reduction_of", "resolve_wound", "speed_factor",
           "status_state", "take_damage"]

MODEL = "status"
"""The model's name: in the registry, in its events and in its state changes."""

HOUR = 3600.0
"""Game seconds in an hour (the tables give rest and the untended death in hours)."""
DAY = 86400.0
"""Game seconds in a day (the tables give the healing of a rung in days)."""


@dataclass(frozen=True, slots=True)
class StatusWound:
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


def take_damage(level: int, minor: int, damage: int, endurance: int) -> StatusWound:
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
        return StatusWound(max(damage, 0), level, level, minor, minor, minor, 0, False)
    if level == MORTALLY:
        return StatusWound(damage, level, DEAD, minor, 0, minor + damage, 0, True)
    total = minor + damage
    levels, remainder = divmod(total, endurance)
    after = level + levels
    if after > MORTALLY:
        return StatusWound(damage, level, DEAD, minor, 0, total, levels, True)
    return StatusWound(damage, level, after, minor, remainder, total, levels, False)


def passing_out_called(wound: StatusWound) -> bool:
    """Whether a wound calls a passing-out test.

    It does for a seriously wounded creature losing at least one rung, or a critically wounded one taking any
    damage; a wound that kills calls none.
    """
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
    """The penalty reduction a Constitution gives: one point for every ``per`` points above ``above``.

    Document 004: "characters of strong will or fitness (Constitution) ... feel their wounds less"; never negative.
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


def status_state(creature: Creature) -> StatusState:
    """The status state a creature of a status-model world carries."""
    return cast(StatusState, creature.state)


def resolve_wound(state: StatusState, cond: Condition, damage: int, tables: StatusTables,
                  rng: Rng) -> tuple[StatusWound, StatusTest | None]:
    """The wound ``damage`` HP (after armour) gives, and its passing-out test when one is called.

    No test for a creature already out: it has no wits left to lose. The test belongs to the rung the creature was
    on when hit (document 004: the seriously wounded "Any damage of a level or more can mean passing out", the
    critically wounded "Any damage can mean passing out"), so it takes that rung's penalty: d20 > Constitution +
    penalty passes out.
    """
    wound = take_damage(state.level, state.minor, damage, state.endurance)
    test = None
    if passing_out_called(wound) and not cond.out:
        roll = roll_die(tables.passing_out_die, rng)
        pen = penalty(wound.before, state.penalty_reduction, tables.penalties)
        test = StatusTest(roll, state.constitution, pen, passes_out(roll, state.constitution + pen))
    return wound, test
