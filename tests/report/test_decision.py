"""The report's leading section (cheapest and roomiest model per language), the per-script summary
and the page's language filter, on a real small run (tests/data/results_cost.json) priced by a
user's file."""

from __future__ import annotations

import json
import re
import statistics

import pytest
import quickjs

from benchmark.pricing.prices.book import price_book
from benchmark.report.view import ReportView
from benchmark.report.pages.decision_section import decision
from benchmark.report.pages.filter_box import SCRIPT, filter_attributes, header_attributes
from benchmark.report.tables.scripts import script_premium_table
from benchmark.results.rows import load_results
from tests.support.filter_harness import FILTER_HARNESS
from tests.support.paths import DATA

FIXTURE = DATA / "results_cost.json"


@pytest.fixture(scope="module")
def results():
    return load_results(FIXTURE)


@pytest.fixture(scope="module")
def prices(tmp_path_factory):
    """A user's prices file; the tests only read it, so one a module."""
    path = tmp_path_factory.mktemp("prices") / "prices.csv"
    path.write_text("model,input_usd_per_mtok,context_window,tokenizer\n"
                    "cheap-o200k,0.10,100000,tiktoken/o200k_base\n"
                    "scout,0.17,20000000,llama/llama4\n"
                    "qwen-small,0.05,,qwen/qwen\n", encoding="utf-8")
    return path


def _table(found, key):
    return next(table for table in found.tables if table.key == key)


def test_the_cheapest_model_per_language_is_the_least_money_for_its_tokens(results, prices):
    found = decision(results, ReportView.of(results).production, prices=prices)
    table = _table(found, "cheapest_priced")
    book = price_book(results, prices=prices)
    rows = {(row.tokenizer, row.language): row for row in results.rows}
    labels = {f"{results.record.language_names[code]} ({code})": code for code in results.record.language_names}
    assert [labels[cells[0]] for cells in table.rows] == ["eng_Latn", "hin_Deva", "amh_Ethi", "yor_Latn", "kor_Hang",
                                                          "zho_Hans"]
    for cells in table.rows:
        language = labels[cells[0]]
        costs = {(model, tokenizer): rows[tokenizer, language].n_tokens * book.listings[model].input_usd_per_mtok
                 for tokenizer, models in book.models.items() for model in models
                 if model in book.listings and book.listings[model].priced}
        best = min(costs, key=costs.get)
        assert cells[1].startswith(best[0] + " (") and cells[2] == best[1]
        row = rows[best[1], language]
        assert cells[3] == f"{row.tokens_per_sentence:.1f}" and cells[4].startswith(f"{row.premium:.2f}x")
        assert cells[-1] == book.listings[best[0]].source


def test_the_roomiest_model_is_the_most_sentences_in_a_window(results, prices):
    found = decision(results, ReportView.of(results).production, prices=prices)
    table = _table(found, "roomiest_window")
    assert {cells[1] for cells in table.rows} == {"scout (your contract)"}  # 20M tokens on llama/llama4
    assert all(cells[3] == "20M tokens" for cells in table.rows)


def test_money_per_tokenizer_names_the_cheapest_model_of_each(results, prices):
    table = _table(decision(results, ReportView.of(results).production, prices=prices), "money_per_tokenizer")
    # gpt-oss-20b is priced at AWS Bedrock ($0.07): the database's $0.029 is OpenRouter's, in OpenAI's entry.
    assert "tiktoken/o200k_base: gpt-5-nano ($0.050/M input tokens)" in table.headers
    # qwen-turbo costs $0.05 too: the same tokens at the same price, the name breaks the tie.
    assert "qwen/qwen: qwen-small ($0.050/M input tokens)" in table.headers
    assert "xai/grok1" not in " ".join(table.headers)  # no priced model


def test_results_without_models_have_no_decision_section(results):
    import dataclasses

    bare = dataclasses.replace(results, record=dataclasses.replace(results.record, tokenizers={
        tid: dataclasses.replace(entry, models=()) for tid, entry in results.record.tokenizers.items()}))
    assert price_book(bare).models == {}
    assert decision(bare, ReportView.of(bare).production) is None


def test_the_script_summary_is_the_median_premium_of_each_script(results):
    tokenizers = ReportView.of(results).production
    table = script_premium_table(results, tokenizers)
    scripts = {cells[0]: cells for cells in table.rows}
    assert set(scripts) == {"Devanagari (Deva)", "Ethiopic (Ethi)", "Latin (Latn)", "Hangul (Hang)",
                            "Han (Simplified) (Hans)"}
    # Latin holds Yoruba only (English, the reference, is left out).
    latin = scripts["Latin (Latn)"]
    assert latin[1] == "1"
    yoruba = {row.tokenizer: row.premium for row in results.rows if row.language == "yor_Latn"}
    assert latin[2:] == tuple(f"{yoruba[t]:.2f}" for t in tokenizers)
    medians = [statistics.median(float(c) for c in cells[2:]) for cells in table.rows]
    assert medians == sorted(medians, reverse=True)


# ------------------------------------------------------------------ the filter box, run in QuickJS


