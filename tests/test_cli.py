"""The ``sandbox`` command line: body, blows, validate, schema; bad input exits 2 with no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.models import loaders

runner = CliRunner()
BROKEN = Path(__file__).parent / "data" / "broken"
JSONL_KEYS = {"missed", "zone", "part", "location", "impact", "aspect", "protection", "effective_impact", "level",
              "level_code", "glancing", "bleeder", "amputation", "shock_index", "shock_test", "shock_state",
              "fumble", "stumble", "dead"}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def jsonl(*args: str) -> list[dict[str, object]]:
    code, out, err = run("blows", "--format", "jsonl", *args)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_body_json_has_the_documented_keys_and_odds() -> None:
    code, out, _ = run("body", "human", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["name"] == "Human" and doc["scale"] == 1.0 and doc["max_zone_number"] == 15
    assert doc["zones"][1] == {"name": "Arms", "weight": 4, "first": 2, "last": 5}
    assert set(doc["parts"][0]) == {"name", "zone", "weight", "roles", "can_hold", "critical"}
    assert set(doc["locations"][0]) == {"name", "part", "weight", "shock_value", "bleeding", "amputability",
                                        "fumble", "stumble", "hit_probability"}
    probs = {loc["name"]: loc["hit_probability"] for loc in doc["locations"]}
    assert probs["Skull"] == pytest.approx(1 / 15 * 0.5)
    assert probs["Right Forearm"] == pytest.approx(4 / 15 * 0.5 * 0.2)
    assert sum(probs.values()) == pytest.approx(1.0)


def test_body_table_and_incorporeal_spirit() -> None:
    code, out, _ = run("body", "wolf")
    assert code == 0 and "Gray Wolf" in out and "Forequarters" in out and "unaimed hit %" in out
    code, out, _ = run("body", "spirit")
    assert code == 0 and "Incorporeal" in out


def test_blows_jsonl_records() -> None:
    records = jsonl("--mode", "broadsword.cut", "--armor", "mail_hauberk,helm", "-n", "300", "--seed", "7")
    assert len(records) == 300
    assert all(set(r) == JSONL_KEYS for r in records)
    for r in records:
        assert r["level_code"] == ["NA", "M1", "S2", "S3", "G4", "G5"][r["level"]]
        assert r["shock_state"] in {"none", "stunned", "incapacitated", "unconscious", "dead"}
        assert r["amputation"] in {"none", "severed", "kept"} and r["shock_test"] in {"none", "CS", "MS", "MF", "CF"}
        assert r["fumble"] in {"none", "roll", "auto"} and r["stumble"] in {"none", "roll", "auto"}
        if r["glancing"]:
            assert r["level"] == 0 and r["effective_impact"] > 0
        if r["location"] in ("Thorax", "Abdomen"):
            assert r["protection"] == 8  # the hauberk's edged protection
        if r["location"] == "Pelvis":
            assert r["protection"] == 0  # the hauberk does not cover the pelvis


def test_same_seed_same_blows_other_seed_other_blows() -> None:
    a = jsonl("--mode", "mace.crush", "-n", "200", "--seed", "3")
    b = jsonl("--mode", "mace.crush", "-n", "200", "--seed", "3")
    c = jsonl("--mode", "mace.crush", "-n", "200", "--seed", "4")
    assert a == b and a != c


def test_forced_location_and_fixed_impact() -> None:
    records = jsonl("--impact", "12", "--aspect", "edged", "--location", "Skull", "-n", "400")
    assert {r["location"] for r in records} == {"Skull"}
    assert {(r["level_code"], r["shock_index"], r["effective_impact"]) for r in records} == {("S3", 8, 12)}
    states = Counter(r["shock_state"] for r in records)
    by_test = {r["shock_test"]: r["shock_state"] for r in records}
    assert by_test == {"CS": "stunned", "MS": "incapacitated", "MF": "unconscious", "CF": "dead"}
    assert sum(states.values()) == 400
    forearm = jsonl("--impact", "12", "--aspect", "edged", "--location", "Right Forearm", "-n", "50")
    assert {(r["shock_index"], r["shock_test"], r["shock_state"]) for r in forearm} == {(4, "none", "none")}


def test_shock_ml_option_changes_the_odds() -> None:
    strong = jsonl("--impact", "12", "--aspect", "blunt", "--location", "Skull", "--shock-ml", "95", "-n", "500")
    weak = jsonl("--impact", "12", "--aspect", "blunt", "--location", "Skull", "--shock-ml", "5", "-n", "500")
    assert sum(r["shock_test"] in ("CS", "MS") for r in strong) > 400
    assert sum(r["shock_test"] in ("CS", "MS") for r in weak) < 60


def test_strength_ml_option_drives_amputation() -> None:
    weak = jsonl("--impact", "25", "--aspect", "edged", "--location", "Left Forearm", "--strength-ml", "5",
                 "-n", "300")
    strong = jsonl("--impact", "25", "--aspect", "edged", "--location", "Left Forearm", "--strength-ml", "95",
                   "-n", "300")
    assert sum(r["amputation"] == "severed" for r in weak) > 250
    assert sum(r["amputation"] == "severed" for r in strong) < 50
    assert {r["amputation"] for r in weak} <= {"severed", "kept"}


def test_aim_and_spread() -> None:
    records = jsonl("--mode", "broadsword.cut", "--aim", "Right Leg", "--spread", "8", "-n", "800")
    missed = sum(r["missed"] for r in records)
    assert 0.18 < missed / 800 < 0.32  # aim 10, Spread 8: exactly 2/8 miss (zone numbers 16 and 17)
    assert {r["zone"] for r in records if not r["missed"]} == {"Legs"}
    precise = jsonl("--mode", "broadsword.cut", "--aim", "Head", "--spread", "1", "-n", "100")
    assert {r["part"] for r in precise} == {"Head"}


def test_strength_modifier_applies_only_with_mode() -> None:
    strong = jsonl("--mode", "club.crush", "--strength", "18", "-n", "300")
    assert min(r["impact"] for r in strong) == 1 + 2 + 4 and max(r["impact"] for r in strong) == 6 + 2 + 4
    fixed = jsonl("--impact", "7", "--aspect", "blunt", "--strength", "18", "-n", "10")
    assert {r["impact"] for r in fixed} == {7}


def test_blows_table_odds() -> None:
    code, out, _ = run("blows", "--mode", "broadsword.cut", "-n", "3000", "--seed", "1")
    assert code == 0
    for heading in ("Location", "Level", "Amputation", "Shock state", "Mishap (fumble)", "Mishap (stumble)"):
        assert heading in out
    assert "3000 blows" in out and "Broadsword Cut (1d10+3 edged, STR +0) vs Human (no armour), unaimed" in out


def test_blows_on_a_spirit_always_miss() -> None:
    assert all(r["missed"] for r in jsonl("--body", "spirit", "--mode", "unarmed.punch", "-n", "50"))


@pytest.mark.parametrize(("args", "message"), [
    (["blows", "--mode", "sword.cut"], "unknown strike mode 'sword.cut'"),
    (["blows"], "give either --mode WEAPON.MODE or --impact N with --aspect A"),
    (["blows", "--impact", "5"], "--impact needs --aspect"),
    (["blows", "--impact", "5", "--aspect", "acid"], "unknown aspect 'acid'"),
    (["blows", "--mode", "broadsword.cut", "--aim", "Tail"], "Human has no part 'Tail'"),
    (["blows", "--mode", "broadsword.cut", "--location", "Wing"], "Human has no location 'Wing'"),
    (["blows", "--mode", "broadsword.cut", "--armor", "mail_hauberk,chainmail"], "unknown armour piece 'chainmail'"),
    (["blows", "--body", "wolf", "--mode", "fangs.bite", "--armor", "helm"], "made for the 'human' body"),
    (["blows", "--mode", "broadsword.cut", "--spread", "0"], "--spread must be at least 1"),
    (["body", "dragon"], "expected a body in bodies/ (constrictor_snake, eagle, fire_dragon, human, spirit, wolf), "
                         "found 'dragon'; did you mean 'fire_dragon'?"),
    (["validate", str(BROKEN / "bodies_undefined_zone.toml")], "expected a defined zone ('Head'), found 'Heed'"),
])
def test_bad_input_exits_2_with_a_clear_message(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


def test_validate_ok_and_all_broken_files_at_once() -> None:
    code, out, _ = run("validate")
    assert code == 0 and out.startswith("OK:")
    code, _, err = run("validate", str(BROKEN))
    assert code == 2
    assert err.splitlines()[0].endswith("problems in config files:")
    assert len({line.split(":")[0] for line in err.splitlines()[1:]}) == len(list(BROKEN.glob("*.toml")))


def test_schema_writes_every_kind(tmp_path: Path) -> None:
    code, _, _ = run("schema", "--out", str(tmp_path))
    assert code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    kinds = ["body", "weapon", "armor", "item", "creature", "skills", "anatomy_rules", "sandbox_rules", "scenario",
             "content"]
    # Every damage model with tables of its own (the anatomy model's are the anatomy_rules kind).
    models = [f"{m}_model" for m in loaders() if m != "anatomy"]
    assert names == sorted(f"{k}.schema.json" for k in kinds + models)
    assert {"severity_model", "depth_model", "strength_model", "status_model"} <= set(models)


def test_module_entry_point_has_no_traceback_on_bad_config() -> None:
    proc = subprocess.run([sys.executable, "-m", "sandbox", "validate", str(BROKEN / "bodies_syntax.toml")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert "expected valid TOML 1.0" in proc.stderr and "Traceback" not in proc.stderr
