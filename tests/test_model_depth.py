"""The wound-depth model (document 002; decisions.md "Document 002"): the d20 roll, depth tiers, the injury table,
called shots, criticals and mishaps, anatomy notes, treatment, the readout, and the model in running worlds."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.components.care import CarePolicy
from sandbox.components.events import (
    AttackDeclared,
    D20AttackRolled,
    DamageDealt,
    Died,
    ItemDropped,
    Missed,
    ModelStateChanged,
)
from sandbox.components.impairment import SOUND, UNUSABLE
from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.models.depth import TIERS, DepthState, DepthTables, DepthWound
from sandbox.components.state import Combatant, Condition, Equipment
from sandbox.config import ConfigError, config_root, default_catalog
from sandbox.models import available_models, build_model
from sandbox.systems.ai import choose_aim
from sandbox.systems.combat import ready_parts
from sandbox.systems.hit_location import MISS, build_hit_table, location_probabilities
from sandbox.systems.models import ModelError
from sandbox.systems.models.depth.care import DyingProcessor, treatment_check, treatment_order
from sandbox.systems.models.depth.model import DepthModel
from sandbox.systems.models.depth.readout import label_of
from sandbox.systems.models.depth.record import DepthAttackRecord
from sandbox.systems.models.depth.rules import (
    ability_modifier,
    cell_of,
    defense_of,
    depth_tier,
    outcome_probabilities,
    settle,
    strike_location,
    wound_depth,
)
from sandbox.systems.models.depth.tables import SCHEMA, load
from sandbox.systems.phases import Phase
from sandbox.world import Sandbox, SandboxError
from tests.conftest import QueuedRng

SCENARIOS = ("duel", "skirmish", "wolf_pack", "bestiary", "battle")


@pytest.fixture(scope="module")
def tables() -> DepthTables:
    """The shipped tables (``configs/models/depth.toml``)."""
    model = build_model("depth", default_catalog())
    assert isinstance(model, DepthModel)
    return model.tables


@pytest.fixture
def world() -> Iterator[Sandbox]:
    """An empty world under the depth model, closed afterwards."""
    w = Sandbox(seed=5, model="depth")
    yield w
    w.close()


def state(world: Sandbox, entity: int) -> DepthState:
    return world.get(entity, DepthState)


def model(world: Sandbox) -> DepthModel:
    assert isinstance(world.damage_model, DepthModel)
    return world.damage_model


def d20(*rolls: int) -> QueuedRng:
    """A generator queued with d20 rolls."""
    return QueuedRng(*(QueuedRng.die(r, 20) for r in rolls))


def attack_dice(*rolls: int) -> QueuedRng:
    """The attack stream queued with d20 rolls, each natural 1 followed by its mishap die (a d3)."""
    values: list[float] = []
    it = iter(rolls)
    for r in it:
        values.append(QueuedRng.die(r, 20))
        if r == 1:
            values.append(QueuedRng.die(next(it), 3))
    return QueuedRng(*values)


def strike(world: Sandbox, attacker: int, target: int, mode_id: str, *rolls: int, aim: str = "unaimed") -> Any:
    """One attack of ``attacker`` on ``target`` with the attack die queued, then the mishap die of a natural 1
    (``aim``: a part or location name for a called shot); returns the record (``None`` when refused)."""
    world.ctx.streams["attack"] = attack_dice(*rolls)  # type: ignore[index]
    me = world.creatures()[attacker]
    foe = world.creatures()[target]
    mode = world.ctx.modes[mode_id]
    parts = ready_parts(me.anatomy, world.damage_model.part_states(me), me.condition, me.equipment, mode)
    assert parts is not None
    comb = me.combatant
    comb.aim = aim
    comb.aim_zone = choose_aim(aim, foe.anatomy.body, world.ctx.streams["ai"])
    with world.active():
        return world.damage_model.attack(me, foe, mode, parts, world.ctx)


def new_events(world: Sandbox, start: int) -> list[Any]:
    return world.events[start:]


# ------------------------------------------------------------------------------------------------- pure rules


@pytest.mark.parametrize(("score", "modifier"), [(14, 2), (15, 2), (10, 0), (11, 0), (9, -1), (7, -2), (3, -4)])
def test_ability_modifier(score: int, modifier: int) -> None:
    assert ability_modifier(score) == modifier


def test_defense_is_ten_plus_dexterity_plus_armour_or_the_hostiles_own() -> None:
    assert defense_of(2, [2]) == 14  # the trail guide in leather jacks
    assert defense_of(2, []) == 12  # the toll collector
    assert defense_of(0, [1, 3, 1]) == 15  # gambeson, mail, helm
    assert defense_of(5, [], fixed=17) == 17  # a hostile's entry: its Dexterity is in the number
    assert defense_of(5, [2], fixed=13) == 15  # armour a hostile wears still adds


@pytest.mark.parametrize(("margin", "tier"), [(-3, 0), (0, 0), (1, 1), (3, 1), (4, 2), (7, 2), (8, 3), (11, 3),
                                              (12, 4), (30, 4)])
def test_depth_tiers(margin: int, tier: int) -> None:
    assert depth_tier(margin) == tier


def test_toll_collector_worked_example() -> None:
    """A punch rolled 14 with +2: 16 against Defense 12 beats it by 4, the punch adds depth 0: flesh."""
    depth = wound_depth(16 - 12, depth_bonus=0, reduction=0, natural_20=False)
    assert (depth.raw, depth.margin, depth.tier, depth.worst) == (4, 4, 2, False)


def test_exact_outcome_chances() -> None:
    p = outcome_probabilities(2, 12, 0)  # the toll collector punched at +2
    assert p == pytest.approx({"miss": 10 / 20, "none": 0, "skin": 3 / 20, "flesh": 4 / 20, "bone": 2 / 20,
                               "organ": 1 / 20})  # a natural 20 at margin 10 goes from bone to organ
    p = outcome_probabilities(0, 15, 2)  # a broadsword cut at a man in mail
    assert p == pytest.approx({"miss": 15 / 20, "none": 0, "skin": 1 / 20, "flesh": 3 / 20, "bone": 1 / 20,
                               "organ": 0})
    p = outcome_probabilities(-5, 15, 2)  # a called shot at his helmed head: even a natural 20 falls short
    assert p == pytest.approx({"miss": 1, "none": 0, "skin": 0, "flesh": 0, "bone": 0, "organ": 0})
    p = outcome_probabilities(2, 12, 0, reduction=4)  # the same punch at a hide that turns 4
    assert p == pytest.approx({"miss": 10 / 20, "none": 4 / 20, "skin": 3 / 20, "flesh": 2 / 20, "bone": 1 / 20,
                               "organ": 0})  # margins 1-4 go nowhere; the natural 20 (6) goes flesh -> bone
    assert outcome_probabilities(30, 12, 0)["miss"] == 0  # a natural 1 at margin 19 hits
    assert outcome_probabilities(-30, 12, 0)["miss"] == pytest.approx(1)  # a natural 20 at margin -10 misses


def test_attacks_in_a_world_follow_the_exact_chances(world: Sandbox) -> None:
    """Fixed-seed statistics: the model's own attacks against the exact chances of the toll collector's punch."""
    brawler = world.spawn("human", name="Brawler", team="A", attributes={"strength": 14})
    collector = world.spawn("human", name="Toll Collector", team="B", attributes={"dexterity": 14})
    me, foe = world.creatures()[brawler], world.creatures()[collector]
    mode = world.ctx.modes["unarmed.punch"]
    arm = me.anatomy.body.part_index("Right Arm")
    counts: Counter[str] = Counter()
    n = 6000
    mine, theirs = state(world, brawler), state(world, collector)
    with world.active():
        for _ in range(n):
            mine.mishap = mine.open_guard = 0
            theirs.wounds.clear()
            record = world.damage_model.attack(me, foe, mode, (arm,), world.ctx)
            assert record is not None
            counts["miss" if not record.hit else ("none", "skin", "flesh", "bone", "organ")[record.tier]] += 1
    exact = outcome_probabilities(2, 12, 0)
    for outcome, p in exact.items():
        assert abs(counts[outcome] / n - p) < 0.015, outcome


def test_natural_20_goes_one_tier_deeper_and_worst() -> None:
    assert wound_depth(5, 2, 0, natural_20=True).tier == 3  # flesh 7 -> bone
    assert wound_depth(12, 0, 0, natural_20=True).tier == 4  # organ is the deepest
    assert wound_depth(1, 0, 4, natural_20=True).tier == 1  # the hide turned it all: a skin wound
    assert wound_depth(1, 0, 0, natural_20=True).worst


def test_depth_reduction_is_taken_after_the_bonus() -> None:
    depth = wound_depth(5, 4, 4, natural_20=False)  # a dragon claw's depth against a dragon's cutting scales
    assert (depth.raw, depth.margin, depth.tier) == (9, 5, 2)
    assert wound_depth(3, 0, 4, natural_20=False).tier == 0  # shallow cuts are worthless


def test_organ_wounds_split_by_part_role() -> None:
    assert [cell_of(t, True) for t in (1, 2, 3, 4)] == ["skin", "flesh", "bone", "organ_core"]
    assert cell_of(4, False) == "organ_limb"


def test_shipped_injury_table_follows_decisions(tables: DepthTables) -> None:
    for family in ("blunt", "cutting", "piercing", "fire"):
        skin = tables.injuries[("skin", family)][0]
        flesh = tables.injuries[("flesh", family)][0]
        bone = tables.injuries[("bone", family)][0]
        core = tables.injuries[("organ_core", family)][0]
        limb = tables.injuries[("organ_limb", family)][0]
        assert not skin.lasting  # no lasting effect
        assert flesh.penalty == -1 and not flesh.breaks and not flesh.down  # a bleeding wound, -1
        assert bone.breaks and not bone.down  # the part stops working until set
        assert core.down and core.dies_after > 0  # down and dying unless treated
        assert limb.breaks and limb.penalty <= -2 and limb.dies_after > core.dies_after  # as bone + heavy bleeding
        assert not limb.down
        assert tables.injuries[("organ_core", family)][1].kills  # a natural 20's worst at organ depth
    assert tables.tiers == (1, 4, 8, 12)
    assert tables.called_shot_modifier == -5


def test_every_strike_mode_armour_and_creature_has_an_entry(tables: DepthTables) -> None:
    catalog = default_catalog()
    assert set(tables.weapons) == set(catalog.modes)
    assert set(tables.armor) == set(catalog.armor)
    assert set(tables.creatures) == set(catalog.creatures)
    assert tables.weapons["unarmed.punch"].depth_bonus == 0
    assert tables.weapons["mace.crush"].depth_bonus > tables.weapons["club.crush"].depth_bonus
    assert tables.weapons["dragon.breath"].family == "fire"
    dragon = tables.creatures["fire_dragon"]
    assert dragon.reduction[1] > 0 and dragon.reduction[2] > 0  # scales turn cuts and thrusts
    assert dragon.defense is not None and dragon.defense > 10 + 1 + 3 + 1  # harder to hit than a man in mail


def test_treatment_rules() -> None:
    assert treatment_check(9, 3, 12) and not treatment_check(8, 3, 12)
    wounds = [DepthWound(0, 0, 2, "cutting", "a", -1, False, False, False, -1.0, False, 10, 0.0, False),
              DepthWound(1, 1, 3, "blunt", "b", 0, True, False, False, -1.0, False, 12, 0.0, False),
              DepthWound(2, 2, 4, "piercing", "c", 0, False, False, True, 40.0, False, 15, 0.0, False),
              DepthWound(3, 3, 1, "blunt", "d", 0, False, False, False, -1.0, False, 0, 0.0, False),
              DepthWound(4, 3, 4, "cutting", "e", -2, True, False, False, 30.0, False, 14, 0.0, False)]
    assert treatment_order(wounds) == [4, 2, 1, 0]  # soonest death first; skin needs nothing


def test_settle_and_labels() -> None:
    st = DepthState()
    assert label_of(st, False) == "unhurt"
    st.wounds.append(DepthWound(0, 1, 1, "blunt", "a bruise", 0, False, False, False, -1.0, False, 0, 0.0, False)
                     .as_tuple())
    settle(st, 5)
    assert label_of(st, False) == "unhurt"  # a skin wound passes
    st.wounds.append(DepthWound(0, 1, 2, "cutting", "cut", -1, False, False, False, -1.0, False, 10, 0.0, False)
                     .as_tuple())
    settle(st, 5)
    assert (st.penalty, label_of(st, False)) == (-1, "wounded")
    for _ in range(4):
        st.wounds.append(st.wounds[-1])
    settle(st, 5)
    assert st.down and label_of(st, False) == "down"  # collapsed at -5
    settle(st, 0)
    assert not st.down  # the collapse limit off
    assert label_of(st, True) == "dead"


# ------------------------------------------------------------------------------------------ the attack roll


def test_trail_guide_and_toll_collector_defense(world: Sandbox) -> None:
    guide = world.spawn("human", name="Trail Guide", armor=["leather"], attributes={"dexterity": 14})
    collector = world.spawn("human", name="Toll Collector", attributes={"dexterity": 14})
    knight = world.spawn("human", name="Knight", armor=["gambeson", "mail_hauberk", "helm"])
    dragon = world.spawn("fire_dragon", name="Dragon")
    assert state(world, guide).defense == 14
    assert state(world, collector).defense == 12
    assert state(world, knight).defense == 15
    assert state(world, dragon).defense == 17 and state(world, dragon).strength_mod == 8


def test_toll_collector_punched_for_16_takes_a_flesh_wound(world: Sandbox) -> None:
    brawler = world.spawn("human", name="Brawler", team="A", attributes={"strength": 14})
    collector = world.spawn("human", name="Toll Collector", team="B", attributes={"dexterity": 14})
    start = len(world.events)
    record = strike(world, brawler, collector, "unarmed.punch", 14)
    assert isinstance(record, DepthAttackRecord)
    events = new_events(world, start)
    rolled = next(e for e in events if isinstance(e, D20AttackRolled))
    assert (rolled.natural, rolled.total, rolled.defense, rolled.margin, rolled.hit) == (14, 16, 12, 4, True)
    dealt = next(e for e in events if isinstance(e, DamageDealt))
    assert (dealt.rolled, dealt.dealt) == (4, 4) and dealt.detail.startswith("flesh blunt wound")
    assert state(world, collector).penalty == -1
    r = world.readout(collector)
    assert (r.label, r.band, r.health, r.can_act) == ("wounded", "flesh", 4, True)


def test_margin_zero_misses_and_one_hits(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A")
    b = world.spawn("human", name="B", team="B", attributes={"dexterity": 14})
    assert not strike(world, a, b, "unarmed.punch", 12).hit  # 12 vs 12
    assert not state(world, b).wounds
    record = strike(world, a, b, "unarmed.punch", 13)
    assert record.hit and record.tier == 1 and record.injury == "a bruise"  # margin 1: skin
    assert world.readout(b).label == "unhurt" and world.readout(b).band == "skin"


def test_a_natural_20_short_of_defense_misses(world: Sandbox) -> None:
    """decisions.md: "Margin = attack total - Defense; margin <= 0 misses ... Natural 20: one tier deeper ...
    neither natural hits or misses by itself" (the issue's eagle: a called shot rolled 20, 14 against 16)."""
    a = world.spawn("human", name="A", team="A", attributes={"strength": 2})  # -4
    b = world.spawn("human", name="B", team="B", armor=["gambeson", "full_harness", "helm"])  # Defense 17
    record = strike(world, a, b, "unarmed.punch", 20)
    assert record.natural == 20 and record.margin == 20 - 4 - 17 and not record.hit
    assert not state(world, b).wounds and not record.struck
    assert any(isinstance(e, Missed) and e.reason == "short of Defense" for e in record.events())
    eagle = world.spawn("eagle", name="Eagle", team="B")
    archer = world.spawn("human", name="Archer", team="A", weapons=["longbow"], attributes={"dexterity": 10})
    shot = strike(world, archer, eagle, "longbow.direct", 20, 20, aim="Head")  # 20 - 5 = 15 against Defense 16
    assert (shot.total, shot.defense, shot.hit) == (15, 16, False)


