"""What a saved depth state may hold: each field within what the model's rules and its tables can reach.

``DamageModel.load_state`` reads the component's fields as their declared types (``sandbox.systems.saved``) and then
asks the model's ``check_state``, which asks this. What ties the state to the rest of the creature (dead or alive,
out of the fight or not) is checked by the model's ``invariants`` once the whole world is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece
from sandbox.components.models.depth import CELLS, FAMILIES, DepthState, DepthTables, DepthWound
from sandbox.systems.saved import AMOUNT, choice, index, need, number, past_time, time_or_never

__all__ = ["check_saved_state"]


def check_saved_state(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
                      armor: Sequence[ArmorPiece]) -> None:
    """Refuse a saved depth state the model could not have reached.

    Each wound lies at a location of the body and on that location's part, within the injury table.

    Raises:
        StateError: The first value out of reach, naming its key.
        AssertionError: ``state`` or ``tables`` is not this model's.
    """
    assert isinstance(state, DepthState) and isinstance(tables, DepthTables)
    key = "DepthState"
    for name in ("defense", "strength_mod", "dexterity_mod"):
        number(f"{key}.{name}", getattr(state, name), -AMOUNT, AMOUNT, whole=True)
    parts = len(body.parts)
    for i, row in enumerate(state.wounds):
        where = f"{key}.wounds#{i + 1}"
        need(len(row) == len(DepthWound.__slots__), where, f"a wound of {len(DepthWound.__slots__)} values", row)
        wound = DepthWound.of(row)
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
        past_time(f"{where}.time", wound.time)
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
