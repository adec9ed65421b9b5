"""Figures, drawn with matplotlib (the ``plot`` extra), one function per figure.

Each function returns a :class:`matplotlib.figure.Figure` (built without
pyplot, so no global state and no display is touched; files are written with
the Agg backend), which tests can inspect and :func:`save_figures` writes:

* :func:`removal_figure`: the effect of removal of each rank, as bars (``eor``, par sheets);
* :func:`depth_figure`: a simulated bet's exact EV by the deck being dealt (``simulate``);
* :func:`paths_figure` and :func:`risk_curve_figure`: the fan chart of the bankroll over a
  trip's shoes and the risk of ruin against the bankroll (``simulate --bankroll``), drawn
  from the figures the result records;
* :func:`require_matplotlib`, :func:`figure_svg`, :func:`figure_png` and
  :func:`save_figures`: what every command that draws shares.

The par sheet's own figures are in :mod:`exactodds.report.parsheet.figures`.
matplotlib is imported inside these functions only: ``exactodds odds``
never loads it.

>>> figure = depth_figure("tie", [-0.14, -0.15])
>>> figure.axes[0].get_xlabel()
'Deck being dealt (52 cards each)'
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.removal import EffectOfRemoval
from ..errors import ExactOddsError, import_extra

if TYPE_CHECKING:
    from ..simulation.result import SimulationResult

__all__ = [
    "NEGATIVE",
    "NEUTRAL",
    "POSITIVE",
    "depth_figure",
    "figure_file_stem",
    "figure_png",
    "figure_svg",
    "new_figure",
    "paths_figure",
    "removal_figure",
    "removal_figures",
    "require_matplotlib",
    "risk_curve_figure",
    "save_figures",
    "simulation_figures",
]

#: Colours of a loss, a win and a push, shared by every figure.
NEGATIVE = "#b2182b"
POSITIVE = "#2166ac"
NEUTRAL = "#555555"


def require_matplotlib() -> Any:
    """matplotlib with the Agg backend, or a :class:`MissingExtraError` saying how to install it."""
    matplotlib = import_extra("matplotlib", "Drawing figures", "plot")
    matplotlib.use("Agg")
    return matplotlib


def new_figure(width: float = 6.4, height: float = 3.4) -> Any:
    """An empty matplotlib figure (no pyplot, no global state), laid out to fit its labels."""
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def removal_figure(
    name: str,
    effects: Mapping[str, Fraction | None],
    tags: Mapping[str, int] | None = None,
    cards: int = 1,
) -> Any:
    """Bars of the effect of removing *cards* cards of each rank on *name*'s EV, in percent.

    A skipped rank (``None``) has no bar; with *tags*, each bar is labelled
    with its rank's tag in the derived count.

    >>> figure = removal_figure("tie", {"A": Fraction(1, 1000), "2": None, "3": Fraction(-1, 500)})
    >>> [round(float(bar.get_height()), 3) for bar in figure.axes[0].patches]
    [0.1, 0.0, -0.2]
    """
    figure = new_figure()
    axes = figure.add_subplot()
    ranks = list(effects)
    heights = [float((effect or 0) * 100) for effect in effects.values()]
    colors = [
        NEUTRAL if effect is None else NEGATIVE if effect < 0 else POSITIVE
        for effect in effects.values()
    ]
    bars = axes.bar(ranks, heights, color=colors)
    axes.axhline(0, color="black", linewidth=0.8)
    if tags is not None:
        labels = [
            "" if effect is None else f"{tags.get(rank, 0):+d}" if tags.get(rank, 0) else "0"
            for rank, effect in effects.items()
        ]
        axes.bar_label(bars, labels=labels, padding=2, fontsize=8)
    axes.set_xlabel("Rank removed (" + ("one card" if cards == 1 else f"{cards} cards") + ")")
    axes.set_ylabel("Change in EV (% of stake)")
    axes.set_title(f"{name}: effect of removal" + (" and count tags" if tags else ""))
    axes.margins(y=0.15)
    return figure


def depth_figure(name: str, ev_by_deck: Sequence[float | None]) -> Any:
    """A simulated bet's mean exact EV (in percent) by the deck being dealt, as a line.

    *ev_by_deck* holds one mean per deck of the shoe (``None`` where no round
    was dealt), as :class:`~exactodds.simulation.result.BetResult` gives it.

    >>> figure = depth_figure("dragon7", [-0.0761, -0.0755, None, -0.05])
    >>> [round(float(y), 2) for y in figure.axes[0].lines[0].get_ydata()]
    [-7.61, -7.55, -5.0]
    """
    figure = new_figure()
    axes = figure.add_subplot()
    points = [(deck + 1, value * 100) for deck, value in enumerate(ev_by_deck) if value is not None]
    axes.plot(
        [deck for deck, _ in points], [value for _, value in points], marker="o", color=POSITIVE
    )
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Deck being dealt (52 cards each)")
    axes.set_ylabel("Mean exact EV (% of stake)")
    axes.set_title(f"{name}: exact EV by depth in the shoe")
    return figure


def paths_figure(paths: Mapping[str, Any]) -> Any:
    """A fan chart of the bankroll over the shoes of a trip: the median, the 50% and 90%
    bands of the simulated trips, and the ruin line at 0, from ``risk_of_ruin.paths``.

    >>> steps = [{"shoes": 0, "p05": 20, "p25": 20, "median": 20, "p75": 20, "p95": 20},
    ...          {"shoes": 1, "p05": -4, "p25": 14, "median": 19, "p75": 20, "p95": 57}]
    >>> figure = paths_figure({"steps": steps, "trips": 200, "bin_units": 1})
    >>> [float(y) for y in figure.axes[0].lines[0].get_ydata()]
    [20.0, 19.0]
    >>> paths_figure({"steps": [], "trips": 0, "bin_units": 1})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: A fan chart needs the bankroll at one step at least; risk_of_ruin.paths holds none.
    """
    steps = list(paths["steps"])
    if not steps:
        raise ExactOddsError(
            "A fan chart needs the bankroll at one step at least; risk_of_ruin.paths holds none."
        )
    figure = new_figure()
    axes = figure.add_subplot()
    shoes = [step["shoes"] for step in steps]
    axes.plot(shoes, [step["median"] for step in steps], color=POSITIVE, label="median")
    for low, high, shade, label in (("p05", "p95", 0.15, "90%"), ("p25", "p75", 0.3, "50%")):
        axes.fill_between(
            shoes,
            [step[low] for step in steps],
            [step[high] for step in steps],
            color=POSITIVE,
            alpha=shade,
            linewidth=0,
            label=f"{label} of trips",
        )
    axes.axhline(0, color=NEGATIVE, linewidth=0.8, label="ruin")
    axes.set_xlabel("Shoes into the trip")
    axes.set_ylabel("Bankroll (units)")
    axes.set_title(
        f"Bankroll over {paths['trips']:,} simulated trips (bins of {_units(paths['bin_units'])})"
    )
    axes.legend(loc="upper left", fontsize=8)
    return figure


def risk_curve_figure(curve: Mapping[str, Any]) -> Any:
    """The risk of ruin against the bankroll, from ``risk_of_ruin.curve``: the trip's
    estimate with its +-2 standard error band, the Cramer-Lundberg curve for unlimited
    play, and the asked bankroll marked.

    >>> points = [{"bankroll": 10.0, "asked": True, "trip": {"mean": 0.1, "stderr": 0.01},
    ...            "unlimited": 0.5}]
    >>> figure = risk_curve_figure({"points": points})
    >>> [float(y) for y in figure.axes[0].lines[0].get_ydata()]
    [10.0]
    """
    points = [point for point in curve["points"] if point["trip"]["mean"] is not None]
    figure = new_figure()
    axes = figure.add_subplot()
    bankrolls = [point["bankroll"] for point in points]
    means = [100 * point["trip"]["mean"] for point in points]
    errors = [100 * 2 * (point["trip"]["stderr"] or 0.0) for point in points]
    axes.plot(bankrolls, means, color=POSITIVE, marker=".", label="trip (programme)")
    axes.fill_between(
        bankrolls,
        [max(mean - error, 0.0) for mean, error in zip(means, errors, strict=True)],
        [min(mean + error, 100.0) for mean, error in zip(means, errors, strict=True)],
        color=POSITIVE,
        alpha=0.2,
        linewidth=0,
        label="trip, ±2 standard errors",
    )
    unlimited = [(point["bankroll"], point["unlimited"]) for point in points]
    if any(value is not None for _, value in unlimited):
        axes.plot(
            [bankroll for bankroll, value in unlimited if value is not None],
            [100 * value for _, value in unlimited if value is not None],
            color=NEUTRAL,
            linestyle="--",
            label="unlimited play (Cramer-Lundberg)",
        )
    for point in points:
        if point["asked"]:
            axes.axvline(point["bankroll"], color=NEGATIVE, linewidth=0.8, label="asked bankroll")
    axes.set_xlabel("Bankroll (units)")
    axes.set_ylabel("Risk of ruin (%, estimate)")
    axes.set_title("Risk of ruin against the bankroll")
    axes.set_ylim(bottom=0)
    axes.legend(loc="upper right", fontsize=8)
    return figure


def simulation_figures(result: SimulationResult) -> Iterator[tuple[str, str, Any]]:
    """Each simulated bet's EV-by-depth figure, as ``(bet, "depth", figure)``; with a bankroll,
    the fan chart of its paths and its risk curve, as ``("combined", "paths" | "risk", figure)``."""
    for bet in result.bets():
        if bet.every_round:  # bet-rounds pricing leaves the EV by deck out
            yield bet.name, "depth", depth_figure(bet.name, bet.ev_by_deck)
    ruin = result.risk_figures.ruin or {}
    if ruin.get("paths") is not None:
        yield "combined", "paths", paths_figure(ruin["paths"])
    if ruin.get("curve") is not None and ruin["curve"]["points"]:
        yield "combined", "risk", risk_curve_figure(ruin["curve"])


def removal_figures(result: EffectOfRemoval) -> Iterator[tuple[str, str, Any]]:
    """``(bet, "removal", figure)`` for every bet of an effect-of-removal study (``eor``)."""
    for name, effects in result.effects.items():
        tags = result.counts[name].tags
        yield name, "removal", removal_figure(name, effects, tags, result.cards)


def _salted(name: str) -> dict[str, Any]:
    # Element ids of inline SVGs must differ between figures on one page.
    return {"svg.hashsalt": name, "svg.fonttype": "path"}


def figure_svg(figure: Any, name: str) -> str:
    """The figure as an SVG element for inline HTML (no XML prologue), ids salted by *name*."""
    matplotlib = require_matplotlib()
    buffer = io.StringIO()
    with matplotlib.rc_context(_salted(name)):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    start = text.index("<svg")
    # matplotlib numbers its element ids per figure (figure_1, patch_1 ...): prefix each, and
    # every reference to it, with the figure's name, so ids stay unique across one page.
    prefix = re.sub(r"[^A-Za-z0-9_-]", "_", name) + "-"
    text = re.sub(r'(\bid="|href="#|url\(#)', lambda found: found.group() + prefix, text[start:])
    return re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL).strip()


def figure_png(figure: Any, dpi: int = 150) -> bytes:
    """The figure as PNG bytes (for the PDF)."""
    require_matplotlib()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def save_figures(
    figures: Iterator[tuple[str, str, Any]],
    directory: str | Path,
    formats: tuple[str, ...] = ("png", "svg"),
) -> list[Path]:
    """Write each ``(bet, kind, figure)`` as ``DIR/<bet>-<kind>.<format>``; the paths written.

    The directory is created when missing.  A path that cannot be written
    raises :class:`~exactodds.errors.ExactOddsError` naming it.
    """
    matplotlib = require_matplotlib()
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ExactOddsError(
            f"Cannot create the plot directory {str(directory)!r}: {error.strerror}."
        ) from None
    written: list[Path] = []
    for name, kind, figure in figures:
        for extension in formats:
            path = folder / f"{figure_file_stem(name)}-{kind}.{extension}"
            metadata = {"Date": None} if extension == "svg" else {"Software": None}
            try:
                with matplotlib.rc_context(_salted(f"{name}-{kind}")):
                    figure.savefig(path, format=extension, dpi=100, metadata=metadata)
            except OSError as error:
                raise ExactOddsError(
                    f"Cannot write the figure {str(path)!r}: {error.strerror}."
                ) from None
            written.append(path)
    return written


def figure_file_stem(name: str) -> str:
    """*name* made safe as a file name: anything but letters, digits, ``_ . -`` becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "bet"


def _units(count: float) -> str:
    return f"{count:g} unit" + ("" if count == 1 else "s")
