"""Shoe simulation: the dealing procedure, exact EVs per round, strategies, reproducibility.

The dealing procedure is checked against stacked shoes worked out by hand and
against a card-by-card reference dealer written from the rules' text
(:func:`reference_deal`, which plays each round with ``tests/reference.py``);
every traced round's EV against :func:`~exactodds.analysis.single.analyze`;
decisions against the strategies' definitions, recomputed from the trace's cards.
"""

from __future__ import annotations

import io
import itertools
import json
import statistics
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import PhysicalCard, play_round

from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cards import Rank, Suit
from exactodds.errors import SimulationError
from exactodds.rules import Rules, Tableau
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import (
    CARD_SYMBOLS,
    DealingProcedure,
    deal_block,
    deal_shoes,
    shuffled_shoe,
)
from exactodds.simulation.risk.sums import EV_SCALE, Estimate, Sums
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Always, Count, Perfect, parse_plays, parse_strategy
from exactodds.simulation.tally import BetTally, Tally

# Card types: rank index * 4 + suit index (S H D C).
NINE, KING, THREE, ACE = 8 * 4, 12 * 4, 2 * 4, 0


def stacked(*runs: tuple[int, int], decks: int = 1) -> np.ndarray[Any, Any]:
    """A one-row block of card types from (card type, how many) runs, filling 52 * decks."""
    cards = [card for card, count in runs for _ in range(count)]
    assert len(cards) == 52 * decks
    return np.array([cards], dtype=np.int64)


# The dealing procedure, by hand --------------------------------------------------------


def test_all_naturals_cut_card_in_the_middle_of_a_round_deals_one_more() -> None:
    # 52 nines: every round is P 9+9 = 8, a natural, 4 cards. Cut 17: the cut card sits
    # before card 35, inside the round of cards 32-35, so one more round (36-39) follows.
    block = deal_shoes(
        DealingProcedure(decks=1, cut=17, burn="none"), Tableau(), stacked((NINE, 52))
    )
    assert block.depth.tolist() == list(range(0, 40, 4))
    assert block.round_cards.tolist() == [4] * 10


def test_cut_card_as_the_first_card_of_a_round_deals_two_more() -> None:
    # Cut 16: the cut card sits before card 36, the first card of a round: rounds 36-39
    # and 40-43 follow. Cut 18: before card 34, inside round 32-35: one more, 36-39.
    first = deal_shoes(
        DealingProcedure(decks=1, cut=16, burn="none"), Tableau(), stacked((NINE, 52))
    )
    assert first.depth.tolist() == list(range(0, 44, 4))
    middle = deal_shoes(
        DealingProcedure(decks=1, cut=18, burn="none"), Tableau(), stacked((NINE, 52))
    )
    assert middle.depth.tolist() == list(range(0, 40, 4))
    none_after = deal_shoes(
        DealingProcedure(decks=1, cut=16, burn="none", after_cut=0), Tableau(), stacked((NINE, 52))
    )
    assert none_after.depth.tolist() == list(range(0, 40, 4))


def test_standard_burn_exposes_one_card_and_burns_its_value() -> None:
    # A 3 first: 3 cards burned face down, rounds start at card 4. Kings after it: every
    # round is 0 against 0, both draw: 6 cards.
    procedure = DealingProcedure(decks=1, cut=14)
    block = deal_shoes(procedure, Tableau(), stacked((THREE, 1), (KING, 51)))
    assert block.exposed.tolist() == [THREE]
    assert block.depth.tolist()[:3] == [4, 10, 16]
    assert set(block.round_cards.tolist()) == {6}
    # Known before the first round: the full deck less the exposed 3 (burns unknown).
    expected = np.ones(52, dtype=np.int64)
    expected[THREE] -= 1
    assert block.known[0].tolist() == expected.tolist()
    # Before the second: less the six kings of spades dealt in the first round too.
    expected[KING] -= 6
    assert block.known[1].tolist() == expected.tolist()
    # A king first burns ten.
    kings = deal_shoes(procedure, Tableau(), stacked((KING, 52)))
    assert kings.depth.tolist()[0] == 11


