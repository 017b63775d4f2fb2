"""Installing the sandbox into an esper world.

One call registers the shared skirmish loop and a damage model's processors in their named phases, with the sandbox's
seeded streams (what ``Sandbox`` itself does). The content and the model come from the application's loaders
(``default_catalog`` of ``sandbox.config``, ``build_model`` of ``sandbox.models``; this package never imports them)

    import esper
    from sandbox.systems import install
    from sandbox.systems.spawning import creature_components

    catalog = default_catalog()
    ctx = install(build_model("severity", catalog), catalog, seed=3, world="dungeon")
    with ctx.active():
        esper.create_entity(*creature_components(catalog, ctx.model, "human", "Aldric", team="Red"))
    ctx.process()   # one tick of "dungeon", whatever world is current; ctx.log holds what happened

The context is bound to its esper world: ``ctx.creatures()``, ``ctx.roster.get()`` and ``ctx.process()`` answer from
it whatever world is current. Installing twice into one world raises ``AlreadyInstalledError``.

A game that would rather be told than read ``ctx.log`` subscribes through the context: ``ctx.stream.on(Died,
handler)`` (``sandbox.systems.stream``); each tick delivers its events at its end.
"""

from __future__ import annotations

import itertools

import esper

from sandbox.systems.ai import IntentProcessor
from sandbox.systems.combat import AttackProcessor
from sandbox.systems.context import Clock, TickContext
from sandbox.systems.damage_model import DamageModel
from sandbox.systems.ending import CleanupProcessor, ClockProcessor, StatusProcessor
from sandbox.systems.external import ExternalIntent
from sandbox.systems.installs import refuse_second_install
from sandbox.systems.movement import MoveProcessor
from sandbox.systems.phases import Phase, priority
from sandbox.systems.spawning import Content
from sandbox.systems.streams import make_streams
from sandbox.systems.worlds import in_world

__all__ = ["context_for", "install", "processors_for"]


def processors_for(ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
    """The processors of a world by phase, in registration order.

    The shared skirmish loop, then the damage model's own within each phase.
    """
    shared: list[tuple[Phase, esper.Processor]] = [
        (Phase.INTENT, ClockProcessor(ctx)),
        (Phase.INTENT, IntentProcessor(ctx, ExternalIntent(ctx))),
        (Phase.MOVE, MoveProcessor(ctx)),
        (Phase.ATTACK, AttackProcessor(ctx)),
        (Phase.STATUS, StatusProcessor(ctx)),
        (Phase.CLEANUP, CleanupProcessor(ctx)),
    ]
    # Stable sort by phase: the shared processors come first within a phase, then the model's.
    return sorted(shared + ctx.model.processors(ctx), key=lambda pair: pair[0])


def context_for(model: DamageModel, content: Content, *, seed: int = 0, run: int = 0,
                world: str = "") -> TickContext:
    """A world's shared context.

    ``content``'s definitions, ``model``, and the streams of run ``run`` of ``seed`` (``sandbox.systems.streams``),
    bound to esper world ``world`` (``""``: whatever world is current at each call).
    """
    combat = content.combat
    return TickContext(combat=combat, modes=content.modes, weapons=content.weapons, skills=content.skills,
                       streams=make_streams(seed, run), model=model, clock=Clock(0, combat.tick_seconds), world=world)


def install(model: DamageModel, content: Content, *, seed: int = 0, run: int = 0,
            world: str | None = None) -> TickContext:
    """Register the shared loop and ``model``'s processors in an esper world, in phase order.

    Args:
        model: The damage model (``sandbox.models.build_model(name, catalog)`` loads one with its tables).
        content: The definitions (a ``sandbox.config.Catalog``).
        seed: Root seed.
        run: Run index under the seed.
        world: The esper world's name (created if it does not exist; the current world is left current). Default:
            the current world.

    Returns:
        The world's context, bound to that world: its clock, streams and event log (``ctx.log``); its
        ``creatures()``, ``roster.get()`` and ``process()`` act on that world whatever world is current.

    Raises:
        AlreadyInstalledError: The systems run in that world already (a ``SandboxError``).
    """
    name = esper.current_world if world is None else world
    refuse_second_install(name)
    ctx = context_for(model, content, seed=seed, run=run, world=name)
    with in_world(name):
        for phase, processors in itertools.groupby(processors_for(ctx), key=lambda pair: pair[0]):
            for order, (_, processor) in enumerate(processors):
                esper.add_processor(processor, priority(phase, order))
    return ctx
