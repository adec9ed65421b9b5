"""A par sheet as a document: Markdown, or one self-contained HTML page.

:func:`document` turns a :class:`~exactodds.studies.parsheet.ParSheet` into a
list of blocks (:mod:`exactodds.report.document`: headings, paragraphs, tables,
figures), written once; the document layer's Markdown, HTML, PDF and xlsx
writers only serialise those blocks, so every format carries the same numbers.
Every table has an id (``<bet>-outcomes``, ``<bet>-figures``,
``<bet>-volatility``, ``<bet>-hold``, ``<bet>-removal``, ``<bet>-breakeven``;
``multipliers`` and ``<bet>-multiples`` under an overlay) so a reader, or a test, can find it.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=8), Rules(), select_bets("tie"), breakeven=False)
>>> text = render_markdown(sheet, digits=6)
>>> print(next(line for line in text.splitlines() if line.startswith("| win")))
| win | 8 | 475,627,426,473,216 | 0.095156 | 619306544887/6508331087895 | 0.761248 | 4954452359096/6508331087895 | 10.51 | 9.51 to 1 |
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from ...analysis.removal import LinearCount
from ...analysis.tails import Bounded
from ...bets.custom import custom_conditions
from ...numbers import (
    decimal_string,
    exact_percent_string,
    fraction_string,
    percent_string,
    square_root_decimal_string,
)
from ...rules import Tableau
from ...studies.parsheet import BetSheet, ParSheet
from ..document.blocks import Block, Figure, Heading, Paragraph, Table, package_version
from ..document.html import blocks_html
from ..document.markdown import blocks_markdown
from ..multipliers import overlay_lines

__all__ = [
    "condition_words",
    "conditions_as_given",
    "document",
    "game_texts",
    "render_html",
    "render_markdown",
    "tableau_blocks",
]


CONVENTION = (
    "Counting convention: every round is counted as an ordered sequence of six cards dealt "
    "without replacement from the shoe, so a round that uses four or five cards counts once "
    "for every way the unused positions could be filled, and every sequence is equally "
    "likely. The combinations of a shoe of n cards add up to n(n-1)(n-2)(n-3)(n-4)(n-5); "
    "a probability is a count divided by that total."
)

METHOD = (
    "How the figures were computed: by exact enumeration of every round the shoe can deal "
    "(exactodds {version}), in integers; each probability, pay, expected value, variance, "
    "effect of removal and break-even pay is an exact fraction, and each decimal shown is "
    "rounded half to even from it. The standard deviation, the volatility index and the "
    "ends of the hold's bands contain a square root; they are correctly rounded to the "
    "digits shown. Net results are per unit staked: a win at 8 to 1 is +8, a push 0, a "
    "loss -1."
)

DEFINITIONS = (
    "Definitions: house edge = -EV per unit staked; edge per resolved bet = house edge / "
    "(1 - push probability); hit frequency = probability that the bet wins; variance and "
    "standard deviation (sd) are those of one round's net result; 1 in X = 1 / probability. "
    "Volatility index VI = z * sd, with z the two-sided standard normal quantile of the "
    "confidence level rounded to three decimals as par sheets print it ({zs}). The win as % "
    "of handle after N rounds of one unit each is the house's win divided by the money "
    "staked (the handle); its mean is the house edge and its standard deviation sd / "
    "sqrt(N). Hold is win / drop: with a drop ratio r = handle / drop, expected hold = house "
    "edge * r."
)

NORMAL_TEXT = (
    "An approximation: by the central limit theorem the win as % of handle lies within "
    "house edge +- VI / sqrt(N) with the confidence stated; ends past what the win can reach "
    "(never past -100% or +100%) are clipped. Beside each band, the exact probability that "
    "the win lands inside it, from the exact distribution below."
)

TAILS_TEXT = (
    "Exact: the distribution of the player's total after N independent rounds is the N-fold "
    "convolution of the one-round distribution, computed in integers (method exact: every "
    "figure is exact, shown rounded) or, for large N, as a float convolution through the "
    "characteristic function (method FFT: every probability within the bound shown, proven "
    "in exactodds.analysis.tails). A percentile of the win as % of handle is the smallest "
    "win w with P(win <= w) at least the level; an FFT percentile the bound leaves unsure "
    "shows both candidates."
)

CHECKING = (
    "How the figures are checked: the engine is tested against a physical-card reference "
    "that deals every permutation on small shoes, against invariants, and against published "
    "figures (Wizard of Odds counts for 1-8 decks; Banker 1.0579%, Player 1.2351%, Tie "
    "14.3596% on 8 decks). This report checked these identities on its own numbers:"
)

DRAGON_TIGER_CONVENTION = (
    "Counting convention: every round is counted as an ordered sequence of two cards dealt "
    "without replacement from the shoe, the Dragon's card then the Tiger's, and every "
    "sequence is equally likely. The combinations of a shoe of n cards add up to n(n-1); a "
    "probability is a count divided by that total. Published tables count unordered pairs, "
    "n(n-1)/2, so each of their counts is half of the one here."
)

DRAGON_TIGER_CHECKING = (
    "How the figures are checked: the game's counts are tested against a brute force that "
    "deals every ordered pair of physical cards on small shoes, against invariants, and "
    "against published figures (Wizard of Odds, 8 decks: Dragon -3.7349%, Tie at 8:1 "
    "32.77%, Suited Tie at 50:1 13.98%; a studio's RTPs 96.27% and, at 11:1, 89.64%). This "
    "report checked these identities on its own numbers:"
)


def game_texts(sheet: ParSheet) -> tuple[str, str]:
    """The counting convention and the checking paragraph of the sheet's game.

    >>> from exactodds import Shoe
    >>> from exactodds.studies.parsheet import dragon_tiger_par_sheet
    >>> convention, _ = game_texts(dragon_tiger_par_sheet(Shoe.standard(decks=1), "big"))
    >>> convention.split(":")[1].split(",")[0]
    ' every round is counted as an ordered sequence of two cards dealt without replacement from the shoe'
    """
    if sheet.played.key == "dragon-tiger":
        return DRAGON_TIGER_CONVENTION, DRAGON_TIGER_CHECKING
    return CONVENTION, CHECKING


REMOVAL_TEXT = (
    "Effect of removal: the exact change in EV when one card of a rank leaves the shoe "
    "(EV after removal - EV before). The count's tags are the effects scaled so the largest "
    "is {max_tag}, rounded and balanced so a full pass of the shoe counts 0; its betting "
    "correlation is the correlation of tags and effects, weighted by the cards of each rank."
)


def _percent_or_dash(value: Fraction | None, digits: int) -> str:
    return "-" if value is None else percent_string(value, digits)


def _one_in(value: Fraction | None) -> str:
    return "never" if value is None else f"{decimal_string(value, 2)}"


def _odds_against(value: Fraction | None) -> str:
    """True odds against, "X to 1" (the model's ``odds_against``)."""
    return "never" if value is None else f"{decimal_string(value, 2)} to 1"


def _bounded(value: Bounded, digits: int) -> str:
    if value.exact:
        return decimal_string(value.value, digits)
    return decimal_string(value.value, digits) + f" ±{value.error_bound:.1e}"


def _percent_range(ends: tuple[Fraction, Fraction], digits: int) -> str:
    low, high = ends
    if low == high:
        return percent_string(low, digits)
    return f"{percent_string(low, digits)} to {percent_string(high, digits)}"


def _level(level: Fraction) -> str:
    return f"{decimal_string(level * 100, 1).removesuffix('.0')}%"


def _win_blocks(sheet: BetSheet, parsheet: ParSheet, digits: int) -> Iterator[Block]:
    """Win as % of handle: the normal band, the exact tails, hold with the drop ratio, per hour."""
    name = sheet.name
    result = sheet.result
    percent_digits = max(digits - 2, 0)
    yield Heading(3, "Win as % of handle: normal approximation")
    yield Paragraph(NORMAL_TEXT)
    rows = []
    exact_tails = {tails.rounds: tails for tails in sheet.tails}
    for rounds in parsheet.rounds:
        cells = [f"{rounds:,}", percent_string(result.house_edge, percent_digits)]
        tails = exact_tails.get(rounds)
        for index, band in enumerate(sheet.holds_at(rounds)):
            marks = " (clipped)" if band.clipped_low or band.clipped_high else ""
            cells.append(
                f"{band.low_percent(percent_digits)} to {band.high_percent(percent_digits)}{marks}"
            )
            cells.append("-" if tails is None else _bounded(tails.coverage[index], 6))
        if sheet.expected_hold is not None:
            cells.append(percent_string(sheet.expected_hold, percent_digits))
        rows.append(tuple(cells))
    headers = ["Rounds", "Expected win % of handle"]
    for level in parsheet.confidences:
        headers += [f"{level}% normal band", f"P(inside {level}% band)"]
    if parsheet.drop_ratio is not None:
        headers.append("Expected hold (win / drop)")
    yield Table(f"{name}-hold", tuple(headers), tuple(rows), (True,) * len(headers))

    yield Heading(3, "Win as % of handle: exact distribution")
    if not sheet.tails:
        yield Paragraph(f"Not computed: {sheet.tails_reason}")
    else:
        yield Paragraph(TAILS_TEXT)
        yield Table(
            f"{name}-tails",
            ("Rounds", "Method", "P(player ahead)", "P(even)", "P(player behind)"),
            tuple(
                (
                    f"{tails.rounds:,}",
                    "exact" if tails.method == "exact" else f"FFT, ±{tails.error_bound:.1e}",
                    _bounded(tails.player_ahead, 6),
                    _bounded(tails.even, 6),
                    _bounded(tails.player_behind, 6),
                )
                for tails in sheet.tails
            ),
            (True, False, True, True, True),
        )
        yield Table(
            f"{name}-percentiles",
            ("Rounds", *(f"{_level(level)} percentile" for level in parsheet.levels)),
            tuple(
                (
                    f"{tails.rounds:,}",
                    *(_percent_range(ends, percent_digits) for _, ends in tails.percentiles),
                )
                for tails in sheet.tails
            ),
            (True,) * (1 + len(parsheet.levels)),
        )
    yield from _hourly_blocks(sheet, digits)


def _hourly_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """Theo and SD an hour, when the sheet was given rounds per hour and an average bet."""
    name = sheet.name
    if sheet.hourly is not None:
        hourly = sheet.hourly
        yield Heading(3, "Per hour")
        yield Table(
            f"{name}-hourly",
            ("Rounds per hour", "Average bet", "Handle per hour", "Theo per hour", "SD per hour"),
            (
                (
                    _plain(hourly.rounds_per_hour, digits),
                    _plain(hourly.average_bet, digits),
                    _plain(hourly.handle, digits),
                    decimal_string(hourly.theoretical_win, 2),
                    square_root_decimal_string(hourly.variance, 2),
                ),
            ),
            (True,) * 5,
        )
        yield Paragraph(
            "Theo per hour = rounds per hour * average bet * house edge, the house's expected "
            "win an hour; SD per hour = average bet * sd * sqrt(rounds per hour)."
        )


def _plain(value: Fraction, digits: int) -> str:
    return fraction_string(value) if value.denominator == 1 else decimal_string(value, digits)


def _bet_blocks(sheet: BetSheet, parsheet: ParSheet, digits: int) -> Iterator[Block]:
    """One bet's section of the document, in reading order."""
    name = sheet.name
    yield Heading(2, f"Bet: {name}", anchor=name)
    pays = ", ".join(f"{row.outcome} {fraction_string(row.pay)}" for row in sheet.rows)
    yield Paragraph(f"{sheet.result.bet.description} Pays (net, to 1): {pays}.")
    yield from _outcome_blocks(sheet, digits)
    yield from _figure_blocks(sheet, digits)
    yield from _rebate_blocks(sheet, digits)
    yield from _volatility_blocks(sheet, digits)
    yield from _win_blocks(sheet, parsheet, digits)
    yield Figure(
        name, "hold", f"{name}: win as % of handle, normal bands against the rounds played"
    )
    yield Figure(name, "distribution", f"{name}: probability of each net result")
    yield from _removal_blocks(sheet, parsheet, digits)
    yield from _breakeven_blocks(sheet, digits)


def _outcome_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """The outcome table: pay, combinations, probability and return of each outcome, and the
    total."""
    rows = [
        (
            row.outcome,
            fraction_string(row.pay),
            f"{row.count:,}",
            decimal_string(row.probability, digits),
            fraction_string(row.probability),
            decimal_string(row.contribution, digits),
            fraction_string(row.contribution),
            _one_in(row.one_in),
            _odds_against(row.odds_against),
        )
        for row in sheet.rows
    ]
    rows.append(
        (
            "total",
            "",
            f"{sheet.combinations:,}",
            decimal_string(sheet.total_probability, digits),
            fraction_string(sheet.total_probability),
            decimal_string(sheet.expected_value, digits),
            fraction_string(sheet.expected_value),
            "",
            "",
        )
    )
    yield Heading(3, "Outcomes")
    yield Table(
        f"{sheet.name}-outcomes",
        (
            "Outcome",
            "Pays",
            "Combinations",
            "Probability",
            "Probability (exact)",
            "Return",
            "Return (exact)",
            "1 in",
            "Odds against",
        ),
        tuple(rows),
        (False, True, True, True, True, True, True, True, True),
    )


def _figure_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """The bet's figures (EV, house edge, hit, push and loss, variance, SD), decimal and exact."""
    result = sheet.result
    percent_digits = max(digits - 2, 0)
    per_resolved = result.house_edge_per_resolved_bet

    def exact_row(label: str, value: Fraction) -> tuple[str, str, str]:
        return (label, decimal_string(value, digits), fraction_string(value))

    figures: list[tuple[str, str, str]] = [
        exact_row("Expected value (EV)", result.expected_value),
        (
            "House edge",
            percent_string(result.house_edge, percent_digits),
            fraction_string(result.house_edge),
        ),
        (
            "Return to player (RTP)",
            percent_string(sheet.return_to_player, percent_digits),
            fraction_string(sheet.return_to_player),
        ),
        (
            "Edge per resolved bet",
            _percent_or_dash(per_resolved, percent_digits),
            "-" if per_resolved is None else fraction_string(per_resolved),
        ),
        exact_row("Hit frequency", result.win_probability),
        exact_row("Push probability", result.push_probability),
        exact_row("Loss probability", result.loss_probability),
        exact_row("Variance", result.variance),
        ("Standard deviation", result.standard_deviation(digits), "sqrt(variance)"),
    ]
    yield Heading(3, "Figures")
    yield Table(
        f"{sheet.name}-figures", ("Figure", "Value", "Exact"), tuple(figures), (False, True, True)
    )


def _rebate_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """With a rebate: what it pays per unit staked and the effective EV, edge and RTP."""
    figures = sheet.rebate
    if figures is None:
        return
    percent_digits = max(digits - 2, 0)
    rebate = figures.rebate
    sentences = ["Per unit staked, the fee left out as the EV leaves it."]
    if rebate.rolling:
        counted = (
            "every stake counts, pushes too"
            if rebate.rolling_counts_pushes
            else "a push is not turnover, so only stakes that win or lose count"
        )
        sentences.append(
            f"Rolling rebate: {exact_percent_string(rebate.rolling)} of the turnover ({counted})."
        )
    if rebate.loss and rebate.trip_rounds != 1:
        sentences.append(
            f"Loss rebate: {exact_percent_string(rebate.loss)} of the net loss over a trip of "
            f"{rebate.trip_rounds:,} independent rounds, one unit each (share x E[max(0, -S)] / "
            f"{rebate.trip_rounds:,}, S the trip's sum, exact)."
        )
    elif rebate.loss:
        sentences.append(
            f"Loss rebate: {exact_percent_string(rebate.loss)} of the net loss, here over a trip "
            "of one round (share x E[max(0, -X)]), its most per unit staked: over a longer trip "
            "wins offset losses before it is paid."
        )
    yield Heading(3, "Rebate")
    yield Paragraph(" ".join(sentences))

    def row(label: str, value: Fraction, percent: bool = False) -> tuple[str, str, str]:
        shown = percent_string(value, percent_digits) if percent else decimal_string(value, digits)
        return (label, shown, fraction_string(value))

    yield Table(
        f"{sheet.name}-rebate",
        ("Figure", "Value", "Exact"),
        (
            row("Turnover counted per unit staked", figures.turnover),
            row("Rolling rebate per unit staked", figures.rolling_value),
            row(_loss_label(figures.trip_rounds), figures.expected_loss),
            row("Loss rebate per unit staked", figures.loss_value),
            row("Effective EV", figures.effective_expected_value),
            row("Effective house edge", figures.effective_house_edge, percent=True),
            row("Effective RTP", figures.effective_return_to_player(sheet.fee), percent=True),
        ),
        (False, True, True),
    )


def _loss_label(trip_rounds: int) -> str:
    """The expected loss's row: of one round, or of a trip per unit staked.

    >>> _loss_label(1), _loss_label(200)
    ('Expected loss E[max(0, -X)]', 'Expected trip loss per unit staked E[max(0, -S)] / 200')
    """
    if trip_rounds == 1:
        return "Expected loss E[max(0, -X)]"
    return f"Expected trip loss per unit staked E[max(0, -S)] / {trip_rounds:,}"


def _volatility_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """The volatility index at each confidence: z, VI = z * sd, and VI squared exactly."""
    yield Heading(3, "Volatility index")
    yield Table(
        f"{sheet.name}-volatility",
        ("Confidence", "z", "VI = z * sd", "VI squared (exact)"),
        tuple(
            (
                f"{index.confidence}%",
                decimal_string(index.z, 3),
                index.decimal(digits),
                fraction_string(index.squared),
            )
            for index in sheet.volatility
        ),
        (False, True, True, True),
    )


def _removal_blocks(sheet: BetSheet, parsheet: ParSheet, digits: int) -> Iterator[Block]:
    """Effect of removal: one row per rank, the skipped ranks, the derived count, its figure."""
    name = sheet.name
    yield Heading(3, "Effect of removal")
    after = sheet.expected_values_after
    if sheet.effects is None or parsheet.removal is None or after is None:
        yield Paragraph(f"Not computed: {parsheet.removal_reason}")
        return
    removal = parsheet.removal
    count = sheet.count
    yield Paragraph(REMOVAL_TEXT.format(max_tag=parsheet.max_tag))
    removal_rows = []
    for rank, effect in sheet.effects.items():
        cards = parsheet.shoe.rank_count(rank)
        ev_after = after[rank]
        if effect is None or ev_after is None:
            removal_rows.append((rank, f"{cards}", "-", "-", "-", "-"))
            continue
        removal_rows.append(
            (
                rank,
                f"{cards}",
                fraction_string(effect),
                percent_string(effect, digits),
                decimal_string(ev_after, digits),
                "-" if count is None else f"{count.tags.get(rank, 0):+d}".replace("+0", "0"),
            )
        )
    yield Table(
        f"{name}-removal",
        ("Rank", "Cards", "Effect (exact)", "Effect", "EV after", "Tag"),
        tuple(removal_rows),
        (False, True, True, True, True, True),
    )
    for rank, reason in removal.skipped.items():
        yield Paragraph(f"Rank {rank} skipped: {reason}")
    if count is not None:
        yield Paragraph(_count_sentence(count, sheet.weighted_sum))
    yield Figure(name, "removal", f"{name}: effect of removal by rank, with the count's tags")


def _count_sentence(count: LinearCount, weighted_sum: Fraction | None) -> str:
    """The derived count in one sentence: level, balance, betting correlation, and the effects
    weighted by the cards of each rank."""
    if count.correlation is None or not count.correlation.defined:
        correlation = "undefined"
    else:
        correlation = count.correlation.decimal(4)
    balance = "balanced" if count.balanced else f"imbalance {count.imbalance}"
    return (
        f"Derived count: level {count.max_tag} ({balance}), betting correlation "
        f"{correlation}; effects weighted by the cards of each rank add up to "
        f"{fraction_string(weighted_sum or 0)}."
    )


def _breakeven_blocks(sheet: BetSheet, digits: int) -> Iterator[Block]:
    """Break-even pays (EV exactly zero, the other pays fixed), when the sheet has them."""
    if not sheet.breakevens:
        return
    yield Heading(3, "Break-even pays")
    yield Table(
        f"{sheet.name}-breakeven",
        ("Pay", "Now", "Break-even (exact)", "Break-even", "Note"),
        tuple(
            (
                pay.name,
                fraction_string(pay.current),
                "-" if pay.value is None else fraction_string(pay.value),
                "-" if pay.value is None else decimal_string(pay.value, digits),
                pay.reason or pay.note or "",
            )
            for pay in sheet.breakevens
        ),
        (False, True, True, True, False),
    )
    yield Paragraph(
        "The value of each pay (to 1; for the commission, the share of a Banker win) at "
        "which the bet's EV is exactly zero, every other pay as above."
    )


def document(sheet: ParSheet, digits: int = 10) -> list[Block]:
    """The par sheet as blocks, in reading order."""
    analysis = sheet.analysis
    identity = sheet.identity
    blocks: list[Block] = [
        Heading(1, identity.title if identity else "Par sheet", anchor="top"),
        Table(
            "identity",
            ("Item", "Value"),
            identity.rows() if identity else (("exactodds version", package_version()),),
            (False, False),
        ),
        Table(
            "setup",
            ("Item", "Value"),
            (
                ("Shoe", analysis.shoe.describe()),
                *((("Game", sheet.played.name),) if sheet.played.key != "baccarat" else ()),
                ("Rules", sheet.played.settlement),
                ("Rounds counted", f"{sheet.played.rounds:,} {sheet.played.round_words}"),
                ("Bets", ", ".join(analysis.bet_names or tuple(analysis.bets))),
            ),
            (False, False),
        ),
        Table(
            "summary",
            (
                "Bet",
                "House edge",
                "RTP",
                "Hit frequency",
                "Standard deviation",
                *(f"VI {level}%" for level in sheet.confidences),
            ),
            tuple(
                (
                    name,
                    percent_string(bet.result.house_edge, max(digits - 2, 0)),
                    percent_string(bet.return_to_player, max(digits - 2, 0)),
                    decimal_string(bet.result.win_probability, digits),
                    bet.result.standard_deviation(digits),
                    *(index.decimal(digits) for index in bet.volatility),
                )
                for name, bet in sheet.bets.items()
            ),
            (False,) + (True,) * (4 + len(sheet.confidences)),
        ),
    ]
    for name, reason in sheet.unavailable.items():
        blocks.append(Paragraph(f"{name}: not computable. {reason}"))
    blocks.extend(_overlay_blocks(sheet, digits))
    blocks.extend(_comparison_blocks(sheet, digits))
    blocks.extend(_rules_blocks(sheet))
    for bet in sheet.bets.values():
        blocks.extend(_bet_blocks(bet, sheet, digits))
    zs = (
        ", ".join(
            f"{decimal_string(index.z, 3)} at {index.confidence}%"
            for index in next(iter(sheet.bets.values())).volatility
        )
        if sheet.bets
        else "none"
    )
    convention, checking = game_texts(sheet)
    blocks += [
        Heading(2, "How this report was made", anchor="method"),
        Paragraph(convention),
        Paragraph(METHOD.format(version=package_version())),
        Paragraph(DEFINITIONS.format(zs=zs)),
        Paragraph(checking),
        Table(
            "checks",
            ("Check", "Result"),
            tuple((text, "holds" if holds else "FAILS") for text, holds in sheet.checks),
            (False, False),
        ),
    ]
    return blocks


OVERLAY_TEXT = (
    "Under the random multipliers: each bet priced exactly over every round the shoe can deal "
    "and every set of faces the RNG can draw with every multiplier each can get. EV per unit "
    "staked, fee excluded; RTP = (1 + EV) / (1 + fee), with a fee of {fee} on every bet. The "
    "other sections price the base game, without the multipliers."
)


def _overlay_blocks(sheet: ParSheet, digits: int) -> Iterator[Block]:
    """The bets under the overlay: EV, RTP, variance, and each bet's law of the paid multiple."""
    priced = sheet.overlay
    if priced is None:
        return
    percent_digits = max(digits - 2, 0)
    yield Heading(2, "Random multipliers", anchor="multipliers")
    for line in overlay_lines(priced.overlay):
        yield Paragraph(line.strip())
    yield Paragraph(OVERLAY_TEXT.format(fee=percent_string(priced.fee, 2)))
    rows = []
    for name in priced.bet_names:
        bet = priced.bets.get(name)
        if bet is None:
            continue
        mean = bet.mean_multiple
        rows.append(
            (
                name,
                "yes" if bet.multiplied else "no",
                decimal_string(bet.win_probability, digits),
                "-" if mean is None else decimal_string(mean, digits),
                decimal_string(bet.expected_value, digits),
                percent_string(priced.return_to_player(name), percent_digits),
                fraction_string(priced.return_to_player(name)),
                fraction_string(bet.variance),
                square_root_decimal_string(bet.variance, digits),
            )
        )
    yield Table(
        "multipliers",
        (
            "Bet",
            "Multiplied",
            "Hit frequency",
            "Mean multiple on a win",
            "EV",
            "RTP",
            "RTP (exact)",
            "Variance (exact)",
            "Standard deviation",
        ),
        tuple(rows),
        (False, False) + (True,) * 7,
    )
    for name in priced.bet_names:
        bet = priced.bets.get(name)
        if bet is None or not bet.multiplied:
            continue
        yield Heading(3, f"Paid multiple: {name}", anchor=f"{name}-multiples")
        yield Paragraph(
            f"The probability of a round in which {name} wins and is paid each multiple of its "
            "base pay (1: no drawn face among its cards)."
        )
        yield Table(
            f"{name}-multiples",
            ("Multiple", "Probability", "Probability (exact)"),
            tuple(
                (fraction_string(multiple), decimal_string(chance, digits), fraction_string(chance))
                for multiple, chance in bet.multiples.items()
            ),
            (True, True, True),
        )


def _comparison_blocks(sheet: ParSheet, digits: int) -> Iterator[Block]:
    if not sheet.comparisons:
        return
    yield Heading(2, "Alternatives side by side", anchor="compare")
    yield Paragraph(
        "Each row is the bet priced exactly as its own par sheet would price it under that "
        "alternative (every other setting as above)."
    )
    yield Table(
        "comparison",
        (
            "Alternative",
            "Bet",
            "House edge",
            "RTP",
            "Hit frequency",
            "Standard deviation",
            *(f"VI {level}%" for level in sheet.confidences),
        ),
        tuple(
            (
                row.alternative,
                row.bet,
                percent_string(row.result.house_edge, max(digits - 2, 0)),
                percent_string(row.return_to_player, max(digits - 2, 0)),
                decimal_string(row.result.win_probability, digits),
                row.result.standard_deviation(digits),
                *(index.decimal(digits) for index in row.volatility),
            )
            for row in sheet.comparisons
        ),
        (False, False) + (True,) * (4 + len(sheet.confidences)),
    )
    for row in sheet.comparisons:
        if row.result.house_edge < 0:
            yield Paragraph(
                f"Warning: under {row.alternative}, {row.bet} has a negative house edge "
                f"({percent_string(row.result.house_edge, max(digits - 2, 0))}): the player "
                "has the edge."
            )


def _totals(totals: list[int]) -> str:
    """0, 1, 2, 5 -> '0-2, 5'."""
    runs: list[list[int]] = []
    for total in totals:
        if runs and total == runs[-1][-1] + 1:
            runs[-1].append(total)
        else:
            runs.append([total])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def tableau_blocks(tableau: Tableau) -> Iterator[Block]:
    """The drawing tableau: the naturals and the Player's rule in words, the Banker's as a table."""
    naturals = sorted(tableau.natural_totals)
    player = [total for total in range(10) if tableau.player_draws[total]]
    yield Paragraph(
        f"Tableau {tableau.name!r}: a two-card total of {_totals(naturals) or 'none'} is a natural "
        "and ends the round. Otherwise the Player draws a third card on "
        f"{_totals(player) or 'no total'} and stands on the rest; the Banker then draws (D) or "
        "stands (S) as the table says, by the Banker's two-card total and what the Player did."
    )
    rows = []
    for total in range(10):
        if total in tableau.natural_totals:
            continue
        cells = ["D" if tableau.banker_draws_when_player_stood[total] else "S"]
        cells += ["D" if draws else "S" for draws in tableau.banker_draws[total]]
        rows.append((str(total), *cells))
    yield Table(
        "tableau",
        ("Banker total", "Player stood", *(f"Player drew {value}" for value in range(10))),
        tuple(rows),
        (True,) + (False,) * 11,
    )


_SUBJECTS = {
    "player_total": "the Player's total",
    "banker_total": "the Banker's total",
    "winning_total": "the winning total",
    "losing_total": "the losing total",
    "margin": "the margin between the totals",
    "player_cards": "the Player's number of cards",
    "banker_cards": "the Banker's number of cards",
    "cards_dealt": "the number of cards dealt",
}
_FLAGS = {
    "player_natural": ("the Player has a natural", "the Player has no natural"),
    "banker_natural": ("the Banker has a natural", "the Banker has no natural"),
    "natural": ("either hand has a natural", "neither hand has a natural"),
    "player_pair": ("the Player's first two cards are a pair", "the Player's are not a pair"),
    "banker_pair": ("the Banker's first two cards are a pair", "the Banker's are not a pair"),
    "either_pair": ("either hand's first two cards are a pair", "neither hand's are a pair"),
    "player_suited_pair": (
        "the Player's first two cards are a suited pair",
        "no Player suited pair",
    ),
    "banker_suited_pair": (
        "the Banker's first two cards are a suited pair",
        "no Banker suited pair",
    ),
    "either_suited_pair": ("either hand's first two cards are a suited pair", "no suited pair"),
}


def _sorted(allowed: frozenset[object]) -> list[object]:
    return sorted(allowed, key=lambda value: (type(value).__name__, str(value).rjust(9)))


def _run(values: list[object]) -> tuple[int, int] | None:
    """(first, last) when *values* are three or more consecutive whole numbers."""
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) == len(values) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return numbers[0], numbers[-1]
    return None


