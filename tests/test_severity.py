"""Tests of the severity model (document 001, ``shared/seeds/001_*.txt``; decisions.md "Document 001").

Document 001's own examples are tests here: a Human with Brawn 2 has Threshold 5; Brawn 0 taking a Severity 3
Weaken ends at Brawn -1 with 2 overflow and is incapacitated (3 + 2 = 5 > 3); Wit 3 -> 2 lowers Cognition Points
from 32 to 16 and the usable points above 16 are lost; and Severity for n points of damage is Binomial(n, 1/3),
checked exactly by enumerating every roll of the d3s and against a fixed-seed sample.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections import Counter
from dataclasses import replace
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.care import CarePolicy
from sandbox.components.events import D20AttackRolled, DamageDealt, Died, ModelStateChanged
from sandbox.components.models.severity import EFFECTS, SeverityRules, SeverityState
from sandbox.components.readout import UNPLACED
from sandbox.components.state import Anatomy
from sandbox.config import ConfigError, default_catalog
from sandbox.models import build_model
from sandbox.systems.models import ModelError
from sandbox.systems.models.severity.care import KINDS
from sandbox.systems.models.severity.model import SeverityModel
from sandbox.systems.models.severity.record import SeverityAttack
from sandbox.systems.models.severity.rules import (
    apply_wound,
    attack_bonus,
    cognition_pool,
    damage_after_armor,
    defense,
    first_aid,
    interrupts_rest,
    roll_effect,
    roll_severity,
    severity_distribution,
    threshold,
)
from sandbox.systems.movement import speed
from sandbox.world import Sandbox, SandboxError
from tests.conftest import QueuedRng

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
HOUR = 3600.0


@pytest.fixture(scope="module")
def rules() -> SeverityRules:
    """The shipped severity tables."""
    model = build_model("severity", default_catalog())
    assert isinstance(model.tables, SeverityRules)
    return model.tables


def state(**values: Any) -> SeverityState:
    """A Human's state (Threshold base 3, Brawn 1, Poise 1, Wit 1, Speed 6) with ``values`` replaced."""
    base = SeverityState(threshold_base=3, brawn=1, poise=1, wit=1, speed=6, attack_bonus=3, defense=12,
                         armor_value=0, first_aid=2, cognition=8)
    return replace(base, **values)


def world_with(*names: str, seed: int = 1, **attributes: int) -> tuple[Sandbox, list[int]]:
    """A severity world with one unarmed human per name (team = name), ``attributes`` overriding each."""
    world = Sandbox(seed=seed, model="severity")
    entities = [world.spawn("human", name=n, position=(float(i) * 50, 0.0), attributes=attributes)
                for i, n in enumerate(names)]
    return world, entities


def sev(world: Sandbox, entity: int) -> SeverityState:
    """The entity's severity state."""
    return world.get(entity, SeverityState)


def model_of(world: Sandbox) -> SeverityModel:
    """The world's severity model."""
    assert isinstance(world.damage_model, SeverityModel)
    return world.damage_model


# ------------------------------------------------------------------------------ document 001's worked examples


def test_a_human_with_brawn_2_has_threshold_5() -> None:
    world, (e,) = world_with("Hero", brawn=2)
    assert world.readout(e).health == 5
    assert threshold(state(brawn=2)) == 5
    world_default, (d,) = world_with("Average")
    assert world_default.readout(d).health == 3 + 1  # the shipped Human: base 3, Brawn 1


def test_brawn_0_taking_a_severity_3_weaken_is_incapacitated_by_its_overflow(rules: SeverityRules) -> None:
    s = state(brawn=0)
    result = apply_wound(s, 3, "weaken", rules)
    assert s.brawn - s.weaken == -1 and result.applied == 1
    assert result.overflow == 2 and result.effective == 5
    assert result.threshold == 3  # compared with the Threshold before the wound: 5 > 3, not > 2 x 3
    assert result.outcome == "incapacitated"
    # The same through the world.
    world, (e,) = world_with("Hero", brawn=0)
    events = world.inflict(e, severity=3, effect="weaken")
    r = world.readout(e)
    assert r.label == "incapacitated" and r.alive and not r.can_act
    assert "brawn -1 (of 0)" in r.conditions
    assert any(isinstance(ev, ModelStateChanged) and ev.after == "brawn -1, overflow 2" for ev in events)
    assert r.health == 2  # Threshold now 3 + (-1)


def test_cognition_points_fall_from_32_to_16_when_wit_3_drops_to_2(rules: SeverityRules) -> None:
    assert cognition_pool(3, rules) == 32 and cognition_pool(2, rules) == 16
    assert cognition_pool(-1, rules) == 2
    world, (e,) = world_with("Sage", wit=3)
    assert sev(world, e).cognition == 32
    world.inflict(e, severity=1, effect="daze")
    assert sev(world, e).cognition == 16  # the points above the new pool are lost
    assert "cognition 16/16" in world.readout(e).conditions
    s = state(wit=3, cognition=10)
    apply_wound(s, 1, "daze", rules)
    assert s.cognition == 10  # fewer usable points than the new pool: nothing lost


def _counting_rng(faces: tuple[int, ...], sides: int) -> QueuedRng:
    return QueuedRng(*(QueuedRng.die(f, sides) for f in faces))


@pytest.mark.parametrize("points", range(7))
def test_severity_is_binomial_n_one_third_by_enumeration(points: int, rules: SeverityRules) -> None:
    """Every one of the 3**n equally likely rolls, counted: k Severity in exactly C(n, k) * 2**(n - k) of them."""
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, 4), repeat=points):
        rng = _counting_rng(faces, 3)
        severity, dice = roll_severity(points, rules, rng)
        assert dice == faces and rng.remaining == 0
        counts[severity] += 1
    assert dict(counts) == {k: comb(points, k) * 2 ** (points - k) for k in range(points + 1)}
    exact = severity_distribution(points, rules)
    assert exact == pytest.approx([counts[k] / 3 ** points for k in range(points + 1)], abs=1e-12)
    assert sum(exact) == pytest.approx(1.0)


def test_severity_sample_matches_binomial_n_one_third(rules: SeverityRules) -> None:
    """A fixed-seed sample of 60,000 rolls of 6 points against the exact pmf (chi-square, df 6, p = 0.001)."""
    rng = random.Random(20240601)
    n, draws = 6, 60_000
    counts = Counter(roll_severity(n, rules, rng)[0] for _ in range(draws))
    pmf = [comb(n, k) * (1 / 3) ** k * (2 / 3) ** (n - k) for k in range(n + 1)]
    # Pool the sparse top cells (k = 5, 6) so every expected count is well above 5.
    observed = [counts[k] for k in range(5)] + [counts[5] + counts[6]]
    expected = [p * draws for p in pmf[:5]] + [(pmf[5] + pmf[6]) * draws]
    chi2 = sum((o - x) ** 2 / x for o, x in zip(observed, expected, strict=True))
    assert chi2 < 20.52  # chi-square critical value, 5 degrees of freedom, p = 0.001
    assert counts[0] / draws == pytest.approx(pmf[0], abs=0.01)


