"""Events as a stream (issue 32): ``world.on(EventType, handler)``, called as events happen and in log order, on the
sandbox's route and a game's own world; the model-agnostic ``WentDown`` / ``GotUp`` / ``Died``; and each landed blow's
explanation, the viewer's lines, from its event."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import esper
import pytest

from sandbox.components.events import (
    AttackDeclared,
    BlowLanded,
    DamageDealt,
    Died,
    Event,
    GotUp,
    Injured,
    Lifecycle,
    ModelStateChanged,
    ShockChanged,
    WentDown,
)
from sandbox.components.log import LogEntry
from sandbox.components.readout import Readout
from sandbox.config import default_catalog
from sandbox.eventlog import expand_log
from sandbox.models import build_model
from sandbox.systems import install
from sandbox.systems.errors import SandboxError
from sandbox.systems.spawning import creature_components
from sandbox.systems.stream import SubscriptionError
from sandbox.viewer.entries import LogReader
from sandbox.world import Sandbox

MODELS = ("anatomy", "severity", "depth", "strength", "status")
LIFECYCLE_ONLY = (WentDown, GotUp)
"""Sent to subscribers, never logged."""


def skirmish(model: str, seed: int = 3, check_invariants: bool | None = None) -> Sandbox:
    return Sandbox.from_scenario("skirmish", seed=seed, model=model, check_invariants=check_invariants)


def logged(events: list[Event]) -> list[Event]:
    """What of a subscriber's events is in the log (all but ``WentDown`` and ``GotUp``)."""
    return [e for e in events if not isinstance(e, LIFECYCLE_ONLY)]


@pytest.fixture
def world() -> Iterator[Sandbox]:
    w = skirmish("anatomy")
    yield w
    w.close()


# ---------------------------------------------------------------------------------------------- order and timing


@pytest.mark.parametrize("model", MODELS)
def test_a_handler_of_every_event_gets_the_log_in_order_as_it_happens(model: str) -> None:
    w = skirmish(model)
    got: list[tuple[int, Event]] = []
    w.on(Event, lambda e: got.append((w.tick, e)))
    for _ in range(12):
        step = w.step()
        # Delivered inside step, tick by tick: by the time step returns, the tick's events are all in.
        assert logged([e for tick, e in got if tick == w.tick and e.tick == w.tick]) == step
    w.strike("Blue Spear", "broadsword.cut")
    w.advance(hours=6)
    assert logged([e for _, e in got]) == w.events
    assert all(tick == e.tick for tick, e in got)  # never from a later tick: not a poll after the fact
    w.close()


@pytest.mark.parametrize("model", MODELS)
def test_subscribing_changes_nothing_in_the_fight_nor_in_the_log(model: str) -> None:
    quiet, heard = skirmish(model), skirmish(model)
    heard.on(Event, lambda e: None)
    heard.on(Lifecycle, lambda e: None)
    quiet.run(60)
    heard.run(60)
    quiet.advance(hours=24)
    heard.advance(hours=24)
    assert [e.to_dict() for e in heard.events] == [e.to_dict() for e in quiet.events]
    assert not any(isinstance(e, LIFECYCLE_ONLY) for e in heard.events)
    quiet.close()
    heard.close()


def test_subscribing_to_a_base_class_receives_its_subclasses(world: Sandbox) -> None:
    lifecycle: list[Lifecycle] = []
    deaths: list[Died] = []
    down: list[WentDown] = []
    world.on(Lifecycle, lifecycle.append)
    world.on(Died, deaths.append)
    world.on(WentDown, down.append)
    world.run(60)
    world.advance(hours=48)
    assert {type(e) for e in lifecycle} == {WentDown, GotUp, Died}
    assert [e for e in lifecycle if isinstance(e, Died)] == deaths == [e for e in world.events if isinstance(e, Died)]
    assert [e for e in lifecycle if isinstance(e, WentDown)] == down
    assert deaths and down


def test_a_subscription_hears_what_happens_after_it_and_stops_when_cancelled(world: Sandbox) -> None:
    world.step()
    before = len(world.events)
    got: list[Event] = []
    sub = world.on(Event, got.append)
    assert sub.active
    world.step()
    world.step()
    assert got == world.events[before:]
    sub.cancel()
    sub.cancel()  # twice does nothing
    assert not sub.active
    world.step()
    assert got == world.events[before:len(got) + before]
    assert len(world.events) > before + len(got)
    with world.on(ShockChanged, got.append) as scoped:
        world.run(40)
    assert not scoped.active
    length = len(got)
    world.run(20)
    assert len(got) == length


