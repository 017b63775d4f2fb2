"""``Sandbox``: one esper world of fighting creatures, ticked headless and deterministically from a seed.

Each Sandbox owns a named esper world and switches to it around its own calls (esper's state is module-global),
so two Sandboxes in one process never see each other's entities. Never share one between threads.
"""

from __future__ import annotations

import gc
import itertools
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import esper

from components.events import Event
from components.readout import Readout
from components.state import Anatomy, Armor, Combatant, Condition, Equipment, Identity, Position, Shock
from components.wounds import Wounds
from sandbox.config import Catalog, default_catalog
from sandbox.config.scenarios import load_scenario as load_scenario  # its old home: `from sandbox.world import ...`
from sandbox.config.scenarios import resolve_scenario
from sandbox.eventlog import expand_log
from sandbox.scenario_def import CarePolicy, ScenarioDef
from sandbox.streams import make_streams
from systems.ai import IntentProcessor, grip_parts_for
from systems.combat import AttackProcessor
from systems.context import Clock, TickContext
from systems.creatures import Parts, ensure_status, query_creatures
from systems.damage import refresh_status
from systems.movement import MoveProcessor
from systems.phases import Phase, priority
from systems.status import CleanupProcessor, ClockProcessor, StatusProcessor, fighting_teams

_world_ids = itertools.count(1)

GC_GEN0_THRESHOLD = 10_000
"""Allocations between young-generation collections while a tick runs (Python's default is 700)."""


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


class SandboxError(ValueError):
    """A request the world cannot honour: an unknown creature, name, location or model."""


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


