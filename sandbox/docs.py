"""``python -m sandbox.docs``: the API reference, built with pdoc from the docstrings of the installed package.

Run ``python -m sandbox.docs [--out DIR] [--serve] [--internals]``: it writes the reference (``index.html``, a page
per module, ``pdoc.css``, ``search.js``) into ``DIR`` (default: ``sandbox-api``) and, with ``--serve``, serves it on
localhost until Ctrl-C or SIGTERM (from a temporary folder when no ``--out`` is given). It needs no clone: the
modules are imported by name from wherever ``sandbox`` is installed. pdoc is optional
(``pip install 'combat-sandbox[docs]'``); without it the command says so and exits 2.

The reference draws the stable surface apart from the internals: ``STABLE`` lists the modules a game builds on, and
each of their pages shows the names of the module's ``__all__``. Every other module is an internal (the command line,
the viewer's widgets, the array engine, the lab's modules, the application's plumbing): the index names them in a
section of their own, and only ``--internals`` gives them pages, each marked as internal.

The output is deterministic (no timestamps, paths or memory addresses, a fixed order, sets drawn sorted, no template
of the user's, and the search index left for the browser to compile rather than precompiled by whatever Node.js the
machine has), so the repository keeps the built reference in ``docs/api/`` and a test rebuilds it and compares; the
same package gives the same bytes from a clone or from the wheel.
"""

from __future__ import annotations

import argparse
import ast
import functools
import html
import importlib
import inspect
import json
import linecache
import os
import pkgutil
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sandbox.interrupts import sigterm_as_interrupt
from sandbox.systems.errors import SandboxError

if TYPE_CHECKING:
    import pdoc.doc

__all__ = ["DEFAULT_OUT", "DEFAULT_PORT", "DOCS_EXTRA", "MARKER", "NOT_PAGES", "STABLE", "DocsError", "PdocMissing",
           "build", "internal_modules", "main", "public_modules", "serve"]

