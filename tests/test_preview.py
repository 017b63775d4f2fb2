"""The outcome preview (``Sandbox.preview``): its shape under every model, its refusals, that it changes nothing, and
its numbers against brute-force enumeration of the real rule functions and the rule documents' worked examples.

Statistical checks against real strikes are in ``test_preview_strikes.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction

import pytest

from sandbox import Sandbox, SandboxError
from sandbox.components.gear import Dice
from sandbox.components.models.anatomy import Shock
from sandbox.components.models.severity import SeverityState, SeverityWeapon
from sandbox.components.models.status import LEVELS, StatusState
from sandbox.components.models.strength import StrengthHealth, WeaponDamage
from sandbox.components.preview import OutcomePreview
from sandbox.components.rules import ShockState
from sandbox.components.state import Condition
from sandbox.preview import PreviewError
from sandbox.systems.d20 import d20_attack
from sandbox.systems.distributions import dice_pmf
from sandbox.systems.models.anatomy.damage import offered_state
from sandbox.systems.models.anatomy.exact_odds import dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.preview import landing_chance
from sandbox.systems.models.anatomy.record import opposed
from sandbox.systems.models.anatomy.targets import target_profile
from sandbox.systems.models.depth.rules import outcome_probabilities
from sandbox.systems.models.severity.preview import preview_blow as severity_preview
from sandbox.systems.models.severity.rules import apply_wound, resolve_damage
from sandbox.systems.models.status.preview import preview_blow as status_preview
from sandbox.systems.models.status.rules import penalty, resolve_wound
from sandbox.systems.models.strength.preview import damage_odds, exploding_survival
from sandbox.systems.models.strength.preview import preview_blow as strength_preview
from sandbox.systems.models.strength.rules import roll_damage
from sandbox.systems.strike import strength_impact_modifier

MODELS = ("anatomy", "severity", "depth", "strength", "status")
EXACT = 1e-12


class Faces:
    """A generator whose every draw is a die face, given in order (``int(x * sides) + 1`` reads each back)."""

    def __init__(self, *faces: tuple[int, int]) -> None:
        self._values = [(face - 0.5) / sides for face, sides in faces]

    def random(self) -> float:
        """The next face's float."""
        return self._values.pop(0)


def duel(model: str, *, attacker_weapon: str = "battleaxe", armor: tuple[str, ...] = ("gambeson", "helm"),
         seed: int = 5) -> Sandbox:
    world = Sandbox(seed=seed, model=model)
    world.spawn("human", name="Aldric", team="Red", weapons=[attacker_weapon], armor=[])
    world.spawn("human", name="Bertram", team="Blue", position=(1.0, 0.0), weapons=["broadsword"], armor=list(armor))
    return world


def paths(sides: int, run: Callable[[Faces], int], cut: float = 1e-13) -> Iterator[tuple[int, Fraction]]:
    """Every result of ``run`` over every sequence of ``sides``-faced die draws it makes, with its chance.

    Depth first: a path is extended one draw at a time while ``run`` asks for more; paths less likely than ``cut``
    are left out (an exploding die's sequences never end).
    """
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        rng = _Prefix(prefix, sides)
        try:
            value = run(rng)  # type: ignore[arg-type]
        except _Deeper:
            if Fraction(1, sides ** (len(prefix) + 1)) >= cut:
                stack.extend((*prefix, face) for face in range(1, sides + 1))
            continue
        yield value, Fraction(1, sides ** len(prefix))


class _Deeper(Exception):
    pass


class _Prefix:
    def __init__(self, faces: tuple[int, ...], sides: int) -> None:
        self.faces, self.sides, self.drawn = faces, sides, 0

    def random(self) -> float:
        if self.drawn == len(self.faces):
            raise _Deeper
        self.drawn += 1
        return (self.faces[self.drawn - 1] - 0.5) / self.sides


# ---------------------------------------------------------------------------------------------- the shape


