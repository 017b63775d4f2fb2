"""Exact odds for the location card.

Where an attacker's current strike mode lands on the shown creature and what each level it would deal there, from the
exact-odds engine (``sandbox.systems.models.anatomy.exact_odds.exact_blow_odds``, the engine of ``sandbox blows
--exact``).

The engine enumerates the impact dice (the mode's, plus the attacker's Strength Impact Modifier, off hand and
thrown included), the hit-location tables under the attacker's aim and the mode's Spread, protection, the level
thresholds, glancing, amputation and Shock tests, against the defender as its wounds leave it now (its Shock,
Strength and keep-control MLs), on either engine (an array world's creature record carries the same wounds). It is
the engine of the rules that resolve blows at locations. A creature that carries no such wound state (a point
model's) gets its model's own exact odds of the whole attack instead, from the world's outcome preview
(``Sandbox.preview``, ``PreviewOdds``); on a world with no preview, the card says why there are none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sandbox.components.models.anatomy import Injury
from sandbox.components.preview import OutcomePreview
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.systems.creatures import Creature
from sandbox.systems.errors import SandboxError
from sandbox.systems.hit_location import called_target
from sandbox.systems.models.anatomy.exact_odds import dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.targets import CompiledTargets, target_profile
from sandbox.systems.strike import is_off_hand, strength_impact_modifier
from sandbox.world_protocol import World

__all__ = ["LocationOdds", "OddsUnavailable", "PreviewOdds", "Previews", "location_odds"]


@dataclass(frozen=True, slots=True)
class LocationOdds:
    """What one landed blow of the attacker's current strike mode does at one location of the defender.

    Attributes:
        attacker: The attacker's name.
        mode: The strike mode's name.
        aim: How it aims ("unaimed", or the part).
        struck: The chance a landed blow strikes this location (of all landed blows; off the body included).
        off_body: The chance a landed blow finds no location at all.
        levels: At this location: the chance of each level, NA (no wound, glancing included) to G5.
        glancing: At this location: the chance the blow glances off rigid armour.
        bleeder: At this location: the chance of a bleeder.
        severed: At this location: the chance it is severed.
        shock: At this location: shock state -> chance, the states it can offer.
        dead: At this location: the chance the blow kills.
    """

    attacker: str
    mode: str
    aim: str
    struck: float
    off_body: float
    levels: tuple[float, ...]
    glancing: float
    bleeder: float
    severed: float
    shock: tuple[tuple[str, float], ...]
    dead: float

    heading = "Exact odds (the blow, once the attack lands):"

    def lines(self, location: str) -> list[str]:
        """The odds in words, for the card."""
        unwounded = self.levels[0] - self.glancing
        parts = [("no wound", unwounded), ("glances", self.glancing),
                 *zip(LEVEL_CODES[1:], self.levels[1:], strict=True)]
        levels = "  ".join(f"{what} {100 * p:.1f}%" for what, p in parts if p > 0.0005)
        shock = ", ".join(f"{state} {100 * p:.1f}%" for state, p in self.shock if p > 0.0005) or "none"
        return [f"{self.attacker}'s {self.mode} ({self.aim}): a landed blow strikes the {location} "
                f"{100 * self.struck:.1f}% of the time" + (f" (misses the body {100 * self.off_body:.1f}%)"
                                                           if self.off_body > 0.0005 else ""),
                f"There it deals: {levels}",
                f"bleeder {100 * self.bleeder:.1f}%, severed {100 * self.severed:.1f}%, kills {100 * self.dead:.1f}%",
                f"shock: {shock}"]


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


@dataclass(frozen=True, slots=True)
class PreviewOdds:
    """The exact odds of the attacker's whole attack (its roll included), from the world's outcome preview.

    Attributes:
        mode: The strike mode's name.
        preview: The world's ``OutcomePreview``.
    """

    mode: str
    preview: OutcomePreview

    @property
    def heading(self) -> str:
        """The card's heading over these odds."""
        return f"Exact odds ({self.preview.model} model, the whole attack):"

    def lines(self, location: str) -> list[str]:
        """The odds in words, for the card: to land, here, each level, to kill, to leave it down, to sever."""
        p = self.preview
        aim = "unaimed" if p.aim == "unaimed" else f"aimed at the {p.aim}"
        lands = f"{p.attacker}'s {self.mode} ({aim}): lands {_pct(p.land)}"
        if p.hit - p.land > 0.0005:
            lands += f" (hits {_pct(p.hit)}, finds nothing to strike {_pct(p.hit - p.land)})"
        where = (f"strikes the {location} {_pct(p.location(location))}" if p.locations is not None
                 else p.locations_note)
        levels = "  ".join(f"{c.name} {_pct(c.p)}" for c in p.levels if c.p > 0.0005) or "nothing"
        ends = f"kills {_pct(p.kill)}, leaves it unable to act {_pct(p.down)}"
        if p.sever is not None:
            ends += f", severs {_pct(p.sever)}"
        return [lands, where, f"{p.level_kind}: {levels}", ends]


