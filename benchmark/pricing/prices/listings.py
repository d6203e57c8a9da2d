"""Which price each model gets: the database's entry for it (listings.csv), or the user's own.

`listings.csv` (beside this module) says, for each model of the models file, which provider's
entry of the price database prices it: the vendor's own API where it sells the model, else a named
host (Meta sells no Llama API and OpenAI no gpt-oss API; the row says so: AWS Bedrock where the
database lists it, else OpenRouter, a reseller, named "via OpenRouter"), or no provider and why (an
embedding model, base weights no API sells). A vendor's entry whose price the database imported
from a reseller is not the vendor's price (database.py names the reseller). It holds no figure:
prices and windows are read from the database.

The user's own prices (`--prices FILE`) are read by user_prices.py.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
from pathlib import Path

from benchmark.plumbing.fileio import atomic_write_text
from benchmark.plumbing.sealed import Seal
from benchmark.pricing.prices.database import Listing, database_label, lookup
from benchmark.results.plain import RecordError, from_plain, to_plain

LISTINGS_FILE = Path(__file__).with_name("listings.csv")
_MAX_KEPT_BYTES = 16 * 1024 * 1024  # the database's few thousand listings are a few hundred kB


def database_listings(on: dt.date, *, path: Path = LISTINGS_FILE, cache_dir: Path | None = None) -> dict[str, Listing]:
    """Every model of listings.csv priced from the database as on `on`, by model name.

    Reading the database's data takes half a second (more on a busy machine), so the listings are
    kept in the cache folder under a key of the database's version, listings.csv's bytes, the date
    and the code that reads them: the same four give the same listings, and any change reads the
    database again. An entry is JSON data sealed with the cache's own key (plumbing/sealed.py), so
    one edited by hand, or holding a price that is not a number, is read again from the database."""
    data = path.read_bytes()
    code = b"".join(Path(__file__).with_name(name).read_bytes() for name in ("database.py", "listings.py"))
    key = hashlib.sha256(f"{database_label()}|{on.isoformat()}|".encode() + data + b"|" + code).hexdigest()[:20]
    cached = _cache_file(cache_dir, key)
    if cached is not None:
        kept = _read_kept(cached)
        if kept is not None:
            return kept
    found = {}
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        if row["provider"]:  # a row without one says why the model has no price (`listing_reasons`)
            found[row["model"]] = lookup(row["model"], row["provider"], row["entry"] or "", on=on)
    if cached is not None:
        _keep(cached, found)
    return found


def _canonical(listings: list) -> bytes:
    return json.dumps(listings, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _read_kept(cached: Path) -> dict[str, Listing] | None:
    """The listings kept at `cached`, when sealed by this cache's key and each a whole Listing."""
    try:
        with open(cached, "rb") as handle:
            document = json.loads(handle.read(_MAX_KEPT_BYTES + 1))
        listings, tag = document["listings"], document["seal"]
        if not isinstance(tag, str) or not Seal(cached.parent).opens(cached.name, _canonical(listings), tag):
            return None
        return {listing.model: listing for listing in from_plain(tuple[Listing, ...], listings, "listings")}
    except (OSError, ValueError, TypeError, KeyError, RecordError, RecursionError):
        return None  # absent, damaged or edited: read again from the database


def _keep(cached: Path, found: dict[str, Listing]) -> None:
    listings = [to_plain(listing) for listing in found.values()]
    tag = Seal(cached.parent).tag(cached.name, _canonical(listings))
    if tag is None:
        return
    try:
        atomic_write_text(cached, json.dumps({"seal": tag, "listings": listings}, sort_keys=True))
    except OSError:
        pass  # a read-only cache only costs the next call its half second


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
