"""``sandbox lab``: the same runs whatever the workers, Wilson intervals, the files it writes, early stopping and
bad input (exit 2, one line, no traceback)."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.lab import LabError, LabPlan, counted_quantile, parse_models, run_one, wilson
from sandbox.lab.runner import CREATURE_COLUMNS, RUN_COLUMNS
from sandbox.models import available_models
from sandbox.world import Sandbox

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def lab(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def reference_wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The textbook formula, written out independently: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


@pytest.fixture(scope="module")
def duel_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "one"
    code, _, err = lab("duel", "--runs", "12", "--chunk", "5", "--jobs", "1", "--seed", "3", "--out", str(out))
    assert code == 0, err
    return out


def test_wilson_matches_known_values() -> None:
    low, high = wilson(8, 10)
    assert round(low, 4) == 0.4902 and round(high, 4) == 0.9433
    for k, n in ((8, 10), (0, 10), (10, 10), (3, 7), (50, 100)):
        expected = reference_wilson(k, n)
        assert wilson(k, n) == pytest.approx(expected, abs=1e-12)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert round(wilson(10, 10)[0], 4) == 0.7225 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_counted_quantiles_match_linear_interpolation() -> None:
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    ordered = sorted(values)
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        pos = (len(ordered) - 1) * q
        lo, hi = math.floor(pos), math.ceil(pos)
        assert counted_quantile(counts, q) == pytest.approx(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))


def test_runs_csv_is_the_same_for_one_and_two_workers(tmp_path: Path, duel_run: Path) -> None:
    out = tmp_path / "two"
    code, _, err = lab("duel", "--runs", "12", "--chunk", "5", "--jobs", "2", "--seed", "3", "--out", str(out))
    assert code == 0, err
    assert (out / "runs.csv").read_bytes() == (duel_run / "runs.csv").read_bytes()
    one = json.loads((duel_run / "summary.json").read_text())
    two = json.loads((out / "summary.json").read_text())
    assert one["by_model"] == two["by_model"]


def test_runs_csv_schema_and_order(duel_run: Path) -> None:
    with (duel_run / "runs.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [*RUN_COLUMNS, *(f"{n}.{c}" for n in ("Aldric", "Bertram") for c in CREATURE_COLUMNS)]
    models = sorted(available_models())
    assert [(r["model"], int(r["run"])) for r in rows] == [(m, i) for m in models for i in range(12)]
    for r in rows:
        assert r["seed"] == "3" and r["scenario"] == "duel" and r["winner"] in ("Red", "Blue", "")
        assert int(r["ticks"]) >= 0 and r["Aldric.alive"] in ("0", "1") and int(r["Bertram.blows_taken"]) >= 0
        assert (r["Aldric.died"] != "") == (r["Aldric.alive"] == "0")


def test_summary_json_fields(duel_run: Path) -> None:
    data = json.loads((duel_run / "summary.json").read_text())
    assert {"scenario", "seed", "models", "runs_requested", "runs_done", "chunk", "jobs", "target_error",
            "stopped_early", "interrupted", "teams", "creatures", "by_model", "files"} <= set(data)
    assert data["runs_done"] == 12 * len(available_models()) and not data["stopped_early"]
    anatomy = data["by_model"]["anatomy"]
    assert set(anatomy) >= {"runs", "wins", "no_winner", "ticks", "deaths", "incapacitated", "hit_parts",
                            "injury_mix"}
    red = anatomy["wins"]["Red"]
    assert red["ci95"] == pytest.approx(list(wilson(red["wins"], 12)))
    assert anatomy["ticks"]["q1"] <= anatomy["ticks"]["median"] <= anatomy["ticks"]["q3"]
    assert sum(anatomy["hit_parts"].values()) > 0 and set(anatomy["hit_parts"]) <= {
        "Head", "Torso", "Right Arm", "Left Arm", "Right Leg", "Left Leg"}
    assert any(code in anatomy["injury_mix"] for code in ("M1", "S2", "S3", "G4", "G5"))


def test_plots_are_written_as_png(duel_run: Path) -> None:
    files = json.loads((duel_run / "summary.json").read_text())["files"]
    plots = {"win_rates.png", "time_to_out.png", "hit_locations.png", "injury_levels.png"}
    assert set(files) == plots | {"odds.csv"}  # the four plots, and the odds cards
    for name in plots:
        assert (duel_run / name).read_bytes()[:8] == PNG


def test_target_error_stops_after_a_chunk(tmp_path: Path) -> None:
    out = tmp_path / "early"
    code, stdout, err = lab("duel", "--runs", "400", "--models", "strength,depth", "--chunk", "20",
                            "--target-error", "0.25", "--jobs", "1", "--out", str(out))
    assert code == 0, err
    data = json.loads((out / "summary.json").read_text())
    assert data["stopped_early"] and "stopped early" in stdout
    runs = {m: data["by_model"][m]["runs"] for m in ("depth", "strength")}
    assert runs["depth"] == runs["strength"] and runs["depth"] % 20 == 0 and runs["depth"] < 400
    for model in runs:
        for team in ("Red", "Blue"):
            low, high = data["by_model"][model]["wins"][team]["ci95"]
            assert (high - low) / 2 < 0.25
    with (out / "runs.csv").open(newline="") as fh:
        assert sum(1 for _ in fh) == 1 + 2 * runs["depth"]


@pytest.mark.parametrize(("args", "needle"), [
    (("duel", "--runs", "2", "--models", "anatomy,nosuch"), "unknown damage model 'nosuch'"),
    (("nosuch_scenario", "--runs", "2"), "nosuch_scenario"),
])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: tuple[str, ...], needle: str) -> None:
    code, stdout, err = lab(*args, "--out", str(tmp_path / "x"))
    assert code == 2
    assert "Traceback" not in err + stdout and needle in err


def test_an_invalid_scenario_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad_duel.toml"
    bad.write_text('name = "Bad"\ndescription = "x"\nmax_ticks = -5\n\n[[combatants]]\nname = "A"\n'
                   'creature = "unicorn"\nteam = "Red"\nposition = [0.0, 0.0]\n', encoding="utf-8")
    code, stdout, err = lab(str(bad), "--runs", "2", "--out", str(tmp_path / "x"))
    assert code == 2 and "bad_duel" in err
    assert "Traceback" not in err + stdout
    assert not (tmp_path / "x").exists()


def test_an_unwritable_output_folder_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    code, stdout, err = lab("duel", "--runs", "2", "--out", str(blocker / "sub"))
    assert code == 2 and "cannot write to" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + stdout


def test_parse_models() -> None:
    assert parse_models("all") == tuple(sorted(available_models()))
    assert parse_models(" strength, anatomy,strength") == ("anatomy", "strength")
    with pytest.raises(LabError):
        parse_models(",")


def test_chunks_go_round_the_models() -> None:
    plan = LabPlan("duel", ("a", "b"), runs=5, chunk=2)
    assert [(m, list(r)) for m, r in plan.chunks()] == [
        ("a", [0, 1]), ("b", [0, 1]), ("a", [2, 3]), ("b", [2, 3]), ("a", [4]), ("b", [4])]


@pytest.mark.parametrize("model", sorted(available_models()))
def test_a_lab_run_is_the_run_of_sandbox_from_scenario(model: str) -> None:
    record, _, _ = run_one("duel", 5, model, 7, "human")
    with Sandbox.from_scenario("duel", seed=5, model=model, run=7) as world:
        outcome = world.run()
        labels = {world.name_of(e): world.readout(e).label for e in world.names}
    assert (record["winner"] or None, record["ticks"]) == (outcome.winner, outcome.ticks)
    assert {n: record[f"{n}.label"] for n in labels} == labels


def test_ctrl_c_keeps_the_finished_runs_as_whole_rows(tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "lab", "duel", "--runs", "100000", "--jobs", "1",
                             "--chunk", "5", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=Path(__file__).parent.parent)
    runs = out / "runs.csv"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (not runs.exists() or runs.read_bytes().count(b"\n") < 30):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"finished runs kept" in err
    text = runs.read_bytes()
    assert text.endswith(b"\r\n")
    with runs.open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) > 30 and {len(r) for r in rows} == {len(rows[0])}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] and summary["runs_done"] == len(rows) - 1


def test_odds_cards_from_the_vectorised_pipeline(tmp_path: Path) -> None:
    from sandbox.lab.odds import CARD_FIELDS, odds_cards

    cards = odds_cards("duel", blows=20_000, seed=2)
    assert [(c["attacker"], c["defender"], c["mode"]) for c in cards] == [
        ("Aldric", "Bertram", "broadsword.cut"), ("Bertram", "Aldric", "broadsword.cut")]
    for card in cards:
        assert set(card) == set(CARD_FIELDS) and card["blows"] == 20_000
        levels = sum(float(card[f"level_{c}"]) for c in ("NA", "M1", "S2", "S3", "G4", "G5"))
        assert abs(levels + float(card["missed"]) - 1.0) < 1e-9
        # A broadsword cut (1d10+3) against gambeson + mail: no G4 or G5 at the hauberk, glancing only where rigid.
        assert 0.0 < float(card["glancing"]) < 0.2
    result = CliRunner().invoke(app, ["lab", "duel", "--runs", "4", "--models", "anatomy", "--jobs", "1",
                                      "--odds-blows", "5000", "--out", str(tmp_path / "lab")])
    assert result.exit_code == 0, result.stderr
    lines = (tmp_path / "lab" / "odds.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",") == CARD_FIELDS and len(lines) == 3