# ---------------------------------------------------------------------------------------- the rules, one by one


def test_the_effect_table_is_the_d6_of_document_001(rules: SeverityRules) -> None:
    assert rules.effects == ("weaken", "stagger", "daze", "slow", "stun", "bloody")
    for face, effect in enumerate(EFFECTS, start=1):
        assert roll_effect(rules, QueuedRng(QueuedRng.die(face, 6))) == effect


def test_severity_zero_is_no_wound_even_at_threshold_zero(rules: SeverityRules) -> None:
    s = state(bloody=4)
    assert threshold(s) == 0
    result = apply_wound(s, 0, "weaken", rules)
    assert result.outcome == "none" and s.weaken == 0 and s.wounds == 0


@pytest.mark.parametrize(("effect", "field", "limit"), [("weaken", "weaken", 2), ("stagger", "stagger", 2),
                                                        ("daze", "daze", 2), ("slow", "slow", 6)])
def test_effects_stack_up_to_the_natural_limits(effect: str, field: str, limit: int, rules: SeverityRules) -> None:
    s = state(threshold_base=20)  # a huge Threshold, so nothing goes down
    apply_wound(s, 1, effect, rules)
    apply_wound(s, 1, effect, rules)
    assert getattr(s, field) == 2  # a second wound of the same effect adds on
    result = apply_wound(s, 5, effect, rules)
    assert getattr(s, field) == limit  # attributes stop at -1 (1 - 2), Speed at 0
    if effect == "slow":
        assert result.overflow == 0 and result.effective == 5  # only attributes overflow
    else:
        assert result.applied == 0 and result.overflow == 5 and result.effective == 10


def test_stun_stacks_in_turns_and_bloody_lowers_threshold(rules: SeverityRules) -> None:
    s = state()
    apply_wound(s, 2, "stun", rules)
    apply_wound(s, 1, "stun", rules)
    assert s.stun == 3
    apply_wound(s, 1, "bloody", rules)
    assert threshold(s) == 3


def test_passing_threshold_incapacitates_and_twice_threshold_kills(rules: SeverityRules) -> None:
    assert apply_wound(state(), 4, "stun", rules).outcome == "wounded"  # 4 is not above Threshold 4
    assert apply_wound(state(), 5, "stun", rules).outcome == "incapacitated"
    assert apply_wound(state(), 8, "stun", rules).outcome == "incapacitated"  # 8 is not above 2 x 4
    dead = apply_wound(state(), 9, "stun", rules)
    assert dead.outcome == "dead" and "2 x Threshold 4" in dead.cause


def test_threshold_zero_faints_and_the_next_wound_is_lethal(rules: SeverityRules) -> None:
    world, (e,) = world_with("Hero")
    world.inflict(e, severity=4, effect="bloody")  # 4 is not above Threshold 4, but Threshold falls to 0
    r = world.readout(e)
    assert r.label == "fainted" and r.health == 0 and not r.can_act and r.alive
    assert "threshold 0: the next wound is lethal" in r.conditions
    events = world.inflict(e, severity=1, effect="stun")
    assert any(isinstance(ev, Died) and ev.cause == "a wound at Threshold 0" for ev in events)
    assert world.readout(e).label == "dead" and not world.readout(e).alive and world.readout(e).health == 0


def test_armour_reduces_damage_never_below_zero_and_anti_armour() -> None:
    assert damage_after_armor(7, 4) == (3, 4)
    assert damage_after_armor(3, 4) == (0, 4)
    assert damage_after_armor(7, 5, "halve") == (5, 2)  # Halve Armor rounds down
    assert damage_after_armor(7, 4, "negate") == (7, 0)


def test_armour_is_ignored_against_the_helpless_but_not_against_indirect_damage() -> None:
    assert damage_after_armor(7, 4, helpless=True) == (7, 0)
    assert damage_after_armor(7, 4, helpless=True, indirect=True) == (3, 4)
    assert damage_after_armor(7, 4, "halve", helpless=True, indirect=True) == (5, 2)


def test_indirect_inflicted_damage_meets_armour() -> None:
    world = Sandbox(seed=3, model="severity")
    e = world.spawn("human", name="Knight", armor=["gambeson", "mail_hauberk", "helm"])
    assert sev(world, e).armor_value == 4
    events = world.inflict(e, damage=5, indirect=True)
    dealt = next(ev for ev in events if isinstance(ev, DamageDealt))
    assert (dealt.rolled, dealt.dealt) == (5, 1)
    events = world.inflict(e, damage=5)  # damage= is after armour: all 5 points roll d3s
    assert next(ev for ev in events if isinstance(ev, DamageDealt)).dealt == 5


def test_a_directed_attack_on_a_helpless_target_hits_and_ignores_armour() -> None:
    world = Sandbox(seed=5, model="severity")
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", team="B", position=(1.0, 0.0), armor=["full_harness", "helm"])
    world.inflict(b, severity=5, effect="stun")  # incapacitated: cannot defend
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(1, 20))  # a natural 1 would miss anyone else
    creatures = world.creatures()
    with world.active():
        world.damage_model.attack(creatures[a], creatures[b], world.ctx.modes["broadsword.cut"], (), world.ctx)
    rolled = next(ev for ev in reversed(world.events) if isinstance(ev, D20AttackRolled))
    assert rolled.natural == 1 and rolled.margin < 1 and rolled.hit
    dealt = next(ev for ev in reversed(world.events) if isinstance(ev, DamageDealt))
    assert dealt.dealt == dealt.rolled and "armour ignored (helpless)" in dealt.detail


def test_attack_roll_is_d20_plus_bonus_against_defense(rules: SeverityRules) -> None:
    world = Sandbox(seed=5, model="severity")
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", team="B", position=(1.0, 0.0))
    creatures = world.creatures()
    for natural, hit in ((9, False), (10, True)):  # 9 + 3 = 12: margin 0 misses; 10 + 3 = 13: margin 1 hits
        world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(natural, 20))
        world.ctx.streams["injury"] = QueuedRng(*([0.0] * 20))  # damage dice 1s, d3s 1s: no wound
        with world.active():
            world.damage_model.attack(creatures[a], creatures[b], world.ctx.modes["broadsword.cut"], (), world.ctx)
        rolled = next(ev for ev in reversed(world.events) if isinstance(ev, D20AttackRolled))
        assert (rolled.total, rolled.defense, rolled.hit) == (natural + 3, 12, hit)


def test_attribute_damage_lowers_what_depends_on_it(rules: SeverityRules) -> None:
    s = state(weaken=1, stagger=2)
    assert attack_bonus(s, "melee", rules) == 2  # Brawn damage: melee
    assert attack_bonus(s, "missile", rules) == 1  # Poise damage: missile
    assert defense(s, rules) == 10  # Poise damage: Defense
    assert threshold(s) == 3  # Brawn damage: Threshold


