"""The winning-player review (``exactodds review``): exact figures checked independently.

* the theoretical result of a Banker-only log equals the sum of the public ``analyze``'s
  Banker EVs of each shoe state, rebuilt here from the cards with ``Shoe.remove``;
* the luck probability equals a brute-force convolution: every combination of the rounds'
  results, each round's distribution counted over physical cards (tests/reference.py);
* a counter who bets only at a positive exact EV is told apart from a random bettor, by the
  likelihood ratio and by the luck probability without information;
* bad logs: one sentence naming the line, exit 2, nothing written.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run, run_ok
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import dealt_counts

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cards import RANKS
from exactodds.rules import next_draw
from exactodds.studies.review import Review, ReviewSpec, luck_probability, review
from exactodds.studies.review_log import read_log

RULES = Rules()
ALL_BETS = tuple(select_bets("all"))
SMALL = "A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,T=1"


def deal_shoe(shoe: Shoe, rng: random.Random, left: int) -> list[list[str]]:
    """The rounds a shuffled *shoe* deals by the tableau, stopping with *left* cards or fewer
    than a round needs (each round's cards in dealing order, by rank)."""
    cards = [rank.symbol for rank, count in zip(RANKS, shoe.rank_counts, strict=True)]
    cards = [
        symbol for symbol, count in zip(cards, shoe.rank_counts, strict=True) for _ in range(count)
    ]
    rng.shuffle(cards)
    rounds, place = [], 0
    while len(cards) - place >= max(left, 6):
        player: list[int] = []
        banker: list[int] = []
        dealt: list[str] = []
        while (side := next_draw(RULES.tableau, player, banker)) is not None:
            symbol = cards[place]
            place += 1
            value = next(rank for rank in RANKS if rank.symbol == symbol).value_in_play
            (player if side == "player" else banker).append(value)
            dealt.append(symbol)
        rounds.append(dealt)
    return rounds


def log_text(shoes: Sequence[Sequence[tuple[list[str], Mapping[str, object]]]]) -> str:
    return "".join(
        json.dumps({"shoe": str(number), "cards": " ".join(cards), "bets": bets}) + "\n"
        for number, rounds in enumerate(shoes, start=1)
        for cards, bets in rounds
    )


def test_theoretical_result_of_banker_bets_is_the_sum_of_odds_exact_evs() -> None:
    rng = random.Random(37)
    full = Shoe.standard(decks=1)
    shoes = [deal_shoe(full, rng, left=10) for _ in range(2)]
    result = review(
        read_log(log_text([[(cards, {"banker": 1}) for cards in shoe] for shoe in shoes])),
        ReviewSpec(full, RULES, ALL_BETS),
    )
    expected = Fraction(0)
    for shoe in shoes:
        state = full.without_suits()
        for cards in shoe:
            expected += analyze(state, RULES).bets["banker"].expected_value
            state = state.remove(" ".join(cards))
    assert result.total.theoretical == expected
    assert result.bets[0].theoretical == expected
    assert result.total.wagered == sum(len(shoe) for shoe in shoes)


def test_cli_json_theoretical_is_the_library_figure() -> None:
    rng = random.Random(5)
    shoe = deal_shoe(Shoe.standard(decks=1), rng, left=20)
    text = log_text([[(cards, {"banker": 1}) for cards in shoe]])
    data = json.loads(run_ok("review", "-", "--decks", "1", "--format", "json", input=text).stdout)
    library = review(read_log(text), ReviewSpec(Shoe.standard(decks=1), RULES, ALL_BETS))
    assert Fraction(data["total"]["theoretical"]) == library.total.theoretical
    assert data["rounds"] == len(shoe)


def physical_distribution(shoe: Shoe, stakes: dict[str, Fraction]) -> dict[Fraction, Fraction]:
    """A round's net result on *shoe*, counted over every ordered deal of physical cards."""
    bets = {bet.name: bet for bet in ALL_BETS}
    counts = dealt_counts(shoe)
    total = sum(counts.values())
    found: dict[Fraction, int] = defaultdict(int)
    for summary, count in counts.items():
        net = sum(
            (stake * bets[name].pay(bets[name].settle(summary)) for name, stake in stakes.items()),
            Fraction(0),
        )
        found[net] += count
    return {value: Fraction(count, total) for value, count in found.items()}


def brute_force_tail(distributions: list[dict[Fraction, Fraction]], actual: Fraction) -> Fraction:
    """P(sum >= actual) over every combination of the rounds' results."""
    probability = Fraction(0)
    for combination in itertools.product(*(d.items() for d in distributions)):
        if sum(value for value, _ in combination) >= actual:
            chance = Fraction(1)
            for _, p in combination:
                chance *= p
            probability += chance
    return probability


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_luck_probability_is_the_brute_force_convolution(seed: int) -> None:
    rng = random.Random(seed)
    full = Shoe.parse(SMALL)
    plan = [
        {"banker": Fraction(1)},
        {"player": Fraction(2), "tie": Fraction(1, 2)},
        {"banker": Fraction(3), "player_pair": Fraction(1)},
        {"tie": Fraction(1)},
    ]
    shoes: list[list[tuple[list[str], Mapping[str, object]]]] = []
    bets_of: list[dict[str, Fraction]] = []
    while len(bets_of) < len(plan):
        shoe = deal_shoe(full, rng, left=0)
        rounds: list[tuple[list[str], Mapping[str, object]]] = []
        for cards in shoe:
            if len(bets_of) < len(plan):
                rounds.append((cards, {k: str(v) for k, v in plan[len(bets_of)].items()}))
                bets_of.append(plan[len(bets_of)])
        shoes.append(rounds)
    result = review(read_log(log_text(shoes)), ReviewSpec(full, RULES, ALL_BETS))
    distributions = []
    for rounds in shoes:
        state = full.without_suits()
        for cards, bets in rounds:
            stakes = {name: Fraction(str(stake)) for name, stake in bets.items()}
            distributions.append(physical_distribution(state, stakes))
            state = state.remove(" ".join(cards))
    assert result.total.luck.method == "exact convolution"
    assert result.total.luck.probability == brute_force_tail(distributions, result.total.actual)


def test_luck_probability_falls_back_to_a_labelled_normal_approximation() -> None:
    coin = {Fraction(-1): Fraction(1, 2), Fraction(1): Fraction(1, 2)}
    assert luck_probability([coin] * 9, Fraction(1)).probability == brute_force_tail(
        [coin] * 9, Fraction(1)
    )
    exact = luck_probability([coin] * 400, Fraction(10))
    approximate = luck_probability([coin] * 400, Fraction(10), limit=1)
    assert exact.method == "exact convolution"
    assert approximate.method == "normal approximation"
    assert isinstance(approximate.probability, float)
    assert abs(approximate.probability - float(exact.probability)) < 0.03


def counter_and_random_logs(seed: int, shoes: int) -> tuple[str, str]:
    """Logs of one-deck shoes dealt to the end: a counter bets one unit on each main bet
    exactly when its exact EV is above 0; a random bettor bets as often, on a main bet
    chosen at random, whatever the cards."""
    rng = random.Random(seed)
    full = Shoe.standard(decks=1).without_suits()
    dealt = [deal_shoe(full, rng, left=0) for _ in range(shoes)]
    counter, placed, rounds_dealt = [], 0, 0
    for shoe in dealt:
        state, rounds = full, []
        for cards in shoe:
            values = analyze(state, RULES).expected_values()
            bets = {name: 1 for name, value in values.items() if value > 0}
            rounds.append((cards, bets))
            placed += len(bets)
            rounds_dealt += 1
            state = state.remove(" ".join(cards))
        counter.append(rounds)
    share = placed / rounds_dealt
    random_bettor = [
        [
            (cards, {rng.choice(["banker", "player", "tie"]): 1} if rng.random() < share else {})
            for cards in shoe
        ]
        for shoe in dealt
    ]
    return log_text(counter), log_text(random_bettor)


@pytest.fixture(scope="module")
def counter_and_random() -> tuple[Review, Review]:
    counter, random_bettor = counter_and_random_logs(11, 12)
    spec = ReviewSpec(Shoe.standard(decks=1), RULES, ALL_BETS)
    return review(read_log(counter), spec), review(read_log(random_bettor), spec)


def test_likelihood_ratio_tells_a_counter_from_a_random_bettor(
    counter_and_random: tuple[Review, Review],
) -> None:
    counter, random_bettor = counter_and_random
    for figures in counter.bets:  # never wrong: the EV model fits with no error
        assert figures.follows_ev is not None
        assert figures.follows_ev.error_rate == 0
        assert figures.follows_ev.log10_ratio > 4
        assert figures.positive_taken == figures.positive_opportunities > 0
    for figures in random_bettor.bets:
        assert figures.follows_ev is not None
        assert figures.follows_ev.log10_ratio < 0


def test_luck_probability_tells_a_counter_from_a_random_bettor(
    counter_and_random: tuple[Review, Review],
) -> None:
    counter, random_bettor = counter_and_random
    # The counter's exact EVs explain its result: the luck it needed given the cards is far
    # more than a player without information would need to do as well. The random bettor's
    # EVs explain nothing: the two figures agree.
    assert counter.total.theoretical > 0 > random_bettor.total.theoretical
    lucks = []
    for result in (counter, random_bettor):
        for luck in (result.total.luck, result.total.luck_without_information):
            assert isinstance(luck.probability, Fraction)  # exact, every one
            lucks.append(luck.probability)
    counted, counted_blind, guessed, guessed_blind = lucks
    assert counted - counted_blind > Fraction(15, 100)
    assert abs(guessed - guessed_blind) < Fraction(5, 100)


BAD_LOGS = {
    "impossible card": (
        '{"cards": "8 T 3 9", "bets": {"banker": 1}}\n{"cards": "8 8 8 8", "bets": {}}\n',
        "Line 2 of the log",
        "the shoe holds no more 8",
    ),
    "breaks the tableau": (
        '{"cards": "2 3 4 5 6", "bets": {"banker": 1}}\n',
        "Line 1 of the log",
        "go on after the round ends",
    ),
    "unknown bet": (
        '{"cards": "8 T 3 9", "bets": {"banker": 1}}\n{"cards": "A 4 6 5", "bets": {"bankr": 1}}\n',
        "Line 2 of the log",
        "unknown bet 'bankr'",
    ),
    "unknown bet column": (
        "cards,banker,bankr\n8 T 3 9,1,\n",
        "Line 1 of the log",
        "unknown bet 'bankr' (did you mean banker?)",
    ),
    "stake of 0": (
        "cards,banker\n8 T 3 9,1\nA 4 6 5,0\n",
        "Line 3 of the log",
        "the stake of banker is 0",
    ),
    "truncated json": (
        '{"cards": "8 T 3 9", "bets": {"banker": 1}}\n{"cards": "A 4 6 5", "bets": {"ban\n',
        "Line 2 of the log",
        "truncated",
    ),
    "truncated csv": (
        "shoe,cards,banker\n1,8 T 3 9,1\n1,A 4 6 5\n",
        "Line 3 of the log",
        "truncated",
    ),
    "truncated round": (
        '{"cards": "8 T 3 9", "bets": {"banker": 1}}\n{"cards": "2 4 5", "bets": {"banker": 1}}\n',
        "Line 2 of the log",
        "stop before the Banker's second card",
    ),
}


@pytest.mark.parametrize("name", list(BAD_LOGS))
def test_bad_logs_get_one_sentence_naming_the_line(name: str, tmp_path: Path) -> None:
    text, line, words = BAD_LOGS[name]
    log = tmp_path / "log.txt"
    log.write_text(text)
    output = tmp_path / "review.json"
    result = run("review", str(log), "--shoe", SMALL, "-o", str(output))
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert f"{line} '{log}'" in result.stderr.replace("the log '", "the log '")
    assert words in result.stderr
    assert not output.exists()
    assert not list(tmp_path.glob(".review.json.*"))


def test_a_good_log_writes_its_file(tmp_path: Path) -> None:
    output = tmp_path / "review.json"
    text = '{"cards": "8 T 3 9", "bets": {"banker": 1}}\n'
    result = run("review", "-", "--shoe", SMALL, "--format", "json", "-o", str(output), input=text)
    assert result.exit_code == 0, result.stderr
    assert json.loads(output.read_text())["total"]["actual"] == "19/20"


def test_burned_cards_shown_and_suits_price_the_cards_not_yet_seen() -> None:
    text = (
        '{"cards": "8S TH 3D 9C", "burn": "7H", "bets": {"perfect_pair": 1, "banker": 2}}\n'
        '{"cards": "2S 3S 4S 5S", "bets": {"perfect_pair": 1}}\n'
    )
    result = review(read_log(text), ReviewSpec(Shoe.standard(decks=2), RULES, ALL_BETS))
    assert result.suits_known
    first = Shoe.standard(decks=2).remove("7H")
    second = first.remove("8S TH 3D 9C")
    pairs = [
        analyze(shoe, RULES, select_bets("perfect_pair")).bets["perfect_pair"].expected_value
        for shoe in (first, second)
    ]
    banker = analyze(first, RULES).bets["banker"].expected_value
    figures = {figure.name: figure for figure in result.bets}
    assert figures["perfect_pair"].theoretical == sum(pairs)
    assert figures["banker"].theoretical == 2 * banker
    assert figures["banker"].actual == Fraction(19, 10)  # Banker's natural 9 against 1


def test_a_named_count_and_trigger_are_the_count_models() -> None:
    tags = "0,0,0,-1,-1,-1,-1,2,2,0"
    result = run_ok(
        "review",
        "examples/review/counter.csv",
        "--decks",
        "1",
        "--format",
        "json",
        "--count",
        f"tie={tags}",
        "--trigger",
        "tie=2",
    )
    data = json.loads(result.stdout)
    assert data["bets"]["tie"]["count_tags"] == [int(tag) for tag in tags.split(",")] + [0] * 3
    assert data["bets"]["tie"]["likelihood"][1]["trigger"] == "2"
    # The true count before each round: the tags of the cards dealt in its shoe, per unseen deck.
    values = dict(zip("A23456789TJQK", data["bets"]["tie"]["count_tags"], strict=True))
    seen: list[str] = []
    shoe = None
    for record in data["round_by_round"]:
        if record["shoe"] != shoe:
            shoe, seen = record["shoe"], []
        running = sum(values[card] for card in seen)
        assert Fraction(record["bets"]["tie"]["true_count"]) == Fraction(
            running * 52, 52 - len(seen)
        )
        seen += record["cards"].split()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.fractions(min_value=-3, max_value=3, max_denominator=4),
            st.integers(min_value=1, max_value=9),
            min_size=1,
            max_size=3,
        ),
        min_size=1,
        max_size=5,
    ),
    st.fractions(min_value=-8, max_value=8, max_denominator=4),
)
def test_luck_probability_is_brute_force_on_any_small_distributions(
    weights: list[dict[Fraction, int]], actual: Fraction
) -> None:
    distributions = [
        {value: Fraction(weight, sum(each.values())) for value, weight in each.items()}
        for each in weights
    ]
    luck = luck_probability(distributions, actual)
    assert luck.method == "exact convolution"
    assert luck.probability == brute_force_tail(distributions, actual)


