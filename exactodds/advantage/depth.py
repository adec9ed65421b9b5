"""Perfect play by depth, and partial knowledge of the shoe: exact averages over what is unseen.

When ``K`` cards are left, a uniformly random subset of the shoe, each composition of those
``K`` cards has its own exact EV for every bet.  :func:`depth_table` averages, over every
composition weighted by its hypergeometric probability, what a player who knew the composition
could do: how often a bet's EV is above ``min_edge``, the mean EV when it is, the value of
betting exactly then (``E[max(EV - min_edge, 0)]`` per round), and the plain mean EV, which
must equal the full shoe's EV (each card is as likely to be left as any other); that identity
is checked on every run, and a mismatch raises :class:`DepthCheckError` instead of printing.

:func:`partial_shoe` describes what is known more generally, as Thorp and Walden's natural-8/9
model does: ``cards`` cards are left, the counts of some ranks among them are known, and the
others are a random subset of the shoe's remaining ranks.  :func:`partial_odds` averages over
it the same way.  The sums run through :mod:`exactodds.advantage.compositions`.

>>> from exactodds import Shoe
>>> table = depth_table(Shoe.standard(decks=1), cards=(10,))
>>> row = table.rows[0]
>>> row.compositions, row.bets["banker"].mean_ev == table.full_shoe_ev["banker"]
(74396, True)
>>> depth_table(Shoe.standard(decks=1), cards=(5,))
Traceback (most recent call last):
...
exactodds.advantage.depth.DepthError: Depth 5 for `cards` is not valid; use a whole number from 6 to 52.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.advantage.compositions import Problem, Sums, distinct_rows, solve
from exactodds.advantage.pairs import PairRoute, pair_law, pair_route, pair_sums
from exactodds.analysis.routing import route_bet
from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet, bets_given
from exactodds.cards import RANKS, VALUES, parse_rank
from exactodds.engine.polynomial import compile_tableau
from exactodds.engine.walk import NO_PAIR, falling_factorial, require_countable, summary_of
from exactodds.errors import ExactOddsError, parameter, quoted
from exactodds.inputs import whole_number
from exactodds.numbers import NumberLike, fraction_string, parse_number
from exactodds.rules import Rules
from exactodds.shoe import Shoe

__all__ = [
    "DEFAULT_DEPTHS",
    "BetDepth",
    "DepthCheckError",
    "DepthError",
    "DepthRow",
    "DepthTable",
    "PartialShoe",
    "depth_level_bets",
    "depth_table",
    "parse_depths",
    "parse_known_counts",
    "partial_odds",
    "partial_problem",
    "partial_shoe",
    "value_level_bets",
]

#: The depths a table gives when none are asked for: 18 and 26 cards left (the deeper ones
#: Jacobson tabulates, 34 to 50, take hours here: the compositions grow as C(K + 9, 9)).
DEFAULT_DEPTHS = (18, 26)

#: The largest number of cards left a depth table or partial shoe takes.
MAX_DEPTH_CARDS = 60

Progress = Callable[[int, int], None]

#: A rank of each value 0-9: a shoe of these ranks has the value counts asked for.
_VALUE_SYMBOLS = "TA23456789"


class DepthError(ExactOddsError):
    """A depth, a partial shoe or a bet that a depth table cannot take."""


class DepthCheckError(ExactOddsError):
    """The built-in identity failed: a bug, never the user's input (exit 1)."""


@dataclass(frozen=True)
class BetDepth:
    """One bet's figures over the compositions: probability, conditional edge, value, mean EV.

    >>> figure = BetDepth(Fraction(1, 4), Fraction(1, 10), Fraction(1, 40), Fraction(-1, 100))
    >>> figure.to_dict()["value"]
    '1/40'
    """

    positive_probability: Fraction
    mean_edge_when_positive: Fraction | None
    value: Fraction
    mean_ev: Fraction

    def to_dict(self) -> dict[str, str | None]:
        """Each figure as an exact "n/d" string (``None``: the bet is never above the edge)."""
        edge = self.mean_edge_when_positive
        return {
            "positive_probability": fraction_string(self.positive_probability),
            "mean_edge_when_positive": None if edge is None else fraction_string(edge),
            "value": fraction_string(self.value),
            "mean_ev": fraction_string(self.mean_ev),
        }


