"""Chemin de fer solved as a game: published solutions, brute force, best replies, the CLI.

Sources:

* Kemeny and Snell (1957), "Game-theoretic solution of baccarat", American
  Mathematical Monthly 64, 465-469, as restated by Ethier and Gamez (2013),
  "A game-theoretic analysis of baccara chemin de fer", Games 4, 711-737:
  with replacement, totals only, the game is 2 x 2^88; the Player draws on 5
  with probability 9/11, the Banker's edge is about 1.28%, and the Banker
  departs from the Punto Banco tableau in one cell.
* Ethier and Gamez (2013), abstract: Model B2 (without replacement, the
  Banker sees his composition, the Player his total) is 2 x 2^484 and Model
  B3 (both see compositions) is 2^5 x 2^484.
* Ethier and Lee (2023), "A game-theoretic analysis of baccara chemin de fer,
  II", Games 14, 63: with a commission, Model B2's Nash equilibrium is
  unique "with rare exceptions".
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import cast

import pytest
from budget import THOROUGH, budgeted
from click.testing import CliRunner
from game_reference import Deals
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st

from exactodds import Rules, Shoe, Tableau, analyze
from exactodds.cli import cli
from exactodds.games.chemin_de_fer import (
    BankerCell,
    Equilibrium,
    Model,
    ModelError,
    Solution,
    build_game,
    solve,
)
from exactodds.games.equilibria import (
    Profile,
    best_reply_failures,
    search_equilibria,
    solve_zero_sum,
)
from exactodds.report.game import render_solution_table
from exactodds.report.registry import to_dict

CLASSIC = Model(dealing="replacement", banker_sees="total", player_sees="total")


@pytest.fixture(scope="module")
def classic() -> Solution:
    return solve(Shoe.standard(decks=1), CLASSIC)


def test_classic_player_draws_at_5_with_probability_9_11(classic: Solution) -> None:
    assert classic.complete
    assert len(classic.equilibria) == 1
    assert classic.player_draw_at_5 == {"5": Fraction(9, 11)}


def test_classic_banker_edge_is_about_1_28_percent(classic: Solution) -> None:
    assert classic.value is not None
    assert round(classic.value * 100, 2) == Fraction(128, 100)
    equilibrium = classic.equilibria[0]
    assert equilibrium.player_payoff == -equilibrium.banker_payoff == -classic.value


def test_classic_banker_departs_from_punto_banco_in_one_cell(classic: Solution) -> None:
    (cell,) = classic.differences_from_punto_banco()
    # Punto Banco stands on 6 when the Player stood; the solution mixes there.
    assert (cell.hand, cell.information) == ("6", "stood")
    assert 0 < cell.draw < 1
    assert cell.punto_banco_draws is False


def test_model_sizes_match_the_published_games() -> None:
    """88 Banker cells in Model A1, 484 in B2 and B3, five Player compositions in B3."""
    assert len(build_game(Shoe.standard(decks=1), CLASSIC).banker_cells) == 88
    b2 = build_game(Shoe.standard(decks=6), Model())
    assert (len(b2.player_choices), len(b2.banker_cells)) == (1, 484)
    b3 = build_game(Shoe.standard(decks=6), Model(player_sees="cards"))
    assert b3.player_choices == ("0+5", "1+4", "2+3", "6+9", "7+8")
    assert len(b3.banker_cells) == 484


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_b2_has_one_equilibrium_each_side_a_best_reply(decks: int) -> None:
    game = build_game(Shoe.standard(decks=decks), Model())
    solution = solve(Shoe.standard(decks=decks), Model())
    assert solution.complete and len(solution.equilibria) == 1
    equilibrium = solution.equilibria[0]
    profile = Profile(
        tuple(equilibrium.player_draw_at_5.values()), tuple(c.draw for c in equilibrium.banker)
    )
    assert best_reply_failures(game, profile) == []
    assert equilibrium.verified


def test_more_information_never_helps_the_side_without_it() -> None:
    """The Player seeing his cards can only lower the Banker's value; the Banker's can only raise it."""
    shoe = Shoe.standard(decks=2)
    b1 = solve(shoe, Model(banker_sees="total"))
    b2 = solve(shoe, Model())
    b3 = solve(shoe, Model(player_sees="cards"))
    assert b1.value is not None and b2.value is not None and b3.value is not None
    assert b1.value <= b2.value
    assert b3.value <= b2.value


def test_zero_sum_value_is_the_minimax_over_player_strategies() -> None:
    """Foster: no Player probability on a fine grid lowers the Banker's best-reply payoff below the value."""
    shoe = Shoe.standard(decks=1)
    game = build_game(shoe, Model())
    solution = solve(shoe, Model())
    assert solution.value is not None
    for step in range(101):
        p = Fraction(step, 100)
        banker = tuple(
            Fraction(1) if game.banker.cell_gain(c, (p,)) > 0 else Fraction(0)
            for c in range(len(game.banker_cells))
        )
        assert game.banker.value((p,), banker) >= solution.value


