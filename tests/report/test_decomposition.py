"""The premium's decomposition as the report shows it (report/facts/decomposition.py, its plot in
plots/decomposition.py, its table in tables/scripts.py): the plot, the finding and the per-script
table, on a real run of 14 languages in 6 scripts (tiktoken's two
vocabularies, 30 sentences each), checked against the rows they are drawn from."""

from __future__ import annotations

import statistics

import pytest

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.facts import decomposition
from benchmark.report.plots import decomposition as decomposition_plot
from benchmark.report.tables.scripts import script_decomposition_table
from benchmark.report.plots.catalogue import PLOTS
from benchmark.report.pages.sections import report_sections
from benchmark.report.plots.style import plot_style
from benchmark.report.view import ReportView
from tests.support.paths import DATA

LANGUAGES = ("eng_Latn", "spa_Latn", "fra_Latn", "deu_Latn", "rus_Cyrl", "ukr_Cyrl", "bul_Cyrl", "hin_Deva",
             "mar_Deva", "arb_Arab", "pes_Arab", "jpn_Jpan", "kor_Hang", "ell_Grek")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    config = RunConfig(languages=LANGUAGES, tokenizers=("tiktoken/*",), max_sentences=30, repeats=1,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return ReportView.of(run_benchmark(plan_run(config)))


def test_the_plot_has_a_panel_per_tokenizer_languages_by_premium(results):
    assert results.many
    with plot_style():
        fig = decomposition_plot.plot_premium_decomposition(results)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["tiktoken/cl100k_base", "tiktoken/o200k_base"]
    for ax in panels:
        rows = decomposition.decomposed_rows(results, ax.get_title())
        assert len(rows) == len(LANGUAGES) - 1  # the reference left out
        premiums = [row.premium for row in rows]
        assert premiums == sorted(premiums)  # dearest on top
        # Each language: a bar to its byte premium, one from there to its premium, a dot, a floor tick.
        bars = [line.get_xdata() for line in ax.get_lines() if len(line.get_xdata()) == 2 and line.get_linestyle() == "-"]
        assert [tuple(x) for x in bars[1::2]] == [(row.byte_premium, row.premium) for row in rows]
        floor_ticks = ax.collections[1].get_offsets()
        assert [x for x, _ in floor_ticks] == [row.information_floor for row in rows]
        # Past ten languages the dearest are named, the others left unlabelled.
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert len(labels) == decomposition_plot.LABELLED_MANY and labels[-1].endswith(f"({rows[-1].language})")


def test_the_spec_is_in_the_cost_section(results):
    spec = next(spec for spec in PLOTS if spec.name == "premium_decomposition")
    assert spec.section == "cost"
    cost = next(section for section in report_sections(results) if section.key == "cost")
    assert "premium_decomposition" in cost.plots


def test_the_finding_names_the_languages_with_the_largest_tokenizer_factor(results):
    factors = {}
    for tokenizer in results.production:
        for row in decomposition.decomposed_rows(results, tokenizer):
            factors.setdefault(row.language, []).append(row.tokenizer_factor)
    median = {code: statistics.median(values) for code, values in factors.items()}
    top = sorted(median, key=lambda code: -median[code])[:3]
    sentence = decomposition.tokenizer_share_finding(results)
    names = [f"{results.record.language_names[code]} ({median[code]:.2f}x)" for code in top]
    assert sentence.startswith(f"Beyond what their bytes explain, the production tokenizers charge most for {names[0]}, "
                               f"{names[1]} and {names[2]}")


def test_the_script_table_gives_each_scripts_medians(results):
    table = script_decomposition_table(results)
    assert table.headers[:3] == ("script", "languages", "byte premium")
    by_script = {line[0]: line for line in table.rows}
    cyrillic = by_script["Cyrillic (Cyrl)"]
    rows = [row for row in decomposition.decomposed_rows(results, "tiktoken/o200k_base")
            if row.language in ("rus_Cyrl", "ukr_Cyrl", "bul_Cyrl")]
    assert cyrillic[1] == "3"
    assert cyrillic[2] == f"{statistics.median(row.byte_premium for row in rows):.2f}"
    column = table.headers.index("tiktoken/o200k_base")
    assert cyrillic[column] == (f"{statistics.median(row.tokenizer_factor for row in rows):.2f} / "
                                f"{statistics.median(row.excess_premium for row in rows):.2f}")
    cost = next(section for section in report_sections(results) if section.key == "cost")
    assert "script_decomposition" in [t.key for t in cost.tables]


def test_a_file_before_format_4_draws_and_says_nothing_here():

    from benchmark.results.rows import load_results

    old = ReportView.of(load_results(DATA / "results_many.json"))
    assert decomposition_plot.plot_premium_decomposition(old) is None
    assert decomposition.tokenizer_share_finding(old) is None
    assert not script_decomposition_table(old).rows
