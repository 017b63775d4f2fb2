"""Loading content: TOML -> pydantic validation -> semantic checks -> frozen components, in one ``Catalog``.

The content is a base folder (the shipped content, or a whole config folder of one's own) extended by content trees:
a tree's definitions add to the base's, one with a base id replaces it (and the catalog notes it), and its rule files
are laid over the base's key by key (``sandbox.config.merge``). Everything is checked before anything is returned,
and every problem is collected, so one ``ConfigError`` lists all of them and nothing is ever half-loaded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef, SkillDef
from sandbox.components.gear import ArmorPiece, Item, StrikeMode, Weapon
from sandbox.components.rules import AnatomyRules, CombatRules
from sandbox.config import schema as s
from sandbox.config.anatomy_rules import build_rules
from sandbox.config.builders import build_armor, build_body, build_creature, build_item, build_scenario, build_weapon
from sandbox.config.checks import CHECKS, Known, check_body, known_from
from sandbox.config.content import shipped_root
from sandbox.config.errors import ConfigError, Problem, suggest, unknown
from sandbox.config.layout import (
    KIND_DIRS,
    MANIFEST,
    MODELS_DIR,
    SCHEMAS_DIR,
    SINGLE_FILES,
    definition_files,
    kind_of,
)
from sandbox.config.merge import Origin, merge_tables
from sandbox.config.reading import not_a_file, read_toml, validation_problems
from sandbox.scenario_def import ScenarioDef

__all__ = ["Catalog", "config_root", "default_catalog", "kind_of", "label_of", "load_body", "load_catalog",
           "not_a_file", "read_layered", "tree_label"]


def config_root() -> Path:
    """The shipped content's folder (in the installed package: the repository's top-level ``configs/``)."""
    return shipped_root()


def label_of(path: Path, root: Path) -> str:
    """How a problem names a file of a content folder.

    Its path from the folder's parent (``configs/bodies/x.toml``, ``mytree/creatures/spider.toml``).
    """
    try:
        return str(path.resolve().relative_to(root.resolve().parent))
    except (ValueError, OSError):
        return str(path)


def display(folder: Path) -> str:
    """A folder as the user would type it: relative to the working folder when it lies below it."""
    try:
        return str(folder.absolute().relative_to(Path.cwd())) or "."
    except ValueError:
        return str(folder)


def tree_label(path: Path, tree: Path) -> str:
    """How a problem names a file of a content tree.

    The tree as the user would type it, then the file's path in it (``mytree/creatures/spider.toml``).
    """
    try:
        return str(Path(display(tree)) / path.relative_to(tree))
    except ValueError:
        return str(path)


# -------------------------------------------------------------------------------------------------- the catalog


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every loaded config: the rules and the definitions they apply to.

    Attributes:
        rules: The anatomy model's rule tables.
        skills: Skill and attribute definitions by id.
        bodies: Body structures by id.
        weapons: Weapons by id.
        modes: Strike modes by qualified id (``broadsword.cut``).
        armor: Armour pieces by id.
        creatures: Creature definitions by id.
        combat: The skirmish loop's rules.
        scenarios: Scenarios by id.
        files: Path of each loaded definition, by ``kind:id``.
        root: The base content folder the catalog was loaded from; the damage models read their tables
            (``models/<model>.toml``) under it (``sandbox.models.build_model``). ``None``: the shipped content.
        content: The content trees laid over the base, in order; their ``models/<model>.toml`` override the
            base's tables key by key.
        notes: One line per definition a content tree (or a named file) replaced.
        items: Carried items (healing items, medicine) by id.
    """

    rules: AnatomyRules
    skills: Mapping[str, SkillDef]
    bodies: Mapping[str, BodyStructure]
    weapons: Mapping[str, Weapon]
    modes: Mapping[str, StrikeMode]
    armor: Mapping[str, ArmorPiece]
    creatures: Mapping[str, CreatureDef]
    combat: CombatRules
    scenarios: Mapping[str, ScenarioDef] = field(default_factory=dict)
    files: Mapping[str, Path] = field(default_factory=dict)
    root: Path | None = None
    content: tuple[Path, ...] = ()
    notes: tuple[str, ...] = ()
    items: Mapping[str, Item] = field(default_factory=dict)

    def mode(self, qualified: str) -> StrikeMode:
        """The strike mode ``weapon.mode``; raises ``KeyError`` naming the known modes."""
        try:
            return self.modes[qualified]
        except KeyError:
            raise KeyError(f"unknown strike mode {qualified!r}; known: {', '.join(sorted(self.modes))}") from None

    def skill_ml(self, creature: CreatureDef, skill: str) -> int | None:
        """A creature's Mastery Level in a skill or attribute; ``None`` when it has neither.

        Attributes are tested at score x the rules' multiplier unless the creature lists an ML for them.
        """
        if skill in creature.skills:
            return creature.skills[skill]
        if skill in creature.attributes:
            return creature.attributes[skill] * self.rules.tests.attribute_ml_multiplier
        return None


