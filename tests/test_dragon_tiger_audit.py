"""Dragon Tiger dealt in sequence and audited (``audit --game dragon-tiger``).

- Each round's exact EV (:func:`round_value`) is the game's own exact EV
  (:func:`dragon_tiger_odds`, itself held to a physical-card brute force in
  tests/test_dragon_tiger.py) on the shoe of the cards left, on hypothesis-made suited shoes
  and on the rounds of dealt shoes, replayed here card by card from the same shuffles.
- Each round's result is settled again here from the two cards, by the rules as published.
- The plays and the trigger search are checked against direct sums; the verdict is the
  baccarat audit's (upper bound against the threshold).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from cli_runner import run, run_ok
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.games.dragon_tiger import BET_NAMES, DEFAULT_PAYS, dragon_tiger_odds
from exactodds.games.dragon_tiger_shoes import (
    Count,
    Perfect,
    best_trigger,
    deal_dragon_tiger,
    play,
    round_value,
    taken,
)
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import shuffled_shoe
from exactodds.studies.audit import Thresholds
from exactodds.studies.dragon_tiger_audit import dragon_tiger_audit

RANK_ORDER = "A23456789TJQK"
FACES = [rank + suit for rank in RANK_ORDER for suit in "SHDC"]


def shoe_of(suits: list[int]) -> Shoe:
    return Shoe.parse(
        ",".join(f"{FACES[index]}={count}" for index, count in enumerate(suits) if count)
    )


@settings(max_examples=40, deadline=None)
@given(suits=st.lists(st.integers(0, 3), min_size=52, max_size=52), tie=st.sampled_from([8, 11]))
def test_a_round_s_value_is_the_game_s_exact_ev(suits: list[int], tie: int) -> None:
    if sum(suits) < 2:
        suits = [2, *suits[1:]]
    pays = dict(DEFAULT_PAYS) | {"tie": Fraction(tie)}
    odds = dragon_tiger_odds(shoe_of(suits), pays=pays)
    ranks = [sum(suits[4 * rank : 4 * rank + 4]) for rank in range(13)]
    for name in BET_NAMES:
        value = Fraction(*round_value(name, pays[name], ranks, suits, sum(suits)))
        assert value == odds.bets[name].expected_value, name


def settle(name: str, dragon: str, tiger: str) -> Fraction:
    """One round settled by the published rules (A low, K high; half lost on a tie)."""
    low, high = RANK_ORDER.index(dragon[0]), RANK_ORDER.index(tiger[0])
    pay = DEFAULT_PAYS[name]
    if name in ("dragon", "tiger"):
        if low == high:
            return Fraction(-1, 2)
        return pay if (low > high) == (name == "dragon") else Fraction(-1)
    wins = {
        "tie": low == high,
        "suited_tie": dragon == tiger,
        "big": dragon[0] in "89TJQK",
        "small": dragon[0] in "A23456",
    }[name]
    return pay if wins else Fraction(-1)


def test_dealt_rounds_replay_card_by_card() -> None:
    dealt = deal_dragon_tiger(BET_NAMES, DEFAULT_PAYS, decks=1, cut=12, shoes=2, seed=5)
    assert dealt.rounds == 2 * 20  # rounds start with 52, 50, ..., 14 cards left: 20 a shoe
    index = 0
    for number in range(2):
        order = [FACES[card] for card in shuffled_shoe(1, 5, number).tolist()]
        for start in range(0, 40, 2):
            left = order[start:]
            if start % 8 == 0:  # every fourth round priced again from scratch (cost)
                odds = dragon_tiger_odds(shoe_of([left.count(face) for face in FACES]))
                for name in BET_NAMES:
                    expected = odds.bets[name].expected_value
                    assert math.isclose(dealt.value[name][index], float(expected), rel_tol=1e-12)
                    assert bool(dealt.positive[name][index]) == (expected > 0)
            for name in BET_NAMES:
                assert dealt.result[name][index] == float(settle(name, left[0], left[1]))
            seen = [sum(card[0] == rank for card in order[:start]) for rank in RANK_ORDER]
            assert dealt.seen[index].tolist() == seen and dealt.left[index] == 52 - start
            index += 1


@pytest.fixture(scope="module")
def dealt():  # type: ignore[no-untyped-def]
    return deal_dragon_tiger(("big", "suited_tie"), DEFAULT_PAYS, decks=2, cut=16, shoes=30, seed=9)


def test_the_plays_are_direct_sums(dealt) -> None:  # type: ignore[no-untyped-def]
    values = dealt.value["suited_tie"]
    perfect = play(dealt, "suited_tie", Perfect())
    assert perfect.bets == int((values > 0).sum())
    assert math.isclose(perfect.exact_ev[0], 100 * values[values > 0].sum() / dealt.rounds)
    every = play(dealt, "big", Count((0,) * 13, Fraction(0)))  # a count that always bets
    assert every.bets == dealt.rounds
    assert math.isclose(every.results[0], 100 * dealt.result["big"].mean())
    assert math.isclose(every.exact_ev[0], 100 * dealt.value["big"].mean())


def test_the_trigger_is_the_best_of_its_candidates(dealt) -> None:  # type: ignore[no-untyped-def]
    """The trigger found wins most among the half steps, each played as play() plays it: the
    true counts compared exactly with Fractions, round by round."""
    tags = (1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1)
    running = dealt.seen @ np.asarray(tags)
    true = [Fraction(int(r) * 52, int(left)) for r, left in zip(running, dealt.left, strict=True)]
    values = dealt.value["big"]

    def bets(trigger: Fraction) -> list[bool]:
        return [count >= trigger for count in true]

    def gain(trigger: Fraction) -> float:
        return float(values[bets(trigger)].sum())

    found = best_trigger(dealt, "big", tags)
    assert found.denominator in (1, 2)
    assert taken(dealt, "big", Count(tags, found)).tolist() == bets(found)
    candidates = {Fraction(math.floor(2 * count), 2) for count in true}
    allowed = [t for t in candidates if sum(bets(t)) >= Fraction(1, 1000) * len(true)]
    assert math.isclose(gain(found), max(gain(t) for t in allowed))


def test_dragon_and_tiger_are_never_positive_so_perfect_play_never_bets() -> None:
    """EV(dragon) = -P(tie)/2 on every shoe (wins and losses are equally many): never above 0."""
    found = dragon_tiger_audit(["dragon", "tiger", "big"], budget=5, decks=1, cut=6)
    for name in ("dragon", "tiger"):
        bet = found.bets[name]
        assert bet.perfect.bets == 0 and bet.count is None and bet.tags == (0,) * 13
        assert bet.verdict.played == "perfect play" and bet.verdict.safe
    big = found.bets["big"]
    assert big.count is not None and big.trigger is not None
    fresh = deal_dragon_tiger(("big",), DEFAULT_PAYS, decks=1, cut=6, shoes=5, seed=2)
    assert big.count == play(fresh, "big", Count(big.tags, big.trigger))  # fresh shoes: seed + 1
    assert big.verdict.safe == (big.verdict.upper < big.verdict.threshold)


def test_the_verdict_follows_the_threshold() -> None:
    strict = Thresholds(units_per_100_rounds=Fraction(1, 10**6))
    lenient = Thresholds(units_per_100_rounds=Fraction(10**6))
    args: dict[str, Any] = {"budget": 4, "decks": 2, "cut": 10}
    assert (
        not dragon_tiger_audit(["suited_tie"], thresholds=strict, **args)
        .bets["suited_tie"]
        .verdict.safe
    )
    assert (
        dragon_tiger_audit(["suited_tie"], thresholds=lenient, **args)
        .bets["suited_tie"]
        .verdict.safe
    )


def test_audit_command_json_is_the_study_s() -> None:
    args: tuple[str, ...] = ("audit", "--game", "dragon-tiger", "--bets", "big,tie")
    args += ("--pay", "tie=11", "--decks", "1", "--cut", "10", "--budget", "6", "--seed", "3")
    data = json.loads(run_ok(*args, "--format", "json").stdout)
    study = dragon_tiger_audit(["big", "tie"], {"tie": 11}, decks=1, cut=10, budget=6, seed=3)
    assert data == json.loads(json.dumps(study.to_dict()))
    text = run_ok(*args).stdout
    assert "Trigger" in text and study.bets["big"].verdict.sentence("big")[:40] in text.replace(
        "\n  ", " "
    )
    assert max(len(line) for line in text.splitlines()) <= 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--depths", "18"), "Error: --depths is an option of the baccarat audit;"),
        (("--design", "win=30..40"), "Error: --design is an option of the baccarat audit;"),
        (
            ("--format", "pdf", "-o", "x.pdf"),
            "Error: audit --game dragon-tiger writes table or json",
        ),
        (("--commission", "4%"), "Error: --commission is a baccarat option;"),
        (("--budget", "0"), "Error: Number of shoes 0 for --budget is not valid;"),
        (("--cut", "415"), "Error: Cut card 415 cards from the back leaves no round"),
    ],
)
def test_bad_usage_is_one_sentence(args: tuple[str, ...], message: str) -> None:
    result = run("audit", "--game", "dragon-tiger", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


# simulate --game dragon-tiger -----------------------------------------------------------------


def test_simulate_reproduces_the_audit_s_fresh_shoes() -> None:
    """The audit's figures are simulate's with seed + 1 and the count's tags and trigger."""
    found = dragon_tiger_audit(["big"], decks=1, cut=10, budget=6, seed=3).bets["big"]
    assert found.count is not None and found.trigger is not None
    tags = ",".join(str(tag) for tag in found.tags)
    args: tuple[str, ...] = ("simulate", "--game", "dragon-tiger", "--bets", "big", "--decks", "1")
    args += ("--cut", "10")
    args += ("--shoes", "6", "--seed", "4", "--format", "json")
    counted = json.loads(run_ok(*args, "--play", f"count:{tags}:{found.trigger}").stdout)
    assert counted["bets"]["big"] == json.loads(json.dumps(found.count.to_dict()))
    perfect = json.loads(run_ok(*args).stdout)  # perfect play by default
    assert perfect["bets"]["big"] == json.loads(json.dumps(found.perfect.to_dict()))


