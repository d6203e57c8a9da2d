"""The report package's layout: which module may import which, read from the source itself (every
import statement, at module level or inside a function), and what importing a module loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import benchmark.report
from tests.support.imports import import_circle, import_graph

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


def report_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """The report package's import graph (tests/support/imports.py), named inside the package:
    "pages.html", "view", and "__init__" for the package itself."""
    def inside(name: str) -> str:
        return name.removeprefix("benchmark.report").removeprefix(".") or ORCHESTRATOR

    graph = import_graph(package.parent)
    return {inside(name): {inside(other) for other in imported if other.startswith("benchmark.report")}
            for name, imported in graph.items() if name.startswith("benchmark.report")}


def room(module: str) -> str:
    return module.split(".")[0]


def test_the_import_reader_sees_imports_inside_functions(tmp_path):
    fake = tmp_path / "benchmark" / "report"
    for folder in (fake / "pages", fake / "plots"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (fake.parent / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("def write_reports():\n    pass\n")
    (fake / "plots" / "render.py").write_text("")
    (fake / "pages" / "html.py").write_text("")
    (fake / "view.py").write_text("def f():\n    from benchmark.report.plots.render import render_plots\n"
                                  "    from benchmark.report.pages import html\n"
                                  "    from benchmark.report import write_reports\n")
    assert report_graph(fake)["view"] == {"plots.render", "pages.html", "__init__"}


def test_each_room_imports_only_the_rooms_below_it():
    graph = report_graph()
    assert {room(module) for module in graph} == set(LEVELS)
    wrong = [f"{module} imports {other}" for module, imported in graph.items() for other in imported
             if room(other) != room(module) and LEVELS[room(other)] >= LEVELS[room(module)]]
    assert not wrong, wrong


def test_no_report_module_imports_another_renderer():
    graph = report_graph()
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


def test_the_report_modules_import_no_circle():
    assert import_circle(report_graph()) == []


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
