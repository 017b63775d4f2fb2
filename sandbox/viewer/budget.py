"""How many costly redraws one frame may do.

After a tick the field, its labels, the body panel, the log and the timeline all have something new to show;
drawing them all in one frame would make that frame several times longer than the others. So, in a window, each
frame redraws at most one of them and the rest show what they showed for a frame longer (16 ms). What the user
does (a pan, a zoom, a hover, a resize) is drawn at once: it never waits for the budget.
"""

from __future__ import annotations

__all__ = ["Budget"]


class Budget:
    """The redraws left to this frame.

    Args:
        redraws: How many (``None``: no limit, every change drawn at once: tests and headless frames).
    """

    def __init__(self, redraws: int | None = None) -> None:
        self.left = redraws

    def spend(self) -> bool:
        """Take one redraw if one is left; ``False`` when the frame has spent them all."""
        if self.left is None:
            return True
        if self.left > 0:
            self.left -= 1
            return True
        return False
