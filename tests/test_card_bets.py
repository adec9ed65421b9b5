"""Card-level conditions in bet files, checked against physical cards and published figures.

The main check is a brute force: random card-level conditions (first two cards, third cards,
counts of matching cards per hand, colours, suits, faces) priced by the card walk must agree,
count for count, with every ordered six-card sequence of physical cards on small suited shoes,
each round settled by code written here from the condition's words (not by the bet file's
reader).  Then the published figures of the three example files, and bad input.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from budget import budgeted
from cli_runner import run
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import PhysicalCard, physical_cards, play_round

from exactodds import Rules, Shoe
from exactodds.analysis.single import analyze, price_card_bet
from exactodds.bets.custom import CustomBetError, load_custom_bets, parse_custom_bets
from exactodds.cards import Suit
from exactodds.engine.cardwalk import CardView, enumerate_card_rounds
from exactodds.engine.walk import RoundSummary, Winner, enumerate_rounds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bets"
_RED = {Suit.HEARTS, Suit.DIAMONDS}
_Hands = tuple[list[PhysicalCard], list[PhysicalCard]]
_Round = tuple[RoundSummary, _Hands]


def _hands(sequence: Sequence[PhysicalCard], summary: RoundSummary) -> _Hands:
    """The Player's and Banker's cards, dealt P B P B, then the Player's third, then the Banker's."""
    player = [sequence[0], sequence[2]]
    banker = [sequence[1], sequence[3]]
    if summary.player_cards == 3:
        player.append(sequence[4])
    if summary.banker_cards == 3:
        banker.append(sequence[4 + (summary.player_cards == 3)])
    return player, banker


# Each condition: its TOML text and a test on a physical round, written from its words.
_Condition = tuple[str, Callable[[_Round], bool]]


def _matches(card: PhysicalCard, spec: dict[str, Any]) -> bool:
    if "rank" in spec and card.rank.value != spec["rank"]:
        return False
    if "value" in spec and card.value != spec["value"]:
        return False
    if "suit" in spec and (card.suit is None or card.suit.value != spec["suit"]):
        return False
    if "colour" in spec and ((card.suit in _RED) != (spec["colour"] == "red")):
        return False
    return (
        "face" not in spec
        or f"{card.rank.value}{card.suit.value if card.suit else ''}" == spec["face"]
    )


def _hand_cards(hand: str, round_: _Round) -> list[PhysicalCard] | None:
    summary, (player, banker) = round_
    if hand == "player":
        return player
    if hand == "banker":
        return banker
    if hand == "round":
        return player + banker
    if summary.winner is Winner.TIE:
        return None
    player_won = summary.winner is Winner.PLAYER
    return player if player_won == (hand == "winner") else banker


def _toml(spec: dict[str, Any]) -> str:
    """An inline TOML table (nested tables inline too)."""
    return (
        "{ "
        + ", ".join(
            f"{key} = {_toml(value) if isinstance(value, dict) else json.dumps(value)}"
            for key, value in spec.items()
        )
        + " }"
    )


_filters: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [
        {"colour": "red"},
        {"colour": "black"},
        {"suit": "H"},
        {"rank": "K"},
        {"rank": "9"},
        {"value": 0},
        {"face": "KS"},
        {"face": "9H"},
        {"value": 9, "colour": "black"},
    ]
)


@st.composite
def _conditions(draw: st.DrawFn) -> _Condition:
    kind = draw(st.sampled_from(["has", "third", "first_two"]))
    hand = draw(st.sampled_from(["player", "banker"]))
    spec: dict[str, Any]
    if kind == "third":
        spec = draw(_filters)

        def third(round_: _Round) -> bool:
            cards = round_[1][0 if hand == "player" else 1]
            return len(cards) == 3 and _matches(cards[2], spec)

        return f"{hand}_third = {_toml(spec)}", third
    if kind == "first_two":
        spec = draw(
            st.sampled_from(
                [
                    {"suited": True},
                    {"suited": False},
                    {"values": [9, 0]},
                    {"ranks": ["K", "9"], "suited": True},
                    {"ranks": ["K", "K"]},
                    {"values": [0, 0], "suited": False},
                ]
            )
        )

        def first_two(round_: _Round) -> bool:
            one, two = round_[1][0 if hand == "player" else 1][:2]
            if "values" in spec and sorted((one.value, two.value)) != sorted(spec["values"]):
                return False
            ranks = sorted((one.rank.value, two.rank.value))
            if "ranks" in spec and ranks != sorted(spec["ranks"]):
                return False
            return "suited" not in spec or (one.suit == two.suit) == spec["suited"]

        return f"{hand}_first_two = {_toml(spec)}", first_two
    who = draw(st.sampled_from(["player", "banker", "winner", "loser", "round"]))
    spec = dict(draw(_filters))  # a fresh table: the count is added to it
    count = draw(st.sampled_from(["all", "none", 1, 2, {"min": 2}, {"max": 1}]))
    spec["count"] = count

    def has(round_: _Round) -> bool:
        cards = _hand_cards(who, round_)
        if cards is None:
            return False
        matching = sum(_matches(card, spec) for card in cards)
        if count == "all":
            return matching == len(cards)
        if count == "none":
            return matching == 0
        if isinstance(count, dict):
            return bool(count.get("min", 0) <= matching <= count.get("max", 6))
        return matching == count

    return f"{who}_has = {_toml(spec)}", has


_faces = [f"{rank}{suit}" for rank in "9K" for suit in "SHDC"] + ["AH", "AS", "5D", "5C"]


@st.composite
def _small_shoes(draw: st.DrawFn) -> Shoe:
    chosen = draw(st.lists(st.sampled_from(_faces), min_size=6, max_size=8))
    counts = Counter(chosen)
    return Shoe.from_mapping(dict(counts))


def _brute_force(shoe: Shoe, outcomes: list[_Condition]) -> Counter[str]:
    cards = physical_cards(shoe)
    counts: Counter[str] = Counter()
    for sequence in itertools.permutations(cards, 6):
        summary = play_round(sequence, suits_known=True)
        assert summary is not None
        round_ = (summary, _hands(sequence, summary))
        name = next(
            (f"o{index}" for index, (_, test) in enumerate(outcomes) if test(round_)), "lose"
        )
        counts[name] += 1
    return counts


_PAIRS: dict[str, Callable[[RoundSummary], bool]] = {
    "player_pair": lambda summary: summary.player_pair,
    "banker_suited_pair": lambda summary: bool(summary.banker_suited_pair),
    "winner": lambda summary: summary.winner is Winner.PLAYER,
}


@st.composite
def _outcomes(draw: st.DrawFn) -> _Condition:
    """A card condition, sometimes with a round-summary condition beside it (a pair, a winner)."""
    toml, test = draw(_conditions())
    extra = draw(st.sampled_from([None, *_PAIRS]))
    if extra is None:
        return toml, test
    summary_test = _PAIRS[extra]
    written = 'winner = "player"' if extra == "winner" else f"{extra} = true"
    return f"{toml}, {written}", lambda round_: test(round_) and summary_test(round_[0])


@budgeted(25, deadline=None)
@given(shoe=_small_shoes(), outcomes=st.lists(_outcomes(), min_size=1, max_size=2))
def test_card_conditions_match_physical_cards(shoe: Shoe, outcomes: list[_Condition]) -> None:
    """Counts and EV of random card-level outcomes equal a brute force over physical cards."""
    text = '[[bet]]\nname = "card_bet"\n' + "".join(
        f'[[bet.outcome]]\nname = "o{index}"\nwhen = {{ {toml} }}\npays = {index + 2}\n'
        for index, (toml, _) in enumerate(outcomes)
    )
    (bet,) = parse_custom_bets(text)
    priced = price_card_bet(shoe, Rules(), bet)
    expected = _brute_force(shoe, outcomes)
    assert {name: count for name, count in priced.outcome_counts.items() if count} == dict(expected)
    total = sum(expected.values())
    expected_value = sum(bet.pay(name) * count for name, count in expected.items()) / total
    assert priced.expected_value == expected_value


@settings(max_examples=10, deadline=None)
@given(shoe=_small_shoes())
def test_value_view_sums_to_the_value_walk(shoe: Shoe) -> None:
    """The card walk without detail gives the value walk's counts by totals, cards and naturals."""

    def key(summary: RoundSummary) -> tuple[object, ...]:
        return (
            summary.player_total,
            summary.banker_total,
            summary.player_cards,
            summary.banker_cards,
            summary.player_natural,
            summary.banker_natural,
        )

    by_values: Counter[tuple[object, ...]] = Counter()
    for summary, count in enumerate_rounds(shoe).counts.items():
        by_values[key(summary)] += count
    for view in (CardView(), CardView(ranks=True, suits=True, whole_round=True)):
        by_cards: Counter[tuple[object, ...]] = Counter()
        for round_, count in enumerate_card_rounds(shoe, view).counts.items():
            by_cards[key(round_.summary)] += count
        assert by_cards == by_values


