"""The status-ladder model (document 004, decisions.md "Document 004"): the ladder, minor injuries, death,
penalties, passing out and coming round, the d20 attack, armour, rest, the readout, and the model in the loop."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.care import CarePolicy
from sandbox.components.events import AttackDeclared, D20AttackRolled, DamageDealt, Died, FellProne, ModelStateChanged
from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.models.status import (
    CRITICALLY,
    DEAD,
    HEALTHY,
    LEVELS,
    MORTALLY,
    SERIOUSLY,
    SLIGHTLY,
    WOUNDED,
    StatusState,
)
from sandbox.components.readout import UNPLACED
from sandbox.components.state import Anatomy, Condition
from sandbox.config import ConfigError, config_root, default_catalog
from sandbox.models import available_models, build_model
from sandbox.systems.d20 import d20_attack
from sandbox.systems.models import ModelError
from sandbox.systems.models.status.care import KINDS
from sandbox.systems.models.status.model import StatusModel
from sandbox.systems.models.status.record import StatusAttackRecord
from sandbox.systems.models.status.rules import (
    StatusWound,
    comes_round,
    damage_after_armor,
    levels_left,
    passes_out,
    passing_out_called,
    penalty,
    reduction_of,
    speed_factor,
    take_damage,
)
from sandbox.systems.models.status.tables import SCHEMA
from sandbox.systems.models.status.tables import load as load_status
from sandbox.systems.movement import speed
from sandbox.world import Sandbox, SandboxError

PENALTIES = (0, -2, -4, -6, -8, -10)


class QueuedRng:
    """A generator returning queued floats; drawing one more than queued fails the test."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def random(self) -> float:
        assert self.values, "drawn more often than queued"
        return self.values.pop(0)


def die(roll: int, sides: int = 20) -> float:
    """The float that makes ``int(x * sides) + 1`` equal ``roll``."""
    assert 1 <= roll <= sides
    return (roll - 0.5) / sides


@pytest.fixture
def world() -> Iterator[Sandbox]:
    """An empty world under the status model, closed afterwards."""
    w = Sandbox(seed=5, model="status")
    try:
        yield w
    finally:
        w.close()


def state(world: Sandbox, entity: int) -> StatusState:
    return world.get(entity, StatusState)


def model_of(world: Sandbox) -> StatusModel:
    assert isinstance(world.damage_model, StatusModel)
    return world.damage_model


def changes(events: list[Any], what: str = "status") -> list[tuple[str, str]]:
    return [(e.before, e.after) for e in events if isinstance(e, ModelStateChanged) and e.what == what]


# ------------------------------------------------------------------------------------------ the ladder (pure)


def test_ultor_worked_example() -> None:
    """Document 004: Ultor (Endurance 8) takes 3 (healthy, noted), then 10 (13: slightly wounded), then 5 by a
    spell (the damage reaches 8 again: wounded)."""
    w1 = take_damage(HEALTHY, 0, 3, 8)
    assert (w1.after, w1.minor_after, w1.levels) == (HEALTHY, 3, 0)
    w2 = take_damage(w1.after, w1.minor_after, 10, 8)
    assert (w2.total, w2.levels, w2.after, w2.minor_after) == (13, 1, SLIGHTLY, 5)
    w3 = take_damage(w2.after, w2.minor_after, 5, 8)
    assert (w3.total, w3.levels, w3.after, w3.minor_after) == (10, 1, WOUNDED, 2)
    assert not (w1.killed or w2.killed or w3.killed)


@pytest.mark.parametrize(("low", "high", "expected"), [
    (1, 7, HEALTHY), (8, 15, SLIGHTLY), (16, 23, WOUNDED), (24, 31, SERIOUSLY), (32, 39, CRITICALLY),
    (40, 47, MORTALLY), (48, 120, DEAD)])
def test_one_wound_to_a_healthy_ultor(low: int, high: int, expected: int) -> None:
    """Document 004's list for a healthy Ultor: 1-7 minor, 8-15 slightly ... 40-47 mortally, 48+ kills."""
    for damage in range(low, high + 1):
        wound = take_damage(HEALTHY, 0, damage, 8)
        assert wound.after == expected, damage
        assert wound.killed == (expected == DEAD)
        assert wound.minor_after == (0 if expected == DEAD else damage % 8)


def test_no_damage_changes_nothing() -> None:
    assert take_damage(WOUNDED, 5, 0, 8) == StatusWound(0, WOUNDED, WOUNDED, 5, 5, 5, 0, False)
    assert take_damage(MORTALLY, 3, 0, 8).after == MORTALLY
    assert take_damage(DEAD, 0, 30, 8).after == DEAD


def test_any_damage_while_mortally_wounded_kills() -> None:
    for damage in (1, 5, 40):
        wound = take_damage(MORTALLY, 0, damage, 8)
        assert wound.killed and wound.after == DEAD


def test_passing_mortally_wounded_in_one_wound_kills() -> None:
    assert take_damage(CRITICALLY, 3, 12, 8).after == MORTALLY  # 15: one level
    wound = take_damage(CRITICALLY, 3, 13, 8)  # 16: two levels, past mortally wounded
    assert wound.killed and wound.after == DEAD and wound.levels == 2
    assert take_damage(SLIGHTLY, 7, 32, 8).after == MORTALLY  # 39: four levels
    assert take_damage(SLIGHTLY, 7, 33, 8).killed  # 40: five levels from slightly wounded


def test_endurance_must_be_positive() -> None:
    with pytest.raises(ValueError, match="Endurance"):
        take_damage(HEALTHY, 0, 5, 0)


