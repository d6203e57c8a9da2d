"""The results cache's key covers every module whose code can change a cached figure (issue 38):
the import closure of the modules whose results it keeps, derived from their imports (read from the
source, tests/support/imports.py), must lie inside results_cache._CODE; measure/twins.py,
renyi_interval.py, batches.py, cells.py and executors.py had been left out of it."""

from __future__ import annotations

from benchmark.measure import results_cache
from tests.support.imports import import_graph
from tests.support.paths import REPO

PACKAGE = REPO / "benchmark"
# What run.py keeps in the cache comes from these: counts (counting.py, through executors.py's
# tasks), vocabulary checks, word spans, rare entries and the calibration.
CACHED = ("benchmark.measure.counting", "benchmark.measure.executors", "benchmark.measure.vocabulary",
          "benchmark.words", "benchmark.measure.rare_entries", "benchmark.measure.calibration")
# No figure comes of these: errors, atomic files, escaping, the seal; and the corpora's texts,
# whose digest is in every key.
OUTSIDE = ("benchmark.plumbing", "benchmark.corpora")


def _closure(graph: dict[str, set[str]], roots) -> set[str]:
    seen, stack = set(), list(roots)
    while stack:
        module = stack.pop()
        if module not in seen:
            seen.add(module)
            stack += graph.get(module, ())
    return seen


def _covered(module: str) -> bool:
    path = module.removeprefix("benchmark.").replace(".", "/")
    return any(path == part.removesuffix(".py") or path.startswith(part + "/") or path == part
               for part in results_cache._CODE)


def test_the_cache_key_covers_every_module_a_cached_figure_is_computed_by():
    closure = _closure(import_graph(PACKAGE), CACHED)
    assert {"benchmark.measure.twins", "benchmark.measure.renyi_interval", "benchmark.measure.batches",
            "benchmark.measure.cells"} <= closure  # the derivation sees what the issue named
    missing = sorted(m for m in closure if not m.startswith(OUTSIDE) and not _covered(m))
    assert missing == [], f"results_cache._CODE leaves out {missing}"


def test_every_code_entry_is_a_file_or_folder_that_exists():
    for part in results_cache._CODE:
        assert (PACKAGE / part).exists(), part


def test_editing_a_module_of_the_closure_changes_the_digest(tmp_path, monkeypatch):
    # The digest reads the files named: a changed twins.py is a new key, so an old entry is a miss.
    import shutil

    copy = tmp_path / "benchmark"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.csv", "vocabularies"))
    fake = copy / "measure" / "results_cache.py"
    monkeypatch.setattr(results_cache, "__file__", str(fake))
    results_cache.code_digest.cache_clear()
    try:
        before = results_cache.code_digest()
        twins = copy / "measure" / "twins.py"
        twins.write_text(twins.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        results_cache.code_digest.cache_clear()
        assert results_cache.code_digest() != before
    finally:
        results_cache.code_digest.cache_clear()
