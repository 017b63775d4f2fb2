"""The wound-depth model (document 002): no hit points; a blow goes somewhere and does something.

One d20 roll answers whether the blow landed and how deep it went:

- **Attack**: d20 + Strength modifier (melee) or Dexterity modifier (missile and thrown) against the target's
  Defense (10 + Dexterity modifier + the armour rating of every piece worn; a hostile's entry may carry a fixed
  Defense instead of 10 + Dexterity). The creature's untreated-wound penalty, a pending mishap, a notched weapon
  and the target's open guard apply.
- **Margin** = total - Defense; a margin <= 0 misses, a margin >= 1 hits, whatever the die shows (decisions.md).
- **Depth margin** = margin + the weapon's depth bonus - the target's depth reduction for the damage type (its
  anatomy note: a fire dragon's scales turn cuts). 1-3 skin, 4-7 flesh, 8-11 bone, 12+ organ; <= 0 no wound.
- **Natural 20**: a hit goes one tier deeper, to the worst result at that depth. **Natural 1**: a mishap, one of
  document 002's three by the mishap die (the weapon rings off stone and falls or is notched, a muscle pulls: a
  penalty on the next roll, the guard is left open: a bonus to the next attack against the fumbler).
- **Called shot**: -5 to hit; the blow lands on the called location, or on a called part (the location within it
  by weight). Otherwise the location is drawn from the target's anatomy exactly as the anatomy model draws an
  unaimed blow.
- **Injury**: depth x damage type (blunt, cutting, piercing, fire) picks the injury from the tables; organ
  wounds split by whether the part is Vital/Core or a limb. An injury may carry a roll penalty while untreated
  (bleeding), break its part (it stops working until set), lose the part for good, put the creature down, start
  a death clock (rounds), or kill outright.
- Untreated wound penalties apply to the creature's own rolls; when they reach the collapse limit the creature
  goes down (blood loss, a sandbox rule).
- Out of combat (``advance``), a tender (the care circle's pick: a team healer or the creature itself) treats one
  wound per attempt: d20 + skill bonus + its own wound penalty (+ the self-care modifier) against the injury's
  treatment DC. Attempts and deaths run from the shared due queue (``sandbox.systems.schedule``).

A broken or lost part is ``UNUSABLE`` in ``part_states``, so the shared loop wields no strike mode with it (the
intent AI strikes with the limbs that still work: the other hand, a kick); ``attack`` refuses a mode wielded by
such a part (records nothing) should one reach it.

The readout: label ``unhurt`` / ``wounded`` / ``down`` / ``dying`` / ``dead``; health = the penalty the creature
can still take before it collapses (0 when down or dead); band = the deepest tier it has taken.

The tables and the state component are in ``sandbox.components.models.depth``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.creature import CreatureDef
from sandbox.components.events import AttackDeclared, DamageDealt, Event, Missed, ModelStateChanged
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.impairment import SOUND, UNUSABLE, Impairment
from sandbox.components.log import Names
from sandbox.components.models.depth import (
    ASPECT_FAMILY,
    CELLS,
    FAMILIES,
    TIERS,
    CreatureDepth,
    DepthState,
    DepthTables,
    Injury,
    Mishap,
    WeaponDepth,
    Wound,
)
from sandbox.components.readout import PartReading, Readout, WoundReading
from sandbox.components.state import Condition
from sandbox.systems.care import CareCircle
from sandbox.systems.conditions import drop_held, kill
from sandbox.systems.context import TickContext
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.d20 import D20Roll, d20_attack
from sandbox.systems.damage_model import DamageModel, ModelError, register
from sandbox.systems.dice import Rng, roll_die
from sandbox.systems.hit_location import MISS, HitTable, build_hit_table, locate, location_in_zone
from sandbox.systems.models.depth.state import check_saved_state
from sandbox.systems.phases import Phase
from sandbox.systems.schedule import Due, DueQueue

NAME = "depth"

KINDS: tuple[str, ...] = ("care", "die")
"""The due rules out of combat, in the order they run when due at the same time (a treatment before a death)."""


def depth_state(creature: Creature) -> DepthState:
    """The wound-depth state a creature of a depth-model world carries."""
    return cast(DepthState, creature.state)


# ----------------------------------------------------------------------------------------------- pure rules


def ability_modifier(score: int, base: int = 10, step: int = 2) -> int:
    """The d20 modifier of an attribute score: ``(score - base) // step`` (14 -> +2, 10 -> 0, 7 -> -2)."""
    return (score - base) // step


def defense_of(dexterity_modifier: int, armor_ratings: Iterable[int], base: int = 10,
               fixed: int | None = None) -> int:
    """Defense: ``base`` (or a hostile's ``fixed`` Defense) + Dexterity modifier (not with a fixed Defense) + the
    rating of every armour piece worn (leather 2 and Dexterity +2: 14)."""
    start = fixed if fixed is not None else base + dexterity_modifier
    return start + sum(armor_ratings)


