"""The balance lab (issue 17): variants patched by dotted key on common random numbers, paired intervals, scale
factors, the solver, the report and the Python API; bad input exits 2 with nothing written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.lab import Variant, run, run_one
from sandbox.lab.paired import paired_proportions
from sandbox.lab.plan import parse_target, read_variants, vary_variants
from sandbox.lab.variants import LabError, split_key, variant_content

runner = CliRunner()
ROOT = Path(__file__).parent.parent


def lab(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_keys_split_as_toml_dotted_keys() -> None:
    assert split_key('models.severity.weapons."broadsword.cut".damage') == (
        "models", "severity", "weapons", "broadsword.cut", "damage")
    for bad in ("", "a..b", 'a."b', "a.", "a b"):
        with pytest.raises(LabError):
            split_key(bad)


@pytest.mark.parametrize(("key", "value", "read"), [
    ("weapons.broadsword.modes.cut.impact", "2d6+3", lambda c, s: "{0.count}d{0.sides}+{0.modifier}".format(
        c.modes["broadsword.cut"].impact)),
    ("armor.mail_hauberk.protection.edged", 3, lambda c, s: c.armor["mail_hauberk"].protection[1]),
    ("creatures.human.skills.sword", 70, lambda c, s: c.creatures["human"].skills["sword"]),
    ("scenario.combatants.Bertram.armor", ["gambeson"], lambda c, s: list(s.combatants[1].armor)),
    ("creatures.human.attributes.strength", 14, lambda c, s: c.creatures["human"].attributes["strength"]),
])
def test_a_patch_changes_what_its_key_names(key: str, value: object, read: object) -> None:
    content = variant_content(Variant("v", ((key, value),)), "duel")
    assert read(content.catalog, content.scenario) == value  # type: ignore[operator]
    base = variant_content(Variant("baseline"), "duel")
    assert read(base.catalog, base.scenario) != value  # type: ignore[operator]


def test_a_point_model_entry_is_patched_derived_or_not() -> None:
    from sandbox.models import build_model

    content = variant_content(Variant("v", (("models.severity.creatures.human.brawn", 4),)), "duel")
    model = build_model("severity", content.catalog)
    assert model.tables.creatures["human"].brawn == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(("key", "value", "needle"), [
    ("weapons.broadsword.modes.cut.impcat", "1d6", "did you mean 'impact'"),
    ("weapons.broadswerd.modes.cut.impact", "1d6", "did you mean 'broadsword'"),
    ("weapons.broadsword.modes.chop.impact", "1d6", "by id or name (cut, impale, pommel)"),
    ("scenario.combatants.Nobody.armor", [], "by id or name (Aldric, Bertram)"),
    ("creatures.human.skills.sword", "high", "expected an integer"),
    ("armor.mail_hauberk.rigid", 1, "expected a boolean"),
    ("nonsense.x", 1, "a content file"),
])
def test_a_bad_patch_is_a_clear_error(key: str, value: object, needle: str) -> None:
    with pytest.raises(LabError) as info:
        variant_content(Variant("bad", ((key, value),)), "duel")
    assert needle in str(info.value)


def test_a_variant_that_breaks_the_content_is_named_in_the_config_error(tmp_path: Path) -> None:
    variants = tmp_path / "v.toml"
    variants.write_text('[variants.broken]\n"weapons.broadsword.modes.cut.impact" = "1d0"\n', encoding="utf-8")
    code, stdout, err = lab("duel", "--runs", "2", "--variants", str(variants), "--out", str(tmp_path / "x"))
    assert code == 2 and "variant 'broken'" in err and "impact" in err and "Traceback" not in err + stdout
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(("args", "needle"), [
    (("--vary", "creatures.human.skills.swrod=50"), "did you mean 'sword'"),
    (("--vary", "creatures.human.skills.sword=fifty"), "expected an integer"),
    (("--solve", "creatures.human.skills.sword", "--between", "60", "40", "--target", "Red=0.5"), "LO < HI"),
    (("--solve", "creatures.human.name", "--between", "0", "1", "--target", "Red=0.5"), "not numeric"),
    (("--solve", "creatures.human.skills.sword", "--between", "40", "60", "--target", "Green=0.5"), "no team"),
    (("--solve", "creatures.human.skills.sword", "--between", "40", "60"), "needs --between LO HI and --target"),
    (("--solve", "scenario.combatants.Aldric.skills.sword", "--between", "54", "56", "--target", "Red=0.99"),
     "out of reach"),
    # Both duellists fight with swords: the club skill changes no fight, so no value of it is an answer.
    (("--solve", "creatures.human.skills.club", "--between", "30", "60", "--target", "Red=Blue"),
     "changes none of the fights"),
])
def test_bad_balance_questions_exit_2_and_write_nothing(tmp_path: Path, args: tuple[str, ...], needle: str) -> None:
    code, stdout, err = lab("duel", "--runs", "40", "--jobs", "1", *args, "--out", str(tmp_path / "x"))
    assert code == 2, err
    assert needle in err and "Traceback" not in err + stdout
    assert not (tmp_path / "x").exists()


def test_an_unreachable_target_says_the_win_rates_at_both_ends(tmp_path: Path) -> None:
    code, _, err = lab("duel", "--runs", "40", "--jobs", "1", "--solve", "scenario.combatants.Aldric.skills.sword",
                       "--between", "54", "56", "--target", "Red=0.99", "--out", str(tmp_path / "x"))
    assert code == 2 and "Red wins" in err and "at 54" in err and "at 56" in err


def test_a_target_ruled_out_by_a_later_stage_ends_the_solve_with_no_value() -> None:
    """The first stage's wide intervals hold the target at one end; the next stage's narrower ones rule it out at
    both: the solve says out of reach, with both ends' figures, and claims no value (no boundary posing as one)."""
    from sandbox.lab.plan import Numeric, SolveSpec, parse_target
    from sandbox.lab.solver import FIRST_RUNS, Probe, Solver

    class FlatGap(Solver):
        """A gap of about +4% everywhere, its 95% half-width 1/sqrt(runs): 7% at 200 runs, 5% at 400, 3.5% at 800."""

        def probe(self, x: float, runs: int) -> Probe:
            half = runs ** -0.5
            probe = Probe(x, runs, 0.04 + 0.0001 * x, 0.04 - half, 0.04 + half, 0.5)
            self.probes.append(probe)
            return probe

        def _same_fights(self, lo: float, hi: float, runs: int) -> bool:
            return False

    class NoTallies:
        def __init__(self) -> None:
            self.tallies: dict[object, object] = {}

    spec = SolveSpec("creatures.human.skills.sword", 30, 60, parse_target("Red=Blue", ["Red", "Blue"]), 0.5,
                     Numeric("creatures.human.skills.sword", 45, "int", 45))
    solver = FlatGap(NoTallies(), None, spec, "anatomy", max_runs=4 * FIRST_RUNS)  # type: ignore[arg-type]
    solver.check_ends()  # at 200 runs the target is within reach
    result = solver.solve()
    assert result["value"] is None and result["ci95"] is None and result["value_as_content"] is None
    assert result["stopped"].startswith("out of reach at 800 runs per probe")
    assert [stage["ci95"] for stage in result["stages"]] == [[30, 60], [30, 60], None]  # 200, 400: not ruled out
    assert "Red - Blue +4.3%" in result["stopped"] and "at 30" in result["stopped"] and "at 60" in result["stopped"]
    from sandbox.lab.summary import solve_lines

    (line,) = solve_lines({"solve": {"results": [{**result, "probes": []}]}})
    assert "no value" in line and "out of reach" in line


