"""Which price each model gets: the database's entry for it (listings.csv), or the user's own.

`listings.csv` (beside this module) says, for each model of the models file, which provider's
entry of the price database prices it: the vendor's own API where it sells the model, else a named
host (Meta sells no Llama API; the row says so), or no provider and why (an embedding model, base
weights no API sells). It holds no figure: prices and windows are read from the database.

`--prices FILE` is the user's contract: a small CSV with a header, one model a line:

    model,input_usd_per_mtok,context_window,tokenizer,provider
    gpt-4o,2.00,128000,,our Azure contract
    my-llama-finetune,0.10,131072,llama/llama3,

`model` and `input_usd_per_mtok` are required; `context_window` (tokens) and `provider` are
optional; `tokenizer` is needed only for a model our models file does not list. Every problem is
one line naming the file and line.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import atomic_write_text
from benchmark.pricing.database import Listing, database_label, lookup

LISTINGS_FILE = Path(__file__).with_name("listings.csv")
USER_COLUMNS = ("model", "input_usd_per_mtok", "context_window", "tokenizer", "provider")


@dataclass(frozen=True)
class UserPrice:
    listing: Listing
    tokenizer: str | None  # for a model the models file does not list


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


def read_user_prices(path: Path) -> dict[str, UserPrice]:
    """The user's `--prices FILE`, by model name; a bad file is one BenchmarkError naming its line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BenchmarkError(f"{path}: cannot read the prices file ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 (byte {exc.start}); save the prices file as UTF-8") from None
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header or not any(cell.strip() for cell in header):
        raise BenchmarkError(f"{path}: empty; the first line must be a header, e.g. "
                             "model,input_usd_per_mtok,context_window")
    columns = [cell.strip().lower() for cell in header]
    unknown = [c for c in columns if c not in USER_COLUMNS]
    if unknown:
        raise BenchmarkError(f"{path}, line 1: unknown column {unknown[0]!r}; the columns are "
                             f"{', '.join(USER_COLUMNS)}")
    for needed in USER_COLUMNS[:2]:
        if needed not in columns:
            raise BenchmarkError(f"{path}, line 1: no {needed!r} column; the header needs model,input_usd_per_mtok")
    source = f"your prices ({path.name}, {_modified(path)})"
    prices: dict[str, UserPrice] = {}
    for number, cells in enumerate(reader, start=2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(columns):
            raise BenchmarkError(f"{path}, line {number}: {len(cells)} fields, the header has {len(columns)}")
        row = dict(zip(columns, (cell.strip() for cell in cells)))
        model = row["model"]
        if not model:
            raise BenchmarkError(f"{path}, line {number}: no model name")
        if model in prices:
            raise BenchmarkError(f"{path}, line {number}: {model!r} is priced twice")
        price = _number(row["input_usd_per_mtok"], path, number, "input_usd_per_mtok", "US dollars per million input "
                        "tokens, e.g. 2.50")
        window = row.get("context_window") or ""
        tokens = int(_number(window, path, number, "context_window", "tokens, e.g. 128000")) if window else None
        if window and tokens != float(window.replace(",", "")):
            raise BenchmarkError(f"{path}, line {number}: context_window must be a whole number of tokens, got {window!r}")
        listing = Listing(model=model, provider=row.get("provider") or "your contract", listing=f"{path.name}:{number}",
                          input_usd_per_mtok=price, context_window=tokens or None, source=source)
        prices[model] = UserPrice(listing, row.get("tokenizer") or None)
    if not prices:
        raise BenchmarkError(f"{path}: a header and no prices; add one line per model, e.g. gpt-4o,2.50")
    return prices


def _number(text: str, path: Path, line: int, column: str, meaning: str) -> float:
    try:
        value = float(text.replace(",", "")) if text else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise BenchmarkError(f"{path}, line {line}: {column} must be a number >= 0 ({meaning}), got {text!r}")
    return value


def _modified(path: Path) -> str:
    return dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc).date().isoformat()
