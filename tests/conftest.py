"""Shared fixtures for the rule tests: the shipped catalog, its rule tables, the human body and a queued rng.

The rule tests read the shipped data (``configs/``) so that every expected value is pinned against the rule
documents (``shared/rules/anatomy-tables.md``, ``shared/rules/decisions.md``, seed document 000).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.testing

# Every test, and every command a test starts, checks content in full and sees only the content it names: no
# answer from the user's validated-content cache, no content trees from the user's environment.
os.environ["SANDBOX_CACHE"] = "off"
os.environ.pop("SANDBOX_CONTENT", None)
# Nor the test runner's terminal: pytest-xdist's workers set COLUMNS=80, which would wrap every table a test reads
# (a test that wants a width sets COLUMNS itself).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

from sandbox.components.body import BodyStructure, Location, Part, Zone
from sandbox.components.rules import AnatomyRules
from sandbox.config import Catalog, default_catalog

# Typer's CliRunner builds the click command of the app anew on every invoke (typer.main.get_command): about 17 ms,
# nearly all the time of a quick command, and the suite invokes the CLI hundreds of times. The app's commands and
# options are fixed once sandbox.cli is imported (no test adds one), so each test process builds it once; the command
# line itself runs in full on every invoke, as `sandbox` runs it.
_build_command = getattr(typer.testing, "_get_command", None)
_built: dict[int, tuple[object, Any]] = {}


def _command_of(app: Any) -> Any:
    assert _build_command is not None
    if id(app) not in _built:
        _built[id(app)] = (app, _build_command(app))  # the app kept alive: its id stays its own
    return _built[id(app)][1]


if _build_command is not None:  # a typer that names it otherwise builds the command each time, as before
    typer.testing._get_command = _command_of


class QueuedRng:
    """A fake generator whose ``random()`` returns queued floats, in order.

    Drawing more values than were queued fails the test, so a test also proves how many draws a rule makes.
    """

    def __init__(self, *values: float) -> None:
        self._values = list(values)
        self.drawn = 0

    def random(self) -> float:
        """The next queued value."""
        if not self._values:
            raise AssertionError(f"the rng was drawn more often than queued ({self.drawn} values queued)")
        self.drawn += 1
        return self._values.pop(0)

    @property
    def remaining(self) -> int:
        """How many queued values have not been drawn."""
        return len(self._values)

    @staticmethod
    def d100(roll: int) -> float:
        """The float that makes ``int(x * 100) + 1`` equal ``roll`` (1..100)."""
        assert 1 <= roll <= 100
        return (roll - 1) / 100 + 0.005

    @staticmethod
    def die(roll: int, sides: int) -> float:
        """The float that makes ``int(x * sides) + 1`` equal ``roll`` (1..sides)."""
        assert 1 <= roll <= sides
        return (roll - 1 + 0.5) / sides

    @classmethod
    def rolls(cls, *d100_rolls: int) -> QueuedRng:
        """A generator queued with d100 rolls."""
        return cls(*(cls.d100(r) for r in d100_rolls))


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped configs."""
    return default_catalog()


@pytest.fixture(scope="session")
def rules(catalog: Catalog) -> AnatomyRules:
    """The shipped anatomy rule tables (``configs/models/anatomy.toml``)."""
    return catalog.rules


@pytest.fixture(scope="session")
def human(catalog: Catalog) -> BodyStructure:
    """The shipped human body structure."""
    return catalog.bodies["human"]


@pytest.fixture
def queued() -> type[QueuedRng]:
    """The queued fake rng class (``queued.rolls(47, 55)``, ``queued(queued.die(5, 6))``)."""
    return QueuedRng


@pytest.fixture
def loc(human: BodyStructure) -> Callable[[str], int]:
    """Location index on the human body by name (``loc("Skull")``)."""
    return human.location_index


@pytest.fixture
def part(human: BodyStructure) -> Callable[[str], int]:
    """Part index on the human body by name (``part("Right Arm")``)."""
    return human.part_index


