"""A creature's effective Mastery Levels under the anatomy rules.

Base ML, the impairment of the parts holding the roles a skill names, and fatigue.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from sandbox.components.creature import SkillDef
from sandbox.components.models.anatomy import Injury
from sandbox.components.state import Anatomy
from sandbox.systems.models.anatomy.impairment import test_penalty

__all__ = ["effective_ml"]


def effective_ml(anat: Anatomy, injury: Injury, skill: str, skills: Mapping[str, SkillDef], modifier: int = 0,
                 immobilized: Collection[int] = ()) -> int | None:
    """The ML a creature tests ``skill`` at now.

    Base + ``modifier`` + the impairment of the roles it names - its fatigue (anemia, infection, weariness: a penalty on
    every test).

    Returns ``None`` when it cannot succeed at all: it has no such skill or attribute, or a part holding a role
    the skill names is unusable or held fast (``immobilized``): the test critically fails without a roll.
    """
    base = anat.mls.get(skill)
    if base is None:
        return None
    base -= injury.fatigue
    definition = skills.get(skill)
    if definition is None or not definition.impairable or not definition.roles:
        return base + modifier
    if immobilized and any(anat.body.parts[p].roles & definition.roles for p in immobilized):
        return None
    # The penalty changes only when the impairments do; the cache keeps the tuple it was computed from.
    roles = definition.roles
    cached = injury.penalties.get(roles)
    if cached is not None and cached[0] is injury.impairments:
        penalty = cached[1]
    else:
        penalty = test_penalty(anat.body, injury.impairments, roles)
        injury.penalties[roles] = (injury.impairments, penalty)
    return None if penalty is None else base + modifier + penalty