def test_passing_out_is_called_when_the_document_says() -> None:
    assert passing_out_called(take_damage(SERIOUSLY, 0, 8, 8))  # a level while seriously wounded
    assert not passing_out_called(take_damage(SERIOUSLY, 0, 7, 8))  # less than a level
    assert passing_out_called(take_damage(SERIOUSLY, 4, 4, 8))  # minor injuries make up the level
    assert passing_out_called(take_damage(CRITICALLY, 0, 1, 8))  # any damage while critically wounded
    assert not passing_out_called(take_damage(CRITICALLY, 0, 0, 8))
    assert not passing_out_called(take_damage(WOUNDED, 0, 24, 8))  # wounded -> mortally: no test
    assert not passing_out_called(take_damage(SERIOUSLY, 0, 24, 8))  # the wound kills: no test


def test_passing_out_and_coming_round_tests_exactly() -> None:
    assert [r for r in range(1, 21) if passes_out(r, 10)] == list(range(11, 21))
    assert sum(passes_out(r, 10) for r in range(1, 21)) / 20 == 0.5  # Ultor: an even chance
    assert sum(passes_out(r, 18) for r in range(1, 21)) / 20 == 0.1
    assert [r for r in range(1, 21) if comes_round(r, 6)] == list(range(1, 7))


def test_penalty_table_and_reduction_floor() -> None:
    assert [penalty(level, 0, PENALTIES) for level in range(DEAD + 1)] == [0, -2, -4, -6, -8, -10, 0]
    assert penalty(MORTALLY, 3, PENALTIES) == -7
    assert penalty(MORTALLY, 5, PENALTIES) == -5
    assert penalty(MORTALLY, 100, PENALTIES) == -5  # document 004: at least -5, whatever the bonuses
    assert penalty(SLIGHTLY, 4, PENALTIES) == -1
    assert penalty(HEALTHY, 4, PENALTIES) == 0  # never a bonus
    assert penalty(1, 9, (0, -5)) == -3  # an odd value keeps the larger half
    assert penalty(SERIOUSLY, -3, PENALTIES) == -6  # a negative reduction is no reduction


def test_speed_factor_and_armour_and_levels_left() -> None:
    assert speed_factor(0, 0.08, 0.2) == 1.0
    assert speed_factor(-6, 0.08, 0.2) == pytest.approx(0.52)
    assert speed_factor(-10, 0.08, 0.3) == 0.3
    assert damage_after_armor(9, 5) == 4 and damage_after_armor(3, 5) == 0
    assert [levels_left(level) for level in range(DEAD + 1)] == [6, 5, 4, 3, 2, 1, 0]


# ------------------------------------------------------------------------------------------ the tables


def test_shipped_tables_follow_the_document() -> None:
    model = build_model("status", default_catalog())
    assert isinstance(model, StatusModel)
    tables = model.tables
    assert tables.penalties == PENALTIES
    human = tables.creatures["human"]
    assert (human.constitution, human.endurance, human.penalty_reduction) == (10, 8, None)  # Ultor
    assert (tables.reduction_above, tables.reduction_per) == (10, 2)  # from Constitution: Ultor's 10 gives none
    catalog = default_catalog()
    assert set(tables.weapons) == set(catalog.modes)
    assert set(tables.armor) == set(catalog.armor)
    assert set(tables.creatures) == set(catalog.creatures)
    dragon = tables.creatures["fire_dragon"]
    assert dragon.endurance >= 3 * human.endurance and dragon.armor > 0 and dragon.constitution > human.constitution
    assert "status" in available_models()


def _broken(tmp_path: Path, edit: Any) -> ConfigError:
    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    path = root / "models" / "status.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_status(default_catalog(), root)
    return info.value


def test_every_problem_of_a_broken_file_is_listed(tmp_path: Path) -> None:
    def edit(text: str) -> str:
        text = text.replace("penalties = [0, -2, -4, -6, -8, -10]", "penalties = [0, -2, -4, -3, -8, -10]")
        text = text.replace('[weapons."club.crush"]\ndamage = "1d8+2"\n', "")
        text = text.replace('[weapons."spear.shaft"]\ndamage = "1d6"', '[weapons."spear.shaft"]\ndamage = "d"')
        text = text.replace("[armor.helm]\nvalue = 1", "[armor.helm]\nvalue = 1\n[armor.tin_hat]\nvalue = 2")
        return text

    problems = {(p.key, p.expected, p.found) for p in _broken(tmp_path, edit).problems}
    assert problems == {  # club.crush, left out, is derived
        ("penalties#4", "a penalty at least as bad as the rung above (-4)", "-3"),
        ('weapons."spear.shaft".damage', "a dice expression NdX+M (1d10+3) or a flat value", "'d'"),
        ("armor.tin_hat", "an armour piece the content defines", "'tin_hat'"),
    }


def test_schema_problems_are_listed_with_their_keys(tmp_path: Path) -> None:
    def edit(text: str) -> str:
        text = text.replace("endurance = 8\n", 'endurance = "8"\nagility = 3\n', 1)
        return text.replace("die = 20\n", "die = 1\n", 1)

    error = _broken(tmp_path, edit)
    keys = {p.key for p in error.problems}
    assert keys == {"creatures.human.endurance", "creatures.human.agility", "passing_out.die"}
    assert all(p.file.endswith("models/status.toml") for p in error.problems)
    missing = _broken(tmp_path / "other", lambda text: text.replace("[speed]", "[speedy]"))
    assert {p.key for p in missing.problems} == {"speed", "speedy"}


def test_schema_is_strict_and_closed() -> None:
    doc = SCHEMA.model_json_schema()
    assert doc["additionalProperties"] is False
    assert {"penalties", "passing_out", "speed", "healing", "weapons", "armor", "creatures"} <= set(doc["properties"])


def test_sandbox_validate_passes() -> None:
    result = CliRunner().invoke(app, ["validate"])
    assert result.exit_code == 0 and result.stdout.startswith("OK:")


# ------------------------------------------------------------------------------------------ in a world


