"""The page's "premium over" switch (benchmark/report/pages/base_switch.py) in Chromium: choosing
Hindi, or opening index.html#base=hin_Deva, makes every premium cell read, to the table's rounding,
the run's own premium over hin_Deva with its interval (`ReportView.by_base`, results/bases.py);
switching back gives the page as written; without JavaScript the page reads over the reference.

Two pages: one rendered here from a real small run (tests/data/results_bases.json), and the
committed 204-language report (reports/all-languages/; its tests need that page rendered from
results with bases: until it is regenerated they fail, naming the missing switch).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.pricing.formats import fmt_interval
from benchmark.report.facts.analysis import is_lossy
from benchmark.report.naming import LOSSY_MARK, fmt_ratio, fmt_ratio_interval, language_label
from benchmark.report.view import ReportView

HINDI = "hin_Deva"

# Every premium cell the switch rewrites: its key, its table's style and its text; and the table of
# every measurement as a reader sees it (tokenizer, language label, premium).
READ = """() => {
  const cells = Array.from(document.querySelectorAll("table[data-premium] td[data-p]")).map(td =>
    [td.getAttribute("data-p"), td.closest("table").getAttribute("data-premium"), td.textContent]);
  const table = document.querySelector("#all_rows ~ .scroll table");
  const heads = Array.from(table.tHead.rows[0].cells).map(th => th.textContent);
  const column = heads.findIndex(head => head.startsWith("premium"));
  const rows = Array.from(table.tBodies[0].rows).map(row =>
    [row.cells[0].textContent, row.cells[1].textContent, row.cells[column].textContent]);
  const grids = Array.from(document.querySelectorAll("table[data-premium=interval]")).map(grid => {
    const scroll = grid.closest(".scroll");
    let head = scroll.previousElementSibling;  // past the pager a long table has above it
    while (!/^H[23]$/.test(head.tagName)) head = head.previousElementSibling;
    return head.textContent + " " + scroll.nextElementSibling.textContent;
  });
  const data = document.getElementById("base-data");
  return {cells, rows, heads, grids, order: data ? JSON.parse(data.textContent) : null};
}"""


@pytest.fixture(params=["rendered", "committed"])
def report(request) -> tuple[Path, ReportView]:
    path, results = request.getfixturevalue("bases_rendered" if request.param == "rendered" else "all_languages")
    if len(results.by_base) < 2:
        pytest.fail(f"{path.parent} holds results of one base: regenerate it with `run --languages all --tokenizers "
                    "production` (its default bases) for the page's base switch")
    if 'id="base-data"' not in path.read_text(encoding="utf-8"):
        pytest.fail(f"{path} has no base switch: re-render it (`report --results {path.parent}/results.json`)")
    return path, results


def _expected(results: ReportView, base: str, style: str, tokenizer: str, language: str) -> str:
    """A premium cell over `base` as its table writes it (tables/measurements.py, decision.py)."""
    figures = results.by_base[base].get(tokenizer, {}).get(language)  # premiums_over, once per base
    if figures is None:
        return ""
    premium, low, high = figures
    own = language == base  # a language over itself: no interval
    if style == "plain":
        return fmt_ratio(premium)
    if style == "x":
        return fmt_interval(premium, None if own else low, high)
    rows = results.index
    changed = any(is_lossy(rows[tokenizer, code]) for code in (language, base)
                  if (tokenizer, code) in rows and rows[tokenizer, code].ok)
    return fmt_ratio_interval(premium, None if own else low, high) + (f" {LOSSY_MARK}" if changed else "")


def _check_over(results: ReportView, base: str, seen: dict) -> None:
    order = seen["order"]
    assert order is not None, "the page has no base switch: render it from results with bases (run --bases)"
    assert order["tokenizers"] == results.tokenizers and order["languages"] == results.languages
    assert [code for code, _ in order["bases"]] == list(results.by_base)
    wrong = []
    for key, style, text in seen["cells"]:
        t, l = map(int, key.split())
        wanted = _expected(results, base, style, results.tokenizers[t], results.languages[l])
        if text != wanted:
            wrong.append((style, results.tokenizers[t], results.languages[l], text, wanted))
    assert not wrong, f"{len(wrong)} of {len(seen['cells'])} cells differ, e.g. {wrong[:3]}"
    assert {style for _, style, _ in seen["cells"]} >= {"plain", "interval"}
    # The table of every measurement, read by its visible tokenizer and language, not by the marks.
    codes = {language_label(results, code): code for code in results.languages}
    over = results.by_base[base]
    for tokenizer, label, text in seen["rows"]:
        figures = over.get(tokenizer, {}).get(codes[label])
        row = results.index[tokenizer, codes[label]]
        assert text == (fmt_ratio(figures[0]) if figures and row.ok else "" if row.ok else text), (tokenizer, label)


def _hindi_named(results: ReportView, seen: dict) -> None:
    """The premium column's header and the premium grids' titles and notes name Hindi, not the reference."""
    name, reference = results.record.language_names[HINDI], results.record.language_names[results.reference]
    assert f"premium over {name}" in seen["heads"]
    assert seen["grids"] and all(name in text and reference not in text for text in seen["grids"]), seen["grids"]


def test_choosing_hindi_rewrites_every_premium_with_the_runs_intervals_over_hindi(open_page, report):
    path, results = report
    page = open_page(path)
    assert page.locator("#base-switch-box").is_visible()
    assert page.locator("#base-switch option").evaluate_all("os => os.map(o => o.value)") == list(results.by_base)
    page.select_option("#base-switch", HINDI)
    assert page.evaluate("location.hash") == f"#base={HINDI}"
    seen = page.evaluate(READ)
    _check_over(results, HINDI, seen)
    _hindi_named(results, seen)


def test_a_link_with_base_opens_the_page_over_that_base(open_page, report):
    path, results = report
    page = open_page(path, f"base={HINDI}")
    assert page.locator("#base-switch").input_value() == HINDI
    seen = page.evaluate(READ)
    _check_over(results, HINDI, seen)
    _hindi_named(results, seen)


def test_switching_back_gives_the_page_as_written(open_page, report):
    path, results = report
    page = open_page(path)
    written = page.evaluate(READ)
    page.select_option("#base-switch", HINDI)
    page.select_option("#base-switch", results.reference)
    assert page.evaluate("location.hash") == ""
    back = page.evaluate(READ)
    assert back == written
    _check_over(results, results.reference, back)


def test_without_javascript_the_page_reads_over_the_reference(browser, report):
    path, results = report
    context = browser.new_context(java_script_enabled=False)
    try:
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("file:", "data:"))
                      else route.abort())
        page = context.new_page()
        page.goto(path.resolve().as_uri() + f"#base={HINDI}", wait_until="load")
        assert not page.locator("#base-switch-box").is_visible()
        # The block read by Python, as the script has not run: the cells as the tables wrote them.
        cells = page.locator("table[data-premium] td[data-p]").evaluate_all(
            "tds => tds.map(td => [td.getAttribute('data-p'), td.closest('table').getAttribute('data-premium'), "
            "td.textContent])")
        order = page.locator("#base-data").evaluate("e => JSON.parse(e.textContent)")
        rows = page.locator("#all_rows ~ .scroll").first.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent, r.cells[6].textContent])")
        heads = page.locator("#all_rows ~ .scroll").first.locator("thead th").all_text_contents()
        assert heads[6] == "premium"
        _check_over(results, results.reference, {"cells": cells, "order": order, "rows": rows})
    finally:
        context.close()


def test_a_sorted_table_is_rewritten_row_by_row(open_page, bases_rendered):
    """Sorting moves the rows, not what each cell is: the switch rewrites the cells it marked."""
    path, results = bases_rendered
    page = open_page(path)
    written = page.evaluate(READ)["rows"]
    page.locator("#all_rows ~ .scroll").first.locator("thead th", has_text="premium").click()
    page.select_option("#base-switch", HINDI)
    seen = page.evaluate(READ)
    assert [row[:2] for row in seen["rows"]] != [row[:2] for row in written]  # the click sorted it
    _check_over(results, HINDI, seen)