def walking_speed(world: Sandbox, entity: int) -> float:
    """Metres the creature can walk this tick (the shared movement, which multiplies the model's factor)."""
    with world.active():
        return speed(world.creatures()[entity], world.ctx)


def test_slow_scales_walking_speed_and_stops_it_at_speed_zero() -> None:
    world, (e,) = world_with("Runner")
    full = world.get(e, Anatomy).speed
    assert walking_speed(world, e) == full
    world.inflict(e, severity=3, effect="slow")
    assert walking_speed(world, e) == pytest.approx(full * 3 / 6)
    assert "speed 3 (of 6)" in world.readout(e).conditions
    world.inflict(e, severity=4, effect="slow")
    assert walking_speed(world, e) == 0.0 and sev(world, e).slow == 6
    assert world.get(e, Anatomy).speed == full  # the model answers speed_factor; it never writes Anatomy.speed


def test_a_stunned_creature_loses_its_turns() -> None:
    world = Sandbox(seed=2, model="severity")
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    world.spawn("human", name="B", team="B", position=(1.0, 0.0), weapons=["broadsword"],
                attributes={"threshold": 30})
    world.inflict(a, severity=2, effect="stun")
    assert world.readout(a).label == "stunned" and world.readout(a).can_act
    for _ in range(2):
        events = world.step()
        assert not any(isinstance(ev, D20AttackRolled) and ev.attacker == a for ev in events)
    assert sev(world, a).stun == 0
    for _ in range(10):  # and then it fights again
        if any(isinstance(ev, D20AttackRolled) and ev.attacker == a for ev in world.step()):
            break
    else:
        pytest.fail("A never attacked once its stun was spent")


# ------------------------------------------------------------------------------------------------- healing


def test_first_aid_is_d20_plus_skill_against_10(rules: SeverityRules) -> None:
    s = state(bloody=2, weaken=1)
    failed = first_aid(s, 2, False, rules, QueuedRng(QueuedRng.die(7, 20)))
    assert (failed.total, failed.success, failed.reduced) == (9, False, None) and s.bloody == 2
    done = first_aid(s, 2, False, rules, QueuedRng(QueuedRng.die(8, 20)))
    assert (done.total, done.success, done.reduced) == (10, True, "bloody") and s.bloody == 1


def test_first_aid_on_oneself_rolls_twice_and_keeps_the_lower(rules: SeverityRules) -> None:
    s = state(stun=1)
    result = first_aid(s, 2, True, rules, QueuedRng(QueuedRng.die(18, 20), QueuedRng.die(5, 20)))
    assert result.rolls == (18, 5) and result.total == 7 and not result.success and s.stun == 1
    result = first_aid(s, 2, True, rules, QueuedRng(QueuedRng.die(9, 20), QueuedRng.die(12, 20)))
    assert result.total == 11 and result.reduced == "stun" and s.stun == 0


def _rest_times(world: Sandbox, entity: int) -> list[float]:
    return [ev.time for ev in world.events if isinstance(ev, ModelStateChanged) and ev.entity == entity
            and ev.what == "rest"]


def test_rest_heals_one_effect_every_8_hours(rules: SeverityRules) -> None:
    world, (e,) = world_with("Alone")
    world.care = CarePolicy(self_care=False)  # no first aid at all: rest alone
    world.inflict(e, severity=2, effect="bloody")
    world.inflict(e, severity=1, effect="daze")
    world.advance(hours=17)
    assert _rest_times(world, e) == [8 * HOUR, 16 * HOUR]
    s = sev(world, e)
    assert (s.bloody, s.daze) == (0, 1)  # Bloody first (the healing order)
    world.advance(hours=7)
    assert s.effect_points == 0 and world.readout(e).label == "unhurt"


def test_rest_is_tripled_with_a_doctor() -> None:
    world = Sandbox(seed=4, model="severity")
    patient = world.spawn("human", name="Patient", team="Party")
    world.spawn("human", name="Doctor", team="Party", position=(2.0, 0.0))
    world.care = CarePolicy(healers=("Doctor",), self_care=False)
    world.inflict(patient, severity=2, effect="weaken")
    world.inflict(patient, severity=2, effect="stagger")
    aid = sev(world, patient)
    aid.aid_left = 0  # leave first aid out of it: rest alone
    world.advance(hours=8)
    times = _rest_times(world, patient)
    assert times == pytest.approx([8 * HOUR / 3, 16 * HOUR / 3, 8 * HOUR])
    assert aid.effect_points == 1


def test_first_aid_after_the_fight_from_the_best_team_mate(rules: SeverityRules) -> None:
    world = Sandbox(seed=4, model="severity")
    patient = world.spawn("human", name="Patient", team="Party")
    world.spawn("human", name="Medic", team="Party", position=(2.0, 0.0), attributes={"first_aid": 9})
    world.inflict(patient, severity=2, effect="weaken")
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(1, 20))  # 1 + 9 = 10: success
    world.advance(minutes=2)
    aid = [ev for ev in world.events if isinstance(ev, ModelStateChanged) and ev.what.startswith("first aid")]
    assert len(aid) == 1 and "by Medic" in aid[0].what and aid[0].time == 60.0
    assert (aid[0].before, aid[0].after) == ("weaken 2", "weaken 1")


def test_incapacitated_creature_comes_round_after_its_recovery(rules: SeverityRules) -> None:
    world, (e,) = world_with("Hero")
    world.care = CarePolicy(self_care=False)
    world.inflict(e, severity=5, effect="stun")
    assert world.readout(e).label == "incapacitated"
    world.advance(hours=7.9)
    assert world.readout(e).label == "incapacitated"
    world.advance(hours=0.2)
    assert world.readout(e).can_act and world.readout(e).label in ("stunned", "wounded", "unhurt")


def test_fainted_and_untended_dies_of_exposure_but_a_tended_one_lives(rules: SeverityRules) -> None:
    world, (e,) = world_with("Alone")
    world.inflict(e, severity=4, effect="bloody")
    world.advance(hours=23.9)
    assert world.readout(e).alive
    events = world.advance(hours=0.2)
    assert any(isinstance(ev, Died) and ev.cause == "fainted and left untended" for ev in events)

    tended = Sandbox(seed=1, model="severity")
    p = tended.spawn("human", name="Patient", team="Party")
    tended.spawn("human", name="Friend", team="Party", position=(2.0, 0.0))
    tended.inflict(p, severity=4, effect="bloody")
    tended.advance(days=2)
    r = tended.readout(p)
    assert r.alive and r.can_act and r.health == 4


