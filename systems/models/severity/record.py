"""The severity model's log entries: the attack record ``SeverityAttack`` and the words that explain it.

One attack leaves one ``SeverityAttack`` in the log: the d20 roll (document 002's, ``sandbox.systems.d20``, as
decisions.md says) and, when it hit, the damage through armour and the wound; its events, summary and explanation
are built only when the log is read. ``wound_words`` says what a wound did against Threshold. The model's state
changes (an effect, first aid, rest, going down or getting up) are ``ModelStateChanged`` events under ``MODEL``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from sandbox.components.events import AttackDeclared, D20AttackRolled, DamageDealt, Event, Missed, ModelStateChanged
from sandbox.components.gear import StrikeMode
from sandbox.components.log import Names, name_of
from sandbox.components.models.severity import SeverityWeapon
from sandbox.systems.context import TickContext
from sandbox.systems.d20 import D20Attack, D20Roll
from sandbox.systems.models.severity.readout import effect_words
from sandbox.systems.models.severity.rules import SeverityDamage, WoundResult

__all__ = ["MODEL", "SeverityAttack", "wound_words"]

MODEL = "severity"
"""The model's name, as its log entries carry it."""


_VALUE_WORDS: Mapping[str, str] = {"brawn": "Brawn", "poise": "Poise", "wit": "Wit", "speed": "Speed",
                                   "stun": "turns of stun", "threshold": "Threshold"}


def wound_words(result: WoundResult) -> list[str]:
    """What a wound did, in words: the effect on the creature, then the Severity against Threshold."""
    if result.outcome == "none":
        return []
    effect = result.effect
    name, _, was = result.before.partition(" ")
    now = result.after.removeprefix(f"{name} ").split(",")[0]
    line = f"{effect.capitalize()} {result.severity}: {_VALUE_WORDS.get(name, name)} {was} -> {now}"
    if result.overflow:
        line += (f"; the attribute stops at its floor, and the {result.overflow} past it "
                 f"{'is' if result.overflow == 1 else 'are'} overflow, added to this wound's Severity against "
                 "Threshold")
    elif result.applied < result.severity:
        line += f"; only {result.applied} can take effect (the natural limit)"
    severity = (f"Severity {result.severity} + overflow {result.overflow} = {result.effective}" if result.overflow
                else f"Severity {result.severity}")
    against = f"{severity} against Threshold {result.threshold} (as it was before the wound)"
    if result.outcome == "dead":
        verdict = f"{against}: dead ({result.cause})" if result.threshold else \
            "Threshold was already 0: any wound is lethal, dead"
    elif result.outcome == "fainted":
        verdict = f"{against}; Threshold falls to 0: faints (out of the fight, and the next wound kills)"
    elif result.outcome == "incapacitated":
        verdict = f"{against}: above it, incapacitated (out of the fight, prone); Threshold now " \
                  f"{result.threshold_after}"
    else:
        verdict = f"{against}: not above it, wounded; Threshold now {result.threshold_after}"
    return [line, verdict]


@dataclass(slots=True)
class SeverityAttack(D20Attack):
    """One attack under the severity model: the d20 roll and, when it hit, the damage and the wound.

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: The attacking entity (-1: a blow struck directly, with no attack roll).
        target: The entity attacked.
        mode: The strike mode.
        aim: ``unaimed`` or the part aimed at (the model places no wound at a location).
        roll: The d20 attack roll (``None``: struck directly).
        hit: The attack hit (the roll's margin, or the helpless rule).
        helpless: The target could not defend.
        weapon: The mode's numbers under this model (``None`` until the blow reached a body).
        off_body: The target has no body to strike: the blow passed through.
        damage: What the damage came to, when the blow reached the body.
        wound: What the wound did once applied (``None`` before, and when nothing reached the body).
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: StrikeMode
    aim: str
    roll: D20Roll | None
    hit: bool
    helpless: bool
    weapon: SeverityWeapon | None = None
    off_body: bool = False
    damage: SeverityDamage | None = None
    wound: WoundResult | None = None

    headline: ClassVar[bool] = True
    event_types: ClassVar[tuple[type[Event], ...]] = (AttackDeclared, D20AttackRolled, Missed, DamageDealt)
    """Every type ``events`` can give (``sandbox.systems.stream`` expands a record only for a subscriber to one)."""

    @property
    def struck(self) -> bool:
        """The attack hit and reached the body (it may still have left no wound)."""
        return self.hit and not self.off_body

    def events(self) -> list[Event]:
        """Declared and rolled, then the miss off the body or the damage.

        The wound's own events follow the record in the log.
        """
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        out = self.opening_events(MODEL, self.mode.id, self.aim, self.hit)
        if not self.hit:
            return out
        if self.off_body:
            out.append(Missed(t, time, a, d, "off the body"))
        elif self.damage is not None:
            damage = self.damage
            out.append(DamageDealt(t, time, a, d, MODEL, damage.rolled, damage.dealt, damage.detail()))
        return out

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Grey: 7 damage (9 rolled): d3s 3,1,3,2,1,2,1 -> Severity 2; weaken``; ``None`` for a miss."""
        damage = self.damage
        if not self.struck or damage is None:
            return None
        return (f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}: {damage.dealt} damage "
                f"({damage.rolled} rolled): {damage.how()}; {damage.effect or 'no wound'}")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words.

        The roll, armour, the Severity dice, the effect, and what the wound did against Threshold.
        """
        attacker, target = name_of(names, self.attacker), name_of(names, self.target)
        aim = "unaimed" if self.aim == "unaimed" else \
            f"aimed at the {self.aim} (the severity model places no wound at a location: the aim changes nothing)"
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode.name}, {aim}"]
        roll = self.roll
        if roll is None:
            lines.append("Struck directly: no attack roll, the blow lands")
        else:
            line = f"Attack roll: {roll.describe(self.hit)}"
            if self.hit and not roll.hit:
                line += f"; but {target} cannot defend, and the helpless rule makes it a hit whatever the roll"
            lines.append(line)
        if not self.hit:
            return lines
        if self.off_body:
            lines.append(f"{target} has no body to strike: the blow passes through it, a miss")
            return lines
        damage = self.damage
        if damage is None:
            return lines
        dice = f" {self.weapon.damage}" if self.weapon is not None else ""
        lines.append(f"Damage{dice} rolled {damage.rolled}; {damage.armour_words(target)}")
        lines.append(damage.severity_words())
        if damage.severity > 0:
            lines.append(f"Effect die: {damage.effect.capitalize()}, {effect_words(damage.effect, damage.severity)}")
        if self.wound is not None:
            lines += wound_words(self.wound)
        return lines



def _changed(ctx: TickContext, entity: int, what: str, before: str, after: str) -> None:
    """Log a change of the model's state (``ModelStateChanged``): ``what`` went from ``before`` to ``after``."""
    ctx.emit(ModelStateChanged(ctx.clock.tick, ctx.clock.time, entity, MODEL, what, before, after))
