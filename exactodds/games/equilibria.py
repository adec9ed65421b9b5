"""Exact Nash equilibria of additive two-person games with binary choices.

In baccara chemin de fer the Player makes ``k`` binary choices (draw or stand
on 5, one per hand he can tell apart) and the Banker ``m`` (draw or stand, one
per cell of what he knows).  Each side's expected payoff is *additive* in his
own choices: with ``p`` the Player's draw probabilities and ``q`` the Banker's,

    U(p, q) = constant + linear . p + sum over cells c of q_c * (cell_c + coupling_c . p)

for each side (:class:`Payoff`).  So a best reply is found choice by choice:
the Banker draws in cell ``c`` when ``cell_c + coupling_c . p`` (his gain from
drawing there) is positive, stands when it is negative, and may mix when it is
zero; likewise for the Player.  Every test below is an exact comparison of
Fractions.

Solvers:

* :func:`solve_one_choice` (``k <= 1``): Foster's algorithm, generalised to
  bimatrix games as Ethier and Lee (2023) do.  The Banker's gains are linear
  in the Player's one probability, so his best reply changes only where a
  gain crosses zero; every equilibrium sits at such a point, at 0 or 1, or
  (degenerately) on a whole interval between two of them.  All are found.
* :func:`solve_zero_sum` (any ``k``, zero-sum): the Player's minimax strategy
  by an exact linear program (the Banker's best-reply payoff is convex and
  piecewise linear in ``p``), then a Banker strategy that makes it a best reply.
* :func:`search_equilibria` (any ``k``, bimatrix): every equilibrium whose
  Player strategy is a vertex of the Banker's indifference hyperplanes (as
  many cells indifferent, independently, as the Player has mixed choices),
  with exact checks that prove the list complete when it is (each found
  strategy the only one in equilibrium with the other side's).

>>> game = _toy()  # matching pennies: the Banker gains -1 + 2p by drawing, the Player 1 - 2q
>>> [(e.player, e.banker) for e in solve_one_choice(game)]
[((Fraction(1, 2),), (Fraction(1, 2),))]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations, pairwise, product
from math import gcd

from exactodds.games.simplex import maximize

__all__ = [
    "AdditiveGame",
    "Payoff",
    "Profile",
    "best_reply_failures",
    "payoff_ranges",
    "search_equilibria",
    "solve_one_choice",
    "solve_zero_sum",
]

ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True)
class Payoff:
    """One side's expected payoff as a function of both sides' draw probabilities.

    ``U(p, q) = constant + sum_j linear[j] p_j + sum_c q_c (cell[c] + sum_j coupling[c][j] p_j)``

    >>> Payoff(Fraction(1), (), (Fraction(2),), ((),)).value((), (Fraction(1, 2),))
    Fraction(2, 1)
    """

    constant: Fraction
    linear: tuple[Fraction, ...]
    cell: tuple[Fraction, ...]
    coupling: tuple[tuple[Fraction, ...], ...]

    def cell_gain(self, index: int, player: Sequence[Fraction]) -> Fraction:
        """The gain from drawing over standing in Banker cell *index*, given the Player's *p*."""
        gain = self.cell[index]
        for weight, probability in zip(self.coupling[index], player, strict=True):
            if weight and probability:
                gain += weight * probability
        return gain

    def choice_gain(self, index: int, banker: Sequence[Fraction]) -> Fraction:
        """The gain from drawing over standing in Player choice *index*, given the Banker's *q*."""
        gain = self.linear[index]
        for row, probability in zip(self.coupling, banker, strict=True):
            if probability and row[index]:
                gain += probability * row[index]
        return gain

    def value(self, player: Sequence[Fraction], banker: Sequence[Fraction]) -> Fraction:
        """The expected payoff at the profile (*player*, *banker*)."""
        total = self.constant
        for weight, probability in zip(self.linear, player, strict=True):
            total += weight * probability
        for index, probability in enumerate(banker):
            if probability:
                total += probability * self.cell_gain(index, player)
        return total


