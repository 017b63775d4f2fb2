"""Frozen components from config files that passed every check: bodies, weapons, armour, creatures, scenarios."""

from __future__ import annotations

from sandbox.components.body import Aspect, BodyStructure, Location, Part, Zone
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece, Item, StrikeMode, Weapon
from sandbox.config import schema as s
from sandbox.config.checks import group_names
from sandbox.scenario_def import CarePolicy, CombatantSpec, ScenarioDef
from sandbox.systems.dice import parse_dice

__all__ = ["build_armor", "build_body", "build_creature", "build_item", "build_scenario", "build_weapon", "protection"]


def build_scenario(m: s.ScenarioFile, scenario_id: str) -> ScenarioDef:
    """Build a ``ScenarioDef`` from a checked scenario file, expanding groups into named members."""
    specs = []
    for c in m.combatants:
        for k, name in enumerate(group_names(c.name, c.count)):
            specs.append(CombatantSpec(
                name=name, creature=c.creature, team=c.team,
                position=(c.position[0], c.position[1] + k * c.spacing),
                weapons=tuple(c.weapons) if c.weapons is not None else None,
                armor=tuple(c.armor) if c.armor is not None else None,
                policy=c.policy, aim=c.aim, initiative=c.initiative, speed=c.speed,
                attributes=dict(c.attributes), skills=dict(c.skills), immobilized=tuple(c.immobilized),
                items=tuple(c.items) if c.items is not None else None))
    care = CarePolicy(m.care.first_aid_minutes * 60.0 if m.care.first_aid_minutes is not None else None,
                      tuple(m.care.healers) if m.care.healers is not None else None, m.care.self_care)
    return ScenarioDef(scenario_id, m.name, m.description, m.model, m.max_ticks, (m.field.width, m.field.height),
                       tuple(specs), care)


def protection(p: s.Protection | s.NaturalProtection) -> tuple[int, int, int, int]:
    """Protection per aspect, in aspect order (blunt, edged, piercing, fire)."""
    return (p.blunt, p.edged, p.piercing, p.fire)


def _side(name: str, names: set[str]) -> str:
    """Paired parts are a left and a right by the presence of their opposite number; others are central."""
    lower = name.casefold()
    for side, other in (("left", "right"), ("right", "left")):
        if lower.startswith(side + " ") and other + lower[len(side):] in names:
            return side
    return "center"


def build_body(m: s.BodyFile, body_id: str) -> BodyStructure:
    """Build the ``BodyStructure`` of a body file that passed its checks (``checks.check_body``)."""
    zone_names = {z.name.casefold(): i for i, z in enumerate(m.zones)}
    part_names = {p.name.casefold() for p in m.parts}
    natural = protection(m.natural_protection)
    locations: list[Location] = []
    parts: list[Part] = []
    zone_parts: list[list[int]] = [[] for _ in m.zones]
    for pi, p in enumerate(m.parts):
        zi = zone_names[p.zone.casefold()]
        zone_parts[zi].append(pi)
        loc_ids = []
        for loc in p.locations:
            loc_ids.append(len(locations))
            locations.append(Location(
                name=loc.name, part=pi, weight=loc.weight, shock_value=loc.shock_value, bleeding=loc.bleeding,
                amputability=loc.amputability, fumble=loc.fumble, stumble=loc.stumble,
                protection=protection(loc.protection) if loc.protection else natural,
                layout=(loc.layout[0], loc.layout[1]) if loc.layout else None))
        parts.append(Part(
            name=p.name, zone=zi, weight=p.weight, roles=frozenset(p.roles), can_hold=p.can_hold,
            side=_side(p.name, part_names), locations=tuple(loc_ids),
            permanent_impairment=p.permanent_impairment, permanently_unusable=p.permanently_unusable,
            layout=(p.layout[0], p.layout[1]) if p.layout else None))
    zones: list[Zone] = []
    first = 1
    for zi, z in enumerate(m.zones):
        zones.append(Zone(z.name, z.weight, first if z.weight else 0, first + z.weight - 1 if z.weight else -1,
                          tuple(zone_parts[zi])))
        first += z.weight
    return BodyStructure(body_id, m.name, m.scale, tuple(zones), tuple(parts), tuple(locations),
                         tuple(m.thresholds) if m.thresholds else None)


def build_weapon(m: s.WeaponFile, weapon_id: str) -> Weapon:
    """Build the ``Weapon`` (and its strike modes ``weapon.mode``) of a checked weapon file."""
    modes = []
    for md in m.modes:
        strength = md.strength_modifier if md.strength_modifier is not None else md.kind != "missile"
        modes.append(StrikeMode(
            id=f"{weapon_id}.{md.id}", name=md.name, weapon=weapon_id, kind=md.kind, skill=md.skill,
            impact=parse_dice(md.impact), aspect=int(Aspect.parse(md.aspect)), spread=md.spread,
            attack_modifier=md.attack_modifier, limbs=md.limbs, limb=md.limb, strength_modifier=strength,
            reach=md.reach, range=md.range))
    return Weapon(weapon_id, m.name, m.natural, tuple(modes), m.shield)


def build_item(m: s.ItemFile, item_id: str) -> Item:
    """Build the ``Item`` of a checked item file."""
    return Item(item_id, m.name, m.description, m.consumable)


def build_armor(m: s.ArmorFile, armor_id: str) -> ArmorPiece:
    """Build the ``ArmorPiece`` of a checked armour file."""
    return ArmorPiece(armor_id, m.name, m.body, frozenset(c.casefold() for c in m.covers), protection(m.protection),
                      m.rigid)


def build_creature(c: s.CreatureFile, creature_id: str) -> CreatureDef:
    """Build the ``CreatureDef`` of a checked creature file."""
    return CreatureDef(creature_id, c.name, c.body, c.dominance, dict(c.attributes), dict(c.skills), tuple(c.weapons),
                       tuple(c.armor), c.speed, tuple(c.items))