def test_split_advances_match_one_and_a_save_carries_the_state(tmp_path: Path) -> None:
    def hurt() -> Sandbox:
        world = Sandbox(seed=9, model="severity")
        a = world.spawn("human", name="A", team="Party")
        b = world.spawn("human", name="B", team="Party", position=(2.0, 0.0))
        world.inflict(a, severity=3, effect="bloody")
        world.inflict(a, severity=2, effect="stagger")
        world.inflict(b, severity=5, effect="stun")
        return world

    whole = hurt()
    whole.advance(hours=30)
    split = hurt()
    split.advance(hours=3)
    split.save(tmp_path / "mid.json")
    loaded = Sandbox.load(tmp_path / "mid.json")
    loaded.advance(hours=27)
    assert [ev.to_dict() for ev in loaded.events] == [ev.to_dict() for ev in whole.events]
    assert [loaded.readout(e) for e in loaded.names] == [whole.readout(e) for e in whole.names]


# ------------------------------------------------------------------------------------------- readout and direct use


def test_readout_words_and_numbers() -> None:
    world, (e,) = world_with("Hero")
    r = world.readout(e)
    assert (r.label, r.health, r.band, r.shock, r.conditions) == ("unhurt", 4, "none", "none", ())
    world.inflict(e, severity=2, effect="bloody")
    r = world.readout(e)
    assert (r.label, r.health, r.band) == ("wounded", 2, "bloody 2")
    world.inflict(e, severity=1, effect="stun")
    assert world.readout(e).label == "stunned" and world.readout(e).band == "stun 1, bloody 2"


def test_inflict_refuses_what_does_not_fit_the_model() -> None:
    world, (e,) = world_with("Hero")
    for bad in ({}, {"damage": 2, "severity": 1}, {"damage": -1}, {"severity": 2, "effect": "maim"},
                {"severity": 2, "effect": 7}, {"location": "Skull", "level": 2}):
        with pytest.raises(SandboxError):
            world.inflict(e, **bad)
    world.inflict(e, severity=2, effect=6)  # a die face names the effect
    assert sev(world, e).bloody == 2


def test_every_shipped_scenario_ends_under_severity() -> None:
    catalog = default_catalog()
    for scenario in sorted(catalog.scenarios):
        world = Sandbox.from_scenario(scenario, seed=11, model="severity")
        outcome = world.run()
        assert outcome.reason in ("one team left", "no team left"), scenario
        world.close()


# ------------------------------------------------------------------------------------------------------ config


def test_the_tables_are_checked_against_the_catalog(tmp_path: Path) -> None:
    root = tmp_path / "configs"
    shutil.copytree(CONFIGS, root)
    path = root / "models" / "severity.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("[creatures.wolf]", "[creatures.warg]").replace("[armor.helm]", "[armor.helmet]")
    text = text.replace('[weapons."broadsword.cut"]\ndamage = "2d4+3"', '[weapons."broadsword.cut"]\ndamage = "lots"')
    text = text.replace("threshold = 1\nbrawn = 0", "threshold = 0\nbrawn = 0")
    path.write_text(text, encoding="utf-8")
    from sandbox.config import load_catalog

    with pytest.raises(ConfigError) as info:
        build_model("severity", load_catalog(root), root)
    found = {(p.key, p.expected.split(" (")[0]) for p in info.value.problems}
    assert found == {  # the wolf and the helm, left out, are derived
        ("creatures.warg", "a creature the content defines"),
        ("armor.helmet", "an armour piece the content defines"),
        ('weapons."broadsword.cut".damage', "a dice expression NdX+M"),
        ("creatures.eagle.threshold", "a Threshold"),
    }
    assert next(p.suggestion for p in info.value.problems if p.key == "armor.helmet") == "helm"
    assert all(p.file.endswith("models/severity.toml") for p in info.value.problems)


def test_a_malformed_table_lists_every_problem(tmp_path: Path) -> None:
    root = tmp_path / "configs"
    shutil.copytree(CONFIGS, root)
    path = root / "models" / "severity.toml"
    text = path.read_text(encoding="utf-8").replace("die = 3 ", 'die = "3" ').replace("offset = 2", "offest = 2")
    path.write_text(text, encoding="utf-8")
    from sandbox.config import load_catalog

    with pytest.raises(ConfigError) as info:
        build_model("severity", load_catalog(root), root)
    keys = {p.key for p in info.value.problems}
    assert {"severity.die", "cognition.offset", "cognition.offest"} <= keys


# ------------------------------------------------------------------------------ the attack record, one attack at a time


def armed_pair(seed: int = 5, **target: Any) -> tuple[Sandbox, int, int]:
    """A (broadsword) and B (unarmoured unless ``armor=`` says otherwise) a metre apart."""
    world = Sandbox(seed=seed, model="severity")
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", team="B", position=(1.0, 0.0), **target)
    return world, a, b


def queue_blow(world: Sandbox, d4s: tuple[int, ...], d3s: tuple[int, ...], effect: int | None = None) -> QueuedRng:
    """Queue a broadsword cut's damage dice (2d4+3), its Severity d3s and the effect d6 on the injury stream."""
    rng = QueuedRng(*(QueuedRng.die(f, 4) for f in d4s), *(QueuedRng.die(f, 3) for f in d3s),
                    *(() if effect is None else (QueuedRng.die(effect, 6),)))
    world.ctx.streams["injury"] = rng
    return rng


def only_record(world: Sandbox) -> SeverityAttack:
    records = [entry for entry in world.log if isinstance(entry, SeverityAttack)]
    assert len(records) == 1
    return records[0]


def test_a_hit_explains_itself_in_words_and_logs_its_consequences_after_it() -> None:
    world, a, b = armed_pair()
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(15, 20))  # 15 + 3 = 18 against Defense 12
    queue_blow(world, (4, 2), (3, 1, 3, 2, 1, 1, 2, 1, 2), effect=1)  # 4 + 2 + 3 = 9 points, two 3s, Weaken
    with world.active():
        record = model_of(world).attack(world.creatures()[a], world.creatures()[b],
                                        world.ctx.modes["broadsword.cut"], (), world.ctx)
    assert world.log[0] is record and record.headline and record.struck
    assert record.roll is not None and (record.roll.natural, record.roll.total, record.roll.margin) == (15, 18, 6)
    assert record.summary(world.names) == "A -> B: 9 damage (9 rolled): d3s 3,1,3,2,1,1,2,1,2 -> Severity 2; weaken"
    assert record.explain(world.names) == [
        "Tick 0: A attacks B with Broadsword Cut, unaimed",
        "Attack roll: d20 15 +3 = 18 against Defense 12: margin 6, a hit",
        "Damage 2d4+3 rolled 9; no armour: all 9 get through",
        "One d3 per point: 3, 1, 3, 2, 1, 1, 2, 1, 2; each 3 is one Severity: Severity 2",
        "Effect die: Weaken, 2 points of Brawn damage",
        "Weaken 2: Brawn 1 -> -1",
        "Severity 2 against Threshold 4 (as it was before the wound): not above it, wounded; Threshold now 2",
    ]
    # The record expands into exactly the events the attack emitted before it had a record; the wound's own
    # events follow it in the log.
    assert [e.to_dict() for e in world.events] == [
        {"type": "AttackDeclared", "tick": 0, "time": 0.0, "attacker": a, "target": b, "mode": "broadsword.cut",
         "aim": "unaimed"},
        {"type": "D20AttackRolled", "tick": 0, "time": 0.0, "attacker": a, "target": b, "model": "severity",
         "mode": "broadsword.cut", "natural": 15, "total": 18, "defense": 12, "margin": 6, "hit": True},
        {"type": "DamageDealt", "tick": 0, "time": 0.0, "attacker": a, "target": b, "model": "severity",
         "rolled": 9, "dealt": 9, "detail": "9 - armour 0 = 9; d3s 3,1,3,2,1,1,2,1,2 -> Severity 2; weaken"},
        {"type": "ModelStateChanged", "tick": 0, "time": 0.0, "entity": b, "model": "severity", "what": "weaken",
         "before": "brawn 1", "after": "brawn -1"},
        {"type": "ModelStateChanged", "tick": 0, "time": 0.0, "entity": b, "model": "severity", "what": "state",
         "before": "unhurt", "after": "wounded"},
    ]
    assert record.events() == world.events[:3]


