"""The report's comparison sections (cost per model, fairness, training mixes, words) on the results
of a real run (tests/data/make_mixes_fixture.py): every figure a table, a plot or a finding shows is
checked against the rows and summaries it comes from, worked out here by hand."""

from __future__ import annotations

import re

import pytest

from benchmark.adapters.families import family_name
from benchmark.report.plots import render
from benchmark.report.plots import style as style_module
from benchmark.report.facts.compare import token_ranges, mix_families
from benchmark.report.facts.findings import compute_findings
from benchmark.report.tables.compare import fewest_tokens_table, fairness_table, mix_table, word_tables
from benchmark.report.naming import language_label
from benchmark.report.pages.sections import report_sections
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA

FIXTURE = DATA / "results_mixes.json"
OLD_FIXTURE = DATA / "results_fixture.json"


@pytest.fixture(scope="module")
def results():
    return ReportView.of(load_results(FIXTURE))


def _row(results, tokenizer, language):
    return next(r for r in results.rows if r.tokenizer == tokenizer and r.language == language)


def test_the_fixture_has_what_the_sections_compare(results):
    families = {row.family for row in results.rows}
    assert {"tiktoken", "llama", "mistral", "bpe-balanced", "bpe-parity", "bpe-english-heavy",
            "bpe-english-only", "hf-bpe"} <= families
    assert results.summaries and all(row.ok for row in results.rows)


def test_production_tokenizers_are_the_vendors_and_not_the_trained_ones(results):
    shown = results.production
    assert "tiktoken/cl100k_base" in shown and "llama/llama3" in shown and "mistral/tekken" in shown
    assert not [tid for tid in shown if tid.startswith(("bpe/", "hf/"))]


def test_the_fewest_tokens_per_language_are_the_fewest_of_the_production_models(results):
    shown = results.production
    costs = token_ranges(results)
    assert [c.language for c in costs] == list(results.record.language_names)
    for cost in costs:
        rows = [r for r in results.rows if r.language == cost.language and r.tokenizer in shown]
        fewest = min(r.n_tokens for r in rows)
        assert min(r.n_tokens for r in cost.fewest) == fewest
        assert cost.most.n_tokens == max(r.n_tokens for r in rows)
        assert cost.spread == pytest.approx(cost.most.n_tokens / fewest)
    table = fewest_tokens_table(results)
    assert len(table.rows) == len(costs)
    assert {row[0] for row in table.rows} == {language_label(results, c.language) for c in costs}


def test_the_fairness_table_ranks_by_gini_and_shows_each_summary(results):
    table = fairness_table(results)
    shown = [cells[0] for cells in table.rows]
    by_id = {s.tokenizer: s for s in results.summaries}
    ginis = [by_id[tid].gini for tid in shown]
    assert ginis == sorted(ginis)
    assert set(shown) == {s.tokenizer for s in results.summaries if s.gini is not None}
    column = table.headers.index("Gini (95% CI)")
    for cells in table.rows:
        s = by_id[cells[0]]
        assert cells[column].startswith(f"{s.gini:.3f} ({s.gini_ci_low:.3f}-{s.gini_ci_high:.3f})")


def test_the_mix_table_gives_each_mixs_premium_at_one_size(results):
    table = mix_table(results)
    assert table is not None
    size = max(r.vocab_size for r in results.rows if r.family == "bpe-balanced")
    reference = results.record.settings.reference
    languages = [code for code in results.record.language_names if code != reference]
    for family in mix_families(results):
        tid = f"bpe/{family.removeprefix('bpe-')}-{size}"
        (cells,) = [cells for cells in table.rows if cells[0] == f"{family_name(family)} ({size:,})"]
        for k, code in enumerate(languages):
            assert cells[1 + k] == f"{_row(results, tid, code).premium:.2f}"
        total = sum(_row(results, tid, code).n_tokens for code in results.record.language_names)
        assert cells[-1] == f"{total:,}"


def test_the_mix_finding_quotes_the_premiums_and_the_total_token_cost(results):
    sentence = next(s for s in compute_findings(results) if s.startswith("The training data drives the premium"))
    size = max(r.vocab_size for r in results.rows if r.family == "bpe-balanced")
    reference = results.record.settings.reference
    others = [code for code in results.record.language_names if code != reference]
    heavy = {code: _row(results, f"bpe/english-heavy-{size}", code).premium for code in others}
    balanced = {code: _row(results, f"bpe/balanced-{size}", code).premium for code in others}
    parity = {code: _row(results, f"bpe/parity-{size}", code).premium for code in others}
    worst = max(others, key=lambda code: heavy[code])
    assert (f"{language_label(results, worst)} {heavy[worst]:.2f}x the tokens of English; trained balanced, "
            f"{balanced[worst]:.2f}x; with parity-aware merges, {parity[worst]:.2f}x") in sentence
    for code in others:
        if code != worst:
            assert f"{language_label(results, code)} {heavy[code]:.2f}x against {balanced[code]:.2f}x" in sentence
    removed = [(heavy[c] - parity[c]) / (heavy[c] - 1) for c in others if heavy[c] > 1]
    assert f"removing {min(removed):.0%} to {max(removed):.0%}" in sentence
    totals = {mix: sum(_row(results, f"bpe/{mix}-{size}", code).n_tokens for code in results.record.language_names)
              for mix in ("balanced", "parity")}
    change = totals["parity"] / totals["balanced"] - 1
    assert f"{abs(change):.1%} {'more' if change >= 0 else 'fewer'} tokens" in sentence
    assert "90% of the training bytes English" in sentence  # from the run's record of the mix


