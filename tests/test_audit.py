"""The countability audit and pay-table design: exact figures equal odds and eor, simulated
figures equal simulate runs, the design list is exactly the tables in the window.

Small shoes and tiny budgets: the statistics are not the point here, the equalities are.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run, run_ok

from exactodds.analysis.removal import effect_of_removal
from exactodds.analysis.single import analyze
from exactodds.bets.catalogue import select_bets
from exactodds.numbers import fraction_string
from exactodds.rules import Rules
from exactodds.shoe import Shoe
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import Simulation, simulate
from exactodds.simulation.strategies import Perfect, parse_strategy
from exactodds.specs import parse_edge_window, parse_pay_range
from exactodds.studies.audit import (
    AuditSpec,
    DepthValue,
    audit,
    depth_rows,
    score,
    search_shoes,
)
from exactodds.studies.design import design_paytables

ONE_DECK = DealingProcedure(decks=1, cut=10)
BUDGET = 12
SEED = 5


@pytest.fixture(scope="module")
def dragon7_audit() -> Any:
    return audit(
        AuditSpec(
            select_bets("dragon7"),
            procedure=ONE_DECK,
            budget=BUDGET,
            seed=SEED,
            depths=(),
            cuts=(10, 16),
        )
    )


def _simulated(bet: Any, strategy: Any, procedure: DealingProcedure, seed: int) -> dict[str, Any]:
    study = Simulation.of(BUDGET, seed, Rules(), [bet], {bet.name: strategy}, procedure)
    data: dict[str, Any] = simulate(study).to_dict()["bets"][bet.name]
    return data


def test_house_edge_and_effects_of_removal_are_odds_and_eor_exactly(dragon7_audit: Any) -> None:
    result = dragon7_audit.bets["dragon7"]
    shoe = Shoe.standard(1)
    exact = analyze(shoe, Rules(), select_bets("dragon7")).bets["dragon7"]
    assert result.house_edge == exact.house_edge
    assert result.variance == exact.variance
    assert result.hit_frequency == exact.win_probability
    removal = effect_of_removal(shoe, Rules(), select_bets("dragon7"))
    assert dict(result.eor) == dict(removal.effects["dragon7"])
    data = dragon7_audit.to_dict()["bets"]["dragon7"]
    assert data["house_edge"] == fraction_string(exact.house_edge)
    assert data["eor"]["8"] == fraction_string(removal.effect("dragon7", "8"))


def test_every_simulated_figure_is_a_simulate_run_on_the_same_seed(dragon7_audit: Any) -> None:
    (bet,) = select_bets("dragon7")
    result = dragon7_audit.bets["dragon7"]
    count = result.count
    assert count is not None
    assert count.seed == SEED + 1 and count.shoes == BUDGET
    figures = _simulated(bet, parse_strategy(count.strategy), ONE_DECK, count.seed)
    assert count.frequency == figures["frequency"]
    assert count.average_edge == figures["average_edge"]
    assert count.units_per_100_rounds.mean == figures["units_per_100_rounds"]["exact_ev"]["mean"]
    assert (
        count.units_per_100_rounds.stderr == figures["units_per_100_rounds"]["exact_ev"]["stderr"]
    )
    assert count.di.mean == figures["di"]["mean"]
    assert count.n0_rounds == figures["n0_rounds"]["mean"]
    perfect = _simulated(bet, Perfect(), ONE_DECK, count.seed)
    assert result.perfect_play.mean == perfect["units_per_100_rounds"]["exact_ev"]["mean"]
    for row in result.by_cut:
        at_cut = _simulated(
            bet, parse_strategy(count.strategy), replace(ONE_DECK, cut=row.cut), count.seed
        )
        assert row.units_per_100_rounds.mean == at_cut["units_per_100_rounds"]["exact_ev"]["mean"]


def test_the_found_count_is_balanced_level_1_to_5_and_its_score_is_the_search_shoes() -> None:
    (bet,) = select_bets("dragon7")
    spec = AuditSpec([bet], procedure=ONE_DECK, budget=BUDGET, seed=SEED, depths=(), cuts=(10,))
    result = audit(spec)
    count = result.bets["dragon7"].count
    assert count is not None
    assert sum(count.tags[:9]) + 4 * count.tags[9] == 0
    assert 1 <= count.level <= 5
    dealt = search_shoes(bet, Rules(), ONE_DECK, BUDGET, SEED)
    value, trigger = score(count.tags, dealt)
    assert (value, trigger) == (count.search_units_per_100_rounds, count.trigger)
    # The search's score is the exact-EV estimate of simulate on the search's own shoes.
    figures = _simulated(bet, parse_strategy(count.strategy), ONE_DECK, SEED)
    assert value == pytest.approx(figures["units_per_100_rounds"]["exact_ev"]["mean"], rel=1e-9)


def test_the_search_starts_from_the_derived_count_and_never_scores_below_it() -> None:
    (bet,) = select_bets("dragon7")
    dealt = search_shoes(bet, Rules(), ONE_DECK, BUDGET, SEED)
    removal = effect_of_removal(Shoe.standard(1), Rules(), [bet])
    from exactodds.studies.audit import count_search

    _, _, best, _ = count_search("dragon7", removal, dealt)
    for level in (1, 2, 3, 4, 5):
        start = removal.linear_count("dragon7", level).tags
        derived = tuple(start[symbol] for symbol in "A23456789T")
        assert best >= score(derived, dealt)[0]


def test_the_search_goes_to_level_5_and_never_scores_below_the_level_3_search() -> None:
    # Issue 36: a search that stopped at level 3 fell 3.4% short of Jacobson's level-5 counts.
    from exactodds.studies.audit import LEVELS, count_search

    assert max(LEVELS) == 5
    (bet,) = select_bets("dragon7")
    dealt = search_shoes(bet, Rules(), ONE_DECK, BUDGET, SEED)
    removal = effect_of_removal(Shoe.standard(1), Rules(), [bet])
    _, _, to_three, _ = count_search("dragon7", removal, dealt, (1, 2, 3))
    tags, _, to_five, _ = count_search("dragon7", removal, dealt)
    assert to_five >= to_three
    assert max(abs(tag) for tag in tags) <= 5


def test_pair_bets_get_the_depth_tables_values() -> None:
    from exactodds.advantage.depth import depth_table

    for name in ("player_pair", "perfect_pair"):
        (bet,) = select_bets(name)
        rows, note = depth_rows(bet, Shoe.standard(1), Rules(), (18,), {})
        table = depth_table(Shoe.standard(1), Rules(), [bet], (18,))
        figure = table.rows[0].bets[name]
        assert note is None
        assert rows == (DepthValue(18, figure.positive_probability, figure.value),)


def test_value_bets_get_the_depth_tables_values() -> None:
    from exactodds.advantage.depth import depth_table

    (bet,) = select_bets("dragon7")
    rows, note = depth_rows(bet, Shoe.standard(1), Rules(), (8,), {})
    table = depth_table(Shoe.standard(1).without_suits(), Rules(), [bet], (8,))
    assert note is None
    assert rows[0].value == table.rows[0].bets["dragon7"].value


def test_design_lists_exactly_the_tables_in_the_window_with_odds_edges() -> None:
    (bet,) = select_bets("dragon7")
    ranges = [parse_pay_range("win=30..45.5")]
    window = parse_edge_window("5%..8%")
    design = design_paytables(bet, ranges, window, procedure=ONE_DECK, top=0)
    listed = {table.pays["win"]: table for table in design.tables}
    shoe = Shoe.standard(1).without_suits()
    inside = set()
    for pay in ranges[0].values():
        priced = analyze(shoe, Rules(), [replace(bet, pays=(("lose", Fraction(-1)), ("win", pay)))])
        edge = priced.bets["dragon7"].house_edge
        if window[0] <= edge <= window[1]:
            inside.add(pay)
            assert listed[pay].house_edge == edge
            assert listed[pay].hit_frequency == priced.bets["dragon7"].win_probability
    assert set(listed) == inside and inside
    assert design.priced == len(ranges[0].values())


def test_design_audits_the_top_tables_only() -> None:
    (bet,) = select_bets("dragon7")
    design = design_paytables(
        bet,
        [parse_pay_range("win=38..42")],
        parse_edge_window("5%..9%"),
        procedure=ONE_DECK,
        top=1,
        budget=BUDGET,
        seed=SEED,
    )
    assert design.audited == 1
    data = design.to_dict()["design"]
    assert "units_per_100_rounds" in data[0]
    assert all("units_per_100_rounds" not in entry for entry in data[1:])


def test_audit_json_contract() -> None:
    result = run_ok(
        "audit",
        "--bets",
        "dragon7",
        "--decks",
        "1",
        "--cut",
        "10",
        "--budget",
        "8",
        "--depths",
        "none",
        "--cuts",
        "10",
        "--format",
        "json",
    )
    data = json.loads(result.stdout)["bets"]["dragon7"]
    assert Fraction(data["house_edge"]) > 0
    assert set(data["eor"]) == set("A23456789TJQK")
    count = data["count"]
    assert len(count["tags"]) == 10
    for key in ("trigger", "betting_correlation", "frequency", "average_edge", "di"):
        assert key in count
    assert set(count["units_per_100_rounds"]) == {"mean", "stderr"}
    assert data["depth"] == []
    assert set(data["perfect_play"]["units_per_100_rounds"]) == {"mean", "stderr"}
    assert data["by_cut"][0]["cut"] == 10
    assert data["by_cut"][0]["upper_bound"] == data["decision"]["upper_bound"]
    assert data["decision"]["played"] == "the best count"
    assert data["decision"]["confidence"] == "19/20"
    assert data["verdict"].startswith("dragon7 ")


def test_audit_of_a_bet_file(tmp_path: Path) -> None:
    path = tmp_path / "eights.toml"
    path.write_text(
        '[[bet]]\nname = "eights"\ndescription = "Both final totals are 8."\n\n'
        '[[bet.outcome]]\nname = "win"\nwhen = { player_total = 8, banker_total = 8 }\n'
        "pays = 60\n",
        encoding="utf-8",
    )
    result = run_ok(
        "audit",
        "--bet-file",
        str(path),
        "--bets",
        "eights",
        "--decks",
        "1",
        "--cut",
        "10",
        "--budget",
        "6",
        "--depths",
        "none",
        "--cuts",
        "10",
        "--format",
        "markdown",
    )
    assert "## eights" in result.stdout
    assert "| Tags (A 2 3 4 5 6 7 8 9 T) |" in result.stdout


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (("--design", "win=40..10"), "is empty"),
        (("--design", "win=100..120"), "No pay table in the ranges"),
        (("--budget", "0"), "Number of shoes 0 for --budget is not valid"),
        (("--design", "push=1..2"), "has no outcome 'push'"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(arguments: tuple[str, ...], fragment: str) -> None:
    result = run(
        "audit",
        "--bets",
        "dragon7",
        "--decks",
        "1",
        "--cut",
        "10",
        "--budget",
        "4",
        "--depths",
        "none",
        "--cuts",
        "10",
        *arguments,
    )
    assert result.exit_code == 2, result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_bet_no_count_can_track_is_audited_by_perfect_play(tmp_path: Path) -> None:
    path = tmp_path / "always.toml"
    path.write_text(
        '[[bet]]\nname = "always"\ndescription = "Every round wins."\n\n'
        '[[bet.outcome]]\nname = "win"\nwhen = { player_total = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }\n'
        "pays = 1\n",
        encoding="utf-8",
    )
    result = run_ok(
        "audit",
        "--bet-file",
        str(path),
        "--bets",
        "always",
        "--decks",
        "1",
        "--cut",
        "10",
        "--budget",
        "4",
        "--depths",
        "none",
        "--cuts",
        "10",
        "--format",
        "json",
    )
    data = json.loads(result.stdout)["bets"]["always"]
    # Every round wins 1 unit exactly: perfect play bets every round, 100 units per 100 rounds.
    assert data["count"] is None
    assert data["decision"]["played"] == "perfect play"
    assert data["perfect_play"]["units_per_100_rounds"]["mean"] == pytest.approx(100)
    assert data["vulnerable"] is True
    assert data["verdict"].startswith("always can be beaten: perfect play wins 100.000")


SMALL = ("--bets", "dragon7", "--decks", "1", "--cut", "10", "--budget", "6", "--depths", "none")


def test_par_sheet_formats_carry_the_identification_header() -> None:
    result = run_ok("audit", *SMALL, "--cuts", "10", "--format", "html", "--date", "2026-01-31")
    assert '<table id="identity">' in result.stdout
    assert "<td>2026-01-31</td>" in result.stdout
    assert "exactodds audit --bets dragon7" in result.stdout


def test_pdf_is_written_to_the_output_file(tmp_path: Path) -> None:
    pytest.importorskip("fpdf")
    target = tmp_path / "audit.pdf"
    written = run("audit", *SMALL, "--cuts", "10", "--format", "pdf", "-o", str(target))
    assert written.exit_code == 0 and written.stdout == ""
    assert written.stderr == f"Wrote {target}.\n"  # the file named, nothing else
    assert target.read_bytes().startswith(b"%PDF")
    result = run("audit", *SMALL, "--format", "pdf")
    assert result.exit_code == 2 and "give --output FILE" in result.stderr


def test_output_into_a_missing_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "audit.md"
    result = run("audit", *SMALL, "--format", "markdown", "-o", str(target))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "does not exist." in result.stderr
    assert result.stderr.startswith(f"Error: Cannot write the audit to {str(target)!r}")
    empty = run("audit", *SMALL, "-o", "")
    assert empty.exit_code == 2 and "the path is empty; give a file name such as -o audit.txt." in (
        empty.stderr
    )


def test_a_full_disk_is_exit_1_in_one_sentence() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    result = run("audit", *SMALL, "--cuts", "10", "--format", "json", "-o", "/dev/full")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "Error: Cannot write the audit to '/dev/full': No space left on device; no file was "
        "left behind.\n"
    )


def test_the_output_file_is_written_whole_and_equals_stdout(tmp_path: Path) -> None:
    target = tmp_path / "audit.json"
    written = run("audit", *SMALL, "--cuts", "10", "--format", "json", "-o", str(target))
    assert written.exit_code == 0 and written.stdout == ""
    assert written.stderr == f"Wrote {target}.\n"  # the file named, nothing else
    shown = run_ok("audit", *SMALL, "--cuts", "10", "--format", "json")
    assert target.read_text(encoding="utf-8") == shown.stdout
    assert [path.name for path in tmp_path.iterdir()] == ["audit.json"]  # no temporary file


def _column_b(worksheet: Any) -> dict[str, list[Any]]:
    """Each label in column A with the cells beside it (the last row of a label wins)."""
    return {
        row[0]: list(row[1:])
        for row in worksheet.iter_rows(values_only=True)
        if isinstance(row[0], str)
    }


def test_xlsx_figures_are_numbers_equal_to_the_json(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    arguments = (*SMALL[:-1], "40", "--cuts", "10,20", "--date", "2026-01-31")
    data = json.loads(run_ok("audit", *arguments, "--format", "json").stdout)["bets"]["dragon7"]
    target = tmp_path / "audit.xlsx"
    written = run("audit", *arguments, "--format", "xlsx", "-o", str(target))
    assert written.exit_code == 0 and written.stdout == ""
    assert written.stderr == f"Wrote {target}.\n"  # the file named, nothing else
    workbook = openpyxl.load_workbook(target)
    assert workbook.sheetnames == ["Summary", "dragon7"]
    header = _column_b(workbook["Summary"])
    assert header["Date"] == ["2026-01-31"] and header["Pay table"] == ["standard pays"]
    assert header["Command"][0].startswith("exactodds audit --bets dragon7")
    cells = _column_b(workbook["dragon7"])
    close: dict[str, Any] = {"rel": 1e-12, "abs": 1e-14}
    assert cells["House edge"][0] == pytest.approx(float(Fraction(data["house_edge"])), **close)
    for rank, effect in data["eor"].items():
        assert cells[rank][0] == pytest.approx(float(Fraction(effect)), **close)
    units = data["count"]["units_per_100_rounds"]
    assert cells["Units per 100 rounds"][:2] == pytest.approx(
        [units["mean"], units["stderr"]], **close
    )
    assert cells["Frequency of bets"][0] == pytest.approx(data["count"]["frequency"], **close)
    (depth,) = data["depth"]
    rows = list(workbook["dragon7"].iter_rows(values_only=True))
    depth_row = next(row for row in rows if row[0] == depth["cards"])
    assert depth_row[1:3] == pytest.approx(
        [float(Fraction(depth["positive_probability"])), float(Fraction(depth["value"]))], **close
    )
    for entry in data["by_cut"]:
        cut_row = next(row for row in rows if row[0] == entry["cut"] and len(row) > 2)
        figure = entry["units_per_100_rounds"]
        assert cut_row[1:3] == pytest.approx([figure["mean"], figure["stderr"]], **close)
    widths = workbook["dragon7"].column_dimensions
    assert all(8 <= widths[column].width <= 62 for column in "ABC")


def test_xlsx_without_openpyxl_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    for name in list(sys.modules):
        if name == "openpyxl" or name.startswith("openpyxl."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # makes "import openpyxl" fail
    target = tmp_path / "audit.xlsx"
    result = run("audit", *SMALL, "--format", "xlsx", "-o", str(target))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: The xlsx audit needs openpyxl, which is not installed; install it with: "
        'pip install "exactodds[report]".\n'
    )
    assert not target.exists()
