"""The batch path (compiled polynomials + closed forms) equals the exact walk, shoe by shoe.

And ``exactodds batch``, its command: JSON lines in, JSON lines out, exact, in order, with
clear bad-line errors.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from budget import budgeted
from cli_runner import run
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from exactodds import Bet, Rules, Shoe, ShoeError, analyze
from exactodds.analysis.many import Analyzer, analyze_many
from exactodds.bets.catalogue import select_bets
from exactodds.bets.custom import parse_custom_bets
from exactodds.engine.coefficients import polynomials
from exactodds.engine.walk import sequences
from exactodds.rules import Tableau

ALL_RULES = [
    Rules(),
    Rules(variant="ez"),
    Rules(variant="super6"),
    Rules(commission="4%", tie_pays=9, ties_push=False, fee="1/5"),
]

# A user-defined bet that mixes pair states with totals, so it takes the exact-walk route.
MIXED_BET = parse_custom_bets(
    """
[[bet]]
name = "pair_and_player_wins"
[[bet.outcome]]
when = { player_pair = true, winner = "player" }
pays = 20
"""
)[0]


_ANALYZERS: dict[tuple[Rules, tuple[Bet, ...]], Analyzer] = {}


def assert_same(shoe: Shoe, rules: Rules, bets: list[Bet]) -> None:
    """The batch path and the walk agree on every count and EV (analyzers reused: they compile)."""
    expected = analyze(shoe, rules, bets)
    analyzer = _ANALYZERS.setdefault((rules, tuple(bets)), Analyzer(rules, bets))
    got = analyzer.analyze(shoe)
    assert got.total == expected.total == sequences(shoe.cards)
    assert {n: o.count for n, o in got.outcomes.items()} == {
        n: o.count for n, o in expected.outcomes.items()
    }
    assert got.unavailable == expected.unavailable
    assert list(got.bets) == list(expected.bets)
    for name, result in expected.bets.items():
        counts = {k: v for k, v in got.bets[name].outcome_counts.items() if v}
        assert counts == {k: v for k, v in result.outcome_counts.items() if v}, name
        assert got.bets[name].expected_value == result.expected_value


def rank_shoes(max_count: int) -> st.SearchStrategy[Shoe]:
    return (
        st.lists(st.integers(0, max_count), min_size=13, max_size=13)
        .filter(lambda counts: sum(counts) >= 6)
        .map(lambda counts: Shoe.from_ranks(counts))
    )


def suited_shoes(max_count: int) -> st.SearchStrategy[Shoe]:
    def build(counts: list[int]) -> Shoe:
        ranks = tuple(sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13))
        return Shoe(ranks, tuple(counts))

    return (
        st.lists(st.integers(0, max_count), min_size=52, max_size=52)
        .filter(lambda counts: sum(counts) >= 6)
        .map(build)
    )


def test_analyze_many_function_streams_in_order() -> None:
    shoes = [Shoe.standard(decks=1), Shoe.standard(decks=2)]
    counts = [result.outcomes["tie"].count for result in analyze_many(shoes)]
    # Wizard of Odds, "Baccarat Odds for 1 to 12 Decks": ties for 1 and 2 decks.
    assert counts == [1372227328, 103154274240]


def test_published_eight_deck_counts() -> None:
    # Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (exact 8-deck counts, see test_published).
    result = Analyzer().analyze(Shoe.standard(decks=8))
    assert result.outcomes["banker"].count == 2292252566437888
    assert result.outcomes["player"].count == 2230518282592256
    assert result.outcomes["tie"].count == 475627426473216


@pytest.mark.parametrize("decks", range(1, 13))
def test_every_bet_equals_the_walk_on_full_shoes_of_1_to_12_decks(decks: int) -> None:
    shoe = Shoe.standard(decks=decks)
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@pytest.mark.parametrize("rules", ALL_RULES, ids=["standard", "ez", "super6", "4pct-9to1-lose"])
def test_every_rule_set_equals_the_walk(rules: Rules) -> None:
    assert_same(Shoe.standard(decks=6).remove("A K 7 7 T 2S"), rules, select_bets("all", rules))


@budgeted(25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=rank_shoes(3))
def test_nearly_empty_rank_shoes_equal_the_walk(shoe: Shoe) -> None:
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@budgeted(25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=suited_shoes(2))
def test_small_suited_shoes_equal_the_walk(shoe: Shoe) -> None:
    assert_same(shoe, Rules(), [*select_bets("all"), MIXED_BET])


@budgeted(15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=rank_shoes(48), rules=st.sampled_from(ALL_RULES))
def test_random_shoes_up_to_12_decks_equal_the_walk(shoe: Shoe, rules: Rules) -> None:
    assert_same(shoe, rules, select_bets("all", rules))


@pytest.mark.parametrize("decks", [9, 30, 200])
def test_shoes_past_float_and_int64_limits_stay_exact(decks: int) -> None:
    # 9 decks passes 2**53; 30 and 200 decks pass 2**62 (the kernel's 128-bit outputs).
    # Past 64 decks a shoe is built from its counts: Shoe.standard stops at the decks limit.
    shoe = Shoe((4 * decks,) * 13, (decks,) * 52).remove("A 2 3 K")
    assert sequences(shoe.cards) > 2**53
    if decks > 9:
        assert sequences(shoe.cards) >= 2**62
    assert_same(shoe, Rules(), select_bets("main,dragon7,lucky6,player_pair,perfect_pair"))


def test_mixed_chunk_of_sizes_keeps_input_order() -> None:
    shoes = [
        Shoe.standard(decks=1),
        Shoe.standard(decks=30).remove("KKK"),
        Shoe.standard(decks=9).remove("K"),
        Shoe.from_ranks({"A": 3, "K": 4}),
        Shoe.standard(decks=8),
    ]
    results = list(Analyzer(Rules()).analyze_many(shoes, chunk_size=2))
    assert [result.shoe for result in results] == shoes
    for shoe, result in zip(shoes, results, strict=True):
        assert result.bets["tie"].expected_value == analyze(shoe).bets["tie"].expected_value


def test_key_counts_sum_to_all_sequences() -> None:
    compiled = polynomials(Tableau())
    for counts in [
        (16, 4, 4, 4, 4, 4, 4, 4, 4, 4),
        (6, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (0,) * 9 + (7,),
    ]:
        assert sum(compiled.key_counts(counts)) == sequences(sum(counts))


def test_too_small_shoe_is_refused() -> None:
    with pytest.raises(ShoeError, match="holds 5 cards"):
        Analyzer().analyze(Shoe.from_ranks({"A": 5}))


def test_chunk_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        list(Analyzer().analyze_many([Shoe.standard(decks=1)], chunk_size=0))


def test_bets_are_routed_to_the_fast_paths() -> None:
    analyzer = Analyzer(Rules(), [*select_bets("all"), MIXED_BET])
    routes = analyzer.routes()
    assert routes["banker"] == "polynomial" and routes["dragon_bonus_player"] == "polynomial"
    assert routes["player_pair"] == "pairs" and routes["perfect_pair"] == "pairs"
    assert routes["pair_and_player_wins"] == "walk"


def test_ev_is_exact_fraction() -> None:
    result = Analyzer().analyze(Shoe.standard(decks=8))
    assert result.bets["banker"].expected_value == Fraction(-114753351728, 10847218479825)


# exactodds batch -------------------------------------------------------------------------

BATCH_SHOES = [
    Shoe.standard(decks=8),
    Shoe.standard(decks=1).remove("K K K"),
    Shoe.from_ranks({"A": 3, "9": 2, "K": 4}),
    Shoe.standard(decks=6).remove("A 2 3 4 5 6 7 8 9"),
]


def lines_of(shoes: list[Shoe]) -> str:
    return "".join(json.dumps(shoe.to_dict()) + "\n" for shoe in shoes)


def run_batch(*arguments: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = run(*arguments, input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_line_matches_analyze_in_input_order(jobs: str) -> None:
    code, stdout, stderr = run_batch(
        "batch", "--bets", "all", "--jobs", jobs, stdin=lines_of(BATCH_SHOES)
    )
    assert code == 0 and stderr == ""
    records = [json.loads(line) for line in stdout.splitlines()]
    assert len(records) == len(BATCH_SHOES)
    for shoe, record in zip(BATCH_SHOES, records, strict=True):
        # The lines give ranks only, so the suited bet is not computable on any of them.
        expected = analyze(shoe.without_suits(), Rules(), select_bets("all"))
        assert record["shoe"]["ranks"] == shoe.to_dict()
        assert record["total"] == expected.total
        assert record["outcomes"] == {n: o.count for n, o in expected.outcomes.items()}
        assert list(record["bets"]) == list(expected.bet_names)
        for name, data in record["bets"].items():
            if name in expected.unavailable:
                assert data == {"computable": False, "reason": expected.unavailable[name]}
                continue
            ev = expected.bets[name].expected_value
            assert Fraction(data["ev"]) == ev
            assert Fraction(data["house_edge"]) == -ev
            assert Fraction(data["ev_decimal"]) == round(ev, 10)
            assert Fraction(data["house_edge_decimal"]) == round(-ev, 10)


def test_full_records_carry_every_odds_field(tmp_path: Path) -> None:
    path = tmp_path / "shoes.jsonl"
    path.write_text(lines_of(BATCH_SHOES[:1]))
    code, stdout, _ = run_batch("batch", "--full", "--digits", "4", str(path))
    assert code == 0
    banker = json.loads(stdout)["bets"]["banker"]
    assert banker["house_edge_percent"] == "1.06%" and "variance" in banker


def test_suited_lines_and_blank_lines() -> None:
    suited = {f"{rank}{suit}": 1 for rank in "A23456789TJQK" for suit in "SHDC"}
    stdin = "\n" + json.dumps(suited) + "\n\n"
    code, stdout, _ = run_batch("batch", "--bets", "perfect_pair", stdin=stdin)
    assert code == 0
    (record,) = [json.loads(line) for line in stdout.splitlines()]
    expected = analyze(Shoe.standard(decks=1), Rules(), select_bets("perfect_pair"))
    assert (
        Fraction(record["bets"]["perfect_pair"]["ev"])
        == expected.bets["perfect_pair"].expected_value
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_line_stops_after_the_lines_before_it(jobs: str) -> None:
    stdin = lines_of(BATCH_SHOES[:2]) + '{"A": 2}\n' + lines_of(BATCH_SHOES[2:])
    code, stdout, stderr = run_batch("batch", "--jobs", jobs, stdin=stdin)
    assert code == 2
    assert len(stdout.splitlines()) == 2
    assert stderr.startswith("Error: Line 3: The shoe holds 2 cards")
    assert "--skip-bad" in stderr and len(stderr.splitlines()) == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_skip_bad_reports_each_and_counts(jobs: str) -> None:
    stdin = (
        '{"A": 2}\n'
        + lines_of(BATCH_SHOES[:2])
        + "{bad\n"
        + '["list"]\n'
        + lines_of(BATCH_SHOES[2:])
    )
    code, stdout, stderr = run_batch("batch", "--skip-bad", "--jobs", jobs, stdin=stdin)
    assert code == 0
    assert [json.loads(line)["shoe"]["ranks"] for line in stdout.splitlines()] == [
        shoe.to_dict() for shoe in BATCH_SHOES
    ]
    lines = stderr.splitlines()
    assert lines[0].startswith("Skipped line 1: ")
    assert lines[1].startswith("Skipped line 4: Shoe JSON is malformed")
    assert lines[2].startswith("Skipped line 5: Shoe JSON is a list")
    assert lines[3] == "Skipped 3 bad lines; wrote 4 results."


def test_bad_usage() -> None:
    code, stdout, stderr = run_batch("batch", "/no/such/file.jsonl")
    assert code == 2 and stdout == ""
    assert (
        stderr
        == "Error: Cannot read batch input '/no/such/file.jsonl': No such file or directory.\n"
    )
    code, stdout, stderr = run_batch("batch", "--bets", "nope", stdin="")
    assert code == 2 and stdout == "" and "Unknown bet 'nope'" in stderr


def test_empty_input_writes_nothing() -> None:
    assert run_batch("batch", stdin="") == (0, "", "")


def test_batch_line_text_equals_json_dumps_of_the_record() -> None:
    from exactodds.analysis.many import Analyzer
    from exactodds.report.odds import batch_line, batch_record

    analyzer = Analyzer(Rules(), select_bets("all"))
    for shoe in [Shoe.standard(decks=8), Shoe.standard(decks=2).remove("K Q"), BATCH_SHOES[2]]:
        for analysis in (analyzer.analyze(shoe), analyze(shoe, Rules(), select_bets("all"))):
            for digits in (0, 4, 12):
                assert batch_line(analysis, digits) == json.dumps(batch_record(analysis, digits))


def test_plain_exactodds_prints_help() -> None:
    code, stdout, stderr = run_batch()
    assert code == 0 and stderr == ""
    assert stdout.startswith("Usage: ") and "odds" in stdout and "batch" in stdout
