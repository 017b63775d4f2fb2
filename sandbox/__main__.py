"""``python -m sandbox``: the same as the ``sandbox`` command."""

from sandbox.cli import main

main()