def depth_tier(depth_margin: int, tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> int:
    """The tier a depth margin reaches: 0 none, 1 skin (1-3), 2 flesh (4-7), 3 bone (8-11), 4 organ (12+)."""
    tier = 0
    for i, lowest in enumerate(tiers, start=1):
        if depth_margin >= lowest:
            tier = i
    return tier


def cell_of(tier: int, critical_part: bool) -> str:
    """The injury-table row of a tier (1..4): organ wounds split by a Vital/Core part or a limb."""
    if tier >= 4:
        return "organ_core" if critical_part else "organ_limb"
    return CELLS[tier - 1]


@dataclass(frozen=True, slots=True)
class Depth:
    """How deep a landed blow went.

    Attributes:
        raw: Margin + weapon depth bonus.
        margin: ``raw`` - the target's depth reduction for the blow's family.
        tier: Tier of ``margin`` (0..4), one deeper on a natural 20 (at most organ).
        worst: The natural 20 bumped the tier: the worst result at that depth.
    """

    raw: int
    margin: int
    tier: int
    worst: bool


def wound_depth(margin: int, depth_bonus: int, reduction: int, natural_20: bool,
                tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> Depth:
    """The depth of a blow that hit with ``margin``.

    A natural 20 bumps the tier one deeper (a blow the hide turned entirely becomes a skin wound) and asks for
    the worst result at the new depth; organ is the deepest tier.
    """
    raw = margin + depth_bonus
    reduced = raw - reduction
    tier = depth_tier(reduced, tiers)
    if natural_20:
        tier = min(tier + 1, 4)
    return Depth(raw, reduced, tier, natural_20)


def outcome_probabilities(bonus: int, defense: int, depth_bonus: int, reduction: int = 0, *,
                          tiers: tuple[int, int, int, int] = (1, 4, 8, 12)) -> dict[str, float]:
    """The exact chance of each outcome of one attack, over the twenty faces of the d20.

    The margin alone decides a hit (a natural 20 short of Defense misses, a natural 1 beating it hits); a natural 20
    that hits goes one tier deeper.

    Args:
        bonus: Everything added to the die (ability modifier, called shot, wound penalty, mishap).
        defense: The target's Defense.
        depth_bonus: The weapon's depth bonus.
        reduction: The target's depth reduction for the weapon's damage type.
        tiers: Lowest depth margin of skin, flesh, bone and organ.

    Returns:
        ``miss`` and each of ``TIERS`` (``none``: it hit but went no deeper) -> probability.
    """
    out = dict.fromkeys(("miss", *TIERS), 0.0)
    for natural in range(1, 21):
        margin = natural + bonus - defense
        if margin < 1:
            out["miss"] += 1 / 20
            continue
        out[TIERS[wound_depth(margin, depth_bonus, reduction, natural == 20, tiers).tier]] += 1 / 20
    return out


def mishap_effect(mishap: Mishap, natural_weapon: bool) -> tuple[str, int]:
    """What a mishap does to its fumbler: ``(effect, amount)``, where a weapon mishap (``drop``, ``notch``) with a
    natural weapon, which can neither fall nor be notched, becomes ``next_roll`` with its ``natural_penalty``."""
    if mishap.effect in ("drop", "notch") and natural_weapon:
        return "next_roll", mishap.natural_penalty
    amount = mishap.bonus if mishap.effect == "open_guard" else mishap.penalty
    return mishap.effect, amount


def mishap_words(effect: str, amount: int, weapon: str = "") -> str:
    """A mishap's effect in words: ``the broadsword falls from its hand``, ``-1 on its next roll`` ..."""
    if effect == "drop":
        return f"the {weapon or 'weapon'} falls from its hand"
    if effect == "notch":
        return f"the {weapon or 'weapon'} is notched: {amount:+d} on every later attack with it"
    if effect == "open_guard":
        return f"its guard is open: {amount:+d} to the next attack against it"
    return f"{amount:+d} on its next roll" if amount else "no lasting effect"


def injury_for(tables: DepthTables, tier: int, family: str, critical_part: bool, worst: bool) -> Injury | None:
    """The injury a wound of ``tier`` and ``family`` opens on a (Vital/Core or limb) part; ``None`` for tier 0."""
    if tier <= 0:
        return None
    ordinary, worst_injury = tables.injuries[(cell_of(tier, critical_part), family)]
    return worst_injury if worst else ordinary


def injury_words(injury: Injury) -> str:
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


# --------------------------------------------------------------------------------------------- state rules


def wounds_of(state: DepthState) -> list[Wound]:
    """The creature's wounds."""
    return [Wound.of(row) for row in state.wounds]


def settle(state: DepthState, collapse_at: int) -> None:
    """Recompute the derived fields (penalty, broken and lost parts, down, death clock) from the wounds."""
    penalty = 0
    broken: set[int] = set()
    lost: set[int] = set()
    down = False
    dies_at = -1.0
    for w in wounds_of(state):
        if w.lost:
            lost.add(w.part)
            broken.add(w.part)
        if w.treated:
            continue
        penalty += w.penalty
        if w.breaks:
            broken.add(w.part)
        down = down or w.down
        if w.dies_at >= 0 and (dies_at < 0 or w.dies_at < dies_at):
            dies_at = w.dies_at
    state.penalty = penalty
    state.broken = broken
    state.lost = lost
    state.down = down or (collapse_at > 0 and -penalty >= collapse_at)
    state.dies_at = dies_at


def label_of(state: DepthState, dead: bool) -> str:
    """The readout word: ``dead``, ``dying`` (down with a death clock), ``down``, ``wounded`` (a wound with an
    effect still open, or a lost part), ``unhurt``."""
    if dead:
        return "dead"
    if state.down:
        return "dying" if state.dies_at >= 0 else "down"
    if any(w.lasting for w in wounds_of(state)):
        return "wounded"
    return "unhurt"


def open_wounds(state: DepthState) -> int:
    """How many wounds still need treatment."""
    return sum(1 for w in wounds_of(state) if w.open)


def health_of(state: DepthState, dead: bool, collapse_at: int) -> int:
    """The readout's number, higher is haler: 0 when dead or down; else the penalty the creature can still take
    before it collapses (``collapse_at`` + its untreated-wound penalty), at least 1 (5 unhurt, 4 with a bleeding
    flesh wound, 1 with the collapse limit off)."""
    if dead or state.down:
        return 0
    return max(collapse_at + state.penalty, 1)


def treatment_order(wounds: list[Wound]) -> list[int]:
    """Indices of the wounds needing treatment, most urgent first: the soonest death clock, then down, then broken
    parts, then the heaviest penalty, then the oldest."""
    pending = [i for i, w in enumerate(wounds) if w.open]
    return sorted(pending, key=lambda i: (wounds[i].dies_at < 0, wounds[i].dies_at, not wounds[i].down,
                                          not wounds[i].breaks, wounds[i].penalty, i))


def treatment_check(natural: int, bonus: int, dc: int) -> bool:
    """A treatment attempt succeeds when d20 + bonus meets the DC."""
    return natural + bonus >= dc


def roll_d20(rng: Rng) -> int:
    """A d20."""
    return int(rng.random() * 20) + 1


# -------------------------------------------------------------------------------------------- attack record


@dataclass(slots=True)
class DepthAttackRecord:
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
    effect: Injury | None = None
    direct: bool = False

    headline: ClassVar[bool] = True

    # ------------------------------------------------------------------ the roll, for callers that read it

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

    @property
    def struck(self) -> bool:
        """The blow hit and found something to strike (it may still have gone no deeper than the hide)."""
        return self.hit and bool(self.location)

    def placed_blow(self) -> tuple[str, str] | None:
        """The location struck on the anatomy and the depth tier reached, or ``None`` for a miss or damage
        applied directly (what the lab's ``blows.csv`` counts, read without expanding the record)."""
        return (self.location, TIERS[self.tier]) if self.struck and not self.direct else None

    # ------------------------------------------------------------------ LogEntry

    def events(self) -> list[Event]:
        """The typed events of this attack: declared, rolled, missed or the damage, then the target's open guard
        closing and a mishap (consequences after the attack's own steps, as a log reader groups them)."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.direct:
            return [DamageDealt(t, time, a, d, NAME, self.raw, self.depth, self.detail())]
        if self.roll is not None:
            out = self.roll.events(t, time, a, d, NAME, self.mode, self.aim, self.hit)
        else:
            out = [AttackDeclared(t, time, a, d, self.mode, self.aim)]
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
        """``Aldric -> Grey: Punch: d20 14 +2 = 16 vs Defense 12, margin 4: flesh blunt wound to the Thorax
        (Thorax): a crushed muscle``; ``None`` when it missed or found nothing to strike."""
        if not self.struck:
            return None
        who = f"{_who(names, self.attacker)} -> {_who(names, self.target)}"
        if self.direct:
            return f"{who}: depth margin {self.raw} applied directly: {self.detail()}"
        if self.roll is None:
            return f"{who}: {self.mode_name} struck directly: {self.detail()}"
        roll = self.roll
        return (f"{who}: {self.mode_name}: d20 {roll.natural} {roll.bonus:+d} = {roll.total} vs Defense "
                f"{roll.defense}, margin {roll.margin}: {self.detail()}")

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, in words: the roll, the location, the depth, the injury, a mishap."""
        attacker, target = _who(names, self.attacker), _who(names, self.target)
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


def _who(names: Names, entity: int) -> str:
    return names.get(entity, "?") if entity >= 0 else "(direct)"


# ------------------------------------------------------------------------------------------------- the model


def refresh(entity: int, state: DepthState, cond: Condition, before: str, before_broken: set[int],
            body: BodyStructure, collapse_at: int, ctx: TickContext) -> None:
    """Settle the derived state after its wounds changed, sync ``Condition.out`` (a creature going down reels: it
    acts no more this tick) and emit what changed: parts broken, lost or working again, and the label."""
    settle(state, collapse_at)
    clock = ctx.clock
    for p in sorted(state.broken ^ before_broken):
        after = "lost" if p in state.lost else "broken" if p in state.broken else "working"
        was = "broken" if p in before_broken else "working"
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, NAME, f"part {body.parts[p].name}", was, after))
    if state.down and not cond.out:
        cond.out = True
        cond.reeling = True
    elif not state.down and cond.out:
        cond.out = False
    after_label = label_of(state, cond.dead)
    if after_label != before:
        ctx.emit(ModelStateChanged(clock.tick, clock.time, entity, NAME, "state", before, after_label))


