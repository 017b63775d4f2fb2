"""The event log: tick and time on every event, a landed blow explained step by step, JSON lines in and out."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.events import (
    AmputationTested,
    AttackDeclared,
    AttackRolled,
    BlowLanded,
    Event,
    Injured,
    MishapTested,
    Missed,
    ProtectionApplied,
    ShockTested,
    event_from_dict,
)
from sandbox.components.state import Anatomy
from sandbox.config import default_catalog
from sandbox.eventlog import read_jsonl, write_jsonl
from sandbox.world import Sandbox

SCENARIOS = ("duel", "skirmish", "wolf_pack", "bestiary")
AFTER_INJURY = (AmputationTested, ShockTested, MishapTested)


def run_log(scenario: str, seed: int, ticks: int = 60) -> tuple[Sandbox, list[Event]]:
    w = Sandbox.from_scenario(scenario, seed=seed)
    w.run(max_ticks=ticks)
    return w, list(w.events)


def test_shipped_tick_length_is_ten_seconds() -> None:
    assert default_catalog().combat.tick_seconds == 10.0


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_event_carries_tick_and_time(scenario: str) -> None:
    w, events = run_log(scenario, seed=1)
    e = next(iter(w.creatures()))
    events += w.inflict(e, location=w.get(e, Anatomy).body.locations[0].name, level="M1")
    assert events
    for ev in events:
        assert isinstance(ev.tick, int) and 0 <= ev.tick <= w.tick
        assert ev.time == ev.tick * 10.0
    ticks = [ev.tick for ev in events]
    assert ticks == sorted(ticks)
    assert ticks[-1] == w.tick
    w.close()


def _check_landed_blow(w: Sandbox, events: list[Event], i: int) -> None:
    blow = events[i]
    assert isinstance(blow, BlowLanded)
    declared, rolled = events[i - 2], events[i - 1]
    assert isinstance(declared, AttackDeclared) and isinstance(rolled, AttackRolled)
    assert rolled.landed
    assert (declared.attacker, declared.target) == (rolled.attacker, rolled.target) == (blow.attacker, blow.target)
    assert declared.tick == rolled.tick == blow.tick
    body = w.get(blow.target, Anatomy).body
    loc = body.locations[body.location_index(blow.location)]
    part = body.parts[loc.part]
    zone = body.zones[part.zone]
    assert (part.name, zone.name) == (blow.part, blow.zone)
    assert zone.first <= blow.zone_number <= zone.last
    prot, injured = events[i + 1], events[i + 2]
    assert isinstance(prot, ProtectionApplied) and isinstance(injured, Injured)
    assert prot.target == injured.target == blow.target
    assert prot.location == injured.location == blow.location
    assert prot.effective_impact == max(0, blow.impact - prot.protection)
    assert injured.aspect == blow.aspect
    # Then the amputation test, the shock test, the fumble and the stumble tests, each only when it applies.
    j = i + 3
    tail = []
    while j < len(events) and isinstance(events[j], AFTER_INJURY):
        tail.append(events[j])
        j += 1
    kinds = [type(t).__name__ + (f":{t.mishap}" if isinstance(t, MishapTested) else "") for t in tail]
    rank = {"AmputationTested": 0, "ShockTested": 1, "MishapTested:fumble": 2, "MishapTested:stumble": 3}
    assert [rank[k] for k in kinds] == sorted({rank[k] for k in kinds}), kinds
    assert all(t.target == blow.target and t.tick == blow.tick for t in tail)
    shocked = [t for t in tail if isinstance(t, ShockTested)]
    if injured.level > 0 or injured.glancing:
        assert len(shocked) == 1
    else:
        assert not shocked and not tail  # no wound, no glance: nothing follows


def test_a_landed_blow_is_explained_in_order() -> None:
    seen = Counter()
    for scenario in SCENARIOS:
        for seed in range(3):
            w, events = run_log(scenario, seed)
            for i, ev in enumerate(events):
                if isinstance(ev, BlowLanded):
                    _check_landed_blow(w, events, i)
                    seen["blow"] += 1
                    nxt = events[i + 2]
                    seen["wound" if nxt.level else ("glance" if nxt.glancing else "nothing")] += 1
                elif isinstance(ev, AttackRolled):
                    follower = events[i + 1]
                    assert isinstance(follower, (BlowLanded, Missed))
                    if not ev.landed:
                        assert isinstance(follower, Missed) and follower.reason == "defended"
                    elif isinstance(follower, Missed):
                        assert follower.reason == "off the body"
                        seen["off"] += 1
                elif isinstance(ev, AttackDeclared):
                    assert isinstance(events[i + 1], AttackRolled)
            w.close()
    assert seen["blow"] > 100 and seen["wound"] and seen["glance"] and seen["nothing"]


def test_step_events_of_one_wounding_blow_in_order() -> None:
    """Spelled out once: declared, rolled (landed), landed, protection, injured, shock test."""
    for seed in range(20):
        w, events = run_log("duel", seed, ticks=30)
        for i, ev in enumerate(events):
            if isinstance(ev, Injured) and ev.level > 0 and i >= 4 and isinstance(events[i - 2], BlowLanded):
                names = [type(e).__name__ for e in events[i - 4:i + 2]]
                assert names == ["AttackDeclared", "AttackRolled", "BlowLanded", "ProtectionApplied", "Injured",
                                 "ShockTested"]
                w.close()
                return
        w.close()
    pytest.fail("no wounding blow in 20 duels")


# ---------------------------------------------------------------------------------------------- JSON lines


def test_jsonl_round_trip(tmp_path: Path) -> None:
    w, events = run_log("wolf_pack", seed=2, ticks=30)
    path = tmp_path / "log.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        count = write_jsonl(events, w.names, fh)
    assert count == len(events) > 0
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == count
    first_attack = next(json.loads(line) for line in lines if json.loads(line)["type"] == "AttackDeclared")
    assert first_attack["attacker_name"] == w.name_of(first_attack["attacker"])
    assert first_attack["target_name"] == w.name_of(first_attack["target"])
    back = read_jsonl(path)
    assert back == events
    assert [e.to_dict() for e in back] == [e.to_dict() for e in events]
    assert all(event_from_dict(e.to_dict()) == e for e in events)
    w.close()


def test_read_jsonl_names_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "StoodUp", "tick": 1, "time": 10.0, "entity": 2}\n\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 3"):
        read_jsonl(path)


def test_cli_run_writes_a_readable_log(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    result = CliRunner().invoke(app, ["run", "duel", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    events = read_jsonl(log)
    w = Sandbox.from_scenario("duel", seed=3)
    w.run()
    assert [e.to_dict() for e in events] == [e.to_dict() for e in w.events]
    w.close()
    lines = result.stdout.splitlines()
    blow_lines = [line for line in lines if line.startswith("tick")]
    assert len(blow_lines) == sum(isinstance(e, BlowLanded) for e in events) > 0
    assert any(line.split()[:1] == ["creature"] for line in lines)
    assert f"{len(events)} events written" in result.stdout
