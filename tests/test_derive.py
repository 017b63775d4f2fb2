"""Derived point-model entries (issue 12, point 3): a body, weapon, armour piece and creature written only for the
anatomy model work under all five models with no entry in ``models/<model>.toml``; the conversions live in each
file's ``[derive]`` table, are validated like everything else, land near the hand-set entries on the shipped gear,
and yield to an explicit entry."""

from __future__ import annotations

import importlib
import shutil
import statistics
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.config import ConfigError, config_root, default_catalog, load_catalog
from sandbox.models import available_models, load_model
from sandbox.models.derive import Formula, dice_with_mean, mean_of, round_half_up
from sandbox.systems.dice import parse_dice
from sandbox.world import Sandbox
from tests.configgen import to_toml

POINT_MODELS = ("severity", "depth", "strength", "status")
STARTER = Path(__file__).resolve().parents[1] / "sandbox" / "starter"
runner = CliRunner()


def starter_tree(tmp_path: Path) -> Path:
    """A copy of the starter content tree (the kobold, its body, spear and vest: no point-model entries)."""
    tree = tmp_path / "tree"
    shutil.copytree(STARTER, tree)
    return tree


# ------------------------------------------------------------------------------------------- the conversions


def test_round_half_up_and_bounds() -> None:
    assert [round_half_up(v) for v in (2.5, 3.5, -2.5, -0.4, 0.49)] == [3, 4, -2, 0, 0]
    formula = Formula(base=1.5, min=2.0, max=4.0)
    assert formula.value({}) == 2  # 1.5 rounds to 2, within [2, 4]
    assert Formula(base=9.0, max=4.0).value({}) == 4
    assert Formula(base=-3.0, min=-1.0).value({}) == -1


def test_derived_dice_keep_the_impact_shape_at_the_asked_mean() -> None:
    assert dice_with_mean(parse_dice("1d10+3"), 10.4) == "1d10+5"  # 5.5 + 4.9 -> +5
    assert dice_with_mean(parse_dice("2d6"), 3.0) == "2d6-4"
    assert dice_with_mean(parse_dice("7"), 9.2) == "9"  # a flat value stays flat
    assert mean_of(parse_dice(dice_with_mean(parse_dice("3d8+1"), 20.0))) == pytest.approx(20.5)


# ------------------------------------------------------------------------------- calibration on shipped gear


@pytest.fixture(scope="module")
def derived_for_shipped(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], Any]]:
    """Each point model's derived entries for every shipped creature, strike mode and armour piece (its file's
    entries removed, its ``[derive]`` table kept), beside its hand-set entries."""
    root = tmp_path_factory.mktemp("derived") / "configs"
    shutil.copytree(config_root(), root, ignore=shutil.ignore_patterns("__pycache__"))
    out = {}
    for name in POINT_MODELS:
        shipped = tomllib.loads((config_root() / "models" / f"{name}.toml").read_text(encoding="utf-8"))
        bare = {**shipped, "weapons": {}, "armor": {}, "creatures": {}}
        (root / "models" / f"{name}.toml").write_text(to_toml(bare, f"{name}_model"), encoding="utf-8")
        schema = importlib.import_module(f"sandbox.systems.models.{name}.tables").SCHEMA
        hand = schema.model_validate(shipped).model_dump()
        out[name] = (hand, load_model(name, default_catalog(), root).derived)
    return out


def _hand_value(model: str, hand: dict[str, Any], table: str, key: str, field: str) -> Any:
    """A hand-set value; a depth creature's Defense left to the sheet is the sheet's (10 + Dexterity modifier)."""
    value = hand[table][key][field]
    if model == "depth" and table == "creatures" and field == "defense" and value is None:
        dexterity = default_catalog().creatures[key].attributes.get("dexterity", 10)
        return hand["defense"]["base"] + (dexterity - hand["attack"]["ability_base"]) // hand["attack"]["ability_step"]
    return value


def _error(derived: Any, hand: Any, field: str) -> float:
    """How far a derived value is from the hand-set one: points of mean for dice, the mean difference over a
    table's numbers, 0 or 1 for a category."""
    if field == "damage":
        return abs(mean_of(parse_dice(derived)) - mean_of(parse_dice(hand)))
    if isinstance(derived, dict):
        return statistics.mean(abs(derived[k] - hand[k]) for k in derived)
    if isinstance(derived, bool | str) or derived is None or hand is None:
        return float(derived != hand)
    return float(abs(derived - hand))


