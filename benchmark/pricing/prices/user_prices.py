"""The user's `--prices FILE`: their own prices and windows, read exactly or refused.

A small CSV with a header, one model a line (a cell may be quoted; none spans lines):

    model,input_usd_per_mtok,context_window,tokenizer,provider
    gpt-4o,2.00,128000,,our Azure contract
    my-llama-finetune,0.10,131072,llama/llama3,

`model` and `input_usd_per_mtok` are required; `context_window` (tokens) and `provider` are
optional; `tokenizer` is needed only for a model our models file does not list.

A number is read exactly as written or refused, never guessed: digits with a decimal point
(`2.50`, `1e-3`), nothing else. A decimal comma or a thousands separator (`"0,05"`, `1.000,50`,
`1 000`), a currency sign or a unit (`$2.50`, `2.50 USD/M`, `128k`) is one BenchmarkError naming
the file, the line and the column, as is a price or window no vendor has (a price outside
1e-6..1e6 US dollars per million tokens, 0 meaning free; a window over 1e9 tokens). The file is
read line by line (time linear in its size, a stray quote an error of its own line) and is a
regular file of at most `MAX_PRICES_BYTES` (a FIFO, a device or a huge file is refused at once).
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import read_bounded
from benchmark.pricing.prices.database import Listing

COLUMNS = ("model", "input_usd_per_mtok", "context_window", "tokenizer", "provider")
REQUIRED = COLUMNS[:2]
# Every model of every vendor is a few thousand lines; this is a thousand times that.
MAX_PRICES_BYTES = 8 * 1024 * 1024
MIN_USD_PER_MTOK, MAX_USD_PER_MTOK = Decimal("1e-6"), Decimal("1e6")  # 0 is free; between 0 and the minimum, no vendor's price
MAX_CONTEXT_WINDOW = 10**9
_PLAIN_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SEPARATED = re.compile(r"[0-9][,' _\u00a0\u202f.][0-9]")  # a comma, space, apostrophe... between digits
_CURRENCY_OR_UNIT = re.compile(r"[$€£¥₹\u00a4]|[A-Za-z]{2,}|[kKmM]\b|/")
USER_PRICES = "your prices"  # how a listing's source, and a pairing, name the user's file
_FIELD_LIMIT = csv.field_size_limit()  # a longer cell is the csv module's error, on any path
_PRICE_HINT = "US dollars per million input tokens as a plain number with a decimal point, e.g. 2.50"
_WINDOW_HINT = "tokens as a whole number without separators, e.g. 128000"


@dataclass(frozen=True)
class UserPrice:
    """One line of the user's prices file."""

    listing: Listing  # its price and window, `listing` = "<file name>:<line>"
    tokenizer: str | None  # the tokenizer column; needed for a model the models file does not list
    line: int  # its line in the file (1 is the header)


def read_user_prices(path: Path) -> dict[str, UserPrice]:
    """The user's `--prices FILE`, by model name, in the file's order; every problem is one
    BenchmarkError starting "<path>, line N" (or "<path>:" for the file as a whole)."""
    path = Path(path)
    data = read_bounded(path, "prices file", max_bytes=MAX_PRICES_BYTES,
                        hint="give a CSV file with the header model,input_usd_per_mtok")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 (byte {exc.start}); save the prices file as UTF-8") from None
    lines = text.replace("\r\n", "\n").split("\n")
    header = _cells(lines[0], path, 1)
    if not any(cell.strip() for cell in header):
        raise BenchmarkError(f"{path}: empty; the first line must be a header, e.g. "
                             "model,input_usd_per_mtok,context_window")
    columns = _columns(header, path)
    source = f"{USER_PRICES} ({path.name}, {_modified(path)})"
    prices: dict[str, UserPrice] = {}
    n_columns, name = len(columns), path.name
    # Where each column is; an absent optional column reads as the empty cell appended to each line.
    model_at, price_at, window_at, tokenizer_at, provider_at = (
        columns.index(column) if column in columns else n_columns for column in COLUMNS)
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = _cells(line, path, number)
        if len(cells) != n_columns:
            raise BenchmarkError(f"{path}, line {number}: {len(cells)} fields, the header has {n_columns}")
        cells = [cell.strip() for cell in cells] + [""]
        model = cells[model_at]
        if not model:
            raise BenchmarkError(f"{path}, line {number}: no model name")
        if model in prices:
            raise BenchmarkError(f"{path}, line {number}: {model!r} is priced twice (line {prices[model].line} too)")
        listing = Listing(model=model, provider=cells[provider_at] or "your contract", listing=f"{name}:{number}",
                          input_usd_per_mtok=_price(cells[price_at], path, number),
                          context_window=_window(cells[window_at], path, number), source=source)
        prices[model] = UserPrice(listing, cells[tokenizer_at] or None, number)
    if not prices:
        raise BenchmarkError(f"{path}: a header and no prices; add one line per model, e.g. gpt-4o,2.50")
    return prices


