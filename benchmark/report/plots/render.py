"""Every plot of the catalogue drawn to PNG (and SVG, when asked) bytes, in reading order.

`draw_plot` draws one spec and closes nothing global (figures are plain `Figure` objects), so
plots are drawn each in a worker process, on every core (`render_plots`): the plots are
independent, and drawing one is matplotlib's text layout and rasterising, in Python, on one core.
The bytes are those of drawing them here (tests/report/test_write_reports.py). A plot the previous
report drew from the same data, code and style is taken from its files instead (reuse.py).
"""

from __future__ import annotations

import dataclasses
import functools
import io
import os
from pathlib import Path

from benchmark.plumbing.children import Pending, die_with_parent, fork_is_safe, usable_cores
from benchmark.report.plots.catalogue import PLOTS, PlotSpec, RenderedPlot
from benchmark.report.plots.reuse import drawn_data_json, plot_digest, previous_files, timing_drawn
from benchmark.report.plots.style import PNG_DPI, palette_png, plot_style
from benchmark.report.view import ReportView


def make_figures(results: ReportView) -> dict[str, object]:
    """name -> Figure, for the plots the results have data for (call inside `plot_style()`)."""
    figures = {}
    for spec in PLOTS:
        fig = spec.figure(results)
        if fig is not None:
            figures[spec.name] = fig
    return figures


def draw_plot(spec: PlotSpec, results: ReportView, *, svg: bool = False) -> RenderedPlot | None:
    """One plot as PNG (and SVG) bytes, or None when the results hold nothing it draws."""
    with plot_style():
        fig = spec.figure(results)
        if fig is None:
            return None
        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=PNG_DPI, metadata={"Software": None})
        svg_bytes = None
        if svg:
            drawn = io.BytesIO()
            fig.savefig(drawn, format="svg", metadata={"Date": None})
            svg_bytes = drawn.getvalue()
    return RenderedPlot(spec, palette_png(png.getvalue()), svg_bytes)


_view: ReportView | None = None  # the results a forked drawing worker inherits


def _draw_inherited(index: int, svg: bool) -> RenderedPlot | None:
    assert _view is not None
    return draw_plot(PLOTS[index], _view, svg=svg)


def render_plots(results: ReportView, *, svg: bool = False, workers: int | None = None,
                 previous: Path | None = None) -> list[RenderedPlot]:
    """Every plot as PNG (and SVG) bytes, in reading order, each with its digest (reuse.py): taken
    from the report at `previous` where it drew the plot from the same digest, the others drawn on
    `workers` processes (default: every core; one draws them here)."""
    return start_plots(results, svg=svg, workers=workers, previous=previous).results()


def start_plots(results: ReportView, *, svg: bool = False, workers: int | None = None,
                previous: Path | None = None) -> Pending:
    """`render_plots` begun: the plots draw on the workers while this process does other work,
    and `results()` waits for them. A previous report with no digests has no plot to give, so
    the drawing starts before the digests are computed, here, meanwhile."""
    @functools.cache
    def digests() -> dict[str, str]:
        drawn = {timing: drawn_data_json(results, timing=timing) for timing in {timing_drawn(spec) for spec in PLOTS}}
        return {spec.name: plot_digest(spec, results, drawn_data=drawn[timing_drawn(spec)]) for spec in PLOTS}

    kept = previous_files(previous, digests, svg=svg)
    todo = sorted((index for index, spec in enumerate(PLOTS) if spec.name not in kept),
                  key=lambda index: not PLOTS[index].slow_to_draw)  # stable: the rest in reading order
    n_workers = min(workers or usable_cores(), len(todo))
    if n_workers > 1 and fork_is_safe():
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        global _view
        _view = results
        try:
            pool = ProcessPoolExecutor(max_workers=n_workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=die_with_parent, initargs=(os.getpid(),))
            futures = [pool.submit(_draw_inherited, index, svg) for index in todo]
        finally:
            _view = None  # the workers are forked: they hold their own copy

        def finish() -> list[RenderedPlot]:
            digests()  # here, while the workers draw, before waiting for them
            with pool:
                return _in_order(results, kept, {index: future.result() for index, future in zip(todo, futures)},
                                 digests())

        return Pending(finish, lambda: pool.shutdown(wait=True, cancel_futures=True))
    return Pending(lambda: _in_order(results, kept, {index: draw_plot(PLOTS[index], results, svg=svg)
                                                     for index in todo}, digests()))


def _in_order(results: ReportView, kept, drawn, digests: dict[str, str]) -> list[RenderedPlot]:
    plots = []
    for index, spec in enumerate(PLOTS):
        if spec.name in kept:
            png, svg_bytes = kept[spec.name]
            plots.append(RenderedPlot(spec, png, svg_bytes, digests[spec.name], reused=True))
        elif drawn[index] is not None:
            plots.append(dataclasses.replace(drawn[index], digest=digests[spec.name]))
    return plots
