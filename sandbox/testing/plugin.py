"""The pytest plugin (entry point ``pytest11``): a game's tests get seeded worlds as fixtures, with no conftest.

Installed with the package, pytest loads it by itself (``-p no:sandbox.testing.plugin`` switches it off). Fixtures:

- ``make_world``: a factory, ``make_world(scenario=None, seed=0, model=None, content=())``; every world it built is
  closed after the test.
- ``sandbox_world``: one world, as the test's ``sandbox_world`` mark says: ``@pytest.mark.sandbox_world("duel",
  seed=3, model="severity")``; ``models="all"`` (or a list) runs the test once per damage model. No mark: an empty
  world, seed 0, the default model.
- ``sandbox_content``: the game's content trees, from the ini option ``sandbox_content`` (paths relative to the
  ini file): every world the fixtures build extends the shipped content with them, so a scenario of the game's
  own folder is found by id.

It imports the sandbox only when a fixture is used: a test run that uses none pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sandbox.testing.worlds import WorldFactory
    from sandbox.world import Sandbox

__all__ = ["make_world", "pytest_addoption", "pytest_configure", "pytest_generate_tests", "sandbox_content",
           "sandbox_world"]

_MARK = "sandbox_world"
_MARK_OPTIONS = ("scenario", "seed", "model", "models", "content", "run")


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``sandbox_content`` ini option: the game's content trees."""
    parser.addini("sandbox_content", type="paths", default=[],
                  help="content trees (a game's own folders) every world of the sandbox fixtures extends the "
                       "shipped content with; relative to the ini file")


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``sandbox_world`` mark."""
    config.addinivalue_line("markers", f"{_MARK}(scenario=None, *, seed=0, model=None, models=None, content=(), "
                                       f"run=0): the world the sandbox_world fixture builds; models='all' or a list "
                                       f"runs the test under each damage model")


def _models(given: object) -> list[str]:
    if given == "all":
        from sandbox.models import available_models

        return list(available_models())
    if isinstance(given, str):
        return [given]
    if isinstance(given, Sequence):
        return [str(m) for m in given]
    raise pytest.UsageError(f"{_MARK}(models=...) takes 'all', a model name or a list of them, not {given!r}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run a test whose ``sandbox_world`` mark says ``models=`` once per model."""
    if _MARK not in metafunc.fixturenames:
        return
    mark = metafunc.definition.get_closest_marker(_MARK)
    if mark is None or mark.kwargs.get("models") is None:
        return
    models = _models(mark.kwargs["models"])
    metafunc.parametrize(_MARK, models, indirect=True, ids=models)


@pytest.fixture
def sandbox_content(pytestconfig: pytest.Config) -> tuple[Path, ...]:
    """The game's content trees (the ``sandbox_content`` ini option; none when it is not set)."""
    return tuple(pytestconfig.getini("sandbox_content"))


@pytest.fixture
def make_world(sandbox_content: tuple[Path, ...]) -> Iterator[WorldFactory]:
    """A factory of seeded worlds: ``make_world("duel", seed=3, model="depth", content=["mytree"])``.

    ``make_world()`` is an empty world to spawn into. Every world it built is closed after the test.
    """
    from sandbox.testing.worlds import WorldFactory

    factory = WorldFactory(sandbox_content)
    try:
        yield factory
    finally:
        factory.close()


@pytest.fixture
def sandbox_world(request: pytest.FixtureRequest, make_world: WorldFactory) -> Sandbox:
    """The world the test's ``sandbox_world`` mark describes (no mark: an empty world, seed 0).

    The mark takes the scenario (first, or ``scenario=``) and ``seed``, ``model``, ``content``, ``run``; with
    ``models=`` the test runs once per model, each run's model in place of ``model``.
    """
    mark = request.node.get_closest_marker(_MARK)
    options: dict[str, Any] = {}
    if mark is not None:
        unknown = sorted(set(mark.kwargs) - set(_MARK_OPTIONS))
        if unknown or len(mark.args) > 1:
            raise pytest.UsageError(f"{_MARK} takes a scenario and {', '.join(_MARK_OPTIONS[1:])}; not "
                                    f"{', '.join(unknown) or f'{len(mark.args)} positional arguments'}")
        options = dict(mark.kwargs)
        if mark.args:
            options["scenario"] = mark.args[0]
    options.pop("models", None)
    param = getattr(request, "param", None)
    if isinstance(param, str):
        options["model"] = param
    elif isinstance(param, Mapping):
        options.update(param)
    return make_world(**options)