def test_variants_file_and_vary_parse(tmp_path: Path) -> None:
    path = tmp_path / "v.toml"
    path.write_text('baseline = "sword"\n[variants.sword]\nscenario.combatants.Aldric.weapons = ["broadsword"]\n'
                    '[variants.mace]\nscenario.combatants.Aldric.weapons = ["mace"]\n'
                    'scenario.combatants.Aldric.skills = { club = 55 }\n', encoding="utf-8")
    sword, mace = read_variants(path)
    assert sword.name == "sword" and mace.patches == (("scenario.combatants.Aldric.weapons", ["mace"]),
                                                      ("scenario.combatants.Aldric.skills.club", 55))
    baseline, *varied = vary_variants(["scenario.combatants.Aldric.armor=[gambeson],[gambeson,helm]"])
    assert baseline.name == "baseline" and [v.patches[0][1] for v in varied] == [["gambeson"], ["gambeson", "helm"]]
    assert parse_target("Red=Blue", ["Red", "Blue"]).versus == "Blue"
    assert parse_target("Red=0.5", ["Red", "Blue"]).rate == 0.5


def test_run_i_of_every_variant_uses_the_same_seeds() -> None:
    # A patch that changes nothing the duel uses (the mace is not wielded) leaves every run as it was.
    idle = Variant("idle", (("weapons.mace.modes.crush.impact", "1d6+9"),))
    for i in range(5):
        a, b = run_one("duel", 4, "anatomy", i), run_one("duel", 4, "anatomy", i, idle)
        assert a.run[3:] == b.run[3:] and [r[3:] for r in a.combatants] == [r[3:] for r in b.combatants]


