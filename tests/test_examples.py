"""The examples double as smoke tests: they must run as a developer would run them."""

from __future__ import annotations

import ast
import runpy
import subprocess
import sys
from pathlib import Path

import esper

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_embed_runs_its_own_world_to_a_winner_and_cleans_up() -> None:
    module = runpy.run_path(str(EXAMPLES / "embed.py"))
    worlds_before = set(esper.list_worlds()) if hasattr(esper, "list_worlds") else set()
    first = module["main"](seed=7)
    second = module["main"](seed=7)
    assert first == second and first in ("Round Table", "Green Chapel")
    if worlds_before:
        assert "my-game" not in esper.list_worlds()
    tree = ast.parse((EXAMPLES / "embed.py").read_text(encoding="utf-8"))
    from_sandbox = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                    and n.module.split(".")[0] == "sandbox"}
    assert from_sandbox == {"sandbox.config"}  # data loading only: no sandbox.Sandbox, no sandbox.world


def test_embed_as_a_script() -> None:
    proc = subprocess.run([sys.executable, str(EXAMPLES / "embed.py")], capture_output=True, text=True, check=True)
    assert "after" in proc.stdout.splitlines()[-1]
