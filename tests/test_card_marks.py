"""Marks: a bet on suits or faces tells its cards from the rest, not the four suits apart.

A card filter that names a suit or a face is read as a mark, the set of faces it matches; the
card walk and the compiled card terms then split each value into the cards in each mark and
the rest (20 classes for a bet on hearts, against 40 with the four suits told apart), so such a
bet on every card compiles and ``simulate`` and ``audit`` take it.  Checked:

* against physical cards: bets with one and two marks (faces, suits with values, third cards,
  the winning hand), the compiled terms' EV equal to a brute force over every ordered six-card
  sequence of small suited shoes and to the card walk's;
* invariants: the classes of a marked view, the suit permutations that keep a mark (a removed
  7S and 7C are the same shoe to a bet on hearts, a removed 7H is not), the effect of removal
  as the mean over the suits removed, and a bet on every card's suit priced the same when the
  three other suits are named instead of the one;
* the road: on a shoe of 52 cards or more, a bet on every card of the round (All Red, All
  Hearts, a bet with three outcomes) is priced by its card terms, every outcome's count the
  walk's;
* the commands: ``simulate`` takes a bet on hearts, each round's exact EV is ``odds``' on the
  composition known before it, and each round is settled on its dealt cards.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from budget import budgeted
from cli_runner import run
from hypothesis import assume, given
from hypothesis import strategies as st
from reference import PhysicalCard
from test_card_bets import _brute_force, _Condition, _hand_cards, _Round, _small_shoes
from test_card_terms import simulation_analyzer

from exactodds import Rules, Shoe
from exactodds.analysis.cardprice import card_expected_values, compiles
from exactodds.analysis.single import price_card_bet
from exactodds.bets.custom import load_custom_bets, parse_custom_bets
from exactodds.engine.cardwalk import CardView, class_key, walk_class
from exactodds.rules import Tableau
from exactodds.simulation.dealing import DealingProcedure, deal_block
from exactodds.simulation.evaluate import exact_expected_values, known_shoe
from exactodds.simulation.study import Simulation

_HEARTS = frozenset(range(1, 52, 4))
_EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bets"


def _bet(name: str, outcomes: list[tuple[str, int]]) -> object:
    text = f'[[bet]]\nname = "{name}"\n' + "".join(
        f'[[bet.outcome]]\nname = "o{index}"\nwhen = {{ {toml} }}\npays = {pays}\n'
        for index, (toml, pays) in enumerate(outcomes)
    )
    (bet,) = parse_custom_bets(text)
    return bet


def _match(card: PhysicalCard, spec: dict[str, Any]) -> bool:
    """A physical card matches a filter: every key given, each one value or a list of them."""

    def allowed(key: str) -> list[Any]:
        value = spec[key]
        return value if isinstance(value, list) else [value]

    suit = card.suit.value if card.suit is not None else ""
    return (
        ("value" not in spec or card.value in allowed("value"))
        and ("suit" not in spec or suit in allowed("suit"))
        and ("face" not in spec or f"{card.rank.value}{suit}" in allowed("face"))
    )


def _has(hand: str, spec: dict[str, Any], low: int | None, high: int | None) -> _Condition:
    """A brute-force test: *low* to *high* of a hand's cards match *spec* (None: every card)."""

    def test(round_: _Round) -> bool:
        cards = _hand_cards(hand, round_)
        if cards is None:
            return False
        matching = sum(_match(card, spec) for card in cards)
        every = len(cards)
        return (every if low is None else low) <= matching <= (every if high is None else high)

    return "", test


def _third(hand: int, spec: dict[str, Any]) -> _Condition:
    def test(round_: _Round) -> bool:
        cards = round_[1][hand]
        return len(cards) == 3 and _match(cards[2], spec)

    return "", test


#: Marked bets, each compiled once for the module, with a brute-force test of each outcome.
_CASES: list[tuple[list[tuple[str, int]], list[_Condition]]] = [
    (
        [
            ('round_has = { face = ["KH", "9S"], count = { min = 2 } }', 40),
            ('player_third = { suit = "D", value = 9 }', 7),
        ],
        [
            _has("round", {"face": ["KH", "9S"]}, 2, 6),
            _third(0, {"suit": "D", "value": 9}),
        ],
    ),
    (
        [('winner_has = { suit = "H", value = [9, 0], count = 2 }', 12)],
        [_has("winner", {"suit": "H", "value": [9, 0]}, 2, 2)],
    ),
    (
        [
            ('banker_has = { face = "9S", count = "all" }', 90),
            ('round_has = { suit = "H", count = "none" }', 1),
        ],
        [_has("banker", {"face": "9S"}, None, None), _has("round", {"suit": "H"}, 0, 0)],
    ),
]
_BETS = [_bet(f"marked_{index}", outcomes) for index, (outcomes, _) in enumerate(_CASES)]


