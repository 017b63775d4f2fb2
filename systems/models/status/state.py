"""What a saved status state may hold: each field within what the model's rules and its tables can reach.

``DamageModel.load_state`` reads the component's fields as their declared types (``sandbox.systems.saved``) and then
asks the model's ``check_state``, which asks this. What ties the state to the rest of the creature (dead or alive,
out of the fight or not) is checked by the model's ``invariants`` once the whole world is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece
from sandbox.components.models.status import DEAD, LEVELS, StatusState, StatusTables
from sandbox.systems.saved import AMOUNT, index, need, number, time_or_never

__all__ = ["check_saved_state"]


def check_saved_state(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
                      armor: Sequence[ArmorPiece]) -> None:
    """Refuse a saved status state the model could not have reached.

    It stands on a rung of the ladder, its minor injuries below one damage level; each placed wound is at a
    location of its body with a positive number of HP.

    Raises:
        StateError: The first value out of reach, naming its key.
        AssertionError: ``state`` or ``tables`` is not this model's.
    """
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
    for i, (location, hp) in enumerate(state.placed):
        where = f"{key}.placed#{i + 1}"
        index(f"{where}#1", location, len(body.locations), "a location of the body")
        number(f"{where}#2", hp, 1, AMOUNT, whole=True)
