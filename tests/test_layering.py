"""The architecture's one-way rule: components <- systems <- the application <- viewer/cli, under one import root.

``lint-imports`` (the contracts in pyproject.toml, run by ``.ci/run``) checks every import; these tests pin the
few facts a reader checks first."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.sources import ROOT, source_files


def is_a_model_reader(path: Path) -> bool:
    """A model package's TOML reader (``systems/models/<model>/tables.py``): it reads through the application's config
    machinery, the one exception to the layers."""
    return path.name == "tables.py" and path.parent.parent.name == "models"


def imports_of(folder: str, *, readers: bool = False) -> set[str]:
    """Every module named by an absolute import in the real folder ``folder`` (``components``, ``systems``); a model's
    TOML readers only when ``readers``."""
    found = set()
    for path in source_files(folders=(folder,)):
        if is_a_model_reader(path) and not readers:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
    return found


def roots(modules: set[str]) -> set[str]:
    """The top-level names of ``modules``, with ``sandbox.components`` and ``sandbox.systems`` as their own."""
    return {".".join(m.split(".")[:2]) if m.startswith("sandbox.") else m.split(".")[0] for m in modules}


def test_components_import_only_the_stdlib() -> None:
    assert roots(imports_of("components")) - set(sys.stdlib_module_names) <= {"sandbox.components"}


def test_systems_import_neither_pygame_nor_the_application() -> None:
    # numba: the array engine's compiled loops (systems/arrays/compiled.py), a declared dependency
    assert roots(imports_of("systems")) - set(sys.stdlib_module_names) <= {
        "sandbox.components", "sandbox.systems", "numpy", "numba", "esper"}
    # The readers are the exception, and they read the content only: never the world, the CLI or the viewer.
    assert roots(imports_of("systems", readers=True)) - set(sys.stdlib_module_names) <= {
        "sandbox.components", "sandbox.systems", "sandbox.config", "sandbox.models", "pydantic", "numpy", "numba",
        "esper"}


def test_every_import_of_our_code_goes_through_the_one_root() -> None:
    """No module imports ``components`` or ``systems`` as top-level names: installed, those names are a game's."""
    files = [*source_files(), *sorted((ROOT / "tests").rglob("*.py")), *sorted((ROOT / "examples").rglob("*.py")),
             *sorted((ROOT / "benchmarks").rglob("*.py"))]
    stray = sorted(f"{path.relative_to(ROOT)}: {name}" for path in files
                   for name in _absolute_imports(path) if name.split(".")[0] in ("components", "systems"))
    assert stray == []


def _absolute_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_the_esper_engine_never_imports_numba() -> None:
    code = ("import sys, sandbox.cli; from sandbox.world import Sandbox; Sandbox.from_scenario('duel', seed=1).run(); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_importing_sandbox_does_not_import_pygame() -> None:
    code = "import sys, sandbox, sandbox.cli, sandbox.systems.models.anatomy.blow; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
