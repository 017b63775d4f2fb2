"""The skirmish loop: shipped scenarios run to an outcome, turn order within a tick, dropped and immobilised
weapons, target changes, and clear errors for broken scenario files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.events import (
    AttackDeclared,
    Died,
    Event,
    FellProne,
    ItemDropped,
    ItemPickedUp,
    ModeChanged,
    ShockChanged,
)
from sandbox.components.models.anatomy import Injury
from sandbox.components.state import Anatomy, Combatant, Condition, Equipment
from sandbox.config import ConfigError, default_catalog
from sandbox.systems.combat import ready_parts
from sandbox.world import Sandbox

SCENARIOS = ("duel", "skirmish", "wolf_pack", "bestiary")
REASONS = {"one team left", "no team left", "tick limit"}
MODES = default_catalog().modes


# ---------------------------------------------------------------------------------------------- shipped scenarios


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_shipped_scenario_runs_to_an_outcome(scenario: str) -> None:
    decided = 0
    seeds = range(5)
    for seed in seeds:
        w = Sandbox.from_scenario(scenario, seed=seed)
        limit = w.max_ticks
        out = w.run()
        assert out.reason in REASONS
        assert 0 < out.ticks <= limit and out.ticks == w.tick
        assert set(out.survivors) <= set(w.names.values())
        if out.reason == "one team left":
            decided += 1
            assert out.winner is not None and w.able_teams() == [out.winner]
        else:
            assert out.winner is None
        w.close()
    assert decided * 2 > len(seeds), f"{scenario}: only {decided} of {len(seeds)} seeds ended with one team left"


@pytest.mark.parametrize("distance", [10.0, 20.0])
def test_a_ranged_fighter_turns_to_another_foe_when_its_target_dies(distance: float) -> None:
    """An archer whose target dies picks the next foe, whether or not the target fell within the retarget radius
    (12 m): it is in bow range either way and has no reason to walk up to the body first."""
    w = Sandbox(seed=4)
    archer = w.spawn("human", name="Archer", team="Red", position=(0.0, 0.0), weapons=["longbow"],
                     skills={"bow": 90})
    first = w.spawn("human", name="First", team="Blue", position=(distance, 0.0))
    second = w.spawn("human", name="Second", team="Blue", position=(distance, 4.0))
    for foe in (first, second):
        w.immobilize(foe, "Right Leg")
        w.immobilize(foe, "Left Leg")
    try:
        shots = [e for e in w.step() if isinstance(e, AttackDeclared)]
        assert [(e.attacker, e.target) for e in shots] == [(archer, first)]
        w.get(first, Condition).dead = True
        targets = []
        for _ in range(3):
            targets += [e.target for e in w.step() if isinstance(e, AttackDeclared) and e.attacker == archer]
        assert first not in targets
        assert second in targets, f"the archer never shot again (target stays {w.get(archer, Combatant)})"
    finally:
        w.close()


# ---------------------------------------------------------------------------------------------- turn order


def _acting_after_falling(events: list[Event]) -> tuple[list[tuple[str, Event]], int]:
    """Attacks by creatures already down, dead or reeling earlier in their tick; and how often a creature went
    down while others still attacked later in that tick (the situation the rule is about)."""
    bad: list[tuple[str, Event]] = []
    chances = 0
    tick, down, reeling = None, set(), set()
    for e in events:
        if e.tick != tick:
            tick, down, reeling = e.tick, set(), set()
        if isinstance(e, Died):
            down.add(e.entity)
        elif isinstance(e, ShockChanged):
            reeling.add(e.entity)
            if e.after in ("incapacitated", "unconscious", "dead"):
                down.add(e.entity)
        elif isinstance(e, FellProne):
            reeling.add(e.entity)
        elif isinstance(e, AttackDeclared):
            if e.attacker in down:
                bad.append(("down", e))
            elif e.attacker in reeling:
                bad.append(("reeling", e))
            if down or reeling:
                chances += 1
    return bad, chances


def test_dead_or_shocked_creatures_do_not_act_later_in_the_tick() -> None:
    chances = 0
    for scenario in SCENARIOS:
        for seed in range(8):
            w = Sandbox.from_scenario(scenario, seed=seed)
            w.run(max_ticks=80)
            bad, n = _acting_after_falling(w.events)
            assert not bad, f"{scenario} seed {seed}: {bad[:3]}"
            chances += n
            w.close()
    assert chances > 20


def test_a_slow_fighter_hit_into_shock_loses_its_turn() -> None:
    lost = attacked = 0
    for seed in range(15):
        w = Sandbox(seed=seed)
        w.spawn("human", name="Fast", team="Red", weapons=["mace"], initiative=100, skills={"club": 90})
        slow = w.spawn("human", name="Slow", team="Blue", position=(0.8, 0.0), weapons=["broadsword"],
                       initiative=1, skills={"dodge": 5, "shock": 20})
        for _ in range(15):
            events = w.step()
            hit_first = [i for i, e in enumerate(events) if isinstance(e, (ShockChanged, FellProne, Died))
                         and getattr(e, "entity", None) == slow]
            slow_attacks = [i for i, e in enumerate(events) if isinstance(e, AttackDeclared) and e.attacker == slow]
            if hit_first:
                assert not [i for i in slow_attacks if i > hit_first[0]]
                lost += 1
            elif slow_attacks:
                attacked += 1
            if len(w.able_teams()) < 2:
                break
        w.close()
    assert lost > 3 and attacked > 3


# ---------------------------------------------------------------------------------------------- weapons


def _duellists(seed: int = 1) -> tuple[Sandbox, int, int]:
    w = Sandbox(seed=seed)
    a = w.spawn("human", name="A", team="Red", position=(0.0, 0.0), weapons=["broadsword"])
    b = w.spawn("human", name="B", team="Blue", position=(1.0, 0.0), weapons=["broadsword"], skills={"sword": 5})
    return w, a, b


def _part(w: Sandbox, e: int, name: str) -> int:
    return w.get(e, Anatomy).body.part_index(name)


def test_unusable_weapon_hand_drops_the_weapon_and_the_creature_rearms() -> None:
    w, a, _ = _duellists()
    try:
        w.step()
        assert w.get(a, Equipment).holding == {_part(w, a, "Right Arm"): "broadsword"}
        assert w.get(a, Combatant).mode == "broadsword.cut"
        events = w.inflict(a, location="Right Forearm", level="G4")
        dropped = [e for e in events if isinstance(e, ItemDropped)]
        assert [(e.entity, e.item, e.part, e.flung) for e in dropped] == [(a, "broadsword", "Right Arm", False)]
        equip = w.get(a, Equipment)
        assert equip.holding == {} and equip.dropped == ["broadsword"]
        assert "disarmed" in w.readout(a).conditions
        events = w.step()
        picked = [e for e in events if isinstance(e, ItemPickedUp) and e.entity == a]
        switched = [e for e in events if isinstance(e, ModeChanged) and e.entity == a]
        comb = w.get(a, Combatant)
        if picked:
            # The other hand takes the sword up (it costs the turn).
            assert [(e.item, e.part) for e in picked] == [("broadsword", "Left Arm")]
            assert equip.holding == {_part(w, a, "Left Arm"): "broadsword"} and equip.dropped == []
            assert not [e for e in events if isinstance(e, AttackDeclared) and e.attacker == a]
        else:
            assert switched and switched[-1].before.startswith("broadsword.")
            assert not comb.mode.startswith("broadsword.")
        # Whatever it fights with now, it can wield it, and never with the right hand.
        for _ in range(4):
            w.step()
            mode = MODES[comb.mode]
            parts = ready_parts(w.get(a, Anatomy), w.get(a, Injury).impairments,
                                w.get(a, Condition), equip, mode)
            assert parts is not None and _part(w, a, "Right Arm") not in parts
    finally:
        w.close()


def test_with_no_usable_hand_left_the_creature_switches_to_a_natural_mode() -> None:
    w, a, _ = _duellists()
    try:
        w.step()
        w.inflict(a, location="Left Forearm", level="G4")
        assert w.get(a, Equipment).holding  # the sword hand is still fine
        events = w.inflict(a, location="Right Forearm", level="G4")
        assert [e.item for e in events if isinstance(e, ItemDropped)] == ["broadsword"]
        events = w.step()
        switched = [e for e in events if isinstance(e, ModeChanged) and e.entity == a]
        assert len(switched) == 1
        assert switched[0].before == "broadsword.cut"
        assert not switched[0].after.startswith("broadsword.")
        assert w.get(a, Combatant).mode == switched[0].after
        assert not [e for e in events if isinstance(e, ItemPickedUp)]
        for _ in range(4):
            events += w.step()
        modes = {e.mode for e in events if isinstance(e, AttackDeclared) and e.attacker == a}
        assert all(MODES[m].weapon in w.get(a, Equipment).natural for m in modes)
        assert w.get(a, Equipment).dropped == ["broadsword"]
    finally:
        w.close()


def test_immobilised_arms_keep_the_grip_but_cannot_strike() -> None:
    w, a, _ = _duellists(seed=2)
    try:
        holding = dict(w.get(a, Equipment).holding)
        assert holding
        w.immobilize(a, "Right Arm")
        w.immobilize(a, "Left Arm")
        held_attacks: list[AttackDeclared] = []
        for _ in range(6):
            events = w.step()
            held_attacks += [e for e in events if isinstance(e, AttackDeclared) and e.attacker == a]
            assert w.get(a, Equipment).holding == holding
            assert not [e for e in events if isinstance(e, ItemDropped) and e.entity == a]
        assert all(MODES[e.mode].limb != "grip" for e in held_attacks), {e.mode for e in held_attacks}
        assert "disarmed" not in w.readout(a).conditions
        w.free(a, "Right Arm")
        w.free(a, "Left Arm")
        freed: list[AttackDeclared] = []
        for _ in range(4):
            freed += [e for e in w.step() if isinstance(e, AttackDeclared) and e.attacker == a]
        assert freed and all(e.mode.startswith("broadsword.") for e in freed)
        assert w.get(a, Equipment).holding == holding
    finally:
        w.close()


# ---------------------------------------------------------------------------------------------- broken scenarios

HEADER = """name = "Broken"
field = { width = 20.0, height = 10.0 }
"""


def combatant(name: str, team: str, creature: str = "human", position: str = "[5.0, 5.0]", extra: str = "") -> str:
    return (f'\n[[combatants]]\nname = "{name}"\ncreature = "{creature}"\nteam = "{team}"\nposition = {position}\n'
            + extra)


GOOD = combatant("A", "Red") + combatant("B", "Blue", position="[8.0, 5.0]")

BROKEN: dict[str, tuple[str, str, str, str, str]] = {
    # case: (file body, key, entry, expected, found)
    "unknown creature": (GOOD + combatant("C", "Blue", creature="dragonfly"),
                         "combatants#3.creature", "C", "a creature in creatures/", "'dragonfly'"),
    "armour for the wrong body": (GOOD + combatant("C", "Blue", creature="wolf", extra='armor = ["mail_hauberk"]\n'),
                                  "combatants#3.armor#1", "C", "armour made for the 'wolf' body",
                                  "'mail_hauberk' (made for 'human')"),
    "position off the field": (GOOD + combatant("C", "Blue", position="[25.0, 5.0]"),
                               "combatants#3.position", "C", "a place on the 20.0 x 10.0 m field", "[25.0, 5.0]"),
    "one team only": (combatant("A", "Red") + combatant("B", "Red"),
                      "combatants", "Broken", "at least two teams", "1 team"),
    "unknown key": (GOOD.replace('team = "Red"', 'team = "Red"\ncolour = "red"'),
                    "combatants#1.colour", "A", "no such key (unknown keys are rejected)", "'red'"),
    "unknown aim part": (GOOD + combatant("C", "Blue", extra='aim = "Tentacle"\n'),
                         "combatants#3.aim", "C", "unaimed, random, or a part or location name of some body",
                         "'Tentacle'"),
    "group name collides": (GOOD + combatant("Wolf", "Pack", creature="wolf", position="[1.0, 1.0]",
                                             extra="count = 3\n") + combatant("Wolf 2", "Blue"),
                            "combatants", "Wolf 2", "unique combatant names", "'Wolf 2' twice"),
}

PROBLEM_LINE = re.compile(r'^  (?P<file>.+?): (?P<key>\S+)(?: \("(?P<entry>[^"]*)"\))?: expected (?P<exp>.+), '
                          r'found (?P<found>.+)$')


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_scenario_gives_a_clear_error(tmp_path: Path, case: str) -> None:
    body, key, entry, expected, found = BROKEN[case]
    path = tmp_path / "broken.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        Sandbox.from_scenario(path, seed=1)
    text = str(info.value)
    lines = text.splitlines()
    assert lines[0] == "1 problem in config files:", text
    assert lines[1] == f'  {path}: {key} ("{entry}"): expected {expected}, found {found}'
    assert PROBLEM_LINE.match(lines[1])


def test_every_problem_of_a_scenario_is_listed(tmp_path: Path) -> None:
    body = (HEADER + "bogus = 3\n" + combatant("A", "Red", creature="dragonfly")
            + combatant("B", "Red", creature="wolf", position="[25.0, 5.0]",
                        extra='armor = ["mail_hauberk"]\naim = "Tentacle"\n'))
    path = tmp_path / "many.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        Sandbox.from_scenario(str(path))
    lines = str(info.value).splitlines()
    assert lines[0] == "6 problems in config files:"
    keys = set()
    for line in lines[1:]:
        m = PROBLEM_LINE.match(line)
        assert m, line
        assert m["file"] == str(path)
        keys.add(m["key"])
    assert keys == {"bogus", "combatants#1.creature", "combatants#2.armor#1", "combatants#2.aim",
                    "combatants#2.position", "combatants"}
    assert len(info.value.problems) == 6


def test_valid_scenario_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "fine.toml"
    path.write_text(HEADER + GOOD, encoding="utf-8")
    w = Sandbox.from_scenario(path, seed=2)
    assert sorted(w.names.values()) == ["A", "B"] and w.scenario is not None and w.scenario.id == "fine"
    w.close()


def test_unknown_shipped_scenario_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="duel"):
        Sandbox.from_scenario("no_such_scenario")
    with pytest.raises(ConfigError, match="no such file"):
        Sandbox.from_scenario("/nonexistent/place/x.toml")


@pytest.mark.parametrize("case", ["group name collides", "missing file"])
def test_cli_run_of_a_broken_scenario_exits_2(tmp_path: Path, case: str) -> None:
    path = tmp_path / "broken.toml"
    if case != "missing file":
        path.write_text(HEADER + BROKEN[case][0], encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 2
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert str(path) in result.stderr and "expected" in result.stderr
