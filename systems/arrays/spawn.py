"""Building an array world's creatures from recruits (a scenario's combatants).

They are built through the same ``creature_components`` that ``Sandbox.spawn`` uses, so a creature starts exactly as it
would in an esper world.

Recruits that differ only in name and position (a scenario group) share one build.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Protocol, TypeVar

import numpy as np

from sandbox.components.state import Anatomy, Armor, Combatant, Equipment
from sandbox.systems.arrays.errors import EngineError
from sandbox.systems.arrays.gear import Gear, GearState
from sandbox.systems.arrays.state import AIM_POLICIES_CODES, NO_ML, POLICIES, Creatures, picked
from sandbox.systems.arrays.tables import MAX_PARTS, BodyTables, IntArray, SkillTables
from sandbox.systems.damage_model import DamageModel
from sandbox.systems.spawning import Content, SpawnError, creature_components

__all__ = ["Built", "Recruit", "build_recruits", "by_identity", "distinct_recruits", "first_seen", "per_object"]


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


_T = TypeVar("_T")


def first_seen(keys: np.ndarray) -> tuple[IntArray, IntArray]:
    """The distinct keys numbered in order of first appearance.

    Where each first appears, and each key's number (one sort: a lab's batch repeats a handful of keys tens of thousands
    of times).
    """
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")
    renumber = np.empty(first.size, dtype=np.int64)
    renumber[by_first] = np.arange(first.size)
    codes: IntArray = renumber[inverse.ravel()]
    return first[by_first].astype(np.int64), codes


def by_identity(objects: Sequence[_T]) -> tuple[list[_T], IntArray]:
    """The distinct objects of ``objects`` (by identity) in order of first appearance, and which each one is."""
    listed = objects if isinstance(objects, list) else list(objects)
    first, which = first_seen(np.fromiter(map(id, listed), dtype=np.uint64, count=len(listed)))
    return picked(listed, first.tolist()), which


def per_object(objects: Sequence[_T], value: Callable[[_T], object], dtype: type = np.int64) -> np.ndarray:
    """``value(o)`` for every one of ``objects`` as an array, worked out once per distinct object (by identity)."""
    distinct, which = by_identity(objects)
    out: np.ndarray = np.asarray([value(o) for o in distinct], dtype=dtype)[which]
    return out


def distinct_recruits(recruits: Sequence[tuple[int, Recruit]]) -> tuple[list[Recruit], IntArray, IntArray]:
    """The distinct recruits of ``(fight, recruit)`` pairs, which one each creature is, and each creature's fight.

    Distinct by identity, in order of first appearance.
    """
    fight = np.fromiter(map(itemgetter(0), recruits), dtype=np.int64, count=len(recruits))
    distinct, which = by_identity(list(map(itemgetter(1), recruits)))
    return distinct, which, fight


def _key(r: Recruit) -> tuple[object, ...]:
    return (r.creature, r.team, r.weapons, r.armor, r.policy, r.aim, r.initiative, r.speed,
            tuple(sorted(r.attributes.items())), tuple(sorted(r.skills.items())), r.immobilized)


def build_recruits(content: Content, model: DamageModel, recruits: Sequence[tuple[int, Recruit]],
                   spread: tuple[list[Recruit], IntArray, IntArray], bodies: BodyTables, skills: SkillTables,
                   target_kinds: dict[tuple[str, tuple[str, ...]], int], gear: Gear) -> tuple[Creatures, list[Built]]:
    """The creatures of ``recruits`` (``(fight, recruit)`` pairs) and each one's build.

    Args:
        content: The content.
        model: The per-event damage model whose ``spawn_state`` gives a creature's starting state.
        recruits: ``(fight index, recruit)`` per creature, in spawn order.
        spread: ``distinct_recruits(recruits)`` (the engine works it out once, for its tables too).
        bodies: The compiled bodies.
        skills: The compiled skills.
        target_kinds: (body id, armour ids) -> compiled target index; new combinations are added.
        gear: The world's gear states; each build's starting state is numbered.

    Raises:
        EngineError: A recruit the array engine cannot run (parts held fast from the start; a creature the game
            drives; a body of more than ``MAX_PARTS`` parts), or one that cannot be spawned at all.
    """
    # A lab's batch repeats the scenario's recruits fight after fight: each distinct recruit (by identity) is
    # worked out once, and a creature is its recruit's row of each table plus its own fight and place.
    n = len(recruits)
    distinct, which, fight = spread
    listed = which.tolist()
    cache: dict[tuple[object, ...], Built] = {}
    own: list[Built] = []  # per distinct recruit, its build
    for r in distinct:
        if r.immobilized:
            raise EngineError(f"{r.name}: parts held fast from the start (immobilized) are not run by the array "
                              "engine; run this scenario with --engine esper")
        if r.policy not in POLICIES:  # ``external``: a game drives it, one action a tick, on the esper engine only
            raise EngineError(f"{r.name}: policy {r.policy!r} (a creature the game drives) is not run by the array "
                              "engine; run this scenario with --engine esper")
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
        own.append(built)
    names = [r.name for r in distinct]
    _check_names(recruits, fight, _codes(names)[which])
    team = _first_seen_codes(fight, _codes([r.team for r in distinct])[which])
    first_of_team = np.unique(team, return_index=True)[1]  # team codes are 0, 1, ... (one per fight and team)
    team_names: list[str] = np.asarray([r.team for r in distinct], dtype=object)[which[first_of_team]].tolist()
    aim_names = list(dict.fromkeys(r.aim for r in distinct if AIM_POLICIES_CODES.get(r.aim, 2) == 2))
    aim = np.asarray([AIM_POLICIES_CODES.get(r.aim, 2) for r in distinct], dtype=np.int64)
    aim_name = np.asarray([aim_names.index(r.aim) if a == 2 else -1 for r, a in zip(distinct, aim.tolist(),
                                                                                      strict=True)], dtype=np.int64)
    mls = np.full((len(distinct), len(skills.ids)), NO_ML, dtype=np.int64)
    for u, b in enumerate(own):
        for sid, ml in b.anatomy.mls.items():
            if sid in skills.index:
                mls[u, skills.index[sid]] = ml
    for b in own:
        target_kinds.setdefault((b.anatomy.body.id, tuple(p.id for p in b.armor.pieces)), len(target_kinds))
    anatomy_codes: dict[int, int] = {}
    for b in own:
        anatomy_codes.setdefault(id(b.anatomy), len(anatomy_codes))
    gear_of = np.asarray([gear.number(GearState.of(b.equipment)) for b in own], dtype=np.int64)[which]
    initiative = np.asarray([b.combatant.initiative for b in own], dtype=np.int64)[which]
    order = np.lexsort((np.arange(n), -initiative)).astype(np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    builds = picked(own, listed)
    creatures = Creatures(
        names=picked(names, listed), kinds=picked([r.creature for r in distinct], listed),
        anatomy=picked([b.anatomy for b in own], listed),
        anatomy_code=np.asarray([anatomy_codes[id(b.anatomy)] for b in own], dtype=np.int64)[which], gear=gear_of,
        fight=fight, team=team, team_names=team_names,
        body=np.asarray([bodies.index(b.anatomy.body) for b in own], dtype=np.int64)[which],
        target_kind=np.asarray([target_kinds[(b.anatomy.body.id, tuple(p.id for p in b.armor.pieces))]
                                for b in own], dtype=np.int64)[which],
        x=np.asarray([float(r.position[0]) for r in distinct], dtype=np.float64)[which],
        y=np.asarray([float(r.position[1]) for r in distinct], dtype=np.float64)[which],
        initiative=initiative, order=order, rank=rank,
        speed=np.asarray([b.anatomy.speed for b in own], dtype=np.float64)[which],
        mls=mls[which],
        strength=np.asarray([b.anatomy.attributes.get("strength", NO_ML) for b in own], dtype=np.int64)[which],
        policy=np.asarray([POLICIES.index(r.policy) for r in distinct], dtype=np.int64)[which],
        aim=aim[which], aim_name=aim_name[which], aim_names=aim_names, held=gear.held[gear_of],
        hold_mask=gear.hold_mask[gear_of], holding=gear.holding[gear_of], armed=gear.armed[gear_of],
    )
    return creatures, builds


def _codes(values: Sequence[str]) -> IntArray:
    """Each value's number, by first appearance."""
    number: dict[str, int] = {}
    return np.asarray([number.setdefault(v, len(number)) for v in values], dtype=np.int64)


def _first_seen_codes(fight: IntArray, code: IntArray) -> IntArray:
    """A number per distinct (fight, code), numbered in order of first appearance."""
    return first_seen(fight * (int(code.max(initial=0)) + 1) + code)[1]


def _check_names(recruits: Sequence[tuple[int, Recruit]], fight: IntArray, name: IntArray) -> None:
    """Raise ``EngineError`` for the first creature whose name its fight already has."""
    key = fight * (int(name.max(initial=0)) + 1) + name
    if np.unique(key).size == key.size:
        return
    seen: set[tuple[int, str]] = set()
    for f, r in recruits:
        if (f, r.name) in seen:
            raise EngineError(f"a creature called {r.name!r} already exists")
        seen.add((f, r.name))
