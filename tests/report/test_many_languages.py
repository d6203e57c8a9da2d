"""The report's layouts for runs of more languages than a palette has colours
(benchmark/report/plots/many_languages.py), on the results of a real run over fourteen languages in nine
scripts (tests/data/make_many_fixture.py): each heatmap's rows, order and cells are checked against
the measured rows, the band plot's named languages against the bytes per token, and the captions
and the token-boundary PNG against what they show."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from benchmark.report.plots import render
from benchmark.report.plots import many_languages
from benchmark.report.facts.analysis import bytes_per_token_curve
from benchmark.report.plots.catalogue import PLOTS, caption_of
from benchmark.report.facts.examples import MAX_PNG_LANGUAGES, png_drawable, png_languages, png_leaves_out
from benchmark.report.naming import language_label
from benchmark.report.plots.style import plot_style
from benchmark.report.view import MANY_LANGUAGES, ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA

FIXTURE = DATA / "results_many.json"
SIX_LANGUAGES = DATA / "results_mixes.json"


@pytest.fixture(scope="module")
def results():
    return ReportView.of(load_results(FIXTURE))


@pytest.fixture(scope="module")
def figures(results):
    with plot_style():
        yield render.make_figures(results)


def _row(results, tokenizer, language):
    return next(r for r in results.rows if r.tokenizer == tokenizer and r.language == language)


def _row_labels(fig) -> list[str]:
    """The language labels down the heatmap's panels, top to bottom, panel after panel."""
    labels = []
    for ax in fig.axes[:-1]:  # the last axes is the colour bar
        labels += [t.get_text() for t in ax.get_yticklabels()]
    return labels


def test_the_fixture_has_more_languages_than_the_palette(results):
    assert len(results.languages) == 14 > MANY_LANGUAGES
    assert results.many
    assert not ReportView.of(load_results(SIX_LANGUAGES)).many
    assert "ydd_Hebr" in results.record.right_to_left


def test_cost_heatmap_lists_languages_most_expensive_first(results, figures):
    fig = figures["tokens_per_sentence"]
    tokenizers = results.headline
    languages = results.languages

    def mean_cost(code):
        return statistics.fmean(_row(results, tid, code).tokens_per_sentence for tid in tokenizers
                                if _row(results, tid, code).ok)

    expected = sorted(languages, key=lambda code: -mean_cost(code))
    assert _row_labels(fig) == [language_label(results, code) for code in expected]
    # Every language is a row and every main tokenizer a column.
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == tokenizers
    assert "14 languages" in fig._suptitle.get_text()


def test_cost_heatmap_cells_are_the_measured_means(results):
    languages = results.languages
    tokenizers = results.headline
    values, texts, _ = many_languages._cost_values(results, languages, tokenizers, "tokens_per_sentence",
                                                   lambda v: f"{v:.1f}", lambda frame: frame["tokenizer"].eq(""))
    for i, code in enumerate(languages):
        for j, tid in enumerate(tokenizers):
            row = _row(results, tid, code)
            assert values[i, j] == pytest.approx(row.tokens_per_sentence)
            assert texts[i, j] == f"{row.tokens_per_sentence:.1f}"


def test_premium_heatmap_leaves_out_the_reference(results, figures):
    labels = _row_labels(figures["premium"])
    reference = results.record.settings.reference
    assert language_label(results, reference) not in labels
    assert len(labels) == len(results.languages) - 1
    first = labels[0]
    code = next(c for c in results.languages if language_label(results, c) == first)
    # The most expensive language has the highest mean premium over the main tokenizers.
    means = {c: statistics.fmean(_row(results, t, c).premium for t in results.headline)
             for c in results.languages if c != reference}
    assert code == max(means, key=means.get)


