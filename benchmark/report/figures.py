"""Every plot of the catalogue drawn to PNG and SVG bytes, in reading order.

`draw_plot` draws one spec and closes nothing global (figures are plain `Figure` objects), so
plots can be drawn one by one, or each in a worker process: a spec and a `ReportView` pickle.
"""

from __future__ import annotations

import io
from benchmark.report.catalogue import PLOTS, PlotSpec, RenderedPlot
from benchmark.report.style import PNG_DPI, plot_style
from benchmark.report.view import ReportView


def make_figures(results: ReportView) -> dict[str, object]:
    """name -> Figure, for the plots the results have data for (call inside `plot_style()`)."""
    figures = {}
    for spec in PLOTS:
        fig = spec.figure(results)
        if fig is not None:
            figures[spec.name] = fig
    return figures


def draw_plot(spec: PlotSpec, results: ReportView) -> RenderedPlot | None:
    """One plot as PNG and SVG bytes, or None when the results hold nothing it draws."""
    with plot_style():
        fig = spec.figure(results)
        if fig is None:
            return None
        png, svg = io.BytesIO(), io.BytesIO()
        fig.savefig(png, format="png", dpi=PNG_DPI, metadata={"Software": None})
        fig.savefig(svg, format="svg", metadata={"Date": None})
    return RenderedPlot(spec, png.getvalue(), svg.getvalue())


def render_plots(results: ReportView) -> list[RenderedPlot]:
    """Every plot as PNG and SVG bytes, in reading order."""
    drawn = (draw_plot(spec, results) for spec in PLOTS)
    return [plot for plot in drawn if plot is not None]
