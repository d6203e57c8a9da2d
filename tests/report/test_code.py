"""The code section (facts/code.py, tables/code.py, plots/code.py, code.csv) on the shared
fixture's rows with the code sample measured by tiktoken's two vocabularies (a tenth of a second),
and a hostile tokenizer id escaped on both pages."""

from __future__ import annotations

import csv
import dataclasses
import io

import pytest

from benchmark.adapters import PRETRAINED
from benchmark.measure.code_sample import measure_code, read_sample
from benchmark.report import write_reports
from benchmark.report.facts.code import cheapest_and_dearest
from benchmark.report.pages.html import render_html
from benchmark.report.pages.markdown import render_markdown
from benchmark.report.pages.sections import report_sections
from benchmark.report.plots.catalogue import PLOT_BY_NAME
from benchmark.report.plots.code import plot_code
from benchmark.report.plots.style import plot_style
from benchmark.report.tables.code import code_table
from benchmark.report.view import ReportView
from benchmark.results.code import CodeCost, CodeCosts
from tests.support.report_fixture import results  # noqa: F401  (the shared fixture)

TOKENIZERS = ("tiktoken/cl100k_base", "tiktoken/o200k_base")


@pytest.fixture(scope="module")
def with_code(results):  # noqa: F811
    costs = measure_code([PRETRAINED[tid]() for tid in TOKENIZERS], read_sample())
    return ReportView.of(dataclasses.replace(results, code=costs))


def test_the_section_table_and_intro_follow_the_counts(with_code, results):  # noqa: F811
    assert "code" not in [s.key for s in report_sections(results)]  # a file without the sample: no section
    (section,) = [s for s in report_sections(with_code) if s.key == "code"]
    assert section.title == "Source code: tokens per kilobyte" and section.plots == ("code",)
    (table,) = section.tables
    assert table == code_table(with_code)
    assert [row[0] for row in table.rows] == list(TOKENIZERS)
    assert table.headers[1].startswith("Python tokens/kB (69,196 bytes)") and table.headers[-1] == "English prose tokens/kB"
    entry = next(e for e in with_code.code.entries if (e.tokenizer, e.language) == ("tiktoken/o200k_base", "c"))
    row = table.rows[1]
    assert row[3] == f"{1000 * entry.n_tokens / entry.n_bytes:.1f}" and row[4] == f"{entry.n_tokens / entry.n_lines:.1f}"
    english = with_code.index[("tiktoken/o200k_base", "eng_Latn")]
    assert row[-1] == f"{1000 / english.bytes_per_token:.1f}"
    low, high = cheapest_and_dearest(with_code)["c"]
    assert low.n_tokens <= high.n_tokens and f"C: cheapest {low.tokenizer}" in section.intro
    assert "not a premium" in section.intro


def test_the_plot_has_a_bar_per_tokenizer_and_language_and_the_prose_tick(with_code):
    assert PLOT_BY_NAME["code"].section == "code"
    with plot_style():
        fig = plot_code(with_code)
    (ax,) = fig.axes
    widths = sorted(round(p.get_width(), 6) for p in ax.patches if p.get_width() > 0)
    assert widths == sorted(round(e.tokens_per_kb, 6) for e in with_code.code.entries)
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["Python", "C", "JavaScript", "English prose (FLORES)"]


def test_code_csv_is_written_beside_the_other_csvs(with_code, tmp_path):
    write_reports(with_code, tmp_path, plots=False)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "code.csv").read_text(encoding="utf-8"))))
    assert len(rows) == len(with_code.code.entries)
    first = with_code.code.entries[0]
    assert (rows[0]["tokenizer"], int(rows[0]["n_tokens"])) == (first.tokenizer, first.n_tokens)
    assert float(rows[0]["tokens_per_kb"]) == first.tokens_per_kb
    assert "## Source code: tokens per kilobyte" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_a_hostile_tokenizer_id_is_escaped_on_both_pages(with_code):
    hostile = "<img src=x onerror=alert(1)>|`x`"
    entries = (*with_code.code.entries, CodeCost(hostile, "python", 10, 1, 3))
    view = ReportView.of(dataclasses.replace(with_code, code=CodeCosts(with_code.code.sample, entries)))
    page = render_html(view, [])
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    markdown = render_markdown(view, [])
    assert "Source code: tokens per kilobyte" in markdown and "<img src=x" not in markdown
