"""Plots the previous report in the output folder already drew: each plot is keyed by a digest of
what it is drawn from, and a plot whose digest is the one that report recorded is taken from its
files instead of drawn again (drawing is most of `report`'s time: about 36 of its 42 CPU seconds
on the committed results).

A plot's digest (`plot_digest`) covers:
- the results it is drawn from: results.json's content, less what no plot draws (when and on what
  the run was made, how long its phases took, how it counted: `NOT_DRAWN`) and, for a plot that
  draws no timing, the timing columns and settings, which a rerun measures again (the training time
  plot keeps the training seconds alone: a rerun with the models cached times them no more; `TIMING_PLOTS`);
- its code: the source of its drawing functions' modules and of every module of the package they
  import, transitively, and of render.py (how a figure becomes bytes);
- the style: matplotlib's, seaborn's, numpy's and pandas' versions, the CJK font's file and the DPI.

The digests of the plots written are in `plots/digests.json` (DIGESTS). A file is reused only when
the previous folder is a report whose manifest lists it, and the digests file, unchanged
(manifest.listed_unchanged): a plot the user edited, or a folder this program did not write, is
drawn again. A reused file is the bytes a drawing gives (drawing is deterministic:
tests/report/test_plot_reuse.py), so a report is the same whether its plots were reused or drawn.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from benchmark.plumbing.manifest import listed_unchanged
from benchmark.report.plots.catalogue import PlotSpec
from benchmark.report.view import ReportView
from benchmark.results.rows import ResultRow

DIGESTS = "plots/digests.json"
DIGESTS_FORMAT = "tokencost-plot-digests"
DIGESTS_VERSION = 1
# Bump to redraw every plot once: what the digest covers changed.
DIGEST_SCHEME = 1

# Parts of the record no plot draws, which differ between two runs of the same measurements.
NOT_DRAWN = ("date", "machine", "package_versions", "phase_seconds", "phase_peak_mb")
NOT_DRAWN_SETTINGS = ("counting", "suite")
# The plots that draw what timing measured, and the timing columns each draws (None: every one, and
# the timing settings); the others leave the timing columns and settings out.
TIMING_PLOTS: dict[str, tuple[str, ...] | None] = {"throughput": None, "train_seconds": ("train_seconds",)}
TIMING_FIELDS = tuple(f.name for f in dataclasses.fields(ResultRow) if f.metadata.get("timing"))

_PACKAGE = Path(__file__).resolve().parents[2]  # benchmark/
_PACKAGE_NAME = _PACKAGE.name
_RENDER = "benchmark.report.plots.render"


def plot_digest(spec: PlotSpec, results: ReportView, *, drawn_data: str | None = None) -> str:
    """The SHA-256 of what `spec` is drawn from for these results, its code and the style.
    `drawn_data`: `drawn_data_json(results, timing=timing_drawn(spec))`, when the caller has it."""
    if drawn_data is None:
        drawn_data = drawn_data_json(results, timing=timing_drawn(spec))
    code = code_digest(tuple(sorted({spec.draw.__module__,
                                      *([spec.draw_many.__module__] if spec.draw_many else [])})))
    key = {"scheme": DIGEST_SCHEME, "plot": spec.name, "code": code, "style": style_key(), "many": results.many}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode("utf-8"))
    digest.update(b"\0")
    digest.update(drawn_data.encode("utf-8"))
    return digest.hexdigest()


def timing_drawn(spec: PlotSpec) -> tuple[str, ...] | None:
    """The timing columns `spec` draws (TIMING_PLOTS): None for every one, () for none."""
    return TIMING_PLOTS.get(spec.name, ())


def drawn_data_json(results: ReportView, *, timing: tuple[str, ...] | None) -> str:
    """results.json's content less what a plot does not draw (NOT_DRAWN; the timing columns but
    `timing`, and the timing settings, unless `timing` is None: every one), as canonical JSON."""
    document = results.to_dict()
    record = document["record"]
    for key in NOT_DRAWN:
        record.pop(key, None)
    for key in NOT_DRAWN_SETTINGS:
        record["settings"].pop(key, None)
    if timing is not None:
        record["settings"].pop("timing", None)
        if "train_seconds" not in timing:
            record["settings"].pop("train_seconds", None)
            for entry in record.get("tokenizers", {}).values():
                entry.pop("train_seconds", None)
        for row in document["rows"]:
            for name in TIMING_FIELDS:
                if name not in timing:
                    row.pop(name, None)
    return json.dumps(document, sort_keys=True, ensure_ascii=False, allow_nan=True)


@lru_cache(maxsize=None)
def code_digest(modules: tuple[str, ...]) -> str:
    """SHA-256 over `code_files(modules)`, each by its path in the package and its bytes."""
    digest = hashlib.sha256()
    for path in code_files(modules):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def code_files(modules: tuple[str, ...]) -> list[Path]:
    """The source files of `modules` and of every module of the package they import, transitively
    (imports inside functions too), and render.py (how a figure becomes bytes; not what it imports,
    the catalogue of every plot)."""
    files = {_module_file(_RENDER)}
    todo = list(modules)
    while todo:
        path = _module_file(todo.pop())
        if path is None or path in files:
            continue
        files.add(path)
        todo += _imported_modules(path)
    return sorted(files)


def _module_file(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != _PACKAGE_NAME:
        return None
    base = _PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported_modules(path: Path) -> list[str]:
    """The package's modules `path` imports (`from a.b import c` names a.b and, if it is one, a.b.c)."""
    return list(_imports_in(path.read_bytes(), str(path)))


