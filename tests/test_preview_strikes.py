"""The outcome preview against real strikes: many identical wounded targets struck once each, fixed seed.

One world holds ``N`` pairs of an attacker and a target, every target wounded alike (the set-ups' wounds are dealt
with no roll); each pair strikes once through ``Sandbox.strike`` (the world's streams run on from pair to pair, so
the strikes are independent draws), and what the strikes did is counted against ``Sandbox.preview`` of the first
pair: to land, kill, leave it down, sever, and each outcome level in the model's own words. Every comparison is an
exact binomial or chi-square test at alpha 1e-6, so a correct preview does not fail it by chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from scipy.stats import binomtest, chisquare

from sandbox import Sandbox
from sandbox.components.models.anatomy import Shock
from sandbox.components.models.depth import TIERS
from sandbox.components.models.status import LEVELS, StatusState
from sandbox.components.preview import OutcomePreview
from sandbox.components.rules import LEVEL_CODES, ShockState

N = 1500
ALPHA = 1e-6


@dataclass(frozen=True)
class SetUp:
    """One model's fight: who strikes with what at what, and the wound every target carries first."""

    model: str
    mode: str
    aim: str
    wound: Callable[[Sandbox, str], None]
    direct: bool = False
    weapons: tuple[str, ...] = ("battleaxe",)
    armor: tuple[str, ...] = ("gambeson", "helm")


def _stunned_with_a_skull_wound(world: Sandbox, target: str) -> None:
    world.inflict(target, location="Skull", level="S2", aspect="blunt")
    world.get(target, Shock).state = ShockState.STUNNED  # a second stun incapacitates
    world.refresh(target)


def _seriously_wounded(world: Sandbox, target: str) -> None:
    world.inflict(target, damage=3 * world.get(target, StatusState).endurance + 1)


SETUPS = {
    "anatomy": SetUp("anatomy", "battleaxe.cut", "Head", _stunned_with_a_skull_wound),
    "anatomy-direct": SetUp("anatomy", "mace.crush", "unaimed", _stunned_with_a_skull_wound, direct=True,
                            weapons=("mace",)),
    "severity": SetUp("severity", "battleaxe.cut", "unaimed",
                      lambda w, t: w.inflict(t, severity=2, effect="bloody") and None),
    "depth": SetUp("depth", "battleaxe.cut", "unaimed",
                   lambda w, t: w.inflict(t, level="flesh", location="Thorax", aspect="cutting") and None),
    "depth-called": SetUp("depth", "spear.impale", "Abdomen",
                          lambda w, t: w.inflict(t, level="flesh", location="Thorax", aspect="cutting") and None,
                          weapons=("spear",), armor=()),
    "strength": SetUp("strength", "battleaxe.cut", "unaimed", lambda w, t: w.inflict(t, damage=4) and None),
    "status": SetUp("status", "battleaxe.cut", "unaimed", _seriously_wounded),
}


@dataclass(frozen=True)
class Struck:
    """What one strike did to its target."""

    landed: bool
    level: str
    killed: bool
    down: bool
    severed: bool


def _what_it_did(world: Sandbox, model: str, target: str, start: int) -> Struck:
    """Read one strike's outcome from its record (the first entry it logged) and the target's readout after it."""
    record = world.log[start]
    reading = world.readout(target)
    severed = False
    if model == "anatomy":
        blow = record.blow  # type: ignore[attr-defined]
        landed = blow is not None and not blow.missed
        level = LEVEL_CODES[blow.level] if landed else ""
        severed = landed and blow.severed
    elif model == "severity":
        landed = record.hit and record.damage is not None  # type: ignore[attr-defined]
        level = (record.damage.effect or "no wound") if landed else ""  # type: ignore[attr-defined]
    elif model == "depth":
        landed = bool(record.location)  # type: ignore[attr-defined]
        level = TIERS[record.tier] if landed else ""  # type: ignore[attr-defined]
        severed = landed and record.effect is not None and record.effect.lost  # type: ignore[attr-defined]
    elif model == "strength":
        landed = record.roll.hit  # type: ignore[attr-defined]
        level = ("dead" if not reading.alive else f"health {reading.health}") if landed else ""
    else:
        landed = record.roll.hit  # type: ignore[attr-defined]
        level = LEVELS[world.get(target, StatusState).level] if landed else ""
    return Struck(landed, level, not reading.alive, not reading.can_act, severed)


