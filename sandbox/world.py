"""``Sandbox``: one esper world of fighting creatures, ticked headless and deterministically from a seed.

Each Sandbox owns a named esper world and switches to it around its own calls (esper's state is module-global),
so two Sandboxes in one process never see each other's entities. Never share one between threads.

Every public method takes creatures by name or entity, and names (not indices) for locations, parts, aims,
modes, aspects and levels; a name that does not exist raises ``SandboxError`` naming it and the valid ones, and
leaves the world unchanged.
"""

from __future__ import annotations

import gc
import itertools
import os
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import esper

from sandbox.components.care import CarePolicy
from sandbox.components.events import Event
from sandbox.components.gear import StrikeMode
from sandbox.components.log import LogEntry
from sandbox.components.readout import AftermathRow, Readout, Standing
from sandbox.components.state import Identity
from sandbox.config import Catalog, default_catalog
from sandbox.config.content import ScenarioRef
from sandbox.config.scenarios import load_scenario as load_scenario  # its old home: `from sandbox.world import ...`
from sandbox.config.scenarios import resolve_scenario
from sandbox.eventlog import expand_log
from sandbox.scenario_def import ScenarioDef
from sandbox.systems.actions import (
    ACTION_TYPES,
    EXTERNAL,
    Action,
    ActionRefused,
    AlreadySubmitted,
    Approach,
    FirstAid,
    ModelTurn,
    Move,
    NotExternal,
    Strike,
    UnknownAction,
    UseItem,
)
from sandbox.systems.creatures import Creature
from sandbox.systems.embedding import context_for, processors_for
from sandbox.systems.ending import fighting_teams
from sandbox.systems.errors import SandboxError
from sandbox.systems.hit_location import called_target
from sandbox.systems.models import DEFAULT_MODEL, DamageModel, ModelError
from sandbox.systems.options import canonical_aim, options_for, refusal, strike_refusal
from sandbox.systems.phases import priority
from sandbox.systems.readout_cache import ReadoutCache
from sandbox.systems.spawning import SpawnError, creature_components
from sandbox.systems.stream import Subscription

if TYPE_CHECKING:
    from sandbox.components.preview import OutcomePreview
    from sandbox.persistence import FrozenSandbox
    from sandbox.saves import SaveHook

__all__ = [
    "GC_GEN0_THRESHOLD",
    "CreatureRef",
    "Entity",
    "Outcome",
    "Sandbox",
    "SandboxError",
    "load_scenario",
    "verdict",
]

_world_ids = itertools.count(1)

C = TypeVar("C")
E = TypeVar("E", bound=Event)

GC_GEN0_THRESHOLD = 10_000
"""Allocations between young-generation collections while a tick runs (Python's default is 700)."""

class Entity(int):
    """A creature's entity in one world.

    Esper's id (an ``int`` in every way) that also knows which world it belongs to, so handing it to another ``Sandbox``
    is an error rather than a silent mix-up with that world's creature of the same number. A world loaded from a save
    takes the entities of the world it was saved from (and of that world's own origins): they are the same creatures.

    Attributes:
        world: The unique id of the world it belongs to (``Sandbox.uid``).
    """

    world: str

    def __new__(cls, value: int, world: str) -> Entity:
        """Esper's entity ``value``, belonging to the world whose unique id is ``world``."""
        entity = super().__new__(cls, value)
        entity.world = world
        return entity


CreatureRef = int | str
"""A creature, by entity (``Entity`` or a plain ``int``) or by name."""


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect the young generation less often inside the block, then restore the caller's thresholds.

    A tick of a large battle allocates hundreds of thousands of short-lived objects (rolls, blow results,
    records) and hardly any reference cycles, so at the default threshold the collector runs hundreds of times a
    tick, re-scanning the survivors each time: about a quarter of a 10,000-creature tick (benchmarks/skirmish.py).
    The setting is process-wide, so it is only raised for the tick and put back however the tick ends.
    """
    old = gc.get_threshold()
    if old[0] >= GC_GEN0_THRESHOLD or not gc.isenabled():
        yield
        return
    gc.set_threshold(GC_GEN0_THRESHOLD, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended.

    Attributes:
        winner: The one team left able to fight, or ``None`` (all down, or the tick limit).
        ticks: Ticks run (in total, since the world began).
        survivors: Names of the creatures still alive.
        reason: ``one team left``, ``no team left`` or ``tick limit``.
    """

    winner: str | None
    ticks: int
    survivors: tuple[str, ...]
    reason: str


def verdict(teams: Sequence[str]) -> tuple[str | None, str]:
    """``(winner, reason)`` of a run that stopped with ``teams`` still able to fight."""
    if len(teams) == 1:
        return teams[0], "one team left"
    return None, "no team left" if not teams else "tick limit"


