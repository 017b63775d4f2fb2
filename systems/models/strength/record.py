"""The strength-health model's log entry: one attack, compactly, and what it needs to explain itself.

``StrengthAttack`` is what ``StrengthModel.attack`` and ``strike`` append to the log: the d20 roll (none for a blow
struck directly), the damage roll, the Armour value met and what the damage did. It gives the typed events
(``events``), one line (``summary``) and the attack step by step in words (``explain``); ``damage_detail`` and
``damage_words`` put a damage roll in words (the first is also the ``detail`` of every ``DamageDealt`` the model
emits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sandbox.components.events import AttackDeclared, D20AttackRolled, DamageDealt, Event, Missed
from sandbox.components.log import Names, name_of
from sandbox.systems.d20 import D20Attack, D20Roll
from sandbox.systems.models.strength.rules import MODEL, DamageRoll

__all__ = ["StrengthAttack", "damage_detail", "damage_words"]


@dataclass(slots=True)
class StrengthAttack(D20Attack):
    """One attack under the strength model, compactly (``events()`` gives the typed events, ``explain`` the words).

    Attributes:
        tick: Tick of the attack.
        time: Game time.
        attacker: Attacking entity (-1: a blow struck directly, with no attack roll).
        target: Defending entity.
        mode: Strike mode id.
        roll: The d20 attack roll (``None``: struck directly, no roll).
        mode_name: The strike mode's name.
        bonuses: What the roll added, in words and numbers (("its own", 2), ("the weapon", 0) ...).
        defenses: What the Defense was made of (("its own", 11), ("its conditions", -2)), or
            (("defenceless", 0),) when the target could not act.
        damage: The damage roll when it landed.
        armor: The Armour value that applied (0 for direct damage), shields included.
        shield: The part of ``armor`` the target's shields gave.
        direct: The weapon's damage is direct (armour does not apply).
        dealt: Damage after armour.
        enhanced_by_20: Enhancements a natural 20 added to the damage.
        outcome: What the damage did, in words (filled in as it is applied).
        off_body: The target has no body to strike (``DamageModel.can_be_struck``): the blow passed through it.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    roll: D20Roll | None
    mode_name: str = ""
    bonuses: tuple[tuple[str, int], ...] = ()
    defenses: tuple[tuple[str, int], ...] = ()
    damage: DamageRoll | None = None
    armor: int = 0
    shield: int = 0
    direct: bool = False
    dealt: int = 0
    enhanced_by_20: int = 0
    outcome: str = ""
    off_body: bool = False

    headline: ClassVar[bool] = True
    event_types: ClassVar[tuple[type[Event], ...]] = (AttackDeclared, D20AttackRolled, DamageDealt)
    """Every type ``events`` can give (``sandbox.systems.stream`` expands a record only for a subscriber to one)."""

    @property
    def hit(self) -> bool:
        """The attack landed (a blow struck directly always does)."""
        return self.roll is None or self.roll.hit

    @property
    def struck(self) -> bool:
        """The attack landed (its damage may still be 0 after armour)."""
        return self.damage is not None

    def events(self) -> list[Event]:
        """The attack roll (declared unaimed: the model places no blow) and, when it landed, the damage."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        out = self.opening_events(MODEL, self.mode)
        if self.off_body:
            out.append(Missed(t, time, a, d, "off the body"))
        elif self.damage is not None:
            out.append(DamageDealt(t, time, a, d, MODEL, self.damage.total, self.dealt,
                                   damage_detail(self.damage, self.armor, self.dealt)))
        return out

    def summary(self, names: Names) -> str | None:
        """The attack in one line; ``None`` for a miss.

        ``Aldric -> Bertram: Broadsword cut: 5 damage (8 rolled: d8: 8, 1 -> 8; armour 3 -> 5)``.
        """
        if self.damage is None:
            return None
        who = f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}"
        return (f"{who}: {self.mode_name}: {self.dealt} damage "
                f"({self.damage.total} rolled: {damage_detail(self.damage, self.armor, self.dealt)})")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll, the damage dice, armour, what the damage did."""
        attacker, target = name_of(names, self.attacker), name_of(names, self.target)
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode_name}"]
        roll = self.roll
        if roll is None:
            lines.append("Struck directly: no attack roll, the blow lands")
        else:
            lines.append("Attack bonus: " + ", ".join(f"{what} {n:+d}" for what, n in self.bonuses)
                         + f" = {roll.bonus:+d}")
            if self.defenses and self.defenses[0][0] == "defenceless":
                lines.append(f"{target} cannot act and is defenceless: Defense {roll.defense}")
            else:
                lines.append("Defense: " + ", ".join(f"{what} {n:+d}" if i else f"{what} {n}"
                                                     for i, (what, n) in enumerate(self.defenses))
                             + f" = {roll.defense}")
            lines.append(f"Roll: {roll.describe()}")
        if self.off_body:
            lines.append(f"{target} has no body to strike: the blow passes through it, a miss")
            return lines
        damage = self.damage
        if damage is None:
            return lines
        if self.enhanced_by_20:
            lines.append("The natural 20 enhances the damage" + (f" {self.enhanced_by_20} times"
                                                                 if self.enhanced_by_20 > 1 else ""))
        lines.append(f"Damage: {damage_words(damage)}")
        if self.direct:
            lines.append(f"Direct damage: armour does not apply; {self.dealt} damage")
        elif self.armor:
            shield = f" (its shield {self.shield})" if self.shield else ""
            lines.append(f"Armour value {self.armor}{shield} takes it to {self.dealt}")
        else:
            lines.append(f"No armour: {self.dealt} damage")
        if self.outcome:
            lines.append(f"{target}: {self.outcome}")
        return lines



def damage_detail(roll: DamageRoll, armor: int, dealt: int) -> str:
    """A damage roll in words: ``d6 enhanced: rolls 4, 8 -> 8; armour 3 -> 5``."""
    if roll.how == "ignored":
        return f"d{roll.die} impaired twice: ignored"
    rolls = ", ".join(str(r) for r in roll.rolls)
    text = f"d{roll.die}" + ("" if roll.how == "normal" else f" {roll.how}") + f": {rolls}"
    if len(roll.rolls) > 1:
        text += f" -> {roll.kept}"
    if roll.bonus:
        text += f" {roll.bonus:+d} = {roll.total}"
    return text + (f"; armour {armor} -> {dealt}" if armor else "")


def damage_words(roll: DamageRoll) -> str:
    """A damage roll in a sentence.

    ``d6 enhanced (rolled twice, the higher kept): 4 and 8 (exploded), keeps 8`` (a die that comes up on its
    maximum is rolled again and adds the new roll minus 1, so any total of the die's size or more exploded).
    """
    if roll.how == "ignored":
        return f"d{roll.die} impaired twice (net): the damage is ignored, nothing is rolled"
    how = {"normal": "", "enhanced": " enhanced (rolled twice, the higher kept)",
           "impaired": " impaired (rolled twice, the lower kept)"}[roll.how]
    rolls = [f"{r} (exploded)" if r >= roll.die else str(r) for r in roll.rolls]
    text = f"d{roll.die}{how}: " + " and ".join(rolls)
    if len(roll.rolls) > 1:
        text += f", keeps {roll.kept}"
    if roll.bonus:
        text += f", {roll.bonus:+d} = {roll.total}"
    return text
