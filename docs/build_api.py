"""Build the API reference (HTML, from the docstrings, with pdoc) into ``docs/api/``.

Run: ``python docs/build_api.py [--out DIR] [MODULE ...]``, then open ``docs/api/index.html``. Every public module of
``sandbox`` (``sandbox.components`` and ``sandbox.systems`` among them) gets a page (a package's ``__all__`` lists its
names, not its modules, so the modules are named to pdoc one by one); modules named on the command line get theirs
alone (the tests build a few: the whole reference takes about 20 s).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
from pathlib import Path

PACKAGES = ("sandbox",)
HERE = Path(__file__).resolve().parent


def public_modules() -> list[str]:
    """Every importable module of the package whose name has no private part."""
    names: list[str] = []
    for package in PACKAGES:
        names.append(package)
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            if not any(part.startswith("_") for part in info.name.split(".")[1:]):
                names.append(info.name)
    return names


def main() -> None:
    """Write the reference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "api", help="folder to write (default: docs/api)")
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help="modules to document (default: every public module of sandbox)")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the viewer's modules import pygame
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="google", show_source=False)
    pdoc.pdoc(*(args.modules or public_modules()), output_directory=args.out)
    print(f"API reference: {args.out / 'index.html'}")


if __name__ == "__main__":
    main()
