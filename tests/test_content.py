"""Content trees (issue 12, point 2): a folder with the shipped layout and a ``content.toml`` extends the shipped
content: its ids add, a shipped id is replaced (``validate`` says so), its rule files override key by key; every
command takes ``--content`` and ``SANDBOX_CONTENT``, and a scenario inside a tree brings its tree. Bad input is one
clear error naming the file (and line, and the closest known id), exit 2, no traceback, nothing written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.config import ConfigError, config_root, default_catalog, load_catalog
from sandbox.config.content import CONTENT_ENV, find_tree, resolve_content
from sandbox.models import load_model
from sandbox.world import Sandbox

runner = CliRunner()
STARTER = Path(__file__).resolve().parents[1] / "sandbox" / "starter"
AMBUSH = Path("scenarios") / "kobold_ambush.toml"


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env=env)
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in out, out
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, out


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the starter content tree (a kobold with its own body, spear and vest, and an ambush)."""
    folder = tmp_path / "mytree"
    shutil.copytree(STARTER, folder)
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def shipped(rel: str) -> str:
    return (config_root() / rel).read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------------------- extending


def test_a_tree_adds_its_ids_to_the_shipped_ones(tree: Path) -> None:
    catalog = load_catalog(content=[tree])
    shipped_ids = default_catalog()
    assert set(catalog.creatures) == set(shipped_ids.creatures) | {"kobold"}
    assert set(catalog.bodies) == set(shipped_ids.bodies) | {"kobold"}
    assert {"kobold_spear.impale", "kobold_spear.shaft"} <= set(catalog.modes)
    assert catalog.armor["kobold_scale_vest"].body == "kobold" and "kobold_ambush" in catalog.scenarios
    assert catalog.content == (tree.absolute(),) and catalog.notes == ()


def test_a_shipped_id_in_a_tree_replaces_the_shipped_entry_and_validate_says_so(tree: Path) -> None:
    write(tree / "creatures" / "wolf.toml", shipped("creatures/wolf.toml").replace('name = "Gray Wolf"',
                                                                                   'name = "Dire Wolf"'))
    catalog = load_catalog(content=[tree])
    assert catalog.creatures["wolf"].name == "Dire Wolf"
    code, out = cli("validate", "--content", str(tree))
    assert code == 0, out
    lines = [line for line in out.splitlines() if "replaces" in line]
    assert len(lines) == 1 and lines[0].startswith(str(tree / "creatures" / "wolf.toml"))
    assert "replaces the shipped creature 'wolf'" in lines[0]


def test_rule_files_override_key_by_key(tree: Path) -> None:
    write(tree / "sandbox.toml", "[combat]\ntick_seconds = 6.0\n")
    write(tree / "skills.toml", '[skills.webbing]\nname = "Webbing"\nkind = "skill"\n\n'
                                '[skills.dodge]\nname = "Evade"\n')
    write(tree / "models" / "anatomy.toml", "[injury]\nthresholds = [1.0, 4.0, 9.0, 14.0, 19.0]\n")
    write(tree / "models" / "severity.toml", "[down]\nrecovery_hours = 2.0\n")
    catalog = load_catalog(content=[tree])
    shipped_catalog = default_catalog()
    assert catalog.combat.tick_seconds == 6.0
    assert catalog.combat.default_speed == shipped_catalog.combat.default_speed  # the keys left alone stay
    assert catalog.skills["webbing"].name == "Webbing" and catalog.skills["dodge"].name == "Evade"
    assert catalog.skills["dodge"].kind == shipped_catalog.skills["dodge"].kind
    assert catalog.rules.thresholds == (1.0, 4.0, 9.0, 14.0, 19.0)
    assert catalog.rules.scale_min == shipped_catalog.rules.scale_min
    rules = load_model("severity", catalog).model.rules  # type: ignore[attr-defined]
    assert rules.recovery == 2.0 * 3600 and rules.exposed_death == 24.0 * 3600


def test_an_override_of_a_key_that_does_not_exist_names_the_trees_file(tree: Path) -> None:
    write(tree / "sandbox.toml", "[combat]\ntick_secs = 6.0\n")
    write(tree / "models" / "depth.toml", "[attack]\nnatural_twenty_hits = false\n")
    code, out = cli("validate", str(tree))
    assert code == 2, out
    assert (f"{tree / 'sandbox.toml'}: combat.tick_secs: expected no such key (unknown keys are rejected), found 6.0; "
            "did you mean 'tick_seconds'?") in out.replace(str(tree.absolute()), str(tree))
    assert "models/depth.toml: attack.natural_twenty_hits: expected no such key" in out
    assert "did you mean 'natural_20_hits'?" in out


