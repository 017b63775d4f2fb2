"""Bounds that keep the work of one valid config small (no pydantic here: the CLI reads them on every command)."""

__all__ = ["MAX_COEFFICIENT", "MAX_COUNT", "MAX_CREATURES", "MAX_DISTANCE", "MAX_FILE_BYTES", "MAX_GROUP",
           "MAX_KEY_LENGTH", "MAX_LIMBS", "MAX_MODIFIER", "MAX_NAME", "MAX_NESTING", "MAX_POINTS", "MAX_SCORE",
           "MAX_SIDES", "MAX_SPAN_DAYS", "MAX_SPREAD", "MAX_THRESHOLD", "MAX_TICKS", "MAX_TICK_SECONDS", "MAX_WEIGHT",
           "MAX_ZONE_WEIGHT", "MIN_GRID_CELL", "MIN_NATURAL_PROTECTION", "MIN_REPEAT_MINUTES", "MIN_REPEAT_SECONDS",
           "MIN_TICK_SECONDS"]

MAX_FILE_BYTES = 1_000_000
"""The largest config file read (the biggest shipped one is a few tens of kilobytes)."""
MAX_WEIGHT = 1_000_000.0
"""A location's or part's weight (a weight of 1e308 would overflow the sums to inf)."""
MAX_ZONE_WEIGHT = 100
"""A zone's weight: the count of zone numbers it owns."""
MAX_SPREAD = 100
"""A strike mode's Spread (the zone die)."""
MAX_GROUP = 1000
"""The most members of one scenario group (``count``)."""
MAX_TICKS = 100_000
"""A scenario's tick limit: about 11 game days at 10 s a tick; a duel runs it in seconds, a 200-creature battle in
minutes, so a fight nothing can end still ends."""
MIN_NATURAL_PROTECTION = -10
"""A body's natural protection may be negative, a vulnerability (a blow does more than its impact), down to this."""
MAX_NESTING = 32
"""How deep arrays and tables may nest in a config file or a save (the deepest shipped file nests 4 deep; an array
nested 500 deep would reach Python's recursion limit), checked before parsing."""
MAX_KEY_LENGTH = 200
"""The longest key of a config file or a save, in characters."""
MAX_CREATURES = 100_000
"""The most creatures one scenario fields, every group counted (the largest battle the benchmarks fight: a tick of
100,000 takes about half a second on the array engine and seconds on the esper engine)."""
MAX_MODIFIER = 1000
"""A roll modifier, bonus, penalty, Defense or index change, either way."""
MAX_SCORE = 1000
"""An attribute score or a Mastery Level (the d100 tests clamp MLs to the rules' 5..95 anyway)."""
MAX_POINTS = 1000
"""Protection, an Armor Value, a Shock Value, hit points per level: an amount of something."""
MAX_COUNT = 1000
"""A count the rules repeat something for (attempts, rounds, enhancements) or a small table entry."""
MAX_SIDES = 1000
"""The most faces of any die (an impact's, a damage's, a test's)."""
MAX_THRESHOLD = 10_000.0
"""An injury threshold, before the body's scale."""
MAX_DISTANCE = 100_000.0
"""A distance in metres: a field's width or height, a position, a reach, a range, a speed per tick (100 km)."""
MIN_GRID_CELL = 0.5
"""The smallest spatial index cell in metres (a creature's own width)."""
MIN_TICK_SECONDS, MAX_TICK_SECONDS = 1.0, 60.0
"""A combat tick: from one second to one minute of game time."""
MIN_REPEAT_SECONDS = 10.0
"""The shortest interval between two of a creature's repeated tests out of combat (a coming-round test), in game
seconds: at most 8,640 a day."""
MIN_REPEAT_MINUTES = 1.0
"""The shortest interval between two periodic tests of a wound (blood loss, shock re-test, course, healing,
treatment attempts), in game minutes: at most 1,440 a day."""
MAX_SPAN_DAYS = 3650.0
"""The longest any duration of the rules may be: ten years of game time."""
MAX_COEFFICIENT = 1_000_000.0
"""A derivation formula's coefficient, base or bound, either way."""
MAX_NAME = 100
"""The longest name (of a creature, part, location, zone, mode, team) in characters."""
MAX_LIMBS = 16
"""The most limbs a strike mode may need."""
