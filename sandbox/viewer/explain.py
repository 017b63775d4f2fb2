"""Explaining one attack in words: aim, zone die, part and location, protection layer by layer, effective impact,
level, glancing, bleeding, amputation, shock test and state, mishaps. Pure text, no pygame (the viewer's trace
panel and the tests read it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from components.anatomy import ASPECTS, BodyStructure
from components.gear import ArmorPiece, StrikeMode
from components.rules import LEVEL_CODES, AnatomyRules
from systems.combat import AttackRecord
from systems.injury import scaled_thresholds


def explain(record: AttackRecord, names: Mapping[int, str], modes: Mapping[str, StrikeMode],
            armor: Sequence[ArmorPiece], rules: AnatomyRules) -> list[str]:
    """The lines that explain ``record`` from aim to shock state."""
    mode = modes.get(record.mode)
    attacker, target = names.get(record.attacker, "?"), names.get(record.target, "?")
    what = f"{mode.name} ({mode.impact} {ASPECTS[mode.aspect]}, Spread {mode.spread})" if mode else record.mode
    lines = [f"Tick {record.tick}: {attacker} attacks {target} with {what}, "
             + ("unaimed" if record.aim == "unaimed" else f"aimed at the {record.aim}")]
    defence = record.defence.name if record.defence is not None else "no roll (helpless)"
    lines.append(f"Attack ML {_ml(record.attack_ml)}: {record.attack.name}; defence ML {_ml(record.defence_ml)}: "
                 f"{defence} -> {'lands' if record.landed else 'defended'}")
    blow = record.blow
    if not record.landed or blow is None:
        return lines
    body = record.body
    if blow.missed:
        lines.append(f"Zone number {blow.zone_number}: off the body (highest {body.max_zone_number}): a miss")
        return lines
    loc = body.locations[blow.location]
    part = body.parts[loc.part]
    zone = body.zones[part.zone]
    target_zn = _target_zone_number(body, record.aim)
    if target_zn is not None and mode is not None:
        roll = blow.zone_number - (target_zn - 1)
        lines.append(f"Zone die d{mode.spread} rolled {roll}: target zone number {target_zn} -> {blow.zone_number} "
                     f"({zone.name}, {zone.first}-{zone.last})")
    else:
        lines.append(f"Unaimed: zone number {blow.zone_number} ({zone.name}, {zone.first}-{zone.last})")
    lines.append(f"Part {part.name}, location {loc.name} (Shock Value {loc.shock_value})")
    aspect = ASPECTS[blow.aspect]
    layers = [f"natural {loc.protection[blow.aspect]}"]
    key = loc.name.casefold()
    layers += [f"{p.name} {p.protection[blow.aspect]}{' (rigid)' if p.rigid else ''}" for p in armor
               if key in p.covers]
    lines.append(f"Impact {blow.impact} {aspect}; protection {' + '.join(layers)} = {blow.protection}; "
                 f"effective {blow.effective_impact}")
    thresholds = "/".join(f"{t:g}" for t in scaled_thresholds(body, rules))
    level = "glances off rigid armour: no wound" if blow.glancing else LEVEL_CODES[blow.level]
    lines.append(f"Level against {thresholds}: {level}" + ("; compounds the worst wound there" if blow.compound
                                                           else ""))
    lines.append(f"Bleeding ({loc.bleeding}): {'a bleeder' if blow.bleeder else 'no'}; amputation: "
                 + (f"{blow.amputation} ({blow.amputation_test.name})" if blow.amputation_test is not None
                    else "no check"))
    if blow.shock_index:
        test = blow.shock_test.name if blow.shock_test is not None else "no test"
        lines.append(f"Shock index {blow.shock_index}: {test} -> {blow.final_index}: {blow.shock_state.label}")
    else:
        lines.append("No shock")
    mishaps = (("Fumble", blow.fumble, blow.fumble_test, blow.fumble_outcome),
               ("Stumble", blow.stumble, blow.stumble_test, blow.stumble_outcome))
    for name, disposition, keep_test, outcome in mishaps:
        if disposition != "none":
            rolled = f" {keep_test.name}" if keep_test is not None else ""
            lines.append(f"{name}: {disposition}{rolled} -> {outcome}")
    if blow.dead:
        lines.append("The blow kills.")
    return lines


def _ml(ml: int | None) -> str:
    return "-" if ml is None else str(ml)


def _target_zone_number(body: BodyStructure, aim: str) -> int | None:
    """The zone number an aim at the part named ``aim`` targets (``None``: unaimed or no such part)."""
    if aim == "unaimed":
        return None
    try:
        return body.zones[body.parts[body.part_index(aim)].zone].first
    except KeyError:
        return None
