"""The embedding surface (issue 13): ``from sandbox import ...``, names in every public signature, ``strike``,
wounds in a ``Readout``, typed component access, one documented exception for a bad name, and anatomy as one
model among five (no other model's creature carries its state; no shared code names it)."""

from __future__ import annotations

import ast
import inspect
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sandbox
from sandbox import Sandbox, SandboxError
from sandbox.components.events import AttackDeclared, AttackRolled, BlowLanded, Event, Injured
from sandbox.components.log import AttackEntry
from sandbox.components.models.anatomy import Injury, Shock
from sandbox.components.state import Condition, Position
from sandbox.config import default_catalog
from sandbox.systems.creatures import Creature
from sandbox.systems.models.anatomy.blow import blow_reading, compile_target, land_blow
from tests.sources import source_files

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("anatomy", "severity", "depth", "strength", "status")


def duel(model: str = "anatomy", seed: int = 3) -> Sandbox:
    return Sandbox.from_scenario("duel", seed=seed, model=model)


def state_of(world: Sandbox) -> tuple[int, list[object], list[object]]:
    """What a failed call must leave untouched: the log length, every stream's state, every creature's record."""
    streams = [rng.getstate() for rng in world.ctx.streams.values()]  # type: ignore[attr-defined]
    return len(world.log), streams, [repr(c) for c in world.creatures().values()]


# ---------------------------------------------------------------------------------------------- the surface


def test_the_surface_imports_from_the_package_with_docstrings_and_types() -> None:
    names = ["Sandbox", "Outcome", "Readout", "SandboxError", "SaveError", "ConfigError", "load_body",
             "load_catalog"]
    assert set(names) <= set(sandbox.__all__)
    for name in names:
        obj = getattr(sandbox, name)
        assert inspect.getdoc(obj), name
    for name in ("spawn", "step", "run", "advance", "strike", "inflict", "readout", "get", "save", "load"):
        method = getattr(Sandbox, name)
        assert inspect.getdoc(method), name
        hints = inspect.signature(method)
        assert hints.return_annotation is not inspect.Signature.empty, name


