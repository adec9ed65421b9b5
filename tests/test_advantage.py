"""Depth tables, partial shoes and edge sorting against physical cards, identities and Jacobson.

Published figures (Eliot Jacobson, 888casino blog):

* "Edge Sorting in Baccarat" (August 18, 2012),
  https://www.888casino.com/blog/baccarat-tips/edge-sorting-in-baccarat : with High = {6, 7, 8, 9}
  and the first four cards seen, "the average edge the advantage player has over the house is
  20.928%"; "bet on the player side when the player has the group HL and the banker has the
  group LL ... 20.502% of hands, with a 36.332% advantage"; "no profitable wager when both the
  player and banker have the group LL, which happens on 22.824% of hands".
* "Edge Sorting in Baccarat, Update #1",
  https://www.888casino.com/blog/baccarat-tips/edge-sorting-in-baccarat-update-1 : the one-card
  sort is worth 6.765%, and Fred Roach's search over every four-card sort found "an astronomical
  advantage of 30.291% over the house".  (The post's table of groups is not in the text we could
  read; the search below finds the split that gives 30.291%, High = {4, 5, 6, 7, 8, 9}.)

Thorp and Walden's per-(n, t) figures for the natural-8/9 bets ("A Favorable Side Bet in Nevada
Baccarat", JASA 61 (1966) 313-328) were not available to us as numbers, so their model (t of
the n cards left are nines, the others random) is tested against physical cards instead.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from budget import budgeted, thorough
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import dealt_counts, physical_cards, play_round

from exactodds import Rules, Shoe
from exactodds.advantage import compositions
from exactodds.advantage.depth import (
    DepthError,
    depth_table,
    partial_odds,
    partial_shoe,
)
from exactodds.advantage.edgesort import EdgeSortError, edge_sort, search_partitions
from exactodds.analysis.known import analyze_known
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.numbers import percent_string

BETS = select_bets("main,dragon7,big,egalite_5")
EIGHT_DECKS = Shoe.standard(decks=8)


# Subsets of physical cards repeat compositions, and every bet settles the same rounds: each
# composition is dealt once.
_dealt_counts = functools.cache(dealt_counts)


def _ev(shoe: Shoe, bet: Bet) -> Fraction:
    counts = _dealt_counts(shoe)
    total = sum(counts.values())
    return sum((bet.pay(bet.settle(s)) * c for s, c in counts.items()), Fraction(0)) / total


Figures = tuple[Fraction, Fraction | None, Fraction, Fraction]


def _brute_depth(subsets: list[Shoe], bets: Sequence[Bet], edge: Fraction) -> dict[str, Figures]:
    """Per bet: P(EV > edge), E[EV | EV > edge], E[max(EV - edge, 0)], E[EV] over equal subsets."""
    return _figures({bet.name: [_ev(shoe, bet) for shoe in subsets] for bet in bets}, edge)


def _figures(evs: dict[str, list[Fraction]], edge: Fraction) -> dict[str, Figures]:
    """Per bet, from its EV on each equally likely subset: the four depth-table figures."""
    figures = {}
    for name, values in evs.items():
        above = [ev for ev in values if ev > edge]
        figures[name] = (
            Fraction(len(above), len(values)),
            sum(above, Fraction(0)) / len(above) if above else None,
            sum((ev - edge for ev in above), Fraction(0)) / len(values),
            sum(values, Fraction(0)) / len(values),
        )
    return figures


def _subset_shoe(cards: Sequence[Any]) -> Shoe:
    return Shoe.from_ranks(Counter(card.rank.symbol for card in cards))


def _as_tuples(row: Any) -> dict[str, Figures]:
    return {
        name: (f.positive_probability, f.mean_edge_when_positive, f.value, f.mean_ev)
        for name, f in row.bets.items()
    }


small_shoes = st.dictionaries(
    st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "K"]),
    st.integers(1, 3),
    min_size=2,
).filter(lambda counts: 7 <= sum(counts.values()) <= 9)


@budgeted(8, deadline=None)
@given(small_shoes, st.data())
def test_depth_equals_every_subset_of_physical_cards(
    counts: dict[str, int], data: st.DataObject
) -> None:
    shoe = Shoe.from_ranks(counts)
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    edge = data.draw(st.sampled_from([Fraction(0), Fraction(-1, 10), Fraction(1, 20)]))
    physical = physical_cards(shoe)
    subsets = [_subset_shoe(c) for c in itertools.combinations(physical, cards)]
    table = depth_table(shoe, Rules(), BETS, cards=(cards,), min_edge=edge)
    row = table.rows[0]
    assert _as_tuples(row) == _brute_depth(subsets, BETS, edge)
    assert row.compositions == len({s.value_counts for s in subsets})


@settings(max_examples=5, deadline=None)
@given(small_shoes, st.data())
def test_partial_shoe_equals_the_subsets_with_that_many_of_a_rank(
    counts: dict[str, int], data: st.DataObject
) -> None:
    shoe = Shoe.from_ranks(counts)
    rank = data.draw(st.sampled_from(sorted(counts)))
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    known = data.draw(st.integers(0, counts[rank]))
    physical = physical_cards(shoe)
    subsets = [
        _subset_shoe(c)
        for c in itertools.combinations(physical, cards)
        if sum(card.rank.symbol == rank for card in c) == known
    ]
    if not subsets:
        with pytest.raises(DepthError):
            partial_shoe(shoe, cards, {rank: known})
        return
    row = partial_odds(partial_shoe(shoe, cards, {rank: known}), Rules(), BETS)
    assert _as_tuples(row) == _brute_depth(subsets, BETS, Fraction(0))


def test_mean_ev_at_every_depth_is_the_full_shoes() -> None:
    shoe = Shoe.standard(decks=1)
    table = depth_table(shoe, Rules(), BETS, cards=(6, 10, 20))
    for row in table.rows:
        for name, figure in row.bets.items():
            assert figure.mean_ev == table.full_shoe_ev[name]
            assert 0 <= figure.positive_probability <= 1
            assert figure.value >= 0


def test_results_do_not_depend_on_jobs_or_integer_width(monkeypatch: pytest.MonkeyPatch) -> None:
    shoe = Shoe.standard(decks=1)
    one = depth_table(shoe, Rules(), BETS, cards=(9,))
    two = depth_table(shoe, Rules(), BETS, cards=(9,), jobs=2)
    assert one.to_dict() == two.to_dict()
    # Python integers in object arrays, at a depth of 6 cards, where they take a third of the
    # time 9 cards' compositions would (the budgeted width test moves the limit across bets).
    six = depth_table(shoe, Rules(), BETS, cards=(6,))
    monkeypatch.setattr(compositions, "_INT64_LIMIT", 0)
    assert depth_table(shoe, Rules(), BETS, cards=(6,)).to_dict() == six.to_dict()


@pytest.mark.slow
def test_results_do_not_depend_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("dask.distributed")
    shoe = Shoe.standard(decks=1)
    one = depth_table(shoe, Rules(), BETS, cards=(9,))
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2) as client:
        assert depth_table(shoe, Rules(), BETS, cards=(9,), dask=client).to_dict() == one.to_dict()


@pytest.mark.slow
def test_eight_decks_at_eighteen_cards_is_exact_and_counts_every_composition() -> None:
    table = depth_table(EIGHT_DECKS, cards=(18,))
    assert table.rows[0].compositions == math.comb(18 + 9, 9)


def test_depth_refuses_bad_depths_and_pair_bets() -> None:
    with pytest.raises(DepthError, match="use a whole number from 6 to 52"):
        depth_table(Shoe.standard(decks=1), cards=(53,))
    with pytest.raises(DepthError, match="pairs or suits"):
        partial_odds(partial_shoe(Shoe.standard(decks=1), 10), bets=select_bets("perfect_pair"))


# --- Edge sorting ------------------------------------------------------------------------------


def test_one_card_sort_is_jacobsons_6765_percent() -> None:
    result = edge_sort(EIGHT_DECKS, high="6789", cards=1)
    assert result.advantage == Fraction(6604082064256, 97624966318425)  # as test_known holds it
    assert percent_string(result.advantage, 3) == "6.765%"


def test_four_card_sort_with_six_to_nine_high_is_jacobsons_20928_percent() -> None:
    result = edge_sort(EIGHT_DECKS, high="6,7,8,9", cards=4)
    assert percent_string(result.advantage, 3) == "20.928%"
    patterns = {p.groups: p for p in result.patterns}
    # P1 B1 P2 B2 order: Player HL and Banker LL is HLLL or LLHL.
    assert percent_string(patterns["HLLL"].probability * 2, 3) == "20.502%"
    assert patterns["HLLL"].best_bet == "player"
    assert patterns["HLLL"].ev is not None
    assert percent_string(patterns["HLLL"].ev, 3) == "36.332%"
    assert patterns["LLLL"].best_bet is None
    assert percent_string(patterns["LLLL"].probability, 3) == "22.824%"


def test_search_finds_the_published_optimum_of_30291_percent() -> None:
    best = search_partitions(EIGHT_DECKS, cards=4)
    assert len(best) == 511
    high, advantage = best[0]
    assert percent_string(advantage, 3) == "30.291%"
    assert edge_sort(EIGHT_DECKS, high=high, cards=4).advantage == advantage
    assert high == "456789"


@pytest.mark.parametrize(("cards", "by"), [(1, "value"), (2, "value"), (3, "rank"), (4, "rank")])
def test_pattern_probabilities_add_up_to_one(cards: int, by: str) -> None:
    high = "6789" if by == "value" else "6789TJ"
    result = edge_sort(EIGHT_DECKS, high=high, cards=cards, by=by)
    assert sum(p.probability for p in result.patterns) == 1
    assert len(result.patterns) == 2**cards


def test_two_card_patterns_equal_known_card_enumeration() -> None:
    shoe = EIGHT_DECKS.without_suits()
    high = {6, 7, 8, 9}
    result = edge_sort(shoe, high="6789", cards=2)
    counts = shoe.value_counts
    for pattern in result.patterns:
        weight_sum = 0
        ev_sums: dict[str, Fraction] = {}
        for first, second in itertools.product(range(10), repeat=2):
            if ("H" if first in high else "L") + ("H" if second in high else "L") != pattern.groups:
                continue
            weight = counts[first] * (counts[second] - (first == second))
            known = {1: "TA23456789"[first], 2: "TA23456789"[second]}
            analysis = analyze_known(shoe, Rules(), known)
            weight_sum += weight
            for name, bet in analysis.bets.items():
                ev_sums[name] = ev_sums.get(name, Fraction(0)) + weight * bet.expected_value
        assert dict(pattern.evs) == {name: ev / weight_sum for name, ev in ev_sums.items()}


def test_edge_sort_equals_physical_cards_on_a_small_shoe() -> None:
    shoe = Shoe.from_ranks({"A": 2, "4": 1, "6": 2, "9": 2, "K": 2})
    result = edge_sort(shoe, high="69", cards=3)
    bets = select_bets("main")
    sums: dict[str, dict[str, Fraction]] = {}
    weights: Counter[str] = Counter()
    for sequence in itertools.permutations(physical_cards(shoe), 6):
        summary = play_round(sequence, suits_known=False)
        assert summary is not None
        groups = "".join("H" if card.value in (6, 9) else "L" for card in sequence[:3])
        weights[groups] += 1
        for bet in bets:
            totals = sums.setdefault(groups, {})
            totals[bet.name] = totals.get(bet.name, Fraction(0)) + bet.pay(bet.settle(summary))
    total = sum(weights.values())
    for pattern in result.patterns:
        assert pattern.probability == Fraction(weights[pattern.groups], total)
        assert dict(pattern.evs) == {
            name: Fraction(value) / weights[pattern.groups]
            for name, value in sums[pattern.groups].items()
        }


def test_edge_sort_refuses_bad_groups_cards_and_bets() -> None:
    with pytest.raises(EdgeSortError, match="everything"):
        edge_sort(EIGHT_DECKS, high="0123456789")
    with pytest.raises(EdgeSortError, match="not valid"):
        edge_sort(EIGHT_DECKS, cards=5)
    with pytest.raises(EdgeSortError, match="pairs or suits"):
        edge_sort(EIGHT_DECKS, bets=select_bets("player_pair"))


# --- The commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["depth", "--cards", "5"], "Depth 5 for --cards is not valid"),
        (["depth", "--decks", "1", "--cards", "60"], "use a whole number from 6 to 52"),
        (["depth", "--bets", "nosuch"], "Unknown bet 'nosuch'"),
        (["depth", "--cards", "x"], "is not a number of cards"),
        (["edgesort", "--high", ""], "is empty"),
        (["edgesort", "--high", "0123456789"], "is everything"),
        (["edgesort", "--bets", "nosuch"], "Unknown bet 'nosuch'"),
        (["depth", "--decks", "1", "--cards", "6", "--exact"], "--format json"),
        (["edgesort", "--cards", "1", "--exact"], "--format json"),
        (["depth", "--decks", "1", "--cards", "6", "--dask", "not a url"], "not a scheduler"),
        (
            [
                "depth",
                "--decks",
                "1",
                "--cards",
                "6",
                "--left-known",
                "T=1",
                "--left-known",
                "10=1",
            ],
            "twice",
        ),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(arguments: list[str], fragment: str) -> None:
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_depth_and_edgesort_json() -> None:
    import json

    runner = CliRunner()
    result = runner.invoke(cli, ["depth", "--decks", "1", "--cards", "8", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["depths"][0]["cards"] == 8
    banker = data["depths"][0]["bets"]["banker"]
    assert Fraction(banker["mean_ev"]) == Fraction(data["full_shoe_ev"]["banker"])
    assert set(banker) >= {"positive_probability", "mean_edge_when_positive", "value", "mean_ev"}
    result = runner.invoke(cli, ["edgesort", "--cards", "1", "--format", "json"])
    data = json.loads(result.stdout)
    assert Fraction(data["advantage"]) == Fraction(6604082064256, 97624966318425)
    assert [p["best_bet"] for p in data["patterns"]] == ["banker", "player"]
    result = runner.invoke(cli, ["edgesort", "--cards", "1", "--search", "--format", "json"])
    best = json.loads(result.stdout)["best"]
    assert Fraction(best[0]["advantage"]) >= Fraction(best[1]["advantage"])


def test_depth_plot_writes_a_figure_per_bet(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(
        cli, ["depth", "--decks", "1", "--cards", "7,8", "--bets", "tie", "--plot", str(tmp_path)]
    )
    assert result.exit_code == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tie-depth.png", "tie-depth.svg"]


def test_a_bet_that_cannot_settle_gets_the_one_sentence_every_entry_point_gives() -> None:
    from exactodds import analyze
    from exactodds.advantage.depth import depth_table
    from exactodds.errors import BetError

    failing = Bet("odd", "Fails on every round.", lambda summary: str(1 / 0), {"win": 1})
    shoe = Shoe.standard(decks=1)
    with pytest.raises(BetError) as from_analyze:
        analyze(shoe, Rules(), [failing])
    for call in (
        lambda: edge_sort(shoe, Rules(), [failing], "6789", 1),
        lambda: depth_table(shoe, Rules(), [failing], (10,)),
    ):
        with pytest.raises(BetError) as refused:
            call()
        assert str(refused.value) == str(from_analyze.value)


def test_the_command_line_and_the_library_default_to_the_same_depths() -> None:
    from exactodds.advantage.depth import DEFAULT_DEPTHS
    from exactodds.cli.depth import depth as depth_command

    (option,) = [parameter for parameter in depth_command.params if parameter.name == "depths"]
    assert option.default == ",".join(map(str, DEFAULT_DEPTHS))


# --- Reliability: tableaux, hostile arguments (issue 29) --------------------------------------


def _tableaux() -> list[Any]:
    from dataclasses import replace

    from exactodds.rulefiles import resolve_rules_file
    from exactodds.rules import Tableau

    draws_on_seven = replace(Tableau(), player_draws=(True,) * 8 + (False,) * 2)
    return [
        resolve_rules_file("banker_as_player").tableau,
        resolve_rules_file("chemin_de_fer_stand").tableau,
        draws_on_seven,
    ]


def _walked_depth(
    subsets: list[Shoe], rules: Rules, bets: Sequence[Bet], edge: Fraction
) -> dict[str, Figures]:
    """The figures over equally likely subsets, each priced by the walk under *rules* itself."""
    from exactodds import analyze

    evs = {bet.name: [] for bet in bets}  # type: dict[str, list[Fraction]]
    for subset in subsets:
        priced = analyze(subset, rules, bets)
        for bet in bets:
            evs[bet.name].append(priced.bets[bet.name].expected_value)
    return _figures(evs, edge)


@budgeted(6, deadline=None)
@given(small_shoes, st.data())
def test_depth_prices_every_tableau_on_its_own_rounds(
    counts: dict[str, int], data: st.DataObject
) -> None:
    shoe = Shoe.from_ranks(counts)
    rules = Rules(tableau=data.draw(st.sampled_from(_tableaux())))
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    physical = physical_cards(shoe)
    subsets = [_subset_shoe(c) for c in itertools.combinations(physical, cards)]
    table = depth_table(shoe, rules, BETS, cards=(cards,))
    assert _as_tuples(table.rows[0]) == _walked_depth(subsets, rules, BETS, Fraction(0))
    rank = data.draw(st.sampled_from(sorted(counts)))
    known = data.draw(st.integers(0, counts[rank]))
    kept = [
        _subset_shoe(c)
        for c in itertools.combinations(physical, cards)
        if sum(card.rank.symbol == rank for card in c) == known
    ]
    if kept:
        row = partial_odds(partial_shoe(shoe, cards, {rank: known}), rules, BETS)
        assert _as_tuples(row) == _walked_depth(kept, rules, BETS, Fraction(0))


def test_the_shipped_rules_files_run_in_depth_from_the_command_line() -> None:
    for name in ("banker_as_player", "chemin_de_fer_stand"):
        result = CliRunner().invoke(
            cli, ["depth", "--decks", "1", "--cards", "6", "--rules", name, "--format", "json"]
        )
        assert result.exit_code == 0, result.stderr


def test_a_partial_shoe_is_checked_against_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    from exactodds.advantage import depth as depth_module
    from exactodds.advantage.depth import DepthCheckError

    partial = partial_shoe(Shoe.standard(decks=1), 8, {"9": 2})
    wrong = depth_module._key_outcomes

    def shifted(bet: Bet, rules: Rules) -> tuple[str, ...] | None:
        outcomes = wrong(bet, rules)
        return None if outcomes is None else (*outcomes[1:], outcomes[0])

    monkeypatch.setattr(depth_module, "_key_outcomes", shifted)
    with pytest.raises(DepthCheckError, match="dealt out"):
        partial_odds(partial, Rules(), select_bets("main"))


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: depth_table(Shoe.standard(decks=1), cards=7), "cards"),  # type: ignore[arg-type]
        (lambda: depth_table(None), "shoe"),  # type: ignore[arg-type]
        (lambda: partial_odds(None), "partial"),  # type: ignore[arg-type]
        (lambda: edge_sort(None), "shoe"),  # type: ignore[arg-type]
        (lambda: depth_table(Shoe.standard(decks=1), progress=1), "progress"),  # type: ignore[arg-type]
        (lambda: depth_table(Shoe.standard(decks=1), known=["9"]), "known"),  # type: ignore[arg-type]
        (lambda: depth_table(Shoe.standard(decks=1), known={"T": 1, "10": 1}), "known"),
        (lambda: edge_sort(EIGHT_DECKS, high=None), "high"),  # type: ignore[arg-type]
        (lambda: edge_sort(EIGHT_DECKS, high=[6, 7]), "high"),  # type: ignore[list-item]
        (lambda: edge_sort(EIGHT_DECKS, cards=4.0), "cards"),  # type: ignore[arg-type]
    ],
)
def test_hostile_library_arguments_get_one_sentence_naming_the_parameter(
    call: Any, parameter: str
) -> None:
    from exactodds.errors import ExactOddsError

    with pytest.raises(ExactOddsError) as refused:
        call()
    message = str(refused.value)
    assert parameter in message.lower()
    assert "bug" not in message
    assert "\n" not in message and message.endswith(".")


def test_a_huge_shoe_costs_no_more_than_a_small_one_at_the_same_depth() -> None:
    # The weights need C(pool, r) only for r up to the cards drawn, not the pool's size.
    result = CliRunner().invoke(
        cli,
        [
            "depth",
            "--shoe",
            ",".join(f"{rank}=4000000" for rank in "A23456789TJQK"),
            "--cards",
            "6",
            "--bets",
            "tie",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    import json

    row = json.loads(result.stdout)["depths"][0]
    assert row["compositions"] == math.comb(6 + 9, 9)


def test_a_run_of_ranks_may_spell_the_ten_10() -> None:
    spelled = edge_sort(EIGHT_DECKS, high="10JQK", cards=1, by="rank")
    assert spelled == edge_sort(EIGHT_DECKS, high="TJQK", cards=1, by="rank")
    assert spelled.high == "TJQK"
    result = CliRunner().invoke(
        cli, ["edgesort", "--by", "rank", "--high", "10JQK", "--cards", "1"]
    )
    assert result.exit_code == 0, result.stderr


# --- Pair and suited-pair bets (issue 26, item 3) ---------------------------------------------

PAIR_BETS = select_bets("player_pair,banker_pair,either_pair,perfect_pair")

small_suited_shoes = st.dictionaries(
    st.sampled_from(["AS", "AH", "2S", "2D", "5C", "9H", "9S", "KS", "KD", "QH"]),
    st.integers(1, 3),
    min_size=2,
).filter(lambda counts: 7 <= sum(counts.values()) <= 9)


def _suited_subset(cards: Sequence[Any]) -> Shoe:
    return Shoe.from_mapping(Counter(card.rank.symbol + card.suit.symbol for card in cards))


@budgeted(8, deadline=None)
@given(small_suited_shoes, st.data())
def test_pair_depth_equals_every_subset_of_physical_cards(
    counts: dict[str, int], data: st.DataObject
) -> None:
    shoe = Shoe.from_mapping(counts)
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    edge = data.draw(st.sampled_from([Fraction(0), Fraction(-1, 2), Fraction(-9, 10)]))
    bets = [*PAIR_BETS, *select_bets("banker")]
    subsets = [_suited_subset(c) for c in itertools.combinations(physical_cards(shoe), cards)]
    table = depth_table(shoe, Rules(), bets, cards=(cards,), min_edge=edge)
    assert _as_tuples(table.rows[0]) == _brute_depth(subsets, bets, edge)


@settings(max_examples=5, deadline=None)
@given(small_shoes, st.data())
def test_pair_depth_with_known_ranks_equals_the_subsets_with_that_many(
    counts: dict[str, int], data: st.DataObject
) -> None:
    shoe = Shoe.from_ranks(counts)
    rank = data.draw(st.sampled_from(sorted(counts)))
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    known = data.draw(st.integers(0, counts[rank]))
    bets = select_bets("player_pair,either_pair")
    subsets = [
        _subset_shoe(c)
        for c in itertools.combinations(physical_cards(shoe), cards)
        if sum(card.rank.symbol == rank for card in c) == known
    ]
    if not subsets:
        return
    table = depth_table(shoe, Rules(), bets, cards=(cards,), known={rank: known})
    assert _as_tuples(table.rows[0]) == _brute_depth(subsets, bets, Fraction(0))


@thorough  # 8 decks; pair depth equals physical cards on small shoes by default
def test_pair_depth_mean_ev_is_the_full_shoes_on_eight_decks() -> None:
    table = depth_table(EIGHT_DECKS, bets=PAIR_BETS, cards=(6, 18, 26))
    from exactodds import analyze

    full = analyze(EIGHT_DECKS, Rules(), PAIR_BETS)
    for row in table.rows:
        for bet in PAIR_BETS:
            assert row.bets[bet.name].mean_ev == full.bets[bet.name].expected_value
    # The Player pair pays 11 to 1: it turns positive once S / ff(K, 2) exceeds 1/12.
    assert 0 < table.rows[0].bets["player_pair"].positive_probability < 1


def test_pair_bets_in_the_command_line_and_what_a_depth_table_still_refuses() -> None:
    from exactodds.errors import BetError

    result = CliRunner().invoke(
        cli, ["depth", "--decks", "1", "--cards", "8", "--bets", "player_pair", "--format", "json"]
    )
    assert result.exit_code == 0, result.stderr
    row = json.loads(result.stdout)["depths"][0]
    ranks = itertools.combinations_with_replacement(range(13), 8)
    assert row["compositions"] == sum(max(Counter(c).values()) <= 4 for c in ranks)
    mixed = Bet(
        "pair_and_win",
        "A Player pair that wins.",
        lambda s: "win" if s.player_pair and s.winner.value == "player" else "lose",
        {"win": 20},
    )
    with pytest.raises(DepthError, match="together with the values"):
        depth_table(Shoe.standard(decks=1), bets=[mixed], cards=(8,))
    with pytest.raises(DepthError, match="suits"):
        depth_table(Shoe.standard(decks=1).without_suits(), bets=PAIR_BETS, cards=(8,))
    with pytest.raises(DepthError, match="known"):
        depth_table(Shoe.standard(decks=2), bets=PAIR_BETS, cards=(8,), known={"9": 1})
    assert not issubclass(DepthError, BetError)


# --- Integer width per group of bets (issue 27, item 4) ---------------------------------------


@budgeted(4, deadline=None)
@given(small_shoes, st.data())
def test_every_integer_width_boundary_equals_the_fraction_reference(
    counts: dict[str, int], data: st.DataObject
) -> None:
    """The int64 limit moved across the bets' bounds: some bets run in int64 and the others
    on Python integers, split into groups; every figure still equals physical cards'."""
    from exactodds.advantage import depth as depth_module

    shoe = Shoe.from_ranks(counts)
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    problem, _ = depth_module.partial_problem(partial_shoe(shoe, cards), Rules(), BETS, Fraction(0))
    widths = sorted({(64 * bound).bit_length() for bound in problem.bounds})
    limit = data.draw(st.sampled_from([*widths, widths[-1] + 1]))
    calls = []
    solve = compositions.solve

    def counted(*arguments: Any) -> Any:
        calls.append(arguments[0].bets)
        return solve(*arguments)

    subsets = [_subset_shoe(c) for c in itertools.combinations(physical_cards(shoe), cards)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compositions, "_INT64_LIMIT", 2**limit)
        patch.setattr(depth_module, "solve", counted)
        row = depth_table(shoe, Rules(), BETS, cards=(cards,)).rows[0]
    assert _as_tuples(row) == _brute_depth(subsets, BETS, Fraction(0))
    narrow = sum((64 * bound).bit_length() <= limit for bound in problem.bounds)
    split = 0 < narrow < len(BETS)
    assert sorted(calls) == (sorted([narrow, len(BETS) - narrow]) if split else [len(BETS)])