@pytest.mark.parametrize("model", POINT_MODELS)
def test_derived_entries_land_near_the_hand_set_ones(derived_for_shipped: dict[str, Any], model: str) -> None:
    """For every field of every table, over the shipped gear: a number's mean error is at most 1 point or a third
    of the spread of its hand-set values, whichever is more; a category agrees at least three times in four; dice
    are within 1.5 points of mean on average. (A depth creature with no Defense of its own has the sheet's.)"""
    hand, derived = derived_for_shipped[model]
    assert {t: set(e) for t, e in derived.items()} == {
        "weapons": set(default_catalog().modes), "armor": set(default_catalog().armor),
        "creatures": set(default_catalog().creatures)}  # everything derived: nothing was left in the file
    report = []
    for table, entries in derived.items():
        fields = {f for values in entries.values() for f in values} - {"note"}
        for field in sorted(fields):
            pairs = [(values[field], _hand_value(model, hand, table, key, field)) for key, values in entries.items()]
            errors = [_error(d, h, field) for d, h in pairs]
            mean = statistics.mean(errors)
            numbers = [h for _, h in pairs if isinstance(h, int | float) and not isinstance(h, bool)]
            if field == "damage":
                bound = 1.5
            elif numbers and len(numbers) == len(pairs):
                bound = max(1.0, (max(numbers) - min(numbers)) / 3)
            elif isinstance(pairs[0][0], dict):
                bound = 1.0
            else:
                bound = 0.25
            report.append(f"{model} {table}.{field}: mean error {mean:.2f} (at most {bound:.2f})")
            assert mean <= bound, "\n".join(report)
    print("\n".join(report))  # pytest -s shows how near each field lands


def test_the_hand_set_entries_are_kept_and_win(derived_for_shipped: dict[str, Any]) -> None:
    """The shipped files keep an entry for everything they ship, so nothing shipped is derived."""
    catalog = default_catalog()
    for name in POINT_MODELS:
        assert load_model(name, catalog).derived == {}, name
    severity = load_model("severity", catalog).model
    assert str(severity.rules.weapons["broadsword.cut"].damage) == "2d4+3"  # hand-set, not the derived 1d10+3
    assert severity.rules.armor == {"gambeson": 1, "leather": 1, "mail_hauberk": 2, "plate_cuirass": 3,
                                    "full_harness": 4, "helm": 1}


# ------------------------------------------------------------------------------- a new creature in one file


def test_a_new_creature_fights_under_every_model_with_no_entries(tmp_path: Path) -> None:
    tree = starter_tree(tmp_path)
    assert not (tree / "models").exists()
    catalog = load_catalog(content=[tree])
    for model in available_models():
        loaded = load_model(model, catalog)
        if model in POINT_MODELS:
            assert set(loaded.derived) == {"weapons", "armor", "creatures"}, model
            assert set(loaded.derived["weapons"]) == {"kobold_spear.impale", "kobold_spear.shaft"}
            assert set(loaded.derived["creatures"]) == {"kobold"} and set(loaded.derived["armor"]) == {
                "kobold_scale_vest"}
        world = Sandbox.from_scenario(tree / "scenarios" / "kobold_ambush.toml", seed=1, model=model,
                                      check_invariants=True)
        try:
            outcome = world.run()
            assert outcome.reason in ("one team left", "no team left", "tick limit"), (model, outcome)
            assert world.events, model
        finally:
            world.close()


def test_an_explicit_entry_replaces_the_derived_one_whole(tmp_path: Path) -> None:
    tree = starter_tree(tmp_path)
    (tree / "models").mkdir()
    (tree / "models" / "depth.toml").write_text(
        '[weapons."kobold_spear.impale"]\ntype = "cutting"\ndepth_bonus = 5\n', encoding="utf-8")
    catalog = load_catalog(content=[tree])
    loaded = load_model("depth", catalog)
    assert "kobold_spear.impale" not in loaded.derived["weapons"]
    assert "kobold_spear.shaft" in loaded.derived["weapons"]
    tables = loaded.model.tables  # type: ignore[attr-defined]
    assert (tables.weapons["kobold_spear.impale"].family, tables.weapons["kobold_spear.impale"].depth_bonus) == (
        "cutting", 5)


def test_a_tree_tunes_a_conversion_key_by_key(tmp_path: Path) -> None:
    tree = starter_tree(tmp_path)
    (tree / "models").mkdir()
    before = load_model("status", load_catalog(content=[tree])).derived["creatures"]["kobold"]
    (tree / "models" / "status.toml").write_text("[derive.creatures.endurance]\nbase = 10.0\n", encoding="utf-8")
    after = load_model("status", load_catalog(content=[tree])).derived["creatures"]["kobold"]
    assert after["endurance"] == before["endurance"] + 14  # base -4 -> 10; the scale coefficient is kept
    assert {k: v for k, v in after.items() if k != "endurance"} == {
        k: v for k, v in before.items() if k != "endurance"}