def test_ultor_in_a_world(world: Sandbox) -> None:
    ultor = world.spawn("human", name="Ultor")
    assert world.readout(ultor).label == "healthy"
    events = world.inflict(ultor, damage=3)
    assert world.readout(ultor).label == "healthy" and state(world, ultor).minor == 3
    assert changes(events) == []
    assert [e.detail for e in events if isinstance(e, DamageDealt)] == [
        "3 HP + 0 minor = 3 vs Endurance 8: 0 levels, 3 minor (healthy)"]
    events = world.inflict(ultor, damage=10)
    assert changes(events) == [("healthy", "slightly wounded")]
    assert world.readout(ultor).label == "slightly wounded" and state(world, ultor).minor == 5
    events = world.inflict(ultor, damage=5)
    assert changes(events) == [("slightly wounded", "wounded")]
    r = world.readout(ultor)
    assert (r.label, r.band, r.health, r.alive, r.can_act) == ("wounded", "wounded", 4, True, True)
    assert r.conditions == ("minor injuries: 2", "penalty -4")


def test_an_endurance_override_of_0_is_kept_at_1(world: Sandbox) -> None:
    # Soak regression (generated run 978, seed 0): a scenario's anatomy Endurance of 0 (valid there) was taken as
    # 0 HP per level, and the first wound raised ZeroDivision's guard. Overrides keep the tables' bounds.
    frail = world.spawn("human", name="Frail", attributes={"endurance": 0, "constitution": 250})
    assert (state(world, frail).endurance, state(world, frail).constitution) == (1, 100)
    events = world.inflict(frail, damage=2)
    assert changes(events) == [("healthy", "wounded")]
    strong = world.spawn("human", name="Strong", attributes={"endurance": 12})
    assert state(world, strong).endurance == 12


def test_readout_words_for_every_rung(world: Sandbox) -> None:
    seen = []
    for level in range(DEAD):
        e = world.spawn("human", name=f"H{level}")
        if level:
            world.inflict(e, damage=8 * level)
        r = world.readout(e)
        seen.append((r.label, r.band, r.health, r.shock))
    dead = world.spawn("human", name="Dead")
    events = world.inflict(dead, damage=48)
    r = world.readout(dead)
    seen.append((r.label, r.band, r.health, r.shock))
    assert seen == [("healthy", "healthy", 6, "none"), ("slightly wounded", "slightly wounded", 5, "none"),
                    ("wounded", "wounded", 4, "none"), ("seriously wounded", "seriously wounded", 3, "none"),
                    ("critically wounded", "critically wounded", 2, "none"),
                    ("mortally wounded", "mortally wounded", 1, "dying"), ("dead", "dead", 0, "dead")]
    assert [label for label, *_ in seen] == list(LEVELS)
    assert not r.alive and not r.can_act and r.conditions == ()
    assert [e.cause for e in events if isinstance(e, Died)] == ["killed outright"]
    assert world.readout(world.entity("H5")).can_act  # a mortally wounded creature still acts, at -10


