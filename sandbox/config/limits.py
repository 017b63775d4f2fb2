"""Bounds that keep the work of one valid config small (no pydantic here: the CLI reads them on every command)."""

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