@budgeted(20, deadline=None)
@given(shoe=_small_shoes())
def test_marked_terms_match_physical_cards(shoe: Shoe) -> None:
    """Each marked bet's compiled EV equals every physical six-card sequence's and the walk's."""
    for bet, (outcomes, tests) in zip(_BETS, _CASES, strict=True):
        expected = _brute_force(shoe, [("", test) for _, test in tests])
        total = sum(expected.values())
        pays = {f"o{index}": pay for index, (_, pay) in enumerate(outcomes)} | {"lose": -1}
        brute = Fraction(sum(pays[name] * count for name, count in expected.items()), total)
        numerators, denominators = card_expected_values(
            bet,  # type: ignore[arg-type]
            Tableau(),
            [shoe.rank_counts],
            [shoe.suit_counts],
        )
        assert Fraction(numerators[0], denominators[0]) == brute
        assert price_card_bet(shoe, Rules(), bet).expected_value == brute  # type: ignore[arg-type]


def test_a_mark_splits_each_value_in_two() -> None:
    """A bet on hearts: each value's hearts and the rest, 20 classes, no suit and no colour."""
    view = CardView(values=False, whole_round=True, marks=frozenset({_HEARTS}))
    classes = {walk_class(face // 4, face % 4, view) for face in range(52)}
    assert len(classes) == 20
    assert all(card_class.suit is None and card_class.red is None for card_class in classes)
    assert sum(1 for card_class in classes if card_class.marks) == 10


def test_class_keys_keep_each_mark() -> None:
    """Suit permutations that keep the mark are unseen; those that move it are seen."""
    view = CardView(values=False, whole_round=True, marks=frozenset({_HEARTS}))
    shoe = Shoe.standard(decks=1)
    keys = {symbol: class_key(shoe.remove(symbol), view) for symbol in ("7S", "7C", "7D", "7H")}
    assert keys["7S"] == keys["7C"] == keys["7D"] != keys["7H"]


def test_one_suit_or_the_three_others() -> None:
    """'No heart' and 'every card a spade, club or diamond' are one bet: the same exact EV, by
    the terms, on a depleted suited 2-deck shoe."""
    shoe = Shoe.standard(decks=2)
    for symbol in ("7H", "KH", "9S", "AD", "2C"):
        shoe = shoe.remove(symbol)
    none = _bet("no_heart", [('round_has = { suit = "H", count = "none" }', 30)])
    others = _bet("others", [('round_has = { suit = ["S", "C", "D"], count = "all" }', 30)])
    values = set()
    for bet in (none, others):
        numerators, denominators = card_expected_values(
            bet,  # type: ignore[arg-type]
            Tableau(),
            [shoe.rank_counts],
            [shoe.suit_counts],
        )
        values.add(Fraction(numerators[0], denominators[0]))
    assert len(values) == 1
    assert compiles(none) and compiles(others)  # type: ignore[arg-type]


def test_simulated_round_values_equal_odds_for_hearts() -> None:
    """A simulation's exact EV of each round of a bet on every card's suit is `odds`' (the card
    walk) on the composition known before it."""
    (bet,) = parse_custom_bets(
        '[[bet]]\nname = "hearts"\n[[bet.outcome]]\n'
        'when = { round_has = { suit = "H", count = "all" } }\npays = 300\n'
    )
    simulation = Simulation.of(1, 5, bets=[bet], procedure=DealingProcedure(decks=1, cut=14))
    block = deal_block(simulation.procedure, Tableau(), 5, 0, 1)
    rows = block.known[[0, 3]]
    values = exact_expected_values(simulation_analyzer(simulation), rows, suited=True)
    for row in range(len(rows)):
        shoe = known_shoe(rows[row], suited=True)
        assert values.fraction(row, 0) == price_card_bet(shoe, Rules(), bet).expected_value


def test_simulate_takes_a_bet_on_every_cards_suit(tmp_path: Path) -> None:
    """simulate with a bet on hearts: exit 0, each round settled on its dealt cards."""
    path = tmp_path / "hearts.toml"
    path.write_text(
        '[[bet]]\nname = "hearts"\n[[bet.outcome]]\n'
        'when = { round_has = { suit = "H", count = { min = 3 } } }\npays = 4\n'
    )
    trace = tmp_path / "rounds.jsonl"
    result = run(
        "simulate",
        "--bet-file",
        str(path),
        "--bets",
        "hearts",
        "--decks",
        "1",
        "--shoes",
        "2",
        "--format",
        "json",
        "--trace",
        str(trace),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert '"hearts"' in result.stdout
    lines = trace.read_text().splitlines()
    assert lines
    for line in lines:
        record = json.loads(line)
        hearts = sum(card[-1] == "H" for card in record["cards"])
        assert record["outcome"]["hearts"] == ("outcome_1" if hearts >= 3 else "lose")


def test_every_suit_permutation_keeps_a_mark_of_whole_ranks() -> None:
    """A mark of whole ranks (every suit) is kept by every permutation: one key for 7S and 7H."""
    sevens = frozenset(range(6 * 4, 7 * 4))
    view = CardView(values=False, whole_round=True, marks=frozenset({sevens}))
    shoe = Shoe.standard(decks=1)
    assert class_key(shoe.remove("7S"), view) == class_key(shoe.remove("7H"), view)


def test_effect_of_removal_mixes_the_suits_a_mark_tells_apart() -> None:
    """All Hearts' effect of removing a 7 (its suit unseen) is the mean of the four shoes left,
    each priced on its own: a removed heart is not a removed spade to this bet."""
    from exactodds.analysis.removal import effect_of_removal

    (bet,) = load_custom_bets(_EXAMPLES / "all_hearts.toml")
    shoe = Shoe.standard(decks=1)

    def value(left: Shoe) -> Fraction:
        numerators, denominators = card_expected_values(
            bet, Tableau(), [left.rank_counts], [left.suit_counts]
        )
        return Fraction(numerators[0], denominators[0])

    removed = [value(shoe.remove(f"7{suit}")) for suit in "SHDC"]
    assert removed[1] != removed[0]
    expected = sum(removed, Fraction(0)) / 4 - value(shoe)
    assert effect_of_removal(shoe, Rules(), [bet]).effect("all_hearts", "7") == expected


_WHOLE_ROUND_BETS = [
    *load_custom_bets(_EXAMPLES / "all_red.toml"),
    *load_custom_bets(_EXAMPLES / "all_hearts.toml"),
    _bet(
        "hearts_levels",
        [
            ('round_has = { suit = "H", count = 2 }', 2),
            ('round_has = { suit = "H", count = { min = 3 } }', 9),
        ],
    ),
]


@st.composite
def _crowded_shoes(draw: st.DrawFn) -> Shoe:
    """Shoes of 52 to 90 cards of a few faces: priced by the terms, and quick to walk."""
    faces = draw(
        st.lists(
            st.sampled_from(["9H", "9S", "KD", "KC", "5H", "AS", "2D"]),
            min_size=2,
            max_size=4,
            unique=True,
        )
    )
    counts = [draw(st.integers(min_value=8, max_value=30)) for _ in faces]
    assume(sum(counts) >= 52)
    return Shoe.from_mapping(dict(zip(faces, counts, strict=True)))


@budgeted(10, deadline=None)
@given(shoe=_crowded_shoes())
def test_a_bet_on_every_card_is_priced_by_its_terms_as_the_walk_counts(shoe: Shoe) -> None:
    """On a shoe of 52 cards or more, `analyze` prices a bet on every card of the round by its
    card terms: every outcome's count equals the card walk's, integer for integer."""
    from exactodds.analysis.single import _counts_by_terms
    from exactodds.engine.cardwalk import enumerate_card_rounds

    for bet in _WHOLE_ROUND_BETS:
        walked: dict[str, int] = dict.fromkeys(bet.pay_table, 0)  # type: ignore[attr-defined]
        for round_, count in enumerate_card_rounds(shoe, bet.cards, Tableau()).counts.items():  # type: ignore[attr-defined]
            walked[bet.settle_round(round_)] += count  # type: ignore[attr-defined]
        assert _counts_by_terms(shoe, Tableau(), bet) == walked  # type: ignore[arg-type]
        priced = price_card_bet(shoe, Rules(), bet)  # type: ignore[arg-type]
        assert dict(priced.outcome_counts) == walked
