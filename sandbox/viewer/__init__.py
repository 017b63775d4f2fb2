"""The Pygame viewer (the only package that imports pygame).

Watch any world, its bodies at location level, its log explained, back and forth in time, and models side by side.

``Viewer(world)`` watches a ``Sandbox`` you built (or a function of seed and model that builds one, a scenario,
``Viewer.saved(path)``, ``Viewer.replay(log)``); ``viewer.run()`` opens the window; ``run_headless`` renders frames
with no window.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's banner would open every --echo transcript

from sandbox.viewer.app import SPEEDS, Viewer, run_headless, run_window
from sandbox.viewer.replay import ReplayError

__all__ = ["SPEEDS", "ReplayError", "Viewer", "run_headless", "run_window"]