def test_a_natural_20_that_hits_goes_one_tier_deeper_and_worst(world: Sandbox) -> None:
    """Document 002: "Natural 20 — the wound bumps one tier deeper, and the GM picks the worst result at that
    depth"."""
    a = world.spawn("human", name="A", team="A", attributes={"strength": 2})  # -4
    b = world.spawn("human", name="B", team="B", armor=["gambeson", "helm"])  # Defense 12
    record = strike(world, a, b, "unarmed.punch", 20)  # 16 vs 12: margin 4, flesh -> bone, worst
    assert record.hit and (record.raw, record.tier, record.worst) == (4, 3, True)
    assert record.injury == "a shattered bone" and state(world, b).penalty == -1 and state(world, b).broken


def test_a_natural_1_is_a_mishap_and_hits_or_misses_by_its_margin(world: Sandbox) -> None:
    """decisions.md: "Natural 1: a mishap (one of the document's three, by a die in TOML); neither natural hits or
    misses by itself"; document 002: "a muscle pulls (−1 on your next roll)"."""
    a = world.spawn("human", name="A", team="A", attributes={"strength": 30})  # +10
    b = world.spawn("human", name="B", team="B")
    first = strike(world, a, b, "unarmed.punch", 1, 2)  # mishap die 2: a muscle pulls
    assert first.hit and first.margin == 1 and first.tier == 1  # 11 vs 10: a hit, a skin wound
    assert first.mishap is not None and first.mishap.name == "a muscle pulls"
    assert state(world, a).mishap == -1
    mishap = next(e for e in first.events() if isinstance(e, ModelStateChanged) and e.entity == a)
    assert (mishap.what, mishap.after) == ("mishap (natural 1)", "a muscle pulls: -1 on its next roll")
    second = strike(world, a, b, "unarmed.punch", 5)
    assert second.total == 5 + 10 - 1 and second.pending == -1  # the mishap's -1, once
    assert state(world, a).mishap == 0
    assert strike(world, a, b, "unarmed.punch", 5).total == 15
    c = world.spawn("human", name="C", team="A")  # +0 against Defense 10: a natural 1 misses by its margin
    missed = strike(world, c, b, "unarmed.punch", 1, 2)
    assert not missed.hit and missed.mishap is not None and state(world, c).mishap == -1