def test_a_handler_sees_the_world_as_the_tick_left_it(world: Sandbox) -> None:
    seen: list[tuple[bool, bool]] = []
    world.on(WentDown, lambda e: seen.append((world.readout(e.entity).can_act, world.readout(e.entity).alive)))
    world.run(30)
    assert seen and all(not can_act for can_act, _ in seen)


def test_a_handler_may_change_the_world_and_what_that_logs_follows_in_order(world: Sandbox) -> None:
    got: list[Event] = []

    def finish(event: WentDown) -> None:
        if not world.readout(event.entity).alive:
            return
        world.strike(event.entity, "battleaxe.cut")

    world.on(WentDown, finish)
    world.on(Event, got.append)
    world.run(30)
    assert logged(got) == world.events


# ---------------------------------------------------------------------------------------------- the own-world route


def test_the_own_world_route_delivers_as_the_ticks_run() -> None:
    catalog = default_catalog()
    ctx = install(build_model("severity", catalog), catalog, seed=3, world="stream-test")
    try:
        with ctx.active():
            for name, team, x, weapon in (("Gawain", "A", 0.0, "mace"), ("Knight", "B", 2.0, "battleaxe"),
                                          ("Squire", "A", 0.0, "broadsword"), ("Page", "B", 2.0, "spear")):
                esper.create_entity(*creature_components(catalog, ctx.model, "human", name, team=team,
                                                         position=(x, 0.0), weapons=[weapon]))
        got: list[tuple[int, Event]] = []
        down: list[Lifecycle] = []
        ctx.stream.on(Event, lambda e: got.append((ctx.clock.tick, e)))
        ctx.stream.on(Lifecycle, down.append)
        for _ in range(30):
            ctx.process()  # whatever world is current (the default one here)
            # By the end of each tick, everything logged so far was delivered, during that tick.
            assert logged([e for _, e in got]) == list(expand_log(ctx.log))
            assert all(tick == e.tick for tick, e in got)
        assert any(isinstance(e, WentDown) for e in down) and any(isinstance(e, Died) for e in down)
        # A model called directly between ticks: delivered at once on flush() (else at the next tick's start).
        living = next(c for c in ctx.creatures().values() if not c.condition.dead)
        mark = len(got)
        ctx.model.inflict(living, ctx, damage=1)
        assert len(got) == mark
        ctx.stream.flush()
        assert len(got) > mark and logged([e for _, e in got]) == list(expand_log(ctx.log))
    finally:
        esper.delete_world("stream-test")


# ---------------------------------------------------------------------------------------------- lifecycle events


@pytest.mark.parametrize("model", MODELS)
def test_went_down_got_up_and_died_match_the_readouts_before_and_after(model: str) -> None:
    """Under every model, a fight then two days' rest: each call's lifecycle events are exactly the creatures whose
    readout went from able to not (alive), back, or to dead, between before and after the call."""
    w = skirmish(model)
    heard: list[Lifecycle] = []
    w.on(Lifecycle, heard.append)
    names = list(w.creatures())
    counts = {WentDown: 0, GotUp: 0, Died: 0}
    moves = {WentDown: ("able", "out"), GotUp: ("out", "able"), Died: ("able", "dead")}

    def state(reading: Readout) -> str:
        return "dead" if not reading.alive else "able" if reading.can_act else "out"

    def call(run: Callable[[], object]) -> None:
        before = {e: state(w.readout(e)) for e in names}
        mark = len(heard)
        start_tick, start_time = w.tick, w.time
        run()
        after = {e: state(w.readout(e)) for e in names}
        now = dict(before)
        for event in heard[mark:]:
            counts[type(event)] += 1
            assert event.cause
            assert start_tick <= event.tick <= w.tick and start_time <= event.time <= w.time
            frm, to = moves[type(event)]
            # Each event is a step its creature really took: from the state it was in, to the next.
            assert now[event.entity] == frm or (isinstance(event, Died) and now[event.entity] == "out"), event
            now[event.entity] = to
            if isinstance(event, WentDown):
                assert event.shock in ("incapacitated", "unconscious", "dying")
            elif isinstance(event, GotUp):
                assert event.shock not in ("incapacitated", "unconscious", "dying")
        assert now == after  # and the steps lead exactly to the readouts after the call

    for _ in range(60):
        call(w.step)
        if len(w.able_teams()) <= 1:
            break
    for _ in range(48):
        call(lambda: w.advance(hours=1))
    assert all(counts.values()), counts  # the seed shows all three under this model
    w.close()


