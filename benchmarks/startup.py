"""Start-up: how fast ``sandbox --help`` and ``sandbox validate`` answer, and how fast a big content tree loads.

Each command is run as a new process, as a user runs it, several times; the median wall time is reported in
seconds and as a multiple of ``python -c pass`` timed in the same run (the interpreter's own start-up on this
machine, so the ratio travels between machines). ``validate`` is timed twice: answered from the validated-content
cache (the second and later runs on unchanged content: ``sandbox/config/cache.py``) and with the cache off (the
first run, or ``SANDBOX_CACHE=off``). The content tree is generated (``--files`` files: bodies, weapons, armour
pieces and creatures that use each other) and loaded in full: every file validated, every model's tables derived.

Targets: ``--help`` and ``validate`` (cached) under 0.3 s; the tree under 0.5 s.

    python benchmarks/startup.py [--runs 7] [--files 200]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET = 0.3
VALIDATE_TARGET = 0.3
TREE_TARGET = 0.5


def sandbox_command() -> list[str]:
    """The installed ``sandbox`` script beside this interpreter (what a user runs), else ``python -m sandbox``."""
    script = Path(sys.executable).with_name("sandbox")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sandbox"]


def wall(command: list[str], runs: int, env: dict[str, str], cwd: Path) -> float:
    """The median wall time of ``command`` over ``runs`` runs, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def write_tree(folder: Path, files: int) -> Path:
    """A content tree of ``files`` definitions (a quarter each bodies, weapons, armour and creatures, each creature
    using its own body, weapon and armour) and a manifest."""
    from sandbox.config.content import shipped_root

    shipped = shipped_root()
    body = (shipped / "bodies" / "human.toml").read_text(encoding="utf-8")
    weapon = (shipped / "weapons" / "broadsword.toml").read_text(encoding="utf-8")
    creature = (shipped / "creatures" / "human.toml").read_text(encoding="utf-8")
    tree = folder / "tree"
    for sub in ("bodies", "weapons", "armor", "creatures"):
        (tree / sub).mkdir(parents=True)
    (tree / "content.toml").write_text('name = "benchmark"\nversion = "1"\nextends = "sandbox"\n', encoding="utf-8")
    for i in range(files // 4):
        (tree / "bodies" / f"body_{i}.toml").write_text(body.replace('name = "Human"', f'name = "Body {i}"', 1),
                                                        encoding="utf-8")
        (tree / "weapons" / f"weapon_{i}.toml").write_text(
            weapon.replace('impact = "1d10+3"', f'impact = "1d10+{i % 7}"', 1), encoding="utf-8")
        (tree / "armor" / f"armor_{i}.toml").write_text(
            f'name = "Plates {i}"\nbody = "body_{i}"\nrigid = true\ncovers = ["Thorax", "Abdomen"]\n'
            f"protection = {{ blunt = {i % 5}, edged = {3 + i % 8}, piercing = {2 + i % 6}, fire = 1 }}\n",
            encoding="utf-8")
        (tree / "creatures" / f"creature_{i}.toml").write_text(
            creature.replace('name = "Human"', f'name = "Creature {i}"', 1)
            .replace('body = "human"', f'body = "body_{i}"', 1)
            .replace('weapons = ["unarmed"]', f'weapons = ["weapon_{i}"]', 1)
            .replace("armor = []", f'armor = ["armor_{i}"]', 1), encoding="utf-8")
    return tree


def load_tree(tree: Path) -> float:
    """Seconds to load the tree in full in this process (imports already warm): the catalog, then every damage
    model's tables with what they derive."""
    from sandbox.config.loader import load_catalog
    from sandbox.models import available_models, load_model

    available_models()
    start = time.perf_counter()
    catalog = load_catalog(content=[tree])
    for name in available_models():
        load_model(name, catalog)
    return time.perf_counter() - start


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", type=int, default=200)
    args = parser.parse_args()
    sandbox = sandbox_command()
    with tempfile.TemporaryDirectory() as tmp:
        here = Path(tmp)
        cache = here / "cache"
        env = {**os.environ, "SANDBOX_CACHE": str(cache)}
        env.pop("SANDBOX_CONTENT", None)
        off = {**env, "SANDBOX_CACHE": "off"}
        python = wall([sys.executable, "-c", "pass"], args.runs, env, here)
        helped = wall([*sandbox, "--help"], args.runs, env, here)
        subprocess.run([*sandbox, "validate"], env=env, cwd=here, check=True, stdout=subprocess.DEVNULL)
        cached = wall([*sandbox, "validate"], args.runs, env, here)
        uncached = wall([*sandbox, "validate"], max(3, args.runs // 2), off, here)
        tree = write_tree(here, args.files)
        count = sum(1 for _ in tree.rglob("*.toml"))
        in_process = min(load_tree(tree) for _ in range(3))
        tree_cli = wall([*sandbox, "validate", str(tree)], max(3, args.runs // 2), off, here)
        shutil.rmtree(cache, ignore_errors=True)
    rows = [
        ("python -c pass", python, None),
        ("sandbox --help", helped, HELP_TARGET),
        ("sandbox validate (cached)", cached, VALIDATE_TARGET),
        ("sandbox validate (cache off)", uncached, None),
        (f"a {count}-file tree, loaded in process", in_process, TREE_TARGET),
        (f"sandbox validate TREE ({count} files, cache off)", tree_cli, None),
    ]
    print(f"{'what':52} {'seconds':>8} {'x python':>9}  target")
    for what, seconds, target in rows:
        verdict = "" if target is None else f"< {target} s: {'met' if seconds < target else 'MISSED'}"
        print(f"{what:52} {seconds:8.3f} {seconds / python:9.1f}  {verdict}")


if __name__ == "__main__":
    main()
