"""The report package's layout: which module may import which, read from the source itself (every
import statement, at module level or inside a function), and what importing a module loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import benchmark.report

PACKAGE = Path(benchmark.report.__file__).parent
# Each renderer writes one kind of output; token_boundaries.py is the part of the plots that
# plots.py would be too long to hold.
RENDERERS = {"markdown": "markdown", "html": "html", "plots": "plots", "token_boundaries": "plots",
             "figures": "plots"}
# write_reports puts the renderers together: the one module that imports all of them.
ORCHESTRATOR = "__init__"
# Each plot's spec names the function that draws it, so the catalogue refers to the drawing modules
# (loading no plotting library: they import matplotlib when they draw); it draws nothing itself.
CATALOGUE = "catalogue"
DRAWING_MODULES = {"plots", "token_boundaries"}
HEAVY = ("pandas", "seaborn", "matplotlib", "numpy")


def report_imports(source: str) -> set[str]:
    """The benchmark.report modules that `source` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "benchmark.report":  # a submodule, or a name of the package itself
                found.update(alias.name if (PACKAGE / f"{alias.name}.py").exists() else ORCHESTRATOR
                             for alias in node.names)
            elif node.module.startswith("benchmark.report."):
                found.add(node.module.removeprefix("benchmark.report."))
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix("benchmark.report.") for alias in node.names
                         if alias.name.startswith("benchmark.report."))
    return found


def import_graph() -> dict[str, set[str]]:
    return {path.stem: report_imports(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.glob("*.py"))}


def test_the_import_reader_sees_imports_inside_functions():
    source = "def f():\n    from benchmark.report.plots import render_plots\n    from benchmark.report import html\n"
    assert report_imports(source) == {"plots", "html"}


def test_no_report_module_imports_another_renderer():
    graph = import_graph()
    assert set(RENDERERS) <= set(graph)
    wrong = []
    for module, imported in graph.items():
        if module == ORCHESTRATOR:
            continue
        for other in imported & set(RENDERERS):
            if module == CATALOGUE and other in DRAWING_MODULES:
                continue
            if RENDERERS.get(module) != RENDERERS[other]:
                wrong.append(f"{module} imports {other}")
    assert not wrong, wrong


def import_circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports in `graph` (["a", "b", "a"]), or [] when there is none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        for other in sorted(graph.get(module, ())):
            if found := visit(other, path + [module]):
                return found
        done.add(module)
        return []

    return next((found for module in sorted(graph) if (found := visit(module, []))), [])


def test_the_circle_finder_finds_one():
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_report_modules_import_no_circle():
    graph = import_graph()
    unknown = {other for imported in graph.values() for other in imported} - set(graph)
    assert not unknown, unknown
    assert import_circle(graph) == []


@pytest.mark.parametrize("module", ["benchmark.report", "benchmark.report.catalogue", "benchmark.report.analysis",
                                    "benchmark.report.findings", "benchmark.report.methods",
                                    "benchmark.report.naming", "benchmark.report.style"])
def test_the_plain_modules_load_no_plotting_or_pandas(module):
    # catalogue.py and the words of a report are plain data: pandas, seaborn and matplotlib load
    # only when tables or figures are built.
    code = f"import sys, {module}; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", (module, loaded)
