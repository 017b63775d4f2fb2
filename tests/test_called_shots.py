"""Called shots name a location, not only a part (issue 15, point 1).

Document 002: "Declare a location — the throat, the sword arm, the eyes — and take −5 to the roll. If you still hit,
you strike what the anatomy actually puts there ... a called shot to the neck that reaches tissue is a different
wound than a called shot to the ribs." decisions.md: "Called shot: -5 to hit, and the blow lands on the called
location (a location, or a part's location by weight)". A scenario, ``spawn``, ``strike`` and the AI's aim policy
may name a location or a part; an aim that names neither is an error. Under the anatomy model a location aims at
its part's zone (document 000 aims by zone number).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.events import AttackDeclared, BlowLanded, DamageDealt
from sandbox.config import ConfigError, default_catalog
from sandbox.systems.ai import choose_aim
from sandbox.systems.models.depth.record import DepthAttackRecord
from sandbox.world import Sandbox, SandboxError

SCENARIO = """#:schema ../schemas/scenario.schema.json
name = "Called shots"
model = "{model}"
field = {{ width = 20.0, height = 10.0 }}

[[combatants]]
name = "Aimer"
creature = "human"
team = "Red"
position = [7.0, 5.0]
weapons = ["broadsword"]
attributes = {{ strength = 24 }}
aim = "{aim}"

