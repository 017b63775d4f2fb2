"""The wound-depth model's log entry: one compact record per attack, and the words it explains itself with.

An attack leaves one ``DepthAttackRecord`` in the log (as it is made, filled in as the blow lands); its ``events``
are the typed step events (declared, rolled, missed or the damage, the guard closing, a mishap), built only when the
log is read, and ``summary`` and ``explain`` word it. What it holds: the record, ``injury_words`` (what an injury
does) and ``mishap_words`` (what a mishap did).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sandbox.components.events import AttackDeclared, D20AttackRolled, DamageDealt, Event, Missed, ModelStateChanged
from sandbox.components.log import Names, name_of
from sandbox.components.models.depth import TIERS, DepthInjury, Mishap
from sandbox.systems.d20 import D20Attack, D20Roll
from sandbox.systems.models.depth.rules import NAME

__all__ = ["DepthAttackRecord", "injury_words", "mishap_words"]


def mishap_words(effect: str, amount: int, weapon: str = "") -> str:
    """A mishap's effect in words.

    For example ``the broadsword falls from its hand``, ``-1 on its next roll`` or ``its guard is open: +2 to the
    next attack against it``.
    """
    if effect == "drop":
        return f"the {weapon or 'weapon'} falls from its hand"
    if effect == "notch":
        return f"the {weapon or 'weapon'} is notched: {amount:+d} on every later attack with it"
    if effect == "open_guard":
        return f"its guard is open: {amount:+d} to the next attack against it"
    return f"{amount:+d} on its next roll" if amount else "no lasting effect"


def injury_words(injury: DepthInjury) -> str:
    """What an injury does, in words: ``-1 on its rolls until treated; treatment DC 10``."""
    words = []
    if injury.kills:
        words.append("kills outright")
    if injury.penalty:
        words.append(f"{injury.penalty} on its rolls until treated")
    if injury.lost:
        words.append("the part is lost for good")
    elif injury.breaks:
        words.append("the part stops working until set")
    if injury.down:
        words.append("down until treated")
    if injury.dies_after:
        words.append(f"dies in {injury.dies_after} rounds unless treated")
    if not words:
        words.append("no lasting effect")
    if injury.treat_dc:
        words.append(f"treatment DC {injury.treat_dc}")
    return "; ".join(words)


@dataclass(slots=True)
class DepthAttackRecord(D20Attack):
    """One attack under the wound-depth model, compactly (``events`` expands it, ``explain`` words it).

    Attributes:
        tick: Tick of the attack.
        time: Game time.
        attacker: Attacking entity (-1: a blow struck or damage applied directly).
        target: Target entity.
        mode: Strike mode id (``inflict`` for damage applied directly).
        aim: The called part (or location), or ``unaimed``.
        roll: The d20 attack roll (``None``: no roll, the blow was struck or applied directly).
        hit: Whether it hit (the margin decides).
        mishap: A natural 1's mishap (``None``: none).
        mode_name: The strike mode's name ("" for damage applied directly).
        ability_name: The attribute whose modifier the roll added.
        ability: That modifier.
        penalty: The attacker's untreated-wound penalty on the roll.
        pending: The penalty of an earlier mishap on this roll.
        called: The called-shot modifier (0: not a called shot).
        notched: The penalty of the weapon's notches on this roll.
        guard: The bonus of the target's open guard on this roll.
        mishap_effect: What the mishap did (``drop``, ``notch``, ``next_roll``, ``open_guard``; "" for none).
        mishap_amount: Its penalty or bonus.
        weapon_name: The weapon's name (for a mishap's words).
        on_location: A called shot at a location landed on it.
        location: Location struck ("" when it missed, or found nothing to strike).
        part: Part struck.
        family: Damage-type family.
        depth_bonus: The weapon's depth bonus.
        reduction: The target's depth reduction for the family.
        raw: Margin + depth bonus.
        depth: Depth margin after the target's reduction.
        tier: Depth tier reached (0..4).
        worst: A natural 20's worst result.
        injury: The injury's name ("" for none).
        effect: The injury-table cell the wound opened, or ``None``.
        direct: Damage applied directly (``inflict``): no attack, only the damage event.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    aim: str
    roll: D20Roll | None
    hit: bool
    mishap: Mishap | None
    mode_name: str = ""
    ability_name: str = ""
    ability: int = 0
    penalty: int = 0
    pending: int = 0
    called: int = 0
    notched: int = 0
    guard: int = 0
    mishap_effect: str = ""
    mishap_amount: int = 0
    weapon_name: str = ""
    on_location: bool = False
    location: str = ""
    part: str = ""
    family: str = ""
    depth_bonus: int = 0
    reduction: int = 0
    raw: int = 0
    depth: int = 0
    tier: int = 0
    worst: bool = False
    injury: str = ""
    effect: DepthInjury | None = None
    direct: bool = False

    headline: ClassVar[bool] = True
    event_types: ClassVar[tuple[type[Event], ...]] = (AttackDeclared, D20AttackRolled, Missed, DamageDealt,
                                                      ModelStateChanged)
    """Every type ``events`` can give (``sandbox.systems.stream`` expands a record only for a subscriber to one)."""

    def changed_creatures(self) -> tuple[int, ...]:
        """Both fighters: a depth attack's own events may change its attacker too (the readout cache reads this)."""
        return (self.attacker, self.target)

    # ------------------------------------------------------------------ the roll, for callers that read it

    @property
    def struck(self) -> bool:
        """The blow hit and found something to strike (it may still have gone no deeper than the hide)."""
        return self.hit and bool(self.location)

    def placed_blow(self) -> tuple[str, str] | None:
        """The location struck on the anatomy and the depth tier reached.

        Returns:
            ``(location, tier)``, or ``None`` for a miss or damage applied directly (what the lab's ``blows.csv``
            counts, read without expanding the record).
        """
        return (self.location, TIERS[self.tier]) if self.struck and not self.direct else None

    # ------------------------------------------------------------------ LogEntry

    def events(self) -> list[Event]:
        """The typed events of this attack: declared, rolled, missed or the damage, then its consequences.

        The consequences (the target's open guard closing, a mishap) come after the attack's own steps, as a log
        reader groups them.
        """
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.direct:
            return [DamageDealt(t, time, a, d, NAME, self.raw, self.depth, self.detail())]
        out = self.opening_events(NAME, self.mode, self.aim, self.hit)
        if not self.hit:
            out.append(Missed(t, time, a, d, "short of Defense"))
        elif not self.location:
            out.append(Missed(t, time, a, d, "nothing to strike"))
        else:
            out.append(DamageDealt(t, time, a, d, NAME, self.raw, self.depth, self.detail()))
        if self.guard:
            out.append(ModelStateChanged(t, time, d, NAME, "guard", f"open ({self.guard:+d} to this attack)",
                                         "closed"))
        if self.mishap is not None:
            out.append(ModelStateChanged(t, time, a, NAME, "mishap (natural 1)", "none",
                                         f"{self.mishap.name}: {self.mishap_text()}"))
        return out

    def mishap_text(self) -> str:
        """What this attack's mishap did, in words ("" for none)."""
        if self.mishap is None:
            return ""
        return mishap_words(self.mishap_effect, self.mishap_amount, self.weapon_name.lower())

    def detail(self) -> str:
        """The wound in words: ``flesh cutting wound to the Right Forearm (Right Arm): a laceration``."""
        crit = "natural 20, worst: " if self.worst else ""
        if self.tier == 0:
            return f"{crit}no wound to the {self.location} ({self.part}): the {self.family} blow goes no deeper"
        return (f"{crit}{TIERS[self.tier]} {self.family} wound to the {self.location} ({self.part}): "
                f"{self.injury}")

    def summary(self, names: Names) -> str | None:
        """The attack in one line, or ``None`` when it missed or found nothing to strike.

        ``Aldric -> Grey: Punch: d20 14 +2 = 16 vs Defense 12, margin 4: flesh blunt wound to the Thorax (Thorax):
        a crushed muscle``.
        """
        if not self.struck:
            return None
        who = f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}"
        if self.direct:
            return f"{who}: depth margin {self.raw} applied directly: {self.detail()}"
        if self.roll is None:
            return f"{who}: {self.mode_name} struck directly: {self.detail()}"
        roll = self.roll
        return (f"{who}: {self.mode_name}: d20 {roll.natural} {roll.bonus:+d} = {roll.total} vs Defense "
                f"{roll.defense}, margin {roll.margin}: {self.detail()}")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll, the location, the depth, the injury, a mishap."""
        attacker, target = name_of(names, self.attacker), name_of(names, self.target)
        if self.direct:
            lines = [f"Tick {self.tick}: a {self.family} blow of depth margin {self.raw} is applied to {target} "
                     "directly (no attack roll)"]
        else:
            aim = "unaimed" if self.aim == "unaimed" else f"a called shot at the {self.aim}"
            lines = [f"Tick {self.tick}: {attacker} attacks {target} with {self.mode_name} ({self.family}, depth "
                     f"bonus {self.depth_bonus:+d}), {aim}"]
            roll = self.roll
            if roll is None:
                lines.append("Struck directly: no attack roll; the blow counts as a bare hit (margin 1)")
            else:
                parts = [f"{self.ability_name} {self.ability:+d}"]
                if self.penalty:
                    parts.append(f"its untreated wounds {self.penalty:+d}")
                if self.pending:
                    parts.append(f"an earlier mishap {self.pending:+d}")
                if self.called:
                    parts.append(f"the called shot {self.called:+d}")
                if self.notched:
                    parts.append(f"its notched weapon {self.notched:+d}")
                if self.guard:
                    parts.append(f"the target's open guard {self.guard:+d}")
                lines.append(f"Attack bonus: {', '.join(parts)} = {roll.bonus:+d}")
                verdict = roll.describe(self.hit)
                if roll.natural == 20 and not self.hit:
                    verdict += " (a natural 20 short of Defense still misses)"
                elif roll.natural == 1 and self.hit:
                    verdict += " (a natural 1 that beats Defense still hits)"
                lines.append(verdict.replace("d20 ", "Roll: d20 ", 1))
            if not self.hit:
                if self.mishap is not None:
                    lines.append(self._mishap_line())
                return lines
            if not self.location:
                lines.append(f"It hits, but {target}'s body has nothing to strike")
                return lines
            if self.aim == "unaimed":
                where = "drawn from the anatomy"
            elif self.on_location:
                where = "the called location"
            else:
                where = "in the called part, the location by weight"
            lines.append(f"It lands on the {self.location} ({self.part}; {where})")
        reduced = f"less {self.reduction} for the target's {self.family} reduction = {self.depth}"
        if self.direct:
            lines.append(f"Depth margin {self.raw}, {reduced}")
        else:
            lines.append(f"Depth margin: margin {self.raw - self.depth_bonus} + depth bonus {self.depth_bonus} = "
                         f"{self.raw}, {reduced}")
        if self.worst:
            tier = TIERS[self.tier] if self.tier else "none"
            lines.append(f"The natural 20 takes it one tier deeper, to {tier}, and the worst result at that depth")
        if self.tier == 0:
            lines.append("No wound: the blow goes no deeper than the hide")
        else:
            lines.append(f"A {TIERS[self.tier]} {self.family} wound: {self.injury}")
            if self.effect is not None:
                lines.append(f"Injury: {injury_words(self.effect)}")
        if self.mishap is not None:
            lines.append(self._mishap_line())
        return lines

    def _mishap_line(self) -> str:
        assert self.mishap is not None
        return f"The natural 1 is a mishap: {self.mishap.name}; {self.mishap_text()}"

