"""Scripted dice: ``forced_rolls`` makes a world's next d100s, dice and hit locations come out as a test says.

The rules draw every random number with a bare ``rng.random()`` from the world's streams (``ctx.streams[purpose]``,
``random.Random`` objects: ``sandbox.systems.streams``) and turn it into a roll where they use it: a d100 test
(``sandbox.systems.dice.skill_test``, and the anatomy blow's own amputation, shock and mishap tests), a d20
(``sandbox.systems.d20.roll_d20``), a die or a dice expression (``roll_die``, ``roll_dice``: impact, damage,
Severity and passing-out dice) and a hit location (``sandbox.systems.hit_location``, and the wound-depth model's
draw within a called part). Inside the block each stream's ``random`` is replaced, on that stream object alone, by
one that still makes the stream's own draw, then asks which rule is drawing (the caller's code object, looked up in
``_SITES``) and, when the script holds a value for that kind of roll, returns the float that makes the rule read
exactly that value. Telling the stream what each draw is for would cost every draw of every tick; asking the
caller's frame costs nothing outside the block.

Decisions: each scripted value takes the place of one of the stream's draws (the stream still moves on by it), so
once the script runs out every draw is the one the stream would have given at that position (what the rules do with
it may differ: the forced outcome differs). A roll with no scripted value left draws as usual. Values the world never
drew are an error when the block ends (``strict``), since a test that scripts a roll the rules never made is wrong
about the rules. Draws no site names (the AI's choices, a coma's interval die) are never scripted.
"""

from __future__ import annotations

import random
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any

from sandbox.components.body import BodyStructure
from sandbox.systems import d20, dice, hit_location, placement
from sandbox.systems.hit_location import MISS
from sandbox.systems.models.anatomy import blow as anatomy_blow
from sandbox.systems.models.depth import rules as depth_rules
from sandbox.testing.errors import HelperError
from sandbox.testing.forced_locations import Placement, known_location

__all__ = ["ScriptedRolls", "forced_rolls"]

_DIE = re.compile(r"^d([1-9]\d*)$")