def test_a_tree_may_not_know_a_damage_model_or_a_folder_that_does_not_exist(tree: Path) -> None:
    write(tree / "models" / "severty.toml", "[down]\nrecovery_hours = 2.0\n")
    write(tree / "creature" / "spider.toml", 'name = "Spider"\nbody = "kobold"\n')
    code, out = cli("validate", str(tree))
    assert code == 2, out
    assert "severty.toml" in out and "did you mean 'severity.toml'?" in out
    assert "mytree/creature: (file): expected a folder of the content layout" in out
    assert "did you mean 'creatures'?" in out


def test_two_trees_defining_one_id_is_an_error_naming_both(tree: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(STARTER, other)
    (other / "content.toml").write_text((other / "content.toml").read_text(encoding="utf-8").replace(
        'name = "starter"', 'name = "other"'), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_catalog(content=[tree, other])
    text = str(info.value)
    assert "other/creatures/kobold.toml: (file): expected a creature id no other content tree defines" in text
    assert "mytree/creatures/kobold.toml too" in text


def test_two_trees_overriding_one_key_is_an_error(tree: Path, tmp_path: Path) -> None:
    other = write(tmp_path / "other" / "content.toml", 'name = "other"\nversion = "1"\nextends = "sandbox"\n').parent
    write(tree / "sandbox.toml", "[combat]\ntick_seconds = 6.0\n")
    write(other / "sandbox.toml", "[combat]\ntick_seconds = 12.0\n")
    with pytest.raises(ConfigError, match=r"other/sandbox\.toml: combat\.tick_seconds: expected a key no other "
                                          r"content tree overrides, found one .*mytree/sandbox\.toml sets too"):
        load_catalog(content=[tree, other])


# ------------------------------------------------------------------------------------------ finding the tree


def test_a_scenario_inside_a_tree_brings_its_tree(tree: Path) -> None:
    scenario = tree / AMBUSH
    assert find_tree(scenario) == tree.absolute() and find_tree(tree / "bodies") == tree.absolute()
    assert find_tree(config_root() / "scenarios" / "duel.toml") is None  # the shipped content is the base
    code, out = cli("run", str(scenario), "--quiet")
    assert code == 0, out
    assert "Kobold 1" in out and "Guard" in out
    world = Sandbox.from_scenario(scenario, seed=2)  # the embedding API finds it too
    assert world.catalog.content == (tree.absolute(),)
    world.close()
    with Sandbox(seed=2, content=[tree]) as world:
        kobold = world.spawn("kobold", name="K", team="K")
        assert world.entity("K") == kobold and world.catalog.content == (tree.absolute(),)


def test_content_flag_and_variable_resolve_ids_for_every_command(tree: Path, tmp_path: Path) -> None:
    env = {CONTENT_ENV: str(tree)}
    for args in (("body", "kobold"), ("blows", "--body", "kobold", "--mode", "kobold_spear.impale", "-n", "50"),
                 ("run", "kobold_ambush", "--quiet", "--model", "all"),
                 ("lab", "kobold_ambush", "--runs", "4", "--jobs", "1", "--odds-blows", "0", "--out",
                  str(tmp_path / "lab"))):
        code, out = cli(*args, "--content", str(tree))
        assert code == 0, (args, out)
        if args[0] == "lab":  # a lab writes into an empty or new folder only (--force replaces it)
            args = (*args, "--force")
        code, out = cli(*args, env=env)
        assert code == 0, (args, out)
        code, out = cli(*args)  # the shipped content alone knows none of it
        assert code == 2 and "kobold" in out, (args, out)
    assert os.environ.get(CONTENT_ENV) is None  # a command leaves the caller's environment as it was


def test_the_flag_wins_over_the_variable(tree: Path, tmp_path: Path) -> None:
    assert resolve_content([tree], near=()) == (tree.absolute(),)
    os.environ[CONTENT_ENV] = str(tmp_path / "elsewhere")
    try:
        assert resolve_content([tree]) == (tree.absolute(),)
        assert resolve_content(None) == ((tmp_path / "elsewhere").absolute(),)
    finally:
        del os.environ[CONTENT_ENV]


def test_view_resolves_the_tree_headless(tree: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "sandbox", "view", str(tree / AMBUSH), "--frames", "3",
                           "--screenshot", str(shot)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert proc.returncode == 0, proc.stderr
    assert shot.read_bytes().startswith(b"\x89PNG")


# ------------------------------------------------------------------------------------------------- bad input


def test_a_missing_content_folder(tmp_path: Path) -> None:
    code, out = cli("validate", "--content", str(tmp_path / "nowhere"))
    assert code == 2 and "nowhere: (file): expected a content folder (with a content.toml manifest), found no such " \
                          "folder" in out


def test_a_folder_without_a_manifest(tmp_path: Path) -> None:
    (tmp_path / "plain" / "bodies").mkdir(parents=True)
    code, out = cli("run", "duel", "--quiet", "--content", str(tmp_path / "plain"))
    assert code == 2 and "expected a content folder with a content.toml manifest ('sandbox init DIR' writes" in out


def test_an_unreadable_content_folder(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listing = Path.iterdir

    def refused(self: Path) -> Iterator[Path]:  # what a folder without read permission does (even for root)
        if self == tree:
            raise PermissionError(13, "Permission denied")
        return listing(self)

    monkeypatch.setattr(Path, "iterdir", refused)
    code, out = cli("validate", "--content", str(tree))
    assert code == 2 and "mytree: (file): expected a readable content folder, found an unreadable folder " \
                          "(Permission denied)" in out


def test_a_manifest_that_is_not_toml_names_its_line(tree: Path) -> None:
    write(tree / "content.toml", 'name = "starter"\nversion = 1.0.0\nextends = "sandbox"\n')
    code, out = cli("validate", str(tree))
    assert code == 2
    assert "mytree/content.toml: line 2, column 14: expected valid TOML 1.0, found a syntax error" in out


def test_a_manifest_that_names_content_that_does_not_exist(tree: Path) -> None:
    write(tree / "content.toml", 'name = "starter"\nversion = "1"\nextends = "sandbx"\n')
    code, out = cli("validate", str(tree))
    assert code == 2
    assert ("mytree/content.toml: extends (\"starter\"): expected the shipped content ('sandbox'), found 'sandbx'; "
            "did you mean 'sandbox'?") in out


def test_a_scenario_outside_any_tree_naming_an_id_found_nowhere(tmp_path: Path) -> None:
    text = shipped("scenarios/duel.toml").replace('creature = "human"', 'creature = "humna"', 1)
    path = write(tmp_path / "loose" / "duel.toml", text)
    log = tmp_path / "events.jsonl"
    code, out = cli("run", str(path), "--log", str(log))
    assert code == 2
    assert (f"{path}: combatants#1.creature (\"Aldric\"): expected a creature in creatures/, found 'humna'; did you "
            "mean 'human'?") in out
    assert not log.exists()


def test_one_bad_file_fails_every_command_with_every_problem_at_once(tree: Path, tmp_path: Path) -> None:
    """All or nothing: the tree is refused whole by each command that loads it, each problem listed once."""
    body = tree / "bodies" / "kobold.toml"
    body.write_text(body.read_text(encoding="utf-8").replace('zone = "Tail"', 'zone = "Tale"'), encoding="utf-8")
    creature = tree / "creatures" / "kobold.toml"
    creature.write_text(creature.read_text(encoding="utf-8").replace('weapons = ["kobold_spear"]',
                                                                     'weapons = ["kobold_spaer"]'), encoding="utf-8")
    out_dir = tmp_path / "lab"
    for args in (("validate", str(tree)), ("run", str(tree / AMBUSH)), ("body", "human", "--content", str(tree)),
                 ("blows", "--content", str(tree)), ("run", "duel", "--content", str(tree)),
                 ("lab", str(tree / AMBUSH), "--runs", "2", "--out", str(out_dir))):
        code, out = cli(*args)
        assert code == 2, (args, out)
        assert "2 problems in config files:" in out, (args, out)
        assert "parts#7.zone (\"Tail\"): expected a defined zone" in out and "did you mean 'Tail'?" in out
        assert "weapons#1 (\"Kobold\"): expected a weapon in weapons/, found 'kobold_spaer'; did you mean " \
               "'kobold_spear'?" in out
    assert not out_dir.exists()  # nothing written


def test_a_scenario_of_a_bad_tree_writes_no_log(tree: Path, tmp_path: Path) -> None:
    write(tree / "armor" / "broken.toml", 'name = "Broken"\nbody = "kobold"\nrigid = "yes"\ncovers = []\n')
    log = tmp_path / "events.jsonl"
    proc = subprocess.run([sys.executable, "-m", "sandbox", "run", str(tree / AMBUSH), "--log", str(log)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "mytree/armor/broken.toml: rigid (\"Broken\"): expected a valid boolean, found 'yes'" in proc.stderr
    assert "covers (\"Broken\"): expected" in proc.stderr and "protection (\"Broken\")" in proc.stderr
    assert not log.exists() and proc.stdout == ""