def test_importing_the_package_loads_no_world_and_no_pygame() -> None:
    code = ("import sys, sandbox; assert 'sandbox.world' not in sys.modules and 'pygame' not in sys.modules; "
            "from sandbox import Sandbox; assert 'pygame' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_importing_systems_models_registers_the_five_models_without_a_folder_scan() -> None:
    code = "import sandbox.systems.models as m; print(','.join(m.model_names()))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    assert out.strip().split(",") == list(MODELS)


# ---------------------------------------------------------------------------------------------- reading


def test_a_readout_carries_the_wounds_in_names() -> None:
    with duel() as world:
        world.inflict("Bertram", location="Left Forearm", level="S3", aspect="edged")
        world.get("Bertram", Injury).wounds[0].bleeder = True
        world.get("Bertram", Injury).wounds[0].infection_hr = 3
        reading = world.readout("Bertram")
        (wound,) = reading.wounds
        assert (wound.location, wound.part, wound.level, wound.aspect) == ("Left Forearm", "Left Arm", "S3", "edged")
        assert wound.bleeding and wound.healing_rate is None and not wound.treated and wound.infection == 3
        assert "serious wound" in wound.text and "bleeding" in wound.text
        arm = next(p for p in reading.parts if p.name == "Left Arm")
        assert arm.penalty == -10 and not arm.unusable
    with Sandbox(seed=1) as ward:
        ward.spawn("human", name="Pat", team="A")
        ward.spawn("human", name="Medic", team="A", skills={"physician": 70})
        ward.inflict("Pat", location="Left Forearm", level="S2", aspect="blunt")
        ward.advance(hours=1)  # first aid treats it
        (treated,) = ward.readout("Pat").wounds
        assert treated.treated and treated.healing_rate is not None and f"HR {treated.healing_rate}" in treated.text


def test_components_are_read_by_type_not_by_string() -> None:
    with duel() as world:
        assert world.get("Aldric", Position) == world.creatures()[world.entity("Aldric")].position
        assert isinstance(world.get(world.entity("Aldric"), Injury), Injury)
        assert all(isinstance(c, Creature) for c in world.creatures().values())
        with pytest.raises(SandboxError, match="no Shock"):
            Sandbox.from_scenario("duel", model="severity").get("Aldric", Shock)


@pytest.mark.parametrize("model", [m for m in MODELS if m != "anatomy"])
def test_a_creature_under_another_model_carries_none_of_the_anatomy_models_state(model: str) -> None:
    with duel(model) as world:
        world.run(max_ticks=10)
        for entity in world.names:
            with world.active():
                import esper

                kinds = {type(c) for c in esper.components_for_entity(entity)}
            assert Injury not in kinds and Shock not in kinds


# ---------------------------------------------------------------------------------------------- strike


def test_a_battleaxe_cut_at_bertrams_head_lands_by_the_zone_die() -> None:
    """No attacker: the blow lands (no attack roll): aimed at the Head (zone number 1, Spread of the cut), it
    lands in zone numbers 1..Spread, and its consequences apply (an Injured event, a wound when it did one)."""
    cut = default_catalog().modes["battleaxe.cut"]
    landed = 0
    for seed in range(30):
        with duel(seed=seed) as world:
            events = world.strike("Bertram", mode="battleaxe.cut", aim="Head")
            assert isinstance(events[0], AttackDeclared) and events[0].aim == "Head" and events[0].attacker == -1
            assert not any(isinstance(e, AttackRolled) for e in events)  # no attack roll without an attacker
            blows = [e for e in events if isinstance(e, BlowLanded)]
            if blows:
                landed += 1
                assert 1 <= blows[0].zone_number <= cut.spread
                injured = next(e for e in events if isinstance(e, Injured))
                wounds = world.readout("Bertram").wounds
                assert (injured.level > 0) == any(w.location == injured.location for w in wounds)
    assert landed >= 25  # the Head's zone die misses the body only when it rolls off the human's zones


def test_a_strike_with_an_attacker_is_its_attack_as_the_fight_makes_it() -> None:
    with duel() as world:
        world.get("Aldric", Position).x = 12.5  # within the broadsword's reach of Bertram
        events = world.strike("Bertram", mode="broadsword.cut", attacker="Aldric", aim="Torso")
        rolled = [e for e in events if isinstance(e, AttackRolled)]
        assert len(rolled) == 1 and rolled[0].attacker == world.entity("Aldric")
        assert rolled[0].attack_ml is not None


@pytest.mark.parametrize("model", MODELS)
def test_strike_works_under_every_model_and_a_saved_world_continues_identically(model: str, tmp_path: Path
                                                                                ) -> None:
    with duel(model) as world:
        world.get("Aldric", Position).x = 12.5  # within the broadsword's reach of Bertram
        world.strike("Bertram", mode="battleaxe.cut", aim="Head")
        world.save(tmp_path / "w.json")
        after = [e.to_dict() for e in world.strike("Bertram", mode="broadsword.cut", attacker="Aldric")]
        after += [e.to_dict() for e in world.step()]
        with Sandbox.load(tmp_path / "w.json") as loaded:
            again = [e.to_dict() for e in loaded.strike("Bertram", mode="broadsword.cut", attacker="Aldric")]
            again += [e.to_dict() for e in loaded.step()]
        assert after == again and after


# ---------------------------------------------------------------------------------------------- bad names


@pytest.mark.parametrize(("call", "words"), [
    (lambda w: w.strike("Bertram", mode="broadsword.slice"), "unknown strike mode 'broadsword.slice'"),
    (lambda w: w.strike("Bertram", mode="broadsword.cut", aim="Tail"), "no part or location 'Tail'"),
    (lambda w: w.strike("Nobody", mode="broadsword.cut"), "no creature called 'Nobody'"),
    (lambda w: w.strike("Bertram", mode="broadsword.cut", attacker="Ghost"), "no creature called 'Ghost'"),
    (lambda w: w.inflict("Bertram", location="Tail", level="S2"), "no location 'Tail'"),
    (lambda w: w.inflict("Bertram", location="Neck", level="X9"), "unknown injury level 'X9'"),
    (lambda w: w.inflict("Bertram", location="Neck", level="S2", aspect="sonic"), "unknown aspect 'sonic'"),
    (lambda w: w.readout(999), "no creature with entity 999"),
    (lambda w: w.readout(Sandbox(seed=1).spawn("human", name="Elsewhere")), "belongs to another world"),
    (lambda w: w.immobilize("Aldric", "Tail"), "has no part 'Tail'"),
    (lambda w: w.spawn("human", name="New", aim="Nek"), "aim 'Nek' names no part or location"),
    (lambda w: w.spawn("hydra", name="New"), "unknown creature 'hydra'"),
    (lambda w: w.spawn("human", name="New", policy="bravest"), "unknown target policy 'bravest'"),
    (lambda w: w.advance(days=-1), "time only moves forward"),
])
def test_a_name_that_does_not_exist_raises_sandbox_error_naming_it_and_changes_nothing(call: object,
                                                                                        words: str) -> None:
    with duel() as world:
        world.step()
        before = state_of(world)
        with pytest.raises(SandboxError, match=re.escape(words)):
            call(world)  # type: ignore[operator]
        assert state_of(world) == before


def test_the_errors_name_the_valid_ones() -> None:
    with duel() as world:
        with pytest.raises(SandboxError, match=r"known: .*broadsword\.cut"):
            world.strike("Bertram", mode="sword.cut")
        with pytest.raises(SandboxError, match="its parts: Head, Right Arm"):
            world.strike("Bertram", mode="broadsword.cut", aim="Tail")
        with pytest.raises(SandboxError, match="known: Aldric, Bertram"):
            world.readout("Nobody")


# ---------------------------------------------------------------------------------------------- the tick's seam


def test_able_teams_reads_the_world_as_it_is_after_a_hand_edit() -> None:
    """Regression: the STATUS phase's count of the fighting teams was cached in the tick's scratch and never
    cleared, so after ``step()``, a creature killed by hand and ``refresh()``, ``able_teams()`` still gave both
    teams and ``run()`` played one extra tick."""
    with duel() as world:
        world.step()
        assert world.able_teams() == ["Blue", "Red"]
        world.get("Bertram", Condition).dead = True
        world.refresh("Bertram")
        assert world.able_teams() == ["Red"]
        tick = world.tick
        outcome = world.run()
        assert outcome.ticks == tick and outcome.winner == "Red"


# ---------------------------------------------------------------------------------------------- explanations


@pytest.mark.parametrize("model", MODELS)
def test_every_attack_explains_itself_in_words_one_attack_at_a_time(model: str) -> None:
    with Sandbox.from_scenario("skirmish", seed=2, model=model) as world:
        world.run(max_ticks=40)
        names = world.names
        attacks = [e for e in world.log if e.headline]
        assert attacks and all(isinstance(a, AttackEntry) for a in attacks)
        for attack in attacks:
            lines = attack.explain(names)
            assert lines and lines[0].startswith(f"Tick {attack.tick}: ")
            text = "\n".join(lines)
            for event_type in ("D20AttackRolled", "AttackDeclared", "DamageDealt", "BlowLanded", "Injured"):
                assert event_type not in text  # words, not an event dump
            assert text.count("Tick ") == 1  # one attack, never two mixed
            summary = attack.summary(names)
            assert summary is None or (names[attack.target] in summary)


# ---------------------------------------------------------------------------------------------- pure rules by name


def test_the_pure_blow_takes_names() -> None:
    catalog = default_catalog()
    human = catalog.bodies["human"]
    target = compile_target(human, catalog.rules, [catalog.armor["mail_hauberk"]], shock_ml=50, strength_ml=50,
                            fumble_ml=50, stumble_ml=50)
    blow = land_blow(target, impact=13, aspect="edged", rng=random.Random(7), aim="Head", spread=6)
    reading = blow_reading(blow, human)
    assert reading["aspect"] == "edged" and reading["location"] in {loc.name for loc in human.locations} | {None}
    with pytest.raises(ValueError, match="unknown aspect 'sonic'"):
        land_blow(target, impact=13, aspect="sonic", rng=random.Random(7))
    with pytest.raises(ValueError, match="no part or location 'Tail'"):
        land_blow(target, impact=13, aspect="edged", rng=random.Random(7), aim="Tail")


# ---------------------------------------------------------------------------------------------- one model among five


ALLOWED_FOLDERS = ("systems/models/anatomy/",)  # the anatomy model's own package, its array half included
ALLOWED = {# The catalog reads models/anatomy.toml as the anatomy rules: the anatomy model's table loader.
           "sandbox/config/loader.py", "sandbox/config/layout.py"}


def test_no_shared_code_names_the_anatomy_model_or_tests_for_a_missing_model() -> None:
    """Outside the anatomy model's own modules (and its table loader), no code branches on a model's name being
    ``"anatomy"``, imports the anatomy model (its name as the default model aside), or falls back when
    ``ctx.model`` is None."""
    found = []
    for path in source_files():
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED or rel.startswith(ALLOWED_FOLDERS):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare):
                    text = ast.unparse(node)
                    operands = [node.left, *node.comparators]
                    if any(isinstance(o, ast.Constant) and o.value == "anatomy" for o in operands):
                        found.append(f"{rel}:{node.lineno}: {text}")
                    if any(isinstance(op, ast.Is | ast.IsNot) for op in node.ops) and ".model is" in text:
                        found.append(f"{rel}:{node.lineno}: {text}")
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                        and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "anatomy"):
                    found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
                module = node.module if isinstance(node, ast.ImportFrom) else None
                if module and module.startswith("sandbox.systems.models.anatomy.model"):
                    names = {a.name for a in node.names}  # type: ignore[attr-defined]
                    if names - {"DEFAULT_MODEL"}:
                        found.append(f"{rel}:{node.lineno}: imports {sorted(names)} from {module}")
    assert found == []


def test_events_are_log_entries() -> None:
    from sandbox.components.log import LogEntry

    with duel() as world:
        world.run()
        assert all(isinstance(e, LogEntry) for e in world.log)
        assert all(isinstance(e, Event) for e in world.events)