@dataclass(frozen=True)
class AdditiveGame:
    """A game between a Player with binary choices and a Banker with binary choices.

    ``player_choices`` and ``banker_cells`` label the choices; ``banker`` and
    ``player`` are the two sides' payoffs (for a zero-sum game, negatives).

    >>> AdditiveGame((), (), Payoff(ZERO, (), (), ()), Payoff(ZERO, (), (), ())).zero_sum
    True
    """

    player_choices: tuple[Hashable, ...]
    banker_cells: tuple[Hashable, ...]
    banker: Payoff
    player: Payoff

    @property
    def zero_sum(self) -> bool:
        """Whether the Player's payoff is the negative of the Banker's."""
        banker, player = self.banker, self.player
        return (
            banker.constant == -player.constant
            and all(b == -p for b, p in zip(banker.linear, player.linear, strict=True))
            and all(b == -p for b, p in zip(banker.cell, player.cell, strict=True))
            and all(
                b == -p
                for row_b, row_p in zip(banker.coupling, player.coupling, strict=True)
                for b, p in zip(row_b, row_p, strict=True)
            )
        )


@dataclass(frozen=True)
class Profile:
    """A strategy pair: the Player's and the Banker's probabilities of drawing, choice by choice.

    ``player_up_to``, when set, says that every Player strategy on the segment
    from ``player`` to ``player_up_to`` is in equilibrium with this Banker
    strategy (a degenerate game).  ``banker_unique`` says whether this is the
    only Banker strategy in equilibrium with ``player``; ``player_unique``
    whether ``player`` is the only Player strategy in equilibrium with
    ``banker`` (in a zero-sum game: his only optimal strategy).

    >>> Profile((ONE,), (ZERO,)).player_up_to is None
    True
    """

    player: tuple[Fraction, ...]
    banker: tuple[Fraction, ...]
    player_up_to: tuple[Fraction, ...] | None = None
    banker_unique: bool = True
    player_unique: bool = True


def _toy() -> AdditiveGame:
    """Matching pennies as an additive game (for the examples): both sides mix 1/2."""
    return AdditiveGame(
        ("5",),
        ("c",),
        Payoff(ZERO, (-ONE,), (-ONE,), ((2 * ONE,),)),
        Payoff(ZERO, (ONE,), (ONE,), ((-2 * ONE,),)),
    )


def _sign_ok(probability: Fraction, gain: Fraction) -> bool:
    if gain > 0:
        return probability == 1
    if gain < 0:
        return probability == 0
    return 0 <= probability <= 1


def best_reply_failures(game: AdditiveGame, profile: Profile) -> list[str]:
    """Every choice where a side's probability is not a best reply, as sentences (empty: none).

    A choice's probability is a best reply when it draws (1) on a positive
    gain, stands (0) on a negative one, and lies in [0, 1] on a zero gain.
    Payoffs are additive, so a strategy is a best reply exactly when every
    one of its choices is.

    >>> game = _toy()
    >>> best_reply_failures(game, Profile((Fraction(1, 2),), (Fraction(1, 2),)))
    []
    >>> best_reply_failures(game, Profile((ONE,), (ZERO,)))
    ['Banker cell c: draws with probability 0 where drawing gains 1.']
    """
    failures = []
    player, banker = profile.player, profile.banker
    for index, label in enumerate(game.banker_cells):
        gain = game.banker.cell_gain(index, player)
        if not _sign_ok(banker[index], gain):
            failures.append(
                f"Banker cell {label}: draws with probability {banker[index]} where drawing gains {gain}."
            )
    for index, label in enumerate(game.player_choices):
        gain = game.player.choice_gain(index, banker)
        if not _sign_ok(player[index], gain):
            failures.append(
                f"Player choice {label}: draws with probability {player[index]} where drawing gains {gain}."
            )
    return failures


@dataclass(frozen=True)
class _Reduction:
    """Cells whose best reply is the same against every Player strategy, and the rest."""

    fixed: dict[int, Fraction]
    free: tuple[int, ...]
    player_base: tuple[Fraction, ...]


