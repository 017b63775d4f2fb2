"""Replaying a ``sandbox run --log`` file: the fight as its events tell it, with no simulation.

The log holds every event with entity ids and names, but not where anyone stands nor what they are. A scenario
gives that (the cast: bodies, teams, armour and starting places; the world is built, never ticked): named on the
command line, or found among the content's scenarios as the one whose combatants are the log's creatures. With no
cast, the creatures stand in a ring, with no team and no body drawing. Either way, every creature's state is
folded from the events alone: wounds from ``Injured`` (bleeding, treatment, infection, healing from the events
that follow), part impairment, health, shock, prone, dropped weapons, severed locations, death, and a point
model's state words and damage.
"""

from __future__ import annotations

import copy
import json
import math
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from sandbox.components.body import BodyStructure
from sandbox.components.events import (
    AttackDeclared,
    BleederOpened,
    BleedingStopped,
    BlowLanded,
    D20AttackRolled,
    DamageDealt,
    Died,
    Event,
    FellProne,
    HealthChanged,
    ImpairmentChanged,
    Infected,
    Injured,
    InjuryHealed,
    ItemDropped,
    ItemPickedUp,
    ModelStateChanged,
    Severed,
    ShockChanged,
    ShockRetested,
    StoodUp,
    Treated,
)
from sandbox.components.gear import ArmorPiece
from sandbox.components.readout import UNPLACED, PartReading, Readout, WoundReading
from sandbox.components.rules import LEVEL_CODES
from sandbox.config import Catalog
from sandbox.eventlog import read_jsonl
from sandbox.scenario_def import ScenarioDef
from sandbox.systems.models import DEFAULT_MODEL
from sandbox.viewer.entries import LogReader
from sandbox.viewer.feeds import Shown
from sandbox.viewer.odds import LocationOdds, PreviewOdds
from sandbox.viewer.scene import DOWN_SHOCK, Figure, Scene, TickMarks, is_down, marks_of, verdict_of
from sandbox.world import Sandbox

__all__ = ["DOWN_WORDS", "KEEP_EVERY", "ReplayError", "ReplayFeed", "find_cast", "log_model", "log_names"]

DOWN_WORDS = frozenset({*DOWN_SHOCK, "fainted", "down", "mortally wounded"})
"""State words of the models that mean a creature is out of the fight (what the log says of it; the live viewer
asks the world instead)."""

KEEP_EVERY = 10
"""Ticks between the folded states kept, so going to a tick folds at most this many ticks of events."""


class ReplayError(ValueError):
    """A log that cannot be replayed (the message names the file and the problem)."""


def log_names(path: Path) -> dict[int, str]:
    """Entity -> name, from the ``<field>_name`` keys ``run --log`` writes beside every entity field."""
    names: dict[int, str] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            record = json.loads(line)
            for key, value in record.items():
                if key.endswith("_name") and isinstance(record.get(key[:-5]), int) and value:
                    names[record[key[:-5]]] = str(value)
    return names


def log_model(events: Iterable[Event]) -> str:
    """The damage model that wrote the log: the one its point-model events name, else the default model."""
    for event in events:
        if isinstance(event, D20AttackRolled | DamageDealt | ModelStateChanged):
            return event.model
    return DEFAULT_MODEL


def find_cast(catalog: Catalog, names: Iterable[str]) -> ScenarioDef | None:
    """The scenario whose combatants are the log's creatures.

    The smallest one that has them all, when only one scenario is that small.
    """
    wanted = set(names)
    fits = sorted((len(spec.combatants), spec.id) for spec in catalog.scenarios.values()
                  if wanted <= {c.name for c in spec.combatants})
    if not fits or (len(fits) > 1 and fits[0][0] == fits[1][0]):
        return None
    return catalog.scenarios[fits[0][1]]


@dataclass(slots=True)
class _State:
    """One creature's state as the events have left it."""

    x: float
    y: float
    holding: list[str]
    health: int
    band: str
    unit: str
    shock: str = "none"
    dead: bool = False
    out: bool = False
    prone: bool = False
    target: int = -1
    mode: str = ""
    wounds: list[WoundReading] = field(default_factory=list)  # replaced, not changed, as events come
    severed: list[str] = field(default_factory=list)
    parts: dict[str, PartReading] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)
    details: dict[str, str] = field(default_factory=dict)
    word: str = ""  # the model's own word for the state, when the log gives one (else band and shock say it)