# -------------------------------------------------------------------------------------------- reading files


@dataclass(slots=True)
class _File:
    path: Path
    label: str
    kind: str
    id: str
    data: dict[str, Any] | None = None
    model: BaseModel | None = None
    origin: Origin | None = None
    """Which file gave each key, when content trees' overrides were merged into this one."""

    def label_for(self, loc: Sequence[int | str]) -> str:
        return self.origin.label(loc) if self.origin is not None else self.label


def _read(f: _File, problems: list[Problem]) -> None:
    f.data = read_toml(f.path, f.label, problems)


def _validate(f: _File, problems: list[Problem]) -> None:
    if f.data is None:
        return
    model_cls = s.FILE_KINDS[f.kind]
    try:
        f.model = model_cls.model_validate(f.data)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, f.data, model_cls, f.label_for))


def read_layered(rel: str, base: Path, trees: Sequence[Path], problems: list[Problem]
                 ) -> tuple[dict[str, Any] | None, Origin]:
    """A rule file of the base folder with every content tree's file of the same name laid over it, key by key.

    Args:
        rel: The file's path in a content folder (``sandbox.toml``, ``models/depth.toml``).
        base: The base folder (it must have the file).
        trees: The content trees, in order (each may have the file or not).
        problems: Unreadable files, syntax errors and keys two trees both override are appended here.

    Returns:
        ``(merged tables or None when the base file is unreadable, where each key came from)``.
    """
    origin = Origin(label_of(base / rel, base))
    data = read_toml(base / rel, origin.base, problems)
    for layer, tree in enumerate(trees, start=1):
        path = tree / rel
        if not path.is_file():
            continue
        label = tree_label(path, tree)
        override = read_toml(path, label, problems)
        if override is None or data is None:
            continue
        for key, other in merge_tables(data, override, label, layer, origin):
            problems.append(Problem(label, ".".join(str(k) for k in key), None,
                                    "a key no other content tree overrides", f"one {other} sets too"))
    return data, origin


def _tree_problems(tree: Path, shipped_name: str, model_names: Sequence[str]) -> list[Problem]:
    """What is wrong with a content tree's folder, manifest and layout.

    An unknown folder or file is a likely typo: silently ignoring ``creature/spider.toml`` would leave a designer
    wondering where the spider went.
    """
    where = display(tree)
    if not tree.is_dir():
        found = "a file" if tree.exists() else "no such folder"
        return [Problem(where, "", None, "a content folder (with a content.toml manifest)", found)]
    try:
        entries = sorted(tree.iterdir())
    except OSError as exc:
        return [Problem(where, "", None, "a readable content folder", f"an unreadable folder ({exc.strerror})")]
    problems: list[Problem] = []
    manifest = tree / MANIFEST
    if not manifest.is_file():
        problems.append(Problem(where, "", None, f"a content folder with a {MANIFEST} manifest "
                                "('sandbox init DIR' writes a starter tree)", f"a folder with no {MANIFEST}"))
    else:
        label = tree_label(manifest, tree)
        data = read_toml(manifest, label, problems)
        if data is not None:
            try:
                s.ContentFile.model_validate(data)
            except ValidationError as exc:
                problems.extend(validation_problems(exc, data, s.ContentFile, lambda _: label))
            name = data.get("name") if isinstance(data.get("name"), str) else None
            extends = data.get("extends")
            if extends is None:
                problems.append(Problem(label, "extends", name, f"the shipped content it extends ({shipped_name!r})",
                                        "nothing"))
            elif isinstance(extends, str) and extends != shipped_name:
                problems.append(unknown(label, "extends", name, f"the shipped content ({shipped_name!r})", extends,
                                        [shipped_name]))
    folders = [*KIND_DIRS, MODELS_DIR, SCHEMAS_DIR]
    top_files = [MANIFEST, *(rel for rel in SINGLE_FILES.values() if "/" not in rel)]
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and entry.name not in folders and any(entry.glob("*.toml")):
            problems.append(unknown(tree_label(entry, tree), "", None, f"a folder of the content layout "
                                    f"({', '.join(folders)})", entry.name, folders))
        elif entry.is_file() and entry.suffix == ".toml" and entry.name not in top_files:
            problems.append(unknown(tree_label(entry, tree), "", None, f"a file of the content layout "
                                    f"({', '.join(top_files)})", entry.name, top_files))
    known_models = ["anatomy", *model_names]
    for path in sorted((tree / MODELS_DIR).glob("*.toml")):
        if path.stem not in known_models:
            problems.append(unknown(tree_label(path, tree), "", None, f"the tables of a damage model "
                                    f"({', '.join(f'{m}.toml' for m in known_models)})", path.name,
                                    [f"{m}.toml" for m in known_models]))
    return problems


