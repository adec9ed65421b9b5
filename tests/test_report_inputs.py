"""``exactodds report``'s inputs read as a user types them: empty paths, huge numbers, hostile text.

Each refusal is one sentence on stderr and exit 2, before any work; what a bet file says is shown
in every format as text, never as markup.
"""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner, Result

from exactodds.cli import cli


def run(*arguments: str) -> Result:
    return CliRunner().invoke(cli, ["report", "--decks", "1", "--no-breakeven", *arguments])


def _one_error(result: Result, text: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert text in result.stderr, result.stderr


def test_an_empty_output_path_is_said_to_be_empty() -> None:
    for empty in ("", "  "):
        result = run("--bets", "tie", "-o", empty)
        _one_error(result, "the path is empty")
        assert "directory" not in result.stderr


@pytest.mark.parametrize(
    ("rounds", "text"),
    [
        ("1" + "0" * 30, "at most 30 digits (below 10^30)"),
        ("10^30", "use whole numbers from 1 to 10^30 - 1"),
        ("0", "use whole numbers from 1 to 10^30 - 1"),
    ],
)
def test_rounds_state_their_limit(rounds: str, text: str) -> None:
    _one_error(run("--bets", "tie", "--rounds", rounds), text)


def test_a_pay_with_a_huge_denominator_is_bounded_before_the_work() -> None:
    started = time.monotonic()
    result = run("--bets", "dragon7", "--pay", "dragon7=1/1000000000000", "--rounds", "10")
    assert result.exit_code == 0, result.stderr
    assert time.monotonic() - started < 60
    assert "Not computed: The exact tails after 10 rounds need 10,000,000,000,011 lattice" in (
        result.stdout
    )


HOSTILE = """
[[bet]]
name = "hostile"
description = "Wins on a natural <script>alert(1)</script><img src=x onerror=alert(2)> &amp; more."

[[bet.outcome]]
name = "natural_win"
when = { winner = "banker", banker_natural = true }
pays = 1
"""


@pytest.mark.parametrize("output_format", ["markdown", "html"])
def test_a_bet_files_markup_is_shown_as_text(
    output_format: str, tmp_path: pytest.TempPathFactory
) -> None:
    from pathlib import Path

    bet_file = Path(str(tmp_path)) / "hostile.toml"
    bet_file.write_text(HOSTILE, encoding="utf-8")
    result = run(
        "--bet-file",
        str(bet_file),
        "--bets",
        "hostile",
        "--format",
        output_format,
        "--no-figures",
        "--rounds",
        "10",
    )
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for raw in ("<script", "<img", "&amp; more"):
        assert raw not in text, raw
    assert text.count("&lt;script>" if output_format == "markdown" else "&lt;script&gt;") >= 2
    assert "&amp;amp; more" in text


def test_the_html_sheet_has_one_main_and_unique_ids() -> None:
    import collections
    import re

    pytest.importorskip("matplotlib")
    result = run("--bets", "banker,tie", "--format", "html", "--rounds", "100")
    assert result.exit_code == 0, result.stderr
    page = result.stdout
    assert page.count("<main>") == 1 and page.count("</main>") == 1
    assert (
        page.index("<body>") < page.index("<main>") < page.index("</main>") < page.index("</body>")
    )
    ids = collections.Counter(re.findall(r'\bid="([^"]+)"', page))
    assert page.count("<svg") >= 6 and len(ids) > 500
    assert [name for name, count in ids.items() if count > 1] == []
    references = re.findall(r'(?:href="#|url\(#)([^")]+)', page)
    assert references and all(reference in ids for reference in references)


def test_xlsx_formulas_carry_their_results_for_readers_that_compute_nothing(
    tmp_path: pytest.TempPathFactory,
) -> None:
    from fractions import Fraction
    from pathlib import Path

    openpyxl = pytest.importorskip("openpyxl")
    pandas = pytest.importorskip("pandas")
    from exactodds import Rules, Shoe, analyze
    from exactodds.bets.catalogue import select_bets

    target = Path(str(tmp_path)) / "sheet.xlsx"
    result = run("--bets", "banker,tie,dragon7", "--rounds", "100", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    exact = analyze(Shoe.standard(decks=1), Rules(), select_bets("banker,tie,dragon7")).bets
    workbook = openpyxl.load_workbook(target, data_only=True)
    formulas = openpyxl.load_workbook(target)
    for name, bet in exact.items():
        sheet = workbook[name]
        figures = {row[0]: row[1] for row in sheet.iter_rows(values_only=True) if row[0]}
        wanted: dict[str, float] = {
            "Expected value (EV)": float(bet.expected_value),
            "House edge": float(bet.house_edge),
            "Standard deviation (SD)": float(Fraction(bet.variance)) ** 0.5,
        }
        for label, value in wanted.items():
            assert isinstance(figures[label], float), (name, label, figures[label])
            assert round(figures[label], 12) == round(value, 12), (name, label)
        # Every formula cell has a stored number (none is left for Excel alone).
        for row in formulas[name].iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    stored = sheet[cell.coordinate].value
                    assert isinstance(stored, (int, float)), (name, cell.coordinate, cell.value)
        frame = pandas.read_excel(target, sheet_name=name, header=None)
        column = dict(zip(frame[0], frame[1], strict=True))
        assert round(float(column["House edge"]), 12) == round(float(bet.house_edge), 12)


HEADER = ("--game-name", "Punto Banco PB-8", "--game-version", "rev 3", "--author", "A. Auditor")


@pytest.mark.parametrize("suffix", ["md", "html", "xlsx", "pdf"])
def test_the_game_its_version_and_the_author_head_every_format(
    suffix: str, tmp_path: pytest.TempPathFactory
) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / f"sheet.{suffix}"
    result = run("--bets", "tie", "--rounds", "10", "--no-figures", *HEADER, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    if suffix == "xlsx":
        openpyxl = pytest.importorskip("openpyxl")
        summary = openpyxl.load_workbook(target)["Summary"]
        rows = {row[0]: row[1] for row in summary.iter_rows(max_row=12, values_only=True)}
        text = " ".join(f"{label} {value}" for label, value in rows.items())
    elif suffix == "pdf":
        pypdf = pytest.importorskip("pypdf")
        text = " ".join(pypdf.PdfReader(target).pages[0].extract_text().split())
    else:
        text = target.read_text(encoding="utf-8")
    for label, value in (
        ("Game", "Punto Banco PB-8"),
        ("Game version", "rev 3"),
        ("Author", "A. Auditor"),
    ):
        assert label in text and value in text, (suffix, label)
    assert "Baccarat par sheet: tie, 1 deck" in text  # the default title


def test_true_odds_stand_beside_one_in_x() -> None:
    result = run("--bets", "tie", "--rounds", "10")
    assert result.exit_code == 0, result.stderr
    header = next(line for line in result.stdout.splitlines() if line.startswith("| Outcome"))
    assert header.endswith("| 1 in | Odds against |")
    win = next(line for line in result.stdout.splitlines() if line.startswith("| win | 8 |"))
    # 1 deck: the tie wins 1,372,227,328 of 14,658,134,400 rounds: 1 in 10.68, 9.68 to 1.
    assert win.endswith("| 10.68 | 9.68 to 1 |")


def test_a_compared_pay_table_that_gives_the_player_the_edge_is_flagged(
    tmp_path: pytest.TempPathFactory,
) -> None:
    from pathlib import Path

    generous = Path(str(tmp_path)) / "panda30.toml"
    generous.write_text("panda8 = 30\n", encoding="utf-8")
    standard = Path(str(tmp_path)) / "panda25.toml"
    standard.write_text("panda8 = 25\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "report",
            "--bets",
            "panda8",
            "--no-breakeven",
            "--no-figures",
            "--rounds",
            "10",
            "--compare",
            f"pays={standard},{generous}",
        ],
    )
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        f"Warning: under pays={generous}, panda8 has a negative house edge (-7.08397703%): the "
        "player has the edge."
    ]


@pytest.mark.parametrize("option", ["--game-name", "--game-version", "--author"])
def test_header_fields_are_one_line(option: str) -> None:
    _one_error(run("--bets", "tie", option, "two\nlines"), "use one line of at most 200 characters")
