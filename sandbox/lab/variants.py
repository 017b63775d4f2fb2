"""Variants: named patches of the content a lab compares, each a set of dotted keys and the values they take.

A key is the content path: the file (its kind and id), then the keys inside it, list entries by their ``id`` or
``name``::

    weapons.broadsword.modes.cut.impact          the impact dice of the broadsword's cut
    armor.mail_hauberk.protection.edged          the hauberk's edged protection
    creatures.human.skills.sword                 the human's sword ML
    bodies.human.natural_protection.blunt        a body's natural protection
    scenario.combatants.Bertram.armor            what Bertram wears in the lab's scenario
    models.severity.creatures.human.brawn        a point model's table entry (derived ones too)
    models.anatomy.shock.opening                 a key of the anatomy rules; skills.<...> and sandbox.<...> likewise

A key whose part holds a dot is quoted as TOML quotes it (``models.severity.weapons."broadsword.cut".damage``); an
unquoted one is found too when only that reading names something. A variant is applied by writing the patched
files into a scratch folder and loading the content through the usual loader with them, so a variant that makes
the content invalid gets the usual config error (naming the variant). Every process (a pool worker, a Dask worker)
builds a variant's content itself, once, from the patches and the lab's resolved scenario (its file and content trees,
a ``ScenarioRef``) alone: they are small and travel with the work, so a worker needs nothing from its environment.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import json
import math
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sandbox.config.content import ScenarioRef, scenario_ref
from sandbox.config.errors import ConfigError, Problem, dotted, suggest
from sandbox.config.layout import KIND_DIRS, MODELS_DIR, SINGLE_FILES
from sandbox.config.loader import Catalog, load_catalog, read_layered
from sandbox.config.reading import fields_at, read_toml
from sandbox.config.scenarios import load_scenario, resolve_scenario
from sandbox.scenario_def import ScenarioDef

from .errors import LabError

__all__ = ["BASELINE", "MAX_KEY_LENGTH", "MAX_VARIANTS", "Target", "Variant", "VariantContent", "check_patches",
           "dice_parts", "locate", "parse_value", "set_value", "split_key", "split_values", "target_of", "toml_text",
           "variant_content", "with_modifier"]

BASELINE = "baseline"
"""The name of the unpatched content in a lab of variants (unless the variants file names another baseline)."""
MAX_VARIANTS = 64
"""The most variants one lab compares."""
MAX_KEY_LENGTH = 300
"""The longest key a patch may have (characters)."""
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_DICE = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_SINGLE = {"skills": "skills.toml", "sandbox": "sandbox.toml"}
"""Rule files a key's first part names (``models.anatomy`` is the third)."""


