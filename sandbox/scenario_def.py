"""Scenario definitions: who fights whom, where, with what (built from ``configs/scenarios/*.toml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sandbox.components.care import CarePolicy

__all__ = ["CarePolicy", "CombatantSpec", "ScenarioDef"]


@dataclass(frozen=True, slots=True)
class CombatantSpec:
    """One creature to spawn (groups are expanded: "Wolf 1", "Wolf 2" ...).

    Attributes:
        name: Unique name in the scenario.
        creature: Creature config id.
        team: Team name.
        position: (x, y) in metres.
        weapons: Carried weapons (``None``: the creature's own).
        armor: Worn armour (``None``: the creature's own).
        policy: Target policy.
        aim: Aim policy.
        initiative: Turn order override (``None``: the creature's Agility ML).
        speed: Walking speed override in metres per tick.
        attributes: Attribute score overrides.
        skills: Skill ML overrides.
        immobilized: Names of parts held fast.
        items: Carried items (``None``: the creature's own).
    """

    name: str
    creature: str
    team: str
    position: tuple[float, float]
    weapons: tuple[str, ...] | None
    armor: tuple[str, ...] | None
    policy: str
    aim: str
    initiative: int | None
    speed: float | None
    attributes: Mapping[str, int]
    skills: Mapping[str, int]
    immobilized: tuple[str, ...]
    items: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScenarioDef:
    """A scenario.

    Attributes:
        id: Config id (file stem).
        name: Display name.
        description: What it shows.
        model: The damage model it names.
        max_ticks: Tick limit for a run.
        field: (width, height) in metres.
        combatants: Every creature, groups expanded.
        care: Who tends the wounded after the fight.
    """

    id: str
    name: str
    description: str
    model: str
    max_ticks: int
    field: tuple[float, float]
    combatants: tuple[CombatantSpec, ...]
    care: CarePolicy = CarePolicy()  # noqa: RUF009 (frozen: one shared default is safe)
