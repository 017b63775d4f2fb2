"""The API reference: every public name has a docstring, and pdoc builds the reference from them."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sandbox",)


def modules() -> list[ModuleType]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    out = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        out.append(package)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            if any(part.startswith("_") for part in info.name.split(".")[1:]):
                continue  # private modules (and __main__)
            out.append(importlib.import_module(info.name))
    return out


def public_names(module: ModuleType) -> list[tuple[str, object]]:
    """Functions and classes defined in the module (not imported into it) whose names are public, and the public
    methods and properties of those classes."""
    found: list[tuple[str, object]] = []
    exported = getattr(module, "__all__", None)
    for name, obj in vars(module).items():
        if name.startswith("_") or (exported is not None and name not in exported and not _defined_here(obj, module)):
            continue
        if not _defined_here(obj, module) or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        found.append((f"{module.__name__}.{name}", obj))
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if inspect.isfunction(member) or isinstance(member, property | classmethod | staticmethod):
                    found.append((f"{module.__name__}.{name}.{attr}", member))
    return found


def _defined_here(obj: object, module: ModuleType) -> bool:
    return getattr(obj, "__module__", None) == module.__name__


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for module in modules():
        if not (module.__doc__ or "").strip():
            missing.append(module.__name__ + " (module)")
        for qualified, obj in public_names(module):
            target = obj.fget if isinstance(obj, property) else getattr(obj, "__func__", obj)
            doc = inspect.getdoc(target) if not inspect.isclass(obj) else obj.__doc__
            if not (doc or "").strip():
                missing.append(qualified)
    assert missing == [], f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)


PAGES = ("sandbox.world", "sandbox.systems.damage_model", "sandbox.systems.embedding", "sandbox.components.log",
         "sandbox.components.readout")
"""The modules whose pages the build test renders: every public module's page takes about 20 s, these about 2 s
(the test below checks that the whole reference names every public module)."""


@pytest.mark.skipif(importlib.util.find_spec("pdoc") is None, reason="pdoc is in the test and docs extras")
def test_pdoc_builds_the_api_reference(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.run([sys.executable, "docs/build_api.py", "--out", str(tmp_path), *PAGES], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    page = tmp_path / "sandbox" / "world.html"
    assert page.is_file()
    html = page.read_text(encoding="utf-8")
    assert "strike" in html and "Strike ``target`` with a real blow" not in html  # rendered, not raw
    for module in ("sandbox/systems/damage_model.html", "sandbox/systems/embedding.html",
                   "sandbox/components/log.html", "sandbox/components/readout.html"):
        assert (tmp_path / module).is_file(), module


def test_the_api_reference_names_every_public_module() -> None:
    """With no modules named, ``docs/build_api.py`` gives every public module a page: the modules checked above."""
    spec = importlib.util.spec_from_file_location("build_api", ROOT / "docs" / "build_api.py")
    assert spec is not None and spec.loader is not None
    build_api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_api)
    assert build_api.public_modules() == [module.__name__ for module in modules()]
