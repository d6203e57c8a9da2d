"""List prices and context windows read from the pinned price database, offline.

The database is Pydantic's `genai-prices` (PyPI), pinned in pyproject.toml: its prices ship inside
the package as Python data, so reading them touches no network (we never start its optional
`UpdatePrices` task, which would fetch newer data). Its prices are dated: a model's price can change
on a given day, so a price is read as it stood on one date (`on`), the run's date, and a report
re-rendered later gives the same figures.

A model's price is its entry's input price per million tokens; for tiered prices (a higher rate
past 200k tokens in one request) the first tier, the rate of a request of ordinary length.

A price is named by who sells at it. The database files some prices it copied from a reseller
under the vendor's own entry (OpenAI's gpt-oss entries: "Imported from OpenRouter pricing", though
OpenAI sells no gpt-oss API); such a listing names the reseller, not the vendor. A reseller's price
(a router such as OpenRouter, which sells other hosts' endpoints) is marked so a page can say
"via OpenRouter".
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass

from benchmark.plumbing import pinned
from benchmark.plumbing.errors import BenchmarkError

DATABASE = "genai-prices"
PINNED_VERSION = "0.2.3"
# The pinned release's month (its PyPI upload); the data carries no date of its own. A test checks
# the installed version is the pinned one, so this date cannot drift from the data it describes.
PINNED_RELEASE = "2026-11"
# Providers of the database that resell other hosts' endpoints rather than serve the model.
RESELLERS = {"openrouter": "OpenRouter"}
# The database's note on a price it copied from another provider's list (its price_comments).
_IMPORTED = re.compile(r"Imported from (?P<seller>[A-Z][\w.-]*(?: [A-Z][\w.-]*)*) pricing")


@dataclass(frozen=True)
class Listing:
    """One model as a price source lists it."""

    model: str  # the model's name as our models file says it, e.g. "gpt-4o"
    provider: str  # who sells it at this price, e.g. "OpenAI", "AWS Bedrock"
    listing: str  # the source's own id of the entry, e.g. "openai:gpt-4o"
    input_usd_per_mtok: float | None  # list input price, US dollars per million tokens; None: not priced
    context_window: int | None  # tokens; None: the source gives none
    source: str  # e.g. "genai-prices 0.2.3 (2026-11), price of 2026-12-01"
    reseller: bool = False  # `provider` resells other hosts' endpoints (a router), or its price is a reseller's copy

    @property
    def priced(self) -> bool:
        return self.input_usd_per_mtok is not None

    @property
    def seller(self) -> str:
        """Who sells at this price, as a page names it: 'AWS Bedrock', or 'via OpenRouter'."""
        return f"via {self.provider}" if self.reseller else self.provider


def installed_version() -> str | None:
    version = pinned.installed_version(DATABASE)
    return None if version == pinned.NOT_INSTALLED else version


def database_label() -> str:
    """'genai-prices 0.2.3 (2026-11)', naming the installed version (a different one than pinned
    says so, since its data may differ)."""
    version = installed_version()
    if version is None:
        return f"{DATABASE} (not installed)"
    when = PINNED_RELEASE if version == PINNED_VERSION else f"not the pinned {PINNED_VERSION}"
    return f"{DATABASE} {version} ({when})"


@functools.lru_cache(maxsize=1)
def _providers() -> tuple:
    if installed_version() is None:
        raise BenchmarkError(f"the price database is not installed: `pip install {DATABASE}=={PINNED_VERSION}` "
                             "(or give your own prices with --prices FILE)")
    from genai_prices.data import providers  # the bundled data: no network

    return tuple(providers)


def _provider(provider_id: str):
    for provider in _providers():
        if provider.id == provider_id:
            return provider
    return None


def _input_price(model_info, on: dt.date) -> float | None:
    moment = dt.datetime(on.year, on.month, on.day, 12, tzinfo=dt.timezone.utc)
    price = model_info.get_prices(moment).input_mtok
    if price is None:
        return None
    base = getattr(price, "base", price)  # TieredPrices: the first tier
    return float(base)


def lookup(model: str, provider_id: str, entry: str = "", *, on: dt.date) -> Listing:
    """The price of `model` at provider `provider_id` (the database's id, e.g. "openai"), as on
    `on`: the entry the database's own matching finds for the model's name, or the entry `entry`
    when the provider names the model otherwise (a host's "meta.llama4-scout-17b-instruct-v1:0").
    A reference the database does not hold is a BenchmarkError naming it."""
    provider = _provider(provider_id)
    if provider is None:
        raise BenchmarkError(f"{database_label()} has no provider {provider_id!r} (the listing of {model})")
    if entry:
        found = next((info for info in provider.models if info.id == entry), None)
    else:
        found = provider.find_model(model)  # the database's matching: "mistral-large-2411" -> mistral-large
    if found is None:
        raise BenchmarkError(f"{database_label()}: provider {provider_id} lists no {entry or model!r} "
                             f"(the listing of {model})")
    seller, reseller = provider.name, provider_id in RESELLERS
    imported = _IMPORTED.search(getattr(found, "price_comments", None) or "")
    if imported is not None:  # the vendor's entry holds a reseller's price: name who sells at it
        seller, reseller = imported["seller"], True
    return Listing(model=model, provider=seller, listing=f"{provider_id}:{found.id}",
                   input_usd_per_mtok=_input_price(found, on), context_window=found.context_window,
                   source=f"{database_label()}, price of {on.isoformat()}", reseller=reseller)


def providers_listing(model: str) -> list[str]:
    """Who lists `model` in the database, by its own matching, as "Anthropic (claude-sonnet-4-0)";
    for a model the models file does not list, so an answer can say a price exists but no count does."""
    found = []
    for provider in _providers():
        info = provider.find_model(model.strip().lower())
        if info is not None:
            found.append(f"{provider.name} ({info.id})")
    return found
