"""What every processor of one world shares.

The definitions, the damage model, the streams, the clock, the log, the roster of creatures, and this tick's working
state.

An embedding game gets one ``TickContext`` per world from ``sandbox.systems.install`` (or builds one) and hands it to
the processors; the sandbox does the same. Nothing here is global, so two worlds never share state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper

from sandbox.components.creature import SkillDef
from sandbox.components.gear import StrikeMode, Weapon
from sandbox.components.impairment import Impairment
from sandbox.components.log import LogEntry
from sandbox.components.rules import CombatRules
from sandbox.systems.creatures import Creature, Roster
from sandbox.systems.dice import Rng
from sandbox.systems.stream import EventStream
from sandbox.systems.worlds import in_world

if TYPE_CHECKING:
    from sandbox.systems.actions import Action
    from sandbox.systems.damage_model import DamageModel
    from sandbox.systems.schedule import DueQueue

__all__ = ["Clock", "StrikeOptions", "TickContext", "TickState", "TurnAction"]


@dataclass(slots=True)
class Clock:
    """Game time: combat ticks of ``seconds_per_tick`` each, and the seconds elapsed in all (ticks and jumps).

    Attributes:
        tick: Ticks run.
        seconds_per_tick: Game seconds one tick lasts.
        seconds: Game seconds elapsed (each tick adds ``seconds_per_tick``; ``Sandbox.advance`` jumps it).
    """

    tick: int = 0
    seconds_per_tick: float = 10.0
    seconds: float = 0.0

    @property
    def time(self) -> float:
        """Game time in seconds."""
        return self.seconds


@dataclass(frozen=True, slots=True)
class TurnAction:
    """A turn of a damage model's own that a creature takes instead of fighting (first aid, a healing item).

    The model's ``turn_action`` chose it in the INTENT phase; the ATTACK phase has the model take it
    (``DamageModel.act``) in initiative order.

    Attributes:
        name: The action, as ``Combatant.action`` names it (``first aid``, ``healing item``).
        patient: The creature it is for (the actor itself, or a team-mate within reach).
        item: The item it uses, if any ("" for none).
    """

    name: str
    patient: int
    item: str = ""


@dataclass(slots=True)
class TickState:
    """The working state of one tick, shared by its processors and reset when the next tick begins.

    Attributes:
        creatures: Every creature by entity (the roster's records).
        order: Entities in initiative order (highest first).
        fighting_teams: The teams still able to fight when the tick ended (set in the STATUS phase; ``None``
            until then).
        actions: Entity -> the model's own turn it chose this tick instead of fighting (``TurnAction``).
        orders: Entity -> the action a creature the game drives takes this tick (``sandbox.systems.external``).
    """

    creatures: dict[int, Creature]
    order: list[int]
    fighting_teams: list[str] | None = None
    actions: dict[int, TurnAction] = field(default_factory=dict)
    orders: dict[int, Action] = field(default_factory=dict)


@dataclass(slots=True)
class StrikeOptions:
    """The strike modes a creature can use, cached until what they depend on changes.

    Attributes:
        key: What the options were computed from (part states, what is held, the immobilised parts).
        modes: The modes, hardest-hitting first.
        parts: Mode id -> the parts that wield it.
    """

    key: tuple[tuple[Impairment, ...], tuple[tuple[int, str], ...], tuple[int, ...]]
    modes: list[StrikeMode]
    parts: dict[str, tuple[int, ...] | None]


@dataclass(slots=True)
class TickContext:
    """Shared state of one world's processors.

    Attributes:
        combat: The skirmish loop's rules.
        modes: Strike modes by qualified id.
        weapons: Weapons by id.
        skills: Skill definitions by id.
        streams: One generator per purpose (``attack``, ``location``, ``injury``, ``shock``, ``ai`` ...).
        model: The world's damage model.
        clock: Game time.
        log: Every entry so far (typed events, and the models' compact attack records, which expand into their
            events on reading).
        roster: The creatures of the world.
        tick: This tick's working state (``None`` before the first tick).
        due: The queue of due times while ``advance`` runs (the rules tell it each due time they set), else
            ``None``.
        strike_options: Per entity, the strike modes it can use (never saved; rebuilt on demand).
        melee_modes: Ids of the melee strike modes.
        world: The esper world it belongs to (``install`` binds it): its reads and ``process`` switch to that world
            when another is current. ``""``: whatever world is current (a context built by hand).
        stream: The world's subscriptions and the delivery of its events to them (``sandbox.systems.stream``).
        submitted: Entity -> the action the game submitted for a creature it drives, for the next tick (never
            saved; the next tick's intent phase takes it).
    """

    combat: CombatRules
    modes: Mapping[str, StrikeMode]
    weapons: Mapping[str, Weapon]
    skills: Mapping[str, SkillDef]
    streams: Mapping[str, Rng]
    model: DamageModel
    clock: Clock = field(default_factory=Clock)
    log: list[LogEntry] = field(default_factory=list)
    roster: Roster = field(init=False)
    tick: TickState | None = None
    due: DueQueue | None = None
    strike_options: dict[int, StrikeOptions] = field(default_factory=dict)
    melee_modes: frozenset[str] = frozenset()
    world: str = ""
    stream: EventStream = field(init=False)
    submitted: dict[int, Action] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.roster = Roster(self.model, self.world)
        self.stream = EventStream(self)
        self.melee_modes = frozenset(m.id for m in self.modes.values() if m.kind == "melee")

    def emit(self, event: LogEntry) -> None:
        """Append an entry to the log."""
        self.log.append(event)

    def creatures(self) -> dict[int, Creature]:
        """Every creature of the world by entity (the roster's records)."""
        return self.roster.creatures()

    @contextmanager
    def active(self) -> Iterator[None]:
        """Make this context's esper world current inside the block (to create or read entities by hand)."""
        with in_world(self.world or esper.current_world):
            yield

    def process(self) -> None:
        """Run one tick of this context's esper world (``esper.process()`` there, whatever world is current)."""
        with in_world(self.world or esper.current_world):
            esper.process()

    def begin_tick(self) -> TickState:
        """Start a tick's working state afresh (the first processor of a tick calls this)."""
        creatures = self.roster.creatures()
        previous = self.tick
        if previous is not None and previous.creatures is creatures:
            order = previous.order  # initiative never changes in play; only new creatures reorder
        else:
            order = sorted(creatures, key=lambda e: (-creatures[e].combatant.initiative, e))
        self.tick = TickState(creatures, order)
        return self.tick

    def current(self) -> TickState:
        """This tick's working state (begun if no tick has run yet: a processor called on its own)."""
        return self.tick if self.tick is not None else self.begin_tick()
