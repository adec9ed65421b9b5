"""Card terms: card-level bets priced on many shoes, checked three ways.

* against physical cards: random card-level outcomes (first two cards, third cards, counts of
  matching cards, colours, suits, faces; the strategies of ``test_card_bets``) on small suited
  shoes, the compiled terms' EV equal to a brute force over every ordered six-card sequence and
  to the card walk's;
* invariants: a value of 1 on every round sums to every six-card sequence, for views with and
  without suits, and the dealt round a simulation settles is the walk's round;
* published: Perfect 9 Bonus at 7.47% on 8 decks (Wizard of Odds), as the terms price it;
* simulate and audit: a simulation's per-round exact EV equals ``odds`` (the card walk) on the
  same composition, and the commands that cannot price a bet or an overlay say so in one
  sentence with the measured rate and the time of the run asked.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
from budget import budgeted, thorough
from cli_runner import run
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st
from test_card_bets import _brute_force, _Condition, _outcomes, _small_shoes

from exactodds import Rules, Shoe
from exactodds.analysis.cardprice import card_bet_terms, card_expected_values
from exactodds.analysis.many import Analyzer
from exactodds.analysis.single import price_card_bet
from exactodds.bets.custom import load_custom_bets, parse_custom_bets
from exactodds.engine.cardterms import compile_card_terms, dealt_card_round, leaf_count
from exactodds.engine.cardwalk import CardRound, CardView, enumerate_card_rounds
from exactodds.rules import Tableau
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import exact_expected_values, known_shoe
from exactodds.simulation.study import Simulation

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bets"
#: One Perfect 9 for the module: its card terms are compiled once per bet (a bet read again is
#: another bet, its conditions' tests other functions).
(PERFECT_9,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
#: A card symbol's rank -> its value.
VALUE = {rank: value % 10 for value, rank in enumerate("A23456789TJQK", start=1)} | {
    rank: 0 for rank in "TJQK"
}


def _terms_value(bet_shoe: Shoe, bet: object) -> Fraction:
    numerators, denominators = card_expected_values(
        bet,  # type: ignore[arg-type]
        Tableau(),
        [bet_shoe.rank_counts],
        [bet_shoe.suit_counts],
    )
    return Fraction(numerators[0], denominators[0])


@budgeted(16, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(shoe=_small_shoes(), outcomes=st.lists(_outcomes(), min_size=1, max_size=2))
def test_card_terms_match_physical_cards(shoe: Shoe, outcomes: list[_Condition]) -> None:
    """The compiled terms' exact EV equals every physical six-card sequence's and the walk's."""
    text = '[[bet]]\nname = "card_bet"\n' + "".join(
        f'[[bet.outcome]]\nname = "o{index}"\nwhen = {{ {toml} }}\npays = {index + 2}\n'
        for index, (toml, _) in enumerate(outcomes)
    )
    (bet,) = parse_custom_bets(text)
    # Views past the compile bound (two marks or four suits of every card) are refused apart;
    # views of more than 6 million rounds (ranks and colours of every card: 28 million) compile
    # in seconds, too long for an example.
    assume(bet.cards is not None and leaf_count(bet.cards) <= 6_000_000)
    expected = _brute_force(shoe, outcomes)
    total = sum(expected.values())
    brute = sum(bet.pay(name) * count for name, count in expected.items()) / total
    assert _terms_value(shoe, bet) == brute == price_card_bet(shoe, Rules(), bet).expected_value


def test_terms_count_every_sequence() -> None:
    """A value of 1 on every round sums to n(n-1)...(n-5), on shoes with and without suits (a
    view that reads suits: the brute force above)."""
    shoes = (Shoe.standard(decks=1), Shoe.standard(decks=3).remove("7H 7S KD 2C 2C"))
    every = compile_card_terms(CardView(ranks=True, player_first=True), Tableau(), lambda _: 1)
    ranks = [shoe.rank_counts for shoe in shoes]
    assert every.evaluate(ranks) == every.evaluate(ranks, [shoe.suit_counts for shoe in shoes])
    assert every.evaluate(ranks) == [shoe.sequences for shoe in shoes]


def test_dealt_round_is_the_walks_round() -> None:
    """Each round a tiny shoe deals, read as the walk reads it, is a round the walk counts."""
    view = CardView(colours=True, suited=True, whole_round=True)
    shoe = Shoe.from_mapping({"9H": 2, "KD": 1, "KS": 2, "AH": 1, "5C": 1})
    table = enumerate_card_rounds(shoe, view)
    types = [index for index, count in enumerate(shoe.suit_counts or ()) for _ in range(count)]
    counted = {_unordered(round_) for round_ in table.counts}
    for order in ((0, 1, 2, 3, 4, 5), (6, 5, 4, 3, 2, 1), (2, 4, 6, 0, 1, 3)):
        cards = [types[index] for index in order]
        dealt = dealt_card_round(view, Tableau(), cards[:6])
        dealt_cards = len(dealt.player) + len(dealt.banker)
        assert _unordered(dealt) in counted, cards
        assert dealt == dealt_card_round(view, Tableau(), cards[:dealt_cards])


def _unordered(round_: CardRound) -> tuple[object, ...]:
    """A round with each hand's first two cards as an unordered pair (the walk orders them by
    its own numbering of the shoe's classes)."""

    def hand(cards: tuple[object, ...]) -> tuple[object, ...]:
        return (tuple(sorted(map(repr, cards[:2]))), cards[2:])

    return (
        round_.summary,
        hand(round_.player),
        hand(round_.banker),
        round_.player_suited,
        round_.banker_suited,
    )


