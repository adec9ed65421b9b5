"""Rendering of analyses: a terminal table, JSON and CSV.

JSON is a contract that tools parse: counts are JSON integers, exact values
are strings ``"n/d"`` in lowest terms (``"n"`` when whole), and every exact
value has a ``*_decimal`` companion rounded to the requested digits.  The data is
built here, not by the analysis, since its decimals are written at the reader's digits;
:func:`exactodds.report.registry.to_dict` hands it out.

>>> from exactodds import Rules, Shoe, analyze
>>> data = _analysis_dict(analyze(Shoe.standard(decks=8), Rules()), digits=10)
>>> data["outcomes"]["banker"]["decimal"], data["total"]
('0.4585974226', 4998398275503360)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from exactodds.analysis.rebates import RebateFigures, rebate_figures
from exactodds.analysis.single import Analysis, BetAnalysis
from exactodds.bets.bet import Bet
from exactodds.bets.catalogue import BetList
from exactodds.cards import Card
from exactodds.numbers import (
    decimal_string,
    fraction_string,
    percent_string,
    ratio_decimal_string,
    ratio_square_root_string,
    ratio_strings,
    return_to_player_ratio,
)
from exactodds.report.table import (
    TABLE_WIDTH,
    fitted_table,
    simple_table,
    wrapped_lines,
    wrapped_text,
)
from exactodds.report.writer import json_text, known_block, shoe_block
from exactodds.shoe import RANK_SYMBOLS

__all__ = [
    "batch_line",
    "batch_record",
    "render_bets_csv",
    "render_bets_json",
    "render_bets_table",
    "render_csv",
    "render_json",
    "render_table",
]

FORMATS = ("table", "json", "csv")


def _bet_dict(result: BetAnalysis, digits: int, fee: Fraction = Fraction(0)) -> dict[str, Any]:
    """One bet's figures as JSON-ready data; ``rtp`` is ``(1 + EV) / (1 + fee)``.

    Written from the bet's integers (counts, EV and variance numerators over their
    denominators): each exact field is reduced by one gcd and each decimal rounded in
    integers, with no Fraction arithmetic, since ``batch --full`` writes thousands of them.

    >>> from exactodds import Rules, Shoe, analyze
    >>> tie = _bet_dict(analyze(Shoe.standard(decks=8), Rules()).bets["tie"], 6)
    >>> tie["house_edge_percent"], tie["pays"], tie["rtp_decimal"]
    ('14.3596%', {'lose': '-1', 'win': '8'}, '0.856404')
    >>> _bet_dict(analyze(Shoe.standard(decks=8), Rules()).bets["tie"], -1)
    Traceback (most recent call last):
    ...
    ValueError: digits must be at least 0, not -1.
    """
    bet = result.bet
    total = result.total
    numerator, denominator = result.moment_ratio()
    ev, ev_decimal, edge, edge_decimal = ratio_strings(numerator, denominator, digits)
    data: dict[str, Any] = {
        "computable": True,
        "description": bet.description,
        "ev": ev,
        "ev_decimal": ev_decimal,
        "house_edge": edge,
        "house_edge_decimal": edge_decimal,
    }
    data["rtp"], data["rtp_decimal"] = ratio_strings(
        *return_to_player_ratio(numerator, denominator, fee), digits
    )[:2]
    per_resolved = result.house_edge_per_resolved_ratio()
    data["house_edge_per_resolved_bet"], data["house_edge_per_resolved_bet_decimal"] = (
        (None, None) if per_resolved is None else ratio_strings(*per_resolved, digits)[:2]
    )
    loss, push, win = result.sign_counts
    for key, count in (("win", win), ("push", push), ("loss", loss)):
        data[f"{key}_probability"], data[f"{key}_probability_decimal"] = ratio_strings(
            count, total, digits
        )[:2]
    variance = result.variance_ratio()
    data["variance"], data["variance_decimal"] = ratio_strings(*variance, digits)[:2]
    data["hit_frequency"] = data["win_probability"]
    data["hit_frequency_decimal"] = data["win_probability_decimal"]
    data["house_edge_percent"] = (
        ratio_decimal_string(-numerator * 100, denominator, max(digits - 2, 0)) + "%"
    )
    data["standard_deviation_decimal"] = ratio_square_root_string(*variance, digits)
    pay_texts, result_texts, result_of = _pay_layout(bet)
    data["pays"] = dict(pay_texts)
    data["outcome_counts"] = dict(result.outcome_counts)
    by_result = [0] * len(result_texts)
    for outcome, count in data["outcome_counts"].items():
        if outcome not in result_of:
            bet.pay(outcome)  # raises the bet's own error for an outcome it cannot pay
        by_result[result_of[outcome]] += count
    distribution = []
    for text, count in zip(result_texts, by_result, strict=True):
        if count:
            exact, rounded = ratio_strings(count, total, digits)[:2]
            distribution.append({"result": text, "probability": exact, "decimal": rounded})
    data["distribution"] = distribution
    return data


def _rebate_dict(figures: RebateFigures, fee: Fraction, digits: int) -> dict[str, Any]:
    """A bet's figures under a rebate, per unit staked, exact and decimal (the loss rebate over
    ``loss_trip_rounds`` rounds).

    >>> from exactodds import Rules, Shoe, analyze
    >>> from exactodds.rules import Rebate
    >>> banker = analyze(Shoe.standard(decks=8), Rules()).bets["banker"]
    >>> data = _rebate_dict(rebate_figures(banker, Rebate(loss="10%")), Fraction(0), 6)
    >>> data["loss_trip_rounds"], data["effective_house_edge_decimal"]
    (1, '-0.034046')
    """
    data: dict[str, Any] = {"loss_trip_rounds": figures.trip_rounds}
    for key, value in (
        ("turnover", figures.turnover),
        ("expected_loss", figures.expected_loss),
        ("rolling_value", figures.rolling_value),
        ("loss_value", figures.loss_value),
        ("value", figures.value),
        ("effective_ev", figures.effective_expected_value),
        ("effective_house_edge", figures.effective_house_edge),
        ("effective_rtp", figures.effective_return_to_player(fee)),
    ):
        data[key] = fraction_string(value)
        data[f"{key}_decimal"] = decimal_string(value, digits)
    return data


@lru_cache(maxsize=1024)
def _pay_layout(
    bet: Bet,
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], dict[str, int]]:
    """A bet's pays as text; its distinct net results as text, ascending; each outcome's result."""
    table = bet.pay_table
    results = sorted(set(table.values()))
    place = {pay: index for index, pay in enumerate(results)}
    return (
        tuple((outcome, fraction_string(pay)) for outcome, pay in table.items()),
        tuple(fraction_string(pay) for pay in results),
        {outcome: place[pay] for outcome, pay in table.items()},
    )


def _analysis_dict(analysis: Analysis, digits: int) -> dict[str, Any]:
    """The whole analysis as JSON-ready data (the ``--format json`` contract).

    An analysis given known cards (a :class:`~exactodds.analysis.known.KnownAnalysis`)
    ends with their block.
    """
    data: dict[str, Any] = {
        "shoe": shoe_block(analysis.shoe),
        "rules": analysis.rules.to_dict(),
        "total": analysis.total,
        "outcomes": {
            name: {
                "count": outcome.count,
                "probability": fraction_string(outcome.probability),
                "decimal": decimal_string(outcome.probability, digits),
            }
            for name, outcome in analysis.outcomes.items()
        },
        "bets": {name: _any_bet_dict(analysis, name, digits) for name in _bet_names(analysis)},
    }
    known = _known_cards(analysis)
    if known is not None:
        data["known"] = known_block(known)
    return data


def _known_cards(analysis: Analysis) -> Mapping[int, Card] | None:
    """The cards known in advance, for an analysis given known cards (else ``None``).

    Read as an attribute, so that an analysis of a whole shoe never imports the known-card walk.
    """
    known: Mapping[int, Card] | None = getattr(analysis, "known", None)
    return known


def _bet_names(analysis: Analysis) -> tuple[str, ...]:
    return analysis.bet_names or tuple(analysis.bets)


def _any_bet_dict(analysis: Analysis, name: str, digits: int) -> dict[str, Any]:
    if name in analysis.bets:
        data = _bet_dict(analysis.bets[name], digits, analysis.rules.fee)
        rebate = analysis.rules.rebate
        if rebate:
            figures = rebate_figures(analysis.bets[name], rebate)
            data["rebate"] = _rebate_dict(figures, analysis.rules.fee, digits)
        return data
    return {"computable": False, "reason": analysis.unavailable[name]}


def batch_record(analysis: Analysis, digits: int, full: bool = False) -> dict[str, Any]:
    """One shoe's line of ``exactodds batch`` output.

    ``bets`` has the shape of ``exactodds odds --format json``: by default
    each bet carries its exact and decimal EV and house edge (and
    ``computable``), and its ``rtp`` too when the rules charge a fee; with *full*,
    every field ``odds`` gives.

    >>> from exactodds import Shoe, analyze
    >>> record = batch_record(analyze(Shoe.standard(decks=1)), 4)
    >>> record["bets"]["tie"]
    {'computable': True, 'ev': '-2003549/12724075', 'ev_decimal': '-0.1575', 'house_edge': '2003549/12724075', 'house_edge_decimal': '0.1575'}
    """
    bets: dict[str, Any] = {}
    fee = analysis.rules.fee
    for name in _bet_names(analysis):
        if full or name not in analysis.bets:
            bets[name] = _any_bet_dict(analysis, name, digits)
            continue
        fast = getattr(analysis.bets, "expected_value_ratio", None)
        numerator, denominator = fast(name) if fast else analysis.bets[name].moment_ratio()
        ev, ev_decimal, edge, edge_decimal = ratio_strings(numerator, denominator, digits)
        bets[name] = {
            "computable": True,
            "ev": ev,
            "ev_decimal": ev_decimal,
            "house_edge": edge,
            "house_edge_decimal": edge_decimal,
        }
        if fee:
            bets[name]["rtp"], bets[name]["rtp_decimal"] = ratio_strings(
                *return_to_player_ratio(numerator, denominator, fee), digits
            )[:2]
    return {
        "shoe": {"cards": analysis.shoe.cards, "ranks": analysis.shoe.to_dict()},
        "total": analysis.total,
        "outcomes": {name: outcome.count for name, outcome in analysis.outcomes.items()},
        "bets": bets,
    }


def batch_line(analysis: Analysis, digits: int, full: bool = False) -> str:
    """``json.dumps(batch_record(...))``, built as text: the batch command's hot path.

    Every value is a number or a string of digits, signs, ``/`` and ``.``,
    and names are escaped as JSON, so the text is exactly what ``json.dumps``
    writes, at a fraction of the cost.

    >>> from exactodds import Shoe, analyze
    >>> result = analyze(Shoe.standard(decks=1))
    >>> batch_line(result, 4) == json.dumps(batch_record(result, 4))
    True
    >>> from exactodds import Rules
    >>> result = analyze(Shoe.standard(decks=1), Rules(fee="1/5"))
    >>> batch_line(result, 4) == json.dumps(batch_record(result, 4))
    True
    """
    if full:
        return json.dumps(batch_record(analysis, digits, True))
    fast = getattr(analysis.bets, "expected_value_ratio", None)
    unavailable = analysis.unavailable
    fee = analysis.rules.fee
    parts = []
    for name in _bet_names(analysis):
        key = _json_text(name)
        if name in unavailable:
            parts.append(f"{key}: {json.dumps(_any_bet_dict(analysis, name, digits))}")
            continue
        numerator, denominator = fast(name) if fast else analysis.bets[name].moment_ratio()
        ev, ev_decimal, edge, edge_decimal = ratio_strings(numerator, denominator, digits)
        rtp = ""
        if fee:
            exact, rounded = ratio_strings(
                *return_to_player_ratio(numerator, denominator, fee), digits
            )[:2]
            rtp = f', "rtp": "{exact}", "rtp_decimal": "{rounded}"'
        parts.append(
            f'{key}: {{"computable": true, "ev": "{ev}", "ev_decimal": "{ev_decimal}", '
            f'"house_edge": "{edge}", "house_edge_decimal": "{edge_decimal}"{rtp}}}'
        )
    shoe = analysis.shoe
    ranks = ", ".join(
        f'"{symbol}": {count}' for symbol, count in zip(RANK_SYMBOLS, shoe.rank_counts, strict=True)
    )
    outcomes = ", ".join(
        f"{_json_text(name)}: {outcome.count}" for name, outcome in analysis.outcomes.items()
    )
    return (
        f'{{"shoe": {{"cards": {shoe.cards}, "ranks": {{{ranks}}}}}, "total": {analysis.total}, '
        f'"outcomes": {{{outcomes}}}, "bets": {{{", ".join(parts)}}}}}'
    )


@lru_cache(maxsize=4096)
def _json_text(name: str) -> str:
    return json.dumps(name)


def render_json(analysis: Analysis, digits: int) -> str:
    """The analysis as pretty-printed JSON."""
    return json_text(_analysis_dict(analysis, digits))


def render_table(
    analysis: Analysis,
    digits: int,
    exact: bool = False,
    wide: bool = False,
) -> str:
    """The analysis as text tables for a terminal.

    With *exact*, exact fractions are shown beside the decimals; the cards known in advance,
    if any, are a line under the rules.  Every line fits :data:`TABLE_WIDTH` columns unless
    *wide*: prose is wrapped, and a bets' table too wide is split in two, each led by the bet:
    what a bet costs (EV, exact EV, house edges), then how it lands (win, push, loss, standard
    deviation); *wide* keeps one table, the exact EV last.

    >>> from exactodds import Rules, Shoe, analyze
    >>> text = render_table(analyze(Shoe.standard(decks=8), Rules()), 10)
    >>> print(text.splitlines()[0])
    Shoe: 416 cards (8 decks), suits known
    >>> max(map(len, text.splitlines())), max(map(len, render_table(
    ...     analyze(Shoe.standard(decks=8), Rules()), 10, wide=True).splitlines()))
    (100, 125)
    >>> render_table(analyze(Shoe.standard(decks=8), Rules()), -1)
    Traceback (most recent call last):
    ...
    ValueError: digits must be at least 0, not -1.
    """
    width = None if wide else TABLE_WIDTH
    known = _known_cards(analysis)
    if known:
        from exactodds.engine.known import describe_known

    lines = [
        f"Shoe: {analysis.shoe.describe()}",
        f"Rules: {analysis.rules.describe()}",
        *([f"Known: {describe_known(known)}"] if known else []),
        f"Rounds: {analysis.total:,} ordered six-card sequences",
        "",
    ]
    outcome_headers = ["Outcome", "Combinations", "Probability"] + (["Exact"] if exact else [])
    outcome_rows = []
    for name, outcome in analysis.outcomes.items():
        row = [name.capitalize(), f"{outcome.count:,}", decimal_string(outcome.probability, digits)]
        if exact:
            row.append(fraction_string(outcome.probability))
        outcome_rows.append(row)
    outcome_alignments = ("left", "right", "right") + (("right",) if exact else ())
    lines.append(fitted_table(outcome_rows, outcome_headers, outcome_alignments, width))
    lines.append("")
    bet_headers, bet_rows, notes = _bet_table(analysis, digits, exact)
    if width is not None and exact:  # the exact EV beside the EV, in the first table
        bet_headers.insert(2, bet_headers.pop())
        for row in bet_rows:
            row.insert(2, row.pop())
    lands = bet_headers.index("Win")
    bet_alignments = ("left",) + ("right",) * (len(bet_headers) - 1)
    lines.append(fitted_table(bet_rows, bet_headers, bet_alignments, width, breaks=(lands,)))
    if analysis.rules.rebate:
        lines += ["", *_rebate_table(analysis, digits, exact, width)]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines if width is None else wrapped_lines(lines, width))


def _bet_table(
    analysis: Analysis, digits: int, exact: bool
) -> tuple[list[str], list[list[str]], list[str]]:
    """The bets' table (headers, rows) and a note for each bet that is not computable."""
    percent_digits = max(digits - 2, 0)
    bet_headers = [
        "Bet",
        "EV",
        "House edge",
        "Edge (no pushes)",
        "RTP",
        "Win",
        "Push",
        "Loss",
        "Std dev",
    ] + (["Exact EV"] if exact else [])
    bet_rows = []
    notes = []
    for name in _bet_names(analysis):
        if name not in analysis.bets:
            bet_rows.append([name, "not computable"] + ["-"] * (len(bet_headers) - 2))
            notes.append(f"{name}: {analysis.unavailable[name]}")
            continue
        result = analysis.bets[name]
        per_resolved = result.house_edge_per_resolved_bet
        row = [
            name,
            decimal_string(result.expected_value, digits),
            percent_string(result.house_edge, percent_digits),
            "-" if per_resolved is None else percent_string(per_resolved, percent_digits),
            percent_string(result.return_to_player(analysis.rules.fee), percent_digits),
            decimal_string(result.win_probability, digits),
            decimal_string(result.push_probability, digits),
            decimal_string(result.loss_probability, digits),
            result.standard_deviation(digits),
        ]
        if exact:
            row.append(fraction_string(result.expected_value))
        bet_rows.append(row)
    return bet_headers, bet_rows, notes


