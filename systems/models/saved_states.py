"""What a point model's saved state may hold: each field within what the model's rules and its tables can reach.

``DamageModel.load_state`` reads a component's fields as their declared types (``sandbox.systems.saved.typed_fields``)
and
then asks ``check_saved_state``: a severity creature's effect counters are never negative and its first-aid
attempts never exceed the tables', a depth wound lies at a location of the body and on that location's part, a
strength creature has exactly its three abilities, a status creature stands on a rung of the ladder. What ties the
state to the rest of the creature (dead or alive, out of the fight or not) is checked by every model's
``invariants`` once the whole world is loaded (``sandbox.persistence``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sandbox.components.anatomy import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.depth import CELLS, FAMILIES, DepthState, DepthTables, Wound
from sandbox.components.gear import ArmorPiece
from sandbox.components.severity import SeverityRules, SeverityState
from sandbox.components.status import DEAD, LEVELS, StatusState, StatusTables
from sandbox.components.strength import ABILITIES, CONDITIONS, INJURY_NAMES, StrengthHealth, StrengthTables
from sandbox.systems.saved import LARGEST, StateError, choice, index, need, number, time_or_never

AMOUNT = 1_000_000
"""The most any tally of a state may hold (effect points, HP, a Defense with every piece of armour worn)."""

Checker = Callable[[object, object, CreatureDef, BodyStructure, Sequence[ArmorPiece]], None]


def _severity(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
              armor: Sequence[ArmorPiece]) -> None:
    assert isinstance(state, SeverityState) and isinstance(tables, SeverityRules)
    key = "SeverityState"
    for name in ("threshold_base", "brawn", "poise", "wit", "speed", "attack_bonus", "defense"):
        number(f"{key}.{name}", getattr(state, name), -AMOUNT, AMOUNT, whole=True)
    number(f"{key}.armor_value", state.armor_value, 0, AMOUNT, whole=True)
    if state.first_aid is not None:
        number(f"{key}.first_aid", state.first_aid, -AMOUNT, AMOUNT, whole=True)
    for name in ("weaken", "stagger", "daze", "slow", "stun", "bloody", "cognition", "wounds", "worst"):
        number(f"{key}.{name}", getattr(state, name), 0, AMOUNT, whole=True)
    choice(f"{key}.down", state.down, ("", "incapacitated", "fainted"))
    number(f"{key}.aid_left", state.aid_left, 0, tables.aid_attempts, whole=True)
    for name in ("down_since", "hurt_at", "stun_at", "aid_at", "rest_at", "exposed_at"):
        time_or_never(f"{key}.{name}", getattr(state, name))
    need((state.down == "") == (state.down_since == -1), f"{key}.down_since",
         "-1 exactly while the creature is up" if state.down == "" else "when it went down", state.down_since)


def _depth(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
           armor: Sequence[ArmorPiece]) -> None:
    assert isinstance(state, DepthState) and isinstance(tables, DepthTables)
    key = "DepthState"
    for name in ("defense", "strength_mod", "dexterity_mod"):
        number(f"{key}.{name}", getattr(state, name), -AMOUNT, AMOUNT, whole=True)
    parts = len(body.parts)
    for i, row in enumerate(state.wounds):
        where = f"{key}.wounds#{i + 1}"
        need(len(row) == len(Wound.__slots__), where, f"a wound of {len(Wound.__slots__)} values", row)
        wound = Wound.of(row)
        loc = index(f"{where}.location", wound.location, len(body.locations), "a location of the body")
        need(wound.part == body.locations[loc].part, f"{where}.part", f"the part of {body.locations[loc].name} "
             f"({body.locations[loc].part})", wound.part)
        number(f"{where}.tier", wound.tier, 1, len(CELLS) - 1, whole=True)
        choice(f"{where}.family", wound.family, FAMILIES, "a damage-type family:")
        need(isinstance(wound.name, str) and 0 < len(wound.name) <= 200, f"{where}.name", "the injury's name",
             wound.name)
        number(f"{where}.penalty", wound.penalty, -AMOUNT, 0, whole=True)
        number(f"{where}.treat_dc", wound.treat_dc, 0, AMOUNT, whole=True)
        time_or_never(f"{where}.dies_at", wound.dies_at)
        number(f"{where}.time", wound.time, 0, LARGEST)
        for flag in ("breaks", "lost", "down", "kills", "worst", "treated"):
            need(type(getattr(wound, flag)) is bool, f"{where}.{flag}", "true or false", getattr(wound, flag))
    for name in ("broken", "lost"):
        for part in sorted(getattr(state, name)):
            index(f"{key}.{name}", part, parts, "a part of the body")
    need(state.lost <= state.broken, f"{key}.lost", "parts that are broken too (a lost part does not work)",
         sorted(state.lost))
    number(f"{key}.penalty", state.penalty, -AMOUNT, 0, whole=True)
    number(f"{key}.mishap", state.mishap, -AMOUNT, 0, whole=True)
    number(f"{key}.worst_tier", state.worst_tier, 0, len(CELLS) - 1, whole=True)
    time_or_never(f"{key}.dies_at", state.dies_at)
    time_or_never(f"{key}.care_at", state.care_at)


def _strength(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
              armor: Sequence[ArmorPiece]) -> None:
    assert isinstance(state, StrengthHealth) and isinstance(tables, StrengthTables)
    key = "StrengthHealth"
    for name in ("abilities", "base"):
        values = getattr(state, name)
        need(sorted(values) == sorted(ABILITIES), f"{key}.{name}", f"exactly {', '.join(ABILITIES)}",
             sorted(values))
        for ability, value in values.items():
            number(f"{key}.{name}.{ability}", value, -AMOUNT, tables.ability_max, whole=True)
    number(f"{key}.cap", state.cap, 1, tables.ability_max, whole=True)
    number(f"{key}.health", state.health, -AMOUNT, AMOUNT, whole=True)
    for name in ("attack", "defense"):
        number(f"{key}.{name}", getattr(state, name), -AMOUNT, AMOUNT, whole=True)
    number(f"{key}.armour", state.armour, 0, AMOUNT, whole=True)
    if state.until is not None:
        number(f"{key}.until", state.until, 0, LARGEST)
    number(f"{key}.dying_at", state.dying_at, 0, LARGEST)
    number(f"{key}.rested", state.rested, 0, LARGEST)
    for i, condition in enumerate(state.conditions):
        choice(f"{key}.conditions#{i + 1}", condition, CONDITIONS, "a condition:")
    for i, injury in enumerate(state.injuries):
        choice(f"{key}.injuries#{i + 1}", injury, INJURY_NAMES[1:], "an entry of the Injuries table:")


def _status(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
            armor: Sequence[ArmorPiece]) -> None:
    assert isinstance(state, StatusState) and isinstance(tables, StatusTables)
    key = "StatusState"
    number(f"{key}.constitution", state.constitution, 0, AMOUNT, whole=True)
    number(f"{key}.endurance", state.endurance, 1, AMOUNT, whole=True)
    for name in ("attack_bonus", "defense"):
        number(f"{key}.{name}", getattr(state, name), -AMOUNT, AMOUNT, whole=True)
    for name in ("armor", "penalty_reduction"):
        number(f"{key}.{name}", getattr(state, name), 0, AMOUNT, whole=True)
    number(f"{key}.level", state.level, 0, DEAD, whole=True)
    number(f"{key}.minor", state.minor, 0, max(state.endurance - 1, 0), whole=True)
    for name in ("come_round_at", "dies_at", "heal_at", "minor_heal_at"):
        time_or_never(f"{key}.{name}", getattr(state, name))
    need(state.dies_at == -1 or state.level >= LEVELS.index("mortally wounded"), f"{key}.dies_at",
         "-1 unless the creature is (or was, dying) mortally wounded", state.dies_at)


CHECKS: dict[type, Checker] = {SeverityState: _severity, DepthState: _depth, StrengthHealth: _strength,
                               StatusState: _status}
"""The check of each point model's state component."""


def check_saved_state(components: Sequence[object], tables: object, kind: CreatureDef, body: BodyStructure,
                      armor: Sequence[ArmorPiece]) -> None:
    """Refuse a model state the model could not have reached (a state type of a model of its own: unchecked).

    Args:
        components: The state components, as read from the save.
        tables: The model's tables.
        kind: The creature.
        body: Its body.
        armor: What it wears.

    Raises:
        StateError: The first value out of reach, naming its key.
    """
    for component in components:
        check = CHECKS.get(type(component))
        if check is not None:
            try:
                check(component, tables, kind, body, armor)
            except AssertionError:
                raise StateError(f"{type(component).__name__}: a state of a model built with other tables") from None
