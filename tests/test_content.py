"""Content trees (issue 12, point 2): a folder with the shipped layout and a ``content.toml`` extends the shipped
content: its ids add, a shipped id is replaced (``validate`` says so), its rule files override key by key; every
command takes ``--content`` (default: ``SANDBOX_CONTENT``, the command line's default only: the library takes the
trees as an argument and never reads it), and a scenario inside a tree brings its tree. Bad input is one clear error
naming the file (and line, and the closest known id), exit 2, no traceback, nothing written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import CONTENT_ENV, app, content_default
from sandbox.config import ConfigError, config_root, default_catalog, load_catalog
from sandbox.config.content import ScenarioRef, find_tree, resolve_content, scenario_ref
from sandbox.models import load_model
from sandbox.world import Sandbox, SandboxError

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
    write(tree / "models" / "depth.toml", "[attack]\ncalled_shot_modifer = -4\n")
    code, out = cli("validate", str(tree))
    assert code == 2, out
    assert (f"{tree / 'sandbox.toml'}: combat.tick_secs: expected no such key (unknown keys are rejected), found 6.0; "
            "did you mean 'tick_seconds'?") in out.replace(str(tree.absolute()), str(tree))
    assert "models/depth.toml: attack.called_shot_modifer: expected no such key" in out
    assert "did you mean 'called_shot_modifier'?" in out


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


def test_the_flag_wins_over_the_variable(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_content([tree], near=()) == (tree.absolute(),)
    monkeypatch.setenv(CONTENT_ENV, os.pathsep.join([str(tmp_path / "elsewhere"), "", str(tree)]))
    assert content_default() == [tmp_path / "elsewhere", tree]  # the command line's default, empty entries skipped
    assert resolve_content([tree]) == (tree.absolute(),)  # the library reads only what it is given
    code, out = cli("body", "kobold", "--content", str(tree))
    assert code == 0, out
    code, out = cli("body", "kobold")  # the default: elsewhere does not exist
    assert code == 2 and "elsewhere: (file): expected a content folder" in out, out


def test_the_variable_changes_nothing_for_the_library(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SANDBOX_CONTENT`` is the CLI's default for ``--content``: a library user passes ``content=``."""
    monkeypatch.setenv(CONTENT_ENV, str(tree))
    assert "kobold" not in load_catalog().creatures and "kobold" not in default_catalog().creatures
    assert load_catalog().content == () and default_catalog().content == ()
    with Sandbox(seed=1) as world:
        assert world.catalog.content == ()
        with pytest.raises(SandboxError, match="kobold"):
            world.spawn("kobold")
    with pytest.raises(ConfigError, match="kobold_ambush"):
        Sandbox.from_scenario("kobold_ambush")
    with Sandbox.from_scenario("kobold_ambush", content=[tree]) as world:  # what the library is given, it uses
        assert world.catalog.content == (tree.absolute(),) and "Kobold 1" in world.names.values()
    assert scenario_ref("kobold_ambush") == ScenarioRef("kobold_ambush")
    code, out = cli("run", "kobold_ambush", "--quiet")  # and the command line's default does change
    assert code == 0 and "Kobold 1" in out, out


def test_a_scenario_is_resolved_once_with_its_file_tree_and_content(tree: Path, tmp_path: Path) -> None:
    other = write(tmp_path / "other" / "content.toml", 'name = "other"\nversion = "1"\nextends = "sandbox"\n').parent
    ref = scenario_ref(tree / AMBUSH, content=[other])
    assert ref == ScenarioRef(str(tree / AMBUSH), (tree / AMBUSH).absolute(), tree.absolute(),
                              (other.absolute(), tree.absolute()))
    assert scenario_ref(ref) is ref  # resolved already: handed on as it is
    with pytest.raises(ValueError, match="give no content"):
        scenario_ref(ref, content=[other])
    by_id = scenario_ref("kobold_ambush", content=[tree, tree])
    assert by_id == ScenarioRef("kobold_ambush", None, None, (tree.absolute(),))
    with Sandbox.from_scenario(by_id, seed=2) as a, Sandbox.from_scenario(ref, seed=2) as b:
        assert a.catalog.content == (tree.absolute(),) and b.catalog.content == (other.absolute(), tree.absolute())
        assert [e.to_dict() for e in a.step()] == [e.to_dict() for e in b.step()]