@dataclass(frozen=True, slots=True, eq=True, unsafe_hash=False)
class Variant:
    """A named set of patches.

    Attributes:
        name: Its name in the records (``runs.csv``'s ``variant`` column) and the report.
        patches: ``(key, value)`` pairs, applied in order.
    """

    name: str
    patches: tuple[tuple[str, Any], ...] = ()

    @property
    def digest(self) -> str:
        """A short fingerprint of the patches (two variants with the same patches share their content)."""
        text = json.dumps([[k, v] for k, v in self.patches], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def describe(self) -> str:
        """``key = value; ...`` (``unpatched`` for none)."""
        return "; ".join(f"{k} = {_show(v)}" for k, v in self.patches) or "unpatched"


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


# ------------------------------------------------------------------------------------------------- keys


def split_key(key: str) -> tuple[str, ...]:
    """A dotted key's parts (``a."b.c".d`` -> ``("a", "b.c", "d")``).

    Raises:
        LabError: Empty, too long, or badly quoted.
    """
    if not key.strip():
        raise LabError("a patch key must name something (for example weapons.broadsword.modes.cut.impact)")
    if len(key) > MAX_KEY_LENGTH:
        raise LabError(f"a patch key of at most {MAX_KEY_LENGTH} characters, found {len(key)}: {key[:60]}...")
    parts: list[str] = []
    i, text = 0, key.strip()
    while i < len(text):
        if text[i] == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise LabError(f"patch key {key!r}: an unclosed quote")
            parts.append(text[i + 1:end])
            i = end + 1
        else:
            match = _BARE.match(text, i)
            if match is None:
                raise LabError(f"patch key {key!r}: expected a name at character {i + 1}")
            parts.append(match.group())
            i = match.end()
        if i < len(text):
            if text[i] != ".":
                raise LabError(f"patch key {key!r}: expected '.' at character {i + 1}")
            i += 1
            if i == len(text):
                raise LabError(f"patch key {key!r}: ends with '.'")
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class Target:
    """The file a key patches and the keys inside it.

    Attributes:
        rel: The file's path in a content folder (``weapons/broadsword.toml``); ``scenario`` for the lab's own.
        kind: Its config kind (``weapon``), or ``<model>_model`` for a point model's tables.
        inner: The keys inside the file.
        label: How the key's file part reads (``weapons.broadsword``).
    """

    rel: str
    kind: str
    inner: tuple[str, ...]
    label: str


def target_of(parts: Sequence[str], catalog: Catalog, point_models: Sequence[str]) -> Target:
    """Which file a key names.

    Raises:
        LabError: The key names no file of the content.
    """
    head = parts[0]
    if head == "scenario":
        return Target("scenario", "scenario", tuple(parts[1:]), "scenario")
    if head in _SINGLE:
        kind = next(k for k, rel in SINGLE_FILES.items() if rel == _SINGLE[head])
        return Target(_SINGLE[head], kind, tuple(parts[1:]), head)
    if head == "models":
        if len(parts) < 2:
            raise LabError("a models key names the model: models.<model>.<key> (models.severity.creatures.human.brawn)")
        name = parts[1]
        if f"{MODELS_DIR}/{name}.toml" == SINGLE_FILES["anatomy_rules"]:  # the rules file, not a model's tables
            return Target(SINGLE_FILES["anatomy_rules"], "anatomy_rules", tuple(parts[2:]), f"models.{name}")
        if name not in point_models:
            raise LabError(_names_nothing(".".join(parts[:2]), f"a damage model's tables (models.{name})",
                                          [Path(SINGLE_FILES["anatomy_rules"]).stem, *point_models], name))
        return Target(f"{MODELS_DIR}/{name}.toml", f"{name}_model", tuple(parts[2:]), f"models.{name}")
    if head in KIND_DIRS and head != "scenarios":
        if len(parts) < 2:
            raise LabError(f"a {head} key names the entry: {head}.<id>.<key>")
        known = {"bodies": catalog.bodies, "weapons": catalog.weapons, "armor": catalog.armor,
                 "creatures": catalog.creatures}[head]
        if parts[1] not in known:
            raise LabError(_names_nothing(".".join(parts[:2]), f"an id in {head}/", sorted(known), parts[1]))
        return Target(f"{head}/{parts[1]}.toml", KIND_DIRS[head], tuple(parts[2:]), f"{head}.{parts[1]}")
    firsts = ["weapons", "armor", "creatures", "bodies", "scenario", "models", "skills", "sandbox"]
    raise LabError(_names_nothing(head, "a content file: " + ", ".join(firsts), firsts, head))


def _names_nothing(key: str, expected: str, known: Iterable[str], found: str) -> str:
    hint = suggest(found, known)
    return (f"patch key {key} names nothing: expected {expected}, found {found!r}"
            + (f"; did you mean {hint!r}?" if hint else ""))


# ------------------------------------------------------------------------------------------------ values


def parse_value(text: str) -> Any:
    """A value typed on the command line: TOML (``12``, ``1.5``, ``true``, ``"x"``, ``[a, b]``), else the text.

    An array's bare words are strings (``[gambeson,mail_hauberk]``).
    """
    import tomli

    stripped = text.strip()
    try:
        return tomli.loads(f"v = {stripped}")["v"]
    except tomli.TOMLDecodeError:
        pass
    if stripped.startswith("[") and stripped.endswith("]"):
        return [parse_value(item) for item in split_values(stripped[1:-1]) if item.strip()]
    return stripped


def split_values(text: str) -> list[str]:
    """Split at the commas outside brackets and quotes (``1,[a,b],"c,d"`` -> three values)."""
    out, depth, quote, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif not quote and ch in "[{":
            depth += 1
        elif not quote and ch in "]}":
            depth -= 1
        elif not quote and depth == 0 and ch == ",":
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [part.strip() for part in out]


def dice_parts(text: str) -> tuple[int, int, int] | None:
    """``NdX+M`` -> (N, X, M); ``None`` when the text is not a dice expression."""
    match = _DICE.match(text)
    if match is None:
        return None
    count, sides, sign, mod = match.groups()
    modifier = int(mod or 0) * (-1 if sign == "-" else 1)
    return int(count), int(sides), modifier


def with_modifier(dice: str, modifier: int) -> str:
    """A dice expression with another modifier (``1d6+4``, 6 -> ``1d6+6``)."""
    parts = dice_parts(dice)
    assert parts is not None
    count, sides, _ = parts
    return f"{count}d{sides}" + (f"+{modifier}" if modifier > 0 else f"-{-modifier}" if modifier < 0 else "")


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "a table"


def _same_type(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, float):
        return isinstance(new, int | float) and math.isfinite(new)
    if isinstance(old, int):
        return isinstance(new, int)
    return type(old) is type(new) or (isinstance(old, dict) and isinstance(new, dict))


# ------------------------------------------------------------------------------------------- applying


@dataclass(slots=True)
class _Found:
    """Where a key lands in a file's tables: the table holding the last part, the part, and the path to it."""

    holder: dict[str, Any] | list[Any]
    last: str | int
    path: tuple[str | int, ...]
    old: Any
    present: bool


def locate(data: dict[str, Any], inner: Sequence[str], schema: type[Any] | None, key: str, create: bool = True
           ) -> _Found:
    """Walk ``inner`` into ``data`` (list entries by ``id`` or ``name``; a part that holds dots found either way).

    Args:
        data: The file's tables (missing tables on the way are created when the schema allows them).
        inner: The keys inside the file.
        schema: The file's pydantic model, for the keys a table may hold.
        key: The whole key, for messages.
        create: Create a missing table the schema allows (``False``: only read).

    Raises:
        LabError: A part names nothing.
    """
    if not inner:
        raise LabError(f"patch key {key} names a whole file: name a key inside it")
    node: Any = data
    path: list[str | int] = []
    parts = list(inner)
    i = 0
    while True:
        part = parts[i]
        if isinstance(node, list):
            index = next((n for n, entry in enumerate(node) if isinstance(entry, dict)
                          and part in (entry.get("id"), entry.get("name"))), None)
            if index is None:
                names = [str(e.get("id") or e.get("name")) for e in node if isinstance(e, dict)]
                raise LabError(_names_nothing(key, f"an entry of {dotted(*path) or 'the file'} by id or name "
                                              f"({', '.join(names)})", names, part))
            step: str | int = index
        elif isinstance(node, dict):
            step = part
            joined = part
            j = i
            while joined not in node and j + 1 < len(parts):  # "broadsword.cut" written unquoted
                j += 1
                joined = f"{joined}.{parts[j]}"
                if joined in node:
                    step, i = joined, j
                    break
        else:
            raise LabError(f"patch key {key} names nothing: {dotted(*path)} is {_type_name(node)}, not a table")
        last = i == len(parts) - 1
        if isinstance(step, str) and isinstance(node, dict) and step not in node:
            allowed = fields_at(schema, path) if schema is not None else []
            if allowed and step not in allowed:
                raise LabError(_names_nothing(key, f"a key of {dotted(*path) or 'the file'} ({', '.join(allowed)})",
                                              allowed, step))
            if not allowed and not _free_table(node, path, schema):
                keys = sorted(node)
                raise LabError(_names_nothing(key, f"a key of {dotted(*path) or 'the file'} ({', '.join(keys)})",
                                              keys, step))
            if last:
                return _Found(node, step, (*path, step), None, False)
            if not create:
                raise LabError(f"patch key {key} names nothing yet: {dotted(*path, step)} is not set")
            node[step] = {}
        if last:
            holder: Any = node
            return _Found(holder, step, (*path, step), holder[step], True)
        node = node[step]
        path.append(step)
        i += 1


def _free_table(node: dict[str, Any], path: Sequence[str | int], schema: type[Any] | None) -> bool:
    """A table whose keys are ids (``skills``, ``attributes``, a model's ``creatures``), not fixed names."""
    if schema is None or not path:
        return False
    return not fields_at(schema, path) and isinstance(node, dict)


def set_value(found: _Found, value: Any, key: str) -> None:
    """Set the located key, checking the value's type against the one it replaces.

    Raises:
        LabError: A value of another type.
    """
    if found.present and not _same_type(found.old, value):
        raise LabError(f"patch {key} = {_show(value)[:60]}: expected {_type_name(found.old)} "
                       f"(as {_show(found.old)[:60]}), found {_type_name(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise LabError(f"patch {key} = {value}: expected a finite number")
    found.holder[found.last] = value  # type: ignore[index]


# --------------------------------------------------------------------------------------- the content


def toml_text(data: Mapping[str, Any]) -> str:
    """Tables as TOML: one ``"key" = value`` line per top-level key, tables inline (what ``tomli`` reads back)."""
    return "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in data.items())


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"TOML has no {value}")
        text = repr(value)
        return text if any(c in text for c in ".en") else f"{text}.0"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")


_SCRATCH: dict[int, Path] = {}


def _scratch() -> Path:
    """This process's own scratch folder for variants' files.

    It is removed when the process ends; a forked worker makes its own, never writing into its parent's.
    """
    import os

    pid = os.getpid()
    if pid in _SCRATCH:
        return _SCRATCH[pid]
    folder = _SCRATCH[pid] = Path(tempfile.mkdtemp(prefix="sandbox-variants-"))
    atexit.register(shutil.rmtree, folder, True)
    try:  # a pool worker ends through multiprocessing, which skips atexit but runs its own finalizers
        from multiprocessing import util

        util.Finalize(None, shutil.rmtree, args=(folder, True), exitpriority=10)
    except ImportError:
        pass
    return folder


@dataclass(frozen=True, slots=True)
class VariantContent:
    """A variant's content: the catalog and the scenario its runs are built from.

    Attributes:
        catalog: The content with the patches applied.
        scenario: The lab's scenario over it (patched by its ``scenario.`` keys).
    """

    catalog: Catalog
    scenario: ScenarioDef


def _point_models() -> list[str]:
    from sandbox.models import available_models, loaders

    # A model whose file is the anatomy rules' reads no tables of its own (models.<it> names the rules).
    rules = SINGLE_FILES["anatomy_rules"]
    return [m for m in available_models() if m in loaders() and f"{MODELS_DIR}/{m}.toml" != rules]


def _schema(kind: str) -> type[Any] | None:
    if kind.endswith("_model"):
        from sandbox.models import table_schemas

        return table_schemas().get(kind.removesuffix("_model"))
    from sandbox.config import schema as s

    return s.FILE_KINDS.get(kind)


def _source(target: Target, catalog: Catalog, scenario: ScenarioRef, spec: ScenarioDef) -> dict[str, Any]:
    """The tables a patch starts from: the file as the content has it (rule files with every tree laid over)."""
    problems: list[Problem] = []
    if target.kind == "scenario":
        if scenario.file is not None:
            data = read_toml(scenario.file, scenario.name, problems)
        else:
            path = catalog.files.get(f"scenario:{spec.id}")
            if path is None:
                raise LabError(f"scenario {scenario.name!r}: its file cannot be found to patch")
            data = read_toml(path, str(path), problems)
    elif target.kind in SINGLE_FILES or target.kind.endswith("_model"):
        root = catalog.root or _shipped()
        data, _ = read_layered(target.rel, root, catalog.content, problems)
    else:
        kind = target.kind
        path = catalog.files.get(f"{kind}:{Path(target.rel).stem}")
        if path is None:
            raise LabError(f"patch key {target.label}: no file defines it")
        data = read_toml(path, str(path), problems)
    if data is None or problems:
        raise ConfigError(problems)
    return data


def _shipped() -> Path:
    from sandbox.config.loader import config_root

    return config_root()


def _derived_entry(model: str, table: str, entry: str, catalog: Catalog) -> dict[str, Any] | None:
    """The entry a point model derives for an id its tables lack (so a patch can change one of its keys)."""
    from sandbox.models import load_model

    derived = load_model(model, catalog).derived
    values = derived.get(table, {}).get(entry)
    return dict(values) if values is not None else None


def check_patches(variant: Variant, scenario: str | Path | ScenarioRef) -> None:
    """Check every key and value of a variant, and that the content it makes is valid.

    The keys must name something and the values' types match; the content is built in this process.

    Raises:
        LabError: A key names nothing or a value has the wrong type.
        ConfigError: The patched content is invalid (the problems name the variant).
    """
    variant_content(variant, scenario)


_BUILT: dict[tuple[str, str, ScenarioRef], VariantContent] = {}
"""The variants' content built in this process, by (name, patches, scenario and its content)."""


def variant_content(variant: Variant, scenario: str | Path | ScenarioRef) -> VariantContent:
    """The content and scenario of a variant, built once per process (see the module docstring).

    Args:
        variant: The patches.
        scenario: The lab's scenario, resolved (a ``ScenarioRef``: its content trees are part of the content; an id
            or a path is resolved over the shipped content and the tree the file lies in).

    Raises:
        LabError: A key names nothing, or a value has the wrong type.
        ConfigError: The patched content is invalid: every problem, each naming the variant.
    """
    ref = scenario_ref(scenario)
    key = (variant.name, variant.digest, ref)
    found = _BUILT.get(key)
    if found is None:
        found = _BUILT[key] = _build(variant, ref)
    return found


def _build(variant: Variant, scenario: ScenarioRef) -> VariantContent:
    catalog, spec = resolve_scenario(scenario)
    if not variant.patches:
        return VariantContent(catalog, spec)
    point_models = _point_models()
    files: dict[str, tuple[Target, dict[str, Any]]] = {}
    for key, value in variant.patches:
        target = target_of(split_key(key), catalog, point_models)
        if target.rel not in files:
            files[target.rel] = (target, _source(target, catalog, scenario, spec))
        data = files[target.rel][1]
        schema = _schema(target.kind)
        if target.kind.endswith("_model") and len(target.inner) >= 2 and target.inner[0] in ("weapons", "armor",
                                                                                              "creatures"):
            _fill_derived(data, target, catalog)
        found = locate(data, target.inner, schema, key)
        set_value(found, value, key)
    folder = _scratch() / f"{_slug(variant.name)}-{variant.digest}"
    shutil.rmtree(folder, ignore_errors=True)
    labels: dict[str, str] = {}
    extra: list[Path] = []
    models_patched = False
    scenario_path: Path | None = None
    for rel, (target, data) in files.items():
        if target.kind == "scenario":
            path = folder / "scenarios" / f"{spec.id}.toml"
            scenario_path = path
        else:
            path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(toml_text(data), encoding="utf-8")
        labels[str(path)] = f"{rel if target.kind != 'scenario' else f'scenario {spec.id}'} as variant " \
                            f"{variant.name!r} patches it"
        if target.kind.endswith("_model"):
            models_patched = True
        elif target.kind != "scenario":
            extra.append(path)
    try:
        patched = load_catalog(catalog.root, extra, content=catalog.content) if extra else catalog
        if models_patched:
            patched = _with_model_tables(patched, folder, files, point_models)
        if scenario_path is not None:
            patched_spec = load_scenario(scenario_path, patched)
        elif scenario.file is not None:
            patched_spec = load_scenario(scenario, patched)
        else:
            patched_spec = patched.scenarios.get(spec.id, spec)
    except ConfigError as exc:
        raise ConfigError([_relabel(p, labels, folder) for p in exc.problems]) from None
    return VariantContent(patched, patched_spec)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name)[:40] or "variant"


