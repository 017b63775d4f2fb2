"""Reading a creature's state: the component query, what it can do, its effective test MLs, its target profile."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import esper

from components.rules import ShockState
from components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position, Shock
from components.wounds import Wounds
from systems.blow import TargetProfile, compile_target, with_tests
from systems.context import TickContext
from systems.impairment import body_impairments, test_penalty
from systems.mishaps import keep_control_ml

CREATURE = (Identity, Anatomy, Wounds, Armor, Shock, Condition, Combatant, Position, Equipment)
"""The components every fighting creature has, in the order processors unpack them."""

Parts = tuple[Identity, Anatomy, Wounds, Armor, Shock, Condition, Combatant, Position, Equipment]


def alive(cond: Condition) -> bool:
    """Not dead."""
    return not cond.dead


def can_act(cond: Condition, shock: Shock) -> bool:
    """Alive, not taken out by its damage model, and neither incapacitated nor unconscious (a stunned creature
    acts, with the penalty)."""
    return not cond.dead and not cond.out and shock.state < ShockState.INCAPACITATED


def ensure_status(anat: Anatomy, wounds: Wounds, ctx: TickContext) -> None:
    """Make sure the impairment cache exists (a freshly spawned or loaded creature)."""
    if not wounds.impairments:
        wounds.impairments = body_impairments(anat.body, wounds, ctx.rules)


def effective_ml(anat: Anatomy, wounds: Wounds, skill: str, ctx: TickContext, modifier: int = 0,
                 immobilized: Collection[int] = ()) -> int | None:
    """The ML a creature tests ``skill`` at now: base + ``modifier`` + the impairment of the roles it names - its
    fatigue (anemia, infection, weariness: a penalty on every test).

    Returns ``None`` when it cannot succeed at all: it has no such skill or attribute, or a part holding a role
    the skill names is unusable or held fast (``immobilized``): the test critically fails without a roll.
    """
    base = anat.mls.get(skill)
    if base is None:
        return None
    base -= wounds.fatigue
    definition = ctx.skills.get(skill)
    if definition is None or not definition.impairable or not definition.roles:
        return base + modifier
    if immobilized and any(anat.body.parts[p].roles & definition.roles for p in immobilized):
        return None
    ensure_status(anat, wounds, ctx)
    # The penalty changes only when the impairments do; the cache keeps the tuple it was computed from.
    key = (id(wounds), definition.roles)
    cached = ctx.cache.get(key)
    if cached is not None and cached[0] is wounds.impairments:
        penalty = cached[1]
    else:
        penalty = test_penalty(anat.body, wounds.impairments, definition.roles)
        ctx.cache[key] = (wounds.impairments, penalty)
    return None if penalty is None else base + modifier + penalty


def target_profile(anat: Anatomy, wounds: Wounds, armor: Armor, ctx: TickContext) -> TargetProfile:
    """The creature compiled as a target (cached in ``wounds.profile`` until its impairment or armour changes)."""
    profile: Any = wounds.profile
    if profile is None:
        key = ("target", anat.body.id, tuple(p.id for p in armor.pieces))
        base = ctx.cache.get(key)
        if base is None:
            base = compile_target(anat.body, ctx.rules, armor.pieces, shock_ml=None, strength_ml=None,
                                  fumble_ml=None, stumble_ml=None)
            ctx.cache[key] = base
        dex = effective_ml(anat, wounds, "dexterity", ctx)
        leg = effective_ml(anat, wounds, "legerdemain", ctx)
        agi = effective_ml(anat, wounds, "agility", ctx)
        acr = effective_ml(anat, wounds, "acrobatics", ctx)
        profile = with_tests(
            base,
            shock_ml=effective_ml(anat, wounds, "shock", ctx),  # fatigue applies; impairment never does
            strength_ml=effective_ml(anat, wounds, "strength", ctx),
            fumble_ml=keep_control_ml(dex, leg),
            stumble_ml=keep_control_ml(agi, acr),
            existing_levels=wounds.levels,
        )
        wounds.profile = profile
    assert isinstance(profile, TargetProfile)
    return profile


def query_creatures() -> dict[int, Parts]:
    """Every creature of the current esper world with all its components (esper caches the query)."""
    rows: list[tuple[int, Parts]] = esper.get_components(*CREATURE)  # type: ignore[call-overload]
    return dict(rows)