def test_roundtrip_heatmap_folds_the_exact_languages_into_one_row(results, figures):
    labels = _row_labels(figures["roundtrip"])
    rates = {}
    for row in results.rows:
        if row.ok:
            rates.setdefault(row.language, []).append(row.roundtrip_rate)
    exact = [code for code, values in rates.items() if min(values) >= 1.0]
    lossy = [code for code in rates if code not in exact]
    assert lossy, "the fixture should have a language that some tokenizer changes"
    assert len(labels) == len(lossy) + (1 if exact else 0)
    if exact:
        assert labels[-1] == f"the other {len(exact)} languages"
    # Worst first: the first row's language has the lowest rate of all.
    worst = min(lossy, key=lambda code: (min(rates[code]), results.languages.index(code)))
    assert labels[0] == language_label(results, worst)


def test_bands_name_the_reference_and_the_extremes_at_the_largest_size(results):
    family = "bpe-balanced"
    named = many_languages.named_languages(results, family)
    at_largest = {code: bytes_per_token_curve(results, family, code)[-1][1] for code in results.languages}
    assert named[0] == results.record.settings.reference
    assert min(at_largest, key=at_largest.get) in named
    assert max(at_largest, key=at_largest.get) in named


def test_band_plot_median_line_is_the_median_over_languages(results, figures):
    fig = figures["bytes_per_token"]
    family = "bpe-balanced"
    ax = next(a for a in fig.axes if a.get_title() == "our BPE (balanced)")
    curves = [dict(bytes_per_token_curve(results, family, code)) for code in results.languages]
    sizes = sorted({size for curve in curves for size in curve})
    medians = [statistics.median(curve[s] for curve in curves) for s in sizes]
    lines = [line for line in ax.get_lines() if line.get_linestyle() == "-" and len(line.get_xdata()) == len(sizes)]
    assert any(np.allclose(line.get_ydata(), medians) and list(line.get_xdata()) == sizes for line in lines)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "median of 14 languages" in legend


def test_throughput_has_one_dot_per_language_and_the_median(results, figures):
    fig = figures["throughput"]
    ax = fig.axes[0]
    tokenizers = [t.get_text() for t in ax.get_yticklabels()]
    dots = ax.collections
    assert len(dots) == len(tokenizers)
    timed = results.to_frame()
    for tid, collection in zip(tokenizers, dots):
        speeds = sorted(collection.get_offsets()[:, 0])
        expected = sorted(timed[timed["tokenizer"].eq(tid) & timed["throughput_mb_s"].fillna(0).ne(0)]["throughput_x_tiktoken"])
        assert np.allclose(speeds, expected)


def test_captions_describe_the_layout_drawn(results):
    by_name = {info.name: info for info in PLOTS}
    many = caption_of(by_name["premium"], results)
    few = caption_of(by_name["premium"], ReportView.of(load_results(SIX_LANGUAGES)))
    assert many == by_name["premium"].many_caption and many != few == by_name["premium"].caption
    assert "one row per language" in caption_of(by_name["tokens_per_sentence"], results)


def test_token_boundary_png_draws_only_scripts_it_can_shape(results):
    shown = png_languages(results)
    assert len(shown) <= MAX_PNG_LANGUAGES
    assert shown[0] == results.record.settings.reference
    scripts = results.record.language_scripts
    for code in shown:
        assert code not in results.record.right_to_left
        assert scripts[code] not in {"Arab", "Hebr", "Deva", "Ethi", "Thai", "Taml"}
    left_out = png_leaves_out(results)
    assert {"ydd_Hebr", "arb_Arab", "hin_Deva"} <= set(left_out)
    assert set(shown) | set(left_out) == set(results.languages)


def test_a_long_heatmap_is_cut_into_panels_within_the_page_width():
    layout = many_languages.panel_layout(204, 4, label_in=1.5)
    assert layout.n_panels == math.ceil(204 / many_languages.MAX_ROWS_PER_PANEL)
    assert layout.rows_per_panel * layout.n_panels >= 204
    assert layout.width_in <= many_languages.MAX_WIDTH_IN
    wide = many_languages.panel_layout(204, 22, label_in=1.5)  # too many columns for two panels
    assert wide.n_panels == 1 and wide.rows_per_panel == 204 and not wide.annotated