def test_perfect_9_published() -> None:
    """Wizard of Odds, "Perfect 9 Bonus Baccarat" (wizardofodds.com/article/perfect-9-bonus-baccarat/):
    8 decks, 1,024 / 3,072 / 4,096 / 78,128 of 86,320 two-card hands, house edge 7.47%."""
    (bet,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
    result = analyze(Shoe.standard(decks=8), Rules(), [bet]).bets["perfect_9"]
    per_hand = result.total // 86_320
    assert result.total % 86_320 == 0
    assert {name: count // per_hand for name, count in result.outcome_counts.items()} == {
        "suited_nine": 1_024,
        "unsuited_nine": 3_072,
        "nine_with_ten": 4_096,
        "lose": 78_128,
    }
    assert result.house_edge_percent(2) == "7.47%"


def test_dai_bacc_published() -> None:
    """Wizard of Odds, "Ox 6" (wizardofodds.com/games/baccarat/side-bets/ox-6/): 109,309,407,541,248
    wins, house edge 10.34%; "Kill the Ox/Tiger" (wizardofodds.com/games/baccarat/side-bets/
    kill-ox-tiger/): 84,102,272,663,808 and 54,956,551,870,464 wins, house edge 13.76%."""
    bets = load_custom_bets(EXAMPLES / "dai_bacc.toml")
    result = analyze(Shoe.standard(decks=8), Rules(), bets).bets
    assert result["ox_6"].outcome_counts["win"] == 109_309_407_541_248
    assert result["ox_6"].house_edge_percent(2) == "10.34%"
    kill = result["kill_ox_tiger"]
    assert kill.outcome_counts["kill_the_ox"] == 84_102_272_663_808
    assert kill.outcome_counts["kill_the_tiger"] == 54_956_551_870_464
    assert kill.house_edge_percent(2) == "13.76%"


def test_all_red_on_a_small_shoe_matches_brute_force() -> None:
    """The shipped All Red file, on a 8-card suited shoe, against the physical cards."""
    (bet,) = load_custom_bets(EXAMPLES / "all_red.toml")
    shoe = Shoe.from_mapping({"9H": 2, "KD": 2, "KS": 2, "AH": 1, "5C": 1})
    priced = price_card_bet(shoe, Rules(), bet)

    def all_red(round_: _Round) -> bool:
        return all(card.suit in _RED for card in round_[1][0] + round_[1][1])

    expected = _brute_force(shoe, [("", all_red)])
    assert priced.outcome_counts["win"] == expected["o0"]


def test_suits_unknown_is_one_sentence_and_exit_2() -> None:
    result = run("odds", "--bet-file", str(EXAMPLES / "perfect_9.toml"), "--remove", "K")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "known by rank only" in result.stderr


def test_commands_that_cannot_price_refuse_in_one_sentence() -> None:
    """depth, which sums over compositions by value, says why, and which commands can (simulate
    and audit price the bet by its card terms: tests/test_card_terms.py)."""
    for command in ("depth",):
        result = run(command, "--bet-file", str(EXAMPLES / "all_red.toml"), "--bets", "all_red")
        assert result.exit_code == 2, command
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith(
            "Error: Bet 'all_red' reads the cards themselves (card-level conditions), which "
            f"`exactodds {command}` cannot price: "
        )
        assert result.stderr.endswith(
            "; price it with `exactodds odds`, `exactodds eor`, `exactodds breakeven` or "
            "`exactodds report`.\n"
        )


def test_odds_and_bets_take_card_bets() -> None:
    listed = run("bets", "--bet-file", str(EXAMPLES / "perfect_9.toml"))
    assert listed.exit_code == 0 and "perfect_9" in listed.stdout
    priced = run("odds", "--bet-file", str(EXAMPLES / "perfect_9.toml"), "--format", "json")
    assert priced.exit_code == 0
    assert (
        json.loads(priced.stdout)["bets"]["perfect_9"]["house_edge"] == "31/415"
    )  # 6,448 / 86,320


def test_bad_card_conditions_are_one_sentence() -> None:
    bad = {
        'player_first_two = { ranks = ["A"] }': "give exactly two",
        'round_has = { colour = "green" }': 'use "red" or "black"',
        'player_third = { suit = "X" }': "use S, H, D or C",
        'round_has = { colour = "red", count = "most" }': "is not valid",
        'player_has = { shade = "red" }': "unknown key 'shade'",
        'banker_third = { face = "K" }': "with its suit",
        "round_has = 3": "not a table",
    }
    for condition, words in bad.items():
        text = f'[[bet]]\nname = "x"\n[[bet.outcome]]\nwhen = {{ {condition} }}\npays = 2\n'
        try:
            parse_custom_bets(text)
        except CustomBetError as error:
            message = str(error)
        else:  # pragma: no cover - the test fails here
            raise AssertionError(f"{condition} was accepted")
        assert words in message, (condition, message)
        assert message.count(". ") == 0 or message.endswith("."), message


def test_card_bets_leave_the_other_bets_unchanged() -> None:
    """Beside a card-level bet, every other bet is priced as without it, in the order asked."""
    from exactodds.bets.catalogue import select_bets

    (perfect_9,) = load_custom_bets(EXAMPLES / "perfect_9.toml")
    shoe = Shoe.standard(decks=6).remove("9H 9S KD")
    others = select_bets("main,dragon7,player_pair")
    alone = analyze(shoe, Rules(), others)
    asked = [others[0], perfect_9, *others[1:]]
    mixed = analyze(shoe, Rules(), asked)
    assert list(mixed.bets) == [bet.name for bet in asked] == list(mixed.bet_names)
    for name, priced in alone.bets.items():
        assert mixed.bets[name].outcome_counts == priced.outcome_counts
    assert mixed.outcomes == alone.outcomes


def test_a_summary_path_refuses_a_card_bet_in_one_sentence() -> None:
    """A path that settles round summaries only (here the value walk) says so in one sentence."""
    from exactodds.analysis.single import price_bet
    from exactodds.errors import BetError

    (all_red,) = load_custom_bets(EXAMPLES / "all_red.toml")
    try:
        price_bet(enumerate_rounds(Shoe.standard(decks=1)), all_red)
    except BetError as error:
        assert str(error) == (
            "Bet 'all_red' reads the cards themselves (card-level conditions), which this "
            "calculation cannot price; price it with `exactodds odds` or analyze()."
        )
    else:  # pragma: no cover - the test fails here
        raise AssertionError("the value walk priced a card-level bet")
