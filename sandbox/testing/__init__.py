"""Testing helpers for a game built on the sandbox: scripted dice, assertions and (as a pytest plugin) fixtures.

::

    from sandbox.testing import assert_wound, forced_rolls

    def test_a_full_swing_takes_the_arm_off(make_world):          # make_world: the plugin's fixture
        world = make_world(seed=3)
        world.spawn("human", name="Aldric", weapons=["battleaxe"], attributes={"strength": 18})
        world.spawn("human", name="Bertram", position=(1, 0), weapons=["broadsword"])
        with forced_rolls(world, d100=[5, 96, 100], d8=8, location="Left Forearm"):
            world.strike("Bertram", "battleaxe.cut", attacker="Aldric")
        assert_wound(world, "Bertram", location="Left Forearm", level="G5", severed=True)

- ``forced_rolls(world, d100=..., d20=..., dN=..., location=...)``: the world's next rolls come out as given
  (``scripted_dice``);
- ``assert_event(events_or_world, EventType, **fields)`` and ``assert_wound(world, creature, location=, level=)``
  (``assertions``);
- ``WorldFactory``: what the ``make_world`` fixture is (``worlds``); the fixtures themselves are in ``plugin``, the
  one module that imports pytest, which stays an optional dependency (the ``testing`` extra);
- ``HelperError``: a request a helper cannot carry out (a ``SandboxError``).

The names are imported on first use, so ``import sandbox.testing`` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.lazy import lazy_attributes

if TYPE_CHECKING:
    from sandbox.testing.assertions import assert_event, assert_wound
    from sandbox.testing.errors import HelperError
    from sandbox.testing.scripted_dice import ScriptedRolls, forced_rolls
    from sandbox.testing.worlds import WorldFactory

__all__ = ["HelperError", "ScriptedRolls", "WorldFactory", "assert_event", "assert_wound", "forced_rolls"]

__getattr__, __dir__ = lazy_attributes(__name__, globals(), {
    "assert_event": "sandbox.testing.assertions", "assert_wound": "sandbox.testing.assertions",
    "HelperError": "sandbox.testing.errors", "ScriptedRolls": "sandbox.testing.scripted_dice",
    "forced_rolls": "sandbox.testing.scripted_dice", "WorldFactory": "sandbox.testing.worlds"})
