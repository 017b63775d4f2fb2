"""The array engine.

A world of creatures as arrays, ticked phase by phase (intent, move, attack, damage, effects, recovery, status, cleanup)
with the esper engine's rules, for battles of tens of thousands and for batches of independent fights.

It is deterministic for a seed: a fight is ``(seed, run index)``, and each fight and purpose draws from its own
counter-based stream (``sandbox.systems.arrays.fight_streams``), whole arrays at a time, so a fight is the same
whichever other fights share the world. Its stream layout is its own: the same seed gives the same fight every time, but
not the esper engine's fight event for event (the rules and so the distributions are the same:
``tests/test_engines_agree.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import cast

import numpy as np

from sandbox.components.readout import Standing
from sandbox.components.rules import ShockState
from sandbox.components.state import Armor, Equipment
from sandbox.systems.ai import choose_aim
from sandbox.systems.arrays import intent, movement
from sandbox.systems.arrays.attack import gather
from sandbox.systems.arrays.errors import EngineError
from sandbox.systems.arrays.fight_streams import FightStreams
from sandbox.systems.arrays.gear import Gear
from sandbox.systems.arrays.loadout import Loadout
from sandbox.systems.arrays.memo import PackedMemo, pack, unpack
from sandbox.systems.arrays.models import ArrayModel, get_array_model
from sandbox.systems.arrays.rearm import Rearming
from sandbox.systems.arrays.spawn import Built, Recruit, build_recruits, by_identity, distinct_recruits
from sandbox.systems.arrays.state import picked
from sandbox.systems.arrays.tables import BoolArray, IntArray, body_tables, mode_tables, skill_tables
from sandbox.systems.arrays.trace import Tracer
from sandbox.systems.context import TickContext
from sandbox.systems.damage_model import DamageModel
from sandbox.systems.models.anatomy.blow import compile_target
from sandbox.systems.models.anatomy.vector_target import build_target_tables
from sandbox.systems.spawning import Content
from sandbox.systems.strike import strength_impact_modifier

__all__ = ["ArrayEngine"]

_PURPOSES: tuple[str, ...] = ("attack", "injury", "shock", "bleeding", "ai")
"""The array engine's streams, in spawn order (append new ones at the end)."""