def _location(
    name: str,
    weight: float = 10.0,
    shock_value: int = 1,
    bleeding: str = "none",
    amputability: str = "none",
    *,
    fumble: bool = False,
    stumble: bool = False,
    protection: tuple[int, int, int, int] | None = None,
) -> dict[str, object]:
    """A location spec for ``make_body``."""
    return {
        "name": name,
        "weight": weight,
        "shock_value": shock_value,
        "bleeding": bleeding,
        "amputability": amputability,
        "fumble": fumble,
        "stumble": stumble,
        "protection": protection,
    }


def _side(name: str, names: set[str]) -> str:
    lower = name.casefold()
    for side, other in (("left", "right"), ("right", "left")):
        if lower.startswith(side + " ") and other + lower[len(side) :] in names:
            return side
    return "center"


def build_test_body(
    zones: list[dict[str, Any]],
    parts: list[dict[str, Any]],
    *,
    name: str = "Test Body",
    scale: float = 1.0,
    thresholds: tuple[float, ...] | None = None,
    natural_protection: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> BodyStructure:
    """Build a ``BodyStructure`` straight from the component dataclasses (independent of the loader).

    Zones are dealt contiguous zone numbers in definition order, sized by weight (a weight-0 zone owns none:
    ``first`` 0, ``last`` -1), as the rules and the loader do.
    """
    zone_index = {z["name"]: i for i, z in enumerate(zones)}
    part_names = {p["name"].casefold() for p in parts}
    locations: list[Location] = []
    built_parts: list[Part] = []
    zone_parts: list[list[int]] = [[] for _ in zones]
    for pi, p in enumerate(parts):
        zi = zone_index[p["zone"]]
        zone_parts[zi].append(pi)
        ids = []
        for spec in p["locations"]:
            ids.append(len(locations))
            locations.append(
                Location(
                    name=spec["name"],
                    part=pi,
                    weight=spec["weight"],
                    shock_value=spec["shock_value"],
                    bleeding=spec["bleeding"],
                    amputability=spec["amputability"],
                    fumble=spec["fumble"],
                    stumble=spec["stumble"],
                    protection=spec["protection"] or natural_protection,
                )
            )
        built_parts.append(
            Part(
                name=p["name"],
                zone=zi,
                weight=p.get("weight", 1.0),
                roles=frozenset(p.get("roles", ())),
                can_hold=p.get("can_hold", False),
                side=_side(p["name"], part_names),
                locations=tuple(ids),
                permanent_impairment=p.get("permanent_impairment", 0),
                permanently_unusable=p.get("permanently_unusable", False),
            )
        )
    built_zones = []
    first = 1
    for zi, z in enumerate(zones):
        w = z["weight"]
        built_zones.append(
            Zone(z["name"], w, first if w else 0, first + w - 1 if w else -1, tuple(zone_parts[zi]))
        )
        first += w
    return BodyStructure(
        "test_body", name, scale, tuple(built_zones), tuple(built_parts), tuple(locations), thresholds
    )


@pytest.fixture
def make_body() -> Callable[..., BodyStructure]:
    """Build a test body: ``make_body(zones=[{"name", "weight"}], parts=[{"name", "zone", "weight",
    "roles", "can_hold", "locations": [body_loc(...)]}], scale=..., thresholds=...)``."""
    return build_test_body


@pytest.fixture
def body_loc() -> Callable[..., dict[str, object]]:
    """A location spec: ``body_loc("Thorax", weight=40, shock_value=4, bleeding="medium")``."""
    return _location


@pytest.fixture
def good_save(tmp_path: Path) -> Path:
    """A save of the duel five ticks in (the save and hostile-save tests start from it)."""
    from sandbox.world import Sandbox

    w = Sandbox.from_scenario("duel", seed=4)
    for _ in range(5):
        w.step()
    path = tmp_path / "good.json"
    w.save(path)
    w.close()
    return path


@pytest.fixture(scope="module")
def dummy_display() -> Iterator[None]:
    """The dummy video driver's display, initialised once for a module of viewer tests (``SDL_VIDEODRIVER=dummy``;
    a module asks for it with ``pytestmark = pytest.mark.usefixtures("dummy_display")``)."""
    import pygame

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()