def test_commission_gives_a_bimatrix_game_with_a_verified_equilibrium() -> None:
    solution = solve(Shoe.standard(decks=8), Model(commission=Fraction(1, 20)))
    assert solution.value is None and solution.complete
    assert len(solution.equilibria) == 1
    equilibrium = solution.equilibria[0]
    assert equilibrium.verified
    # The commission costs the Banker: his payoff falls below the zero-sum value.
    zero_sum = solve(Shoe.standard(decks=8), Model())
    assert zero_sum.value is not None
    assert equilibrium.banker_payoff < zero_sum.value
    assert equilibrium.banker_payoff != -equilibrium.player_payoff


def test_player_seeing_cards_zero_sum_and_bimatrix() -> None:
    shoe = Shoe.standard(decks=6)
    zero_sum = solve(shoe, Model(player_sees="cards"))
    assert zero_sum.value is not None and len(zero_sum.equilibria) == 1
    # The linear programs prove both optimal strategies unique (Ethier and Gamez suspected so).
    assert zero_sum.complete
    bimatrix = solve(shoe, Model(player_sees="cards", commission=Fraction(1, 20)))
    assert bimatrix.equilibria and all(e.verified for e in bimatrix.equilibria)
    # Ethier and Lee (2023) could not prove Model B3's equilibrium unique; the search proves
    # its one equilibrium is the only one.
    assert bimatrix.complete and len(bimatrix.equilibria) == 1


# --- brute force over every pure strategy on tiny shoes ------------------------------------


@st.composite
def _tiny_shoes(draw: st.DrawFn, smallest: int = 6, largest: int = 7) -> dict[str, int]:
    """Small shoes that can deal the Player a two-card 5 (one or two ways), plus other cards."""
    pairs = draw(
        st.lists(st.sampled_from([("A", "4"), ("5", "K"), ("2", "3")]), min_size=1, max_size=2)
    )
    counts: dict[str, int] = {}
    for first, second in pairs:
        counts[first] = counts.get(first, 0) + draw(st.integers(1, 2))
        counts[second] = counts.get(second, 0) + draw(st.integers(1, 2))
    extra = draw(st.sampled_from(["K", "9", "6", "A", "8"]))
    counts[extra] = counts.get(extra, 0) + draw(st.integers(0, 2))
    assume(smallest <= sum(counts.values()) <= largest)
    return counts


def _brute_force_check(shoe: Shoe, model: Model) -> Solution:
    deals = Deals(shoe, model.dealing, model.banker_sees, model.player_sees)
    solution = solve(shoe, model, max_mixed=5)
    game = build_game(shoe, model)
    assert game.player_choices == deals.player_choices
    assert set(game.banker_cells) == set(deals.banker_cells)
    # Every pure Banker strategy when there are few cells, else every one-cell change.
    if len(deals.banker_cells) <= 10:
        pure_banker = deals.pure_banker_strategies()
    else:
        pure_banker = []
        for equilibrium in solution.equilibria:
            banker = {(cell.hand, cell.information): cell.draw for cell in equilibrium.banker}
            for cell in banker:
                for action in (Fraction(0), Fraction(1)):
                    pure_banker.append({**banker, cell: action})
    pure_player = deals.pure_player_strategies()
    assert solution.equilibria
    for equilibrium in solution.equilibria:
        player = dict(equilibrium.player_draw_at_5)
        banker = {(cell.hand, cell.information): cell.draw for cell in equilibrium.banker}
        banker_payoff, player_payoff = deals.payoffs(player, banker, model.commission)
        assert (banker_payoff, player_payoff) == (
            equilibrium.banker_payoff,
            equilibrium.player_payoff,
        )
        # No pure strategy of either side does better against the other's.
        best_banker = max(deals.payoffs(player, b, model.commission)[0] for b in pure_banker)
        best_player = max(deals.payoffs(a, banker, model.commission)[1] for a in pure_player)
        assert best_banker == banker_payoff
        assert best_player == player_payoff
    return solution


def _pure_minimax(deals: Deals) -> Fraction:
    """min over the Player's mixtures of max over the Banker's pure strategies, from the upper envelope."""
    lines = []
    for banker in deals.pure_banker_strategies():
        stand = deals.payoffs({"5": Fraction(0)}, banker)[0]
        draw = deals.payoffs({"5": Fraction(1)}, banker)[0]
        lines.append((stand, draw - stand))
    points = {Fraction(0), Fraction(1)}
    for a1, b1 in lines:
        for a2, b2 in lines:
            if b1 != b2:
                crossing = (a2 - a1) / (b1 - b2)
                if 0 < crossing < 1:
                    points.add(crossing)
    return min(max(a + b * p for a, b in lines) for p in points)


