"""The viewer's type.

The DejaVu fonts of ``assets/`` (the package ``sandbox.assets``), a few styles, and a cache of rendered lines (rendering
text is the costliest thing a frame does; most lines are the same from frame to frame).
"""

from __future__ import annotations

import importlib.resources
from collections import OrderedDict
from pathlib import Path

import pygame

from sandbox.viewer.theme import Colour

__all__ = ["CACHE_SIZE", "STYLES", "Typeset", "font_path"]

STYLES: dict[str, tuple[str, int]] = {
    "title": ("DejaVuSans-Bold.ttf", 15),
    "heading": ("DejaVuSans-Bold.ttf", 13),
    "text": ("DejaVuSans.ttf", 12),
    "small": ("DejaVuSans.ttf", 11),
    "tiny": ("DejaVuSansCondensed.ttf", 10),
}
"""Style -> (font file in ``assets/fonts``, pixel size)."""

CACHE_SIZE = 4096
"""Rendered lines kept (least recently used dropped first)."""


def font_path(name: str) -> Path:
    """The path of a font file of the assets.

    Raises:
        FileNotFoundError: The assets are not installed (a broken install).
    """
    path = Path(str(importlib.resources.files("sandbox.assets") / "fonts" / name))
    if not path.is_file():
        raise FileNotFoundError(f"the viewer's font {name} is missing from the package sandbox.assets: reinstall "
                                "combat-sandbox")
    return path


class Typeset:
    """Fonts by style, and rendered lines cached by (text, style, colour)."""

    def __init__(self) -> None:
        pygame.font.init()
        self.fonts = {style: pygame.font.Font(str(font_path(file)), size) for style, (file, size) in STYLES.items()}
        self.line_height = {style: font.get_linesize() for style, font in self.fonts.items()}
        self._cache: OrderedDict[tuple[str, str, Colour], pygame.Surface] = OrderedDict()
        self._widths: dict[tuple[str, str], int] = {}

    def render(self, text: str, style: str = "text", colour: Colour = (225, 228, 232)) -> pygame.Surface:
        """``text`` drawn in ``style`` and ``colour`` (from the cache when drawn before)."""
        key = (text, style, colour)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        surface = self.fonts[style].render(text, True, colour)
        self._cache[key] = surface
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return surface

    def width(self, text: str, style: str = "text") -> int:
        """The width of ``text`` in ``style``, in pixels."""
        key = (text, style)
        found = self._widths.get(key)
        if found is None:
            if len(self._widths) > 4 * CACHE_SIZE:
                self._widths.clear()
            found = self._widths[key] = int(self.fonts[style].size(text)[0])
        return found

    def fit(self, candidates: list[str], style: str, width: int) -> str | None:
        """The first of ``candidates`` no wider than ``width``, or ``None``."""
        for text in candidates:
            if self.width(text, style) <= width:
                return text
        return None

    def clip(self, text: str, style: str, width: int) -> str:
        """``text`` cut to ``width`` pixels with an ellipsis when it is wider (a log line in a narrow pane)."""
        if self.width(text, style) <= width:
            return text
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if self.width(text[:mid] + "…", style) <= width:
                low = mid
            else:
                high = mid - 1
        return text[:low] + "…"

    def wrap(self, text: str, style: str, width: int, indent: str = "  ") -> list[str]:
        """``text`` split into lines no wider than ``width`` pixels (a word wider than that gets a line of its own).

        Continuation lines start with ``indent``.
        """
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            trial = f"{current} {word}" if current else word
            if current and self.width(trial, style) > width:
                lines.append(current)
                current = indent + word
            else:
                current = trial
        lines.append(current)
        return lines
