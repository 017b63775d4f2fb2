"""The anatomy model's attack: the opposed d100 test, the landed blow, and the record that explains it.

The sandbox rule (decisions.md): the attacker tests its weapon skill (+ the mode's modifier, + the impairment of
the limbs wielding it, - fatigue), the defender its defence skill; the blow lands when the attacker succeeds and
the defender's success level is lower. A stunned creature's tests drop a success level. A defender that cannot
act makes no defence roll (the attack is Ignored).

An attack leaves one compact ``AttackRecord`` in the log; its ``events`` are the typed step events (declared,
rolled, missed or landed, protection, injury, amputation, shock, mishaps), built only when the log is read. Ten
thousand fighters attack every tick, and building a dozen event objects per attack that nobody may read would
cost more than resolving the attack.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from sandbox.components.body import ASPECTS, BodyStructure
from sandbox.components.events import (
    AmputationTested,
    AttackDeclared,
    AttackRolled,
    BlowLanded,
    Event,
    Injured,
    MishapTested,
    Missed,
    ProtectionApplied,
    ShockTested,
)
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.impairment import Impairment
from sandbox.components.log import Names, name_of
from sandbox.components.rules import (
    LEVEL_CODES,
    LEVEL_WORDS,
    TEST_WORDS,
    AnatomyRules,
    ShockState,
    TestResult,
    TestRules,
)
from sandbox.components.state import Anatomy
from sandbox.systems.dice import Rng, skill_test
from sandbox.systems.models.anatomy.blow import BlowResult
from sandbox.systems.models.anatomy.injury import scaled_thresholds

__all__ = ["AttackRecord", "attack_ml", "opposed", "stunned"]


class AttackRecord:
    """One attack under the anatomy model, compactly: who, with what, the opposed test, and the blow if it landed.

    Attributes:
        tick: Tick of the attack.
        time: Game time in seconds.
        attacker: Attacking entity (-1: a blow struck directly, with no attack roll).
        target: Defending entity.
        mode: The strike mode.
        aim: The part aimed at, or "unaimed".
        aim_zone: The zone number aimed at (0: unaimed).
        attack_ml: Attacker's effective ML (``None``: it could not succeed).
        attack: Attack test result (``None``: no attack roll, a blow struck directly).
        defence_ml: Defender's effective ML (``None``: it could not succeed or made no roll).
        defence: Defence test result, or ``None`` when the defender made no roll.
        landed: The attack won the opposed test (or was struck directly).
        blow: The resolved blow when it landed (it may still have missed the body).
        body: The defender's body (for location names).
        armor: What the defender wore (its protection layer by layer).
        rules: The anatomy rule tables the blow was resolved by.
    """

    __slots__ = ("aim", "aim_zone", "armor", "attack", "attack_ml", "attacker", "blow", "body", "defence",
                 "defence_ml", "landed", "mode", "rules", "target", "tick", "time")

    headline = True
    event_types: ClassVar[tuple[type[Event], ...]] = (
        AttackDeclared, AttackRolled, Missed, BlowLanded, ProtectionApplied, Injured, AmputationTested, ShockTested,
        MishapTested)
    """Every type ``events`` can give (``sandbox.systems.stream`` expands a record only for a subscriber to one)."""

    def changed_creatures(self) -> tuple[int, ...]:
        """The creatures this record's own events change: the target of a blow that landed.

        A fumble, a stumble or a dropped weapon is logged in an entry of its own that names whom it changed. The
        readout cache reads this.
        """
        return (self.target,) if self.landed else ()

    def __init__(self, tick: int, time: float, attacker: int, target: int, mode: StrikeMode, aim: str,
                 aim_zone: int, attack_ml: int | None, attack: TestResult | None, defence_ml: int | None,
                 defence: TestResult | None, landed: bool, blow: BlowResult | None, body: BodyStructure,
                 armor: tuple[ArmorPiece, ...], rules: AnatomyRules) -> None:
        self.tick = tick
        self.time = time
        self.attacker = attacker
        self.target = target
        self.mode = mode
        self.aim = aim
        self.aim_zone = aim_zone
        self.attack_ml = attack_ml
        self.attack = attack
        self.defence_ml = defence_ml
        self.defence = defence
        self.landed = landed
        self.blow = blow
        self.body = body
        self.armor = armor
        self.rules = rules

    @property
    def struck(self) -> bool:
        """The blow landed on the body."""
        return self.blow is not None and not self.blow.missed

    def placed_blow(self) -> tuple[str, str] | None:
        """Where the blow landed on the anatomy and the wound's code, or ``None`` when it did not reach the body.

        A code such as ``"S3"`` or ``"NA"``. What the lab's ``blows.csv`` counts, read without expanding the record.
        """
        blow = self.blow
        if blow is None or blow.missed:
            return None
        return self.body.locations[blow.location].name, LEVEL_CODES[blow.level]

    def __repr__(self) -> str:
        return f"AttackRecord(tick={self.tick}, {self.attacker} -> {self.target}, {self.mode.id}, landed={self.landed})"

    # ------------------------------------------------------------------ LogEntry

    def events(self) -> list[Event]:
        """The typed step events of this attack, in the order the rules decide them."""
        return list(_expand(self))

    def summary(self, names: Names) -> str | None:
        """``Aldric -> Bertram: Broadsword cut hits the Skull: S3 edged (impact 12 - 3); shock 7 MF -> stunned``.

        ``None`` when the blow did not land on the body.
        """
        blow = self.blow
        if blow is None or blow.missed:
            return None
        loc = self.body.locations[blow.location]
        # A negative protection is a vulnerability (natural protection below 0): "impact 8 + 6", not "8 - -6".
        sums = (f"impact {blow.impact} - {blow.protection}" if blow.protection >= 0
                else f"impact {blow.impact} + {-blow.protection}")
        if blow.glancing:
            wound = f"glances off ({sums})"
        elif blow.level == 0:
            wound = f"no wound ({sums})"
        else:
            wound = f"{LEVEL_CODES[blow.level]} {ASPECTS[blow.aspect]} ({sums})"
            if blow.compound:
                wound += ", compounds"
        shock = ""
        if blow.shock_index:
            test = blow.shock_test.name if blow.shock_test is not None else "no test"
            shock = f"; shock {blow.shock_index} {test} -> {blow.shock_state.label}"
        who = f"{name_of(names, self.attacker)} -> {name_of(names, self.target)}"
        return f"{who}: {self.mode.name} hits the {loc.name}: {wound}{shock}"

    def explain(self, names: Names) -> list[str]:
        """The attack step by step, from aim to shock state, in words."""
        mode = self.mode
        attacker, target = name_of(names, self.attacker), name_of(names, self.target)
        what = f"{mode.name} ({mode.impact} {ASPECTS[mode.aspect]}, Spread {mode.spread})"
        lines = [f"Tick {self.tick}: {attacker} attacks {target} with {what}, "
                 + ("unaimed" if self.aim == "unaimed" else f"aimed at the {self.aim}")]
        if self.attack is None:
            lines.append("Struck directly: no attack roll")
        else:
            defence = _words(self.defence) if self.defence is not None else "no roll (helpless)"
            lines.append(f"Attack ML {_ml(self.attack_ml)}: {_words(self.attack)}; defence ML "
                         f"{_ml(self.defence_ml)}: {defence} -> {'lands' if self.landed else 'defended'}")
        blow = self.blow
        if not self.landed or blow is None:
            return lines
        body = self.body
        if blow.missed:
            lines.append(f"Zone number {blow.zone_number}: off the body (highest {body.max_zone_number}): a miss")
            return lines
        loc = body.locations[blow.location]
        part = body.parts[loc.part]
        zone = body.zones[part.zone]
        if self.aim_zone:
            roll = blow.zone_number - (self.aim_zone - 1)
            lines.append(f"Zone die d{mode.spread} rolled {roll}: target zone number {self.aim_zone} -> "
                         f"{blow.zone_number} ({zone.name}, {zone.first}-{zone.last})")
        else:
            lines.append(f"Unaimed: zone number {blow.zone_number} ({zone.name}, {zone.first}-{zone.last})")
        lines.append(f"Part {part.name}, location {loc.name} (Shock Value {loc.shock_value})")
        aspect = ASPECTS[blow.aspect]
        layers = [f"natural {loc.protection[blow.aspect]}"]
        key = loc.name.casefold()
        layers += [f"{p.name} {p.protection[blow.aspect]}{' (rigid)' if p.rigid else ''}" for p in self.armor
                   if key in p.covers]
        lines.append(f"Impact {blow.impact} {aspect}; protection {' + '.join(layers)} = {blow.protection}; "
                     f"effective {blow.effective_impact}")
        thresholds = "/".join(f"{t:g}" for t in scaled_thresholds(body, self.rules))
        if blow.glancing:
            level = "glances off rigid armour: no wound"
        else:
            level = f"{LEVEL_CODES[blow.level]} ({LEVEL_WORDS[blow.level]})"
        lines.append(f"Level against {thresholds}: {level}"
                     + ("; compounds the worst wound there" if blow.compound else ""))
        lines.append(f"Bleeding ({loc.bleeding}): {'a bleeder' if blow.bleeder else 'no'}; amputation: "
                     + (f"{blow.amputation} ({_words(blow.amputation_test)})" if blow.amputation_test is not None
                        else "no check"))
        if blow.shock_index:
            test = _words(blow.shock_test) if blow.shock_test is not None else "no test"
            lines.append(f"Shock index {blow.shock_index}: {test} -> {blow.final_index}: {blow.shock_state.label}")
        else:
            lines.append("No shock")
        mishaps = (("Fumble", blow.fumble, blow.fumble_test, blow.fumble_outcome),
                   ("Stumble", blow.stumble, blow.stumble_test, blow.stumble_outcome))
        for name, disposition, keep_test, outcome in mishaps:
            if disposition != "none":
                rolled = f" {_words(keep_test)}" if keep_test is not None else ""
                lines.append(f"{name}: {disposition}{rolled} -> {outcome}")
        if blow.dead:
            lines.append("The blow kills.")
        return lines



def _ml(ml: int | None) -> str:
    return "-" if ml is None else str(ml)


def _words(result: TestResult) -> str:
    """``MF (marginal failure)``."""
    return f"{result.name} ({TEST_WORDS[result.name]})"


def _expand(record: AttackRecord) -> Iterator[Event]:
    """The typed step events of one attack."""
    t, time, a, d = record.tick, record.time, record.attacker, record.target
    yield AttackDeclared(t, time, a, d, record.mode.id, record.aim)
    if record.attack is not None:
        yield AttackRolled(t, time, a, d, record.attack_ml, record.attack.name, record.defence_ml,
                           record.defence.name if record.defence is not None else "none", record.landed)
    if not record.landed:
        yield Missed(t, time, a, d, "defended")
        return
    blow = record.blow
    assert blow is not None
    if blow.missed:
        yield Missed(t, time, a, d, "off the body")
        return
    body = record.body
    loc = body.locations[blow.location]
    part = body.parts[loc.part]
    aspect = ASPECTS[blow.aspect]
    yield BlowLanded(t, time, a, d, blow.zone_number, body.zones[part.zone].name, part.name, loc.name, blow.impact,
                     aspect)
    yield ProtectionApplied(t, time, d, loc.name, blow.protection, blow.effective_impact)
    yield Injured(t, time, d, loc.name, blow.level, LEVEL_CODES[blow.level], aspect, blow.glancing, blow.compound)
    if blow.amputation_test is not None:
        yield AmputationTested(t, time, d, loc.name, blow.amputation_test.name, blow.severed)
    if blow.shock_index:
        yield ShockTested(t, time, d, blow.shock_index, blow.shock_test.name if blow.shock_test is not None else "none",
                          blow.final_index, blow.shock_state.label)
    if blow.fumble != "none":
        test = blow.fumble_test.name if blow.fumble_test is not None else "none"
        yield MishapTested(t, time, d, "fumble", blow.fumble, test, blow.fumble_outcome)
    if blow.stumble != "none":
        test = blow.stumble_test.name if blow.stumble_test is not None else "none"
        yield MishapTested(t, time, d, "stumble", blow.stumble, test, blow.stumble_outcome)


def _drop_levels(result: TestResult, levels: int) -> TestResult:
    """Drop a test result by ``levels`` success levels (CS -> MS -> MF -> CF)."""
    return TestResult(max(int(result) - levels, 0)) if levels else result


def opposed(attack_ml: int | None, defence_ml: int | None, defends: bool, rng: Rng, tests: TestRules,
            attack_drop: int = 0, defence_drop: int = 0) -> tuple[TestResult, TestResult | None, bool]:
    """The opposed test: ``(attack result, defence result or None, landed)``.

    Args:
        attack_ml: Attacker's effective ML (``None``: automatic critical failure).
        defence_ml: Defender's effective ML (``None``: automatic critical failure).
        defends: Whether the defender rolls at all (a helpless defender does not).
        rng: Generator.
        tests: How tests read.
        attack_drop: Success levels the attacker's result drops (stunned).
        defence_drop: Success levels the defender's result drops (stunned).
    """
    attack = _drop_levels(skill_test(attack_ml, rng, tests), attack_drop)
    if not attack.success:
        defence = _drop_levels(skill_test(defence_ml, rng, tests), defence_drop) if defends else None
        return attack, defence, False
    if not defends:
        return attack, None, True
    defence = _drop_levels(skill_test(defence_ml, rng, tests), defence_drop)
    return attack, defence, defence < attack


def attack_ml(anat: Anatomy, impairments: Sequence[Impairment], mode: StrikeMode, parts: tuple[int, ...],
              fatigue: int = 0) -> int | None:
    """The attacker's ML.

    Skill + the mode's modifier + the worst impairment of the parts wielding the mode - fatigue.

    A strike mode checks its own limbs, not the role at large (document 000): an impaired off hand does not
    hamper a one-handed blow with the good hand. ``None`` when the creature lacks the skill.
    """
    base = anat.mls.get(mode.skill)
    if base is None:
        return None
    penalty = 0
    for p in parts:  # a loop, not min() over a generator: it runs for every attack
        part_penalty = impairments[p].penalty
        if part_penalty < penalty:
            penalty = part_penalty
    return base + mode.attack_modifier + penalty - fatigue


def stunned(state: ShockState) -> bool:
    """Stunned (its tests drop a success level)."""
    return state is ShockState.STUNNED
