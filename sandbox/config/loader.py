"""Loading config files: TOML -> pydantic validation -> semantic checks -> frozen components.

Everything is checked before anything is returned, and every problem is collected, so one ``ConfigError``
lists all of them and nothing is ever half-loaded.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import tomli
from pydantic import BaseModel, ValidationError

from components.anatomy import Aspect, BodyStructure, Location, Part, Zone
from components.creature import CreatureDef, SkillDef
from components.gear import ArmorPiece, StrikeMode, Weapon
from components.rules import (
    LEVEL_CODES,
    AftercareRules,
    AmputationOutcome,
    AnatomyRules,
    CombatRules,
    StrengthImpactRules,
    TestResult,
    TestRules,
    TreatmentRule,
)
from sandbox.config import schema as s
from sandbox.config.checks import CHECKS, Known, check_body, group_names, known_from
from sandbox.config.errors import ConfigError, Problem
from sandbox.scenario_def import CarePolicy, CombatantSpec, ScenarioDef
from systems.dice import parse_dice

KIND_DIRS: dict[str, str] = {"bodies": "body", "weapons": "weapon", "armor": "armor", "creatures": "creature",
                             "scenarios": "scenario"}
SINGLE_FILES: dict[str, str] = {"skills": "skills.toml", "anatomy_rules": "models/anatomy.toml",
                                "sandbox_rules": "sandbox.toml"}
"""The kinds with exactly one file, and where it lives under ``configs/``."""
_SCHEMA_LINE = re.compile(r"^#:schema\s+\S*?([a-z_]+)\.schema\.json\s*$")


def config_root() -> Path:
    """The shipped ``configs/`` folder (``SANDBOX_CONFIGS`` overrides it)."""
    env = os.environ.get("SANDBOX_CONFIGS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "configs"


# --------------------------------------------------------------------------------------------- reading files


@dataclass(slots=True)
class _File:
    path: Path
    label: str
    kind: str
    id: str
    data: dict[str, Any] | None = None
    model: BaseModel | None = None


def _label(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve().parent))
    except ValueError:
        return str(path)


def kind_of(path: Path) -> str | None:
    """The config kind of a file: from its folder (``bodies/`` ...), its name, or its ``#:schema`` line."""
    if path.name == "skills.toml":
        return "skills"
    if path.name == "sandbox.toml":
        return "sandbox_rules"
    if path.parent.name == "models" and path.stem == "anatomy":
        return "anatomy_rules"
    if path.parent.name == "models":
        return f"{path.stem}_model"  # a damage model's tables: its loader in sandbox/models/ checks them
    if path.parent.name in KIND_DIRS:
        return KIND_DIRS[path.parent.name]
    if not path.is_file():
        return None  # a folder, a device or a pipe: never opened (reading /dev/zero would never end)
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            first = fh.readline(4096).strip()
    except OSError:
        return None
    match = _SCHEMA_LINE.match(first)
    if match and (match.group(1) in s.FILE_KINDS or match.group(1).endswith("_model")):
        return match.group(1)
    return None


def not_a_file(path: Path) -> str:
    """What stands at a path that is not a regular file, for a problem's "found"."""
    if path.is_dir():
        return "a folder"
    if path.exists():
        return "not a regular file (a device, pipe or socket)"
    return "no such file"


MAX_FILE_BYTES = 1_000_000
"""The largest config file read (the biggest shipped one is a few tens of kilobytes)."""


def _read(f: _File, problems: list[Problem]) -> None:
    if not f.path.is_file():  # a folder, a device or a pipe: reading it could block or never end
        problems.append(Problem(f.label, "", None, "an existing file", not_a_file(f.path)))
        return
    try:
        with f.path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            problems.append(Problem(f.label, "", None, f"a config file of at most {MAX_FILE_BYTES:,} bytes",
                                    f"{f.path.stat().st_size:,} bytes"))
            return
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(f.label, "", None, "a readable UTF-8 TOML file", f"an unreadable file ({exc})"))
        return
    try:
        f.data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        msg = getattr(exc, "msg", str(exc))
        where = f"line {getattr(exc, 'lineno', '?')}, column {getattr(exc, 'colno', '?')}"
        problems.append(Problem(f.label, where, None, "valid TOML 1.0", f"a syntax error ({msg})"))


