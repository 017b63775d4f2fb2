"""Building a creature's components from the content.

``creature_components`` is the one function ``Sandbox.spawn`` and an embedding game both use.

The content is anything with the catalog's shape (``Content``: ``sandbox.config.Catalog`` is one); the damage
model adds its own state. The components come back in the order an esper entity takes them:
``SHARED`` (``sandbox.systems.creatures``) then the model's ``state_types``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef, SkillDef
from sandbox.components.gear import ArmorPiece, Item, StrikeMode, Weapon
from sandbox.components.rules import AnatomyRules, CombatRules
from sandbox.components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position
from sandbox.systems.actions import EXTERNAL
from sandbox.systems.ai import AIM_POLICIES, TARGET_POLICIES, grip_parts_for
from sandbox.systems.creatures import Creature
from sandbox.systems.damage_model import DamageModel, ModelError

__all__ = ["Content", "SpawnError", "creature_components"]


class Content(Protocol):
    """The definitions a world is built from (``sandbox.config.Catalog`` has this shape)."""

    @property
    def rules(self) -> AnatomyRules:
        """The anatomy rule tables (tests read attributes at score x their multiplier)."""
        ...

    @property
    def combat(self) -> CombatRules:
        """The skirmish loop's rules."""
        ...

    @property
    def skills(self) -> Mapping[str, SkillDef]:
        """Skills by id."""
        ...

    @property
    def bodies(self) -> Mapping[str, BodyStructure]:
        """Bodies by id."""
        ...

    @property
    def weapons(self) -> Mapping[str, Weapon]:
        """Weapons by id."""
        ...

    @property
    def modes(self) -> Mapping[str, StrikeMode]:
        """Strike modes by qualified id."""
        ...

    @property
    def armor(self) -> Mapping[str, ArmorPiece]:
        """Armour pieces by id."""
        ...

    @property
    def creatures(self) -> Mapping[str, CreatureDef]:
        """Creature kinds by id."""
        ...

    @property
    def items(self) -> Mapping[str, Item]:
        """Carried items (healing items, medicine) by id."""
        ...


class SpawnError(ValueError):
    """A creature that cannot be built.

    An unknown creature, weapon, armour piece, item, part, aim or policy, or an item the damage model has no use for
    (the message names the bad value and the valid ones).
    """


def _known(what: str, value: str, known: Sequence[str]) -> SpawnError:
    return SpawnError(f"unknown {what} {value!r}; known: {', '.join(sorted(known))}")


def _aim_names(content: Content) -> frozenset[str]:
    """Every name an aim may give (case-folded): a part or location of some body of the content."""
    names: set[str] = set()
    for body in content.bodies.values():
        names.update(p.name.casefold() for p in body.parts)
        names.update(loc.name.casefold() for loc in body.locations)
    return frozenset(names)


def creature_components(content: Content, model: DamageModel, creature: str, name: str, *, team: str = "",
                        position: Sequence[float] = (0.0, 0.0), armor: Sequence[str] | None = None,
                        weapons: Sequence[str] | None = None, attributes: Mapping[str, int] | None = None,
                        skills: Mapping[str, int] | None = None, policy: str = "nearest", aim: str = "unaimed",
                        initiative: int | None = None, speed: float | None = None,
                        immobilized: Sequence[str] = (), items: Sequence[str] | None = None) -> tuple[object, ...]:
    """Every component of a new creature of kind ``creature`` (see ``Sandbox.spawn`` for the arguments).

    The first non-natural weapon carried that is not a shield is taken in hand, by as many free, usable hands as it
    needs; then each shield carried, in a free hand if one is left.

    Raises:
        SpawnError: An unknown creature, weapon, armour piece (or one made for another body), item, part, aim or
            policy, an item the model has no use for (a model with no rules for healing items: a clear refusal,
            never a silent ignore), or a creature the model cannot hold (a missing table entry).
    """
    kind = content.creatures.get(creature)
    if kind is None:
        raise _known("creature", creature, list(content.creatures))
    body = content.bodies[kind.body]
    if policy not in TARGET_POLICIES and policy != EXTERNAL:
        raise _known("target policy", policy, (*TARGET_POLICIES, EXTERNAL))
    if aim not in AIM_POLICIES and aim.casefold() not in _aim_names(content):
        raise SpawnError(f"aim {aim!r} names no part or location of any body; use unaimed, random, or a part or "
                         f"location name (a {body.name}: {', '.join(p.name for p in body.parts)})")
    listed = list(weapons if weapons is not None else kind.weapons)
    for w in listed:
        if w not in content.weapons:
            raise _known("weapon", w, list(content.weapons))
    natural = [w for w in kind.weapons if w in content.weapons and content.weapons[w].natural]
    natural += [w for w in listed if content.weapons[w].natural and w not in natural]
    carried = [w for w in listed if not content.weapons[w].natural]
    carried_items = list(items if items is not None else kind.items)
    for item in carried_items:
        if item not in content.items:
            raise _known("item", item, list(content.items))
    usable = model.items()
    useless = sorted({i for i in carried_items if i not in usable})
    if useless:
        what = ", ".join(repr(i) for i in useless)
        known = f"its items: {', '.join(sorted(usable))}" if usable else "it has rules for no items at all"
        raise SpawnError(f"{name} carries {what}, which the {model.name} model has no use for ({known}); carry "
                         "only those under it, or run under a model that uses them")
    pieces = []
    for a in armor if armor is not None else kind.armor:
        piece = content.armor.get(a)
        if piece is None:
            raise _known("armour", a, list(content.armor))
        if piece.body != body.id:
            raise SpawnError(f"armour {a!r} is made for the {piece.body!r} body, not {body.id!r}")
        pieces.append(piece)
    attrs = dict(kind.attributes) | dict(attributes or {})
    mult = content.rules.tests.attribute_ml_multiplier
    mls = {k: v * mult for k, v in attrs.items()} | dict(kind.skills) | dict(skills or {})
    held_parts = set()
    for part_name in immobilized:
        try:
            held_parts.add(body.part_index(part_name))
        except KeyError:
            raise _known(f"part of the {body.name}", part_name, [p.name for p in body.parts]) from None
    anat = Anatomy(body, kind, mls, attrs, speed or kind.speed or content.combat.default_speed)
    cond = Condition(immobilized=held_parts)
    equip = Equipment(weapons=carried, natural=natural, items=carried_items)
    comb = Combatant(team or name, policy, aim, initiative if initiative is not None else mls.get("agility", 0))
    ident = Identity(name, creature)
    pos = Position(float(position[0]), float(position[1]))
    worn = Armor(tuple(pieces))
    try:
        state = model.spawn_state(kind, body, attrs, pieces)
    except ModelError as exc:
        raise SpawnError(str(exc)) from None
    in_hand = [w for w in carried if not content.weapons[w].shield][:1]
    in_hand += [w for w in carried if content.weapons[w].shield]  # shields in the hands left free
    if in_hand:
        record = Creature(-1, ident, anat, worn, cond, comb, pos, equip, model.bind(state))
        states = model.part_states(record)
        for weapon in in_hand:
            parts = grip_parts_for(anat, states, cond, equip, weapon, content.weapons)
            for p in parts or ():
                equip.holding[p] = weapon
    return (ident, anat, worn, cond, comb, pos, equip, *state)