def test_a_miss_has_no_summary_and_explains_its_roll() -> None:
    world, a, b = armed_pair()
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(9, 20))  # 9 + 3 = 12: margin 0
    world.ctx.streams["injury"] = QueuedRng()  # a miss draws nothing more
    events = world.strike(b, "broadsword.cut", attacker=a)
    record = only_record(world)
    assert not record.struck and record.summary(world.names) is None
    assert record.explain(world.names) == ["Tick 0: A attacks B with Broadsword Cut, unaimed",
                                           "Attack roll: d20 9 +3 = 12 against Defense 12: margin 0, a miss"]
    assert [type(e).__name__ for e in events] == ["AttackDeclared", "D20AttackRolled"]


def test_the_helpless_rule_and_armour_ignored_read_in_words() -> None:
    world, a, b = armed_pair(armor=["full_harness", "helm"])
    world.inflict(b, severity=5, effect="stun")  # incapacitated: cannot defend
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(1, 20))
    queue_blow(world, (1, 1), (1, 1, 1, 1, 1))  # 5 points, no 3: no wound, no effect die
    world.strike(b, "broadsword.cut", attacker=a)
    record = only_record(world)
    lines = record.explain(world.names)
    assert lines[1] == ("Attack roll: d20 1 (natural 1) +3 = 4 against Defense 12: margin -8, a hit; but B cannot "
                        "defend, and the helpless rule makes it a hit whatever the roll")
    assert lines[2] == "Damage 2d4+3 rolled 5; B cannot defend, so its armour is ignored: all 5 get through"
    assert lines[3] == "One d3 per point: 1, 1, 1, 1, 1; each 3 is one Severity: Severity 0, no wound"
    assert len(lines) == 4
    assert record.summary(world.names) == "A -> B: 5 damage (5 rolled): d3s 1,1,1,1,1 -> Severity 0; no wound"


def test_a_wound_past_threshold_explains_the_overflow_and_the_outcome() -> None:
    world, a, b = armed_pair(attributes={"brawn": 0})  # Threshold 3, Brawn 0: document 001's example
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(15, 20))
    queue_blow(world, (4, 4), (3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1), effect=1)  # 11 points, three 3s, Weaken
    events = world.strike(b, "broadsword.cut", attacker=a)
    lines = only_record(world).explain(world.names)
    assert lines[-2] == ("Weaken 3: Brawn 0 -> -1; the attribute stops at its floor, and the 2 past it are overflow, "
                         "added to this wound's Severity against Threshold")
    assert lines[-1] == ("Severity 3 + overflow 2 = 5 against Threshold 3 (as it was before the wound): above it, "
                         "incapacitated (out of the fight, prone); Threshold now 2")
    assert [(e.before, e.after) for e in events if isinstance(e, ModelStateChanged) and e.what == "state"] == [
        ("unhurt", "incapacitated")]


def test_a_creature_with_no_body_is_missed_off_the_body() -> None:
    world = Sandbox(seed=5, model="severity")
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    ghost = world.spawn("spirit", name="Ghost", team="B", position=(1.0, 0.0))
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(20, 20))
    world.ctx.streams["injury"] = QueuedRng()  # nothing to roll damage on
    with pytest.raises(SandboxError, match="no blow can reach Ghost"):  # the rules refuse it before the model
        world.strike(ghost, "broadsword.cut", attacker=a)
    with world.active():  # the model's own attack, as the loop would make it: missed off the body
        model_of(world).attack(world.creatures()[a], world.creatures()[ghost], world.ctx.modes["broadsword.cut"],
                               (), world.ctx)
    record = only_record(world)
    events = record.events()
    assert [type(e).__name__ for e in events] == ["AttackDeclared", "D20AttackRolled", "Missed"]
    assert record.hit and not record.struck and record.summary(world.names) is None
    assert record.explain(world.names)[-1] == "Ghost has no body to strike: the blow passes through it, a miss"


# ----------------------------------------------------------------------------------------------- strike


def test_strike_without_an_attacker_lands_through_armour_with_no_roll() -> None:
    world, _, b = armed_pair(armor=["mail_hauberk"])  # Armor Value 2
    world.ctx.streams["attack"] = QueuedRng()  # no attack roll
    queue_blow(world, (3, 2), (3, 2, 1, 1, 3, 3), effect=6)  # 8 - 2 = 6 points, three 3s, Bloody
    events = world.strike(b, "broadsword.cut", aim="Skull")
    record = only_record(world)
    assert record.attacker == -1 and record.roll is None and record.struck
    assert [e.to_dict() for e in events[:2]] == [
        {"type": "AttackDeclared", "tick": 0, "time": 0.0, "attacker": -1, "target": b, "mode": "broadsword.cut",
         "aim": "Skull"},
        {"type": "DamageDealt", "tick": 0, "time": 0.0, "attacker": -1, "target": b, "model": "severity",
         "rolled": 8, "dealt": 6, "detail": "8 - armour 2 = 6; d3s 3,2,1,1,3,3 -> Severity 3; bloody"}]
    assert sev(world, b).bloody == 3 and world.readout(b).health == 1
    lines = record.explain(world.names)
    assert lines[0] == ("Tick 0: (direct) attacks B with Broadsword Cut, aimed at the Skull (the severity model "
                        "places no wound at a location: the aim changes nothing)")
    assert lines[1] == "Struck directly: no attack roll, the blow lands"
    assert lines[2] == "Damage 2d4+3 rolled 8; Armor Value 2: 8 - 2 = 6 get through"
    assert record.summary(world.names) == "(direct) -> B: 6 damage (8 rolled): d3s 3,2,1,1,3,3 -> Severity 3; bloody"