def processors_for(ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
    """The processors of a world by phase, in registration order: the shared skirmish loop and the damage model's
    own (the anatomy model's when ``ctx.model`` is unset). An embedding game registers the same list."""
    model = ctx.model
    if model is None:
        from systems.models.anatomy import AnatomyModel

        model = AnatomyModel()
    shared = [
        (Phase.INTENT, ClockProcessor(ctx)),
        (Phase.INTENT, IntentProcessor(ctx)),
        (Phase.MOVE, MoveProcessor(ctx)),
        (Phase.ATTACK, AttackProcessor(ctx)),
        (Phase.STATUS, StatusProcessor(ctx)),
        (Phase.CLEANUP, CleanupProcessor(ctx)),
    ]
    # Stable sort by phase: the shared processors come first within a phase, then the model's.
    return sorted(shared + model.processors(ctx), key=lambda pair: pair[0])


class Sandbox:
    """A world of creatures that fight, tick by tick.

    Args:
        seed: Root seed; the same seed gives the same events.
        model: Damage model (``anatomy``).
        run: Run index under the seed (``SeedSequence(seed, spawn_key=(run,))``).
        catalog: The configs to use (default: the shipped content extended by ``content``).
        check_invariants: Check the world's invariants (``systems.invariants``) after every tick and every
            ``advance``, raising ``InvariantError`` on a breach. Default: on when the environment variable
            ``SANDBOX_INVARIANTS`` is ``1`` at construction, else off (and then it costs nothing).
        content: Content trees extending the shipped content, when no ``catalog`` is given (default: those of
            ``SANDBOX_CONTENT``).

    Raises:
        SandboxError: Unknown model.
        ConfigError: The content is invalid (every problem listed).
    """

    def __init__(self, seed: int = 0, model: str = "anatomy", *, run: int = 0,
                 catalog: Catalog | None = None, check_invariants: bool | None = None,
                 content: Sequence[str | Path] | None = None) -> None:
        from sandbox.models import available_models, build_model

        if model not in available_models():
            raise SandboxError(f"unknown damage model {model!r}; known: {', '.join(available_models())}")
        self.seed = seed
        self.run_index = run
        self.model = model
        self.catalog = catalog or default_catalog(None if content is None else [Path(c) for c in content])
        self.scenario: ScenarioDef | None = None
        self.care = CarePolicy()
        """Who tends the wounded out of combat (``advance``); a scenario sets its own."""
        self.max_ticks = 200
        if check_invariants is None:
            check_invariants = os.environ.get("SANDBOX_INVARIANTS", "") == "1"
        self.check_invariants = check_invariants
        self._world = f"sandbox-{next(_world_ids)}"
        self._closed = False
        self._names: dict[str, int] = {}
        self._expanded: list[Event] = []
        self._expanded_upto = 0
        cat = self.catalog
        self.damage_model = build_model(model, cat)
        self.ctx = TickContext(
            rules=cat.rules, combat=cat.combat, modes=cat.modes, weapons=cat.weapons, skills=cat.skills,
            streams=make_streams(seed, run), clock=Clock(0, cat.combat.tick_seconds), model=self.damage_model)
        with self._active():
            esper.clear_database()
            for phase_, processors in itertools.groupby(processors_for(self.ctx), key=lambda pair: pair[0]):
                for order, (_, processor) in enumerate(processors):
                    esper.add_processor(processor, priority(phase_, order))

    # ------------------------------------------------------------------ world switching and lifetime

    @contextmanager
    def active(self) -> Iterator[None]:
        """Make this Sandbox's esper world the current one inside the block (for reading components by hand)."""
        with self._active():
            yield

    @contextmanager
    def _active(self) -> Iterator[None]:
        if self._closed:
            raise SandboxError("this Sandbox is closed")
        previous = esper.current_world
        esper.switch_world(self._world)
        try:
            yield
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
        with suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ building a world

    @classmethod
    def from_scenario(cls, scenario: str | Path, seed: int = 0, model: str | None = None, *, run: int = 0,
                      catalog: Catalog | None = None, check_invariants: bool | None = None) -> Sandbox:
        """Build a world from a scenario: a shipped id (``duel``) or a path to a scenario TOML file.

        Raises:
            ConfigError: The scenario file is invalid (every problem listed) or unknown.
            SandboxError: Unknown model.
        """
        catalog, spec = resolve_scenario(scenario, catalog)  # a scenario file inside a content tree uses that tree
        return cls.from_spec(spec, seed, model, run=run, catalog=catalog, check_invariants=check_invariants)

    @classmethod
    def from_spec(cls, spec: ScenarioDef, seed: int = 0, model: str | None = None, *, run: int = 0,
                  catalog: Catalog | None = None, check_invariants: bool | None = None) -> Sandbox:
        """Build a world from an already loaded scenario (what ``from_scenario`` does after reading the file;
        the lab keeps one parsed scenario per worker process).

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
                        initiative=c.initiative, speed=c.speed, immobilized=c.immobilized)
        return world

    def spawn(self, creature: str, name: str | None = None, team: str = "", position: Sequence[float] = (0.0, 0.0),
              armor: Sequence[str] | None = None, weapons: Sequence[str] | None = None,
              attributes: Mapping[str, int] | None = None, *, skills: Mapping[str, int] | None = None,
              policy: str = "nearest", aim: str = "unaimed", initiative: int | None = None,
              speed: float | None = None, immobilized: Sequence[str] = ()) -> int:
        """Add a creature from its config and return its entity.

        Args:
            creature: Creature config id (``human``).
            name: Unique name (default: the creature's name and a number).
            team: Team (default: the name: every creature for itself).
            position: (x, y) in metres.
            armor: Armour ids worn (default: the creature's own).
            weapons: Weapon ids carried (default: the creature's own); the first one is taken in hand.
            attributes: Attribute score overrides.
            skills: Skill ML overrides.
            policy: Target policy (nearest, weakest, random).
            aim: Aim policy (unaimed, random, or a part name).
            initiative: Turn order (default: its Agility ML).
            speed: Walking speed in metres per tick (default: the creature's).
            immobilized: Parts held fast from the start.

        Raises:
            SandboxError: Unknown creature, weapon, armour or part, or a name already taken.
        """
        cat = self.catalog
        kind = cat.creatures.get(creature)
        if kind is None:
            raise SandboxError(f"unknown creature {creature!r}; known: {', '.join(sorted(cat.creatures))}")
        body = cat.bodies[kind.body]
        if name is None:
            name = f"{kind.name} {len(self._names) + 1}"
        if name in self._names:
            raise SandboxError(f"a creature called {name!r} already exists")
        if policy not in ("nearest", "weakest", "random"):
            raise SandboxError(f"unknown target policy {policy!r}; use nearest, weakest or random")
        carried = list(weapons if weapons is not None else [w for w in kind.weapons if not cat.weapons[w].natural])
        natural = [w for w in kind.weapons if w in cat.weapons and cat.weapons[w].natural]
        for w in carried:
            if w not in cat.weapons:
                raise SandboxError(f"unknown weapon {w!r}")
        natural += [w for w in carried if cat.weapons[w].natural and w not in natural]
        carried = [w for w in carried if not cat.weapons[w].natural]
        pieces = []
        for a in armor if armor is not None else kind.armor:
            piece = cat.armor.get(a)
            if piece is None or piece.body != body.id:
                raise SandboxError(f"armour {a!r} is unknown or not made for the {body.id!r} body")
            pieces.append(piece)
        attrs = dict(kind.attributes) | dict(attributes or {})
        mult = cat.rules.tests.attribute_ml_multiplier
        mls = {k: v * mult for k, v in attrs.items()} | dict(kind.skills) | dict(skills or {})
        held_parts = set()
        for part_name in immobilized:
            try:
                held_parts.add(body.part_index(part_name))
            except KeyError:
                raise SandboxError(f"{body.name} has no part {part_name!r}") from None
        anat = Anatomy(body, kind, mls, attrs, speed or kind.speed or cat.combat.default_speed)
        wounds = Wounds()
        cond = Condition(immobilized=held_parts)
        equip = Equipment(weapons=carried, natural=natural)
        comb = Combatant(team or name, policy, aim, initiative if initiative is not None else mls.get("agility", 0))
        with self._active():
            ensure_status(anat, wounds, self.ctx)
            if carried:
                parts = grip_parts_for(anat, wounds, cond, equip, carried[0], self.ctx)
                for p in parts or ():
                    equip.holding[p] = carried[0]
            state = self.damage_model.spawn_state(kind, attrs, pieces)
            entity = esper.create_entity(Identity(name, creature), anat, wounds, Armor(tuple(pieces)), Shock(),
                                         cond, comb, Position(float(position[0]), float(position[1])), equip,
                                         *state)
        self._names[name] = entity
        return entity

    def adopt(self, *components: Any) -> int:
        """Create an entity from a full set of creature components (what ``load`` restores); returns it.

        Raises:
            SandboxError: The name is taken.
        """
        ident = components[0]
        if not isinstance(ident, Identity) or len(components) < 9:
            raise SandboxError("adopt takes the nine creature components, Identity first, then the model's own")
        if ident.name in self._names:
            raise SandboxError(f"a creature called {ident.name!r} already exists")
        with self._active():
            ensure_status(components[1], components[2], self.ctx)
            entity = esper.create_entity(*components)
        self._names[ident.name] = entity
        return entity

    # ------------------------------------------------------------------ running

    def entity(self, name: str) -> int:
        """The entity of the creature called ``name``; raises ``SandboxError``."""
        try:
            return self._names[name]
        except KeyError:
            raise SandboxError(f"no creature called {name!r}") from None

    def name_of(self, entity: int) -> str:
        """The name of ``entity``."""
        return self._parts(entity)[0].name

    @property
    def names(self) -> dict[int, str]:
        """Entity -> name, for every creature."""
        return {e: n for n, e in self._names.items()}

    @property
    def tick(self) -> int:
        """Ticks run so far."""
        return self.ctx.clock.tick

    def _tick(self) -> None:
        with self._active(), _fewer_collections():
            esper.process()
            if self.check_invariants:
                self._check()

    def _check(self) -> None:
        """Raise ``InvariantError`` listing every invariant the world breaks now (``systems.invariants``)."""
        from systems.invariants import InvariantError, check

        breaches = check(dict(sorted(query_creatures().items())), self.ctx, self.damage_model)
        if breaches:
            raise InvariantError(breaches, self.tick)

    def step(self) -> list[Event]:
        """Run one tick; returns that tick's events."""
        start = len(self.ctx.log)
        self._tick()
        return list(expand_log(self.ctx.log[start:]))

    def able_teams(self) -> list[str]:
        """Teams with a creature still able to fight (acting, and with some way to strike)."""
        cached = self.ctx.scratch.get("fighting_teams")
        if cached is not None:
            return list(cached)
        with self._active():
            return fighting_teams(query_creatures())

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
            teams = self.able_teams()
        if len(teams) == 1:
            winner, reason = teams[0], "one team left"
        elif not teams:
            winner, reason = None, "no team left"
        else:
            winner, reason = None, "tick limit"
        survivors = []
        with self._active():
            for _, parts in query_creatures().items():
                if not parts[5].dead:
                    survivors.append(parts[0].name)
        return Outcome(winner, self.tick, tuple(survivors), reason)

    @property
    def events(self) -> list[Event]:
        """The whole event log, typed, in order."""
        log = self.ctx.log
        if self._expanded_upto < len(log):
            self._expanded.extend(expand_log(log[self._expanded_upto:]))
            self._expanded_upto = len(log)
        return self._expanded

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0, hours: float = 0.0,
                days: float = 0.0) -> list[Event]:
        """Move game time on out of combat, running every wound-over-time rule as it falls due: bleeding rounds
        and stoppage, shock re-tests, Extended Shock and Coma courses, first aid and treatment, healing periods
        and infection. Time jumps from due check to due check. Returns the events of the span.
        """
        from sandbox.aftermath import advance

        start = len(self.ctx.log)
        span = seconds + minutes * 60.0 + hours * 3600.0 + days * 86400.0
        if span < 0:
            raise ValueError("time only moves forward")
        if self.model == "anatomy":
            advance(self, span, self.care)
        else:
            with self._active():
                self.damage_model.advance(self.ctx, self.creatures(), span, self.care)
        if self.check_invariants:
            with self._active():
                self._check()
        return list(expand_log(self.ctx.log[start:]))

    # ------------------------------------------------------------------ reading and poking creatures

    def creatures(self) -> dict[int, Parts]:
        """Every creature's components, by entity in ascending order (read them; change them through methods)."""
        with self._active():
            return dict(sorted(query_creatures().items()))

    def _parts(self, entity: int) -> Parts:
        with self._active():
            parts = query_creatures().get(entity)
        if parts is None:
            raise SandboxError(f"no creature with entity {entity}")
        return parts

    def readout(self, entity: int) -> Readout:
        """What ``entity``'s state reads as under the world's damage model."""
        parts = self._parts(entity)
        with self._active():
            return self.damage_model.readout(entity, parts, self.ctx)

    def inflict(self, entity: int, location: str | None = None, level: int | str | None = None,
                aspect: str | None = None, **kwargs: Any) -> list[Event]:
        """Apply damage directly (scenario set-up and tests), as the world's damage model applies a landed blow.

        The anatomy model records an injury (``location=`` "Right Forearm", ``level=`` 1..5 or "S3", ``aspect=``),
        with no shock or bleeding roll; the point-based models take ``damage=N`` (after armour) and their own
        options (strength: ``enhanced=``, ``impaired=``).

        Returns:
            The events it caused.

        Raises:
            SandboxError: The request does not fit the model (an unknown location, a missing damage ...).
        """
        parts = self._parts(entity)
        options = dict(kwargs)
        if location is not None:
            options["location"] = location
        if level is not None:
            options["level"] = level
        if aspect is not None:
            options["aspect"] = aspect
        elif self.model == "anatomy":
            options["aspect"] = "blunt"
        start = len(self.ctx.log)
        try:
            with self._active():
                self.damage_model.inflict(entity, parts, self.ctx, **options)
        except ValueError as exc:
            raise SandboxError(str(exc)) from None
        return list(expand_log(self.ctx.log[start:]))

    def immobilize(self, entity: int, part: str) -> None:
        """Hold a part fast (a net, a grapple, a binding): it keeps its grip but cannot strike or parry."""
        _, anat, _, _, _, cond, _, _, _ = self._parts(entity)
        try:
            cond.immobilized.add(anat.body.part_index(part))
        except KeyError as exc:
            raise SandboxError(str(exc.args[0])) from None

    def free(self, entity: int, part: str) -> None:
        """Remove the Immobilized condition from a part: it is free again on the spot."""
        _, anat, _, _, _, cond, _, _, _ = self._parts(entity)
        try:
            cond.immobilized.discard(anat.body.part_index(part))
        except KeyError as exc:
            raise SandboxError(str(exc.args[0])) from None

    def refresh(self, entity: int) -> None:
        """Recompute a creature's impairment and health now (after editing its components by hand)."""
        _, anat, wounds, _, _, cond, _, _, equip = self._parts(entity)
        with self._active():
            refresh_status(entity, anat, wounds, cond, equip, self.ctx)

    # ------------------------------------------------------------------ persistence

    def save(self, path: str | Path) -> None:
        """Write the whole world (entities, components, clock, generator states, log) as versioned JSON, atomically."""
        from sandbox.persistence import save_world

        save_world(self, Path(path))

    @classmethod
    def load(cls, path: str | Path, catalog: Catalog | None = None) -> Sandbox:
        """Restore a world saved by ``save``.

        Raises:
            SaveError: A corrupt, truncated or wrong-version file (nothing is half-loaded).
        """
        from sandbox.persistence import load_world

        return load_world(Path(path), catalog or default_catalog())

    def components(self, entity: int) -> dict[str, Any]:
        """Every component of ``entity`` by type name (for inspection and tests)."""
        parts = self._parts(entity)
        return {type(c).__name__: c for c in parts}
