"""What a saved severity state may hold: each field within what the model's rules and its tables can reach.

``DamageModel.load_state`` reads the component's fields as their declared types (``sandbox.systems.saved``) and then
asks the model's ``check_state``, which asks this. What ties the state to the rest of the creature (dead or alive,
out of the fight or not) is checked by the model's ``invariants`` once the whole world is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.components.body import BodyStructure
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece
from sandbox.components.models.severity import EFFECTS, SeverityRules, SeverityState
from sandbox.systems.saved import AMOUNT, choice, index, need, number, past_time_or_never, time_or_never

__all__ = ["check_saved_state"]


def check_saved_state(state: object, tables: object, kind: CreatureDef, body: BodyStructure,
                      armor: Sequence[ArmorPiece]) -> None:
    """Refuse a saved severity state the model could not have reached.

    Its effect counters are never negative, its first-aid attempts never exceed the tables', and each placed wound
    names an effect, a location of its body and a positive number of points.

    Raises:
        StateError: The first value out of reach, naming its key.
        AssertionError: ``state`` or ``tables`` is not this model's.
    """
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
    for name in ("down_since", "hurt_at"):  # when it happened: before 0 for a creature carried in
        past_time_or_never(f"{key}.{name}", getattr(state, name))
    for name in ("stun_at", "aid_at", "rest_at", "exposed_at"):
        time_or_never(f"{key}.{name}", getattr(state, name))
    need((state.down == "") == (state.down_since == -1), f"{key}.down_since",
         "-1 exactly while the creature is up" if state.down == "" else "when it went down", state.down_since)
    for i, (effect, location, points) in enumerate(state.placed):
        where = f"{key}.placed#{i + 1}"
        choice(f"{where}#1", effect, EFFECTS, "an effect,")
        index(f"{where}#2", location, len(body.locations), "a location of the body")
        number(f"{where}#3", points, 1, AMOUNT, whole=True)
