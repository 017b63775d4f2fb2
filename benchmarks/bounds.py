"""The cost of the work the schema bounds allow at their extremes, against the shipped content in the same run
(issue 14, point 2: the cost is bounded by the input's size, not its numbers). It reports CPU seconds and ratios;
it never fails.

- **one blow**: the per-event anatomy blow with the largest impact dice the schema allows (100d1000+1000) against
  a body with thresholds at their bound (10,000 x scale 3), and the severity model's blow of that damage (a d3 per
  point), against a shipped broadsword cut;
- **one exact-odds table** (``sandbox blows --exact``) of the largest dice (target: under 10 s);
- **one tick** of 1,000 creatures scattered over the largest field (100 km) with the smallest spatial cell (0.5 m),
  against the same creatures in a 100 m square with the shipped cell;
- **one aftermath day** of a hundred wounded creatures with every repeated test at its shortest interval (a minute;
  a coming-round test every 10 s) against the shipped intervals.

Run: ``python benchmarks/bounds.py``.
"""

from __future__ import annotations

import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sandbox.components.gear import StrikeMode  # noqa: E402
from sandbox.config import load_catalog  # noqa: E402
from sandbox.config.loader import Catalog  # noqa: E402
from sandbox.systems.models.anatomy.blow import TargetProfile  # noqa: E402
from sandbox.world import Sandbox  # noqa: E402

BIG = "100d1000+1000"


def cpu(action: Callable[[], object], repeat: int = 1) -> float:
    """CPU seconds of one call of ``action`` (the mean of ``repeat``)."""
    start = time.process_time()
    for _ in range(repeat):
        action()
    return (time.process_time() - start) / repeat


def extreme_tree(folder: Path) -> Path:
    """A content tree at the bounds: the largest dice on a broadsword, a body with the largest thresholds, the
    smallest spatial cell, and every repeated test of the aftermath at its shortest interval."""
    shipped = ROOT / "configs"
    (folder / "weapons").mkdir(parents=True)
    (folder / "bodies").mkdir()
    (folder / "models").mkdir()
    (folder / "content.toml").write_text('name = "extremes"\nversion = "1"\nextends = "sandbox"\n', encoding="utf-8")
    sword = (shipped / "weapons" / "broadsword.toml").read_text(encoding="utf-8")
    (folder / "weapons" / "greatsword.toml").write_text(sword.replace('"1d10+3"', f'"{BIG}"').replace(
        'name = "Broadsword"', 'name = "Greatsword"'), encoding="utf-8")
    human = (shipped / "bodies" / "human.toml").read_text(encoding="utf-8")
    (folder / "bodies" / "titan.toml").write_text(human.replace('name = "Human"', 'name = "Titan"').replace(
        "scale = 1.0", "scale = 3.0\nthresholds = [2000.0, 4000.0, 6000.0, 8000.0, 10000.0]"), encoding="utf-8")
    (folder / "sandbox.toml").write_text("[combat]\ngrid_cell = 0.5\nretarget_radius = 100000.0\n", encoding="utf-8")
    (folder / "models" / "anatomy.toml").write_text(
        "[aftercare]\nbleed_interval_minutes = 1.0\nunconscious_retest_minutes = 1.0\nextended_shock_hours = "
        f"{1 / 60}\ncoma_interval_unit_days = {1 / 1440}\nhealing_days = {1 / 1440}\n", encoding="utf-8")
    (folder / "models" / "status.toml").write_text("[passing_out]\ncome_round_seconds = 10.0\n", encoding="utf-8")
    (folder / "models" / "severity.toml").write_text(f'[weapons."greatsword.cut"]\ndamage = "{BIG}"\n',
                                                     encoding="utf-8")  # the damage as large as dice go
    return folder


