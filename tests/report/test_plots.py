"""The figures: titled and labelled, hatched where text changed, flattening marked where it happens, round-trip bands, fonts.

On tests/data/results_fixture.json (tests/support/report_fixture.py); expected values are computed here from the
fixture's rows, never copied from a report.
"""

from __future__ import annotations

import dataclasses

import io
import math
import re

import pytest
from tests.support.report_fixture import PLOT_NAMES, results  # noqa: F401 (fixtures)

from benchmark.report.plots import render
from benchmark.report.plots import measurements as plots_module
from benchmark.report.plots import style as style_module
from benchmark.report.plots import token_boundaries as token_boundaries_module
from benchmark.report.plots.catalogue import PLOT_BY_NAME, PLOTS, plots_in
from benchmark.report.naming import LOSSLESS_SHARE
from benchmark.report.view import ReportView
from tests.support.paths import DATA


def test_every_plot_has_a_title_and_labelled_axes(results):
    with style_module.plot_style():
        figures = render.make_figures(results)
    assert set(figures) == set(PLOT_NAMES)
    for name, fig in figures.items():
        suptitle = fig._suptitle.get_text() if fig._suptitle else ""
        axes = [ax for ax in fig.axes if ax.get_visible() and ax.axison and ax.get_label() != "<colorbar>"]
        if name == "token_boundaries":
            # Text drawn on a blank canvas: no data axes, but a title and a key to read it by.
            assert suptitle
            texts = [t.get_text() for ax in fig.axes for t in ax.texts]
            assert "tiktoken/o200k_base" in " ".join(texts)
            continue
        assert axes, name
        for ax in axes:
            assert ax.get_title() or suptitle, name
            assert ax.get_xlabel() and ax.get_ylabel(), name
        # A unit on an axis or, for the heatmap, on its colour bar.
        units = " ".join(ax.get_xlabel() + " " + ax.get_ylabel() for ax in fig.axes)
        assert re.search(r"MB|seconds|bytes|%|tokens|multiples of", units, re.IGNORECASE), (name, units)


def test_missing_cjk_font_warns_and_still_draws(results, monkeypatch):
    monkeypatch.setattr(style_module, "CJK_FONT_NAMES", ("No Such Font For This Test",))
    monkeypatch.setattr(style_module, "_cjk_font_cache", [])
    with pytest.warns(UserWarning, match="no font for Japanese/Korean"), style_module.plot_style():
        fig = token_boundaries_module.plot_token_boundaries(results)
        png = io.BytesIO()
        fig.savefig(png, format="png")
    assert png.getvalue().startswith(b"\x89PNG")


@pytest.mark.parametrize("plot", ["tokens_per_sentence", "premium"])
def test_bars_of_lossy_tokenizers_are_hatched(results, plot):
    from matplotlib.patches import Rectangle

    reference = results.reference
    shown = set(results.headline)
    lossy = [
        r for r in results.rows
        if r.tokenizer in shown and r.ok and r.roundtrip_rate < LOSSLESS_SHARE
        and (plot != "premium" or r.language != reference)
    ]
    assert lossy, "the fixture should have lossy rows among the main tokenizers"
    with style_module.plot_style():
        fig = PLOT_BY_NAME[plot].figure(results)
    ax = fig.axes[0]
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert sum(bool(bar.get_hatch()) for bar in bars) == len(lossy)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(text.startswith("hatched") for text in legend)
    # A tokenizer's legend entry is its plain colour, whatever its first bar looks like.
    assert not any(handle.get_hatch() for handle in ax.get_legend().get_patches()[: len(shown)])


def test_bytes_per_token_marks_flattening_only_where_a_curve_flattens(results):
    small = ReportView(
        rows=tuple(r for r in results.rows if r.family == "tiktoken" or (r.family == "bpe" and r.vocab_size <= 4096)),
        record=results.record,
    )
    with style_module.plot_style():
        full, still_rising = plots_module.plot_bytes_per_token(results), plots_module.plot_bytes_per_token(small)

    def legend_texts(fig):
        return " ".join(t.get_text() for legend in fig.legends for t in legend.get_texts())

    assert "stops improving" in legend_texts(full) and "flattens" in full._suptitle.get_text()
    assert "stops improving" not in legend_texts(still_rising)
    assert "flattens" not in still_rising._suptitle.get_text()