def _cells(line: str, path: Path, number: int) -> list[str]:
    """One line's cells; a quote left open or text after a closing quote is this line's error
    (read whole, a stray quote would swallow the rest of the file into one cell)."""
    if '"' not in line and "\r" not in line and len(line) <= _FIELD_LIMIT:  # all the csv module would do
        return line.split(",")
    try:
        return next(csv.reader([line], strict=True), [])
    except csv.Error as exc:
        message = str(exc)
        if "unexpected end of data" in message:
            why = "a quote (\") opens a cell the line never closes; close it or remove it"
        elif "expected after" in message:
            why = "text after a quoted cell's closing quote; quote the whole cell or remove the quotes"
        elif "new-line" in message:
            why = "a carriage return inside the line; save the file with ordinary line ends"
        else:
            why = f"not CSV ({message})"
        raise BenchmarkError(f"{path}, line {number}: {why}") from None


def _columns(header: list[str], path: Path) -> list[str]:
    columns = [cell.strip().lower() for cell in header]
    for at, column in enumerate(columns):
        if column not in COLUMNS:
            raise BenchmarkError(f"{path}, line 1: unknown column {column!r}; the columns are {', '.join(COLUMNS)}")
        if column in columns[:at]:
            raise BenchmarkError(f"{path}, line 1: column {column!r} appears twice (columns "
                                 f"{columns.index(column) + 1} and {at + 1}); keep one")
    for needed in REQUIRED:
        if needed not in columns:
            raise BenchmarkError(f"{path}, line 1: no {needed!r} column; the header needs model,input_usd_per_mtok")
    return columns


def _plain_number(text: str, path: Path, number: int, column: str, hint: str) -> Decimal:
    """`text` read exactly as written (a Decimal: 1e-400 is not 0), or the reason it cannot be:
    one line naming the cell."""
    where = f"{path}, line {number}, {column}"
    if not text:
        raise BenchmarkError(f"{where}: empty; give {hint}")
    if _PLAIN_NUMBER.fullmatch(text):
        return Decimal(text)
    if text.startswith("-") and _PLAIN_NUMBER.fullmatch(text[1:]):
        why = "is negative"
    elif text.strip("+-").lower() in ("inf", "infinity", "nan"):
        why = "is not a finite number"
    elif "," in text:
        why = "has a comma (a decimal comma or a thousands separator, which this file does not guess)"
    elif _CURRENCY_OR_UNIT.search(text) and any(char in "0123456789" for char in text):
        why = "has a currency sign or a unit (the column's name gives the unit)"
    elif _SEPARATED.search(text):
        why = "has a thousands separator"
    else:
        why = "is not a number"
    raise BenchmarkError(f"{where}: {text!r} {why}; give {hint}")


def _price(text: str, path: Path, number: int) -> float:
    price = _plain_number(text, path, number, "input_usd_per_mtok", _PRICE_HINT)
    if price != 0 and not MIN_USD_PER_MTOK <= price <= MAX_USD_PER_MTOK:
        raise BenchmarkError(f"{path}, line {number}, input_usd_per_mtok: {text} US dollars per million tokens is no "
                             f"vendor's price (from {MIN_USD_PER_MTOK:g} to {MAX_USD_PER_MTOK:g}, or 0 for free); "
                             "is the unit per million tokens?")
    return float(price)


def _window(text: str, path: Path, number: int) -> int | None:
    if not text:
        return None
    tokens = _plain_number(text, path, number, "context_window", _WINDOW_HINT)
    if tokens != tokens.to_integral_value() or not 1 <= tokens <= MAX_CONTEXT_WINDOW:
        raise BenchmarkError(f"{path}, line {number}, context_window: {text} is no model's window (a whole number "
                             f"of tokens from 1 to {MAX_CONTEXT_WINDOW:,})")
    return int(tokens)


def _modified(path: Path) -> str:
    return dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc).date().isoformat()
