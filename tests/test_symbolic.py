"""Symbolic payouts and break-even pays (``exactodds.analysis.symbolic`` and ``exactodds breakeven``).

Break-even values are checked against the linear equation solved by hand from
exact counts: published ones where they exist, else a bet's own outcome counts
(``BetAnalysis.outcome_counts``), with plain Fractions and no sympy; and, the
other way round, by setting the pay to its break-even value and pricing the
bet again with the engine, which must give an EV of exactly 0.

Published 8-deck counts of ordered six-card sequences (.research/published.md):
Banker 2,292,252,566,437,888, Player 2,230,518,282,592,256, Tie 475,627,426,473,216 of
4,998,398,275,503,360 (casinoexploit.com's copy of the Wizard of Odds baccarat page,
http://www.casinoexploit.com/baccarat.html, section 1b); Lucky 6 two-card and three-card
winning Banker 6: 186,173,936,904,192 and 83,058,367,551,488 (Wizard of Odds, "Lucky 6",
https://wizardofodds.com/games/baccarat/side-bets/lucky-6/, section 3c).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
import sympy  # type: ignore[import-untyped]
from budget import budgeted
from cli_runner import run, run_ok
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Analysis, Rules, Shoe, analyze, enumerate_rounds
from exactodds.analysis.symbolic import (
    breakeven,
    default_pay,
    expected_value_expression,
    expression_latex,
    find_breakeven,
    pay_names,
    resolve_pay,
)
from exactodds.bets.catalogue import available_bets, select_bets
from exactodds.bets.paytables import apply_pays
from exactodds.errors import BetError, BreakevenError, MissingExtraError, PayError

BANKER = 2_292_252_566_437_888
PLAYER = 2_230_518_282_592_256
TIE = 475_627_426_473_216
TOTAL = 4_998_398_275_503_360
LUCKY6_TWO_CARD = 186_173_936_904_192
LUCKY6_THREE_CARD = 83_058_367_551_488

x, c, y = sympy.symbols("x c y")


@pytest.fixture(scope="module")
def eight_decks() -> Analysis:
    """Every catalogued bet on a fresh 8-deck shoe (one enumeration)."""
    return analyze(Shoe.standard(decks=8), Rules(), select_bets("all"))


# Published counts, solved by hand ---------------------------------------------------


def test_tie_is_fair_at_9_5091_to_1_on_eight_decks(eight_decks: Analysis) -> None:
    # EV(x) = (TIE * x - (TOTAL - TIE)) / TOTAL = 0.
    expected = Fraction(TOTAL - TIE, TIE)
    assert breakeven("tie", "tie", eight_decks) == expected
    assert breakeven("tie") == expected  # defaults: the one winning pay, 8 decks
    assert f"{float(expected):.4f}" == "9.5091"
    assert expected_value_expression(eight_decks, "tie", {"tie": "x"}) == (
        sympy.Rational(TIE, TOTAL) * x - sympy.Rational(TOTAL - TIE, TOTAL)
    )


def test_banker_commission_and_player_pay(eight_decks: Analysis) -> None:
    # Banker: (BANKER * (1 - c) - PLAYER) / TOTAL = 0; Player: (PLAYER * x - BANKER) / TOTAL = 0.
    assert breakeven("banker", "commission", eight_decks) == Fraction(BANKER - PLAYER, BANKER)
    assert breakeven("banker", None, eight_decks) == Fraction(BANKER - PLAYER, BANKER)
    assert breakeven("banker", "banker", eight_decks) == Fraction(PLAYER, BANKER)
    assert breakeven("player", "player", eight_decks) == Fraction(BANKER, PLAYER)
    assert expected_value_expression(eight_decks, "banker") == sympy.expand(
        sympy.Rational(BANKER, TOTAL) * (1 - c) - sympy.Rational(PLAYER, TOTAL)
    )


def test_lucky6_pays(eight_decks: Analysis) -> None:
    losses = TOTAL - LUCKY6_TWO_CARD - LUCKY6_THREE_CARD
    # Two-card wins at 12 (the catalogue's pay): 12 * TWO + x * THREE - losses = 0.
    expected = Fraction(losses - 12 * LUCKY6_TWO_CARD, LUCKY6_THREE_CARD)
    assert breakeven("lucky6", "lucky6.three_card_win", eight_decks) == expected
    # With the three-card win fixed at 23, solve for the two-card pay.
    lucky6 = select_bets("lucky6", pays={"lucky6.three_card_win": 23})[0]
    assert breakeven(lucky6, "lucky6.two_card_win", eight_decks) == Fraction(
        losses - 23 * LUCKY6_THREE_CARD, LUCKY6_TWO_CARD
    )
    both = expected_value_expression(eight_decks, "lucky6")
    assert both == (
        sympy.Rational(LUCKY6_TWO_CARD, TOTAL) * sympy.Symbol("lucky6_two_card_win")
        + sympy.Rational(LUCKY6_THREE_CARD, TOTAL) * sympy.Symbol("lucky6_three_card_win")
        - sympy.Rational(losses, TOTAL)
    )


def test_commission_when_ties_lose_is_out_of_range() -> None:
    # Banker loses on a tie: BANKER * (1 - c) - PLAYER - TIE = 0 gives a negative commission.
    solved = find_breakeven("banker", "commission", Shoe.standard(decks=8), Rules(ties_push=False))
    assert solved.value == Fraction(BANKER - PLAYER - TIE, BANKER) < 0
    assert not solved.in_range
    assert (
        solved.note == "Even with no commission the banker bet loses: no commission makes it fair."
    )


# Every pay of every bet, against the bet's own counts ---------------------------------


def by_hand(counts: dict[str, int], pays: dict[str, Fraction], outcome: str) -> Fraction:
    """Solve sum(count * pay) = 0 for the pay of *outcome*, with Fractions."""
    rest = sum(
        (count * pays[name] for name, count in counts.items() if name != outcome), Fraction(0)
    )
    return -rest / counts[outcome]


def test_every_pay_of_every_bet(eight_decks: Analysis) -> None:
    checked = 0
    for name, priced in eight_decks.bets.items():
        counts, pays = dict(priced.outcome_counts), priced.bet.pay_table
        for pay in pay_names(priced.bet):
            resolved = resolve_pay(priced.bet, pay)
            if resolved.commission:
                # A win pays 1 - c: solve for the win pay, then c = 1 - pay.
                expected = 1 - by_hand(counts, pays, "win")
            elif counts.get(resolved.outcome, 0) == 0:
                with pytest.raises(BreakevenError, match="does not move the EV"):
                    breakeven(name, pay, eight_decks)
                continue
            else:
                expected = by_hand(counts, pays, resolved.outcome)
            assert breakeven(name, pay, eight_decks) == expected, (name, pay)
            checked += 1
    assert checked >= 60


def test_suited_and_variant_bets() -> None:
    ez = analyze(Shoe.standard(decks=8), Rules(variant="ez"))
    banker = ez.bets["banker"]
    counts = dict(banker.outcome_counts)
    assert breakeven("banker", "banker.win_three_card_seven", ez) == by_hand(
        counts, banker.bet.pay_table, "win_three_card_seven"
    )
    assert default_pay(banker.bet) == "banker"
    perfect = analyze(Shoe.standard(decks=6), Rules(), select_bets("perfect_pair"))
    priced = perfect.bets["perfect_pair"]
    assert breakeven("perfect_pair", "perfect_pair.both", perfect) == by_hand(
        dict(priced.outcome_counts), priced.bet.pay_table, "both"
    )


# The other way round: pay the break-even value, and the engine says EV 0 ---------------

small_shoes = st.lists(st.integers(0, 12), min_size=6, max_size=20).map(
    lambda cards: Shoe(tuple(cards.count(index) for index in range(13)))
)
PAYS = [
    ("tie", "tie"),
    ("player", "player"),
    ("banker", "commission"),
    ("dragon7", "dragon7"),
    ("lucky6", "lucky6.two_card_win"),
    ("dragon_bonus_player", "dragon_bonus_player.win_by_9"),
    ("small", "small"),
]


@budgeted(30, deadline=None)
@given(small_shoes, st.sampled_from(PAYS), st.booleans())
def test_paying_the_breakeven_value_makes_the_ev_zero(
    shoe: Shoe, bet_and_pay: tuple[str, str], ties_push: bool
) -> None:
    bet_name, pay = bet_and_pay
    rules = Rules(ties_push=ties_push)
    try:
        solved = find_breakeven(bet_name, pay, shoe, rules)
    except BreakevenError:
        table = enumerate_rounds(shoe)
        bet = available_bets(rules)[bet_name]
        outcome = resolve_pay(bet, pay).outcome
        assert all(bet.settle(summary) != outcome for summary, _ in table)
        return
    if pay == "commission":
        if not 0 <= solved.value < 1:
            return
        repriced = Rules(commission=solved.value, ties_push=ties_push)
        bet = available_bets(repriced)["banker"]
    else:
        if solved.value < 0:
            return
        bet = apply_pays(available_bets(rules), {pay: solved.value})[bet_name]
    assert analyze(shoe, rules, [bet]).bets[bet_name].expected_value == 0


# Expressions ----------------------------------------------------------------------------


def test_expression_symbols_and_sources(eight_decks: Analysis) -> None:
    own = sympy.Symbol("p", positive=True)
    mapped = expected_value_expression(eight_decks, "dragon7", {"dragon7": own})
    assert mapped.free_symbols == {own}
    several = expected_value_expression(eight_decks, "banker", ["commission", "banker.tie"])
    assert several.free_symbols == {c, sympy.Symbol("banker_tie")}
    table = enumerate_rounds(Shoe.standard(decks=8))
    from_table = expected_value_expression(table, "tie", "tie")
    from_shoe = expected_value_expression(Shoe.standard(decks=8), "tie", "tie")
    from_analysis = expected_value_expression(eight_decks, "tie", "tie")
    assert from_table == from_shoe == from_analysis
    assert str(from_analysis) == "619306544887*tie/6508331087895 - 5889024543008/6508331087895"
    assert expression_latex(from_analysis) == sympy.latex(from_analysis)


@pytest.mark.parametrize(
    ("bet", "symbols", "error", "message"),
    [
        ("tie", ["tie", "tie.win"], PayError, "both set the 'win' pay of tie"),
        ("banker", ["commission", "banker"], PayError, "both set the 'win' pay of banker"),
        ("tie", "dragon7", PayError, "Pay 'dragon7' is not a pay of tie; use one of tie, tie.win."),
        ("tie", "tie.lose", PayError, "The 'lose' outcome of tie always costs the stake"),
        ("tie", "tie.push", PayError, "Bet 'tie' has no outcome 'push'; use one of tie, tie.win."),
        ("dragon_bonus_player", "dragon_bonus_player", PayError, "has several pays; name one"),
        ("tie", "commission", PayError, "The commission is taken on the banker bet only"),
        ("dragon8", "dragon8", BetError, "Unknown bet 'dragon8'"),
    ],
)
def test_bad_pay_names(
    eight_decks: Analysis, bet: str, symbols: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        expected_value_expression(eight_decks, bet, symbols)


def test_pays_that_do_not_move_the_ev() -> None:
    tens = Shoe.from_ranks({"K": 6})  # every round a 0-0 tie
    with pytest.raises(BreakevenError) as caught:
        breakeven("lucky6", "lucky6.three_card_win", tens)
    assert str(caught.value) == (
        "Pay 'lucky6.three_card_win' does not move the EV of lucky6 on this shoe: its outcome "
        "'three_card_win' never happens, so the EV is -1 whatever it pays and no pay makes the "
        "bet fair."
    )
    with pytest.raises(BreakevenError, match="the EV is 0 whatever it pays"):
        breakeven("banker", "banker", tens)  # every round pushes
    assert breakeven("tie", "tie", tens) == 0  # a sure win is fair when it only pushes


def test_commission_under_ez_and_suits_unknown() -> None:
    ez = Rules(variant="ez")
    with pytest.raises(PayError, match="This banker bet takes no commission"):
        breakeven("banker", "commission", Shoe.standard(decks=1), ez)
    with pytest.raises(BetError, match="needs suits"):
        breakeven("perfect_pair", None, Shoe.standard(decks=1).remove("K"))


# sympy only where it is needed -----------------------------------------------------------


def test_odds_command_does_not_import_sympy() -> None:
    program = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import exactodds.cli\n"
        "assert 'sympy' not in sys.modules, 'importing exactodds.cli imported sympy'\n"
        "result = CliRunner().invoke(exactodds.cli.cli, ['odds', '--decks', '1'])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert 'sympy' not in sys.modules, 'exactodds odds imported sympy'\n"
        "result = CliRunner().invoke(exactodds.cli.cli, ['breakeven', '--bet', 'tie'])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert 'sympy' in sys.modules\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr


def test_breakeven_without_sympy_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sympy", None)  # makes "import sympy" fail
    with pytest.raises(MissingExtraError, match=r"pip install \"exactodds\[symbolic\]\""):
        breakeven("tie")
    result = run("breakeven", "--bet", "tie", "--decks", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: Solving pays symbolically needs sympy, which is not installed; install it with: "
        'pip install "exactodds[symbolic]".\n'
    )


# Command line -----------------------------------------------------------------------------


def test_cli_json_contract() -> None:
    data = json.loads(
        run_ok("breakeven", "--bet", "tie", "--pay", "tie", "--format", "json").stdout
    )
    assert {"bet", "pay", "breakeven", "expression"} <= set(data)
    assert data["bet"] == "tie" and data["pay"] == "tie" and data["symbol"] == "x"
    assert data["breakeven"] == str(Fraction(TOTAL - TIE, TIE))  # "n/d" in lowest terms
    assert data["breakeven_decimal"] == "9.5090623402"
    assert sympy.sympify(data["expression"]) == sympy.Rational(TIE, TOTAL) * x - sympy.Rational(
        TOTAL - TIE, TOTAL
    )
    assert data["latex"].startswith("\\frac{619306544887 x}{6508331087895}")
    assert data["current"] == "8" and data["in_range"] is True and data["note"] is None
    assert data["shoe"]["cards"] == 416 and data["rules"]["tie_pays"] == "8"


def test_cli_commission_table_and_latex() -> None:
    table = run_ok("breakeven", "--bet", "banker", "--digits", "6").stdout
    assert "Bet: banker, solving for the commission c (a win pays 1 - c); now 5%" in table
    assert f"Break-even: c = {Fraction(BANKER - PLAYER, BANKER)} = 0.026932 (2.6932%)" in table
    assert "EV = 241149546272/19524993263685 - 8954111587648*c/19524993263685" in table
    latex = run_ok("breakeven", "--bet", "banker", "--latex").stdout
    assert (
        "EV = \\frac{241149546272}{19524993263685} - \\frac{8954111587648 c}{19524993263685}"
        in latex
    )


def test_cli_fixed_pays_and_csv() -> None:
    text = run_ok(
        "breakeven",
        "--bet",
        "lucky6",
        "--pay",
        "lucky6.two_card_win",
        "--pay",
        "lucky6.three_card_win=23",
        "--format",
        "csv",
    ).stdout
    header, row = text.splitlines()
    assert header.split(",")[:6] == [
        "bet",
        "pay",
        "outcome",
        "symbol",
        "breakeven",
        "breakeven_decimal",
    ]
    values = row.split(",")
    losses = TOTAL - LUCKY6_TWO_CARD - LUCKY6_THREE_CARD
    assert values[:5] == [
        "lucky6",
        "lucky6.two_card_win",
        "two_card_win",
        "x",
        str(Fraction(losses - 23 * LUCKY6_THREE_CARD, LUCKY6_TWO_CARD)),
    ]


def test_cli_out_of_range_note() -> None:
    table = run_ok("breakeven", "--bet", "banker", "--tie-loses").stdout
    assert table.rstrip().endswith(
        "Even with no commission the banker bet loses: no commission makes it fair."
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bet", "dragon8"], "Error: Unknown bet 'dragon8' in the bet selection"),
        (["--bet", "tie", "--pay", "dragon9"], "Error: Pay 'dragon9' is not a pay of tie"),
        (["--bet", "tie", "--pay", "commission"], "Error: The commission is taken on the banker"),
        (["--bet", "lucky6"], "Error: Bet 'lucky6' has several pays; name one"),
        (["--bet", "tie", "--pay", "tie", "--pay", "tie.win"], "Error: --pay names 2 pays"),
        (["--bet", "main"], "Error: --bet 'main' names 3 bets; name one"),
        (["--bet", "dragon7", "--shoe", "K=6"], "Error: Pay 'dragon7' does not move the EV"),
        (["--bet", "banker", "--variant", "ez", "--pay", "commission"], "Error: This banker bet"),
        (["--bet", "banker", "--pay", "banker.lose"], "Error: The 'lose' outcome of banker"),
        (
            ["--bet", "tie", "--pay", "dragon7=abc"],
            "Error: 'abc' for --pay dragon7 is not a number",
        ),
        ([], "Error: Missing option '--bet'."),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(arguments: list[str], message: str) -> None:
    result = run("breakeven", *arguments)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1