def test_the_mishap_die_picks_one_of_the_documents_three(tables: DepthTables) -> None:
    """Document 002: "Natural 1 — a mishap: the sword rings off stone, a muscle pulls (−1 on your next roll), or you
    leave your guard open."; decisions.md: "one of the document's three, by a die in TOML"."""
    assert tables.mishap_die == 3
    picked = [tables.mishap(face) for face in (1, 2, 3)]
    assert [(m.name, m.effect) for m in picked] == [("the weapon rings off stone", "drop"),
                                                   ("a muscle pulls", "next_roll"),
                                                   ("the guard is left open", "open_guard")]
    assert picked[1].penalty == -1 and picked[2].bonus > 0
    with pytest.raises(KeyError):
        tables.mishap(4)


def test_a_sword_ringing_off_stone_falls_and_costs_a_turn_to_take_up(world: Sandbox) -> None:
    """Document 002: "the sword rings off stone" (the shipped table: it falls from the hand)."""
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"], position=(0, 0))
    b = world.spawn("human", name="B", team="B", position=(1, 0))
    start = len(world.log)
    record = strike(world, a, b, "broadsword.cut", 1, 1)
    assert record.mishap is not None and record.mishap_effect == "drop"
    equip = world.creatures()[a].equipment
    assert not equip.holding and equip.dropped == ["broadsword"]
    events = world.events[start:]
    dropped = next(e for e in events if isinstance(e, ItemDropped))
    assert (dropped.entity, dropped.item, dropped.flung) == (a, "broadsword", False)
    mishap = next(e for e in events if isinstance(e, ModelStateChanged) and e.what == "mishap (natural 1)")
    assert mishap.after == "the weapon rings off stone: the broadsword falls from its hand"
    world.ctx.streams["attack"] = random.Random(1)  # type: ignore[index]
    world.step()  # its next turn: it takes the sword up again instead of attacking
    assert world.creatures()[a].combatant.action == "pick up"
    assert "broadsword" in world.creatures()[a].equipment.holding.values()


def test_a_fist_ringing_off_stone_costs_the_next_roll(world: Sandbox) -> None:
    """A natural weapon neither falls nor is notched: the mishap's natural_penalty goes on the next roll."""
    a = world.spawn("human", name="A", team="A")
    b = world.spawn("human", name="B", team="B")
    record = strike(world, a, b, "unarmed.punch", 1, 1)
    assert (record.mishap_effect, record.mishap_amount) == ("next_roll", -1)
    assert state(world, a).mishap == -1 and not world.creatures()[a].equipment.dropped


def test_a_guard_left_open_gives_the_next_attack_against_the_fumbler_a_bonus(world: Sandbox) -> None:
    """Document 002: "or you leave your guard open": the next attack against the fumbler gets the bonus, once."""
    a = world.spawn("human", name="A", team="A")
    b = world.spawn("human", name="B", team="B")
    c = world.spawn("human", name="C", team="B")
    strike(world, a, b, "unarmed.punch", 1, 3)
    assert state(world, a).open_guard == 2
    first = strike(world, b, a, "unarmed.punch", 9)
    assert (first.total, first.guard) == (11, 2)  # 9 + 2 against Defense 10: a hit it would not have had
    assert first.hit and state(world, a).open_guard == 0
    closed = next(e for e in first.events() if isinstance(e, ModelStateChanged) and e.what == "guard")
    assert (closed.entity, closed.before, closed.after) == (a, "open (+2 to this attack)", "closed")
    assert "the target's open guard +2" in first.explain(world.names)[1]
    assert strike(world, c, a, "unarmed.punch", 8).total == 8  # spent
    strike(world, a, b, "unarmed.punch", 1, 3)
    strike(world, a, b, "unarmed.punch", 10)  # its own next attack closes its guard
    assert state(world, a).open_guard == 0 and strike(world, c, a, "unarmed.punch", 8).total == 8


def test_a_notched_weapon_costs_every_later_attack_with_it(tmp_path: Path) -> None:
    """The ring-off-stone mishap as a notch (``effect = "notch"`` in the table): a penalty on each later attack
    with that weapon, not with another."""
    from sandbox.config import load_catalog

    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    path = root / "models" / "depth.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('effect = "drop"            #', 'effect = "notch"\npenalty = -1\n#')
    path.write_text(text, encoding="utf-8")
    with Sandbox(seed=1, model="depth", catalog=load_catalog(root)) as world:
        a = world.spawn("human", name="A", team="A", weapons=["broadsword", "dagger"])
        b = world.spawn("human", name="B", team="B")
        record = strike(world, a, b, "broadsword.cut", 1, 1)
        assert (record.mishap_effect, record.mishap_amount) == ("notch", -1)
        assert state(world, a).notches == {"broadsword": -1}
        assert "broadsword" in world.creatures()[a].equipment.holding.values()  # kept in hand
        later = strike(world, a, b, "broadsword.cut", 10)
        assert (later.total, later.notched) == (9, -1)
        assert "its notched weapon -1" in later.explain(world.names)[1]
        strike(world, a, b, "broadsword.cut", 1, 1)
        assert strike(world, a, b, "broadsword.cut", 10).total == 8  # notches add up
        assert "notched broadsword (-2)" in world.readout(a).conditions


def test_a_pulled_muscle_spoils_a_treatment_roll_too(world: Sandbox) -> None:
    """"−1 on your next roll": when the fumbler's next roll is a treatment it gives, that roll takes the -1."""
    healer = world.spawn("human", name="Healer", team="A", skills={"physician": 50})
    patient = world.spawn("human", name="Patient", team="A")
    foe = world.spawn("human", name="Foe", team="B")
    strike(world, healer, foe, "unarmed.punch", 1, 2)
    assert state(world, healer).mishap == -1
    world.inflict(patient, location="Thorax", level="flesh", aspect="cutting")
    world.ctx.streams["healing"] = d20(10)  # type: ignore[index]
    events = world.advance(minutes=1.5)
    treatment = next(e for e in events if isinstance(e, ModelStateChanged) and e.what.startswith("treatment"))
    assert "d20 10 +4 vs DC 10" in treatment.after  # Physician 50 // 10 = +5, the pulled muscle -1
    assert state(world, healer).mishap == 0


def test_mishaps_in_play_follow_the_die(world: Sandbox) -> None:
    """Fixed-seed statistics: over many natural 1s each mishap comes up a third of the time (a d3)."""
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", team="B")
    me, foe = world.creatures()[a], world.creatures()[b]
    mode = world.ctx.modes["broadsword.cut"]
    hand = next(iter(me.equipment.holding))
    counts: Counter[str] = Counter()
    with world.active():
        while sum(counts.values()) < 3000:
            record = world.damage_model.attack(me, foe, mode, (hand,), world.ctx)
            assert record is not None
            depth_state_of_b = state(world, b)
            depth_state_of_b.wounds.clear()
            settle(depth_state_of_b, 5)
            foe.condition.out = foe.condition.dead = False
            if record.mishap is not None:
                counts[record.mishap.name] += 1
            me.equipment.holding[hand] = "broadsword"
            me.equipment.dropped.clear()
    n = sum(counts.values())
    for name in ("the weapon rings off stone", "a muscle pulls", "the guard is left open"):
        # alpha about 1e-7 on each count: |k - n/3| < 5.3 sd
        assert abs(counts[name] - n / 3) < 5.3 * (n * (1 / 3) * (2 / 3)) ** 0.5, (name, counts)


