"""A throwaway game folder with a ``components.py`` and a ``systems/`` of its own, and the README's embedding
examples run in it: an installed sandbox must add no top-level import name a game owns.

``tests/test_wheel.py`` runs it on the wheel it builds; ``.ci/run`` runs it as a script on the wheel installed in a
fresh virtual environment::

    python tests/game_folder.py PYTHON    # PYTHON: the interpreter the wheel is installed for
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

GAME_COMPONENTS = '"""The game\'s own components."""\n\nclass Health:\n    points = 10\n'
GAME_SYSTEMS = '"""The game\'s own systems."""\n\nMARK = "the game\'s systems"\n'
CHECK_OWN_NAMES = ("import components, systems\n"
                   "assert components.Health.points == 10, components.__file__\n"
                   "assert systems.MARK == \"the game's systems\", systems.__file__\n")


def embedding_examples() -> list[str]:
    """The Python blocks of the README's "Embedding" section, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Embedding\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def make_game_folder(folder: Path) -> Path:
    """Write a game's own ``components.py`` and ``systems/__init__.py`` into ``folder``; returns it."""
    (folder / "systems").mkdir(parents=True, exist_ok=True)
    (folder / "components.py").write_text(GAME_COMPONENTS, encoding="utf-8")
    (folder / "systems" / "__init__.py").write_text(GAME_SYSTEMS, encoding="utf-8")
    return folder


def run_in_game_folder(python: Sequence[str], folder: Path, env: Mapping[str, str] | None = None
                       ) -> list[subprocess.CompletedProcess[str]]:
    """Run each embedding example, then a check that the game's own names are still its own, with ``python`` (the
    interpreter and its flags) in the game folder ``folder``, which stands first on the path as a game's does."""
    results = []
    for code in [*embedding_examples(), CHECK_OWN_NAMES]:
        script = "import sys; sys.path.insert(0, '.')\n" + CHECK_OWN_NAMES + code
        results.append(subprocess.run([*python, "-c", script], cwd=folder, capture_output=True, text=True,
                                      timeout=300, env=dict(env) if env is not None else None))
    return results



def main() -> None:
    """Run the check with the interpreter named on the command line; exit 1 on the first failure."""
    python = sys.argv[1:] or [sys.executable]
    with tempfile.TemporaryDirectory() as where:
        folder = make_game_folder(Path(where) / "my-game")
        results = run_in_game_folder(python, folder)
    for result in results:
        if result.returncode != 0:
            print(result.stdout, result.stderr, sep="\n", file=sys.stderr)
            raise SystemExit(1)
    print(f"game folder: {len(results) - 1} embedding examples ran beside the game's own components and systems")


if __name__ == "__main__":
    main()
