"""Hostile inputs: every bad config, path or save gives a designer-readable error (exit 2), never a traceback
or a hang (issue 8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.config import config_root
from sandbox.persistence import SaveError
from sandbox.world import Sandbox
from tests.sources import source_files

runner = CliRunner()
ROOT = config_root()


def shipped(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in out, out
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, out


def write(tmp_path: Path, rel: str, text: str) -> Path:
    """A config file under ``tmp_path/<case>/<kind>/<id>.toml`` (same id as the shipped one: it replaces it)."""
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# Each case: (file under a kind folder, its text, words the message must hold).
CASES: dict[str, tuple[str, Callable[[], str], str]] = {
    "wrong type": ("weapons/broadsword.toml", lambda: shipped("weapons/broadsword.toml").replace(
        "spread = 6", 'spread = "lots"', 1), "modes#1.spread (\"Broadsword Cut\"): expected a valid integer"),
    "unknown key": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        'name = "Human"', 'name = "Human"\ncolour = "red"', 1), "colour (\"Human\"): expected no such key"),
    "huge weight": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        "weight = 500", "weight = 1e308", 1),
            "parts#1.locations#1.weight (\"Skull\"): expected less than or equal to 1000000"),
    "huge impact": ("weapons/broadsword.toml", lambda: shipped("weapons/broadsword.toml").replace(
        '"1d10+3"', '"1000000d1000000"', 1),
            "modes#1.impact (\"Broadsword Cut\"): expected a dice expression of at most 100 dice"),
    "huge spread": ("weapons/broadsword.toml", lambda: shipped("weapons/broadsword.toml").replace(
        "spread = 6", "spread = 1000000000000", 1),
            "modes#1.spread (\"Broadsword Cut\"): expected less than or equal to 100, found 1000000000000"),
    "huge scale": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        "scale = 1.0", "scale = 1e308", 1), "scale (\"Human\"): expected a body scale"),
    "nan weight": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        "weight = 500", "weight = nan", 1), "expected a finite number, found nan"),
    "inf scale": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        "scale = 1.0", "scale = inf", 1), "scale (\"Human\"): expected a finite number, found inf"),
    "nan thresholds": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        "scale = 1.0", "scale = 1.0\nthresholds = [nan, 2.0, 3.0, 4.0, 5.0]", 1),
        "thresholds#1 (\"Human\"): expected a finite number, found nan"),
    "inf position": ("scenarios/duel.toml", lambda: shipped("scenarios/duel.toml").replace(
        "position = [7.0, 5.0]", "position = [inf, 5.0]", 1),
        "combatants#1.position#1 (\"Aldric\"): expected a finite number, found inf"),
    "nan position": ("scenarios/duel.toml", lambda: shipped("scenarios/duel.toml").replace(
        "position = [7.0, 5.0]", "position = [nan, 5.0]", 1),
        "combatants#1.position#1 (\"Aldric\"): expected a finite number, found nan"),
    "armour names a missing body": ("armor/helm.toml", lambda: shipped("armor/helm.toml").replace(
        'body = "human"', 'body = "ghost"', 1), "body (\"Helm\"): expected a body in bodies/"),
    "creature names a missing weapon": ("creatures/human.toml", lambda: shipped("creatures/human.toml").replace(
        'weapons = ["unarmed"]', 'weapons = ["unarmed", "lightsaber"]', 1),
        "weapons#2 (\"Human\"): expected a weapon in weapons/, found 'lightsaber'"),
    "scenario names a missing creature": ("scenarios/duel.toml", lambda: shipped("scenarios/duel.toml").replace(
        'creature = "human"', 'creature = "ghost"', 1),
        "combatants#1.creature (\"Aldric\"): expected a creature in creatures/, found 'ghost'"),
    "huge tick limit": ("scenarios/duel.toml", lambda: shipped("scenarios/duel.toml").replace(
        "max_ticks = ", "max_ticks = 1000000000 # ", 1),
        "max_ticks (\"Duel\"): expected less than or equal to 100000, found 1000000000"),
    "bad unicode name": ("bodies/human.toml", lambda: shipped("bodies/human.toml").replace(
        'name = "Human"', 'name = ""', 1), "name: expected"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_config_gives_a_readable_error(tmp_path: Path, case: str) -> None:
    rel, text, words = CASES[case]
    path = write(tmp_path, rel, text())
    code, out = cli("validate", str(path))
    assert code == 2, out
    assert words in out, out
    assert str(path) in out


def test_hostile_body_through_body_and_blows(tmp_path: Path) -> None:
    path = write(tmp_path, "bodies/human.toml",
                 shipped("bodies/human.toml").replace("weight = 500", "weight = nan", 1))
    for args in (("body", str(path)), ("blows", "--body", str(path), "-n", "10")):
        code, out = cli(*args)
        assert code == 2, out
        assert "expected a finite number, found nan" in out


def test_hostile_scenario_through_run_and_lab(tmp_path: Path) -> None:
    path = write(tmp_path, "scenarios/duel.toml",
                 shipped("scenarios/duel.toml").replace("position = [7.0, 5.0]", "position = [inf, 5.0]", 1))
    for args in (("run", str(path)), ("lab", str(path), "--runs", "2", "--out", str(tmp_path / "lab"))):
        code, out = cli(*args)
        assert code == 2, out
        assert "expected a finite number, found inf" in out


@pytest.mark.parametrize(("args", "option"), [
    (("run", "duel", "--ticks", "100001"), "--ticks"),
    (("run", "duel", "--aftermath", "3651"), "--aftermath"),
    (("lab", "duel", "--runs", "10000001"), "--runs"),
])
def test_unbounded_run_options_are_refused(args: tuple[str, ...], option: str) -> None:
    """A tick limit, an aftermath or a lab too long to ever finish is refused up front, not left to run for days."""
    code, out = cli(*args)
    assert code == 2, out
    assert option in out and "less than or equal to" in out


def test_hostile_blows_options() -> None:
    code, out = cli("blows", "--mode", "broadsword.cut", "--spread", str(10**12), "-n", "10")
    assert code == 2, out
    assert "spread" in out
    code, out = cli("blows", "--impact", str(10**30), "--aspect", "edged", "-n", "10")
    assert code == 2, out
    assert "impact" in out


def test_unicode_names_work_when_valid(tmp_path: Path) -> None:
    text = shipped("bodies/human.toml").replace('name = "Human"', 'name = "Mensch 🐉 إنسان"', 1)
    text = text.replace('name = "Head"', 'name = "Kopf 🙂"').replace('zone = "Head"', 'zone = "Kopf 🙂"')
    path = write(tmp_path, "bodies/human.toml", text)
    code, out = cli("validate", str(path))
    assert code == 0, out
    code, out = cli("body", str(path))
    assert code == 0, out
    assert "Kopf 🙂" in out
    code, out = cli("body", str(path), "--json")
    assert code == 0, out
    assert "Mensch 🐉 إنسان" in json.loads(out)["name"]


def test_ten_megabyte_file_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "bodies" / "human.toml"
    path.parent.mkdir()
    path.write_text(shipped("bodies/human.toml") + ("# padding " + "x" * 90 + "\n") * 100_000, encoding="utf-8")
    assert path.stat().st_size > 10_000_000
    code, out = cli("validate", str(path))
    assert code == 2, out
    assert "expected a config file of at most" in out
    code, out = cli("body", str(path))
    assert code == 2, out
    assert "expected a config file of at most" in out


@pytest.mark.parametrize("case", ["outside", "directory", "nonexistent", "symlink", "device"])
def test_hostile_paths(tmp_path: Path, case: str) -> None:
    if case == "outside":
        target = Path(os.path.relpath("/etc/passwd", Path.cwd()))
        words = "a file of unknown kind"
    elif case == "directory":
        target = tmp_path / "bodies" / "human.toml"
        target.mkdir(parents=True)
        words = "expected a config file or a folder of them, found a folder with no .toml files"
    elif case == "nonexistent":
        target = tmp_path / "nowhere" / "ghost.toml"
        words = "no such file"
    elif case == "symlink":
        target = tmp_path / "bodies" / "human.toml"
        target.parent.mkdir()
        target.symlink_to("/etc/passwd")
        words = "valid TOML 1.0"
    else:
        target = Path("/dev/zero")
        words = "expected an existing file, found not a regular file"
    code, out = cli("validate", str(target))
    assert code == 2, out
    assert words in out, out
    for args in (("body", str(target)), ("run", str(target))):
        code, out = cli(*args)
        assert code == 2, out


def _cli_subprocess(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sandbox", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_hostile_inputs_never_hang(tmp_path: Path) -> None:
    """Under a real process with a timeout: dice with a million faces, a 10**12 spread, a device file."""
    sword = write(tmp_path, "weapons/broadsword.toml", shipped("weapons/broadsword.toml").replace(
        '"1d10+3"', '"1000000d1000000"', 1).replace("spread = 6", "spread = 1000000000000", 1))
    body = write(tmp_path, "bodies/human.toml", shipped("bodies/human.toml").replace(
        "weight = 500", "weight = 1e308", 1))
    for args in (("validate", str(sword)), ("validate", str(body)), ("body", str(body)),
                 ("validate", "/dev/zero"), ("body", "/dev/zero")):
        done = _cli_subprocess(*args, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr + done.stdout


# ------------------------------------------------------------------------------------------------- saves




def _entity_edit(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        change(doc["entities"][0])
    return edit


SAVE_EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "health of lots": (_entity_edit(lambda e: e["model_state"]["Injury"].__setitem__("health", "lots")),
        "entities#1.model_state.Injury.health: expected a whole number, found 'lots'"),
    "negative entity id": (_entity_edit(lambda e: e.__setitem__("id", -3)),
        "entities#1.id: expected the entity 1 (entities in order), found -3"),
    "missing field": (_entity_edit(lambda e: e.pop("model_state")),
        "entities#1.model_state: expected a value (the key is required)"),
    "another version": (lambda doc: doc.__setitem__("version", 0), "version 0"),
    "list of entities is a table": (lambda doc: doc.__setitem__("entities", {"a": 1}),
        "entities: expected a list of at most 100,000 creatures"),
    "nan clock": (lambda doc: doc["clock"].__setitem__("seconds", float("nan")), "expected finite numbers, found NaN"),
    "position of text": (_entity_edit(lambda e: e.__setitem__("position", ["a", "b"])),
        "entities#1.position#1: expected a number, found 'a'"),
    "injury with a stray field": (_entity_edit(
        lambda e: e["model_state"]["Injury"].__setitem__("wounds", [{"evil": 1}])),
        "entities#1.model_state.Injury.wounds#1: expected the fields of Wound"),
}


@pytest.mark.parametrize("case", list(SAVE_EDITS))
def test_edited_save_gives_a_save_error(good_save: Path, case: str) -> None:
    edit, words = SAVE_EDITS[case]
    doc = json.loads(good_save.read_text(encoding="utf-8"))
    edit(doc)
    bad = good_save.with_name("bad.json")
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Sandbox.load(bad)
    assert words in str(info.value)
    assert str(bad) in str(info.value)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[1, 2, 3]", "null", '"save"', ""])
def test_not_a_save_gives_a_save_error(tmp_path: Path, text: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError):
        Sandbox.load(bad)


def test_truncated_at_every_tenth_gives_a_save_error(good_save: Path) -> None:
    data = good_save.read_bytes()
    bad = good_save.with_name("bad.json")
    for cut in range(0, len(data), max(1, len(data) // 10)):
        bad.write_bytes(data[:cut])
        with pytest.raises(SaveError):
            Sandbox.load(bad)


@pytest.mark.parametrize("failing", ["os.replace", "json.dumps", "fsync"])
def test_failed_save_leaves_the_previous_save_untouched(good_save: Path, monkeypatch: pytest.MonkeyPatch,
                                                        failing: str) -> None:
    before = good_save.read_bytes()
    w = Sandbox.from_scenario("duel", seed=9)
    w.step()

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    import sandbox.files as files
    import sandbox.persistence as persistence

    if failing == "os.replace":  # saves are written through sandbox.files.atomic_text
        monkeypatch.setattr(files.os, "replace", boom)
    elif failing == "fsync":
        monkeypatch.setattr(files.os, "fsync", boom)
    else:
        monkeypatch.setattr(persistence.json, "dumps", boom)
    with pytest.raises(OSError):
        w.save(good_save)
    monkeypatch.undo()
    w.close()
    assert good_save.read_bytes() == before
    assert [p.name for p in good_save.parent.iterdir()] == [good_save.name]


def test_nothing_unpickles_or_evaluates_user_files() -> None:
    for path in source_files():
            source = path.read_text(encoding="utf-8")
            for bad in ("import pickle", "from pickle", "import marshal", "import shelve", "eval(", "exec(",
                        "yaml.load(", "__import__("):
                assert bad not in source, f"{path}: {bad}"


@pytest.mark.parametrize("args", [
    ["view", "duel", "--frames", "2", "--screenshot", "{missing}/shot.png"],
    ["view", "duel", "--frames", "2", "--screenshot", "{tmp}"],
    ["schema", "--out", "{file}"],
    ["run", "duel", "--quiet", "--log", "{missing}/events.jsonl"],
])
def test_an_output_path_that_cannot_be_written_is_a_clear_error(tmp_path: Path, args: list[str]) -> None:
    """A screenshot, log or schema folder that cannot be written: exit 2 with the path named, no traceback."""
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    filled = [a.format(missing=tmp_path / "missing", tmp=tmp_path, file=a_file) for a in args]
    proc = subprocess.run([sys.executable, "-m", "sandbox", *filled], capture_output=True, timeout=120,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert proc.returncode == 2, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr
    assert b"cannot write" in proc.stderr


def test_a_folder_that_loops_back_on_itself_is_read_once(tmp_path: Path) -> None:
    """A cycle in the file system (a symlink to an enclosing folder) neither hangs ``validate`` nor reads a file
    twice: config files reference one another only by id, so this is the one cycle a config tree can hold."""
    write(tmp_path, "bodies/wolf.toml", shipped("bodies/wolf.toml"))
    (tmp_path / "bodies" / "loop").symlink_to(tmp_path, target_is_directory=True)
    proc = subprocess.run([sys.executable, "-m", "sandbox", "validate", str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "(+1 named)" in proc.stdout