def test_fixed_burn_and_five_card_rounds() -> None:
    # Burn 2 face down (nothing exposed); then P 3+3 = 6 stands, B K+K = 0 draws: 5 cards.
    round_cards = [THREE, KING, THREE, KING, KING]
    cards = [ACE, ACE] + round_cards * 10
    block = deal_shoes(
        DealingProcedure(decks=1, cut=0, burn=2), Tableau(), np.array([cards], dtype=np.int64)
    )
    assert block.exposed.tolist() == [-1]
    # The tenth round would start with 5 cards left: fewer than six, so dealing stops.
    assert block.depth.tolist() == [2 + 5 * k for k in range(9)]
    assert block.round_cards.tolist() == [5] * 9
    # The two burned aces are never seen: the known composition still holds them.
    assert block.known[0][ACE] == 1


# The dealing procedure against a card-by-card reference --------------------------------


def _physical(card: int) -> PhysicalCard:
    return PhysicalCard(Rank(CARD_SYMBOLS[card][0]), Suit(CARD_SYMBOLS[card][1]), 0)


def reference_deal(cards: list[int], procedure: DealingProcedure) -> list[tuple[int, int]]:
    """(start, cards used) of every round, dealt one card at a time as the rules read."""
    if procedure.burn == "standard":
        rank = CARD_SYMBOLS[cards[0]][0]
        position = 1 + (10 if rank in "TJQK" else 1 if rank == "A" else int(rank))
    elif procedure.burn == "none":
        position = 0
    else:
        position = int(procedure.burn)
    cut_card_before = len(cards) - procedure.cut
    rounds: list[tuple[int, int]] = []
    rounds_left: int | None = None
    while len(cards) - position >= 6:
        if rounds_left is None and position == cut_card_before:
            rounds_left = procedure.after_cut + 1  # the cut card is the next card drawn
        elif rounds_left is None and position > cut_card_before:
            raise AssertionError("the cut card was passed without being seen")
        if rounds_left == 0:
            break
        summary = play_round(
            [_physical(card) for card in cards[position : position + 6]], suits_known=True
        )
        assert summary is not None
        used = summary.player_cards + summary.banker_cards
        rounds.append((position, used))
        if rounds_left is not None:
            rounds_left -= 1
        elif position < cut_card_before < position + used:
            rounds_left = procedure.after_cut  # the cut card came out during this round
        position += used
    return rounds


@pytest.mark.parametrize(
    "procedure",
    [
        DealingProcedure(decks=1, cut=14),
        DealingProcedure(decks=2, cut=20, burn="none", after_cut=2),
        DealingProcedure(decks=8, cut=14),
        DealingProcedure(decks=6, cut=60, burn=5, after_cut=0),
    ],
    ids=["1-deck", "2-deck-no-burn", "8-deck", "6-deck-burn-5"],
)
def test_dealing_matches_the_reference_dealer(procedure: DealingProcedure) -> None:
    block = deal_block(procedure, Tableau(), seed=11, first_shoe=5, shoes=12)
    for shoe in range(12):
        rows = block.round_shoe == shoe
        dealt = list(zip(block.depth[rows].tolist(), block.round_cards[rows].tolist(), strict=True))
        assert dealt == reference_deal(block.cards[shoe].tolist(), procedure)
        assert block.round_number[rows].tolist() == list(range(len(dealt)))


def test_a_shoe_depends_only_on_seed_and_number() -> None:
    together = deal_block(DealingProcedure(decks=2), Tableau(), seed=3, first_shoe=0, shoes=4)
    alone = deal_block(DealingProcedure(decks=2), Tableau(), seed=3, first_shoe=2, shoes=1)
    assert (together.cards[2] == alone.cards[0]).all()
    spawned = np.random.SeedSequence(3).spawn(3)[2]
    keys = np.random.PCG64(spawned).random_raw(104)
    assert (shuffled_shoe(2, 3, 2) == np.argsort(keys, kind="stable") % 52).all()
    assert sorted(shuffled_shoe(8, 3, 2).tolist()) == sorted(list(range(52)) * 8)


def test_known_composition_is_the_full_shoe_less_every_card_seen() -> None:
    procedure = DealingProcedure(decks=1, cut=14)
    block = deal_block(procedure, Tableau(), seed=5, first_shoe=0, shoes=3)
    for row in range(block.rounds):
        shoe = int(block.round_shoe[row])
        depth = int(block.depth[row])
        start = int(block.depth[block.round_shoe == shoe][0])
        seen = [int(block.exposed[shoe]), *block.cards[shoe, start:depth].tolist()]
        expected = np.bincount(seen, minlength=52)
        assert (1 - expected == block.known[row]).all()


