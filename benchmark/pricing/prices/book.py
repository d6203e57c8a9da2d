"""Everything a money or context figure needs beside the results: which models use each tokenizer
(from the run record), and each model's price and window (the database, or the user's own file).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.plumbing.errors import BenchmarkError
from benchmark.pricing.prices.database import Listing
from benchmark.pricing.prices.listings import database_listings, listing_reasons
from benchmark.pricing.prices.user_prices import USER_PRICES, read_user_prices
from benchmark.results.rows import Results


@dataclass(frozen=True)
class PriceBook:
    models: dict[str, tuple[str, ...]]  # tokenizer id -> the models that use it, in the models file's order
    listings: dict[str, Listing]  # model -> its price and window
    reasons: dict[str, str] = field(default_factory=dict)  # model -> why its listing is that provider's
    user_file: Path | None = None
    pairings: dict[str, str] = field(default_factory=dict)  # model -> where its tokenizer comes from
    notes: dict[str, str] = field(default_factory=dict)  # model -> its caveat in the models file, if any


def tokenizer_models(results: Results) -> dict[str, tuple[str, ...]]:
    """tokenizer id -> its models' names, as the run record has them (empty for results made
    before models were recorded)."""
    found = {}
    for tokenizer_id, entry in results.record.tokenizers.items():
        names = tuple(getattr(entry, "models", ()) or ())
        if names:
            found[tokenizer_id] = tuple(getattr(model, "name", model) for model in names)
    return found


def model_infos(results: Results) -> dict[str, object]:
    """model -> its ModelInfo as the run record has it (the models file's line when the run was made)."""
    return {getattr(model, "name", model): model for entry in results.record.tokenizers.values()
            for model in (getattr(entry, "models", ()) or ())}


def pairing_source(info) -> str:
    """Where a model's tokenizer comes from, as the answer names it."""
    source, read_on = getattr(info, "source", ""), getattr(info, "read_on", "")
    return f"models.csv: {source}" + (f" (read {read_on})" if read_on else "")


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
    infos = model_infos(results)
    pairings = {name: pairing_source(info) for name, info in infos.items()}
    notes = {name: info.note for name, info in infos.items() if getattr(info, "note", "")}
    if prices is None:
        return PriceBook({t: tuple(n) for t, n in models.items()}, listings, listing_reasons(), None, pairings, notes)
    tokenizers_of: dict[str, list[str]] = {}  # model -> the tokenizers the run record gives it
    for tokenizer, names in models.items():
        for name in names:
            tokenizers_of.setdefault(name, []).append(tokenizer)
    measured = {row.tokenizer for row in results.rows}
    file_name = Path(prices).name
    for model, user in read_user_prices(prices).items():
        where = f"{prices}, line {user.line}"
        if user.tokenizer is not None:
            if user.tokenizer not in measured:
                raise BenchmarkError(f"{where}: tokenizer {user.tokenizer!r} is not in these results; "
                                     f"one of {', '.join(sorted(models) or sorted(measured))}")
            for tokenizer in tokenizers_of.get(model, ()):  # the user's tokenizer for it wins
                models[tokenizer].remove(model)
            models.setdefault(user.tokenizer, []).append(model)
            pairings[model] = f"{USER_PRICES} ({file_name}, line {user.line})"
            notes.pop(model, None)
        elif model not in tokenizers_of:
            raise BenchmarkError(f"{where}: model {model!r} {_why_unpaired(model)}; name its tokenizer in a "
                                 "tokenizer column (e.g. tiktoken/o200k_base)")
        listings[model] = user.listing
    return PriceBook({t: tuple(n) for t, n in models.items()}, listings, listing_reasons(), Path(prices), pairings,
                     notes)


def _why_unpaired(model: str) -> str:
    """Why a model the results' record does not pair with a tokenizer has none: the models file may
    list it on a tokenizer these results did not measure."""
    from benchmark.adapters.models import all_models

    listed = [info.tokenizer for info in all_models() if info.model == model]
    if not listed:
        return "is not in the models file (benchmark/adapters/models.csv)"
    if not listed[0]:
        return "has no published tokenizer (benchmark/adapters/models.csv)"
    return (f"uses {listed[0]} (benchmark/adapters/models.csv), which these results did not measure "
            f"(`run --tokenizers {listed[0]}` measures it)")
