"""Odds cards: the ``sandbox blows`` odds table from the vectorised pipeline, and the exact odds table.

``vector_odds`` counts ``n`` blows resolved by ``sandbox.systems.models.anatomy.vector_blows.resolve_blows`` in chunks
into the same ``Odds`` the per-event path fills (so ``odds_report`` prints either); ``exact_odds`` sums over the dice
(convolved), the locations and the d100 tests instead of sampling, and ``exact_report`` prints it.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from sandbox.blows import BlowSetup, Odds
from sandbox.components.rules import LEVEL_CODES, ShockState
from sandbox.report import table, wrapped
from sandbox.systems.models.anatomy.exact_odds import ExactOdds, dice_distribution, exact_blow_odds
from sandbox.systems.models.anatomy.vector_blows import BlowArrays, resolve_blows, roll_dice_array
from sandbox.systems.models.anatomy.vector_target import DISPOSITIONS, FUMBLE_OUTCOMES, STUMBLE_OUTCOMES, IntArray
from sandbox.systems.streams import PURPOSES, stream_seed

__all__ = ["CHUNK", "VECTOR_FROM", "add_arrays", "exact_odds", "exact_report", "numpy_stream", "resolve_chunk",
           "setup_impacts", "vector_odds"]

VECTOR_FROM = 100_000
"""``sandbox blows --format table`` resolves this many blows or more on the vectorised path."""
CHUNK = 65_536
"""Blows resolved per numpy call."""


def numpy_stream(seed: int, run: int = 0, purpose: str = "injury") -> np.random.Generator:
    """A numpy generator seeded like ``sandbox.systems.streams.make_stream`` (same seed, other draws)."""
    return np.random.default_rng(stream_seed(seed, run, PURPOSES.index(purpose)))


def setup_impacts(setup: BlowSetup, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` final impacts of the setup's strike (dice plus Strength modifier), or its fixed impact."""
    if setup.mode is not None:
        return roll_dice_array(setup.mode.impact, n, rng) + setup.strength_bonus
    return np.full(n, setup.impact or 0, dtype=np.int64)


def resolve_chunk(setup: BlowSetup, n: int, rng: np.random.Generator) -> BlowArrays:
    """``n`` blows of the setup at once, each against the unwounded target."""
    return resolve_blows(setup.target, setup_impacts(setup, n, rng), setup.aspect, rng, setup.aim, setup.spread,
                         location=setup.location)


def _mishaps(disposition: IntArray, outcome: IntArray, names: tuple[str, ...], counter: Counter[str]) -> None:
    codes = disposition * len(names) + outcome
    for code, count in enumerate(np.bincount(codes, minlength=len(DISPOSITIONS) * len(names))):
        if count:
            d, o = divmod(code, len(names))
            counter["none" if d == 0 else f"{DISPOSITIONS[d]} -> {names[o]}"] += int(count)


def add_arrays(odds: Odds, blows: BlowArrays, setup: BlowSetup) -> None:
    """Count a chunk of blows into ``odds`` (the keys ``Odds.add`` uses)."""
    landed = ~blows.missed
    n_landed = int(landed.sum())
    odds.n += len(blows)
    odds.missed += len(blows) - n_landed
    if not n_landed:
        return
    locations = setup.body.locations
    loc = blows.location[landed]
    for li, count in enumerate(np.bincount(loc, minlength=len(locations))):
        if count:
            odds.location[locations[li].name] += int(count)
    for lv, count in enumerate(np.bincount(blows.level[landed], minlength=len(LEVEL_CODES))):
        if count:
            odds.level[LEVEL_CODES[lv]] += int(count)
    odds.glancing += int(blows.glancing.sum())
    odds.bleeder += int(blows.bleeder[landed].sum())
    amp = blows.amputation_test[landed]
    checked = amp >= 0
    severed = int(blows.severed[landed].sum())
    if n_landed - int(checked.sum()):
        odds.amputation["none"] += n_landed - int(checked.sum())
    if int(checked.sum()) - severed:
        odds.amputation["kept"] += int(checked.sum()) - severed
    if severed:
        odds.amputation["severed"] += severed
    for state, count in enumerate(np.bincount(blows.shock_state[landed], minlength=len(ShockState))):
        if count:
            odds.shock[ShockState(state).label] += int(count)
    _mishaps(blows.fumble[landed], blows.fumble_outcome[landed], FUMBLE_OUTCOMES, odds.fumble)
    _mishaps(blows.stumble[landed], blows.stumble_outcome[landed], STUMBLE_OUTCOMES, odds.stumble)
    odds.dead += int(blows.dead.sum())


def vector_odds(setup: BlowSetup, n: int, seed: int, chunk: int = CHUNK) -> Odds:
    """Count ``n`` vectorised blows of the setup, drawn from the numpy injury stream of run 0 of ``seed``."""
    rng = numpy_stream(seed)
    odds = Odds()
    done = 0
    while done < n:
        size = min(chunk, n - done)
        add_arrays(odds, resolve_chunk(setup, size, rng), setup)
        done += size
    return odds


def exact_odds(setup: BlowSetup) -> ExactOdds:
    """The exact odds of one blow of the setup: location, level, amputation, shock state, mishaps."""
    impacts = (dice_distribution(setup.mode.impact, setup.strength_bonus) if setup.mode is not None
               else {setup.impact or 0: 1.0})
    return exact_blow_odds(setup.target, impacts, setup.aspect, setup.aim, setup.spread, location=setup.location)


def exact_report(exact: ExactOdds, setup: BlowSetup, header: str) -> str:
    """The ``sandbox blows --exact`` text: probabilities per location, level, shock state and the rest."""
    def section(title: str, rows: list[tuple[str, float]]) -> str:
        body = [(k, f"{p:.6f}", f"{100 * p:.2f}%") for k, p in rows if p > 0]
        return f"{title}\n" + table([title.split(" ")[0].lower(), "probability", "percent"], body, [1, 2])

    landed = 1.0 - exact.missed
    names = setup.body.locations
    out = [wrapped(header), wrapped(f"Exact odds per blow: missed {100 * exact.missed:.2f}%, landed "
                                    f"{100 * landed:.2f}%, killed {100 * exact.dead:.2f}%. Percentages are of all "
                                    "blows.")]
    if landed > 0:
        sections = [
            ("Location", sorted(((names[li].name, p) for li, p in exact.location.items()), key=lambda r: -r[1])),
            ("Level", list(zip(LEVEL_CODES, exact.level, strict=True))),
            ("Outcome", [("glancing", exact.glancing), ("bleeder", exact.bleeder)]),
            ("Amputation", [(k, exact.amputation.get(k, 0.0)) for k in ("none", "kept", "severed")]),
            ("Shock state", [(s.label, exact.shock[s]) for s in ShockState]),
            ("Mishap (fumble)", sorted(exact.fumble.items())),
            ("Mishap (stumble)", sorted(exact.stumble.items())),
        ]
        for title, rows in sections:
            out.append("")
            out.append(section(title, rows))
    return "\n".join(out)
