"""``SetupError``.

Options that describe nothing the sandbox can do (its own light module: the CLI catches it on every command, before it
imports what raises it).
"""

__all__ = ["SetupError"]


class SetupError(ValueError):
    """The options describe no valid blow, run or output.

    For example an unknown mode, part or location, conflicting options, or an output path that cannot be written.
    """
