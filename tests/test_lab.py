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
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.lab import LabError, LabPlan, counted_quantile, parse_models, run_one, wilson
from sandbox.lab.records import BLOW_COLUMNS, COMBATANT_COLUMNS, RUN_COLUMNS
from sandbox.lab.variants import Variant
from sandbox.models import available_models
from sandbox.world import Sandbox
from tests.waiting import until

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


def test_records_are_tidy_tables_in_order(duel_run: Path) -> None:
    with (duel_run / "runs.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == RUN_COLUMNS
    models = sorted(available_models())
    assert [(r["variant"], r["model"], int(r["run"])) for r in rows] == [("baseline", m, i) for m in models
                                                                         for i in range(12)]
    for r in rows:
        assert r["seed"] == "3" and r["winner"] in ("Red", "Blue", "") and int(r["ticks"]) >= 0
    with (duel_run / "combatants.csv").open(newline="") as fh:
        people = list(csv.DictReader(fh))
    assert tuple(people[0]) == COMBATANT_COLUMNS
    assert len(people) == 2 * len(rows)  # one row per run and creature, whatever the cast
    assert {p["name"] for p in people} == {"Aldric", "Bertram"} and {p["team"] for p in people} == {"Red", "Blue"}
    for p in people:
        assert (p["died"] != "") == (p["alive"] == "0") and int(p["blows_taken"]) >= 0
    with (duel_run / "blows.csv").open(newline="") as fh:
        blows = list(csv.DictReader(fh))
    assert tuple(blows[0]) == BLOW_COLUMNS
    taken: dict[tuple[str, str, str, str], int] = {}
    for b in blows:
        key = (b["variant"], b["model"], b["run"], b["target"])
        taken[key] = taken.get(key, 0) + int(b["blows"])
        assert (b["location"] != "") == (b["model"] in ("anatomy", "depth"))  # the models that place blows
    for p in people:
        assert taken.get((p["variant"], p["model"], p["run"], p["name"]), 0) == int(p["blows_taken"])


def test_summary_json_fields(duel_run: Path) -> None:
    data = json.loads((duel_run / "summary.json").read_text())
    assert {"plan", "scenario", "seed", "models", "runs_requested", "runs_done", "jobs", "stopped_early",
            "interrupted", "teams", "by_variant", "by_model", "files", "final"} <= set(data)
    assert data["final"] and data["plan"]["chunk"] == 5
    assert data["runs_done"] == 12 * len(available_models()) and not data["stopped_early"]
    anatomy = data["by_model"]["anatomy"]
    assert set(anatomy) >= {"runs", "wins", "no_winner", "ticks", "deaths", "incapacitated", "hit_locations",
                            "injury_mix"}
    red = anatomy["wins"]["Red"]
    assert red["ci95"] == pytest.approx(list(wilson(red["wins"], 12)))
    assert anatomy["ticks"]["q1"] <= anatomy["ticks"]["median"] <= anatomy["ticks"]["q3"]
    human = {loc.name for loc in Sandbox().catalog.bodies["human"].locations}
    for model in ("anatomy", "depth"):  # both place their blows at a location of the anatomy
        hits = data["by_model"][model]["hit_locations"]["human"]
        assert sum(hits.values()) > 0 and set(hits) <= human
    assert any(code in anatomy["injury_mix"] for code in ("M1", "S2", "S3", "G4", "G5"))


def test_plots_are_written_as_png(duel_run: Path) -> None:
    files = json.loads((duel_run / "summary.json").read_text())["files"]
    plots = {"win_rates.png", "time_to_out.png", "hit_locations.png", "injury_levels.png"}
    assert plots | {"odds.csv", "report.html"} <= set(files)
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
    assert data["plan"]["target_error"] == 0.25
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


def test_chunks_go_round_the_variants_and_models() -> None:
    plan = LabPlan("duel", ("a", "b"), runs=5, chunk=2, variants=(Variant("baseline"), Variant("v", (("k", 1),))))
    assert [(v.name, m, list(r)) for v, m, r in plan.chunks()][:5] == [
        ("baseline", "a", [0, 1]), ("baseline", "b", [0, 1]), ("v", "a", [0, 1]), ("v", "b", [0, 1]),
        ("baseline", "a", [2, 3])]
    assert sum(len(r) for _, _, r in plan.chunks()) == 5 * 2 * 2


@pytest.mark.parametrize("model", sorted(available_models()))
def test_a_lab_run_is_the_run_of_sandbox_from_scenario(model: str) -> None:
    record = run_one("duel", 5, model, 7)
    with Sandbox.from_scenario("duel", seed=5, model=model, run=7) as world:
        outcome = world.run()
        labels = {world.name_of(e): world.readout(e).label for e in world.names}
    run = dict(zip(RUN_COLUMNS, record.run, strict=True))
    assert (run["winner"] or None, run["ticks"]) == (outcome.winner, outcome.ticks)
    assert {row[3]: row[8] for row in record.combatants} == labels


def test_ctrl_c_keeps_the_finished_runs_as_whole_rows(tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "lab", "duel", "--runs", "100000", "--jobs", "1",
                             "--chunk", "5", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=Path(__file__).parent.parent)
    runs = out / "runs.csv"
    # the file's rows are the event; 600 s only bounds a stuck program
    assert until(lambda: runs.exists() and runs.read_bytes().count(b"\n") >= 30, proc, 600), proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"finished runs kept" in err and b"--resume continues" in err
    text = runs.read_bytes()
    assert text.endswith(b"\r\n")
    with runs.open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) > 30 and {len(r) for r in rows} == {len(rows[0])}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] and summary["runs_done"] == len(rows) - 1