def test_a_mishap_table_that_does_not_cover_its_die_is_refused(tmp_path: Path) -> None:
    from sandbox.config import load_catalog

    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    path = root / "models" / "depth.toml"
    text = path.read_text(encoding="utf-8").replace("die = 3\n[[mishaps.table]]", "die = 4\n[[mishaps.table]]")
    text = text.replace("bonus = 2                  #", "bonus = 0                  #")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        build_model("depth", load_catalog(root), root)
    found = {(p.key, p.expected) for p in info.value.problems}
    assert ("mishaps.table", "faces covering 1..4 (the die) once each") in found
    assert ("mishaps.table#3.bonus", "a bonus for an open_guard mishap") in found


def test_wound_penalties_apply_to_the_creatures_own_rolls(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A")
    b = world.spawn("human", name="B", team="B")
    world.inflict(a, location="Thorax", level="flesh", aspect="cutting")
    world.inflict(a, location="Abdomen", level="flesh", aspect="piercing")
    assert strike(world, a, b, "unarmed.punch", 15).total == 13


def test_melee_uses_strength_and_missiles_dexterity(world: Sandbox) -> None:
    archer = world.spawn("human", name="Archer", team="A", weapons=["longbow"],
                         attributes={"strength": 16, "dexterity": 6})
    b = world.spawn("human", name="B", team="B")
    assert strike(world, archer, b, "longbow.direct", 10).total == 10 - 2
    brawler = world.spawn("human", name="Brawler", team="A", attributes={"strength": 16, "dexterity": 6})
    assert strike(world, brawler, b, "unarmed.punch", 10).total == 10 + 3


def test_called_shot_costs_5_and_lands_on_the_part(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A", attributes={"strength": 30})  # +10: always hits
    b = world.spawn("human", name="B", team="B")
    body = world.creatures()[b].anatomy.body
    head = body.part_index("Head")
    parts: Counter[str] = Counter()
    for _ in range(60):
        record = strike(world, a, b, "unarmed.punch", 10, aim="Head")
        assert record.total == 15 and record.aim == "Head"
        parts[record.part] += 1
    assert set(parts) == {"Head"}
    assert len({body.locations[DepthWound.of(w).location].name for w in state(world, b).wounds}) > 3  # within the part
    assert all(DepthWound.of(w).part == head for w in state(world, b).wounds)


def test_unaimed_hits_follow_the_anatomy_draw(catalog: Any) -> None:
    """Fixed-seed statistics: an unaimed hit lands where the anatomy model's unaimed blow would."""

    body = catalog.bodies["human"]
    table = build_hit_table(body)
    probs, miss = location_probabilities(body, table)
    assert miss == 0
    rng = random.Random(3)
    n = 40000
    counts = Counter(strike_location(body, table, None, 0, rng) for _ in range(n))
    for li, p in enumerate(probs):
        assert abs(counts[li] / n - p) < 0.01, body.locations[li].name


def test_called_part_location_follows_the_location_weights(catalog: Any) -> None:

    body = catalog.bodies["human"]
    table = build_hit_table(body)
    arm = body.part_index("Right Arm")
    locs = body.parts[arm].locations
    total = sum(body.locations[li].weight for li in locs)
    rng = random.Random(4)
    n = 20000
    counts = Counter(strike_location(body, table, arm, 2, rng) for _ in range(n))
    assert set(counts) == set(locs)
    for li in locs:
        assert abs(counts[li] / n - body.locations[li].weight / total) < 0.015


def test_an_incorporeal_target_has_nothing_to_strike(catalog: Any, world: Sandbox) -> None:
    spirit = catalog.bodies["spirit"]
    assert strike_location(spirit, build_hit_table(spirit), None, 0, d20()) == MISS
    a = world.spawn("human", name="A", team="A")
    s = world.spawn("spirit", name="Spirit", team="B")
    record = strike(world, a, s, "unarmed.punch", 19)
    assert record.hit and any(isinstance(e, Missed) and e.reason == "nothing to strike" for e in record.events())
    assert not state(world, s).wounds
    with pytest.raises(SandboxError, match="nothing to strike"):
        world.inflict(s, damage=5)


def test_a_broken_part_cannot_strike_and_nothing_is_recorded(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A")
    b = world.spawn("human", name="B", team="B")
    world.inflict(a, location="Right Forearm", level="bone", aspect="blunt")
    body = world.creatures()[a].anatomy.body
    arm = body.part_index("Right Arm")
    assert arm in state(world, a).broken
    before = len(world.ctx.log)
    world.ctx.streams["attack"] = d20()  # type: ignore[index]  # no die queued: nothing may be rolled
    with world.active():
        refused = world.damage_model.attack(world.creatures()[a], world.creatures()[b],
                                            world.ctx.modes["unarmed.punch"], (arm,), world.ctx)
    assert refused is None
    assert len(world.ctx.log) == before
    # Through the seam the broken arm is out of use, so the shared loop punches with the other hand.
    me = world.creatures()[a]
    parts = ready_parts(me.anatomy, model(world).part_states(me), me.condition, me.equipment,
                        world.ctx.modes["unarmed.punch"])
    assert parts == (body.part_index("Left Arm"),)
    assert strike(world, a, b, "unarmed.punch", 15).hit
    assert strike(world, a, b, "unarmed.kick", 15).hit  # the legs still work
    assert "broken: Right Arm" in world.readout(a).conditions


# ---------------------------------------------------------------------------------------- injuries and death


def test_organ_wound_to_the_core_downs_and_kills_after_its_rounds(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    world.inflict(victim, location="Thorax", level="organ", aspect="piercing")
    r = world.readout(victim)
    assert (r.label, r.can_act, r.shock, r.health, r.band) == ("dying", False, "dying", 0, "organ")
    assert world.get(victim, Condition).out
    assert "dying (3 rounds)" in r.conditions
    for tick in (1, 2):
        world.step()
        assert world.readout(victim).alive, tick
    died = [e for e in world.step() if isinstance(e, Died)]
    assert len(died) == 1 and died[0].tick == 3 and "punctured lung" in died[0].cause
    r = world.readout(victim)
    assert (r.label, r.alive, r.health, r.shock) == ("dead", False, 0, "dead")


def test_organ_wound_to_a_limb_breaks_bleeds_and_kills_later(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    world.inflict(victim, location="Left Thigh", level="organ", aspect="cutting")
    st = state(world, victim)
    r = world.readout(victim)
    assert (r.label, r.can_act, st.penalty) == ("wounded", True, -2)
    assert "broken: Left Leg" in r.conditions and "bleeding out (20 rounds)" in r.conditions
    for _ in range(19):
        world.step()
    assert world.readout(victim).alive
    world.step()
    assert not world.readout(victim).alive and world.tick == 20


def test_the_worst_organ_wound_kills_at_once(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    events = world.inflict(victim, location="Skull", level="organ", aspect="blunt", critical=True)
    assert any(isinstance(e, Died) for e in events) and not world.readout(victim).alive


def test_five_bleeding_wounds_collapse_a_creature(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    for i in range(4):
        world.inflict(victim, location="Abdomen", level="flesh", aspect="cutting")
        assert world.readout(victim).health == 4 - i
    assert world.readout(victim).can_act
    events = world.inflict(victim, location="Abdomen", level="flesh", aspect="cutting")
    r = world.readout(victim)
    assert (r.label, r.can_act, r.health, r.shock) == ("down", False, 0, "incapacitated")
    assert "collapsed" in r.conditions
    assert any(isinstance(e, ModelStateChanged) and e.after == "down" for e in events)


def test_a_bone_wound_breaks_the_part_until_set(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    events = world.inflict(victim, location="Left Forearm", level="bone", aspect="blunt")
    assert any(isinstance(e, ModelStateChanged) and e.what == "part Left Arm" and e.after == "broken"
               for e in events)
    r = world.readout(victim)
    assert (r.label, r.health, r.band, r.can_act) == ("wounded", 5, "bone", True)  # a fracture does not bleed


def test_hide_makes_shallow_cuts_worthless(world: Sandbox) -> None:
    dragon = world.spawn("fire_dragon", name="Dragon")
    events = world.inflict(dragon, location="Thorax", damage=3, aspect="cutting")
    dealt = next(e for e in events if isinstance(e, DamageDealt))
    assert (dealt.rolled, dealt.dealt) == (3, -1) and "no wound" in dealt.detail
    assert world.readout(dragon).band == "none"
    world.inflict(dragon, location="Thorax", damage=3, aspect="blunt")  # 3 - 2: a bruise
    assert world.readout(dragon).band == "skin"
    world.inflict(dragon, location="Thorax", damage=14, aspect="fire")  # a fire dragon shrugs off fire
    assert world.readout(dragon).band == "skin"
    world.inflict(dragon, location="Thorax", damage=15, aspect="piercing")  # a deep puncture: 15 - 3 = organ
    assert world.readout(dragon).label == "dying"


def test_inflict_applies_damage_as_a_landed_blow(world: Sandbox) -> None:
    victim = world.spawn("human", name="Victim")
    world.inflict(victim, damage=4)  # anywhere on the body, blunt: flesh
    r = world.readout(victim)
    assert (r.label, r.band) == ("wounded", "flesh")
    events = world.inflict(victim, damage=0)
    assert [e.dealt for e in events if isinstance(e, DamageDealt)] == [0]
    assert len(state(world, victim).wounds) == 1 and world.readout(victim).band == "flesh"
    for bad in ({"damage": -1}, {"damage": "3"}, {}, {"level": "marrow"},
                {"damage": 3, "location": "Thorax", "aspect": "acid"},
                {"damage": 3, "location": "Tail"}, {"damage": 3, "speed": 1}):
        with pytest.raises(SandboxError):
            world.inflict(victim, **bad)


# --------------------------------------------------------------------------------------------------- care


def test_a_healer_sets_bones_and_stops_bleeding(world: Sandbox) -> None:
    patient = world.spawn("human", name="Patient", team="A")
    world.spawn("human", name="Healer", team="A", skills={"physician": 50})  # +5
    world.inflict(patient, location="Right Forearm", level="bone", aspect="blunt")
    world.inflict(patient, location="Thorax", level="flesh", aspect="cutting")
    world.care = CarePolicy(first_aid_delay=30.0)
    world.ctx.streams["healing"] = d20(6, 7, 5)  # type: ignore[index]  # 11 < 12; 12: set; 10 >= 10: stopped
    events = world.advance(minutes=10)
    treatments = [e for e in events if isinstance(e, ModelStateChanged) and e.what.startswith("treatment")]
    assert [e.after for e in treatments] == ["untreated (d20 6 +5 vs DC 12)", "treated (d20 7 +5 vs DC 12)",
                                             "treated (d20 5 +5 vs DC 10)"]
    assert [e.time for e in treatments] == [30.0, 90.0, 150.0]
    r = world.readout(patient)
    assert (r.label, r.health, r.conditions) == ("unhurt", 5, ())
    assert world.ctx.clock.seconds == 600.0


def test_the_dying_are_saved_by_a_timely_treatment(world: Sandbox) -> None:
    patient = world.spawn("human", name="Patient", team="A")
    world.spawn("human", name="Healer", team="A")  # physician 30: +3
    world.inflict(patient, location="Abdomen", level="organ", aspect="blunt")  # dies after 6 rounds: 60 s
    world.care = CarePolicy(first_aid_delay=0.0)
    world.ctx.streams["healing"] = d20(11, 12)  # 14 < 15, then 15
    world.advance(hours=1)
    r = world.readout(patient)
    assert r.alive and r.can_act and r.label == "unhurt"


def test_the_untended_dying_die_on_time(world: Sandbox) -> None:
    patient = world.spawn("human", name="Patient", team="A")
    world.inflict(patient, location="Abdomen", level="organ", aspect="blunt")
    events = world.advance(hours=1)  # nobody can act to tend it
    died = [e for e in events if isinstance(e, Died)]
    assert len(died) == 1 and died[0].time == 60.0
    assert not world.readout(patient).alive


def test_self_care_at_the_self_care_modifier(world: Sandbox) -> None:
    patient = world.spawn("human", name="Patient", team="A")
    world.inflict(patient, location="Thorax", level="flesh", aspect="cutting")
    world.care = CarePolicy(first_aid_delay=0.0, self_care=True)
    world.ctx.streams["healing"] = d20(11, 12)  # physician 30: +3, its wound -1, self-care -4: 9 < 10, then 10
    events = world.advance(minutes=5)
    treatments = [e.after for e in events if isinstance(e, ModelStateChanged) and e.what.startswith("treatment")]
    assert treatments == ["untreated (d20 11 -2 vs DC 10)", "treated (d20 12 -2 vs DC 10)"]
    alone = world.spawn("human", name="Alone", team="B")
    world.inflict(alone, location="Thorax", level="flesh", aspect="cutting")
    world.care = CarePolicy(first_aid_delay=0.0, self_care=False)
    assert not [e for e in world.advance(minutes=5) if isinstance(e, ModelStateChanged)]


def test_a_lost_limb_stays_lost_after_treatment(world: Sandbox) -> None:
    patient = world.spawn("human", name="Patient", team="A")
    world.spawn("human", name="Healer", team="A", skills={"physician": 100})
    world.inflict(patient, location="Left Forearm", level="organ", aspect="cutting", critical=True)
    r = world.readout(patient)
    assert "lost: Left Arm" in r.conditions and r.alive
    world.care = CarePolicy(first_aid_delay=0.0)
    world.advance(hours=1)
    r = world.readout(patient)
    assert r.alive and r.label == "wounded" and r.conditions == ("lost: Left Arm",)


# ---------------------------------------------------------------------------------------- tables and files


def test_the_model_is_available_with_its_processor(world: Sandbox) -> None:
    assert "depth" in available_models()
    phases = [(phase, type(p)) for phase, p in world.damage_model.processors(world.ctx)]
    assert phases == [(Phase.EFFECTS, DyingProcessor)]


def _broken_copy(tmp_path: Path, edit: Any) -> Path:
    root = tmp_path / "configs"
    shutil.copytree(config_root(), root)
    path = root / "models" / "depth.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def test_every_problem_of_a_broken_file_is_listed(tmp_path: Path) -> None:
    def edit(text: str) -> str:
        text = text.replace('[weapons."spear.shaft"]\ntype = "blunt"\ndepth_bonus = 0\n', "")
        text = text.replace("[creatures.spirit]", "[creatures.ghost]")
        text = text.replace("bone = 8    # 8-11", "bone = 3")
        text = text.replace('name = "a puncture"\npenalty = -1\ntreat_dc = 10', 'name = "a puncture"\npenalty = -1')
        return text + '\n[armor.mail_hauberk_2]\nrating = 3\n'

    with pytest.raises(ConfigError) as info:
        load(default_catalog(), _broken_copy(tmp_path, edit))
    text = str(info.value)
    assert "spear.shaft" not in text and "spirit" not in text  # an entry the file lacks is derived, not missing
    assert "configs/models/depth.toml: creatures.ghost (\"ghost\"): expected a creature the content defines" in text
    assert "armor.mail_hauberk_2 (\"mail_hauberk_2\"): expected an armour piece the content defines" in text
    assert "did you mean 'mail_hauberk'?" in text
    assert "depth: expected skin < flesh < bone < organ" in text
    assert "injuries.flesh.piercing.treat_dc" in text
    assert len(info.value.problems) == 4


def test_schema_problems_are_listed_with_their_keys(tmp_path: Path) -> None:
    def edit(text: str) -> str:
        text = text.replace('type = "piercing"\ndepth_bonus = 6', 'type = "acid"\ndepth_bonus = "6"')
        return text.replace("[armor.helm]\nrating = 1", "[armor.helm]\nrating = 1\nweight = 2")

    with pytest.raises(ConfigError) as info:
        load(default_catalog(), _broken_copy(tmp_path, edit))
    keys = {p.key for p in info.value.problems}
    assert keys == {'weapons."dragon.bite".type', 'weapons."dragon.bite".depth_bonus', "armor.helm.weight"}


def test_schema_is_strict_and_current() -> None:
    assert SCHEMA.model_config.get("extra") == "forbid" and SCHEMA.model_config.get("strict")
    path = config_root() / "schemas" / "depth_model.schema.json"
    assert '"title": "DepthFile"' in path.read_text(encoding="utf-8")
    first = (config_root() / "models" / "depth.toml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "#:schema ../schemas/depth_model.schema.json"


def test_sandbox_validate_passes() -> None:
    from typer.testing import CliRunner

    from sandbox.cli import app

    result = CliRunner().invoke(app, ["validate"])
    assert result.exit_code == 0 and result.output.startswith("OK:")


# ------------------------------------------------------------------------------------------- running worlds


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_runs_to_an_outcome(scenario: str) -> None:
    outcomes = []
    for seed in range(3):
        with Sandbox.from_scenario(scenario, seed=seed, model="depth") as w:
            outcome = w.run()
            outcomes.append(outcome.reason)
            assert any(isinstance(e, DamageDealt) for e in w.events)
            labels = {w.readout(e).label for e in w.names}
            assert labels <= {"unhurt", "wounded", "down", "dying", "dead"}
    assert outcomes.count("one team left") >= 2, outcomes


def test_a_battle_shows_every_kind_of_result() -> None:
    with Sandbox.from_scenario("battle", seed=2, model="depth") as w:
        w.run()
        labels = Counter(w.readout(e).label for e in w.names)
        details = [e.detail for e in w.events if isinstance(e, DamageDealt)]
    assert {"dead", "down"} <= set(labels)
    for tier in ("skin", "flesh", "bone", "organ"):
        assert any(d.startswith(tier) or f"worst: {tier}" in d for d in details), tier
    assert any("natural 20" in d for d in details)


def dicts(world: Sandbox) -> list[dict[str, Any]]:
    return [e.to_dict() for e in world.events]


def test_same_seed_same_events() -> None:
    with Sandbox.from_scenario("skirmish", seed=9, model="depth") as a, \
            Sandbox.from_scenario("skirmish", seed=9, model="depth") as b:
        a.run()
        b.run()
        assert dicts(a) == dicts(b) and len(dicts(a)) > 20
        with Sandbox.from_scenario("skirmish", seed=10, model="depth") as c:
            c.run()
            assert dicts(c) != dicts(a)


@pytest.mark.parametrize(("scenario", "seed", "k"), [("duel", 1, 4), ("skirmish", 3, 6), ("wolf_pack", 2, 2),
                                                     ("bestiary", 0, 5)])
def test_save_load_continue_identically(tmp_path: Path, scenario: str, seed: int, k: int) -> None:
    a = Sandbox.from_scenario(scenario, seed=seed, model="depth")
    out_a = a.run(max_ticks=60)
    assert out_a.ticks > k
    b = Sandbox.from_scenario(scenario, seed=seed, model="depth")
    for _ in range(k):
        b.step()
    path = tmp_path / "save.json"
    b.save(path)
    c = Sandbox.load(path)
    try:
        assert c.model == "depth" and dicts(c) == dicts(b)
        for e in b.names:
            assert c.readout(e) == b.readout(e)
            assert state(c, e) == state(b, e)
        while c.tick < out_a.ticks:
            c.step()
        assert dicts(c) == dicts(a)
        for e in a.names:
            assert c.readout(e) == a.readout(e)
        c.advance(hours=1)  # and out of combat alike
        a.advance(hours=1)
        assert dicts(c) == dicts(a)
        for e in a.names:
            assert c.readout(e) == a.readout(e)
    finally:
        for w in (a, b, c):
            w.close()


def test_the_model_leaves_the_anatomy_alone() -> None:
    """The anatomy model's wounds and shock are its own: a depth creature has none to touch."""
    with Sandbox.from_scenario("skirmish", seed=1, model="depth") as w:
        w.run()
        assert w.damage_model.state_types() == (DepthState,)
        for e in w.names:
            for anatomy_only in (Injury, Shock):
                with pytest.raises(SandboxError, match="under the depth model"):
                    w.get(e, anatomy_only)
            assert isinstance(w.creatures()[e].state, DepthState)


def test_a_broken_sword_arm_makes_the_ai_strike_with_what_still_works(world: Sandbox) -> None:
    """Regression: the AI used to keep choosing the sword in the broken arm, which depth refuses (an idle creature)."""
    a = world.spawn("human", name="A", team="A", position=(0.0, 0.0), weapons=["broadsword"])
    world.spawn("human", name="B", team="B", position=(1.0, 0.0), weapons=["broadsword"])
    held_by = next(iter(world.get(a, Equipment).holding))
    body = world.creatures()[a].anatomy.body
    arm = body.parts[held_by].name
    forearm = next(loc.name for loc in body.locations if body.parts[loc.part].name == arm and "Forearm" in loc.name)
    world.inflict(a, location=forearm, level="bone", aspect="blunt")
    assert held_by in state(world, a).broken
    declared = []
    for _ in range(3):
        declared += [e for e in world.step() if isinstance(e, AttackDeclared) and e.attacker == a]
    assert declared, "the creature with a broken sword arm stood idle"
    assert all(not e.mode.startswith("broadsword.") for e in declared)
    assert world.get(a, Combatant).mode.startswith("unarmed.")


# ------------------------------------------------------------------------------ the model interface's seams


def test_broken_and_lost_parts_are_unusable_in_part_states(world: Sandbox) -> None:
    """``part_states`` replaces ``disabled_parts``: broken (until set) and lost parts are UNUSABLE."""
    victim = world.spawn("human", name="Victim", team="A")
    world.spawn("human", name="Healer", team="A", skills={"physician": 200})  # +20: every treatment succeeds
    body = world.creatures()[victim].anatomy.body
    assert model(world).part_states(world.creatures()[victim]) == tuple(SOUND for _ in body.parts)
    world.inflict(victim, location="Right Forearm", level="bone", aspect="blunt")
    world.inflict(victim, location="Left Forearm", level="organ", aspect="cutting", critical=True)  # lost
    right, left = body.part_index("Right Arm"), body.part_index("Left Arm")
    states = model(world).part_states(world.creatures()[victim])
    assert states[right] == UNUSABLE and states[left] == UNUSABLE
    assert all(s == SOUND for i, s in enumerate(states) if i not in (right, left))
    parts = {p.name: p for p in world.readout(victim).parts}
    assert parts["Right Arm"].unusable and not parts["Right Arm"].severed
    assert parts["Left Arm"].unusable and parts["Left Arm"].severed  # lost for good
    assert not parts["Head"].unusable and not parts["Head"].severed
    world.care = CarePolicy(first_aid_delay=0.0)
    world.advance(hours=1)  # the fracture is set; the lost arm stays lost
    states = model(world).part_states(world.creatures()[victim])
    assert states[right] == SOUND and states[left] == UNUSABLE


def test_speed_factor_is_one_and_a_broken_leg_slows_the_walk_through_part_states(world: Sandbox) -> None:
    from sandbox.systems.movement import speed

    a = world.spawn("human", name="A")
    with world.active():
        assert model(world).speed_factor(world.creatures()[a], world.ctx) == 1.0
        full = speed(world.creatures()[a], world.ctx)
    world.inflict(a, location="Left Thigh", level="bone", aspect="blunt")
    with world.active():
        assert model(world).speed_factor(world.creatures()[a], world.ctx) == 1.0
        assert speed(world.creatures()[a], world.ctx) == pytest.approx(full * world.ctx.combat.min_speed_factor)
    world.inflict(a, location="Right Thigh", level="bone", aspect="blunt")
    with world.active():
        assert speed(world.creatures()[a], world.ctx) == 0.0  # no usable leg: it cannot walk


def test_health_is_the_readouts_number(world: Sandbox) -> None:
    v = world.spawn("human", name="V")
    for level in ("flesh", "flesh", "bone", "organ"):
        world.inflict(v, location="Abdomen", level=level, aspect="cutting")
        with world.active():
            assert model(world).health(world.creatures()[v], world.ctx) == world.readout(v).health


def test_the_attack_record_summarises_and_explains_one_attack_in_words(world: Sandbox) -> None:
    brawler = world.spawn("human", name="Brawler", team="A", attributes={"strength": 14})
    collector = world.spawn("human", name="Toll Collector", team="B", attributes={"dexterity": 14})
    start = len(world.log)
    record = strike(world, brawler, collector, "unarmed.punch", 14)
    assert world.log[start] is record and record.headline and record.struck
    assert isinstance(world.log[start + 1], ModelStateChanged)  # the consequences follow the record
    names = world.names
    line = record.summary(names)
    assert line is not None
    assert line.startswith("Brawler -> Toll Collector: Punch: d20 14 +2 = 16 vs Defense 12, margin 4: flesh blunt "
                           "wound to the ")
    assert line.endswith(": a deep bruise and torn muscle")
    lines = record.explain(names)
    assert lines[0] == "Tick 0: Brawler attacks Toll Collector with Punch (blunt, depth bonus +0), unaimed"
    assert lines[1] == "Attack bonus: Strength +2 = +2"
    assert lines[2] == "Roll: d20 14 +2 = 16 against Defense 12: margin 4, a hit"
    assert lines[3].startswith("It lands on the ") and lines[3].endswith("; drawn from the anatomy)")
    assert lines[4] == "Depth margin: margin 4 + depth bonus 0 = 4, less 0 for the target's blunt reduction = 4"
    assert lines[5] == "A flesh blunt wound: a deep bruise and torn muscle"
    assert lines[6] == "Injury: -1 on its rolls until treated; treatment DC 10"
    assert len(lines) == 7
    for text in lines:  # words, not a dump of event fields
        assert "D20AttackRolled" not in text and "DamageDealt" not in text and "natural " not in text


def test_a_miss_has_no_summary_and_explains_why(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A", attributes={"strength": 16})  # +3
    b = world.spawn("human", name="B", team="B", attributes={"dexterity": 14})  # Defense 12
    record = strike(world, a, b, "unarmed.punch", 1, 2)
    assert not record.struck and record.summary(world.names) is None
    assert record.explain(world.names)[1:] == [
        "Attack bonus: Strength +3 = +3",
        "Roll: d20 1 (natural 1) +3 = 4 against Defense 12: margin -8, a miss",
        "The natural 1 is a mishap: a muscle pulls; -1 on its next roll"]
    record = strike(world, a, b, "unarmed.punch", 2)  # the mishap's -1 shows in the next roll's bonus
    assert record.explain(world.names)[1] == "Attack bonus: Strength +3, an earlier mishap -1 = +2"
    strong = world.spawn("human", name="Strong", team="A", attributes={"strength": 30})  # +10
    lines = strike(world, strong, b, "unarmed.punch", 1, 3).explain(world.names)
    assert lines[2] == ("Roll: d20 1 (natural 1) +10 = 11 against Defense 12: margin -1, a miss")
    lines = strike(world, world.spawn("human", name="Stronger", team="A", attributes={"strength": 40}), b,
                   "unarmed.punch", 1, 3).explain(world.names)
    assert lines[2] == ("Roll: d20 1 (natural 1) +15 = 16 against Defense 12: margin 4, a hit (a natural 1 that "
                        "beats Defense still hits)")
    assert lines[-1] == ("The natural 1 is a mishap: the guard is left open; its guard is open: +2 to the next "
                         "attack against it")


def test_a_natural_20_and_a_called_shot_are_explained(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A", attributes={"strength": 2})  # -4
    b = world.spawn("human", name="B", team="B", armor=["gambeson", "full_harness", "helm"])  # Defense 17
    lines = strike(world, a, b, "unarmed.punch", 20).explain(world.names)
    assert lines[2] == ("Roll: d20 20 (natural 20) -4 = 16 against Defense 17: margin -1, a miss (a natural 20 "
                        "short of Defense still misses)")
    c = world.spawn("human", name="C", team="A", attributes={"strength": 30})  # +10
    world.inflict(c, location="Abdomen", level="flesh", aspect="cutting")
    lines = strike(world, c, b, "unarmed.punch", 20, aim="Head").explain(world.names)
    assert lines[0].endswith("a called shot at the Head")
    assert lines[1] == "Attack bonus: Strength +10, its untreated wounds -1, the called shot -5 = +4"
    assert "(Head; in the called part, the location by weight)" in lines[3]
    assert "The natural 20 takes it one tier deeper, to bone, and the worst result at that depth" in lines
    lines = strike(world, c, b, "unarmed.punch", 20, aim="Neck").explain(world.names)
    assert lines[0].endswith("a called shot at the Neck") and "It lands on the Neck (Head; the called location)" \
        in lines


def test_damage_applied_directly_is_a_record_too(world: Sandbox) -> None:
    v = world.spawn("human", name="V")
    world.inflict(v, location="Thorax", damage=4, aspect="cutting")
    record = next(e for e in world.log if isinstance(e, DepthAttackRecord))
    assert record.direct and record.attacker == -1 and [type(e) for e in record.events()] == [DamageDealt]
    assert record.summary(world.names) == ("(direct) -> V: depth margin 4 applied directly: flesh cutting wound to "
                                           "the Thorax (Torso): a laceration")
    assert record.explain(world.names) == [
        "Tick 0: a cutting blow of depth margin 4 is applied to V directly (no attack roll)",
        "Depth margin 4, less 0 for the target's cutting reduction = 4",
        "A flesh cutting wound: a laceration",
        "Injury: -1 on its rolls until treated; treatment DC 10"]


def test_strike_with_an_attacker_is_its_attack_as_the_loop_makes_it(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A", attributes={"strength": 14})
    b = world.spawn("human", name="B", team="B", attributes={"dexterity": 14})
    world.ctx.streams["attack"] = d20(14)  # type: ignore[index]
    events = world.strike(b, "unarmed.punch", attacker=a)
    assert isinstance(events[0], AttackDeclared) and (events[0].attacker, events[0].aim) == (a, "unaimed")
    rolled = next(e for e in events if isinstance(e, D20AttackRolled))
    assert (rolled.natural, rolled.total, rolled.defense, rolled.margin) == (14, 16, 12, 4)
    assert next(e for e in events if isinstance(e, DamageDealt)).detail.startswith("flesh blunt wound")
    world.ctx.streams["attack"] = d20(19)  # type: ignore[index]
    events = world.strike(b, "unarmed.punch", aim="Head", attacker=a)  # a called shot: -5, lands in the Head
    assert events[0].aim == "Head" and next(e for e in events if isinstance(e, D20AttackRolled)).total == 16
    assert "(Head):" in next(e for e in events if isinstance(e, DamageDealt)).detail
    world.ctx.streams["attack"] = d20(19)  # type: ignore[index]
    events = world.strike(b, "unarmed.punch", aim="Skull", attacker=a)  # a called location: exactly there
    assert "to the Skull (Head)" in next(e for e in events if isinstance(e, DamageDealt)).detail
    world.ctx.streams["attack"] = d20(3)  # type: ignore[index]
    events = world.strike(b, "unarmed.punch", attacker=a)
    assert any(isinstance(e, Missed) and e.reason == "short of Defense" for e in events)
    with pytest.raises(SandboxError, match="no part or location 'Tail'"):
        world.strike(b, "unarmed.punch", aim="Tail", attacker=a)


def test_strike_refuses_a_mode_only_broken_limbs_could_wield(world: Sandbox) -> None:
    a = world.spawn("human", name="A", team="A", weapons=["broadsword"])
    b = world.spawn("human", name="B", team="B")
    held_by = next(iter(world.get(a, Equipment).holding))
    body = world.creatures()[a].anatomy.body
    forearm = next(loc.name for loc in body.locations if loc.part == held_by and "Forearm" in loc.name)
    world.inflict(a, location=forearm, level="bone", aspect="blunt")
    start = len(world.log)
    with pytest.raises(SandboxError, match=r"cannot strike with broadsword\.cut now"):  # the rules refuse it first
        world.strike(b, "broadsword.cut", attacker=a)
    with world.active(), pytest.raises(ModelError, match="broken or lost"):  # and so does the model's own strike
        world.damage_model.strike(world.creatures()[b], world.ctx.modes["broadsword.cut"], "unaimed", world.ctx,
                                  world.creatures()[a])
    assert len(world.log) == start
    world.ctx.streams["attack"] = d20(15)  # type: ignore[index]
    assert any(isinstance(e, D20AttackRolled) for e in world.strike(b, "unarmed.kick", attacker=a))


def test_strike_without_an_attacker_lands_as_a_bare_hit_plus_the_depth_bonus(world: Sandbox) -> None:
    v = world.spawn("human", name="V")
    world.ctx.streams["attack"] = d20()  # type: ignore[index]  # no attack roll is drawn
    bonus = model(world).tables.weapons["mace.crush"].depth_bonus
    events = world.strike(v, "mace.crush", aim="Skull")
    assert [type(e) for e in events[:2]] == [AttackDeclared, DamageDealt]
    assert (events[0].attacker, events[0].mode, events[0].aim) == (-1, "mace.crush", "Skull")
    dealt = events[1]
    assert isinstance(dealt, DamageDealt) and dealt.rolled == 1 + bonus
    assert dealt.detail.startswith(f"{TIERS[depth_tier(1 + bonus)]} blunt wound to the Skull (Head)")
    record = next(e for e in world.log if isinstance(e, DepthAttackRecord))
    assert record.explain(world.names)[1] == "Struck directly: no attack roll; the blow counts as a bare hit (margin 1)"
    assert record.summary(world.names) is not None and "struck directly" in record.summary(world.names)
    events = world.strike(v, "unarmed.punch", aim="Head")
    assert "(Head):" in next(e for e in events if isinstance(e, DamageDealt)).detail
    spirit = world.spawn("spirit", name="Spirit")
    events = world.strike(spirit, "unarmed.punch")
    assert any(isinstance(e, Missed) and e.reason == "nothing to strike" for e in events)
    assert not state(world, spirit).wounds


def test_the_readout_lists_wounds_and_the_models_numbers(world: Sandbox) -> None:
    v = world.spawn("human", name="V", team="A", armor=["leather"], attributes={"dexterity": 14})
    world.inflict(v, location="Thorax", level="flesh", aspect="cutting")
    world.inflict(v, location="Abdomen", level="skin", aspect="blunt")  # passes: needs nothing, not listed
    world.inflict(v, location="Left Forearm", level="bone", aspect="blunt")
    r = world.readout(v)
    assert [(w.location, w.part, w.level, w.aspect, w.bleeding, w.treated) for w in r.wounds] == [
        ("Thorax", "Torso", "flesh", "cutting", True, False),
        ("Left Forearm", "Left Arm", "bone", "blunt", False, False)]
    assert r.wounds[0].text == "flesh cutting wound: a laceration, bleeding (-1), untreated (DC 10)"
    assert r.wounds[1].text == "bone blunt wound: a fracture, part broken, untreated (DC 12)"
    details = dict(r.details)
    assert details["Defense"] == "14"
    assert details["attack"] == "Strength +0 (melee), Dexterity +2 (missile and thrown)"
    assert details["wound penalty"] == "-1 on its own rolls (down at -5)"
    assert details["deepest wound"] == "bone"
    assert r.health_unit == "" and r.health == 4
    world.spawn("human", name="Healer", team="A", skills={"physician": 200})
    world.care = CarePolicy(first_aid_delay=0.0)
    world.advance(hours=1)
    assert world.readout(v).wounds == ()
    with world.active():
        row = model(world).aftermath_row(world.creatures()[v], world.ctx, 0.0, None)
    assert (row.alive, row.open_wounds, row.healed_day, row.health, row.state) == (True, 0, 0.0, 5, "unhurt")


def test_a_lost_limb_reads_as_a_treated_lasting_wound(world: Sandbox) -> None:
    v = world.spawn("human", name="V", team="A")
    world.spawn("human", name="Healer", team="A", skills={"physician": 200})
    world.inflict(v, location="Left Forearm", level="organ", aspect="cutting", critical=True)
    assert not world.readout(v).wounds[0].treated
    world.care = CarePolicy(first_aid_delay=0.0)
    world.advance(hours=1)
    (wound,) = world.readout(v).wounds
    assert (wound.location, wound.level, wound.treated) == ("Left Forearm", "organ", True)
    assert "part lost" in wound.text and wound.text.endswith("treated")


def test_invariants_hold_in_play_and_catch_a_hand_edit(world: Sandbox) -> None:
    with Sandbox.from_scenario("skirmish", seed=1, model="depth", check_invariants=True) as w:
        w.run()
        w.advance(hours=2)
    v = world.spawn("human", name="V")
    world.inflict(v, location="Thorax", level="flesh", aspect="cutting")
    c = world.creatures()[v]
    with world.active():
        assert model(world).invariants(c, world.ctx) == []
    st = state(world, v)
    st.penalty = 0  # a hand edit: the penalty no longer follows from the wounds
    with world.active():
        assert any("penalty 0" in b for b in model(world).invariants(c, world.ctx))
    world.refresh(v)  # settle: recomputed from the wounds
    assert st.penalty == -1
    body = c.anatomy.body
    arm = body.part_index("Right Arm")
    st.wounds.append(DepthWound(body.location_index("Right Forearm"), arm, 3, "blunt", "a fracture", 0, True, False,
                                False, -1.0, False, 12, 0.0, False).as_tuple())
    start = len(world.events)
    world.refresh(v)
    changed = [(e.what, e.before, e.after) for e in world.events[start:] if isinstance(e, ModelStateChanged)]
    assert changed == [("part Right Arm", "working", "broken")]
    with world.active():
        assert model(world).invariants(c, world.ctx) == []


def test_advance_runs_on_the_shared_due_queue_and_care_circle(world: Sandbox, monkeypatch: Any) -> None:
    import sandbox.systems.models.depth.care as depth_care
    from sandbox.systems.schedule import DueQueue

    queues: list[object] = []
    real = depth_care.roll_d20

    def spy(rng: Any) -> int:
        queues.append(world.ctx.due)
        return real(rng)

    monkeypatch.setattr(depth_care, "roll_d20", spy)
    patient = world.spawn("human", name="Patient", team="A")
    world.spawn("human", name="Low", team="A", skills={"physician": 30})  # +3
    high = world.spawn("human", name="High", team="A", skills={"physician": 60})  # +6
    world.inflict(patient, location="Thorax", level="flesh", aspect="cutting")
    world.inflict(high, location="Abdomen", level="flesh", aspect="cutting")  # tends at +5 now
    world.care = CarePolicy(first_aid_delay=0.0)
    world.ctx.streams["healing"] = d20(20, 20)  # type: ignore[index]
    events = world.advance(minutes=1)
    treatments = [(e.entity, e.after) for e in events if isinstance(e, ModelStateChanged)
                  and e.what.startswith("treatment")]
    # The patient is tended by the best team-mate (+5); High, wounded itself, by Low (+3), Patient being worse.
    assert treatments == [(patient, "treated (d20 20 +5 vs DC 10)"), (high, "treated (d20 20 +3 vs DC 10)")]
    assert len(queues) == 2 and all(isinstance(q, DueQueue) for q in queues) and world.ctx.due is None
    other = world.spawn("human", name="Other", team="A")
    world.inflict(other, location="Thorax", level="flesh", aspect="cutting")
    world.care = CarePolicy(first_aid_delay=0.0, healers=("Low",))
    world.ctx.streams["healing"] = d20(20)  # type: ignore[index]
    events = world.advance(minutes=1)
    assert [e.after for e in events if isinstance(e, ModelStateChanged)] == ["treated (d20 20 +3 vs DC 10)",
                                                                             "unhurt"]


def _care_world(scenario: str, seed: int) -> Sandbox:
    """A fought scenario (the loser's wounded waiting for care), or an empty world of wounded and a healer."""
    if scenario != "wounded":
        w = Sandbox.from_scenario(scenario, seed=seed, model="depth")
        w.run()
        return w
    w = Sandbox(seed=seed, model="depth")
    p = w.spawn("human", name="Patient", team="A")
    q = w.spawn("human", name="Other", team="A")
    w.spawn("human", name="Healer", team="A", skills={"physician": 40})
    w.inflict(p, location="Abdomen", level="organ", aspect="blunt")  # down, dying after 6 rounds
    w.inflict(p, location="Right Forearm", level="bone", aspect="cutting")
    w.inflict(q, location="Thorax", level="flesh", aspect="piercing")
    w.inflict(q, location="Left Thigh", level="organ", aspect="blunt")  # bleeding out after 30 rounds
    w.care = CarePolicy(first_aid_delay=15.0)
    return w


@settings(max_examples=30, deadline=None)
@given(scenario=st.sampled_from(["wounded", "duel", "skirmish", "wolf_pack"]), seed=st.integers(0, 20),
       first=st.integers(0, 4 * 3600), total=st.integers(0, 6 * 3600))
def test_advance_is_split_proof(scenario: str, seed: int, first: int, total: int) -> None:
    """``advance(a)`` then ``advance(b)`` gives the events (and the states) of ``advance(a + b)``.

    Only ``care_at`` may differ: a creature nobody could help waits (``care_at`` -1) until a treatment on its team
    succeeds, and the next ``advance`` looks at it again after the first-aid delay; that second look finds the
    same nobody, so it draws nothing and emits nothing.
    """
    first = min(first, total)
    whole, split = _care_world(scenario, seed), _care_world(scenario, seed)
    try:
        whole.advance(seconds=total)
        split.advance(seconds=first)
        split.advance(seconds=total - first)
        assert dicts(split) == dicts(whole)
        assert split.ctx.clock.seconds == whole.ctx.clock.seconds
        for e in whole.names:
            assert replace(state(split, e), care_at=-1.0) == replace(state(whole, e), care_at=-1.0)
    finally:
        whole.close()
        split.close()


def test_the_naturals_are_labelled_as_decisions_md_has_them() -> None:
    """The naturals follow decisions.md ("neither natural hits or misses by itself"), so neither the tables file nor
    the model's doc calls a natural's hit or miss a sandbox rule, or offers a key to make one."""
    text = (config_root() / "models" / "depth.toml").read_text(encoding="utf-8")
    assert "natural_20_hits" not in text and "natural_1_misses" not in text
    for line in text.splitlines():
        if "natural 20" in line.lower() or "natural 1 " in line.lower():
            assert "sandbox rule" not in line.lower(), line
    doc = (Path(__file__).resolve().parent.parent / "docs" / "models" / "depth.md").read_text(encoding="utf-8")
    assert "always hits" not in doc and "always misses" not in doc
    assert "neither natural hits or misses by itself" in doc
