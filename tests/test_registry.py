"""The registry of renderers: every format a command offers has its renderer, one vocabulary.

Every command renders through :mod:`exactodds.report.registry`; these tests hold its table to
the formats the command line offers, every entry to a class and a function that exist, an
unknown (result, format) pair to one sentence, and the package to one ``to_dict`` vocabulary.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from pathlib import Path

import click
import pytest

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.known import analyze_known
from exactodds.bets.catalogue import BetList, select_bets
from exactodds.cli import COMMANDS, cli
from exactodds.errors import ExactOddsError
from exactodds.report.registry import (
    DATA,
    RENDERERS,
    RenderError,
    formats,
    render,
    render_bytes,
    to_dict,
)

PACKAGE = Path(importlib.import_module("exactodds").__file__ or "").parent

#: The result types each command with a --format option renders (dotted names).
RENDERED_BY = {
    "odds": (
        "exactodds.analysis.single.Analysis",
        "exactodds.analysis.multipliers.OverlayAnalysis",
    ),
    "bets": ("exactodds.bets.catalogue.BetList", "exactodds.bets.multipliers.MultiplierOverlay"),
    "eor": ("exactodds.analysis.removal.EffectOfRemoval",),
    "breakeven": ("exactodds.analysis.symbolic.Breakeven",),
    "breakdown": ("exactodds.analysis.breakdown.Breakdown",),
    "solve": ("exactodds.games.chemin_de_fer.Solution",),
    "depth": ("exactodds.advantage.depth.DepthTable",),
    "edgesort": (
        "exactodds.advantage.edgesort.EdgeSort",
        "exactodds.advantage.edgesort.PartitionSearch",
    ),
    "simulate": (
        "exactodds.simulation.result.SimulationResult",
        "exactodds.simulation.sweep.SweepResult",
    ),
    "audit": ("exactodds.studies.audit.Audit",),
    "protection": ("exactodds.studies.protection.ProtectionTable",),
    "report": ("exactodds.studies.parsheet.ParSheet",),
    "multipliers": (
        "exactodds.studies.multipliers.LawDesign",
        "exactodds.studies.multipliers.LawInference",
    ),
}


def _format_choices(name: str) -> tuple[str, ...] | None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    for parameter in command.params:
        if parameter.name == "output_format":
            assert isinstance(parameter.type, click.Choice)
            return tuple(str(choice) for choice in parameter.type.choices)
    return None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_format_a_command_offers_has_a_renderer(name: str) -> None:
    choices = _format_choices(name)
    if choices is None:  # batch and serve write one fixed form
        assert name not in RENDERED_BY
        return
    assert name in RENDERED_BY, f"say in RENDERED_BY which results {name} renders"
    for result in RENDERED_BY[name]:
        assert set(choices) <= set(formats(result)), (name, result)


def test_audit_designs_in_the_formats_the_registry_writes() -> None:
    from exactodds.cli.audit import _DESIGN_FORMATS

    assert set(_DESIGN_FORMATS) == set(formats("exactodds.studies.design.PayDesign"))


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_entry_names_a_class_and_a_function_that_take_a_result(key: tuple[str, str]) -> None:
    entry = RENDERERS[key]
    module, _, name = entry.result.rpartition(".")
    assert inspect.isclass(getattr(importlib.import_module(module), name)), entry.result
    function = entry.load()
    parameters = list(inspect.signature(function).parameters.values())
    assert parameters and parameters[0].kind is not inspect.Parameter.KEYWORD_ONLY, entry.function
    # Every other parameter has a default or is an option a command passes by name.
    assert all(p.kind is not inspect.Parameter.VAR_POSITIONAL for p in parameters), entry.function


def test_an_unknown_pair_is_one_sentence_naming_the_formats() -> None:
    analysis = analyze(Shoe.standard(decks=1), Rules())
    with pytest.raises(RenderError) as caught:
        render(analysis, "xml")
    assert str(caught.value) == "An Analysis cannot be written as xml; use table, json or csv."
    assert isinstance(caught.value, ExactOddsError)
    with pytest.raises(
        RenderError, match=r"^No renderer writes a Shoe; register one for its type\.$"
    ):
        render(Shoe.standard(decks=1), "table")


def test_the_cli_reports_a_bad_format_in_one_line() -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, ["odds", "--decks", "1", "--format", "xml"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_a_subclass_renders_as_its_registered_class_with_its_own_additions() -> None:
    known = analyze_known(Shoe.standard(decks=1), Rules(), {1: "9", 3: "KS"})
    assert formats(known) == formats(analyze(Shoe.standard(decks=1), Rules()))
    data = json.loads(render(known, "json", digits=4))
    assert list(data)[-1] == "known" and data["known"] == {"1": "9", "3": "KS"}
    assert to_dict(known, digits=4) == data
    assert "Known: 9 at position 1" in render(known, "table", digits=4)


def test_each_renderer_takes_only_the_options_it_names() -> None:
    analysis = analyze(Shoe.standard(decks=1), Rules(), select_bets("tie"))
    # csv names neither exact nor wide: offering them changes nothing.
    assert render(analysis, "csv", digits=4, exact=True, wide=True) == render(
        analysis, "csv", digits=4
    )
    listing = BetList.of(select_bets("tie"))
    assert render(listing, "json") == json.dumps(listing.to_dict(), indent=2)


def test_text_formats_are_bytes_too_and_binary_formats_are_not_text() -> None:
    listing = BetList.of(select_bets("tie"))
    assert render_bytes(listing, "csv") == render(listing, "csv").encode("utf-8")
    from exactodds.report.registry import register

    register("exactodds.bets.catalogue.BetList", "pdf", "exactodds.report.odds:render_bets_csv")
    try:
        with pytest.raises(RenderError, match="is bytes, not text; use render_bytes"):
            render(listing, "pdf")
    finally:
        del RENDERERS["exactodds.bets.catalogue.BetList", "pdf"]


def test_to_dict_is_the_data_the_json_format_writes() -> None:
    analysis = analyze(Shoe.standard(decks=1), Rules(), select_bets("tie,dragon7"))
    assert json.loads(render(analysis, "json", digits=6)) == to_dict(analysis, digits=6)
    listing = BetList.of(select_bets("dragon7"))
    assert to_dict(listing) == listing.to_dict() == json.loads(render(listing, "json"))
    with pytest.raises(RenderError, match="has no JSON data"):
        to_dict(object())
    assert DATA not in formats(analysis)


def _methods(name: str) -> list[str]:
    """``module:Class.name`` of every method called *name* in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found += [
                    f"{path.relative_to(PACKAGE)}:{node.name}.{item.name}"
                    for item in node.body
                    if isinstance(item, ast.FunctionDef) and item.name == name
                ]
    return found


def test_no_public_as_dict_is_left_in_the_package() -> None:
    # One vocabulary: a result's JSON-ready data is its to_dict() (or, where the reader's
    # digits or the shared shoe block are needed, report/'s builder behind registry.to_dict).
    assert _methods("as_dict") == []


def test_report_has_no_public_data_builders() -> None:
    public = []
    for path in sorted((PACKAGE / "report").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        public += [
            f"{path.name}:{node.name}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
            and node.name.endswith("_data")
            and not node.name.startswith("_")
        ]
    assert public == []


def test_the_known_cards_block_is_built_once() -> None:
    builders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "card.symbol for position, card in" in text:
            builders.append(str(path.relative_to(PACKAGE)))
    assert builders == ["report/writer.py"]
