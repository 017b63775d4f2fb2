"""The architecture's one-way rule: components <- systems <- sandbox <- viewer/cli."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports_of(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_components_import_only_the_stdlib() -> None:
    assert imports_of("components") - set(sys.stdlib_module_names) <= {"components"}


def test_systems_import_neither_pygame_nor_sandbox() -> None:
    assert not imports_of("systems") & {"pygame", "sandbox"}
    # numba: the array engine's compiled loops (systems/arrays/compiled.py), a declared dependency
    assert imports_of("systems") - set(sys.stdlib_module_names) <= {"components", "systems", "numpy", "numba",
                                                                     "esper"}


def test_the_esper_engine_never_imports_numba() -> None:
    code = ("import sys, sandbox.cli; from sandbox.world import Sandbox; Sandbox.from_scenario('duel', seed=1).run(); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_importing_sandbox_does_not_import_pygame() -> None:
    code = "import sys, sandbox, sandbox.cli, systems.blow; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
