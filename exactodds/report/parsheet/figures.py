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
from ...studies.parsheet import BetSheet, ParSheet
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


def hold_figure(sheet: BetSheet) -> Any:
    """The win as % of handle and its normal bands against the rounds (log scale), from the
    smallest to the largest number of rounds of the sheet (the model's ``band_curves``); bands
    clipped as printed."""
    figure = new_figure()
    axes = figure.add_subplot()
    curves = sheet.band_curves
    edge = float(sheet.result.house_edge) * 100
    shades = ["#d1e5f0", "#92c5de", "#4393c3"]
    for level, shade in zip(sorted(curves, reverse=True), shades * len(curves), strict=False):
        ends = [band.bounds() for band in curves[level]]
        axes.fill_between(
            [band.rounds for band in curves[level]],
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