def _entry_name(data: Any, loc: Sequence[int | str]) -> str | None:
    """Display name of the innermost named table on a pydantic error path."""
    name = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else None
    node = data
    for step in loc:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict):
            for key in ("name", "id"):
                if isinstance(node.get(key), str):
                    name = node[key]
                    break
    return name


def _expected(msg: str, kind: str) -> str:
    if kind == "missing":
        return "a value (the key is required)"
    if kind == "extra_forbidden":
        return "no such key (unknown keys are rejected)"
    for prefix in ("Input should be ", "Value should be ", "Value error, "):
        if msg.startswith(prefix):
            return msg[len(prefix):]
    return msg[0].lower() + msg[1:] if msg else "a valid value"


def _found(error: Mapping[str, Any]) -> str:
    if error["type"] == "missing":
        return "nothing"
    value = error.get("input")
    text = repr(value)
    if isinstance(value, dict | list):
        text = f"a {'table' if isinstance(value, dict) else 'list'}"
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(f: _File, problems: list[Problem]) -> None:
    if f.data is None:
        return
    model_cls = s.FILE_KINDS[f.kind]
    try:
        f.model = model_cls.model_validate(f.data)
    except ValidationError as exc:
        for err in exc.errors():
            loc = err["loc"]
            key = ".".join(str(p) for p in loc)
            problems.append(Problem(f.label, key, _entry_name(f.data, loc), _expected(err["msg"], err["type"]),
                                    _found(err)))


M = TypeVar("M", bound=BaseModel)


def read_validated(path: Path, root: Path, schema: type[M]) -> tuple[M, dict[str, Any], str]:
    """Read one TOML file and validate it against ``schema`` (what every damage model's loader does).

    Returns:
        ``(model, raw data, label)``: the label names the file in problems (relative to the configs' parent).

    Raises:
        ConfigError: The file is unreadable, not TOML, or every structural problem it has.
    """
    f = _File(path, _label(path, root), "", path.stem)
    problems: list[Problem] = []
    _read(f, problems)
    if problems or f.data is None:
        raise ConfigError(problems)
    try:
        return schema.model_validate(f.data), f.data, f.label
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = err["loc"]
            # Model files key their entries by config id ([weapons."broadsword.cut"]): that id names the entry.
            keyed = str(loc[1]) if len(loc) > 1 and loc[0] in ("weapons", "armor", "creatures") else None
            problems.append(Problem(f.label, ".".join(str(p) for p in loc), keyed or _entry_name(f.data, loc),
                                    _expected(err["msg"], err["type"]), _found(err)))
        raise ConfigError(problems) from None


# -------------------------------------------------------------------------------------------- the catalog


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
        root: The config folder the catalog was loaded from; the damage models read their tables
            (``models/<model>.toml``) under it (``sandbox.models.build_model``). ``None``: the shipped configs.
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


def _collect(root: Path, extra: Iterable[Path], extra_kind: str | None = None) -> list[_File]:
    files: list[_File] = []
    seen: dict[tuple[str, str], int] = {}

    def add(path: Path, label: str, kind: str | None = None) -> None:
        kind = kind or kind_of(path) or ""
        f = _File(path, label, kind, path.stem)
        key = (kind, f.id)
        if key in seen:
            files[seen[key]] = f  # a named file replaces the shipped one of the same kind and id
        else:
            seen[key] = len(files)
            files.append(f)

    for sub in KIND_DIRS:
        for path in sorted((root / sub).glob("*.toml")):
            add(path, _label(path, root))
    for where in SINGLE_FILES.values():
        path = root / where
        if path.exists():
            add(path, _label(path, root))
    for path in extra:
        add(path, str(path), extra_kind)  # a file the user named is reported as they named it
    return files


