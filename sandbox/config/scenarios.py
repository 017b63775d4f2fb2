"""Loading a scenario.

By id in the content, or from its file (a file inside a content tree brings its tree along:
``sandbox.config.content.scenario_ref`` resolves it once, into the ``ScenarioRef`` loaded here).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from sandbox.config import schema as s
from sandbox.config.builders import build_scenario
from sandbox.config.checks import Known, check_scenario
from sandbox.config.content import ScenarioRef, is_scenario_path, scenario_ref
from sandbox.config.errors import ConfigError, Problem, suggest
from sandbox.config.loader import Catalog, default_catalog
from sandbox.config.reading import not_a_file, read_toml, validation_problems
from sandbox.scenario_def import ScenarioDef

__all__ = ["known_from_catalog", "load_scenario", "resolve_scenario"]


def known_from_catalog(catalog: Catalog) -> Known:
    """What a loaded catalog defines, for checking one more file against it (case-folded names)."""
    return Known(
        skills={sid: skill.kind for sid, skill in catalog.skills.items()},
        bodies={bid: {loc.name.casefold() for loc in b.locations} for bid, b in catalog.bodies.items()},
        body_parts={bid: {p.name.casefold() for p in b.parts} for bid, b in catalog.bodies.items()},
        location_names={bid: [loc.name for loc in b.locations] for bid, b in catalog.bodies.items()},
        part_names={bid: [p.name for p in b.parts] for bid, b in catalog.bodies.items()},
        weapons=set(catalog.weapons),
        items=set(catalog.items),
        armor={aid: a.body for aid, a in catalog.armor.items()},
        creatures={cid: c.body for cid, c in catalog.creatures.items()},
        scale=(catalog.rules.scale_min, catalog.rules.scale_max))


def load_scenario(scenario: str | Path | ScenarioRef, catalog: Catalog) -> ScenarioDef:
    """A scenario by id in ``catalog``, or from a file checked against ``catalog``'s definitions.

    A ``ScenarioRef`` gives its file, or its id. A file's problems name it as it was given.

    Raises:
        ConfigError: Unknown id (with the closest known one), or every problem of an invalid file.
    """
    if isinstance(scenario, ScenarioRef):
        text, path = scenario.name, scenario.file
    else:
        text = str(scenario)
        path = Path(text) if is_scenario_path(scenario) else None
    if path is None:
        if text not in catalog.scenarios:
            known = ", ".join(sorted(catalog.scenarios))
            raise ConfigError([Problem("scenarios/", "", None, f"a scenario in scenarios/ ({known}) or a scenario "
                                       "file", repr(text), suggest(text, catalog.scenarios))])
        return catalog.scenarios[text]
    problems: list[Problem] = []
    if not path.is_file():
        raise ConfigError([Problem(text, "", None, "an existing scenario file", not_a_file(path))])
    data = read_toml(path, text, problems)
    if data is None:
        raise ConfigError(problems)
    try:
        model = s.ScenarioFile.model_validate(data)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, data, s.ScenarioFile, lambda _: text))
        model = None
    problems.extend(check_scenario(data, text, known_from_catalog(catalog)))
    if problems or model is None:
        raise ConfigError(problems)
    return build_scenario(model, path.stem)


def resolve_scenario(scenario: str | Path | ScenarioRef, catalog: Catalog | None = None,
                     content: Iterable[str | Path] = ()) -> tuple[Catalog, ScenarioDef]:
    """The catalog and the scenario a world is built from.

    ``catalog`` if given, else the shipped content extended by the scenario's content (``scenario_ref``: ``content`` and
    the tree its file lies in).

    Raises:
        ConfigError: The scenario is unknown or invalid (every problem listed), or its content is.
    """
    ref = scenario_ref(scenario, content)
    catalog = catalog or default_catalog(ref.content)
    return catalog, load_scenario(ref, catalog)
