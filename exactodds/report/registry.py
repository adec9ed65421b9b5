"""One registry of renderers: which function writes which result in which format.

Every command renders through :func:`render` (text) or :func:`render_bytes` (a file's
bytes, PDF and xlsx included); the web and the tests take a result's JSON-ready data from
:func:`to_dict`.  :data:`RENDERERS` maps a result type and a format to the function that
writes it, so a new format or a new result is one entry, and no command chooses a renderer
by an if-chain.  A subclass is written as its nearest registered class is (a
:class:`~exactodds.analysis.known.KnownAnalysis` as an
:class:`~exactodds.analysis.single.Analysis`).

Modelled on datasette's output renderers (``Datasette._register_renderers`` in
``datasette/app.py`` maps a format to its render function, and
``call_with_supported_arguments`` in ``datasette/utils/__init__.py`` hands each function the
arguments it names and no others): a command passes every option it has (``digits``,
``exact``, ``wide``...) and each renderer takes the ones its signature declares.

Entries name their result type and their function by dotted path, so the registry imports
nothing until a result is written: ``exactodds odds`` never loads the simulation, the game
solver or an optional extra.

JSON-ready data, in one vocabulary: a result whose JSON needs nothing but itself has a
``to_dict()`` method (rules, bets, studies, depth tables, simulations); a result whose JSON
carries decimals at the digits the reader asks for, or the shoe block every command's JSON
shares, has its data built in report/ (digits are a rendering parameter, and a library
result below report/ cannot import it), registered here under the format ``"dict"``.
:func:`to_dict` answers both alike.

>>> from exactodds import Shoe, analyze
>>> analysis = analyze(Shoe.standard(decks=8))
>>> print(render(analysis, "csv", digits=4, wide=True).splitlines()[1])
outcome,banker,2292252566437888,8954111587648/19524993263685,0.4586,,,,,,,,,,,,,,,,
>>> to_dict(analysis, digits=4)["bets"]["tie"]["house_edge_decimal"]
'0.1436'
>>> formats(analysis)
('table', 'json', 'csv')
>>> render(analysis, "xlsx")
Traceback (most recent call last):
...
exactodds.report.registry.RenderError: An Analysis cannot be written as xlsx; use table, json or csv.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactodds.errors import ExactOddsError

__all__ = [
    "BINARY_FORMATS",
    "RENDERERS",
    "RenderError",
    "Renderer",
    "formats",
    "register",
    "render",
    "render_bytes",
    "to_dict",
]

#: Formats whose renderer writes bytes (a file), not text.
BINARY_FORMATS = frozenset({"pdf", "xlsx"})

#: The pseudo-format of a result's JSON-ready data (see :func:`to_dict`); not an output format.
DATA = "dict"


class RenderError(ExactOddsError):
    """A result asked for in a format no renderer writes it in."""


@dataclass(frozen=True)
class Renderer:
    """One entry: the function (``"module:name"``) that writes a result type in a format."""

    result: str
    format: str
    function: str

    def load(self) -> Callable[..., Any]:
        """The renderer function, imported now."""
        module, _, name = self.function.partition(":")
        found: Any = importlib.import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
        function: Callable[..., Any] = found
        return function


#: Every (result type, format) a command writes, keyed by the type's dotted name.
RENDERERS: dict[tuple[str, str], Renderer] = {}


def register(result: str, output_format: str, function: str) -> None:
    """Add (or replace) the renderer of *result* (a class's dotted name) in *output_format*.

    *function* is ``"module:name"``; it takes the result first, then any options by name,
    and ``output_format`` if it writes several formats.

    >>> register("exactodds.shoe.Shoe", "text", "exactodds.shoe:Shoe.describe")
    >>> from exactodds import Shoe
    >>> render(Shoe.standard(decks=1), "text")
    '52 cards (1 deck), suits known'
    >>> del RENDERERS["exactodds.shoe.Shoe", "text"]
    """
    RENDERERS[result, output_format] = Renderer(result, output_format, function)


# result type (under exactodds.), format, renderer (module under exactodds.report:function)
_TABLE = (
    ("analysis.single.Analysis", "table", "odds:render_table"),
    ("analysis.single.Analysis", "json", "odds:render_json"),
    ("analysis.single.Analysis", "csv", "odds:render_csv"),
    ("analysis.single.Analysis", DATA, "odds:_analysis_dict"),
    ("bets.catalogue.BetList", "table", "odds:render_bets_table"),
    ("bets.catalogue.BetList", "json", "odds:render_bets_json"),
    ("bets.catalogue.BetList", "csv", "odds:render_bets_csv"),
    ("analysis.removal.EffectOfRemoval", "table", "research:render_removal_table"),
    ("analysis.removal.EffectOfRemoval", "json", "research:render_removal_json"),
    ("analysis.removal.EffectOfRemoval", "csv", "research:render_removal_csv"),
    ("analysis.removal.EffectOfRemoval", DATA, "research:_removal_dict"),
    ("analysis.symbolic.Breakeven", "table", "research:render_breakeven_table"),
    ("analysis.symbolic.Breakeven", "json", "research:render_breakeven_json"),
    ("analysis.symbolic.Breakeven", "csv", "research:render_breakeven_csv"),
    ("analysis.symbolic.Breakeven", DATA, "research:_breakeven_dict"),
    ("analysis.breakdown.Breakdown", "table", "breakdown:render_breakdown_table"),
    ("analysis.breakdown.Breakdown", "json", "breakdown:render_breakdown_json"),
    ("analysis.breakdown.Breakdown", "csv", "breakdown:render_breakdown_csv"),
    ("analysis.breakdown.Breakdown", DATA, "breakdown:_breakdown_dict"),
    ("games.chemin_de_fer.Solution", "table", "game:render_solution_table"),
    ("games.chemin_de_fer.Solution", "json", "game:render_solution_json"),
    ("games.chemin_de_fer.Solution", DATA, "game:_solution_dict"),
    ("games.option.OptionSolution", "table", "choice:render_option_table"),
    ("games.option.OptionSolution", "json", "choice:render_option_json"),
    ("games.option.OptionSolution", DATA, "choice:_option_dict"),
    ("games.banque.BanqueSolution", "table", "choice:render_banque_table"),
    ("games.banque.BanqueSolution", "json", "choice:render_banque_json"),
    ("games.banque.BanqueSolution", DATA, "choice:_banque_dict"),
    ("games.dragon_tiger.DragonTigerOdds", "table", "dragon_tiger:render_odds_table"),
    ("games.dragon_tiger.DragonTigerOdds", "json", "dragon_tiger:render_odds_json"),
    ("games.dragon_tiger.DragonTigerOdds", "csv", "dragon_tiger:render_odds_csv"),
    ("games.dragon_tiger.DragonTigerOdds", DATA, "dragon_tiger:_odds_dict"),
    ("analysis.multipliers.OverlayAnalysis", "table", "multipliers:render_overlay_table"),
    ("analysis.multipliers.OverlayAnalysis", "json", "multipliers:render_overlay_json"),
    ("analysis.multipliers.OverlayAnalysis", "csv", "multipliers:render_overlay_csv"),
    ("analysis.multipliers.OverlayAnalysis", DATA, "multipliers:_overlay_dict"),
    ("studies.multipliers.LawDesign", "table", "multipliers:render_design_table"),
    ("studies.multipliers.LawDesign", "json", "multipliers:render_design_json"),
    ("studies.multipliers.LawInference", "table", "multipliers:render_inference_table"),
    ("studies.multipliers.LawInference", "json", "multipliers:render_inference_json"),
    ("bets.multipliers.MultiplierOverlay", "table", "multipliers:render_law_table"),
    ("bets.multipliers.MultiplierOverlay", "json", "multipliers:render_law_json"),
    ("bets.multipliers.MultiplierOverlay", "csv", "multipliers:render_law_csv"),
    ("games.dragon_tiger.DragonTigerRemoval", "table", "dragon_tiger:render_removal_table"),
    ("games.dragon_tiger.DragonTigerRemoval", "json", "dragon_tiger:render_removal_json"),
    ("games.dragon_tiger.DragonTigerRemoval", "csv", "dragon_tiger:render_removal_csv"),
    ("games.dragon_tiger.DragonTigerRemoval", DATA, "dragon_tiger:_removal_dict"),
    ("games.peek.PeekSolution", "table", "peek:render_peek_table"),
    ("games.peek.PeekSolution", "json", "peek:render_peek_json"),
    ("games.peek.PeekSolution", DATA, "peek:_peek_dict"),
    ("games.peek.PeekSurvey", "table", "peek:render_survey_table"),
    ("games.peek.PeekSurvey", "json", "peek:render_survey_json"),
    ("games.peek.PeekSurvey", DATA, "peek:_survey_dict"),
    ("advantage.depth.DepthTable", "table", "advantage:render_depth_table"),
    ("advantage.depth.DepthTable", "json", "advantage:render_depth_json"),
    ("advantage.depth.DepthTable", "csv", "advantage:render_depth_csv"),
    ("advantage.edgesort.EdgeSort", "table", "advantage:render_edge_sort_table"),
    ("advantage.edgesort.EdgeSort", "json", "advantage:render_edge_sort_json"),
    ("advantage.edgesort.EdgeSort", "csv", "advantage:render_edge_sort_csv"),
    ("advantage.edgesort.PartitionSearch", "table", "advantage:render_search_table"),
    ("advantage.edgesort.PartitionSearch", "json", "advantage:render_search_json"),
    ("advantage.edgesort.PartitionSearch", "csv", "advantage:render_search_csv"),
    ("simulation.result.SimulationResult", "table", "simulation:render_table"),
    ("simulation.result.SimulationResult", "json", "simulation:render_json"),
    ("simulation.result.SimulationResult", "csv", "simulation:render_csv"),
    ("simulation.sweep.SweepResult", "table", "sweep:render_sweep_table"),
    ("simulation.sweep.SweepResult", "json", "sweep:render_sweep_json"),
    ("simulation.sweep.SweepResult", "csv", "sweep:render_sweep_csv"),
    (
        "games.dragon_tiger_shoes.DragonTigerSimulation",
        "table",
        "dragon_tiger:render_simulation_table",
    ),
    (
        "games.dragon_tiger_shoes.DragonTigerSimulation",
        "json",
        "dragon_tiger:render_simulation_json",
    ),
    ("studies.dragon_tiger_audit.DragonTigerAudit", "table", "dragon_tiger:render_audit_table"),
    ("studies.dragon_tiger_audit.DragonTigerAudit", "json", "dragon_tiger:render_audit_json"),
    ("studies.audit.Audit", "table", "audit:render_audit"),
    ("studies.audit.Audit", "json", "audit:render_audit"),
    ("studies.audit.Audit", "markdown", "audit:render_audit"),
    ("studies.audit.Audit", "html", "audit:render_audit"),
    ("studies.audit.Audit", "pdf", "audit:audit_pdf"),
    ("studies.audit.Audit", "xlsx", "audit:audit_xlsx"),
    ("studies.design.PayDesign", "table", "audit:render_design"),
    ("studies.design.PayDesign", "json", "audit:render_design"),
    ("studies.design.PayDesign", "markdown", "audit:render_design"),
    ("studies.design.PayDesign", "html", "audit:render_design"),
    ("studies.protection.ProtectionTable", "table", "protection:render_protection"),
    ("studies.protection.ProtectionTable", "json", "protection:render_protection"),
    ("studies.parsheet.ParSheet", "html", "parsheet.render:render_html"),
    ("studies.parsheet.ParSheet", "markdown", "parsheet.render:render_markdown"),
    ("studies.parsheet.ParSheet", "xlsx", "registry:_parsheet_xlsx"),
    ("studies.parsheet.ParSheet", "pdf", "parsheet.pdf:render_pdf"),
    ("studies.review.Review", "table", "review:render_review_table"),
    ("studies.review.Review", "json", "review:render_review_json"),
    ("studies.review.Review", "markdown", "review:render_review_document"),
    ("studies.review.Review", "html", "review:render_review_document"),
    ("studies.review.Review", "pdf", "review:review_pdf"),
    ("studies.review.Review", "xlsx", "review:review_xlsx"),
)
for _result, _format, _function in _TABLE:
    register(f"exactodds.{_result}", _format, f"exactodds.report.{_function}")


def _parsheet_xlsx(sheet: Any) -> bytes:
    """A par sheet's workbook as bytes (:func:`~exactodds.report.parsheet.xlsx.write_xlsx`)."""
    import io

    from exactodds.report.parsheet.xlsx import write_xlsx

    buffer = io.BytesIO()
    write_xlsx(sheet, buffer)
    return buffer.getvalue()


def _type_name(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def _lookup(result: object, output_format: str) -> Renderer | None:
    for kind in type(result).__mro__:
        entry = RENDERERS.get((_type_name(kind), output_format))
        if entry is not None:
            return entry
    return None


def formats(result: object) -> tuple[str, ...]:
    """The formats *result* can be written in, in registry order.

    *result* is a result, its type, or its type's dotted name (which imports nothing).

    >>> formats("exactodds.games.chemin_de_fer.Solution")
    ('table', 'json')
    """
    if isinstance(result, str):
        names = {result}
    else:
        kinds = (result if isinstance(result, type) else type(result)).__mro__
        names = {_type_name(kind) for kind in kinds}
    found = dict.fromkeys(entry.format for entry in RENDERERS.values() if entry.result in names)
    found.pop(DATA, None)
    return tuple(found)


def _article(name: str) -> str:
    return f"{'An' if name[0] in 'AEIOU' else 'A'} {name}"


def _renderer(result: object, output_format: str) -> Renderer:
    entry = _lookup(result, output_format)
    if entry is not None:
        return entry
    name = type(result).__name__
    known = formats(result)
    if not known:
        raise RenderError(f"No renderer writes a {name}; register one for its type.")
    listed = ", ".join(known[:-1]) + (f" or {known[-1]}" if len(known) > 1 else known[0])
    raise RenderError(f"{_article(name)} cannot be written as {output_format}; use {listed}.")


def _call(entry: Renderer, result: object, options: dict[str, Any]) -> Any:
    """The entry's function on *result*, given the options its signature names (datasette's way).

    A function that writes several formats is told which by its ``output_format`` argument.
    """
    function = entry.load()
    offered = {**options, "output_format": entry.format}
    parameters = list(inspect.signature(function).parameters)[1:]
    return function(result, **{name: offered[name] for name in parameters if name in offered})


def render(result: object, output_format: str, **options: Any) -> str:
    """*result* written as text in *output_format*; each renderer takes the options it names.

    A binary format (PDF, xlsx) is :func:`render_bytes`'s.
    """
    if output_format in BINARY_FORMATS and _lookup(result, output_format) is not None:
        raise RenderError(f"The {output_format} format is bytes, not text; use render_bytes.")
    text: str = _call(_renderer(result, output_format), result, options)
    return text


def render_bytes(result: object, output_format: str, **options: Any) -> bytes:
    """*result* written in *output_format* as a file's bytes (text as UTF-8)."""
    written = _call(_renderer(result, output_format), result, options)
    return written if isinstance(written, bytes) else str(written).encode("utf-8")


def to_dict(result: object, **options: Any) -> dict[str, Any]:
    """*result*'s JSON-ready data (what its ``json`` format writes), given the options it names.

    The result's own ``to_dict()`` where it has one, else the builder registered for it.
    """
    entry = _lookup(result, DATA)
    if entry is not None:
        data: dict[str, Any] = _call(entry, result, options)
        return data
    method = getattr(result, "to_dict", None)
    if method is None:
        raise RenderError(f"{_article(type(result).__name__)} has no JSON data.")
    own: dict[str, Any] = method()
    return own