def _choices(values: list[object]) -> str:
    run = _run(values)
    if run is not None:
        return f"from {run[0]} to {run[1]}"
    shown = [str(value) for value in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def condition_words(conditions: tuple[tuple[str, frozenset[object]], ...]) -> str:
    """A custom outcome's conditions in words.

    >>> print(condition_words((("winner", frozenset({"banker"})), ("banker_total", frozenset({6})))))
    the Banker wins and the Banker's total is 6
    >>> condition_words(())
    'any round'
    """
    parts = []
    for key, allowed in conditions:
        values = _sorted(allowed)
        if key == "winner":
            names = {"player": "the Player wins", "banker": "the Banker wins", "tie": "a tie"}
            parts.append(" or ".join(names[str(value)] for value in values))
        elif key in _FLAGS:
            parts.append(_FLAGS[key][0 if values == [True] else 1])
        else:
            parts.append(f"{_SUBJECTS.get(key, key)} is {_choices(values)}")
    return " and ".join(parts) if parts else "any round"


def conditions_as_given(conditions: tuple[tuple[str, frozenset[object]], ...]) -> str:
    """A custom outcome's conditions as a TOML ``when`` table.

    >>> conditions_as_given((("winner", frozenset({"banker"})), ("banker_total", frozenset({4, 5, 6}))))
    'when = { winner = "banker", banker_total = { min = 4, max = 6 } }'
    """

    def toml(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return f'"{value}"' if isinstance(value, str) else str(value)

    parts = []
    for key, allowed in conditions:
        values = _sorted(allowed)
        run = _run(values)
        if len(values) == 1:
            shown = toml(values[0])
        elif run is not None:
            shown = f"{{ min = {run[0]}, max = {run[1]} }}"
        else:
            shown = "[" + ", ".join(toml(value) for value in values) + "]"
        parts.append(f"{key} = {shown}")
    return "when = { " + ", ".join(parts) + " }" if parts else "when = {}"


def _rules_blocks(sheet: ParSheet) -> Iterator[Block]:
    """The rules of play: settlement, the tableau, every pay, custom bets' conditions."""
    yield Heading(2, "Rules of play", anchor="rules")
    yield Paragraph(f"Settlement: {sheet.played.settlement}.")
    if sheet.played.key == "baccarat":
        yield from tableau_blocks(sheet.rules.tableau)
    yield Table(
        "pays",
        ("Bet", "Outcome", "Pays (to 1)", "Description"),
        tuple(
            (
                name,
                row.outcome,
                fraction_string(row.pay),
                bet.result.bet.description if index == 0 else "",
            )
            for name, bet in sheet.bets.items()
            for index, row in enumerate(bet.rows)
        ),
        (False, False, True, False),
    )
    for name, bet in sheet.bets.items():
        outcomes = custom_conditions(bet.result.bet)
        if outcomes is None:
            continue
        yield Paragraph(
            f"Custom bet {name}: the outcomes are tried in this order; the first whose "
            "conditions all hold settles the bet, and a round none matches settles as 'lose'."
        )
        yield Table(
            f"{name}-conditions",
            ("Outcome", "Pays (to 1)", "Conditions", "As given"),
            tuple(
                (
                    outcome,
                    fraction_string(pay),
                    condition_words(conditions),
                    conditions_as_given(conditions),
                )
                for outcome, conditions, pay in outcomes
            ),
            (False, True, False, False),
        )


def render_markdown(
    sheet: ParSheet, digits: int = 10, figure_path: Callable[[str, str], str] | None = None
) -> str:
    """The par sheet as GitHub-flavoured Markdown.

    *figure_path* maps ``(bet, kind)`` to an image path to link (for figures
    written with ``--plot DIR``); without it, figures are left out.
    """
    return blocks_markdown(document(sheet, digits), figure_path)


def render_html(
    sheet: ParSheet, digits: int = 10, figure_markup: Callable[[str, str], str] | None = None
) -> str:
    """The par sheet as one self-contained HTML page (styles inline, figures inline).

    *figure_markup* maps ``(bet, kind)`` to the markup of that figure (an
    inline ``<svg>`` or an ``<img>`` with a ``data:`` URI); without it,
    figures are left out and the page needs nothing but the text.
    """
    heading = sheet.identity.title if sheet.identity else "Par sheet"
    title = f"{heading}: {', '.join(sheet.bets) or 'no bets'} - {sheet.shoe.describe()}"
    return blocks_html(document(sheet, digits), title, figure_markup)
