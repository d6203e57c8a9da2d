"""The page's table controls (pages/table_controls.py) in Chromium, on the 204-language results:
each select leaves exactly the rows the results give for its value (the tables of families and
tiers their one group's row), sorting orders rows as the
results' premiums do, long tables page 50 rows at a time, the fragment brings a view back on reload,
and without JavaScript every row is there. Each check runs on the page this checkout renders and on
the committed page where that page has the controls (it may predate them)."""

from __future__ import annotations

from collections import Counter
from urllib.parse import quote

import pytest

from benchmark.corpora.groups import group_of
from benchmark.corpora.languages import script_name
from benchmark.report.naming import language_label
from benchmark.report.pages.table_controls import PAGE_ABOVE, PAGE_ROWS

NONE = "not covered"

# The table under the heading of id `key`: its headers and, per row in the DOM's order, its cells,
# whether a filter hid it (the filter box's `hidden`, the controls' data-off) and whether it is drawn.
TABLE = """key => {
  let el = document.getElementById(key).nextElementSibling;
  while (!el.classList.contains("scroll")) el = el.nextElementSibling;
  const table = el.querySelector("table");
  return {heads: Array.from(table.tHead.rows[0].cells).map(c => c.textContent.trim()),
          shownHeads: Array.from(table.tHead.rows[0].cells).map(c => c.getClientRects().length > 0),
          rows: Array.from(table.tBodies[0].rows).map(r => ({
            cells: Array.from(r.cells).map(c => c.textContent.trim()),
            off: r.hidden || r.hasAttribute("data-off"), shown: r.getClientRects().length > 0}))};
}"""


@pytest.fixture(params=["rendered", "committed"])
def any_page(request, all_languages_rendered, all_languages):
    """(index.html, results) of the rendered page, then of the committed one."""
    return all_languages_rendered if request.param == "rendered" else all_languages


@pytest.fixture
def controlled_page(any_page):
    """`any_page`, which must have the table controls: a committed page without them fails."""
    path, _ = any_page
    if b'id="table-controls"' not in path.read_bytes():
        pytest.fail(f"{path} has no table controls: re-render it (`report --results {path.parent}/results.json`)")
    return any_page


def table(page, key: str) -> dict:
    return page.evaluate(TABLE, key)


def codes_by_label(results) -> dict[str, str]:
    return {language_label(results, code): code for code in results.languages}


def kept_languages(page, results, key: str) -> set[str]:
    found = table(page, key)
    column, labels = found["heads"].index("language"), codes_by_label(results)
    return {labels[row["cells"][column]] for row in found["rows"] if not row["off"]}


def members(results, kind: str) -> dict[str, set[str]]:
    """{group: its languages} of `kind` ("family" or "tier", a tier as its digit), from the results'
    group summaries; results of a format before them: from the groups' source, as the run would."""
    found: dict[str, set[str]] = {}
    if results.groups:
        for entry in results.groups:
            if entry.kind == kind:
                value = entry.group_id if kind == "tier" and entry.group_id else entry.group
                found.setdefault(value, set()).update(entry.languages)
        return found
    for code in results.languages:
        entry = group_of(code)
        value = None if entry is None else (entry.family_name if kind == "family" else entry.joshi_class)
        found.setdefault(NONE if value is None else str(value), set()).add(code)
    return found


def largest(groups: dict[str, set[str]]) -> tuple[str, set[str]]:
    return max(((g, m) for g, m in groups.items() if g != NONE), key=lambda item: (len(item[1]), item[0]))


def test_a_family_link_leaves_exactly_the_languages_the_results_group_in_it(open_page, controlled_page):
    path, results = controlled_page
    family, expected = largest(members(results, "family"))
    page = open_page(path, "family=" + quote(family))
    assert page.locator("#table-controls").is_visible()
    assert page.locator("#control-family").input_value() == family
    for key in ("production_premium", "all_rows"):  # languages down, alone and beside tokenizers
        assert kept_languages(page, results, key) == expected, key
    found = table(page, "all_rows")
    assert sum(not row["off"] for row in found["rows"]) == sum(row.language in expected for row in results.rows)
    assert page.locator("#table-controls-note").inner_text() == f"{len(expected)} of {len(results.languages)} languages"
    # the table of families keeps that family's line alone, with as many languages as it holds
    kept = [row["cells"][:2] for row in table(page, "groups_family")["rows"] if not row["off"]]
    assert kept == [[family, str(len(expected))]]


@pytest.mark.parametrize("kind", ["script", "tier"])
def test_a_script_or_a_tier_leaves_exactly_its_languages(open_page, controlled_page, kind):
    path, results = controlled_page
    if kind == "script":
        groups: dict[str, set[str]] = {}
        for code in results.languages:
            groups.setdefault(script_name(code) or NONE, set()).add(code)
    else:
        groups = members(results, "tier")
    value, expected = largest(groups)
    page = open_page(path)
    page.select_option(f"#control-{kind}", value)
    assert kept_languages(page, results, "production_premium") == expected
    if kind == "script":  # the table of scripts keeps that script's line alone, "Latin (Latn)"
        kept = [row["cells"][0] for row in table(page, "script_premium")["rows"] if not row["off"]]
        assert len(kept) <= 1 and all(name.rsplit(" (", 1)[0] == value for name in kept), kept
    else:  # the table of tiers keeps that class's line alone, "class 1"
        kept = [row["cells"][:2] for row in table(page, "groups_tier")["rows"] if not row["off"]]
        assert kept == [[f"class {value}", str(len(expected))]]
    assert page.url.endswith(f"#{kind}={quote(value)}")