def _page(hash_text: str = ""):
    labels = ["English (eng_Latn)", "Hindi (hin_Deva)", "Chinese (Simplified) (zho_Hans)"]
    down_headers = ("language", "tiktoken/o200k_base")
    across_headers = ("tokenizer", *labels)
    assert filter_attributes(down_headers, labels) == ' data-filter="0"'
    assert filter_attributes(("tokenizer", "language", "n_tokens"), labels) == ' data-filter="1"'
    assert filter_attributes(across_headers, labels) == ' data-filter="columns"'
    assert filter_attributes(("tokenizer", "vocab_size"), labels) == ""
    assert header_attributes("Hindi (hin_Deva)", labels) == ' data-language="Hindi (hin_Deva)"'
    context = quickjs.Context()
    context.eval(f"var HASH = {json.dumps(hash_text)};")
    context.eval(FILTER_HARNESS)
    language_of = [None, *labels]
    context.eval(f"var TABLES = [makeTable('0', {json.dumps(down_headers)}, {json.dumps([[l, '1'] for l in labels])}),"
                 f" makeTable('columns', {json.dumps(across_headers)}, [['o200k', '1', '2', '3']], "
                 f"{json.dumps(language_of).replace('null', 'undefined')})];")
    context.eval(SCRIPT)
    return context


def test_typing_a_name_or_code_narrows_rows_and_columns():
    page = _page()
    assert json.loads(page.eval("type('hin')")) == [[False, True, False], [True, False, True, False]]
    assert json.loads(page.eval("type('zho_hans')")) == [[False, False, True], [True, False, False, True]]
    assert json.loads(page.eval("type('Chinese')")) == [[False, False, True], [True, False, False, True]]
    assert json.loads(page.eval("type('')")) == [[True, True, True], [True, True, True, True]]
    assert page.eval("others['language-filter-box'].style.display") == "block"


def test_a_link_can_carry_the_filter():
    page = _page("#language=Hindi")
    assert json.loads(page.eval("state()")) == [[False, True, False], [True, False, True, False]]
    assert page.eval("others['language-filter-note'].textContent").startswith("showing languages matching")


# ------------------------------------------------------------------ README.md and index.html lead with it


@pytest.fixture(scope="module")
def rendered(results, prices, tmp_path_factory):
    """README.md and index.html of one report priced by `prices`, written once for the tests that read them."""
    from benchmark.report import write_reports

    out = tmp_path_factory.mktemp("decision-report")
    write_reports(results, out, plots=False, prices=prices)
    return (out / "README.md").read_text(encoding="utf-8"), (out / "index.html").read_text(encoding="utf-8")


def test_the_report_reads_the_users_prices_and_names_them_as_the_source(rendered, prices):
    """`report --prices FILE` prices the models it names from the file, as `cost --prices` does, and
    both pages say so: in the section's first paragraph and beside every figure it priced."""
    readme, page = rendered
    source = price_book(load_results(FIXTURE), prices=prices).listings["cheap-o200k"].source
    assert source.startswith("your prices (prices.csv, ")
    sentence = f"Prices and windows: {source} for the 3 models it names; genai-prices"
    lead = readme.split("## Which model to use for each language", 1)[1].split("###", 1)[0]
    assert sentence in lead and sentence in page
    roomiest = readme.split("### The roomiest model per language, in context", 1)[1].split("###", 1)[0]
    rows = [line.split(" | ") for line in roomiest.splitlines() if line.startswith("| ")][2:]
    assert rows and all(cells[1:2] == ["scout (your contract)"] and cells[-1] == f"{source} |" for cells in rows)
    cheapest = readme.split("### The cheapest model per language, in money", 1)[1].split("###", 1)[0]
    body = [line for line in cheapest.splitlines() if line.startswith("| ")][2:]
    assert body and all(line.endswith(("genai-prices 0.2.3 (2026-11), price of 2026-12-01 |", f"{source} |"))
                        for line in body)


def test_report_with_a_bad_prices_file_is_one_line_and_writes_nothing(tmp_path, capsys):
    from benchmark.cli.parser import main

    bad = tmp_path / "prices.csv"
    bad.write_text("model,input_usd_per_mtok\ngpt-4o,$2.50\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", "--results", str(FIXTURE), "--output", str(out), "--no-plots", "--prices", str(bad)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and f"{bad}, line 2, input_usd_per_mtok: '$2.50' has a currency sign" in error
    assert not out.exists()


def test_readme_and_page_lead_with_the_decision(rendered):
    readme, page = rendered
    sections = [line for line in readme.splitlines() if line.startswith("## ")]
    # after what differs by language (tests/report/test_by_language.py), before the findings
    assert sections[1:3] == ["## Which model to use for each language", "## Findings"]
    assert readme.index("### The cheapest model per language, in money") < readme.index("## Findings")
    assert "Money and context are derived from the token counts, not measured" in readme.split(
        "## How the figures were measured")[1]
    assert page.index('<h2 id="decision">') < page.index('<h2 id="findings">')
    assert page.index('id="language-filter"') < page.index('<h2 id="decision">')


def test_every_table_with_languages_opts_into_the_filter(rendered):
    _, page = rendered
    tables = re.findall(r'<table class="sortable"([^>]*)><thead><tr>(.*?)</tr>', page)
    assert tables
    for attributes, head in tables:
        headers = re.findall(r"<th[^>]*>(.*?)</th>", head)
        if "language" in headers[0] or "language" in headers[1:2]:
            assert re.search(r'data-filter="\d"', attributes), headers
        elif 'data-language="' in head:
            assert attributes == ' data-filter="columns"', headers
    assert sum('data-filter="' in attributes for attributes, _ in tables) >= 5
