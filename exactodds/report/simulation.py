"""A simulation's result as a table, JSON or CSV.

The JSON is a contract like the other commands': ``shoes``, ``rounds`` and per
bet under ``bets``: ``bets_made``, ``frequency``, ``average_edge``,
``share_positive``, ``units_per_shoe`` and ``units_per_100_rounds`` (each with
``exact_ev`` and ``realized``, each with ``mean``, ``stderr`` and ``ci95``),
``ev_deciles`` and ``ev_by_deck``.  How the run went (time, rate, backend)
stays under ``run``, so that two runs of the same simulation compare equal
outside it.
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
from fractions import Fraction
from typing import Any

from exactodds.numbers import decimal_string, fraction_string
from exactodds.report.table import TABLE_WIDTH, fitted_table, simple_table, wrapped_lines
from exactodds.report.writer import json_text
from exactodds.simulation.result import BetResult, SimulationResult
from exactodds.simulation.risk.sums import Estimate
from exactodds.simulation.strategies import counted_by

__all__ = [
    "CSV_COLUMNS",
    "band_table",
    "count_text",
    "figure_text",
    "money_text",
    "optimal_lines",
    "render_csv",
    "render_json",
    "render_table",
]

#: The most bands a bet's table by count shows (outer bands folded in).
MOST_BANDS = 15


def render_json(result: SimulationResult) -> str:
    """The result as indented JSON."""
    return json_text(result.to_dict())


def _number(value: float | None, digits: int) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:.{digits}f}"


def _percent(value: float | None, digits: int) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{100 * value:.{digits}f}%"


def _estimate(estimate: Estimate, digits: int) -> str:
    if math.isnan(estimate.stderr):
        return _number(estimate.mean, digits)
    return f"{_number(estimate.mean, digits)} ± {_number(1.96 * estimate.stderr, digits)}"


def render_table(
    result: SimulationResult,
    digits: int = 4,
    risk: bool = False,
    wide: bool = False,
    by_count: bool = False,
) -> str:
    """The result as text tables: per bet, both estimators with 95% intervals.

    With *risk*, also the risk figures: EV and SD per round, DI, SCORE, N0, the
    covariance, and the risk of ruin and bankroll figures asked for.  Every line fits
    :data:`TABLE_WIDTH` columns (tables split by columns, the first column repeated; prose
    wrapped) unless *wide*.  With *by_count*, each bet's figures by true count (or by band of
    exact EV): :func:`band_table`.
    """
    width = None if wide else TABLE_WIDTH
    tally = result.tally
    simulation = result.simulation
    histogram = dict(tally.rounds_histogram)
    lines = [
        f"Shoes: {tally.shoes:,} of seed {simulation.seed} ({simulation.procedure.describe()})",
        f"Rules: {simulation.rules.describe()}",
        f"Rounds: {tally.rounds:,}"
        + (
            f", {tally.rounds / tally.shoes:.2f} per shoe (from {min(histogram)} to "
            f"{max(histogram)})"
            if tally.shoes
            else ""
        ),
    ]
    if not result.complete:
        lines.append(
            f"Interrupted: the result covers the first {tally.shoes:,} of "
            f"{simulation.shoes:,} shoes."
        )
    lines.append("")
    bets = result.bets()
    headers = [
        "Bet",
        "Bets made",
        "Frequency",
        "Average edge",
        "Units/shoe, exact EV",
        "Units/shoe, realized",
        "Units/100 rounds, exact EV",
    ]
    rows = [
        [
            bet.name,
            f"{bet.bets_made:,}",
            _percent(bet.frequency, 2),
            _percent(bet.average_edge, 3),
            _estimate(bet.units_per_shoe["exact_ev"], digits),
            _estimate(bet.units_per_shoe["realized"], digits),
            _estimate(bet.units_per_100_rounds["exact_ev"], digits),
        ]
        for bet in bets
    ]
    lines.append(fitted_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1), width))
    lines += ["", "± is a 95% confidence interval (1.96 standard errors over shoes)."]
    lines += ["", "Strategies and the exact EV over all rounds:"]
    detail_headers = ["Bet", "Strategy", "EV > 0", "EV deciles 10% / 50% / 90%"]
    detail_rows = [
        [
            bet.name,
            bet.strategy if wide else textwrap.fill(bet.strategy, 40, break_long_words=False),
            _percent(bet.share_positive, 2),
            " / ".join(_percent(bet.ev_deciles[i], 2) for i in (0, 4, 8))
            if len(bet.ev_deciles) == 9
            else "-",
        ]
        for bet in bets
    ]
    lines.append(fitted_table(detail_rows, detail_headers, ("left",) * len(detail_headers), width))
    lines += _every_round_lines(result, bets, width)
    if by_count:
        lines += _band_lines(result, bets, digits)
    if risk:
        lines += _risk_lines(result, digits, width)
    lines += _rebate_lines(result, digits, width)
    return "\n".join(lines if width is None else wrapped_lines(lines, width))


def figure_text(data: dict[str, Any] | None, digits: int) -> str:
    """An estimate ``{"mean", "stderr"}`` as ``mean ± 1.96 stderr`` (significant digits).

    >>> figure_text({"mean": 0.0123456, "stderr": 0.001}, 3), figure_text(None, 3)
    ('0.0123 ± 0.002', '-')
    """
    if data is None or data.get("mean") is None:
        return "-"
    mean = data["mean"]
    if data.get("stderr") is None:
        return f"{mean:.{digits}g}"
    return f"{mean:.{digits}g} ± {1.96 * data['stderr']:.2g}"


def _band_lines(result: SimulationResult, bets: list[BetResult], digits: int) -> list[str]:
    """Each bet's table by count (or EV band), and what the bands are."""
    lines: list[str] = []
    tally, simulation = result.tally, result.simulation
    lines += [
        line
        for bet, sums, strategy in zip(bets, tally.bets, simulation.strategies, strict=True)
        for line in (
            "",
            band_table(bet.name, sums.bands, counted_by(strategy), sums.pay_denominator, digits),
        )
    ]
    lines += [
        "",
        "Bands: the true count before the round, floored (running count x 52 // unseen "
        "cards); for plays other than a count, the round's exact EV in 1% bands. Outer "
        "bands holding under 1% of the rounds together, and then the thinner end until "
        f"{MOST_BANDS} bands are left, are folded into the outermost band shown (JSON has "
        "every band). "
        "EV per round from the exact EVs of the bets made, SD of the realized results (0 "
        "when no bet is made), over every round of the band.",
    ]
    return lines


