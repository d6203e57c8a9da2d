"""The page's paste box in Chromium: a real Hindi paragraph (FLORES-200 devtest) gets on every
production tokenizer estimate_tokens' very estimate, the calibration's p90 error beside it, and
the shortlist's prices cheapest first from the price book; Japanese and mixed-script texts pick
their script; #paste=hin_Deva chooses Hindi, and the text never reaches the URL.

Checked on a page rendered here from the committed 204-language results and on the committed
page itself (a committed page without the box fails, naming the command that re-renders it)."""

from __future__ import annotations

import lzma
import math

import pytest

from benchmark.pricing.formats import fmt_usd
from benchmark.pricing.prices.book import price_book
from benchmark.report.facts.by_language import contenders
from benchmark.results.calibration import estimate_tokens
from tests.support.paths import FLORES

HINDI = " ".join(lzma.open(FLORES / "devtest" / "hin_Deva.devtest.xz", "rt", encoding="utf-8").read().splitlines()[:4])
JAPANESE = (FLORES / "devtest" / "jpn_Jpan.devtest").read_text(encoding="utf-8").splitlines()[0]


@pytest.fixture(params=["rendered", "committed"])
def page_of(request, all_languages):
    if request.param == "rendered":
        return request.getfixturevalue("all_languages_rendered")
    path = all_languages[0]
    if 'id="paste-data"' not in path.read_text(encoding="utf-8"):
        pytest.fail(f"{path} has no paste box: re-render it (`report --results {path.parent}/results.json`)")
    return all_languages


def _paste(page, text: str, language: str | None = None):
    page.fill("#paste-text", text)
    if language is not None:
        page.select_option("#paste-language", language)
    return page.locator("#paste-estimates tbody tr")


def _check_estimates(rows, results, text: str, group: str) -> dict[str, float]:
    """Every production tokenizer's row: the entry `group`, Python's estimate, the entry's p90 error."""
    entries = {(e.tokenizer, e.group): e for e in results.calibration}
    found = {}
    # One call for the whole table: a call per cell costs seconds on the 8 MB page.
    shown = rows.evaluate_all("trs => trs.map(tr => [tr.dataset.tokenizer, tr.dataset.group, tr.dataset.tokens, "
                              "Array.from(tr.cells).map(td => td.textContent)])")
    for tokenizer, shown_group, shown_tokens, cells in shown:
        assert shown_group == group
        tokens = float(shown_tokens)
        assert tokens == estimate_tokens(results.calibration, tokenizer, text, group=group, per="char")
        assert cells[1] == f"{math.floor(tokens + 0.5):,}"
        assert cells[3] == f"±{entries[tokenizer, group].char_sentence_error_p90:.1%}"
        found[tokenizer] = tokens
    assert list(found) == results.production
    return found


def test_hindi_estimates_and_prices_equal_python(open_page, page_of):
    path, results = page_of
    page = open_page(path)
    assert page.locator("#paste-box").is_visible()
    # Devanagari has many measured languages: the guess is the script's entry.
    _check_estimates(_paste(page, HINDI), results, HINDI, "Deva")
    tokens = _check_estimates(_paste(page, HINDI, "hin_Deva"), results, HINDI, "hin_Deva")
    assert page.evaluate("window.location.hash") == "#paste=hin_Deva"
    assert HINDI[:10] not in page.evaluate("decodeURIComponent(window.location.href)")
    book = price_book(results)
    priced = [f for f in contenders(results) if f.model in book.listings and book.listings[f.model].priced]
    costs = {f.model: tokens[f.tokenizer] * book.listings[f.model].input_usd_per_mtok / 1e6 for f in priced}
    rows = page.locator("#paste-prices tbody tr")
    assert [row.get_attribute("data-model") for row in rows.all()] == sorted(costs, key=lambda m: (costs[m], m))
    for row in rows.all():
        model = row.get_attribute("data-model")
        listing = book.listings[model]
        assert float(row.get_attribute("data-usd")) == costs[model]
        cells = row.locator("td").all_inner_texts()
        vendor = next(f.vendor for f in priced if f.model == model)
        assert cells[1] == vendor + ("" if listing.seller == vendor else f" ({listing.seller})")
        assert cells[3:] == [fmt_usd(listing.input_usd_per_mtok), fmt_usd(costs[model])]
    assert "Exact counts: python -m benchmark cost --file FILE." in page.inner_text("#paste + p")


def test_the_script_is_detected_from_the_characters(open_page, all_languages_rendered):
    path, results = all_languages_rendered
    page = open_page(path)
    _check_estimates(_paste(page, JAPANESE), results, JAPANESE, "jpn_Jpan")  # Japanese's one measured language
    assert "Japanese" in page.inner_text("#paste-status")
    mixed = HINDI.split("।")[0] + " (Hindi, with GPT-5 and Llama 4 named in Latin letters)"
    _check_estimates(_paste(page, mixed), results, mixed, "Deva")  # most letters are Devanagari
    han = "我们今天去北京看长城。"  # Han alone: Chinese (Simplified), not Japanese
    _check_estimates(_paste(page, han), results, han, "zho_Hans")
    _check_estimates(_paste(page, "12345 !?"), results, "12345 !?", "all")  # no letters: all languages


def test_a_shared_link_chooses_hindi(open_page, page_of):
    path, results = page_of
    page = open_page(path, "paste=hin_Deva")
    assert page.locator("#paste-language").input_value() == "hin_Deva"
    _check_estimates(_paste(page, HINDI), results, HINDI, "hin_Deva")
