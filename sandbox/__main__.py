"""``python -m sandbox``: the same as the ``sandbox`` command."""

from sandbox.entry import main

main()
