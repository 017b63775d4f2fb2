"""What a creature reads as under the strength-health model: its label, band, conditions, wounds and numbers.

``label_of`` (healthy, hurt, incapacitated, dying, dead) and ``band_of`` (full, hurt, empty, dead) read the state;
``wound_readings`` puts what the Injuries table left in words (the model places no wound on the body: each reads
``NO_LOCATIONS``); ``readout_of`` builds the whole ``Readout`` ``StrengthModel.readout`` gives, its ``details`` the
model's numbers; ``invariant_breaches`` is what ``StrengthModel.invariants`` reports.
"""

from __future__ import annotations

from sandbox.components.models.strength import ABILITIES, CONDITION_WORDS, StrengthHealth, StrengthTables
from sandbox.components.readout import NO_LOCATIONS, PartReading, Readout, WoundReading
from sandbox.components.state import Condition
from sandbox.systems.creatures import Creature, can_act
from sandbox.systems.health_tiers import grade, health_fraction
from sandbox.systems.models.strength.rules import strength_state

__all__ = ["band_of", "invariant_breaches", "label_of", "readout_of", "wound_readings"]


def label_of(state: StrengthHealth, cond: Condition) -> str:
    """The readout word: healthy, hurt, incapacitated, dying or dead."""
    if cond.dead:
        return "dead"
    if state.dying:
        return "dying"
    if state.incapacitated:
        return "incapacitated"
    return "healthy" if state.health >= state.max_health else "hurt"


def band_of(state: StrengthHealth, cond: Condition) -> str:
    """The health band: full, hurt, empty (0 left) or dead."""
    if cond.dead:
        return "dead"
    if state.health <= 0:
        return "empty"
    return "full" if state.health >= state.max_health else "hurt"


def wound_readings(state: StrengthHealth) -> tuple[WoundReading, ...]:
    """What the Injuries table left, in words; the model places no wound on the body (``NO_LOCATIONS``).

    Each condition and each temporary ability loss until a full rest (open), and each scar (lasting; nothing to
    treat).
    """
    out = [WoundReading(NO_LOCATIONS, NO_LOCATIONS, CONDITION_WORDS[c], text=f"{CONDITION_WORDS[c]}, until a full rest")
           for c in state.conditions]
    for ability in ABILITIES:
        change = state.abilities[ability] - state.base[ability]
        if change < 0:
            out.append(WoundReading(NO_LOCATIONS, NO_LOCATIONS, f"{ability} {change:+d}",
                                    text=f"{ability} {state.abilities[ability]} ({change:+d}), until a full rest"))
    out += [WoundReading(NO_LOCATIONS, NO_LOCATIONS, "scarred", treated=True,
                         text="scarred: a permanent mark, nothing else")
            for name in state.injuries if name == "scarred"]
    return tuple(out)


def readout_of(creature: Creature, tables: StrengthTables, parts: tuple[PartReading, ...],
               armor: tuple[int, int]) -> Readout:
    """What the creature reads as: the ``Readout`` of ``StrengthModel.readout``.

    Label (healthy, hurt, incapacitated, dying, dead), health remaining, band, conditions, what the Injuries table
    left (``wounds``) and the model's numbers (``details``). Its maximum is the base STR (what health is unhurt, so
    a lowered STR reads as lost health); a condition or a lowered ability reads at least hurt, a scar does not.

    Args:
        creature: The creature read.
        tables: The model's tables.
        parts: Each part's state in names (``DamageModel.part_readings``).
        armor: Its Armour value now and the part of it its shields give (``StrengthModel.armor_of``).
    """
    state = strength_state(creature)
    cond, equip = creature.condition, creature.equipment
    label = label_of(state, cond)
    shock = label if label in ("incapacitated", "dying", "dead") else "none"
    conditions: list[str] = []
    if not cond.dead:
        if cond.prone:
            conditions.append("prone")
        if equip.weapons and not equip.holding:
            conditions.append("disarmed")
        if state.incapacitated:
            conditions.append("incapacitated until " + ("the end of the skirmish" if state.until is None
                                                        else f"{state.until:g} s"))
        conditions += [CONDITION_WORDS[c] for c in state.conditions]
        for ability in ABILITIES:
            change = state.abilities[ability] - state.base[ability]
            if change:
                conditions.append(f"{ability} {state.abilities[ability]} ({change:+d} until a full rest)")
    conditions += ["scarred" for i in state.injuries if i == "scarred"]
    health, most = 0 if cond.dead else state.health, max(state.base["STR"], 0)
    alive, able_now = not cond.dead, can_act(cond)
    fraction = health_fraction(health, most, alive=alive)
    wounded = bool(state.conditions) or any(state.abilities[a] < state.base[a] for a in ABILITIES)
    return Readout(alive, able_now, label, health, band_of(state, cond), shock, tuple(conditions),
                   wound_readings(state), parts, _details(creature, tables, armor), health_max=most,
                   health_fraction=fraction,
                   tier=grade(fraction, tables.health_tiers, alive=alive, can_act=able_now, wounded=wounded))


def _details(creature: Creature, tables: StrengthTables, armor: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    t = tables
    state = strength_state(creature)
    worn = sum(t.armor.get(p.id, 0) for p in creature.armor.pieces)
    total, shield = armor
    abilities = ", ".join(f"{a} {state.abilities[a]}" + (f" (base {state.base[a]})"
                                                        if state.abilities[a] != state.base[a] else "")
                          for a in ABILITIES)
    details = [("health", f"{0 if creature.condition.dead else state.health} of {state.max_health} (STR)"),
               ("abilities", f"{abilities}; at most {state.cap}"),
               ("attack bonus", f"{state.attack:+d}"),
               ("Defense", str(state.defense)),
               ("Armour value", f"{state.armor} natural + {worn} worn" + (f" + {shield} shield" if shield else "")
                + f" = {total}")]
    carried = [i for i in creature.equipment.items if i in t.items]
    if carried:
        details.append(("healing items", ", ".join(f"{i} x{carried.count(i)}" for i in dict.fromkeys(carried))))
    if not creature.condition.dead:
        if state.dying:
            details.append(("dying", f"dies at {state.dying_at:g} s unless healed"))
        if state.incapacitated:
            details.append(("incapacitated", "until the end of the skirmish" if state.until is None
                            else f"until {state.until:g} s"))
        details.append(("rest", f"{state.rested / 3600:.1f} of {t.full_rest_hours:g} hours towards a full "
                                "rest"))
    return tuple(details)


def invariant_breaches(creature: Creature) -> list[str]:
    """Alive: health 0..current STR, abilities 1..the cap, out exactly while incapacitated or dying."""
    state = strength_state(creature)
    cond = creature.condition
    if cond.dead:
        return []
    who = f"{creature.name} ({creature.entity})"
    breaches = []
    if not 0 <= state.health <= state.max_health:
        breaches.append(f"{who} has health {state.health} of {state.max_health}")
    for ability in ABILITIES:
        if not 1 <= state.abilities[ability] <= state.cap:
            breaches.append(f"{who} is alive with {ability} {state.abilities[ability]} (cap {state.cap})")
    if cond.out != (state.incapacitated or state.dying):
        breaches.append(f"{who} is {'out' if cond.out else 'not out'} of the fight while "
                        f"{label_of(state, cond)}")
    return breaches
