"""Static creature definitions and the skills their tests use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["CreatureDef", "SkillDef"]


@dataclass(frozen=True, slots=True)
class SkillDef:
    """A skill or attribute the rules test.

    Attributes:
        id: Config id (``"climbing"``).
        name: Display name.
        kind: ``"attribute"`` or ``"skill"``.
        roles: The body roles whose injury impairs a test of it.
        impairable: False for tests that body-part impairment deliberately does not touch (Shock).
    """

    id: str
    name: str
    kind: str
    roles: frozenset[str]
    impairable: bool = True


@dataclass(frozen=True, slots=True)
class CreatureDef:
    """A kind of creature: its body, attributes, skills and default gear.

    Attributes:
        id: Config id (``"human"``).
        name: Display name.
        body: Body structure id.
        dominance: ``"right"``, ``"left"`` or ``"ambidextrous"``.
        attributes: Attribute scores (``strength`` 10 ...).
        skills: Mastery Levels of skills (``shock`` 50 ...).
        weapons: Weapon ids carried by default (natural weapons included).
        armor: Armour piece ids worn by default.
        speed: Walking speed in metres per tick (``None``: the sandbox default).
        items: Item ids carried by default (``configs/items/``; one entry per item carried).
    """

    id: str
    name: str
    body: str
    dominance: str
    attributes: Mapping[str, int]
    skills: Mapping[str, int]
    weapons: tuple[str, ...]
    armor: tuple[str, ...]
    speed: float | None = None
    items: tuple[str, ...] = ()
