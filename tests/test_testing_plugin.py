"""``sandbox.testing`` (issue 32, point 8): scripted dice under every model, the assertions, and the pytest plugin.

The expected numbers are pinned against the shipped content: the battleaxe cut is 1d8+7 edged under the anatomy
model, 2d4+4 under severity, a d10 under strength, 2d8+2 under status; a Strength of 20 adds 5 to the impact.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sandbox import Sandbox
from sandbox.components.events import AttackRolled, BlowLanded, D20AttackRolled, DamageDealt, Injured, Missed, Severed
from sandbox.components.readout import Readout, WoundReading
from sandbox.config import default_catalog
from sandbox.systems.dice import skill_test
from sandbox.systems.streams import PURPOSES
from sandbox.testing import HelperError, WorldFactory, assert_event, assert_wound, forced_rolls

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("anatomy", "severity", "depth", "strength", "status")


def fighters(model: str = "anatomy", seed: int = 3) -> Sandbox:
    """Aldric (a battleaxe, Strength 20) and Bertram (no armour) a metre apart, each for himself."""
    world = Sandbox(seed, model)
    world.spawn("human", name="Aldric", weapons=["battleaxe"], attributes={"strength": 20})
    world.spawn("human", name="Bertram", position=(1, 0), weapons=["broadsword"])
    return world


def states(world: Sandbox) -> dict[str, object]:
    return {name: world.ctx.streams[name].getstate() for name in PURPOSES}  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the forced outcome, under each model


def test_a_forced_attack_location_and_impact_sever_the_arm_under_anatomy() -> None:
    world = fighters()
    # d100 01 to attack, 96 to defend, the d8 at 8 (20 impact with Strength 20: G5), a CF amputation test.
    with forced_rolls(world, d100=[1, 96, 100], d8=8, location="Left Upper Arm") as script:
        events = world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert script.forced == [("d100", 1), ("d100", 96), ("d8", 8), ("location", "Left Upper Arm"), ("d100", 100)]
    assert script.remaining() == {}
    rolled = assert_event(events, AttackRolled, attack="MS", defence="MF", landed=True)
    assert rolled.attack_ml is not None and rolled.attack_ml >= 1
    assert_event(events, BlowLanded, location="Left Upper Arm", impact=20)
    assert_event(events, Injured, location="Left Upper Arm", level_code="G5")
    assert_event(world, Severed, entity="Bertram", location="Left Upper Arm")
    wound = assert_wound(world, "Bertram", location="Left Upper Arm", level="G5", severed=True)
    assert wound.part == "Left Arm" and wound.aspect == "edged"


def test_a_forced_defence_makes_the_same_attack_miss_under_anatomy() -> None:
    world = fighters()
    with forced_rolls(world, d100=[1, 5]):  # 05 is a critical success: it beats the attack's marginal success
        events = world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert_event(events, AttackRolled, attack="MS", defence="CS", landed=False)
    assert_event(events, Missed, reason="defended")
    assert world.readout("Bertram").wounds == ()


D20_BLOWS = {
    # model: (the damage dice forced, what the blow rolls with them)
    "severity": ({"d4": [4, 3]}, 11),     # 2d4+4
    "strength": ({"d10": [10, 4]}, 13),   # a d10 that explodes: 10, then 4 - 1
    "status": ({"d8": [8, 5]}, 15),       # 2d8+2
}


@pytest.mark.parametrize("model", sorted(D20_BLOWS))
def test_a_forced_natural_20_and_damage_dice_come_out_exactly(model: str) -> None:
    dice, rolled = D20_BLOWS[model]
    world = fighters(model)
    with forced_rolls(world, d20=20, **dice) as script:
        events = world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert script.remaining() == {}
    assert_event(events, D20AttackRolled, natural=20, hit=True, model=model)
    assert_event(world, DamageDealt, target="Bertram", rolled=rolled)


@pytest.mark.parametrize("model", ["severity", "depth", "strength", "status"])
def test_a_forced_natural_1_misses_under_every_d20_model(model: str) -> None:
    world = fighters(model)
    with forced_rolls(world, d20=[1]):
        events = world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert_event(events, D20AttackRolled, natural=1, hit=False)
    assert not [e for e in events if isinstance(e, DamageDealt)]


def test_a_forced_location_places_the_wound_under_depth() -> None:
    world = fighters("depth")
    with forced_rolls(world, d20=20, location="Left Upper Arm"):
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert_event(world, D20AttackRolled, natural=20, hit=True)
    assert_wound(world, "Bertram", location="Left Upper Arm", part="Left Arm")


def test_a_forced_location_within_a_called_part_under_depth() -> None:
    world = fighters("depth")
    with forced_rolls(world, d20=19, location="Left Hand") as script:
        world.strike("Bertram", "battleaxe.cut", aim="Left Arm", attacker="Aldric")
    assert ("location", "Left Hand") in script.forced
    assert_wound(world, "Bertram", location="Left Hand")


def test_a_location_outside_the_called_part_is_refused_naming_what_it_holds() -> None:
    world = fighters("depth")
    with pytest.raises(HelperError, match=r"called part of a Human holding .*Left Hand.*not 'Skull'"), \
            forced_rolls(world, d20=19, location="Skull"):
        world.strike("Bertram", "battleaxe.cut", aim="Left Arm", attacker="Aldric")


@pytest.mark.parametrize("location", ["Left Hand", "Left Shoulder", "Right Elbow"])
def test_an_aimed_blow_lands_on_a_forced_location_in_its_reach(location: str) -> None:
    world = fighters()
    with forced_rolls(world, location=location) as script:  # no attacker: the blow lands; the Spread die is forced
        events = world.strike("Bertram", "battleaxe.cut", aim="Left Arm")
    assert script.forced == [("location", location)]
    assert_event(events, BlowLanded, location=location)


def test_an_aimed_blow_cannot_be_forced_out_of_its_reach() -> None:
    world = fighters()
    log = len(world.log)
    with pytest.raises(HelperError, match=r"cannot land on the Skull of a Human: aimed at zone number \d+ with "
                                          r"Spread 8"), forced_rolls(world, location="Skull"):
        world.strike("Bertram", "battleaxe.cut", aim="Left Foot")
    assert len(world.log) == log
    assert "random" not in vars(world.ctx.streams["injury"])  # the streams are themselves again


NEVER_SCRIPTED = {("ai.py", "choose_aim"), ("ai.py", "pick_target"),  # the AI's choices, not rolls
                  ("models/anatomy/aftercare.py", "_coma_interval")}   # a die of the coma's rules, inline


def test_every_draw_of_the_rules_is_a_scripted_site_or_named_as_never_scripted() -> None:
    """A new rule that draws (``rng.random``) must be taught to ``forced_rolls`` or listed here, on purpose."""
    from sandbox.testing.scripted_dice import _SITES

    systems = ROOT / "systems"
    drawing: set[tuple[str, str]] = set()
    for path in systems.rglob("*.py"):
        where = path.relative_to(systems)
        if "arrays" in where.parts or where.name.startswith("vector_"):
            continue  # the array engine's numpy streams: forced_rolls refuses its worlds

        def visit(node: ast.AST, function: str | None, where: Path = where) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Attribute) and child.attr == "random" \
                        and not (isinstance(child.value, ast.Name) and child.value.id in ("np", "numpy")):
                    drawing.add((where.as_posix(), str(function)))
                visit(child, child.name if isinstance(child, ast.FunctionDef) else function)

        visit(ast.parse(path.read_text(encoding="utf-8")), None)
    scripted = {(Path(code.co_filename).resolve().relative_to(systems.resolve()).as_posix(), code.co_name)
                for code in _SITES}
    assert drawing == scripted | NEVER_SCRIPTED


# ---------------------------------------------------------------- the stream goes on as it would have


def test_after_the_script_the_stream_gives_the_draws_it_would_have() -> None:
    forced, plain = fighters(), fighters()
    rules = default_catalog().rules.tests
    with forced_rolls(forced, d100=[100, 1, 50]):
        results = [skill_test(50, forced.ctx.streams["attack"], rules) for _ in range(4)]
    expected = [skill_test(50, plain.ctx.streams["attack"], rules) for _ in range(4)]
    assert [r.name for r in results[:3]] == ["CF", "MS", "CS"]
    assert results[3] == expected[3]  # nothing scripted left: the stream's own fourth draw
    after = [forced.ctx.streams["attack"].random() for _ in range(5)]
    assert after == [plain.ctx.streams["attack"].random() for _ in range(5)]
    assert states(forced) == states(plain)


@pytest.mark.parametrize("model", MODELS)
def test_a_script_of_what_would_have_come_keeps_the_world_identical(model: str) -> None:
    """Scripting the values the world was going to roll changes nothing, for the rest of the fight."""
    plain, forced = fighters(model), fighters(model)
    if model == "anatomy":  # the blow with no attacker lands: script its impact die (1d8+7)
        landed = assert_event(plain.strike("Bertram", "battleaxe.cut"), BlowLanded)
        with forced_rolls(forced, d8=landed.impact - 7) as script:
            forced.strike("Bertram", "battleaxe.cut")
    else:
        rolled = assert_event(plain.strike("Bertram", "battleaxe.cut", attacker="Aldric"), D20AttackRolled)
        with forced_rolls(forced, d20=rolled.natural) as script:
            forced.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert len(script.forced) == 1
    plain.run(max_ticks=15)
    forced.run(max_ticks=15)
    assert [e.to_dict() for e in forced.events] == [e.to_dict() for e in plain.events]
    assert states(forced) == states(plain)


def test_unscripted_rolls_inside_the_block_draw_as_usual() -> None:
    forced, plain = fighters("strength"), fighters("strength")
    with forced_rolls(forced, d10=[2]):  # the damage die only: the attack roll is the stream's own
        events = forced.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    natural = assert_event(plain.strike("Bertram", "battleaxe.cut", attacker="Aldric"), D20AttackRolled).natural
    assert assert_event(events, D20AttackRolled).natural == natural


# ---------------------------------------------------------------- what the script refuses


def test_values_the_world_never_drew_fail_the_block() -> None:
    world = fighters("strength")
    with pytest.raises(HelperError, match=r"never drew these scripted values: d100 \[77\]; location \['Skull'\] "
                                          r"\(it drew d20 20"), forced_rolls(world, d20=20, d100=77, location="Skull"):
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert "random" not in vars(world.ctx.streams["attack"])


def test_not_strict_leaves_the_unused_values_to_read() -> None:
    world = fighters("strength")
    with forced_rolls(world, d20=[20, 20], strict=False) as script:
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert script.remaining() == {"d20": [20]}


def test_an_error_in_the_block_is_the_one_raised_and_the_streams_are_restored() -> None:
    world = fighters()
    with pytest.raises(KeyError, match="boom"), forced_rolls(world, d100=[5, 5, 5]):
        raise KeyError("boom")
    assert not any("random" in vars(s) for s in world.ctx.streams.values())
    plain = fighters()
    assert world.ctx.streams["attack"].random() == plain.ctx.streams["attack"].random()


@pytest.mark.parametrize(("options", "message"), [
    ({"d6": 7}, r"d6 takes whole numbers from 1 to 6"),
    ({"d100": [0]}, r"d100 takes whole numbers from 1 to 100"),
    ({"d20": [True]}, r"d20 takes whole numbers"),
    ({"d8": "8"}, r"d8 takes whole numbers"),
    ({"d1": [1]}, r"not d1="),
    ({"dice": [1]}, r"dN= for a die of N faces .*not dice="),
    ({"location": "Rigth Forearm"}, r"no body of the world's content has a location 'Rigth Forearm'; its "
                                    r"locations: .*Right Forearm"),
    ({"location": [3]}, r"location takes names"),
])
def test_a_bad_script_is_refused_before_any_draw(options: dict[str, object], message: str) -> None:
    world = fighters()
    with pytest.raises(HelperError, match=message), forced_rolls(world, **options):  # type: ignore[arg-type]
        pass
    assert not any("random" in vars(s) for s in world.ctx.streams.values())


def test_one_block_at_a_time_and_only_a_sandbox() -> None:
    world = fighters()
    with forced_rolls(world, strict=False), pytest.raises(HelperError, match="already scripting this world"), \
            forced_rolls(world):
        pass
    with pytest.raises(HelperError, match=r"scripts a Sandbox .*; dict is not one"), forced_rolls({}):
        pass
    assert issubclass(HelperError, ValueError)  # a SandboxError


def test_the_array_engine_is_refused() -> None:
    from sandbox.engines import open_world

    world = open_world("duel", "array", seed=0)
    try:
        with pytest.raises(HelperError, match=r"scripts a Sandbox .*; ArrayWorld is not one"), \
                forced_rolls(world, d100=5):
            pass
    finally:
        world.close()


# ---------------------------------------------------------------- the assertions


def test_assert_event_matches_names_case_and_callables_and_returns_the_event() -> None:
    world = fighters()
    with forced_rolls(world, d100=[1, 96, 100], d8=8, location="Left Upper Arm"):
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    found = assert_event(world, BlowLanded, attacker="aldric", target="Bertram", location="left upper arm",
                         impact=lambda n: n >= 15)
    assert found.impact == 20 and found.target == world.entity("Bertram")
    assert assert_event(world.log, Injured).level == 5  # log entries: their events


def test_assert_event_fails_listing_the_events_of_the_type_seen() -> None:
    world = fighters()
    with forced_rolls(world, location="Left Hand"):
        world.strike("Bertram", "battleaxe.cut")
    with pytest.raises(AssertionError) as failed:
        assert_event(world, BlowLanded, location="Skull")
    text = str(failed.value)
    assert "no BlowLanded(location='Skull') among" in text and "the 1 BlowLanded events seen:" in text
    assert "location='Left Hand'" in text and "target=2 (Bertram)" in text
    with pytest.raises(AssertionError, match=r"none of that type \(types seen: .*BlowLanded"):
        assert_event(world, Severed)


def test_assert_event_refuses_a_question_it_cannot_ask() -> None:
    world = fighters()
    with pytest.raises(HelperError, match="BlowLanded has no field locaton; its fields: tick, time, attacker"):
        assert_event(world, BlowLanded, locaton="Skull")
    with pytest.raises(HelperError, match="takes an event type"):
        assert_event(world, WoundReading)  # type: ignore[type-var]
    with pytest.raises(HelperError, match="names a creature: pass the world"):
        assert_event(world.events, BlowLanded, target="Bertram")
    with pytest.raises(HelperError, match="no creature of that name; the world's: Aldric, Bertram"):
        assert_event(world, BlowLanded, target="Cuthbert")
    with pytest.raises(HelperError, match="reads a world or a list of events"):
        assert_event(42, BlowLanded)


@pytest.mark.parametrize("model", ["anatomy", "severity", "depth", "status"])
def test_assert_wound_reads_each_models_wounds(model: str) -> None:
    """(Under strength a blow leaves no wound in the readout: its wounds are the Injuries table's, after dying.)"""
    world = fighters(model)
    dice = {"d100": [1, 96, 50, 50], "d8": 8} if model == "anatomy" else {"d20": 20}
    with forced_rolls(world, strict=False, **dice):  # type: ignore[arg-type]
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    wounds = world.readout("Bertram").wounds
    assert wounds, f"a natural 20 (or an anatomy hit) leaves a wound under {model}"
    assert assert_wound(world, "Bertram", level=wounds[0].level.upper()) == wounds[0]
    with pytest.raises(AssertionError) as failed:
        assert_wound(world, world.entity("Bertram"), level="no such level")
    text = str(failed.value)
    assert f"Bertram has no wound with level='no such level' under the {model} model; its wounds:" in text
    assert repr(wounds[0].level) in text and "cut off: nothing" in text


def test_assert_wound_tells_severed_from_kept() -> None:
    world = fighters()
    with forced_rolls(world, d100=[1, 96, 5], d8=8, location="Left Upper Arm"):  # a CS amputation test: kept
        world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
    assert_wound(world, "Bertram", location="Left Upper Arm", level="G5", severed=False)
    with pytest.raises(AssertionError, match=r"severed=True under the anatomy model.*\n.*Left Upper Arm \(Left Arm\): "
                                             r"level 'G5'.*\ncut off: nothing"):
        assert_wound(world, "Bertram", location="Left Upper Arm", severed=True)


def test_assert_wound_says_when_the_model_places_no_wound_at_a_location() -> None:
    class Unplaced:
        model = "points"

        def readout(self, creature: object) -> Readout:
            return Readout(True, True, "hurt", 7, "hurt", "none", (), (WoundReading("", "", "weaken 2"),))

    with pytest.raises(AssertionError, match=r"\(no location\): level 'weaken 2'.*\n.*\n\(the points model places "
                                             r"no wound at a location"):
        assert_wound(Unplaced(), "Bertram", location="Left Forearm")
    assert assert_wound(Unplaced(), "Bertram", level="Weaken 2").level == "weaken 2"


# ---------------------------------------------------------------- worlds, and the plugin


def test_the_factory_builds_seeded_worlds_and_closes_them() -> None:
    make_world = WorldFactory()
    a, b = make_world("duel", seed=7, model="severity"), make_world("duel", seed=7, model="severity")
    empty = make_world()
    assert a.model == "severity" and a.names == b.names and not empty.names
    a.run(max_ticks=5)
    b.run(max_ticks=5)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    make_world.close()
    assert not make_world.worlds
    with pytest.raises(Exception, match="closed"):
        a.step()


def _install_entry_point(pytester: pytest.Pytester) -> None:
    """A distribution's metadata on the path declaring the pyproject's ``pytest11`` entry points, as the installed
    package declares them (``tests/test_wheel.py`` runs the real wheel)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    lines = "".join(f"{name} = {target}\n" for name, target in declared["pytest11"].items())
    info = pytester.mkdir("site") / "sandbox_plugin_check-0.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sandbox-plugin-check\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text(f"[pytest11]\n{lines}")
    pytester.syspathinsert(pytester.path / "site")


GAME_TESTS = '''
import pytest
from sandbox.testing import assert_wound, forced_rolls


def test_make_world(make_world):
    world = make_world("duel", seed=3)
    assert set(world.names.values()) == {"Aldric", "Bertram"} and world.seed == 3


@pytest.mark.sandbox_world("duel", models="all")
def test_every_model(sandbox_world):
    before = sandbox_world.readout("Bertram")
    with forced_rolls(sandbox_world, location="Left Hand", strict=False):
        sandbox_world.strike("Bertram", "dragon.claw")
    assert sandbox_world.readout("Bertram") != before


@pytest.mark.sandbox_world(seed=5, model="status")
def test_an_empty_world(sandbox_world):
    assert sandbox_world.model == "status" and sandbox_world.seed == 5 and not sandbox_world.names
'''


def test_the_entry_point_brings_the_fixtures_with_no_conftest(pytester: pytest.Pytester) -> None:
    _install_entry_point(pytester)
    pytester.makepyfile(test_game=GAME_TESTS)
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=7)
    result.stdout.fnmatch_lines(["*test_every_model?anatomy? PASSED*", "*test_every_model?status? PASSED*"])
    off = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:sandbox.testing.plugin")
    off.stdout.fnmatch_lines(["*fixture 'make_world' not found*"])


def test_a_games_content_tree_from_the_ini_file(pytester: pytest.Pytester) -> None:
    from sandbox.init_tree import write_starter

    write_starter(pytester.path / "bestiary")
    pytester.makeini("[pytest]\nsandbox_content = bestiary\n")
    pytester.makepyfile(test_tree='''
import pytest

@pytest.mark.sandbox_world("kobold_ambush", seed=1)
def test_the_games_own_scenario(sandbox_world, sandbox_content):
    assert [p.name for p in sandbox_content] == ["bestiary"] and sandbox_content[0].is_absolute()
    assert any(c.identity.creature == "kobold" for c in sandbox_world.creatures().values())
''')
    result = pytester.runpytest("-p", "sandbox.testing.plugin", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_bad_mark_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_mark='''
import pytest

@pytest.mark.sandbox_world("duel", sede=3)
def test_typo(sandbox_world):
    pass
''')
    result = pytester.runpytest("-p", "sandbox.testing.plugin", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*sandbox_world takes a scenario and seed, model, models, content, run; not sede*"])
    assert result.ret != 0


def test_pytest_stays_optional() -> None:
    """Importing the package and the helpers imports no pytest; the extra names it, the core dependencies do not."""
    code = ("import sys\nimport sandbox, sandbox.world, sandbox.testing\n"
            "from sandbox.testing import forced_rolls, assert_event, assert_wound, WorldFactory\n"
            "assert not [m for m in sys.modules if m == 'pytest' or m.startswith('_pytest')], 'pytest imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.startswith("pytest")]
    assert any(d.startswith("pytest") for d in project["optional-dependencies"]["testing"])


def test_the_scripted_floats_read_as_the_value_on_every_die() -> None:
    """Each scripted float reads back as its value through the rules' own ``int(u * sides) + 1``."""
    from sandbox.testing.scripted_dice import ScriptedRolls

    for sides in (2, 3, 4, 6, 8, 10, 12, 20, 100):
        script = ScriptedRolls({sides: list(range(1, sides + 1))}, [], [])
        assert [int(script.die(sides, 0.999) * sides) + 1 for _ in range(sides)] == list(range(1, sides + 1))
        assert script.die(sides, 0.999) == 0.999  # nothing scripted left: the stream's own draw


@pytest.mark.parametrize("model", ["severity", "status"])
def test_a_forced_location_places_a_point_models_wound_there(model: str) -> None:
    from sandbox import Sandbox
    from sandbox.testing import forced_rolls

    with Sandbox(seed=3, model=model) as world:
        world.spawn("human", name="A", team="A", weapons=["battleaxe"])
        world.spawn("human", name="B", team="B", position=(1.0, 0.0))
        with forced_rolls(world, location=["Left Forearm"]) as script:
            world.strike("B", "battleaxe.cut")
        assert script.forced == [("location", "Left Forearm")]
        assert [wound.location for wound in world.readout("B").wounds] == ["Left Forearm"]