def test_strike_with_an_attacker_is_its_attack_as_the_loop_makes_it() -> None:
    def attack_once(by_strike: bool) -> list[dict[str, Any]]:
        world, a, b = armed_pair(seed=8)
        if by_strike:
            world.strike(b, "broadsword.cut", attacker=a)
        else:
            with world.active():
                model_of(world).attack(world.creatures()[a], world.creatures()[b],
                                       world.ctx.modes["broadsword.cut"], (), world.ctx)
        return [e.to_dict() for e in world.events]

    assert attack_once(True) == attack_once(False)  # the same draws, the same events


def test_strike_refuses_an_aim_the_body_lacks_and_the_dead() -> None:
    world, a, b = armed_pair()
    with pytest.raises(SandboxError, match="no part or location 'Tail'"):
        world.strike(b, "broadsword.cut", aim="Tail")
    model = model_of(world)
    with world.active(), pytest.raises(ModelError, match="Tail"):
        model.strike(world.creatures()[b], world.ctx.modes["broadsword.cut"], "Tail", world.ctx)
    world.inflict(b, severity=9, effect="stun")  # past twice Threshold 4: dead
    assert not world.readout(b).alive
    with pytest.raises(SandboxError, match="B is dead"):
        world.strike(b, "broadsword.cut", attacker=a)
    assert not any(isinstance(entry, SeverityAttack) for entry in world.log)  # nothing was struck


# ------------------------------------------------------------------------------------------ speed and health


def test_speed_factor_is_speed_left_over_speed() -> None:
    world, (e,) = world_with("Runner")
    model = model_of(world)

    def factor() -> float:
        with world.active():
            return model.speed_factor(world.creatures()[e], world.ctx)

    assert factor() == 1.0
    world.inflict(e, severity=2, effect="slow")
    assert factor() == pytest.approx(4 / 6)
    world.inflict(e, severity=4, effect="slow")  # Speed stops at 0
    assert factor() == 0.0
    frozen, (f,) = world_with("Statue", speed=0)
    with frozen.active():
        assert model_of(frozen).speed_factor(frozen.creatures()[f], frozen.ctx) == 1.0  # no Speed to lose


def test_health_is_the_readouts_threshold() -> None:
    world, (e,) = world_with("Hero")
    model = model_of(world)
    for severity, effect in ((0, "weaken"), (1, "bloody"), (1, "weaken"), (9, "stun")):
        world.inflict(e, severity=severity, effect=effect)
        with world.active():
            assert model.health(world.creatures()[e], world.ctx) == world.readout(e).health
    assert world.readout(e).health == 0 and not world.readout(e).alive


# -------------------------------------------------------------------------------------------------- readout


def test_readout_lists_each_untreated_effect_as_a_wound_and_the_numbers_as_details() -> None:
    world, (e,) = world_with("Hero", armor_value=1)
    r = world.readout(e)
    assert r.wounds == () and r.health_unit == ""
    assert [p.name for p in r.parts] == [p.name for p in world.get(e, Anatomy).body.parts]
    assert all(not p.unusable and p.penalty == 0 for p in r.parts)  # the model puts no part out of use
    world.inflict(e, severity=2, effect="weaken", location="Skull")
    world.inflict(e, severity=1, effect="bloody")
    r = world.readout(e)
    assert [(w.level, w.bleeding, w.treated, w.location, w.part, w.placed) for w in r.wounds] == [
        ("weaken 2", False, False, "Skull", "Head", True), ("bloody 1", True, False, UNPLACED, UNPLACED, False)]
    assert r.wounds[0].text == "weaken 2 at the Skull: 2 points of Brawn damage (Brawn -1 of 1), untreated"
    assert r.wounds[1].text == "bloody 1: Threshold reduced by 1 (Threshold 1 of 4, bleeding), untreated"
    details = dict(r.details)
    assert details["threshold"] == "1 of 4 (racial base 3 + Brawn -1 - Bloody 1)"
    assert (details["brawn"], details["poise"], details["speed"]) == ("-1 of 1", "1 of 1", "6 of 6")
    assert details["attack bonus"] == "+3 unhurt; now melee +1, thrown +1, missile +3"
    assert (details["defense"], details["armor value"], details["first aid"]) == ("12 of 12", "1", "+2")
    assert details["wounds taken"] == "2, the worst of Severity 2"


# ----------------------------------------------------------------------------------------------- advance


def test_advance_runs_on_the_shared_due_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox.systems.models.severity.care as severity_module
    from sandbox.systems.schedule import DueQueue

    made: list[DueQueue] = []
    world, (e,) = world_with("Alone")

    class Spy(DueQueue):
        def __init__(self, kinds: Any) -> None:
            super().__init__(kinds)
            made.append(self)

        def pop_due(self, end: float, is_due: Any) -> Any:
            assert world.ctx.due is self  # the active queue, for the rules to push on
            yield from super().pop_due(end, is_due)

    monkeypatch.setattr(severity_module, "DueQueue", Spy)
    world.care = CarePolicy(self_care=False)
    world.inflict(e, severity=1, effect="bloody")
    world.advance(hours=9)
    assert len(made) == 1 and world.ctx.due is None
    assert _rest_times(world, e) == [8 * HOUR]
    assert KINDS == ("stun", "aid", "rest", "recover", "exposed")


def test_first_aid_ties_go_to_the_lower_entity_and_the_policy_names_the_healers() -> None:
    def first_aider(care: CarePolicy) -> str:
        world = Sandbox(seed=4, model="severity")
        patient = world.spawn("human", name="Patient", team="Party")
        world.spawn("human", name="Left", team="Party", attributes={"first_aid": 5})
        world.spawn("human", name="Right", team="Party", attributes={"first_aid": 5})
        world.spawn("human", name="Novice", team="Party", attributes={"first_aid": 1})
        world.care = care
        world.inflict(patient, severity=2, effect="weaken")
        world.advance(minutes=2)
        (aid,) = [ev.what for ev in world.events if isinstance(ev, ModelStateChanged)
                  and ev.what.startswith("first aid")]
        return aid.split(":")[0]

    assert first_aider(CarePolicy()) == "first aid by Left"  # equal bonuses: the lower entity
    assert first_aider(CarePolicy(healers=("Right",))) == "first aid by Right"
    assert first_aider(CarePolicy(healers=("Novice",))) == "first aid by Novice"  # the policy over the skill
    assert first_aider(CarePolicy(healers=("Nobody",))) == "first aid by self"