def test_a_lab_with_content_on_a_process_pool_gives_the_records_of_one_process(tree: Path, tmp_path: Path) -> None:
    """The trees travel with the work the lab ships (its plan's scenario), not in an environment workers inherit."""
    args = ["lab", "kobold_ambush", "--runs", "6", "--chunk", "2", "--models", "anatomy,severity", "--odds-blows",
            "0", "--content", str(tree)]
    pooled = runner.invoke(app, [*args, "--jobs", "2", "--out", str(tmp_path / "pool")])
    alone = runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "alone")])
    assert pooled.exit_code == 0 and alone.exit_code == 0, (pooled.output, alone.output)
    assert os.environ.get(CONTENT_ENV) is None
    for name in ("runs.csv", "combatants.csv", "blows.csv"):
        assert (tmp_path / "pool" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes()
    assert "Kobold 1" in (tmp_path / "alone" / "combatants.csv").read_text(encoding="utf-8")


def test_the_viewer_and_a_save_take_the_content_trees(tree: Path, tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from sandbox.viewer import Viewer, run_headless

    viewer = run_headless(Viewer("kobold_ambush", content=[tree], speed=8), frames=30)
    try:
        world = viewer.world
        assert world is not None and world.catalog.content == (tree.absolute(),) and viewer.tick > 0
        viewer.restart()  # a new seed: built again from the same resolved scenario, over the same content
        assert viewer.world is not None and viewer.world.catalog.content == (tree.absolute(),)
    finally:
        viewer.close()
    with pytest.raises(ValueError, match="content= goes with a scenario"):
        Viewer(lambda seed, model: Sandbox.from_scenario("duel", seed), content=[tree])
    with Sandbox.from_scenario("kobold_ambush", seed=1, content=[tree]) as world:
        world.run(3)
        world.save(tmp_path / "save.json")
    with Sandbox.load(tmp_path / "save.json", content=[tree]) as loaded:
        assert loaded.tick == 3 and loaded.catalog.content == (tree.absolute(),)
    saved = Viewer.saved(tmp_path / "save.json", content=[tree])
    saved.close()


def test_only_the_command_line_reads_the_content_variable() -> None:
    """``SANDBOX_CONTENT`` is read in one place (``sandbox.cli.content_default``) and no code carries content trees
    in the environment."""
    root = Path(__file__).resolve().parents[1]
    readers, writers = [], []
    for path in sorted({*root.glob("sandbox/**/*.py"), *root.glob("systems/**/*.py"),
                        *root.glob("components/**/*.py")}):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(root))
        if re.search(r"[\"']SANDBOX_CONTENT[\"']|\bCONTENT_ENV\b", text):
            readers.append(rel)
        if re.search(r"environ\[[^]]*\]\s*=|putenv|environ\.update|environ\.pop", text):
            writers.append(rel)
    # The API reference's build sets its tools' own variables for its length (pygame's driver and banner, pdoc's
    # display of constants) and restores them: none of them carries content, which is what this test guards.
    assert readers == ["sandbox/cli.py"] and writers in ([], ["sandbox/docs.py"])
    docs_text = (root / "sandbox" / "docs.py").read_text(encoding="utf-8")
    assert "SANDBOX_" not in docs_text.split("def _environment", 1)[1].split("\ndef ", 1)[0]
    cli_text = (root / "sandbox" / "cli.py").read_text(encoding="utf-8")
    assert cli_text.count("os.environ") == 1 and "os.environ.get(CONTENT_ENV" in cli_text


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
