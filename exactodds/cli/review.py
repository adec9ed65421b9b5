"""``exactodds review LOG``: a player's logged bets against the exact EV of every moment."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit
from exactodds.cli.files import check_writable, write_file
from exactodds.cli.options import apply_settings, built_options
from exactodds.cli.plots import figure_options, plot_option, write_plots
from exactodds.errors import ExactOddsError, in_words
from exactodds.inputs import read_file
from exactodds.interface import build_bets, build_rules, table_values
from exactodds.numbers import parse_number
from exactodds.report.registry import BINARY_FORMATS, render, render_bytes
from exactodds.rules import Rules
from exactodds.shoe import Shoe

if TYPE_CHECKING:
    from exactodds.studies.review import Review
    from exactodds.studies.review_log import BetLog
    from exactodds.web.store import StoredShoe
    from exactodds.web.tracker import TableSettings

#: The header's key for each library parameter a message may name.
_HEADER_KEYS = {"rules_file": "rules", "tie_loses": "ties", "pay": "pays", "selection": "bets"}


def _check_header(log: BetLog, settings: dict[str, Any]) -> None:
    """Build the rules and bets the header gives alone, so that a setting the options would
    refuse (a pay for a bet no file defines) names the header's line, not a flag."""
    from exactodds.studies.review_log import ReviewError

    assert log.header is not None
    try:
        rules = build_rules(
            settings.get("variant", "standard"),
            settings.get("commission"),
            settings.get("tie_pays", "8"),
            settings.get("tie_loses", False),
            settings.get("rules_file"),
            fee=settings.get("fee"),
        )
        build_bets(rules, "all", settings["pays"], None, settings["bet_files"])
    except ExactOddsError as error:
        reason = in_words(str(error), lambda name: _HEADER_KEYS.get(name, name)).rstrip(".")
        raise ReviewError(
            f"Line {log.header.line:,} of {log.source}: the header's settings: "
            f"{reason[:1].lower()}{reason[1:]}."
        ) from None


def _read_log(values: dict[str, Any]) -> None:
    """Read the log (or the tracked table) before the options are built, and set what its
    header (or the table's settings) says under them: an option given on the command line
    wins over such a setting; ``--table`` with one is one sentence (both give the table)."""
    from exactodds.studies.review_log import ReviewError, read_log

    database, table_id, stakes = (
        values.pop("database"),
        values.pop("table_id"),
        values.pop("stakes"),
    )
    if database is not None or table_id is not None:
        if values["log"] is not None:
            raise click.UsageError("Give a LOG, or --db with --table-id, not both.")
        if database is None or table_id is None:
            raise click.UsageError(
                "--db and --table-id go together: --db FILE names the tracker's database, "
                "--table-id ID a shoe of the table to review."
            )
        log, settings = _tracked_table(database, table_id, stakes)
        values["log"], given = log, f"the settings of {log.source}"
    else:
        if stakes:
            raise click.UsageError(
                "--stake places bets on a tracked table's rounds (--db); a LOG gives its own."
            )
        if values["log"] is None:
            raise click.UsageError(
                "Give a LOG (a file, or - for stdin), or --db FILE with --table-id ID."
            )
        document = read_file(values["log"], "the log", ReviewError)
        log = read_log(document.text, document.source)
        values["log"] = log
        if log.header is None:
            return
        settings = table_values(log.header.table)
        settings.pop("game")
        _check_header(log, settings)
        given = f"the header of {log.source} (line {log.header.line:,})"
    if values["table"] is not None:
        raise click.UsageError(
            f"--table {values['table']} and {given} both give the table; give one of them (an "
            "option such as --decks overrides one of its settings)."
        )
    apply_settings(values, settings)


def _stakes(texts: tuple[str, ...]) -> dict[str, Fraction]:
    """``--stake BET=STAKE`` texts as stakes (``banker=1`` when none is given)."""
    stakes: dict[str, Fraction] = {}
    for text in texts or ("banker=1",):
        name, equals, amount = (part.strip() for part in text.partition("="))
        try:
            stake = parse_number(amount, "--stake") if equals and name else None
        except ExactOddsError:
            stake = None
        if stake is None or stake <= 0:
            raise click.UsageError(
                f"--stake {text!r} is not a bet and a positive stake; give one such as banker=5."
            )
        stakes[name.lower()] = stake
    return stakes


def _table_chain(rows: list[dict[str, object]], table_id: int) -> list[int]:
    """The ids of the shoes of *table_id*'s table, in order: the shoes each "new shoe" linked."""
    before = {row["id"]: row["follows"] for row in rows}
    after = {row["follows"]: row["id"] for row in rows if row["follows"] is not None}
    first: object = table_id
    while before.get(first) is not None:
        first = before[first]
    chain = [first]
    while chain[-1] in after:
        chain.append(after[chain[-1]])
    return [int(str(shoe)) for shoe in chain]