def test_the_fairness_finding_names_the_most_and_least_even_production_tokenizer(results):
    sentence = next(s for s in compute_findings(results) if "charges them most evenly" in s)
    shown = set(results.production)
    ranked = sorted((s for s in results.summaries if s.tokenizer in shown), key=lambda s: s.gini)
    assert f"most evenly is {ranked[0].tokenizer} (Gini {ranked[0].gini:.3f}" in sentence
    assert f"least evenly {ranked[-1].tokenizer} (Gini {ranked[-1].gini:.3f}" in sentence
    overall = min(results.summaries, key=lambda s: s.gini)
    assert overall.tokenizer.startswith("bpe/parity-")  # what parity-aware merges are for
    assert f"The most even of every tokenizer measured is {overall.tokenizer}" in sentence


def test_the_words_finding_gives_the_split_range_on_the_production_tokenizers(results):
    sentence = next(s for s in compute_findings(results) if s.startswith("Words split into two or more tokens"))
    shown = results.production
    for code in ("eng_Latn",):
        rates = [_row(results, tid, code).continued_word_rate for tid in shown]
        assert f"{min(rates):.0%} to {max(rates):.0%} of {language_label(results, code)} words" in sentence


def test_the_premium_finding_is_about_the_production_tokenizers(results):
    first = compute_findings(results)[0]
    assert "bpe/" not in first and "hf/" not in first
    shown = results.production
    worst = max((r for r in results.rows if r.tokenizer in shown and r.premium), key=lambda r: r.premium)
    assert first.startswith(language_label(results, worst.language))
    assert f"under {worst.tokenizer} the same sentences take {worst.premium:.2f}x" in first


def test_word_tables_show_fertility_from_the_rows(results):
    fertility = next(t for t in word_tables(results) if "Fertility" in t.title)
    languages = list(fertility.headers[1:])
    for cells in fertility.rows:
        for label, cell in zip(languages, cells[1:]):
            code = next(c for c in results.record.language_names if language_label(results, c) == label)
            row = _row(results, cells[0], code)
            assert cell.rstrip(" \u2020") == f"{row.n_tokens / row.n_words:.2f}"


def test_every_section_plot_is_drawn_titled_and_labelled(results):
    sections = report_sections(results)
    keys = [section.key for section in sections]
    assert keys[:3] == ["cost", "fairness", "mixes"]  # what a reader came for comes first
    wanted = {name for section in sections for name in section.plots}
    with style_module.plot_style():
        figures = render.make_figures(results)
    assert {"production_cost", "fairness", "mix_premium", "gini_by_size"} <= set(figures)
    assert set(figures) <= wanted
    for name in ("production_cost", "fairness", "mix_premium", "gini_by_size"):
        fig = figures[name]
        axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
        assert all(ax.get_title() or fig.get_suptitle() for ax in axes), name
        assert all(ax.get_ylabel() for ax in axes) and axes[-1].get_xlabel(), name


def test_a_run_without_mixes_or_summaries_has_no_such_sections():
    old = ReportView.of(load_results(OLD_FIXTURE))
    keys = [section.key for section in report_sections(old)]
    assert "mixes" not in keys and "fairness" not in keys
    assert not [s for s in compute_findings(old) if re.match("The training data|Over the .* languages", s)]


def test_the_fewest_tokens_are_tied_when_the_interval_of_their_lead_holds_one(results):
    # The fixture predates pairwise ratios: the table has no such column. Given the pair's
    # interval, it says "tied" when the interval holds 1, and gives the interval when not.
    import dataclasses

    from benchmark.results.pairwise import PairwiseRatio

    assert fewest_tokens_table(results).headers[-1] == "most / fewest"
    costs = [cost for cost in token_ranges(results) if cost.runner_up is not None][:2]
    assert len(costs) == 2

    def pair(cost, low, high):
        first, other = cost.fewest[0], cost.runner_up
        return PairwiseRatio(cost.language, other.tokenizer, first.tokenizer, other.n_tokens, first.n_tokens,
                             other.n_tokens / first.n_tokens, low, high)  # stored the other way round

    paired = ReportView.of(dataclasses.replace(results, pairwise=(pair(costs[0], 0.98, 1.03), pair(costs[1], 1.05, 1.10))))
    table = fewest_tokens_table(paired)
    assert table.headers[-1] == "fewest / next (95% interval)"
    cells = {row[0]: row[-1] for row in table.rows}
    assert cells[language_label(paired, costs[0].language)] == f"tied with {costs[0].runner_up.tokenizer}"
    ratio = costs[1].fewest[0].n_tokens / costs[1].runner_up.n_tokens
    assert cells[language_label(paired, costs[1].language)] == (
        f"{ratio:.3f}x {costs[1].runner_up.tokenizer} ({1 / 1.10:.3f}-{1 / 1.05:.3f})")