def test_grids_put_languages_down_when_there_are_many(results):
    from benchmark.report.tables.measurements import tokens_per_sentence_table

    table = tokens_per_sentence_table(results)
    languages = results.languages
    assert table.headers[0] == "language"
    assert [row[0] for row in table.rows] == [language_label(results, code) for code in languages]
    tokenizers = list(table.headers[1:])
    for line, code in zip(table.rows, languages):
        for tid, cell in zip(tokenizers, line[1:]):
            row = _row(results, tid, code)
            assert cell == ("skipped" if not row.ok else cell) and (not row.ok or cell.startswith(
                f"{row.tokens_per_sentence:.1f}"))
    few = tokens_per_sentence_table(ReportView.of(load_results(SIX_LANGUAGES)))
    assert few.headers[0] == "tokenizer"


def test_findings_name_a_few_languages_and_count_the_rest(results):
    from benchmark.report.facts.findings import compute_findings
    from benchmark.report.naming import MAX_NAMED, join_ends, join_limited

    words = [f"w{k}" for k in range(20)]
    assert join_limited(words) == "w0, w1, w2, w3, w4 and 15 other languages"
    assert join_ends(words) == "w0, w1, w2, w3, 15 other languages in between and w19"
    assert join_limited(words[:MAX_NAMED]) == "w0, w1, w2, w3, w4 and w5"
    for finding in compute_findings(results):
        named = sum(finding.count(f"({code})") for code in results.languages)
        # The most expensive language under each tokenizer is one per tokenizer, not a list of languages.
        assert named <= MAX_NAMED * 3 + len(results.headline), finding


def test_the_page_shows_the_languages_the_png_cannot_draw_as_text_in_their_direction(results):
    import html as html_module
    import re

    from benchmark.report.facts.examples import example_tokenizers
    from benchmark.report.pages.token_examples import html_languages, token_examples_html

    shown = html_languages(results)
    assert set(shown) == set(png_leaves_out(results))  # fewer than the cap: every one
    page = token_examples_html(results)
    blocks = re.findall(r'<span class="toks" lang="([^"]+)" dir="(rtl|ltr)">(.*?)</span></div>', page)
    by_lang = {}
    for lang, direction, spans in blocks:
        by_lang.setdefault(lang, []).append((direction, spans))
    assert {d for d, _ in by_lang["ydd-Hebr"]} == {"rtl"} and {d for d, _ in by_lang["arb-Arab"]} == {"rtl"}
    assert {d for d, _ in by_lang["hin-Deva"]} == {"ltr"}
    # Every token of the record's example, in order, one span each: the spans put back are the sentence.
    tid = example_tokenizers(results)[0]
    tokens = results.record.examples["ydd_Hebr"][tid]
    spans = re.findall(r"<span(?: [^>]*)?>(.*?)</span>", by_lang["ydd-Hebr"][0][1])
    assert [html_module.unescape(s) for s in spans] == list(tokens)
    assert len(by_lang["ydd-Hebr"]) == len(example_tokenizers(results))


def test_token_boundary_png_prefers_the_costliest_scripts_it_can_draw(results):
    shown = png_languages(results)
    drawable = [code for code in results.languages if png_drawable(results, code) and results.record.examples.get(code)]
    assert len(drawable) > MAX_PNG_LANGUAGES  # the fixture has more than fit
    scripts = results.record.language_scripts

    def cost(code):
        values = [r.premium for r in results.rows if r.language == code and r.ok and r.tokenizer in results.headline]
        return sum(values) / len(values)

    # Every script it can draw is in the PNG before a second language of any script ...
    per_script = {scripts[code] for code in drawable[1:]}
    assert {scripts[code] for code in shown[1:]} == per_script or len(shown) - 1 < len(per_script)
    # ... each by its costliest language.
    for code in shown[1:]:
        rivals = [c for c in drawable[1:] if scripts[c] == scripts[code] and c not in shown]
        assert all(cost(c) <= cost(code) for c in rivals), code