def _reduce(game: AdditiveGame) -> _Reduction:
    fixed, free = _fixed_over_box(game)
    banker = [fixed.get(index, ZERO) for index in range(len(game.banker_cells))]
    base = tuple(game.player.choice_gain(j, banker) for j in range(len(game.player_choices)))
    return _Reduction(fixed, tuple(free), base)


@dataclass(frozen=True)
class _BankerProgram:
    """The Banker strategies in equilibrium with one Player strategy, as a linear program.

    ``fixed`` holds every cell's probability, zero in the ``free`` cells (where the Banker's
    gain is zero); the free cells' probabilities ``x`` satisfy ``at_most . x <= bounds`` and
    ``equal . x = equal_bounds``.
    """

    fixed: tuple[Fraction, ...]
    free: tuple[int, ...]
    base: tuple[Fraction, ...]
    at_most: tuple[tuple[Fraction, ...], ...]
    bounds: tuple[Fraction, ...]
    equal: tuple[tuple[Fraction, ...], ...]
    equal_bounds: tuple[Fraction, ...]

    def extreme(self, objective: Sequence[Fraction]) -> Fraction | None:
        """The largest ``objective . x`` over the program (None if it has no point)."""
        result = maximize(objective, self.at_most, self.bounds, self.equal, self.equal_bounds)
        return result.value if result.status == "optimal" else None


def _banker_program(
    game: AdditiveGame, player: tuple[Fraction, ...], reduction: _Reduction | None = None
) -> _BankerProgram:
    reduction = reduction if reduction is not None else _reduce(game)
    fixed: list[Fraction] = [
        reduction.fixed.get(index, ZERO) for index in range(len(game.banker_cells))
    ]
    base = list(reduction.player_base)
    coupling = game.player.coupling
    free: list[int] = []
    for index in reduction.free:
        gain = game.banker.cell_gain(index, player)
        if gain > 0:
            fixed[index] = ONE
            for j, weight in enumerate(coupling[index]):
                base[j] += weight
        elif gain == 0:
            free.append(index)
    # Player gain j = base[j] + sum over free cells of q_c * coupling[c][j].
    at_most: list[tuple[Fraction, ...]] = []
    bounds: list[Fraction] = []
    equal: list[tuple[Fraction, ...]] = []
    equal_bounds: list[Fraction] = []
    for j, probability in enumerate(player):
        row = tuple(coupling[c][j] for c in free)
        if probability == 1:  # gain >= 0
            at_most.append(tuple(-value for value in row))
            bounds.append(base[j])
        elif probability == 0:  # gain <= 0
            at_most.append(row)
            bounds.append(-base[j])
        else:
            equal.append(row)
            equal_bounds.append(-base[j])
    for position in range(len(free)):
        at_most.append(tuple(ONE if other == position else ZERO for other in range(len(free))))
        bounds.append(ONE)
    return _BankerProgram(
        tuple(fixed),
        tuple(free),
        tuple(base),
        tuple(at_most),
        tuple(bounds),
        tuple(equal),
        tuple(equal_bounds),
    )


def _banker_for(
    game: AdditiveGame, player: tuple[Fraction, ...], reduction: _Reduction | None = None
) -> Profile | None:
    """A Banker best reply to *player* that makes *player* a best reply, or None.

    Cells where the Banker's gain is not zero are fixed; the rest are the
    variables of a small exact feasibility program holding each Player choice
    to its best-reply condition.
    """
    program = _banker_program(game, player, reduction)
    if not program.free:
        if all(_sign_ok(p, gain) for p, gain in zip(player, program.base, strict=True)):
            return Profile(player, program.fixed)
        return None
    free = program.free
    result = maximize(
        [ZERO] * len(free), program.at_most, program.bounds, program.equal, program.equal_bounds
    )
    if result.status != "optimal":
        return None
    banker = list(program.fixed)
    for position, cell in enumerate(free):
        banker[cell] = result.point[position]
    unique = True
    for position in range(len(free)):
        direction = [ONE if other == position else ZERO for other in range(len(free))]
        high = program.extreme(direction)
        low = program.extreme([-value for value in direction])
        if high is None or low is None or high != -low:
            unique = False
            break
    return Profile(player, tuple(banker), banker_unique=unique)


