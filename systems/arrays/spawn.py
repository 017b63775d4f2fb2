"""Building an array world's creatures from recruits (a scenario's combatants), through the same
``creature_components`` that ``Sandbox.spawn`` uses, so a creature starts exactly as it would in an esper world.

Recruits that differ only in name and position (a scenario group) share one build.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from components.state import Anatomy, Armor, Combatant, Equipment
from systems.arrays.errors import EngineError
from systems.arrays.gear import Gear, GearState
from systems.arrays.state import AIM_POLICIES_CODES, NO_ML, POLICIES, Creatures
from systems.arrays.tables import MAX_PARTS, BodyTables, SkillTables
from systems.models.base import DamageModel
from systems.spawning import Content, SpawnError, creature_components


class Recruit(Protocol):
    """One creature to spawn (``sandbox.scenario_def.CombatantSpec`` has this shape)."""

    @property
    def name(self) -> str:
        """Unique name within its fight."""
        ...

    @property
    def creature(self) -> str:
        """Creature config id."""
        ...

    @property
    def team(self) -> str:
        """Team name."""
        ...

    @property
    def position(self) -> tuple[float, float]:
        """Where it starts, in metres."""
        ...

    @property
    def weapons(self) -> tuple[str, ...] | None:
        """Weapons carried (``None``: the creature's own)."""
        ...

    @property
    def armor(self) -> tuple[str, ...] | None:
        """Armour worn (``None``: the creature's own)."""
        ...

    @property
    def policy(self) -> str:
        """Target policy."""
        ...

    @property
    def aim(self) -> str:
        """Aim policy."""
        ...

    @property
    def initiative(self) -> int | None:
        """Turn order (``None``: its Agility ML)."""
        ...

    @property
    def speed(self) -> float | None:
        """Walking speed (``None``: its creature's)."""
        ...

    @property
    def attributes(self) -> Mapping[str, int]:
        """Attribute overrides."""
        ...

    @property
    def skills(self) -> Mapping[str, int]:
        """Skill ML overrides."""
        ...

    @property
    def immobilized(self) -> tuple[str, ...]:
        """Parts held fast from the start."""
        ...


@dataclass(frozen=True, slots=True)
class Built:
    """One recruit's components (shared by every recruit of the same build).

    Attributes:
        anatomy: Its Anatomy.
        armor: What it wears.
        combatant: Its team and policies.
        equipment: What it carries and holds at the start (its first gear state).
        state: Its damage model's components.
    """

    anatomy: Anatomy
    armor: Armor
    combatant: Combatant
    equipment: Equipment
    state: tuple[object, ...]


def _key(r: Recruit) -> tuple[object, ...]:
    return (r.creature, r.team, r.weapons, r.armor, r.policy, r.aim, r.initiative, r.speed,
            tuple(sorted(r.attributes.items())), tuple(sorted(r.skills.items())), r.immobilized)


def build_recruits(content: Content, model: DamageModel, recruits: Sequence[tuple[int, Recruit]],
                   bodies: BodyTables, skills: SkillTables, armour_kind: dict[tuple[str, tuple[str, ...]], int],
                   gear: Gear) -> tuple[Creatures, list[Built]]:
    """The creatures of ``recruits`` (``(fight, recruit)`` pairs) and each one's build.

    Args:
        content: The content.
        model: The per-event damage model whose ``spawn_state`` gives a creature's starting state.
        recruits: ``(fight index, recruit)`` per creature, in spawn order.
        bodies: The compiled bodies.
        skills: The compiled skills.
        armour_kind: (body id, armour ids) -> compiled target index; new combinations are added.
        gear: The world's gear states; each build's starting state is numbered.

    Raises:
        EngineError: A recruit the array engine cannot run (parts held fast from the start; a body of more than
            ``MAX_PARTS`` parts), or one that cannot be spawned at all.
    """
    cache: dict[tuple[object, ...], Built] = {}
    builds: list[Built] = []
    teams: dict[tuple[int, str], int] = {}
    names: set[tuple[int, str]] = set()
    for fight, r in recruits:
        if r.immobilized:
            raise EngineError(f"{r.name}: parts held fast from the start (immobilized) are not run by the array "
                              "engine; run this scenario with --engine esper")
        if (fight, r.name) in names:
            raise EngineError(f"a creature called {r.name!r} already exists")
        names.add((fight, r.name))
        key = _key(r)
        built = cache.get(key)
        if built is None:
            try:
                comps = creature_components(content, model, r.creature, r.name, team=r.team, armor=r.armor,
                                            weapons=r.weapons, attributes=r.attributes, skills=r.skills,
                                            policy=r.policy, aim=r.aim, initiative=r.initiative, speed=r.speed)
            except SpawnError as exc:
                raise EngineError(str(exc)) from None
            anat, armor, comb, equip = comps[1], comps[2], comps[4], comps[6]
            assert isinstance(anat, Anatomy) and isinstance(armor, Armor) and isinstance(comb, Combatant)
            assert isinstance(equip, Equipment)
            if len(anat.body.parts) > MAX_PARTS:
                raise EngineError(f"{r.name}: the {anat.body.name} body has {len(anat.body.parts)} parts; the array "
                                  f"engine runs bodies of at most {MAX_PARTS}")
            built = cache[key] = Built(anat, armor, comb, equip, tuple(comps[7:]))
        builds.append(built)
        teams.setdefault((fight, r.team), len(teams))
    n = len(builds)
    aim_names: list[str] = []
    aim_name = np.full(n, -1, dtype=np.int64)
    aim = np.zeros(n, dtype=np.int64)
    mls = np.full((n, len(skills.ids)), NO_ML, dtype=np.int64)
    ml_rows: dict[int, np.ndarray] = {}
    for i, (b, (_, r)) in enumerate(zip(builds, recruits, strict=True)):
        row = ml_rows.get(id(b))
        if row is None:
            row = np.full(len(skills.ids), NO_ML, dtype=np.int64)
            for sid, ml in b.anatomy.mls.items():
                if sid in skills.index:
                    row[skills.index[sid]] = ml
            ml_rows[id(b)] = row
        mls[i] = row
        aim[i] = AIM_POLICIES_CODES.get(r.aim, 2)
        if aim[i] == 2:
            if r.aim not in aim_names:
                aim_names.append(r.aim)
            aim_name[i] = aim_names.index(r.aim)
    for b in builds:
        armour_kind.setdefault((b.anatomy.body.id, tuple(p.id for p in b.armor.pieces)), len(armour_kind))
    states: dict[int, int] = {}  # per build, its starting gear state
    anatomy_codes: dict[int, int] = {}
    for b in builds:
        if id(b) not in states:
            states[id(b)] = gear.number(GearState.of(b.equipment))
            anatomy_codes.setdefault(id(b.anatomy), len(anatomy_codes))
    gear_of = np.asarray([states[id(b)] for b in builds], dtype=np.int64)
    initiative = np.asarray([b.combatant.initiative for b in builds], dtype=np.int64)
    order = np.lexsort((np.arange(n), -initiative)).astype(np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    creatures = Creatures(
        names=[r.name for _, r in recruits], kinds=[r.creature for _, r in recruits],
        anatomy=[b.anatomy for b in builds],
        anatomy_code=np.asarray([anatomy_codes[id(b.anatomy)] for b in builds], dtype=np.int64), gear=gear_of,
        fight=np.asarray([f for f, _ in recruits], dtype=np.int64),
        team=np.asarray([teams[(f, r.team)] for f, r in recruits], dtype=np.int64),
        team_names=[t for (_, t) in teams],
        body=np.asarray([bodies.index(b.anatomy.body) for b in builds], dtype=np.int64),
        target_kind=np.asarray([armour_kind[(b.anatomy.body.id, tuple(p.id for p in b.armor.pieces))]
                                for b in builds], dtype=np.int64),
        x=np.asarray([float(r.position[0]) for _, r in recruits], dtype=np.float64),
        y=np.asarray([float(r.position[1]) for _, r in recruits], dtype=np.float64),
        initiative=initiative, order=order, rank=rank,
        speed=np.asarray([b.anatomy.speed for b in builds], dtype=np.float64),
        mls=mls,
        strength=np.asarray([b.anatomy.attributes.get("strength", NO_ML) for b in builds], dtype=np.int64),
        policy=np.asarray([POLICIES.index(r.policy) for _, r in recruits], dtype=np.int64),
        aim=aim, aim_name=aim_name, aim_names=aim_names, held=gear.held[gear_of], hold_mask=gear.hold_mask[gear_of],
        holding=gear.holding[gear_of], armed=gear.armed[gear_of],
    )
    return creatures, builds