class ScriptedRolls:
    """The values one ``forced_rolls`` block gives the world's rolls, shared by all of the world's streams.

    Args:
        dice: Die size -> the values its next rolls show, in order (100 for the d100 tests).
        locations: The locations the next blows land on, by name, in order.
        bodies: Every body the world's creatures may have (to read a hit table's locations by name).
    """

    def __init__(self, dice: Mapping[int, Sequence[int]], locations: Sequence[str],
                 bodies: Sequence[BodyStructure]) -> None:
        self._dice = {sides: deque(values) for sides, values in dice.items() if values}
        self._locations = deque(locations)
        self._placement = Placement(bodies)
        self.forced: list[tuple[str, int | str]] = []
        """Every scripted value the world drew, in order, as (``d100``, 1) or (``location``, "Skull")."""

    def remaining(self) -> dict[str, list[int | str]]:
        """The scripted values not drawn yet, by kind (``{"d100": [96], "location": ["Skull"]}``); empty when done."""
        out: dict[str, list[int | str]] = {f"d{sides}": list(values) for sides, values in sorted(self._dice.items())
                                           if values}
        if self._locations:
            out["location"] = list(self._locations)
        return out

    def draw(self, frame: FrameType, real: float) -> float:
        """What a draw made by the rule running in ``frame`` returns: a scripted roll's float, else ``real``."""
        site = _SITES.get(frame.f_code)
        return real if site is None else site(self, frame, real)

    # ---------------------------------------------------------------- the kinds of roll

    def die(self, sides: int, real: float) -> float:
        """A roll of one die of ``sides`` faces (``int(u * sides) + 1``): the next scripted value, if any."""
        queue = self._dice.get(sides)
        if not queue:
            return real
        value = queue.popleft()
        self.forced.append((f"d{sides}", value))
        return (value - 0.5) / sides

    def _next_location(self) -> str | None:
        if not self._locations:
            return None
        name = self._locations.popleft()
        self.forced.append(("location", name))
        return name

    def unaimed_zone(self, frame: FrameType, real: float) -> float:
        """``hit_location.locate``'s draw of an unaimed blow's zone number."""
        name = self._next_location()
        if name is None:
            return real
        here = frame.f_locals
        return self._placement.unaimed_zone(here["table"], here["numbers"], name)

    def spread_roll(self, frame: FrameType, real: float) -> float:
        """``hit_location.hit_zone_number``'s Spread die (its caller, ``locate``, holds the hit table)."""
        name = self._next_location()
        if name is None:
            return real
        here, caller = frame.f_locals, frame.f_back
        if caller is None or "table" not in caller.f_locals:
            raise HelperError("forced_rolls: a Spread die was rolled outside hit_location.locate; cannot place a "
                              "scripted location there")
        return self._placement.spread_roll(caller.f_locals["table"], here["target"], here["spread"], name)

    def in_zone(self, frame: FrameType, real: float) -> float:
        """``hit_location.location_in_zone``'s draw of the location within the zone struck."""
        name = None if self._placement.pending is not None else self._next_location()
        if name is None and self._placement.pending is None:
            return real
        here = frame.f_locals
        return self._placement.in_zone(here["table"], here["zone"], name)

    def in_called_part(self, frame: FrameType, real: float) -> float:
        """The wound-depth model's draw of the location within a called part (``strike_location``)."""
        name = self._next_location()
        if name is None:
            return real
        here = frame.f_locals
        return self._placement.in_part(here["body"], here["locs"], here["total"], name)

    def in_unaimed_table(self, frame: FrameType, real: float) -> float:
        """``placement.Placer.place``'s draw of a wound's location over a body's whole unaimed table.

        The point models that place their wounds (severity, status) draw it.
        """
        name = self._next_location()
        if name is None:
            return real
        here = frame.f_locals
        body, locations, cumulative = here["body"], here["locations"], here["cumulative"]
        try:
            loc = body.location_index(name)
        except KeyError:
            loc = MISS
        if loc not in locations:
            raise HelperError(f"a wound on a {body.name} cannot be placed at {name!r}; its locations: "
                              f"{', '.join(body.locations[li].name for li in locations)}")
        index = locations.index(loc)
        low = cumulative[index - 1] if index else 0.0
        return float(low + cumulative[index]) / 2

    def in_placed_part(self, frame: FrameType, real: float) -> float:
        """``placement._in_part``'s draw of a wound's location within the part a blow was aimed at."""
        name = self._next_location()
        if name is None:
            return real
        here = frame.f_locals
        body, locations = here["body"], here["locations"]
        total = sum(body.locations[li].weight for li in locations)
        return self._placement.in_part(body, locations, total, name)


def _d100(script: ScriptedRolls, frame: FrameType, real: float) -> float:
    return script.die(100, real)


def _d20(script: ScriptedRolls, frame: FrameType, real: float) -> float:
    return script.die(20, real)


def _sided(script: ScriptedRolls, frame: FrameType, real: float) -> float:
    return script.die(int(frame.f_locals["sides"]), real)


_SITES: dict[CodeType, Callable[[ScriptedRolls, FrameType, float], float]] = {
    dice.skill_test.__code__: _d100,
    anatomy_blow.resolve_blow.__code__: _d100,  # its amputation, shock, fumble and stumble tests read d100s inline
    d20.roll_d20.__code__: _d20,
    dice.roll_die.__code__: _sided,
    dice.roll_dice.__code__: _sided,
    hit_location.locate.__code__: ScriptedRolls.unaimed_zone,
    hit_location.hit_zone_number.__code__: ScriptedRolls.spread_roll,
    hit_location.location_in_zone.__code__: ScriptedRolls.in_zone,
    depth_rules.strike_location.__code__: ScriptedRolls.in_called_part,
    placement.Placer.place.__code__: ScriptedRolls.in_unaimed_table,
    placement._in_part.__code__: ScriptedRolls.in_placed_part,
}
"""The rules that draw a roll, by their code object, and how each one's draw is scripted."""


def _values(kind: str, given: object, sides: int) -> list[int]:
    values = [given] if isinstance(given, int) else list(given) if isinstance(given, Sequence) else None
    if values is None or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides for v in values):
        raise HelperError(f"forced_rolls: {kind} takes whole numbers from 1 to {sides} (one or a list), not {given!r}")
    return values


