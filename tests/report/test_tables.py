"""The tables: the first is the cost, rates round on the right side of the cut-off, and the page's script sorts them by the measured values.

On tests/data/results_fixture.json (tests/support/report_fixture.py); expected values are computed here from the
fixture's rows, never copied from a report.
"""

from __future__ import annotations

import json

import quickjs
from tests.support.report_fixture import results  # noqa: F401 (fixtures)

from benchmark.report.pages.html import SORT_SCRIPT
from benchmark.report.naming import LOSSLESS_SHARE, LOSSY_MARK, language_label
from benchmark.report.tables.measurements import all_rows_table, tokens_per_sentence_table
from benchmark.results.rows import load_results
from tests.support.paths import DATA


def test_the_first_table_is_the_cost_in_tokens_per_sentence(results):
    table = tokens_per_sentence_table(results)
    assert table.key == "tokens_per_sentence"
    languages = list(table.headers[1:])
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    checked = marked = 0
    for cells in table.rows:
        for language, cell in zip(languages, cells[1:]):
            row = by_key[(cells[0], language)]
            if row.ok:
                lossy = row.roundtrip_rate is not None and row.roundtrip_rate < 0.99
                assert cell == f"{row.n_tokens / row.n_sentences:.1f}" + (" \u2020" if lossy else "")
                checked += 1
                marked += lossy
            else:
                assert cell == "skipped"
    assert checked > 50
    # A count of text the tokenizer changed is marked, and the note says what the mark means.
    assert marked > 0 and "\u2020: this tokenizer gave back under 99% of the language's sentences" in table.note


# A stand-in for the few DOM calls the sort script makes, so the script itself runs unchanged in
# QuickJS: clicking a header reorders `body.rows` as appending rows to a <tbody> does in a browser.
SORT_HARNESS = """
var rows = ROWS.map(function (texts) {
  return { cells: texts.map(function (text) { return { textContent: text }; }) };
});
var body = { rows: rows.slice(), appendChild: function (row) {
  this.rows.splice(this.rows.indexOf(row), 1); this.rows.push(row); } };
var table = { tBodies: [body] };
var headers = HEADERS.map(function (text, index) {
  return { cellIndex: index, dataset: {}, title: "", closest: function () { return table; },
           addEventListener: function (type, handler) { this["on" + type] = handler; } };
});
var document = { querySelectorAll: function (selector) {
  return selector === "table.sortable th" ? headers : []; } };
function click(index) {
  headers[index].onclick();
  return JSON.stringify(body.rows.map(function (row) { return rows.indexOf(row); }));
}
"""


def _sorted_by_the_page(table, clicks: list[str]) -> list[list[int]]:
    """The row order (indices into table.rows) after each click on the named headers."""
    context = quickjs.Context()
    context.eval(f"var ROWS = {json.dumps(table.rows)}; var HEADERS = {json.dumps(table.headers)};")
    context.eval(SORT_HARNESS)
    context.eval(SORT_SCRIPT)
    return [json.loads(context.eval(f"click({table.headers.index(header)})")) for header in clicks]


def test_clicking_a_column_sorts_by_the_measured_values(results):
    table = all_rows_table(results)
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    measured = [by_key[(cells[0], cells[1])] for cells in table.rows]
    columns = {"tokens": "n_tokens", "unk": "unk_rate", "premium": "premium", "x tiktoken": "throughput_x_tiktoken",
               "round trip": "roundtrip_rate"}
    unk = [cells[table.headers.index("unk")] for cells in table.rows]
    assert "<0.1%" in unk and "0%" in unk and "" in unk, "the fixture should show a rate under 0.1%, a zero and a blank"
    for header, field in columns.items():
        column = table.headers.index(header)
        for order, descending in zip(_sorted_by_the_page(table, [header, header]), (True, False)):
            assert sorted(order) == list(range(len(table.rows)))
            values = [getattr(measured[i], field) if measured[i].ok else None for i in order]
            shown = [table.rows[i][column] for i in order]
            n_valued = sum(value is not None for value in values)
            # Cells with a value first, in both directions; blanks and "skipped" after them.
            assert all(value is not None for value in values[:n_valued]), (header, shown)
            for (a, b), (text_a, text_b) in zip(zip(values[:n_valued], values[1:n_valued]), zip(shown, shown[1:])):
                # Rounded cells may tie on screen; otherwise the measured values decide.
                assert text_a == text_b or (a > b if descending else a < b), (header, descending, text_a, text_b)