def test_went_down_takes_its_place_right_after_the_blow_that_felled() -> None:
    w = skirmish("anatomy")
    stream: list[Event] = []
    w.on(Event, stream.append)
    w.run(60)
    downs = [i for i, e in enumerate(stream) if isinstance(e, WentDown)]
    assert downs
    for i in downs:
        # After the steps of the attack on it (and what that attack caused), before the next attack of the tick.
        opened = max(j for j in range(i) if isinstance(stream[j], AttackDeclared))
        declared = stream[opened]
        assert isinstance(declared, AttackDeclared)
        assert declared.target == stream[i].entity and declared.tick == stream[i].tick
        assert any(isinstance(e, ShockChanged) and e.entity == declared.target for e in stream[opened:i])
    w.close()


def test_a_creature_spawned_after_subscribing_is_watched_too() -> None:
    w = skirmish("anatomy", seed=2)
    down: list[WentDown] = []
    w.on(WentDown, down.append)
    late = w.spawn("human", name="Late", position=(50.0, 50.0), armor=[])
    assert not down
    w.strike(late, "battleaxe.cut", aim="Head")  # the first blow it takes fells it
    assert w.readout(late).alive and not w.readout(late).can_act
    assert [(e.entity, e.tick, e.cause) for e in down] == [(late, w.tick, w.readout(late).label)]
    w.close()


# ---------------------------------------------------------------------------------------------- bad subscriptions


@pytest.mark.parametrize("kind", [int, str, LogEntry, "Died", None, Died(0, 0.0, 1, "x")])
def test_a_handler_for_a_type_that_is_not_an_event_is_refused(world: Sandbox, kind: object) -> None:
    before = len(world.log)
    with pytest.raises(SubscriptionError, match="event type") as raised:
        world.on(kind, print)  # type: ignore[arg-type]
    assert isinstance(raised.value, SandboxError)
    assert not world.ctx.stream.subscribed and len(world.log) == before


def test_a_handler_that_is_not_callable_is_refused(world: Sandbox) -> None:
    with pytest.raises(SubscriptionError, match="callable"):
        world.on(Died, "print")  # type: ignore[arg-type]
    assert not world.ctx.stream.subscribed


def test_a_handler_that_raises_propagates_after_the_tick_and_the_others_get_every_event(world: Sandbox) -> None:
    class Boom(Exception):
        pass

    others: list[Event] = []
    raised: list[Event] = []

    def explode(event: Event) -> None:
        raised.append(event)
        if len(raised) in (1, 2):
            raise Boom(f"handler failed on {type(event).__name__}")

    world.on(Event, explode)
    world.on(Event, others.append)
    ticks = 0
    with pytest.raises(Boom) as error:
        while ticks < 60:
            world.step()
            ticks += 1
    assert any("a later handler" in note for note in getattr(error.value, "__notes__", []))
    # The tick ran whole; every handler got every event of it; the next call goes on from there.
    assert world.tick == ticks + 1
    assert logged(others) == world.events == logged(raised)
    world.step()
    assert logged(others) == world.events


# ---------------------------------------------------------------------------------------------- lazy expansion


def test_records_are_expanded_only_for_a_subscriber_to_a_type_they_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox.systems.models.anatomy.record import AttackRecord

    expanded = 0
    original = AttackRecord.events

    def counting(self: AttackRecord) -> list[Event]:
        nonlocal expanded
        expanded += 1
        return original(self)

    monkeypatch.setattr(AttackRecord, "events", counting)
    w = skirmish("anatomy", check_invariants=False)  # the invariant checks read every record's events
    w.on(Died, lambda e: None)
    w.on(Lifecycle, lambda e: None)
    w.on(ShockChanged, lambda e: None)
    w.run(20)
    assert expanded == 0
    w.on(BlowLanded, lambda e: None)
    w.run(5)
    assert expanded > 0
    w.close()