def test_roundtrip_colours_tell_a_few_lost_sentences_from_none(results):
    with style_module.plot_style():
        fig = plots_module.plot_roundtrip(results)
    mesh = fig.axes[0].collections[0]
    colours = {percent: mesh.cmap(mesh.norm(percent))[:3] for percent in (100.0, 99.5, 95.0, 89.0, 10.0)}
    assert len(set(colours.values())) == len(colours)

    def distance(a: float, b: float) -> float:
        return math.dist(colours[a], colours[b])

    # Visibly apart, not one step of a 256-colour ramp: on a linear 0-100 scale 99.5 and 100 are
    # 0.01 apart and 89 is as green as 100 (0.24 apart).
    assert distance(100.0, 99.5) > 0.2 and distance(100.0, 89.0) > 0.5
    # One sentence lost in 10,000 is not every sentence.
    assert mesh.cmap(mesh.norm(99.99)) == mesh.cmap(mesh.norm(99.5)) != mesh.cmap(mesh.norm(100.0))


def test_a_plot_spec_must_name_a_section_the_report_has():
    spec = PLOT_BY_NAME["premium"]
    for section in ("", "nowhere"):
        with pytest.raises(ValueError, match="section"):
            dataclasses.replace(spec, section=section)
    assert all(spec.name in plots_in(spec.section) for spec in PLOTS)
    assert len({spec.name for spec in PLOTS}) == len(PLOTS)


def test_equal_costs_stay_visible_in_the_production_plot():
    # A fixture with equal values: Llama 4 given Llama 3's exact count in Spanish only (so the two are
    # not one vocabulary under two names), as cl100k and Qwen tie in Czech in the committed report.

    from benchmark.results.rows import load_results

    base = load_results(DATA / "results_mixes.json")
    index = {(r.tokenizer, r.language): r for r in base.rows}
    tied = index[("llama/llama3", "spa_Latn")]
    rows = tuple(dataclasses.replace(r, n_tokens=tied.n_tokens, tokens_per_sentence=tied.tokens_per_sentence)
                 if (r.tokenizer, r.language) == ("llama/llama4", "spa_Latn") else r for r in base.rows)
    results = ReportView(rows=rows, record=base.record, summaries=base.summaries)
    with style_module.plot_style():
        fig = PLOT_BY_NAME["production_cost"].figure(results)
    fig.canvas.draw()
    ax = fig.axes[0]
    at = {}  # legend label -> its markers' centres in pixels
    for collection in ax.collections:
        if collection.get_label() in ("llama/llama3", "llama/llama4"):
            at[collection.get_label()] = ax.transData.transform(collection.get_offsets())
    spanish = results.languages.index("spa_Latn")
    one, other = at["llama/llama3"][spanish], at["llama/llama4"][spanish]
    assert one[0] == pytest.approx(other[0])  # the same value...
    marker_px = math.sqrt(52) * fig.dpi / 72  # scatter size 52 points^2
    assert abs(one[1] - other[1]) >= marker_px  # ...drawn where both are seen


def _clipped_texts(fig) -> list[str]:
    """The texts of `fig` that run past its edges, drawn at its own size."""
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    # matplotlib keeps the labels of ticks outside an axis's view but does not draw them.
    undrawn = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    undrawn |= {id(tick.label1), id(tick.label2)}
    clipped = []
    for text in fig.findobj(Text):
        if id(text) in undrawn:
            continue
        if not text.get_visible() or not text.get_text().strip() or text.axes is not None and not text.axes.get_visible():
            continue
        box = text.get_window_extent(renderer)
        if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1:
            clipped.append(text.get_text())
    return clipped


@pytest.mark.parametrize("fixture", ["results_fixture.json", "results_cost.json", "results_many.json",
                                     "results_mixes.json"])
def test_no_text_runs_off_a_figure(fixture):

    from benchmark.results.rows import load_results

    results = ReportView.of(load_results(DATA / fixture))
    with style_module.plot_style():
        figures = render.make_figures(results)
        clipped = {name: found for name, fig in figures.items() if (found := _clipped_texts(fig))}
    assert not clipped, clipped


def test_the_slowest_plot_is_drawn_first_and_the_plots_come_back_in_reading_order(results, monkeypatch):
    drawn = []
    real = render.draw_plot

    def spy(spec, view, **options):
        drawn.append(spec.name)
        return real(spec, view, **options)

    monkeypatch.setattr(render, "draw_plot", spy)
    plots = render.render_plots(results, workers=1)
    slow = [spec.name for spec in PLOTS if spec.slow_to_draw]
    assert slow and drawn[:len(slow)] == slow  # started first, so on a pool the others fill the other core
    assert [plot.spec.name for plot in plots] == sorted((p.spec.name for p in plots),
                                                        key=[spec.name for spec in PLOTS].index)