def blows(catalog: Catalog) -> None:
    from sandbox.systems.models.anatomy.blow import compile_target, resolve_blow, roll_impact

    rng = random.Random(1)
    for body, mode in (("human", "broadsword.cut"), ("titan", "greatsword.cut")):
        target = compile_target(catalog.bodies[body], catalog.rules, (), shock_ml=50, strength_ml=50, fumble_ml=50,
                                stumble_ml=50)
        strike = catalog.modes[mode]

        def one(target: TargetProfile = target, strike: StrikeMode = strike) -> None:
            resolve_blow(target, roll_impact(strike, 10, catalog.rules, rng), strike.aspect, rng)

        print(f"  one anatomy blow, {strike.impact} on {body}: {cpu(one, 2000) * 1e6:.1f} us")
    for mode in ("broadsword.cut", "greatsword.cut"):
        with Sandbox(seed=1, model="severity", catalog=catalog) as world:
            world.spawn("human", name="A", team="A")

            def hit(world: Sandbox = world, mode: str = mode) -> None:
                world.strike("A", mode=mode, aim="unaimed")

            print(f"  one severity blow, {catalog.modes[mode].impact}: {cpu(hit) * 1e3:.2f} ms")


def exact(catalog: Catalog) -> None:
    from sandbox.blows import BlowSetup
    from sandbox.vector_odds import exact_odds

    for mode in ("broadsword.cut", "greatsword.cut"):
        setup = BlowSetup.build(catalog, body=catalog.bodies["human"], mode=mode, impact=None, aspect=None, armor=[],
                                aim=None, spread=None, location=None, strength=None, shock_ml=None, strength_ml=None)
        seconds = cpu(functools.partial(exact_odds, setup))
        verdict = f" ({'meets' if seconds < 10 else 'MISSES'} the 10 s target)" if mode.startswith("great") else ""
        print(f"  exact odds, {catalog.modes[mode].impact}: {seconds:.3f} s{verdict}")


def tick(catalog: Catalog, spread: float, label: str) -> float:
    rng = random.Random(2)
    with Sandbox(seed=2, catalog=catalog) as world:
        for i in range(1000):
            world.spawn("human", name=f"C{i}", team="AB"[i % 2], position=(rng.uniform(0, spread),
                                                                           rng.uniform(0, spread)),
                        weapons=["broadsword"], policy=("nearest", "weakest", "random")[i % 3])
        world.step()  # targets picked once
        seconds = cpu(world.step, 3)
    print(f"  one tick, 1,000 creatures {label}: {seconds:.3f} s")
    return seconds


def wounded(catalog: Catalog, model: str) -> Sandbox:
    """A hundred humans with three to five wounds each (a third bleeding), or under the status model critically
    wounded and passed out with a Constitution that seldom brings them round."""
    rng = random.Random(3)
    world = Sandbox(seed=3, model=model, catalog=catalog)
    body = catalog.bodies["human"]
    for i in range(100):
        if model == "status":
            entity = world.spawn("human", name=f"H{i}", team=f"T{i // 10}", attributes={"constitution": 1})
            world.inflict(entity, damage=35)
            continue
        entity = world.spawn("human", name=f"H{i}", team=f"T{i // 10}", skills={"physician": 30 + (i % 10) * 5})
        for _ in range(rng.randint(3, 5)):
            world.inflict(entity, location=body.locations[rng.randrange(len(body.locations))].name,
                          level=rng.choice([1, 2, 3, 4]), aspect=rng.choice(["blunt", "edged", "piercing"]))
    return world


def aftermath(catalog: Catalog, label: str, model: str) -> float:
    with wounded(catalog, model) as world:
        seconds = cpu(lambda: world.advance(days=1))
        events = len(world.events)
    print(f"  one aftermath day ({model}), 100 wounded creatures, {label}: {seconds:.3f} s, {events:,} events")
    return seconds


def main() -> None:
    """Run every measurement."""
    shipped = load_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        extremes = load_catalog(content=[extreme_tree(Path(tmp) / "extremes")])
        print("blows")
        blows(extremes)
        print("exact odds")
        exact(extremes)
        print("ticks")
        base = tick(shipped, 100.0, "in a 100 m square, 2.5 m cells")
        worst = tick(extremes, 100_000.0, "over 100 km, 0.5 m cells")
        print(f"  ratio {worst / base:.1f}")
        print("aftermath")
        for model in ("anatomy", "status"):
            base = aftermath(shipped, "shipped intervals", model)
            worst = aftermath(extremes, "shortest intervals", model)
            print(f"  ratio {worst / base:.1f}")


if __name__ == "__main__":
    main()
