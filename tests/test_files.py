"""Files a user can share (issue 12, point 4): everything the sandbox writes gets the permissions the user's umask
gives (0644 under 022) and is still written whole or not at all, through the one writer, ``sandbox.files``."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.files import atomic_folder, atomic_path, atomic_text

runner = CliRunner()


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_written_file_has_the_umasks_mode(tmp_path: Path, umask: None) -> None:
    with atomic_text(tmp_path / "a.txt") as fh:
        fh.write("x")
    assert mode(tmp_path / "a.txt") == 0o644
    os.umask(0o077)
    with atomic_text(tmp_path / "b.txt") as fh:
        fh.write("x")
    assert mode(tmp_path / "b.txt") == 0o600
    with atomic_path(tmp_path / "c.png", suffix=".tmp.png") as tmp:
        assert tmp.name.startswith(".c.png.") and tmp.name.endswith(".tmp.png")
        tmp.write_bytes(b"png")
    assert mode(tmp_path / "c.png") == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, umask: None) -> None:
    path = tmp_path / "keep.json"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_text(path) as fh:
        fh.write("half")
        raise RuntimeError("crash mid-write")
    assert path.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_a_folder_is_written_whole_or_not_at_all(tmp_path: Path, umask: None) -> None:
    with pytest.raises(RuntimeError), atomic_folder(tmp_path / "tree") as tmp:
        (tmp / "a.toml").write_text("a = 1", encoding="utf-8")
        raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []
    with atomic_folder(tmp_path / "tree") as tmp:
        (tmp / "a.toml").write_text("a = 1", encoding="utf-8")
    assert mode(tmp_path / "tree") == 0o755 and (tmp_path / "tree" / "a.toml").exists()


def test_command_outputs_are_shareable(tmp_path: Path, umask: None, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "events.jsonl"
    assert runner.invoke(app, ["run", "duel", "-q", "--log", str(log)]).exit_code == 0
    lab = tmp_path / "lab"
    assert runner.invoke(app, ["lab", "duel", "--runs", "3", "--jobs", "1", "--odds-blows", "0",
                               "--out", str(lab)]).exit_code == 0
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["schema"]).exit_code == 0
    outputs = [log, lab / "runs.csv", lab / "summary.json", tmp_path / "body.schema.json"]
    for path in outputs:
        assert mode(path) == 0o644, path
    from sandbox.world import Sandbox

    with Sandbox(seed=1) as world:
        world.spawn("human", name="A", team="A")
        world.save(tmp_path / "save.json")
    assert mode(tmp_path / "save.json") == 0o644
    assert json.loads((tmp_path / "save.json").read_text(encoding="utf-8"))["format"] == "combat-sandbox-save"


def test_schema_writes_into_the_current_folder_never_the_package(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox.config import config_root

    monkeypatch.chdir(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in (config_root() / "schemas").iterdir()}
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "scenario.schema.json").is_file() and (tmp_path / "content.schema.json").is_file()
    assert {p: p.stat().st_mtime_ns for p in (config_root() / "schemas").iterdir()} == before
    tree = tmp_path / "tree"
    assert runner.invoke(app, ["init", str(tree)]).exit_code == 0
    (tree / "schemas" / "body.schema.json").unlink()
    assert runner.invoke(app, ["schema", "--content", str(tree)]).exit_code == 0
    assert (tree / "schemas" / "body.schema.json").is_file()
    assert runner.invoke(app, ["schema", "--out", str(tmp_path / "elsewhere")]).exit_code == 0
    assert (tmp_path / "elsewhere" / "weapon.schema.json").is_file()
