"""What a lab runs.

Its scenario, models, runs, seed and points (the variants, the scale-factor points, the solver's probes), checked before
anything runs or is written.

A plan is plain data (it travels to the workers and is kept in ``summary.json``): ``--resume`` continues a lab only
when the plan it is given is the plan the folder holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.config.content import ScenarioRef, scenario_ref

from .errors import LabError
from .variants import (
    BASELINE,
    MAX_VARIANTS,
    Variant,
    dice_parts,
    locate,
    parse_value,
    split_key,
    split_values,
    target_of,
    with_modifier,
)

__all__ = ["ARRAY_WORLD", "ESPER_CHUNK", "LabPlan", "Numeric", "ScaleKey", "SolveSpec", "Target", "check_engine",
           "default_chunk", "default_models", "numeric", "parse_target", "read_variants", "scale_keys", "solve_spec",
           "vary_variants"]

ESPER_CHUNK = 25
"""Runs per chunk on the esper engine: small, so a lab's progress and ``target_error`` move often."""
ARRAY_WORLD = 40_000
"""Creatures in the array world of a lab's default chunk on the array engine: a duel's lab gets chunks of 20,000
runs, the battle's (200 combatants) chunks of 200. A chunk is one array world, whose ticks have a fixed cost of
about a millisecond (numpy's and numba's per-call overhead) besides their cost per creature, and whose set-up and
records cost per fight, so it takes tens of thousands of creatures to pay for itself (the duel's lab on one core,
one morning: 4,300 to 5,300 fights/s in chunks of 4,000, 6,000 to 6,500 in 10,000, 6,900 to 7,700 in 20,000, 7,000
to 7,600 in 40,000; `README.md`, "Mass battles"); and its memory grows with its creatures (about 4 kB each: the
battle's lab in chunks of 1,000, 200,000 creatures, peaked at 0.8 GB), so the chunk is sized by creatures, not
runs. Larger chunks make a lab's progress, its ``target_error`` checks and the sharing of chunks among ``--jobs``
coarser (a lab of one point and model on two jobs shares its runs only when they make two chunks or more);
``--chunk`` sets it."""


