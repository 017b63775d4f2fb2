"""A creature as a compiled target of the anatomy rules.

Its body and armour flattened once per (body, armour) and its current test MLs and wounds on top
(``sandbox.systems.models.anatomy.blow.TargetProfile``).
"""

from __future__ import annotations

from collections.abc import Mapping

from sandbox.components.creature import SkillDef
from sandbox.components.models.anatomy import Injury
from sandbox.components.rules import AnatomyRules
from sandbox.components.state import Anatomy, Armor
from sandbox.systems.models.anatomy.blow import TargetProfile, compile_target, with_tests
from sandbox.systems.models.anatomy.mastery import effective_ml
from sandbox.systems.models.anatomy.mishaps import keep_control_ml

__all__ = ["CompiledTargets", "target_profile"]

CompiledTargets = dict[tuple[str, tuple[str, ...]], TargetProfile]
"""Compiled (body, armour) tables, by body id and armour ids: shared by every creature of that body and gear."""


def target_profile(anat: Anatomy, injury: Injury, armor: Armor, rules: AnatomyRules,
                   skills: Mapping[str, SkillDef], compiled: CompiledTargets) -> TargetProfile:
    """The creature compiled as a target.

    Cached in ``injury.profile`` until its impairment, fatigue or armour changes; the per-location tables are in
    ``compiled``.
    """
    profile = injury.profile
    if isinstance(profile, TargetProfile):
        return profile
    key = (anat.body.id, tuple(p.id for p in armor.pieces))
    base = compiled.get(key)
    if base is None or base.body is not anat.body:
        base = compile_target(anat.body, rules, armor.pieces, shock_ml=None, strength_ml=None, fumble_ml=None,
                              stumble_ml=None)
        compiled[key] = base

    def ml(skill: str) -> int | None:
        return effective_ml(anat, injury, skill, skills)

    profile = with_tests(
        base,
        shock_ml=ml("shock"),  # fatigue applies; impairment never does
        strength_ml=ml("strength"),
        fumble_ml=keep_control_ml(ml("dexterity"), ml("legerdemain")),
        stumble_ml=keep_control_ml(ml("agility"), ml("acrobatics")),
        existing_levels=injury.levels,
    )
    injury.profile = profile
    return profile
