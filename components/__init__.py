"""Pure data for the combat sandbox: static definitions and ECS components. Imports only the stdlib."""

from sandbox.components.body import ASPECTS, ROLES, TIERS, Aspect, BodyStructure, Location, Part, Zone
from sandbox.components.creature import CreatureDef, SkillDef
from sandbox.components.gear import ArmorPiece, Dice, StrikeMode, Weapon
from sandbox.components.rules import LEVEL_CODES, AnatomyRules, ShockState, TestResult

__all__ = [
    "ASPECTS",
    "LEVEL_CODES",
    "ROLES",
    "TIERS",
    "AnatomyRules",
    "ArmorPiece",
    "Aspect",
    "BodyStructure",
    "CreatureDef",
    "Dice",
    "Location",
    "Part",
    "ShockState",
    "SkillDef",
    "StrikeMode",
    "TestResult",
    "Weapon",
    "Zone",
]
