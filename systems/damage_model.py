"""The damage-model interface and its registry.

A model decides what a landed attack does and what state that leaves. The shared loop (intent, movement, the
attack phase's turn order, the end of a fight) knows nothing else about it: it asks the model.

A model declares:

- its state: the components it adds to a creature (``state_types``), how they travel in a ``Creature`` record
  (``bind``), how a new creature gets them (``spawn_state``), how a save holds them (``dump_state``,
  ``load_state``);
- the loop's questions: what each part can do (``part_states``), how fast the creature walks (``speed_factor``),
  how hale it is (``health``, what the ``weakest`` policy compares); whether it can act is ``Condition.out``,
  which the model keeps current;
- its attack procedure (``attack``), applied at once, and a real blow struck from outside the loop (``strike``);
- the exact odds of such a blow against a creature as it is now (``preview``), which changes nothing;
- optionally, turns of its own a creature takes instead of fighting (``turn_action``, then ``act``: first aid, a
  healing item; ``turn_options`` lists every one a creature the game drives may choose), a turn it loses whatever
  it means to do (``turn_lost``), and the carried items it has rules for (``items``);
- whether a blow can reach a creature at all (``can_be_struck``: by default, whether its body has anything to
  strike);
- direct damage for set-up and tests (``inflict``), and settling its derived state after a hand edit
  (``settle``);
- its periodic processors (bleeding, recovery ...), by phase, and what happens when time jumps out of combat
  (``advance``);
- what a creature reads as (``readout``), how it came through an aftermath (``aftermath_row``) and its own
  invariants (``invariants``).

A model marks a dead creature with ``Condition.dead`` (``sandbox.systems.conditions.kill``) and one taken out of the
fight with ``Condition.out``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import ClassVar

import esper

from sandbox.components.body import BodyStructure
from sandbox.components.care import CarePolicy
from sandbox.components.codec import JSON, dump_fields
from sandbox.components.creature import CreatureDef
from sandbox.components.gear import ArmorPiece, StrikeMode
from sandbox.components.impairment import SOUND, Impairment
from sandbox.components.log import LogEntry
from sandbox.components.preview import OutcomePreview
from sandbox.components.readout import AftermathRow, PartReading, Readout
from sandbox.systems.context import TickContext, TurnAction
from sandbox.systems.creatures import Creature
from sandbox.systems.errors import SandboxError
from sandbox.systems.hit_location import called_target
from sandbox.systems.phases import Phase
from sandbox.systems.saved import StateError, typed_fields
from sandbox.systems.time_shift import TimeShift

__all__ = ["DAY", "DamageModel", "ModelError", "check_aim", "check_living", "get_model", "model_names", "register",
           "unregister"]

DAY = 86400.0


class ModelError(SandboxError):
    """A request a damage model cannot honour (an unknown location, a missing or bad option).

    The message names the bad value and the valid ones.
    """


def check_aim(body: BodyStructure, aim: str) -> tuple[int | None, int | None]:
    """The part, or the location, an aim names on ``body`` (``hit_location.called_target``), for a model's strike.

    Raises:
        ModelError: The body has no such part or location (the message names its parts).
    """
    try:
        return called_target(body, aim)
    except ValueError as exc:
        raise ModelError(str(exc)) from None


def check_living(*creatures: Creature | None) -> None:
    """Refuse a blow struck by or at a dead creature (``None``: no attacker, a blow struck directly).

    Raises:
        ModelError: One of them is dead.
    """
    for who in creatures:
        if who is not None and who.condition.dead:
            raise ModelError(f"{who.name} is dead: a blow needs a living attacker and target")


class DamageModel:
    """Base of every damage model (subclass it and ``register`` the subclass).

    Attributes:
        name: The model's name (``anatomy``, ``severity`` ...).
        tables: The model's rule tables (from ``configs/models/<name>.toml``), or ``None``.
        own_turns: The model chooses turns of its own (it overrides ``turn_action`` and ``act``); when false the AI
            never asks, and a tick costs nothing more.
    """

    name: ClassVar[str] = ""
    own_turns: ClassVar[bool] = False
    readout_counts_down: ClassVar[bool] = True
    """A living hurt creature's readout may change as the clock moves with nothing logged (a stun's turns left, a
    death clock's rounds); ``False`` when only a logged event changes a readout (the readout cache then keeps it)."""

    def __init__(self, tables: object = None) -> None:
        self.tables = tables
        self._sound: dict[str, tuple[BodyStructure, tuple[Impairment, ...]]] = {}
        self._strikable: dict[str, tuple[BodyStructure, bool]] = {}

    # ------------------------------------------------------------------ state

    def state_types(self) -> tuple[type, ...]:
        """The component types this model adds to every creature (saved and restored with the world)."""
        return ()

    def bind(self, components: Sequence[object]) -> object:
        """The model's state as a ``Creature`` record carries it, from its components (in ``state_types`` order).

        By default the one component itself, ``None`` for none, a tuple for several.
        """
        if not components:
            return None
        return components[0] if len(components) == 1 else tuple(components)

    def spawn_state(self, kind: CreatureDef, body: BodyStructure, attributes: Mapping[str, int],
                    armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The model's own components for a new creature of ``kind`` (``attributes`` override its config).

        Raises:
            ModelError: The creature cannot exist under this model (a missing table entry).
        """
        return ()

    def dump_state(self, creature: Creature) -> dict[str, JSON]:
        """The creature's model state as JSON, by component type name (what a save holds)."""
        types = self.state_types()
        state = creature.state
        components = (state,) if len(types) == 1 else tuple(state) if isinstance(state, tuple) else ()
        return {type(c).__name__: dump_fields(c) for c in components}

    def load_state(self, data: Mapping[str, JSON], kind: CreatureDef, body: BodyStructure,
                   armor: Sequence[ArmorPiece]) -> tuple[object, ...]:
        """The model's components from ``dump_state`` output.

        Every field is read as its declared type, then the model's ``check_state`` refuses what the model could not
        have reached.

        Raises:
            ModelError: State of a type the model does not use, or a component missing.
            StateError: A field missing, unknown or of the wrong type, or a value the model could not have reached
                (the message names the key).
        """
        by_name = {t.__name__: t for t in self.state_types()}
        unknown = sorted(set(data) - set(by_name))
        if unknown:
            raise ModelError(f"state {', '.join(map(repr, unknown))}, which the {self.name!r} model does not use")
        missing = sorted(set(by_name) - set(data))
        if missing:
            raise ModelError(f"no {', '.join(map(repr, missing))} state, which the {self.name!r} model needs")
        out = []
        for t in self.state_types():
            values = data[t.__name__]
            if not isinstance(values, dict):
                raise ModelError(f"{t.__name__} state is not a table")
            out.append(t(**typed_fields(t, values, t.__name__)))
        for component in out:
            try:
                self.check_state(component, kind, body, armor)
            except AssertionError:
                raise StateError(f"{type(component).__name__}: a state of a model built with other tables") from None
        return tuple(out)

    def check_state(self, component: object, kind: CreatureDef, body: BodyStructure,
                    armor: Sequence[ArmorPiece]) -> None:
        """Refuse a saved state component the model could not have reached (the default: every value it can type).

        Args:
            component: One of the model's state components, as read from a save.
            kind: The creature.
            body: Its body.
            armor: What it wears.

        Raises:
            StateError: The first value out of reach, naming its key.
        """

    def shift_times(self, components: Sequence[object], shift: TimeShift) -> tuple[object, ...]:
        """Copies of the model's state components (``state_types`` order) with every game time moved by ``shift``.

        What carries a creature into a world whose clock reads otherwise (``Sandbox.add_creature``): each model
        knows its own time fields and moves each by what it means (``TimeShift.due``, ``past``, ``tick``). The
        components given are left as they were. The default, for a model whose state holds no game time: copies
        unchanged.
        """
        return tuple(copy.deepcopy(c) for c in components)

    # ------------------------------------------------------------------ the shared loop's questions

    def part_states(self, creature: Creature) -> tuple[Impairment, ...]:
        """What each part of the creature can do now (which limbs can wield a strike mode; how the walk slows).

        The default: every part sound.
        """
        body = creature.anatomy.body
        entry = self._sound.get(body.id)
        if entry is None or entry[0] is not body:
            entry = self._sound[body.id] = (body, tuple(SOUND for _ in body.parts))
        return entry[1]

    def speed_factor(self, creature: Creature, ctx: TickContext) -> float:
        """The model's own slowing of the creature's walk (1.0: none).

        Impaired mobility parts slow it as well, through ``part_states``.
        """
        return 1.0

    def health(self, creature: Creature, ctx: TickContext) -> int:
        """How hale the creature is, higher is haler (what the ``weakest`` target policy compares)."""
        return self.readout(creature, ctx).health

    def items(self) -> Collection[str]:
        """The carried items (``configs/items/``) this model has rules for.

        A creature carrying any other cannot be spawned under it (the default: none).
        """
        return ()

    def turn_action(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                    ctx: TickContext, *, threatened: bool = False) -> TurnAction | None:
        """A turn of the model's own the creature takes instead of fighting this tick, or ``None`` to fight as usual.

        The default implementation always returns ``None``; a model that overrides it also overrides ``act`` and sets
        ``own_turns``.

        The AI asks every creature able to act, after it has stood up and re-armed; ``threatened`` says whether an
        enemy is within its reach (one its strike modes could hit this turn), when most turns of a model's own are
        not for taking.

        Args:
            creature: The creature deciding.
            near: ``near(radius)``: its living team-mates within ``radius`` metres, itself and the downed included.
            ctx: The world.
            threatened: An enemy able to act is within the creature's reach.
        """
        return None

    def turn_options(self, creature: Creature, near: Callable[[float], Sequence[Creature]],
                     ctx: TickContext, *, threatened: bool = False) -> list[TurnAction]:
        """Every turn of the model's own the creature could take now (what a creature the game drives may choose).

        Each is one ``act`` would take as it stands. The default: the one ``turn_action`` chooses, if any; a model
        whose rules allow several (a patient, an item, to choose from) lists them all. The arguments are
        ``turn_action``'s.
        """
        action = self.turn_action(creature, near, ctx, threatened=threatened)
        return [action] if action is not None else []

    def turn_lost(self, creature: Creature) -> str:
        """Why the creature loses its next turn whatever it means to do, in words ("" when it does not).

        The default: it never does (severity's stun takes a turn).
        """
        return ""

    def can_be_struck(self, creature: Creature) -> bool:
        """Whether any blow can reach the creature at all.

        The default asks its body: one with nothing to strike (an incorporeal spirit: no zone that owns zone numbers
        and holds a hittable part) is missed by every blow, as hit location finds no place to land.
        """
        body = creature.anatomy.body
        entry = self._strikable.get(body.id)
        if entry is None or entry[0] is not body:
            entry = self._strikable[body.id] = (body, not body.incorporeal)
        return entry[1]

    def act(self, creature: Creature, action: TurnAction, ctx: TickContext) -> None:
        """Take a turn ``turn_action`` chose.

        In the ATTACK phase, in initiative order; the patient may have moved or died since: the model checks again.

        Raises:
            NotImplementedError: The model chooses no turns of its own.
        """
        raise NotImplementedError

    # ------------------------------------------------------------------ the tick

    def processors(self, ctx: TickContext) -> list[tuple[Phase, esper.Processor]]:
        """The model's processors besides the shared loop, with their phases."""
        return []

    def attack(self, attacker: Creature, target: Creature, mode: StrikeMode, parts: tuple[int, ...],
               ctx: TickContext) -> LogEntry | None:
        """Resolve one attack of ``attacker`` on ``target`` with ``mode`` and apply what it does at once.

        ``mode`` is wielded by ``parts``. Append its record to ``ctx.log`` and return it (``None``: nothing was
        attempted).
        """
        raise NotImplementedError

    def strike(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
               attacker: Creature | None = None) -> None:
        """A real blow from outside the loop (``Sandbox.strike``), through the model's whole procedure.

        With ``attacker``, its attack as the loop would make it (its roll may miss). Without, the blow lands (no
        attack roll) and the mode's own numbers decide what it does.

        Args:
            target: Who is struck.
            mode: The strike mode.
            aim: ``unaimed`` or the name of a part of the target's body.
            ctx: The world.
            attacker: Who strikes, or ``None``.

        Raises:
            ModelError: An aim the target's body does not have.
        """
        raise NotImplementedError

    def preview(self, target: Creature, mode: StrikeMode, aim: str, ctx: TickContext,
                attacker: Creature | None = None) -> OutcomePreview:
        """The exact odds of ``strike(target, mode, aim, ctx, attacker)``, against the target as it is now.

        Every roll the strike would make is summed over its faces (``sandbox.systems.distributions``), never
        sampled; nothing in the world changes and no stream is drawn from. Every model implements it: a sixth
        model's strike has odds too.

        Args:
            target: Who would be struck.
            mode: The strike mode.
            aim: ``unaimed`` or the name of a part (or location) of the target's body.
            ctx: The world.
            attacker: Who would strike, or ``None`` (a blow that lands, as ``strike`` without one).

        Raises:
            ModelError: What ``strike`` would refuse: an aim the target's body does not have, a dead attacker or
                target, a mode the model has no numbers for.
        """
        raise NotImplementedError(f"the {self.name!r} model gives no preview")

    def inflict(self, creature: Creature, ctx: TickContext, **options: object) -> None:
        """Apply damage directly (scenario set-up and tests), as the model applies a landed blow.

        Raises:
            ModelError: Options the model does not take, or bad values.
        """
        raise NotImplementedError

    def settle(self, creature: Creature, ctx: TickContext) -> None:
        """Recompute what the model derives from its state (after its components were edited by hand)."""

    # ------------------------------------------------------------------ reading

    def readout(self, creature: Creature, ctx: TickContext) -> Readout:
        """What the creature's state reads as."""
        raise NotImplementedError

    def standing(self, creature: Creature, ctx: TickContext) -> tuple[bool, bool, str]:
        """The creature's ``readout`` in brief: (alive, can act, label), as the readout gives them.

        A lab asks for them at the end of every run; a model whose readout is costly reads them straight from its state.
        """
        reading = self.readout(creature, ctx)
        return reading.alive, reading.can_act, reading.label

    def part_readings(self, creature: Creature) -> tuple[PartReading, ...]:
        """Each part's state in names (from ``part_states``)."""
        body = creature.anatomy.body
        return tuple(PartReading(p.name, imp.penalty, imp.unusable)
                     for p, imp in zip(body.parts, self.part_states(creature), strict=True))

    def aftermath_row(self, creature: Creature, ctx: TickContext, start: float,
                      died_at: float | None) -> AftermathRow:
        """How the creature came through the time since ``start`` (``died_at``: when it died, if it did)."""
        r = self.readout(creature, ctx)
        cond = creature.condition
        died_day = None if died_at is None else max(0.0, (died_at - start) / DAY)
        still_open = sum(1 for w in r.wounds if not w.treated)
        healed = 0.0 if not still_open and r.alive else None
        return AftermathRow(creature.name, r.alive, cond.cause, died_day, healed, still_open, {}, r.health,
                            r.health_unit, r.label)

    def invariants(self, creature: Creature, ctx: TickContext) -> list[str]:
        """Breaches of the model's own invariants for the creature (``sandbox.systems.invariants``); none by default."""
        return []

    # ------------------------------------------------------------------ out of combat

    def advance(self, ctx: TickContext, seconds: float, care: CarePolicy) -> None:
        """Move game time on by ``seconds`` out of combat (rest, first aid, healing, as the model has them).

        The default only moves the clock. Every model's ``advance`` is split-proof: two calls of ``a`` and ``b``
        seconds give the events of one call of ``a + b``.
        """
        ctx.clock.seconds += seconds


_REGISTRY: dict[str, type[DamageModel]] = {}


def register(cls: type[DamageModel]) -> type[DamageModel]:
    """Register a model class under its ``name`` (usable as a class decorator)."""
    if not cls.name:
        raise ValueError("a damage model needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove a model from the registry (an embedding game's or a test's own model)."""
    _REGISTRY.pop(name, None)


def model_names() -> tuple[str, ...]:
    """Every registered model's name, in registration order."""
    return tuple(_REGISTRY)


def get_model(name: str) -> type[DamageModel]:
    """The model class called ``name``; raises ``KeyError`` naming the known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown damage model {name!r}; known: {', '.join(_REGISTRY)}") from None
