"""``exactodds audit``: can a bet be beaten? The countability audit, and pay tables designed against it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, note_pure_python
from exactodds.cli.files import check_writable, write_file
from exactodds.cli.header import Header, RecordingCommand, header_options
from exactodds.cli.options import (
    DEALT_DECKS,
    built_options,
    click_option,
    overlay_for_run,
    refuse_walked_card_bets,
    rounds_asked,
    say_overlay_time,
)
from exactodds.cli.progress import finish_progress, progress_line
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.rules import Rules

if TYPE_CHECKING:
    from exactodds.games.dragon_tiger import DragonTigerTable
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.studies.audit import AuditSpec
    from exactodds.studies.parsheet import SheetIdentity

#: The formats written to a file only (binary), and those --design writes.
_FILE_FORMATS = ("pdf", "xlsx")
_DESIGN_FORMATS = ("table", "json", "markdown", "html")
#: The file name an empty -o is offered, by format.
_SUFFIXES = {"table": "txt", "json": "json", "markdown": "md", "html": "html"} | {
    name: name for name in _FILE_FORMATS
}


@click.command(name="audit", cls=RecordingCommand)
@built_options(shoe=False, keep_values=True, games=True, card_bets=True)
@click.option("--decks", type=DEALT_DECKS, default=8, show_default=True, help="Decks in the shoe.")
@click.option("--cut", type=int, default=14, show_default=True, help="Cards behind the cut card.")
@click.option(
    "--burn",
    default="standard",
    show_default=True,
    metavar="standard|none|K",
    help="The burn rule, as simulate has it.",
)
@click.option(
    "--cut-first-rounds",
    type=int,
    default=None,
    help="Rounds dealt when the cut card is the first card of a round (Jacobson deals 1).",
)
@click.option(
    "--budget",
    type=int,
    default=None,
    help="Shoes per candidate count and per simulated figure [default: 500].",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the search's shoes.")
@click.option(
    "--depths",
    default="18,26",
    show_default=True,
    metavar="K1,K2,...",
    help="Cards left of the exact depth tables ('none' for none).",
)
@click.option(
    "--cuts",
    default=None,
    metavar="C1,C2,...",
    help="Cut-card positions of the countermeasure table [default: the cut, and 1/8 to 1/2 "
    "of the shoe].",
)
@click.option(
    "--safe-units",
    default="0.1",
    show_default=True,
    help="Safe below this many units per 100 rounds.",
)
@click.option(
    "--safe-per-hour",
    default=None,
    help="Safe below this much money an hour too (betting --max-bet at --rounds-per-hour); the "
    "stricter threshold decides [default: none].",
)
@click.option(
    "--max-bet", default="100", show_default=True, help="The table's maximum bet, in money."
)
@click.option(
    "--rounds-per-hour", type=int, default=70, show_default=True, help="Rounds dealt an hour."
)
@click.option(
    "--confidence",
    default="95%",
    show_default=True,
    help="Safe only when the win's one-sided upper bound at this confidence is below the "
    "threshold.",
)
@click.option(
    "--design",
    "design_ranges",
    multiple=True,
    metavar="OUTCOME=LOW..HIGH",
    help="Design pay tables: the pays OUTCOME may take (whole steps, half steps if an end is a "
    "half). May be repeated, one per outcome.",
)
@click.option(
    "--target-edge", default="5%..8%", show_default=True, help="The house-edge window of --design."
)
@click.option(
    "--design-top", type=int, default=3, show_default=True, help="Tables of --design to audit."
)
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Processes.")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Run on a Dask scheduler.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "markdown", "html", "pdf", "xlsx"]),
    default="table",
    show_default=True,
    help="Output format; json carries the exact fractions; markdown, html, pdf and xlsx carry "
    "the par sheet's identification header; pdf and xlsx need --output.",
)
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    help="Write to FILE instead of stdout (whole or not at all: exit 1 when it cannot be).",
)
@header_options(
    "The title in the header (default: Countability audit).",
    "The header's date (default: today, UTC).",
)
@click.option(
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals shown."
)
@click.option("--quiet", is_flag=True, help="No progress line.")
@click_option(MULTIPLIERS_OPTION)
def audit_command(
    rules: Rules,
    bets: list[Bet],
    option_values: dict[str, Any],
    header: Header,
    decks: int,
    cut: int,
    burn: str,
    cut_first_rounds: int | None,
    budget: int | None,
    seed: int,
    depths: str,
    cuts: str | None,
    safe_units: str,
    safe_per_hour: str | None,
    max_bet: str,
    rounds_per_hour: int,
    confidence: str,
    design_ranges: tuple[str, ...],
    target_edge: str,
    design_top: int,
    jobs: int,
    dask_address: str | None,
    output_format: str,
    output: str | None,
    digits: int,
    quiet: bool,
    game: DragonTigerTable | None,
    multipliers: str | None = None,
) -> None:
    """Can this bet be beaten? Exact edge, effects of removal, the best count found, the
    perfect-play bound, the win by cut card and a verdict; or, with --design, every pay table
    in ranges whose exact house edge is in a window, least vulnerable first.

    Simulated figures are estimates with standard errors, on fresh shoes (seed + 1): the
    found count's line in simulate with that seed gives them again.

    \b
    Examples:
      exactodds audit --bets dragon7
      exactodds audit --bets dragon7 --budget 200 --depths none --format json
      exactodds audit --bet-file mybet.toml --decks 6 --cut 20
      exactodds audit --bets dragon7 --design win=30..45 --target-edge 5%..8%
      exactodds audit --game dragon-tiger --bets big,small --budget 200
      exactodds audit --table golden_wealth --bets tie --budget 20 --depths none
    """
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.specs import audit_spec
    from exactodds.studies.audit import DEFAULT_BUDGET, audit_seconds

    # The shoes an audit deals: its budget for the search, the found count, perfect play and
    # each cut (five by default); bounded by the options' own checks before this.
    steps = 2 + (len(cuts.split(",")) if cuts else 5)
    rounds = rounds_asked((budget or DEFAULT_BUDGET) * steps, 52 * decks, cut)
    if multipliers is not None and (game is not None or design_ranges):
        raise click.UsageError(
            "--multipliers applies to an audit of baccarat's bets; leave it out with "
            "--game dragon-tiger or --design (a pay table is designed without an overlay)."
        )
    if game is not None:
        from exactodds.cli.dragon_tiger import dragon_tiger_audit_command

        chosen: dict[str, Any] = {"decks": decks, "cut": cut, "budget": budget, "seed": seed}
        chosen |= {"safe_units": safe_units, "safe_per_hour": safe_per_hour, "max_bet": max_bet}
        chosen |= {"rounds_per_hour": rounds_per_hour, "confidence": confidence}
        chosen |= {"output_format": output_format, "output": output, "digits": digits}
        dragon_tiger_audit_command(game, chosen)
        return
    refuse_walked_card_bets("audit", bets, rules, rounds)
    # Resolved and bounded now; its time is said once the spec has checked the bets.
    overlay = overlay_for_run("audit", multipliers, rounds * len(bets), True)
    note_pure_python(quiet)
    _check_design_options(bool(design_ranges))
    _check_output(output_format, output, bool(design_ranges), jobs, dask_address)
    identity = header.identity(option_values, "Countability audit")
    procedure = DealingProcedure(decks=decks, cut=cut, burn=burn, cut_first_rounds=cut_first_rounds)
    progress = progress_line(quiet, "audit")
    run = {"jobs": jobs, "dask": dask_address, "progress": progress}
    text: str | bytes
    if design_ranges:
        design = (design_ranges, target_edge, design_top)
        text = _design(bets, rules, procedure, design, budget, seed, run, output_format, digits)
    else:
        spec = audit_spec(
            bets,
            rules,
            procedure,
            budget=budget,
            seed=seed,
            depths=depths,
            cuts=cuts,
            safe_units=safe_units,
            safe_per_hour=safe_per_hour,
            max_bet=max_bet,
            rounds_per_hour=rounds_per_hour,
            confidence=confidence,
            overlay=overlay,
        )
        _note_walked(audit_seconds(spec), spec.budget)
        given = command_options(option_values)
        if multipliers is not None:
            given += ("--multipliers", multipliers)
            if not quiet:
                say_overlay_time(multipliers, rounds * len(bets))
        text = _audit(spec, run, output_format, digits, identity, given)
    finish_progress(progress)
    if output is None:
        assert isinstance(text, str)
        emit(text)
        return
    data = text.encode("utf-8") + b"\n" if isinstance(text, str) else text
    write_file(output, data, "the audit")


#: An audit estimated to take longer than this is announced before it starts.
_ANNOUNCED_SECONDS = 60


def _note_walked(seconds: dict[str, float], budget: int) -> None:
    """Say on stderr, before the work, how long the bets only the exact walk prices take."""
    slow = {name: time for name, time in seconds.items() if time > _ANNOUNCED_SECONDS}
    if not slow:
        return
    names = ", ".join(slow)
    click.echo(
        f"Note: {names} {'is' if len(slow) == 1 else 'are'} priced round by round by the exact "
        "walk (a pair condition with other conditions), so this audit takes about "
        f"{_duration(sum(slow.values()))} here; a smaller --budget (now {budget}) is faster.",
        err=True,
    )


def _duration(seconds: float) -> str:
    """*seconds* in words, to two figures: ``40 seconds``, ``12 minutes``, ``4.1 hours``."""
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.2g} hours"


def command_options(option_values: dict[str, Any]) -> tuple[str, ...]:
    """The rules and bet options given (all but ``--bets``), as words of a command line that
    ``simulate`` takes: what the reproduction line needs to price the same bets at the same
    rules.

    >>> command_options({"variant": "ez", "pays": ("dragon7=30",), "selection": "dragon7",
    ...                  "tie_loses": False, "bet_files": ()})
    ('--variant', 'ez', '--pay', 'dragon7=30')
    """
    from exactodds.interface import BET_OPTIONS, RULES_OPTIONS

    words: list[str] = []
    for option in (*RULES_OPTIONS, *BET_OPTIONS):
        value = option_values.get(option.parameter)
        if option.parameter == "selection" or value in (None, False, (), option.default):
            continue
        if option.is_flag:
            words.append(option.flag)
            continue
        for one in value if option.multiple else (value,):
            words += [option.flag, str(one)]
    return tuple(words)


def _check_design_options(design: bool) -> None:
    """Refuse --target-edge or --design-top given without --design (they would be ignored)."""
    if design:
        return
    context = click.get_current_context()
    for name, option in (("target_edge", "--target-edge"), ("design_top", "--design-top")):
        if context.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT):
            raise click.UsageError(
                f"{option} applies to pay-table design only; give --design OUTCOME=LOW..HIGH "
                f"with it, or leave {option} out."
            )


def _check_output(
    output_format: str, output: str | None, design: bool, jobs: int, dask_address: str | None
) -> None:
    """Refuse, before any work, an output that cannot be written or an extra that is missing."""
    if output_format in _FILE_FORMATS and output is None:
        raise click.UsageError(f"--format {output_format} writes a file; give --output FILE.")
    if design and output_format not in _DESIGN_FORMATS:
        raise click.UsageError(
            f"--design writes {', '.join(_DESIGN_FORMATS[:-1])} or {_DESIGN_FORMATS[-1]}, not "
            f"{output_format}."
        )
    if dask_address is not None and jobs != 1:
        raise click.UsageError("--jobs and --dask both choose where to run; give one of them.")
    if output is not None:
        check_writable(output, "the audit", f"audit.{_SUFFIXES[output_format]}")
    if output_format == "xlsx":
        from exactodds.report.document.xlsx import require_openpyxl

        require_openpyxl("The xlsx audit")
    if output_format == "pdf":
        from exactodds.report.document.pdf import require_fpdf

        require_fpdf()


def _audit(
    spec: AuditSpec,
    run: dict[str, Any],
    output_format: str,
    digits: int,
    identity: SheetIdentity,
    given: tuple[str, ...],
) -> str | bytes:
    """The audit of *spec*, rendered (the header's *identity* in every format but the table;
    *given*, the rules and bet options, in its reproduction lines)."""
    from dataclasses import replace

    from exactodds.report.registry import BINARY_FORMATS, render, render_bytes
    from exactodds.studies.audit import audit

    result = replace(audit(spec, **run), command_options=given)
    shown = identity if output_format != "table" else None
    if output_format in BINARY_FORMATS:
        return render_bytes(result, output_format, digits=digits, identity=shown)
    return render(result, output_format, digits=digits, identity=shown)


def _design(
    bets: list[Bet],
    rules: Rules,
    procedure: DealingProcedure,
    design: tuple[tuple[str, ...], str, int],
    budget: int | None,
    seed: int,
    run: dict[str, Any],
    output_format: str,
    digits: int,
) -> str:
    """``--design``: the pay tables of the one bet in the ranges, rendered."""
    from exactodds.report.registry import render
    from exactodds.specs import parse_edge_window, parse_pay_range
    from exactodds.studies.audit import DEFAULT_BUDGET, walked_seconds
    from exactodds.studies.design import design_paytables

    texts, target_edge, top = design
    if len(bets) != 1:
        raise click.UsageError("--design designs one bet's pay table; name one with --bets.")
    ranges = [parse_pay_range(text) for text in texts]
    window = parse_edge_window(target_edge)
    shoes = budget if budget is not None else DEFAULT_BUDGET
    if top > 0:  # each table audited: the search's shoes and the found count's
        seconds = walked_seconds(bets[0], rules, procedure, 2 * shoes * top)
        _note_walked({bets[0].name: seconds} if seconds is not None else {}, shoes)
    found = design_paytables(
        bets[0], ranges, window, rules, procedure, top=top, budget=shoes, seed=seed, **run
    )
    return render(found, output_format, digits=digits)
