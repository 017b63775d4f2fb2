"""The wound-depth model's readout: its label, its health number, its conditions, its wounds and its own numbers.

The label is ``unhurt`` / ``wounded`` / ``down`` / ``dying`` / ``dead``; health is the penalty the creature can
still take before it collapses (0 when down or dead; ``health_max`` at most); the band is the deepest tier it has
taken. What it holds: ``label_of``, ``health_of``, ``health_max``, ``conditions_of`` (the readout's conditions),
``wound_readings`` (its wounds, in names), ``details_of`` (the model's own numbers) and ``ability_words`` (an
attribute's name, as a readout and the log show it). ``DepthModel.readout`` puts them together.
"""

from __future__ import annotations

from collections.abc import Iterable

from sandbox.components.body import BodyStructure
from sandbox.components.models.depth import TIERS, DepthState, DepthTables, DepthWound
from sandbox.components.readout import WoundReading
from sandbox.systems.context import Clock
from sandbox.systems.models.depth.rules import wounds_of

__all__ = ["ability_words", "conditions_of", "details_of", "health_max", "health_of", "label_of", "wound_readings"]


def label_of(state: DepthState, dead: bool) -> str:
    """The readout word: ``dead``, ``dying``, ``down``, ``wounded`` or ``unhurt``.

    ``dying`` is down with a death clock running; ``wounded``, a wound with an effect still open, or a lost part.
    """
    if dead:
        return "dead"
    if state.down:
        return "dying" if state.dies_at >= 0 else "down"
    if any(w.lasting for w in wounds_of(state)):
        return "wounded"
    return "unhurt"


def health_of(state: DepthState, dead: bool, collapse_at: int) -> int:
    """The readout's number, higher is haler: the penalty the creature can still take before it collapses.

    0 when dead or down; else ``collapse_at`` + its untreated-wound penalty, at least 1 (5 unhurt, 4 with a
    bleeding flesh wound, 1 with the collapse limit off).
    """
    if dead or state.down:
        return 0
    return max(collapse_at + state.penalty, 1)


def health_max(collapse_at: int) -> int:
    """The highest ``health_of`` can be: the collapse limit (1 with the limit off, when health is always 1)."""
    return max(collapse_at, 1)


def ability_words(attribute: str) -> str:
    """An attribute's name in words: ``strength`` -> ``Strength``."""
    return attribute.replace("_", " ").capitalize()


def conditions_of(state: DepthState, body: BodyStructure, clock: Clock) -> list[str]:
    """The conditions of a living creature, in words.

    Bleeding wounds, lost and broken parts, dying or bleeding out (with the rounds left), collapsed or down, a
    pending mishap, an open guard and notched weapons.
    """
    wounds = wounds_of(state)
    conditions: list[str] = []
    for w in wounds:
        if w.treated:
            continue
        loc = body.locations[w.location].name
        if w.penalty:
            conditions.append(f"bleeding: {loc} ({w.penalty})")
    conditions += [f"lost: {body.parts[p].name}" for p in sorted(state.lost)]
    conditions += [f"broken: {body.parts[p].name}" for p in sorted(state.broken - state.lost)]
    if state.dies_at >= 0:
        rounds = max(0, round((state.dies_at - clock.time) / clock.seconds_per_tick))
        conditions.append(f"{'dying' if state.down else 'bleeding out'} ({rounds} rounds)")
    elif state.down:
        conditions.append("collapsed" if not any(w.down and not w.treated for w in wounds) else "down")
    if state.mishap:
        conditions.append(f"mishap ({state.mishap} on the next roll)")
    if state.open_guard:
        conditions.append(f"guard open ({state.open_guard:+d} to the next attack against it)")
    conditions += [f"notched {weapon} ({n:+d})" for weapon, n in sorted(state.notches.items()) if n]
    return conditions


def wound_readings(body: BodyStructure, wounds: Iterable[DepthWound]) -> tuple[WoundReading, ...]:
    """Every wound that still needs treatment or still has an effect, in names, in the order received.

    A lost part is an effect that lasts, treated or not.
    """
    out = []
    for w in wounds:
        if not (w.open or w.lasting):
            continue
        loc = body.locations[w.location]
        tier = TIERS[w.tier]
        words = [f"{tier} {w.family} wound: {w.name}"]
        bleeding = w.penalty < 0 and not w.treated
        if bleeding:
            words.append(f"bleeding ({w.penalty})")
        if w.lost:
            words.append("part lost")
        elif w.breaks and not w.treated:
            words.append("part broken")
        if w.dies_at >= 0 and not w.treated:
            words.append(f"fatal at {w.dies_at:g} s unless treated")
        words.append("treated" if w.treated else f"untreated (DC {w.treat_dc})")
        out.append(WoundReading(loc.name, body.parts[loc.part].name, tier, w.family, bleeding, None, None,
                                w.treated, ", ".join(words)))
    return tuple(out)


def details_of(tables: DepthTables, state: DepthState, kind: str, dead: bool) -> tuple[tuple[str, str], ...]:
    """The model's own numbers for a readout: Defense, attack modifiers, wound penalty, the deepest wound, and more.

    Then, when they apply: the death clock (not for the dead), a pending mishap, an open guard, notched weapons
    and the creature kind's anatomy note.
    """
    t = tables
    collapse = f"down at {-t.collapse_at}" if t.collapse_at > 0 else "no collapse limit"
    details = [("Defense", str(state.defense)),
               ("attack", f"{ability_words(t.melee_ability)} {state.strength_mod:+d} (melee), "
                          f"{ability_words(t.ranged_ability)} {state.dexterity_mod:+d} (missile and thrown)"),
               ("wound penalty", f"{state.penalty:+d} on its own rolls ({collapse})"),
               ("deepest wound", TIERS[state.worst_tier])]
    if state.dies_at >= 0 and not dead:
        details.append(("death clock", f"dies at {state.dies_at:g} s unless treated"))
    if state.mishap:
        details.append(("mishap", f"{state.mishap:+d} on its next roll"))
    if state.open_guard:
        details.append(("guard", f"open: {state.open_guard:+d} to the next attack against it"))
    for weapon, n in sorted(state.notches.items()):
        if n:
            details.append((f"notched {weapon}", f"{n:+d} on its attacks with it"))
    entry = t.creatures.get(kind)
    if entry is not None and entry.note:
        details.append(("anatomy note", entry.note))
    return tuple(details)
