"""The figures of the `cost --file` answer, as data (answer.py prints them, as_json.py
writes them as JSON): each model's cost of the files and how often they fit its window, the
cheapest and roomiest, the shortlist's and the user's prices, and a language's measured premiums
for the reference-language estimate.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.measure.own_text import OwnCount
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.escaping import terminal_text
from benchmark.pricing.prices.database import Listing
from benchmark.pricing.prices.user_prices import USER_PRICES

COUNTING = "each file counted whole, as one prompt, by each vendor's own encoder (exact: no sample, no interval)"


@dataclass(frozen=True)
class Premium:
    """A language's measured premium on one tokenizer: its tokens over the reference's, same lines."""

    value: float
    ci_low: float | None
    ci_high: float | None


@dataclass(frozen=True)
class PremiumSource:
    """Where the premiums come from: one language of one results file."""

    language: str  # a code of the results
    label: str  # "Hindi (hin_Deva)"
    reference: str  # "English"
    results_name: str
    run_date: str
    premiums: dict[str, Premium]  # tokenizer -> its premium, measured rows only


@dataclass(frozen=True)
class ModelCost:
    """One model on the files: their cost at its list price and how often they fit its window."""

    tokenizer: str
    listing: Listing
    n_tokens: int

    @property
    def usd(self) -> float | None:
        price = self.listing.input_usd_per_mtok
        return self.n_tokens * price / 1e6 if price is not None else None

    @property
    def fits(self) -> float | None:
        """Window over tokens: 2.0 holds the files twice; below 1, they do not fit."""
        window = self.listing.context_window
        return window / self.n_tokens if window and self.n_tokens else None


def read_results(results_path: Path):
    """The results file `cost --file` reads premiums and estimates from; missing: one line."""
    from benchmark.results.rows import load_results

    if not results_path.exists():
        raise BenchmarkError(f"{terminal_text(str(results_path))}: no such results file; give --results PATH")
    return load_results(results_path)


def premiums_for(language: str, results_path: Path, results=None) -> PremiumSource:
    """The premium of `language` (a code or English name) on each tokenizer of a results file
    (`results`: that file already loaded)."""
    from benchmark.corpora.languages import resolve_code_or_name

    results = results if results is not None else read_results(results_path)
    present = sorted({row.language for row in results.rows})
    names = results.record.language_names
    code = resolve_code_or_name(language, present, names, where=terminal_text(str(results_path)))
    reference = results.record.settings.reference or "eng_Latn"
    premiums = {row.tokenizer: Premium(row.premium, row.premium_ci_low, row.premium_ci_high)
                for row in results.rows if row.language == code and row.ok and row.premium}
    name = names.get(code)
    return PremiumSource(code, f"{name} ({code})" if name and name != code else code, names.get(reference, reference),
                         str(results_path), results.record.date[:10], premiums)


def model_costs(counts: Sequence[OwnCount], models: Mapping[str, Sequence[str]],
                listings: Mapping[str, Listing]) -> list[ModelCost]:
    """Every model with a listing, on each counted tokenizer's total tokens, in `models`' order."""
    return [ModelCost(count.tokenizer, listings[model], count.n_tokens_total)
            for count in counts if count.ok for model in models.get(count.tokenizer, ()) if model in listings]


def best_of(items: Sequence[ModelCost], *, money: bool) -> tuple[ModelCost, list[ModelCost], ModelCost | None] | None:
    """The cheapest (`money`) or roomiest model, the others equal to it, and the first one behind;
    None when no model has the figure."""
    figure = (lambda c: c.usd) if money else (lambda c: c.fits)
    ranked = sorted((c for c in items if figure(c) is not None),
                    key=lambda c: (figure(c) if money else -figure(c), c.listing.model))
    if not ranked:
        return None
    best = ranked[0]
    tied = [c for c in ranked[1:] if figure(c) == figure(best)]
    behind = next((c for c in ranked[1:] if figure(c) != figure(best)), None)
    return best, tied, behind


def price_list(on: dt.date, prices: Path | None = None) -> tuple[dict[str, tuple[str, ...]], dict[str, Listing]]:
    """tokenizer -> its models (the models file) and model -> its listing (the database as on `on`),
    the user's prices file winning for the models it names, as `cost LANG` reads it (prices/book.py)."""
    from benchmark.adapters.families import VENDOR_VOCABULARIES
    from benchmark.adapters.models import models_of
    from benchmark.pricing.prices.listings import database_listings
    from benchmark.pricing.prices.user_prices import read_user_prices

    models = {tokenizer: [m.model for m in models_of(tokenizer)] for tokenizer in VENDOR_VOCABULARIES}
    listings = database_listings(on)
    for model, user in (read_user_prices(prices) if prices is not None else {}).items():
        if user.tokenizer is not None:
            if user.tokenizer not in models:
                raise BenchmarkError(f"{terminal_text(str(prices))}, line {user.line}: tokenizer {user.tokenizer!r} "
                                     f"is not a production tokenizer; one of {', '.join(models)}")
            for names in models.values():  # the user's tokenizer for it wins
                if model in names:
                    names.remove(model)
            models[user.tokenizer].append(model)
        elif not any(model in names for names in models.values()):
            raise BenchmarkError(f"{terminal_text(str(prices))}, line {user.line}: model {model!r} is not in the "
                                 "models file; name its tokenizer in a tokenizer column (e.g. tiktoken/o200k_base)")
        listings[model] = user.listing
    return {t: tuple(names) for t, names in models.items()}, listings


def first_screen(every: Mapping[str, Sequence[str]], listings: Mapping[str, Listing]) -> dict[str, tuple[str, ...]]:
    """What `cost --file` counts without `--all` or `--models`: the tokenizers of the vendors'
    flagships (adapters/flagships.csv) and those the user's prices file prices a model of, each with
    all its models, in table order; loading only these vocabularies takes 40% off the answer's time."""
    from benchmark.adapters.flagships import flagships

    wanted = {flagship.tokenizer for flagship in flagships()}
    wanted |= {tokenizer for tokenizer, names in every.items()
               if any(listings.get(m) is not None and listings[m].source.startswith(USER_PRICES) for m in names)}
    return {tokenizer: tuple(names) for tokenizer, names in every.items() if tokenizer in wanted}


def shortlisted(names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """tokenizer -> the models of a shortlist (`--models gpt-5,llama-4-maverick`) on it, in table
    order; a name the models file does not hold, or whose tokenizer is not published, is refused
    by models_named in one line."""
    from benchmark.adapters.families import VENDOR_VOCABULARIES
    from benchmark.adapters.models import models_named

    chosen: dict[str, list[str]] = {}
    for name in names:
        for info in models_named(name):
            if info.model not in chosen.setdefault(info.tokenizer, []):
                chosen[info.tokenizer].append(info.model)
    return {t: tuple(chosen[t]) for t in VENDOR_VOCABULARIES if t in chosen}
