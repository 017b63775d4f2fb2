"""The severity model's outcome preview: the exact odds of one attack against a target as it is wounded now.

The d20 against Defense (or the helpless rule), then the weapon's damage dice through the target's Armor Value,
one d3 per point left (Binomial: each 3 is one Severity) and the effect die; each (Severity, effect) is applied by
``rules.apply_wound`` to a copy of the target's state, so Threshold, Bloody, overflow past an attribute's floor and
"Threshold 0: the next wound is lethal" are judged exactly as a real wound is. The procedure it mirrors is
``SeverityModel.strike``.
"""

from __future__ import annotations

from dataclasses import replace

from sandbox.components.gear import StrikeMode
from sandbox.components.models.severity import SeverityRules, SeverityWeapon
from sandbox.components.preview import OutcomePreview
from sandbox.systems.creatures import Creature, able
from sandbox.systems.distributions import Pmf, add, binomial, chances, d20_rolls, dice_pmf, die_pmf
from sandbox.systems.models.severity.record import MODEL
from sandbox.systems.models.severity.rules import apply_wound, attack_bonus, damage_after_armor, defense, severity_state

__all__ = ["OUTCOMES", "preview_blow"]

OUTCOMES: tuple[str, ...] = ("none", "wounded", "incapacitated", "fainted", "dead")
"""What a wound does (``WoundResult.outcome``), mildest first: the preview's ``outcome`` table."""

_NO_LOCATIONS = "the severity model places no wound at a location (a wound is a Severity and an effect)"
_NO_SEVERING = "the severity model has no amputation"


def preview_blow(rules: SeverityRules, target: Creature, mode: StrikeMode, aim: str, weapon: SeverityWeapon | None,
                 attacker: Creature | None = None) -> OutcomePreview:
    """The exact outcome of ``attacker``'s attack (or, without one, of a blow that lands) on ``target``.

    Args:
        rules: The model's tables.
        target: Who is struck, as wounded now.
        mode: The strike mode.
        aim: As declared (it changes nothing: the model places no wound).
        weapon: The mode's numbers in the model's tables; ``None`` when the target has no body to strike (a blow
            at it finds nothing, whatever the weapon).
        attacker: Who strikes, or ``None``.
    """
    state = severity_state(target)
    helpless = not able(target)
    if attacker is None:
        hit = 1.0
    else:
        rolls = d20_rolls(attack_bonus(severity_state(attacker), mode.kind, rules), defense(state, rules))
        hit = sum(1 for r in rolls if r.hit or (helpless and rules.helpless_hits)) / len(rolls)
    down_now = target.condition.out
    outcome: dict[str, float] = {}
    effects: dict[str, float] = {}
    severities: dict[str, float] = {}
    land = 0.0
    notes = ["what follows the blow (stun turns, first aid, rest, dying of exposure) is not counted"]
    if weapon is None:
        notes.insert(0, f"{target.name} has no body a blow can strike: every hit misses")
    else:
        land = hit
        for severity, p in _severities(rules, weapon, state.armor_value, helpless).items():
            p *= hit
            add(severities, str(severity), p)
            if severity == 0:
                add(effects, "no wound", p)
                add(outcome, "none", p)
                continue
            for face, q in die_pmf(rules.effect_die).items():
                effect = rules.effects[face - 1]
                result = apply_wound(replace(state), severity, effect, rules)  # on a copy: the world is unchanged
                add(effects, effect, p * q)
                add(outcome, result.outcome, p * q)
    kill = outcome.get("dead", 0.0)
    fell = kill + outcome.get("incapacitated", 0.0) + outcome.get("fainted", 0.0)
    return OutcomePreview(
        model=MODEL, attacker="" if attacker is None else attacker.name, target=target.name, mode=mode.id, aim=aim,
        hit=hit, land=land, locations=None, locations_note=_NO_LOCATIONS, level_kind="wound effect",
        levels=chances(effects, ("no wound", *rules.effects)), sever=None, sever_note=_NO_SEVERING, kill=kill,
        down=1.0 if down_now else fell, down_now=down_now,
        tables=(("Severity", chances(severities, sorted(severities, key=int))),
                ("outcome", chances(outcome, OUTCOMES))),
        notes=tuple(notes))


def _severities(rules: SeverityRules, weapon: SeverityWeapon, armor_value: int, helpless: bool) -> Pmf:
    """The Severity of a landed blow: its damage through armour, then one Severity die per point."""
    face = die_pmf(rules.severity_die).get(rules.severity_face, 0.0)
    out: Pmf = {}
    for rolled, p in dice_pmf(weapon.damage).items():
        dealt, _ = damage_after_armor(max(0, rolled), armor_value, weapon.anti_armor, helpless=helpless,
                                      indirect=weapon.indirect)
        for severity, q in enumerate(binomial(dealt, face)):
            if q > 0:
                add(out, severity, p * q)
    return out