def test_a_vendor_keeps_its_tokenizers_rows_and_columns(open_page, controlled_page):
    path, results = controlled_page
    vendors = Counter(tokenizer.split("/")[0] for tokenizer in results.production)
    vendor = max(vendors, key=lambda v: (vendors[v], v))
    ids = {row.tokenizer for row in results.rows if row.tokenizer.split("/")[0] == vendor}
    page = open_page(path, "tokenizer=" + vendor)
    found = table(page, "all_rows")
    column = found["heads"].index("tokenizer")
    assert {row["cells"][column] for row in found["rows"] if not row["off"]} == ids
    across = table(page, "production_premium")  # tokenizers across: columns
    shown = {head.split(" ")[0] for head, drawn in zip(across["heads"], across["shownHeads"]) if drawn and "/" in head}
    assert shown == {t for t in results.production if t.split("/")[0] == vendor}
    page.select_option("#control-tokenizer", sorted(ids)[0])  # one tokenizer of it
    found = table(page, "all_rows")
    assert {row["cells"][column] for row in found["rows"] if not row["off"]} == {sorted(ids)[0]}


def test_sorting_by_one_tokenizers_premium_orders_rows_as_the_results_premiums(open_page, controlled_page):
    path, results = controlled_page
    premium = {}
    for row in results.rows:
        premium.setdefault(row.tokenizer, {})[row.language] = row.premium
    tokenizer = next(t for t in results.production
                     if all(premium[t].get(code) is not None for code in results.languages))
    page = open_page(path)
    heads = table(page, "production_premium")["heads"]
    column = next(i for i, head in enumerate(heads) if head.split(" ")[0].rstrip(":") == tokenizer)
    header = page.locator("#production_premium ~ .scroll").first.locator("thead th").nth(column)
    labels = codes_by_label(results)
    for descending in (True, False):  # the first click sorts down, the second up
        header.click()
        rows = table(page, "production_premium")["rows"]
        order = [premium[tokenizer][labels[row["cells"][0]]] for row in rows]
        # The page sorts by the figure it shows, the premium to 2 places: within a tie any order.
        assert [row["cells"][column].split(" ")[0] for row in rows] == [f"{value:.2f}" for value in order]
        rounded = [round(value, 2) for value in order]
        assert rounded == sorted(rounded, reverse=descending)
        assert [row["shown"] for row in rows] == [i < PAGE_ROWS for i in range(len(rows))]  # page 1 of the new order


def test_a_long_table_pages_fifty_rows_and_next_shows_the_next(open_page, controlled_page):
    path, results = controlled_page
    page = open_page(path)
    rows = table(page, "all_rows")["rows"]
    assert len(rows) == len(results.rows) > PAGE_ABOVE
    assert [i for i, row in enumerate(rows) if row["shown"]] == list(range(PAGE_ROWS))
    pager = page.locator("#all_rows ~ .pager").first
    assert pager.locator("span").inner_text() == f"rows 1\u2013{PAGE_ROWS} of {len(results.rows)}"
    assert pager.locator("button").first.is_disabled()  # prev, on the first page
    pager.locator("button").last.click()
    rows = table(page, "all_rows")["rows"]
    assert [i for i, row in enumerate(rows) if row["shown"]] == list(range(PAGE_ROWS, 2 * PAGE_ROWS))
    assert pager.locator("span").inner_text() == f"rows {PAGE_ROWS + 1}\u2013{2 * PAGE_ROWS} of {len(results.rows)}"
    # The filter box narrows first, then the page: one language's rows fit on one, and the pager goes.
    page.fill("#language-filter", results.reference)
    assert sum(row["shown"] for row in table(page, "all_rows")["rows"]) == sum(
        row.language == results.reference for row in results.rows)
    assert not pager.is_visible()


def test_the_fragment_brings_the_view_back_on_reload(open_page, controlled_page):
    path, results = controlled_page
    family, _ = largest(members(results, "family"))
    vendor = results.production[0].split("/")[0]
    page = open_page(path)
    page.select_option("#control-family", family)
    page.select_option("#control-tokenizer", vendor)
    assert page.url.split("#")[1] == f"family={quote(family)}&tokenizer={quote(vendor)}"
    before = {key: table(page, key) for key in ("production_premium", "all_rows")}
    page.reload(wait_until="load")
    assert page.locator("#control-family").input_value() == family
    assert page.locator("#control-tokenizer").input_value() == vendor
    assert {key: table(page, key) for key in before} == before
    again = open_page(path, page.url.split("#")[1])  # the link opened afresh
    assert {key: table(again, key) for key in before} == before


def test_without_javascript_every_row_is_there(browser, any_page):
    path, results = any_page
    context = browser.new_context(java_script_enabled=False)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("file:", "data:"))
                  else route.abort())
    try:
        page = context.new_page()
        page.goto(path.resolve().as_uri() + "#family=Atlantic-Congo&tokenizer=mistral", wait_until="load")
        rows = page.locator("#all_rows ~ .scroll").first.locator("tbody tr")
        assert rows.count() == len(results.rows)
        assert rows.last.is_visible() and rows.nth(PAGE_ROWS).is_visible()
        assert page.locator("tr[data-off], tr[data-paged], td[data-off]").count() == 0
        assert page.locator(".pager").count() == 0
        assert not page.locator("#table-controls").is_visible()
    finally:
        context.close()
