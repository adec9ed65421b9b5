"""The compiled kernel equals its Python twin and the walk, at and past every integer limit.

The kernel computes modulo 2**64 or 2**128 and trusts a result only when a
per-shoe bound proves it in range (see exactodds/engine/kernel/_native.c); these
tests put shoes on each side of every limit the bound crosses: ff(N, 6) at 2**53
(the old float path), 2**63 and 2**64 (64-bit counts and outputs), 2**127 and
2**128 (128-bit), the weight bound times ff(N, 6) at 2**63 and 2**127, and shoes
of 2**53, 2**63 and 2**64 cards, suited and not.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Generator, Iterator
from fractions import Fraction

import numpy as np
import pytest
from budget import budgeted
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.many import Analyzer
from exactodds.bets.catalogue import select_bets
from exactodds.cli import batch_lines as batch_module
from exactodds.cli.batch_lines import BadLine, batch_lines, batch_program
from exactodds.engine.kernel import program as kernel_program
from exactodds.engine.kernel import twin
from exactodds.engine.kernel.program import build_program, evaluate, native_module
from exactodds.engine.walk import sequences

ALL = select_bets("all")
ANALYZER = Analyzer(Rules(), ALL)
LEAN = ANALYZER._lean_program(True)


def twin_outputs(shoe: Shoe) -> list[int]:
    program = ANALYZER._program
    return twin.evaluate_shoe(
        program.structure, program.weights, program.outputs, shoe.rank_counts, shoe.suit_counts
    )


def assert_kernel_is_the_walk(shoe: Shoe) -> None:
    """Every count and EV of every bet: kernel (via Analyzer) == twin == the exact walk."""
    kernel = evaluate(ANALYZER._program, [shoe.rank_counts], [shoe.suit_counts]).row(0)
    assert kernel == twin_outputs(shoe)
    got = ANALYZER.analyze(shoe)
    expected = analyze(shoe, Rules(), ALL)
    assert got.total == expected.total == sequences(shoe.cards)
    assert {n: o.count for n, o in got.outcomes.items()} == {
        n: o.count for n, o in expected.outcomes.items()
    }
    assert got.unavailable == expected.unavailable
    for name, result in expected.bets.items():
        counts = {k: v for k, v in got.bets[name].outcome_counts.items() if v}
        assert counts == {k: v for k, v in result.outcome_counts.items() if v}, name
        assert got.bets[name].expected_value == result.expected_value, name
        assert got.bets[name].moment_ratio(2)[0] * result.total == (
            result.moment_ratio(2)[0] * got.total
        )


def cards_for(limit: int) -> int:
    """The largest N with ff(N, 6) < *limit*."""
    low, high = 6, 2**30
    while low < high:
        middle = (low + high + 1) // 2
        if sequences(middle) < limit:
            low = middle
        else:
            high = middle - 1
    return low


def spread(cards: int, suited: bool, seed: int) -> Shoe:
    """A shoe of exactly *cards* cards, spread unevenly over the ranks (and suits)."""
    generator = random.Random(seed)
    slots = 52 if suited else 13
    weights = [generator.randint(1, 9) for _ in range(slots)]
    counts = [cards * weight // sum(weights) for weight in weights]
    counts[generator.randrange(slots)] += cards - sum(counts)
    if not suited:
        return Shoe(tuple(counts))
    ranks = tuple(sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13))
    return Shoe(ranks, tuple(counts))


SEQUENCE_LIMITS = [2**53, 2**63, 2**64, 2**127, 2**128]
# Where the weight bound of the all-bets program times ff(N, 6) crosses 2**63 and 2**127.
BOUND_LIMITS = [2**63 // LEAN.bound + 1, 2**127 // LEAN.bound + 1]


@pytest.mark.parametrize("suited", [False, True], ids=["ranks", "suits"])
@pytest.mark.parametrize("limit", SEQUENCE_LIMITS + BOUND_LIMITS)
def test_shoes_at_and_past_each_sequence_limit(limit: int, suited: bool) -> None:
    cards = cards_for(limit)
    assert sequences(cards) < limit <= sequences(cards + 1)
    for offset in (0, 1):
        assert_kernel_is_the_walk(spread(cards + offset, suited, seed=cards + offset))


@pytest.mark.parametrize("suited", [False, True], ids=["ranks", "suits"])
@pytest.mark.parametrize("cards", [2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 2**64 + 7])
def test_shoes_of_2_53_2_63_and_2_64_cards(cards: int, suited: bool) -> None:
    assert_kernel_is_the_walk(spread(cards, suited, seed=cards % 1000))


def test_issue_8_shoe_of_1_5_times_2_63_cards_is_exact() -> None:
    # Issue 8, item 1: this shoe gave negative counts through the batch path.
    shoe = Shoe.from_ranks({"A": 2**62, "2": 2**62, "3": 2**62})
    result = ANALYZER.analyze(shoe)
    assert all(outcome.count >= 0 for outcome in result.outcomes.values())
    assert_kernel_is_the_walk(shoe)


def shoes_of_decks() -> st.SearchStrategy[Shoe]:
    """Random partial shoes of 1-12 decks: a deck count, then cards dealt at random."""

    def build(decks: int, seed: int, suited: bool) -> Shoe:
        generator = random.Random(seed)
        cards = [r + s for r in "A23456789TJQK" for s in "SHDC" for _ in range(decks)]
        generator.shuffle(cards)
        shoe = Shoe.standard(decks=decks).remove(cards[: generator.randint(0, 52 * decks - 6)])
        return shoe if suited else shoe.without_suits()

    return st.builds(build, st.integers(1, 12), st.integers(0, 2**32), st.booleans())


@budgeted(20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes_of_decks())
def test_random_shoes_of_1_to_12_decks(shoe: Shoe) -> None:
    assert_kernel_is_the_walk(shoe)


@budgeted(20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=st.lists(st.integers(0, 2), min_size=52, max_size=52), suited=st.booleans())
def test_nearly_empty_shoes(counts: list[int], suited: bool) -> None:
    if sum(counts) < 6:
        counts[0] += 6 - sum(counts)
    ranks = tuple(sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13))
    assert_kernel_is_the_walk(Shoe(ranks, tuple(counts) if suited else None))


@budgeted(30, deadline=None)
@given(
    counts=st.lists(st.integers(0, 2**66), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)
)
# Issue 8: 1.5 x 2**63 cards gave negative counts through the batch path.
@example(counts=[2**62, 2**62, 2**62] + [0] * 10)
# The narrow/wide boundary: ff(N, 6) just past 2**64.
@example(counts=[cards_for(2**64) + 1] + [0] * 12)
def test_kernel_equals_twin_on_any_counts(counts: list[int]) -> None:
    shoe = Shoe(tuple(counts))
    assert evaluate(ANALYZER._program, [shoe.rank_counts], [None]).row(0) == twin_outputs(shoe)


def test_twin_alone_when_the_extension_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    # A platform without a C compiler: build_program finds no extension, the twin computes.
    monkeypatch.setattr(kernel_program, "native_module", lambda: None)
    monkeypatch.setattr(batch_module, "native_module", lambda: None)
    analyzer = Analyzer(Rules(), select_bets("main,perfect_pair,dragon7"))
    assert analyzer._program.native is None
    for shoe in [Shoe.standard(decks=1), Shoe.standard(decks=2).remove("KS QH 7C")]:
        got = analyzer.analyze(shoe).expected_values()
        assert got == analyze(shoe, Rules(), analyzer.bets).expected_values()
    lines = ['{"A": 7, "K": 9}', "{bad"]
    out = list(batch_lines(lines, analyzer, skip_bad=True))
    assert isinstance(out[0], str) and json.loads(out[0])["total"] == sequences(16)
    # The numpy fallback (uint64, wrapping) takes shoes whose outputs fit int64; the twin the rest.
    shoes = [
        spread(cards, suited, seed=cards)
        for cards in (6, 40, 416, 589, 590, 5000)
        for suited in (False, True)
    ]
    program = analyzer._program
    outputs = evaluate(program, [s.rank_counts for s in shoes], [s.suit_counts for s in shoes])
    for index, shoe in enumerate(shoes):
        assert outputs.row(index) == twin.evaluate_shoe(
            program.structure, program.weights, program.outputs, shoe.rank_counts, shoe.suit_counts
        )


def test_program_rejects_wrong_shapes() -> None:
    compiled = ANALYZER._compiled
    with pytest.raises(ValueError, match="weight per output"):
        build_program(compiled, [[1]] + [[1, 2]] * (len(compiled.keys) + 13))


@pytest.mark.skipif(native_module() is None, reason="the C extension is not built")
def test_extension_is_built_and_used() -> None:
    # CI and every machine with a C compiler build it; the fast paths depend on it.
    assert ANALYZER._program.native is not None
    assert batch_program(ANALYZER) is not None


def _native_arguments() -> list[object]:
    """Valid arguments of the extension's program(): every key's count, one output."""
    arrays = kernel_program._arrays(ANALYZER._compiled)
    keys = len(ANALYZER._compiled.keys)
    inputs = kernel_program.input_count(keys)
    output_start = np.zeros(inputs + 1, dtype=np.int32)
    output_start[1 : keys + 1] = np.arange(1, keys + 1)
    output_start[keys + 1 :] = keys
    return [
        arrays.parents,
        arrays.factors,
        arrays.size_start,
        arrays.entry_start,
        arrays.entry_key,
        arrays.entry_coefficient,
        keys,
        output_start,
        np.zeros(keys, dtype=np.int32),
        np.ones(keys, dtype=np.int64),
        1,
        1,
    ]


@pytest.mark.skipif(native_module() is None, reason="the C extension is not built")
@pytest.mark.parametrize(
    ("position", "wrong"),
    [
        (0, np.int64),  # int32 parents given as int64: 8-byte items, a length 4 divides
        (1, np.int32),  # int16 factors given as int32
        (5, np.int32),  # int64 coefficients given as int32: the length does not divide 8
        (9, np.int32),  # int64 weights given as int32
    ],
)
def test_native_program_refuses_a_wrong_item_size(position: int, wrong: type) -> None:
    module = native_module()
    assert module is not None
    arguments = _native_arguments()
    assert module.program(*arguments) is not None  # the right item sizes are taken
    array = arguments[position]
    assert isinstance(array, np.ndarray)
    arguments[position] = array.astype(wrong)
    with pytest.raises(ValueError, match="wrong item size"):
        module.program(*arguments)


# Batch text ------------------------------------------------------------------

SIMPLE_AND_NOT = [
    '{"A": 4, "2": 4, "3": 4, "4": 4, "5": 4, "6": 4, "7": 4, "8": 4, "9": 4, "T": 4, "J": 4, "Q": 4, "K": 4}',
    ' { "K" :7 ,"A":0}\t\r\n',
    '{"AS": 2, "KH": 3, "7C": 4}',
    '{"AS": 2, "K": 3}',
    '{"10": 7}',
    '{"a": 7}',
    '{"K": 7, "K": 8}',
    '{"KS": 7, "KS": 8}',
    '{"K": 07}',
    '{"K": -7}',
    '{"K": 7.0}',
    '{"K": 1e2}',
    '{"K": 700000000000000000000}',
    '{"A": 4611686018427387904, "2": 4611686018427387904, "3": 4611686018427387904}',
    '{"K": 5}',
    "{}",
    "[1]",
    '{"K": {"A": 1}}',
    '{"Ké": 7}',
    '\ufeff{"K": 7}',
    '{"K": 7}}',
    "",
    "   ",
    "\x0c",
    '{"K": 9} x',
    '{"K": true}',
    '{"K": null}',
    '{"K\\u0053": 7}',
]


def random_lines(count: int, seed: int) -> list[str]:
    generator = random.Random(seed)
    lines = []
    for _ in range(count):
        decks = generator.choice([1, 2, 8, 12, 60, 10**4, 10**7])
        counts = {
            f"{rank}{suit}": generator.randint(0, decks)
            for rank in "A23456789TJQK"
            for suit in "SHDC"
        }
        if generator.random() < 0.5:
            ranks: dict[str, int] = {}
            for key, value in counts.items():
                ranks[key[0]] = ranks.get(key[0], 0) + value
            lines.append(json.dumps(ranks))
        else:
            lines.append(
                json.dumps({k: v for k, v in counts.items() if v or generator.random() < 0.5})
            )
    return lines


@pytest.mark.parametrize("digits", [0, 1, 10, 37, 100])
@pytest.mark.parametrize("skip_bad", [True, False])
def test_batch_text_is_the_python_formatters_text(digits: int, skip_bad: bool) -> None:
    lines = random_lines(40, seed=digits) + SIMPLE_AND_NOT + random_lines(5, seed=1)
    for rules in (Rules(), Rules(variant="super6"), Rules(commission="4%", tie_pays=9)):
        analyzer = Analyzer(rules, select_bets("all", rules))
        settings_ = (analyzer, digits, False, skip_bad)
        fast = batch_module._batch_chunk((1, lines), settings_)
        python = batch_module._python_chunk((1, lines), settings_)
        assert "".join(map(str, fast)) == "".join(map(str, python))
        assert [item for item in fast if isinstance(item, BadLine)] == [
            item for item in python if isinstance(item, BadLine)
        ]


def test_batch_output_is_the_same_for_any_jobs_and_chunking() -> None:
    lines = random_lines(120, seed=3) + SIMPLE_AND_NOT
    outputs = {
        (jobs, chunk): "".join(map(str, batch_lines(lines, ANALYZER, 10, False, True, jobs, chunk)))
        for jobs in (1, 2, 3)
        for chunk in (1, 7, 2048)
    }
    assert len(set(outputs.values())) == 1


def test_batch_stops_computing_when_the_reader_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    original = batch_module._batch_chunk

    def counting(
        job: tuple[int, list[str]], settings: tuple[Analyzer, int, bool, bool]
    ) -> list[str | BadLine]:
        started.append(job[0])
        return original(job, settings)

    monkeypatch.setattr(batch_module, "_batch_chunk", counting)

    def endless() -> Iterator[str]:
        while True:
            yield '{"A": 7, "K": 9}'

    output = batch_lines(endless(), ANALYZER, jobs=2, chunk_lines=4)
    next(output)
    assert isinstance(output, Generator)
    output.close()  # as when writing to a closed pipe ends the command
    seen = len(started)
    assert seen <= 2 * 2 + 1
    assert len(started) == seen


def test_batch_text_with_pays_of_huge_denominators() -> None:
    # A commission of 1/(2**61 + 1): EV denominators total * d pass 2**128 on large shoes,
    # where the compiled writer hands the line back to Python.
    rules = Rules(commission=Fraction(1, 2**61 + 1))
    analyzer = Analyzer(rules, select_bets("main,dragon7,perfect_pair", rules))
    lines = [
        '{"A": 400000, "K": 300000, "5": 200001}',
        '{"A": 40, "K": 30, "5": 21}',
        '{"AS": 4, "2H": 4, "3C": 4}',
    ]
    settings_ = (analyzer, 12, False, False)
    fast = batch_module._batch_chunk((1, lines), settings_)
    assert "".join(map(str, fast)) == "".join(
        map(str, batch_module._python_chunk((1, lines), settings_))
    )


def test_batch_threads_build_the_program_once() -> None:
    # Workers start together on a fresh analyzer: the layout is attached exactly once.
    analyzer = Analyzer(Rules(), select_bets("main,lucky6"))
    lines = random_lines(64, seed=9)
    first = "".join(map(str, batch_lines(lines, analyzer, jobs=4, chunk_lines=2)))
    assert first == "".join(map(str, batch_lines(lines, analyzer, jobs=1)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes_of_decks())
def test_bet_figures_equal_their_definitions(shoe: Shoe) -> None:
    # Win, push and loss read each pay's sign once; the edge per resolved bet comes from
    # integers: both must equal the plain definitions from the outcome counts.
    for result in ANALYZER.analyze(shoe).bets.values():
        by_sign = {-1: 0, 0: 0, 1: 0}
        for outcome, count in result.outcome_counts.items():
            pay = result.bet.pay(outcome)
            by_sign[(pay > 0) - (pay < 0)] += count
        assert result.win_probability == Fraction(by_sign[1], result.total)
        assert result.push_probability == Fraction(by_sign[0], result.total)
        assert result.loss_probability == Fraction(by_sign[-1], result.total)
        resolved = 1 - result.push_probability
        expected = None if resolved == 0 else result.house_edge / resolved
        assert result.house_edge_per_resolved_bet == expected
        assert result.expected_value == Fraction(*result.moment_ratio())


@pytest.mark.skipif(
    not os.environ.get("CI"),
    reason="runs only under CI (the CI variable set), where the kernel must be built; elsewhere it is optional",
)
def test_ci_runs_the_compiled_kernel() -> None:
    # The extension is optional at install time; under CI a silent build failure would leave
    # every kernel test running on the fallbacks alone, so CI insists that it was built.
    assert native_module() is not None
