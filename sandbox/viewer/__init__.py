"""The Pygame viewer (the only package that imports pygame): watch a skirmish, read every wound."""

from sandbox.viewer.app import Viewer, run_headless, run_window

__all__ = ["Viewer", "run_headless", "run_window"]