@pytest.mark.parametrize("model", MODELS)
def test_every_model_previews_a_strike_whose_levels_sum_to_its_chance_to_land(model: str) -> None:
    with duel(model) as world:
        preview = world.preview("Aldric", "Bertram", "battleaxe.cut")
    assert isinstance(preview, OutcomePreview)
    assert (preview.model, preview.attacker, preview.target, preview.mode) == (model, "Aldric", "Bertram",
                                                                               "battleaxe.cut")
    assert 0.0 < preview.land <= preview.hit <= 1.0
    assert sum(c.p for c in preview.levels) == pytest.approx(preview.land, abs=1e-9)
    assert 0.0 <= preview.kill <= preview.down <= 1.0
    if preview.locations is None:
        assert preview.locations_note and model in preview.locations_note
    else:
        assert not preview.locations_note
        assert sum(c.p for c in preview.locations) == pytest.approx(preview.land, abs=1e-9)
    if preview.sever is None:
        assert preview.sever_note == f"the {model} model has no amputation"
    for name, rows in preview.tables:
        assert preview.table(name) == rows and all(0.0 < c.p <= 1.0 for c in rows)
    with pytest.raises(KeyError, match="this preview has"):
        preview.table("no such table")


def test_the_models_with_locations_say_where_and_the_others_say_why_not() -> None:
    located = set()
    for model in MODELS:
        with duel(model) as world:
            if world.preview("Aldric", "Bertram", "battleaxe.cut").locations is not None:
                located.add(model)
    assert located == {"anatomy", "depth"}
    with duel("anatomy") as world:
        aimed = world.preview("Aldric", "Bertram", "battleaxe.cut", "Head")
    assert aimed.location("Skull") > 0 and aimed.location("Left Foot") == 0.0
    assert {c.name for c in aimed.locations or ()} <= {loc.name for loc in world.catalog.bodies["human"].locations}


def test_a_blow_struck_directly_needs_no_attack_roll() -> None:
    for model in MODELS:
        with duel(model) as world:
            preview = world.preview(None, "Bertram", "battleaxe.cut")
        assert preview.hit == 1.0 and preview.attacker == ""


def test_a_target_already_down_stays_down_whatever_lands() -> None:
    with duel("anatomy") as world:
        world.get("Bertram", Shock).state = ShockState.INCAPACITATED
        world.refresh("Bertram")
        preview = world.preview("Aldric", "Bertram", "battleaxe.cut")
    assert preview.down_now and preview.down == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(("args", "match"), [
    (("Nobody", "Bertram", "battleaxe.cut"), "no creature"),
    (("Aldric", "Nobody", "battleaxe.cut"), "no creature"),
    (("Aldric", "Bertram", "battleaxe.swing"), "unknown strike mode 'battleaxe.swing'"),
    (("Aldric", "Bertram", "battleaxe.cut", "Tail"), "no part or location 'Tail'"),
])
@pytest.mark.parametrize("model", MODELS)
def test_a_bad_request_is_refused_by_name_and_changes_nothing(model: str, args: tuple[str, ...], match: str) -> None:
    with duel(model) as world:
        before = (len(world.log), world.readout("Bertram"), world.time)
        with pytest.raises(PreviewError, match=match) as caught:
            world.preview(*args)
        assert isinstance(caught.value, SandboxError)
        assert (len(world.log), world.readout("Bertram"), world.time) == before


@pytest.mark.parametrize("model", MODELS)
def test_a_dead_target_or_attacker_has_no_preview(model: str) -> None:
    with duel(model) as world:
        world.get("Bertram", Condition).dead = True
        with pytest.raises(PreviewError, match="Bertram is dead"):
            world.preview("Aldric", "Bertram", "battleaxe.cut")
        with pytest.raises(PreviewError, match="Bertram is dead"):
            world.preview("Bertram", "Aldric", "broadsword.cut")


def test_a_mode_the_model_has_no_numbers_for_is_refused() -> None:
    with duel("status") as world:
        tables = world.damage_model.tables
        world.damage_model.tables = replace(tables, weapons={k: v for k, v in tables.weapons.items()  # type: ignore
                                                             if k != "battleaxe.cut"})
        with pytest.raises(PreviewError, match=r"no damage for strike mode 'battleaxe\.cut'"):
            world.preview("Aldric", "Bertram", "battleaxe.cut")


# ---------------------------------------------------------------------------------------------- it changes nothing


