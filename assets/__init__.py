"""What the viewer draws with, packaged into the wheel as ``sandbox.assets``.

The DejaVu fonts (``fonts/``, with their licence, ``fonts/LICENSE-DejaVu.txt``). No code: the viewer finds the files
through the package.
"""