def test_clicking_a_text_column_sorts_alphabetically(results):
    table = all_rows_table(results)
    down, up = _sorted_by_the_page(table, ["tokenizer", "tokenizer"])
    names = [cells[0] for cells in table.rows]
    assert [names[i] for i in down] == sorted(names, reverse=True)
    assert [names[i] for i in up] == sorted(names)


def test_a_rate_never_prints_on_the_other_side_of_the_lossless_cut_off():
    from benchmark.report.naming import fmt_rate_percent

    assert LOSSLESS_SHARE == 0.99
    assert fmt_rate_percent(987 / 997) == "98.9%"  # 98.997%: "99.0%" would read as over the cut-off
    assert fmt_rate_percent(0.99) == "99.0%" and fmt_rate_percent(0.9996) == "99.9%"
    assert fmt_rate_percent(0.98949) == "98.9%" and fmt_rate_percent(0.0004) == "<0.1%"


def test_a_column_with_daggers_still_sorts_as_numbers(results):
    table = tokens_per_sentence_table(results)  # tokens per sentence, tokenizers down, languages across
    by_key = {(row.tokenizer, language_label(results, row.language)): row for row in results.rows}
    column = next(i for i, header in enumerate(table.headers) if any("\u2020" in cells[i] for cells in table.rows))
    (order,) = _sorted_by_the_page(table, [table.headers[column]])
    rows = [by_key[(table.rows[i][0], table.headers[column])] for i in order]
    shown = [table.rows[i][column] for i in order]
    n_measured = sum(row.ok for row in rows)
    assert all(row.ok for row in rows[:n_measured])  # "skipped" last
    for (a, b), (text_a, text_b) in zip(zip(rows[:n_measured], rows[1:n_measured]), zip(shown, shown[1:])):
        assert text_a == text_b or a.tokens_per_sentence > b.tokens_per_sentence, (text_a, text_b)


def _cost_view():
    from benchmark.report.view import ReportView

    return ReportView.of(load_results(DATA / "results_cost.json"))


def test_the_fewest_tokens_table_names_ties_together_in_both_columns():
    from benchmark.report.tables.compare import fewest_tokens_table

    results = _cost_view()
    table = fewest_tokens_table(results)
    by_label = {language_label(results, code): code for code in results.languages}
    named_ties = 0
    for row in table.rows:
        code = by_label[row[0]]
        rows = [r for r in results.rows if r.language == code and r.tokenizer in results.production and r.ok
                and r.roundtrip_rate >= LOSSLESS_SHARE]
        for name_column, figure_column in ((1, 2), (3, 4)):
            expected = sorted(r.tokenizer for r in rows if f"{r.tokens_per_sentence:.1f}" == row[figure_column])
            assert row[name_column].split(", ") == expected, (row, name_column)
            named_ties += len(expected) > 1
    assert named_ties  # mistral/sp-v1 and sp-v7 count alike: the fixture has a tie


def test_every_word_table_marks_the_counts_of_changed_text():
    from benchmark.report.tables.compare import word_tables

    results = _cost_view()
    tables = {table.key: table for table in word_tables(results)}
    assert set(tables) == {"fertility", "continued_words", "partial_chars"}
    index = results.index
    labels = [language_label(results, code) for code in results.languages]
    marked = 0
    for table in tables.values():
        for row in table.rows:
            for label, cell in zip(table.headers[1:], row[1:]):
                source = index[(row[0], results.languages[labels.index(label)])]
                lossy = source.ok and source.roundtrip_rate is not None and source.roundtrip_rate < LOSSLESS_SHARE
                assert cell.endswith(LOSSY_MARK) == (lossy and cell != ""), (table.key, row[0], label, cell)
                marked += cell.endswith(LOSSY_MARK)
    assert marked


