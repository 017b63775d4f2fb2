"""The d20 attack roll of document 002, shared by the point-based models.

Documents 001, 003 and 004 name no attack roll, so they use this one (decisions.md).

``d20 + attack bonus (+ modifiers)`` against the target's Defense; the margin is the total minus Defense and the
attack hits when the margin is at least 1. A natural 20 and a natural 1 are reported so each model can apply its
own crit and mishap rules. Each model's attack record embeds the ``D20Roll`` it made; the roll gives the
record's opening events and its line of explanation.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.components.events import AttackDeclared, D20AttackRolled, Event
from sandbox.systems.dice import Rng

__all__ = ["D20Roll", "d20_attack"]


@dataclass(frozen=True, slots=True)
class D20Roll:
    """One attack roll.

    Attributes:
        natural: The die (1..20).
        total: Die + bonus + modifier.
        defense: The target's Defense.
        margin: Total - Defense.
        hit: The margin is at least 1.
    """

    natural: int
    total: int
    defense: int
    margin: int
    hit: bool

    @property
    def bonus(self) -> int:
        """What was added to the die (bonus and modifiers)."""
        return self.total - self.natural

    def events(self, tick: int, time: float, attacker: int, target: int, model: str, mode: str, aim: str = "unaimed",
               hit: bool | None = None) -> list[Event]:
        """How an attack with this roll opens in the log.

        Declared (with its aim), then the roll (``hit``: the model's verdict, when its rules overrule the margin).
        """
        return [AttackDeclared(tick, time, attacker, target, mode, aim),
                D20AttackRolled(tick, time, attacker, target, model, mode, self.natural, self.total, self.defense,
                                self.margin, self.hit if hit is None else hit)]

    def describe(self, hit: bool | None = None) -> str:
        """``d20 14 + 3 = 17 against Defense 15: margin 2, a hit``."""
        verdict = self.hit if hit is None else hit
        natural = " (natural 20)" if self.natural == 20 else " (natural 1)" if self.natural == 1 else ""
        return (f"d20 {self.natural}{natural} {self.bonus:+d} = {self.total} against Defense {self.defense}: "
                f"margin {self.margin}, {'a hit' if verdict else 'a miss'}")


class D20Attack:
    """What every d20 model's attack record shares: its roll's numbers and the events the attack opens with.

    A base for a slots dataclass record with ``tick``, ``time``, ``attacker``, ``target`` and ``roll`` fields (the
    severity, depth, strength and status models' records): ``roll`` is ``None`` for a blow struck directly.
    """

    __slots__ = ()
    tick: int
    time: float
    attacker: int
    target: int
    roll: D20Roll | None

    def changed_creatures(self) -> tuple[int, ...]:
        """The creatures this record's own events may change: its target.

        What the attack did to its attacker (a fumble, a turn spent) is logged in entries of its own that name it.
        The readout cache reads this.
        """
        return (self.target,)

    def opening_events(self, model: str, mode: str, aim: str = "unaimed", hit: bool | None = None) -> list[Event]:
        """Declared and rolled (``D20Roll.events``), or only declared when struck directly.

        ``hit`` is the model's verdict.
        """
        if self.roll is None:
            return [AttackDeclared(self.tick, self.time, self.attacker, self.target, mode, aim)]
        return self.roll.events(self.tick, self.time, self.attacker, self.target, model, mode, aim, hit)

    @property
    def natural(self) -> int:
        """The d20 (0 without a roll)."""
        return self.roll.natural if self.roll is not None else 0

    @property
    def total(self) -> int:
        """Die + bonus + modifiers (0 without a roll)."""
        return self.roll.total if self.roll is not None else 0

    @property
    def defense(self) -> int:
        """The target's Defense (0 without a roll)."""
        return self.roll.defense if self.roll is not None else 0

    @property
    def margin(self) -> int:
        """Total - Defense (0 without a roll)."""
        return self.roll.margin if self.roll is not None else 0


def roll_d20(rng: Rng) -> int:
    """One d20 (1..20) from one draw of ``rng``."""
    return int(rng.random() * 20) + 1


def d20_attack(bonus: int, defense: int, rng: Rng, modifier: int = 0) -> D20Roll:
    """Roll d20 + ``bonus`` + ``modifier`` against ``defense``."""
    natural = roll_d20(rng)
    total = natural + bonus + modifier
    margin = total - defense
    return D20Roll(natural, total, defense, margin, margin >= 1)
