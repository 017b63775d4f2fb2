"""A throwaway game folder with a ``components.py`` and a ``systems/`` of its own, and the README's embedding
examples run in it: an installed sandbox must add no top-level import name a game owns. The README's "Testing your
game" example runs there too, as the game's own test file under pytest, its fixtures from the installed entry point
(the folder has no conftest).

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


TESTING_FILE = "test_readme_testing.py"
"""The game's test file the README's testing example is written to."""


def section_examples(title: str) -> list[str]:
    """The Python blocks of the README's section ``title`` (a ``##`` heading), in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def embedding_examples() -> list[str]:
    """The Python blocks of the README's "Embedding" section, in order."""
    return section_examples("Embedding")


def readme_testing_blocks() -> list[str]:
    """The Python blocks of the README's "Testing your game" section, in order (a test module together)."""
    return section_examples("Testing your game")


def game_test_file(check_own_names: bool = True) -> tuple[str, int]:
    """A game's test file: the README's testing example (and, in a game folder, a test that the game's own names are
    its own); and how many tests it holds."""
    code = "\n".join(readme_testing_blocks())
    if check_own_names:
        own_names = "".join(f"    {line}\n" for line in CHECK_OWN_NAMES.splitlines())
        code += f"\n\ndef test_the_games_own_names_stay_its_own():\n{own_names}"
    return code, len(re.findall(r"^def test_", code, re.MULTILINE))


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


def run_testing_example(python: Sequence[str], folder: Path, env: Mapping[str, str] | None = None
                        ) -> tuple[subprocess.CompletedProcess[str], int]:
    """Write the README's testing example into the game folder ``folder`` as a test file of its own, with no conftest,
    and run pytest on it with ``python``: the fixtures can only come from the installed plugin's entry point.

    Returns:
        pytest's run (``-q``: its last line counts what passed) and how many tests the file holds.
    """
    if (folder / "conftest.py").exists():
        raise RuntimeError(f"{folder} has a conftest.py: the plugin's fixtures must come from its entry point")
    code, tests = game_test_file()
    (folder / TESTING_FILE).write_text(code, encoding="utf-8")
    result = subprocess.run([*python, "-m", "pytest", "-q", "-p", "no:cacheprovider", TESTING_FILE], cwd=folder,
                            capture_output=True, text=True, timeout=300, env=dict(env) if env is not None else None)
    return result, tests


def main() -> None:
    """Run the check with the interpreter named on the command line; exit 1 on the first failure."""
    python = sys.argv[1:] or [sys.executable]
    with tempfile.TemporaryDirectory() as where:
        folder = make_game_folder(Path(where) / "my-game")
        results = run_in_game_folder(python, folder)
        tested, tests = run_testing_example(python, folder)
    for result in [*results, tested]:
        if result.returncode != 0:
            print(result.stdout, result.stderr, sep="\n", file=sys.stderr)
            raise SystemExit(1)
    if f"{tests} passed" not in tested.stdout:
        print(tested.stdout, tested.stderr, sep="\n", file=sys.stderr)
        raise SystemExit(1)
    print(f"game folder: {len(results) - 1} embedding examples ran beside the game's own components and systems, "
          f"and the testing example's {tests} tests passed under pytest through the installed plugin")


if __name__ == "__main__":
    main()