def band_table(
    name: str,
    bands: tuple[tuple[int, ...], ...],
    counted: str | None,
    denominator: int,
    digits: int,
) -> str:
    """One bet's figures per band (:func:`~exactodds.simulation.result.band_rows`): by
    *counted* (``true_count`` or ``running_count``) or, for None, by 1% band of exact EV; the
    outer bands that hold under 1% of the rounds on each side folded into the next one in.

    >>> print(band_table("tie", ((-1, 1, 0, 0, 0, 0), (0, 199, 1, 0, 8, 64)), None, 1, 3))
    EV band, tie      Rounds    Bets made    Frequency    EV/round    SD/round    Units won
    --------------  --------  -----------  -----------  ----------  ----------  -----------
    < 1%              100.0%            1        0.50%           0       0.564            8
    >>> band_table("tie", ((0, 1, 2, 0, 0, 0),), None, 1, 3)
    Traceback (most recent call last):
    ...
    ValueError: a band of 1 rounds has 2 bets made; a round holds at most one.
    """
    for band in bands:
        if band[2] > band[1]:
            raise ValueError(
                f"a band of {band[1]} rounds has {band[2]} bets made; a round holds at most one."
            )
    rounds = sum(band[1] for band in bands)
    kept, low = _folded(list(bands), rounds)
    kept, high = _folded(kept[::-1], rounds)
    kept.reverse()
    while len(kept) > MOST_BANDS:  # then the thinner end, one band at a time
        if kept[0][1] <= kept[-1][1]:
            kept, low = _joined_first(kept), True
        else:
            kept, high = _joined_first(kept[::-1])[::-1], True
    from exactodds.simulation.result import band_rows

    table = []
    shown = tuple((band[0], band[1], band[2], band[3], band[4], band[5]) for band in kept)
    for index, row in enumerate(band_rows(shown, "band", rounds, denominator)):
        first, last, band = low and index == 0, high and index == len(kept) - 1, row["band"]
        if counted is not None:
            label = f"{'<= ' if first else ''}{'>= ' if last else ''}{band}"
        elif first and last:
            label = "all"
        else:
            label = (
                f"< {band + 1}%" if first else f">= {band}%" if last else f"{band}% to {band + 1}%"
            )
        table.append(
            [
                label,
                _percent(row["share_of_rounds"], 1),
                f"{row['bets_made']:,}",
                _percent(row["frequency"], 2),
                f"{row['ev_per_round']:.{digits}g}",
                f"{row['sd_per_round']:.{digits}g}",
                f"{row['units_won']:,.{digits}g}",
            ]
        )
    kind = "EV band" if counted is None else counted.replace("_", " ").capitalize()
    headers = [f"{kind}, {name}", "Rounds", "Bets made", "Frequency", "EV/round", "SD/round"]
    return simple_table(table, [*headers, "Units won"], ("left",) + ("right",) * 6)


