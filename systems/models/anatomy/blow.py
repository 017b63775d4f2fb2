"""One blow, end to end: location, protection, level, glancing, compounding, bleeding, amputation, shock, mishaps.

``compile_target`` turns a body, its armour, its test Mastery Levels and its current wounds into flat per-location
tables (built by the pure rule functions of the other modules), and ``resolve_blow`` walks those tables with a
handful of random draws. The split keeps the rules in one place (the pure functions) while the hot path, which the
lab and the benchmark run hundreds of thousands of times a second, does no searching, no dict building and no
string work. Every test in a blow is made against the target as it was before the blow.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sandbox.components.body import ASPECTS, BodyStructure
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.rules import LEVEL_CODES, AnatomyRules, ShockState, TestResult
from sandbox.systems.dice import Rng, read_test, roll_dice
from sandbox.systems.hit_location import MISS, HitTable, build_hit_table, locate
from sandbox.systems.models.anatomy.injury import (
    amputation_bleeds,
    amputation_modifier,
    amputation_outcome,
    compounds,
    is_bleeder,
    is_glancing,
    location_protection,
    scaled_thresholds,
)
from sandbox.systems.models.anatomy.mishaps import disposition, fumble_outcome, stumble_outcome
from sandbox.systems.models.anatomy.shock import opening_index, state_for_index
from sandbox.systems.strike import strength_impact_modifier

__all__ = ["BlowResult", "TargetProfile", "blow_reading", "compile_target", "land_blow", "resolve_blow", "roll_impact",
           "with_tests"]


@dataclass(frozen=True, slots=True)
class TargetProfile:
    """A target compiled for fast blow resolution. Rebuild it when its armour, skills or wounds change.

    Test Mastery Levels already carry the target's impairment penalties; ``None`` means the test critically
    fails without a roll (an unusable part on a role the skill names, or no ability to test at all). The injury
    level of an effective impact is looked up in the scaled ``thresholds`` (rising strictly) by bisection, so the
    cost of a target does not grow with its thresholds' size.
    """

    body: BodyStructure
    rules: AnatomyRules
    hit: HitTable
    protection: tuple[tuple[int, int, int, int], ...]
    rigid: tuple[bool, ...]
    shock_value: tuple[int, ...]
    bleeds: tuple[tuple[int, ...], ...]
    amputation: tuple[int | None, ...]
    amputation_bleed: tuple[tuple[bool, ...], ...]
    fumble: tuple[tuple[str, ...], ...]
    stumble: tuple[tuple[str, ...], ...]
    vital_location: tuple[bool, ...]
    thresholds: tuple[float, ...]
    state_by_index: tuple[ShockState, ...]
    existing_levels: Mapping[int, Sequence[int]]
    shock_ml: int | None
    strength_ml: int | None
    fumble_ml: int | None
    stumble_ml: int | None


def compile_target(body: BodyStructure, rules: AnatomyRules, armor: Iterable[ArmorPiece] = (), *,
                   shock_ml: int | None, strength_ml: int | None, fumble_ml: int | None,
                   stumble_ml: int | None, existing_levels: Mapping[int, Sequence[int]] | None = None,
                   ) -> TargetProfile:
    """Compile a target for ``resolve_blow``.

    Args:
        body: The target's body.
        rules: The anatomy rule tables.
        armor: Every worn piece (layers add).
        shock_ml: Shock skill ML (fatigue included; impairment never applies to Shock).
        strength_ml: Strength test ML for amputation checks, impairment included.
        fumble_ml: Keep-grip ML (better of Dexterity and Legerdemain), impairment included.
        stumble_ml: Keep-footing ML (better of Agility and Acrobatics), impairment included.
        existing_levels: Levels of the open wounds already at each location (for compounding). The mapping is
            kept by reference, not copied, so a world that updates it as wounds land keeps the profile current.
    """
    protection, rigid = location_protection(body, armor)
    thresholds = scaled_thresholds(body, rules)
    levels = range(len(thresholds) + 1)
    bleeds = []
    amp = []
    amp_bleed = []
    fumble = []
    stumble = []
    for loc in body.locations:
        bleeds.append(tuple(
            sum(1 << a for a in range(len(ASPECTS)) if is_bleeder(loc.bleeding, lv, a, rules)) for lv in levels))
        amp.append(None if loc.amputability == "none" else amputation_modifier(loc.amputability, rules))
        amp_bleed.append(tuple(amputation_bleeds(amputation_outcome(r, rules), loc.bleeding) for r in TestResult))
        fumble.append(tuple(disposition(loc.fumble, lv, False, rules) for lv in levels))
        stumble.append(tuple(disposition(loc.stumble, lv, False, rules) for lv in levels))
    return TargetProfile(
        body=body,
        rules=rules,
        hit=build_hit_table(body),
        protection=protection,
        rigid=rigid,
        shock_value=tuple(loc.shock_value for loc in body.locations),
        bleeds=tuple(bleeds),
        amputation=tuple(amp),
        amputation_bleed=tuple(amp_bleed),
        fumble=tuple(fumble),
        stumble=tuple(stumble),
        vital_location=tuple(body.parts[loc.part].vital for loc in body.locations),
        thresholds=thresholds,
        state_by_index=tuple(state_for_index(i, rules) for i in range(rules.shock_state_from[-1] + 1)),
        existing_levels=existing_levels if existing_levels is not None else {},
        shock_ml=shock_ml,
        strength_ml=strength_ml,
        fumble_ml=fumble_ml,
        stumble_ml=stumble_ml,
    )


def with_tests(base: TargetProfile, *, shock_ml: int | None, strength_ml: int | None, fumble_ml: int | None,
               stumble_ml: int | None, existing_levels: Mapping[int, Sequence[int]]) -> TargetProfile:
    """A copy of a compiled target with other test MLs and wounds.

    The per-location tables depend only on the body and its armour, so a world compiles them once per (body, armour) and
    reuses them for every creature.
    """
    # Positional, not dataclasses.replace: a world recompiles a target after every wound (replace() walks the
    # fields and builds keyword arguments each time).
    b = base
    return TargetProfile(b.body, b.rules, b.hit, b.protection, b.rigid, b.shock_value, b.bleeds, b.amputation,
                         b.amputation_bleed, b.fumble, b.stumble, b.vital_location, b.thresholds,
                         b.state_by_index, existing_levels, shock_ml, strength_ml, fumble_ml, stumble_ml)


class BlowResult:
    """Everything one blow did, in the order the rules decide it.

    Attributes:
        missed: The blow found nothing to strike.
        zone_number: The hit zone number (0 for an incorporeal target or a forced location's zone start).
        location: Location index (``MISS`` when missed).
        impact: The blow's impact.
        protection: Total protection at the location for the blow's aspect.
        effective_impact: Impact less protection, floored at 0 (kept for a glancing blow).
        level: Injury level 0..5 (0 for no wound or a glancing blow).
        glancing: The blow glanced off rigid armour.
        compound: The new wound compounds: the worst wound already at the location worsens by one level.
        bleeder: The wound bleeds (by the grid or by amputation).
        amputation_test: The Strength test of an amputation check, if one was made.
        severed: The location was severed.
        shock_index: The opening Shock Index.
        shock_test: The Shock test result, if one was made.
        final_index: The index after the test.
        shock_state: The shock state the blow offers.
        fumble: ``none``, ``roll`` or ``auto``.
        fumble_test: The keep-grip test, if one was made.
        fumble_outcome: ``none``, ``kept``, ``dropped`` or ``flung``.
        stumble: ``none``, ``roll`` or ``auto``.
        stumble_test: The keep-footing test, if one was made.
        stumble_outcome: ``none``, ``kept`` or ``prone``.
        dead: The blow killed (shock, or a severed Vital part).
    """

    # A plain slots class, not a frozen dataclass: the blow pipeline builds one per blow, hundreds of thousands a
    # second, and a frozen dataclass's __init__ pays for object.__setattr__ on every field. The slots are in
    # constructor order (equality and the repr read them in that order).
    __slots__ = (  # noqa: RUF023
        "missed", "zone_number", "location", "impact", "aspect", "protection", "effective_impact", "level",
        "glancing", "compound", "bleeder", "amputation_test", "severed", "shock_index", "shock_test", "final_index",
        "shock_state", "fumble", "fumble_test", "fumble_outcome", "stumble", "stumble_test", "stumble_outcome", "dead")

    def __init__(self, missed: bool, zone_number: int, location: int, impact: int, aspect: int, protection: int,
                 effective_impact: int, level: int, glancing: bool, compound: bool, bleeder: bool,
                 amputation_test: TestResult | None, severed: bool, shock_index: int, shock_test: TestResult | None,
                 final_index: int, shock_state: ShockState, fumble: str, fumble_test: TestResult | None,
                 fumble_outcome: str, stumble: str, stumble_test: TestResult | None, stumble_outcome: str,
                 dead: bool) -> None:
        self.missed = missed
        self.zone_number = zone_number
        self.location = location
        self.impact = impact
        self.aspect = aspect
        self.protection = protection
        self.effective_impact = effective_impact
        self.level = level
        self.glancing = glancing
        self.compound = compound
        self.bleeder = bleeder
        self.amputation_test = amputation_test
        self.severed = severed
        self.shock_index = shock_index
        self.shock_test = shock_test
        self.final_index = final_index
        self.shock_state = shock_state
        self.fumble = fumble
        self.fumble_test = fumble_test
        self.fumble_outcome = fumble_outcome
        self.stumble = stumble
        self.stumble_test = stumble_test
        self.stumble_outcome = stumble_outcome
        self.dead = dead

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BlowResult) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "BlowResult(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"

    @property
    def level_code(self) -> str:
        """NA, M1, S2, S3, G4 or G5."""
        return LEVEL_CODES[self.level]

    @property
    def amputation(self) -> str:
        """``none`` (no check), ``severed`` or ``kept``."""
        if self.amputation_test is None:
            return "none"
        return "severed" if self.severed else "kept"


def _missed(zone_number: int, impact: int, aspect: int) -> BlowResult:
    return BlowResult(True, zone_number, MISS, impact, aspect, 0, 0, 0, False, False, False, None, False, 0,
                      None, 0, ShockState.NONE, "none", None, "none", "none", None, "none", False)


def roll_impact(mode: StrikeMode, strength: int | None, rules: AnatomyRules, rng: Rng, *,
                off_hand: bool = False) -> int:
    """Roll a strike mode's impact, plus the attacker's Strength Impact Modifier where the mode takes it."""
    impact = roll_dice(mode.impact, rng)
    if mode.strength_modifier and strength is not None:
        impact += strength_impact_modifier(strength, rules.strength_impact, off_hand=off_hand,
                                           thrown=mode.kind == "thrown")
    return impact


def resolve_blow(target: TargetProfile, impact: int, aspect: int, rng: Rng, *, aim: int | None = None,
                 spread: int = 1, location: int | None = None) -> BlowResult:
    """Resolve one landed blow against a compiled target.

    Args:
        target: The compiled target.
        impact: The blow's final impact (dice and Strength modifier already applied).
        aspect: Damage aspect index.
        rng: The generator every draw comes from.
        aim: Target zone number (see ``hit_location.target_zone_number``), or ``None`` for an unaimed blow.
        spread: The strike mode's Spread.
        location: Force the location (scenario set-up, ``sandbox blows --location``); skips the draw.

    Returns:
        The blow's result; apply it to the world with the record's fields.
    """
    rand = rng.random
    rules = target.rules
    tests = rules.tests
    if location is None:
        zn, loc = locate(target.hit, aim, spread, rng)
        if loc == MISS:
            return _missed(zn, impact, aspect)
    else:
        loc = location
        zn = target.body.zones[target.body.parts[target.body.locations[loc].part].zone].first

    prot = target.protection[loc][aspect]
    eff = impact - prot if impact > prot and impact > 0 else 0  # injury.effective_impact, inlined (hot path)
    level = bisect_right(target.thresholds, eff)  # injury.injury_level, for rising thresholds
    glancing = level > 0 and target.rigid[loc] and is_glancing(aspect, level, True, rules)
    if glancing:
        level = 0
    existing = target.existing_levels.get(loc)
    compound = compounds(level, existing) if existing else False
    bleeder = bool(target.bleeds[loc][level] >> aspect & 1)

    amp_test: TestResult | None = None
    severed = False
    shock_roll_mod = rules.glancing_shock_roll if glancing else 0
    amp_mod = target.amputation[loc]
    if amp_mod is not None and level >= rules.amputation_level and aspect in rules.amputation_aspects:
        ml = target.strength_ml
        amp_test = TestResult.CF if ml is None else read_test(int(rand() * 100) + 1, ml + amp_mod, tests)
        outcome = rules.amputation_outcomes[amp_test]
        severed = outcome.severed
        shock_roll_mod += outcome.shock_roll_modifier
        if severed and target.amputation_bleed[loc][amp_test]:
            bleeder = True

    index = opening_index(target.shock_value[loc], level, glancing, rules)
    shock_test: TestResult | None = None
    final = index
    if index > rules.shock_death_above:
        state = ShockState.DEAD
    elif index > rules.shock_no_test_max:
        ml = target.shock_ml
        shock_test = TestResult.CF if ml is None else read_test(int(rand() * 100) + 1, ml + shock_roll_mod, tests)
        final = index + rules.shock_index_change[shock_test]
        states = target.state_by_index
        state = states[final] if 0 <= final < len(states) else state_for_index(final, rules)
    else:
        state = ShockState.NONE

    fumble = target.fumble[loc][level]
    fumble_test: TestResult | None = None
    if fumble == "roll":
        ml = target.fumble_ml
        fumble_test = TestResult.CF if ml is None else read_test(int(rand() * 100) + 1, ml, tests)
    stumble = target.stumble[loc][level]
    stumble_test: TestResult | None = None
    if stumble == "roll":
        ml = target.stumble_ml
        stumble_test = TestResult.CF if ml is None else read_test(int(rand() * 100) + 1, ml, tests)

    dead = state is ShockState.DEAD or (severed and target.vital_location[loc])
    return BlowResult(
        False, zn, loc, impact, aspect, prot, eff, level, glancing, compound, bleeder, amp_test, severed,
        index, shock_test, final, state,
        fumble, fumble_test, "none" if fumble == "none" else fumble_outcome(fumble, fumble_test),
        stumble, stumble_test, "none" if stumble == "none" else stumble_outcome(stumble, stumble_test), dead,
    )


def land_blow(target: TargetProfile, impact: int, aspect: str, rng: Rng, *, aim: str = "unaimed", spread: int = 1,
              location: str | None = None) -> BlowResult:
    """``resolve_blow`` by names: the aspect (``edged``), the part (or location) aimed at, a location to force.

    Raises:
        ValueError: An unknown aspect, or a part or location the target's body does not have (the message names
            the valid ones).
    """
    from sandbox.components.body import Aspect
    from sandbox.systems.hit_location import aimed_part, target_zone_number

    body = target.body
    part = aimed_part(body, aim)
    zone = None if part is None else target_zone_number(body, part)
    forced = None
    if location is not None:
        try:
            forced = body.location_index(location)
        except KeyError:
            raise ValueError(f"{body.name} has no location {location!r}") from None
    return resolve_blow(target, impact, int(Aspect.parse(aspect)), rng, aim=zone, spread=spread, location=forced)


def blow_reading(result: BlowResult, body: BodyStructure) -> dict[str, object]:
    """What a blow did, in names (zone, part, location, level code, aspect, tests and states as words).

    The record ``sandbox blows --format jsonl`` prints.
    """
    if result.missed:
        zone = part = location = None
    else:
        loc = body.locations[result.location]
        part_def = body.parts[loc.part]
        zone, part, location = body.zones[part_def.zone].name, part_def.name, loc.name
    return {
        "missed": result.missed,
        "zone": zone,
        "part": part,
        "location": location,
        "impact": result.impact,
        "aspect": ASPECTS[result.aspect],
        "protection": result.protection,
        "effective_impact": result.effective_impact,
        "level": result.level,
        "level_code": result.level_code,
        "glancing": result.glancing,
        "bleeder": result.bleeder,
        "amputation": result.amputation,
        "shock_index": result.shock_index,
        "shock_test": result.shock_test.name if result.shock_test is not None else "none",
        "shock_state": result.shock_state.label,
        "fumble": result.fumble,
        "stumble": result.stumble,
        "dead": result.dead,
    }
