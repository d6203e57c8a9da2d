"""Everything a money or context figure needs beside the results: which models use each tokenizer
(from the run record), and each model's price and window (the database, or the user's own file).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.database import Listing
from benchmark.pricing.listings import database_listings, listing_reasons, read_user_prices
from benchmark.results.rows import Results


@dataclass(frozen=True)
class PriceBook:
    models: dict[str, tuple[str, ...]]  # tokenizer id -> the models that use it, in the models file's order
    listings: dict[str, Listing]  # model -> its price and window
    reasons: dict[str, str] = field(default_factory=dict)  # model -> why its listing is that provider's
    user_file: Path | None = None


def tokenizer_models(results: Results) -> dict[str, tuple[str, ...]]:
    """tokenizer id -> its models' names, as the run record has them (empty for results made
    before models were recorded)."""
    found = {}
    for tokenizer_id, entry in results.record.tokenizers.items():
        names = tuple(getattr(entry, "models", ()) or ())
        if names:
            found[tokenizer_id] = tuple(getattr(model, "name", model) for model in names)
    return found


def price_date(results: Results) -> dt.date:
    """Prices are read as they stood on the run's day, so a re-rendered report keeps its figures."""
    try:
        return dt.date.fromisoformat(results.record.date[:10])
    except ValueError:
        raise BenchmarkError(f"the results' run date {results.record.date!r} is not an ISO date") from None


def price_book(results: Results, *, prices: Path | None = None) -> PriceBook:
    """The models of `results`' tokenizers with the database's prices, the user's file (if given)
    winning for the models it names and adding the ones it gives a tokenizer."""
    models = {tokenizer: list(names) for tokenizer, names in tokenizer_models(results).items()}
    listings = database_listings(price_date(results))
    if prices is None:
        return PriceBook({t: tuple(n) for t, n in models.items()}, listings, listing_reasons())
    known = {name for names in models.values() for name in names}
    measured = {row.tokenizer for row in results.rows}
    for model, user in read_user_prices(prices).items():
        where = f"{prices}, line {user.listing.listing.rpartition(':')[2]}"
        if user.tokenizer is not None:
            if user.tokenizer not in measured:
                raise BenchmarkError(f"{where}: tokenizer {user.tokenizer!r} is not in these results; "
                                     f"one of {', '.join(sorted(models) or sorted(measured))}")
            for names in models.values():
                if model in names:
                    names.remove(model)
            models.setdefault(user.tokenizer, []).append(model)
        elif model not in known:
            raise BenchmarkError(f"{where}: model {model!r} is not in the models file; name its tokenizer in a "
                                 "tokenizer column (e.g. tiktoken/o200k_base)")
        listings[model] = user.listing
    return PriceBook({t: tuple(n) for t, n in models.items()}, listings, listing_reasons(), Path(prices))