def test_newcombe_paired_interval_agrees_with_the_wald_interval_for_many_runs() -> None:
    import math

    n, first_only, second_only = 10_000, 600, 400
    d = paired_proportions(4000, first_only, second_only, n - 5000)
    theta = (first_only - second_only) / n
    half = 1.959963984540054 * math.sqrt((first_only + second_only) / n - theta**2) / math.sqrt(n)
    assert d.estimate == pytest.approx(theta)
    assert d.paired[0] == pytest.approx(theta - half, abs=3e-4) and d.paired[1] == pytest.approx(theta + half, abs=3e-4)
    assert d.unpaired[1] - d.unpaired[0] > 2 * (d.paired[1] - d.paired[0])  # strongly correlated pairs
    flipped = paired_proportions(4000, second_only, first_only, n - 5000)  # the difference the other way round
    assert flipped.paired == pytest.approx((-d.paired[1], -d.paired[0]))
    independent = paired_proportions(25, 25, 25, 25)  # no correlation: pairing gains nothing
    assert independent.paired == pytest.approx(independent.unpaired)


@pytest.fixture(scope="module")
def balance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("balance") / "lab"
    variants = out.parent / "v.toml"
    variants.write_text('[variants.keen]\n"scenario.combatants.Aldric.skills.sword" = 65\n'
                        '[variants.mace]\nscenario.combatants.Aldric.weapons = ["mace"]\n', encoding="utf-8")
    code, stdout, err = lab("duel", "--runs", "300", "--jobs", "2", "--variants", str(variants), "--scale",
                            "scenario.combatants.Aldric.skills.sword:5", "--odds-blows", "0", "--out", str(out))
    assert code == 0, err
    assert "Paired differences" in stdout and "Scale factors" in stdout
    return out


def test_paired_intervals_are_narrower_than_unpaired_on_the_duel(balance: Path) -> None:
    data = json.loads((balance / "summary.json").read_text())
    keen = data["differences"]["keen"]["anatomy"]["wins"]["Red"]
    assert keen["runs"] == 300 and keen["difference"] > 0  # a better swordsman wins more
    paired = keen["ci95_paired"][1] - keen["ci95_paired"][0]
    unpaired = keen["ci95_unpaired"][1] - keen["ci95_unpaired"][0]
    assert paired < 0.9 * unpaired and keen["paired_narrower_by"] == pytest.approx(1 - paired / unpaired)
    assert set(data["by_variant"]) >= {"baseline", "keen", "mace"}