def test_a_blank_word_figure_says_how_to_fill_it_and_the_caption_names_only_the_segmenters_used():
    import dataclasses

    from benchmark.report.tables.compare import word_tables
    from benchmark.report.view import ReportView
    from benchmark.results.record import SegmenterEntry

    results = _cost_view()
    words = results.record.settings.words
    assert "jpn_Jpan" not in results.languages
    fertility = next(t for t in word_tables(results) if t.key == "fertility")
    assert "MeCab" not in fertility.note and "jieba" in fertility.note  # Chinese, no Japanese in this run
    # The same run without the extra: Chinese had no segmenter, and the record says why.
    missing = SegmenterEntry("none", note="no word figures: zho_Hans needs jieba to find its words "
                                          "(pip install 'tokencost-benchmark[segmenters]')")
    settings = dataclasses.replace(results.record.settings, words=dataclasses.replace(
        words, segmenters={**words.segmenters, "zho_Hans": missing}))
    plain = ReportView(rows=results.rows, record=dataclasses.replace(results.record, settings=settings))
    for table in word_tables(plain)[:2]:
        assert "pip install '.[segmenters]'" in table.note, table.key
        assert "Chinese" in table.note.split("Blank:")[1]


def test_the_filter_box_narrows_tokenizers_where_the_query_names_no_language():
    from benchmark.report.pages.filter_box import SCRIPT as FILTER_SCRIPT
    from tests.support.filter_harness import FILTER_HARNESS

    labels = ["English (eng_Latn)", "Hindi (hin_Deva)"]
    context = quickjs.Context()
    context.eval('var HASH = "";')
    context.eval(FILTER_HARNESS)
    # tokenizers down, languages across; languages down, tokenizers across; tokenizers alone
    context.eval(
        "var TABLES = ["
        f"makeTable('columns', {json.dumps(['tokenizer', *labels])}, "
        "[['llama/llama3', '1', '2'], ['mistral/sp-v7', '3', '4']], [undefined].concat(" + json.dumps(labels) + ")),"
        f"makeTable('0', ['language', 'llama/llama3', 'mistral/sp-v7', 'tokens / sentence'], "
        f"{json.dumps([[l, '1', '2', '3'] for l in labels])}),"
        "makeTable('tokenizers', ['tokenizer', 'vocab_size'], [['llama/llama3', '1'], ['mistral/sp-v7', '2']])];")
    context.eval(FILTER_SCRIPT)
    context.eval("function shown() { return JSON.stringify(TABLES.map(function (t) { return {"
                 "rows: t.tBodies[0].rows.map(function (r) { return !r.hidden; }),"
                 "columns: t.rows[0].cells.map(function (c) { return !c.hidden; }) }; })); }")
    context.eval("type('sp-v7')")
    by_tokenizer = json.loads(context.eval("shown()"))
    assert by_tokenizer[0]["rows"] == [False, True] and all(by_tokenizer[0]["columns"])
    # a column headed "tokens / sentence" is no tokenizer's: it stays
    assert by_tokenizer[1]["columns"] == [True, False, True, True] and all(by_tokenizer[1]["rows"])
    assert by_tokenizer[2]["rows"] == [False, True]
    assert context.eval("others['language-filter-note'].textContent").startswith("showing tokenizers matching")
    # A language query still narrows the languages, and leaves the tokenizers' own table whole.
    context.eval("type('hin')")
    by_language = json.loads(context.eval("shown()"))
    assert by_language[0]["columns"] == [True, False, True] and all(by_language[0]["rows"])
    assert by_language[1]["rows"] == [False, True] and all(by_language[1]["columns"])
    assert by_language[2]["rows"] == [True, True]
    context.eval("type('')")
    assert all(all(t["rows"]) and all(t["columns"]) for t in json.loads(context.eval("shown()")))
