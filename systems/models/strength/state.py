"""What a saved strength state may hold: each field within what the model's rules and its tables can reach.

``DamageModel.load_state`` reads the component's fields as their declared types (``sandbox.systems.saved``) and then
asks the model's ``check_state``, which asks this. What ties the state to the rest of the creature (dead or alive,
out of the fight or not) is checked by the model's ``invariants`` once the whole world is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece
from sandbox.components.models.strength import ABILITIES, CONDITIONS, INJURY_NAMES, StrengthHealth, StrengthTables
from sandbox.systems.saved import AMOUNT, LARGEST, choice, need, number

__all__ = ["check_saved_state"]


def check_saved_state(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
                      armor: Sequence[ArmorPiece]) -> None:
    """Refuse a saved strength state the model could not have reached.

    It has exactly its three abilities, none above the tables' maximum.

    Raises:
        StateError: The first value out of reach, naming its key.
        AssertionError: ``state`` or ``tables`` is not this model's.
    """
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
    number(f"{key}.armor", state.armor, 0, AMOUNT, whole=True)
    if state.until is not None:
        number(f"{key}.until", state.until, 0, LARGEST)
    number(f"{key}.dying_at", state.dying_at, 0, LARGEST)
    number(f"{key}.rested", state.rested, 0, LARGEST)
    for i, condition in enumerate(state.conditions):
        choice(f"{key}.conditions#{i + 1}", condition, CONDITIONS, "a condition:")
    for i, injury in enumerate(state.injuries):
        choice(f"{key}.injuries#{i + 1}", injury, INJURY_NAMES[1:], "an entry of the Injuries table:")
