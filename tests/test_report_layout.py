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
# The rooms of report/, each importing only from rooms on a lower level: the view and the words
# every writer shares, the facts derived from the rows, the tables and the plots (which know
# nothing of each other), the pages, and write_reports (__init__.py) that puts them together.
LEVELS = {"view": 0, "naming": 0, "facts": 1, "tables": 2, "plots": 2, "pages": 3, "__init__": 4}
# Each renderer writes one kind of output and imports no other: the two pages, and the plots.
RENDERERS = {"pages.markdown": "markdown", "pages.html": "html", "plots.render": "plots"}
# Each plot's spec names the function that draws it, so the catalogue refers to the drawing modules
# (loading no plotting library: they import matplotlib when they draw); it draws nothing itself.
# The pages read the catalogue (titles, captions, sections), never a drawing module.
CATALOGUE = "plots.catalogue"
ORCHESTRATOR = "__init__"
HEAVY = ("pandas", "seaborn", "matplotlib", "numpy")


def module_name(path: Path) -> str:
    """report/pages/html.py -> "pages.html"; report/__init__.py -> "__init__"."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def report_imports(source: str) -> set[str]:
    """The benchmark.report modules that `source` imports, anywhere in it ("pages.html", "view";
    a name of the package itself is "__init__")."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("benchmark.report"):
            base = node.module.removeprefix("benchmark.report").removeprefix(".")
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                if (PACKAGE / f"{sub.replace('.', '/')}.py").exists():
                    found.add(sub)  # `from benchmark.report.plots import catalogue`: the submodule
                else:
                    found.add(base or ORCHESTRATOR)
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix("benchmark.report.") for alias in node.names
                         if alias.name.startswith("benchmark.report."))
    return found


def import_graph() -> dict[str, set[str]]:
    return {module_name(path): report_imports(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    return module.split(".")[0]


def test_the_import_reader_sees_imports_inside_functions():
    source = ("def f():\n    from benchmark.report.plots.render import render_plots\n"
              "    from benchmark.report.pages import html\n    from benchmark.report import write_reports\n")
    assert report_imports(source) == {"plots.render", "pages.html", "__init__"}


def test_each_room_imports_only_the_rooms_below_it():
    graph = import_graph()
    assert {room(module) for module in graph} == set(LEVELS)
    wrong = [f"{module} imports {other}" for module, imported in graph.items() for other in imported
             if room(other) != room(module) and LEVELS[room(other)] >= LEVELS[room(module)]]
    assert not wrong, wrong


def test_no_report_module_imports_another_renderer():
    graph = import_graph()
    assert set(RENDERERS) <= set(graph)
    wrong = []
    for module, imported in graph.items():
        if module == ORCHESTRATOR:
            continue
        for other in imported & set(RENDERERS):
            if RENDERERS.get(module) != RENDERERS[other]:
                wrong.append(f"{module} imports {other}")
        if room(module) == "pages":
            wrong += [f"{module} imports {other}" for other in imported
                      if room(other) == "plots" and other != CATALOGUE]
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


@pytest.mark.parametrize("module", ["benchmark.report", "benchmark.report.plots.catalogue",
                                    "benchmark.report.facts.analysis", "benchmark.report.facts.findings",
                                    "benchmark.report.facts.methods", "benchmark.report.naming",
                                    "benchmark.report.plots.style"])
def test_the_plain_modules_load_no_plotting_or_pandas(module):
    # The catalogue and the words of a report are plain data: pandas, seaborn and matplotlib load
    # only when tables or figures are built.
    code = f"import sys, {module}; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", (module, loaded)
