"""Which price each model gets: the database's entry for it (listings.csv), or the user's own.

`listings.csv` (beside this module) says, for each model of the models file, which provider's
entry of the price database prices it: the vendor's own API where it sells the model, else a named
host (Meta sells no Llama API; the row says so), or no provider and why (an embedding model, base
weights no API sells). It holds no figure: prices and windows are read from the database.

The user's own prices (`--prices FILE`) are read by prices_file.py.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import hashlib
import io
import json
from pathlib import Path

from benchmark.plumbing.fileio import atomic_write_text
from benchmark.pricing.database import Listing, database_label, lookup

LISTINGS_FILE = Path(__file__).with_name("listings.csv")


def database_listings(on: dt.date, *, path: Path = LISTINGS_FILE, cache_dir: Path | None = None) -> dict[str, Listing]:
    """Every model of listings.csv priced from the database as on `on`, by model name.

    Reading the database's data takes half a second (more on a busy machine), so the listings are
    kept in the cache folder under a key of the database's version, listings.csv's bytes and the
    date: the same three give the same listings, and any change reads the database again."""
    data = path.read_bytes()
    key = hashlib.sha256(f"{database_label()}|{on.isoformat()}|".encode() + data).hexdigest()[:20]
    cached = _cache_file(cache_dir, key)
    if cached is not None and cached.is_file():
        try:
            return {row["model"]: Listing(**row) for row in json.loads(cached.read_text(encoding="utf-8"))}
        except (OSError, ValueError, TypeError, KeyError):
            pass  # a damaged cache entry is read again from the database below
    found = {}
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        if row["provider"]:  # a row without one says why the model has no price (`listing_reasons`)
            found[row["model"]] = lookup(row["model"], row["provider"], row["entry"] or "", on=on)
    if cached is not None:
        try:
            atomic_write_text(cached, json.dumps([dataclasses.asdict(listing) for listing in found.values()]))
        except OSError:
            pass  # a read-only cache only costs the next call its half second
    return found


def _cache_file(cache_dir: Path | None, key: str) -> Path | None:
    from benchmark.adapters.cache import cache_root

    try:
        return cache_root(cache_dir) / "prices" / f"listings-{key}.json"
    except (OSError, RuntimeError):  # no home folder to find the default in
        return None


def listing_reasons(*, path: Path = LISTINGS_FILE) -> dict[str, str]:
    """model -> why its listing is the one chosen (blank rows left out)."""
    with open(path, encoding="utf-8", newline="") as handle:
        return {row["model"]: row["why"] for row in csv.DictReader(handle) if row["why"]}