def shipped_name() -> str:
    """The name the shipped content's manifest gives it (what a tree's ``extends`` names)."""
    import tomli

    with (shipped_root() / MANIFEST).open("rb") as fh:
        return str(tomli.load(fh)["name"])


class _Collection:
    """The files of the base, the content trees and the named files, one per kind and id."""

    def __init__(self, exclude: Collection[str] = ()) -> None:
        self.exclude = exclude
        self.files: list[_File] = []
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self._at: dict[tuple[str, str], int] = {}
        self._layer: dict[tuple[str, str], int] = {}
        self._paths: set[Path] = set()

    def add(self, path: Path, label: str, layer: int, kind: str | None = None) -> None:
        """Add a file of ``layer`` (0: the base, 1 ...: the content trees, -1: a file the user named)."""
        if label in self.exclude:
            return
        resolved = path.resolve() if path.exists() else path.absolute()
        if resolved in self._paths:
            return  # a file of a content tree named again on the command line
        self._paths.add(resolved)
        kind = kind or kind_of(path)
        if not kind and path.is_file():
            kind = self._kind_from_keys(path, label)
        f = _File(path, label, kind or "", path.stem)
        key = (f.kind, f.id)
        if key not in self._at:
            self._at[key] = len(self.files)
            self._layer[key] = layer
            self.files.append(f)
            return
        other, other_layer = self.files[self._at[key]], self._layer[key]
        if layer > 0 and other_layer > 0:
            self.problems.append(Problem(label, "", None, f"a {f.kind} id no other content tree defines",
                                         f"{f.id!r}, defined by {other.label} too"))
            return
        self.files[self._at[key]] = f
        self._layer[key] = layer
        shipped = "shipped " if other_layer == 0 else ""
        self.notes.append(f"{label} replaces the {shipped}{f.kind} {f.id!r} ({other.label})")


    def _kind_from_keys(self, path: Path, label: str) -> str | None:
        """The one kind a file's top-level keys fit (noted), or None (an unreadable file is reported later)."""
        data = read_toml(path, label, [])  # bounded like every read; an unreadable file is reported later
        if data is None:
            return None
        complete, possible = s.kinds_fitting(data)
        if len(possible) != 1 or possible != complete:
            return None
        self.notes.append(f"{label} is read as a {complete[0]} file: its keys fit no other kind (neither its "
                          "folder nor its first line says)")
        return complete[0]


def _unknown_kind(f: _File, problems: list[Problem]) -> None:
    """Report a file whose kind neither its name, folder, first line nor keys tell.

    The report gives the kinds its keys could be (and its syntax errors, when it is not TOML at all).
    """
    syntax: list[Problem] = []
    f.data = read_toml(f.path, f.label, syntax)
    _, possible = s.kinds_fitting(f.data or {})
    keys = ", ".join(f.data or {}) or "none"
    if f.data is None:
        found = "a file of unknown kind, not TOML either"
    elif possible:
        could = ", ".join(("an " if kind[0] in "aeiou" else "a ") + kind for kind in possible)
        found = f"a file of unknown kind: its keys ({keys}) could be {' or '.join(could.rsplit(', ', 1))} file"
    else:
        found = f"a file of unknown kind: its keys ({keys}) fit no kind"
    problems.append(Problem(f.label, "", None,
                            "a file in bodies/, weapons/, armor/, items/, creatures/ or scenarios/ (or in a folder "
                            "named for one, such as my_bodies/), or a first line '#:schema <kind>.schema.json' that "
                            f"names its kind (one of {', '.join(s.FILE_KINDS)})", found))
    problems.extend(syntax)


