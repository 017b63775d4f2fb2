"""What every processor of one world shares: the rule tables, the definitions, the streams, the clock, the log.

An embedding game builds one ``TickContext`` per world and hands it to the processors it registers; the
sandbox does the same. Nothing here is global, so two worlds never share state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from components.creature import SkillDef
from components.events import Event
from components.gear import StrikeMode, Weapon
from components.rules import AnatomyRules, CombatRules
from systems.dice import Rng


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


@dataclass(slots=True)
class TickContext:
    """Shared state of one world's processors.

    Attributes:
        rules: The anatomy rule tables.
        combat: The skirmish loop's rules.
        modes: Strike modes by qualified id.
        weapons: Weapons by id.
        skills: Skill definitions by id.
        streams: One generator per purpose (``attack``, ``location``, ``injury``, ``shock``, ``ai`` ...).
        clock: Game time.
        log: Every event so far (``systems.combat.AttackRecord`` entries expand into step events on reading).
        scratch: Per-tick working data of processors (the spatial index); never saved.
        cache: Lasting caches derived from state (compiled targets, usable modes); never saved, rebuilt on demand.
        model: The world's damage model (``systems.models.DamageModel``); ``None`` runs the anatomy rules directly.
    """

    rules: AnatomyRules
    combat: CombatRules
    modes: Mapping[str, StrikeMode]
    weapons: Mapping[str, Weapon]
    skills: Mapping[str, SkillDef]
    streams: Mapping[str, Rng]
    clock: Clock = field(default_factory=Clock)
    log: list[Any] = field(default_factory=list)
    scratch: dict[str, Any] = field(default_factory=dict)
    cache: dict[Any, Any] = field(default_factory=dict)
    model: Any = None

    def emit(self, event: Event) -> None:
        """Append an event to the log."""
        self.log.append(event)
