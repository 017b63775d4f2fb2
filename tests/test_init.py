"""``sandbox init DIR`` (issue 12, point 2): a starter content tree whose body, weapon, armour piece, creature and
scenario use each other, every file with its ``#:schema`` line, a README saying what each folder is for; it
validates and runs under every model as written, and a folder that cannot take it is refused with nothing written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.config.layout import kind_of
from sandbox.init_tree import content_name, starter_files
from sandbox.models import available_models

runner = CliRunner()


def test_init_writes_a_tree_whose_parts_use_each_other(tmp_path: Path) -> None:
    folder = tmp_path / "My Bestiary"
    result = runner.invoke(app, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"content.toml", "README.md", "bodies/kobold.toml", "weapons/kobold_spear.toml",
            "armor/kobold_scale_vest.toml", "creatures/kobold.toml", "scenarios/kobold_ambush.toml",
            "schemas/body.schema.json", "schemas/content.schema.json"} <= files
    assert (folder / "models").is_dir()
    manifest = (folder / "content.toml").read_text(encoding="utf-8")
    assert 'name = "my-bestiary"' in manifest and 'extends = "sandbox"' in manifest and "version" in manifest
    for path in folder.rglob("*.toml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = kind_of(path)
        assert first.startswith("#:schema ") and first.endswith(f"{kind}.schema.json"), path
        assert (path.parent / first.split()[1]).resolve().is_file(), path  # the schema it points at is there
    creature = (folder / "creatures" / "kobold.toml").read_text(encoding="utf-8")
    assert 'body = "kobold"' in creature and '"kobold_spear"' in creature and '"kobold_scale_vest"' in creature
    assert 'creature = "kobold"' in (folder / "scenarios" / "kobold_ambush.toml").read_text(encoding="utf-8")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for part in ("content.toml", "bodies/", "weapons/", "armor/", "creatures/", "scenarios/", "models/", "schemas/"):
        assert f"`{part}`" in readme, part
    assert "next: sandbox validate" in result.output


def test_the_starter_validates_and_runs_under_every_model_right_away(tmp_path: Path) -> None:
    folder = tmp_path / "tree"
    assert runner.invoke(app, ["init", str(folder)]).exit_code == 0
    checked = runner.invoke(app, ["validate", str(folder)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.startswith("OK:") and "with content tree" in checked.output
    ran = runner.invoke(app, ["run", str(folder / "scenarios" / "kobold_ambush.toml"), "--model", "all"])
    assert ran.exit_code == 0, ran.output
    for model in available_models():
        assert model in ran.output, model
    for model in available_models():
        alone = runner.invoke(app, ["run", str(folder / "scenarios" / "kobold_ambush.toml"), "--model", model, "-q"])
        assert alone.exit_code == 0, (model, alone.output)


def test_init_files_get_the_umasks_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert runner.invoke(app, ["init", str(tmp_path / "tree")]).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "tree").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "tree" / "creatures").stat().st_mode) == 0o755
    for path in (tmp_path / "tree").rglob("*"):
        if path.is_file():
            assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


@pytest.mark.parametrize("case", ["not empty", "a file", "bad name"])
def test_init_refuses_a_folder_that_cannot_take_a_tree(tmp_path: Path, case: str) -> None:
    target = tmp_path / "tree"
    args = ["init", str(target)]
    if case == "not empty":
        target.mkdir()
        (target / "notes.txt").write_text("mine", encoding="utf-8")
        words = "the folder is not empty"
    elif case == "a file":
        target.write_text("x", encoding="utf-8")
        words = "it is a file"
    else:
        args += ["--name", "My Content"]
        words = "cannot name the content 'My Content'"
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and words in result.stderr and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written, no temporary left


def test_init_takes_an_empty_folder_and_names(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert runner.invoke(app, ["init", str(tmp_path / "empty"), "--name", "kobolds"]).exit_code == 0
    assert 'name = "kobolds"' in (tmp_path / "empty" / "content.toml").read_text(encoding="utf-8")
    assert content_name(Path("3 Goblin Tales!")) == "goblin-tales" and content_name(Path("123")) == "my-content"


def test_the_packaged_starter_is_what_init_copies() -> None:
    files = starter_files()
    assert set(files) == {"content.toml", "README.md", "bodies/kobold.toml", "weapons/kobold_spear.toml",
                          "armor/kobold_scale_vest.toml", "creatures/kobold.toml", "scenarios/kobold_ambush.toml"}
