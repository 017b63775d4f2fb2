"""The wound-depth model (document 002): no hit points; a blow goes somewhere and does something.

One d20 roll answers whether the blow landed and how deep it went:

- **Attack**: d20 + Strength modifier (melee) or Dexterity modifier (missile and thrown) against the target's
  Defense (10 + Dexterity modifier + the armour rating of every piece worn; a hostile's entry may carry a fixed
  Defense instead of 10 + Dexterity). The creature's untreated-wound penalty and a pending mishap apply.
- **Margin** = total - Defense; a margin <= 0 misses (a natural 20 always hits and a natural 1 always misses
  when the tables say so; sandbox rules).
- **Depth margin** = margin + the weapon's depth bonus - the target's depth reduction for the damage type (its
  anatomy note: a fire dragon's scales turn cuts). 1-3 skin, 4-7 flesh, 8-11 bone, 12+ organ; <= 0 no wound.
- **Natural 20**: one tier deeper, and the worst result at that depth. **Natural 1**: a mishap, -1 on the
  attacker's next roll.
- **Called shot**: -5 to hit; the blow lands on the called part (location within it by weight). Otherwise the
  location is drawn from the target's anatomy exactly as the anatomy model draws an unaimed blow.
- **Injury**: depth x damage type (blunt, cutting, piercing, fire) picks the injury from the tables; organ
  wounds split by whether the part is Vital/Core or a limb. An injury may carry a roll penalty while untreated
  (bleeding), break its part (it stops working until set), lose the part for good, put the creature down, start
  a death clock (rounds), or kill outright.
- Untreated wound penalties apply to the creature's own rolls; when they reach the collapse limit the creature
  goes down (blood loss, a sandbox rule).
- Out of combat (``advance``), a tender (team healer or the creature itself) treats one wound per attempt:
  d20 + skill bonus + its own wound penalty (+ the self-care modifier) against the injury's treatment DC.

A strike mode wielded by a broken or lost part cannot be used: ``disabled_parts`` names those parts, so the
shared intent AI strikes with the limbs that still work (the other hand, a kick), and ``attack`` refuses such a
mode (records nothing) should one reach it.

The readout: label ``unhurt`` / ``wounded`` / ``down`` / ``dying`` / ``dead``; health = the penalty the creature
can still take before it collapses (0 when down or dead); band = the deepest tier it has taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import esper

from components.anatomy import BodyStructure
from components.creature import CreatureDef
from components.events import AttackDeclared, D20AttackRolled, DamageDealt, Event, Missed, ModelStateChanged
from components.gear import ArmorPiece, StrikeMode
from components.readout import Readout
from components.state import Anatomy, Condition
from systems.context import TickContext
from systems.creatures import Parts, can_act
from systems.damage import kill
from systems.dice import Rng
from systems.hit_location import MISS, HitTable, build_hit_table, locate, location_in_zone
from systems.models.base import DamageModel, register
from systems.models.d20 import d20_attack
from systems.phases import Phase

NAME = "depth"
FAMILIES: tuple[str, ...] = ("blunt", "cutting", "piercing", "fire")
"""The damage-type families, in the order per-family tuples use."""
TIERS: tuple[str, ...] = ("none", "skin", "flesh", "bone", "organ")
"""Depth tiers by index (0: no wound)."""
CELLS: tuple[str, ...] = ("skin", "flesh", "bone", "organ_core", "organ_limb")
"""The rows of the injury table: organ wounds split by whether the part is Vital or Core."""
ASPECT_FAMILY: dict[str, str] = {"blunt": "blunt", "edged": "cutting", "cutting": "cutting", "piercing": "piercing",
                                 "fire": "fire"}
"""Family of an anatomy aspect name (``edged`` is the cutting family)."""


# ----------------------------------------------------------------------------------------------- rule tables


@dataclass(frozen=True, slots=True)
class Injury:
    """One cell of the injury table: what a wound of a depth and damage type does.

    Attributes:
        name: What it is ("a laceration").
        penalty: Added to the creature's rolls while the wound is untreated (<= 0): bleeding and pain.
        breaks: The part stops working until the wound is treated (set).
        lost: The part is lost for good (treatment saves the creature, not the part).
        down: The creature is down (out of the fight) until the wound is treated.
        dies_after: Rounds (ticks) until the creature dies unless the wound is treated (0: never).
        kills: The creature dies at once.
        treat_dc: The treatment check's DC (0: the wound needs no treatment).
    """

    name: str
    penalty: int = 0
    breaks: bool = False
    lost: bool = False
    down: bool = False
    dies_after: int = 0
    kills: bool = False
    treat_dc: int = 0

    @property
    def lasting(self) -> bool:
        """The wound has an effect that lasts until treated (or for good)."""
        return bool(self.penalty or self.breaks or self.lost or self.down or self.dies_after or self.kills)


@dataclass(frozen=True, slots=True)
class WeaponDepth:
    """A strike mode under this model: its damage-type family and depth bonus."""

    family: str
    depth_bonus: int


@dataclass(frozen=True, slots=True)
class CreatureDepth:
    """A creature kind's entry: fixed Defense, modifier overrides and its anatomy note.

    Attributes:
        defense: A fixed Defense replacing 10 + Dexterity modifier (armour worn still adds), or ``None``.
        strength_modifier: Replaces the modifier computed from Strength, or ``None``.
        dexterity_modifier: Replaces the modifier computed from Dexterity, or ``None``.
        reduction: Depth reduction per family (``FAMILIES`` order): what its hide, scales or bulk turn.
        note: The anatomy note, in words.
    """

    defense: int | None = None
    strength_modifier: int | None = None
    dexterity_modifier: int | None = None
    reduction: tuple[int, int, int, int] = (0, 0, 0, 0)
    note: str = ""


@dataclass(frozen=True, slots=True)
class CareRules:
    """Treatment out of combat.

    Attributes:
        skill: The skill a tender's bonus comes from (its ML on the d100 scale).
        skill_divisor: Bonus = ML // divisor.
        self_care_modifier: Added when a creature tends itself.
        first_aid_delay: Seconds after ``advance`` starts before a tender gets to the wounded (when the care policy
            names none).
        attempt_seconds: How long one treatment attempt takes (the next one follows after it).
    """

    skill: str = "physician"
    skill_divisor: int = 10
    self_care_modifier: int = -4
    first_aid_delay: float = 60.0
    attempt_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class DepthTables:
    """Every number of the model (from ``configs/models/depth.toml``).

    Attributes:
        melee_ability: The attribute whose modifier melee attacks add (``strength``).
        ranged_ability: The attribute whose modifier missile and thrown attacks add (``dexterity``).
        defense_ability: The attribute whose modifier Defense adds (``dexterity``).
        ability_base: Score with modifier 0.
        ability_step: Points of score per point of modifier: ``(score - base) // step``.
        defense_base: Defense before the Dexterity modifier and armour (10).
        called_shot_modifier: To hit on a called shot (-5).
        natural_20_hits: A natural 20 always hits (with at least margin 1).
        natural_1_misses: A natural 1 always misses.
        mishap_penalty: A natural 1's penalty on the attacker's next roll (-1).
        tiers: Lowest depth margin of skin, flesh, bone and organ (1, 4, 8, 12).
        collapse_at: The creature goes down when its untreated wound penalty reaches ``-collapse_at``.
        injuries: ``(cell, family) -> (ordinary, worst)``; cells from ``CELLS``.
        weapons: Per strike mode id.
        armor: Armour rating per armour piece id.
        creatures: Per creature id.
        care: Treatment rules.
    """

    melee_ability: str
    ranged_ability: str
    defense_ability: str
    ability_base: int
    ability_step: int
    defense_base: int
    called_shot_modifier: int
    natural_20_hits: bool
    natural_1_misses: bool
    mishap_penalty: int
    tiers: tuple[int, int, int, int]
    collapse_at: int
    injuries: Mapping[tuple[str, str], tuple[Injury, Injury]]
    weapons: Mapping[str, WeaponDepth]
    armor: Mapping[str, int]
    creatures: Mapping[str, CreatureDepth]
    care: CareRules = field(default_factory=CareRules)


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
                          tiers: tuple[int, int, int, int] = (1, 4, 8, 12), natural_20_hits: bool = True,
                          natural_1_misses: bool = True) -> dict[str, float]:
    """The exact chance of each outcome of one attack, over the twenty faces of the d20.

    Args:
        bonus: Everything added to the die (ability modifier, called shot, wound penalty, mishap).
        defense: The target's Defense.
        depth_bonus: The weapon's depth bonus.
        reduction: The target's depth reduction for the weapon's damage type.
        tiers: Lowest depth margin of skin, flesh, bone and organ.
        natural_20_hits: A natural 20 always hits.
        natural_1_misses: A natural 1 always misses.

    Returns:
        ``miss`` and each of ``TIERS`` (``none``: it hit but went no deeper) -> probability.
    """
    out = dict.fromkeys(("miss", *TIERS), 0.0)
    for natural in range(1, 21):
        margin = natural + bonus - defense
        hit = margin >= 1 or (natural == 20 and natural_20_hits)
        if natural == 1 and natural_1_misses:
            hit = False
        if not hit:
            out["miss"] += 1 / 20
            continue
        out[TIERS[wound_depth(max(margin, 1), depth_bonus, reduction, natural == 20, tiers).tier]] += 1 / 20
    return out


def injury_for(tables: DepthTables, tier: int, family: str, critical_part: bool, worst: bool) -> Injury | None:
    """The injury a wound of ``tier`` and ``family`` opens on a (Vital/Core or limb) part; ``None`` for tier 0."""
    if tier <= 0:
        return None
    ordinary, worst_injury = tables.injuries[(cell_of(tier, critical_part), family)]
    return worst_injury if worst else ordinary


# --------------------------------------------------------------------------------------------- model state

# A wound as stored in the state component: a plain tuple (the state is saved generically).
# (location, part, tier, family, name, penalty, breaks, lost, down, dies_at, kills, treat_dc, time, worst, treated)


@dataclass(frozen=True, slots=True)
class Wound:
    """One wound on a creature (stored in ``DepthState.wounds`` as a plain tuple, see ``as_tuple``).

    Attributes:
        location: Location index on the creature's body.
        part: Part index.
        tier: Depth tier (1..4).
        family: Damage-type family.
        name: The injury's name.
        penalty: Roll penalty while untreated.
        breaks: The part stops working while untreated.
        lost: The part is lost for good.
        down: The creature is down while untreated.
        dies_at: Game time (seconds) the creature dies unless the wound is treated (-1: never).
        kills: The wound killed outright.
        treat_dc: DC of the treatment check (0: needs none).
        time: When it was dealt.
        worst: It was a natural 20's worst result.
        treated: It has been treated.
    """

    location: int
    part: int
    tier: int
    family: str
    name: str
    penalty: int
    breaks: bool
    lost: bool
    down: bool
    dies_at: float
    kills: bool
    treat_dc: int
    time: float
    worst: bool
    treated: bool = False

    def as_tuple(self) -> tuple[Any, ...]:
        """The wound as stored."""
        return (self.location, self.part, self.tier, self.family, self.name, self.penalty, self.breaks, self.lost,
                self.down, self.dies_at, self.kills, self.treat_dc, self.time, self.worst, self.treated)

    @classmethod
    def of(cls, row: tuple[Any, ...] | list[Any]) -> Wound:
        """A stored wound."""
        return cls(*row)

    @property
    def open(self) -> bool:
        """Untreated and still needing treatment."""
        return not self.treated and self.treat_dc > 0

    @property
    def lasting(self) -> bool:
        """The wound still has an effect (untreated with an effect, or a lost part)."""
        if self.lost:
            return True
        return not self.treated and bool(self.penalty or self.breaks or self.down or self.dies_at >= 0)


@dataclass(slots=True)
class DepthState:
    """A creature's state under the wound-depth model (saved with the world).

    Attributes:
        defense: Its Defense (fixed at spawn: base or its entry's, Dexterity, armour).
        strength_mod: Modifier its melee attacks add.
        dexterity_mod: Modifier its missile and thrown attacks add.
        wounds: Every wound taken, as ``Wound.as_tuple`` rows, in order.
        penalty: Sum of the untreated wounds' penalties (on its own rolls).
        broken: Parts that do not work (broken and not yet set, or lost).
        lost: Parts lost for good.
        down: Out of the fight: a down wound untreated, or collapsed (penalty at the collapse limit).
        dies_at: Game time it dies unless treated (-1: not dying).
        mishap: Penalty on its next attack roll (a natural 1's mishap), or 0.
        worst_tier: The deepest tier it has taken (0..4).
        care_at: Game time a tender next sees to it out of combat (-1: none due).
    """

    defense: int = 10
    strength_mod: int = 0
    dexterity_mod: int = 0
    wounds: list[tuple[Any, ...]] = field(default_factory=list)
    penalty: int = 0
    broken: set[int] = field(default_factory=set)
    lost: set[int] = field(default_factory=set)
    down: bool = False
    dies_at: float = -1.0
    mishap: int = 0
    worst_tier: int = 0
    care_at: float = -1.0


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
    """One attack under the wound-depth model, compactly (``events`` expands it).

    Attributes:
        tick: Tick of the attack.
        time: Game time.
        attacker: Attacking entity.
        target: Target entity.
        mode: Strike mode id.
        aim: The called part, or ``unaimed``.
        natural: The d20.
        total: Die + bonus + modifiers.
        defense: The target's Defense.
        margin: Total - Defense.
        hit: Whether it hit.
        mishap: A natural 1's mishap (the attacker's next roll is penalised).
        location: Location struck ("" when it missed, or found nothing to strike).
        part: Part struck.
        family: Damage-type family.
        raw: Margin + depth bonus.
        depth: Depth margin after the target's reduction.
        tier: Depth tier reached (0..4).
        worst: A natural 20's worst result.
        injury: The injury's name ("" for none).
        direct: Damage applied directly (``inflict``): no attack, only the damage event.
    """

    tick: int
    time: float
    attacker: int
    target: int
    mode: str
    aim: str
    natural: int
    total: int
    defense: int
    margin: int
    hit: bool
    mishap: bool
    location: str = ""
    part: str = ""
    family: str = ""
    raw: int = 0
    depth: int = 0
    tier: int = 0
    worst: bool = False
    injury: str = ""
    direct: bool = False

    def events(self) -> list[Event]:
        """The typed events of this attack: declared, rolled, then missed or the damage, and a mishap."""
        t, time, a, d = self.tick, self.time, self.attacker, self.target
        if self.direct:
            return [DamageDealt(t, time, a, d, NAME, self.raw, self.depth, self.detail())]
        out: list[Event] = [AttackDeclared(t, time, a, d, self.mode, self.aim),
                            D20AttackRolled(t, time, a, d, NAME, self.mode, self.natural, self.total, self.defense,
                                            self.margin, self.hit)]
        if not self.hit:
            out.append(Missed(t, time, a, d, "natural 1" if self.natural == 1 else "short of Defense"))
        elif not self.location:
            out.append(Missed(t, time, a, d, "nothing to strike"))
        else:
            out.append(DamageDealt(t, time, a, d, NAME, self.raw, self.depth, self.detail()))
        if self.mishap:
            out.append(ModelStateChanged(t, time, a, NAME, "mishap", "none", "next roll penalised"))
        return out

    def detail(self) -> str:
        """The wound in words: ``flesh cutting wound to the Right Forearm (Right Arm): a laceration``."""
        crit = "natural 20, worst: " if self.worst else ""
        if self.tier == 0:
            return f"{crit}no wound to the {self.location} ({self.part}): the {self.family} blow goes no deeper"
        return (f"{crit}{TIERS[self.tier]} {self.family} wound to the {self.location} ({self.part}): "
                f"{self.injury}")


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


def _hit_table(body: BodyStructure, ctx: TickContext) -> HitTable:
    key = ("depth_hits", body.id)
    entry = ctx.cache.get(key)
    if entry is None or entry[0] is not body:
        entry = ctx.cache[key] = (body, build_hit_table(body))
    table: HitTable = entry[1]
    return table


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


@register
class DepthModel(DamageModel):
    """Document 002: one d20 roll decides whether a blow lands and how deep it goes; depth x damage type picks
    the injury."""

    name = NAME
    tables: DepthTables

    def __init__(self, tables: DepthTables) -> None:
        super().__init__(tables)
        self.tables = tables

    # ---------------------------------------------------------------- state

    def state_types(self) -> tuple[type, ...]:
        """``DepthState``."""
        return (DepthState,)

    def spawn_state(self, kind: CreatureDef, attributes: Mapping[str, int], armor: Iterable[ArmorPiece]
                    ) -> tuple[object, ...]:
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

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The death clock of the dying."""
        return [(Phase.EFFECTS, DyingProcessor(ctx))]

    # ---------------------------------------------------------------- attack

    def disabled_parts(self, entity: int) -> frozenset[int]:
        """Broken (not yet set) and lost parts: the AI strikes with the limbs that still work."""
        broken = esper.component_for_entity(entity, DepthState).broken
        return frozenset(broken) if broken else frozenset()

    def attack(self, entity: int, me: Parts, foe_entity: int, foe: Parts, mode: StrikeMode, ctx: TickContext,
               parts: tuple[int, ...]) -> object:
        """The d20 attack roll and, on a hit, the wound applied at once. A mode wielded by a broken or lost part
        is refused: nothing is rolled or recorded (returns ``None``)."""
        t = self.tables
        state = esper.component_for_entity(entity, DepthState)
        if state.broken and any(p in state.broken for p in parts):
            return None
        foe_state = esper.component_for_entity(foe_entity, DepthState)
        comb = me[6]
        f_anat = foe[1]
        body = f_anat.body
        weapon = t.weapons[mode.id]
        ability = state.strength_mod if mode.kind == "melee" else state.dexterity_mod
        called_part: int | None = None
        aim = "unaimed"
        modifier = state.penalty + state.mishap
        if comb.aim_zone > 0:
            modifier += t.called_shot_modifier
            aim = comb.aim
            try:
                called_part = body.part_index(comb.aim)
            except KeyError:
                called_part = None  # "random": the AI picked a zone, not a part
        roll = d20_attack(ability, foe_state.defense, ctx.streams["attack"], modifier)
        hit = roll.hit
        if roll.natural == 20 and t.natural_20_hits:
            hit = True
        if roll.natural == 1 and t.natural_1_misses:
            hit = False
        state.mishap = t.mishap_penalty if roll.natural == 1 else 0
        clock = ctx.clock
        mishap = roll.natural == 1 and t.mishap_penalty != 0
        record = DepthAttackRecord(clock.tick, clock.time, entity, foe_entity, mode.id, aim, roll.natural,
                                   roll.total, roll.defense, roll.margin, hit, mishap)
        ctx.log.append(record)  # its events are read later: the wound fills it in below
        if not hit:
            return record
        rng = ctx.streams["injury"]
        location = strike_location(body, _hit_table(body, ctx), called_part, comb.aim_zone, rng)
        if location == MISS:
            return record
        # A natural 20 that hits on a margin below 1 counts margin 1.
        self._wound(foe_entity, foe, foe_state, location, max(roll.margin, 1), weapon, roll.natural == 20, record,
                    ctx)
        return record

    def _wound(self, entity: int, me: Parts, state: DepthState, location: int, margin: int, weapon: WeaponDepth,
               natural_20: bool, record: DepthAttackRecord, ctx: TickContext) -> None:
        """Apply a landed blow (or a direct one) at ``location``: fill in ``record`` and change the state."""
        t = self.tables
        anat, cond = me[1], me[5]
        body = anat.body
        loc = body.locations[location]
        part = body.parts[loc.part]
        entry = t.creatures.get(anat.kind.id, CreatureDepth())
        reduction = entry.reduction[FAMILIES.index(weapon.family)]
        depth = wound_depth(margin, weapon.depth_bonus, reduction, natural_20, t.tiers)
        injury = injury_for(t, depth.tier, weapon.family, part.critical, depth.worst)
        record.location, record.part, record.family = loc.name, part.name, weapon.family
        record.raw, record.depth, record.tier, record.worst = depth.raw, depth.margin, depth.tier, depth.worst
        record.injury = injury.name if injury is not None else ""
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
            refresh(entity, state, cond, before, before_broken, body, t.collapse_at, ctx)
        if injury.kills and not cond.dead:
            kill(entity, cond, f"{injury.name} ({loc.name})", ctx)

    # ---------------------------------------------------------------- direct damage

    def inflict(self, entity: int, me: Parts, ctx: TickContext, **kwargs: Any) -> None:
        """A blow applied directly, as a landed one is.

        Keywords:
            damage: The blow's depth margin (margin + depth bonus; armour is already in the margin), before the
                target's own depth reduction. Or ``level``: a tier name (skin, flesh, bone, organ) or 1..4, which
                stands for that tier's lowest depth margin.
            location: Location name (default: drawn from the anatomy like an unaimed blow).
            aspect: Damage type: blunt, cutting (or edged), piercing, fire (default blunt).
            critical: A natural 20 (one tier deeper, worst result).

        Raises:
            ValueError: A missing or bad depth, an unknown location or damage type, or nothing to strike.
        """
        t = self.tables
        unknown = set(kwargs) - {"damage", "level", "location", "aspect", "critical"}
        if unknown:
            raise ValueError(f"the depth model does not take {', '.join(sorted(unknown))}; it takes damage= (a depth "
                             "margin) or level= (skin/flesh/bone/organ), location=, aspect=, critical=")
        damage, level = kwargs.get("damage"), kwargs.get("level")
        if level is not None:
            if isinstance(level, str) and level in TIERS[1:]:
                tier = TIERS.index(level)
            elif isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= 4:
                tier = level
            else:
                raise ValueError(f"level must be skin, flesh, bone, organ or 1..4, not {level!r}")
            margin = t.tiers[tier - 1]
        elif isinstance(damage, int) and not isinstance(damage, bool) and damage >= 0:
            margin = damage
        else:
            raise ValueError(f"the depth model inflicts damage=N (a depth margin >= 0), not {damage!r}")
        family = ASPECT_FAMILY.get(str(kwargs.get("aspect", "blunt")))
        if family is None:
            raise ValueError(f"unknown damage type {kwargs.get('aspect')!r}; expected one of {', '.join(FAMILIES)}")
        body = me[1].body
        location_name = kwargs.get("location")
        if location_name is not None:
            try:
                location = body.location_index(str(location_name))
            except KeyError as exc:
                raise ValueError(str(exc.args[0])) from None
        else:
            location = locate(_hit_table(body, ctx), None, 1, ctx.streams["injury"])[1]
            if location == MISS:
                raise ValueError(f"{body.name} has nothing to strike")
        state = esper.component_for_entity(entity, DepthState)
        clock = ctx.clock
        record = DepthAttackRecord(clock.tick, clock.time, -1, entity, "inflict", "unaimed", 0, 0, 0, 0, True, False,
                                   direct=True)
        ctx.log.append(record)
        # The depth margin stands for margin + depth bonus: a weapon of bonus 0 and margin N.
        self._wound(entity, me, state, location, margin, WeaponDepth(family, 0), bool(kwargs.get("critical", False)),
                    record, ctx)

    # ---------------------------------------------------------------- reading

    def readout(self, entity: int, me: Parts, ctx: TickContext) -> Readout:
        """Label, health (penalty headroom before collapse), the deepest tier taken (band), and the conditions
        (bleeding, broken, lost, dying or bleeding out, collapsed, a pending mishap)."""
        state = esper.component_for_entity(entity, DepthState)
        body, shock, cond = me[1].body, me[4], me[5]
        label = label_of(state, cond.dead)
        conditions: list[str] = []
        if not cond.dead:
            for w in wounds_of(state):
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
                conditions.append("collapsed" if not any(w.down and not w.treated for w in wounds_of(state))
                                  else "down")
            if state.mishap:
                conditions.append(f"mishap ({state.mishap} on the next roll)")
        shock_word = {"dead": "dead", "dying": "dying", "down": "incapacitated"}.get(label, "none")
        health = health_of(state, cond.dead, self.tables.collapse_at)
        return Readout(not cond.dead, can_act(cond, shock), label, health, TIERS[state.worst_tier], shock_word,
                       tuple(conditions))

    # ---------------------------------------------------------------- out of combat

    def advance(self, ctx: TickContext, creatures: dict[int, Parts], seconds: float, care: Any) -> None:
        """Move game time on: tenders treat wounds (one attempt per wound at a time), the dying die on time.

        Due items run in time order; at equal times a treatment comes before a death, then by entity.
        """
        advance_care(self.tables, ctx, creatures, seconds, care)


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
        """Kill the creatures whose time has come."""
        ctx = self.ctx
        now = ctx.clock.time + 1e-9
        for entity, state in esper.get_component(DepthState):
            if 0 <= state.dies_at <= now:
                anat = esper.component_for_entity(entity, Anatomy)
                cond = esper.component_for_entity(entity, Condition)
                if not cond.dead:
                    kill(entity, cond, _death_cause(state, anat.body), ctx)
                    state.care_at = -1.0


# ------------------------------------------------------------------------------------------------------- care


def _tender(tables: DepthTables, creatures: Mapping[int, Parts], states: Mapping[int, DepthState], patient: int,
            care: Any) -> tuple[int, int] | None:
    """Who tends ``patient`` and at what bonus: the team-mate able to act with the best bonus (the care policy's
    healers only, when it names them), else the patient itself when it can act and self-care is allowed."""
    c = tables.care
    healers = getattr(care, "healers", None)
    team = creatures[patient][6].team
    best: tuple[int, int] | None = None
    for entity, parts in creatures.items():
        ident, anat, _, _, shock, cond, comb, _, _ = parts
        if entity == patient or comb.team != team or not can_act(cond, shock):
            continue
        if healers is not None and ident.name not in healers:
            continue
        ml = anat.mls.get(c.skill)
        if ml is None:
            continue
        bonus = ml // c.skill_divisor + states[entity].penalty
        if best is None or bonus > best[1]:
            best = (entity, bonus)
    if best is not None:
        return best
    _, anat, _, _, shock, cond, _, _, _ = creatures[patient]
    if getattr(care, "self_care", True) and can_act(cond, shock):
        ml = anat.mls.get(c.skill, 0)
        return patient, ml // c.skill_divisor + states[patient].penalty + c.self_care_modifier
    return None


def advance_care(tables: DepthTables, ctx: TickContext, creatures: Mapping[int, Parts], seconds: float,
                 care: Any) -> None:
    """Out of combat for ``seconds``: treatment attempts and deaths in time order (see ``DepthModel.advance``)."""
    clock = ctx.clock
    end = clock.seconds + seconds
    delay = getattr(care, "first_aid_delay", None)
    delay = tables.care.first_aid_delay if delay is None else float(delay)
    states = {e: esper.component_for_entity(e, DepthState) for e in sorted(creatures)}
    for e, st in states.items():
        if not creatures[e][5].dead and st.care_at < 0 and any(w.open for w in wounds_of(st)):
            st.care_at = clock.seconds + delay
    rng = ctx.streams["healing"]
    while True:
        due: tuple[float, int, int] | None = None
        for e, st in states.items():
            if creatures[e][5].dead:
                continue
            for when, kind in ((st.care_at, 0), (st.dies_at, 1)):
                if 0 <= when <= end and (due is None or (when, kind, e) < due):
                    due = (when, kind, e)
        if due is None:
            break
        when, kind, e = due
        clock.seconds = max(clock.seconds, when)
        parts = creatures[e]
        st = states[e]
        if kind == 1:
            kill(e, parts[5], _death_cause(st, parts[1].body), ctx)
            st.care_at = -1.0
            continue
        tender = _tender(tables, creatures, states, e, care)
        if tender is None:
            st.care_at = -1.0  # nobody at hand; re-armed when a team-mate gets back on its feet
            continue
        wounds = wounds_of(st)
        # The most urgent wound this tender can treat at all (a DC beyond d20 + bonus is not attempted).
        order = [i for i in treatment_order(wounds) if 20 + tender[1] >= wounds[i].treat_dc]
        if not order:
            st.care_at = -1.0  # nothing this tender can do; re-armed when a treatment on its team succeeds
            continue
        index = order[0]
        wound = wounds[index]
        natural = roll_d20(rng)
        success = treatment_check(natural, tender[1], wound.treat_dc)
        loc = parts[1].body.locations[wound.location].name
        verdict = "treated" if success else "untreated"
        ctx.emit(ModelStateChanged(clock.tick, clock.time, e, NAME, f"treatment: {wound.name} ({loc})",
                                   "untreated", f"{verdict} (d20 {natural} {tender[1]:+d} vs DC {wound.treat_dc})"))
        if success:
            cond = parts[5]
            before, before_broken = label_of(st, cond.dead), set(st.broken)
            st.wounds[index] = (*st.wounds[index][:-1], True)
            refresh(e, st, cond, before, before_broken, parts[1].body, tables.collapse_at, ctx)
            team = parts[6].team
            for other, ost in states.items():  # a tender may be back on its feet or steadier: re-arm the waiting
                if (other != e and creatures[other][6].team == team and ost.care_at < 0
                        and not creatures[other][5].dead and any(w.open for w in wounds_of(ost))):
                    ost.care_at = clock.seconds
        st.care_at = clock.seconds + tables.care.attempt_seconds if any(w.open for w in wounds_of(st)) else -1.0
    clock.seconds = end