def _hurt_party(seed: int) -> Sandbox:
    """A wounded party (one bleeding and staggered, one incapacitated) and a wolf that faints with nobody to tend
    it: rest, first aid, coming round, raising from a faint and death by exposure all fall due."""
    world = Sandbox(seed=seed, model="severity")
    a = world.spawn("human", name="A", team="Party")
    b = world.spawn("human", name="B", team="Party", position=(2.0, 0.0))
    wolf = world.spawn("wolf", name="Wolf", team="Wild", position=(30.0, 0.0))
    world.inflict(a, severity=3, effect="bloody")
    world.inflict(a, severity=2, effect="stagger")
    world.inflict(b, severity=5, effect="stun")
    world.inflict(wolf, severity=3, effect="bloody")
    return world


@settings(max_examples=30, deadline=None)
@given(split=st.integers(min_value=0, max_value=30 * 3600), seed=st.integers(min_value=0, max_value=4))
def test_advance_is_split_proof(split: int, seed: int) -> None:
    """``advance(a)`` then ``advance(b)`` gives the events (and the states) of ``advance(a + b)``, wherever the
    span is cut."""
    whole = _hurt_party(seed)
    whole.advance(hours=30)
    cut = _hurt_party(seed)
    cut.advance(split)
    cut.advance(30 * 3600 - split)
    assert [ev.to_dict() for ev in cut.events] == [ev.to_dict() for ev in whole.events]
    assert [cut.readout(e) for e in cut.names] == [whole.readout(e) for e in whole.names]
    assert cut.ctx.clock.time == whole.ctx.clock.time
    whole.close()
    cut.close()


# ------------------------------------------------------------------------------------------------ invariants


def test_the_models_invariants_hold_in_play_and_catch_a_breach() -> None:
    world = Sandbox.from_scenario("skirmish", seed=4, model="severity", check_invariants=True)
    world.run()
    world.advance(days=2)
    model = model_of(world)
    with world.active():
        assert all(model.invariants(c, world.ctx) == [] for c in world.creatures().values())
    world2, (e,) = world_with("Hero")
    world2.inflict(e, severity=5, effect="stun")  # incapacitated: out of the fight
    sev(world2, e).down = ""  # a hand edit that forgets it
    sev(world2, e).cognition = 99
    with world2.active():
        breaches = model_of(world2).invariants(world2.creatures()[e], world2.ctx)
    assert breaches == ["Hero (1) is out of the fight while not down",
                        "Hero (1) has 99 Cognition Points, outside its pool 0..8"]


# ---------------------------------------------------------------- first aid in combat, armour, rest (issue 15)


def _aid(world: Sandbox, entity: int) -> list[ModelStateChanged]:
    return [ev for ev in world.events if isinstance(ev, ModelStateChanged) and ev.entity == entity
            and ev.what.startswith("first aid")]


def _field(seed: int = 3, *, healer: dict[str, Any] | None = None) -> tuple[Sandbox, int, int, int]:
    """A healer beside a patient of its team (who cannot give first aid itself), an enemy far off (30 m: out of
    every reach)."""
    world = Sandbox(seed=seed, model="severity")
    medic = world.spawn("human", name="Medic", team="A", position=(0.0, 0.0), **(healer or {}))
    patient = world.spawn("human", name="Patient", team="A", position=(1.0, 0.0))
    sev(world, patient).first_aid = None
    foe = world.spawn("human", name="Foe", team="B", position=(30.0, 0.0))
    return world, medic, patient, foe


def test_first_aid_in_combat_to_a_bleeding_ally() -> None:
    """Document 001: "If in combat, the only conventional (non-magic) option for healing is First Aid" - "the
    performing character must choose a target and make a skill check with a difficulty of 10": the AI spends the
    healer's turn on it when an ally beside it bleeds and no enemy is in reach."""
    world, medic, patient, _ = _field()
    world.inflict(patient, severity=2, effect="bloody")
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(8, 20))  # 8 + 2 = 10: success
    world.step()
    assert world.creatures()[medic].combatant.action == "first aid"
    (aid,) = _aid(world, patient)
    assert aid.what == "first aid in combat by Medic: d20 8 -> 10" and (aid.before, aid.after) == ("bloody 2",
                                                                                                    "bloody 1")
    assert world.creatures()[medic].position.x == 0.0  # it did not close in
    world.creatures()[patient].position.x = 1.0  # it walked off towards the foe: back beside the medic
    world.creatures()[world.entity("Foe")].position.x = 30.0
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(7, 20))  # 7 + 2 = 9: a failure, nothing reduced
    world.step()
    assert (_aid(world, patient)[-1].before, _aid(world, patient)[-1].after) == ("bloody 1", "bloody 1")
    assert sev(world, patient).aid_left == 1  # the attempt after the fight is still to come


def test_first_aid_on_oneself_in_combat_has_disadvantage() -> None:
    """"If the character is targeting themself, the check is made with disadvantage" (two d20s, the lower)."""
    world = Sandbox(seed=3, model="severity")
    alone = world.spawn("human", name="Alone", team="A")
    world.spawn("human", name="Foe", team="B", position=(30.0, 0.0))
    world.inflict(alone, severity=1, effect="bloody")
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(19, 20), QueuedRng.die(7, 20))
    world.step()
    (aid,) = _aid(world, alone)
    assert aid.what == "first aid in combat by self: d20 19/7 -> 9" and aid.after == "bloody 1"  # 7 + 2 < 10


def test_the_healers_gear_lowers_the_difficulty() -> None:
    """"Proper equipment and medicine can reduce the difficulty of the check": the healer's healing draught (DC
    10 - 3 = 7), used up by the check."""
    world, medic, patient, _ = _field(healer={"items": ["healing_draught"]})
    world.inflict(patient, severity=2, effect="bloody")
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(5, 20))  # 5 + 2 = 7: enough against 7
    world.step()
    (aid,) = _aid(world, patient)
    assert aid.what == "first aid in combat by Medic: d20 5 -> 7 vs DC 7 with the healing_draught, used up"
    assert aid.after == "bloody 1" and world.creatures()[medic].equipment.items == []


def test_no_first_aid_with_an_enemy_in_reach_or_nobody_bleeding_or_fainted() -> None:
    world, medic, patient, foe = _field()
    world.inflict(patient, severity=2, effect="weaken")  # hurt, but not bleeding nor fainted
    world.step()
    assert world.creatures()[medic].position.x > 0 and not _aid(world, patient)  # it closed in instead
    world, medic, patient, foe = _field()
    world.inflict(patient, severity=2, effect="bloody")
    creatures = world.creatures()
    creatures[foe].position.x = 0.5  # an enemy within the medic's reach: it fights
    world.ctx.streams["healing"] = QueuedRng()
    world.step()
    assert world.creatures()[medic].combatant.action == "attack" and not _aid(world, patient)