def test_a_scratch_kills_the_mortally_wounded(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    world.inflict(e, damage=40)
    assert world.readout(e).label == "mortally wounded"
    world.inflict(e, damage=0)
    assert world.readout(e).alive
    events = world.inflict(e, damage=1)
    assert changes(events) == [("mortally wounded", "dead")]
    assert [d.cause for d in events if isinstance(d, Died)] == ["wounded while mortally wounded"]
    with pytest.raises(SandboxError, match="dead"):
        world.inflict(e, damage=1)


def test_inflict_takes_damage_only(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    with pytest.raises(SandboxError, match="damage=N"):
        world.inflict(e, location="Skull", level=3)
    for bad in (-1, 2.5, True, "3", None):
        with pytest.raises(SandboxError, match="whole number"):
            world.inflict(e, damage=bad)
    with pytest.raises(SandboxError, match="whole number"):
        world.inflict(e)


def test_passing_out_in_a_world(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    b = world.spawn("human", name="B")
    world.inflict(a, damage=24)
    world.inflict(b, damage=24)
    assert world.readout(a).label == "seriously wounded"
    world.ctx.streams["injury"] = QueuedRng(die(5))  # type: ignore[index]
    events = world.inflict(a, damage=8)  # a level while seriously wounded: 5 > Constitution 10 - 6
    assert changes(events, "consciousness") == [("awake", "passed out")]
    assert any(isinstance(e, FellProne) and e.cause == "passed out" for e in events)
    assert world.get(a, Condition).reeling  # it acts no more this tick
    r = world.readout(a)
    assert (r.label, r.can_act, r.shock) == ("critically wounded", False, "incapacitated")
    assert "passed out" in r.conditions and "prone" in r.conditions
    world.ctx.streams["injury"] = QueuedRng(die(4))  # type: ignore[index]
    events = world.inflict(b, damage=8)  # 4 is not more than 10 - 6
    assert changes(events, "consciousness") == [] and world.readout(b).can_act
    world.ctx.streams["injury"] = QueuedRng(die(20))  # type: ignore[index]
    events = world.inflict(b, damage=1)  # any damage while critically wounded
    assert changes(events, "consciousness") == [("awake", "passed out")]
    world.ctx.streams["injury"] = QueuedRng()  # no test: less than a level while seriously wounded; no roll
    c = world.spawn("human", name="C")
    world.inflict(c, damage=24)
    world.inflict(c, damage=7)
    world.inflict(c, damage=0)
    assert world.readout(c).can_act


def test_coming_round(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=32)
    world.ctx.streams["injury"] = QueuedRng(die(15))  # type: ignore[index]
    world.inflict(a, damage=1)
    assert world.readout(a).can_act is False
    assert state(world, a).come_round_at == 30.0  # come_round_seconds after passing out
    world.ctx.streams["shock"] = QueuedRng(die(3), die(2))  # type: ignore[index]
    for _ in range(5):
        world.step()
        assert not world.readout(a).can_act
    events = world.step()  # tick 6, 60 s: the second test, 2 <= Constitution 10 - 8 (critically wounded)
    assert changes(events, "consciousness (d20 2 vs Constitution 10 -8 = 2)") == [("passed out", "awake")]
    r = world.readout(a)
    assert r.can_act and "prone" in r.conditions
    world.step()  # it stands up
    assert "prone" not in world.readout(a).conditions


def test_the_attack_roll_carries_the_penalty(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", armor=["gambeson", "mail_hauberk", "helm"])
    world.inflict(a, damage=8)  # slightly wounded: -2
    model, ctx = model_of(world), world.ctx
    assert state(world, b).armor == 5
    mode = world.catalog.modes["broadsword.cut"]
    parts_a, parts_b = world.creatures()[a], world.creatures()[b]
    # d20 + 3 - 2 against Defense 12: 11 misses (margin 0), 12 hits.
    ctx.streams["attack"] = QueuedRng(die(11), die(12))  # type: ignore[index]
    ctx.streams["injury"] = QueuedRng(die(3, 6), die(4, 6))  # type: ignore[index]
    with world.active():
        miss = model.attack(parts_a, parts_b, mode, (), ctx)
        hit = model.attack(parts_a, parts_b, mode, (), ctx)
    miss_events = miss.events()
    hit_events = hit.events()
    declared = AttackDeclared(0, 0.0, a, b, "broadsword.cut", "unaimed")  # no hit location: never aimed
    assert miss_events == [declared, D20AttackRolled(0, 0.0, a, b, "status", "broadsword.cut", 11, 12, 12, 0, False)]
    assert hit_events[:2] == [declared, D20AttackRolled(0, 0.0, a, b, "status", "broadsword.cut", 12, 13, 12, 1, True)]
    dealt = hit_events[2]
    assert isinstance(dealt, DamageDealt)
    assert (dealt.rolled, dealt.dealt) == (9, 4)  # 2d6+2 = 3 + 4 + 2, less armour 5
    assert state(world, b).minor == 4
    typed = [e for e in world.events
             if isinstance(e, AttackDeclared | D20AttackRolled | DamageDealt) and e.attacker == a]
    assert typed == miss_events + hit_events  # the log expands the records


def test_exact_hit_chance_under_each_penalty() -> None:
    """d20 + 3 + penalty against Defense 12 (a hit needs 13): healthy hits on 10+, slightly wounded on 12+,
    mortally wounded only on 20."""
    for level, chance in ((HEALTHY, 11 / 20), (SLIGHTLY, 9 / 20), (MORTALLY, 1 / 20)):
        pen = penalty(level, 0, PENALTIES)
        hits = sum(d20_attack(3, 12, QueuedRng(die(n)), pen).hit for n in range(1, 21))
        assert hits / 20 == chance


def test_penalty_reduction_helps_the_attack_but_not_below_half(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B")
    world.inflict(a, damage=40)  # mortally wounded: -10
    state(world, a).penalty_reduction = 8
    ctx = world.ctx
    ctx.streams["attack"] = QueuedRng(die(10))  # type: ignore[index]
    with world.active():
        record = model_of(world).attack(world.creatures()[a], world.creatures()[b],
                                        world.catalog.modes["broadsword.cut"], (), ctx)
    assert record.roll is not None and record.roll.total == 10 + 3 - 5


def test_constitution_lessens_the_penalties_by_the_tables_scale() -> None:
    """Document 004: "Exceptions confirming this rule are characters of strong will or fitness (Constitution), who
    either feel their wounds less or can overcome them by willpower." The scale (``[penalty_reduction]``): a point
    off for every 2 of Constitution above 10."""
    assert [reduction_of(con, 10, 2) for con in (0, 6, 10, 11, 12, 15, 18, 30)] == [0, 0, 0, 0, 1, 2, 4, 10]
    model = build_model("status", default_catalog())
    assert isinstance(model, StatusModel)
    tables = model.tables
    expected = {"human": 0, "wolf": 0, "eagle": 0, "constrictor_snake": 1, "fire_dragon": 4, "spirit": 2}
    with Sandbox(model="status") as world:
        for creature, reduction in expected.items():
            e = world.spawn(creature)
            assert world.get(e, StatusState).penalty_reduction == reduction, creature
            block = tables.creatures[creature]
            assert reduction == reduction_of(block.constitution, 10, 2)
        tough = world.spawn("human", attributes={"constitution": 16})  # a scenario's Constitution: reduction 3
        assert world.get(tough, StatusState).penalty_reduction == 3
        given = world.spawn("human", attributes={"constitution": 16, "penalty_reduction": 1})  # named: it wins
        assert world.get(given, StatusState).penalty_reduction == 1


def test_a_creatures_own_penalty_reduction_replaces_the_constitution_rule(tmp_path: Path) -> None:
    from sandbox.config import load_catalog

    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    path = root / "models" / "status.toml"
    text = path.read_text(encoding="utf-8").replace("constitution = 18\n", "constitution = 18\npenalty_reduction = 1\n")
    path.write_text(text, encoding="utf-8")
    with Sandbox(model="status", catalog=load_catalog(root)) as world:
        assert world.get(world.spawn("fire_dragon"), StatusState).penalty_reduction == 1


def test_damage_penalties_never_fall_below_half() -> None:
    """Document 004: "you can never reduce damage penalties below half, i.e. a mortally wounded character will have
    a penalty of at least -5, no matter how large their bonuses"."""
    assert penalty(MORTALLY, reduction_of(18, 10, 2), PENALTIES) == -6  # the dragon's 4
    assert penalty(MORTALLY, reduction_of(30, 10, 2), PENALTIES) == -5  # 10 would make it 0: half stays
    assert penalty(SLIGHTLY, reduction_of(30, 10, 2), PENALTIES) == -1
    assert penalty(HEALTHY, reduction_of(30, 10, 2), PENALTIES) == 0


def test_the_penalty_is_on_every_roll_the_sandbox_makes(world: Sandbox) -> None:
    """Document 004: "they receive penalties (see the previous table) to all rolls and to speed": the attack roll,
    the defence (its Defense drops by the penalty), the passing-out test and the coming-round test (the Constitution
    rolled under drops by it)."""
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B")
    world.inflict(a, damage=16)  # wounded: -4
    world.inflict(b, damage=24)  # seriously wounded: -6
    ctx = world.ctx
    ctx.streams["attack"] = QueuedRng(die(10))  # type: ignore[index]
    ctx.streams["injury"] = QueuedRng(die(6, 6), die(6, 6), die(4))  # type: ignore[index]
    with world.active():
        record = model_of(world).attack(world.creatures()[a], world.creatures()[b],
                                        world.catalog.modes["broadsword.cut"], (), ctx)
    assert record.roll is not None
    assert (record.roll.total, record.roll.defense) == (10 + 3 - 4, 12 - 6)  # its attack -4, B's defence -6
    assert (record.penalty, record.defense_penalty) == (-4, -6) and record.roll.hit
    assert record.wound is not None and record.wound.levels == 1  # 14 HP: seriously -> critically
    assert record.test is not None and (record.test.roll, record.test.against, record.test.result) == (4, 4, False)
    ctx.streams["injury"] = QueuedRng(die(5))  # type: ignore[index]
    events = world.inflict(b, damage=1)  # critically wounded now: 5 > 10 - 8
    assert changes(events, "consciousness") == [("awake", "passed out")]
    ctx.streams["shock"] = QueuedRng(die(3), die(2))  # type: ignore[index]
    world.advance(seconds=30)
    assert not world.readout(b).can_act  # 3 > 10 - 8: still out
    events = world.advance(seconds=30)
    assert changes(events, "consciousness (d20 2 vs Constitution 10 -8 = 2)") == [("passed out", "awake")]


def test_a_strong_constitution_stays_awake_more_often(world: Sandbox) -> None:
    """Exact over the d20: a critically wounded human (Constitution 10, -8) stays awake on 1-2; one of Constitution
    16 (reduction 3: -5) on 1-11."""
    for con, awake in ((10, 2), (16, 11)):
        count = 0
        for roll in range(1, 21):
            e = world.spawn("human", attributes={"constitution": con})
            world.inflict(e, damage=32)
            world.ctx.streams["injury"] = QueuedRng(die(roll))  # type: ignore[index]
            world.inflict(e, damage=1)
            count += world.readout(e).can_act
        assert count == awake, con


def test_penalty_on_damage_is_a_switch(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B")
    world.inflict(a, damage=16)  # wounded: -4
    model = model_of(world)
    model.tables = dataclasses.replace(model.tables, penalty_to_damage=True)
    ctx = world.ctx
    ctx.streams["attack"] = QueuedRng(die(20))  # type: ignore[index]
    ctx.streams["injury"] = QueuedRng(die(3, 6), die(4, 6))  # type: ignore[index]
    with world.active():
        record = model.attack(world.creatures()[a], world.creatures()[b],
                              world.catalog.modes["broadsword.cut"], (), ctx)
    assert record.rolled == 9 - 4 and record.dealt == 5
    assert record.damage_penalty == -4


def walking(world: Sandbox, entity: int) -> tuple[float, float]:
    """The model's speed factor and the metres the creature walks this tick (the shared movement multiplies)."""
    with world.active():
        c = world.creatures()[entity]
        return model_of(world).speed_factor(c, world.ctx), speed(c, world.ctx)


def test_speed_follows_the_rung_and_comes_back(world: Sandbox) -> None:
    a = world.spawn("human", name="A", speed=12.0)
    assert walking(world, a) == (1.0, 12.0)
    world.inflict(a, damage=24)  # seriously wounded: -6 -> 0.52
    assert walking(world, a) == pytest.approx((0.52, 12.0 * 0.52))
    world.ctx.streams["injury"] = QueuedRng(die(4))  # type: ignore[index]
    world.inflict(a, damage=16)  # mortally wounded: -10 -> the 0.2 floor (it stays awake: 4 <= 10 - 6)
    assert walking(world, a) == pytest.approx((0.2, 12.0 * 0.2))
    assert world.get(a, Anatomy).speed == 12.0  # the model answers speed_factor; it never writes Anatomy.speed
    world.advance(days=30)
    assert world.readout(a).label == "healthy" and walking(world, a) == (1.0, 12.0)


def test_a_reduced_penalty_slows_less(world: Sandbox) -> None:
    a = world.spawn("human", name="A", speed=10.0, attributes={"penalty_reduction": 4})
    world.inflict(a, damage=24)  # seriously wounded: -6 reduced to -3 (not below half)
    assert walking(world, a) == pytest.approx((1 - 3 * 0.08, 10.0 * (1 - 3 * 0.08)))


def test_rest_heals_rung_by_rung(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=21)  # wounded, 5 minor
    events = world.advance(hours=8)
    assert changes(events, "minor injuries") == [("5", "0")] and world.readout(a).label == "wounded"
    events = world.advance(hours=39)
    assert changes(events) == [] and world.readout(a).label == "wounded"  # 2 days on "wounded"
    events = world.advance(hours=1)
    assert changes(events) == [("wounded", "slightly wounded")]
    assert [e.time for e in events if isinstance(e, ModelStateChanged)] == [2 * 86400.0]
    events = world.advance(days=1)
    assert changes(events) == [("slightly wounded", "healthy")]
    assert world.readout(a).label == "healthy" and world.advance(days=10) == []


def test_a_fresh_wound_restarts_the_rest(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=16)  # wounded: two days of rest to heal a rung
    world.advance(days=1)
    world.inflict(a, damage=3)  # the same rung, a fresh wound
    assert changes(world.advance(days=1.5)) == []
    events = world.advance(days=0.5)
    assert changes(events) == [("wounded", "slightly wounded")]
    assert [e.time for e in events if e.what == "status"] == [3 * 86400.0]


def test_healing_a_rung_forgets_the_minor_injuries(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=12)  # slightly wounded, 4 minor
    model_of(world).tables = dataclasses.replace(model_of(world).tables, minor_heal_seconds=10 * 86400.0)
    world.advance(days=1)
    assert world.readout(a).label == "healthy" and state(world, a).minor == 0


def test_the_untended_mortally_wounded_die(world: Sandbox) -> None:
    world.care = dataclasses.replace(world.care, self_care=False)
    alone = world.spawn("human", name="Alone", team="Lone")
    world.inflict(alone, damage=40)
    mate = world.spawn("human", name="Mate", team="Pair")
    friend = world.spawn("human", name="Friend", team="Pair")
    world.inflict(mate, damage=40)
    events = world.advance(hours=2)
    deaths = [(e.entity, e.cause, e.time) for e in events if isinstance(e, Died)]
    assert deaths == [(alone, "mortally wounded, untended", 3600.0)]
    assert changes(events, "care") == [("untended", "tended by Friend")]
    assert world.readout(mate).alive and world.readout(friend).alive
    world.advance(days=30)
    assert world.readout(mate).label == "healthy"


def test_self_care_saves_the_mortally_wounded(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=40)
    events = world.advance(hours=2)
    assert changes(events, "care") == [("untended", "tended by itself")] and world.readout(a).alive


def test_advance_brings_the_passed_out_round(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    world.inflict(a, damage=32)
    world.ctx.streams["injury"] = QueuedRng(die(20))  # type: ignore[index]
    world.inflict(a, damage=1)
    world.ctx.streams["shock"] = QueuedRng(die(20), die(20), die(2))  # type: ignore[index]
    events = world.advance(minutes=5)
    woke = [e.time for e in events if isinstance(e, ModelStateChanged) and e.what.startswith("consciousness")]
    assert woke == [90.0] and world.readout(a).can_act
    assert world.ctx.clock.time == 300.0


def test_the_model_leaves_the_anatomy_alone() -> None:
    w = Sandbox.from_scenario("skirmish", seed=2, model="status")
    try:
        w.run()
        assert w.damage_model.state_types() == (StatusState,)
        for e in w.creatures():
            for anatomy_state in (Injury, Shock):  # the anatomy model's state: no creature here carries it
                with pytest.raises(SandboxError, match=f"no {anatomy_state.__name__} component"):
                    w.get(e, anatomy_state)
            r = w.readout(e)
            assert r.label in LEVELS
            assert all(c == "passed out" or c == "prone" or c.startswith(("minor injuries", "penalty"))
                       for c in r.conditions)
    finally:
        w.close()


# ------------------------------------------------------------------------------------------ the loop


@pytest.mark.parametrize("scenario", ["duel", "skirmish", "wolf_pack", "bestiary", "battle"])
def test_every_scenario_runs_to_an_outcome(scenario: str) -> None:
    reasons = []
    for seed in range(3):
        w = Sandbox.from_scenario(scenario, seed=seed, model="status")
        try:
            outcome = w.run()
            reasons.append(outcome.reason)
            assert any(isinstance(e, DamageDealt) and e.dealt > 0 for e in w.events)
        finally:
            w.close()
    assert reasons.count("one team left") >= 2


def test_blows_and_passing_out_happen_in_a_battle() -> None:
    w = Sandbox.from_scenario("battle", seed=1, model="status")
    try:
        w.run()
        whats = {e.what.split(" (")[0] for e in w.events if isinstance(e, ModelStateChanged)}
        assert {"status", "consciousness"} <= whats
        assert any(isinstance(e, Died) and e.cause == "killed outright" for e in w.events)
    finally:
        w.close()


def test_same_seed_same_events() -> None:
    a = Sandbox.from_scenario("skirmish", seed=9, model="status")
    b = Sandbox.from_scenario("skirmish", seed=9, model="status")
    try:
        a.run()
        b.run()
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize(("scenario", "seed", "k"), [("duel", 0, 12), ("skirmish", 3, 10), ("battle", 1, 20)])
def test_save_load_continue_identically(tmp_path: Path, scenario: str, seed: int, k: int) -> None:
    a = Sandbox.from_scenario(scenario, seed=seed, model="status")
    b = Sandbox.from_scenario(scenario, seed=seed, model="status")
    c = None
    try:
        out = a.run()
        for _ in range(k):
            b.step()
        assert any(state(b, e).level > HEALTHY for e in b.creatures())  # something to carry over
        path = tmp_path / "save.json"
        b.save(path)
        c = Sandbox.load(path)
        for e in b.creatures():
            assert state(c, e) == state(b, e)
            assert c.get(e, Anatomy).speed == b.get(e, Anatomy).speed
            assert walking(c, e) == walking(b, e)
        assert c.run() == out
        assert [e.to_dict() for e in c.events] == [e.to_dict() for e in a.events]
        for e in a.creatures():
            assert c.readout(e) == a.readout(e)
        assert c.advance(days=3) == a.advance(days=3)
    finally:
        for w in (a, b, c):
            if w is not None:
                w.close()


# ------------------------------------------------------------------------------------------ the attack record


def only_record(world: Sandbox) -> StatusAttackRecord:
    records = [entry for entry in world.log if isinstance(entry, StatusAttackRecord)]
    assert len(records) == 1
    return records[0]


def test_a_hit_explains_itself_in_words_and_its_consequences_follow_it(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", armor=["gambeson", "mail_hauberk", "helm"])
    world.inflict(a, damage=8)  # slightly wounded: -2 on the roll
    world.inflict(b, damage=24)  # seriously wounded: a level more calls the passing-out test
    start = len(world.log)
    world.ctx.streams["attack"] = QueuedRng(die(15))  # type: ignore[index]
    world.ctx.streams["injury"] = QueuedRng(die(6, 6), die(6, 6), die(15))  # type: ignore[index]
    events = world.strike(b, "broadsword.cut", attacker=a)
    record = only_record(world)
    assert world.log[start] is record and record.headline and record.struck
    assert record.roll is not None and (record.roll.natural, record.roll.total, record.roll.bonus) == (15, 16, 1)
    assert record.summary(world.names) == ("A -> B: 9 HP (14 rolled): seriously wounded -> critically wounded, "
                                           "1 minor; d20 15 vs Constitution 10 -6 = 4: passes out")
    assert record.explain(world.names) == [
        "Tick 0: A attacks B with Broadsword Cut, unaimed",
        "Attack roll: d20 15 +1 = 16 against Defense 6: margin 10, a hit; the bonus is A's +3, the weapon's +0 and "
        "the status penalty -2 for being slightly wounded; B's Defense 12 takes its status penalty -6 for being "
        "seriously wounded",
        "Damage 2d6+2 rolled 14; armour 5: 14 - 5 = 9 HP",
        "9 HP + 0 HP of minor injuries = 9, against Endurance 8 HP a level: 1 level lost, seriously wounded -> "
        "critically wounded; the minor injuries are erased and the remainder, 1 HP, is noted",
        "Passing-out test (seriously wounded and losing a level): d20 15 against Constitution 10 -6 = 4 (the status "
        "penalty of being seriously wounded), above it: passes out (out of the fight, prone)",
    ]
    assert [type(e).__name__ for e in events] == ["AttackDeclared", "D20AttackRolled", "DamageDealt",
                                                  "ModelStateChanged", "ModelStateChanged", "FellProne"]
    assert events[:3] == record.events()
    dealt = events[2]
    assert isinstance(dealt, DamageDealt) and dealt.detail == (
        "9 HP + 0 minor = 9 vs Endurance 8: 1 level (seriously wounded -> critically wounded), 1 minor; "
        "passing-out test d20 15 vs Constitution 10 -6 = 4: passed out")


def test_a_miss_has_no_summary_and_a_kill_says_so(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B")
    world.ctx.streams["attack"] = QueuedRng(die(9))  # type: ignore[index]
    world.strike(b, "broadsword.cut", attacker=a)
    miss = only_record(world)
    assert not miss.hit and not miss.struck and miss.summary(world.names) is None
    assert miss.explain(world.names)[1:] == ["Attack roll: d20 9 +3 = 12 against Defense 12: margin 0, a miss; the "
                                             "bonus is A's +3, the weapon's +0 and the status penalty +0 for being "
                                             "healthy"]
    world.inflict(b, damage=40)  # mortally wounded: any damage kills
    world.log.clear()
    world.ctx.streams["injury"] = QueuedRng(die(1, 6), die(1, 6))  # type: ignore[index]
    world.strike(b, "broadsword.cut")
    kill = only_record(world)
    assert kill.summary(world.names) == "(direct) -> B: 4 HP (4 rolled): mortally wounded -> dead"
    assert kill.explain(world.names)[-2:] == ["Damage 2d6+2 rolled 4; no armour: all 4 HP",
                                              "4 HP while mortally wounded: any damage kills, dead"]


def test_strike_without_an_attacker_lands_with_no_roll(world: Sandbox) -> None:
    b = world.spawn("human", name="B", armor=["mail_hauberk"])
    world.ctx.streams["attack"] = QueuedRng()  # type: ignore[index]
    world.ctx.streams["injury"] = QueuedRng(die(6, 6), die(1, 6))  # type: ignore[index]
    events = world.strike(b, "broadsword.cut", aim="Skull")
    armour = state(world, b).armor
    assert [e.to_dict() for e in events] == [
        {"type": "AttackDeclared", "tick": 0, "time": 0.0, "attacker": -1, "target": b, "mode": "broadsword.cut",
         "aim": "Skull"},
        {"type": "DamageDealt", "tick": 0, "time": 0.0, "attacker": -1, "target": b, "model": "status",
         "rolled": 9, "dealt": 9 - armour,
         "detail": f"{9 - armour} HP + 0 minor = {9 - armour} vs Endurance 8: 0 levels, {9 - armour} minor (healthy)"}]
    record = only_record(world)
    assert record.roll is None and record.attacker == -1 and record.struck
    assert record.explain(world.names)[:2] == [
        "Tick 0: (direct) attacks B with Broadsword Cut, aimed at the Skull (the status ladder has no hit location: "
        "the aim changes nothing)",
        "Struck directly: no attack roll, the blow lands"]


def test_strike_with_an_attacker_is_its_attack_as_the_loop_makes_it() -> None:
    def attack_once(by_strike: bool) -> list[dict[str, Any]]:
        with Sandbox(seed=8, model="status") as w:
            a = w.spawn("human", name="A", weapons=["broadsword"])
            b = w.spawn("human", name="B")
            for _ in range(3):
                if by_strike:
                    w.strike(b, "broadsword.cut", attacker=a)
                else:
                    with w.active():
                        model_of(w).attack(w.creatures()[a], w.creatures()[b], w.catalog.modes["broadsword.cut"],
                                           (), w.ctx)
            return [e.to_dict() for e in w.events]

    assert attack_once(True) == attack_once(False)


def test_strike_refuses_an_aim_the_body_lacks_and_the_dead(world: Sandbox) -> None:
    a = world.spawn("human", name="A", weapons=["broadsword"])
    b = world.spawn("human", name="B")
    with pytest.raises(SandboxError, match="no part or location 'Wing'"):
        world.strike(b, "broadsword.cut", aim="Wing")
    with world.active(), pytest.raises(ModelError, match="Wing"):
        model_of(world).strike(world.creatures()[b], world.catalog.modes["broadsword.cut"], "Wing", world.ctx)
    world.inflict(b, damage=48)
    with pytest.raises(SandboxError, match="B is dead"):
        world.strike(b, "broadsword.cut", attacker=a)
    assert not any(isinstance(entry, StatusAttackRecord) for entry in world.log)


# ------------------------------------------------------------------------------------------ health and readout


def test_health_is_the_readouts_levels_left(world: Sandbox) -> None:
    e = world.spawn("human", name="A")
    for damage in (0, 8, 13, 16, 11):
        if world.readout(e).alive:
            world.inflict(e, damage=damage)
        with world.active():
            assert model_of(world).health(world.creatures()[e], world.ctx) == world.readout(e).health
    assert world.readout(e).health == 0


def test_readout_wounds_and_details(world: Sandbox) -> None:
    a = world.spawn("human", name="A")
    r = world.readout(a)
    assert r.wounds == () and r.health_unit == ""
    assert [p.name for p in r.parts] == [p.name for p in world.get(a, Anatomy).body.parts]
    assert all(not p.unusable and p.penalty == 0 for p in r.parts)
    world.inflict(a, damage=13, location="Left Forearm")
    world.inflict(a, damage=8)  # wounded (21 HP: two levels), 5 minor
    r = world.readout(a)
    assert [(w.level, w.text, w.treated, w.location, w.part) for w in r.wounds] == [
        ("13 HP", "13 HP struck at the Left Forearm (a level is 8 HP)", False, "Left Forearm", "Left Arm"),
        ("8 HP", "8 HP with no place (a level is 8 HP)", False, UNPLACED, UNPLACED)]
    assert "minor injuries: 5" in r.conditions and (r.label, r.health, r.health_max) == ("wounded", 4, 6)
    details = dict(r.details)
    assert details["status"] == "wounded" and details["levels left"] == "4 of 6"
    assert details["minor injuries"] == "5 HP of a level's 8"
    assert details["penalty"] == "-4 on every roll" and details["walking speed"] == "68% of its own"
    assert (details["endurance"], details["constitution"], details["consciousness"]) == ("8 HP a level", "10",
                                                                                         "awake")
    world.inflict(a, damage=19)  # mortally wounded: its untended clock runs
    assert dict(world.readout(a).details)["dies untended at"] == "3600 s"


# ------------------------------------------------------------------------------------------ out of combat


def test_advance_runs_on_the_shared_due_queue(monkeypatch: pytest.MonkeyPatch, world: Sandbox) -> None:
    import sandbox.systems.models.status.care as status_care
    from sandbox.systems.schedule import DueQueue

    made: list[DueQueue] = []

    class Spy(DueQueue):
        def __init__(self, kinds: Any) -> None:
            super().__init__(kinds)
            made.append(self)

        def pop_due(self, end: float, is_due: Any) -> Any:
            assert world.ctx.due is self  # the active queue, for the rules to push on
            yield from super().pop_due(end, is_due)

    monkeypatch.setattr(status_care, "DueQueue", Spy)
    a = world.spawn("human", name="A")
    world.inflict(a, damage=3)
    assert changes(world.advance(hours=9), "minor injuries") == [("3", "0")]
    assert len(made) == 1 and world.ctx.due is None
    assert KINDS == ("come round", "untended", "heal", "minor")


def test_the_first_team_mate_able_to_act_tends_and_the_policy_names_the_healers() -> None:
    def tender(care: CarePolicy) -> list[tuple[str, str]]:
        with Sandbox(seed=5, model="status") as w:
            w.care = care
            patient = w.spawn("human", name="Patient", team="Party")
            w.spawn("human", name="Out", team="Party")  # the lowest entity of its team-mates, but passed out
            w.spawn("human", name="First", team="Party")
            w.spawn("human", name="Second", team="Party")
            w.get("Out", Condition).out = True
            w.get("Out", StatusState).come_round_at = 10 * 86400.0
            w.inflict(patient, damage=40)
            return changes(w.advance(hours=2), "care")

    assert tender(CarePolicy()) == [("untended", "tended by First")]
    assert tender(CarePolicy(healers=("Second",))) == [("untended", "tended by Second")]
    assert tender(CarePolicy(healers=("Out",))) == [("untended", "tended by itself")]


def _wounded_party(seed: int) -> Sandbox:
    """Three wounded creatures, none mortally: minor injuries fade, rungs heal, one may pass out and come round."""
    world = Sandbox(seed=seed, model="status")
    a = world.spawn("human", name="A", team="Party")
    b = world.spawn("human", name="B", team="Party", attributes={"constitution": 1})  # out, for long
    c = world.spawn("wolf", name="Wolf", team="Wild")
    world.inflict(a, damage=20)
    world.inflict(b, damage=32)
    world.inflict(b, damage=3)  # critically wounded and hurt: the passing-out test
    world.inflict(c, damage=9)
    return world


SPAN = 12 * 86400
_WHOLE: dict[int, tuple[list[dict[str, Any]], list[Any]]] = {}
"""Seed -> the events and readouts of ``_wounded_party(seed)`` advanced by ``SPAN`` at once."""


def _advanced_whole(seed: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """What the uncut advance logs and reads: the same for every cut of a seed's party, so it is computed once per
    seed (5 seeds, against 30 examples: a 12-day advance with a creature passed out tests coming round every 10 s)."""
    if seed not in _WHOLE:
        whole = _wounded_party(seed)
        whole.advance(SPAN)
        _WHOLE[seed] = ([ev.to_dict() for ev in whole.events], [whole.readout(e) for e in whole.names])
        whole.close()
    return _WHOLE[seed]


@settings(max_examples=30, deadline=None)
@given(split=st.integers(min_value=0, max_value=SPAN), seed=st.integers(min_value=0, max_value=4))
def test_advance_is_split_proof_while_nobody_is_mortally_wounded(split: int, seed: int) -> None:
    """``advance(a)`` then ``advance(b)`` gives the events of ``advance(a + b)`` wherever the span is cut (the
    mortally wounded excepted: see the next test)."""
    events, readouts = _advanced_whole(seed)
    cut = _wounded_party(seed)
    cut.advance(split)
    cut.advance(SPAN - split)
    assert [ev.to_dict() for ev in cut.events] == events
    assert [cut.readout(e) for e in cut.names] == readouts
    cut.close()


def test_advance_is_split_proof_for_the_mortally_wounded() -> None:
    """Issue 14, point 8: an advance does not re-arm the untended clock of a creature already found tended."""
    def run(*spans: float) -> list[tuple[float, str, str]]:
        with Sandbox(seed=1, model="status") as w:
            w.inflict(w.spawn("human", name="A"), damage=40)
            return [(e.time, e.what, e.after) for span in spans for e in w.advance(hours=span)
                    if isinstance(e, ModelStateChanged)]

    assert run(2, 2) == run(4)
