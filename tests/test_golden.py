"""Golden values: what must not drift without a reviewed diff.

- ``tests/golden/duel-seed3-<model>.jsonl``: the event log of the shipped duel, seed 3, under each of the five
  models (its fight, then ten days out of combat), as ``sandbox run --log`` writes it.
- ``tests/golden/save-v2.json``: a save of the current format (the duel under the anatomy model, seed 3, saved
  at tick 4); it must keep loading, and continuing it must give the golden log's events from there on.

A change that alters them fails here. When the change is meant (a rule fixed on purpose), regenerate them with
``SANDBOX_REGENERATE_GOLDEN=1 pytest tests/test_golden.py`` and commit the diff with the change, so the review
sees exactly which events moved.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from sandbox.eventlog import write_jsonl
from sandbox.world import Sandbox

GOLDEN = Path(__file__).resolve().parent / "golden"
MODELS = ("anatomy", "severity", "depth", "strength", "status")
REGENERATE = os.environ.get("SANDBOX_REGENERATE_GOLDEN") == "1"
SAVE_TICK = 4


def duel_log(model: str) -> str:
    with Sandbox.from_scenario("duel", seed=3, model=model) as world:
        world.run()
        world.advance(days=10)
        out = io.StringIO()
        write_jsonl(world.events, world.names, out)
        return out.getvalue()


def check(path: Path, text: str) -> None:
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path.name} is missing: regenerate it (see the module docstring)"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} drifted (see the module docstring)"


@pytest.mark.parametrize("model", MODELS)
def test_the_duel_log_of_each_model_is_golden(model: str) -> None:
    check(GOLDEN / f"duel-seed3-{model}.jsonl", duel_log(model))


def test_the_golden_save_keeps_loading_and_continues_the_golden_fight(tmp_path: Path) -> None:
    path = GOLDEN / "save-v2.json"
    if REGENERATE:
        with Sandbox.from_scenario("duel", seed=3) as world:
            for _ in range(SAVE_TICK):
                world.step()
            world.save(path)
    with Sandbox.load(path) as loaded:
        assert loaded.tick == SAVE_TICK and loaded.model == "anatomy"
        loaded.run()
        loaded.advance(days=10)
        out = io.StringIO()
        write_jsonl(loaded.events, loaded.names, out)
    golden = (GOLDEN / "duel-seed3-anatomy.jsonl").read_text(encoding="utf-8")
    assert out.getvalue() == golden
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "combat-sandbox-save" and doc["version"] == 2
