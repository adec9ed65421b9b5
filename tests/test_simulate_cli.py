"""``exactodds simulate``: formats, traces, checkpoints and one clear sentence for bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.cli import cli
from exactodds.report.simulation import CSV_COLUMNS
from exactodds.shoe import Shoe
from exactodds.simulation import run

SMALL = ["simulate", "--shoes", "6", "--seed", "3", "--decks", "2", "--jobs", "1"]


def invoke(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def test_table_output() -> None:
    result = invoke(*SMALL, "--bets", "banker,player_pair")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.startswith("Shoes: 6 of seed 3 (2 decks; standard burn")
    assert "player_pair" in result.stdout and "Units/shoe, exact EV" in result.stdout


def test_json_contract_and_jobs_do_not_change_it() -> None:
    one = invoke(*SMALL, "--bets", "dragon7,player_pair", "--format", "json")
    two = invoke(*SMALL[:-2], "--jobs", "2", "--bets", "dragon7,player_pair", "--format", "json")
    assert one.exit_code == two.exit_code == 0
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert first["shoes"] == 6 and first["rounds"] > 6 * 10
    bet = first["bets"]["dragon7"]
    for key in ("bets_made", "frequency", "average_edge", "units_per_shoe", "units_per_100_rounds"):
        assert key in bet
    for estimator in ("exact_ev", "realized"):
        assert set(bet["units_per_shoe"][estimator]) == {"mean", "stderr", "ci95"}
    assert first["run"]["complete"] is True
    del first["run"], second["run"]
    assert first == second


def test_csv_output() -> None:
    result = invoke(*SMALL, "--bets", "tie", "--play", "always", "--format", "csv")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    row = dict(zip(CSV_COLUMNS, lines[1].split(","), strict=True))
    assert row["bet"] == "tie" and row["strategy"] == "always"
    assert row["bets_made"] == row["rounds"]


def test_plays_name_the_bets_when_bets_are_not_given() -> None:
    result = invoke(*SMALL, "--play", "panda8=always", "--format", "json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["bets"]) == ["panda8"]


def test_trace_lines_check_with_odds(tmp_path: Path) -> None:
    trace = tmp_path / "rounds.jsonl"
    result = invoke(*SMALL[:4], "2", "--decks", "1", "--bets", "dragon7", "--trace", str(trace))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines and {"shoe", "round", "known", "ev", "bet", "cards", "result"} <= set(lines[0])
    line = lines[-1]
    # Anyone can re-check a line with `exactodds odds --shoe '<known>'`.
    shown = invoke(
        "odds", "--shoe", json.dumps(line["known"]), "--bets", "dragon7", "--format", "json"
    )
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["bets"]["dragon7"]["ev"] == line["ev"]["dragon7"]
    shoe = Shoe.from_mapping(line["known"])
    exact = analyze(shoe, bets=select_bets("dragon7")).bets["dragon7"].expected_value
    assert Fraction(line["ev"]["dragon7"]) == exact


def test_checkpoint_and_resume_from_the_command_line(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    arguments = ["--bets", "player_pair", "--format", "json", "--checkpoint", str(checkpoint)]
    first = invoke(*SMALL, *arguments)
    assert first.exit_code == 0
    more = ["simulate", "--shoes", "9", "--seed", "3", "--decks", "2", "--jobs", "1"]
    resumed = invoke(*more, *arguments, "--resume")
    straight = invoke(*more, "--bets", "player_pair", "--format", "json")
    assert resumed.exit_code == straight.exit_code == 0
    resumed_data, straight_data = json.loads(resumed.stdout), json.loads(straight.stdout)
    del resumed_data["run"], straight_data["run"]
    assert resumed_data == straight_data


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bets", "dragon7", "--play", "lucky7=perfect"], "Unknown bet 'lucky7' in --play"),
        (["--play", "count:1,2,3:4"], "Count tags '1,2,3' have 3 entries"),
        (["--play", "sometimes"], "Unknown strategy 'sometimes'"),
        (["--cut", "500"], "Cut card 500 cards from the back is deeper than a 104-card shoe"),
        (["--seed", "-1"], "Seed -1 for --seed is not valid"),
        (["--shoes", "0"], "Number of shoes 0 for --shoes is not valid"),
        (["--burn", "some"], "Burn rule 'some' is not valid"),
        (["--resume"], "--resume needs --checkpoint FILE"),
        (["--bets", "nosuchbet"], "Unknown bet 'nosuchbet'"),
        (["--min-edge", "lots"], "--min-edge 'lots' is not a number; use an edge such as"),
        (["--bankroll", "lots"], "--bankroll 'lots' is not a number; use a positive number"),
        (["--risk", "lots"], "--risk 'lots' is not a number; use a risk of ruin"),
        (["--stake", "kelly:", "--bankroll", "9"], "gives no Kelly fraction after the colon"),
        (["--chip", "3", "--table-min", "5"], "--table-min 5 is not a multiple of --chip 3"),
        (["--play", "always", "--play", "perfect"], "gives every bet a second strategy"),
        (["--play", "tie=always", "--play", "tie=perfect"], "gives tie a second strategy"),
        (["--jobs", "100000"], "--jobs 100000 is not valid; use a whole number from 1 to 256"),
        (["--seed", str(2**128)], f"Seed {2**128} for --seed is above 2^128 - 1"),
        (["--trace", "same.json", "--checkpoint", "same.json"], "are the same file"),
        (["--table-min", "1" + "0" * 106], "at most 10^70 units"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(arguments: list[str], message: str) -> None:
    result = invoke(*SMALL, *arguments)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_resume_from_a_missing_checkpoint(tmp_path: Path) -> None:
    result = invoke(*SMALL, "--checkpoint", str(tmp_path / "none.json"), "--resume")
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_an_unreachable_dask_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(run, "DASK_TIMEOUT", "1s")
    result = CliRunner().invoke(
        cli, ["simulate", "--shoes", "2", "--decks", "1", "--dask", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: Cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'")


def test_odds_never_imports_the_simulation_or_dask() -> None:
    code = (
        "import sys\n"
        "from exactodds.cli import cli\n"
        "try:\n"
        "    cli(['odds', '--decks', '1'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'dask' not in sys.modules, 'exactodds odds imported dask'\n"
        "assert 'exactodds.simulation.run' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_own_bets_from_a_bet_file() -> None:
    result = invoke(
        *SMALL[:4],
        "2",
        "--decks",
        "1",
        "--bet-file",
        str(Path(__file__).resolve().parent.parent / "examples" / "bets" / "six_bonus.toml"),
        "--bets",
        "six_bonus",
        "--play",
        "always",
        "--format",
        "csv",
    )
    assert result.exit_code == 0, result.output
    row = dict(zip(CSV_COLUMNS, result.stdout.splitlines()[1].split(","), strict=True))
    assert row["bet"] == "six_bonus" and row["bets_made"] == row["rounds"]


def test_ctrl_c_prints_the_partial_result(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = []
    real = run.run_block

    def interrupted(*arguments: Any) -> run.BlockResult:
        blocks.append(arguments)
        if len(blocks) == 2:
            raise KeyboardInterrupt
        return real(*arguments)

    monkeypatch.setattr(run, "run_block", interrupted)
    # player_pair has the pair closed form, whose studies deal in CLOSED_FORM_BLOCK_SHOES.
    monkeypatch.setattr(run, "CLOSED_FORM_BLOCK_SHOES", 2)
    result = invoke(*SMALL, "--bets", "player_pair", "--format", "json")
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["shoes"] == 2 and data["run"]["complete"] is False
    assert result.stderr == "Interrupted: the result covers the first 2 of 6 shoes.\n"


def test_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    from exactodds.cli.simulate import _Progress

    progress = _Progress(10)
    progress(5, 400)
    progress(10, 800)
    progress.close()
    shown = capsys.readouterr().err
    assert "10/10 shoes" in shown and "rounds/s" in shown and "ETA 0:00:00" in shown


def test_a_checkpoint_that_cannot_be_written(tmp_path: Path) -> None:
    where = tmp_path / "missing" / "run.json"
    result = invoke(*SMALL, "--checkpoint", str(where))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: Cannot write checkpoint {str(where)!r}")


def test_a_fresh_run_never_overwrites_a_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.json"
    assert invoke(*SMALL, "--bets", "tie", "--checkpoint", str(checkpoint)).exit_code == 0
    saved = checkpoint.read_text()
    again = invoke(*SMALL, "--bets", "tie", "--checkpoint", str(checkpoint))
    assert again.exit_code == 2 and "already exists; continue its run with --resume" in again.stderr
    assert checkpoint.read_text() == saved


def test_plot_draws_each_bets_exact_ev_by_depth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    from exactodds.report import plots as parsheet_plots

    drawn: dict[str, list[float]] = {}
    depth_figure = parsheet_plots.depth_figure

    def recording(name: str, ev_by_deck: list[float | None]) -> Any:
        figure = depth_figure(name, ev_by_deck)
        drawn[name] = [float(value) for value in figure.axes[0].lines[0].get_ydata()]
        return figure

    monkeypatch.setattr(parsheet_plots, "depth_figure", recording)
    folder = tmp_path / "figures"
    result = invoke(*SMALL, "--bets", "dragon7,banker", "--format", "json", "--plot", str(folder))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"Wrote 4 figure files to {folder}.\n"
    data = json.loads(result.stdout)
    assert sorted(path.name for path in folder.iterdir()) == [
        "banker-depth.png",
        "banker-depth.svg",
        "dragon7-depth.png",
        "dragon7-depth.svg",
    ]
    for name in ("dragon7", "banker"):
        expected = [100 * value for value in data["bets"][name]["ev_by_deck"] if value is not None]
        assert drawn[name] == pytest.approx(expected, rel=1e-12)


def test_plot_without_matplotlib_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(run, "simulate", lambda *args, **kwargs: pytest.fail("the run started"))
    result = invoke(*SMALL, "--plot", str(tmp_path / "figures"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(
        "Error: Drawing figures needs matplotlib, which is not installed"
    )
    assert result.stderr.count("\n") == 1


def test_a_risk_next_to_one_is_read_exactly() -> None:
    result = invoke(*SMALL, "--bankroll", "10", "--risk", "0.999999999999999999999")
    assert result.exit_code == 0, result.stderr
    assert "Bankroll for a 100% risk of ruin" in result.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
def test_a_full_disk_under_trace_names_the_file_and_prints_the_result() -> None:
    result = invoke(*SMALL, "--trace", "/dev/full", "--format", "json")
    assert result.exit_code == 1
    assert "Cannot write trace file '/dev/full' (No space left on device)" in result.stderr
    assert json.loads(result.stdout)["run"]["complete"] is False


def test_plot_into_a_file_is_refused_before_dealing(tmp_path: Path) -> None:
    target = tmp_path / "figures"
    target.write_text("not a directory")
    result = invoke(*SMALL, "--plot", str(target))
    assert result.exit_code == 2 and result.stdout == ""
    assert "is a file, not a directory" in result.stderr


def test_a_shortened_trace_is_refused_on_resume(tmp_path: Path) -> None:
    trace, checkpoint = tmp_path / "rounds.jsonl", tmp_path / "run.json"
    first = invoke(*SMALL, "--trace", str(trace), "--checkpoint", str(checkpoint))
    assert first.exit_code == 0
    trace.write_bytes(trace.read_bytes()[:100])
    more = ["simulate", "--shoes", "9", "--seed", "3", "--decks", "2", "--jobs", "1"]
    again = invoke(*more, "--trace", str(trace), "--checkpoint", str(checkpoint), "--resume")
    assert again.exit_code == 2
    assert "holds 100 bytes, less than the" in again.stderr
    assert trace.stat().st_size == 100  # not padded


def test_parquet_trace_columns_that_would_collide_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    bet = tmp_path / "tie_float.toml"
    bet.write_text(
        '[[bet]]\nname = "tie_float"\ndescription = "a tie"\n[[bet.outcome]]\nname = "win"\n'
        'when = { winner = "tie" }\npays = 8\n',
        encoding="utf-8",
    )
    result = invoke(
        *SMALL,
        "--bets",
        "tie,tie_float",
        "--bet-file",
        str(bet),
        "--trace",
        str(tmp_path / "t.parquet"),
    )
    assert result.exit_code == 2, result.output
    assert "would share the Parquet trace column 'ev_tie_float'" in result.stderr


@pytest.mark.parametrize(
    "options",
    [
        ("--bets", "dragon7"),
        ("--bets", "all"),
        ("--bets", "dragon7,panda8", "--bankroll", "100", "--risk", "5%", "--trip-rounds", "300"),
        ("--bets", "all", "--rounds-per-hour", "70", "--exact-moments", "--bankroll", "50"),
        ("--bets", "tie", "--play", "count:1,1,1,1,1,1,1,1,1,-4,-4,-4,-4:2:start=-1"),
    ],
)
def test_the_table_fits_100_columns_and_wide_keeps_one_table(options: tuple[str, ...]) -> None:
    shown = invoke(*SMALL, *options)
    wide = invoke(*SMALL, *options, "--wide")
    assert shown.exit_code == wide.exit_code == 0, shown.output + wide.output
    assert max(len(line) for line in shown.stdout.splitlines()) <= 100

    # The split tables and the wrapped prose hold the words of the wide output.
    def words(text: str) -> set[str]:
        return {word for word in text.split() if word.strip("-")}

    assert words(wide.stdout) == words(shown.stdout)
    if options[1] == "all":
        assert max(len(line) for line in wide.stdout.splitlines()) > 100


RANKS = "A23456789TJQK"


@pytest.mark.parametrize(
    "play", ["count:0,0,0,-1,-1,-1,-1,2,2,0:1", "count:1,1,1,1,1,1,1,1,1,-4:2:running", "perfect"]
)
def test_by_true_count_recounts_the_trace(play: str, tmp_path: Path) -> None:
    trace = tmp_path / "rounds.jsonl"
    result = invoke(*SMALL, "--bets", "dragon7", "--play", play, "--trace", str(trace),
                    "--format", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    bands: dict[int, list[Any]] = {}
    tags = [int(tag) for tag in play.split(":")[1].split(",")] if play != "perfect" else []
    for line in trace.read_text(encoding="utf-8").splitlines():
        round_ = json.loads(line)
        ev = Fraction(round_["ev"]["dragon7"])
        if tags:
            seen = sum(  # a card none of whose copies is left is not listed
                (2 - round_["known"].get(rank + suit, 0)) * tags[min(RANKS.index(rank), 9)]
                for rank in RANKS
                for suit in "SHDC"
            )
            unseen = sum(round_["known"].values())
            band = seen if play.endswith("running") else (52 * seen) // unseen
        else:
            band = math.floor(100 * ev)
        sums = bands.setdefault(band, [0, 0, Fraction(0), Fraction(0)])
        made = round_["bet"]["dragon7"]
        sums[0] += 1
        sums[1] += made
        sums[2] += Fraction(round_["result"]["dragon7"])
        sums[3] += ev if made else 0
    rows = data["bets"]["dragon7"]["by_true_count"]
    key = "running_count" if play.endswith("running") else "true_count"
    shown = {row[key] if tags else round(100 * row["ev_from"]): row for row in rows}
    assert sorted(shown) == sorted(bands)
    assert sum(row["rounds"] for row in rows) == data["rounds"]
    for band, (rounds, made, won, expected) in bands.items():
        row = shown[band]
        assert (row["rounds"], row["bets_made"], row["units_won"]) == (rounds, made, float(won))
        assert row["ev_per_round"] == pytest.approx(float(expected / rounds), abs=1e-11)


def test_by_count_table_is_a_compact_section() -> None:
    plain = invoke(*SMALL, "--bets", "dragon7", "--play", "count:0,0,0,-1,-1,-1,-1,2,2,0:1")
    shown = invoke(*SMALL, "--bets", "dragon7", "--play", "count:0,0,0,-1,-1,-1,-1,2,2,0:1",
                   "--by-count")  # fmt: skip
    assert shown.exit_code == plain.exit_code == 0
    assert "True count, dragon7" in shown.stdout and "True count" not in plain.stdout
    section = shown.stdout.split("True count, dragon7")[1].split("\n\n")[0].splitlines()[2:]
    assert 1 <= len(section) <= 15
    assert max(len(line) for line in shown.stdout.splitlines()) <= 100


def test_unit_shows_money_beside_units_and_is_recorded() -> None:
    options = ("--bets", "dragon7", "--bankroll", "20", "--risk", "5%", "--rounds-per-hour", "70")
    plain = invoke(*SMALL, *options, "--format", "json")
    money = invoke(*SMALL, *options, "--unit", "25", "--format", "json")
    table = invoke(*SMALL, *options, "--unit", "25")
    assert plain.exit_code == money.exit_code == table.exit_code == 0
    first, second = json.loads(plain.stdout), json.loads(money.stdout)
    assert second["staking"]["unit"] == "25" and first["staking"]["unit"] is None
    assert first["combined"] == second["combined"] and first["bets"] == second["bets"]
    combined = second["combined"]
    ev = combined["ev_per_round"]["mean"] * 25
    assert f"In money at 25 a unit, all bets: EV {ev:,.2f} and SD" in table.stdout
    assert "Risk of ruin of 20 units (500.00), all bets together, a trip of" in table.stdout
    simulated = combined["bankroll_for_risk"]["simulated"]["trip"]
    assert (
        f"simulated, {combined['bankroll_for_risk']['trips']:,} trips of consecutive shoes: "
        in table.stdout
    )
    assert f"({simulated * 25:,.2f})" in table.stdout


@pytest.mark.parametrize("unit", ["0", "-25", "ten"])
def test_a_unit_that_is_not_a_positive_amount_is_refused_before_dealing(unit: str) -> None:
    result = invoke(*SMALL, "--shoes", "100000000", "--unit", unit)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: --unit {unit if unit != 'ten' else repr(unit)} is")
    assert result.stderr.count("\n") == 1 and "such as 25" in result.stderr


def test_sweep_rows_carry_score_n0_and_the_risk_estimate_of_the_separate_runs() -> None:
    options = ("--bets", "dragon7", "--bankroll", "20", "--format", "json")
    swept = invoke(*SMALL, *options, "--sweep", "cut=14,30")
    assert swept.exit_code == 0, swept.output
    for row in json.loads(swept.stdout)["sweep"]:
        alone = invoke(*SMALL, *options, "--cut", row["values"]["cut"])
        combined = json.loads(alone.stdout)["combined"]
        assert row["score"] == combined["score"] and row["n0_rounds"] == combined["n0_rounds"]
        assert row["risk_of_ruin"] == combined["risk_of_ruin"]["estimate"]["trip"]
    table = invoke(*SMALL, *options[:-2], "--sweep", "cut=14,30")
    assert "SCORE" in table.stdout and "Risk of ruin" in table.stdout