class Sandbox:
    """A world of creatures that fight, tick by tick.

    Args:
        seed: Root seed; the same seed gives the same events.
        model: Damage model (``anatomy``, ``severity``, ``depth``, ``strength``, ``status``; default anatomy).
        run: Run index under the seed (``SeedSequence(seed, spawn_key=(run,))``).
        catalog: The configs to use (default: the shipped content extended by ``content``).
        check_invariants: Check the world's invariants (``sandbox.systems.invariants``) after every tick and every
            ``advance``, raising ``InvariantError`` on a breach. Default: on when the environment variable
            ``SANDBOX_INVARIANTS`` is ``1`` at construction, else off (and then it costs nothing).
        content: Content trees extending the shipped content, when no ``catalog`` is given (default: none; the
            ``SANDBOX_CONTENT`` variable is the command line's default, never read here).

    Raises:
        SandboxError: Unknown model.
        ConfigError: The content or the model's tables are invalid (every problem listed).
    """

    engine_name = "esper"
    log_note = ""
    """Nothing is left out of its log: every attack of every creature."""

    def __init__(self, seed: int = 0, model: str | None = None, *, run: int = 0,
                 catalog: Catalog | None = None, check_invariants: bool | None = None,
                 content: Sequence[str | Path] = ()) -> None:
        from sandbox.models import available_models, build_model

        model = model or DEFAULT_MODEL
        if model not in available_models():
            raise SandboxError(f"unknown damage model {model!r}; known: {', '.join(available_models())}")
        self.seed = seed
        self.run_index = run
        self.model = model
        self.catalog = catalog or default_catalog(content)
        self.scenario: ScenarioDef | None = None
        self.care = CarePolicy()
        """Who tends the wounded out of combat (``advance``); a scenario sets its own."""
        self.max_ticks = 200
        if check_invariants is None:
            check_invariants = os.environ.get("SANDBOX_INVARIANTS", "") == "1"
        self.check_invariants = check_invariants
        self._world = self._esper_world()
        self.uid = uuid.uuid4().hex
        """This world's unique id (what its ``Entity`` handles carry; a save keeps it for the loaded world)."""
        self.lineage: tuple[str, ...] = (self.uid,)
        """The ids of this world and of the worlds it was loaded from (their entities are this world's)."""
        self._closed = False
        self._names: dict[str, int] = {}
        self._expanded: list[Event] = []
        self._expanded_upto = 0
        self._tracker: object = None
        self._readout_cache = ReadoutCache()
        self._rested = False  # time passed out of combat since the last tick (``advance``)
        self.damage_model: DamageModel = build_model(model, self.catalog)
        self.ctx = context_for(self.damage_model, self.catalog, seed=seed, run=run, world=self._world)
        with self._active():
            self._claim_world()
            for phase_, processors in itertools.groupby(processors_for(self.ctx), key=lambda pair: pair[0]):
                for order, (_, processor) in enumerate(processors):
                    esper.add_processor(processor, priority(phase_, order))

    # ------------------------------------------------------------------ world switching and lifetime

    @contextmanager
    def active(self) -> Iterator[None]:
        """Make this Sandbox's esper world the current one inside the block (for reading components by hand)."""
        self._readouts_changed()  # the block may change any creature by hand
        try:
            with self._active():
                yield
        finally:
            self._readouts_changed()

    @contextmanager
    def _active(self) -> Iterator[None]:
        if self._closed:
            raise SandboxError("this Sandbox is closed")
        previous = esper.current_world
        esper.switch_world(self._world)
        try:
            yield
            if self.ctx.stream.subscribed:
                self.ctx.stream.flush()  # a moment: deliver what the call logged (sandbox.systems.stream)
        finally:
            esper.switch_world(previous)

    def close(self) -> None:
        """Delete the world (its entities and processors). The Sandbox cannot be used afterwards."""
        if self._closed:
            return
        if esper.current_world == self._world:
            esper.switch_world("default")
        esper.delete_world(self._world)
        self._closed = True

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __del__(self) -> None:
        # BaseException too: a Ctrl-C or SIGTERM landing while a finalizer runs cannot stop anything from here. One
        # landing before the suppress is raised again in ordinary code by sandbox.interrupts (the CLI's commands).
        if getattr(self, "_closed", True):
            return  # closed already (the CLI closes its world before its last line): nothing a signal could cut
        with suppress(BaseException):
            self.close()

    # ------------------------------------------------------------------ building a world

    @classmethod
    def from_scenario(cls, scenario: str | Path | ScenarioRef, seed: int = 0, model: str | None = None, *,
                      run: int = 0, catalog: Catalog | None = None, check_invariants: bool | None = None,
                      content: Sequence[str | Path] = ()) -> Sandbox:
        """Build a world from a scenario.

        The same scenario on another engine: ``sandbox.engines.open_world(scenario, engine)``.

        Args:
            scenario: An id (``duel``, or one of ``content``'s), a path to a scenario TOML file (one inside a content
                tree brings its tree), or a ``ScenarioRef`` resolved already (it carries its content).
            seed: Root seed; the same seed gives the same events.
            model: Damage model (default: the scenario's).
            run: Run index under the seed (``SeedSequence(seed, spawn_key=(run,))``).
            catalog: The configs to use (default: the shipped content extended by the scenario's content: ``content``
                and the tree its file lies in).
            check_invariants: Check the world's invariants after every tick and every ``advance``, as ``Sandbox``
                does (default: on when the environment variable ``SANDBOX_INVARIANTS`` is ``1``).
            content: Content trees extending the shipped content, when no ``catalog`` is given.

        Raises:
            ConfigError: The scenario file is invalid (every problem listed) or unknown.
            SandboxError: Unknown model, or a combatant the world cannot spawn.
        """
        catalog, spec = resolve_scenario(scenario, catalog, content)
        return cls.from_spec(spec, seed, model, run=run, catalog=catalog, check_invariants=check_invariants)

    @classmethod
    def from_spec(cls, spec: ScenarioDef, seed: int = 0, model: str | None = None, *, run: int = 0,
                  catalog: Catalog | None = None, check_invariants: bool | None = None) -> Sandbox:
        """Build a world from an already loaded scenario.

        This is what ``from_scenario`` does after reading the file; the lab keeps one parsed scenario per worker
        process.

        Raises:
            SandboxError: Unknown model, or a combatant the world cannot spawn.
        """
        catalog = catalog or default_catalog()
        world = cls(seed, model or spec.model, run=run, catalog=catalog, check_invariants=check_invariants)
        world.scenario = spec
        world.care = spec.care
        world.max_ticks = spec.max_ticks
        for c in spec.combatants:
            world.spawn(c.creature, name=c.name, team=c.team, position=c.position, armor=c.armor,
                        weapons=c.weapons, attributes=c.attributes, skills=c.skills, policy=c.policy, aim=c.aim,
                        initiative=c.initiative, speed=c.speed, immobilized=c.immobilized, items=c.items)
        return world

    def spawn(self, creature: str, name: str | None = None, team: str = "", position: Sequence[float] = (0.0, 0.0),
              armor: Sequence[str] | None = None, weapons: Sequence[str] | None = None,
              attributes: Mapping[str, int] | None = None, *, skills: Mapping[str, int] | None = None,
              policy: str = "nearest", aim: str = "unaimed", initiative: int | None = None,
              speed: float | None = None, immobilized: Sequence[str] = (),
              items: Sequence[str] | None = None) -> Entity:
        """Add a creature from its config and return its entity.

        Args:
            creature: Creature config id (``human``).
            name: Unique name (default: the creature's name and a number).
            team: Team (default: the name: every creature for itself).
            position: (x, y) in metres.
            armor: Armour ids worn (default: the creature's own).
            weapons: Weapon ids carried (default: the creature's own); the first that is not a shield is taken in
                hand, and each shield in a free hand.
            attributes: Attribute score overrides.
            skills: Skill ML overrides.
            policy: Target policy (nearest, weakest, random), or ``external``: the game drives it (``submit``).
            aim: Aim policy: unaimed, random, or the name of a part or location (aimed at where the target has
                one; unaimed against a body that has none).
            initiative: Turn order (default: its Agility ML).
            speed: Walking speed in metres per tick (default: the creature's).
            immobilized: Parts held fast from the start.
            items: Item ids carried (``configs/items/``; default: the creature's own; repeat an id for several).

        Raises:
            SandboxError: Unknown creature, weapon, armour, item, part, aim or policy, an item the world's damage
                model has no use for, or a name already taken.
        """
        kind = self.catalog.creatures.get(creature)
        if name is None:
            name = f"{kind.name if kind else creature} {len(self._names) + 1}"
        if name in self._names:
            raise SandboxError(f"a creature called {name!r} already exists")
        try:
            components = creature_components(
                self.catalog, self.damage_model, creature, name, team=team, position=position, armor=armor,
                weapons=weapons, attributes=attributes, skills=skills, policy=policy, aim=aim, initiative=initiative,
                speed=speed, immobilized=immobilized, items=items)
        except SpawnError as exc:
            raise SandboxError(str(exc)) from None
        with self._active():
            entity = esper.create_entity(*components)
        self._names[name] = entity
        return Entity(entity, self.uid)

    def adopt(self, *components: object) -> Entity:
        """Create an entity from a full set of creature components (what ``load`` restores); returns it.

        Raises:
            SandboxError: The name is taken, or the components are not a creature's under this model.
        """
        ident = components[0] if components else None
        expected = 7 + len(self.damage_model.state_types())
        if not isinstance(ident, Identity) or len(components) != expected:
            raise SandboxError(f"adopt takes the {expected} creature components, Identity first, then the model's")
        if ident.name in self._names:
            raise SandboxError(f"a creature called {ident.name!r} already exists")
        with self._active():
            entity = esper.create_entity(*components)
        self._names[ident.name] = entity
        return Entity(entity, self.uid)

    # ------------------------------------------------------------------ finding creatures

    def entity(self, name: str) -> Entity:
        """The entity of the creature called ``name``; raises ``SandboxError`` naming the known ones."""
        try:
            return Entity(self._names[name], self.uid)
        except KeyError:
            raise SandboxError(f"no creature called {name!r}; known: {', '.join(self._names) or 'none'}") from None

    def name_of(self, entity: int) -> str:
        """The name of ``entity``."""
        return self._creature(entity).name

    @property
    def names(self) -> dict[int, str]:
        """Entity -> name, for every creature."""
        return {e: n for n, e in self._names.items()}

    def creatures(self) -> dict[int, Creature]:
        """Every creature's record, by entity in ascending order (read them; change them through methods)."""
        with self._active():
            return dict(self.ctx.creatures())

    def _creature(self, ref: CreatureRef) -> Creature:
        if isinstance(ref, Entity) and ref.world not in self.lineage:
            raise SandboxError(f"entity {int(ref)} belongs to another world, not this one")
        entity = self.entity(ref) if isinstance(ref, str) else ref
        with self._active():
            found = self.ctx.roster.get(entity) if isinstance(entity, int) and not isinstance(entity, bool) else None
        if found is None:
            raise SandboxError(f"no creature with entity {ref!r} in this world; its creatures: "
                               f"{', '.join(f'{e} {n}' for e, n in self.names.items()) or 'none'}")
        return found

    def get(self, creature: CreatureRef, component: type[C]) -> C:
        """The creature's component of type ``component`` (``world.get("Aldric", Injury)``).

        Raises:
            SandboxError: No such creature, or it has no component of that type (a model's state under another
                model).
        """
        c = self._creature(creature)
        self._readouts_changed(c.entity)  # a live component: the caller may change it
        with self._active():
            found = esper.try_component(c.entity, component)
        if found is None:
            raise SandboxError(f"{c.name} has no {component.__name__} component under the {self.model} model")
        return found

    # ------------------------------------------------------------------ running

    @property
    def tick(self) -> int:
        """Ticks run so far."""
        return self.ctx.clock.tick

    @property
    def time(self) -> float:
        """Game time in seconds (the clock's: ticks and ``advance``)."""
        return self.ctx.clock.time

    def _tick(self) -> None:
        # No blanket forgetting here: the readout cache reads what the tick logged and the clock it moved. Only the
        # first tick after time passed out of combat forgets all: it ends rests and tending without a log entry.
        if self._rested:
            self._rested = False
            self._readouts_changed()
        with self._active(), _fewer_collections():
            esper.process()
            if self.check_invariants:
                self._check()

    def _check(self) -> None:
        """Raise ``InvariantError`` listing every invariant the world breaks now (``sandbox.systems.invariants``)."""
        from sandbox.systems.invariants import InvariantError, Tracker, check

        if not isinstance(self._tracker, Tracker):
            self._tracker = Tracker()
        breaches = check(self.ctx.creatures(), self.ctx, self._tracker)
        if breaches:
            raise InvariantError(breaches, self.tick)

    def step(self) -> list[Event]:
        """Run one tick; returns that tick's events."""
        start = len(self.ctx.log)
        self._tick()
        return list(expand_log(self.ctx.log[start:]))

    def able_teams(self) -> list[str]:
        """Teams with a creature still able to fight (acting, and with some way to strike), as the world is now."""
        with self._active():
            return fighting_teams(self.ctx.creatures().values())

    def run(self, max_ticks: int | None = None) -> Outcome:
        """Run until one team (or none) is left able to fight, or ``max_ticks`` more ticks have run.

        Args:
            max_ticks: Tick limit for this call (default: the scenario's, or 200).
        """
        limit = max_ticks if max_ticks is not None else self.max_ticks
        teams = self.able_teams()
        ran = 0
        while len(teams) > 1 and ran < limit:
            self._tick()
            ran += 1
            tick = self.ctx.tick
            # The STATUS phase has just counted the teams; nothing has touched the world since.
            teams = list(tick.fighting_teams) if tick is not None and tick.fighting_teams is not None \
                else self.able_teams()
        winner, reason = verdict(teams)
        survivors = tuple(c.name for c in self.creatures().values() if not c.condition.dead)
        return Outcome(winner, self.tick, survivors, reason)

    @property
    def events(self) -> list[Event]:
        """The whole event log, typed, in order."""
        log = self.ctx.log
        if self._expanded_upto < len(log):
            self._expanded.extend(expand_log(log[self._expanded_upto:]))
            self._expanded_upto = len(log)
        return self._expanded

    @property
    def log(self) -> list[LogEntry]:
        """The raw log: typed events and the models' attack records.

        Each entry explains itself (``sandbox.components.log.LogEntry``).
        """
        return self.ctx.log

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0, hours: float = 0.0,
                days: float = 0.0) -> list[Event]:
        """Move game time on out of combat, running every rule of the world's damage model as it falls due.

        Its rules include bleeding, re-tests, first aid and treatment, rest and healing. Time jumps from due check to
        due check. Returns the events of the span.

        Raises:
            SandboxError: A negative span.
        """
        span = seconds + minutes * 60.0 + hours * 3600.0 + days * 86400.0
        if span < 0:
            raise SandboxError("time only moves forward")
        start = len(self.ctx.log)
        self._readouts_changed()
        self._rested = True
        with self._active():
            self.damage_model.advance(self.ctx, span, self.care)
            if self.check_invariants:
                self._check()
        return list(expand_log(self.ctx.log[start:]))

    def aftermath_report(self, since: float = 0.0) -> list[AftermathRow]:
        """How every creature came through the time since game time ``since`` (seconds).

        Died (of what, which day) or survived, days until every wound healed, permanent impairment, health and state
        now.
        """
        from sandbox.components.events import Died

        deaths = {e.entity: e.time for e in self.events if isinstance(e, Died)}
        with self._active():
            return [self.damage_model.aftermath_row(c, self.ctx, since, deaths.get(e))
                    for e, c in self.ctx.creatures().items()]

    # ------------------------------------------------------------------ reading and poking creatures

    def readout(self, creature: CreatureRef) -> Readout:
        """What the creature's state reads as under the world's damage model (its wounds in names).

        Kept until the world changes (a tick, a strike, an inflicted wound, ``advance``, a hand edit through ``get``,
        ``active`` or ``refresh``), so a HUD may ask every frame; the same readout is returned while nothing changed.
        A component kept from an earlier ``get`` or ``creatures()`` and edited later needs ``refresh``.
        """
        return self._cached_readout(creature)

    def standing(self, creature: CreatureRef) -> Standing:
        """The creature in brief.

        Who it is and its ``readout``'s alive, can act and label (what a lab records of it at the end of a run, without
        the readout's wounds and parts).
        """
        c = self._creature(creature)
        with self._active():
            alive, can_act, label = self.damage_model.standing(c, self.ctx)
        cond = c.condition
        return Standing(c.name, c.identity.creature, c.team, c.anatomy.body.id, alive, can_act, label, cond.dead,
                        (cond.cause or "died") if cond.dead else "")

    def strike(self, target: CreatureRef, mode: str, aim: str = "unaimed",
               attacker: CreatureRef | None = None) -> list[Event]:
        """Strike ``target`` with a real blow, through the damage model's whole procedure, and apply it.

        Under the anatomy model: hit location, protection, level, glancing, compounding, bleeding, amputation,
        shock and mishaps; under a point model, its own procedure. With an ``attacker``, that creature's attack
        as the fight would make it (its skill, Strength and attack roll: it may miss); without one, the blow lands
        and the mode's own dice decide it. Draws from the world's own streams, so a saved world that strikes
        continues identically after load.

        Args:
            target: Who is struck.
            mode: The strike mode, ``weapon.mode`` (``battleaxe.cut``).
            aim: ``unaimed``, or a part (or location) of the target's body.
            attacker: Who strikes, or ``None``.

        Returns:
            The events it caused.

        Raises:
            SandboxError: Unknown creature, mode or aim (nothing changes).
            ActionRefused: With an ``attacker``, a strike the rules would not allow it now (nothing changes): out of
                reach or range, a weapon not in hand, a mode of another creature's weapon or body, an attacker that
                cannot act (dead, down, stunned out of its turn, prone while it can stand, empty-handed while it can
                take up a weapon), a target that is dead, on its own team, or that no blow can reach (a spirit).
        """
        victim = self._creature(target)
        striker = self._creature(attacker) if attacker is not None else None
        strike_mode = self.catalog.modes.get(mode)
        if strike_mode is None:
            raise SandboxError(f"unknown strike mode {mode!r}; known: {', '.join(sorted(self.catalog.modes))}")
        body = victim.anatomy.body
        try:
            called_target(body, aim)
        except ValueError as exc:
            raise SandboxError(f"{victim.name}'s body: {exc}") from None
        if striker is not None:
            self._refuse_strike(striker, victim, strike_mode, aim)
        start = len(self.ctx.log)
        self._readouts_changed()
        try:
            with self._active():
                self.damage_model.strike(victim, strike_mode, aim, self.ctx, striker)
        except ModelError as exc:
            raise SandboxError(str(exc)) from None
        return list(expand_log(self.ctx.log[start:]))

    def inflict(self, creature: CreatureRef, location: str | None = None, level: int | str | None = None,
                aspect: str | None = None, **options: object) -> list[Event]:
        """Apply damage directly (scenario set-up and tests), as the world's damage model applies a landed blow.

        The anatomy model records a wound (``location=`` "Right Forearm", ``level=`` 1..5 or "S3", ``aspect=``
        "edged"; default blunt) with no shock or bleeding roll; the point-based models take ``damage=N`` (after
        armour) and their own options (strength: ``enhanced=``, ``impaired=``; depth: ``level=`` a depth ...).

        Returns:
            The events it caused.

        Raises:
            SandboxError: The request does not fit the model (an unknown location, a missing damage ...).
        """
        c = self._creature(creature)
        for key, value in (("location", location), ("level", level), ("aspect", aspect)):
            if value is not None:
                options[key] = value
        start = len(self.ctx.log)
        self._readouts_changed()
        try:
            with self._active():
                self.damage_model.inflict(c, self.ctx, **options)
        except ModelError as exc:
            raise SandboxError(str(exc)) from None
        return list(expand_log(self.ctx.log[start:]))

    def immobilize(self, creature: CreatureRef, part: str) -> None:
        """Hold a part fast (a net, a grapple, a binding): it keeps its grip but cannot strike or parry."""
        c = self._creature(creature)
        c.condition.immobilized.add(self._part(c, part))
        self._readouts_changed()

    def free(self, creature: CreatureRef, part: str) -> None:
        """Remove the Immobilized condition from a part: it is free again on the spot."""
        c = self._creature(creature)
        c.condition.immobilized.discard(self._part(c, part))
        self._readouts_changed()

    @staticmethod
    def _part(c: Creature, part: str) -> int:
        body = c.anatomy.body
        try:
            return body.part_index(part)
        except KeyError:
            raise SandboxError(f"{body.name} has no part {part!r}; its parts: "
                               f"{', '.join(p.name for p in body.parts)}") from None

    def refresh(self, creature: CreatureRef) -> None:
        """Recompute what the damage model derives from a creature's state now.

        For use after editing its components by hand. Under the anatomy model, what it derives is impairment and health.
        """
        c = self._creature(creature)
        self._readouts_changed()
        with self._active():
            self.damage_model.settle(c, self.ctx)

    # ------------------------------------------------------------------ persistence

    def freeze(self) -> FrozenSandbox:
        """The world as it is now, as a save holds it, to make copies from (``FrozenSandbox.copy``).

        Its document as text, without the log: a restore reads exactly what a load reads. The viewer's snapshots are
        these.
        """
        from sandbox.persistence import FrozenSandbox

        return FrozenSandbox.of(self)

    def copy(self, log: Sequence[LogEntry] | None = None) -> Sandbox:
        """An independent copy of the world as it is now, with its scenario and invariant checks.

        Made through its save document: entities, clock, streams, care. Its log is ``log`` (the entries themselves
        shared; default: this world's log). Ticking the copy gives exactly the events ticking this world gives (saves
        are bit-exact); the copy takes this world's entities (it is loaded from it).
        """
        return self.freeze().copy(self.log if log is None else log)

    def save(self, path: str | Path, hook: SaveHook | None = None) -> None:
        """Write the whole world (entities, components, clock, generator states, log) as versioned JSON, atomically.

        Entities of the esper world that are no creature (a game's loot chest) keep their ids: the save records them
        as reserved, and a load recreates them empty at the same ids. ``hook.dump()`` (``sandbox.saves.SaveHook``) is
        the game's own part, kept under the save's ``game`` key.

        Raises:
            GameDataError: ``hook.dump()`` gave something JSON cannot hold (nothing is written).
        """
        from sandbox.persistence import save_world

        save_world(self, Path(path), hook)

    @classmethod
    def load(cls, path: str | Path, catalog: Catalog | None = None, content: Sequence[str | Path] = (),
             hook: SaveHook | None = None) -> Sandbox:
        """Restore a world saved by ``save``, over ``catalog``.

        ``catalog`` defaults to the shipped content extended by ``content``, the trees it was made with. The reserved
        entities exist again (empty, at their ids; a spawn never reuses them); ``hook.restore(data)`` is then called
        with the world current and the save's ``game`` part (``None`` when it has none), to put the game's components
        back (whatever it raises closes the loaded world and goes on to the caller).

        Raises:
            SaveError: A corrupt, truncated or wrong-version file (nothing is half-loaded).
        """
        from sandbox.persistence import load_world

        return load_world(Path(path), catalog or default_catalog(content), cls, hook)

    # ------------------------------------------------------------------ issue 32: worlds held, fork, creature JSON

    def _esper_world(self) -> str:
        """The name of the esper world this Sandbox runs in (a fresh private one; ``OwnWorld`` names the game's)."""
        return f"sandbox-{next(_world_ids)}"

    def _claim_world(self) -> None:
        """Prepare the esper world, current, before the systems are registered (a private world starts empty)."""
        esper.clear_database()

    @property
    def esper_world(self) -> str:
        """The name of the esper world this Sandbox is bound to (every call switches to it as needed)."""
        return self._world

    def fork(self) -> Sandbox:
        """A cheap independent copy for "what if" previews: ticked as often as this world, it gives the same events.

        The copy (``copy``) is a new private world with this world's creatures, clock, streams, care, scenario and
        log (the entries shared); entities that are no creature are reserved in it, empty. Change either freely.

        Raises:
            ClosedWorldError: This world is closed.
        """
        from sandbox.saves import ClosedWorldError

        if self._closed:
            raise ClosedWorldError("cannot fork a closed world (fork it before closing it)")
        return self.copy()

    def creature_to_json(self, creature: CreatureRef) -> dict[str, object]:
        """One creature as JSON-ready data: its traits, wounds and conditions (the model's state), gear and policies.

        What ``add_creature`` of another world under the same model and content takes (a hero carried to the next
        level). Its current target is left out (an entity of this world only).
        """
        from sandbox.creature_json import creature_document

        return creature_document(self, self._creature(creature))

    def add_creature(self, data: Mapping[str, object], *, name: str | None = None, team: str | None = None,
                     position: Sequence[float] | None = None) -> Entity:
        """Add a creature from ``creature_to_json`` data, with its wounds, conditions and gear; returns its entity.

        Its game times move from the clock the data records to this world's, so what was due an hour after the
        carry (a bleeding round, a death clock) is due an hour after it here.

        Args:
            data: What ``creature_to_json`` gave (of a world under this model and content).
            name: Its name here (default: the one it had).
            team: Its team here (default: the one it had).
            position: Where it stands here (default: where it stood).

        Raises:
            CreatureDataError: Data of another model or content (an unknown creature, body, weapon or armour id),
                tampered (a bad type, a value out of range), without its clock, or a name already taken; the world
                is unchanged.
        """
        from sandbox.creature_json import add_creature

        return add_creature(self, data, name=name, team=team, position=position)

    # ------------------------------------------------------------------ outcome preview (issue 32)

    def preview(self, attacker: CreatureRef | None, target: CreatureRef, mode: str,
                aim: str = "unaimed") -> OutcomePreview:
        """The exact odds of ``strike(target, mode, aim, attacker=attacker)`` against ``target`` as it is now.

        To land, per location, per outcome level in the model's own terms, to sever, to kill and to leave it unable
        to act, every roll summed over its faces (``DamageModel.preview``), under any of the five models. Nothing
        changes: no stream is drawn from, so the next strike is the one the world would have made anyway.

        Args:
            attacker: Who would strike, or ``None`` (a blow that lands, as ``strike`` without an attacker).
            target: Who would be struck.
            mode: The strike mode, ``weapon.mode`` (``battleaxe.cut``).
            aim: ``unaimed``, or a part (or location) of the target's body.

        Raises:
            PreviewError: An unknown creature, mode or aim, a dead attacker or target, or a mode the model has no
                numbers for (a ``SandboxError``; nothing changes).
        """
        from sandbox.preview import PreviewError, preview_of

        try:
            victim = self._creature(target)
            striker = self._creature(attacker) if attacker is not None else None
        except SandboxError as exc:
            raise PreviewError(str(exc)) from None
        with self._active():
            return preview_of(self.damage_model, self.ctx, self.catalog.modes, victim, mode, aim, striker)

    # ------------------------------------------------------------------ readouts kept between changes (issue 32)

    def _readouts_changed(self, entity: int | None = None) -> None:
        """Forget the kept readouts (``entity``'s only, when given): something they read may have changed.

        Every method that changes a creature without a log entry or a clock move calls it (the others call it too,
        which costs nothing and keeps the rule simple); ``sandbox.systems.readout_cache`` says what else is checked.
        """
        self._readout_cache.changed(entity)

    def _entity_or_none(self, creature: CreatureRef) -> int | None:
        """The entity ``creature`` names in this world, found the cheap way (no world switch), or ``None``.

        ``None`` for an unknown name, another world's entity or a bool: the full lookup (``_creature``) then raises,
        naming it. What a HUD or a game asks every frame takes this path.
        """
        if isinstance(creature, str):
            return self._names.get(creature)
        if isinstance(creature, Entity):
            return creature if creature.world in self.lineage else None
        return creature if type(creature) is int else None

    def _cached_readout(self, creature: CreatureRef) -> Readout:
        """``readout``: the kept readout while the world's version is unchanged, else a fresh one, then kept."""
        if self._closed:
            raise SandboxError("this Sandbox is closed")
        cache = self._readout_cache
        entity = self._entity_or_none(creature)
        if entity is None:  # an unknown name, another world's entity, a bool: the full lookup raises, naming it
            self._creature(creature)
        assert entity is not None
        clock = self.ctx.clock
        kept = cache.get(entity, (len(self.ctx.log), clock.tick, clock.seconds, cache.changes), self.ctx.log,
                         self.damage_model.readout_counts_down)
        if kept is not None:
            return kept
        with self._active():  # one switch for the lookup and the reading (a HUD's first frame after a tick)
            c = self.ctx.roster.get(entity)
            if c is None:
                self._creature(creature)  # raises: no such creature
            assert c is not None
            reading = self.damage_model.readout(c, self.ctx)
        cache.put(entity, reading)
        return reading

    # ------------------------------------------------------------------ events as a stream (issue 32)

    def on(self, kind: type[E], handler: Callable[[E], object]) -> Subscription[E]:
        """Call ``handler`` with every event of type ``kind`` (or of a subclass) as it happens, in log order.

        Handlers run inside ``step``, ``run``, ``strike``, ``inflict``, ``advance`` and ``spawn``: at the end of each
        tick, and when such a call returns, with the world as it left it; in exactly the order of ``events``. Beside
        the logged events, ``WentDown`` and ``GotUp`` (a living creature can no longer act, or can again, under any
        model) are sent to whoever subscribes to them (or to ``Lifecycle`` or ``Event``) and never logged; ``Died`` is
        logged. A handler that raises does not stop the others; its exception propagates after the moment's events
        have all been delivered, with the world consistent. See ``sandbox.systems.stream``.

        Args:
            kind: The event type (``Died``, ``BlowLanded``, ``Lifecycle``, ``Event`` for everything).
            handler: Called with each event (what it returns is ignored).

        Returns:
            The subscription (``cancel()`` it, or use it as a context manager).

        Raises:
            SubscriptionError: ``kind`` is not an event type, or ``handler`` is not callable (nothing subscribed).
        """
        with self._active():
            return self.ctx.stream.on(kind, handler)

    def explain(self, event: Event) -> list[str]:
        """The lines the viewer's "attack explained" shows for the attack ``event`` is a step of.

        For a landed blow's ``BlowLanded``, ``Injured`` or ``DamageDealt`` (or any step of an attack, under every model,
        from ``events``, ``step`` or a handler): the attack step by step, then what followed it that tick. An event
        that is no step of an attack (a death, a bleeding round, ``WentDown``) gives its own sentence.

        Raises:
            SandboxError: ``event`` is not an event.
        """
        from sandbox.systems.explained import explain_event

        if not isinstance(event, Event):
            raise SandboxError(f"explain() takes an event (sandbox.components.events.Event), not {event!r}")
        return explain_event(self.ctx.log, event, self.names, self.ctx.stream.source_of(event))

    # ------------------------------------------------------------------ actions: what a creature can do now, and a
    # creature the game drives (sandbox.systems.actions, .options, .external)

    def _refuse_strike(self, striker: Creature, victim: Creature, mode: StrikeMode, aim: str) -> None:
        """Raise ``ActionRefused`` when the rules would not let ``striker`` make this strike now."""
        with self._active():
            why = strike_refusal(striker, victim, mode, aim, self.ctx)
        if why:
            raise ActionRefused(why)

    def options(self, creature: CreatureRef) -> list[Action]:
        """Every action the rules allow the creature this tick, as the loop would carry it out.

        Each ``Strike`` of every mode it can wield now at every enemy within that mode's reach or range, with every
        aim at it; an ``Approach`` of each enemy out of reach, with each mode; a ``Move`` toward each other creature
        (and ``Move(to=(x, y))`` to any point is allowed with them); ``StandUp`` (prone: nothing else), ``PickUp``
        and ``Draw`` (empty-handed with a weapon to take up: nothing else); the damage model's own turns
        (``FirstAid``, ``UseItem``); ``Wait``. None for a creature dead or down; only ``Wait`` for one that loses
        its turn. Creatures are entities. See ``sandbox.systems.options`` for the rules and the order.

        Raises:
            SandboxError: No such creature.
        """
        entity = self._entity_or_none(creature)
        with self._active():  # one switch for the lookup and the options (a game asks every tick)
            c = self.ctx.roster.get(entity) if entity is not None else None
            if c is None:
                c = self._creature(creature)  # raises, naming what is wrong
            return options_for(c, self.ctx)

    def submit(self, creature: CreatureRef, action: Action) -> None:
        """Give a creature the game drives (spawned with ``policy="external"``) its action for the next tick.

        The action is taken in the tick, in the creature's place in the initiative order, through the same phases as
        the AI's (``sandbox.systems.external``); a creature with nothing submitted waits. One action per creature per
        tick. Creatures in the action may be given by name or entity; an aim is matched case-insensitively. A
        submitted action is not saved (a loaded world's creatures wait until the game submits again).

        Raises:
            UnknownAction: Not one of the action types (``sandbox.systems.actions.ACTION_TYPES``).
            NotExternal: The creature is not under external control.
            AlreadySubmitted: It has an action for the next tick already.
            ActionRefused: The rules do not allow it now (it is not among ``options``; the message says why).
            SandboxError: No such creature (the actor, or one the action names).
        """
        c = self._creature(creature)
        if not isinstance(action, ACTION_TYPES):
            raise UnknownAction(f"{action!r} is not an action; the actions: "
                                f"{', '.join(t.__name__ for t in ACTION_TYPES)} (sandbox.systems.actions)")
        if c.combatant.policy != EXTERNAL:
            raise NotExternal(f"{c.name} is not under external control (its policy is {c.combatant.policy!r}): "
                              f"spawn it with policy={EXTERNAL!r} to drive it")
        pending = self.ctx.submitted.get(c.entity)
        if pending is not None:
            raise AlreadySubmitted(f"{c.name} has an action for tick {self.tick + 1} already: {pending!r}")
        resolved = self._resolved(action)
        with self._active():
            why = refusal(c, resolved, self.ctx)
        if why:
            raise ActionRefused(why)
        self.ctx.submitted[c.entity] = resolved

    def submitted(self, creature: CreatureRef) -> Action | None:
        """The action submitted for the creature's next tick, or ``None``."""
        return self.ctx.submitted.get(self._creature(creature).entity)

    def _resolved(self, action: Action) -> Action:
        """``action`` with the creatures it names as entities, a point as floats and an aim spelled as the body does."""
        if isinstance(action, Strike):
            foe = self._creature(action.target)
            aim = canonical_aim(foe.anatomy.body, action.aim) if isinstance(action.aim, str) else None
            return replace(action, target=foe.entity, aim=aim or action.aim)
        if isinstance(action, Approach):
            return replace(action, target=self._creature(action.target).entity)
        if isinstance(action, FirstAid | UseItem | ModelTurn):
            return replace(action, patient=self._creature(action.patient).entity)
        if isinstance(action, Move):
            if action.toward is not None:
                return replace(action, toward=self._creature(action.toward).entity)
            if isinstance(action.to, Sequence) and not isinstance(action.to, str) and len(action.to) == 2 \
                    and all(isinstance(v, int | float) and not isinstance(v, bool) for v in action.to):
                return replace(action, to=(float(action.to[0]), float(action.to[1])))
        return action