def test_perfect_9_published_by_the_terms() -> None:
    """Wizard of Odds, "Perfect 9 Bonus Baccarat" (wizardofodds.com/article/perfect-9-bonus-
    baccarat/): 8 decks, house edge 7.47%; the terms give the walk's exact 31/415."""
    value = _terms_value(Shoe.standard(decks=8), PERFECT_9)
    assert value == Fraction(-31, 415)
    assert round(float(-value) * 100, 2) == 7.47


def test_simulated_round_values_equal_odds() -> None:
    """A simulation's exact EV of each round is `odds`' (the card walk) on the composition known
    before it: Perfect 9 on the first rounds of a dealt 1-deck shoe."""
    bet = PERFECT_9
    simulation = Simulation.of(1, 5, bets=[bet], procedure=DealingProcedure(decks=1, cut=14))
    block = deal_block(simulation.procedure, Tableau(), 5, 0, 1)
    rows = block.known[[0, 2, 4]]
    values = exact_expected_values(simulation_analyzer(simulation), rows, suited=True)
    for row in range(len(rows)):
        shoe = known_shoe(rows[row], suited=True)
        assert values.fraction(row, 0) == price_card_bet(shoe, Rules(), bet).expected_value


def simulation_analyzer(simulation: Simulation) -> Analyzer:
    from exactodds.simulation.block import prepare

    return prepare(simulation.rules, simulation.bets).analyzer


def test_simulate_takes_a_card_level_bet(tmp_path: Path) -> None:
    """simulate takes a card-level bet (here a nine with a ten-value card, quick to compile) with
    a count, exit 0, its figures in JSON."""
    path = tmp_path / "nine.toml"
    path.write_text(
        '[[bet]]\nname = "nine_ten"\n[[bet.outcome]]\n'
        "when = { player_first_two = { values = [9, 0] } }\npays = 5\n"
    )
    result = run(
        "simulate",
        "--bet-file",
        str(path),
        "--bets",
        "nine_ten",
        "--decks",
        "1",
        "--shoes",
        "2",
        "--seed",
        "3",
        "--play",
        "nine_ten=count:0,0,0,0,0,0,0,0,-1,1:1",
        "--format",
        "json",
        "--trace",
        str(tmp_path / "rounds.jsonl"),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert '"nine_ten"' in result.stdout
    for line in (tmp_path / "rounds.jsonl").read_text().splitlines():
        record = json.loads(line)  # each round's outcome settled on its dealt cards
        nine_ten = sorted(VALUE[card[0]] for card in record["cards"][0:3:2]) == [0, 9]
        assert record["outcome"]["nine_ten"] == ("outcome_1" if nine_ten else "lose")


def test_card_pays_settle_the_dealt_cards() -> None:
    """The pay of each simulated round is the bet settled on its dealt cards, read afresh."""
    from exactodds.simulation.cardpays import card_pays

    (bet,) = load_custom_bets(EXAMPLES / "all_red.toml")
    block = deal_block(DealingProcedure(decks=1), Tableau(), 11, 0, 2)
    paid = card_pays(bet, Tableau(), block)
    red = {1, 2}  # H and D by suit index
    for row in range(block.rounds):
        shoe, start = int(block.round_shoe[row]), int(block.depth[row])
        cards = block.cards[shoe, start : start + int(block.round_cards[row])]
        assert paid[row] == (22 if all(int(card) % 4 in red for card in cards) else -1)


def test_a_bet_past_the_compile_bound_is_refused_with_its_time(tmp_path: Path) -> None:
    """A bet on three suits of every card (the four suits told apart: 40 classes a card, 338
    million rounds): one sentence with the rate and the time."""
    path = tmp_path / "suits.toml"
    path.write_text(
        '[[bet]]\nname = "suits"\n'
        + "".join(
            f'[[bet.outcome]]\nname = "{suit.lower()}"\n'
            f'when = {{ round_has = {{ suit = "{suit}", count = "all" }} }}\npays = 999\n'
            for suit in "HSD"
        )
    )
    for command in ("simulate", "audit"):
        size = "--budget" if command == "audit" else "--shoes"
        result = run(command, "--bet-file", str(path), "--bets", "suits", size, "10")
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1
        assert "for one 8-deck state at the walk's rate" in result.stderr
        assert "rounds asked would take about" in result.stderr


@thorough
def test_terms_are_cached_per_bet_and_exact_past_int64() -> None:
    """One compile per bet; a shoe whose N**6 passes int64 is priced in Python integers, equal
    to the card walk."""
    assert card_bet_terms(PERFECT_9, Tableau()) is card_bet_terms(PERFECT_9, Tableau())
    big = Shoe.standard(decks=1200).remove("9H 9H AS")
    numerators, denominators = card_expected_values(
        PERFECT_9, Tableau(), [big.rank_counts], np.array([big.suit_counts])
    )
    assert big.cards**6 > 2**63 and denominators[0] == big.sequences
    expected = price_card_bet(big, Rules(), PERFECT_9).expected_value
    assert Fraction(numerators[0], denominators[0]) == expected


@thorough
def test_audit_takes_a_card_level_bet() -> None:
    """audit of Perfect 9 (budget 5, no depths): its effects of removal, count and cuts by the
    card terms, exit 0, the reproduction line naming the bet file."""
    result = run(
        "audit",
        "--bet-file",
        str(EXAMPLES / "perfect_9.toml"),
        "--bets",
        "perfect_9",
        "--budget",
        "5",
        "--depths",
        "none",
        "--cuts",
        "14,104",
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert "Best count found" in result.stdout and "--bet-file" in result.stdout