[[combatants]]
name = "Target"
creature = "human"
team = "Blue"
position = [8.0, 5.0]
weapons = ["broadsword"]
"""


def _scenario(tmp_path: Path, aim: str, model: str = "depth") -> Path:
    path = tmp_path / "called.toml"
    path.write_text(SCENARIO.format(model=model, aim=aim), encoding="utf-8")
    return path


def _aimer_hits(world: Sandbox, aimer: int) -> list[DamageDealt]:
    return [e for e in world.events if isinstance(e, DamageDealt) and e.attacker == aimer]


def test_a_called_shot_at_a_location_lands_on_that_location_in_play() -> None:
    """Under depth, a creature spawned with ``aim="Neck"`` takes -5 on every roll and every hit lands on the Neck
    (not by weight in the Head: the skull about half the time, the neck a fifth)."""
    hits: list[DamageDealt] = []
    for seed in range(30):
        with Sandbox(seed=seed, model="depth") as world:
            aimer = world.spawn("human", name="Aimer", team="A", weapons=["broadsword"], aim="Neck",
                                attributes={"strength": 24})
            world.spawn("human", name="Target", team="B", position=(1.0, 0.0))
            world.run(max_ticks=6)
            for e in world.events:
                if isinstance(e, AttackDeclared) and e.attacker == aimer:
                    assert e.aim == "Neck"
            records = [r for r in world.log if isinstance(r, DepthAttackRecord) and r.attacker == aimer]
            assert records and all(r.called == -5 and r.ability == 7 for r in records)  # Strength 24: +7
            assert all(r.total == r.natural + 7 - 5 + r.penalty + r.pending + r.guard + r.notched for r in records)
            hits += _aimer_hits(world, aimer)
    assert len(hits) > 20
    assert all("to the Neck (Head)" in e.detail for e in hits), Counter(e.detail for e in hits)


def test_a_called_shot_at_a_part_lands_in_it_by_weight() -> None:
    """A called part: the location within it by weight (the Head: mostly the skull)."""
    where: Counter[str] = Counter()
    for seed in range(30):
        with Sandbox(seed=seed, model="depth") as world:
            aimer = world.spawn("human", name="Aimer", team="A", weapons=["broadsword"], aim="Head",
                                attributes={"strength": 24})
            world.spawn("human", name="Target", team="B", position=(1.0, 0.0))
            world.run(max_ticks=6)
            for e in _aimer_hits(world, aimer):
                where[e.detail.split(" to the ")[1].split(" (")[0]] += 1
    assert set(where) > {"Skull"} and where.most_common(1)[0][0] == "Skull"
    assert all(name in {loc.name for loc in default_catalog().bodies["human"].locations[:11]} for name in where)


def test_a_scenario_may_call_a_location(tmp_path: Path) -> None:
    """``aim = "Neck"`` in a scenario is accepted (it used to be refused as "expected unaimed, random or a part
    name") and lands on the Neck under depth."""
    with Sandbox.from_scenario(_scenario(tmp_path, "Neck"), seed=4) as world:
        aimer = world.entity("Aimer")
        assert world.creatures()[aimer].combatant.aim == "Neck"
        world.run(max_ticks=10)
        hits = _aimer_hits(world, aimer)
        assert hits and all("to the Neck (Head)" in e.detail for e in hits)


@pytest.mark.parametrize("where", ["scenario", "spawn", "strike"])
def test_an_aim_that_names_nothing_is_an_error(tmp_path: Path, where: str) -> None:
    """Never a silent unaimed attack: a scenario's aim is a config error (file, key, entry, expected, found), a
    spawn's and a strike's a ``SandboxError`` naming it."""
    if where == "scenario":
        path = _scenario(tmp_path, "Throat")
        with pytest.raises(ConfigError) as info:
            Sandbox.from_scenario(path)
        (problem,) = info.value.problems
        assert (problem.key, problem.entry, problem.found) == ("combatants#1.aim", "Aimer", "'Throat'")
        assert problem.expected == "unaimed, random, or a part or location name of some body"
        return
    with Sandbox(model="depth") as world:
        if where == "spawn":
            with pytest.raises(SandboxError, match="'Throat' names no part or location"):
                world.spawn("human", aim="Throat")
        else:
            target = world.spawn("human", name="T")
            with pytest.raises(SandboxError, match="no part or location 'Throat'"):
                world.strike(target, "broadsword.cut", aim="Throat")


def test_a_scenario_aim_that_names_nothing_exits_2_with_the_problem(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "Throat")
    for command in (["validate", str(path)], ["run", str(path)]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "combatants#1.aim" in result.stderr and "found 'Throat'" in result.stderr
        assert "Traceback" not in result.stderr


def test_under_the_anatomy_model_a_location_aims_at_its_parts_zone(tmp_path: Path) -> None:
    """Document 000 aims by zone number: an aim at the Neck targets the Head's zone, as an aim at the Head does."""
    human = default_catalog().bodies["human"]
    assert choose_aim("Neck", human, None) == choose_aim("Head", human, None) == 1  # type: ignore[arg-type]
    assert choose_aim("Right Hand", human, None) == choose_aim("Right Arm", human, None) == 2  # type: ignore[arg-type]
    with Sandbox.from_scenario(_scenario(tmp_path, "Neck", model="anatomy"), seed=2) as world:
        aimer = world.entity("Aimer")
        world.run(max_ticks=12)
        landed = [e for e in world.events if isinstance(e, BlowLanded) and e.attacker == aimer]
        assert landed and all(e.zone_number in range(1, 7) for e in landed)  # zone 1 + a Spread-6 die
        records = [r for r in world.log if getattr(r, "attacker", None) == aimer and hasattr(r, "aim_zone")]
        assert records and all(r.aim == "Neck" and r.aim_zone == 1 for r in records)


def test_the_blows_table_aims_at_a_location_too() -> None:
    """``sandbox blows --aim`` (and the lab's odds cards, which use it for a scenario's aim) takes a location as the
    scenario does: under the anatomy model it aims at its part's zone (the Neck: the Head's, zone number 1)."""
    result = CliRunner().invoke(app, ["blows", "--mode", "broadsword.cut", "--aim", "Neck"])
    assert result.exit_code == 0, result.output
    assert "aimed at the Neck (zone number 1)" in result.output
    head = CliRunner().invoke(app, ["blows", "--mode", "broadsword.cut", "--aim", "Head"])
    assert "aimed at the Head (zone number 1)" in head.output
    result = CliRunner().invoke(app, ["blows", "--mode", "broadsword.cut", "--aim", "Throat"])
    assert result.exit_code == 2 and "has no part 'Throat' nor a location of that name" in result.stderr