def _strike_all(setup: SetUp) -> tuple[OutcomePreview, list[Struck]]:
    world = Sandbox(seed=20260, model=setup.model)
    for i in range(N):
        world.spawn("human", name=f"A{i}", team="Red", position=(0.0, 4.0 * i), weapons=list(setup.weapons),
                    armor=[])
        world.spawn("human", name=f"B{i}", team="Blue", position=(1.0, 4.0 * i), weapons=["broadsword"],
                    armor=list(setup.armor))
    for i in range(N):  # after every spawn: a spawn rebuilds the roster's records
        setup.wound(world, f"B{i}")
    preview = world.preview(None if setup.direct else "A0", "B0", setup.mode, setup.aim)
    last = world.preview(None if setup.direct else f"A{N - 1}", f"B{N - 1}", setup.mode, setup.aim)
    assert replace(last, attacker=preview.attacker, target=preview.target) == preview  # every pair alike
    outcomes = []
    for i in range(N):
        start = len(world.log)
        world.strike(f"B{i}", setup.mode, setup.aim, attacker=None if setup.direct else f"A{i}")
        outcomes.append(_what_it_did(world, setup.model, f"B{i}", start))
    world.close()
    return preview, outcomes


def _binomial(what: str, count: int, p: float) -> None:
    if p <= 1e-12 or p >= 1 - 1e-12:
        assert count == round(p * N), f"{what}: {count} of {N}, the preview says exactly {p}"
        return
    pvalue = binomtest(count, N, p).pvalue
    assert pvalue > ALPHA, f"{what}: {count} of {N} against the preview's {p:.4f} (p-value {pvalue:.2g})"


def _chi_square(observed: Counter[str], expected: dict[str, float]) -> None:
    unknown = set(observed) - set(expected)
    assert not unknown, f"outcomes the preview gives no chance: {unknown}"
    bins: list[tuple[float, int]] = []
    rare_expected, rare_observed = 0.0, 0
    for name, p in sorted(expected.items(), key=lambda kv: kv[1]):
        if p * N < 5 or (rare_expected and rare_expected < 5):  # too rare on its own: pooled
            rare_expected += p * N
            rare_observed += observed[name]
        else:
            bins.append((p * N, observed[name]))
    if rare_expected > 0:
        bins.append((rare_expected, rare_observed))
    if len(bins) < 2:
        return
    exp = [e for e, _ in bins]
    obs = [o for _, o in bins]
    scale = sum(obs) / sum(exp)  # the preview's probabilities sum to 1 up to rounding
    pvalue = chisquare(obs, [e * scale for e in exp]).pvalue
    assert pvalue > ALPHA, f"levels: observed {dict(observed)} against {expected} (p-value {pvalue:.2g})"


@pytest.mark.parametrize("name", list(SETUPS))
def test_the_preview_gives_the_odds_real_strikes_show(name: str) -> None:
    setup = SETUPS[name]
    preview, outcomes = _strike_all(setup)
    _binomial("landed", sum(o.landed for o in outcomes), preview.land)
    _binomial("killed", sum(o.killed for o in outcomes), preview.kill)
    _binomial("down", sum(o.down for o in outcomes), preview.down)
    if preview.sever is not None:
        _binomial("severed", sum(o.severed for o in outcomes), preview.sever)
    levels = {c.name: c.p for c in preview.levels}
    levels["(missed)"] = preview.miss
    _chi_square(Counter(o.level or "(missed)" for o in outcomes), levels)
    assert sum(levels.values()) == pytest.approx(1.0, abs=1e-9)
    # The set-ups are chosen so the test can tell: something lands, something is left down.
    assert preview.land > 0.05 and 0.0 < preview.down < 1.0