def _fill_derived(data: dict[str, Any], target: Target, catalog: Catalog) -> None:
    """Put a derived entry into a point model's tables before one of its keys is patched."""
    table, entry = target.inner[0], target.inner[1]
    rows = data.setdefault(table, {})
    if not isinstance(rows, dict):
        return
    name = next((k for k in (entry, ".".join(target.inner[1:3])) if k in rows), None)
    if name is not None:
        return
    model = target.kind.removesuffix("_model")
    for candidate in (entry, ".".join(target.inner[1:3])):
        derived = _derived_entry(model, table, candidate, catalog)
        if derived is not None:
            rows[candidate] = derived
            return


def _with_model_tables(catalog: Catalog, folder: Path, files: Mapping[str, tuple[Target, dict[str, Any]]],
                       point_models: Sequence[str]) -> Catalog:
    """The catalog reading every point model's tables from ``folder``, each patched one checked now.

    The patched tables are read as patched, the others as the content has them.
    """
    from sandbox.models import load_model

    root = catalog.root or _shipped()
    problems: list[Problem] = []
    for model in point_models:
        rel = f"{MODELS_DIR}/{model}.toml"
        if rel in files:
            continue
        data, _ = read_layered(rel, root, catalog.content, problems)
        if data is not None:
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(toml_text(data), encoding="utf-8")
    if problems:
        raise ConfigError(problems)
    patched = dataclasses.replace(catalog, root=folder, content=())
    for target, _ in files.values():
        if target.kind.endswith("_model"):
            load_model(target.kind.removesuffix("_model"), patched)
    return patched


def _relabel(problem: Problem, labels: Mapping[str, str], folder: Path) -> Problem:
    """A problem in a patched file, named as the designer knows the file (and the variant that patched it)."""
    for path, label in labels.items():
        if problem.file == path or problem.file.endswith(path.removeprefix(str(folder.parent))):
            return dataclasses.replace(problem, file=label)
    if str(folder) in problem.file or folder.name in problem.file:
        tail = problem.file.split(folder.name, 1)[-1].lstrip("/")
        return dataclasses.replace(problem, file=f"{tail} as a variant patches it")
    return problem
