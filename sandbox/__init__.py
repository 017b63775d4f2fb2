"""The combat sandbox: a world of creatures made of data that fight, blow by blow, under one of five damage models.

The embedding surface::

    from sandbox import Sandbox

    with Sandbox(seed=3) as world:
        world.spawn("human", name="Aldric", team="Red", weapons=["broadsword"], armor=["mail_hauberk"])
        world.spawn("human", name="Bertram", team="Blue", position=(1, 0), weapons=["battleaxe"])
        world.strike("Bertram", mode="broadsword.cut", aim="Head", attacker="Aldric")  # what the rules allow
        print(world.readout("Bertram").wounds)
        outcome = world.run()

- ``Sandbox``: one world (spawn, step, run, strike, preview, inflict, advance, readout, get, save, load; options
  and submit for a creature the game drives, with the actions of ``sandbox.systems.actions``);
  ``Outcome``: how a run ended; ``Readout``: a creature's state in its model's words; ``OutcomePreview``: the exact
  odds of a strike (``Sandbox.preview``);
- ``SandboxError`` (a bad request: an unknown name; ``PreviewError`` is one), ``SaveError`` (a bad save),
  ``ConfigError`` (a bad config file, every problem listed);
- ``load_body``, ``load_catalog``, ``default_catalog``, ``Catalog``: the content.

The rules themselves are in ``systems`` (pure functions, the processors, the damage models, ``sandbox.systems.install``
for an esper world of your own), the data in ``components``. The names are imported on first use (PEP 562), so
``import sandbox`` is cheap (the CLI's start-up) and never imports pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.lazy import lazy_attributes

if TYPE_CHECKING:
    from sandbox.components.preview import OutcomePreview
    from sandbox.components.readout import Readout
    from sandbox.config.errors import ConfigError
    from sandbox.config.loader import Catalog, default_catalog, load_body, load_catalog
    from sandbox.persistence import SaveError
    from sandbox.preview import PreviewError
    from sandbox.world import Outcome, Sandbox, SandboxError

__all__ = ["Catalog", "ConfigError", "Outcome", "OutcomePreview", "PreviewError", "Readout", "Sandbox", "SandboxError",
           "SaveError", "default_catalog", "load_body", "load_catalog"]
__version__ = "0.1.0"

__getattr__, __dir__ = lazy_attributes(__name__, globals(), {
    "Sandbox": "sandbox.world", "Outcome": "sandbox.world", "SandboxError": "sandbox.world",
    "SaveError": "sandbox.persistence", "Readout": "sandbox.components.readout", "ConfigError": "sandbox.config.errors",
    "Catalog": "sandbox.config.loader", "default_catalog": "sandbox.config.loader",
    "load_body": "sandbox.config.loader", "load_catalog": "sandbox.config.loader",
    "OutcomePreview": "sandbox.components.preview", "PreviewError": "sandbox.preview"})