def strike_location(body: BodyStructure, table: HitTable, called_part: int | None, aim_zone: int,
                    rng: Rng) -> int:
    """Where a hit lands: on the called part (location by weight within it), in the aimed zone (by the anatomy's
    part x location weights), or anywhere (the anatomy model's unaimed draw). ``MISS`` when nothing can be hit."""
    if called_part is not None and body.part_hittable(called_part):
        part = body.parts[called_part]
        locs = [li for li in part.locations if body.locations[li].weight > 0]
        if len(locs) == 1:
            return locs[0]
        total = sum(body.locations[li].weight for li in locs)
        draw = rng.random() * total
        running = 0.0
        for li in locs:
            running += body.locations[li].weight
            if draw < running:
                return li
        return locs[-1]
    if 0 < aim_zone <= table.max_zone_number and table.zone_by_number[aim_zone] != MISS:
        return location_in_zone(table, table.zone_by_number[aim_zone], rng)
    return locate(table, None, 1, rng)[1]


def _death_cause(state: DepthState, body: BodyStructure) -> str:
    due = [w for w in wounds_of(state) if not w.treated and w.dies_at >= 0]
    if not due:
        return "wounds"
    w = min(due, key=lambda w: w.dies_at)
    return f"{w.name} ({body.locations[w.location].name}), untreated"


