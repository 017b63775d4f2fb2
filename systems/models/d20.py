"""The d20 attack roll of document 002, shared by the point-based models (decisions.md: documents 001, 003 and
004 name no attack roll, so they use this one).

``d20 + attack bonus (+ modifiers)`` against the target's Defense; the margin is the total minus Defense and the
attack hits when the margin is at least 1. A natural 20 and a natural 1 are reported so each model can apply its
own crit and mishap rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from components.events import AttackDeclared, D20AttackRolled, Event
from systems.dice import Rng


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


def d20_attack(bonus: int, defense: int, rng: Rng, modifier: int = 0) -> D20Roll:
    """Roll d20 + ``bonus`` + ``modifier`` against ``defense``."""
    natural = int(rng.random() * 20) + 1
    total = natural + bonus + modifier
    margin = total - defense
    return D20Roll(natural, total, defense, margin, margin >= 1)


def unaimed_attack_events(tick: int, time: float, attacker: int, target: int, model: str, mode: str, natural: int,
                          total: int, defense: int, margin: int, hit: bool) -> list[Event]:
    """How an attack of a model with no hit location opens in the trace: declared (unaimed), then its d20 roll."""
    return [AttackDeclared(tick, time, attacker, target, mode, "unaimed"),
            D20AttackRolled(tick, time, attacker, target, model, mode, natural, total, defense, margin, hit)]