STABLE: tuple[str, ...] = (
    # The embedding surface: the package's names (``Sandbox`` and the loaders), the world they come from, the one
    # ``World`` protocol both engines satisfy and the factory that opens a world on either (README, "Embedding").
    "sandbox", "sandbox.world", "sandbox.world_protocol", "sandbox.engines",
    # A game's own world (``OwnWorld``), what its saves keep beside the sandbox's (``SaveHook``), one creature carried
    # as JSON, the exact outcome preview, and the testing helpers a game's tests use (issue 32).
    "sandbox.own_world", "sandbox.saves", "sandbox.creature_json", "sandbox.preview", "sandbox.testing",
    # The config loaders: content in, a checked catalog and a built damage model out, and the error that lists
    # every problem; ``sandbox.models.tables`` is the base a model's own TOML reader is written on.
    "sandbox.config", "sandbox.config.loader", "sandbox.config.errors", "sandbox.models", "sandbox.models.tables",
    # The data: pure definitions and components, the typed events, the log entries and the readouts a game reads.
    "sandbox.components", "sandbox.components.body", "sandbox.components.care", "sandbox.components.codec",
    "sandbox.components.creature", "sandbox.components.events", "sandbox.components.gear",
    "sandbox.components.impairment", "sandbox.components.log", "sandbox.components.readout",
    "sandbox.components.rules", "sandbox.components.state", "sandbox.components.models",
    "sandbox.components.preview", "sandbox.components.health_tiers",
    "sandbox.components.models.anatomy", "sandbox.components.models.severity", "sandbox.components.models.depth",
    "sandbox.components.models.strength", "sandbox.components.models.status",
    # The own-world route (``install`` and what it returns, building a creature, the named phases, the seeded
    # streams) and what a damage model of a game's own implements and calls: the interface and the shared floor
    # the five shipped models are written on. Not the loop's processors (``ai``, ``movement``, ``combat``,
    # ``ending``: ``install`` puts them in a world, nothing calls them) nor the spatial index and invariant checks.
    "sandbox.systems", "sandbox.systems.embedding", "sandbox.systems.spawning", "sandbox.systems.context",
    "sandbox.systems.errors", "sandbox.systems.phases", "sandbox.systems.streams", "sandbox.systems.damage_model",
    "sandbox.systems.creatures", "sandbox.systems.care", "sandbox.systems.conditions", "sandbox.systems.d20",
    "sandbox.systems.dice", "sandbox.systems.hit_location", "sandbox.systems.saved", "sandbox.systems.schedule",
    "sandbox.systems.strike",
    # Events as a stream: subscriptions (``Sandbox.on``, ``ctx.stream.on``) and an attack explained from its event.
    "sandbox.systems.stream", "sandbox.systems.explained",
    # What a creature can do now: the actions a game submits for a creature it drives, and the rules that list and
    # refuse them (``Sandbox.options``, ``Sandbox.submit``).
    "sandbox.systems.actions", "sandbox.systems.options",
    # The five damage models: the registry, and each model's package with its rooms (rules, record, care, state,
    # the ``DamageModel`` binding, its TOML reader). Not the anatomy model's array-engine half (``arrays``) or its
    # vectorised blow pipeline (``vector_blows``, ``vector_target``): the array engine's internals.
    "sandbox.systems.models",
    "sandbox.systems.models.anatomy", "sandbox.systems.models.anatomy.aftercare",
    "sandbox.systems.models.anatomy.blow", "sandbox.systems.models.anatomy.care",
    "sandbox.systems.models.anatomy.damage", "sandbox.systems.models.anatomy.exact_odds",
    "sandbox.systems.models.anatomy.health", "sandbox.systems.models.anatomy.impairment",
    "sandbox.systems.models.anatomy.injury", "sandbox.systems.models.anatomy.mastery",
    "sandbox.systems.models.anatomy.mishaps", "sandbox.systems.models.anatomy.model",
    "sandbox.systems.models.anatomy.record", "sandbox.systems.models.anatomy.recovery",
    "sandbox.systems.models.anatomy.shock", "sandbox.systems.models.anatomy.state",
    "sandbox.systems.models.anatomy.tables", "sandbox.systems.models.anatomy.targets",
    "sandbox.systems.models.severity", "sandbox.systems.models.severity.care", "sandbox.systems.models.severity.model",
    "sandbox.systems.models.severity.readout", "sandbox.systems.models.severity.record",
    "sandbox.systems.models.severity.rules", "sandbox.systems.models.severity.state",
    "sandbox.systems.models.severity.tables",
    "sandbox.systems.models.depth", "sandbox.systems.models.depth.care", "sandbox.systems.models.depth.model",
    "sandbox.systems.models.depth.readout", "sandbox.systems.models.depth.record", "sandbox.systems.models.depth.rules",
    "sandbox.systems.models.depth.state", "sandbox.systems.models.depth.tables",
    "sandbox.systems.models.strength", "sandbox.systems.models.strength.care",
    "sandbox.systems.models.strength.items", "sandbox.systems.models.strength.model",
    "sandbox.systems.models.strength.readout", "sandbox.systems.models.strength.record",
    "sandbox.systems.models.strength.rules", "sandbox.systems.models.strength.state",
    "sandbox.systems.models.strength.tables",
    "sandbox.systems.models.status", "sandbox.systems.models.status.care", "sandbox.systems.models.status.model",
    "sandbox.systems.models.status.record", "sandbox.systems.models.status.rules",
    "sandbox.systems.models.status.state", "sandbox.systems.models.status.tables",
    # The faces of the lab and the viewer: their packages' names (``run``, ``LabResult``, ``Viewer``,
    # ``run_headless``), which README shows a game calling; their modules (the lab's machinery, the viewer's panes,
    # cards and widgets) are internals.
    "sandbox.lab", "sandbox.viewer",
)
"""The stable surface, in the order the index lists it: the modules a game imports or a model of its own is written
against. Each module's page draws the names of its ``__all__``. A module not listed is an internal."""

NOT_PAGES: tuple[str, ...] = ("sandbox.shipped", "sandbox.assets")
"""Packages of data, not of code (the shipped content and the viewer's fonts): neither stable nor internal. In the
wheel they are packages beside the code; in a clone they are mapped from the top-level folders."""

DOCS_EXTRA = "pip install 'combat-sandbox[docs]'"
"""How to get pdoc, the one thing the reference needs beyond the package."""

