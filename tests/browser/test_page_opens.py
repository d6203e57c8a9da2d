"""The committed pages open in Chromium offline, their script runs, and a shared link's language
filter (#language=...) leaves exactly that language's rows in the table of every measurement."""

from __future__ import annotations

from benchmark.report.naming import language_label


def test_a_shared_language_link_narrows_every_measurement_to_that_language(open_page, all_languages):
    path, results = all_languages
    page = open_page(path, "language=hin_Deva")
    assert page.locator("#language-filter-box").is_visible()  # the script ran: the box shows itself
    table = page.locator("#all_rows ~ .scroll").first  # after the pager the table controls put above it
    shown = table.locator("tbody tr:not([hidden])")
    column = table.locator("thead th").all_text_contents().index("language")
    labels = {row.locator("td").nth(column).text_content() for row in shown.all()}
    assert labels == {language_label(results, "hin_Deva")}
    assert shown.count() == sum(1 for row in results.rows if row.language == "hin_Deva")


def test_a_link_to_a_section_keeps_the_view_in_the_url(open_page, all_languages):
    path, _ = all_languages
    page = open_page(path, "family=Atlantic-Congo&language=Yoruba")
    page.click('nav a[href="#findings"]')
    page.wait_for_function("() => window.location.hash.indexOf('=') >= 0 && window.scrollY > 0")
    assert page.evaluate("window.location.hash") == "#family=Atlantic-Congo&language=Yoruba"
    assert page.locator("#control-family").input_value() == "Atlantic-Congo"
