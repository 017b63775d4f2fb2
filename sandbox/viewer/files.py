"""Writing what the viewer draws: a PNG whole or not at all (through ``sandbox.files``, the one atomic writer)."""

from __future__ import annotations

from pathlib import Path

import pygame

from sandbox.files import atomic_path

__all__ = ["save_png"]


def save_png(surface: pygame.Surface, path: str | Path) -> None:
    """Save a PNG whole or not at all.

    To a temporary file beside ``path`` (same suffix: pygame picks the format by it), renamed over it.
    """
    path = Path(path)
    with atomic_path(path, suffix=f".tmp{path.suffix}") as tmp:
        pygame.image.save(surface, str(tmp))
