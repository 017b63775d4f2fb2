"""Exact odds for the location card.

Where an attacker's current strike mode lands on the shown creature and what each level it would deal there, from the
exact-odds engine (``sandbox.systems.models.anatomy.exact_odds.exact_blow_odds``, the engine of ``sandbox blows
--exact``).

The engine enumerates the impact dice (the mode's, plus the attacker's Strength Impact Modifier, off hand and
thrown included), the hit-location tables under the attacker's aim and the mode's Spread, protection, the level
thresholds, glancing, amputation and Shock tests, against the defender as its wounds leave it now (its Shock,
Strength and keep-control MLs), on either engine (an array world's creature record carries the same wounds). It is
the engine of the rules that resolve blows at locations: a creature that carries no such wound state (a point
model's) gets no odds, and the card says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.components.models.anatomy import Injury
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.systems.creatures import Creature
from sandbox.systems.models.anatomy.exact_odds import dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.targets import CompiledTargets, target_profile
from sandbox.systems.strike import is_off_hand, strength_impact_modifier
from sandbox.world_protocol import World

__all__ = ["LocationOdds", "OddsUnavailable", "location_odds"]


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


class OddsUnavailable(Exception):
    """The odds cannot be computed; the message says why (for the card)."""


def location_odds(world: World, attacker: int, defender: int, location: int,
                  compiled: CompiledTargets) -> LocationOdds:
    """The exact odds of ``attacker``'s current strike mode at ``location`` of ``defender``, as the world is now.

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