def test_procedure_refuses_impossible_settings() -> None:
    with pytest.raises(SimulationError, match="deeper than a 416-card shoe"):
        DealingProcedure(cut=400)
    with pytest.raises(SimulationError, match="Cut card depth -1"):
        DealingProcedure(cut=-1)
    with pytest.raises(SimulationError, match="Burn rule 'lots'"):
        DealingProcedure(burn="lots")
    assert DealingProcedure(burn="3").burn == 3


# Every traced round against analyze ----------------------------------------------------


def _trace(simulation: Simulation) -> list[dict[str, Any]]:
    stream = io.StringIO()
    simulate(simulation, trace=stream)
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_every_trace_line_ev_equals_analyze_on_its_composition() -> None:
    rules = Rules()
    bets = select_bets("banker,tie,player_pair,perfect_pair,dragon7,lucky6", rules)
    simulation = Simulation.of(
        shoes=2, seed=9, rules=rules, bets=bets, procedure=DealingProcedure(decks=1, cut=10)
    )
    lines = _trace(simulation)
    assert len(lines) > 10
    for line in lines:
        shoe = Shoe.from_mapping(line["known"])
        assert shoe.suits_known
        analysis = analyze(shoe, rules, bets)
        for bet in bets:
            assert Fraction(line["ev"][bet.name]) == analysis.bets[bet.name].expected_value


def test_trace_cards_results_and_known_compositions_agree() -> None:
    bets = select_bets("banker,player,tie,perfect_pair")
    simulation = Simulation.of(
        shoes=3,
        seed=4,
        bets=bets,
        strategies={name: Always() for name in ("banker", "player", "tie", "perfect_pair")},
        procedure=DealingProcedure(decks=1, cut=14),
    )
    lines = _trace(simulation)
    for line, following in itertools.pairwise([*lines, {"shoe": -1}]):
        summary = play_round(
            [_physical(CARD_SYMBOLS.index(c)) for c in line["cards"]], suits_known=True
        )
        assert summary is not None
        for bet in bets:
            assert Fraction(line["result"][bet.name]) == bet.pay(bet.settle(summary))
        if following["shoe"] == line["shoe"]:
            after = Shoe.from_mapping(line["known"]).remove(line["cards"])
            assert after == Shoe.from_mapping(following["known"])


# Strategies ------------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [Fraction(0), Fraction(-104, 1000), Fraction(1, 200)])
def test_perfect_bets_exactly_when_the_ev_is_above_the_threshold(threshold: Fraction) -> None:
    bets = select_bets("player_pair,dragon7,tie")
    simulation = Simulation.of(
        shoes=3,
        seed=21,
        bets=bets,
        strategies={bet.name: Perfect(threshold) for bet in bets},
        procedure=DealingProcedure(decks=2, cut=14),
    )
    decisions = 0
    for line in _trace(simulation):
        for bet in bets:
            assert line["bet"][bet.name] == (Fraction(line["ev"][bet.name]) > threshold)
            decisions += line["bet"][bet.name]
    assert decisions > 0