@dataclass(frozen=True)
class DepthRow:
    """The figures at one depth (or one partial shoe): every bet's, and the compositions counted."""

    cards: int
    compositions: int
    bets: Mapping[str, BetDepth]

    def to_dict(self) -> dict[str, Any]:
        """``cards``, ``compositions`` and ``bets`` as the JSON contract has them."""
        return {
            "cards": self.cards,
            "compositions": self.compositions,
            "bets": {name: figure.to_dict() for name, figure in self.bets.items()},
        }


@dataclass(frozen=True)
class DepthTable:
    """A depth table: the shoe, rules, edge threshold, the full shoe's EVs and one row per depth."""

    shoe: Shoe
    rules: Rules
    min_edge: Fraction
    full_shoe_ev: Mapping[str, Fraction]
    rows: tuple[DepthRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract: ``depths`` is the list of rows."""
        return {
            "shoe": self.shoe.describe(),
            "rules": self.rules.describe(),
            "min_edge": fraction_string(self.min_edge),
            "full_shoe_ev": {name: fraction_string(ev) for name, ev in self.full_shoe_ev.items()},
            "depths": [row.to_dict() for row in self.rows],
        }


@dataclass(frozen=True)
class PartialShoe:
    """What is known of the cards left, by value: ``fixed`` cards surely there, and ``draw``
    more drawn uniformly from ``pool`` (ten value counts each, value 0 first).

    >>> partial = partial_shoe(Shoe.standard(decks=1), 20, {"9": 4})
    >>> partial.fixed[9], partial.draw, partial.pool[9], partial.cards
    (4, 16, 0, 20)
    """

    fixed: tuple[int, ...]
    pool: tuple[int, ...]
    draw: int

    @property
    def cards(self) -> int:
        """How many cards are left in all."""
        return sum(self.fixed) + self.draw

    @property
    def subsets(self) -> int:
        """How many equally likely sets of physical cards the unseen part can be."""
        return math.comb(sum(self.pool), self.draw)


def partial_shoe(shoe: Shoe, cards: int, known: Mapping[str, int] | None = None) -> PartialShoe:
    """*cards* left from *shoe*, with the counts of the ranks in *known* among them known.

    The known ranks are taken as exactly that many cards; the rest are a uniformly random subset
    of the shoe's cards of the other ranks (Thorp and Walden's "t of the n cards left are nines,
    the others random").  With *known* empty it is a depth: *cards* random cards of the shoe.

    >>> partial_shoe(Shoe.standard(decks=1), 10, {"9": 5})
    Traceback (most recent call last):
    ...
    exactodds.advantage.depth.DepthError: 5 cards of rank 9 are known to be left, but the shoe holds 4; use at most 4.
    """
    require_countable(shoe)
    known = _known_given(known)
    most = min(shoe.cards, MAX_DEPTH_CARDS)
    whole_number(cards, "cards", DepthError, minimum=6, maximum=most, what="Depth")
    fixed = [0] * 10
    pool = list(shoe.value_counts)
    seen: dict[str, str] = {}
    for text, count in known.items():
        rank = parse_rank(str(text))
        if rank.symbol in seen:
            raise DepthError(
                f"known names rank {rank.symbol} twice ({quoted(seen[rank.symbol])} and "
                f"{quoted(str(text))}); give each rank once."
            )
        seen[rank.symbol] = str(text)
        have = shoe.rank_count(rank)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= have:
            raise DepthError(
                f"{count} cards of rank {rank.symbol} are known to be left, but the shoe holds "
                f"{have}; use at most {have}."
            )
        value = VALUES[RANKS.index(rank)]
        fixed[value] += count
        pool[value] -= have
    draw = cards - sum(fixed)
    if not 0 <= draw <= sum(pool):
        raise DepthError(
            f"{sum(fixed)} known cards and {cards} cards left leave {draw} to draw from "
            f"{sum(pool)} unknown ones; use a number of cards left between {sum(fixed)} "
            f"and {sum(fixed) + sum(pool)}."
        )
    return PartialShoe(tuple(fixed), tuple(pool), draw)


def _known_given(known: object) -> dict[Any, Any]:
    """*known* checked as a mapping of ranks to counts (``None``: nothing known)."""
    if known is None:
        return {}
    if not isinstance(known, Mapping):
        raise DepthError(
            f"known is {_short(known)}, not a mapping of ranks to counts; use e.g. {{'9': 4}}."
        )
    return dict(known)


def _depths_given(cards: object) -> tuple[int, ...]:
    """*cards* checked as a sequence of depths (numbers of cards left)."""
    if isinstance(cards, (str, bytes, Mapping)) or not isinstance(cards, Iterable):
        raise DepthError(
            f"cards is {_short(cards)}, not a sequence of depths; use e.g. cards=(18, 26) "
            "(or (7,) for one depth)."
        )
    depths = tuple(cards)
    if not depths:
        raise DepthError("cards names no depths; use e.g. cards=(18, 26).")
    if len(depths) > 64:
        raise DepthError(f"cards names {len(depths)} depths; use at most 64 in one table.")
    return depths


def _short(value: object) -> str:
    return quoted(repr(value), 40)[1:-1]


def parse_depths(text: str, what: str = "`cards`") -> tuple[int, ...]:
    """Numbers of cards left from text such as ``"18,26"``.

    >>> parse_depths("18, 26")
    (18, 26)
    >>> parse_depths("18,x")
    Traceback (most recent call last):
    ...
    exactodds.advantage.depth.DepthError: `cards` 'x' is not a number of cards; use whole numbers such as 18,26.
    """
    items = [item.strip() for item in str(text).split(",") if item.strip()]
    if not items:
        raise DepthError(f"{what} {quoted(str(text))} names no depths; use 1 to 64, such as 18,26.")
    if len(items) > 64:
        raise DepthError(
            f"{what} names {len(items)} depths; use at most 64 in one table, such as 18,26."
        )
    depths = []
    for item in items:
        if not (item.isascii() and item.isdigit()) or len(item) > 6:
            raise DepthError(
                f"{what} {quoted(item)} is not a number of cards; use whole numbers such as 18,26."
            )
        depths.append(int(item))
    return tuple(depths)


def parse_known_counts(items: Iterable[str], what: str = "`left_known`") -> dict[str, int]:
    """Rank counts from ``RANK=N`` items.

    >>> parse_known_counts(["9=4", "T=2"])
    {'9': 4, 'T': 2}
    >>> parse_known_counts(["9"])
    Traceback (most recent call last):
    ...
    exactodds.advantage.depth.DepthError: `left_known` '9' is not RANK=N; use e.g. 9=4.
    """
    known: dict[str, int] = {}
    for item in items:
        rank, _, count = str(item).partition("=")
        if not (count.strip().isascii() and count.strip().isdigit()) or len(count.strip()) > 6:
            raise DepthError(f"{what} {quoted(str(item))} is not RANK=N; use e.g. 9=4.")
        symbol = parse_rank(rank.strip()).symbol
        if symbol in known:
            raise DepthError(f"{what} names rank {symbol} twice; give each rank once.")
        known[symbol] = int(count)
    return known


def value_level_bets(
    bets: Iterable[Bet], rules: Rules | None = None
) -> tuple[tuple[Bet, ...], tuple[str, ...]]:
    """The bets a depth table can average over value compositions under *rules* (standard by
    default), and the names of those it cannot (pairs, suits).

    >>> from exactodds.bets.catalogue import select_bets
    >>> kept, skipped = value_level_bets(select_bets("banker,player_pair"))
    >>> [bet.name for bet in kept], skipped
    (['banker'], ('player_pair',))
    """
    kept, skipped = [], []
    for bet in bets:
        if _key_outcomes(bet, Rules.given(rules)) is None:
            skipped.append(bet.name)
        else:
            kept.append(bet)
    return tuple(kept), tuple(skipped)


def _key_pays(bets: Sequence[Bet], rules: Rules) -> tuple[list[list[int]], list[int]]:
    """Each bet's integer pay per value-level key, and its denominator; refuse other bets."""
    rows: list[list[int]] = []
    denominators: list[int] = []
    for bet in bets:
        outcomes = _key_outcomes(bet, rules)
        if outcomes is None:
            raise DepthError(
                f"Bet {quoted(bet.name)} depends on pairs or suits; partial_odds averages over "
                "the compositions of the ten values, which do not fix it, so use value-level bets "
                "(banker, player, tie, dragon7, ...) or depth_table, which takes pair bets."
            )
        pays, denominator = bet.integer_pays()
        rows.append([pays[outcome] for outcome in outcomes])
        denominators.append(denominator)
    return rows, denominators


def _key_outcomes(bet: Bet, rules: Rules) -> tuple[str, ...] | None:
    """*bet*'s outcome per value-level key of *rules*' tableau, or None if pairs or suits
    decide it.

    The one routing of bets (:func:`~exactodds.analysis.routing.route_bet`) decides, on the
    tableau's own keys (each tableau has its own set of round keys): a bet priced from the
    count polynomials on a shoe known by rank is fixed by the ten values.
    """
    if bet.needs_suits:
        return None
    keys = compile_tableau(rules.tableau).keys
    route = route_bet(bet, keys, suits=(False,))
    if route.how == "walk" and not route.produced:
        # A probe failed. Every value-level round can be dealt at some depth, so a failure
        # there is the bet's own: the same one sentence as every other entry point gives.
        for key in keys:
            bet.settle_round(summary_of((*key, NO_PAIR, NO_PAIR), False))
    return route.key_outcomes if route.how == "polynomial" else None


def partial_problem(
    partial: PartialShoe, rules: Rules, bets: Sequence[Bet], edge: Fraction
) -> tuple[Problem, list[int]]:
    """The sums to run for *partial* (:mod:`~exactodds.advantage.compositions`), and each
    bet's scale: its EV is a numerator over ``scale`` (``ff(K, 6)`` times its pay denominator).

    >>> problem, scale = partial_problem(partial_shoe(Shoe.standard(decks=1), 8), Rules(),
    ...                                  bets_given(None, Rules()), Fraction(0))
    >>> problem.bets, scale[0] == 20 * 8 * 7 * 6 * 5 * 4 * 3
    (3, True)
    """
    pays, denominators = _key_pays(bets, rules)
    scale = [falling_factorial(partial.cards, 6) * d for d in denominators]
    thresholds = [math.floor(edge * s) for s in scale]
    problem = Problem.build(
        compile_tableau(rules.tableau), pays, thresholds, partial.fixed, partial.pool, partial.draw
    )
    return problem, scale


def partial_odds(
    partial: PartialShoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    min_edge: NumberLike = 0,
    run: Any = None,
) -> DepthRow:
    """The figures of every value-level bet averaged over what *partial* leaves unknown.

    >>> row = partial_odds(partial_shoe(Shoe.standard(decks=1), 8, {"9": 4}))
    >>> row.bets["player"].positive_probability > 0
    True
    """
    if not isinstance(partial, PartialShoe):
        raise DepthError(
            f"partial is {_short(partial)}, not a PartialShoe; build one with "
            "partial_shoe(shoe, cards, known)."
        )
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    edge = parse_number(min_edge, parameter("min_edge"))
    problem, scale = partial_problem(partial, rules, chosen, edge)
    _check_one_composition(partial, rules, chosen, problem, scale)
    cards = partial.cards
    sums = _solve_by_width(partial, rules, chosen, edge, problem, run)
    if sums.weight != partial.subsets:
        raise DepthCheckError(
            f"The compositions' weights add up to {sums.weight}, not {partial.subsets}; "
            "this is a bug in exactodds, please report it."
        )
    return DepthRow(cards, sums.compositions, _figures(chosen, sums, scale, edge))


def _solve_by_width(
    partial: PartialShoe,
    rules: Rules,
    bets: Sequence[Bet],
    edge: Fraction,
    problem: Problem,
    run: Any,
) -> Sums:
    """The sums, each distinct pay row solved once, and the rows that fit int64 on their own
    solved apart from those that do not.

    Bets whose pay rows are positive multiples of one another with the same reduced threshold
    share one row (:func:`~exactodds.advantage.compositions.distinct_rows`: their signs agree
    at every composition, their numerators scale).  The integer width is chosen per group of
    rows rather than for the whole set, so one bet with large pays (an Egalite at 42 cards and
    more) no longer puts every bet on Python integers.  The sums are the same integers either way.
    """
    pays, _ = _key_pays(bets, rules)
    rows, limits, places = distinct_rows(pays, problem.thresholds)
    if rows != pays:  # merged or reduced rows: the problem of the distinct rows
        problem = _rows_problem(partial, rules, rows, limits)
    narrow = problem.int64_bets()
    if problem.exact_int64 or not narrow or len(narrow) == len(rows):
        return solve(problem, run).spread(places)
    wide = [index for index in range(len(rows)) if index not in narrow]
    parts = []
    for group in (narrow, wide):
        part = _rows_problem(partial, rules, [rows[i] for i in group], [limits[i] for i in group])
        parts.append((group, solve(part, run)))
    first, second = parts[0][1], parts[1][1]
    if first.weight != second.weight or first.compositions != second.compositions:
        raise DepthCheckError(
            "The groups of bets solved apart counted different compositions; this is a bug in "
            "exactodds, please report it."
        )
    fields: list[list[int]] = [[0] * len(rows) for _ in range(3)]
    for group, sums in parts:
        for place, index in enumerate(group):
            fields[0][index] = sums.passing[place]
            fields[1][index] = sums.passing_numerator[place]
            fields[2][index] = sums.numerator[place]
    joined = Sums(
        tuple(fields[0]), tuple(fields[1]), tuple(fields[2]), first.weight, first.compositions
    )
    return joined.spread(places)


def _rows_problem(
    partial: PartialShoe, rules: Rules, rows: Sequence[Sequence[int]], limits: Sequence[int]
) -> Problem:
    """The sums to run for integer pay *rows* and their thresholds over *partial*."""
    return Problem.build(
        compile_tableau(rules.tableau), rows, limits, partial.fixed, partial.pool, partial.draw
    )


def _spread(partial: PartialShoe) -> tuple[int, ...]:
    """One composition *partial* allows, its drawn cards spread over the values in turn."""
    counts, drawn, left = list(partial.fixed), [0] * 10, partial.draw
    while left:
        for value in range(10):
            if left and drawn[value] < partial.pool[value]:
                drawn[value] += 1
                counts[value] += 1
                left -= 1
    return tuple(counts)


def _check_one_composition(
    partial: PartialShoe, rules: Rules, bets: Sequence[Bet], problem: Problem, scale: Sequence[int]
) -> None:
    """The problem's polynomials at one composition equal :func:`analyze` of that shoe.

    This holds the bets' routing and pays to the walk under *rules* itself, also where the
    mean EV has no full shoe to equal (cards known to be left).
    """
    counts = _spread(partial)
    shoe = Shoe.from_ranks({_VALUE_SYMBOLS[v]: c for v, c in enumerate(counts) if c})
    priced = analyze(shoe, rules, bets)
    numerators = problem.evaluate(counts)
    for index, bet in enumerate(bets):
        found = Fraction(numerators[index], scale[index])
        if found != priced.bets[bet.name].expected_value:
            raise DepthCheckError(
                f"The EV of {bet.name} on the composition {counts} of the cards left is "
                f"{found} in the depth sums but {priced.bets[bet.name].expected_value} dealt "
                "out; this is a bug in exactodds, please report it."
            )


def _figures(
    bets: Sequence[Bet], sums: Sums, scale: Sequence[int], edge: Fraction
) -> dict[str, BetDepth]:
    figures = {}
    for index, bet in enumerate(bets):
        passing = sums.passing[index]
        numerator = sums.passing_numerator[index]
        figures[bet.name] = BetDepth(
            Fraction(passing, sums.weight),
            Fraction(numerator, passing * scale[index]) if passing else None,
            Fraction(numerator, sums.weight * scale[index]) - edge * Fraction(passing, sums.weight),
            Fraction(sums.numerator[index], sums.weight * scale[index]),
        )
    return figures


def depth_table(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Iterable[Bet] | None = None,
    cards: Sequence[int] = DEFAULT_DEPTHS,
    min_edge: NumberLike = 0,
    jobs: int = 1,
    dask: Any = None,
    progress: Progress | None = None,
    known: Mapping[str, int] | None = None,
) -> DepthTable:
    """Perfect play at each depth in *cards*: every bet's exact figures over the cards left.

    *jobs* > 1 runs the pieces of work in that many processes, *dask* (an address or a
    ``dask.distributed`` client) on a cluster; the figures are the same exact fractions however
    they run.  *progress* is called with (pieces done, pieces in all) after each piece.
    *known* gives rank counts known to be among the cards left (:func:`partial_shoe`); the
    mean EV then differs from the full shoe's, and only the weights are checked.
    """
    rules = Rules.given(rules)
    chosen = bets_given(bets, rules)
    if not chosen:
        raise DepthError("No bets were chosen; a depth table needs at least one bet.")
    whole_number(jobs, "jobs", DepthError, minimum=1)
    if progress is not None and not callable(progress):
        raise DepthError(
            f"progress is {_short(progress)}, not a function; pass None or a function called "
            "with (pieces done, pieces in all)."
        )
    require_countable(shoe)
    partials = [partial_shoe(shoe, depth, known) for depth in _depths_given(cards)]
    values, routes = _split_bets(chosen, rules, shoe, known)
    edge = parse_number(min_edge, parameter("min_edge"))
    full = analyze(shoe if routes else shoe.without_suits(), rules, chosen)
    full_ev = {bet.name: full.bets[bet.name].expected_value for bet in chosen}
    from exactodds.advantage.parallel import runner

    rows = []
    with runner(jobs, dask, progress, len(partials) if values else 0) as run:
        for partial in partials:
            figures: dict[str, BetDepth] = {}
            compositions = 0
            if values:
                row = partial_odds(partial, rules, values, edge, run)
                figures, compositions = dict(row.bets), row.compositions
            if routes:
                paired, counted = _pair_figures(shoe, routes, partial.cards, known, edge)
                figures |= paired
                compositions = compositions or counted
            for name, figure in figures.items():
                if not known and figure.mean_ev != full_ev[name]:
                    raise DepthCheckError(
                        f"The mean EV of {name} over every composition of {partial.cards} cards "
                        f"left is {figure.mean_ev}, not the full shoe's {full_ev[name]}; this is "
                        "a bug in exactodds, please report it."
                    )
            bets_in_order = {bet.name: figures[bet.name] for bet in chosen}
            rows.append(DepthRow(partial.cards, compositions, bets_in_order))
    return DepthTable(shoe, rules, edge, full_ev, tuple(rows))


def depth_level_bets(
    bets: Iterable[Bet], rules: Rules | None = None
) -> tuple[tuple[Bet, ...], tuple[str, ...]]:
    """The bets a depth table takes under *rules* (value-level bets and pair bets), and the
    names of those it cannot (a bet decided by pairs and values together, say).

    >>> from exactodds.bets.catalogue import select_bets
    >>> kept, skipped = depth_level_bets(select_bets("banker,player_pair,perfect_pair"))
    >>> [bet.name for bet in kept], skipped
    (['banker', 'player_pair', 'perfect_pair'], ())
    """
    rules = Rules.given(rules)
    kept, skipped = [], []
    for bet in bets:
        if _key_outcomes(bet, rules) is not None or pair_route(bet, rules) is not None:
            kept.append(bet)
        else:
            skipped.append(bet.name)
    return tuple(kept), tuple(skipped)


def _split_bets(
    bets: Sequence[Bet], rules: Rules, shoe: Shoe, known: object
) -> tuple[tuple[Bet, ...], tuple[PairRoute, ...]]:
    """The value-level bets and the pair bets' routes; refuse any other bet."""
    values, routes = [], []
    for bet in bets:
        if _key_outcomes(bet, rules) is not None:
            values.append(bet)
            continue
        route = pair_route(bet, rules)
        if route is None:
            raise DepthError(
                f"Bet {quoted(bet.name)} depends on pairs or suits together with the values; a "
                "depth table averages value-level bets (banker, player, tie, dragon7, ...) and "
                "bets decided by the pairs alone (player_pair, either_pair, perfect_pair, ...)."
            )
        if route.suited and shoe.suit_counts is None:
            raise DepthError(
                f"Bet {quoted(bet.name)} needs the suits, and the shoe's are unknown; use a shoe "
                "whose suits are known, such as Shoe.standard(decks=8)."
            )
        if route.suited and _known_given(known):
            raise DepthError(
                f"Bet {quoted(bet.name)} is decided by suited pairs, and known gives ranks, not "
                "suits; leave known empty for suited bets."
            )
        routes.append(route)
    return tuple(values), tuple(routes)


def _pair_figures(
    shoe: Shoe,
    routes: Sequence[PairRoute],
    cards: int,
    known: Mapping[str, int] | None,
    edge: Fraction,
) -> tuple[dict[str, BetDepth], int]:
    """The pair bets' figures at *cards* left, and the compositions of the finest kinds used."""
    fixed, pool = [0] * 13, list(shoe.rank_counts)
    for text, count in _known_given(known).items():
        index = parse_rank(str(text)).index
        fixed[index], pool[index] = count, 0
    laws = {}
    for suited in sorted({route.suited for route in routes}):
        joint = any(route.joint for route in routes if route.suited == suited)
        if suited:
            kinds = shoe.suit_counts or ()
            law = pair_law(kinds, (0,) * len(kinds), cards, joint=joint)
        else:
            law = pair_law(pool, fixed, cards - sum(fixed), joint=joint)
        laws[suited] = law
    figures = {}
    for route in routes:
        sums = pair_sums(route, laws[route.suited], cards, edge)
        figures[route.bet.name] = BetDepth(
            Fraction(sums.passing, sums.weight),
            Fraction(sums.passing_numerator, sums.passing * sums.scale) if sums.passing else None,
            Fraction(sums.passing_numerator, sums.weight * sums.scale)
            - edge * Fraction(sums.passing, sums.weight),
            Fraction(sums.numerator, sums.weight * sums.scale),
        )
    finest = laws[max(laws)]
    return figures, sum(count for _, count in finest.values())