def payoff_ranges(
    game: AdditiveGame, profile: Profile
) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """The lowest and highest payoff of (Banker, Player) over the equilibria *profile* stands for.

    A Player interval (``player_up_to``) with one Banker reply: each payoff is linear in the
    Player's probability, so its extremes are at the two ends.  A Banker strategy that is not
    unique: the Banker strategies in equilibrium with the Player's form a polytope (cells where
    the Banker is indifferent, held to the Player's best-reply conditions), over which each
    payoff is linear; its extremes come from two exact linear programs.

    >>> game = _toy()
    >>> payoff_ranges(game, solve_one_choice(game)[0])
    ((Fraction(-1, 2), Fraction(-1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    """
    if profile.player_up_to is not None:
        # Linear in the Player's probability: the extremes are at the ends, over the Banker's
        # set there (which holds this Banker strategy).
        ends = [_set_ranges(game, end) for end in (profile.player, profile.player_up_to)]
        return (
            (min(end[0][0] for end in ends), max(end[0][1] for end in ends)),
            (min(end[1][0] for end in ends), max(end[1][1] for end in ends)),
        )
    if profile.banker_unique:
        banker_value = game.banker.value(profile.player, profile.banker)
        player_value = game.player.value(profile.player, profile.banker)
        return (banker_value, banker_value), (player_value, player_value)
    return _set_ranges(game, profile.player)


def _set_ranges(
    game: AdditiveGame, player: tuple[Fraction, ...]
) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Each side's payoff range over the Banker strategies in equilibrium with *player*."""
    program = _banker_program(game, player)
    ranges = []
    for side in (game.banker, game.player):
        at_fixed = side.value(player, program.fixed)
        gains = [side.cell_gain(cell, player) for cell in program.free]
        high = program.extreme(gains)
        low = program.extreme([-gain for gain in gains])
        if high is None or low is None:  # pragma: no cover - *player* is in an equilibrium
            raise AssertionError("The Banker's equilibrium set is empty.")
        ranges.append((at_fixed - low, at_fixed + high))
    return ranges[0], ranges[1]


def _checked(game: AdditiveGame, profile: Profile) -> Profile:
    failures = best_reply_failures(game, profile)
    if failures:  # pragma: no cover - a solver bug, never a user's mistake
        raise AssertionError("Equilibrium check failed: " + " ".join(failures))
    return profile


