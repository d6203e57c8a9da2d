"""The `cost --file` answer (answer.py, from figures.py) as one JSON document, `cost --file PATH ... --json`: each
file's size, every tokenizer's exact count (per file and in all), every model's listing, cost and
window fit, the cheapest and roomiest, and with --language the reference-language estimate with
its interval; every source named (the price database's version and price date, the user's prices
file, the results file the premiums come from). Keys in a fixed order (docs/usage.md); ASCII text.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmark.measure.own_text import OwnCount, OwnText
from benchmark.pricing.prices.database import Listing
from benchmark.pricing.money import unpriced
from benchmark.pricing.file.estimates import EstimateSource, estimate_document, source_document
from benchmark.pricing.file.figures import COUNTING, ModelCost, PremiumSource, best_of, model_costs

# 1: the counts, prices, leaders and the reference-language estimate; 2: "estimates" (the
# calibration used, its domain or null for the whole corpus) and each tokenizer's "estimate".
SCHEMA, VERSION = "tokencost/cost-file", 2


def _interval(value: float | None, low: float | None, high: float | None) -> dict[str, float | None]:
    return {"value": value, "ci_low": low, "ci_high": high}


def _listing(listing: Listing | None) -> dict[str, Any] | None:
    return None if listing is None else {
        "provider": listing.provider, "seller": listing.seller, "reseller": listing.reseller,
        "listing": listing.listing, "input_usd_per_mtok": listing.input_usd_per_mtok,
        "context_window": listing.context_window, "source": listing.source}


def _leader(items: Sequence[ModelCost], *, money: bool) -> dict[str, Any] | None:
    figure = "usd" if money else "fits"
    found = best_of(items, money=money)
    if found is None:
        return None
    best, tied, behind = found
    following = None
    if behind is not None and getattr(best, figure):
        ratio = (behind.usd / best.usd) if money else (best.fits / behind.fits)
        following = {"model": behind.listing.model, "tokenizer": behind.tokenizer, "ratio": ratio}
    return {"model": best.listing.model, "tokenizer": best.tokenizer, figure: getattr(best, figure),
            "tied": [{"model": c.listing.model, "tokenizer": c.tokenizer} for c in tied], "next": following}


def _in_reference(count: OwnCount, premiums: PremiumSource | None) -> dict[str, Any] | None:
    if premiums is None or not count.ok:
        return None
    premium = premiums.premiums.get(count.tokenizer)
    if premium is None:
        return {"premium": None, "n_tokens": None}
    n = count.n_tokens_total
    return {"premium": _interval(premium.value, premium.ci_low, premium.ci_high),
            "n_tokens": _interval(n / premium.value, n / premium.ci_high if premium.ci_high else None,
                                  n / premium.ci_low if premium.ci_low else None)}


def own_cost_document(texts: Sequence[OwnText], counts: Sequence[OwnCount], models: Mapping[str, Sequence[str]],
                      listings: Mapping[str, Listing], *, on: dt.date, reasons: Mapping[str, str] | None = None,
                      premiums: PremiumSource | None = None, prices: Path | None = None,
                      left_out: Sequence[str] = (), estimates: EstimateSource | None = None) -> dict[str, Any]:
    """The answer as plain data, keys in the order docs/usage.md gives; `left_out`: the production
    tokenizers not counted (the answer without --all counts the flagships')."""
    from benchmark.pricing.prices.database import DATABASE, database_label, installed_version

    costs = model_costs(counts, models, listings)
    missing = unpriced({c.tokenizer: models.get(c.tokenizer, ()) for c in counts if c.ok}, listings, reasons)
    by_model = {(c.tokenizer, c.listing.model): c for c in costs}
    tokenizers = []
    for count in counts:
        mine = [c for c in costs if c.tokenizer == count.tokenizer]
        tokenizers.append({
            "id": count.tokenizer, "status": count.status,
            "n_tokens": count.n_tokens_total if count.ok else None,
            "n_tokens_per_file": list(count.n_tokens) if count.ok else None,
            "in_reference": _in_reference(count, premiums),
            "estimate": estimate_document(estimates, count, texts),
            "models": [{"model": model, "price": _listing(listings.get(model)), "not_priced": missing.get(model),
                        "usd": (cost := by_model.get((count.tokenizer, model))) and cost.usd,
                        "fits": cost and cost.fits} for model in models.get(count.tokenizer, ())],
            "cheapest": _leader([c for c in mine if c.usd is not None], money=True),
            "roomiest": _leader([c for c in mine if c.fits is not None], money=False),
        })
    return {
        "schema": SCHEMA, "version": VERSION,
        "files": [{"path": str(t.path), "n_bytes": t.n_bytes, "n_chars": t.n_chars} for t in texts],
        "counting": COUNTING,
        "prices": {"database": {"name": DATABASE, "version": installed_version(), "label": database_label(),
                                "price_date": on.isoformat()},
                   "user_file": str(prices) if prices is not None else None,
                   "sources": sorted({c.listing.source for c in costs})},
        "premiums": None if premiums is None else {
            "language": {"code": premiums.language, "label": premiums.label}, "reference": premiums.reference,
            "results": premiums.results_name, "run_date": premiums.run_date},
        "estimates": source_document(estimates),
        "tokenizers": tokenizers,
        "tokenizers_not_counted": list(left_out),
        "cheapest": _leader(costs, money=True),
        "roomiest": _leader(costs, money=False),
        "not_priced": dict(missing),
    }


def render_own_cost_json(*args, **kwargs) -> str:
    """`own_cost_document` as JSON text: indented, ASCII, no NaN (a figure is a number or null)."""
    return json.dumps(own_cost_document(*args, **kwargs), indent=2, ensure_ascii=True, allow_nan=False) + "\n"
