"""``exactodds simulate``: shoes dealt in sequence, with the exact edge of every hand."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import emit, note_pure_python, signals_request_stop, usage_error
from exactodds.cli.options import (
    DEALT_DECKS,
    built_options,
    click_option,
    overlay_for_run,
    refuse_multipliers,
    refuse_walked_card_bets,
    rounds_asked,
)
from exactodds.cli.plots import plot_option, write_plots
from exactodds.cli.risk_options import risk_options
from exactodds.errors import ExactOddsError
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.rules import Rules
from exactodds.simulation.study import PRICINGS

if TYPE_CHECKING:
    from exactodds.games.dragon_tiger import DragonTigerTable
    from exactodds.simulation.result import SimulationResult
    from exactodds.simulation.study import Simulation
    from exactodds.specs import Sweep


#: The most worker processes one machine is asked to fork.
MOST_JOBS = 256


class _Progress:
    """Shoes done, rounds per second and the time left, redrawn on one line of stderr."""

    def __init__(self, shoes: int) -> None:
        self.shoes = shoes
        self.started = time.perf_counter()
        self.drawn = 0.0
        self.first: tuple[int, int] | None = None

    def __call__(self, shoes: int, rounds: int) -> None:
        now = time.perf_counter()
        if self.first is None:
            # A resumed run starts past its checkpoint: rates count from here.
            self.first = (shoes, rounds)
            self.started = now
        if now - self.drawn < 0.2 and shoes < self.shoes:
            return
        self.drawn = now
        elapsed = max(now - self.started, 1e-9)
        rate = (rounds - self.first[1]) / elapsed
        done = shoes - self.first[0]
        left = self.shoes - shoes
        eta = int(left * elapsed / done) if done > 0 else 0
        width = 30
        filled = int(width * shoes / self.shoes)
        sys.stderr.write(
            f"\r[{'#' * filled}{'-' * (width - filled)}] {shoes:,}/{self.shoes:,} shoes  "
            f"{rate:,.0f} rounds/s  ETA {eta // 3600}:{eta // 60 % 60:02d}:{eta % 60:02d} "
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def _bets_named_in(plays: tuple[str, ...]) -> str | None:
    """Without --bets, the bets the --play options name (else the main bets)."""
    named = [
        text.partition("=")[0].strip()
        for text in plays
        if "=" in text and not text.strip().lower().startswith("count")
    ]
    return ",".join(named) if named else None


def _studies(
    base: Simulation,
    sweep: Sweep,
    plays: tuple[str, ...],
    min_edge: str,
    values: dict[str, Any],
) -> list[tuple[tuple[tuple[str, str], ...], Simulation]]:
    """Each combination of ``--sweep`` with its study: *base* with the swept fields replaced.

    *values* are the bet options as given (``option_values``) and the stake options
    (``sizing_options``); a swept play or pay that changes the bets builds each distinct set
    of them once (``--bets``, else the bets ``--play`` names).
    """
    from exactodds import interface
    from exactodds.specs import sweep_variants

    def bets_of(selection: str | None, pays: tuple[str, ...]) -> list[Bet]:
        changes = {"selection": selection, "pays": pays}
        return interface.bets_from_values(base.rules, values, **changes)

    return sweep_variants(
        base,
        sweep,
        plays=plays,
        min_edge=min_edge,
        spread=values["spread"],
        pays=values["pays"],
        selection_of=lambda swept: values["selection"] or _bets_named_in(swept),
        bets_of=bets_of,
    )


@click.command(name="simulate")
@click.option(
    "--shoes",
    type=int,
    default=1000,
    show_default=True,
    help="How many shoes to deal.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="The seed: the same seed deals the same shoes on every machine, whatever --jobs.",
)
@click.option("--decks", type=DEALT_DECKS, default=8, show_default=True, help="Decks in the shoe.")
@click.option(
    "--cut",
    type=int,
    default=14,
    show_default=True,
    help="Cards behind the cut card.",
)
@click.option(
    "--burn",
    default="standard",
    show_default=True,
    metavar="standard|none|K",
    help="standard: the first card is exposed and its value in cards (10 for T J Q K) burned "
    "face down; none; or K cards burned face down.",
)
@click.option(
    "--after-cut",
    type=int,
    default=1,
    show_default=True,
    help="Rounds dealt after the round the cut card comes out in (a cut card that is the "
    "first card of a round counts as coming out in that round).",
)
@click.option(
    "--cut-first-rounds",
    type=int,
    default=None,
    help="Rounds dealt when the cut card is the first card of a round, that round included "
    "(default: --after-cut + 1; Wizard of Odds' rules and Jacobson's studies deal 1).",
)
@built_options(
    shoe=False,
    default_selection=lambda values: _bets_named_in(values["plays"]),
    keep_values=True,
    rebate=True,
    games=True,
    card_bets=True,
)
@click.option(
    "--play",
    "plays",
    metavar="[BET=]STRATEGY",
    multiple=True,
    help="perfect (bet when the exact EV is above --min-edge), always, or "
    "count:TAGS:TRIGGER[:running][:start=N] (10 tags for A,2..9,ten-values or 13 for A..K; "
    "bet at true count >= TRIGGER, true count = running count / decks unseen; with running, "
    "at running count >= TRIGGER; start=N starts the running count at N). Without BET= it "
    "applies to every bet. May be repeated. Default perfect.",
)
@click.option(
    "--min-edge",
    default="0",
    show_default=True,
    metavar="EDGE",
    help="Perfect play bets when the exact EV is above this: 0, 0.5%, 1/200 ...",
)
@click.option(
    "--jobs",
    type=int,
    default=None,
    help="Worker processes on this machine (default: one per core).",
)
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Run the shoes on a Dask cluster, e.g. tcp://10.0.0.5:8786 "
    '(pip install "exactodds[distributed]").',
)
@click.option(
    "--trace",
    "trace_file",
    metavar="FILE",
    help="Write one JSON line per round: shoe, round, the known composition, each bet's "
    "exact EV, decision and stake, the cards and the result. A FILE ending in .parquet is "
    'written as Parquet (pip install "exactodds[data]").',
)
@click.option(
    "--checkpoint",
    "checkpoint_file",
    metavar="FILE",
    help="Keep the tally of finished shoes in FILE (written every few seconds, at the end "
    "and on Ctrl-C).",
)
@click.option("--resume", is_flag=True, help="Continue the run saved in --checkpoint FILE.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals shown."
)
@click.option(
    "--wide",
    is_flag=True,
    help="Tables as wide as their columns (by default they fit 100 columns, split by columns).",
)
@click.option(
    "--by-count",
    is_flag=True,
    help="Also show each bet's rounds, bets made, frequency, EV, SD and units by true count "
    "(count play) or by 1% band of exact EV (other plays). JSON always has them.",
)
@click.option(
    "--price",
    "pricing",
    type=click.Choice(PRICINGS),
    default="every-round",
    show_default=True,
    help="every-round: the exact EV of every bet on every round; bet-rounds: only on the "
    "rounds where a bet is made (a count or always play, not perfect), faster, leaving out "
    "the figures that need every round's EV (EV > 0, EV deciles, EV by deck).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@plot_option
@risk_options
@click_option(MULTIPLIERS_OPTION)
def simulate(
    shoes: int,
    seed: int,
    decks: int,
    cut: int,
    burn: str,
    after_cut: int,
    cut_first_rounds: int | None,
    rules: Rules,
    bets: list[Bet],
    option_values: dict[str, Any],
    plays: tuple[str, ...],
    min_edge: str,
    jobs: int | None,
    dask_address: str | None,
    trace_file: str | None,
    checkpoint_file: str | None,
    resume: bool,
    output_format: str,
    digits: int,
    wide: bool,
    by_count: bool,
    pricing: str,
    quiet: bool,
    plot_directory: str | None,
    sizing_options: dict[str, Any],
    show_risk: bool,
    sweeps: tuple[str, ...],
    multipliers: str | None = None,
    game: DragonTigerTable | None = None,
) -> None:
    """Deal shoes as a casino does and play each bet by a strategy, with exact EVs.

    Every round's exact EV is computed from the composition a counter knows
    (the full shoe less the exposed burn card and every card dealt). Results per
    bet come with two estimators: the realized results, and the sum of the exact
    EVs of the bets made (the same mean, far less noise).

    \b
    Examples:
      exactodds simulate --shoes 1000 --seed 1 --bets player_pair,banker_pair
      exactodds simulate --bets dragon7,panda8 --play perfect --shoes 10000 --jobs 2
      exactodds simulate --bets dragon7 --play dragon7=count:0,0,0,-1,-1,-1,-1,2,2,0:4
      exactodds simulate --bets dragon7 --variant ez --trace rounds.jsonl --shoes 10
      exactodds simulate --shoes 1000000 --checkpoint run.json   # Ctrl-C, then --resume
      exactodds simulate --bets dragon7 --variant ez --shoes 1000 --plot figures/
      exactodds simulate --bets dragon7,panda8 --bankroll 200 --risk 5% --trip-rounds 800
      exactodds simulate --bets dragon7 --stake kelly:0.5 --bankroll 5000 --table-max 100
      exactodds simulate --play dragon7=count:0,0,0,-1,-1,-1,-1,2,2,0:4 --stake optimal --spread 1-8
      exactodds simulate --bets dragon7 --sweep cut=14,40,80 --plot figures/
      exactodds simulate --game dragon-tiger --bets big,suited_tie --play perfect --seed 2
      exactodds simulate --multipliers golden_wealth --decks 1 --shoes 2 --jobs 1
    """
    from exactodds.simulation.dealing import DealingProcedure
    from exactodds.simulation.run import simulate as run_simulation
    from exactodds.specs import parse_sweeps, simulation_spec

    rounds = rounds_asked(shoes, 52 * decks, cut, after_cut)
    if game is not None:  # Dragon Tiger pays no multipliers
        refuse_multipliers("simulate", multipliers, rounds)
    overlay = overlay_for_run("simulate", multipliers, rounds, quiet)
    if game is not None:
        from exactodds.cli.dragon_tiger import dragon_tiger_simulate_command

        if pricing != "every-round":
            raise click.UsageError(
                f"--price {pricing} applies to baccarat's studies; --game dragon-tiger prices "
                "every round, so leave --price out."
            )

        chosen = {"shoes": shoes, "seed": seed, "decks": decks, "cut": cut, "plays": plays}
        chosen |= {"output_format": output_format, "digits": digits}
        dragon_tiger_simulate_command(game, chosen, show_risk or bool(sweeps))
        return
    refuse_walked_card_bets("simulate", bets, rules, rounds)
    note_pure_python(quiet)
    _check_run_options(jobs, resume, checkpoint_file, dask_address, plot_directory, trace_file)
    parquet = trace_file is not None and trace_file.lower().endswith(".parquet")
    if parquet:  # before dealing: the extra, and the JSON Lines file written on the way
        from exactodds.simulation.frame import require_data_extra

        require_data_extra("--trace FILE.parquet")
    if sweeps:
        _refuse_with_sweep(bool(checkpoint_file or trace_file or resume or dask_address), overlay)
    sweep = parse_sweeps(sweeps) if sweeps else None
    procedure = DealingProcedure(decks, cut, burn, after_cut, cut_first_rounds)
    simulation = simulation_spec(
        shoes, seed, rules, bets, procedure, plays, min_edge, sizing_options
    )
    simulation = dataclasses.replace(simulation, pricing=pricing)
    if overlay is not None:  # the multiplied bets priced and paid under it, the fee charged
        from exactodds.simulation.overlaypays import overlaid_simulation

        simulation = overlaid_simulation(simulation, overlay)
    if sweep is not None:
        from exactodds.cli.simulate_sweep import run_sweep

        studies = _studies(simulation, sweep, plays, min_edge, option_values | sizing_options)
        emit(run_sweep(studies, jobs, output_format, digits, plot_directory, wide=wide))
        return
    if parquet:
        from exactodds.simulation.frame import check_trace_names

        check_trace_names([bet.name for bet in simulation.bets])
    signals: list[int] = []
    # A signal asks the run to stop after its block: the finished shoes are saved and printed.
    with signals_request_stop(signals.append):
        result, failure = _run(
            run_simulation,
            simulation,
            jobs=jobs if jobs is not None else (os.cpu_count() or 1),
            dask=dask_address,
            progress=_Progress(shoes) if not quiet and _terminal(sys.stderr) else None,
            checkpoint=checkpoint_file,
            resume=resume,
            trace=f"{trace_file}.jsonl" if parquet else trace_file,
            stop=lambda: bool(signals),
        )
        _write_result(result, output_format, digits, plot_directory, show_risk, (wide, by_count))
        if parquet and trace_file is not None:
            _parquet_trace(trace_file, result.complete)
    if failure is not None:  # the checkpoint could not be kept, or a worker died: exit 1
        raise click.ClickException(_failure_text(failure, checkpoint_file))
    if not result.complete:
        number = signals[0] if signals else signal.SIGINT
        _say(
            f"{'Terminated' if number == signal.SIGTERM else 'Interrupted'}: the result covers the first {result.tally.shoes:,} of {shoes:,} shoes"
            + (
                f"; continue with --resume --checkpoint {checkpoint_file}."
                if checkpoint_file
                else "."
            )
        )
        sys.exit(128 + number)


def _refuse_with_sweep(one_study_options: bool, overlay: object) -> None:
    """A sweep runs one study per combination: the options of one study, and an overlay
    (which charges and multiplies the bets of one study), are refused in one sentence."""
    from exactodds.errors import SimulationError

    if one_study_options:
        raise SimulationError(
            "--sweep runs one study per combination; --checkpoint, --resume, --trace "
            "and --dask apply to one study: run the combinations one by one for those."
        )
    if overlay is not None:
        raise click.UsageError(
            "--sweep rebuilds the bets of each combination, and --multipliers charges and "
            "multiplies the bets of one study: run the combinations one by one for an overlay."
        )


def _check_run_options(
    jobs: int | None,
    resume: bool,
    checkpoint_file: str | None,
    dask_address: str | None,
    plot_directory: str | None,
    trace_file: str | None,
) -> None:
    """Refuse, before any dealing, options that cannot work together or cannot be written."""
    from exactodds.errors import SimulationError

    if jobs is not None and not 1 <= jobs <= MOST_JOBS:
        raise SimulationError(
            f"--jobs {jobs} is not valid; use a whole number from 1 to {MOST_JOBS}."
        )
    if resume and checkpoint_file is None:
        raise SimulationError("--resume needs --checkpoint FILE to resume from.")
    if dask_address is not None and jobs is not None:
        raise SimulationError("--jobs and --dask both choose where to run; give one of them.")
    if plot_directory is not None:  # before a long run, not after it
        from exactodds.report.plots import require_matplotlib

        require_matplotlib()
        _check_plot_directory(plot_directory)
    if trace_file is not None and checkpoint_file is not None:
        _check_distinct(trace_file, checkpoint_file)


def _check_plot_directory(directory: str) -> None:
    """Refuse, before any dealing, a --plot DIR that is a file or cannot be written."""
    from exactodds.errors import SimulationError

    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise SimulationError(
            f"--plot {directory!r} is a file, not a directory; give a directory for the figures."
        )
    existing = next((folder for folder in (path, *path.parents) if folder.exists()), Path("."))
    if not os.access(existing, os.W_OK | os.X_OK):
        raise SimulationError(
            f"--plot {directory!r} cannot be written ({str(existing)!r} is not writable); give "
            "a directory that can be."
        )


def _check_distinct(trace_file: str, checkpoint_file: str) -> None:
    """Refuse a --trace that is the --checkpoint (or, for Parquet, its JSON Lines file)."""
    from exactodds.errors import SimulationError

    checkpoint = Path(checkpoint_file).resolve()
    for name in (trace_file, f"{trace_file}.jsonl"):
        if Path(name).resolve() == checkpoint:
            raise SimulationError(
                f"--trace {trace_file!r} and --checkpoint {checkpoint_file!r} are the same file; "
                "each would overwrite the other: give them different files."
            )


def _terminal(stream: IO[str] | None) -> bool:
    return stream is not None and stream.isatty()


def _say(line: str) -> None:
    """One line on stderr, if there is a stderr (started with ``2>&-`` there is none)."""
    if sys.stderr is not None:
        click.echo(line, err=True)


def _failure_text(failure: ExactOddsError, checkpoint_file: str | None) -> str:
    """The sentence a run stopped early by *failure* ends with; a worker that died or stalled
    says how to continue from the checkpoint, which holds the shoes finished."""
    from exactodds.simulation.workers import WorkerError

    text = str(failure)
    if isinstance(failure, WorkerError) and checkpoint_file and text.endswith("."):
        return f"{text[:-1]}; continue with --resume --checkpoint {checkpoint_file}."
    return text


def _run(
    run_simulation: Callable[..., SimulationResult], simulation: Simulation, **options: Any
) -> tuple[SimulationResult, ExactOddsError | None]:
    """The result, and the checkpoint failure that stopped the run early, if one did."""
    from exactodds.simulation.checkpoint import CheckpointError
    from exactodds.simulation.workers import WorkerError

    progress = options["progress"]
    try:
        result = run_simulation(simulation, **options)
    except (CheckpointError, WorkerError) as error:
        if error.result is None:  # before the first shoe: the --checkpoint given is wrong
            raise usage_error(error) from None
        return error.result, error
    finally:
        if progress is not None:
            progress.close()
    return result, None


def _parquet_trace(trace_file: str, complete: bool) -> None:
    """The run's JSON Lines trace written as Parquet at *trace_file*; an output failure is exit 1."""
    from exactodds.simulation.frame import trace_to_parquet

    try:
        trace_to_parquet(f"{trace_file}.jsonl", trace_file)
    except (ExactOddsError, OSError) as error:
        raise click.ClickException(
            f"The Parquet trace {trace_file!r} could not be written: {error}"
        ) from None
    if complete:  # an interrupted run keeps its lines for --resume
        os.remove(f"{trace_file}.jsonl")


def _write_result(
    result: SimulationResult,
    output_format: str,
    digits: int,
    plot_directory: str | None,
    show_risk: bool = False,
    layout: tuple[bool, bool] = (False, False),
) -> None:
    from exactodds.report.registry import render

    wide, by_count = layout
    emit(render(result, output_format, digits=digits, risk=show_risk, wide=wide, by_count=by_count))
    if plot_directory is not None:
        from exactodds.report.plots import simulation_figures

        try:
            write_plots(simulation_figures(result), plot_directory)
        except ExactOddsError as error:  # the result is already written: an output failure
            raise click.ClickException(str(error)) from None