def _collect(root: Path, trees: Sequence[Path], extra: Iterable[Path], extra_kind: str | None,
             exclude: Collection[str] = ()) -> _Collection:
    found = _Collection(exclude)
    for path in definition_files(root):
        found.add(path, label_of(path, root), 0)
    for where in SINGLE_FILES.values():
        if (root / where).exists():
            found.add(root / where, label_of(root / where, root), 0)
    for layer, tree in enumerate(trees, start=1):
        if tree.is_dir():
            for path in definition_files(tree):
                found.add(path, tree_label(path, tree), layer)
    for path in extra:
        found.add(path, str(path), -1, extra_kind)  # a file the user named is reported as they named it
    return found


def load_catalog(root: Path | None = None, extra: Iterable[Path] = (), extra_kind: str | None = None,
                 content: Sequence[str | Path] = (), exclude: Collection[str] = ()) -> Catalog:
    """Load and check every config of a base folder, the content trees laid over it, and named files.

    The base folder defaults to the shipped content.

    A content tree's definitions add to the base's; one with a base id replaces it (``Catalog.notes`` says so); two
    trees defining one id is an error. A tree's ``skills.toml``, ``sandbox.toml`` and ``models/anatomy.toml``
    override the base's key by key. A named file replaces a file of the same kind and id, so a user's
    ``bodies/human.toml`` is checked against the shipped weapons and armour; ``extra_kind`` names the kind of the
    named files when their folder and first line do not tell it. ``exclude`` names files (by the label problems
    give them) to leave out, as if absent: ``sandbox validate`` checks the damage models' tables against what is
    left when some definitions are broken, so their problems show at once too.

    Raises:
        ConfigError: Listing every problem in every file.
    """
    from sandbox.systems.models import model_names as available_models  # heavy (the models): imported when needed

    root = root or config_root()
    trees = [Path(t) for t in content]
    found = _collect(root, trees, extra, extra_kind, exclude)
    problems = found.problems
    if trees:
        name = shipped_name()
        for tree in trees:
            problems.extend(_tree_problems(tree, name, available_models()))
    files = found.files
    for f in files:
        if not f.path.is_file():
            problems.append(Problem(f.label, "", None, "an existing file", not_a_file(f.path)))
        elif not f.kind:
            _unknown_kind(f, problems)
        elif f.kind.endswith("_model") or f.kind == "content":
            continue  # a damage model's tables (sandbox.models.build_model) or a manifest: checked elsewhere
        elif f.kind in SINGLE_FILES and f.path == root / SINGLE_FILES[f.kind] and trees:
            f.data, f.origin = read_layered(SINGLE_FILES[f.kind], root, trees, problems)
            _validate(f, problems)
        else:
            _read(f, problems)
            _validate(f, problems)
    for kind, where in SINGLE_FILES.items():
        if not any(f.kind == kind for f in files):
            problems.append(Problem(label_of(root / where, root), "", None, "this file", "no such file"))
    known = known_from((f.kind, f.id, f.data) for f in files)
    for f in files:
        if f.data is not None and f.kind in CHECKS:
            problems.extend(CHECKS[f.kind](f.data, f.label, known))
    rules = None
    for f in files:
        if f.kind == "anatomy_rules" and isinstance(f.model, s.AnatomyRulesFile):
            rules = build_rules(f.model, f.label_for, problems)
    if problems:
        raise ConfigError(problems)
    assert rules is not None
    return _build(files, rules, root, tuple(t.absolute() for t in trees), tuple(found.notes))