def _folded(bands: list[tuple[int, ...]], rounds: int) -> tuple[list[tuple[int, ...]], bool]:
    """*bands* with the leading ones that hold under 1% of *rounds* together added into the
    first band kept (which keeps its key), and whether any were."""
    folded = 0
    while len(bands) > 1 and (folded + bands[0][1]) * 100 < rounds:
        folded += bands[0][1]
        bands = _joined_first(bands)
    return bands, folded > 0


def _joined_first(bands: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The first band's sums added into the second, under the second's key."""
    first, second, *rest = bands
    return [(second[0], *(a + b for a, b in zip(first[1:], second[1:], strict=True))), *rest]


def count_text(data: dict[str, Any] | None, decimals: int) -> str:
    """An estimate of rounds or hours, ``{"mean", "stderr"}``, as ``mean ± 1.96 stderr`` in
    fixed notation with thousands separators (not scientific).

    >>> count_text({"mean": 84184.2, "stderr": 14600.0}, 0), count_text({"mean": 12.34}, 1)
    ('84,184 ± 28,616', '12.3')
    >>> count_text(None, 0)
    '-'
    """
    if data is None or data.get("mean") is None:
        return "-"
    mean = f"{data['mean']:,.{decimals}f}"
    if data.get("stderr") is None:
        return mean
    return f"{mean} ± {1.96 * data['stderr']:,.{decimals}f}"


def _rebate_lines(result: SimulationResult, digits: int, width: int | None) -> list[str]:
    """The rebate over the simulated trips: per trip, and the trips' result distribution."""
    figures = result.rebate_figures
    rebate = result.simulation.rules.rebate
    if figures is None:
        trip = result.simulation.trip_shoes
        return (
            [
                "",
                f"Rebate: {rebate.describe()}; paid at the end of each trip of {trip:,} shoes, "
                "and no trip finished in the shoes simulated.",
            ]
            if rebate and result.tally.shoes
            else []
        )
    shoes = f"{figures.trip_shoes:,} shoe{'s' if figures.trip_shoes != 1 else ''}"
    lines = [
        "",
        f"Rebate: {figures.rebate.describe()}; paid at the end of each trip of {shoes} "
        f"({figures.trips:,} trips simulated).",
        f"Per trip: {decimal_string(figures.mean_staked, digits)} units staked, "
        f"{decimal_string(figures.mean_rolled, digits)} on rounds that won or lost; rebate "
        f"{decimal_string(figures.mean_rebate, digits)} (rolling "
        f"{decimal_string(figures.mean_rolling_rebate, digits)}, loss "
        f"{decimal_string(figures.mean_loss_rebate, digits)}).",
        "Effective EV per unit staked (realized results and the rebate): "
        + _estimate(Estimate(float(figures.effective_ev), figures.effective_ev_stderr), digits)
        + ".",
        "",
    ]
    headers = ["Trip result, units", "Mean", "5%", "25%", "Median", "75%", "95%"]
    rows = [
        [name, _estimate(Estimate(float(part.mean), part.stderr), digits)]
        + [decimal_string(value, digits) for value in part.quantiles[1:-1]]
        for name, part in (
            ("Without the rebate", figures.without_rebate),
            ("With the rebate", figures.with_rebate),
        )
    ]
    lines.append(fitted_table(rows, headers, ("left",) + ("right",) * 6, width))
    lines.append(
        "Quantiles of the simulated trips (JSON adds the 1% and 99%); ± is a 95% interval over "
        "trips."
    )
    without = figures.without_rebate.share_down_bankroll
    with_rebate = figures.with_rebate.share_down_bankroll
    if without is not None and with_rebate is not None:
        bankroll = result.simulation.bankroll
        assert bankroll is not None
        lines += [
            f"Trips ending down the bankroll ({fraction_string(bankroll)} units) or more, "
            f"simulated: {_percent(without[0], 2)} ± {_percent(1.96 * without[1], 2)} without "
            f"the rebate, {_percent(with_rebate[0], 2)} ± {_percent(1.96 * with_rebate[1], 2)} "
            "with it. The risk of ruin within a trip is the one without the rebate: paid at "
            "the trip's end, a rebate moves no trip's path before it.",
        ]
    return lines


def _risk_lines(result: SimulationResult, digits: int, width: int | None) -> list[str]:
    """The risk figures: per bet and combined, covariance, ruin and bankroll."""
    figures = result.risk_figures
    if not figures.measured:
        return []
    hour = result.simulation.questions.rounds_per_hour
    names = [bet.name for bet in result.simulation.bets]
    headers = ["Per round", "EV", "SD", "DI", "SCORE", "N0 rounds"]
    keys = ["ev_per_round", "sd_per_round", "di", "score", "n0_rounds"]
    if hour is not None:
        headers += ["N0 hours", "EV/hour", "SD/hour"]
        keys += ["n0_hours", "ev_per_hour", "sd_per_hour"]
    headers += ["Units wagered", "Realized ROI"]
    exact = "exact_moments" in figures.of(names[0])
    if exact:
        headers += ["SD, exact moments", "DI, exact moments"]
    rows = []
    for name in [*names, "combined"]:
        data = figures.combined if name == "combined" else figures.of(name)
        rows.append(
            [name if name != "combined" else "all bets"]
            + [
                count_text(data.get(key), 1 if key == "n0_hours" else 0)
                if key.startswith("n0_")
                else figure_text(data.get(key), digits)
                for key in keys
            ]
            + [f"{data['units_wagered']:,}", _percent(data.get("roi"), 3)]
            + [
                figure_text(data.get("exact_moments", {}).get(key), digits)
                for key in (("sd_per_round", "di") if exact else ())
            ]
        )
    lines = [
        "",
        fitted_table(rows, headers, ("left",) + ("right",) * (len(headers) - 1), width),
        "",
        f"Stakes: {result.simulation.stake.describe()} ({result.simulation.limits.describe()}). "
        "EV per round from the exact EVs of the bets made, SD from the realized results; "
        "DI = 1000 EV / SD, SCORE = DI², N0 = (SD / EV)²; ± 95% (delta method over shoes).",
        *optimal_lines(result.simulation.stake, figures.combined.get("ramp_out_of_sample")),
        *_one_shoe_target(result),
    ]
    combined = figures.combined
    unit = result.simulation.questions.unit
    if unit is not None:
        lines.append(_money_line(combined, unit, hour is not None))
    if "growth_rate_per_round" in combined:
        lines.append(
            f"Kelly growth rate: {combined['growth_rate_per_round']:.{digits}g} per round."
        )
    if len(names) > 1:
        matrix = combined["covariance"]
        lines += [
            "",
            fitted_table(
                [[a] + [figure_text({"mean": matrix[a][b]}, digits) for b in names] for a in names],
                ["Covariance per round", *names],
                ("left",) * (len(names) + 1),
                width,
            ),
        ]
    lines += _ruin_lines(combined, digits, unit=unit, width=width)
    if "flat" in combined:
        flat = combined["flat"]
        lines += [
            "",
            "Flat stakes instead (the table minimum whenever the strategy bets), all bets: "
            f"EV {figure_text(flat['ev_per_round'], digits)}, "
            f"SD {figure_text(flat['sd_per_round'], digits)}, "
            f"DI {figure_text(flat['di'], digits)} per round.",
        ]
        lines += _ruin_lines(flat, digits, " (flat stakes)", unit)
    return lines


def _one_shoe_target(result: SimulationResult) -> list[str]:
    """Said when an optimal ramp met a risk target for the default trip of one shoe."""
    basis = getattr(result.simulation.stake, "basis", None)
    if basis is None or "risk_target" not in basis:
        return []
    if result.simulation.questions.trip_rounds is not None:
        return []
    return [
        "The risk target is for a trip of one shoe (no trip length asked): a longer trip "
        "risks more of the same bankroll."
    ]


def optimal_lines(stake: Any, measured: dict[str, Any] | None = None) -> list[str]:
    """What an optimal ramp was derived from (:mod:`~exactodds.simulation.staking.optimal`) and
    what it earned on the run's shoes, which its fit did not see (*measured*: the result's
    ``combined.ramp_out_of_sample``), or none.

    >>> from fractions import Fraction
    >>> from exactodds.simulation.staking.stakes import Ramp
    >>> basis = {"objective": "score", "bankroll": None, "spread": "1-8", "counted": "true_count",
    ...          "pilot": {"shoes": 10, "rounds": 800}, "bands": [{}] * 3, "value": 2.5,
    ...          "flat_value": 0.0, "bands_measured": 7, "min_band_bets": 100}
    >>> measured = {"objective": "score", "shoes": 10, "mean": 1.25, "stderr": 0.5}
    >>> print(optimal_lines(Ramp(((Fraction(0), 1),), True, basis), measured)[0])
    Optimal ramp, spread 1-8: the stakes by true count that maximize SCORE, fitted on a flat 1-unit pilot of 10 other shoes (800 rounds; its 7 bands bet merged to 3 of at least 100 bets each). SCORE 1.25 ± 0.98 on this run's 10 shoes, which the fit did not see (on the pilot, in sample: 2.5, against 0 flat at the spread's minimum); type it in as ramp:tc:0=1 for the same figures.
    >>> optimal_lines(Ramp(((Fraction(0), 1),), True))
    []
    """
    basis = getattr(stake, "basis", None)
    if basis is None:
        return []
    measure = {"true_count": "true count", "running_count": "running count"}.get(
        basis["counted"], "1% band of exact EV"
    )
    objective = (
        "SCORE"
        if basis["objective"] == "score"
        else f"the second-order log growth per round at a bankroll of {basis['bankroll']}"
        + (
            f" x {basis['bankroll_multiplier']}"
            if basis.get("bankroll_multiplier") not in (None, "1")
            else ""
        )
    )
    short = "SCORE" if basis["objective"] == "score" else "Growth per round"
    pilot = basis["pilot"]
    bands = len(basis["bands"])
    merged = basis.get("bands_measured", bands)
    least = basis.get("min_band_bets", 1)
    made = sum(band.get("bets_made", least) for band in basis["bands"])
    grouped = (
        f"of at least {least} bets each"
        if made >= least
        else f"since the pilot made fewer than {least} bets"
    )
    quoted = (
        f"{short} {figure_text(measured, 4)} on this run's {measured['shoes']:,} shoes, which "
        "the fit did not see (on the pilot, in sample: "
        if measured is not None and measured.get("mean") is not None
        else f"{short} on the pilot, in sample: "
    )
    return [
        f"Optimal ramp, spread {basis['spread']}: the stakes by {measure} that maximize "
        f"{objective}, fitted on a flat 1-unit pilot of {pilot['shoes']:,} other shoes "
        f"({pilot['rounds']:,} rounds; its {merged} bands bet merged to {bands} {grouped}). "
        f"{quoted}"
        f"{basis['value']:.4g}, against {basis['flat_value']:.4g} flat at the spread's "
        f"minimum{')' if measured is not None and measured.get('mean') is not None else ''}; "
        f"type it in as {stake.text()} for the same figures." + _risk_target_text(basis)
    ]


def _risk_target_text(basis: dict[str, Any]) -> str:
    """How a `risk` target scaled the optimal ramp down, if one did."""
    if "risk_target" not in basis:
        return ""
    last = basis["tried"][-1]
    risk = _percent(last["risk"], 3) if last["risk"] is not None else "none"
    outcome = "meets it" if basis["risk_target_met"] else "does not: the smallest ramp tried"
    steps = ", ".join(f"x {tried['multiplier']}" for tried in basis["tried"])
    return (
        f" For a risk of ruin of at most {100 * float(Fraction(basis['risk_target'])):g}%, the "
        f"ramp was derived at the bankroll {steps} in turn, each run on this run's shoes: at "
        f"x {last['multiplier']}, the trip's risk estimate {risk} {outcome}."
    )


def money_text(units: float | None, unit: Fraction | None) -> str:
    """*units* in money at *unit* a unit, in parentheses after a space (nothing without a unit).

    >>> money_text(832.8, Fraction(25)), money_text(832.8, None), money_text(None, Fraction(5))
    (' (20,820.00)', '', '')
    """
    if unit is None or units is None or math.isnan(units):
        return ""
    return f" ({units * float(unit):,.2f})"


def _money_line(combined: dict[str, Any], unit: Fraction, hourly: bool) -> str:
    """All bets' EV and SD in money, per round (and per hour)."""
    scale = float(unit)
    parts = []
    for label, suffix in (("per round", "round"), ("per hour", "hour"))[: 1 + hourly]:
        ev = combined.get(f"ev_per_{suffix}", {}).get("mean")
        sd = combined.get(f"sd_per_{suffix}", {}).get("mean")
        shown = [
            "-" if value is None or math.isnan(value) else f"{value * scale:,.2f}"
            for value in (ev, sd)
        ]
        parts.append(f"EV {shown[0]} and SD {shown[1]} {label}")
    return f"In money at {fraction_string(unit)} a unit, all bets: {'; '.join(parts)}."


DIFFUSION = "assumes many small, symmetric bets"


def _trip_text(data: dict[str, Any]) -> str:
    """The trip the figures are for, said in full: its rounds and shoes, and what was asked
    (or that nothing was: then a trip is one shoe)."""
    shoes = data["trip_shoes"]
    asked = (
        "no trip length asked, so a trip is one shoe"
        if data["trip_rounds"] is None
        else f"asked {data['trip_rounds']}"
    )
    return (
        f"a trip of {data['rounds_per_trip']:.0f} rounds ({shoes} shoe{'s' if shoes != 1 else ''}"
        f"; {asked})"
    )


def _ruin_lines(
    combined: dict[str, Any],
    digits: int,
    label: str = "",
    unit: Fraction | None = None,
    width: int | None = None,
) -> list[str]:
    """Each question (the trip's risk, unlimited play's, the bankroll for a risk) with the one
    figure to use first, then the others with what they assume."""
    lines = []
    if "risk_of_ruin" in combined:
        data = combined["risk_of_ruin"]
        bankroll = f"{data['bankroll']:g} units{money_text(data['bankroll'], unit)}"
        lines += [
            "",
            f"Risk of ruin of {bankroll}, all bets together{label}, {_trip_text(data)}:",
            *_trip_risk_lines(data),
            "",
            f"Risk of ruin of {bankroll} in unlimited play (never stopping){label}:",
            *_unlimited_lines(data),
        ]
        if data.get("grid"):
            lines += ["", _grid_table(data["grid"], unit, width)]
    if "bankroll_for_risk" in combined:
        data = combined["bankroll_for_risk"]
        formula = data["formula"]
        simulated = data["simulated"]["trip"]
        lines += [
            "",
            f"Bankroll for a {100 * data['risk']:g}% risk of ruin, units"
            f"{' (money)' if unit is not None else ''}{label}, {_trip_text(data)}:",
            *_bankroll_estimate_lines(data.get("estimate"), unit),
            f"    simulated, {data['trips']:,} trips of consecutive shoes: "
            f"{figure_text({'mean': simulated}, digits)}{money_text(simulated, unit)} (the same "
            "question on fewer trips: coarser)",
            f"    formula (diffusion), the trip: {figure_text({'mean': formula['trip']}, digits)}"
            f"{money_text(formula['trip'], unit)} ({DIFFUSION})",
            f"    formula (diffusion), unlimited play: "
            f"{figure_text({'mean': formula['unlimited']}, digits)}"
            f"{money_text(formula['unlimited'], unit)} (never stopping; {DIFFUSION})",
        ]
    return lines


def _trip_risk_lines(data: dict[str, Any]) -> list[str]:
    """The trip's risk: the programme's estimate to use, then the simulated share and the
    diffusion formula with what they assume."""
    formula, simulated = data["formula"], data["simulated"]
    trips = (
        f"simulated, {data['trips']:,} trips of consecutive shoes: "
        f"{_percent(simulated['trip']['mean'], 3)} ({simulated['ruined_trips']:,} ruined; "
        "the same question on fewer trips: a wider error)"
    )
    estimate = (data.get("estimate") or {}).get("trip")
    if estimate is None or estimate.get("mean") is None:
        note = "" if estimate is None else f"; no estimate: {estimate.get('note')}"
        use = [f"  use: {trips.replace(', a wider error', '')}{note}"]
        others = []
    else:
        use = [f"  use: {_with_error(estimate)} ({_estimate_method(estimate)})"]
        others = [f"    {trips}"]
    return [
        *use,
        "  others, with what they assume:",
        *others,
        f"    formula (diffusion): {_percent(formula['trip'], 3)} ({DIFFUSION})",
        *([f"      warning: {formula['warning']}"] if formula.get("warning") else []),
    ]


def _estimate_method(estimate: dict[str, Any]) -> str:
    """How the programme's figure was found, short: on the exact lattice, or bracketed."""
    bounds = estimate.get("bounds")
    if bounds is None:
        return (
            "the programme over the bankroll on the exact lattice of the measured shoes, "
            "assumed independent and alike"
        )
    return (
        f"the programme over the bankroll, measured shoes; the exact lattice is past its bounds: "
        f"between {_percent(bounds[0], 3)} and {_percent(bounds[1], 3)}, proven"
    )


def _unlimited_lines(data: dict[str, Any]) -> list[str]:
    """Unlimited play: Cramer-Lundberg on the measured shoes to use, the diffusion beside it."""
    formula = data["formula"]
    unlimited = (data.get("estimate") or {}).get("unlimited")
    diffusion = f"formula (diffusion): {_percent(formula['unlimited'], 3)} ({DIFFUSION})"
    if unlimited is None:
        return [f"  use: {diffusion}"]
    return [
        f"  use: {_percent(unlimited['mean'], 3)} (Cramer-Lundberg on the measured shoes: an "
        "upper bound for ruin at the ends of shoes; dips within a shoe are not in it)",
        f"  others, with what they assume: {diffusion}",
    ]


def _with_error(estimate: dict[str, Any] | None) -> str:
    """A share as a percentage, ± 1.96 of its standard error where it has one."""
    if estimate is None:
        return "-"
    error = estimate.get("stderr")
    shown = _percent(estimate.get("mean"), 3)
    return shown if error is None or math.isnan(error) else f"{shown} ± {_percent(1.96 * error, 3)}"


def _grid_table(cells: list[dict[str, Any]], unit: Fraction | None, width: int | None) -> str:
    """``risk_of_ruin.grid``: one row per bankroll and trip length."""
    rows = [
        [
            f"{cell['bankroll']:g}{money_text(cell['bankroll'], unit)}",
            "-" if cell["rounds_per_trip"] is None else f"{cell['rounds_per_trip']:,.0f}",
            "-" if cell["trip_rounds"] is None else f"{cell['trip_rounds']:,}",
            f"{cell['trip_shoes']:,}",
            _with_error(cell["estimate"]),
            _with_error(cell["simulated"]["trip"]),
            f"{cell['simulated']['ruined_trips']:,} of {cell['trips']:,}",
        ]
        for cell in cells
    ]
    headers = ["Bankroll", "Rounds", "Asked", "Shoes", "Estimate", "Simulated", "Ruined trips"]
    return (
        "Risk of ruin over the grid of bankrolls and trips, all bets together (estimate: the "
        "programme over the bankroll; simulated: the trips of that length; ± 95%):\n"
        + fitted_table(rows, headers, ("right",) * len(headers), width)
    )


def _bankroll_estimate_lines(estimate: dict[str, Any] | None, unit: Fraction | None) -> list[str]:
    """The programme's bankroll for the risk target to use, with its interval (± 2 standard
    errors), and the heading of the others."""
    shown = (estimate or {}).get("trip")
    others = "  others, with what they assume:"
    if shown is None:
        return [others]
    bankroll, interval = shown.get("bankroll"), shown.get("interval")
    if bankroll is None:
        return [f"  no estimate: {shown.get('note', 'no estimate')}", others]
    money = (
        f" ({interval[0] * float(unit):,.2f} to {interval[1] * float(unit):,.2f})"
        if unit is not None and interval is not None
        else ""
    )
    between = (
        f"; {interval[0]:g} to {interval[1]:g}{money} at the risk ± 2 standard errors"
        if interval is not None
        else ""
    )
    return [
        f"  use: {bankroll:g}{money_text(bankroll, unit)}{between} (the programme over the "
        "bankroll, measured shoes assumed independent and alike)",
        others,
    ]


def _every_round_lines(
    result: SimulationResult, bets: list[BetResult], width: int | None
) -> list[str]:
    """The EV by deck, or with ``bet-rounds`` pricing the note on the figures left out."""
    if result.simulation.every_round:
        return ["", _depth_table(bets, width)]
    return [
        "",
        "Left out (priced bet-rounds: only the rounds where a bet is made): the share of rounds",
        "with EV > 0, the EV deciles and the EV by deck, which need every round's exact EV.",
    ]


def _depth_table(bets: list[BetResult], width: int | None) -> str:
    decks = max((len(bet.ev_by_deck) for bet in bets), default=0)
    headers = ["EV by deck dealt"] + [str(deck + 1) for deck in range(decks)]
    rows = [[bet.name] + [_percent(value, 2) for value in bet.ev_by_deck] for bet in bets]
    return fitted_table(rows, headers, ("left",) + ("right",) * decks, width)


CSV_COLUMNS = (
    "bet",
    "strategy",
    "shoes",
    "rounds",
    "bets_made",
    "frequency",
    "average_edge",
    "share_positive",
    "units_per_shoe_exact_ev",
    "units_per_shoe_exact_ev_stderr",
    "units_per_shoe_realized",
    "units_per_shoe_realized_stderr",
    "units_per_100_rounds_exact_ev",
    "units_per_100_rounds_exact_ev_stderr",
    "units_per_100_rounds_realized",
    "units_per_100_rounds_realized_stderr",
    # The risk figures (issue 18), added at the end so that older readers keep working.
    "ev_per_round",
    "ev_per_round_stderr",
    "sd_per_round",
    "sd_per_round_stderr",
    "di",
    "di_stderr",
    "score",
    "score_stderr",
    "n0_rounds",
    "n0_rounds_stderr",
    "units_wagered",
    "roi",
    # every-round, or bet-rounds: then share_positive is empty (it needs every round's EV).
    "pricing",
)
_RISK_COLUMNS = ("ev_per_round", "sd_per_round", "di", "score", "n0_rounds")


def render_csv(result: SimulationResult) -> str:
    """One CSV row per bet (floats written with repr: every digit Python has; none: empty)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    figures = result.risk_figures
    for bet in result.bets():
        risk = figures.of(bet.name)
        cells = [
            "" if risk.get(key, {}).get(part) is None else repr(risk[key][part])
            for key in _RISK_COLUMNS
            for part in ("mean", "stderr")
        ]
        cells += [
            str(risk.get("units_wagered", "")),
            "" if risk.get("roi") is None else repr(risk["roi"]),
        ]
        estimates = (
            bet.units_per_shoe["exact_ev"],
            bet.units_per_shoe["realized"],
            bet.units_per_100_rounds["exact_ev"],
            bet.units_per_100_rounds["realized"],
        )
        writer.writerow(
            [
                bet.name,
                bet.strategy,
                result.tally.shoes,
                bet.rounds,
                bet.bets_made,
                repr(bet.frequency),
                repr(bet.average_edge),
                repr(bet.share_positive) if bet.every_round else "",
                *(
                    repr(value)
                    for estimate in estimates
                    for value in (estimate.mean, estimate.stderr)
                ),
                *cells,
                result.simulation.pricing,
            ]
        )
    return buffer.getvalue().rstrip("\n")
