"""A damage model's tables file.

Read through the content trees, validated, checked in one wording, completed by derivation.

Every point model's loader (``severity``, ``depth``, ``strength``, ``status``) reads its ``models/<model>.toml``
here: the base file with each content tree's file of the same name laid over it key by key, validated strictly,
then checked and completed through a ``Tables``, so the four report a bad entry the same way: the file that gave
the key, the key as TOML spells it (``weapons."broadsword.cut".damage``), the entry's id, and the closest known id
for an unknown one. An entry the file does not have is derived (``derive_missing``), never missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from sandbox.config.checks import dice_problem
from sandbox.config.errors import ConfigError, Problem, dotted, suggest
from sandbox.config.layout import MODELS_DIR
from sandbox.config.loader import Catalog, read_layered
from sandbox.config.merge import Origin
from sandbox.config.reading import KEYED_TABLES, expected_text, validation_problems
from sandbox.systems.damage_model import DamageModel

__all__ = [
    "Derived",
    "Deriver",
    "Loaded",
    "StrictTable",
    "Tables",
    "TablesLoader",
    "derive_each",
    "derive_missing",
    "load_checked",
    "model_of",
    "read_tables",
]

M = TypeVar("M", bound=BaseModel)

Derived = Mapping[str, Mapping[str, Mapping[str, Any]]]
"""Table (``weapons``, ``armor``, ``creatures``) -> entry id -> the values derived for it."""


@dataclass(slots=True)
class Tables(Generic[M]):
    """A damage model's validated tables, where each key came from, and what is wrong with them.

    Attributes:
        model: The validated file (its keyed tables completed by ``derive_missing``).
        origin: Which file gave each key (the base file or a content tree's).
        problems: Every semantic problem found so far.
        derived: The entries derived for what the file does not cover.
    """

    model: M
    origin: Origin
    problems: list[Problem] = field(default_factory=list)
    derived: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def bad(self, key: Sequence[str | int], entry: str | None, expected: str, found: str,
            suggestion: str | None = None) -> None:
        """Record a problem at ``key`` (a path: ``("weapons", "broadsword.cut", "damage")``)."""
        self.problems.append(Problem(self.origin.label(key), dotted(*key), entry, expected, found, suggestion))

    def dice(self, key: Sequence[str | int], entry: str | None, text: str) -> None:
        """Record a problem if ``text`` is not a dice expression within the bounds every dice has."""
        problem = dice_problem(self.origin.label(key), dotted(*key), entry, text)
        if problem is not None:
            self.problems.append(problem)

    def unknown_entries(self, catalog: Catalog) -> None:
        """Record every entry of the keyed tables that names nothing the content defines.

        A strike mode in ``weapons``, an armour piece in ``armor``, a creature in ``creatures`` (one wording for every
        model).
        """
        for table, (what, known) in _keyed(catalog).items():
            names = list(known)
            for key in getattr(self.model, table):
                if key not in names:
                    self.bad((table, key), key, f"{what} the content defines", repr(key), suggest(key, names))

    def raise_problems(self) -> None:
        """Raise every problem recorded.

        Raises:
            ConfigError: There is at least one.
        """
        if self.problems:
            raise ConfigError(self.problems)


def read_tables(name: str, content: Sequence[Path], root: Path, schema: type[M]) -> Tables[M]:
    """Read ``models/<name>.toml`` of ``root`` with the content trees' files of that name laid over it.

    It is validated as far as it can be without a catalog.

    Raises:
        ConfigError: A file is unreadable or not TOML, two trees override one key, or every structural problem.
    """
    problems: list[Problem] = []
    data, origin = read_layered(f"{MODELS_DIR}/{name}.toml", root, content, problems)
    if problems or data is None:
        raise ConfigError(problems)
    try:
        return Tables(schema.model_validate(data), origin)
    except ValidationError as exc:
        raise ConfigError(validation_problems(exc, data, schema, origin.label, KEYED_TABLES)) from None


def derive_missing(tables: Tables[Any], table: str, ids: Iterable[str], make: Callable[[str], dict[str, Any]],
                   store: Callable[[dict[str, Any]], Any]) -> None:
    """Give every id the table lacks the entry its model's conversion derives (an explicit entry wins whole).

    Args:
        tables: The model's tables (the keyed table is completed in place).
        table: ``weapons``, ``armor`` or ``creatures``.
        ids: Every strike mode, armour piece or creature of the content.
        make: Id -> the derived values (as the entry's keys).
        store: Derived values -> the entry the table holds (its schema's model); a ``ValidationError`` is reported
            against the ``[derive]`` table that produced the values.
    """
    entries = getattr(tables.model, table)
    for key in ids:
        if key in entries:
            continue
        values = make(key)
        try:
            entries[key] = store(values)
        except ValidationError as exc:
            for err in exc.errors():
                tables.bad(("derive", table, *err["loc"]), key, "a derivation giving a valid entry, "
                           + expected_text(err["msg"], err["type"]), repr(err.get("input")))
            continue
        tables.derived.setdefault(table, {})[key] = values


Deriver = tuple[Callable[[str], dict[str, Any]], Callable[[dict[str, Any]], Any]]
"""How one keyed table is completed: id -> derived values, and derived values -> the entry (see ``derive_missing``)."""


def _keyed(catalog: Catalog) -> dict[str, tuple[str, Iterable[str]]]:
    """Each keyed table: what its entries name, and every id of the content they may name."""
    return {"weapons": ("a strike mode", catalog.modes), "armor": ("an armour piece", catalog.armor),
            "creatures": ("a creature", catalog.creatures)}


def derive_each(tables: Tables[Any], catalog: Catalog, *, weapons: Deriver, armor: Deriver, creatures: Deriver
                ) -> None:
    """``derive_missing`` for each keyed table.

    ``weapons`` over every strike mode of the catalog, ``armor`` over every armour piece, ``creatures`` over every
    creature.
    """
    keyed = _keyed(catalog)
    for table, (make, store) in (("weapons", weapons), ("armor", armor), ("creatures", creatures)):
        derive_missing(tables, table, keyed[table][1], make, store)


def load_checked(name: str, catalog: Catalog, root: Path, schema: type[M],
                 derive: Callable[[Tables[M], Catalog], None], check: Callable[[Tables[M], Catalog], None]
                 ) -> Tables[M]:
    """What every point model's loader does.

    Read and validate its tables (``read_tables``), derive what they do not cover, check them against the catalog.

    Raises:
        ConfigError: Every problem of the files.
    """
    tables = read_tables(name, catalog.content, root, schema)
    derive(tables, catalog)
    check(tables, catalog)
    tables.raise_problems()
    return tables


@dataclass(frozen=True, slots=True)
class Loaded:
    """A damage model built from its tables, and the entries derived for them.

    Attributes:
        model: The model, ready for a world.
        derived: The derived entries, by table and id (``sandbox validate --explain`` lists them).
        derives: The model derives entries its tables lack (``False``: a model whose numbers are all the
            catalog's own, which has nothing to derive).
    """

    model: DamageModel
    derived: Derived = field(default_factory=dict)
    derives: bool = True


D = TypeVar("D", bound=DamageModel)


def model_of(loaded: Loaded, kind: type[D]) -> D:
    """The model of ``loaded``, typed as the loader's own model class."""
    assert isinstance(loaded.model, kind)
    return loaded.model


class StrictTable(BaseModel):
    """The base of every model's TOML schema: strict types, unknown keys refused, no infinity or NaN."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


Built = TypeVar("Built", bound=DamageModel)


@dataclass(frozen=True, slots=True)
class TablesLoader(Generic[M, Built]):
    """How a point model's TOML reader loads its tables: read and validate, derive, check, build the model.

    Its package's ``tables`` module holds one (``LOADER``) and names its ``load_tables`` and ``load``.

    Attributes:
        name: The model (its file is ``models/<name>.toml``).
        schema: The file's pydantic schema (exported as ``<name>_model.schema.json``).
        derive: Fills in what the file does not cover from the anatomy data (``sandbox.models.derive``).
        check: The semantic checks against the catalog.
        build: The model from its validated file and the catalog.
    """

    name: str
    schema: type[M]
    derive: Callable[[Tables[M], Catalog], None]
    check: Callable[[Tables[M], Catalog], None]
    build: Callable[[M, Catalog], Built]

    def load_tables(self, catalog: Catalog, root: Path) -> Loaded:
        """The model with its tables from ``root`` and the catalog's content trees, and what was derived.

        Raises:
            ConfigError: Every problem of the files.
        """
        tables = load_checked(self.name, catalog, root, self.schema, self.derive, self.check)
        return Loaded(self.build(tables.model, catalog), tables.derived)

    def load(self, catalog: Catalog, root: Path) -> Built:
        """The model with its tables (``load_tables`` without what was derived).

        Raises:
            ConfigError: Every problem of the files.
        """
        return self.build(load_checked(self.name, catalog, root, self.schema, self.derive, self.check).model, catalog)