def solve_one_choice(game: AdditiveGame) -> tuple[Profile, ...]:
    """Every Nash equilibrium of a game where the Player has at most one choice.

    Foster's algorithm: the Banker's best reply to a Player probability ``p``
    is constant between the points where some cell's gain crosses zero, so an
    equilibrium's ``p`` is 0, 1, one of those points, or (when the Player's own
    gain is exactly zero there) a whole interval between two of them.

    >>> game = _toy()
    >>> [profile.player for profile in solve_one_choice(game)]
    [(Fraction(1, 2),)]
    >>> solve_one_choice(AdditiveGame(("a", "b"), (), Payoff(ZERO, (ZERO, ZERO), (), ()),
    ...                               Payoff(ZERO, (ZERO, ZERO), (), ())))
    Traceback (most recent call last):
    ...
    ValueError: solve_one_choice needs a Player with at most one choice, not 2.
    """
    choices = len(game.player_choices)
    if choices > 1:
        raise ValueError(f"solve_one_choice needs a Player with at most one choice, not {choices}.")
    if choices == 0:
        found = _banker_for(game, ())
        return (_checked(game, found),) if found else ()
    points = {ZERO, ONE}
    for index in range(len(game.banker_cells)):
        slope = game.banker.coupling[index][0]
        if slope:
            root = -game.banker.cell[index] / slope
            if 0 < root < 1:
                points.add(root)
    ordered = sorted(points)
    profiles: list[Profile] = []
    reduction = _reduce(game)
    for point in ordered:
        found = _banker_for(game, (point,), reduction)
        if found is not None:
            profiles.append(_checked(game, found))
    # Degenerate games: a whole interval of p in equilibrium with one pure Banker reply.
    for low, high in pairwise(ordered):
        middle = (low + high) / 2
        banker = tuple(
            ONE if game.banker.cell_gain(c, (middle,)) > 0 else ZERO
            for c in range(len(game.banker_cells))
        )
        if game.player.choice_gain(0, banker) == 0:
            # At an end a Banker cell may be indifferent too: then his strategies there are a set.
            ends = [_banker_for(game, (end,), reduction) for end in (low, high)]
            unique = all(end is not None and end.banker_unique for end in ends)
            profile = Profile((low,), banker, player_up_to=(high,), banker_unique=unique)
            _checked(game, Profile((middle,), banker))
            profiles = [
                p for p in profiles if not (low <= p.player[0] <= high and p.banker == banker)
            ]
            profiles.append(profile)
    profiles.sort(key=lambda profile: profile.player)
    return tuple(profiles)


def _fixed_over_box(game: AdditiveGame) -> tuple[dict[int, Fraction], list[int]]:
    """Cells whose best reply is the same for every Player strategy, and the rest."""
    fixed: dict[int, Fraction] = {}
    free: list[int] = []
    for index in range(len(game.banker_cells)):
        low = high = game.banker.cell[index]
        for weight in game.banker.coupling[index]:
            if weight > 0:
                high += weight
            else:
                low += weight
        if low > 0:
            fixed[index] = ONE
        elif high < 0:
            fixed[index] = ZERO
        else:
            free.append(index)
    return fixed, free


def solve_zero_sum(game: AdditiveGame) -> Profile:
    """An optimal strategy pair of a zero-sum additive game, by an exact linear program.

    The Player minimises the Banker's best-reply payoff
    ``constant + linear . p + sum_c max(0, gain_c(p))``: a linear program in
    ``p`` and one epigraph variable per cell whose sign depends on ``p``.

    >>> game = _toy()
    >>> solve_zero_sum(game).player
    (Fraction(1, 2),)
    """
    if not game.zero_sum:
        raise ValueError("solve_zero_sum needs a zero-sum game.")
    choices = len(game.player_choices)
    fixed, free = _fixed_over_box(game)
    # Minimise linear . p + sum over fixed-draw cells of gain_c(p) + sum over free cells of t_c.
    objective = list(game.banker.linear)
    for index, value in fixed.items():
        if value:
            for j, weight in enumerate(game.banker.coupling[index]):
                objective[j] += weight
    width = choices + len(free)
    costs = [-value for value in objective] + [-ONE] * len(free)
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for j in range(choices):
        rows.append([ONE if column == j else ZERO for column in range(width)])
        bounds.append(ONE)
    for position, index in enumerate(free):
        row = list(game.banker.coupling[index]) + [ZERO] * len(free)
        row[choices + position] = -ONE
        rows.append(row)
        bounds.append(-game.banker.cell[index])
    result = maximize(costs, rows, bounds)
    if result.status != "optimal":  # pragma: no cover - the program is bounded and feasible
        raise AssertionError(f"The minimax program is {result.status}.")
    player = tuple(result.point[:choices])
    found = _banker_for(game, player)
    if found is None:  # pragma: no cover - the minimax theorem guarantees one
        raise AssertionError("No Banker strategy makes the minimax Player strategy a best reply.")
    # The Player's optimal strategies are the points of the program at the optimum: each
    # probability is pinned when its largest and smallest values there agree.
    assert result.value is not None
    optimal_rows = [*rows, [-value for value in costs]]
    optimal_bounds = [*bounds, -result.value]
    unique = True
    for j in range(choices):
        direction = [ONE if column == j else ZERO for column in range(width)]
        high = maximize(direction, optimal_rows, optimal_bounds)
        low = maximize([-value for value in direction], optimal_rows, optimal_bounds)
        if high.value is None or low.value is None or high.value != -low.value:
            unique = False
            break
    return _checked(game, replace(found, player_unique=unique))