@pytest.mark.parametrize("output_format", ["markdown", "html"])
def test_the_document_formats_hold_the_table_figures(output_format: str) -> None:
    arguments = ("review", "examples/review/counter.csv", "--decks", "1")
    table = run_ok(*arguments).stdout
    document = run_ok(*arguments, "--format", output_format, "--no-figures").stdout
    for row in table.split("\n\n")[1].splitlines()[2:]:  # the results: every figure shown
        for cell in row.split():
            assert cell in document, (cell, output_format)


def test_a_long_log_s_luck_exact_and_normal_are_within_3_se_of_a_simulation() -> None:
    import numpy

    rng = random.Random(3)
    full = Shoe.standard(decks=8)
    shoe = deal_shoe(full, rng, left=14)
    plan = [(cards, {"banker": 1 + index % 3}) for index, cards in enumerate(shoe)]
    log = read_log(log_text([plan]))
    count = {"banker": (0,) * 13}  # a count named, so no effect of removal is derived
    result = review(log, ReviewSpec(full, RULES, ALL_BETS, count))
    bounded = review(log, ReviewSpec(full, RULES, ALL_BETS, count, exact_work_limit=1))
    assert result.total.luck.method == "exact convolution"
    assert bounded.total.luck.method == "normal approximation"  # past the bound, labelled so
    # The same rounds simulated: each round's result drawn from its exact distribution.
    generator = numpy.random.default_rng(37)
    draws = 20_000
    totals = numpy.zeros(draws)
    state = full.without_suits()
    for cards, bets in plan:
        distribution = analyze(state, RULES).bets["banker"].distribution
        values = numpy.array([float(value) * bets["banker"] for value in distribution])
        chances = numpy.array([float(p) for p in distribution.values()])
        totals += generator.choice(values, size=draws, p=chances / chances.sum())
        state = state.remove(" ".join(cards))
    simulated = float(numpy.mean(totals >= float(result.total.actual) - 1e-9))
    error = (simulated * (1 - simulated) / draws) ** 0.5
    for luck in (result.total.luck, bounded.total.luck):
        shown = float(luck.probability)
        assert abs(shown - simulated) <= 3 * error, (luck.method, shown, simulated, error)
