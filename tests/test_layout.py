"""The house rules that a reader relies on: no module imports in a circle, none is long, and each
package's map (its __init__.py docstring) names its modules, as cli/commands.py's names the verbs.

Imports are read from the source (tests/support/imports.py: every `import` and `from ... import`,
inside functions too: a circle closed at call time is still a circle for the reader).
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

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


def package_maps() -> dict[Path, str]:
    """Each subpackage of benchmark/ -> its __init__.py docstring, the map of its modules (the top
    package's map is docs/extending.md's layout, which tests/docs/test_docs.py checks)."""
    return {init.parent: ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            for init in sorted(PACKAGE.rglob("__init__.py")) if init.parent != PACKAGE}


def test_every_package_map_names_each_of_its_modules_and_only_modules_that_exist():
    wrong = []
    for folder, doc in package_maps().items():
        where = folder.relative_to(REPO)
        members = {f"{p.stem}.py" for p in folder.glob("*.py") if p.name != "__init__.py"}
        members |= {f"{p.name}/" for p in folder.iterdir() if (p / "__init__.py").is_file()}
        named = set(re.findall(r"(?<![\w/.])(\w+\.py|\w+/)(?![\w/])", doc))
        wrong += [f"{where}/__init__.py does not name {name}" for name in sorted(members - named)]
        paths = set(re.findall(r"(?<![\w/.])((?:\w+/)*\w+\.py)\b", doc))
        wrong += [f"{where}/__init__.py names {path}, which is not there" for path in sorted(paths)
                  if not any((base / path).is_file() for base in (folder, PACKAGE, REPO))]
    assert not wrong, wrong


def test_the_commands_map_names_every_verb():
    import benchmark.cli.commands
    from benchmark.cli.parser import build_parser

    (verbs,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    listed = set(re.findall(r"^    (\w+) ", benchmark.cli.commands.__doc__, re.M))
    assert listed == set(verbs.choices), f"cli/commands.py's map lists {sorted(listed)}, the verbs are {sorted(verbs.choices)}"