def _determinant(matrix: list[list[int]]) -> int:
    """The determinant of a square integer matrix, by Bareiss's fraction-free elimination.

    >>> _determinant([[2, 1], [1, 3]]), _determinant([[0, 1], [1, 0]]), _determinant([[1, 2], [2, 4]])
    (5, -1, 0)
    """
    rows = [list(row) for row in matrix]
    size = len(rows)
    sign = 1
    previous = 1
    for k in range(size - 1):
        if rows[k][k] == 0:
            swap = next((r for r in range(k + 1, size) if rows[r][k] != 0), None)
            if swap is None:
                return 0
            rows[k], rows[swap] = rows[swap], rows[k]
            sign = -sign
        pivot = rows[k][k]
        for i in range(k + 1, size):
            row, factor = rows[i], rows[i][k]
            for j in range(k + 1, size):
                row[j] = (row[j] * pivot - factor * rows[k][j]) // previous
        previous = pivot
    return sign * rows[size - 1][size - 1] if size else 1


def _solve_inside(matrix: list[list[int]], right: list[int]) -> tuple[list[int], int] | None:
    """Solve a square integer system by Cramer's rule, if its solution lies strictly inside (0, 1)^n.

    Returns the numerators and their positive common denominator; None when the
    system is singular or the solution is not inside (checked one coordinate at
    a time, so most candidates cost two determinants).

    >>> _solve_inside([[5, 0], [0, 4]], [1, 3])
    ([4, 15], 20)
    >>> _solve_inside([[2, 1], [1, 3]], [3, 5]) is None  # (4/5, 7/5): outside
    True
    >>> _solve_inside([[1, 2], [2, 4]], [1, 1]) is None  # singular
    True
    """
    determinant = _determinant(matrix)
    if determinant == 0:
        return None
    sign = 1 if determinant > 0 else -1
    numerators = []
    for column in range(len(matrix)):
        replaced = [
            [*row[:column], value, *row[column + 1 :]]
            for row, value in zip(matrix, right, strict=True)
        ]
        numerator = sign * _determinant(replaced)
        if not 0 < numerator < sign * determinant:
            return None
        numerators.append(numerator)
    return numerators, sign * determinant


def _candidates(game: AdditiveGame, max_mixed: int) -> Iterator[tuple[Fraction, ...]]:
    choices = len(game.player_choices)
    _, free = _fixed_over_box(game)
    # The Banker's gains in whole numbers (one common scale), for fast exact solving.
    scale = 1
    for c in free:
        for value in (game.banker.cell[c], *game.banker.coupling[c]):
            scale = scale * value.denominator // gcd(scale, value.denominator)
    whole_cell = {c: int(game.banker.cell[c] * scale) for c in free}
    whole_coupling = {c: [int(value * scale) for value in game.banker.coupling[c]] for c in free}
    for mixed_count in range(min(max_mixed, choices) + 1):
        for mixed in combinations(range(choices), mixed_count):
            pure = [j for j in range(choices) if j not in mixed]
            for values in product((ZERO, ONE), repeat=len(pure)):
                point = [ZERO] * choices
                for j, value in zip(pure, values, strict=True):
                    point[j] = value
                if not mixed:
                    yield tuple(point)
                    continue
                # Only cells whose gain can be zero on this face can be indifferent there
                # (the pure choices are 0 or 1, so these sums are whole numbers).
                face: list[int] = []
                offsets: dict[int, int] = {}
                for c in free:
                    row = whole_coupling[c]
                    offset = whole_cell[c] + sum(row[j] for j in pure if point[j])
                    low = offset + sum(min(0, row[j]) for j in mixed)
                    high = offset + sum(max(0, row[j]) for j in mixed)
                    if low < 0 < high:
                        face.append(c)
                        offsets[c] = offset
                for cells in combinations(face, mixed_count):
                    solved = _solve_inside(
                        [[whole_coupling[c][j] for j in mixed] for c in cells],
                        [-offsets[c] for c in cells],
                    )
                    if solved is None:
                        continue
                    numerators, denominator = solved
                    for j, numerator in zip(mixed, numerators, strict=True):
                        point[j] = Fraction(numerator, denominator)
                    yield tuple(point)