@lru_cache(maxsize=None)  # keyed by the source itself: the plots share most of their modules, parsed once
def _imports_in(source: bytes, filename: str) -> tuple[str, ...]:
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return tuple(name for name in found if name.split(".")[0] == _PACKAGE_NAME)


@lru_cache(maxsize=1)
def style_key() -> dict[str, object]:
    """What, besides the code and the data, decides a plot's bytes: the drawing libraries' versions,
    the CJK font (its file and size), the DPI and the palette's size."""
    from importlib.metadata import version

    from benchmark.report.plots.style import PNG_COLOURS, PNG_DPI, find_cjk_font

    font = find_cjk_font()
    font_file = None
    if font:
        from matplotlib import font_manager

        path = Path(font_manager.findfont(font, fallback_to_default=False))
        font_file = [path.as_posix(), path.stat().st_size]
    return {"versions": {name: version(name) for name in ("matplotlib", "seaborn", "numpy", "pandas", "pillow")},
            "cjk_font": font, "cjk_font_file": font_file, "png_dpi": PNG_DPI, "png_colours": PNG_COLOURS}


def previous_files(folder: Path | None, digests: Callable[[], dict[str, str]], *,
                   svg: bool) -> dict[str, tuple[bytes, bytes | None]]:
    """name -> (PNG, SVG or None) of the plots the report at `folder` drew with the digests that
    `digests()` gives, read from its files, each listed unchanged in its manifest (an SVG only when
    `svg`; a plot without the SVG asked for is not reused). `digests` is not called when the folder
    records none (a fresh folder): then the drawing need not wait for them."""
    recorded = _recorded_digests(folder) if folder is not None else {}
    if not recorded:
        return {}
    found = {}
    for name, digest in digests().items():
        if recorded.get(name) != digest:
            continue
        png = listed_unchanged(folder, f"plots/{name}.png")
        svg_bytes = listed_unchanged(folder, f"plots/{name}.svg") if svg else None
        if png is not None and (svg_bytes is not None or not svg):
            found[name] = (png, svg_bytes)
    return found


def _recorded_digests(folder: Path) -> dict[str, str]:
    data = listed_unchanged(folder, DIGESTS)
    if data is None:
        return {}
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(document, dict) or document.get("format") != DIGESTS_FORMAT \
            or document.get("version") != DIGESTS_VERSION or not isinstance(document.get("plots"), dict):
        return {}
    return {name: digest for name, digest in document["plots"].items()
            if isinstance(name, str) and isinstance(digest, str)}


def digests_json(digests: dict[str, str]) -> str:
    """The content of plots/digests.json: each plot written and its digest."""
    document = {"format": DIGESTS_FORMAT, "version": DIGESTS_VERSION, "plots": dict(sorted(digests.items()))}
    return json.dumps(document, indent=1) + "\n"