def load_catalog(root: Path | None = None, extra: Iterable[Path] = (), extra_kind: str | None = None) -> Catalog:
    """Load and check every config under ``root`` (default: the shipped ``configs/``), plus ``extra`` files.

    An extra file replaces a shipped file of the same kind and id, so a user's ``bodies/human.toml`` is checked
    against the shipped weapons and armour. ``extra_kind`` names the kind of the extra files when their folder and
    first line do not tell it.

    Raises:
        ConfigError: Listing every problem in every file.
    """
    root = root or config_root()
    problems: list[Problem] = []
    files = _collect(root, extra, extra_kind)
    for f in files:
        if not f.path.is_file():
            problems.append(Problem(f.label, "", None, "an existing file", not_a_file(f.path)))
        elif not f.kind:
            problems.append(Problem(f.label, "", None,
                                    "a file in bodies/, weapons/, armor/ or creatures/, skills.toml, "
                                    "models/anatomy.toml, or a '#:schema <kind>.schema.json' first line",
                                    "a file of unknown kind"))
        elif f.kind.endswith("_model"):
            continue  # a damage model's tables, checked by its own loader (sandbox.models.build_model)
        else:
            _read(f, problems)
            _validate(f, problems)
    for kind, where in SINGLE_FILES.items():
        if not any(f.kind == kind for f in files):
            problems.append(Problem(_label(root / where, root), "", None, "this file", "no such file"))
    known = known_from((f.kind, f.id, f.data) for f in files)
    for f in files:
        if f.data is not None and f.kind in CHECKS:
            problems.extend(CHECKS[f.kind](f.data, f.label, known))
    rules = None
    for f in files:
        if f.kind == "anatomy_rules" and isinstance(f.model, s.AnatomyRulesFile):
            rules = _build_rules(f, problems)
    if problems:
        raise ConfigError(problems)
    assert rules is not None
    return _build(files, rules, root)


def _build(files: list[_File], rules: AnatomyRules, root: Path) -> Catalog:
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
    creatures: dict[str, CreatureDef] = {}
    for f in by_kind.get("body", []):
        assert isinstance(f.model, s.BodyFile)
        bodies[f.id] = build_body(f.model, f.id)
        paths[f"body:{f.id}"] = f.path
    for f in by_kind.get("weapon", []):
        assert isinstance(f.model, s.WeaponFile)
        weapons[f.id] = _build_weapon(f.model, f.id)
        paths[f"weapon:{f.id}"] = f.path
    for f in by_kind.get("armor", []):
        assert isinstance(f.model, s.ArmorFile)
        m = f.model
        armor[f.id] = ArmorPiece(f.id, m.name, m.body, frozenset(c.casefold() for c in m.covers),
                                 _protection(m.protection), m.rigid)
        paths[f"armor:{f.id}"] = f.path
    for f in by_kind.get("creature", []):
        assert isinstance(f.model, s.CreatureFile)
        c = f.model
        creatures[f.id] = CreatureDef(f.id, c.name, c.body, c.dominance, dict(c.attributes), dict(c.skills),
                                      tuple(c.weapons), tuple(c.armor), c.speed)
        paths[f"creature:{f.id}"] = f.path
    modes = {mode.id: mode for weapon in weapons.values() for mode in weapon.modes}
    combat_model = by_kind["sandbox_rules"][0].model
    assert isinstance(combat_model, s.SandboxRulesFile)
    cm = combat_model.combat
    combat = CombatRules(cm.tick_seconds, cm.defence_skill, cm.default_speed, cm.stunned_speed_factor,
                         cm.impairment_speed_per_point, cm.min_speed_factor, cm.stunned_level_drop,
                         cm.retarget_radius, cm.grid_cell, cm.melee_reach_default, cm.helpless_defence,
                         cm.max_melee_attackers)
    scenarios: dict[str, ScenarioDef] = {}
    for f in by_kind.get("scenario", []):
        assert isinstance(f.model, s.ScenarioFile)
        scenarios[f.id] = build_scenario(f.model, f.id)
        paths[f"scenario:{f.id}"] = f.path
    return Catalog(rules, skills, bodies, weapons, modes, armor, creatures, combat, scenarios, paths, root)


def build_scenario(m: s.ScenarioFile, scenario_id: str) -> ScenarioDef:
    """Build a ``ScenarioDef`` from a checked scenario file, expanding groups into named members."""
    specs = []
    for c in m.combatants:
        for k, name in enumerate(group_names(c.name, c.count)):
            specs.append(CombatantSpec(
                name=name, creature=c.creature, team=c.team,
                position=(c.position[0], c.position[1] + k * c.spacing),
                weapons=tuple(c.weapons) if c.weapons is not None else None,
                armor=tuple(c.armor) if c.armor is not None else None,
                policy=c.policy, aim=c.aim, initiative=c.initiative, speed=c.speed,
                attributes=dict(c.attributes), skills=dict(c.skills), immobilized=tuple(c.immobilized)))
    care = CarePolicy(m.care.first_aid_minutes * 60.0 if m.care.first_aid_minutes is not None else None,
                      tuple(m.care.healers) if m.care.healers is not None else None, m.care.self_care)
    return ScenarioDef(scenario_id, m.name, m.description, m.model, m.max_ticks, (m.field.width, m.field.height),
                       tuple(specs), care)