def _rebate_table(analysis: Analysis, digits: int, exact: bool, width: int | None) -> list[str]:
    """The rebate's section: what it pays per unit staked and the effective EV, edge and RTP."""
    percent_digits = max(digits - 2, 0)
    rebate = analysis.rules.rebate
    headers = ["Bet", "Rebate", "Effective EV", "Effective edge", "Effective RTP"]
    headers += ["Exact effective EV"] if exact else []
    rows = []
    for name in _bet_names(analysis):
        if name not in analysis.bets:
            continue
        figures = rebate_figures(analysis.bets[name], rebate)
        row = [
            name,
            decimal_string(figures.value, digits),
            decimal_string(figures.effective_expected_value, digits),
            percent_string(figures.effective_house_edge, percent_digits),
            percent_string(figures.effective_return_to_player(analysis.rules.fee), percent_digits),
        ]
        rows.append(row + ([fraction_string(figures.effective_expected_value)] if exact else []))
    if not rebate.loss:
        trip = ""
    elif rebate.trip_rounds == 1:
        trip = (
            "; the loss rebate over a trip of one round, its most per unit staked (over a longer "
            "trip wins offset losses before it is paid)"
        )
    else:
        trip = (
            f"; the loss rebate over a trip of {rebate.trip_rounds:,} independent rounds of the "
            "bet, one unit each, exactly"
        )
    alignments = ("left",) + ("right",) * (len(headers) - 1)
    return [
        f"With the rebate, per unit staked{trip}:",
        fitted_table(rows, headers, alignments, width),
    ]


