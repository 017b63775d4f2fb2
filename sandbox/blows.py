"""What one strike does to one body: the engine behind ``sandbox blows`` and the blow benchmark.

``BlowSetup`` gathers the attacker's side (a strike mode and Strength, or a bare impact and aspect) and the
target's (body, armour, test Mastery Levels) from the catalog; ``BlowSetup.blows`` resolves blows one by one from
a seeded stream, each against the target as it was before the blow (a fresh, unwounded target every time).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sandbox.components.body import ASPECTS, Aspect, BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.rules import LEVEL_CODES
from sandbox.config import Catalog
from sandbox.setup_error import SetupError as SetupError  # re-exported: its home before sandbox.setup_error
from sandbox.systems.dice import roll_dice
from sandbox.systems.hit_location import target_zone_number
from sandbox.systems.models.anatomy.blow import BlowResult, TargetProfile, blow_reading, compile_target, resolve_blow
from sandbox.systems.models.anatomy.mishaps import keep_control_ml
from sandbox.systems.streams import make_stream
from sandbox.systems.strike import strength_impact_modifier

__all__ = ["BlowSetup", "Odds", "SetupError", "creature_for_body", "record", "resolve_mode", "seeded_blows"]


def creature_for_body(catalog: Catalog, body_id: str) -> CreatureDef:
    """The creature whose skills a target of ``body_id`` tests with.

    The creature of the same id, else the first creature with that body, else the average human.
    """
    if body_id in catalog.creatures:
        return catalog.creatures[body_id]
    for creature in catalog.creatures.values():
        if creature.body == body_id:
            return creature
    return catalog.creatures["human"]


def resolve_mode(catalog: Catalog, name: str) -> StrikeMode:
    """Find a strike mode by ``weapon.mode``, or by a bare mode id when only one weapon has it (``punch``)."""
    if name in catalog.modes:
        return catalog.modes[name]
    matches = [m for m in catalog.modes.values() if m.id.split(".", 1)[1] == name]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(sorted(catalog.modes))
    if matches:
        raise SetupError(f"mode {name!r} is ambiguous: {', '.join(m.id for m in matches)}")
    raise SetupError(f"unknown strike mode {name!r}; known modes: {known}")


@dataclass(slots=True)
class BlowSetup:
    """A strike against a target, ready to resolve many times.

    Attributes:
        catalog: The loaded configs.
        body: The target body.
        target: The compiled target (armour, MLs).
        mode: The strike mode, or ``None`` for a bare ``impact``/``aspect`` blow.
        impact: A fixed final impact (used as is), when no mode is given.
        aspect: Aspect index of the blow.
        strength_bonus: Strength Impact Modifier added to a mode's dice.
        aim: Target zone number, or ``None`` for an unaimed blow.
        aim_part: Name of the part aimed at.
        spread: The zone die size.
        location: A forced location index, or ``None``.
        armor: The worn pieces.
    """

    catalog: Catalog
    body: BodyStructure
    target: TargetProfile
    mode: StrikeMode | None
    impact: int | None
    aspect: int
    strength_bonus: int
    aim: int | None
    aim_part: str | None
    spread: int
    location: int | None
    armor: tuple[ArmorPiece, ...] = field(default_factory=tuple)

    @classmethod
    def build(cls, catalog: Catalog, *, body: BodyStructure, mode: str | None = None, impact: int | None = None,
              aspect: str | None = None, armor: Sequence[str] = (), aim: str | None = None,
              spread: int | None = None, location: str | None = None, strength: int | None = None,
              shock_ml: int | None = None, strength_ml: int | None = None) -> BlowSetup:
        """Check the options and build the setup.

        Args:
            catalog: The loaded configs.
            body: The target body.
            mode: ``weapon.mode`` (exclusive with ``impact``).
            impact: The blow's final impact, used as is (no Strength modifier).
            aspect: The aspect of a bare ``impact`` blow.
            armor: Armour piece ids worn by the target.
            aim: The part aimed at (``None``: unaimed).
            spread: Override the Spread (default: the mode's, or 1 for a bare impact).
            location: Force the location.
            strength: The attacker's STR (default: the average human's).
            shock_ml: The target's Shock ML (default: its creature's).
            strength_ml: The target's Strength ML (default: its creature's).

        Raises:
            SetupError: The options do not describe a blow.
        """
        if (mode is None) == (impact is None):
            raise SetupError("give either --mode WEAPON.MODE or --impact N with --aspect A")
        strike = resolve_mode(catalog, mode) if mode is not None else None
        if strike is not None and aspect is not None:
            raise SetupError("--aspect goes with --impact; a mode has its own aspect")
        if strike is None:
            if aspect is None:
                raise SetupError("--impact needs --aspect (one of " + ", ".join(ASPECTS) + ")")
            try:
                aspect_index = int(Aspect.parse(aspect))
            except ValueError as exc:
                raise SetupError(str(exc)) from None
        else:
            aspect_index = strike.aspect
        pieces = []
        for piece_id in armor:
            piece = catalog.armor.get(piece_id)
            if piece is None:
                raise SetupError(f"unknown armour piece {piece_id!r}; known: {', '.join(sorted(catalog.armor))}")
            if piece.body != body.id:
                raise SetupError(f"armour {piece_id!r} is made for the {piece.body!r} body, not {body.id!r}")
            pieces.append(piece)
        aim_zn = None
        if aim is not None:
            try:  # a part, or a location: it aims at its part's zone (document 000 aims by zone number)
                aim_zn = target_zone_number(body, _aimed_part(body, aim))
            except KeyError:
                parts = ", ".join(p.name for p in body.parts) or "none"
                raise SetupError(f"{body.name} has no part {aim!r} nor a location of that name; parts: {parts}"
                                 ) from None
            except ValueError as exc:
                raise SetupError(f"cannot aim there: {exc}") from None
        loc_index = None
        if location is not None:
            try:
                loc_index = body.location_index(location)
            except KeyError:
                raise SetupError(f"{body.name} has no location {location!r}") from None
        if spread is not None and spread < 1:
            raise SetupError(f"--spread must be at least 1, not {spread}")
        creature = creature_for_body(catalog, body.id)
        if strength is None:
            strength = catalog.creatures["human"].attributes.get("strength", 10)
        bonus = 0
        if strike is not None and strike.strength_modifier:
            bonus = strength_impact_modifier(strength, catalog.rules.strength_impact, thrown=strike.kind == "thrown")
        target = compile_target(
            body, catalog.rules, pieces,
            shock_ml=shock_ml if shock_ml is not None else catalog.skill_ml(creature, "shock"),
            strength_ml=strength_ml if strength_ml is not None else catalog.skill_ml(creature, "strength"),
            fumble_ml=keep_control_ml(catalog.skill_ml(creature, "dexterity"),
                                      catalog.skill_ml(creature, "legerdemain")),
            stumble_ml=keep_control_ml(catalog.skill_ml(creature, "agility"),
                                       catalog.skill_ml(creature, "acrobatics")),
        )
        return cls(catalog, body, target, strike, impact, aspect_index, bonus, aim_zn, aim,
                   spread if spread is not None else (strike.spread if strike else 1), loc_index, tuple(pieces))

    def describe(self) -> str:
        """One line saying what is struck with what."""
        if self.mode is not None:
            what = f"{self.mode.name} ({self.mode.impact} {ASPECTS[self.aspect]}, STR {self.strength_bonus:+d})"
        else:
            what = f"impact {self.impact} {ASPECTS[self.aspect]}"
        worn = ", ".join(p.name for p in self.armor) or "no armour"
        if self.location is not None:
            where = f"at {self.body.locations[self.location].name}"
        elif self.aim is not None:
            where = f"aimed at the {self.aim_part} (zone number {self.aim}), Spread {self.spread}"
        else:
            where = "unaimed"
        return f"{what} vs {self.body.name} ({worn}), {where}"

    def blows(self, n: int, rng: random.Random) -> Iterator[BlowResult]:
        """Resolve ``n`` blows, each against the unwounded target."""
        target, aspect, aim, spread, location = self.target, self.aspect, self.aim, self.spread, self.location
        dice = self.mode.impact if self.mode is not None else None
        fixed = self.impact or 0
        bonus = self.strength_bonus
        for _ in range(n):
            impact = roll_dice(dice, rng) + bonus if dice is not None else fixed
            yield resolve_blow(target, impact, aspect, rng, aim=aim, spread=spread, location=location)


def record(result: BlowResult, body: BodyStructure) -> dict[str, object]:
    """The JSON record of one blow (``sandbox blows --format jsonl``).

    ``sandbox.systems.models.anatomy.blow.blow_reading``.
    """
    return blow_reading(result, body)


@dataclass(slots=True)
class Odds:
    """Counts of what ``n`` blows did, for the odds table."""

    n: int = 0
    missed: int = 0
    dead: int = 0
    location: Counter[str] = field(default_factory=Counter)
    level: Counter[str] = field(default_factory=Counter)
    glancing: int = 0
    bleeder: int = 0
    amputation: Counter[str] = field(default_factory=Counter)
    shock: Counter[str] = field(default_factory=Counter)
    fumble: Counter[str] = field(default_factory=Counter)
    stumble: Counter[str] = field(default_factory=Counter)

    def add(self, result: BlowResult, body: BodyStructure) -> None:
        """Count one blow."""
        self.n += 1
        if result.missed:
            self.missed += 1
            return
        self.location[body.locations[result.location].name] += 1
        self.level[LEVEL_CODES[result.level]] += 1
        self.glancing += result.glancing
        self.bleeder += result.bleeder
        self.amputation[result.amputation] += 1
        self.shock[result.shock_state.label] += 1
        self.fumble[f"{result.fumble} -> {result.fumble_outcome}" if result.fumble != "none" else "none"] += 1
        self.stumble[f"{result.stumble} -> {result.stumble_outcome}" if result.stumble != "none" else "none"] += 1
        self.dead += result.dead


def seeded_blows(setup: BlowSetup, n: int, seed: int) -> Iterator[BlowResult]:
    """``n`` blows from the injury stream of run 0 of ``seed``."""
    return setup.blows(n, make_stream(seed, 0, "injury"))


def _aimed_part(body: BodyStructure, aim: str) -> int:
    """The part an aim names: a part, or the part of a location (raises ``KeyError`` for neither)."""
    try:
        return body.part_index(aim)
    except KeyError:
        return body.locations[body.location_index(aim)].part
