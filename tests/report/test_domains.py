"""The domain section on a real run: FLORES-200 devtest measured whole, the premium per domain
(wikibooks, wikinews, wikivoyage) with intervals, its table, plot, CSV and the pages that show them;
and `--domain` measuring one domain's lines, which the record names."""

from __future__ import annotations

import csv
import io

import pytest

from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report import write_reports
from benchmark.report.facts.domains import largest_moves
from benchmark.report.pages.sections import report_sections
from benchmark.report.plots.domains import plot_domain_premiums
from benchmark.report.tables.domains import domain_premium_table
from benchmark.report.view import ReportView
from benchmark.results import metrics

LANGUAGES = ("eng_Latn", "jpn_Jpan", "rus_Cyrl")


@pytest.fixture(scope="module")
def plan_and_results(tmp_path_factory):
    config = RunConfig(languages=LANGUAGES, tokenizers=("tiktoken/*",), repeats=1,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    plan = plan_run(config)
    return plan, ReportView.of(run_benchmark(plan))


def test_every_domain_gets_its_premium_from_its_own_lines(plan_and_results):
    plan, results = plan_and_results
    labels = plan.measure_domains
    assert len(labels) == 1012 and set(labels) == {"wikibooks", "wikinews", "wikivoyage"}
    entries = results.domain_premiums
    assert len(entries) == 2 * 2 * 3  # tokenizers x languages but the reference x domains
    for entry in entries:
        keep = [i for i, label in enumerate(labels) if label == entry.domain]
        assert entry.n_lines == len(keep)
        assert entry.premium_ci_low <= entry.premium <= entry.premium_ci_high
    whole = {(row.tokenizer, row.language): row for row in results.rows}
    for (tokenizer, code) in {(e.tokenizer, e.language) for e in entries}:
        mine = [e for e in entries if (e.tokenizer, e.language) == (tokenizer, code)]
        # the domains' totals add up to the whole corpus's
        assert sum(e.n_tokens for e in mine) == whole[tokenizer, code].n_tokens
        assert min(e.premium for e in mine) <= whole[tokenizer, code].premium <= max(e.premium for e in mine)


def test_the_section_table_plot_and_csv_show_them(plan_and_results, tmp_path):
    _, results = plan_and_results
    table = domain_premium_table(results)
    assert len(table.rows) == 4 and table.headers[2].startswith("wikibooks (")
    section = next(s for s in report_sections(results) if s.key == "domains")
    assert section.title == "The same language, different kinds of text"
    code, tokenizer, ratio, high, low = largest_moves(results)[0]
    assert ratio >= 1 and f"{ratio:.2f}x as high on {high} as on {low}" in section.intro
    assert plot_domain_premiums(results) is not None
    written = write_reports(results, tmp_path, plots=("png",))
    assert tmp_path / "plots" / "domain_premium.png" in written
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "## The same language, different kinds of text" in readme and "plots/domain_premium.png" in readme
    assert "The same language, different kinds of text" in (tmp_path / "index.html").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "domain_premiums.csv").read_text(encoding="utf-8"))))
    assert len(rows) == len(results.domain_premiums)
    assert float(rows[0]["premium"]) == results.domain_premiums[0].premium


def test_one_domain_is_measured_alone_and_the_record_names_it(tmp_path):
    config = RunConfig(languages=("eng_Latn", "jpn_Jpan"), tokenizers=("tiktoken/o200k_base",), repeats=1,
                       cache_dir=tmp_path / "cache", domain="wikivoyage")
    plan = plan_run(config)
    results = run_benchmark(plan)
    assert results.record.settings.domain == "wikivoyage"
    assert set(plan.measure_domains) == {"wikivoyage"} and len(plan.measure_texts["jpn_Jpan"]) == 320
    (entry,) = results.domain_premiums
    row = next(r for r in results.rows if r.language == "jpn_Jpan")
    assert entry.premium == row.premium and (entry.premium_ci_low, entry.premium_ci_high) == metrics.containing(
        (row.premium_ci_low, row.premium_ci_high), row.premium)
    # one kind of text alone gives the premium table again: no section of its own
    assert "domains" not in {s.key for s in report_sections(ReportView.of(results))}
