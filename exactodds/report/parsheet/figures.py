"""A par sheet's figures, drawn with matplotlib (the ``plot`` extra), one function per figure.

* :func:`distribution_figure`: the probability of each net result of a bet;
* :func:`hold_figure`: the win as % of handle, its normal bands against the number of rounds;
* the effect of removal, as :func:`~exactodds.report.plots.removal_figure` draws it.

matplotlib is imported inside these functions only.

>>> from exactodds import Rules, Shoe
>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.studies.parsheet import par_sheet
>>> sheet = par_sheet(Shoe.standard(decks=8), Rules(), select_bets("tie"), breakeven=False)
>>> figure = distribution_figure(sheet.bets["tie"])
>>> [text.get_text() for text in figure.axes[0].get_xticklabels()]
['-1', '8']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...numbers import fraction_string
from ...studies.parsheet import BetSheet, HoldBand, ParSheet
from ..plots import NEGATIVE, NEUTRAL, POSITIVE, new_figure, removal_figure

__all__ = [
    "FIGURE_KINDS",
    "distribution_figure",
    "drawn_figures",
    "hold_figure",
    "par_sheet_figures",
]

#: The figures drawn for each bet, in the order a report shows them.
FIGURE_KINDS = ("distribution", "hold", "removal")


def distribution_figure(sheet: BetSheet) -> Any:
    """Bars of the probability of each net result of one round (log scale when they differ much).

    Results are the exact pays (to 1), labelled as fractions; the dashed line
    is the EV.
    """
    figure = new_figure()
    axes = figure.add_subplot()
    distribution = sheet.result.distribution
    labels = [fraction_string(result) for result in distribution]
    probabilities = [float(probability) for probability in distribution.values()]
    bars = axes.bar(
        labels,
        probabilities,
        color=[
            POSITIVE if result > 0 else NEGATIVE if result < 0 else NEUTRAL
            for result in distribution
        ],
    )
    axes.bar_label(bars, labels=[f"{value:.4g}" for value in probabilities], fontsize=8)
    if max(probabilities) > 100 * min(probabilities):
        # Rare top pays would be invisible on a linear scale.
        axes.set_yscale("log")
    else:
        axes.margins(y=0.12)
    axes.set_xlabel("Net result per unit staked")
    axes.set_ylabel("Probability")
    expected = float(sheet.result.expected_value)
    axes.set_title(f"{sheet.name}: distribution of one round (EV {expected:+.6f})")
    return figure


def _rounds_grid(smallest: int, largest: int) -> list[int]:
    """1-2-5 steps from *smallest* to *largest* rounds (both included), for the band figure.

    >>> _rounds_grid(10, 1_000)
    [10, 20, 50, 100, 200, 500, 1000]
    >>> _rounds_grid(300, 300)
    [300]
    """
    grid = {smallest, largest}
    number = 1
    while number <= largest:
        grid |= {step for step in (number, number * 2, number * 5) if smallest <= step <= largest}
        number *= 10
    return sorted(grid)


def hold_figure(sheet: BetSheet) -> Any:
    """The win as % of handle and its normal bands against the rounds (log scale), from the
    smallest to the largest number of rounds of the sheet; bands clipped as printed."""
    figure = new_figure()
    axes = figure.add_subplot()
    levels = sorted({band.confidence for band in sheet.holds}, reverse=True)
    numbers = [band.rounds for band in sheet.holds] or [1_000, 1_000_000]
    grid = _rounds_grid(min(numbers), max(numbers))
    edge = float(sheet.result.house_edge) * 100
    shades = ["#d1e5f0", "#92c5de", "#4393c3"]
    for level, shade in zip(levels, shades * len(levels), strict=False):
        template = next(band for band in sheet.holds if band.confidence == level)
        ends = [
            HoldBand(
                rounds,
                level,
                template.z,
                template.house_edge,
                template.variance,
                template.floor,
                template.ceiling,
            ).bounds()
            for rounds in grid
        ]
        axes.fill_between(
            grid,
            [low * 100 for low, _ in ends],
            [high * 100 for _, high in ends],
            color=shade,
            label=f"{level}% band",
        )
    axes.axhline(edge, color="black", linewidth=1, label=f"house edge {edge:.4f}%")
    axes.axhline(0, color=NEUTRAL, linewidth=0.6, linestyle=":")
    axes.set_xscale("log")
    axes.set_xlabel("Rounds (one unit each)")
    axes.set_ylabel("Win as % of handle")
    axes.set_title(f"{sheet.name}: win as % of handle, normal bands (clipped at ±100%)")
    axes.legend(fontsize=8)
    return figure


def par_sheet_figures(sheet: ParSheet) -> Iterator[tuple[str, str, Any]]:
    """``(bet, kind, figure)`` for every bet of *sheet* and every kind in :data:`FIGURE_KINDS`.

    A bet without effects of removal (no rank could be removed) has no
    removal figure.
    """
    for name, bet_sheet in sheet.bets.items():
        yield name, "distribution", distribution_figure(bet_sheet)
        yield name, "hold", hold_figure(bet_sheet)
        if bet_sheet.effects is not None:
            tags = bet_sheet.count.tags if bet_sheet.count is not None else None
            yield name, "removal", removal_figure(name, bet_sheet.effects, tags)


def drawn_figures(sheet: ParSheet) -> dict[tuple[str, str], Any]:
    """Every figure of *sheet*, by ``(bet, kind)``."""
    return {(name, kind): figure for name, kind, figure in par_sheet_figures(sheet)}