def test_odds_cards_are_computed_once_per_distinct_strike(tmp_path: Path) -> None:
    from sandbox.lab.odds import CARD_FIELDS, card_keys, odds_cards

    cards, problems = odds_cards("duel", blows=20_000, seed=2)
    assert not problems
    assert [(c["example"], c["mode"], c["aim"]) for c in cards] == [
        ("Aldric -> Bertram", "broadsword.cut", "unaimed"), ("Bertram -> Aldric", "broadsword.cut", "Head")]
    for card in cards:
        assert set(card) == set(CARD_FIELDS) and card["blows"] == 20_000 and card["pairs"] == 1
        levels = sum(float(card[f"level_{c}"]) for c in ("NA", "M1", "S2", "S3", "G4", "G5"))
        assert abs(levels + float(card["missed"]) - 1.0) < 1e-9
        assert 0.0 < float(card["glancing"]) < 0.3
    battle = card_keys("battle")  # a hundred a side: 20,000 attacker-enemy pairs, a handful of distinct cards
    assert sum(len(pairs) for pairs in battle.values()) == 2 * 100 * 100
    assert len(battle) == 4 * 4  # four strike modes against four armour sets, 1,250 pairs each
    assert {len(pairs) for pairs in battle.values()} == {1250}
    result = CliRunner().invoke(app, ["lab", "duel", "--runs", "4", "--models", "anatomy", "--jobs", "1",
                                      "--odds-blows", "5000", "--out", str(tmp_path / "lab")])
    assert result.exit_code == 0, result.stderr
    lines = (tmp_path / "lab" / "odds.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",") == CARD_FIELDS and len(lines) == 3


def test_huge_strength_in_an_odds_card_is_a_note_not_a_crash() -> None:
    from sandbox.lab.odds import CardKey, card

    key = CardKey("broadsword.cut", 10**21, "human", ("mail_hauberk",), "unaimed", 50, 50)
    shares = card("duel", key, 1000, 0)
    assert "error" in shares and "out of range" in str(shares["error"])


@pytest.mark.parametrize(("args", "needle"), [
    (("--jobs", "100000"), "--jobs 100000: at most"),
    (("--odds-blows", "2000000"), "odds-blows"),
    (("--scheduler", ""), "not a scheduler address"),
    (("--scheduler", "foo://bar"), "not a scheduler address"),
    (("--scheduler", "not a url"), "not a scheduler address"),
    (("--scheduler", "tcp://127.0.0.1"), "no port"),
])
def test_bounded_options_exit_2_at_once(tmp_path: Path, args: tuple[str, ...], needle: str) -> None:
    code, stdout, err = lab("duel", "--runs", "2", *args, "--out", str(tmp_path / "x"))
    assert code == 2 and needle in err and "Traceback" not in err + stdout
    assert not (tmp_path / "x").exists()