@dataclass(frozen=True, slots=True)
class _Cast:
    """What does not change: who each creature is."""

    name: str
    team: str
    kind: str
    body: BodyStructure | None
    armor: tuple[ArmorPiece, ...]


class ReplayFeed:
    """A ``run --log`` file, played back tick by tick (a feed: ``sandbox.viewer.feeds.Feed``).

    Args:
        path: The log.
        cast: A world of the scenario the log was run from (its creatures are read, it is never ticked), or
            ``None``.

    Raises:
        ReplayError: The file is not a log, or its creatures are not the cast's.
    """

    live = False
    seed: int | None = None

    def __init__(self, path: Path, cast: Sandbox | None = None) -> None:
        try:
            self.events = read_jsonl(path)
            names = log_names(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise ReplayError(f"{path}: cannot read the log ({exc})") from None
        except ValueError as exc:
            raise ReplayError(str(exc)) from None
        if not self.events:
            raise ReplayError(f"{path}: no events to replay")
        self.path = path
        self.model = log_model(self.events)
        self.odds: dict[tuple[int, int, int, int], LocationOdds | PreviewOdds | str] = {}
        self.casting = self._cast(cast, names)
        self.names = {e: c.name for e, c in self.casting.items()}
        scenario = cast.scenario if cast is not None else None
        self.bounds = scenario.field if scenario is not None else None
        self.note = ("a replay: everyone stands where the scenario starts them (a log records no movement)"
                     if cast is not None else "a replay with no scenario: the creatures stand in a ring")
        self.title = f"{scenario.name} (replay of {path.name})" if scenario else f"replay of {path.name}"
        self._ticks = [e.tick for e in self.events]
        self.last = max(self._ticks)
        reader = LogReader()
        reader.read(self.events)
        reader.finish()
        self.attacks = reader.attacks
        self._kept: dict[int, dict[int, _State]] = {}
        self._start_state = self._initial(cast)
        self._marks = self._fold_all()
        self.shown = self._shown(0)

    # ------------------------------------------------------------------ the cast

    def _cast(self, cast: Sandbox | None, names: dict[int, str]) -> dict[int, _Cast]:
        if cast is None:
            return {e: _Cast(n, "", "", None, ()) for e, n in sorted(names.items())}
        known = cast.names
        wrong = [f"{e} {n}" for e, n in names.items() if known.get(e) != n]
        if wrong:
            raise ReplayError(f"{self.path}: its creatures are not the scenario's ({', '.join(wrong[:4])}"
                              f"{' ...' if len(wrong) > 4 else ''} not in it)")
        return {e: _Cast(c.identity.name, c.combatant.team, c.anatomy.kind.name, c.anatomy.body, c.armor.pieces)
                for e, c in cast.creatures().items()}

    def _initial(self, cast: Sandbox | None) -> dict[int, _State]:
        states: dict[int, _State] = {}
        if cast is not None:
            for e, c in cast.creatures().items():
                r = cast.readout(e)
                states[e] = _State(c.position.x, c.position.y, sorted(set(c.equipment.holding.values())),
                                   r.health, r.band, r.health_unit, r.shock,
                                   parts={p.name: p for p in r.parts}, word=r.label)
            return states
        count = max(len(self.casting), 1)
        radius = max(4.0, count * 1.2 / math.tau)
        for k, e in enumerate(self.casting):
            angle = math.tau * k / count
            states[e] = _State(radius * math.cos(angle), radius * math.sin(angle), [], 0, "", "")
        return states

    # ------------------------------------------------------------------ folding the events

    def _fold_all(self) -> dict[int, TickMarks]:
        """Fold every tick once: the timeline's marks, and a kept state every ``KEEP_EVERY`` ticks."""
        marks: dict[int, TickMarks] = {}
        state = copy.deepcopy(self._start_state)
        self._kept[0] = copy.deepcopy(state)
        before = self._scene(0, state)
        at = 0
        for tick in range(1, self.last + 1):
            at = self._apply(state, at, tick)
            scene = self._scene(tick, state)
            marks[tick] = marks_of(before, scene)
            before = scene
            if tick % KEEP_EVERY == 0:
                self._kept[tick] = copy.deepcopy(state)
        return marks

    def _state_at(self, tick: int) -> dict[int, _State]:
        base = max(t for t in self._kept if t <= tick)
        state = copy.deepcopy(self._kept[base])
        at = bisect_right(self._ticks, base)
        for t in range(base + 1, tick + 1):
            at = self._apply(state, at, t)
        return state

    def _apply(self, states: dict[int, _State], at: int, tick: int) -> int:
        """Apply the events of ``tick`` (the events from index ``at`` on); returns the index after them."""
        events = self.events
        parts_of: dict[tuple[int, str], str] = {}
        while at < len(events) and events[at].tick <= tick:
            self._event(states, events[at], parts_of)
            at += 1
        return at

    def _event(self, states: dict[int, _State], event: Event, parts_of: dict[tuple[int, str], str]) -> None:
        who = getattr(event, "entity", getattr(event, "target", -1))
        s = states.get(who)
        if isinstance(event, AttackDeclared):
            attacker = states.get(event.attacker)
            if attacker is not None:
                attacker.target, attacker.mode = event.target, event.mode
            return
        if s is None:
            return
        if isinstance(event, BlowLanded):
            parts_of[(who, event.location)] = event.part
        elif isinstance(event, Injured):
            if event.compound:  # what the event says: the worst wound already there worsens by one level
                here = [k for k, w in enumerate(s.wounds) if w.location == event.location and w.level in LEVEL_CODES]
                if here:
                    k = max(here, key=lambda k: LEVEL_CODES.index(s.wounds[k].level))
                    worse = LEVEL_CODES[min(LEVEL_CODES.index(s.wounds[k].level) + 1, len(LEVEL_CODES) - 1)]
                    s.wounds[k] = replace(s.wounds[k], level=worse)
            if event.level > 0:
                s.wounds.append(WoundReading(event.location, self._part(who, event.location, parts_of),
                                             event.level_code, event.aspect))
        elif isinstance(event, BleederOpened | BleedingStopped):
            # the newest wound there bleeds (a blow that wounds nothing new opens the newest wound it has)
            bleeds = next((k for k in reversed(range(len(s.wounds))) if s.wounds[k].location == event.location and (
                isinstance(event, BleederOpened) or s.wounds[k].bleeding)), None)
            if bleeds is None and isinstance(event, BleederOpened) and s.wounds:
                bleeds = len(s.wounds) - 1
            if bleeds is not None:
                s.wounds[bleeds] = replace(s.wounds[bleeds], bleeding=isinstance(event, BleederOpened))
        elif isinstance(event, Treated | Infected):
            for k in reversed(range(len(s.wounds))):
                if s.wounds[k].location == event.location:
                    if isinstance(event, Treated):
                        s.wounds[k] = replace(s.wounds[k], healing_rate=event.healing_rate, treated=True)
                    else:
                        s.wounds[k] = replace(s.wounds[k], infection=event.healing_rate)
                    break
        elif isinstance(event, InjuryHealed):
            for w in s.wounds:
                if w.location == event.location and w.level == event.level_code:
                    s.wounds.remove(w)
                    break
        elif isinstance(event, Severed):
            s.severed.append(event.location)
            old = s.parts.get(event.part, PartReading(event.part))
            s.parts[event.part] = PartReading(event.part, old.penalty, old.unusable, True)
        elif isinstance(event, ImpairmentChanged):
            old = s.parts.get(event.part, PartReading(event.part))
            s.parts[event.part] = PartReading(event.part, event.penalty, event.unusable, old.severed)
        elif isinstance(event, HealthChanged):
            s.health, s.band, s.word = event.after, event.band, ""
        elif isinstance(event, ShockChanged | ShockRetested):
            s.shock, s.word = event.after, ""
            s.out = event.after in DOWN_WORDS
        elif isinstance(event, Died):
            s.dead, s.out, s.shock = True, True, "dead"
        elif isinstance(event, FellProne | StoodUp):
            s.prone = isinstance(event, FellProne)
        elif isinstance(event, ItemDropped):
            if event.item in s.holding:
                s.holding.remove(event.item)
            if not event.flung:
                s.dropped.append(event.item)
        elif isinstance(event, ItemPickedUp):
            if event.item in s.dropped:
                s.dropped.remove(event.item)
            s.holding.append(event.item)
        elif isinstance(event, DamageDealt) and event.dealt > 0:
            # A point model's log says how much, not where (the severity and status models keep the place in
            # their state, not in the log).
            s.wounds.append(WoundReading(UNPLACED, UNPLACED, f"{event.dealt} damage", text=event.detail))
        elif isinstance(event, ModelStateChanged):
            if event.what == "state":
                s.word = event.after
                if event.after in DOWN_SHOCK or event.after == "stunned":
                    s.shock = event.after
                s.out = s.dead or event.after in DOWN_WORDS
                s.dead = s.dead or event.after == "dead"
            else:
                s.details[event.what] = event.after

    def _part(self, entity: int, location: str, parts_of: dict[tuple[int, str], str]) -> str:
        body = self.casting[entity].body if entity in self.casting else None
        if body is not None:
            try:
                return body.parts[body.locations[body.location_index(location)].part].name
            except KeyError:
                pass
        return parts_of.get((entity, location), "")

    # ------------------------------------------------------------------ scenes

    def _scene(self, tick: int, states: dict[int, _State]) -> Scene:
        figures: dict[int, Figure] = {}
        readouts: dict[int, Readout] = {}
        for e, cast in self.casting.items():
            s = states[e]
            readout = self._readout(cast, s)
            readouts[e] = readout
            figures[e] = Figure(e, cast.name, cast.team, cast.kind, s.x, s.y, s.dead, s.out or s.dead, s.prone,
                                s.shock, any(w.bleeding for w in s.wounds), len(s.dropped), s.target, 0.0, s.mode,
                                tuple(sorted(s.holding)), cast.body, cast.armor)
        logged = bisect_right(self.attacks, tick, key=lambda a: a.tick)
        first = bisect_right(self.attacks, tick - 1, key=lambda a: a.tick)
        able = {f.team or f.name for f in figures.values() if not is_down(f)}
        finished, verdict = verdict_of(sorted(able), False) if tick >= self.last else (False, "")
        return Scene(tick, self._time(tick), figures, readouts, tuple(self.attacks[first:logged]), logged, finished,
                     verdict)

    def _time(self, tick: int) -> float:
        at = bisect_right(self._ticks, tick)
        return self.events[at - 1].time if at else 0.0

    @staticmethod
    def _readout(cast: _Cast, s: _State) -> Readout:
        conditions = [c for c, on in (("prone", s.prone), ("bleeding", any(w.bleeding for w in s.wounds)),
                                      ("dropped " + ", ".join(s.dropped), bool(s.dropped))) if on]
        wounds = tuple(s.wounds)
        if cast.body is not None:
            parts = tuple(s.parts.get(p.name, PartReading(p.name)) for p in cast.body.parts)
        else:
            parts = tuple(s.parts.values())
        if s.dead:
            label = "dead"
        elif s.word:
            label = s.word
        else:
            label = ", ".join(w for w in (s.band.lower(), s.shock if s.shock != "none" else "") if w) or "as logged"
        return Readout(not s.dead, not s.dead and not s.out, label,
                       0 if s.dead else s.health, s.band, s.shock, tuple(conditions), wounds, parts,
                       tuple(s.details.items()), s.unit, tuple(s.severed))

    def _shown(self, tick: int) -> Shown:
        scene = self._scene(tick, self._state_at(tick))
        return Shown(scene, tuple(self.attacks[:scene.logged]), MappingProxyType(self._marks), 0, self.last)

    # ------------------------------------------------------------------ the feed

    def step(self) -> None:
        """Show the next tick of the log."""
        if self.shown.scene.tick < self.last:
            self.seek(self.shown.scene.tick + 1)

    def seek(self, tick: int) -> None:
        """Show ``tick`` of the log (clamped to its ticks)."""
        tick = min(max(tick, 0), self.last)
        if tick != self.shown.scene.tick:
            self.shown = self._shown(tick)

    def compute_odds(self, attacker: int, defender: int, location: int) -> None:
        """A replay runs no world: there are no odds to work out (the card says so)."""
        self.odds[(attacker, defender, location, self.shown.scene.tick)] = (
            "a replay runs no world: the odds need the live fight (sandbox view SCENARIO)")

    def close(self) -> None:
        """Nothing to release."""
