"""Start-up (issue 12, point 5): the CLI and ``import sandbox`` import only what a command needs. Speed itself is
measured by ``benchmarks/startup.py``; these tests pin what is imported, which is what makes it fast."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import sandbox

HEAVY = ("numpy", "pydantic", "matplotlib", "pygame", "esper", "sandbox.config.loader", "sandbox.config.schema",
         "sandbox.systems", "sandbox.blows", "sandbox.systems.streams")


def modules_after(code: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={**os.environ, **(env or {})}).stdout
    return set(json.loads(out.splitlines()[-1]))


def heavy_in(modules: set[str]) -> set[str]:
    return {name for name in HEAVY if name in modules or any(m.startswith(name + ".") for m in modules)}


def test_importing_sandbox_and_its_cli_imports_nothing_heavy() -> None:
    assert heavy_in(modules_after("import sandbox, sandbox.cli, sandbox.config")) == set()


def test_the_public_names_still_import_from_sandbox() -> None:
    from sandbox import Catalog, ConfigError, default_catalog, load_body, load_catalog

    assert {"Catalog", "ConfigError", "default_catalog", "load_body", "load_catalog"} <= set(sandbox.__all__)
    assert isinstance(default_catalog(), Catalog) and load_body("wolf").name == "Gray Wolf"
    assert issubclass(ConfigError, Exception) and callable(load_catalog)
    assert {"Catalog", "load_body"} <= set(dir(sandbox))


def test_help_and_version_import_nothing_heavy() -> None:
    loaded = modules_after("import sys\nsys.argv = ['sandbox', '--help']\nfrom sandbox.cli import main\n"
                           "try:\n    main()\nexcept SystemExit:\n    pass")
    assert heavy_in(loaded) == set()
    proc = subprocess.run([sys.executable, "-m", "sandbox", "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout == f"combat-sandbox {sandbox.__version__}\n"


def test_a_cached_validate_imports_nothing_heavy_and_answers_the_same(tmp_path: Path) -> None:
    env = {"SANDBOX_CACHE": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-m", "sandbox", "validate"], capture_output=True, text=True,
                           env={**os.environ, **env}, check=True)
    assert len(list((tmp_path / "cache").glob("*.txt"))) == 1
    code = ("import sys\nsys.argv = ['sandbox', 'validate']\nfrom sandbox.cli import main\nmain()")
    loaded = modules_after(code, env)
    assert heavy_in(loaded) == set()
    second = subprocess.run([sys.executable, "-m", "sandbox", "validate"], capture_output=True, text=True,
                            env={**os.environ, **env}, check=True)
    assert second.stdout == first.stdout and first.stdout.startswith("OK:")
