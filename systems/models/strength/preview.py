"""The strength-health model's outcome preview: the exact odds of one attack against a target as it is hurt now.

The d20 against Defense (a natural 20's enhancement apart), then the damage die: exploding, so its totals have no
end, but every blow of at least STR after armour kills, so the totals up to that point are summed one by one
(``exploding_survival``: each total has exactly one roll sequence) and the rest as one tail. Enhanced and impaired
damage are the higher and the lower of two such dice. Each amount of damage is judged as ``StrengthModel.apply_damage``
judges it (``rules.blow_outcome``: critical damage, dying, killed on the spot; damage while dying). The procedure it
mirrors is ``StrengthModel.strike``.
"""

from __future__ import annotations

from sandbox.components.gear import StrikeMode
from sandbox.components.models.strength import StrengthHealth, StrengthTables, WeaponDamage
from sandbox.components.preview import OutcomePreview
from sandbox.components.state import Condition
from sandbox.systems.creatures import Creature
from sandbox.systems.distributions import Pmf, add, chances, d20_rolls
from sandbox.systems.models.strength.rules import MODEL, blow_outcome, net_modifier, strength_state

__all__ = ["OUTCOMES", "damage_odds", "exploding_survival", "preview_blow"]

OUTCOMES: tuple[str, ...] = ("no damage", "hurt", "critical", "dying", "dead")
"""What a blow does, mildest first (the preview's ``outcome`` table): nothing gets through; health lost; critical
damage (incapacitated); all health lost (dying); killed."""

_NO_LOCATIONS = "the strength model places no blow on the body (health is one number)"
_NO_SEVERING = "the strength model has no amputation"


def exploding_survival(sides: int, total: int, explode: bool = True) -> float:
    """The chance one damage die (``rules.roll_exploding``) comes to at least ``total``.

    Exploding: a roll below the maximum stops, the maximum adds the next roll less 1, so to reach ``total`` past the
    first ``sides - 1`` takes a maximum first, and each further ``sides - 1`` another.
    """
    if total <= 1:
        return 1.0
    if sides < 2:
        return 0.0
    if not explode:
        return max(0.0, (sides - total + 1) / sides)
    chance = 1.0
    while total >= sides:
        chance /= sides
        total -= sides - 1
    return chance * (sides - total + 1) / sides


def damage_odds(weapon: WeaponDamage, enhanced: int, impaired: int, explode: bool, armor: int,
                upto: int) -> tuple[Pmf, float]:
    """The damage after armour of a landed blow: its chance of each amount below ``upto``, and of ``upto`` or more.

    Args:
        weapon: The mode's damage (die, bonus, its own enhancements and impairments).
        enhanced: Enhancements on top of the weapon's (a natural 20's).
        impaired: Impairments on top of the weapon's (the attacker's conditions).
        explode: The dice explode (the tables' ``explode``).
        armor: The Armour value that applies (0 for direct damage).
        upto: The amount from which every blow is alike (the target's STR: it kills).
    """
    net = net_modifier(weapon.enhanced + enhanced, weapon.impaired + impaired)
    if net == -2:  # impaired twice: no roll, no damage
        return {0: 1.0}, 0.0

    def kept_at_least(k: int) -> float:
        one = exploding_survival(weapon.die, k, explode)
        if net == 1:  # the higher of two: not both below k
            return 1.0 - (1.0 - one) ** 2
        return one ** 2 if net == -1 else one

    def dealt(kept: int) -> int:
        return max(max(kept + weapon.bonus, 0) - armor, 0)

    # The kept roll from which the damage reaches ``upto``: every kept roll from there on is in the tail.
    first_tail = 1
    while dealt(first_tail) < upto:
        first_tail += 1
    out: Pmf = {}
    for kept in range(1, first_tail):
        add(out, dealt(kept), kept_at_least(kept) - kept_at_least(kept + 1))
    return out, kept_at_least(first_tail)


