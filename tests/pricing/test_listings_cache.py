"""The kept price listings (`<cache>/prices/listings-*.json`) are data sealed with the cache's own
key (issue 38 item 5): an entry edited by hand, or holding a price that is not a number, is read
again from the price database, never used."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from benchmark.pricing.prices.listings import database_listings

ON = dt.date(2026, 12, 1)


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """(the database's listings, the file that keeps them) in a scratch cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    listings = database_listings(ON)
    [path] = (tmp_path / "cache" / "tokencost" / "prices").glob("listings-*.json")
    return listings, path


def _edit(path, change) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    rows = document if isinstance(document, list) else document["listings"]
    change(next(row for row in rows if row["model"] == "gpt-4o"))
    path.write_text(json.dumps(document), encoding="utf-8")


def test_an_edited_price_is_read_again_from_the_database(kept):
    listings, path = kept
    price = listings["gpt-4o"].input_usd_per_mtok
    _edit(path, lambda row: row.update(input_usd_per_mtok=price / 100))
    assert database_listings(ON)["gpt-4o"].input_usd_per_mtok == price
    assert database_listings(ON) == listings  # and kept whole again


def test_a_price_that_is_a_string_is_read_again_not_a_type_error(kept):
    listings, path = kept
    _edit(path, lambda row: row.update(input_usd_per_mtok="2.50"))
    assert database_listings(ON) == listings


def test_a_window_or_a_field_of_another_type_is_read_again(kept):
    listings, path = kept
    _edit(path, lambda row: row.update(context_window=[1]))
    assert database_listings(ON) == listings
    _edit(path, lambda row: row.pop("provider"))
    assert database_listings(ON) == listings