CSV_COLUMNS = (
    "kind",
    "name",
    "count",
    "probability",
    "probability_decimal",
    "ev",
    "ev_decimal",
    "house_edge",
    "house_edge_decimal",
    "rtp",
    "rtp_decimal",
    "house_edge_per_resolved_bet",
    "house_edge_per_resolved_bet_decimal",
    "win_probability",
    "push_probability",
    "loss_probability",
    "variance",
    "variance_decimal",
    "standard_deviation_decimal",
    "computable",
    "reason",
)

#: The columns a rebate adds to the CSV (``rebate_`` and each key of a bet's JSON ``rebate``).
REBATE_CSV_COLUMNS = (
    *(
        f"rebate_{key}{suffix}"
        for key in (
            "turnover",
            "expected_loss",
            "rolling_value",
            "loss_value",
            "value",
            "effective_ev",
            "effective_house_edge",
            "effective_rtp",
        )
        for suffix in ("", "_decimal")
    ),
    "rebate_loss_trip_rounds",
)


def render_csv(analysis: Analysis, digits: int) -> str:
    """The analysis as CSV: one row per outcome, then one row per bet.

    >>> from exactodds import Rules, Shoe, analyze
    >>> print(render_csv(analyze(Shoe.standard(decks=8), Rules()), 4).splitlines()[1])
    outcome,banker,2292252566437888,8954111587648/19524993263685,0.4586,,,,,,,,,,,,,,,,
    """
    import csv
    import io

    buffer = io.StringIO()
    rebate = bool(analysis.rules.rebate)
    columns = CSV_COLUMNS + (REBATE_CSV_COLUMNS if rebate else ())
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for name, outcome in analysis.outcomes.items():
        writer.writerow(
            {
                "kind": "outcome",
                "name": name,
                "count": outcome.count,
                "probability": fraction_string(outcome.probability),
                "probability_decimal": decimal_string(outcome.probability, digits),
            }
        )
    for name in _bet_names(analysis):
        data = _any_bet_dict(analysis, name, digits)
        row = {column: data[column] for column in CSV_COLUMNS[5:] if column in data}
        row["computable"] = "true" if data["computable"] else "false"
        if rebate and "rebate" in data:
            row |= {f"rebate_{key}": value for key, value in data["rebate"].items()}
        writer.writerow({"kind": "bet", "name": name} | row)
    return buffer.getvalue().rstrip("\n")


