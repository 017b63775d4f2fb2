"""The event log as users read it: attack records expanded into typed step events, JSON lines in and out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from sandbox.components.events import Event, event_from_dict
from sandbox.components.log import LogEntry

__all__ = ["event_json", "expand_log", "read_jsonl", "write_jsonl"]


def expand_log(entries: Iterable[LogEntry]) -> Iterator[Event]:
    """Typed events of raw log entries (each entry gives its own: an attack record its step events)."""
    for entry in entries:
        yield from entry.events()


def event_json(event: Event, names: Mapping[int, str]) -> dict[str, Any]:
    """An event as a JSON-ready dict, with ``<field>_name`` beside every entity field."""
    data = event.to_dict()
    for key in event.entity_fields:
        data[f"{key}_name"] = names.get(data[key], "")
    return data


def write_jsonl(events: Iterable[Event], names: Mapping[int, str], out: IO[str]) -> int:
    """Write events as JSON lines; returns how many."""
    count = 0
    for event in events:
        out.write(json.dumps(event_json(event, names)) + "\n")
        count += 1
    return count


def read_jsonl(path: str | Path) -> list[Event]:
    """Read a JSON-lines event log back into typed events.

    Raises:
        ValueError: A line is not a JSON event (the message names the line).
    """
    events = []
    with Path(path).open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                events.append(event_from_dict(json.loads(line)))
            except (json.JSONDecodeError, ValueError, TypeError) as exc:
                raise ValueError(f"{path}: line {number}: not an event ({exc})") from None
    return events