def default_chunk(engine: str, creatures: int) -> int:
    """The chunk a lab on ``engine`` gets when none is asked for.

    For a scenario of ``creatures`` (at least one) combatants: ``ESPER_CHUNK`` runs of a world each, or on an engine
    whose world runs a batch of fights, a world of about ``ARRAY_WORLD`` creatures. An unknown engine is refused later,
    by ``check_engine``.
    """
    from sandbox.engines import ENGINES

    known = ENGINES.get(engine)
    if known is None or not known.batches:
        return ESPER_CHUNK
    return max(1, ARRAY_WORLD // creatures)


def default_models(engine: str, scenario: str | Path | ScenarioRef, asks: bool) -> str:
    """The models a lab runs when none are asked for.

    ``all`` for a lab that asks nothing of variants, scale factors or a solve on an engine that runs every model, else
    the scenario's own (an unknown engine is refused later, by ``check_engine``).
    """
    from sandbox.engines import ENGINES

    known = ENGINES.get(engine)
    if not asks and known is not None and known.every_model:
        return "all"
    from sandbox.config.scenarios import resolve_scenario

    return resolve_scenario(scenario)[1].model


@dataclass(frozen=True, slots=True)
class Numeric:
    """A numeric key of the content: its value, and how a number becomes a value of that key.

    Attributes:
        key: The key.
        value: Its value in the baseline (a dice expression's: its modifier).
        kind: ``int``, ``float`` or ``dice`` (an impact ``NdX+M``, numeric through its modifier M).
        raw: The value as the content has it.
    """

    key: str
    value: float
    kind: str
    raw: Any

    @property
    def integral(self) -> bool:
        """Only whole numbers are values of the key."""
        return self.kind != "float"

    def patch(self, x: float) -> Any:
        """The value of the key for the number ``x`` (rounded for a whole-number key)."""
        if self.kind == "float":
            return float(x)
        whole = round(x)
        return with_modifier(str(self.raw), whole) if self.kind == "dice" else whole

    def variant(self, x: float, prefix: str = "", base: Variant | None = None) -> Variant:
        """The variant setting the key to ``x`` on top of ``base``'s patches, named ``key=value``."""
        value = self.patch(x)
        shown = value if isinstance(value, str) else f"{value:g}"
        kept = tuple(p for p in (base.patches if base is not None else ()) if p[0] != self.key)
        return Variant(f"{prefix}{self.key}={shown}", (*kept, (self.key, value)))


def numeric(key: str, scenario: str | Path | ScenarioRef, base: Variant | None = None) -> Numeric:
    """The key's value in the content (as ``base`` patches it), as a number.

    Raises:
        LabError: The key names nothing, or its value is not a number (nor a dice expression).
    """
    from sandbox.config.scenarios import resolve_scenario

    from .variants import _point_models, _schema, _source

    ref = scenario_ref(scenario)
    catalog, spec = resolve_scenario(ref)
    target = target_of(split_key(key), catalog, _point_models())
    data = _source(target, catalog, ref, spec)
    found = locate(data, target.inner, _schema(target.kind), key, create=False)
    patched = [v for k, v in (base.patches if base is not None else ()) if split_key(k) == split_key(key)]
    if patched:
        found.old, found.present = patched[-1], True
    if not found.present:
        raise LabError(f"{key} is not set in the content: give it a value with --vary, or name a key that is set")
    raw = found.old
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise LabError(f"{key} is not numeric (found {raw!r}): --scale and --solve take a number or a dice "
                       "expression (whose modifier varies)")
    if isinstance(raw, str):
        parts = dice_parts(raw)
        if parts is None:
            raise LabError(f"{key} is not numeric (found {raw!r}): --scale and --solve take a number or a dice "
                           "expression (whose modifier varies)")
        return Numeric(key, float(parts[2]), "dice", raw)
    return Numeric(key, float(raw), "float" if isinstance(raw, float) else "int", raw)


@dataclass(frozen=True, slots=True)
class ScaleKey:
    """One parameter of ``--scale``: the two points around its value (central differences, paired).

    Attributes:
        key: The parameter.
        value: Its baseline value (a dice expression's modifier).
        step: Half the distance between the two points.
        low: The variant at value - step (the baseline itself when that value is not valid content).
        high: The variant at value + step.
    """

    key: str
    value: float
    step: float
    low: Variant
    high: Variant

    @property
    def span(self) -> float:
        """The distance between the two points."""
        return 2 * self.step if self.low.patches else self.step


@dataclass(frozen=True, slots=True)
class Target:
    """The solver's target: a team's win rate, or two teams' win rates equal.

    Attributes:
        team: The team whose win rate is aimed at.
        rate: The win rate aimed at (``None``: equal to ``versus``'s).
        versus: The other team of an even target (``Red=Blue``).
    """

    team: str
    rate: float | None = None
    versus: str | None = None

    def describe(self) -> str:
        """``Red=0.5`` or ``Red=Blue``."""
        return f"{self.team}={self.versus}" if self.versus else f"{self.team}={self.rate:g}"


@dataclass(frozen=True, slots=True)
class SolveSpec:
    """``--solve KEY --between LO HI --target T``.

    Attributes:
        key: The parameter.
        low: The lower end of the range.
        high: The upper end.
        target: What to reach.
        error: Stop once the value's 95% interval half-width is below this (the key's units).
        numeric: The key as a number.
        base: The variant the probes patch on top of (the baseline).
    """

    key: str
    low: float
    high: float
    target: Target
    error: float
    numeric: Numeric
    base: Variant = field(default_factory=lambda: Variant(BASELINE))


def parse_target(text: str, teams: Sequence[str]) -> Target:
    """``TEAM=RATE`` (``Red=0.5``) or ``TEAM=TEAM`` (``Red=Blue``: the duel even).

    Raises:
        LabError: Not of that form, an unknown team, or a rate outside (0, 1).
    """
    team, sep, rest = text.partition("=")
    team, rest = team.strip(), rest.strip()
    if not sep or not team or not rest:
        raise LabError(f"--target {text!r}: expected TEAM=RATE (Red=0.5) or TEAM=TEAM (Red=Blue)")
    if team not in teams:
        raise LabError(f"--target {text!r}: no team {team!r} in the scenario (teams: {', '.join(teams)})")
    if rest in teams:
        if rest == team:
            raise LabError(f"--target {text!r}: name two different teams")
        return Target(team, versus=rest)
    try:
        rate = float(rest)
    except ValueError:
        raise LabError(f"--target {text!r}: {rest!r} is neither a win rate nor a team ({', '.join(teams)})") from None
    if not 0.0 < rate < 1.0:
        raise LabError(f"--target {text!r}: a win rate strictly between 0 and 1")
    return Target(team, rate=rate)


@dataclass(frozen=True, slots=True)
class LabPlan:
    """What to run.

    Attributes:
        scenario: The scenario, resolved: its id or file and the content trees it runs over (an id or a path given
            is resolved over the shipped content and the tree the file lies in). It travels with every chunk.
        models: Damage models, sorted.
        runs: Runs per model and variant (the solver: the most runs per probe).
        seed: Root seed.
        chunk: Run indices per chunk of work (never depends on the worker count: it sets where
            ``target_error`` can stop).
        target_error: Stop after a chunk once every win rate's 95% half-width is below this.
        variants: The variants compared, the baseline first.
        scale: The parameters of ``--scale``.
        solve: The ``--solve`` request.
        engine: The engine that runs the fights (``esper``, or ``array``: each chunk one array world).
    """

    scenario: ScenarioRef
    models: tuple[str, ...]
    runs: int
    seed: int = 0
    chunk: int = ESPER_CHUNK
    target_error: float | None = None
    variants: tuple[Variant, ...] = (Variant(BASELINE),)
    scale: tuple[ScaleKey, ...] = ()
    solve: SolveSpec | None = None
    engine: str = "esper"
    points: tuple[Variant, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scenario", scenario_ref(self.scenario))
        points = {v.name: v for v in self.variants}
        for key in self.scale:
            for point in (key.low, key.high):
                points.setdefault(point.name, point)
        object.__setattr__(self, "points", tuple(points.values()))

    @property
    def baseline(self) -> Variant:
        """The variant every other is compared with."""
        return self.variants[0]

    def chunks(self) -> Iterator[tuple[Variant, str, range]]:
        """(variant, model, run indices) in submission order.

        Chunk by chunk, every point and model in turn, so a ``target_error`` stop leaves each with the same number of
        runs.
        """
        for start in range(0, self.runs, self.chunk):
            for point in self.points:
                for model in self.models:
                    yield point, model, range(start, min(start + self.chunk, self.runs))

    def as_json(self) -> dict[str, Any]:
        """The plan as JSON (what ``--resume`` compares)."""
        return {
            "scenario": self.scenario.name, "models": list(self.models), "runs": self.runs, "seed": self.seed,
            "chunk": self.chunk, "target_error": self.target_error, "engine": self.engine,
            "variants": [{"name": v.name, "patches": [[k, val] for k, val in v.patches]} for v in self.variants],
            "scale": [{"key": s.key, "value": s.value, "step": s.step, "low": s.low.name, "high": s.high.name}
                      for s in self.scale],
            "solve": None if self.solve is None else {
                "key": self.solve.key, "between": [self.solve.low, self.solve.high],
                "target": self.solve.target.describe(), "target_error": self.solve.error},
        }


def check_engine(plan: LabPlan) -> None:
    """Refuse, before any work, an engine that cannot run every model and variant of the plan.

    Raises:
        LabError: An unknown engine, or a model or scenario feature the array engine does not run (it says which).
    """
    from sandbox.engines import engine_named
    from sandbox.world import SandboxError

    from .variants import variant_content

    try:
        engine = engine_named(plan.engine)
        if engine.every_model:
            return  # nothing to check (and on the esper engine, the array engine and numba stay unloaded)
        for point in plan.points:
            content = variant_content(point, plan.scenario)
            for model in plan.models:
                engine.check(content.scenario, content.catalog, model)
    except SandboxError as exc:
        raise LabError(f"--engine {plan.engine}: {exc}") from None


def read_variants(path: Path) -> tuple[Variant, ...]:
    """The variants of a variants file, the baseline first.

    The file::

        baseline = "sword"                 # optional: one of the variants; default: the unpatched content
        [variants.sword]
        scenario.combatants.Aldric.weapons = ["broadsword"]
        [variants.mace]
        scenario.combatants.Aldric.weapons = ["mace"]
        "weapons.mace.modes.crush.impact" = "1d6+5"   # a key may be written quoted, whole

    Raises:
        LabError: Unreadable, not TOML, or not of that form.
    """
    import tomli

    from sandbox.config.limits import MAX_FILE_BYTES

    if not path.is_file():
        raise LabError(f"--variants {path}: no such file" if not path.exists() else f"--variants {path}: not a file")
    try:
        raw = path.read_bytes()
        if len(raw) > MAX_FILE_BYTES:
            raise LabError(f"--variants {path}: at most {MAX_FILE_BYTES:,} bytes, found {len(raw):,}")
        data = tomli.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError, RecursionError) as exc:
        raise LabError(f"--variants {path}: not a readable TOML file ({exc})") from None
    unknown = sorted(set(data) - {"baseline", "variants"})
    if unknown:
        raise LabError(f"--variants {path}: unknown key {unknown[0]!r} (the file holds baseline and [variants.NAME])")
    tables = data.get("variants")
    if not isinstance(tables, dict) or not tables:
        raise LabError(f"--variants {path}: expected [variants.NAME] tables of patches, found none")
    variants = []
    for name, table in tables.items():
        if not isinstance(table, dict) or not table:
            raise LabError(f"--variants {path}: variants.{name} must be a table of patches (key = value)")
        variants.append(Variant(_name(name), tuple(_flatten(table))))
    baseline = data.get("baseline")
    if baseline is None:
        if any(v.name == BASELINE for v in variants):
            raise LabError(f"--variants {path}: a variant called {BASELINE!r} needs baseline = {BASELINE!r}")
        return _bounded((Variant(BASELINE), *variants))
    names = [v.name for v in variants]
    if baseline not in names:
        raise LabError(f"--variants {path}: baseline = {baseline!r} names no variant ({', '.join(names)})")
    first = names.index(baseline)
    return _bounded((variants[first], *variants[:first], *variants[first + 1:]))


def _bounded(variants: tuple[Variant, ...]) -> tuple[Variant, ...]:
    if len(variants) > MAX_VARIANTS:
        raise LabError(f"at most {MAX_VARIANTS} variants in one lab, found {len(variants)}")
    return variants


def _name(name: str) -> str:
    if not name or len(name) > 80 or not name.isprintable():
        raise LabError(f"a variant's name is printable text of 1 to 80 characters, found {name!r}")
    return name


def _flatten(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    from sandbox.config.errors import dotted

    for key, value in table.items():
        parts = (*prefix, *split_key(key)) if not prefix and "." in key else (*prefix, key)
        if isinstance(value, dict):
            yield from _flatten(value, parts)
        else:
            yield dotted(*parts), value


def vary_variants(specs: Sequence[str]) -> tuple[Variant, ...]:
    """``--vary KEY=V1,V2,...`` (repeatable): one variant per value, named ``KEY=V``, after the baseline.

    Raises:
        LabError: Not of that form.
    """
    variants = [Variant(BASELINE)]
    for spec in specs:
        key, sep, values = spec.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise LabError(f"--vary {spec!r}: expected KEY=V1,V2,... (creatures.human.skills.sword=50,60)")
        split_key(key)
        for text in split_values(values):
            if not text:
                raise LabError(f"--vary {spec!r}: an empty value")
            value = parse_value(text)
            variants.append(Variant(_name(f"{key.strip()}={text}"), ((key.strip(), value),)))
    return _bounded(tuple(variants))


_STEP = re.compile(r"^(.*?):([-+0-9.eE]+)$")


def scale_keys(spec: str, scenario: str | Path | ScenarioRef, base: Variant | None = None) -> tuple[ScaleKey, ...]:
    """``--scale KEY[:STEP],...``.

    Each key's two points, at its value minus and plus the step (default: one for a whole number or a dice modifier, a
    tenth of the value, else 0.1, for a number), on top of the baseline's patches.

    Raises:
        LabError: A key names nothing or is not numeric, or a step is not positive.
    """
    from sandbox.config.errors import ConfigError

    from .variants import check_patches

    keys = []
    for text in split_values(spec):
        if not text:
            raise LabError("--scale: an empty key")
        match = _STEP.match(text)
        key, step_text = (match.group(1), match.group(2)) if match else (text, None)
        found = numeric(key, scenario, base)
        if step_text is not None:
            try:
                step = float(step_text)
            except ValueError:
                raise LabError(f"--scale {text!r}: the step {step_text!r} is not a number") from None
        else:
            step = 1.0 if found.integral else (abs(found.value) / 10 or 0.1)
        if not (math.isfinite(step) and step > 0) or (found.integral and step != int(step)):
            raise LabError(f"--scale {text!r}: a positive step{' (a whole number)' if found.integral else ''}")
        high = found.variant(found.value + step, "scale:", base)
        low = found.variant(found.value - step, "scale:", base)
        check_patches(high, scenario)
        try:
            check_patches(low, scenario)
        except ConfigError:  # the value below is not valid content (a protection of -1): a forward difference
            low = base or Variant(BASELINE)
        keys.append(ScaleKey(key, found.value, step, low, high))
    return tuple(keys)


def solve_spec(key: str, between: tuple[float, float], target: str, teams: Sequence[str], error: float | None,
               scenario: str | Path | ScenarioRef, base: Variant | None = None) -> SolveSpec:
    """``--solve KEY --between LO HI --target T [--target-error E]``.

    Raises:
        LabError: LO >= HI, a key that is not numeric, a bad target.
    """
    low, high = between
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise LabError(f"--between {low:g} {high:g}: expected LO < HI, both finite")
    found = numeric(key, scenario, base)
    if found.integral and int(high) - math.ceil(low) < 1:
        raise LabError(f"--between {low:g} {high:g}: {key} takes whole numbers; the range holds fewer than two")
    goal = parse_target(target, teams)
    if error is not None and not (math.isfinite(error) and error > 0):
        raise LabError(f"--target-error {error}: a positive number (the solved value's 95% half-width)")
    default = max((high - low) / 50, 0.5 if found.integral else 0.0)  # a whole-number key: between two values
    return SolveSpec(key, low, high, goal, error if error is not None else default, found,
                     base or Variant(BASELINE))