def render_bets_json(listing: BetList) -> str:
    """A list of bets with their pays as JSON (:meth:`~exactodds.bets.catalogue.BetList.to_dict`).

    >>> from exactodds.bets.catalogue import BetList, select_bets
    >>> print(render_bets_json(BetList.of(select_bets("dragon7"))).splitlines()[3])
        "needs_suits": false,
    """
    return json_text(listing.to_dict())


def _bet_rows(listing: BetList) -> list[list[str]]:
    return [
        [bet.name, outcome, fraction_string(pay), bet.description]
        for bet in listing.bets
        for outcome, pay in bet.pay_table.items()
    ]


def render_bets_csv(listing: BetList) -> str:
    """A list of bets as CSV: one row per bet and outcome.

    >>> from exactodds.bets.catalogue import BetList, select_bets
    >>> print(render_bets_csv(BetList.of(select_bets("dragon7"))))
    bet,outcome,pays,description
    dragon7,lose,-1,Banker wins with a three-card 7.
    dragon7,win,40,Banker wins with a three-card 7.
    """
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["bet", "outcome", "pays", "description"])
    writer.writerows(_bet_rows(listing))
    return buffer.getvalue().rstrip("\n")


def render_bets_table(listing: BetList, wide: bool = False) -> str:
    """A list of bets with their outcomes and pays as a table.

    The pays and descriptions are wrapped to fit :data:`TABLE_WIDTH` columns, unless *wide*.

    >>> from exactodds.bets.catalogue import BetList, select_bets
    >>> print(render_bets_table(BetList.of(select_bets("tie"))))
    Bet    Pays (to 1)     Description
    -----  --------------  --------------
    tie    lose -1, win 8  The hands tie.
    """
    bets = listing.bets
    table_rows = []
    for bet in bets:
        pays = ", ".join(
            f"{outcome} {fraction_string(pay)}" for outcome, pay in bet.pay_table.items()
        )
        table_rows.append(
            [bet.name, pays, bet.description + (" (needs suits)" if bet.needs_suits else "")]
        )
    names = max([len("Bet"), *(len(row[0]) for row in table_rows)])
    room = TABLE_WIDTH - names - 4  # two gaps of two spaces
    if not wide and sum(max(len(row[column]) for row in table_rows) for column in (1, 2)) > room:
        pays_width = max(
            len("Pays (to 1)"), min(room * 2 // 5, max(len(row[1]) for row in table_rows))
        )
        description_width = room - pays_width
        for row in table_rows:
            row[1] = wrapped_text(row[1], pays_width)
            row[2] = wrapped_text(row[2], description_width)
    return simple_table(table_rows, ["Bet", "Pays (to 1)", "Description"], ("left",) * 3)