def test_validate_explain_lists_what_each_model_derived(tmp_path: Path) -> None:
    tree = starter_tree(tmp_path)
    result = runner.invoke(app, ["validate", str(tree), "--explain"])
    assert result.exit_code == 0, result.output
    out = result.output
    for name in POINT_MODELS:
        assert f"{name}: 4 entries derived by models/{name}.toml [derive]" in out
    assert '[weapons."kobold_spear.impale"]' in out and "[creatures.kobold]" in out
    assert 'damage = "1d8+1", anti_armor = "halve", indirect = false' in out  # severity's, as TOML
    shipped_only = runner.invoke(app, ["validate", "--explain"])
    assert shipped_only.exit_code == 0 and "severity: nothing derived" in shipped_only.output


# ------------------------------------------------------------------------------- the [derive] tables are data


def _tree_with(tmp_path: Path, rel: str, text: str) -> Path:
    tree = starter_tree(tmp_path)
    path = tree / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return tree


def test_a_misspelt_coefficient_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    tree = _tree_with(tmp_path, "models/severity.toml", "[derive.weapons.damage]\nimpct = 0.9\n")
    with pytest.raises(ConfigError) as info:
        load_model("severity", load_catalog(content=[tree]))
    (problem,) = info.value.problems
    assert problem.file == "tree/models/severity.toml" or problem.file.endswith("tree/models/severity.toml")
    assert problem.key == "derive.weapons.damage.impct" and problem.suggestion == "impact"
    assert "expected no such key" in str(problem) and "did you mean 'impact'?" in str(problem)


def test_a_conversion_that_gives_a_bad_entry_names_its_derive_key(tmp_path: Path) -> None:
    tree = _tree_with(tmp_path, "models/depth.toml", "[derive.weapons.depth_bonus]\nbase = 40.0\nmax = 50.0\n")
    with pytest.raises(ConfigError) as info:
        load_model("depth", load_catalog(content=[tree]))
    keys = {(p.key, p.entry) for p in info.value.problems}
    assert ("derive.weapons.depth_bonus", "kobold_spear.impale") in keys
    assert all("tree/models/depth.toml" in p.file for p in info.value.problems)
    assert all(p.expected == "a derivation giving a valid entry, less than or equal to 20" and p.found == "43"
               for p in info.value.problems if p.entry == "kobold_spear.impale")


def test_a_derive_table_names_a_skill_that_exists(tmp_path: Path) -> None:
    tree = _tree_with(tmp_path, "models/severity.toml", '[derive.creatures.first_aid]\nskill = "medicine"\n')
    with pytest.raises(ConfigError, match=r"derive\.creatures\.first_aid\.skill: expected a skill in skills\.toml"):
        load_model("severity", load_catalog(content=[tree]))


@pytest.mark.parametrize("model", POINT_MODELS)
def test_one_keying_and_one_wording_for_a_bad_entry(tmp_path: Path, model: str) -> None:
    """Every point model keys strike modes ``[weapons."weapon.mode"]`` and reports an entry naming nothing the
    content defines in the same words, with the closest id."""
    entry = {"severity": 'damage = "1d4"', "depth": 'type = "blunt"', "strength": "die = 4",
             "status": 'damage = "1d4"'}[model]
    tree = _tree_with(tmp_path, f"models/{model}.toml", f'[weapons."kobold_spear.shafts"]\n{entry}\n')
    with pytest.raises(ConfigError) as info:
        load_model(model, load_catalog(content=[tree]))
    (problem,) = info.value.problems
    assert str(problem) == (f"{problem.file}: weapons.\"kobold_spear.shafts\" (\"kobold_spear.shafts\"): expected a "
                            "strike mode the content defines, found 'kobold_spear.shafts'; did you mean "
                            "'kobold_spear.shaft'?")
    assert problem.file.endswith(f"tree/models/{model}.toml")


def test_severity_no_longer_keys_weapons_by_weapon_then_mode(tmp_path: Path) -> None:
    tree = _tree_with(tmp_path, "models/severity.toml", '[weapons.kobold_spear]\nimpale = { damage = "1d6" }\n')
    with pytest.raises(ConfigError) as info:
        load_model("severity", load_catalog(content=[tree]))
    keys = {p.key for p in info.value.problems}
    assert 'weapons.kobold_spear.impale' in keys  # an unknown key of a weapon entry, as the file spells it
