"""The validated-content cache (``sandbox/config/cache.py``): a report is kept only when the content validated, and
any change to what the answer depends on (a file, a tree's layout, the code, the options) asks again in full."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sandbox
from sandbox.config.cache import cache_folder, fingerprint
from sandbox.config.content import shipped_root

STARTER = Path(__file__).resolve().parents[1] / "sandbox" / "starter"


def validate(cache: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sandbox", "validate", *args], capture_output=True, text=True,
                          env={**os.environ, "SANDBOX_CACHE": str(cache)}, cwd=cwd, timeout=120)


def test_a_clean_report_is_kept_and_a_changed_file_is_checked_again(tmp_path: Path) -> None:
    cache, tree = tmp_path / "cache", tmp_path / "tree"
    shutil.copytree(STARTER, tree)
    first = validate(cache, str(tree))
    assert first.returncode == 0 and len(list(cache.glob("*.txt"))) == 1
    assert validate(cache, str(tree)).stdout == first.stdout
    creature = tree / "creatures" / "kobold.toml"
    creature.write_text(creature.read_text(encoding="utf-8").replace('body = "kobold"', 'body = "koblod"'),
                        encoding="utf-8")
    broken = validate(cache, str(tree))
    assert broken.returncode == 2 and "found 'koblod'; did you mean 'kobold'?" in broken.stderr
    assert len(list(cache.glob("*.txt"))) == 1  # a report with problems is never kept
    creature.write_text(creature.read_text(encoding="utf-8").replace('"koblod"', '"kobold"'), encoding="utf-8")
    assert validate(cache, str(tree)).stdout == first.stdout


def test_a_new_folder_in_a_tree_is_checked_again(tmp_path: Path) -> None:
    cache, tree = tmp_path / "cache", tmp_path / "tree"
    shutil.copytree(STARTER, tree)
    assert validate(cache, str(tree)).returncode == 0
    (tree / "weapon").mkdir()
    (tree / "weapon" / "axe.toml").write_text('name = "Axe"\n', encoding="utf-8")
    again = validate(cache, str(tree))
    assert again.returncode == 2 and "did you mean 'weapons'?" in again.stderr


def test_the_key_covers_code_options_content_and_the_working_folder(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = shipped_root()
    key = fingerprint(["validate", "False"], root, (), [])
    assert key == fingerprint(["validate", "False"], root, (), [])
    assert key != fingerprint(["validate", "True"], root, (), [])
    tree = tmp_path / "tree"
    shutil.copytree(STARTER, tree)
    assert key != fingerprint(["validate", "False"], root, (tree,), [])
    assert fingerprint(["validate", "False"], root, (), [Path("/dev/zero")]) is None  # the full check says why
    monkeypatch.setattr(sandbox, "__version__", "99")
    assert key != fingerprint(["validate", "False"], root, (), [])
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert key != fingerprint(["validate", "False"], root, (), [])


def test_the_cache_can_be_moved_or_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_CACHE", "off")
    assert cache_folder() is None
    monkeypatch.setenv("SANDBOX_CACHE", str(tmp_path))
    assert cache_folder() == tmp_path
    monkeypatch.delenv("SANDBOX_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "combat-sandbox" / "validated"
    off = subprocess.run([sys.executable, "-m", "sandbox", "validate"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "SANDBOX_CACHE": "off", "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert off.returncode == 0 and not (tmp_path / "xdg").exists()
