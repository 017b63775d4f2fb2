"""The API reference: every public name has a docstring, and ``python -m sandbox.docs`` builds the committed
reference in ``docs/api/`` from them, the stable surface apart from the internals."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from types import ModuleType

import pytest

from sandbox import docs

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


REFERENCE = ROOT / "docs" / "api"
needs_pdoc = pytest.mark.skipif(importlib.util.find_spec("pdoc") is None, reason="pdoc is in the test and docs extras")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference as ``python -m sandbox.docs`` builds it now, in a process of its own (its own string hashes)."""
    out = tmp_path_factory.mktemp("reference") / "api"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "sandbox.docs", "--out", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no warning from pdoc either
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


@needs_pdoc
def test_the_committed_reference_is_the_one_the_docstrings_build(built: Path) -> None:
    fresh, committed = _files(built), _files(REFERENCE)
    changed = sorted(name for name in fresh.keys() & committed.keys() if fresh[name] != committed[name])
    missing, stale = sorted(fresh.keys() - committed.keys()), sorted(committed.keys() - fresh.keys())
    version = re.search(rb'content="pdoc ([^"]+)"', committed.get("index.html", b""))
    assert (changed, missing, stale) == ([], [], []), (
        f"docs/api/ is not what the docstrings build (changed {changed[:10]}, not committed {missing[:10]}, no "
        f"longer built {stale[:10]}): run `python -m sandbox.docs --out docs/api` and commit it (docs/api/ was "
        f"built with pdoc {version.group(1).decode() if version else '?'})")


def _sections(index: str) -> tuple[str, str]:
    stable = index[index.index('id="stable"'):index.index('id="internals"')]
    return stable, index[index.index('id="internals"'):]


@needs_pdoc
def test_the_stable_index_lists_sandbox_and_no_viewer_widget(built: Path) -> None:
    stable, internals = _sections((built / "index.html").read_text(encoding="utf-8"))
    assert 'href="sandbox.html"' in stable and 'href="sandbox/world.html"' in stable
    assert 'id="Sandbox"' in (built / "sandbox.html").read_text(encoding="utf-8")
    assert 'id="Sandbox.strike"' in (built / "sandbox" / "world.html").read_text(encoding="utf-8")
    listed = re.findall(r"<dt><a href=\"[^\"]+\"><code>([\w.]+)</code>", stable)
    assert listed == list(docs.STABLE)
    for widget in ("sandbox.viewer.card", "sandbox.viewer.pane", "sandbox.viewer.body_view", "sandbox.viewer.app"):
        assert widget not in stable
        assert f"<code>{widget}</code>" in internals  # named, marked as internal, given no page
        assert not (built / f"{widget.replace('.', '/')}.html").exists()
    for internal in ("sandbox.cli", "sandbox.systems.arrays.engine", "sandbox.lab.runner"):
        assert internal not in listed and f"<code>{internal}</code>" in internals
    assert "Card" not in (built / "sandbox" / "viewer.html").read_text(encoding="utf-8").split('id="Viewer"')[0]


def test_the_stable_surface_names_real_modules_each_with_an_all() -> None:
    public = docs.public_modules()
    assert [name for name in docs.STABLE if name not in public] == []
    assert len(set(docs.STABLE)) == len(docs.STABLE)
    assert [name for name in docs.STABLE if not hasattr(importlib.import_module(name), "__all__")] == []
    assert set(docs.internal_modules()) == set(public) - set(docs.STABLE)
    assert {"sandbox.cli", "sandbox.viewer.card", "sandbox.systems.arrays.engine"} <= set(docs.internal_modules())
    assert public == [module.__name__ for module in modules()]  # the modules whose docstrings the test above reads


def test_without_pdoc_the_command_exits_2_naming_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("pdoc", "pdoc.doc", "pdoc.render"):
        monkeypatch.setitem(sys.modules, name, None)  # `import pdoc` raises ImportError, as with no pdoc installed
    with pytest.raises(SystemExit) as exit_:
        docs.main(["--out", str(tmp_path / "api")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "pdoc" in err and "pip install 'combat-sandbox[docs]'" in err
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_is_not_a_reference_is_never_replaced(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        docs.main(["--out", str(tmp_path)])
    assert exit_.value.code == 2
    assert "something other than an API reference" in capsys.readouterr().err
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


def test_a_reference_is_replaced_whole(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def render(pdoc: ModuleType, out: Path, *, internals: bool) -> list[str]:
        (out / "index.html").write_text(docs.MARKER + "new", encoding="utf-8")
        return ["sandbox"]

    monkeypatch.setattr(docs, "_import_pdoc", lambda: sys)  # the pages themselves are the drift test's
    monkeypatch.setattr(docs, "_render", render)
    out = tmp_path / "api"
    (out / "sandbox").mkdir(parents=True)
    (out / "index.html").write_text(docs.MARKER + "old", encoding="utf-8")
    (out / "sandbox" / "gone.html").write_text("a module since removed", encoding="utf-8")
    assert docs.build(out) == ["sandbox"]
    assert _files(out) == {"index.html": (docs.MARKER + "new").encode()}
    assert [path.name for path in tmp_path.iterdir()] == ["api"]  # nothing left beside it


def test_the_server_serves_the_reference(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(docs.MARKER, encoding="utf-8")
    server = docs.serve(tmp_path, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/index.html", timeout=10) as reply:
            assert reply.status == 200 and reply.read().decode() == docs.MARKER
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_port_in_use_is_refused_with_a_sandbox_error(tmp_path: Path) -> None:
    server = docs.serve(tmp_path, port=0)
    try:
        with pytest.raises(docs.DocsError, match=f"cannot serve on 127.0.0.1:{server.server_port}"):
            docs.serve(tmp_path, port=server.server_port)
    finally:
        server.server_close()


def test_a_set_is_drawn_sorted_whatever_the_string_hashes() -> None:
    assert docs._sorted_repr(frozenset({"b", "c", "a"})) == "frozenset({'a', 'b', 'c'})"
    assert docs._sorted_repr({2, 1}) == "{1, 2}" and docs._sorted_repr(set()) == "set()"
    assert docs._sorted_repr(({"y", "x"},)) == "({'x', 'y'},)"
