"""The package's imports as a graph, read from its source, and the one finder of import circles.

Every `import` and `from ... import` counts, inside functions too (a circle closed at call time is
still a circle for the reader); `from pkg import sub` counts as the submodule. Only the package's
own modules are nodes.
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    """root/benchmark/report/view.py -> "benchmark.report.view"; an __init__.py is its package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(package: Path) -> dict[str, Path]:
    """Every module of the package folder, by dotted name."""
    return {module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}


def imports_of(path: Path, known: dict[str, Path], root: Path) -> set[str]:
    """The modules of `known` that the module at `path` imports."""
    found = set()
    this = module_name(path, root)
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


def import_graph(package: Path) -> dict[str, set[str]]:
    """module -> the package's modules it imports."""
    known = package_modules(package)
    return {name: imports_of(path, known, package.parent) for name, path in known.items()}


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