@runtime_checkable
class Previews(Protocol):
    """A world that gives the exact odds of a strike under its own model (``Sandbox.preview``)."""

    def preview(self, attacker: int | None, target: int, mode: str, aim: str = "unaimed") -> OutcomePreview:
        """The exact odds of ``attacker`` striking ``target`` with ``mode`` at ``aim``."""
        ...


class OddsUnavailable(Exception):
    """The odds cannot be computed; the message says why (for the card)."""


def location_odds(world: World, attacker: int, defender: int, location: int,
                  compiled: CompiledTargets) -> LocationOdds | PreviewOdds:
    """The exact odds of ``attacker``'s current strike mode at ``location`` of ``defender``, as the world is now.

    A defender with no wounds at locations (a point model's) gets the world's outcome preview of the attack.

    Args:
        world: The world, on any engine.
        attacker: The attacking entity.
        defender: The defending entity.
        location: The location's index in the defender's body.
        compiled: A cache of compiled (body, armour) tables, kept by the caller.

    Raises:
        OddsUnavailable: The attacker has no strike mode now, or the defender carries no wound state that the
            exact-odds engine reads.
    """
    creatures = world.creatures()
    striker, target = creatures[attacker], creatures[defender]
    mode = world.catalog.modes.get(striker.combatant.mode)
    if mode is None:
        raise OddsUnavailable(f"{striker.name} has no strike mode it can use now")
    if not isinstance(getattr(target.state, "injury", None), Injury) and isinstance(world, Previews):
        return _previewed(world, striker, target, mode.id, mode.name)
    rules = world.catalog.rules
    injury = _wounds_of(target, world.model)
    cached = injury.profile
    try:  # the model caches the profile on the wounds (an esper world's record holds the creature's own): the card
        # leaves the world as it found it (an array world's record is a fresh copy: there, nothing to leave)
        profile = target_profile(target.anatomy, injury, target.armor, rules, world.catalog.skills, compiled)
    finally:
        injury.profile = cached
    bonus = 0
    strength = striker.anatomy.attributes.get("strength")
    if mode.strength_modifier and strength is not None:
        gripping = [p for p, item in striker.equipment.holding.items() if item == mode.weapon]
        off = is_off_hand(striker.anatomy.body, gripping, striker.anatomy.kind.dominance)
        bonus = strength_impact_modifier(strength, rules.strength_impact, off_hand=off, thrown=mode.kind == "thrown")
    impacts = dice_distribution(mode.impact, bonus)
    aim_zone = striker.combatant.aim_zone or None
    overall = exact_blow_odds(profile, impacts, mode.aspect, aim_zone, mode.spread)
    there = exact_blow_odds(profile, impacts, mode.aspect, location=location)
    aim = "unaimed" if aim_zone is None else f"aimed at the {striker.combatant.aim}"
    return LocationOdds(
        striker.name, mode.name, aim, overall.location.get(location, 0.0), overall.missed, tuple(there.level),
        there.glancing, there.bleeder, there.amputation.get("severed", 0.0),
        tuple((state.label, there.shock[state]) for state in ShockState if state is not ShockState.NONE),
        there.dead)


def _previewed(world: Previews, striker: Creature, target: Creature, mode: str, name: str) -> PreviewOdds:
    """The world's preview of ``striker``'s attack, aimed as it aims now where the target has what it aims at.

    Raises:
        OddsUnavailable: The world refuses the preview (the message says why).
    """
    aim = striker.combatant.aim if striker.combatant.aim_zone else "unaimed"
    try:
        called_target(target.anatomy.body, aim)
    except ValueError:  # "random", or a part this body lacks: the odds of an unaimed blow
        aim = "unaimed"
    try:
        return PreviewOdds(name, world.preview(striker.entity, target.entity, mode, aim))
    except SandboxError as exc:
        raise OddsUnavailable(str(exc)) from None


def _no_wounds(model: str) -> str:
    return (f"the {model} model keeps no wounds at locations the exact-odds engine reads (its blows follow its own "
            "rules)")


def _wounds_of(creature: Creature, model: str) -> Injury:
    """The wounds a creature record carries (the anatomy model's state).

    Raises:
        OddsUnavailable: Its model keeps none the exact-odds engine reads.
    """
    injury = getattr(creature.state, "injury", None)  # the anatomy model's state holds its Injury component
    if not isinstance(injury, Injury):
        raise OddsUnavailable(_no_wounds(model))
    return injury