def _streams_of(world: object) -> tuple[dict[str, random.Random], Sequence[BodyStructure]]:
    ctx, catalog = getattr(world, "ctx", None), getattr(world, "catalog", None)
    streams = getattr(ctx, "streams", None)
    bodies = getattr(catalog, "bodies", None)
    if not isinstance(streams, Mapping) or not isinstance(bodies, Mapping) \
            or not all(isinstance(s, random.Random) for s in streams.values()):
        raise HelperError(f"forced_rolls scripts a Sandbox (the esper engine's world, whose streams are "
                          f"random.Random objects); {type(world).__name__} is not one")
    if any("random" in vars(s) for s in streams.values()):
        raise HelperError("forced_rolls is already scripting this world: one block at a time")
    return dict(streams), list(bodies.values())


def _scripted(stream: random.Random, script: ScriptedRolls) -> Callable[[], float]:
    own = stream.random  # the class's method, bound: the stream's own next draw

    def scripted_random() -> float:
        real = own()  # always drawn, so the stream moves on exactly as it would have
        return script.draw(sys._getframe(1), real)

    return scripted_random


@contextmanager
def forced_rolls(world: Any, *, d100: int | Sequence[int] = (), d20: int | Sequence[int] = (),
                 location: str | Sequence[str] = (), strict: bool = True,
                 **dice: int | Sequence[int]) -> Iterator[ScriptedRolls]:
    """Make the world's next rolls come out as given, inside the block.

    ``with forced_rolls(world, d100=[5, 100], d8=8, location="Left Upper Arm"): world.strike(...)``: the next d100
    test reads 05, the one after it 100, the next d8 shows 8, the next blow lands on the Left Upper Arm. Each kind is
    a queue of its own, shared by every stream of the world, in the order the rules roll; a kind with nothing left
    rolls as usual. Each scripted value stands in for one draw of its stream, so after the script the stream gives
    exactly the draws it would have given. Works under every damage model of the esper engine.

    Args:
        world: The world (a ``Sandbox``).
        d100: The next d100 rolls (1..100): attack and defence tests, amputation, shock, mishap, bleeding and
            healing tests under the anatomy model.
        d20: The next d20 rolls (1..20): the d20 models' attack rolls and their d20 saves.
        location: The locations the next blows land on, by name ("Right Forearm"); an aimed blow must be able to
            reach it (its Spread), or the draw raises ``HelperError`` naming what it can reach.
        strict: Fail when the block ends with scripted values the world never drew (default on).
        **dice: ``dN=`` for any other die of N faces (``d6=[6, 6, 6]``, ``d8=8``): every die of that size the rules
            roll, in dice expressions (impact, damage) and single dice (Severity, effect, mishap, passing out).

    Yields:
        The script: ``forced`` lists what was drawn, ``remaining()`` what was not.

    Raises:
        HelperError: A value no die of that size shows, an unknown keyword, a location no body of the content has,
            a world that is not a Sandbox of the esper engine or is being scripted already, an unreachable scripted
            location (when drawn), or values never drawn when the block ends (``strict``).
    """
    sized: dict[int, list[int]] = {100: _values("d100", d100, 100), 20: _values("d20", d20, 20)}
    for key, given in dice.items():
        match = _DIE.match(key)
        if match is None or int(match.group(1)) < 2:
            raise HelperError(f"forced_rolls takes d100=, d20=, location=, strict= and dN= for a die of N faces "
                              f"(d6=, d8=), not {key}=")
        sides = int(match.group(1))
        sized[sides] = _values(key, given, sides)
    names = [location] if isinstance(location, str) else list(location)
    streams, bodies = _streams_of(world)
    for name in names:
        if not isinstance(name, str):
            raise HelperError(f"forced_rolls: location takes names (\"Right Forearm\"), not {name!r}")
        known_location(name, bodies)
    script = ScriptedRolls(sized, names, bodies)
    for stream in streams.values():
        stream.random = _scripted(stream, script)  # type: ignore[method-assign]  # this stream object alone
    try:
        yield script
    finally:
        for stream in streams.values():
            vars(stream).pop("random", None)
    left = script.remaining()
    if strict and left:
        unused = "; ".join(f"{kind} {values}" for kind, values in left.items())
        drawn = ", ".join(f"{kind} {value!r}" for kind, value in script.forced) or "nothing"
        raise HelperError(f"forced_rolls: the world never drew these scripted values: {unused} (it drew {drawn})")
