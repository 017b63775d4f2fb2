"""The status-ladder model's log entry: the attack record and the words it explains itself in.

The attack (decisions.md): document 002's roll, d20 + attack bonus + the status penalty against the target's
Defense + its own status penalty, hits on a margin of 1 or more; damage is the strike mode's dice (this model's
table) minus the armour value of every worn piece and the creature's natural armour, floored at 0. The attack is
made by the model (``StatusModel.attack``); it leaves one ``StatusAttackRecord`` in the log, logged before the
wound is applied (so the rung change, passing out, the fall and death follow it).

This module holds the record (its typed events, its account line and its step-by-step explanation) and the words
of a wound and of a passing-out test it uses (``describe``, ``wound_words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sandbox.components.events import AttackDeclared, D20AttackRolled, DamageDealt, Event, Missed
from sandbox.components.gear import StrikeMode
from sandbox.components.log import Names, name_of
from sandbox.components.models.status import LEVELS, MORTALLY, SERIOUSLY, StatusWeapon
from sandbox.systems.d20 import D20Attack, D20Roll
from sandbox.systems.models.status.rules import MODEL, StatusTest, StatusWound

__all__ = ["StatusAttackRecord", "describe", "wound_words"]


@dataclass(slots=True)
class StatusAttackRecord(D20Attack):
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
        off_body: The target has no body to strike (``DamageModel.can_be_struck``): the blow passed through it.
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
    wound: StatusWound | None = None
    test: StatusTest | None = None
    off_body: bool = False

    headline: ClassVar[bool] = True
    event_types: ClassVar[tuple[type[Event], ...]] = (AttackDeclared, D20AttackRolled, DamageDealt)
    """Every type ``events`` can give (``sandbox.systems.stream`` expands a record only for a subscriber to one)."""

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
        out = self.opening_events(MODEL, self.mode.id, self.aim)
        if self.off_body:
            out.append(Missed(t, time, a, d, "off the body"))
        elif self.hit and self.wound is not None:
            out.append(DamageDealt(t, time, a, d, MODEL, self.rolled, self.dealt,
                                   describe(self.wound, self.endurance, self.test)))
        return out

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Bertram: 10 HP (15 rolled): healthy -> slightly wounded, 5 minor``; ``None`` for a miss."""
        wound = self.wound
        if not self.struck or wound is None:
            return None
        head = f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}: "
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
        """The attack step by step, in words.

        The roll and what went into it, the damage through armour, and what the wound did to the ladder.
        """
        attacker, target = name_of(names, self.attacker), name_of(names, self.target)
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
        if self.off_body:
            lines.append(f"{target} has no body to strike: the blow passes through it, a miss")
            return lines
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



def describe(wound: StatusWound, endurance: int, test: StatusTest | None) -> str:
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


def wound_words(wound: StatusWound, endurance: int) -> str:
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


def _test_words(wound: StatusWound, test: StatusTest) -> str:
    called = "seriously wounded and losing a level" if wound.before == SERIOUSLY else \
        "critically wounded and hurt again"
    verdict = "above it: passes out (out of the fight, prone)" if test.result else "not above it: stays awake"
    against = test.against_words()
    if test.penalty:
        against += f" (the status penalty of being {LEVELS[wound.before]})"
    return f"Passing-out test ({called}): d20 {test.roll} against {against}, {verdict}"
