"""The paste box's JSON block, without a browser: read back as the page's script reads it, every
entry gives estimate_tokens' very estimate and the calibration's p90 error, the shortlist's models
carry the price book's prices, and no text can close the element."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from benchmark.pricing.prices.book import price_book
from benchmark.report.facts.by_language import contenders
from benchmark.report.pages.paste_box import BLOCK_ID, paste_box, paste_data, paste_data_block, unicode_scripts
from benchmark.report.view import ReportView
from benchmark.results.calibration import estimate_tokens
from benchmark.results.rows import load_results
from tests.support.paths import REPO

TEXT = "हिन्दी का एक वाक्य, with some English."


@pytest.fixture(scope="module")
def results() -> ReportView:
    return ReportView.of(load_results(REPO / "reports" / "results.json"))


def _estimate(data: dict, tokenizer: str, group: str, text: str) -> float | None:
    """What the page's script computes (paste_box.SCRIPT's entry()), in Python."""
    chars, values, _ = data["groups"][group]
    value = values[data["tokenizers"].index(tokenizer)]
    if value is None:
        return None
    ratio = value if chars is None else value / chars
    return ratio * len(text)


def test_every_entry_gives_estimate_tokens_estimate_and_its_error(results):
    data = paste_data(results)
    assert results.calibration and data["per"] == "char"
    for entry in results.calibration:
        column = data["tokenizers"].index(entry.tokenizer)
        assert _estimate(data, entry.tokenizer, entry.group, TEXT) == estimate_tokens(
            results.calibration, entry.tokenizer, TEXT, group=entry.group)
        assert f"{data['groups'][entry.group][2][column]:.1f}%" == f"{entry.char_sentence_error_p90:.1%}"
    assert data["tokenizers"][:len(results.production)] == results.production


def test_scripts_name_their_languages_and_unicode_values(results):
    data = paste_data(results)
    languages = {e.group for e in results.calibration if e.level == "language"}
    assert sorted(code for s in data["scripts"].values() for code in s["languages"]) == sorted(languages)
    assert data["scripts"]["Jpan"]["unicode"] == ["Hira", "Kana", "Hani"]
    assert unicode_scripts("Deva") == ("Deva",) and unicode_scripts("Hans") == ("Hani",)


def test_the_models_are_the_shortlist_at_the_price_book_prices(results):
    data = paste_data(results)
    book = price_book(results)
    priced = [f for f in contenders(results) if f.model in book.listings and book.listings[f.model].priced]
    assert [m["model"] for m in data["models"]] == [f.model for f in priced] and priced
    for model in data["models"]:
        listing = book.listings[model["model"]]
        assert (model["usd_per_mtok"], model["seller"]) == (listing.input_usd_per_mtok, listing.seller)
    assert data["prices"] == sorted({book.listings[f.model].source for f in priced})


def test_a_ratio_no_division_rebuilds_is_carried_itself(results):
    nudged = [dataclasses.replace(e, tokens_per_char=e.tokens_per_char * (1 + 1e-9)) if e.group == "all" else e
              for e in results.calibration]
    changed = ReportView.of(dataclasses.replace(results, calibration=tuple(nudged)))
    data = paste_data(changed)
    assert data["groups"]["all"][0] is None
    for tokenizer in data["tokenizers"]:
        assert _estimate(data, tokenizer, "all", TEXT) == estimate_tokens(nudged, tokenizer, TEXT, group="all")


def test_no_calibration_no_box(results):
    assert paste_box(ReportView.of(dataclasses.replace(results, calibration=()))) == ""


def test_no_text_closes_the_block():
    hostile = "</script><img src=x onerror=alert(1)>&amp;"
    block = paste_data_block({"models": [{"model": hostile}]})
    inner = re.fullmatch(f'<script type="application/json" id="{BLOCK_ID}">(.*)</script>', block).group(1)
    assert not set("<>&") & set(inner) and json.loads(inner) == {"models": [{"model": hostile}]}