def _aspects(names: Iterable[str]) -> frozenset[int]:
    return frozenset(Aspect.parse(n) for n in names)


def _build_rules(f: _File, problems: list[Problem]) -> AnatomyRules | None:
    m = f.model
    assert isinstance(m, s.AnatomyRulesFile)
    start = len(problems)

    def bad(key: str, expected: str, found: object) -> None:
        problems.append(Problem(f.label, key, None, expected, repr(found)))

    t = m.tests
    if not 0 <= t.ml_min <= t.ml_max <= 100:
        bad("tests.ml_max", "0 <= ml_min <= ml_max <= 100", (t.ml_min, t.ml_max))
    th = m.injury.thresholds
    if any(b <= a for a, b in itertools.pairwise(th)) or th[0] <= 0:
        bad("injury.thresholds", "positive thresholds rising strictly", th)
    if m.injury.scale_min > m.injury.scale_max:
        bad("injury.scale_max", f"at least scale_min ({m.injury.scale_min})", m.injury.scale_max)
    missing = [r for r in ("CF", "MF", "MS", "CS") if r not in m.amputation.outcomes]
    if missing:
        bad("amputation.outcomes", "an outcome for each of CF, MF, MS, CS", sorted(m.amputation.outcomes))
    missing_change = [r for r in ("CF", "MF", "MS", "CS") if r not in m.shock.index_change]
    if missing_change:
        bad("shock.index_change", "a change for each of CF, MF, MS, CS", sorted(m.shock.index_change))
    sh = m.shock
    states = (sh.stunned_from, sh.incapacitated_from, sh.unconscious_from, sh.dead_from)
    if any(b <= a for a, b in itertools.pairwise(states)):
        bad("shock.dead_from", "stunned_from < incapacitated_from < unconscious_from < dead_from", states)
    if sh.no_test_max >= sh.death_above:
        bad("shock.death_above", f"more than no_test_max ({sh.no_test_max})", sh.death_above)
    for code in LEVEL_CODES[1:]:
        if code not in m.mishaps.by_level:
            bad(f"mishaps.by_level.{code}", "a disposition (none, roll or auto)", "nothing")
    imp = m.impairment
    if imp.tier_serious_from > imp.tier_minor_from:
        bad("impairment.tier_serious_from", f"at most tier_minor_from ({imp.tier_minor_from})",
            imp.tier_serious_from)
    bands = m.health.bands
    if any(b.min >= a.min for a, b in itertools.pairwise(bands)):
        bad("health.bands", "bands from best to worst with falling minimums", [b.min for b in bands])
    table = m.strength_impact.table
    if any(b[0] <= a[0] for a, b in itertools.pairwise(table)):
        bad("strength_impact.table", "rows with rising lowest STR", table)
    ac = m.aftercare
    results_tables: list[tuple[str, Mapping[Any, int], tuple[str, ...]]] = [
        ("aftercare.blood_loss", ac.blood_loss, RESULT_NAMES),
        ("aftercare.course_change", ac.course_change, RESULT_NAMES),
        ("aftercare.healing_change", ac.healing_change, RESULT_NAMES),
        ("aftercare.extended_shock_hr", ac.extended_shock_hr, ("MF", "CF"))]
    for key, results, needed in results_tables:
        if set(results) != set(needed):
            bad(key, f"an entry for each of {', '.join(needed)}", sorted(results))
    for severity in ("minor", "serious", "grievous"):
        row = ac.treatment_hr.get(severity)
        if row is None or set(row) != set(RESULT_NAMES):
            bad(f"aftercare.treatment_hr.{severity}", "an HR for each of CF, MF, MS, CS", row)
        for aspect in ("blunt", "edged", "piercing", "fire"):
            if severity not in ac.treatment.get(aspect, {}):
                bad(f"aftercare.treatment.{aspect}.{severity}", "a procedure and modifier", "nothing")
    if len(problems) > start:
        return None

    def bleed_row(row: Mapping[str, list[str]]) -> tuple[frozenset[int], ...]:
        return (frozenset(), *tuple(_aspects(row.get(code, [])) for code in LEVEL_CODES[1:]))

    grid = m.bleeding
    mishaps: dict[str, str] = {str(k): str(v) for k, v in m.mishaps.by_level.items()}
    return AnatomyRules(
        tests=TestRules(t.ml_min, t.ml_max, t.critical_divisor, t.attribute_ml_multiplier),
        thresholds=tuple(th),
        scale_min=m.injury.scale_min,
        scale_max=m.injury.scale_max,
        glancing_aspects=_aspects(m.glancing.aspects),
        glancing_max_level=m.glancing.max_level,
        glancing_shock_index=m.glancing.shock_index,
        glancing_shock_roll=m.glancing.shock_roll,
        bleeding={tier: bleed_row(getattr(grid, tier)) for tier in ("none", "low", "medium", "high")},
        amputation_level=m.amputation.level,
        amputation_aspects=_aspects(m.amputation.aspects),
        amputation_modifiers={str(k): v for k, v in m.amputation.modifiers.items()},
        amputation_outcomes={
            TestResult[k]: AmputationOutcome(v.severed, v.bleeder, v.shock_roll_modifier)
            for k, v in m.amputation.outcomes.items()
        },
        shock_no_test_max=sh.no_test_max,
        shock_death_above=sh.death_above,
        shock_index_change={TestResult[k]: v for k, v in sh.index_change.items()},
        shock_state_from=states,
        mishap_by_level=("none", *(mishaps[c] for c in LEVEL_CODES[1:])),
        impairment_by_level=(0, imp.minor, imp.serious, imp.serious)
        + ((None, None) if imp.grievous_unusable else (imp.serious, imp.serious)),
        minor_slow_healing_rate_max=imp.minor_slow_healing_rate_max,
        impairment_tier_minor=imp.tier_minor_from,
        impairment_tier_serious=imp.tier_serious_from,
        permanent_days_per_step=imp.permanent_days_per_step,
        permanent_step=imp.permanent_step,
        permanent_floor=imp.permanent_floor,
        health_limb=m.health.limb.model_dump(),
        health_critical=m.health.critical.model_dump(),
        health_floor_alive=m.health.floor_alive,
        health_bands=tuple((b.name, b.min) for b in bands),
        strength_impact=StrengthImpactRules(
            tuple((a, b) for a, b in table), m.strength_impact.step_from, m.strength_impact.step_every,
            m.strength_impact.step_base, m.strength_impact.off_hand, m.strength_impact.thrown),
        aftercare=_build_aftercare(ac),
    )


