"""The floors hold: no module imports a higher floor, and no modules import one another in a circle.

The order is written once, in :data:`exactodds.floors.FLOORS`. Every ``import`` and
``from ... import`` in ``exactodds/`` counts, those at module level and those inside functions
(the lazy ones that keep ``exactodds odds`` fast), and those under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import exactodds
from exactodds.floors import FLOORS, ROOMS, floor_of, room_allows

#: The package as imported: the checkout's, or the installed wheel's when CI tests the wheel.
PACKAGE = Path(exactodds.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def _tree(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once a run: the checks below only read it."""
    return ast.parse(_source(path))


def _imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every ``exactodds`` module *module* imports, with the line that imports it."""
    modules = _modules()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from exactodds.engine import walk` imports the submodule walk.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target == "exactodds" or target.startswith("exactodds."):
                yield target, node.lineno


@cache
def _arrows() -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple(
        (module, frozenset(target for target, _ in _imports(module, path) if target != module))
        for module, path in _modules().items()
    )


def _graph() -> dict[str, set[str]]:
    """Each module's imports of the package: a fresh copy, so a test may change its own."""
    return {module: set(targets) for module, targets in _arrows()}


def test_every_module_has_a_floor() -> None:
    for module in _modules():
        floor_of(module)  # raises KeyError naming the module otherwise


def test_floors_are_numbered_in_order_and_name_each_module_once() -> None:
    assert [floor.number for floor in FLOORS] == list(range(1, len(FLOORS) + 1))
    names = [name for floor in FLOORS for name in floor.modules]
    assert len(names) == len(set(names))


def test_no_import_runs_up_a_floor() -> None:
    upward = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {module} (floor {floor_of(module)}) imports "
        f"{target} (floor {floor_of(target)})"
        for module, path in _modules().items()
        for target, line in _imports(module, path)
        if floor_of(target) > floor_of(module)
    ]
    assert not upward, "\n".join(upward)


def test_rooms_stand_below_their_package() -> None:
    """simulation/risk/ imports nothing of simulation/ outside itself, and simulation/staking/
    only the risk room and the pipeline's words (:data:`exactodds.floors.ROOMS`): the
    pipeline's runners stand on the rooms, never the other way."""
    outside = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {target}"
        for module, path in _modules().items()
        for target, line in _imports(module, path)
        if not room_allows(module, target)
    ]
    assert not outside, "\n".join(outside)
    for room in ROOMS:
        assert any(module.startswith(f"exactodds.{room.name}.") for module in _modules()), room


def test_the_room_check_finds_an_import_out_of_a_room() -> None:
    assert not room_allows("exactodds.simulation.risk.ruin", "exactodds.simulation.block")
    assert not room_allows("exactodds.simulation.risk.ruin", "exactodds.simulation.staking.stakes")
    assert not room_allows("exactodds.simulation.staking.sizing", "exactodds.simulation.result")
    assert not room_allows("exactodds.simulation.staking.optimal", "exactodds.simulation.study")
    assert room_allows("exactodds.simulation.staking.sizing", "exactodds.simulation.risk.sums")
    assert room_allows("exactodds.simulation.risk.ruin", "exactodds.errors")
    assert room_allows("exactodds.simulation.block", "exactodds.simulation.risk.ruin")


