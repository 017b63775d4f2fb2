"""What one tick of a fight looks like, frozen: the figures on the field, every creature's readout, the tick's attacks.

The viewer draws only scenes, never the world: a scene is built once a tick (by the thread that runs the world,
when the viewer has one), so drawing a frame never waits for the simulation nor touches a world mid-tick.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sandbox.components.body import BodyStructure
from sandbox.components.gear import ArmorPiece
from sandbox.components.readout import Readout
from sandbox.viewer.entries import Attack
from sandbox.world_protocol import World

__all__ = ["DOWN_SHOCK", "Figure", "Scene", "TickMarks", "is_down", "marks_of", "team_order", "verdict_of",
           "world_scene"]

DOWN_SHOCK = ("incapacitated", "unconscious", "dying", "dead")
"""Shock words of a creature that is down."""


@dataclass(frozen=True, slots=True)
class Figure:
    """A creature as it stands this tick.

    Attributes:
        entity: Its entity.
        name: Its name.
        team: Its team.
        kind: What it is (its creature's name: "Human").
        x: Position east, metres.
        y: Position south, metres.
        dead: Dead.
        out: Taken out of the fight (it cannot act).
        prone: Lying down.
        shock: Its readout's shock word.
        bleeding: A wound bleeds.
        dropped: Weapons lying at its feet.
        target: The entity it fights, or -1.
        reach: Its melee strike mode's reach in metres (0: none, or a missile mode).
        mode: The strike mode it means to use ("" when none).
        holding: What it holds.
        body: Its body (``None``: unknown, a replay with no scenario).
        armor: What it wears.
    """

    entity: int
    name: str
    team: str
    kind: str
    x: float
    y: float
    dead: bool
    out: bool
    prone: bool
    shock: str
    bleeding: bool
    dropped: int
    target: int
    reach: float
    mode: str
    holding: tuple[str, ...]
    body: BodyStructure | None
    armor: tuple[ArmorPiece, ...]

    @property
    def has_body(self) -> bool:
        """It has a body to strike (not incorporeal, not unknown)."""
        return self.body is not None and bool(self.body.locations)


@dataclass(frozen=True, slots=True)
class TickMarks:
    """What the timeline shows of one tick.

    Attributes:
        landed: Blows that reached a body.
        downs: Names of the creatures that went down (out of the fight or dead) in the tick.
    """

    landed: int
    downs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scene:
    """One tick of a fight, as drawn.

    Attributes:
        tick: The tick.
        time: Game time in seconds.
        figures: Entity -> figure, in entity order.
        readouts: Entity -> its readout.
        attacks: This tick's attacks (lines and labels on the field).
        logged: How many attacks the fight has had up to this tick (the log panel lists that many).
        finished: The fight is over (one team or none left able to fight, or the tick limit).
        verdict: How it ended ("Red wins", "no winner", "tick limit"), or "".
    """

    tick: int
    time: float
    figures: dict[int, Figure]
    readouts: dict[int, Readout]
    attacks: tuple[Attack, ...]
    logged: int
    finished: bool
    verdict: str


def is_down(figure: Figure) -> bool:
    """Out of the fight: dead, taken out, or in a shock state that takes it out."""
    return figure.dead or figure.out or figure.shock in DOWN_SHOCK


def marks_of(before: Scene | None, after: Scene) -> TickMarks:
    """The timeline's marks of the tick that led from ``before`` to ``after``."""
    landed = sum(1 for a in after.attacks if a.struck)
    downs = tuple(f.name for e, f in after.figures.items() if is_down(f) and (
        before is None or e not in before.figures or not is_down(before.figures[e])))
    return TickMarks(landed, downs)


def verdict_of(teams: Iterable[str], at_limit: bool) -> tuple[bool, str]:
    """``(finished, verdict)`` from the teams still able to fight."""
    able = list(teams)
    if len(able) == 1:
        return True, f"{able[0]} wins"
    if not able:
        return True, "no winner"
    return (True, "tick limit") if at_limit else (False, "")


def world_scene(world: World, attacks: tuple[Attack, ...], logged: int) -> Scene:
    """The scene of ``world`` as it is now, with this tick's ``attacks``."""
    modes = world.catalog.modes
    figures: dict[int, Figure] = {}
    readouts: dict[int, Readout] = {}
    for entity, c in world.creatures().items():
        reading = world.readout(entity)
        readouts[entity] = reading
        cond, comb, equip = c.condition, c.combatant, c.equipment
        mode = modes.get(comb.mode)
        figures[entity] = Figure(
            entity, c.identity.name, comb.team, c.anatomy.kind.name, c.position.x, c.position.y, cond.dead, cond.out,
            cond.prone, reading.shock, any(w.bleeding for w in reading.wounds), len(equip.dropped), comb.target,
            mode.reach if mode is not None and mode.kind == "melee" else 0.0, comb.mode,
            tuple(sorted(set(equip.holding.values()))), c.anatomy.body, c.armor.pieces)
    finished, verdict = verdict_of(world.able_teams(), world.tick >= world.max_ticks)
    return Scene(world.tick, world.time, figures, readouts, attacks, logged, finished, verdict)


def team_order(figures: Mapping[int, Figure]) -> list[str]:
    """The teams in the order their first creature appears."""
    return list(dict.fromkeys(f.team for f in figures.values()))