def search_equilibria(game: AdditiveGame, max_mixed: int = 5) -> tuple[Profile, ...]:
    """Equilibria at vertices, where the Player mixes in at most *max_mixed* choices.

    Candidates are the Player's pure strategies and the points where as many
    Banker cells are indifferent as the Player has mixed choices (solved in
    whole numbers by Cramer's rule); each is kept if some Banker best reply
    makes it a best reply too.

    The list is every equilibrium when *max_mixed* covers every choice and
    each profile has ``banker_unique`` and ``player_unique``.  Proof: for any
    equilibrium (p, q), the Player strategies in equilibrium with q form a
    polytope; a vertex v of it is pinned by as many independent indifferent
    cells as it has mixed choices, so the search finds v, and (v, q) is an
    equilibrium.  If the Banker's reply at v is unique, q is the one found;
    if the polytope of that q is the single point v, then p = v.

    >>> game = _toy()
    >>> [profile.player for profile in search_equilibria(game)]
    [(Fraction(1, 2),)]
    """
    seen: set[tuple[Fraction, ...]] = set()
    profiles: list[Profile] = []
    reduction = _reduce(game)
    for point in _candidates(game, max_mixed):
        if point in seen:
            continue
        seen.add(point)
        found = _banker_for(game, point, reduction)
        if found is not None:
            pinned = _player_pinned(game, found, reduction)
            profiles.append(_checked(game, replace(found, player_unique=pinned)))
    profiles.sort(key=lambda profile: profile.player)
    return tuple(profiles)


def _player_pinned(game: AdditiveGame, profile: Profile, reduction: _Reduction) -> bool:
    """Whether ``profile.player`` is the only Player strategy in equilibrium with ``profile.banker``.

    Those strategies form a polytope: each Player choice within its best-reply
    range against the Banker's strategy, and each Banker cell's gain of the
    sign his action needs (zero where he mixes).  Cells fixed over the whole
    box hold everywhere, so only the others are constraints.  The polytope is
    a point when exact linear programs pin every coordinate from both sides.
    """
    choices = len(game.player_choices)
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    equal: list[list[Fraction]] = []
    equal_bounds: list[Fraction] = []
    for j in range(choices):
        unit = [ONE if other == j else ZERO for other in range(choices)]
        gain = game.player.choice_gain(j, profile.banker)
        if gain > 0:
            equal.append(unit)
            equal_bounds.append(ONE)
        elif gain < 0:
            equal.append(unit)
            equal_bounds.append(ZERO)
        else:
            rows.append(unit)
            bounds.append(ONE)
    for c in reduction.free:
        coupling, cell = list(game.banker.coupling[c]), game.banker.cell[c]
        draw = profile.banker[c]
        if draw == 1:  # gain >= 0
            rows.append([-value for value in coupling])
            bounds.append(cell)
        elif draw == 0:  # gain <= 0
            rows.append(coupling)
            bounds.append(-cell)
        else:
            equal.append(coupling)
            equal_bounds.append(-cell)
    for j in range(choices):
        direction = [ONE if other == j else ZERO for other in range(choices)]
        high = maximize(direction, rows, bounds, equal, equal_bounds)
        low = maximize([-value for value in direction], rows, bounds, equal, equal_bounds)
        if high.value is None or low.value is None or high.value != -low.value:
            return False
    return True