def _verdict(state: StrengthHealth, cond: Condition, damage: int, tables: StrengthTables) -> tuple[str, int, bool]:
    """What ``damage`` points do (``StrengthModel.apply_damage``): the outcome, health left, and down after it."""
    if damage <= 0:
        return "no damage", state.health, cond.out
    strength = state.abilities["STR"]
    if state.dying and damage < strength:
        return ("dead" if tables.damage_while_dying_kills else "dying"), state.health, True
    outcome = blow_outcome(damage, state.health, strength, tables.critical_ratio)
    if outcome.killed:
        return "dead", 0, True
    if outcome.dying:
        return "dying", outcome.health, True
    if outcome.critical:
        return "critical", outcome.health, True
    return "hurt", outcome.health, cond.out


def preview_blow(tables: StrengthTables, target: Creature, mode: StrikeMode, aim: str, armor: int,
                 attacker: Creature | None = None, *, bonus: int = 0, defense: int = 0,
                 impaired: int = 0, strikable: bool = True) -> OutcomePreview:
    """The exact outcome of ``attacker``'s attack (or, without one, of a blow that lands) on ``target``.

    Args:
        tables: The model's tables.
        target: Who is struck, as hurt now.
        mode: The strike mode.
        aim: As declared (it changes nothing: the model places no blow on the body).
        armor: The target's Armour value now (``StrengthModel.armor_of``; 0 is used for direct damage).
        attacker: Who strikes, or ``None``.
        bonus: Everything the attacker adds to the d20.
        defense: The Defense it rolls against.
        impaired: Impairments the attacker's conditions put on its damage.
        strikable: A blow can reach the target (``DamageModel.can_be_struck``); else every hit misses off the body.
    """
    weapon = tables.weapons.get(mode.id) or WeaponDamage(4)
    state = strength_state(target)
    cond = target.condition
    strength = state.abilities["STR"]
    applied = 0 if weapon.direct else armor
    if attacker is None:
        landed = [(1.0, 0, 0)]  # chance, enhancements, impairments
    else:
        rolls = d20_rolls(bonus, defense)
        boost = tables.natural_20_enhanced
        landed = [(1 / len(rolls), boost if r.natural == 20 else 0, impaired) for r in rolls if r.hit]
    hit = sum(p for p, _, _ in landed)
    if not strikable:
        landed = []  # every hit passes through it
    land = hit if strikable else 0.0
    damage: dict[str, float] = {}
    health: dict[str, float] = {}
    outcome: dict[str, float] = {}
    kill = down = 0.0
    for p, enhanced, minus in landed:
        amounts, tail = damage_odds(weapon, enhanced, minus, tables.explode, applied, strength)
        for amount, q in [*amounts.items(), (strength, tail)]:
            if q <= 0:
                continue
            what, left, fell = _verdict(state, cond, amount, tables)
            add(damage, str(amount) if amount < strength else f"{strength} or more", p * q)
            add(health, "dead" if what == "dead" else f"health {left}", p * q)
            add(outcome, what, p * q)
            kill += p * q if what == "dead" else 0.0
            down += p * q if fell else 0.0
    order = [f"health {h}" for h in range(state.health, -1, -1)] + ["dead"]
    return OutcomePreview(
        model=MODEL, attacker="" if attacker is None else attacker.name, target=target.name, mode=mode.id, aim=aim,
        hit=hit, land=land, locations=None, locations_note=_NO_LOCATIONS, level_kind="health left",
        levels=chances(health, order), sever=None, sever_note=_NO_SEVERING, kill=kill,
        down=(1.0 - land) * cond.out + down, down_now=cond.out,
        tables=(("damage after armour", chances(damage, sorted(damage, key=lambda k: int(k.split()[0])))),
                ("outcome", chances(outcome, OUTCOMES))),
        notes=(*(() if strikable else (f"{target.name} has no body a blow can strike: every hit misses",)),
               "kill counts death on the spot; a dying creature dies at the end of the next round unless healed "
               "(the 'dying' outcome)",))