class ArrayEngine:
    """A world of creatures in arrays, under one damage model that has an array implementation.

    Args:
        content: The content (a ``sandbox.config.Catalog``).
        recruits: The creatures, in spawn order: ``(fight, recruit)`` pairs, or recruits alone (one fight).
        per_event_model: The damage model as the esper engine runs it (the array model reads its tables, and it
            reads the array world's creatures for readouts).
        seed: Root seed.
        run: Run index under the seed (of fight 0; fight ``f`` is run ``run + f`` unless ``runs`` says).
        runs: Per fight, its run index (a lab's batch of runs).
        trace: Names of the creatures whose landed blows and what followed are logged in full.

    Raises:
        EngineError: The model has no array implementation, or a recruit needs a feature the array engine does
            not run, or a traced name is unknown.
    """

    def __init__(self, content: Content, recruits: Sequence[Recruit] | Sequence[tuple[int, Recruit]],
                 per_event_model: DamageModel, *, seed: int = 0, run: int = 0, runs: Sequence[int] | None = None,
                 trace: Sequence[str] = ()) -> None:
        model_class = get_array_model(per_event_model.name)
        # Either every recruit comes with its fight or none does (a lab's batch: tens of thousands of pairs).
        pairs = cast(list[tuple[int, Recruit]], list(recruits) if recruits and isinstance(recruits[0], tuple)
                     else [(0, r) for r in recruits])
        self.content = content
        self.combat = content.combat
        self.rules = content.rules
        self.per_event_model = per_event_model
        self.weapons = content.weapons
        spread = distinct_recruits(pairs)  # a lab's batch repeats the scenario's recruits
        distinct = spread[0]
        # By id: a body is a deep frozen dataclass, and hashing one per recruit was a lab's tenth.
        used = dict.fromkeys(content.creatures[r.creature].body for r in distinct if r.creature in content.creatures)
        self.bodies = body_tables([content.bodies[b] for b in used] or list(content.bodies.values())[:1])
        attributes = {a for kind in content.creatures.values() for a in kind.attributes}
        skill_ids = {s for kind in content.creatures.values() for s in kind.skills}
        for r in distinct:
            attributes |= set(r.attributes)
            skill_ids |= set(r.skills)
        self.skills = skill_tables(content.skills, sorted(attributes | skill_ids))
        self.modes = mode_tables(content.modes, self.skills.index)
        self.weapon_index = {w: i for i, w in enumerate(content.weapons)}
        kinds: dict[tuple[str, tuple[str, ...]], int] = {}
        self.gear = Gear(self.weapon_index, self.bodies.parts)
        self.creatures, self.builds = build_recruits(content, per_event_model, pairs, spread, self.bodies, self.skills,
                                                     kinds, self.gear)
        self.armor: list[Armor] = list(map(attrgetter("armor"), self.builds))
        own, build_of = by_identity(self.builds)  # recruits share builds
        build_of_kind = {(b.anatomy.body.id, tuple(p.id for p in b.armor.pieces)): b for b in own}
        self.tables = build_target_tables(tuple(
            compile_target(build_of_kind[key].anatomy.body, self.rules, build_of_kind[key].armor.pieces, shock_ml=None,
                           strength_ml=None, fumble_ml=None, stumble_ml=None) for key in kinds))
        self.natural_mode: BoolArray = np.asarray([content.weapons[m.weapon].natural for m in self.modes.modes],
                                                  dtype=np.bool_)
        self.strength_bonus = self._strength_bonus(own)[build_of]
        self.aim_zones = self._aim_zones()
        self.loadout = Loadout.empty(len(self.creatures))
        self.option: IntArray = np.zeros(len(self.creatures), dtype=np.int64)
        fights = int(self.creatures.fight.max(initial=0)) + 1
        self.runs = list(runs) if runs is not None else [run + f for f in range(fights)]
        if len(self.runs) < fights:
            raise EngineError(f"{fights} fights but {len(self.runs)} run indices")
        self.streams = FightStreams(seed, self.runs, _PURPOSES)
        self.reading = TickContext(self.combat, content.modes, content.weapons, content.skills, {}, per_event_model)
        names = {name: i for i, name in enumerate(self.creatures.names)} if trace else {}
        unknown = [n for n in trace if n not in names]
        if unknown:
            raise EngineError(f"no creature called {unknown[0]!r} to trace; known: {', '.join(names)}")
        self.tracer = Tracer(self, [names[n] for n in trace])
        self.tick = 0
        self.clock_time = 0.0
        self.model: ArrayModel = model_class(self)
        self.rearming = Rearming(self)
        self._locators = PackedMemo(self._new_locators)
        """Per packed (target kind, aim zone, Spread) key, its location table's id."""

    # ------------------------------------------------------------------ set-up tables

    def _strength_bonus(self, builds: list[Built]) -> IntArray:
        """``[b, off hand, thrown]``: each build's Strength Impact Modifier (0 without a STR)."""
        out = np.zeros((len(builds), 2, 2), dtype=np.int64)
        for k, b in enumerate(builds):
            strength = b.anatomy.attributes.get("strength")
            if strength is not None:
                for off in (0, 1):
                    for thrown in (0, 1):
                        out[k, off, thrown] = strength_impact_modifier(strength, self.rules.strength_impact,
                                                                       off_hand=bool(off), thrown=bool(thrown))
        return out

    def _aim_zones(self) -> IntArray:
        """``[aim name, body]``: the zone number a named aim targets on each body (0: unaimed there)."""
        names = self.creatures.aim_names
        table = np.zeros((max(len(names), 1), len(self.bodies.bodies)), dtype=np.int64)
        unused = np.random.default_rng(0)  # a named aim draws nothing
        for a, name in enumerate(names):
            for b, body in enumerate(self.bodies.bodies):
                table[a, b] = choose_aim(name, body, unused)
        return table

    def locators(self, kind: IntArray, aim_zone: IntArray, spread: IntArray) -> IntArray:
        """Per blow, the id of its (target kind, aim, Spread) location table.

        Kind, aim and Spread are each below 2**21: the schema's bounds.
        """
        return self._locators(pack(kind, aim_zone, spread))

    def _new_locators(self, keys: Sequence[int]) -> list[int]:
        """The table ids of (target kind, aim, Spread) keys not met before."""
        return [self.tables.locator(kind, zone or None, spread) for kind, zone, spread in map(unpack, keys)]

    # ------------------------------------------------------------------ what the phases share

    def has_gear(self) -> BoolArray:
        """Per creature, it carries or dropped a weapon it might take up."""
        has: BoolArray = self.gear.has_gear[self.creatures.gear]
        return has

    def sync_hands(self, who: Iterable[int] | IntArray) -> None:
        """Mirror creatures' gear states into the arrays the vector phases read.

        The arrays say what each part holds and whether it can still strike. Called after hands let go or took up
        weapons: once for all those of a phase, since the arrays are read only after it.
        """
        cr, gear = self.creatures, self.gear
        idx = who if isinstance(who, np.ndarray) else np.fromiter(who, dtype=np.int64)
        state = cr.gear[idx]
        cr.holding[idx] = gear.holding[state]
        cr.held[idx] = gear.held[state]
        cr.hold_mask[idx] = gear.hold_mask[state]
        cr.armed[idx] = gear.armed[state]

    def equipment(self, i: int) -> Equipment:
        """Creature ``i``'s gear as a fresh ``Equipment``."""
        return self.gear.equipment(int(self.creatures.gear[i]))

    # ------------------------------------------------------------------ keeping some fights

    def keep_fights(self, fights: IntArray) -> None:
        """Go on with ``fights`` only (ascending), renumbered ``0, 1, ...`` in that order.

        Every other fight's creatures, wounds and streams are dropped, so a world whose fights mostly ended ticks only
        the rest. A kept fight goes on exactly as it would have (its creatures keep their order, its streams their
        counters).
        """
        cr = self.creatures
        fight_of = np.full(len(self.runs), -1, dtype=np.int64)
        fight_of[fights] = np.arange(fights.size)
        rows = np.flatnonzero(fight_of[cr.fight] >= 0)
        moved_to = np.full(len(cr), -1, dtype=np.int64)
        moved_to[rows] = np.arange(rows.size)
        cr.keep(rows, moved_to, fight_of)
        self.model.keep(rows, moved_to)
        self.loadout.keep(rows)
        self.tracer.keep(rows, moved_to)
        self.streams.keep(fights)
        listed = rows.tolist()
        self.builds, self.armor = picked(self.builds, listed), picked(self.armor, listed)
        self.runs = picked(self.runs, fights.tolist())
        self.option, self.strength_bonus = self.option[rows], self.strength_bonus[rows]

    def retire_fights(self, fights: IntArray) -> None:
        """The creatures of ``fights``, whose fights ended and have been read, take no more part.

        Marked dead, which every phase passes over, they wait for ``keep_fights`` to drop them (a survivor would
        otherwise look for a foe every tick, and a Shock re-test could bring one out of the fight back into it). For a
        world whose ended fights are done with (a lab's batch); the other fights go on exactly as they would have, since
        no fight reads another's creatures.
        """
        retired = np.zeros(len(self.runs), dtype=np.bool_)
        retired[fights] = True
        self.creatures.dead |= retired[self.creatures.fight]

    # ------------------------------------------------------------------ running

    def step(self) -> None:
        """Run one tick, every phase in order."""
        self.tick += 1
        self.clock_time += self.combat.tick_seconds
        self._check_time()
        intent.decide(self)
        movement.move(self)
        self.model.attack(gather(self))
        self.model.settle()
        self.model.effects()
        self.model.recovery()
        self.creatures.reeling[:] = False

    def _check_time(self) -> None:
        aftercare = self.rules.aftercare
        if aftercare is not None and self.clock_time >= aftercare.extended_shock_interval:
            raise EngineError(f"the array engine runs fights of less than {aftercare.extended_shock_interval:g} s of "
                              f"game time ({self.max_ticks()} ticks): Extended Shock and Coma course tests are the "
                              "esper engine's")

    def max_ticks(self) -> int:
        """The longest fight the engine runs, in ticks (below the first Extended Shock course test)."""
        aftercare = self.rules.aftercare
        if aftercare is None:
            return 1 << 30
        return int(-(-aftercare.extended_shock_interval // self.combat.tick_seconds)) - 1

    def fighting(self) -> BoolArray:
        """Per creature, able to act and with some way to strike (``sandbox.systems.ending.can_fight``)."""
        return self.creatures.able & self.creatures.armed

    def standing(self, i: int) -> Standing:
        """Creature ``i`` in brief, read from the arrays.

        As ``Sandbox.standing``: its readout's alive, can act and label, without building its records.
        """
        cr = self.creatures
        dead = bool(cr.dead[i])
        return Standing(cr.names[i], cr.kinds[i], cr.team_names[int(cr.team[i])], cr.anatomy[i].body.id,
                        *self.model.standing(i), dead, (cr.causes[i] or "died") if dead else "")

    def fighting_teams(self, fight: int = 0) -> list[str]:
        """The teams of ``fight`` still able to fight, sorted."""
        return self.fighting_teams_of([fight])[fight]

    def fighting_teams_of(self, fights: Iterable[int]) -> dict[int, list[str]]:
        """Per fight of ``fights``, the teams still able to fight, sorted (one pass over the creatures)."""
        out: dict[int, list[str]] = {f: [] for f in fights}
        if not out:
            return out
        names = self.creatures.team_names
        able, team_fight = self._able_teams()
        codes = np.flatnonzero(able)
        for fight, team in zip(team_fight[codes].tolist(), codes.tolist(), strict=True):
            if fight in out:
                out[fight].append(names[team])
        for teams in out.values():
            teams.sort()
        return out

    def teams_able(self) -> tuple[IntArray, IntArray]:
        """Per fight, how many teams can still fight, and the index of one of them.

        The index is into ``creatures.team_names`` (-1: none): of a fight with one team left, its winner.
        """
        fights = int(self.creatures.fight.max(initial=0)) + 1
        able, team_fight = self._able_teams()
        codes = np.flatnonzero(able)
        one = np.full(fights, -1, dtype=np.int64)
        one[team_fight[codes]] = codes  # of a fight with several teams, any one of them
        return np.bincount(team_fight[codes], minlength=fights), one

    def _able_teams(self) -> tuple[BoolArray, IntArray]:
        """Per team index, whether a creature of it can still fight, and its fight.

        Its fight is -1 for a team of no creature left in the world.
        """
        cr = self.creatures
        able = np.zeros(len(cr.team_names), dtype=np.bool_)
        able[cr.team[self.fighting()]] = True
        team_fight = np.full(len(cr.team_names), -1, dtype=np.int64)
        team_fight[cr.team] = cr.fight
        return able, team_fight

    def shock_states(self) -> list[ShockState]:
        """Every creature's shock state (under the anatomy model)."""
        state = getattr(self.model, "state", None)
        shock = getattr(state, "shock", np.zeros(len(self.creatures), dtype=np.int64))
        return [ShockState(int(s)) for s in shock]