def test_a_fainted_ally_comes_first_and_is_no_longer_fainted_once_its_threshold_returns() -> None:
    world, _, patient, _ = _field()
    other = world.spawn("human", name="Other", team="A", position=(0.0, 1.0))
    sev(world, other).first_aid = None  # it gives none itself
    world.inflict(other, severity=3, effect="bloody")  # Threshold 1, bleeding
    world.inflict(patient, severity=4, effect="bloody")  # Threshold 0: fainted
    assert world.readout(patient).label == "fainted"
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(15, 20))
    events = world.step()
    (aid,) = _aid(world, patient)
    assert (aid.before, aid.after) == ("bloody 4", "bloody 3") and not _aid(world, other)
    assert world.readout(patient).label == "incapacitated"
    assert any(isinstance(e, ModelStateChanged) and e.entity == patient and e.what == "state"
               and (e.before, e.after) == ("fainted", "incapacitated") for e in events)


def test_in_play_the_first_aid_checks_succeed_at_their_exact_chance() -> None:
    """Fixed-seed statistics: d20 + 2 against 10 succeeds on 8..20 (13 / 20); on oneself with disadvantage
    (13 / 20) ** 2."""
    n = 800
    for on_self, p in ((False, 13 / 20), (True, (13 / 20) ** 2)):
        successes = 0
        world = Sandbox(seed=21, model="severity")
        medic = world.spawn("human", name="Medic", team="A")
        patient = medic if on_self else world.spawn("human", name="Patient", team="A", position=(1.0, 0.0))
        if not on_self:
            sev(world, patient).first_aid = None
        world.spawn("human", name="Foe", team="B", position=(30.0, 0.0))
        for _ in range(n):
            sev(world, patient).bloody = 1
            creatures = world.creatures()
            creatures[world.entity("Foe")].position.x = 30.0
            creatures[medic].position.x = 0.0
            creatures[patient].position.x = 0.0 if on_self else 1.0
            world.step()
            successes += _aid(world, patient)[-1].after == "none"
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(successes - n * p) < 5.3 * sd, (on_self, successes / n)  # alpha about 1e-7


def test_armour_and_the_helpless_in_play() -> None:
    """Document 001: "If the target can't properly defend against a directed attack, armor is ignored ... If the
    attack is indirect, such as damage from an explosion, the target's armor value is applied, even if the target
    can't actively defend against it." A knight (Armor Value 5) downed and helpless: a sword cut goes through in
    full, the dragon's breath (indirect) meets the armour."""
    world = Sandbox(seed=5, model="severity")
    dragon = world.spawn("fire_dragon", name="Dragon", team="D")
    swordsman = world.spawn("human", name="Swordsman", team="D", weapons=["broadsword"])
    knight = world.spawn("human", name="Knight", team="K", armor=["gambeson", "full_harness", "helm"])
    assert sev(world, knight).armor_value == 1 + 4 + 1  # gambeson, full harness, helm
    world.inflict(knight, severity=5, effect="stun")  # incapacitated
    assert not world.readout(knight).can_act
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(10, 20))
    cut = world.strike(knight, "broadsword.cut", attacker=swordsman)
    dealt = next(e for e in cut if isinstance(e, DamageDealt))
    assert dealt.dealt == dealt.rolled and "armour ignored (helpless)" in dealt.detail
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(10, 20))
    breath = world.strike(knight, "dragon.breath", attacker=dragon)
    burnt = next(e for e in breath if isinstance(e, DamageDealt))
    armour = sev(world, knight).armor_value
    assert burnt.dealt == max(0, burnt.rolled - armour) and f"armour {armour}" in burnt.detail
    up = world.spawn("human", name="Up", team="K", armor=["gambeson", "full_harness", "helm"])
    world.ctx.streams["attack"] = QueuedRng(QueuedRng.die(20, 20))
    standing = next(e for e in world.strike(up, "broadsword.cut", attacker=swordsman) if isinstance(e, DamageDealt))
    assert standing.dealt == max(0, standing.rolled - armour)  # one that can defend: armour applies


def test_combat_interrupts_rest_and_its_clock_starts_again() -> None:
    """Document 001: "Combat, of course, interrupts rest": a tick of combat in the middle of a rest period starts
    the 8 hours again."""
    world, (e,) = world_with("Alone")
    world.care = CarePolicy(self_care=False)
    world.inflict(e, severity=2, effect="weaken")
    world.advance(hours=7)
    assert not _rest_times(world, e) and sev(world, e).rest_at == 8 * HOUR
    world.step()  # a tick of combat (nobody to fight, but the world ticks)
    assert sev(world, e).rest_at == -1.0
    fought = world.ctx.clock.seconds
    world.advance(hours=7.9)
    assert not _rest_times(world, e)  # 8 hours from the fight, not from the wound
    world.advance(hours=0.2)
    assert _rest_times(world, e) == [pytest.approx(fought + 8 * HOUR)]


def test_a_check_of_7_or_more_interrupts_the_rollers_rest(tmp_path: Path) -> None:
    """"if it requires a Clash Roll or a Skill Check of 7 or more, it interrupts rest": first aid (DC 10) starts
    the healer's own rest again; a kit that brings the check under 7 does not."""
    world = Sandbox(seed=4, model="severity")
    medic = world.spawn("human", name="Medic", team="Party")
    patient = world.spawn("human", name="Patient", team="Party", position=(2.0, 0.0))
    world.care = CarePolicy(healers=("Medic",), self_care=False)
    world.inflict(medic, severity=1, effect="daze")
    world.inflict(patient, severity=2, effect="weaken")
    sev(world, medic).aid_left = 0  # nobody tends the medic: it only rests
    world.ctx.streams["healing"] = QueuedRng(QueuedRng.die(12, 20))
    world.advance(hours=8)
    (aid,) = _aid(world, patient)
    assert aid.time == 60.0
    assert _rest_times(world, medic) == []  # its rest started again at the check, a minute in
    world.advance(minutes=1.5)
    assert _rest_times(world, medic) == [pytest.approx(60.0 + 8 * HOUR)]
    assert interrupts_rest(10, model_of(world).rules) and interrupts_rest(7, model_of(world).rules)
    assert not interrupts_rest(6, model_of(world).rules)

    from sandbox.config import load_catalog

    root = tmp_path / "configs"
    shutil.copytree(CONFIGS, root)
    path = root / "models" / "severity.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("difficulty = -3 ", "difficulty = -4 "),
                    encoding="utf-8")
    kit = Sandbox(seed=4, model="severity", catalog=load_catalog(root))
    medic = kit.spawn("human", name="Medic", team="Party", items=["healing_draught"])
    patient = kit.spawn("human", name="Patient", team="Party", position=(2.0, 0.0))
    kit.care = CarePolicy(healers=("Medic",), self_care=False)
    kit.inflict(medic, severity=1, effect="daze")
    kit.inflict(patient, severity=2, effect="weaken")
    sev(kit, medic).aid_left = 0
    kit.ctx.streams["healing"] = QueuedRng(QueuedRng.die(12, 20))
    kit.advance(hours=8.01)
    (aid,) = _aid(kit, patient)
    assert "vs DC 6 with the healing_draught" in aid.what
    assert _rest_times(kit, medic) == [pytest.approx(8 * HOUR)]  # a check of 6: its rest ran on