class DyingProcessor(esper.Processor):
    """EFFECTS phase: a creature whose death clock has run out dies."""

    def __init__(self, ctx: TickContext) -> None:
        self.ctx = ctx

    def process(self) -> None:
        """Kill the creatures whose time has come, in entity order."""
        ctx = self.ctx
        now = ctx.clock.time + 1e-9
        for c in ctx.current().creatures.values():
            state = depth_state(c)
            if 0 <= state.dies_at <= now and not c.condition.dead:
                kill(c.entity, c.condition, _death_cause(state, c.anatomy.body), ctx)
                state.care_at = -1.0


@register
class DepthModel(DamageModel):
    """Document 002: one d20 roll decides whether a blow lands and how deep it goes; depth x damage type picks
    the injury.

    Args:
        tables: The model's tables (``configs/models/depth.toml``; ``sandbox.systems.models.depth.tables.load``).
    """

    name = NAME


    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved ``DepthState`` the model could not have reached (``state.check_saved_state``)."""
        if isinstance(component, DepthState):
            check_saved_state(component, self.tables, kind, body, armor)

    def __init__(self, tables: object = None) -> None:
        if not isinstance(tables, DepthTables):
            raise ModelError("the depth model needs its tables (sandbox.models.build_model('depth', catalog))")
        super().__init__(tables)
        self.tables: DepthTables = tables
        self._hit_tables: dict[str, tuple[BodyStructure, HitTable]] = {}
        self._states: dict[tuple[str, frozenset[int]], tuple[BodyStructure, tuple[Impairment, ...]]] = {}

    # ---------------------------------------------------------------- state

    def state_types(self) -> tuple[type, ...]:
        """``DepthState``."""
        return (DepthState,)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """Defense and attack modifiers from the creature's entry, attributes and armour."""
        t = self.tables
        entry = t.creatures.get(kind.id, CreatureDepth())
        # A spawn may override scores by the document's short names too (str, dex); an override beats the
        # entry's fixed modifier.
        scores = dict(attributes)
        for short, long in (("str", "strength"), ("dex", "dexterity")):
            if short in scores:
                scores[long] = scores[short]
        overridden = {long for short, long in (("str", "strength"), ("dex", "dexterity")) if short in attributes}

        def mod(ability: str, override: int | None) -> int:
            if override is not None and ability not in overridden:
                return override
            return ability_modifier(scores.get(ability, t.ability_base), t.ability_base, t.ability_step)

        strength = mod(t.melee_ability, entry.strength_modifier)
        dexterity = mod(t.ranged_ability, entry.dexterity_modifier)
        defense_dex = dexterity if t.defense_ability == t.ranged_ability else mod(t.defense_ability, None)
        defense = defense_of(defense_dex, (t.armor.get(p.id, 0) for p in armor), t.defense_base, entry.defense)
        return (DepthState(defense, strength, dexterity),)

    # ---------------------------------------------------------------- the loop's questions

    def part_states(self, creature: Creature) -> tuple[Impairment, ...]:
        """Broken (not yet set) and lost parts are ``UNUSABLE``; every other part is sound."""
        broken = depth_state(creature).broken
        if not broken:
            return super().part_states(creature)
        body = creature.anatomy.body
        key = (body.id, frozenset(broken))
        entry = self._states.get(key)
        if entry is None or entry[0] is not body:
            entry = self._states[key] = (body, tuple(UNUSABLE if p in broken else SOUND
                                                     for p in range(len(body.parts))))
        return entry[1]

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """The penalty the creature can still take before it collapses (0 when down or dead)."""
        return health_of(depth_state(creature), creature.condition.dead, self.tables.collapse_at)

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The death clock of the dying."""
        return [(Phase.EFFECTS, DyingProcessor(ctx))]

    def _hit_table(self, body: BodyStructure) -> HitTable:
        entry = self._hit_tables.get(body.id)
        if entry is None or entry[0] is not body:
            entry = self._hit_tables[body.id] = (body, build_hit_table(body))
        return entry[1]

    # ---------------------------------------------------------------- attack

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> DepthAttackRecord | None:
        """The d20 attack roll and, on a hit, the wound applied at once. A mode wielded by a broken or lost part
        is refused: nothing is rolled or recorded (returns ``None``). An aim naming a part is a called shot landing
        in that part; one naming a location, a called shot landing on that location."""
        comb = attacker.combatant
        called_part: int | None = None
        called_location: int | None = None
        if comb.aim_zone > 0:  # "random" named a zone, not a part: neither is set
            called_part, called_location = _called(target.anatomy.body, comb.aim)
        return self._attack(attacker, target, mode, parts, comb.aim, comb.aim_zone, called_part, called_location,
                            ctx)

    def _attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...], aim: str,
                aim_zone: int, called_part: int | None, called_location: int | None,
                ctx: TickContext) -> DepthAttackRecord | None:
        t = self.tables
        state = depth_state(attacker)
        if state.broken and any(p in state.broken for p in parts):
            return None
        foe_state = depth_state(target)
        body = target.anatomy.body
        weapon = t.weapons[mode.id]
        melee = mode.kind == "melee"
        ability = state.strength_mod if melee else state.dexterity_mod
        called = t.called_shot_modifier if aim_zone > 0 else 0
        notched = state.notches.get(mode.weapon, 0)
        guard = foe_state.open_guard
        pending = state.mishap
        modifier = state.penalty + pending + called + notched + guard
        rng = ctx.streams["attack"]
        roll = d20_attack(ability, foe_state.defense, rng, modifier)
        state.mishap = 0  # the pending mishap was this roll's
        state.open_guard = 0  # its own guard closes when it attacks again
        foe_state.open_guard = 0  # spent on this attack
        mishap = t.mishap(roll_die(t.mishap_die, rng)) if roll.natural == 1 else None
        clock = ctx.clock
        gear = ctx.weapons.get(mode.weapon)
        record = DepthAttackRecord(clock.tick, clock.time, attacker.entity, target.entity, mode.id,
                                   aim if aim_zone > 0 else "unaimed", roll, roll.hit, mishap, mode.name,
                                   _ability_words(t.melee_ability if melee else t.ranged_ability), ability,
                                   state.penalty, pending, called, notched, guard, family=weapon.family,
                                   depth_bonus=weapon.depth_bonus, weapon_name=gear.name if gear else mode.weapon)
        ctx.log.append(record)  # its events are read later: the wound fills it in below
        if roll.hit:
            location = self._landing(body, called_part, called_location, aim_zone, record, ctx)
            if location != MISS:
                self._wound(target, location, roll.margin, weapon, roll.natural == 20, record, ctx)
        if mishap is not None:
            self._mishap(attacker, mode, parts, mishap, record, ctx)
        return record

    def _landing(self, body: BodyStructure, called_part: int | None, called_location: int | None, aim_zone: int,
                 record: DepthAttackRecord, ctx: TickContext) -> int:
        """Where a blow that hit lands: the called location itself when it can be struck (``record.on_location``),
        else a location drawn from the anatomy (in the called part, at the aimed zone, or anywhere)."""
        if called_location is not None and body.locations[called_location].weight > 0 \
                and body.part_hittable(body.locations[called_location].part):
            record.on_location = True
            return called_location
        return strike_location(body, self._hit_table(body), called_part, aim_zone, ctx.streams["injury"])

    def _mishap(self, attacker: Creature, mode: StrikeMode, parts: tuple[int, ...], mishap: Mishap,
                record: DepthAttackRecord, ctx: TickContext) -> None:
        """Apply a natural 1's mishap to the fumbler (after the blow, which the margin decided)."""
        state = depth_state(attacker)
        gear = ctx.weapons.get(mode.weapon)
        equip = attacker.equipment
        natural = gear is None or gear.natural or mode.weapon not in equip.holding.values()
        effect, amount = mishap_effect(mishap, natural)
        record.mishap_effect, record.mishap_amount = effect, amount
        if effect == "drop":
            hand = next((p for p in parts if equip.holding.get(p) == mode.weapon),
                        next(p for p, held in equip.holding.items() if held == mode.weapon))
            drop_held(attacker.entity, equip, hand, attacker.anatomy.body.parts[hand].name, False, ctx)
        elif effect == "notch":
            state.notches[mode.weapon] = state.notches.get(mode.weapon, 0) + amount
        elif effect == "open_guard":
            state.open_guard = amount
        else:
            state.mishap = amount

    def _wound(self, creature: Creature, location: int, margin: int, weapon: WeaponDepth, natural_20: bool,
               record: DepthAttackRecord, ctx: TickContext) -> None:
        """Apply a landed blow (or a direct one) at ``location``: fill in ``record`` and change the state."""
        t = self.tables
        state = depth_state(creature)
        anat, cond = creature.anatomy, creature.condition
        body = anat.body
        loc = body.locations[location]
        part = body.parts[loc.part]
        entry = t.creatures.get(anat.kind.id, CreatureDepth())
        reduction = entry.reduction[FAMILIES.index(weapon.family)]
        depth = wound_depth(margin, weapon.depth_bonus, reduction, natural_20, t.tiers)
        injury = injury_for(t, depth.tier, weapon.family, part.critical, depth.worst)
        record.location, record.part, record.family = loc.name, part.name, weapon.family
        record.depth_bonus, record.reduction = weapon.depth_bonus, reduction
        record.raw, record.depth, record.tier, record.worst = depth.raw, depth.margin, depth.tier, depth.worst
        record.injury = injury.name if injury is not None else ""
        record.effect = injury
        if injury is None:
            return
        clock = ctx.clock
        before = label_of(state, cond.dead)
        before_broken = set(state.broken)
        dies_at = clock.time + injury.dies_after * clock.seconds_per_tick if injury.dies_after else -1.0
        wound = Wound(location, loc.part, depth.tier, weapon.family, injury.name, injury.penalty, injury.breaks,
                      injury.lost, injury.down, dies_at, injury.kills, injury.treat_dc, clock.time, depth.worst)
        state.wounds.append(wound.as_tuple())
        state.worst_tier = max(state.worst_tier, depth.tier)
        if injury.lasting:
            refresh(creature.entity, state, cond, before, before_broken, body, t.collapse_at, ctx)
        if injury.kills and not cond.dead:
            kill(creature.entity, cond, f"{injury.name} ({loc.name})", ctx)

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """The attacker's whole attack (a called shot when ``aim`` names a part or location: -5, and the blow
        lands in that part by weight, or on that location), or (no attacker) a blow that hits with no roll: a
        bare hit (margin 1) plus the mode's depth bonus, at the aim or drawn from the anatomy.

        Raises:
            ModelError: An aim the target's body does not have, a mode the model has no entry for, or (with an
                attacker) a mode only broken or lost limbs could wield.
        """
        from sandbox.systems.ai import choose_aim
        from sandbox.systems.combat import ready_parts

        body = target.anatomy.body
        called_part, called_location = _aim_of(body, aim)
        weapon = self.tables.weapons.get(mode.id)
        if weapon is None:
            raise ModelError(f"the depth model has no entry for strike mode {mode.id!r}; its modes: "
                             f"{', '.join(sorted(self.tables.weapons))}")
        if attacker is not None:
            states = self.part_states(attacker)
            parts = ready_parts(attacker.anatomy, states, attacker.condition, attacker.equipment, mode)
            if parts is None:
                sound = DamageModel.part_states(self, attacker)
                if ready_parts(attacker.anatomy, sound, attacker.condition, attacker.equipment, mode) is not None:
                    broken = ", ".join(attacker.anatomy.body.parts[p].name
                                       for p in sorted(depth_state(attacker).broken))
                    raise ModelError(f"{attacker.name} cannot strike with {mode.name}: the limbs that wield it are "
                                     f"broken or lost ({broken})")
                parts = ()
            zone = choose_aim(aim, body, ctx.streams["ai"]) if aim != "unaimed" else 0
            if not zone:  # nothing there can be aimed at: an unaimed blow, as the loop would make it
                called_part = called_location = None
            self._attack(attacker, target, mode, parts, aim, zone, called_part, called_location, ctx)
            return
        clock = ctx.clock
        record = DepthAttackRecord(clock.tick, clock.time, -1, target.entity, mode.id, aim, None, True, None,
                                   mode.name, family=weapon.family, depth_bonus=weapon.depth_bonus)
        ctx.log.append(record)
        location = self._landing(body, called_part, called_location, 0, record, ctx)
        if location != MISS:
            self._wound(target, location, 1, weapon, False, record, ctx)

    # ---------------------------------------------------------------- direct damage

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """A blow applied directly, as a landed one is.

        Keywords:
            damage: The blow's depth margin (margin + depth bonus; armour is already in the margin), before the
                target's own depth reduction. Or ``level``: a tier name (skin, flesh, bone, organ) or 1..4, which
                stands for that tier's lowest depth margin.
            location: Location name (default: drawn from the anatomy like an unaimed blow).
            aspect: Damage type: blunt, cutting (or edged), piercing, fire (default blunt).
            critical: A natural 20 (one tier deeper, worst result).

        Raises:
            ModelError: A missing or bad depth, an unknown location or damage type, or nothing to strike.
        """
        t = self.tables
        unknown = set(options) - {"damage", "level", "location", "aspect", "critical"}
        if unknown:
            raise ModelError(f"the depth model does not take {', '.join(sorted(unknown))}; it takes damage= (a depth "
                             "margin) or level= (skin/flesh/bone/organ), location=, aspect=, critical=")
        damage, level = options.get("damage"), options.get("level")
        if level is not None:
            if isinstance(level, str) and level in TIERS[1:]:
                tier = TIERS.index(level)
            elif isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= 4:
                tier = level
            else:
                raise ModelError(f"level must be skin, flesh, bone, organ or 1..4, not {level!r}")
            margin = t.tiers[tier - 1]
        elif isinstance(damage, int) and not isinstance(damage, bool) and damage >= 0:
            margin = damage
        else:
            raise ModelError(f"the depth model inflicts damage=N (a depth margin >= 0), not {damage!r}")
        family = ASPECT_FAMILY.get(str(options.get("aspect", "blunt")))
        if family is None:
            raise ModelError(f"unknown damage type {options.get('aspect')!r}; expected one of "
                             f"{', '.join(FAMILIES)} (or edged)")
        body = creature.anatomy.body
        location_name = options.get("location")
        if location_name is not None:
            try:
                location = body.location_index(str(location_name))
            except KeyError:
                raise ModelError(f"{body.name} has no location {location_name!r}; its locations: "
                                 f"{', '.join(x.name for x in body.locations)}") from None
        else:
            location = locate(self._hit_table(body), None, 1, ctx.streams["injury"])[1]
            if location == MISS:
                raise ModelError(f"{body.name} has nothing to strike")
        clock = ctx.clock
        record = DepthAttackRecord(clock.tick, clock.time, -1, creature.entity, "inflict", "unaimed", None, True,
                                   None, family=family, direct=True)
        ctx.log.append(record)
        # The depth margin stands for margin + depth bonus: a weapon of bonus 0 and margin N.
        self._wound(creature, location, margin, WeaponDepth(family, 0), bool(options.get("critical", False)),
                    record, ctx)

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Recompute penalty, broken and lost parts, down and the death clock from the wounds (after a hand edit),
        and report what changed."""
        state = depth_state(creature)
        cond = creature.condition
        before = label_of(state, cond.dead)
        refresh(creature.entity, state, cond, before, set(state.broken), creature.anatomy.body,
                self.tables.collapse_at, ctx)

    # ---------------------------------------------------------------- reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """Label, health (penalty headroom before collapse), the deepest tier taken (band), the conditions
        (bleeding, broken, lost, dying or bleeding out, collapsed, a pending mishap), every open or lasting
        wound, the parts and the model's own numbers."""
        state = depth_state(creature)
        body, cond = creature.anatomy.body, creature.condition
        label = label_of(state, cond.dead)
        wounds = wounds_of(state)
        conditions: list[str] = []
        if not cond.dead:
            for w in wounds:
                if w.treated:
                    continue
                loc = body.locations[w.location].name
                if w.penalty:
                    conditions.append(f"bleeding: {loc} ({w.penalty})")
            conditions += [f"lost: {body.parts[p].name}" for p in sorted(state.lost)]
            conditions += [f"broken: {body.parts[p].name}" for p in sorted(state.broken - state.lost)]
            if state.dies_at >= 0:
                rounds = max(0, round((state.dies_at - ctx.clock.time) / ctx.clock.seconds_per_tick))
                conditions.append(f"{'dying' if state.down else 'bleeding out'} ({rounds} rounds)")
            elif state.down:
                conditions.append("collapsed" if not any(w.down and not w.treated for w in wounds) else "down")
            if state.mishap:
                conditions.append(f"mishap ({state.mishap} on the next roll)")
            if state.open_guard:
                conditions.append(f"guard open ({state.open_guard:+d} to the next attack against it)")
            conditions += [f"notched {weapon} ({n:+d})" for weapon, n in sorted(state.notches.items()) if n]
        shock_word = {"dead": "dead", "dying": "dying", "down": "incapacitated"}.get(label, "none")
        health = health_of(state, cond.dead, self.tables.collapse_at)
        return Readout(not cond.dead, can_act(cond), label, health, TIERS[state.worst_tier], shock_word,
                       tuple(conditions), wound_readings(body, wounds), self.part_readings(creature),
                       self._details(creature, ctx))

    def part_readings(self, creature: Creature) -> tuple[PartReading, ...]:
        """Each part: unusable while broken or lost; a lost part reads as cut off."""
        lost = depth_state(creature).lost
        body = creature.anatomy.body
        return tuple(PartReading(p.name, imp.penalty, imp.unusable, i in lost)
                     for i, (p, imp) in enumerate(zip(body.parts, self.part_states(creature), strict=True)))

    def _details(self, creature: Creature, ctx: TickContext) -> tuple[tuple[str, str], ...]:
        t = self.tables
        state = depth_state(creature)
        collapse = f"down at {-t.collapse_at}" if t.collapse_at > 0 else "no collapse limit"
        details = [("Defense", str(state.defense)),
                   ("attack", f"{_ability_words(t.melee_ability)} {state.strength_mod:+d} (melee), "
                              f"{_ability_words(t.ranged_ability)} {state.dexterity_mod:+d} (missile and thrown)"),
                   ("wound penalty", f"{state.penalty:+d} on its own rolls ({collapse})"),
                   ("deepest wound", TIERS[state.worst_tier])]
        if state.dies_at >= 0 and not creature.condition.dead:
            details.append(("death clock", f"dies at {state.dies_at:g} s unless treated"))
        if state.mishap:
            details.append(("mishap", f"{state.mishap:+d} on its next roll"))
        if state.open_guard:
            details.append(("guard", f"open: {state.open_guard:+d} to the next attack against it"))
        for weapon, n in sorted(state.notches.items()):
            if n:
                details.append((f"notched {weapon}", f"{n:+d} on its attacks with it"))
        entry = t.creatures.get(creature.anatomy.kind.id)
        if entry is not None and entry.note:
            details.append(("anatomy note", entry.note))
        return tuple(details)

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """The derived fields agree with the wounds; lost parts are broken; out exactly while down."""
        state = depth_state(creature)
        cond = creature.condition
        who = f"{creature.name} ({creature.entity})"
        breaches = []
        if not state.lost <= state.broken:
            breaches.append(f"{who}: lost parts {sorted(state.lost)} are not all broken {sorted(state.broken)}")
        if cond.dead:
            return breaches
        fresh = DepthState(wounds=list(state.wounds))
        settle(fresh, self.tables.collapse_at)
        for name in ("penalty", "broken", "lost", "down", "dies_at"):
            if getattr(fresh, name) != getattr(state, name):
                breaches.append(f"{who}: {name} {getattr(state, name)!r} but its wounds make {getattr(fresh, name)!r}")
        if cond.out != state.down:
            breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while "
                            f"{'down' if state.down else 'not down'}")
        return breaches

    # ---------------------------------------------------------------- out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Move game time on: tenders treat wounds (one attempt per wound at a time), the dying die on time.

        Due items run from the shared due queue in time order; at equal times a treatment comes before a death,
        then by entity.
        """
        advance_care(self.tables, ctx, seconds, care)


def _ability_words(attribute: str) -> str:
    return attribute.replace("_", " ").capitalize()


def _called(body: BodyStructure, aim: str) -> tuple[int | None, int | None]:
    """The called part, or the called location, an aim names on ``body`` (both ``None`` when it names neither:
    ``unaimed``, ``random``, or a name the body lacks)."""
    try:
        return body.part_index(aim), None
    except KeyError:
        pass
    try:
        return None, body.location_index(aim)
    except KeyError:
        return None, None


def _aim_of(body: BodyStructure, aim: str) -> tuple[int | None, int | None]:
    """The called part, or the called location, an aim names (both ``None`` for ``unaimed``).

    Raises:
        ModelError: The body has no such part or location.
    """
    if aim == "unaimed":
        return None, None
    called = _called(body, aim)
    if called == (None, None):
        raise ModelError(f"{body.name} has no part or location {aim!r}; its parts: "
                         f"{', '.join(p.name for p in body.parts)}")
    return called


def wound_readings(body: BodyStructure, wounds: Iterable[Wound]) -> tuple[WoundReading, ...]:
    """Every wound that still needs treatment or still has an effect (a lost part), in names, in the order
    received."""
    out = []
    for w in wounds:
        if not (w.open or w.lasting):
            continue
        loc = body.locations[w.location]
        tier = TIERS[w.tier]
        words = [f"{tier} {w.family} wound: {w.name}"]
        bleeding = w.penalty < 0 and not w.treated
        if bleeding:
            words.append(f"bleeding ({w.penalty})")
        if w.lost:
            words.append("part lost")
        elif w.breaks and not w.treated:
            words.append("part broken")
        if w.dies_at >= 0 and not w.treated:
            words.append(f"fatal at {w.dies_at:g} s unless treated")
        words.append("treated" if w.treated else f"untreated (DC {w.treat_dc})")
        out.append(WoundReading(loc.name, body.parts[loc.part].name, tier, w.family, bleeding, None, None,
                                w.treated, ", ".join(words)))
    return tuple(out)


# ------------------------------------------------------------------------------------------------------- care


def advance_care(tables: DepthTables, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
    """Out of combat for ``seconds``: treatment attempts and deaths in time order (see ``DepthModel.advance``).

    The wounded are first seen to after the care policy's first-aid delay. Each attempt, the care circle's tender
    (the best team-mate able to act, else the creature itself) treats the most urgent wound it can treat at all;
    the next attempt follows after ``attempt_seconds``. With nobody at hand, or nothing the tender can do, the
    creature waits until a treatment on its team succeeds (a tender may then be back on its feet or steadier).

    Raises:
        ModelError: A negative span.
    """
    if seconds < 0:
        raise ModelError(f"time only moves forward, not by {seconds:g} s")
    rules = tables.care
    clock = ctx.clock
    end = clock.seconds + seconds
    delay = rules.first_aid_delay if care.first_aid_delay is None else float(care.first_aid_delay)
    creatures = ctx.creatures()
    queue = DueQueue(KINDS)
    for e, c in creatures.items():
        st = depth_state(c)
        if c.condition.dead:
            continue
        if st.care_at < 0 and any(w.open for w in wounds_of(st)):
            st.care_at = clock.seconds + delay
        queue.push("care", e, st.care_at)
        queue.push("die", e, st.dies_at)

    def skill(c: Creature, on_self: bool) -> int:
        ml = c.anatomy.mls.get(rules.skill, 0)
        st = depth_state(c)
        bonus = ml // rules.skill_divisor + st.penalty + st.mishap  # a pulled muscle spoils its next roll too
        return bonus + rules.self_care_modifier if on_self else bonus

    def eligible(c: Creature, on_self: bool) -> bool:
        return on_self or c.anatomy.mls.get(rules.skill) is not None

    circle = CareCircle(creatures, care, skill, eligible)
    waiting: dict[str, set[int]] = {}  # per team, the wounded whose care lapsed (nobody could help them)

    def is_due(due: Due) -> bool:
        c = creatures[due.entity]
        if c.condition.dead:
            return False
        st = depth_state(c)
        return (st.care_at if due.kind == "care" else st.dies_at) == due.time

    rng = ctx.streams["healing"]
    ctx.due = queue
    try:
        for due in queue.pop_due(end, is_due):
            e = due.entity
            c = creatures[e]
            st = depth_state(c)
            cond, body = c.condition, c.anatomy.body
            clock.seconds = max(clock.seconds, due.time)
            if due.kind == "die":
                kill(e, cond, _death_cause(st, body), ctx)
                st.care_at = -1.0
                circle.update(e)
                continue
            tender = circle.tender_for(e)
            wounds = wounds_of(st)
            # The most urgent wound this tender can treat at all (a DC beyond d20 + bonus is not attempted).
            order = [] if tender is None or tender.skill is None else \
                [i for i in treatment_order(wounds) if 20 + tender.skill >= wounds[i].treat_dc]
            if tender is None or tender.skill is None or not order:
                st.care_at = -1.0  # re-armed when a treatment on its team succeeds
                waiting.setdefault(c.team, set()).add(e)
                continue
            bonus = tender.skill
            index = order[0]
            wound = wounds[index]
            natural = roll_d20(rng)
            success = treatment_check(natural, bonus, wound.treat_dc)
            tender_state = depth_state(creatures[tender.entity])
            if tender_state.mishap:  # the roll it spoiled
                tender_state.mishap = 0
                circle.update(tender.entity)
            loc = body.locations[wound.location].name
            verdict = "treated" if success else "untreated"
            ctx.emit(ModelStateChanged(clock.tick, clock.time, e, NAME, f"treatment: {wound.name} ({loc})",
                                       "untreated", f"{verdict} (d20 {natural} {bonus:+d} vs DC {wound.treat_dc})"))
            if success:
                before, before_broken, dies_before = label_of(st, cond.dead), set(st.broken), st.dies_at
                st.wounds[index] = (*st.wounds[index][:-1], True)
                refresh(e, st, cond, before, before_broken, body, tables.collapse_at, ctx)
                if st.dies_at != dies_before:
                    queue.push("die", e, st.dies_at)
                team = waiting.get(c.team, set())
                for other in sorted(team - {e}):  # a tender may be back on its feet or steadier: re-arm the waiting
                    oc = creatures[other]
                    ost = depth_state(oc)
                    if ost.care_at < 0 and not oc.condition.dead and any(w.open for w in wounds_of(ost)):
                        ost.care_at = clock.seconds
                        queue.push("care", other, ost.care_at)
                    team.discard(other)
            st.care_at = clock.seconds + rules.attempt_seconds if any(w.open for w in wounds_of(st)) else -1.0
            queue.push("care", e, st.care_at)
            circle.update(e)
    finally:
        ctx.due = None
    clock.seconds = end