def test_counts_against_running_and_true_counts_worked_by_hand() -> None:
    # Dragon 7 tags (A 2 3 4 5 6 7 8 9 T): 0 0 0 -1 -1 -1 -1 2 2 0.
    tags = {"A": 0, "2": 0, "3": 0, "4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2}
    true_count = parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:1")
    running = parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:3:running:start=2")
    bets = select_bets("dragon7,panda8")
    simulation = Simulation.of(
        shoes=4,
        seed=8,
        bets=bets,
        strategies={"dragon7": true_count, "panda8": running},
        procedure=DealingProcedure(decks=2, cut=14),
    )
    lines = _trace(simulation)
    seen: list[str] = []
    made = [0, 0]
    for line in lines:
        if line["round"] == 0:
            seen = [line["burn"]["exposed"]]
        count = sum(tags.get(card[0], 0) for card in seen)
        unseen = 104 - len(seen)
        assert line["bet"]["dragon7"] == (Fraction(count * 52, unseen) >= 1)
        assert line["bet"]["panda8"] == (count + 2 >= 3)
        made[0] += line["bet"]["dragon7"]
        made[1] += line["bet"]["panda8"]
        seen += line["cards"]
    assert all(made) and made[0] < len(lines)


def test_count_true_count_by_hand() -> None:
    # One deck with the four 8s and two 9s seen: running count 12, 46 cards unseen,
    # true count 12 / (46/52) = 13.56...: bets at 13.5, not at 13.6.
    known = np.ones((1, 52), dtype=np.int64)
    known[0, 28:32] = 0
    known[0, 32:34] = 0
    tags = (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)
    assert Count(tags, Fraction(0)).running_counts(known, 1).tolist() == [12]
    assert Count(tags, Fraction(27, 2)).decide(None, None, known, 1).tolist() == [True]
    assert Count(tags, Fraction(68, 5)).decide(None, None, known, 1).tolist() == [False]
    assert Count(tags, Fraction(12), running=True).decide(None, None, known, 1).tolist() == [True]
    assert Count(tags, Fraction(13), running=True, start=0).decide(
        None, None, known, 1
    ).tolist() == [False]


def test_play_parsing() -> None:
    plays = parse_plays(
        ("always", "tie=perfect", "dragon7=count:" + ",".join(["1"] * 13) + ":2"),
        ["tie", "dragon7", "banker"],
    )
    assert plays["banker"] == Always() and plays["tie"] == Perfect()
    assert plays["dragon7"] == Count((1,) * 13, Fraction(2))
    with pytest.raises(SimulationError, match="have 11 entries"):
        parse_strategy("count:" + ",".join(["1"] * 11) + ":2")
    with pytest.raises(SimulationError, match="Unknown strategy 'sometimes'"):
        parse_strategy("sometimes")
    with pytest.raises(SimulationError, match="not a number"):
        parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:high")


# Reproducibility ----------------------------------------------------------------------------


def _comparable(result: Any) -> dict[str, Any]:
    data = dict(result.to_dict())
    data.pop("run")
    return data


def _study(shoes: int = 40) -> Simulation:
    bets = select_bets("banker,player_pair,dragon7")
    return Simulation.of(
        shoes=shoes,
        seed=77,
        bets=bets,
        strategies=parse_plays(("perfect", "banker=always"), [bet.name for bet in bets]),
        procedure=DealingProcedure(decks=4, cut=14),
    )


def test_same_seed_same_result_whatever_the_jobs_and_blocks() -> None:
    one = simulate(_study(), jobs=1)
    two = simulate(_study(), jobs=2, block_shoes=3)
    small = simulate(_study(), jobs=1, block_shoes=1)
    assert one.tally == two.tally == small.tally
    assert _comparable(one) == _comparable(two)
    assert two.backend == "processes"


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_result_bit_for_bit() -> None:
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(_study(), dask=client, block_shoes=7)
    assert on_dask.backend == "dask"
    assert on_dask.tally == simulate(_study()).tally


def test_checkpoint_and_resume_equal_one_run(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    trace = tmp_path / "trace.jsonl"
    first = simulate(_study(shoes=15), checkpoint=checkpoint, trace=trace, block_shoes=4)
    assert first.complete and first.tally.shoes == 15
    resumed = simulate(_study(shoes=40), checkpoint=checkpoint, resume=True, trace=trace)
    straight_trace = tmp_path / "straight.jsonl"
    straight = simulate(_study(shoes=40), trace=straight_trace)
    assert resumed.tally == straight.tally
    assert trace.read_text() == straight_trace.read_text()


def test_an_interrupted_run_keeps_every_finished_shoe(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    calls = []

    def stop_after_two_blocks(shoes: int, rounds: int) -> None:
        calls.append(shoes)
        if len(calls) == 2:
            raise KeyboardInterrupt

    partial = simulate(
        _study(), checkpoint=checkpoint, progress=stop_after_two_blocks, block_shoes=5
    )
    assert not partial.complete and partial.tally.shoes == 10
    assert simulate(_study(shoes=10)).tally == partial.tally
    resumed = simulate(_study(), checkpoint=checkpoint, resume=True)
    assert resumed.complete and resumed.tally == simulate(_study()).tally


def test_a_checkpoint_of_another_simulation_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    simulate(_study(shoes=5), checkpoint=checkpoint)
    other = Simulation.of(shoes=10, seed=78, bets=select_bets("banker,player_pair,dragon7"))
    with pytest.raises(SimulationError, match="belongs to another simulation"):
        simulate(other, checkpoint=checkpoint, resume=True)
    checkpoint.write_text("{}")
    with pytest.raises(SimulationError, match="is not an exactodds simulate checkpoint"):
        simulate(_study(), checkpoint=checkpoint, resume=True)


# Statistics ----------------------------------------------------------------------------------


def test_the_two_estimators_and_the_tally_add_up() -> None:
    result = simulate(_study(shoes=60))
    tally = result.tally
    assert tally.shoes == 60
    assert tally.rounds == sum(count * shoes for count, shoes in tally.rounds_histogram)
    banker = result.bets()[0]
    assert banker.bets_made == tally.rounds  # always
    assert banker.frequency == 1
    # Betting every round, the exact-EV estimator is the mean house edge per round, and the
    # realized one agrees within its (much larger) error.
    exact = banker.units_per_shoe["exact_ev"]
    realized = banker.units_per_shoe["realized"]
    assert exact.stderr < realized.stderr / 5
    assert abs(exact.mean - realized.mean) < 4 * realized.stderr
    assert -0.02 < banker.average_edge < 0
    sums = tally.bets[0]
    assert sums.ev_made == sums.expected.total
    assert abs(sums.expected.total / EV_SCALE / 60 - exact.mean) < 1e-12


@pytest.mark.slow
def test_jacobson_dragon7_count_reproduces_his_win_rate() -> None:
    """Eliot Jacobson's Dragon 7 count: tags 0,0,0,-1,-1,-1,-1,2,2,0 (A, 2, ..., 9, tens),
    bet at true count +4 or more, 8 decks, cut card 14 cards from the back, the standard
    burn (first card exposed, its value burned): 0.597 units per shoe over 100 million shoes
    ("Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat", 888casino blog).
    1,000 shoes give a standard error near 0.033 units per shoe with the exact-EV estimator."""
    rules = Rules(variant="ez")
    simulation = Simulation.of(
        shoes=1000,
        seed=597,
        rules=rules,
        bets=select_bets("dragon7", rules),
        strategies={"dragon7": parse_strategy("count:0,0,0,-1,-1,-1,-1,2,2,0:4")},
    )
    (dragon,) = simulate(simulation, jobs=2).bets()
    estimate = dragon.units_per_shoe["exact_ev"]
    assert estimate.stderr < 0.04
    assert abs(estimate.mean - 0.597) < 3 * estimate.stderr


@pytest.mark.slow
def test_jacobson_lucky_pairs_perfect_play_reproduces_his_win_rate() -> None:
    """Eliot Jacobson's Lucky Pairs: a pair pays 11:1, 8 decks, cut card 14 cards from the
    back; betting both the Player and the Banker pair whenever the exact edge is positive
    earns 0.375 units per shoe ("Cheating the Lucky Pairs Baccarat Side Bet", 888casino blog,
    100 million shoes). His dealing procedure deals only that round when the cut card is the
    first card of a round, as Wizard of Odds' rules of play do: ``cut_first_rounds=1``. (With
    two rounds there, perfect play earns about 0.40.) The two bets' exact EVs are equal on
    every composition, so the standard error of their sum is twice one bet's."""
    rules = Rules()
    simulation = Simulation.of(
        shoes=20_000,
        seed=375,
        rules=rules,
        bets=select_bets("player_pair,banker_pair", rules),
        strategies={},
        procedure=DealingProcedure(decks=8, cut=14, burn="standard", cut_first_rounds=1),
    )
    player, banker = simulate(simulation, jobs=2).bets()
    both = player.units_per_shoe["exact_ev"].mean + banker.units_per_shoe["exact_ev"].mean
    stderr = 2 * player.units_per_shoe["exact_ev"].stderr
    assert stderr < 0.007
    assert abs(both - 0.375) < 3 * stderr


def test_shoes_past_int64_stay_exact() -> None:
    # 30 decks: n(n-1)...(n-5) is above 2**63, so EVs come back as Python integers.
    bets = select_bets("banker,player_pair,dragon7")
    lines = _trace(Simulation.of(1, 3, bets=bets, procedure=DealingProcedure(decks=30)))
    assert len(lines) > 250
    for line in (lines[0], lines[-1]):
        analysis = analyze(Shoe.from_mapping(line["known"]), Rules(), bets)
        for bet in bets:
            assert Fraction(line["ev"][bet.name]) == analysis.bets[bet.name].expected_value


@settings(max_examples=20, deadline=None)
@given(
    decks=st.integers(1, 3),
    cut=st.integers(0, 30),
    burn=st.sampled_from(["standard", "none", 0, 4]),
    after_cut=st.integers(0, 3),
    seed=st.integers(0, 2**64),
)
def test_dealing_matches_the_reference_for_any_procedure(
    decks: int, cut: int, burn: str | int, after_cut: int, seed: int
) -> None:
    procedure = DealingProcedure(decks=decks, cut=cut, burn=burn, after_cut=after_cut)
    block = deal_block(procedure, Tableau(), seed=seed, first_shoe=0, shoes=2)
    for shoe in range(2):
        rows = block.round_shoe == shoe
        dealt = list(zip(block.depth[rows].tolist(), block.round_cards[rows].tolist(), strict=True))
        assert dealt == reference_deal(block.cards[shoe].tolist(), procedure)


def test_hostile_checkpoints_are_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    for text in ("[" * 100_000, '{"exactodds_checkpoint": 1}', "[]", "\xff"):
        checkpoint.write_text(text, encoding="utf-8")
        with pytest.raises(SimulationError, match="not an exactodds simulate checkpoint"):
            simulate(_study(), checkpoint=checkpoint, resume=True)
    with pytest.raises(SimulationError, match="from 1 to 64"):
        DealingProcedure(decks=65)


def test_estimates_against_textbook_formulas() -> None:
    per_shoe = [3, -1, 4, 1, -5, 9, 2, -6]
    rounds = [80, 79, 82, 81, 80, 78, 83, 81]
    sums = Sums.of(per_shoe, rounds)
    tally = Tally(len(per_shoe), sum(rounds), sum(r * r for r in rounds), (), (BetTally(1),))
    shoe = Estimate.of_shoes(sums, len(per_shoe), Fraction(1, 20))
    assert shoe.mean == pytest.approx(statistics.mean(per_shoe) / 20)
    assert shoe.stderr == pytest.approx(statistics.stdev(per_shoe) / 20 / len(per_shoe) ** 0.5)
    ratio = sum(per_shoe) / sum(rounds)
    residuals = [x - ratio * r for x, r in zip(per_shoe, rounds, strict=True)]
    n = len(per_shoe)
    delta = (sum(e * e for e in residuals) / (n * (n - 1))) ** 0.5 / statistics.mean(rounds)
    hundred = Estimate.per_rounds(sums, tally, Fraction(1, 20))
    assert hundred.mean == pytest.approx(100 * ratio / 20)
    assert hundred.stderr == pytest.approx(100 * delta / 20)
    low, high = hundred.ci95
    assert low < hundred.mean < high


def test_deciles_depth_and_positive_share_against_the_trace() -> None:
    bets = select_bets("dragon7")
    simulation = Simulation.of(shoes=4, seed=31, bets=bets, procedure=DealingProcedure(decks=2))
    stream = io.StringIO()
    result = simulate(simulation, trace=stream)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    evs = [Fraction(line["ev"]["dragon7"]) for line in lines]
    (dragon,) = result.bets()
    assert dragon.share_positive == sum(ev > 0 for ev in evs) / len(evs)
    for tenth, decile in zip(range(1, 10), dragon.ev_deciles, strict=True):
        low = Fraction(decile).limit_denominator(10_000)
        high = low + Fraction(1, 10_000)
        assert sum(ev < high for ev in evs) >= tenth * len(evs) / 10
        assert sum(ev < low for ev in evs) < tenth * len(evs) / 10
    for deck, mean in enumerate(dragon.ev_by_deck):
        at_deck = [ev for ev, line in zip(evs, lines, strict=True) if line["depth"] // 52 == deck]
        assert mean == pytest.approx(float(sum(at_deck) / len(at_deck)), abs=1e-11)