@budgeted(12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_tiny_shoes(), st.sampled_from(["total", "cards"]))
def test_tiny_shoes_zero_sum_against_brute_force(counts: dict[str, int], banker_sees: str) -> None:
    shoe = Shoe.from_ranks(counts)
    model = Model(banker_sees=banker_sees)
    solution = _brute_force_check(shoe, model)
    deals = Deals(shoe, "shoe", banker_sees, "total")
    if deals.player_choices == ("5",) and len(deals.banker_cells) <= 8:
        assert solution.value == _pure_minimax(deals)


@budgeted(10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    _tiny_shoes(),
    st.sampled_from(["total", "cards"]),
    st.sampled_from([Fraction(1, 20), Fraction(1, 4)]),
)
def test_tiny_shoes_bimatrix_against_brute_force(
    counts: dict[str, int], player_sees: str, commission: Fraction
) -> None:
    _brute_force_check(
        Shoe.from_ranks(counts), Model(player_sees=player_sees, commission=commission)
    )


@budgeted(6, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_tiny_shoes(smallest=2, largest=5))
def test_tiny_shoes_with_replacement_against_brute_force(counts: dict[str, int]) -> None:
    _brute_force_check(Shoe.from_ranks(counts), Model(dealing="replacement"))


# --- library errors --------------------------------------------------------------------------


def test_with_replacement_the_player_compositions_are_interchangeable() -> None:
    """Dealt with replacement, 1+4 and 2+3 face the same cards: the optimum is not unique."""
    solution = solve(Shoe.standard(decks=1), Model(dealing="replacement", player_sees="cards"))
    assert not solution.complete
    totals = solve(Shoe.standard(decks=1), Model(dealing="replacement"))
    assert solution.value == totals.value


def test_bad_models_are_refused_in_one_sentence() -> None:
    with pytest.raises(ModelError, match="Dealing 'deck' is not known"):
        Model(dealing="deck")
    with pytest.raises(ModelError, match="The Banker sees 'all' is not known"):
        Model(banker_sees="all")
    with pytest.raises(ValueError, match="Commission"):
        Model(commission=Fraction(1))


# --- CLI -------------------------------------------------------------------------------------


def _run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["solve", *arguments])
    return result.exit_code, result.stdout, result.stderr


def test_cli_classic_table() -> None:
    code, out, err = _run("--decks", "1", "--dealing", "replacement", "--banker-sees", "total")
    assert code == 0 and err == ""
    assert "Player draws on 5 with probability 9/11 = 0.8181818182" in out
    assert "Cells that differ from Punto Banco: 1" in out
    assert "M1*" in out
    assert "Verified: yes" in out


def test_cli_json_is_exact() -> None:
    code, out, err = _run(
        "--decks", "1", "--dealing", "replacement", "--banker-sees", "total", "--format", "json"
    )
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["player_draw_at_5"] == "9/11"
    assert Fraction(data["value"]) == solve(Shoe.standard(1), CLASSIC).value
    assert data["banker"]["6"]["stood"] == "859/2288"
    assert data["banker"]["7"]["stood"] == "stand"
    assert data["verified"] is True
    assert data["differs_from_punto_banco"] == [
        {"hand": "6", "information": "stood", "action": "859/2288"}
    ]


def test_cli_json_player_sees_cards_maps_compositions() -> None:
    code, out, _ = _run("--decks", "2", "--player-sees", "cards", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert set(data["player_draw_at_5"]) == {"0+5", "1+4", "2+3", "6+9", "7+8"}
    assert all(Fraction(value) <= 1 for value in data["player_draw_at_5"].values())
    assert data == to_dict(solve(Shoe.standard(2), Model(player_sees="cards")))


def test_cli_commission_reports_both_payoffs() -> None:
    code, out, _ = _run("--decks", "2", "--commission", "5%")
    assert code == 0
    assert "bimatrix game" in out
    assert "Banker's expected payoff per unit:" in out
    assert "Player's expected payoff per unit:" in out


def test_cli_default_is_six_decks() -> None:
    code, out, _ = _run()
    assert code == 0
    assert out.startswith("Shoe: 312 cards (6 decks)")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--shoe", "K=5"], "The shoe holds 5 cards"),
        (["--dealing", "deck"], "Invalid value for '--dealing'"),
        (["--banker-sees", "everything"], "Invalid value for '--banker-sees'"),
        (["--player-sees", "x"], "Invalid value for '--player-sees'"),
        (["--commission", "100%"], "Commission '100%' for --commission is not valid"),
        (["--commission", "1.5"], "Commission '1.5' for --commission is not valid"),
        (["--decks", "0"], "Number of decks 0 for --decks is not valid"),
    ],
)
def test_cli_bad_input_is_one_sentence_and_exit_2(arguments: list[str], message: str) -> None:
    code, out, err = _run(*arguments)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]