DEFAULT_OUT = Path("sandbox-api")
"""Where the reference is written when no ``--out`` is given (relative to the current folder)."""

DEFAULT_PORT = 8080
"""The port ``--serve`` listens on by default (on localhost only)."""

MARKER = '<meta name="sandbox-docs" content="api-reference">'
"""The line in the index of a reference this command wrote: the one kind of folder ``build`` replaces."""

_DOCFORMAT = "google"
_TEMPLATE_DIRS = ("", "default", "deprecated")
"""pdoc's own template folders: a user's ``~/.config/pdoc`` templates would change the output, so it is not read."""

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+(?=&gt;|>)")

_INTERRUPTED = 130  # the exit code of an interrupted command, as the ``sandbox`` command's (128 + SIGINT)

_MODULE_TEMPLATE = """\
{% extends "default/module.html.jinja2" %}
{% block style %}<link rel="stylesheet" href="{{ "../" * module.modulename.count(".") }}pdoc.css">{% endblock %}
{% block module_list_link %}
    <a class="pdoc-button module-list-button" href="{{ "../" * module.modulename.count(".") }}index.html">
        {% include "resources/box-arrow-in-left.svg" %}
        &nbsp;API index
    </a>
{% endblock %}
{% block module_info %}
    {% if module.modulename in internal_pages %}
        <div class="alert warning"><em>Internal:</em> not part of the stable API; it may change in any release.</div>
    {% endif %}
    {{ super() }}
{% endblock %}
"""

_INDEX_TEMPLATE = """\
{% extends "frame.html.jinja2" %}
{% block title %}combat-sandbox {{ version }} API reference{% endblock %}
{% block head %}
    """ + MARKER + """
{% endblock %}
{% block style %}
    <link rel="stylesheet" href="pdoc.css">
    <style>
        .pdoc input[type=search] { font-size: 1.25rem; width: 100%; padding-left: .5rem; margin: 1rem 0; }
        .pdoc dl.modules dt { margin-top: .75rem; }
        .pdoc dl.modules dd { margin-left: 1.5rem; }
        .pdoc ul.internals { columns: 2; }
    </style>
{% endblock %}
{% block nav %}
    <h2>Stable API</h2>
    <ul>
        {% for name, _ in stable %}<li><a href="{{ name.replace(".", "/") }}.html">{{ name }}</a></li>{% endfor %}
    </ul>
    <h2><a href="#internals">Internals</a></h2>
{% endblock %}
{% block content %}
    <main class="pdoc">
        <h1>combat-sandbox {{ version }}: API reference</h1>
        {% if search %}
            <input type="search" placeholder="Search the API..." aria-label="search box">
        {% endif %}
        <p>Built from the docstrings of the installed package by <code>python -m sandbox.docs</code>. Start with
        <a href="sandbox.html#Sandbox"><code>sandbox.Sandbox</code></a> (one world).</p>
        <h2 id="stable">Stable API</h2>
        <p>The modules a game imports, or writes a damage model of its own against. Each page shows the names of its
        module's <code>__all__</code>.</p>
        <dl class="modules">
            {% for name, summary in stable %}
                <dt><a href="{{ name.replace(".", "/") }}.html"><code>{{ name }}</code></a></dt>
                <dd>{{ summary | safe }}</dd>
            {% endfor %}
        </dl>
        <h2 id="internals">Internals</h2>
        <div class="alert warning"><em>Not part of the stable API:</em> the command line, the viewer's widgets, the
        array engine, the lab's modules and the application's plumbing. They may change in any release.
        {% if not internal_pages %}Their pages are not built here: <code>python -m sandbox.docs --internals</code>
        builds them.{% endif %}</div>
        <ul class="internals">
            {% for name in internals %}
                {% if name in internal_pages %}
                    <li><a href="{{ name.replace(".", "/") }}.html"><code>{{ name }}</code></a></li>
                {% else %}
                    <li><code>{{ name }}</code></li>
                {% endif %}
            {% endfor %}
        </ul>
    </main>
    {% if search %}
        {% include "search.html.jinja2" %}
    {% endif %}
{% endblock %}
"""


