"""The examples double as smoke tests: they must run as a developer would run them."""

from __future__ import annotations

import ast
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import esper
import pytest

from sandbox.components.events import BloodLost
from sandbox.components.models.anatomy import Injury
from sandbox.config import default_catalog
from sandbox.models import available_models, build_model
from sandbox.systems import install
from sandbox.systems.models.anatomy.aftercare import BleedingProcessor
from sandbox.systems.models.anatomy.state import anatomy_state
from sandbox.systems.spawning import creature_components
from sandbox.world import Sandbox

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MODELS = ("anatomy", "severity", "depth", "strength", "status")


@pytest.fixture(scope="module")
def embed() -> dict[str, Any]:
    return runpy.run_path(str(EXAMPLES / "embed.py"))


@pytest.mark.parametrize("model", MODELS)
def test_embed_runs_its_own_world_under_every_model_and_cleans_up(embed: dict[str, Any], model: str) -> None:
    assert model in available_models()
    first = embed["main"](seed=7, model=model, quiet=True)
    second = embed["main"](seed=7, model=model, quiet=True)
    assert first == second and first in ("Round Table", "Green Chapel", None)
    assert "my-game" not in esper.list_worlds()


@pytest.mark.parametrize("model", MODELS)
def test_embed_and_sandbox_give_the_same_events(embed: dict[str, Any], model: str) -> None:
    """The one-call install and the spawn function are what ``Sandbox`` runs on: same seed, same creatures, same
    log, event for event."""
    winner, events = embed["fight"](seed=5, model=model, max_ticks=60, quiet=True)
    with Sandbox(seed=5, model=model) as world:
        for name, team, position, weapon in embed["FIGHTERS"]:
            world.spawn("human", name=name, team=team, position=position, weapons=[weapon],
                        armor=["gambeson", "helm"])
        outcome = world.run(max_ticks=60)
        assert [e.to_dict() for e in events] == [e.to_dict() for e in world.events]
        assert winner == outcome.winner
    assert events


def test_the_install_registers_the_models_own_processors_so_wounds_bleed() -> None:
    catalog = default_catalog()
    esper.switch_world("bleeding-test")
    try:
        ctx = install(build_model("anatomy", catalog), catalog, seed=1)
        assert any(isinstance(p, BleedingProcessor) for p in esper._processors)
        entity = esper.create_entity(*creature_components(catalog, ctx.model, "human", "Lone", team="A"))
        lone = ctx.creatures()[entity]
        ctx.model.inflict(lone, ctx, location="Neck", level="G4", aspect="edged")
        anatomy_state(lone).injury.wounds[0].bleeder = True
        for _ in range(31):
            esper.process()
        assert esper.component_for_entity(entity, Injury).blood_loss >= 0
        assert any(isinstance(e, BloodLost) and e.entity == entity for e in ctx.log)
    finally:
        esper.switch_world("default")
        esper.delete_world("bleeding-test")


def test_embed_imports_data_loading_only_from_sandbox() -> None:
    tree = ast.parse((EXAMPLES / "embed.py").read_text(encoding="utf-8"))
    from_sandbox = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                    and n.module.split(".")[0] == "sandbox"
                    and n.module.split(".")[1] not in ("components", "systems")}  # the application's modules
    assert from_sandbox == {"sandbox.config", "sandbox.models"}  # data and tables only: no Sandbox, no world
    ours = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            and n.module.split(".")[0] == "sandbox"}
    assert len(ours) <= 6, ours  # a handful, not fourteen imports from ten modules


def test_embed_as_a_script() -> None:
    proc = subprocess.run([sys.executable, str(EXAMPLES / "embed.py"), "severity"], capture_output=True, text=True,
                          check=True)
    assert "under the severity model" in proc.stdout.splitlines()[-1]
