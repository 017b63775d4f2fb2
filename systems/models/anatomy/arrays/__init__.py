"""The anatomy model (document 000) on the array engine.

Wounds, shock, bleeding, impairment and health as arrays (``state``); the attack phase (``attack_phase``, its walk in
initiative order compiled in ``landing``); shock changes, deaths and dropped weapons outside that walk
(``consequences``); the damage phase (``settle``), bleeding and shock re-tests (``over_time``), and the per-event
records a creature reads as (``records``); ``model`` plugs them into the array engine's model interface.
"""

__all__: list[str] = []