def test_scale_factors_are_per_unit_and_ranked(balance: Path) -> None:
    data = json.loads((balance / "summary.json").read_text())
    (factor,) = data["scale_factors"]["anatomy"]
    assert factor["key"] == "scenario.combatants.Aldric.skills.sword" and factor["span"] == 10 and factor["rank"] == 1
    red = factor["wins"]["Red"]
    assert red["per_unit"] > 0 and red["ci95"][0] <= red["per_unit"] <= red["ci95"][1]
    low = data["by_variant"][factor["low"]]["anatomy"]["wins"]["Red"]["rate"]
    high = data["by_variant"][factor["high"]]["anatomy"]["wins"]["Red"]["rate"]
    assert red["per_unit"] == pytest.approx((high - low) / 10)


def test_the_report_is_one_self_contained_file(balance: Path) -> None:
    text = (balance / "report.html").read_text(encoding="utf-8")
    for needle in ("Variants and their patches", "scenario.combatants.Aldric.weapons", "Reproducing a run",
                   "Paired differences", "Scale factors", "data:image/png;base64,", "hit_locations.png"):
        assert needle in text
    assert "http://" not in text and "https://" not in text and "<script" not in text


def test_the_plots_use_the_teams_colours(balance: Path) -> None:
    from sandbox.lab.colours import label_colour, team_colour

    assert team_colour(0) == pytest.approx((220 / 255, 72 / 255, 60 / 255))  # Red's team, first, is red
    assert label_colour((0.05, 0.0, 0.2)) == "white" and label_colour((0.95, 0.9, 0.1)) == "black"
    for name in ("win_rates.png", "differences.png", "scale_factors.png", "hit_locations.png"):
        assert (balance / name).read_bytes()[:4] == b"\x89PNG"


def _mirror_tree(where: Path) -> Path:
    """Two duels out of each other's reach (legs held fast): Red strikes first in one, Blue in the other, so at
    equal skill both teams win equally often, by construction; Red's creature differs only in its id."""
    tree = where / "mirror"
    shutil.copytree(ROOT / "tests" / "data" / "mirror", tree)
    return tree


def test_the_solver_recovers_an_answer_known_by_construction(tmp_path: Path) -> None:
    tree = _mirror_tree(tmp_path)
    result = run(str(tree / "scenarios" / "mirror.toml"), runs=400, jobs=2,
                 solve=("creatures.red_human.skills.sword", 33, 57, "Red=Blue"), target_error=5.0)
    (solve,) = result.summary["solve"]["results"]
    low, high = solve["ci95"]
    assert low <= 45 <= high  # the human's sword ML: Red's creature equals Blue's there
    assert high - low <= 16 and abs(solve["value"] - 45) <= 6
    assert solve["runs"] >= 400 and solve["method"].startswith("bisection on common random numbers")


def test_the_python_api_returns_dataframes(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    result = run("duel", runs=20, variants={"mace": {"scenario.combatants.Aldric.weapons": ["mace"]}},
                 out=tmp_path / "api")
    assert list(result.runs["variant"].unique()) == ["baseline", "mace"] and len(result.runs) == 40
    assert len(result.combatants) == 80 and set(result.combatants["team"]) == {"Red", "Blue"}
    assert "mace" in result.summary["differences"]
    assert result.report(tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!doctype html>")


def test_the_reports_tables_keep_a_row_to_a_line_whatever_the_terminal(balance: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox.lab.report import report_html

    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal wraps the CLI's tables, never the report's
    data = json.loads((balance / "summary.json").read_text())
    text = report_html(data, {})
    (row,) = [line for line in text.splitlines() if line.startswith("Red wins (95% CI)")]
    columns = [v for v in data["by_variant"] if not v.startswith(("scale:", "solve:"))]
    assert row.count("%") == 1 + 3 * len(columns)  # "95% CI", then a rate and its bounds per column, on one line