RESULT_NAMES = ("CF", "MF", "MS", "CS")


def _results(table: Mapping[Any, int]) -> dict[TestResult, int]:
    return {TestResult[str(k)]: int(v) for k, v in table.items()}


def _build_aftercare(ac: s.AftercareModel) -> AftercareRules:
    minute, hour, day = 60.0, 3600.0, 86400.0
    return AftercareRules(
        bleed_interval=ac.bleed_interval_minutes * minute,
        blood_loss=_results(ac.blood_loss),
        anemia_per_point=ac.anemia_per_point,
        stoppage_skill=ac.stoppage_skill,
        stoppage_carry_bonus=ac.stoppage_carry_bonus,
        retest_modifier=ac.retest_modifier,
        unconscious_retest_after=ac.unconscious_retest_minutes * minute,
        extended_shock_hr=_results(ac.extended_shock_hr),
        course_change=_results(ac.course_change),
        extended_shock_interval=ac.extended_shock_hours * hour,
        hr_death_at=ac.hr_death_at,
        hr_recover_at=ac.hr_recover_at,
        coma_hr_base=ac.coma_hr_base,
        coma_interval_die=ac.coma_interval_die,
        coma_interval_unit=ac.coma_interval_unit_days * day,
        healing_period=ac.healing_days * day,
        healing_change=_results(ac.healing_change),
        treatment_skill=ac.treatment_skill,
        treatment_hr={str(sev): _results(row) for sev, row in ac.treatment_hr.items()},
        treatment={str(a): {str(sev): TreatmentRule(r.procedure, r.modifier) for sev, r in rows.items()}
                   for a, rows in ac.treatment.items()},
        surgery_bleeder_on=frozenset(TestResult[r] for r in ac.surgery_bleeder_on),
        grievous_bleeder_hr={str(a): tuple(v) for a, v in ac.grievous_bleeder_hr.items()},
        permanent_eligible={str(a): {str(sev): tuple(v) for sev, v in rows.items()}
                            for a, rows in ac.permanent_eligible.items()},
        infectable=_aspects(ac.infectable),
        infection_fatigue=tuple(sorted((row[0], row[1]) for row in ac.infection_fatigue)),
        infection_cured_at=ac.infection_cured_at,
        self_treatment_modifier=ac.self_treatment_modifier,
        first_aid_delay=ac.first_aid_delay_minutes * minute,
    )


