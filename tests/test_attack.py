"""The attack on the sandbox (issue 14), case by case: hostile configs, saves, command lines and output paths.

Each case asserts the exit code (0, 2 or 130, never a traceback, never 1), the message (naming the file, key or
option, values cut and escaped) and that nothing was written or replaced. The numbered defects of the issue each
have cases here or in the modules the closing note names (``tests/test_bounds.py``, ``tests/test_crash_safety.py``,
``tests/test_split_advance.py``, ``tests/test_lab_folder.py``, ``tests/test_lab_dask.py``, ``tests/test_entry.py``).
"""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox.config import config_root
from sandbox.config.errors import SHOWN, escaped, readable
from sandbox.files import atomic_text, target
from sandbox.persistence import SaveError
from sandbox.world import Sandbox

CONFIGS = config_root()
ROOT = Path(__file__).resolve().parents[1]
HANG = 600
"""Seconds after which a command is taken to hang (the attack's hangs ran for minutes or forever)."""


def sandbox(*args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    """``sandbox ARGS`` through its entry point, as a user runs it; never a traceback, never exit 1."""
    env = {**os.environ, "SANDBOX_CACHE": "off"}
    proc = subprocess.run([sys.executable, "-m", "sandbox", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=HANG, env=env, stdin=stdin)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert proc.returncode in (0, 2, 130), (proc.returncode, proc.stderr)
    return proc


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes (to show a refused command wrote and replaced nothing)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def tree(base: Path, edits: dict[str, tuple[str | None, str]]) -> Path:
    """A content tree over the shipped content whose files are shipped ones edited (``old`` replaced by ``new``)."""
    root = base / "tree"
    root.mkdir(parents=True)
    (root / "content.toml").write_text('name = "attack"\nversion = "1"\nextends = "sandbox"\n', encoding="utf-8")
    for rel, (old, new) in edits.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (CONFIGS / rel).read_text(encoding="utf-8")
        assert old is not None and old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


# ------------------------------------------------------------------------------ 1: outputs never replace a path


def test_a_save_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "saves" / "real.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with Sandbox.from_scenario("duel", seed=1) as world:
        world.run(max_ticks=3)
        world.save(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf-8"))["format"] == "combat-sandbox-save"
    Sandbox.load(link).close()
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]  # no temporary left beside it


def test_a_regular_file_is_replaced_whole_with_the_umasks_mode(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")
    old = os.umask(0o027)
    try:
        with atomic_text(path) as fh:
            fh.write("new")
    finally:
        os.umask(old)
    assert path.read_text(encoding="utf-8") == "new" and not path.is_symlink()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert target(path).kind == "file"


@pytest.mark.parametrize("where", ["-", "/dev/stdout"])
def test_run_log_to_standard_output_prints_the_log_and_replaces_nothing(tmp_path: Path, where: str) -> None:
    """The attack's ``--log /dev/stdout`` replaced the system's /dev/stdout symlink with a regular 0600 file."""
    was_link = os.path.islink("/dev/stdout")
    proc = sandbox("run", "duel", "-q", "--log", where, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines and all(json.loads(line)["type"] for line in lines)  # stdout holds the log and only the log
    assert "wins after" in proc.stderr and "events written" in proc.stderr  # the account went to stderr
    assert os.path.islink("/dev/stdout") == was_link
    assert list(tmp_path.iterdir()) == []


def test_run_log_to_a_fifo_streams_into_it(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = sandbox("run", "duel", "-q", "--log", str(fifo), cwd=tmp_path)
    reader.join(timeout=HANG)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced"
    lines = received[0].decode("utf-8").splitlines()
    assert lines and json.loads(lines[0])["type"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_run_log_through_a_link_to_a_device_writes_the_device(tmp_path: Path) -> None:
    """``--log ./null`` (a device node) became a regular file; a link to /dev/null stays a link to the device."""
    null = tmp_path / "null"
    null.symlink_to("/dev/null")
    proc = sandbox("run", "duel", "-q", "--log", str(null), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert null.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert target(null).kind == "stream" and target("/dev/stdout").kind == "fd"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_an_output_that_names_a_folder_is_refused_before_the_fight(tmp_path: Path) -> None:
    proc = sandbox("run", "duel", "-q", "--log", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2 and "cannot write the log" in proc.stderr and proc.stdout == ""


# ------------------------------------------- 2, 3, 9: configs that hung, crashed or passed validate, each exit 2

NESTED = "junk = " + "[" * 500 + "]" * 500
DOTTED = ".".join(["a"] * 1000) + " = 1"

CONFIG_CASES: dict[str, tuple[dict[str, tuple[str | None, str]], str]] = {
    # 2: inputs that hung or ate memory
    "grid_cell 1e-300": ({"sandbox.toml": ("grid_cell = 2.5", "grid_cell = 1e-300")},
                         "sandbox.toml: combat.grid_cell: expected greater than or equal to 0.5, found 1e-300"),
    "field 1e6 wide": ({"scenarios/duel.toml": ("width = 20.0", "width = 1e6")},
                       "field.width (\"Duel\"): expected less than or equal to 100000"),
    "thresholds 1e300": ({"models/anatomy.toml": ("thresholds = [1.0, 5.0, 10.0, 15.0, 20.0]",
                                                  "thresholds = [1e300, 2e300, 3e300, 4e300, 5e300]")},
                         "injury.thresholds#5: expected less than or equal to 10000, found 5e+300"),
    "body thresholds 1e9..5e9": ({"bodies/human.toml": ("scale = 1.0", "scale = 1.0\nthresholds = [1e9, 2e9, 3e9, "
                                                                       "4e9, 5e9]")},
                                 "thresholds#1 (\"Human\"): expected less than or equal to 10000, found 1000000000.0"),
    "tick_seconds 1e308": ({"sandbox.toml": ("tick_seconds = 10.0", "tick_seconds = 1e308")},
                           "combat.tick_seconds: expected less than or equal to 60, found 1e+308"),
    "bleed_interval 1e-300": ({"models/anatomy.toml": ("bleed_interval_minutes = 5.0",
                                                       "bleed_interval_minutes = 1e-300")},
                              "aftercare.bleed_interval_minutes: expected greater than or equal to 1, found 1e-300"),
    "dice beyond the bound": ({"weapons/broadsword.toml": ('"1d10+3"', '"101d1000+1000"')},
                              "expected a dice expression of at most 100 dice"),
    # 3: inputs that crashed
    "array nested 500 deep": ({"weapons/battleaxe.toml": ("reach = 1.2", "reach = 1.2\n" + NESTED)},
                              "battleaxe.toml: line 14: expected arrays and tables nested at most 32 deep"),
    "dotted key of 1000 parts": ({"weapons/battleaxe.toml": ('name = "Battleaxe"', 'name = "Battleaxe"\n' + DOTTED)},
                                 "expected tables and arrays nested at most 32 deep"),
    "strength 10**21": ({"creatures/human.toml": ("strength = 10", f"strength = {10**21}")},
                        f"attributes.strength (\"Human\"): expected less than or equal to 1000, found {10**21}"),
    "protection 10**30": ({"armor/helm.toml": ("blunt = 6", f"blunt = {10**30}")},
                          f"protection.blunt (\"Helm\"): expected less than or equal to 1000, found {10**30}"),
    # 9: smaller
    "unknown defence skill": ({"sandbox.toml": ('defence_skill = "dodge"', 'defence_skill = "dodgeball"')},
                              "combat.defence_skill: expected a skill or attribute defined in skills.toml, found "
                              "'dodgeball'; did you mean 'dodge'?"),
    "unknown stoppage skill": ({"models/anatomy.toml": ('stoppage_skill = "physician"',
                                                        'stoppage_skill = "leechcraft"')},
                               "aftercare.stoppage_skill: expected a skill or attribute defined in skills.toml"),
    "unknown treatment skill": ({"models/anatomy.toml": ('treatment_skill = "physician"',
                                                         'treatment_skill = "leechcraft"')},
                                "aftercare.treatment_skill: expected a skill or attribute defined in skills.toml"),
    "limbs 2000": ({"weapons/battleaxe.toml": ("limbs = 2", "limbs = 2000")},
                   "modes#1.limbs (\"Battleaxe Cut\"): expected less than or equal to 16, found 2000"),
    "a right-to-left override in a name": ({"weapons/battleaxe.toml": ('name = "Battleaxe"',
                                                                       'name = "Battle\u202eaxe"')},
                                           'name ("Battle\\u202eaxe"): expected printable text'),
    "a NUL in a name": ({"weapons/battleaxe.toml": ('name = "Battleaxe"', 'name = "Battle\\u0000axe"')},
                        'name ("Battle\\x00axe"): expected printable text'),
    "a name of 5,000 characters": ({"weapons/battleaxe.toml": ('name = "Battleaxe"', f'name = "{"B" * 5000}"')},
                                   f'name ("{"B" * (SHOWN - 3)}..." (5,000 characters)): expected string should '
                                   "have at most 100 characters"),
}


@pytest.mark.parametrize("case", list(CONFIG_CASES))
def test_a_hostile_config_is_exit_2_naming_the_key_and_writes_nothing(tmp_path: Path, case: str) -> None:
    edits, words = CONFIG_CASES[case]
    content = tree(tmp_path, edits)
    before = snapshot(tmp_path)
    proc = sandbox("validate", str(content), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr, proc.stderr
    assert "\u202e" not in proc.stderr and "\x00" not in proc.stderr  # printed as it reads, never raw
    assert all(len(line) < 1000 for line in proc.stderr.splitlines())  # no value echoed whole
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", [["body", "human"], ["blows", "--mode", "battleaxe.cut", "-n", "10"],
                                     ["run", "skirmish", "-q"], ["view", "skirmish", "--frames", "1"],
                                     ["lab", "skirmish", "--runs", "2", "--jobs", "1", "--out", "lab"]])
def test_a_config_nested_500_deep_stops_every_command_with_exit_2(tmp_path: Path, command: list[str]) -> None:
    """The attack's nesting raised RecursionError in validate, body, blows, run, lab and view."""
    content = tree(tmp_path, {"weapons/battleaxe.toml": ("reach = 1.2", "reach = 1.2\n" + NESTED)})
    proc = sandbox(*command, "--content", str(content), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "nested at most 32 deep" in proc.stderr
    assert not (tmp_path / "lab").exists()


def test_a_lab_over_a_strength_of_10_21_is_refused_before_it_writes(tmp_path: Path) -> None:
    """3: ``attributes = { strength = 10**21 }`` validated, then the lab died in the odds (OverflowError) after
    writing its runs and plots, with no summary; now the content is refused before the lab's folder exists."""
    content = tree(tmp_path, {"creatures/human.toml": ("strength = 10", f"strength = {10**21}")})
    proc = sandbox("lab", "duel", "--runs", "2", "--jobs", "1", "--out", "lab", "--content", str(content),
                   cwd=tmp_path)
    assert proc.returncode == 2 and "attributes.strength" in proc.stderr, proc.stderr
    assert not (tmp_path / "lab").exists()


def test_a_bad_weapon_and_three_bad_model_tables_are_listed_at_once(tmp_path: Path) -> None:
    """7: validate listed only the weapon's problems; the tables' appeared once the weapon was fixed."""
    content = tree(tmp_path, {
        "weapons/battleaxe.toml": ("spread = 8", 'spread = "lots"'),
        "models/severity.toml": ("die = 3 ", "die = 0 "),
        "models/depth.toml": ("skill_divisor = 10", "skill_divisor = 0"),
        "models/status.toml": ("come_round_die = 20", "come_round_die = 0"),
    })
    proc = sandbox("validate", str(content), cwd=tmp_path)
    assert proc.returncode == 2
    for words in ("battleaxe.toml: modes#1.spread", "severity.toml: severity.die", "depth.toml: care.skill_divisor",
                  "status.toml: passing_out.come_round_die"):
        assert words in proc.stderr, (words, proc.stderr)


@pytest.mark.parametrize("order", ["broken first", "good first"])
def test_two_named_files_of_one_kind_and_id_are_each_checked(tmp_path: Path, order: str) -> None:
    """7: ``validate x/bodies/human.toml y/bodies/human.toml`` with x broken and y good said OK."""
    broken, good = tmp_path / "x" / "bodies" / "human.toml", tmp_path / "y" / "bodies" / "human.toml"
    for path in (broken, good):
        path.parent.mkdir(parents=True)
    text = (CONFIGS / "bodies" / "human.toml").read_text(encoding="utf-8")
    broken.write_text(text.replace("scale = 1.0", "scale = 99.0", 1), encoding="utf-8")
    good.write_text(text, encoding="utf-8")
    files = [broken, good] if order == "broken first" else [good, broken]
    proc = sandbox("validate", *map(str, files), cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "x/bodies/human.toml: scale" in proc.stderr


# ------------------------------------------------------------------ 2, 3, 9: command lines, each exit 2 or 0

CLI_CASES: dict[str, tuple[list[str], str]] = {
    "blows --strength 10**21": (["blows", "--strength", str(10**21)], "--strength"),
    "blows --shock-ml 10**21": (["blows", "--shock-ml", str(10**21)], "--shock-ml"),
    "lab --odds-blows 200000000": (["lab", "duel", "--runs", "2", "--odds-blows", "200000000"], "--odds-blows"),
    "lab --scheduler empty": (["lab", "duel", "--runs", "2", "--scheduler", ""], "not a scheduler address"),
    "lab --scheduler foo://bar": (["lab", "duel", "--runs", "2", "--scheduler", "foo://bar"],
                                  "not a scheduler address"),
    "lab --scheduler not a url": (["lab", "duel", "--runs", "2", "--scheduler", "not a url"],
                                  "not a scheduler address"),
    "lab --jobs 1000": (["lab", "duel", "--runs", "2", "--jobs", "1000"], "per core"),
    "view --speed nan": (["view", "duel", "--frames", "1", "--speed", "nan"], "--speed"),
    "view --speed inf": (["view", "duel", "--frames", "1", "--speed", "inf"], "--speed"),
    "view --speed -5": (["view", "duel", "--frames", "1", "--speed", "-5"], "--speed"),
    "view --model empty": (["view", "duel", "--frames", "1", "--model", ""], "--model"),
    "run --model empty": (["run", "duel", "--model", ""], "--model: expected one of anatomy"),
    "run an empty scenario": (["run", ""], "expected a scenario id"),
    "run a folder": (["run", "."], "found a folder"),
    "run /dev/zero": (["run", "/dev/zero"], "not a regular file"),
    "run a name of 5,000 characters": (["run", "x" * 5000], "(5,000 characters)"),
    "run --seed -1": (["run", "duel", "--seed", "-1"], "--seed"),
    "run --aftermath nan": (["run", "duel", "--aftermath", "nan"], "--aftermath"),
    "blows -n 10**12": (["blows", "-n", str(10**12)], "-n"),
}


@pytest.mark.parametrize("case", list(CLI_CASES))
def test_a_hostile_command_line_is_exit_2_and_writes_nothing(tmp_path: Path, case: str) -> None:
    args, words = CLI_CASES[case]
    proc = sandbox(*args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert words in proc.stderr, proc.stderr
    assert "no such file" not in proc.stderr.lower()
    assert all(len(line) < 300 for line in proc.stderr.splitlines()), proc.stderr  # long values cut
    assert list(tmp_path.iterdir()) == []


def test_messages_are_cut_once_and_escaped() -> None:
    once = readable(f"key: expected a name, found {'y' * 5000!r}")
    assert once == readable(once)  # cutting a cut message changes nothing
    assert "(5,000 characters)" in once and len(once) < 200
    assert escaped("a\u202eb\x00c\x1b[31m") == "a\\u202eb\\x00c\\x1b[31m"
    assert escaped("line\n\ttab é") == "line\n\ttab é"


# ------------------------------------------------------------------- 4: saves checked for meaning, SaveError


@pytest.fixture(scope="module")
def save_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("save") / "good.json"
    with Sandbox.from_scenario("duel", seed=1) as world:
        world.run(max_ticks=30)
        world.save(path)
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert doc["entities"][0]["model_state"]["Injury"]["wounds"], "the fixture needs a wounded creature"
    return doc


def _first(change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], object]:
    return lambda doc: change(doc["entities"][0])


def _injury(change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], object]:
    return _first(lambda e: change(e["model_state"]["Injury"]))


def _dead_with_health(e: dict[str, Any]) -> None:
    e["condition"]["dead"] = True
    e["model_state"]["Injury"]["health"] = 20


SAVE_CASES: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "a wound at level 99": (_injury(lambda i: i["wounds"][0].__setitem__("level", 99)),
                            "entities#1.model_state.Injury.wounds#1.level: expected a whole number from -5 to 5"),
    "a wound of aspect 77": (_injury(lambda i: i["wounds"][0].__setitem__("aspect", 77)),
                             "wounds#1.aspect: expected an aspect (0 to 3), found 77"),
    "a wound at location -1": (_injury(lambda i: i["wounds"][0].__setitem__("location", -1)),
                               "wounds#1.location: expected a location of the body (0 to 31), found -1"),
    "holding part 999": (_first(lambda e: e["equipment"].__setitem__("holding", {"999": "broadsword"})),
                         "entities#1.equipment.holding.999: expected a part of the body"),
    "immobilized part 999": (_first(lambda e: e["condition"].__setitem__("immobilized", [999])),
                             "entities#1.condition.immobilized#1: expected a part of the body"),
    "a team that is an int": (_first(lambda e: e["combatant"].__setitem__("team", 3)),
                              "entities#1.combatant.team: expected printable text"),
    "an ML as a string": (_first(lambda e: e["traits"]["mls"].__setitem__("strength", "50")),
                          "entities#1.traits.mls.strength: expected a whole number, found '50'"),
    "a position of 1e999": (_first(lambda e: e.__setitem__("position", [1e999, 5.0])),
                            "entities#1.position#1: expected a number from"),
    "anatomy relabelled severity": (lambda doc: doc.__setitem__("model", "severity"),
                                    "which the 'severity' model does not use"),
    "health 500": (_injury(lambda i: i.__setitem__("health", 500)),
                   "Injury.health: expected a whole number from 0 to 100, found 500"),
    "dead with health 20": (_first(_dead_with_health), "entities#1."),
    "speed -5": (_first(lambda e: e["traits"].__setitem__("speed", -5)),
                 "entities#1.traits.speed: expected a number from 0"),
    "policy bogus": (_first(lambda e: e["combatant"].__setitem__("policy", "bogus")),
                     "entities#1.combatant.policy: expected a target policy"),
    "an unknown mode": (_first(lambda e: e["combatant"].__setitem__("mode", "broadsword.tickle")),
                        "entities#1.combatant.mode: expected a strike mode the configs define"),
    "max_ticks -1": (lambda doc: doc.__setitem__("max_ticks", -1), "max_ticks: expected a whole number from 1"),
    "version true": (lambda doc: doc.__setitem__("version", True), "save version True"),
    "a stream missing": (lambda doc: doc["streams"].pop("attack"), "streams.attack: expected a value"),
    "a junk key": (lambda doc: doc.__setitem__("junk", 1), "junk: expected no such key"),
}


@pytest.mark.parametrize("case", list(SAVE_CASES))
def test_a_save_the_world_could_not_have_reached_is_refused_naming_the_key(tmp_path: Path, save_doc: dict[str, Any],
                                                                           case: str) -> None:
    edit, words = SAVE_CASES[case]
    doc = copy.deepcopy(save_doc)
    edit(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc).replace("Infinity", "1e999"), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Sandbox.load(bad)
    assert str(bad) in str(info.value) and words in str(info.value), str(info.value)


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder", "65 MB"])
def test_only_a_regular_file_of_at_most_64_mb_is_read_as_a_save(tmp_path: Path, kind: str) -> None:
    """``Sandbox.load('/dev/zero')`` ran until MemoryError, a FIFO blocked forever, a 300 MB save loaded."""
    path = Path("/dev/zero") if kind == "/dev/zero" else tmp_path / "save.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "65 MB":
        with path.open("wb") as fh:
            fh.truncate(65 * 1024 * 1024)  # sparse: its size is what is refused, nothing is read
    with pytest.raises(SaveError) as info:
        Sandbox.load(path)
    expected = {"/dev/zero": "a device, pipe or socket", "fifo": "a device, pipe or socket", "folder": "a folder",
                "65 MB": "larger than 64 MB"}[kind]
    assert expected in str(info.value)


def test_a_run_saved_and_continued_equals_the_uninterrupted_run(tmp_path: Path) -> None:
    """Every stream is in the save (a missing one is refused above), so a continuation is the same run."""
    with Sandbox.from_scenario("skirmish", seed=4) as whole:
        whole.run(max_ticks=40)
        expected = [e.to_dict() for e in whole.events]
    with Sandbox.from_scenario("skirmish", seed=4) as first:
        first.run(max_ticks=15)
        first.save(tmp_path / "half.json")
    with Sandbox.load(tmp_path / "half.json") as second:
        second.run(max_ticks=25)  # 25 more ticks: 40 in all
        assert [e.to_dict() for e in second.events] == expected
