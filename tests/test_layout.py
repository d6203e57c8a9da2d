"""The house rules that a reader relies on: no module imports in a circle, none is long.

Imports are read from the source (tests/support/imports.py: every `import` and `from ... import`,
inside functions too: a circle closed at call time is still a circle for the reader).
"""

from __future__ import annotations

from tests.support.imports import import_circle, import_graph, imports_of, package_modules
from tests.support.paths import REPO

PACKAGE = REPO / "benchmark"
MAX_LINES = 420  # "about 400": a module past it does more than one job


def test_no_module_imports_in_a_circle():
    circle = import_circle(import_graph(PACKAGE))
    assert not circle, "import circle: " + " -> ".join(circle)


def test_the_circle_check_sees_a_circle(tmp_path):
    # The check must be able to fail: two modules of a fake package that import each other.
    fake = tmp_path / "benchmark"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "a.py").write_text("def f():\n    from benchmark import b\n")
    (fake / "b.py").write_text("from benchmark.a import f\n")
    known = package_modules(fake)
    assert imports_of(fake / "a.py", known, tmp_path) == {"benchmark.b"}
    assert imports_of(fake / "b.py", known, tmp_path) == {"benchmark.a"}
    assert import_circle(import_graph(fake)) in (["benchmark.a", "benchmark.b", "benchmark.a"],
                                                 ["benchmark.b", "benchmark.a", "benchmark.b"])


def test_the_circle_finder_finds_one():
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_module_is_long():
    long = {name: n for name, path in package_modules(PACKAGE).items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
