"""The array engine.

The skirmish rules over numpy arrays, for battles of tens of thousands of fighters and for batches of independent fights
(see ``docs/array-engine.md``).

- ``engine``: ``ArrayEngine``, the world and its tick; ``state``: the creatures as a struct of arrays;
  ``tables``: the content as arrays; ``spawn``: building creatures from recruits;
- the shared loop: ``intent`` (targets, the engagement cap, modes, aims), ``spatial`` (enemy queries),
  ``loadout`` (what each creature can strike with), ``movement``, ``attack`` (gathering the phase's attacks);
- ``models``: the array damage-model interface and its registry; ``anatomy``: the anatomy model over arrays;
- ``fight_streams``: each fight's own counter-based random streams (a fight is the same in any batch);
- ``trace``: full records of the traced creatures' blows; ``errors``: ``EngineError``.

Pure rules, numpy, and numba for the loops that take their cases one at a time (``compiled``); nothing here
imports the sandbox.
"""

import sandbox.systems.models.anatomy.arrays.model  # noqa: F401 (registers the anatomy model with the array engine)
from sandbox.systems.arrays.engine import ArrayEngine
from sandbox.systems.arrays.errors import EngineError
from sandbox.systems.arrays.models import ENGINES, array_model_names, engines_for

__all__ = ["ENGINES", "ArrayEngine", "EngineError", "array_model_names", "engines_for"]
