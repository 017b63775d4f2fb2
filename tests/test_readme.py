"""The README's Python examples run as written (each in a fresh folder and a fresh esper world)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.game_folder import game_test_file

ROOT = Path(__file__).resolve().parents[1]
# The "Testing your game" section's blocks are a test module, run under pytest below, not a script.
_TESTING = re.compile(r"\n## Testing your game\n.*?(?=\n## )", re.DOTALL)
BLOCKS = re.findall(r"```python\n(.*?)```", _TESTING.sub("", (ROOT / "README.md").read_text(encoding="utf-8")),
                    re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_a_readme_example_runs(index: int, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", BLOCKS[index]], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()  # every example prints what it shows


def test_the_readme_testing_example_passes_under_pytest(tmp_path: Path) -> None:
    """Run from the clone, the plugin named with ``-p`` (``tests/test_wheel.py`` runs it from the wheel, where the
    installed entry point alone brings the fixtures)."""
    code, tests = game_test_file(check_own_names=False)
    (tmp_path / "test_example.py").write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "sandbox.testing.plugin", "-p",
                           "no:cacheprovider", "test_example.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{tests} passed" in proc.stdout and tests >= 1


SAMPLE = re.search(r"<!-- sample: COLUMNS=(\d+) sandbox (.*?) -->\n```text\n(.*?)```",
                   (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)


def test_the_readme_sample_output_is_what_the_command_prints(tmp_path: Path) -> None:
    """The README's sample account is a real run at its width: each part between ``...`` lines appears in the
    command's output as printed, in order."""
    assert SAMPLE is not None
    columns, command, text = SAMPLE.groups()
    proc = subprocess.run([sys.executable, "-m", "sandbox", *command.split()], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                                       "COLUMNS": columns})
    assert proc.returncode == 0, proc.stderr
    printed = proc.stdout.rstrip("\n").split("\n")
    at = 0
    for part in text.rstrip("\n").split("\n...\n"):
        lines = part.split("\n")
        starts = [i for i in range(at, len(printed) - len(lines) + 1) if printed[i:i + len(lines)] == lines]
        assert starts, f"not in the output after line {at}:\n{part}\n--- printed:\n{proc.stdout}"
        at = starts[0] + len(lines)
    assert at == len(printed), "the sample ends where the output does"
