"""The summaries per language family and resource tier (measure/group_summaries.py), their
section (tables/groups.py), the page's family and tier attributes (facts/groups.py) and the Lorenz
plot (plots/lorenz.py), on a real run of seven languages on tiktoken's two vocabularies (30
sentences each), checked against the rows they come from."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from benchmark.corpora.groups import group_of
from benchmark.measure.plan import RunConfig, plan_run
from benchmark.measure.run import run_benchmark
from benchmark.report.facts.groups import language_groups_of
from benchmark.report.pages.html import render_html
from benchmark.report.pages.markdown import render_markdown
from benchmark.report.pages.sections import report_sections
from benchmark.report.plots import lorenz
from benchmark.report.plots.style import plot_style
from benchmark.report.view import ReportView
from benchmark.results.rows import Results, load_results, save_results

LANGUAGES = ("eng_Latn", "spa_Latn", "fra_Latn", "rus_Cyrl", "jpn_Jpan", "eus_Latn", "kor_Hang")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    config = RunConfig(languages=LANGUAGES, tokenizers=("tiktoken/*",), max_sentences=30, repeats=1,
                       cache_dir=tmp_path_factory.mktemp("cache"))
    return ReportView.of(run_benchmark(plan_run(config)))


def by_hand_gini(values):
    return sum(abs(a - b) for a in values for b in values) / (2 * len(values) * sum(values))


def test_a_groups_premium_and_gini_are_what_the_rows_give(results):
    rows = {(row.tokenizer, row.language): row for row in results.rows}
    (indo,) = [g for g in results.groups if g.kind == "family" and g.group == "Indo-European"
               and g.tokenizer == "tiktoken/cl100k_base"]
    assert indo.languages == ("eng_Latn", "spa_Latn", "fra_Latn", "rus_Cyrl")
    totals = [rows[("tiktoken/cl100k_base", code)].n_tokens for code in indo.languages]
    english = rows[("tiktoken/cl100k_base", "eng_Latn")].n_tokens
    assert indo.premium == pytest.approx(sum(totals) / (4 * english), rel=1e-12)
    assert indo.gini == pytest.approx(by_hand_gini(totals), rel=1e-12)
    assert indo.premium_ci_low < indo.premium < indo.premium_ci_high


def test_a_group_of_one_language_has_its_premium_and_no_gini(results):
    for entry in results.groups:
        if entry.group in ("Japonic", "Koreanic", "Basque"):
            (code,) = entry.languages
            row = next(r for r in results.rows if r.tokenizer == entry.tokenizer and r.language == code)
            assert entry.gini is None and entry.premium == pytest.approx(row.premium, rel=1e-12)
            assert entry.premium_ci_low == pytest.approx(row.premium_ci_low, rel=1e-9)  # the same resamples
    tiers = {g.group for g in results.groups if g.kind == "tier"}
    assert tiers == {f"class {group_of(code).joshi_class}" for code in LANGUAGES}


def test_group_summaries_survive_results_json_and_are_deterministic(results, tmp_path):
    save_results(results, tmp_path / "results.json")
    assert load_results(tmp_path / "results.json").groups == results.groups


def test_the_section_shows_both_tables_and_escapes_a_name(results):
    (section,) = [s for s in report_sections(results) if s.key == "groups"]
    family, tier = section.tables
    assert [row[0] for row in family.rows] == ["Basque", "Indo-European", "Japonic", "Koreanic"]  # by name
    classes = [int(row[0].removeprefix("class ")) for row in tier.rows]
    assert classes == sorted(classes) and len(classes) == len({group_of(c).joshi_class for c in LANGUAGES})
    basque = next(row for row in family.rows if row[0] == "Basque")
    assert "Gini" not in basque[3] and "Gini" in next(row for row in family.rows if row[0] == "Indo-European")[3]
    hostile = "<img src=x onerror=alert(1)>|Fam"
    renamed = ReportView.of(Results(rows=results.rows, record=results.record, summaries=results.summaries,
                                    groups=tuple(dataclasses.replace(g, group=hostile) if g.group == "Basque" else g
                                                 for g in results.groups)))
    page = render_html(renamed, [])
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;|Fam" in page
    markdown = render_markdown(renamed, [])
    assert "By family and by resource tier" in markdown and "<img src=x" not in markdown


def test_the_page_embeds_each_languages_family_and_tier(results):
    page = render_html(results, [])
    block = re.search(r'<script type="application/json" id="language-groups">(.*?)</script>', page, re.S).group(1)
    embedded = json.loads(block)
    assert embedded == language_groups_of(results)
    assert list(embedded) == results.languages
    assert embedded["eus_Latn"] == {"family": "Basque", "family_glottocode": "basq1248", "tier": 4}


def test_the_lorenz_plot_draws_a_curve_per_tokenizer_with_its_gini(results):
    with plot_style():
        fig = lorenz.plot_lorenz(results)
    (ax,) = fig.axes
    labels = [line.get_label() for line in ax.get_lines()]
    ginis = {s.tokenizer: s.gini for s in results.summaries}
    assert labels[0].startswith("equality")
    assert sorted(labels[1:]) == sorted(f"{t} (Gini {g:.3f})" for t, g in ginis.items())
    for line in ax.get_lines()[1:]:
        xs, ys = line.get_data()
        assert xs[0] == ys[0] == 0 and xs[-1] == ys[-1] == 1 and list(ys) == sorted(ys)
        assert all(y <= x + 1e-12 for x, y in zip(xs, ys))  # below the diagonal
        # twice the area between the diagonal and the curve (trapezoids) is the Gini
        area = sum((xs[k + 1] - xs[k]) * (ys[k + 1] + ys[k]) / 2 for k in range(len(xs) - 1))
        tokenizer = line.get_label().split(" (")[0]
        assert 1 - 2 * area == pytest.approx(ginis[tokenizer], abs=1e-9)