@pytest.mark.parametrize("model", MODELS)
def test_a_preview_draws_nothing_so_the_next_strike_is_the_one_the_world_would_have_made(model: str) -> None:
    with duel(model) as world:
        world.inflict("Bertram", **({"location": "Thorax", "level": "S2"} if model == "anatomy" else
                                    {"level": "flesh", "location": "Thorax"} if model == "depth" else
                                    {"severity": 1, "effect": "stagger"} if model == "severity" else
                                    {"damage": 3}))
        twin = world.copy()
        for aim in ("unaimed", "Head"):
            world.preview("Aldric", "Bertram", "battleaxe.cut", aim)
            world.preview(None, "Aldric", "broadsword.cut", aim)
        assert world.readout("Bertram") == twin.readout("Bertram")
        for _ in range(5):
            mine = world.strike("Bertram", "battleaxe.cut", "Head", attacker="Aldric")
            theirs = twin.strike("Bertram", "battleaxe.cut", "Head", attacker="Aldric")
            assert mine == theirs
        twin.close()


# ---------------------------------------------------------------------------------------------- anatomy, exactly


@pytest.mark.parametrize(("attack", "defence", "defends", "drop_a", "drop_d"), [
    (55, 40, True, 0, 0), (55, None, True, 0, 0), (None, 40, True, 0, 0), (70, 60, False, 0, 0),
    (60, 50, True, 1, 0), (60, 50, True, 0, 1), (95, 5, True, 0, 0)])
def test_the_chance_to_land_is_every_pair_of_d100_rolls_through_the_opposed_test(
        attack: int | None, defence: int | None, defends: bool, drop_a: int, drop_d: int, rules: object) -> None:
    tests = rules.tests  # type: ignore[attr-defined]
    landed = 0
    for a, d in itertools.product(range(1, 101), repeat=2):
        rng = Faces((a, 100), (d, 100))
        landed += opposed(attack, defence, defends, rng, tests, drop_a, drop_d)[2]
    assert landing_chance(attack, defence, defends, tests, drop_a, drop_d) == pytest.approx(landed / 10_000, abs=EXACT)


@pytest.mark.parametrize("now", [ShockState.NONE, ShockState.STUNNED])
def test_down_after_a_blunt_blow_is_the_offered_shock_worsening_the_state_it_is_in(now: ShockState) -> None:
    with duel("anatomy", attacker_weapon="mace") as world:
        world.get("Bertram", Shock).state = now
        world.refresh("Bertram")
        preview = world.preview("Aldric", "Bertram", "mace.crush", "Head")
        target = world.creatures()[world.entity("Bertram")]
        model = world.damage_model
        profile = target_profile(target.anatomy, target.state.injury, target.armor,  # type: ignore[attr-defined]
                                 world.catalog.rules, world.catalog.skills, model.compiled)  # type: ignore[attr-defined]
        strength = world.creatures()[world.entity("Aldric")].anatomy.attributes["strength"]
    mode = world.catalog.modes["mace.crush"]
    bonus = strength_impact_modifier(strength, world.catalog.rules.strength_impact)
    zone = world.catalog.bodies["human"].zones[0].first
    offered = exact_blow_odds(profile, dice_distribution(mode.impact, bonus), mode.aspect, zone, mode.spread)
    down = sum(p for s, p in zip(ShockState, offered.shock, strict=True)
               if s is ShockState.DEAD or offered_state(now, s) >= ShockState.INCAPACITATED)
    assert offered.amputation.get("severed", 0.0) == 0.0  # a blunt blow severs nothing: the shock alone decides
    assert preview.down == pytest.approx(preview.hit * down, abs=EXACT)
    assert preview.kill == pytest.approx(preview.hit * offered.dead, abs=EXACT)
    if now is ShockState.STUNNED:  # a second stun incapacitates: stunned after only where nothing was offered
        after = {c.name: c.p for c in preview.table("shock state after")}
        assert after["stunned"] == pytest.approx(preview.hit * offered.shock[ShockState.NONE], abs=EXACT)


