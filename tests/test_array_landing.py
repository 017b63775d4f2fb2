"""The array engine's compiled walk of a tick's attacks (``sandbox.systems.models.anatomy.arrays.landing``), on
hand-made arrays: each attack in initiative order against its target as the earlier ones left it, as the esper engine's
attack processor takes them one at a time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sandbox.components.rules import ShockState, TestResult
from sandbox.systems.models.anatomy.arrays.landing import FELL_SHOCKED, KILLED_BY_BLOW, KILLED_BY_SHOCK, walk_attacks

MS, CS, MF = int(TestResult.MS), int(TestResult.CS), int(TestResult.MF)
STUNNED, INCAP, DEAD = int(ShockState.STUNNED), int(ShockState.INCAPACITATED), int(ShockState.DEAD)
SWORD = 5


@dataclass
class Tick:
    """Three creatures (0, 1, 2) of one body with two locations, each its own part; wounds table of 16."""

    creatures: int = 3
    attacks: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.creatures
        self.shock = np.zeros(n, dtype=np.int64)
        self.since = np.zeros(n, dtype=np.int64)
        self.retest_at = np.full(n, -1.0)
        self.cause_location = np.full(n, -1, dtype=np.int64)
        self.cause_level = np.zeros(n, dtype=np.int64)
        self.out, self.dead, self.prone, self.reeling, self.dirty = (np.zeros(n, dtype=np.bool_) for _ in range(5))
        self.holding = np.full((n, 2), -1, dtype=np.int64)
        self.totals = np.zeros((n, 3), dtype=np.int64)
        self.worst = np.full((n, 2), -1, dtype=np.int64)
        self.severed = np.zeros((n, 2), dtype=np.bool_)
        self.lost = np.zeros((n, 2), dtype=np.bool_)
        self.w_int = [np.zeros(16, dtype=np.int64) for _ in range(5)]  # owner, location, part, level, aspect
        self.w_bleeder = np.zeros(16, dtype=np.bool_)
        self.w_times = [np.zeros(16) for _ in range(2)]  # received, next bleed
        self.w_compounded = np.zeros(16, dtype=np.int64)
        self.wounds = 0

    def attack(self, attacker: int, target: int, *, result: int = CS, defence: int = MF, natural: bool = False,
               missed: bool = False, location: int = 0, level: int = 1, bleeder: bool = False, severs: bool = False,
               fumble: int = 0, stumble: int = 0, offered: int = 0, kills: bool = False) -> None:
        self.attacks.append(dict(a=attacker, t=target, natural=natural, result=result, defence=defence,
                                 missed=missed, location=location, level=level, bleeder=bleeder, severs=severs,
                                 fumble=fumble, stumble=stumble, offered=offered, kills=kills))

    def walk(self) -> dict[str, Any]:
        def column(key: str, dtype: Any) -> np.ndarray:
            return np.asarray([a[key] for a in self.attacks], dtype=dtype)

        n = len(self.attacks)
        out = dict(landed=np.zeros(n, dtype=np.int64), defence=np.zeros(n, dtype=np.int64),
                   compound=np.zeros(n, dtype=np.bool_), before=np.zeros(n, dtype=np.int64),
                   after=np.zeros(n, dtype=np.int64), fell=np.zeros(n, dtype=np.int64),
                   killed=np.zeros(n, dtype=np.int64), touched=np.zeros(2 * n, dtype=np.int64),
                   drops=np.zeros((2 * n, 3), dtype=np.int64))
        i64, b = np.int64, np.bool_
        landed, self.wounds, touched, drops = walk_attacks(
            column("a", i64), column("t", i64), column("natural", b), column("result", i64), column("defence", i64),
            column("missed", b), column("location", i64), column("level", i64), column("bleeder", b),
            column("severs", b), column("fumble", i64), column("stumble", i64), column("offered", i64),
            column("kills", b), np.zeros(n, dtype=i64), np.zeros(self.creatures, dtype=i64),
            np.asarray([[0, 1]], dtype=i64),
            self.shock, self.since, self.retest_at, self.cause_location, self.cause_level, self.out, self.dead,
            self.prone, self.reeling, self.holding, self.totals, self.worst, self.severed, self.lost, self.dirty,
            *self.w_int, self.w_bleeder, *self.w_times, self.w_compounded, self.wounds,
            7, 70.0, 10.0, 60.0, 3600.0, 1, False, *out.values())
        out["landed"] = out["landed"][:landed]
        out["touched"] = out["touched"][:touched]
        out["drops"] = out["drops"][:drops]
        return out


def test_a_creature_felled_earlier_in_the_tick_strikes_no_more() -> None:
    tick = Tick()
    tick.attack(0, 1, kills=True)
    tick.attack(1, 0)  # 1 is dead by its turn
    tick.attack(2, 1)  # and no one strikes the dead
    out = tick.walk()
    assert out["landed"].tolist() == [0]
    assert tick.dead.tolist() == [False, True, False]
    assert out["killed"][0] == KILLED_BY_BLOW and tick.prone[1] and tick.reeling[1]


def test_a_target_defends_as_the_earlier_blows_left_it() -> None:
    tick = Tick()
    tick.attack(0, 2, offered=STUNNED)
    tick.attack(1, 2, result=MS, defence=MS, offered=STUNNED)  # MS against MS is parried, but Stunned drops a level
    out = tick.walk()
    assert out["landed"].tolist() == [0, 1]
    assert out["defence"].tolist() == [MF, MS - 1]
    # Stunned on Stunned is Incapacitated: out of the fight, down, re-tested next tick.
    assert (out["before"][1], out["after"][1]) == (STUNNED, INCAP)
    assert tick.shock[2] == INCAP and tick.out[2] and tick.prone[2] and out["fell"][1] == FELL_SHOCKED
    assert tick.since[2] == 7 and tick.retest_at[2] == 80.0


def test_without_the_stun_the_same_defence_parries() -> None:
    tick = Tick()
    tick.attack(1, 2, result=MS, defence=MS)
    assert tick.walk()["landed"].tolist() == []


def test_a_hand_that_lets_go_disarms_a_later_weapon_attack_but_not_a_natural_one() -> None:
    for natural, lands in ((False, [0]), (True, [0, 1])):
        tick = Tick()
        tick.holding[0] = SWORD  # both hands hold one two-handed sword
        tick.attack(1, 0, location=1, fumble=3)  # flung
        tick.attack(0, 1, natural=natural)
        out = tick.walk()
        assert out["landed"].tolist() == lands
        assert tick.holding[0].tolist() == [-1, -1]
        assert out["drops"].tolist() == [[0, 1, 1]]


def test_a_hand_that_holds_nothing_drops_nothing() -> None:
    tick = Tick()
    tick.attack(1, 0, fumble=2)
    tick.attack(0, 1)
    out = tick.walk()
    assert out["landed"].tolist() == [0, 1] and out["drops"].size == 0


def test_severing_takes_the_part_and_what_it_holds() -> None:
    tick = Tick()
    tick.holding[0, 1] = SWORD
    tick.attack(1, 0, location=1, level=4, severs=True)
    out = tick.walk()
    assert tick.severed[0].tolist() == [False, True] and tick.lost[0].tolist() == [False, True]
    assert out["drops"].tolist() == [[0, 1, 0]] and tick.dirty[0]


def test_compounding_reads_the_wounds_as_the_blow_lands() -> None:
    tick = Tick()
    tick.attack(0, 2, level=2, bleeder=True)
    tick.attack(1, 2, level=2)  # the open wounds there sum to 2, at most the new level: the first worsens
    out = tick.walk()
    assert out["compound"][:2].tolist() == [False, True]
    assert tick.wounds == 2
    owner, location, _, level, _ = (w[:2].tolist() for w in tick.w_int)
    assert owner == [2, 2] and location == [0, 0] and level == [3, 2]
    assert tick.w_compounded[:2].tolist() == [1, 0]
    assert tick.w_times[1][:2].tolist() == [130.0, -1.0]  # the bleeder's next Blood Loss test is due
    assert tick.totals[2].tolist() == [5, 0, 0] and tick.worst[2].tolist() == [0, -1]
    assert out["touched"].tolist() == [0, 0, 1]


def test_a_shock_of_death_kills_and_a_miss_does_nothing() -> None:
    tick = Tick()
    tick.attack(0, 1, missed=True, level=0, offered=DEAD, kills=True)  # a miss lands but does nothing
    tick.attack(2, 1, offered=DEAD)
    out = tick.walk()
    assert out["landed"].tolist() == [0, 1]
    assert out["killed"].tolist() == [0, KILLED_BY_SHOCK]
    assert tick.dead[1] and tick.shock[1] == DEAD and tick.retest_at[1] == -1.0 and tick.wounds == 1
    assert tick.cause_location[1] == 0 and tick.cause_level[1] == 1


def test_a_stumble_fells_a_creature_that_stands() -> None:
    tick = Tick()
    tick.attack(0, 1, stumble=2)
    tick.attack(1, 2)  # reeling: no turn this tick
    out = tick.walk()
    assert out["landed"].tolist() == [0] and tick.prone[1] and tick.reeling[1]
