"""The wheel is the product (issue 12, point 1): built from the repository, it carries the shipped content (the one
copy in ``configs/``) and the ``init`` starter, and the installed package works from an unrelated folder with no
clone in sight: ``validate``, ``run``, ``schema`` (into the working folder) and ``init`` then ``run --model all``.

The installed package runs with ``python -S`` and only the wheel's folder and this environment's dependencies on
the path, so neither the repository nor its editable install can stand in for it. ``.ci/run`` checks the wheel again
in a fresh virtual environment of its own (``pip install`` with its dependencies).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.game_folder import make_game_folder, run_in_game_folder, run_testing_example

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(out)], check=True,
                   capture_output=True, timeout=600)
    (found,) = out.glob("combat_sandbox-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    return target


def sandbox(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m sandbox ARGS`` from ``cwd`` on the installed wheel (no site: no editable install, no clone)."""
    path = os.pathsep.join([str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": path, "SANDBOX_CACHE": "off", "SDL_VIDEODRIVER": "dummy"}
    env.pop("SANDBOX_CONTENT", None)
    return subprocess.run([sys.executable, "-S", "-m", "sandbox", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_wheel_carries_one_copy_of_the_shipped_content(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.removeprefix("sandbox/shipped/") for n in names if n.startswith("sandbox/shipped/")}
    in_repo = {p.relative_to(REPO / "configs").as_posix() for p in (REPO / "configs").rglob("*")
               if p.is_file() and p.suffix in (".toml", ".json")}
    assert in_repo <= shipped and "content.toml" in shipped and "schemas/content.schema.json" in shipped
    assert not [n for n in names if n.startswith("configs/")]  # no second top-level copy
    assert "sandbox/starter/creatures/kobold.toml" in names and "sandbox/starter/README.md" in names


def test_the_installed_package_works_from_an_unrelated_folder(installed: Path, tmp_path: Path) -> None:
    where = sandbox(installed, tmp_path, "--version")
    assert where.returncode == 0 and where.stdout.startswith("combat-sandbox ")
    checked = sandbox(installed, tmp_path, "validate")
    assert checked.returncode == 0, checked.stderr
    assert f"valid under {installed / 'sandbox' / 'shipped'}" in checked.stdout  # the wheel's copy, not the repo's
    ran = sandbox(installed, tmp_path, "run", "skirmish", "-q")
    assert ran.returncode == 0 and " ticks (" in ran.stdout, ran.stderr
    body = sandbox(installed, tmp_path, "body", "wolf")
    assert body.returncode == 0 and "Gray Wolf" in body.stdout
    schema = sandbox(installed, tmp_path, "schema")
    assert schema.returncode == 0 and (tmp_path / "body.schema.json").is_file()
    assert sorted(p.name for p in (installed / "sandbox" / "shipped" / "schemas").iterdir()) == sorted(
        p.name for p in (REPO / "configs" / "schemas").iterdir())  # nothing written into the package


def test_init_and_run_a_tree_on_the_installed_package(installed: Path, tmp_path: Path) -> None:
    assert sandbox(installed, tmp_path, "init", "bestiary").returncode == 0
    checked = sandbox(installed, tmp_path, "validate", "bestiary", "--explain")
    assert checked.returncode == 0, checked.stderr
    assert "kobold" in checked.stdout
    ran = sandbox(installed, tmp_path, "run", "bestiary/scenarios/kobold_ambush.toml", "--model", "all")
    assert ran.returncode == 0, ran.stderr
    assert all(model in ran.stdout for model in ("anatomy", "severity", "depth", "strength", "status"))


def test_the_readme_embedding_runs_beside_a_games_own_components_and_systems(installed: Path, tmp_path: Path) -> None:
    """An installed sandbox adds no top-level ``components`` or ``systems``: a game that has both imports its own
    and the sandbox's (issue 31)."""
    path = os.pathsep.join([str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": path, "SANDBOX_CACHE": "off"}
    env.pop("SANDBOX_CONTENT", None)
    results = run_in_game_folder([sys.executable, "-S"], make_game_folder(tmp_path / "my-game"), env)
    assert len(results) >= 3
    for result in results:
        assert result.returncode == 0, result.stderr
    top_level = {p.name for p in installed.iterdir() if not p.name.endswith(".dist-info") and p.name != "bin"}
    assert top_level == {"sandbox"}


def test_the_readme_testing_example_runs_under_pytest_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """The game's own test file, no conftest, no ``-p``: the fixtures come from the wheel's ``pytest11`` entry point
    (issue 32, point 8), beside the game's own ``components`` and ``systems``."""
    path = os.pathsep.join([str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": path, "SANDBOX_CACHE": "off"}
    env.pop("SANDBOX_CONTENT", None)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_PLUGINS", None)
    result, tests = run_testing_example([sys.executable, "-S"], make_game_folder(tmp_path / "my-game"), env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{tests} passed" in result.stdout and tests >= 2
    entry_points = next(installed.glob("combat_sandbox-*.dist-info")) / "entry_points.txt"
    assert "[pytest11]" in entry_points.read_text(encoding="utf-8")


@pytest.mark.skipif(importlib.util.find_spec("pdoc") is None, reason="pdoc is in the test and docs extras")
def test_the_api_reference_builds_from_the_installed_package_as_committed(installed: Path, tmp_path: Path) -> None:
    """``python -m sandbox.docs`` needs no clone, and the installed package gives the very reference in
    ``docs/api/`` (no path, clone or machine in it)."""
    path = os.pathsep.join([str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": path}
    built = subprocess.run([sys.executable, "-S", "-m", "sandbox.docs", "--out", "api"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    fresh = {p.relative_to(tmp_path / "api").as_posix(): p.read_bytes() for p in (tmp_path / "api").rglob("*.*")}
    committed = {p.relative_to(REPO / "docs" / "api").as_posix(): p.read_bytes()
                 for p in (REPO / "docs" / "api").rglob("*.*")}
    assert fresh.keys() == committed.keys()
    assert [name for name in fresh if fresh[name] != committed[name]] == []
