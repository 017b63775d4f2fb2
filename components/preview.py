"""The outcome preview: the exact odds of one attack against a target as it is wounded now, under any model.

``Sandbox.preview`` fills one from its damage model's ``DamageModel.preview``. Every probability is of the whole
attack (the attack roll included), so ``levels`` sums to ``land`` and ``1 - land`` is the chance the attack does
nothing to the target. The numbers are exact: each model sums over every face of the dice it would roll, never
samples.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Chance", "OutcomePreview"]


@dataclass(frozen=True, slots=True)
class Chance:
    """One outcome and its probability.

    Attributes:
        name: The outcome in the model's words ("S3", "weaken", "flesh", "health 4", "wounded").
        p: Its probability, of the whole attack.
    """

    name: str
    p: float


@dataclass(frozen=True, slots=True)
class OutcomePreview:
    """What one attack of ``attacker`` on ``target`` with ``mode`` and ``aim`` would do, exactly.

    Attributes:
        model: The damage model ("anatomy" ...).
        attacker: The attacker's name ("" for a blow struck directly, which needs no attack roll).
        target: The target's name.
        mode: The strike mode's id ("broadsword.cut").
        aim: ``unaimed`` or the part (or location) aimed at.
        hit: The chance the attack roll succeeds (the opposed d100 test, the d20 against Defense; 1 when struck
            directly).
        land: The chance the blow reaches the target and takes effect: it hit, and found something to strike.
        locations: Per location of the target's body the chance it is struck, in the body's order (locations with
            no chance left out); ``None`` under a model that places no blow at a location.
        locations_note: Why ``locations`` is ``None`` ("" when it is not).
        level_kind: What ``levels`` counts, in the model's words ("injury level", "wound effect", "depth",
            "health left", "status").
        levels: Each outcome level of a landed blow in the model's own terms, with its chance; they sum to
            ``land``.
        sever: The chance the blow severs a location (or loses a part for good); ``None`` under a model with no
            amputation.
        sever_note: Why ``sever`` is ``None`` ("" when it is not).
        kill: The chance this blow takes the target to dead.
        down: The chance the target cannot act after this blow (out of the fight, or dead).
        down_now: The target cannot act already (so ``down`` is 1).
        tables: Further distributions in the model's terms, by name (the shock state the blow leaves, the
            Severity, the injury ...), each of the whole attack.
        notes: What the numbers leave out or assume, in words.
    """

    model: str
    attacker: str
    target: str
    mode: str
    aim: str
    hit: float
    land: float
    locations: tuple[Chance, ...] | None
    locations_note: str
    level_kind: str
    levels: tuple[Chance, ...]
    sever: float | None
    sever_note: str
    kill: float
    down: float
    down_now: bool
    tables: tuple[tuple[str, tuple[Chance, ...]], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def miss(self) -> float:
        """The chance the attack does nothing to the target (defended, missed, or off the body)."""
        return max(0.0, 1.0 - self.land)

    def level(self, name: str) -> float:
        """The chance of the outcome level ``name`` (0 when the blow cannot reach it)."""
        return sum(c.p for c in self.levels if c.name == name)

    def location(self, name: str) -> float:
        """The chance location ``name`` is struck (0 under a model with no locations, or where it cannot be)."""
        return sum(c.p for c in self.locations or () if c.name == name)

    def table(self, name: str) -> tuple[Chance, ...]:
        """The further distribution called ``name``.

        Raises:
            KeyError: The preview has no such table (the message names the ones it has).
        """
        for key, rows in self.tables:
            if key == name:
                return rows
        raise KeyError(f"no table {name!r}; this preview has {', '.join(k for k, _ in self.tables) or 'none'}")