def test_a_new_wound_compounds_where_one_already_is() -> None:
    with duel("anatomy", attacker_weapon="mace") as world:
        world.inflict("Bertram", location="Skull", level="M1")
        preview = world.preview(None, "Bertram", "mace.crush", "Head")
        target = world.creatures()[world.entity("Bertram")]
        profile = target_profile(target.anatomy, target.state.injury, target.armor,  # type: ignore[attr-defined]
                                 world.catalog.rules, world.catalog.skills,
                                 world.damage_model.compiled)  # type: ignore[attr-defined]
    skull = world.catalog.bodies["human"].location_index("Skull")
    mode = world.catalog.modes["mace.crush"]
    there = exact_blow_odds(profile, dice_distribution(mode.impact), mode.aspect, location=skull)
    # The wound there is M1: any new wound of M1 or worse meets the sum of the levels already there.
    expected = preview.location("Skull") * (1.0 - there.level[0])
    assert expected > 0
    assert preview.table("wound")[-1].name == "compounds"
    assert preview.table("wound")[-1].p == pytest.approx(expected, abs=EXACT)


# ---------------------------------------------------------------------------------------------- severity, exactly


@pytest.mark.parametrize("helpless", [False, True])
def test_the_severity_preview_is_every_face_of_every_die_through_the_rules(helpless: bool) -> None:
    """Every d20 face, damage die, Severity d3 and effect die, through ``resolve_damage`` and ``apply_wound``.

    A helpless target (one that cannot act) is hit whatever the roll, and its armour is ignored.
    """
    with duel("severity") as world:
        rules = world.damage_model.tables
        creatures = world.creatures()
        attacker = creatures[world.entity("Aldric")]
        state = SeverityState(threshold_base=3, brawn=1, poise=1, wit=0, speed=2, attack_bonus=2, defense=13,
                              armor_value=3, first_aid=None, bloody=1, weaken=1)
        target = creatures[world.entity("Bertram")]
        target = target._replace(state=state, condition=replace(target.condition, out=helpless))
    weapon = SeverityWeapon(Dice(1, 6, 1), anti_armor="halve")
    preview = severity_preview(rules, target, world.catalog.modes["battleaxe.cut"], "unaimed", weapon, attacker)
    hit = Fraction(sum(helpless or d20_attack(attacker.state.attack_bonus, state.defense,  # type: ignore
                                              Faces((n, 20))).hit for n in range(1, 21)), 20)
    outcomes: dict[str, Fraction] = {}
    effects: dict[str, Fraction] = {}
    for face in range(1, 7):
        rolled = face + 1
        dealt = rolled if helpless else max(0, rolled - 3 // 2)
        for d3s in itertools.product(range(1, 4), repeat=dealt):
            for effect in range(1, 7):
                rng = Faces(*((d, 3) for d in d3s), (effect, 6))
                damage = resolve_damage(rolled, 3, "halve", rules, rng, helpless=helpless)
                p = hit * Fraction(1, 6) / 3 ** dealt / 6
                result = apply_wound(replace(state), damage.severity, damage.effect, rules)
                outcomes[result.outcome] = outcomes.get(result.outcome, Fraction(0)) + p
                name = damage.effect or "no wound"
                effects[name] = effects.get(name, Fraction(0)) + p
    assert preview.hit == pytest.approx(float(hit), abs=EXACT)
    for c in preview.table("outcome"):
        assert c.p == pytest.approx(float(outcomes[c.name]), abs=EXACT), c.name
    assert {c.name for c in preview.table("outcome")} == {k for k, v in outcomes.items() if v}
    for c in preview.levels:
        assert c.p == pytest.approx(float(effects[c.name]), abs=EXACT), c.name
    assert preview.kill == pytest.approx(float(outcomes.get("dead", 0)), abs=EXACT)
    fell = float(sum(outcomes.get(k, 0) for k in ("dead", "incapacitated", "fainted")))
    assert preview.down == pytest.approx(1.0 if helpless else fell, abs=EXACT)  # the helpless are down already


def test_document_001_s_brawn_0_example_incapacitates_through_overflow() -> None:
    """A Human (base 3) of Brawn 0: a Severity 3 Weaken takes Brawn to -1 with 2 overflow, 5 > 3: incapacitated."""
    with duel("severity") as world:
        rules = world.damage_model.tables
        state = SeverityState(threshold_base=3, brawn=0, poise=3, wit=3, speed=4, attack_bonus=0, defense=10,
                              armor_value=0, first_aid=None)
        target = world.creatures()[world.entity("Bertram")]._replace(state=state)
    # Exactly 3 points through: Severity 0..3 by Binomial(3, 1/3); only Severity 3 passes Threshold 3, as a
    # Weaken (overflow) or as a Bloody (Threshold 0: fainted); nothing passes 2 x 3.
    preview = severity_preview(rules, target, world.catalog.modes["battleaxe.cut"], "unaimed",
                               SeverityWeapon(Dice(0, 0, 3)))
    outcome = {c.name: c.p for c in preview.table("outcome")}
    assert outcome["none"] == pytest.approx(8 / 27, abs=EXACT)
    assert outcome["incapacitated"] == pytest.approx(1 / 27 / 6, abs=EXACT)
    assert outcome["fainted"] == pytest.approx(1 / 27 / 6, abs=EXACT)
    assert outcome["wounded"] == pytest.approx(19 / 27 - 2 / 27 / 6, abs=EXACT)
    assert sum(outcome.values()) == pytest.approx(1.0, abs=EXACT)
    assert "dead" not in outcome and preview.down == pytest.approx(2 / 27 / 6, abs=EXACT)


# ---------------------------------------------------------------------------------------------- depth, exactly


def test_a_called_location_s_depths_are_the_rules_own_twenty_faces() -> None:
    with duel("depth", attacker_weapon="spear", armor=()) as world:
        preview = world.preview("Aldric", "Bertram", "spear.impale", "Abdomen")
        me = world.creatures()[world.entity("Aldric")].state
        foe = world.creatures()[world.entity("Bertram")].state
        tables = world.damage_model.tables
    weapon = tables.weapons["spear.impale"]  # type: ignore[attr-defined]
    bonus = me.strength_mod + tables.called_shot_modifier  # type: ignore[attr-defined]
    odds = outcome_probabilities(bonus, foe.defense, weapon.depth_bonus,  # type: ignore[attr-defined]
                                 tiers=tables.tiers)  # type: ignore[attr-defined]
    assert preview.hit == pytest.approx(1 - odds["miss"], abs=EXACT)
    assert preview.locations is not None and [c.name for c in preview.locations] == ["Abdomen"]
    for tier, p in odds.items():
        if tier != "miss":
            assert preview.level(tier) == pytest.approx(p, abs=EXACT), tier


@pytest.mark.parametrize("aim", ["Abdomen", "Left Arm"])
def test_the_depth_preview_is_every_d20_face_through_real_strikes(aim: str) -> None:
    """Each face of the d20 (and of the location draw within a called part) struck for real on a copy of the world."""
    with duel("depth", attacker_weapon="spear", armor=()) as world:
        world.inflict("Bertram", level="bone", location="Thorax", aspect="cutting")
        preview = world.preview("Aldric", "Bertram", "spear.impale", aim)
        body = world.catalog.bodies["human"]
        if aim == "Left Arm":
            part = body.parts[body.part_index(aim)]
            weights = [(li, body.locations[li].weight) for li in part.locations if body.locations[li].weight > 0]
            total = sum(w for _, w in weights)
            spots, running = [], 0.0
            for _, w in weights:
                spots.append(((running + w / 2) / total, w / total))
                running += w
        else:
            spots = [(0.5, 1.0)]
        frozen = world.freeze()
    kill = down = Fraction(0)
    levels: dict[str, float] = {}
    for natural in range(1, 21):
        for draw, weight in spots:
            copy = frozen.copy()
            copy.ctx.streams["attack"] = Faces((natural, 20), (1, copy.damage_model.tables.mishap_die))  # type: ignore
            copy.ctx.streams["injury"] = _Fixed(draw)
            start = len(copy.log)
            copy.strike("Bertram", "spear.impale", aim, attacker="Aldric")
            record = copy.log[start]
            reading = copy.readout("Bertram")
            p = Fraction(1, 20) * Fraction(weight)
            if record.location:  # type: ignore[attr-defined]
                name = ("none", "skin", "flesh", "bone", "organ")[record.tier]  # type: ignore[attr-defined]
                levels[name] = levels.get(name, 0.0) + float(p)
            kill += p * (not reading.alive)
            down += p * (not reading.can_act)
            copy.close()
    assert preview.kill == pytest.approx(float(kill), abs=1e-9)
    assert preview.down == pytest.approx(float(down), abs=1e-9)
    assert {c.name: pytest.approx(c.p, abs=1e-9) for c in preview.levels} == levels


class _Fixed:
    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value


# ---------------------------------------------------------------------------------------------- strength, exactly


def test_document_003_s_exploding_dice() -> None:
    # A d6 rolling 6 then 3 gives 5 + 3 = 8: the one sequence of total 8.
    assert exploding_survival(6, 8) - exploding_survival(6, 9) == pytest.approx(1 / 36, abs=EXACT)
    assert exploding_survival(6, 6) == pytest.approx(1 / 6, abs=EXACT)
    # Sybilla's enhanced d6 keeps the higher of two: P(8) = P(max >= 8) - P(max >= 9) = (33^2 - 32^2) / 36^2.
    amounts, tail = damage_odds(WeaponDamage(6), 1, 0, True, 0, 100)
    assert amounts[8] == pytest.approx(65 / 1296, abs=EXACT)
    assert sum(amounts.values()) + tail == pytest.approx(1.0, abs=EXACT)
    # Balthasar's impaired d8 keeps the lower: P(3) = P(min >= 3) - P(min >= 4) = (6/8)^2 - (5/8)^2.
    amounts, _ = damage_odds(WeaponDamage(8), 0, 1, True, 0, 100)
    assert amounts[3] == pytest.approx((36 - 25) / 64, abs=EXACT)
    # Impaired twice: no damage at all.
    assert damage_odds(WeaponDamage(8, bonus=3), 0, 2, True, 0, 100) == ({0: 1.0}, 0.0)


@pytest.mark.parametrize(("health", "damage", "outcome"), [
    (9, 5, "critical"), (9, 4, "hurt"), (4, 2, "critical"), (4, 1, "hurt"), (9, 9, "dead"), (2, 9, "dead"),
    (4, 4, "dying")])
def test_document_003_s_theobald(health: int, damage: int, outcome: str) -> None:
    """Theobald (STR 9): 5 at full health is critical, 4 is not; at 4 health 2 is; 9 kills at any health."""
    with duel("strength") as world:
        tables = world.damage_model.tables
        state = StrengthHealth({"STR": 9, "WIT": 9, "AGI": 9}, {"STR": 9, "WIT": 9, "AGI": 9}, 15, health)
        target = world.creatures()[world.entity("Bertram")]._replace(state=state)
    fixed = replace(tables, weapons={"battleaxe.cut": WeaponDamage(1, bonus=damage - 1)})  # a die of one face: 1
    preview = strength_preview(fixed, target, world.catalog.modes["battleaxe.cut"], "unaimed", 0)
    assert [(c.name, c.p) for c in preview.table("outcome")] == [(outcome, 1.0)]
    assert preview.kill == (outcome == "dead")
    assert preview.down == (outcome != "hurt")


def test_the_strength_preview_is_every_exploding_sequence_and_every_d20_face_through_real_strikes() -> None:
    with duel("strength") as world:
        world.inflict("Bertram", damage=3)
        preview = world.preview("Aldric", "Bertram", "battleaxe.cut")
        model = world.damage_model
        tables = model.tables
        attacker = world.creatures()[world.entity("Aldric")]
        target = world.creatures()[world.entity("Bertram")]
        weapon = tables.weapons["battleaxe.cut"]  # type: ignore[attr-defined]
        armor = model.armor_of(target, world.ctx)[0]  # type: ignore[attr-defined]
        bonus = attacker.state.attack + weapon.attack  # type: ignore[attr-defined]
        frozen = world.freeze()
    defense = target.state.defense  # type: ignore[attr-defined]
    boost = tables.natural_20_enhanced  # type: ignore[attr-defined]
    dealt: dict[int, Fraction] = {}
    for natural in range(1, 21):
        if not d20_attack(bonus, defense, Faces((natural, 20))).hit:
            continue
        extra = boost if natural == 20 else 0
        for total, p in paths(weapon.die, lambda rng, e=extra: roll_damage(  # type: ignore[misc]
                weapon.die, rng, weapon.enhanced + e, weapon.impaired, weapon.bonus, tables.explode).total):
            amount = max(total - armor, 0)
            dealt[amount] = dealt.get(amount, Fraction(0)) + Fraction(1, 20) * p
    # What each amount does, by the model itself on a copy of the world.
    kill = down = 0.0
    for amount, p in dealt.items():
        copy = frozen.copy()
        copy.inflict("Bertram", damage=amount)
        reading = copy.readout("Bertram")
        kill += float(p) * (not reading.alive)
        down += float(p) * (not reading.can_act)
        copy.close()
    assert preview.hit == pytest.approx(float(sum(dealt.values())), abs=1e-9)
    assert preview.kill == pytest.approx(kill, abs=1e-9)
    assert preview.down == pytest.approx(down, abs=1e-9)


# ---------------------------------------------------------------------------------------------- status, exactly


def test_document_004_s_ultor() -> None:
    """Ultor (Endurance 8): 3 HP leaves him healthy; 10 more make 13, slightly wounded; 5 more make 10, wounded."""
    with duel("status") as world:
        tables = world.damage_model.tables
        target = world.creatures()[world.entity("Bertram")]
    mode = world.catalog.modes["battleaxe.cut"]
    for level, minor, damage, after in ((0, 0, 3, "healthy"), (0, 3, 10, "slightly wounded"),
                                        (1, 5, 5, "wounded")):
        state = StatusState(constitution=10, endurance=8, level=level, minor=minor)
        preview = status_preview(tables, target._replace(state=state), mode, "unaimed",  # type: ignore[arg-type]
                                 replace(tables.weapons["battleaxe.cut"], damage=Dice(0, 0, damage)))
        assert [(c.name, c.p) for c in preview.levels] == [(after, 1.0)]


def test_the_status_preview_is_every_face_of_every_die_through_the_ladder() -> None:
    with duel("status") as world:
        tables = world.damage_model.tables
        creatures = world.creatures()
        attacker = creatures[world.entity("Aldric")]
        state = StatusState(constitution=11, endurance=7, attack_bonus=1, defense=12, armor=2, level=3, minor=4)
        target = creatures[world.entity("Bertram")]._replace(state=state)
    weapon = tables.weapons["battleaxe.cut"]
    preview = status_preview(tables, target, world.catalog.modes["battleaxe.cut"], "unaimed", weapon, attacker)
    mine = attacker.state
    own = penalty(mine.level, mine.penalty_reduction, tables.penalties)  # type: ignore[attr-defined]
    guard = penalty(3, 0, tables.penalties)
    hits = [n for n in range(1, 21)
            if d20_attack(mine.attack_bonus + weapon.attack_bonus, 12 + guard, Faces((n, 20)), own).hit]  # type: ignore
    kill = down = Fraction(0)
    levels: dict[str, Fraction] = {}
    dice = weapon.damage
    for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        rolled = max(0, sum(faces) + dice.modifier + (own if tables.penalty_to_damage else 0))
        for test_face in range(1, tables.passing_out_die + 1):
            p = Fraction(len(hits), 20) / dice.sides ** dice.count / tables.passing_out_die
            wound, test = resolve_wound(replace(state), target.condition, max(0, rolled - 2), tables,
                                        Faces((test_face, tables.passing_out_die)))
            levels[LEVELS[wound.after]] = levels.get(LEVELS[wound.after], Fraction(0)) + p
            kill += p * wound.killed
            down += p * (wound.killed or (test is not None and test.result))
    assert preview.hit == pytest.approx(len(hits) / 20, abs=EXACT)
    assert preview.kill == pytest.approx(float(kill), abs=EXACT)
    assert preview.down == pytest.approx(float(down), abs=EXACT)
    assert {c.name: pytest.approx(c.p, abs=EXACT) for c in preview.levels} == {k: float(v) for k, v in levels.items()}


def test_the_shared_dice_sums_match_every_face() -> None:
    for dice in (Dice(2, 6, 1), Dice(3, 4, -2), Dice(0, 0, 5), Dice(1, 10, 0)):
        counts: dict[int, int] = {}
        faces = list(itertools.product(range(1, max(dice.sides, 1) + 1), repeat=dice.count))
        for roll in faces:
            counts[sum(roll) + dice.modifier] = counts.get(sum(roll) + dice.modifier, 0) + 1
        assert dice_pmf(dice) == pytest.approx({k: v / len(faces) for k, v in counts.items()}, abs=EXACT)