def _build(files: list[_File], rules: AnatomyRules, root: Path, content: tuple[Path, ...], notes: tuple[str, ...]
           ) -> Catalog:
    """Build the components of files that passed every check."""
    by_kind: dict[str, list[_File]] = {}
    for f in files:
        by_kind.setdefault(f.kind, []).append(f)
    skills_model = by_kind["skills"][0].model
    assert isinstance(skills_model, s.SkillsFile)
    skills = {
        sid: SkillDef(sid, m.name, m.kind, frozenset(m.roles), m.impairable)
        for sid, m in skills_model.skills.items()
    }
    paths: dict[str, Path] = {}
    bodies: dict[str, BodyStructure] = {}
    weapons: dict[str, Weapon] = {}
    armor: dict[str, ArmorPiece] = {}
    items: dict[str, Item] = {}
    creatures: dict[str, CreatureDef] = {}
    scenarios: dict[str, ScenarioDef] = {}
    for f in files:
        m = f.model
        if isinstance(m, s.BodyFile):
            bodies[f.id] = build_body(m, f.id)
        elif isinstance(m, s.WeaponFile):
            weapons[f.id] = build_weapon(m, f.id)
        elif isinstance(m, s.ArmorFile):
            armor[f.id] = build_armor(m, f.id)
        elif isinstance(m, s.ItemFile):
            items[f.id] = build_item(m, f.id)
        elif isinstance(m, s.CreatureFile):
            creatures[f.id] = build_creature(m, f.id)
        elif isinstance(m, s.ScenarioFile):
            scenarios[f.id] = build_scenario(m, f.id)
        else:
            continue
        paths[f"{f.kind}:{f.id}"] = f.path
    modes = {mode.id: mode for weapon in weapons.values() for mode in weapon.modes}
    combat_model = by_kind["sandbox_rules"][0].model
    assert isinstance(combat_model, s.SandboxRulesFile)
    cm = combat_model.combat
    combat = CombatRules(cm.tick_seconds, cm.defence_skill, cm.default_speed, cm.stunned_speed_factor,
                         cm.impairment_speed_per_point, cm.min_speed_factor, cm.stunned_level_drop,
                         cm.retarget_radius, cm.grid_cell, cm.melee_reach_default, cm.helpless_defence,
                         cm.max_melee_attackers)
    return Catalog(rules, skills, bodies, weapons, modes, armor, creatures, combat, scenarios, paths, root, content,
                   notes, items)


# ------------------------------------------------------------------------------------------- entry points


@lru_cache(maxsize=4)
def _cached_catalog(root: str, content: tuple[str, ...]) -> Catalog:
    return load_catalog(Path(root), content=[Path(c) for c in content])


def default_catalog(content: Iterable[str | Path] = ()) -> Catalog:
    """The shipped content extended by content trees, loaded once per process for each set of trees.

    Args:
        content: The content trees, in order (default: none, the shipped content alone). Nothing is read from the
            environment: ``SANDBOX_CONTENT`` is the command line's default for ``--content``, not the library's.

    Raises:
        ConfigError: Every problem of the content.
    """
    trees = tuple(Path(t).absolute() for t in content)
    return _cached_catalog(str(config_root()), tuple(str(t) for t in trees))


def load_body(name_or_path: str | Path, content: Iterable[str | Path] = ()) -> BodyStructure:
    """Load a body structure by id or from a TOML file path.

    An id is ``"human"``, or one of ``content``'s trees'; a file is checked against the shipped content extended by
    ``content``.

    Raises:
        ConfigError: The file is invalid (every problem listed), or no such body exists.
    """
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        label = str(path)
        f = _File(path, label, "body", path.stem)
        problems: list[Problem] = []
        if not path.is_file():
            raise ConfigError([Problem(label, "", None, "an existing body file", not_a_file(path))])
        _read(f, problems)
        _validate(f, problems)
        if f.data is not None:
            rules = default_catalog(content).rules
            rules_scale = (rules.scale_min, rules.scale_max)
            problems.extend(check_body(f.data, label, Known(scale=rules_scale)))
        if problems:
            raise ConfigError(problems)
        assert isinstance(f.model, s.BodyFile)
        return build_body(f.model, f.id)
    catalog = default_catalog(content)
    if text not in catalog.bodies:
        raise ConfigError([Problem("bodies/", "", None, f"a body in bodies/ ({', '.join(sorted(catalog.bodies))})",
                                   repr(text), suggest(text, catalog.bodies))])
    return catalog.bodies[text]
