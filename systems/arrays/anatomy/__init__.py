"""The anatomy model (document 000) on the array engine: wounds, shock, bleeding, impairment and health as
arrays (``state``), the attack phase in initiative waves (``waves``), what a landed blow does (``consequences``),
the damage phase (``settle``), bleeding and shock re-tests (``over_time``), and the per-event records a creature
reads as (``records``); ``model`` plugs them into the array engine's model interface."""