_STYLE_TEMPLATE = """\
{% filter minify_css %}
{% include "resources/bootstrap-reboot.min.css" %}
/*! syntax-highlighting.css */{% include "syntax-highlighting.css" %}
/*! theme.css */{% include "theme.css" %}
/*! layout.css */{% include "layout.css" %}
/*! content.css */{% include "content.css" %}
/*! custom.css */{% include "custom.css" %}
{% endfilter %}
"""
"""pdoc's style sheets (as its pages inline them, in the same order), in one file every page links to: inlined, they
were a fifth of the reference's size."""


class PdocMissing(ImportError):
    """pdoc is not installed: the reference cannot be built."""


class DocsError(SandboxError):
    """A request the docs command refuses: an output folder it would not replace, a port it cannot listen on."""


def public_modules(package: str = "sandbox") -> list[str]:
    """Every module of ``package`` whose name has no private part, the package first, then in name order.

    The data packages (``NOT_PAGES``) are left out. Packages are imported to find what they hold; modules are not.
    """
    names = [package]
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        private = any(part.startswith("_") for part in info.name.split(".")[1:])
        data = any(info.name == name or info.name.startswith(f"{name}.") for name in NOT_PAGES)
        if not (private or data):
            names.append(info.name)
    return sorted(set(names), key=lambda name: (name != package, name))


def internal_modules() -> list[str]:
    """Every public module of ``sandbox`` that ``STABLE`` does not list, in name order."""
    stable = set(STABLE)
    return [name for name in public_modules() if name not in stable]