# --- Bets with the same pay row up to a positive factor solved once (issue 27, item 4) ----------


def _scaled(bet: Bet, name: str, factor: Fraction, losing: bool = True) -> Bet:
    """*bet* under another name, every pay times *factor* (losing pays kept only if *losing*)."""
    pays = {
        outcome: pay * factor if pay >= 0 or losing else Fraction(0)
        for outcome, pay in bet.pay_table.items()
    }
    return Bet(name, f"{bet.name} scaled", bet.settle, pays)


@budgeted(6, deadline=None)
@given(small_shoes, st.data())
def test_bets_that_share_a_pay_row_equal_the_tables_of_each_bet_alone(
    counts: dict[str, int], data: st.DataObject
) -> None:
    """Copies, halves and doubles of bets share one solved row; each bet's figures still equal
    its table alone, at a zero and a positive edge (where a double's threshold differs)."""
    from exactodds.advantage import depth as depth_module

    player, dragon7 = select_bets("player,dragon7")
    win_only = _scaled(player, "player_win_only", Fraction(1), losing=False)
    bets = [
        player,
        _scaled(player, "player_again", Fraction(1)),
        _scaled(player, "player_half", Fraction(1, 2)),
        win_only,
        _scaled(win_only, "player_win_double", Fraction(2)),
        dragon7,
    ]
    shoe = Shoe.from_ranks(counts)
    cards = data.draw(st.integers(6, min(shoe.cards, 8)))
    edge = data.draw(st.sampled_from([Fraction(0), Fraction(1, 50), Fraction(-1, 3)]))
    calls = []
    solve = compositions.solve

    def counted(*arguments: Any) -> Any:
        calls.append(arguments[0].bets)
        return solve(*arguments)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(depth_module, "solve", counted)
        table = depth_table(shoe, Rules(), bets, cards=(cards,), min_edge=edge)
    # player's three rows and the two win-only rows are one each at a zero edge.
    assert sum(calls) == 3 if edge == 0 else sum(calls) < len(bets)
    for bet in bets:
        alone = depth_table(shoe, Rules(), [bet], cards=(cards,), min_edge=edge)
        assert table.rows[0].bets[bet.name] == alone.rows[0].bets[bet.name]
        assert table.rows[0].compositions == alone.rows[0].compositions
