"""Embedding the combat rules in your own game loop: your esper world, your main loop, no ``sandbox.Sandbox``.

A game developer's prototype owns its world and its loop. It borrows the data (``sandbox.config`` loads the
TOML definitions), the components (``components``) and the processors (``systems``), registers the processors by
named phase, and ticks. Run it: ``python examples/embed.py``.
"""

from __future__ import annotations

import random

import esper

from components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position, Shock
from components.wounds import Wounds
from sandbox.config import default_catalog
from systems.ai import IntentProcessor, grip_parts_for
from systems.combat import AttackProcessor, AttackRecord
from systems.context import Clock, TickContext
from systems.creatures import ensure_status, query_creatures
from systems.damage import DamageProcessor
from systems.movement import MoveProcessor
from systems.phases import Phase, priority
from systems.recovery import RecoveryProcessor
from systems.status import CleanupProcessor, ClockProcessor, StatusProcessor, fighting_teams


def make_knight(ctx: TickContext, name: str, team: str, x: float, weapon: str) -> int:
    """Create a human fighter from the shipped definitions, holding ``weapon``."""
    catalog = default_catalog()
    kind = catalog.creatures["human"]
    body = catalog.bodies[kind.body]
    mls = {k: v * 5 for k, v in kind.attributes.items()} | dict(kind.skills)
    anat = Anatomy(body, kind, mls, dict(kind.attributes), kind.speed or 10.0)
    wounds, cond = Wounds(), Condition()
    equip = Equipment(weapons=[weapon], natural=["unarmed"])
    ensure_status(anat, wounds, ctx)
    for part in grip_parts_for(anat, wounds, cond, equip, weapon, ctx) or ():
        equip.holding[part] = weapon
    armor = Armor((catalog.armor["gambeson"], catalog.armor["helm"]))
    return esper.create_entity(Identity(name, "human"), anat, wounds, armor, Shock(), cond,
                               Combatant(team), Position(x, 0.0), equip)


def main(seed: int = 7, max_ticks: int = 60) -> str | None:
    """Run a duel in a world of our own; returns the winning team (or None)."""
    catalog = default_catalog()
    esper.switch_world("my-game")
    ctx = TickContext(
        rules=catalog.rules, combat=catalog.combat, modes=catalog.modes, weapons=catalog.weapons,
        skills=catalog.skills,
        streams={purpose: random.Random(f"{seed}-{purpose}") for purpose in ("attack", "injury", "shock", "ai")},
        clock=Clock(0, catalog.combat.tick_seconds))
    # Register the processors by named phase; within a phase, in the order given.
    plan = [(Phase.INTENT, ClockProcessor), (Phase.INTENT, IntentProcessor), (Phase.MOVE, MoveProcessor),
            (Phase.ATTACK, AttackProcessor), (Phase.DAMAGE, DamageProcessor), (Phase.RECOVERY, RecoveryProcessor),
            (Phase.STATUS, StatusProcessor), (Phase.CLEANUP, CleanupProcessor)]
    seen: dict[Phase, int] = {}
    for phase, processor in plan:
        esper.add_processor(processor(ctx), priority(phase, seen.get(phase, 0)))
        seen[phase] = seen.get(phase, 0) + 1

    make_knight(ctx, "Gawain", "Round Table", 0.0, "mace")
    make_knight(ctx, "Green Knight", "Green Chapel", 4.0, "battleaxe")

    shown = 0
    teams = fighting_teams(query_creatures())
    while len(teams) > 1 and ctx.clock.tick < max_ticks:
        esper.process()  # one tick, every phase in order
        for entry in ctx.log[shown:]:
            if isinstance(entry, AttackRecord) and entry.blow is not None and not entry.blow.missed:
                loc = entry.body.locations[entry.blow.location].name
                print(f"tick {entry.tick}: {esper.component_for_entity(entry.attacker, Identity).name} hits "
                      f"{esper.component_for_entity(entry.target, Identity).name} on the {loc}: "
                      f"{entry.blow.level_code}, shock {entry.blow.shock_state.label}")
        shown = len(ctx.log)
        teams = fighting_teams(query_creatures())
    winner = teams[0] if len(teams) == 1 else None
    print(f"after {ctx.clock.tick} ticks: {winner or 'no winner'}")
    esper.switch_world("default")
    esper.delete_world("my-game")
    return winner


if __name__ == "__main__":
    main()