def _dealt_rounds(shoe: StoredShoe) -> list[tuple[str, str]]:
    """The rounds of a tracked shoe, each (its cards in dealing order, the cards seen since
    the round before: burns shown, cards entered without a place, the cards of a misdeal)."""
    from exactodds.web.tracker import Round, table_state

    rounds = iter(table_state(shoe.settings, shoe.events).rounds)
    seen: list[str] = []
    dealt: list[tuple[str, str]] = []
    for event in shoe.events:
        if event.kind in ("card", "burn"):
            seen.append(event.cards)
        elif event.kind in ("end", "misdeal"):
            played = next(rounds)
            assert isinstance(played, Round)  # a Dragon Tiger table is refused before
            player, banker = played.player, played.banker
            if played.misdeal:  # any cards, voided: seen before the next round
                seen += [card.symbol for card in (*player, *banker)]
                continue
            cards = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
            dealt.append((" ".join(card.symbol for card in cards), " ".join(seen)))
            seen = []
    return dealt


def _tracked_table(
    database: Path, table_id: int, stake_texts: tuple[str, ...]
) -> tuple[BetLog, dict[str, Any]]:
    """The rounds a tracked table recorded, as a log whose every round carries the *stakes*
    (the tracker records cards, not bets), and the table's settings as option values."""
    from exactodds.studies.review_log import BetLog, LogLine, ReviewError
    from exactodds.web.store import Store

    stakes = _stakes(stake_texts)
    store = Store(database)
    try:
        rows = store.shoes(finished=True)
        if table_id not in {row["id"] for row in rows}:
            raise ReviewError(
                f"No tracked shoe has id {table_id} in the database {str(database)!r}; "
                "exactodds serve's GET /api/shoes lists them."
            )
        shoes = [store.shoe(shoe_id) for shoe_id in _table_chain(rows, table_id)]
    finally:
        store.close()
    source = f"the tracked table {shoes[0].name!r} (database {str(database)!r})"
    if shoes[0].settings.dragon_tiger is not None:
        raise ReviewError(
            f"{source[:1].upper()}{source[1:]} deals Dragon Tiger; review reviews baccarat "
            "tables (their rounds against the exact EV of the bets placed)."
        )
    if len({json.dumps(shoe.settings.to_dict(), sort_keys=True) for shoe in shoes}) > 1:
        raise ReviewError(
            f"The shoes of {source} were dealt with different settings; export each "
            "(GET /api/shoes/ID/export) and review it as a log."
        )
    rounds = [
        LogLine(0, str(shoe.id), cards, burn, stakes)
        for shoe in shoes
        for cards, burn in _dealt_rounds(shoe)
    ]
    if not rounds:
        raise ReviewError(f"{source[:1].upper()}{source[1:]} has no round recorded yet.")
    numbered = tuple(replace(line, line=number) for number, line in enumerate(rounds, 1))
    log = BetLog(numbered, tuple(stakes), source, dict.fromkeys(stakes, 1))
    return log, _tracked_settings(shoes[0].settings)


def _tracked_settings(settings: TableSettings) -> dict[str, Any]:
    """A tracked table's settings as the option values they stand for (by parameter name)."""
    data = settings.to_dict()
    values: dict[str, Any] = {
        "decks": data["decks"],
        "variant": data["variant"],
        "tie_pays": data["tie_pays"],
        "tie_loses": data["tie_loses"],
        "bet_files": (),
    }
    for key, parameter in (("commission", "commission"), ("rules", "rules_file"), ("fee", "fee")):
        if data.get(key) is not None:
            values[parameter] = data[key]
    pays = []
    for name, pay in (data["pay"] or {}).items():
        changes = pay.items() if isinstance(pay, dict) else [(None, pay)]
        pays += [f"{name}{'' if part is None else '.' + part}={value}" for part, value in changes]
    values["pays"] = tuple(pays)
    return values