def build(out: Path, *, internals: bool = False) -> list[str]:
    """Write the API reference into ``out``: the stable modules' pages (and the internals' with ``internals``).

    ``out`` may be missing, an empty folder, or a reference this function wrote before (its ``index.html`` carries
    ``MARKER``), which is replaced whole; the new reference is written beside it first, so a failed build leaves the
    old one.

    Args:
        out: The folder to write.
        internals: Give the internal modules pages too (each marked as internal), not only names on the index.

    Returns:
        The modules given pages, in the index's order.

    Raises:
        PdocMissing: pdoc is not installed.
        DocsError: ``out`` is a file, or a folder holding something other than a reference.
    """
    pdoc = _import_pdoc()
    out = Path(out)
    _check_replaceable(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        pages = _render(pdoc, staging, internals=internals)
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's 0700 is for secrets; a reference is for reading
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.replace(out, retired / out.name)
            os.replace(staging, out)
            shutil.rmtree(retired)
        else:
            os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return pages


def serve(folder: Path, port: int = DEFAULT_PORT, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """An HTTP server for the reference in ``folder``, bound and ready (call ``serve_forever``; port 0: any free one).

    Raises:
        DocsError: The port cannot be listened on (in use, or not allowed).
    """
    handler = functools.partial(_QuietHandler, directory=str(folder))
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise DocsError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def main(argv: Sequence[str] | None = None) -> None:
    """The command: build the reference, then serve it with ``--serve``. Exits 2 on a refused request or no pdoc."""
    parser = argparse.ArgumentParser(prog="python -m sandbox.docs", description=__doc__.splitlines()[0] if __doc__
                                     else None)
    parser.add_argument("--out", type=Path, default=None,
                        help=f"the folder to write (default: {DEFAULT_OUT}; with --serve, a temporary folder)")
    parser.add_argument("--serve", action="store_true", help="serve the reference on localhost until Ctrl-C")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port to serve on (default: {DEFAULT_PORT}; 0: any free one)")
    parser.add_argument("--internals", action="store_true", help="give the internal modules pages too")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port: expected 0 to 65535, found {args.port}")
    try:
        with sigterm_as_interrupt(), tempfile.TemporaryDirectory(prefix="sandbox-api.") as scratch:
            out = args.out if args.out is not None else (Path(scratch) / "api" if args.serve else DEFAULT_OUT)
            pages = build(out, internals=args.internals)
            print(f"API reference: {out / 'index.html'} ({len(pages)} pages)")
            if args.serve:
                server = serve(out, args.port)
                host, port = server.server_address[:2]
                print(f"serving at http://{host!s}:{port}/index.html (Ctrl-C stops)", flush=True)
                try:
                    server.serve_forever()
                except KeyboardInterrupt:
                    pass  # how a server is stopped (SIGTERM too): the temporary folder goes, the exit code is 0
                finally:
                    server.server_close()
    except PdocMissing as exc:
        sys.stderr.write(f"{exc}\n")
        sys.exit(2)
    except DocsError as exc:
        sys.stderr.write(f"python -m sandbox.docs: {exc}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(_INTERRUPTED)


def _import_pdoc() -> ModuleType:
    try:
        import pdoc
        import pdoc.doc
        import pdoc.render
    except ImportError as exc:
        raise PdocMissing(f"the API reference is built with pdoc, which is not installed: {DOCS_EXTRA}") from exc
    return pdoc


def _check_replaceable(out: Path) -> None:
    if out.is_symlink():
        raise DocsError(f"--out {out}: a symbolic link (the reference replaces its folder whole): name the folder")
    if out.exists() and not out.is_dir():
        raise DocsError(f"--out {out}: not a folder")
    if out.is_dir() and any(out.iterdir()):
        index = out / "index.html"
        try:
            ours = MARKER in index.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            ours = False
        if not ours:
            raise DocsError(f"--out {out}: the folder holds something other than an API reference written by "
                            "python -m sandbox.docs; name a new or empty folder")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def _environment() -> Iterator[None]:
    """The variables the build reads, set for its length and restored after."""
    wanted = {
        "SDL_VIDEODRIVER": "dummy",  # the viewer's package imports pygame: no window, no sound
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",  # nor its banner
        # pdoc hides a string constant equal to an environment variable's value (a guard against leaking secrets):
        # the output would depend on the caller's environment. The constants documented here are the code's own.
        "PDOC_DISPLAY_ENV_VARS": "1",
    }
    saved = {name: os.environ.get(name) for name in wanted}
    for name, value in wanted.items():
        if name == "PDOC_DISPLAY_ENV_VARS" or name not in os.environ:
            os.environ[name] = value
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def _render(pdoc: ModuleType, out: Path, *, internals: bool) -> list[str]:
    import jinja2

    internal = internal_modules()
    pages = [*STABLE, *(internal if internals else ())]
    with _environment(), _class_sources_indexed(), warnings.catch_warnings():
        # A forward reference to a name imported for type checking only is drawn as written, which is what a reader
        # needs; pdoc's warning about it says nothing about the reference.
        warnings.filterwarnings("ignore", message="Error parsing type annotation", category=UserWarning)
        modules = {name: pdoc.doc.Module(_imported(name)) for name in pages}
        for module in modules.values():
            _sort_sets(module)
        render = pdoc.render
        render.configure(docformat=_DOCFORMAT, show_source=False, search=True)
        home = Path(render.__file__).parent / "templates"
        render.env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({"module.html.jinja2": _MODULE_TEMPLATE, "sandbox-index.html.jinja2": _INDEX_TEMPLATE,
                               "sandbox-style.css.jinja2": _STYLE_TEMPLATE}),
            jinja2.FileSystemLoader([home / folder for folder in _TEMPLATE_DIRS]),
        ])
        render.env.globals["internal_pages"] = frozenset(internal) & frozenset(pages)
        for name, module in modules.items():
            _write(out / f"{name.replace('.', '/')}.html", render.html_module(module, modules))
        version = str(getattr(_imported("sandbox"), "__version__", ""))
        stable = [(name, _summary(modules[name].docstring)) for name in STABLE]
        _write(out / "index.html", render.env.get_template("sandbox-index.html.jinja2").render(
            stable=stable, internals=internal, version=version, all_modules=modules, root_module_name=None))
        _write(out / "pdoc.css", render.env.get_template("sandbox-style.css.jinja2").render())
        _write(out / "search.js", _search_index(render, modules))
    return pages


@contextmanager
def _class_sources_indexed() -> Iterator[None]:
    """``inspect.findsource`` for a class, with each source file parsed once for the build, not once per class.

    pdoc reads each class's source (for its attributes' docstrings); before Python 3.13 the standard library finds a
    class by parsing its whole module every time it is asked, which was half of the build's time.
    """
    if sys.version_info >= (3, 13):  # classes carry __firstlineno__: no parse at all
        yield
        return
    original = inspect.findsource
    tables: dict[str, dict[str, int]] = {}

    def findsource(obj: Any) -> tuple[list[str], int]:
        if inspect.isclass(obj):
            file = inspect.getsourcefile(obj)
            module = inspect.getmodule(obj, file) if file else None
            if file and module is not None:
                lines = linecache.getlines(file, module.__dict__)
                if file not in tables:
                    tables[file] = _class_lines("".join(lines))
                line = tables[file].get(obj.__qualname__)
                if line is not None:
                    return lines, line
        return original(obj)

    inspect.findsource = findsource  # type: ignore[assignment]
    try:
        yield
    finally:
        inspect.findsource = original


def _class_lines(source: str) -> dict[str, int]:
    """Qualified class name -> the index of its first line (its first decorator's), as ``inspect`` finds them."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, stack: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                continue  # no class is defined inside an expression
            if isinstance(child, ast.ClassDef):
                inner = (*stack, child.name)
                first = child.decorator_list[0] if child.decorator_list else child
                found.setdefault(".".join(inner), first.lineno - 1)  # the first of a name, as inspect's finder
                visit(child, inner)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, (*stack, child.name, "<locals>"))
            else:
                visit(child, stack)

    try:
        visit(ast.parse(source), ())
    except SyntaxError:
        return {}
    return found


def _imported(name: str) -> ModuleType:
    """The module, with the names its ``__all__`` imports on first use (PEP 562) put in its namespace.

    pdoc reads a module's namespace, not its ``__getattr__``: a package whose names are imported on first use
    (``sandbox``, ``sandbox.config``, ``sandbox.systems``) would otherwise show none of them.
    """
    module = importlib.import_module(name)
    for attr in getattr(module, "__all__", ()):
        if attr not in vars(module):
            with suppress(AttributeError):  # a submodule named in __all__, not imported: pdoc imports it itself
                setattr(module, attr, getattr(module, attr))
    return module


def _sort_sets(namespace: pdoc.doc.Namespace[Any]) -> None:
    """Draw every set-valued constant with its items sorted.

    A set's ``repr`` follows the string hashes, which change from process to process; the committed reference must
    not. (pdoc caches the drawn value on the object, so setting it first is enough.)
    """
    import pdoc.doc

    for member in namespace.own_members:
        if isinstance(member, pdoc.doc.Class):
            _sort_sets(member)
        elif isinstance(member, pdoc.doc.Variable) and isinstance(member.default_value, set | frozenset):
            member.__dict__["default_value_str"] = _sorted_repr(member.default_value)


def _sorted_repr(value: object) -> str:
    if isinstance(value, set | frozenset):
        items = ", ".join(sorted(_sorted_repr(item) for item in value))
        if not value:
            return f"{type(value).__name__}()"
        return f"{{{items}}}" if type(value) is set else f"{type(value).__name__}({{{items}}})"
    if isinstance(value, tuple):
        inner = ", ".join(_sorted_repr(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _search_index(render: Any, modules: Mapping[str, pdoc.doc.Module]) -> str:
    """The search index as pdoc builds it, left for the browser to compile.

    pdoc precompiles the index when Node.js is on the PATH and not otherwise: the same package would give a
    different ``search.js`` on two machines. The uncompiled index is the same everywhere (and smaller).
    """
    precompile = render.precompile_index
    render.precompile_index = lambda documents, compile_js: json.dumps(documents)
    try:
        return str(render.search_index(modules))
    finally:
        render.precompile_index = precompile


def _summary(docstring: str) -> str:
    """A module docstring's first paragraph as HTML: escaped, its ``code`` spans drawn as code."""
    first = docstring.strip().split("\n\n")[0].replace("\n", " ")
    return re.sub(r"``(.+?)``", r"<code>\1</code>", html.escape(first, quote=False))


def _write(path: Path, text: str) -> None:
    """Write a page, with the memory addresses pdoc leaves in some drawn values taken out.

    An annotation can draw ``<function f at 0x7f...>``: the address changes from run to run.
    """
    text = _ADDRESS.sub("", text)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))  # bytes: the same file on every platform, no newline translation


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without a log line per request (the terminal shows the URL, not the traffic)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


if __name__ == "__main__":
    main()