def test_solve_does_not_load_for_odds() -> None:
    """``exactodds odds`` imports no part of the game solver."""
    import subprocess
    import sys

    code = (
        "import sys; from exactodds.cli import cli; "
        "from click.testing import CliRunner; CliRunner().invoke(cli, ['odds', '--decks', '1']); "
        "print(any(name.startswith('exactodds.games') for name in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(("decks", "banker_sees"), [(1, "cards"), (6, "total"), (8, "cards")])
def test_the_game_at_punto_banco_strategies_is_punto_banco(decks: int, banker_sees: str) -> None:
    """The game's payoffs, at the Player drawing on 5 and the tableau's Banker, match the odds engine."""
    shoe = Shoe.standard(decks=decks)
    commission = Fraction(1, 20)
    game = build_game(shoe, Model(banker_sees=banker_sees, commission=commission))
    tableau = Tableau.standard()
    banker = []
    for label in game.banker_cells:
        hand, information = cast(tuple[str, str], label)
        total = sum(int(value) for value in hand.split("+")) % 10
        draws = (
            tableau.banker_draws_when_player_stood[total]
            if information == "stood"
            else tableau.banker_draws[total][int(information)]
        )
        banker.append(Fraction(int(draws)))
    result = analyze(shoe, Rules(commission=0))
    banker_wins = Fraction(result.outcomes["banker"].count, result.total)
    player_wins = Fraction(result.outcomes["player"].count, result.total)
    profile = ((Fraction(1),), tuple(banker))
    assert game.banker.value(*profile) == banker_wins * (1 - commission) - player_wins
    assert game.player.value(*profile) == player_wins - banker_wins


def test_a_huge_shoe_approaches_the_with_replacement_solution(classic: Solution) -> None:
    """Dealt from 5,000 decks, chemin de fer is nearly the 1957 game: 9/11 and its value."""
    # 5,000 decks is past the number of decks a shoe is named by; its rank counts are exact.
    huge = solve(Shoe.from_ranks((20000,) * 13), Model(banker_sees="total"))
    assert huge.value is not None and classic.value is not None
    assert abs(huge.player_draw_at_5["5"] - Fraction(9, 11)) < Fraction(1, 1000)
    assert abs(huge.value - classic.value) < Fraction(1, 10**5)
    cells = [(cell.hand, cell.information) for cell in huge.differences_from_punto_banco()]
    assert cells == [("6", "stood")]


@pytest.mark.parametrize("decks", [1, pytest.param(6, marks=THOROUGH)])
def test_linear_program_and_vertex_search_agree_on_model_b3(decks: int) -> None:
    """Two independent solvers of the zero-sum game with the Player seeing his cards agree."""
    game = build_game(Shoe.standard(decks=decks), Model(player_sees="cards"))
    optimal = solve_zero_sum(game)
    found = search_equilibria(game)
    assert [(profile.player, profile.banker) for profile in found] == [
        (optimal.player, optimal.banker)
    ]


def test_report_of_a_continuum_and_of_a_player_without_a_choice() -> None:
    """A degenerate solution (an interval of Player strategies) and a shoe with no two-card 5."""
    interval = Equilibrium(
        player_draw_at_5={"5": Fraction(0)},
        banker=(BankerCell("6", "stood", Fraction(1)),),
        banker_payoff=Fraction(1, 10),
        player_payoff=Fraction(-1, 10),
        banker_unique=False,
        player_draw_at_5_up_to={"5": Fraction(1)},
        verified=True,
    )
    solution = Solution(Model(), Shoe.standard(1), (interval,), Fraction(1, 10), "test", True, 1, 1)
    text = render_solution_table(solution, 4)
    assert "Player draws on 5 with probability 0 = 0.0000 to 1 = 1.0000 (any value between)" in text
    assert "D*" in text  # Punto Banco stands on 6 when the Player stood
    assert "other Banker strategies are in equilibrium" in text
    data = to_dict(solution)
    assert data["equilibria"][0]["player_draw_at_5_up_to"] == {"5": "1"}
    no_five = solve(Shoe.from_ranks({"K": 6, "A": 1}))
    assert no_five.equilibria[0].player_draw_at_5 == {}
    assert "this shoe can deal him no two-card 5" in render_solution_table(no_five)