@click.command(name="review")
@click.argument("log", metavar="LOG", required=False)
@built_options(all_bets=True, preset=_read_log)
@click.option(
    "--db",
    "database",
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The tracker's database (exactodds serve --db): review a tracked table's rounds "
    "instead of a LOG, with --table-id.",
)
@click.option(
    "--table-id",
    type=click.IntRange(min=1),
    metavar="ID",
    help="With --db: the table of the tracked shoe ID (GET /api/shoes lists them), every shoe "
    "of it that 'new shoe' linked, in order.",
)
@click.option(
    "--stake",
    "stakes",
    multiple=True,
    metavar="BET=STAKE",
    help="With --db, which records cards and not bets: a bet placed on every round, such as "
    "banker=5; may be repeated [default: banker=1].",
)
@click.option(
    "--count",
    "counts",
    multiple=True,
    metavar="[BET=]TAGS",
    help="A count's tags, as simulate's --play count:TAGS takes them (10 for A 2-9 and the "
    "ten-values, or 13 for A-K); BET= for one bet. Default: each bet's effect-of-removal count.",
)
@click.option(
    "--trigger",
    "triggers",
    multiple=True,
    metavar="[BET=]T",
    help="The true count at which the count model bets [default: the best fit].",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "markdown", "html", "pdf", "xlsx"]),
    default="table",
    show_default=True,
    help="Output format; json carries the exact fractions and every round; markdown, html, pdf "
    "and xlsx are the document a report files (pdf and xlsx need --output).",
)
@click.option(
    "--figures/--no-figures",
    default=True,
    show_default=True,
    help="Chart each bet's stake against its exact EV in the HTML page or the PDF (needs "
    "matplotlib, the 'plot' extra).",
)
@click.option(
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals shown."
)
@click.option("--exact", is_flag=True, help="In the table, money as exact fractions.")
@click.option("--wide", is_flag=True, help="Tables as wide as their columns.")
@plot_option
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    help="Write to FILE instead of stdout (whole or not at all).",
)
def review_command(
    log: BetLog,
    shoe: Shoe,
    rules: Rules,
    bets: list[Bet],
    counts: tuple[str, ...],
    triggers: tuple[str, ...],
    output_format: str,
    figures: bool,
    digits: int,
    exact: bool,
    wide: bool,
    plot_directory: str | None,
    output: str | None,
) -> None:
    """A player's logged bets against the exact EV: luck or skill? (docs/review.md)

    LOG is CSV or JSON lines (- for stdin), one round a line: its cards in dealing order and
    the bets placed on it (name and stake); a new value of "shoe" starts a fresh shoe; a
    header may give the table (options win over it). Or --db FILE --table-id ID: the rounds
    a tracked table recorded, with the --stake bets placed on every round. For
    each bet and in total: wagered, actual and theoretical results, the exact chance of doing
    at least as well by luck, the stakes' correlation with the exact EV and a count, the
    positive-EV rounds taken, and likelihood ratios of following the EV or the count.

    \b
    Examples:
      exactodds review examples/review/session.jsonl
      exactodds review log.csv --decks 6 --format json
      exactodds review log.jsonl --count dragon7=0,0,0,-1,-1,-1,-1,2,2,0 --trigger 4
      exactodds review log.jsonl --plot figures   # each bet's stake against its exact EV
      exactodds review log.jsonl --format pdf -o review.pdf   # the document, charts inside
      exactodds review --db tracker.sqlite3 --table-id 3 --stake banker=5
    """
    from exactodds.specs import review_spec
    from exactodds.studies.review import review

    figures = figures and output_format in ("html", "pdf")
    _check_output(output_format, output, figures)
    spec = review_spec(shoe, rules, bets, counts, triggers)
    result = review(log, spec)
    options = _figure_options(result, figures, plot_directory, output)
    if output_format in BINARY_FORMATS:
        assert output is not None
        content = render_bytes(result, output_format, digits=digits, **options)
        write_file(output, content, "the review")
    else:
        text = render(result, output_format, digits=digits, exact=exact, wide=wide, **options)
        if output is None:
            emit(text)
        else:
            write_file(output, (text + "\n").encode("utf-8"), "the review")
    if plot_directory is not None:
        from exactodds.report.review import review_figures

        write_plots(review_figures(result), plot_directory)


def _check_output(output_format: str, output: str | None, figures: bool) -> None:
    """Refuse, before any work, a file format without a file, or an extra that is missing."""
    if output_format in BINARY_FORMATS and output is None:
        raise click.UsageError(f"--format {output_format} writes a file; give --output FILE.")
    if output is not None:
        suffix = {"table": "txt", "markdown": "md"}.get(output_format, output_format)
        check_writable(output, "the review", f"review.{suffix}")
    if output_format == "xlsx":
        from exactodds.report.document.xlsx import require_openpyxl

        require_openpyxl("The xlsx review")
    if output_format == "pdf":
        from exactodds.report.document.pdf import require_fpdf

        require_fpdf()
    if figures:
        from exactodds.report.plots import require_matplotlib

        require_matplotlib()


def _figure_options(
    result: Review, figures: bool, plot_directory: str | None, output: str | None
) -> dict[str, Any]:
    """The charts each document format takes: inline SVG (HTML) and PNG (PDF) with *figures*,
    a link into the ``--plot`` folder (Markdown); each drawn once, when first asked for."""
    drawn: dict[str, Any] = {}

    def chart(bet: str) -> Any:
        from exactodds.report.review import stake_figure

        if bet not in drawn:
            drawn[bet] = stake_figure(result, bet)
        return drawn[bet]

    return figure_options(lambda bet, kind: chart(bet), figures, plot_directory, output)
