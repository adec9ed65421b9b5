"""The game solvers on small additive games: hand-made ones and random ones, cross-checked."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.games.equilibria import (
    AdditiveGame,
    Payoff,
    Profile,
    best_reply_failures,
    search_equilibria,
    solve_one_choice,
    solve_zero_sum,
)

F = Fraction
ZERO, ONE = F(0), F(1)


def _game(
    banker_cell: list[int],
    banker_coupling: list[list[int]],
    player_linear: list[int],
    player_coupling: list[list[int]],
    zero_sum: bool = False,
) -> AdditiveGame:
    choices = len(player_linear)
    banker = Payoff(
        ZERO,
        tuple(F(-value) for value in player_linear) if zero_sum else (ZERO,) * choices,
        tuple(F(value) for value in banker_cell),
        tuple(tuple(F(value) for value in row) for row in banker_coupling),
    )
    if zero_sum:
        player = Payoff(
            ZERO,
            tuple(F(value) for value in player_linear),
            tuple(-value for value in banker.cell),
            tuple(tuple(-value for value in row) for row in banker.coupling),
        )
    else:
        player = Payoff(
            ZERO,
            tuple(F(value) for value in player_linear),
            (ZERO,) * len(banker_cell),
            tuple(tuple(F(value) for value in row) for row in player_coupling),
        )
    return AdditiveGame(
        tuple(f"p{j}" for j in range(choices)),
        tuple(f"c{c}" for c in range(len(banker_cell))),
        banker,
        player,
    )


def test_coordination_game_has_three_equilibria_found_by_both_searches() -> None:
    # The Banker draws when p > 1/2, the Player when q > 1/2.
    game = _game([-1], [[2]], [-1], [[2]])
    expected = [((ZERO,), (ZERO,)), ((F(1, 2),), (F(1, 2),)), ((ONE,), (ONE,))]
    assert [(p.player, p.banker) for p in solve_one_choice(game)] == expected
    assert [(p.player, p.banker) for p in search_equilibria(game)] == expected


def test_a_choice_that_does_not_matter_gives_an_interval() -> None:
    # The Banker always gains by drawing; the Player's choice changes nothing for him.
    game = _game([1], [[0]], [0], [[0]])
    (profile,) = solve_one_choice(game)
    assert profile.player == (ZERO,) and profile.player_up_to == (ONE,)
    assert profile.banker == (ONE,)


def test_a_player_without_choices() -> None:
    game = _game([-3, 2], [[], []], [], [[], []])
    (profile,) = solve_one_choice(game)
    assert profile == Profile((), (ZERO, ONE))


_small = st.integers(-4, 4)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_foster_and_the_vertex_search_agree_on_random_games(data: st.DataObject) -> None:
    cells = data.draw(st.integers(1, 4))
    game = _game(
        data.draw(st.lists(_small, min_size=cells, max_size=cells)),
        [[data.draw(_small)] for _ in range(cells)],
        [data.draw(_small)],
        [[data.draw(_small)] for _ in range(cells)],
    )
    foster = solve_one_choice(game)
    assert foster, "every finite game has an equilibrium"
    for profile in foster:
        assert best_reply_failures(game, profile) == []
    searched = search_equilibria(game)
    if all(profile.player_up_to is None for profile in foster):
        # No continuum: the vertex search sees exactly the Player strategies Foster finds.
        assert {p.player for p in searched} == {p.player for p in foster}
    if all(p.banker_unique and p.player_unique for p in searched):
        # The search proves its list complete: Foster (complete by construction) agrees.
        assert all(profile.player_up_to is None for profile in foster)
        assert [(p.player, p.banker) for p in searched] == [(p.player, p.banker) for p in foster]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_zero_sum_linear_program_is_the_minimax(data: st.DataObject) -> None:
    choices = data.draw(st.integers(1, 2))
    cells = data.draw(st.integers(1, 4))
    game = _game(
        data.draw(st.lists(_small, min_size=cells, max_size=cells)),
        [data.draw(st.lists(_small, min_size=choices, max_size=choices)) for _ in range(cells)],
        data.draw(st.lists(_small, min_size=choices, max_size=choices)),
        [],
        zero_sum=True,
    )
    assert game.zero_sum
    optimal = solve_zero_sum(game)
    assert best_reply_failures(game, optimal) == []
    value = game.banker.value(optimal.player, optimal.banker)

    def best_reply_value(player: tuple[Fraction, ...]) -> Fraction:
        banker = tuple(ONE if game.banker.cell_gain(c, player) > 0 else ZERO for c in range(cells))
        return game.banker.value(player, banker)

    assert best_reply_value(optimal.player) == value
    grid = [F(step, 8) for step in range(9)]
    points = [(a,) for a in grid] if choices == 1 else [(a, b) for a in grid for b in grid]
    assert all(best_reply_value(point) >= value for point in points)
    if choices == 1:
        foster_values = {game.banker.value(p.player, p.banker) for p in solve_one_choice(game)}
        assert foster_values == {value}
    # The vertex search finds the optimal Player strategy, at the value; when both solvers
    # prove their answers unique, they are the same single pair.
    searched = search_equilibria(game)
    assert {game.banker.value(p.player, p.banker) for p in searched} == {value}
    if optimal.player_unique and optimal.banker_unique:
        assert [(p.player, p.banker) for p in searched] == [(optimal.player, optimal.banker)]