def _protection(p: s.Protection | s.NaturalProtection) -> tuple[int, int, int, int]:
    return (p.blunt, p.edged, p.piercing, p.fire)


def _side(name: str, names: set[str]) -> str:
    """Paired parts are a left and a right by the presence of their opposite number; others are central."""
    lower = name.casefold()
    for side, other in (("left", "right"), ("right", "left")):
        if lower.startswith(side + " ") and other + lower[len(side):] in names:
            return side
    return "center"


def build_body(m: s.BodyFile, body_id: str) -> BodyStructure:
    """Build the ``BodyStructure`` of a body file that passed its checks (``checks.check_body``)."""
    zone_names = {z.name.casefold(): i for i, z in enumerate(m.zones)}
    part_names = {p.name.casefold() for p in m.parts}
    natural = _protection(m.natural_protection)
    locations: list[Location] = []
    parts: list[Part] = []
    zone_parts: list[list[int]] = [[] for _ in m.zones]
    for pi, p in enumerate(m.parts):
        zi = zone_names[p.zone.casefold()]
        zone_parts[zi].append(pi)
        loc_ids = []
        for loc in p.locations:
            loc_ids.append(len(locations))
            locations.append(Location(
                name=loc.name, part=pi, weight=loc.weight, shock_value=loc.shock_value, bleeding=loc.bleeding,
                amputability=loc.amputability, fumble=loc.fumble, stumble=loc.stumble,
                protection=_protection(loc.protection) if loc.protection else natural))
        parts.append(Part(
            name=p.name, zone=zi, weight=p.weight, roles=frozenset(p.roles), can_hold=p.can_hold,
            side=_side(p.name, part_names), locations=tuple(loc_ids),
            permanent_impairment=p.permanent_impairment, permanently_unusable=p.permanently_unusable,
            layout=(p.layout[0], p.layout[1]) if p.layout else None))
    zones: list[Zone] = []
    first = 1
    for zi, z in enumerate(m.zones):
        zones.append(Zone(z.name, z.weight, first if z.weight else 0, first + z.weight - 1 if z.weight else -1,
                          tuple(zone_parts[zi])))
        first += z.weight
    return BodyStructure(body_id, m.name, m.scale, tuple(zones), tuple(parts), tuple(locations),
                         tuple(m.thresholds) if m.thresholds else None)


def _build_weapon(m: s.WeaponFile, weapon_id: str) -> Weapon:
    modes = []
    for md in m.modes:
        strength = md.strength_modifier if md.strength_modifier is not None else md.kind != "missile"
        modes.append(StrikeMode(
            id=f"{weapon_id}.{md.id}", name=md.name, weapon=weapon_id, kind=md.kind, skill=md.skill,
            impact=parse_dice(md.impact), aspect=int(Aspect.parse(md.aspect)), spread=md.spread,
            attack_modifier=md.attack_modifier, limbs=md.limbs, limb=md.limb, strength_modifier=strength,
            reach=md.reach, range=md.range))
    return Weapon(weapon_id, m.name, m.natural, tuple(modes))


# ------------------------------------------------------------------------------------------- entry points


@lru_cache(maxsize=4)
def _cached_catalog(root: str) -> Catalog:
    return load_catalog(Path(root))


def default_catalog() -> Catalog:
    """The shipped configs, loaded once per process."""
    return _cached_catalog(str(config_root()))


def load_body(name_or_path: str | Path) -> BodyStructure:
    """Load a body structure by shipped id (``"human"``) or from a TOML file path.

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
            rules_scale = (default_catalog().rules.scale_min, default_catalog().rules.scale_max)
            problems.extend(check_body(f.data, label, Known(scale=rules_scale)))
        if problems:
            raise ConfigError(problems)
        assert isinstance(f.model, s.BodyFile)
        return build_body(f.model, f.id)
    catalog = default_catalog()
    if text not in catalog.bodies:
        raise ConfigError([Problem("bodies/", "", None, f"a shipped body ({', '.join(sorted(catalog.bodies))})",
                                   repr(text))])
    return catalog.bodies[text]