def test_no_module_imports_another_modules_private_names() -> None:
    """What one module uses of another has a public name: no ``from .x import _name``."""
    private = [
        f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {alias.name} from {node.module}"
        for path in _modules().values()
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.ImportFrom)
        and (node.level or (node.module or "").startswith("exactodds"))
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert not private, "\n".join(private)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert _circles(_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_public_names_for_type_checkers_are_the_public_names() -> None:
    """``exactodds/__init__.py``'s ``TYPE_CHECKING`` imports re-export exactly ``_PUBLIC``."""
    import exactodds

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        (node.module.removeprefix("exactodds."), alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("exactodds.")
        for alias in node.names
        if alias.asname == alias.name
    }
    public = {(module, name) for module, names in exactodds._PUBLIC.items() for name in names}
    assert checked == public
    assert exactodds.__all__ == sorted(name for _, name in public)


#: At most this many lines of code in a function (docstring, blank lines and comments aside).
LONGEST_FUNCTION = 80
#: Functions still longer, in areas other work is reshaping; each is a debt, not a licence.
LONG_FOR_NOW: dict[tuple[str, str], str] = {}


def _code_lines(lines: list[str], function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = function.body[0]
    start = first.lineno
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        start = (first.end_lineno or first.lineno) + 1  # the docstring does not count
    body = lines[start - 1 : function.end_lineno]
    return sum(1 for line in body if line.strip() and not line.strip().startswith("#"))


def test_no_function_is_longer_than_80_lines_of_code() -> None:
    long = []
    for module, path in _modules().items():
        lines = _source(path).splitlines()
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(_tree(path)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = _code_lines(lines, node)
            if length > LONGEST_FUNCTION and (where, node.name) not in LONG_FOR_NOW:
                long.append(f"{module}.{node.name} (line {node.lineno}): {length} lines of code")
            if length <= LONGEST_FUNCTION and (where, node.name) in LONG_FOR_NOW:
                long.append(f"{module}.{node.name} is short now: take it off LONG_FOR_NOW")
    assert not long, "\n".join(long)


def test_the_walk_reads_the_whole_package() -> None:
    # A walk over no files would pass every test above: hold it to the package's modules.
    modules = _modules()
    assert "exactodds.engine.walk" in modules and "exactodds.cli.app" in modules
    assert all(floor_of(module) >= 1 for module in modules)


#: What computes: the analysis entry points, the walk, the searches and the studies. report/
#: renders what these hand it, so no module of report/ may import one (a named denylist).
COMPUTING: dict[str, frozenset[str]] = {
    "exactodds.analysis.single": frozenset({"analyze", "price_bet", "price_table"}),
    "exactodds.analysis.many": frozenset({"Analyzer", "analyze_many", "analyzer_for"}),
    "exactodds.analysis.removal": frozenset({"effect_of_removal", "expected_values"}),
    "exactodds.analysis.symbolic": frozenset(
        {"breakeven", "find_breakeven", "price", "expected_value_expression"}
    ),
    "exactodds.analysis.known": frozenset({"analyze_known"}),
    "exactodds.analysis.breakdown": frozenset({"breakdown"}),
    "exactodds.analysis.tails": frozenset({"session_tails"}),
    "exactodds.engine.walk": frozenset({"enumerate_rounds"}),
    "exactodds.engine.known": frozenset({"enumerate_known"}),
    "exactodds.studies.parsheet": frozenset({"par_sheet", "compare_alternatives"}),
    "exactodds.simulation.run": frozenset({"simulate"}),
    "exactodds.advantage.depth": frozenset({"depth_table", "partial_shoe", "partial_odds"}),
    "exactodds.advantage.edgesort": frozenset({"edge_sort", "search_partitions"}),
    "exactodds.games.chemin_de_fer": frozenset({"solve"}),
}
#: Modules that only count: importing anything from them is computing.
COUNTING_MODULES = (
    "exactodds.engine.polynomial",
    "exactodds.engine.coefficients",
    "exactodds.engine.cache",
    "exactodds.engine.kernel",
)
#: Methods that run a search or a walk on a result already handed over.
SEARCHING_METHODS = frozenset({"linear_count", "betting_correlation", "analyze", "analyze_many"})


def _computing(module: str, source: str) -> list[str]:
    """Where *source* (the text of *module*) imports or calls something on the denylist."""
    package = module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            pairs = [(alias.name, "") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            pairs = [(base, alias.name) for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in SEARCHING_METHODS
        ):
            found.append(f"{module}:{node.lineno}: calls .{node.func.attr}()")
            continue
        else:
            continue
        for base, name in pairs:
            if name in COMPUTING.get(base, ()) or f"{base}.{name}".removesuffix(".") in {
                f"{key}.{value}" for key, values in COMPUTING.items() for value in values
            }:
                found.append(f"{module}:{node.lineno}: imports {name or base} from {base}")
            elif any(base == root or base.startswith(root + ".") for root in COUNTING_MODULES):
                found.append(f"{module}:{node.lineno}: imports {base}, which counts")
    return found


def test_report_renders_and_never_computes() -> None:
    found = [
        line
        for module, path in _modules().items()
        if module == "exactodds.report" or module.startswith("exactodds.report.")
        for line in _computing(module, _source(path))
    ]
    assert not found, "report/ computes:\n" + "\n".join(found)


def test_the_computing_check_finds_computing() -> None:
    source = (
        "from exactodds.analysis.single import Analysis, analyze\n"
        "from ...analysis.many import Analyzer\n"
        "import exactodds.analysis.removal.effect_of_removal\n"
        "from exactodds.engine.kernel.program import native_module\n"
        "def f(result):\n"
        "    return result.linear_count('tie', 2)\n"
    )
    assert [line.split(": ", 1)[1] for line in _computing("exactodds.report.x.y", source)] == [
        "imports analyze from exactodds.analysis.single",
        "imports Analyzer from exactodds.analysis.many",
        "imports exactodds.analysis.removal.effect_of_removal from "
        "exactodds.analysis.removal.effect_of_removal",
        "imports exactodds.engine.kernel.program, which counts",
        "calls .linear_count()",
    ]
    assert _computing("exactodds.report.x", "from exactodds.analysis.single import Analysis") == []


def test_every_package_docstring_names_its_modules() -> None:
    """A package's docstring is its table of contents: it names each module and subpackage."""
    missing = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        folder = init.parent
        if folder == PACKAGE:
            continue  # the package itself: the public API, mapped in docs/architecture.md
        package = _module_name(init)
        text = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        members = [path.stem for path in folder.glob("*.py") if path.stem != "__init__"]
        members += [path.name for path in folder.iterdir() if (path / "__init__.py").exists()]
        missing += [
            f"{package}.{member}" for member in sorted(members) if f"{package}.{member}" not in text
        ]
    assert not missing, "package docstrings do not name: " + ", ".join(missing)


def test_every_all_lists_the_module_s_public_functions_and_classes() -> None:
    incomplete = []
    for module, path in _modules().items():
        tree = _tree(path)
        listed: set[str] | None = None
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "__all__"
            ):
                try:
                    listed = set(ast.literal_eval(node.value))
                except ValueError:  # built, not written (the package's own list)
                    listed = None
        if listed is None:
            continue
        public = [
            node.name
            for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
        ]
        incomplete += [f"{module}.{name}" for name in public if name not in listed]
    assert not incomplete, "public but not in __all__: " + ", ".join(incomplete)
