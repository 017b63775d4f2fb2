"""Config loading and validation: every shipped file validates; every broken file gives its clear error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sandbox.config import ConfigError, config_root, default_catalog, load_body, load_catalog
from sandbox.config.loader import kind_of
from sandbox.schemas import schema_documents

BROKEN = Path(__file__).parent / "data" / "broken"
ROOT = config_root()


def problems_of(path: Path) -> list[str]:
    """The problem lines a broken file produces when validated against the shipped configs."""
    with pytest.raises(ConfigError) as info:
        load_catalog(ROOT, [path])
    return [str(p) for p in info.value.problems]


def test_every_shipped_config_validates() -> None:
    catalog = load_catalog(ROOT)
    assert set(catalog.bodies) >= {"human", "wolf", "constrictor_snake", "fire_dragon", "eagle", "spirit"}
    assert set(catalog.armor) >= {"gambeson", "leather", "mail_hauberk", "plate_cuirass", "helm", "full_harness"}
    for mode in ("unarmed.punch", "unarmed.kick", "dagger.impale", "broadsword.cut", "broadsword.impale",
                 "broadsword.pommel", "battleaxe.cut", "mace.crush", "spear.impale", "club.crush",
                 "longbow.point_blank", "longbow.direct"):
        assert mode in catalog.modes
    assert set(catalog.creatures) >= set(catalog.bodies)  # one creature per shipped body


def test_every_shipped_toml_carries_its_schema_line() -> None:
    for path in ROOT.rglob("*.toml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = kind_of(path)
        assert kind is not None, path
        assert first.startswith("#:schema ") and first.endswith(f"{kind}.schema.json"), path
        target = (path.parent / first.split()[1]).resolve()
        assert target.exists(), f"{path}: {target} does not exist"


def test_committed_schemas_are_current() -> None:
    for name, text in schema_documents().items():
        committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
        assert committed == text, f"configs/schemas/{name} is stale: run `sandbox schema`"
        assert json.loads(text)["additionalProperties"] is False


def test_human_body_matches_the_tables() -> None:
    human = default_catalog().bodies["human"]
    assert [(z.name, z.weight, z.first, z.last) for z in human.zones] == [
        ("Head", 1, 1, 1), ("Arms", 4, 2, 5), ("Torso", 4, 6, 9), ("Legs", 6, 10, 15)]
    assert len(human.parts) == 6 and len(human.locations) == 32
    skull = human.locations[human.location_index("Skull")]
    assert (skull.weight, skull.shock_value, skull.bleeding, skull.amputability) == (500, 5, "low", "none")
    neck = human.locations[human.location_index("Neck")]
    assert (neck.weight, neck.shock_value, neck.bleeding, neck.amputability) == (200, 5, "high", "low")
    hand = human.locations[human.location_index("Left Hand")]
    assert (hand.weight, hand.shock_value, hand.bleeding, hand.amputability, hand.fumble) == (
        10, 2, "none", "high", True)
    calf = human.locations[human.location_index("Right Calf")]
    assert (calf.shock_value, calf.stumble, calf.fumble) == (1, True, False)
    arm = human.parts[human.part_index("Left Arm")]
    assert arm.roles == {"manipulator"} and arm.can_hold and arm.side == "left" and not arm.critical
    assert human.parts[human.part_index("Torso")].critical
    assert all(loc.protection == (0, 0, 0, 0) for loc in human.locations)


def test_other_bodies() -> None:
    cat = default_catalog()
    wolf = cat.bodies["wolf"]
    assert wolf.max_zone_number == 6 and wolf.scale == 0.94
    tail = wolf.parts[wolf.part_index("Tail")]
    assert tail.roles == frozenset() and not tail.critical
    assert wolf.locations[wolf.location_index("Thorax")].protection == (3, 2, 1, 3)
    snake = cat.bodies["constrictor_snake"]
    assert not any(loc.stumble for loc in snake.locations)  # a serpent has no legs to stumble on
    dragon = cat.bodies["fire_dragon"]
    assert dragon.scale == 2.61 and dragon.max_zone_number == 50
    assert {p.name for p in dragon.parts} >= {"Left Wing", "Right Wing", "Tail"}
    assert dragon.locations[dragon.location_index("Left Wing")].protection == (16, 18, 17, 15)
    eagle = cat.bodies["eagle"]
    assert "locomotor" in eagle.parts[eagle.part_index("Left Wing")].roles
    spirit = cat.bodies["spirit"]
    assert spirit.incorporeal and spirit.max_zone_number == 0


def test_armor_coverage() -> None:
    cat = default_catalog()
    assert cat.armor["mail_hauberk"].covers == {"thorax", "abdomen"}
    assert cat.armor["mail_hauberk"].rigid and not cat.armor["gambeson"].rigid and not cat.armor["leather"].rigid
    assert cat.armor["helm"].covers == {"skull"}


@pytest.mark.parametrize(("name", "expected"), [
    ("bodies_negative_zone.toml", ['zones#1.weight ("Head"): expected greater than or equal to 0, found -1']),
    ("bodies_undefined_zone.toml", ['parts#1.zone ("Head"): expected a defined zone (\'Head\'), found \'Heed\'']),
    ("bodies_zero_location_weight.toml",
     ['parts#1.locations#1.weight ("Skull"): expected greater than 0, found 0']),
    ("bodies_bad_role_and_tier.toml", [
        'parts#1.roles#1 ("Head"): expected \'vital\', \'core\', \'manipulator\' or \'locomotor\', found \'brain\'',
        'parts#1.locations#1.bleeding ("Skull"): expected \'none\', \'low\', \'medium\' or \'high\', found \'lots\'']),
    ("bodies_thresholds_falling.toml",
     ["thresholds (\"Broken\"): expected five positive thresholds rising strictly, found [1.0, 5.0, 4.0, 15.0, 20.0]"]),
    ("bodies_unknown_key.toml", ["colour (\"Broken\"): expected no such key (unknown keys are rejected), found 'red'"]),
    ("bodies_syntax.toml", ["line 2, column 15: expected valid TOML 1.0, found a syntax error"]),
    ("bodies_wrong_type.toml", ['zones#1.weight ("Head"): expected a valid integer, found \'1\'']),
    ("bodies_duplicate_location.toml", ["expected unique location names, found 'Skull' twice"]),
    ("bodies_scale_too_big.toml", ["scale (\"Broken\"): expected a body scale from 0.01 to 3.0, found 5.0"]),
    ("bodies_protection_out_of_bounds.toml", [
        'natural_protection.blunt ("Broken"): expected greater than or equal to -10, found -11',
        'parts#1.locations#1.protection.edged ("Skull"): expected greater than or equal to 0, found -1']),
    ("weapons_bad_mode.toml", [
        'modes#1.aspect ("Broken Cut"): expected \'blunt\', \'edged\', \'piercing\' or \'fire\', found \'slashing\'',
        'modes#1.spread ("Broken Cut"): expected greater than or equal to 1, found 0',
        'modes#1.impact ("Broken Cut"): expected a dice expression NdX+M (1d10+3) or a flat value, found \'1d\'',
        'modes#1.skill ("Broken Cut"): expected a skill defined in skills.toml, found \'swordplay\'']),
    ("armor_bad_covers.toml", [
        'protection.fire ("Broken Mail"): expected greater than or equal to 0, found -1',
        'covers#2 ("Broken Mail"): expected a location of the \'human\' body, found \'Tail\'']),
    ("creatures_bad_refs.toml", [
        'weapons#1 ("Broken Wolf"): expected a weapon in weapons/, found \'laser\'',
        'armor#1 ("Broken Wolf"): expected armour made for the \'wolf\' body, found \'mail_hauberk\' (made for',
        'skills.swordplay ("Broken Wolf"): expected a skill or attribute defined in skills.toml']),
])
def test_broken_configs_give_clear_errors(name: str, expected: list[str]) -> None:
    problems = problems_of(BROKEN / name)
    label = str(BROKEN / name)
    for line in expected:
        matches = [p for p in problems if line in p]
        assert matches, f"{line!r} not in {problems}"
        assert all(p.startswith(f"{label}: ") for p in matches)
    assert len(problems) >= len(expected)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    bad = tmp_path / "bodies" / "human.toml"
    bad.parent.mkdir()
    text = (ROOT / "bodies" / "human.toml").read_text(encoding="utf-8")
    text = text.replace('zone = "Torso"', 'zone = "Trunk"').replace("weight = 500", "weight = -500")
    text = text.replace('bleeding = "high"', 'bleeding = "gushing"', 1)
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_catalog(ROOT, [bad])
    lines = str(info.value).splitlines()
    assert lines[0] == "3 problems in config files:"
    assert any('("Skull"): expected greater than 0, found -500' in line for line in lines)
    assert any('("Neck"): expected \'none\', \'low\', \'medium\' or \'high\', found \'gushing\'' in line
               for line in lines)
    assert any('parts#4.zone ("Torso"): expected a defined zone' in line and "found 'Trunk'" in line
               for line in lines)


def test_a_failed_load_leaves_nothing_half_loaded(tmp_path: Path) -> None:
    before = default_catalog()
    shutil.copytree(ROOT, tmp_path / "configs")
    rules = tmp_path / "configs" / "models" / "anatomy.toml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "thresholds = [1.0, 5.0, 10.0, 15.0, 20.0]", "thresholds = [1.0, 5.0, 10.0, 9.0, 20.0]"), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_catalog(tmp_path / "configs")
    assert "injury.thresholds: expected positive thresholds rising strictly" in str(info.value)
    assert default_catalog() is before
    assert default_catalog().rules.thresholds == (1.0, 5.0, 10.0, 15.0, 20.0)


def test_cross_file_reference_to_a_removed_body(tmp_path: Path) -> None:
    shutil.copytree(ROOT, tmp_path / "configs")
    (tmp_path / "configs" / "bodies" / "wolf.toml").unlink()
    with pytest.raises(ConfigError) as info:
        load_catalog(tmp_path / "configs")
    assert "creatures/wolf.toml: body (\"Gray Wolf\"): expected a body in bodies/" in str(info.value)


def test_load_body_by_name_and_path() -> None:
    assert load_body("human") is default_catalog().bodies["human"]
    from_path = load_body(ROOT / "bodies" / "wolf.toml")
    assert from_path == default_catalog().bodies["wolf"]
    with pytest.raises(ConfigError, match="expected a body in bodies/"):
        load_body("dragon")
    with pytest.raises(ConfigError, match="no such file"):
        load_body("missing.toml")
    with pytest.raises(ConfigError, match="expected a defined zone"):
        load_body(BROKEN / "bodies_undefined_zone.toml")


def test_file_of_unknown_kind(tmp_path: Path) -> None:
    odd = tmp_path / "odd.toml"
    odd.write_text('name = "x"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="a file of unknown kind"):
        load_catalog(ROOT, [odd])
