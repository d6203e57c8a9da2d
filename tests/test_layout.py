"""The house rules that a reader relies on: no module imports in a circle, none is long.

Imports are read from the source (every `import` and `from ... import`, inside functions too:
a circle closed at call time is still a circle for the reader).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "benchmark"
MAX_LINES = 420  # "about 400": a module past it does more than one job


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, known: dict[str, Path]) -> set[str]:
    """The benchmark modules `path` imports: `from pkg import sub` counts as the submodule."""
    found = set()
    this = module_name(path)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known and name != this)
    return found


def test_no_module_imports_in_a_circle():
    known = modules()
    graph = {name: imports_of(path, known) for name, path in known.items()}
    circles = []
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                circles.append(trail[trail.index(other):] + [other])
            elif other not in state:
                visit(other, trail + [other])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, "import circles: " + "; ".join(" -> ".join(circle) for circle in circles)


def test_the_circle_check_sees_a_circle(tmp_path, monkeypatch):
    # The check must be able to fail: two modules of a fake package that import each other.
    fake = tmp_path / "benchmark"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "a.py").write_text("def f():\n    from benchmark import b\n")
    (fake / "b.py").write_text("from benchmark.a import f\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    known = modules()
    assert imports_of(fake / "a.py", known) == {"benchmark.b"} and imports_of(fake / "b.py", known) == {"benchmark.a"}


def test_no_module_is_long():
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