@pytest.mark.parametrize("model", MODELS)
def test_each_record_declares_every_event_type_it_expands_to(model: str) -> None:
    w = skirmish(model)
    w.run(60)
    w.advance(hours=12)
    records = [entry for entry in w.log if not isinstance(entry, Event)]
    assert records
    for record in records:
        assert {type(e) for e in record.events()} <= set(type(record).event_types)  # type: ignore[attr-defined]
    w.close()


# ---------------------------------------------------------------------------------------------- explanations


def landed(event: Event) -> bool:
    return isinstance(event, BlowLanded | DamageDealt) or (isinstance(event, Injured) and event.level > 0)


def viewer_lines(log: list[LogEntry], names: dict[int, str]) -> dict[int, list[str]]:
    """What the viewer's "attack explained" shows, by the id of each of the attack's step events' entry."""
    reader = LogReader()
    reader.read(log)
    reader.finish()
    return {id(attack.entry): attack.explain(names) for attack in reader.attacks}


@pytest.mark.parametrize("model", MODELS)
def test_a_landed_blows_explanation_is_what_the_viewer_shows(model: str, tmp_path: Path) -> None:
    w = skirmish(model)
    sent: list[tuple[Event, list[str]]] = []
    w.on(BlowLanded, lambda e: sent.append((e, w.explain(e))))
    w.on(DamageDealt, lambda e: sent.append((e, w.explain(e))))
    w.run(30)
    names = w.names
    shown = viewer_lines(w.log, names)
    blows = 0
    for entry in w.log:
        if isinstance(entry, Event) or not entry.struck:  # type: ignore[attr-defined]
            continue
        for event in entry.events():
            if landed(event):
                assert w.explain(event) == shown[id(entry)]
                blows += 1
    assert blows
    # From a handler, as the blow is delivered: the same lines (and the lines of the blow, not of an equal one).
    assert sent and all(lines == w.explain(event) for event, lines in sent)
    # A world loaded from a save holds typed events only: the same lines from its events.
    w.save(tmp_path / "w.json")
    loaded = Sandbox.load(tmp_path / "w.json")
    reader = LogReader()
    reader.read(loaded.log)
    reader.finish()
    steps = {id(step): attack.explain(names) for attack in reader.attacks for step in attack.entry.events()}
    typed = [event for event in loaded.log if isinstance(event, Event) and landed(event)]
    assert len(typed) == blows
    for event in typed:
        assert loaded.explain(event) == steps[id(event)]  # its typed steps, as the viewer explains a save
    loaded.close()
    w.close()


def test_an_explanation_says_what_followed_the_blow(world: Sandbox) -> None:
    sent: list[list[str]] = []
    world.on(ShockChanged, lambda e: None)
    world.on(Injured, lambda e: sent.append(world.explain(e)) if e.level > 0 else None)
    world.run(20)
    assert any(lines[-1].startswith("Then: ") and "now " in lines[-1] for lines in sent)
    assert all(lines[0].startswith("Tick ") for lines in sent)


def test_an_event_of_no_attack_explains_itself(world: Sandbox) -> None:
    deaths: list[Died] = []
    down: list[WentDown] = []
    world.on(Died, deaths.append)
    world.on(WentDown, down.append)
    world.run(60)
    world.advance(hours=24)
    names = world.names
    assert deaths and down
    assert world.explain(deaths[-1]) == [deaths[-1].describe(names)]
    assert world.explain(down[0]) == [f"{names[down[0].entity]} goes down ({down[0].cause})"]
    with pytest.raises(SandboxError, match="takes an event"):
        world.explain("a blow")  # type: ignore[arg-type]


def test_model_state_events_of_a_point_model_record_explain_as_its_attack() -> None:
    w = skirmish("depth")
    w.run(40)
    shown = viewer_lines(w.log, w.names)
    found = 0
    for entry in w.log:
        if isinstance(entry, Event):
            continue
        for event in entry.events():
            if isinstance(event, ModelStateChanged):
                assert w.explain(event) == shown[id(entry)]
                found += 1
    assert found
    w.close()