def test_simulate_always_is_the_house_edge_dealt_and_plays_go_to_their_bets() -> None:
    args: tuple[str, ...] = ("simulate", "--game", "dragon-tiger", "--bets", "tie,small")
    args += ("--decks", "1")
    args += ("--shoes", "5", "--play", "always", "--play", "small=perfect", "--format", "json")
    data = json.loads(run_ok(*args).stdout)
    assert (
        data["bets"]["tie"]["bets"] == data["rounds"]
        and data["bets"]["tie"]["play"] == "every round"
    )
    assert data["bets"]["small"]["play"].startswith("perfect play")
    text = run_ok(*args[:-2]).stdout
    assert "tie: every round" in text and max(len(line) for line in text.splitlines()) <= 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--play", "big=count:1:2"), "Error: Play 'big=count:1:2' is not valid for Dragon Tiger;"),
        # a tag or a trigger past 64-bit integers, which the exact comparison could not hold
        (("--play", "big=count:" + "9" * 30 + ",1" * 12 + ":2"), "Error: Play 'big=count:999"),
        (("--play", "big=count:" + "1," * 12 + "1:1e9999"), "Error: Play 'big=count:1,1,1"),
        (("--play", "big=count:" + "1," * 12 + "1:nan"), "Error: Play 'big=count:1,1,1"),
        (
            ("--bets", "big", "--play", "tie=perfect"),
            "Error: --play names 'tie', which is not among",
        ),
        (("--jobs", "2"), "Error: --jobs is an option of the baccarat simulation;"),
        (("--burn", "none"), "Error: --burn is an option of the baccarat simulation;"),
        (("--bankroll", "100"), "Error: Stakes, risk figures, sweeps and csv are the baccarat"),
        (("--format", "csv"), "Error: Stakes, risk figures, sweeps and csv are the baccarat"),
        (("--variant", "ez"), "Error: --variant is a baccarat option;"),
    ],
)
def test_simulate_bad_usage_is_one_sentence(args: tuple[str, ...], message: str) -> None:
    result = run("simulate", "--game", "dragon-tiger", "--shoes", "2", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
