"""The `cost` verb's answer (answer.py) as one JSON document, `cost ... --json`: every figure the
text prints, unrounded, with its interval, and every source (the results file and its run date,
the price database's name, version and price date or the user's prices file, and where each
model's tokenizer comes from). Keys come in a fixed order (docs/usage.md gives the schema); the
text is ASCII (json's escapes), so no name from a file reaches a terminal raw.
"""

from __future__ import annotations

import json
from typing import Any

from benchmark.pricing.language.answer import Answer, LanguageAnswer, TokenizerAnswer, comparison
from benchmark.pricing.language.decision import Leader
from benchmark.pricing.money import ModelFigures, lossy
from benchmark.pricing.prices.user_prices import USER_PRICES

SCHEMA, VERSION = "tokencost/cost", 1


def _interval(value: float | None, low: float | None, high: float | None) -> dict[str, float | None]:
    return {"value": value, "ci_low": low, "ci_high": high}


def _leader(leader: Leader | None, figure: str) -> dict[str, Any] | None:
    if leader is None:
        return None
    following = None
    if leader.next_best is not None:
        following = {"model": leader.next_best.model, "tokenizer": leader.next_best.tokenizer,
                     "lead": _interval(*leader.lead) if leader.lead is not None else None}
    return {"model": leader.best.model, "tokenizer": leader.best.tokenizer, figure: getattr(leader.best, figure),
            "tied": [{"model": t.model, "tokenizer": t.tokenizer} for t in leader.tied], "next": following}


def _model(answer: Answer, model: str, figures: ModelFigures | None) -> dict[str, Any]:
    shortlist = answer.shortlist
    pairings = shortlist.pairings if shortlist is not None else answer.book.pairings
    entry: dict[str, Any] = {"model": model, "tokenizer_source": pairings.get(model),
                             "caveat": shortlist.caveats.get(model) if shortlist is not None else None}
    listing = answer.book.listings.get(model)
    entry["price"] = None if listing is None else {
        "provider": listing.provider, "seller": listing.seller, "reseller": listing.reseller,
        "listing": listing.listing, "input_usd_per_mtok": listing.input_usd_per_mtok,
        "context_window": listing.context_window, "source": listing.source}
    entry["not_priced"] = answer.unpriced.get(model)
    entry["figures"] = None if figures is None else {
        "devtest_usd": figures.devtest_usd, "usd_per_million_reference_words": figures.usd_per_million_reference_words,
        "tokens_per_reference_word": figures.tokens_per_reference_word,
        "context_sentences": figures.context_sentences, "context_reference_words": figures.context_reference_words}
    return entry


def _tokenizer(answer: Answer, part: TokenizerAnswer) -> dict[str, Any]:
    row = part.row
    measured = part.ok
    by_model = {f.model: f for f in part.figures}
    return {
        "id": part.tokenizer, "status": part.status,
        "n_sentences": row.n_sentences if measured else None, "n_tokens": row.n_tokens if measured else None,
        "tokens_per_sentence": row.tokens_per_sentence if measured else None,
        "premium": _interval(row.premium, row.premium_ci_low, row.premium_ci_high) if measured else None,
        "roundtrip_rate": row.roundtrip_rate if measured else None, "lossy": lossy(row) if measured else None,
        "notes": list(part.notes),
        "models": [_model(answer, model, by_model.get(model)) for model in part.models],
        "cheapest": _leader(part.cheapest, "devtest_usd"), "roomiest": _leader(part.roomiest, "context_sentences"),
    }


def _language(answer: Answer, part: LanguageAnswer) -> dict[str, Any]:
    return {"code": part.language, "name": answer.name(part.language),
            "tokenizers": [_tokenizer(answer, tokenizer) for tokenizer in part.tokenizers],
            "cheapest": _leader(part.cheapest, "devtest_usd"), "roomiest": _leader(part.roomiest, "context_sentences")}


def answer_document(answer: Answer) -> dict[str, Any]:
    """The answer as plain data, keys in the order docs/usage.md gives."""
    from benchmark.pricing.prices.book import price_date
    from benchmark.pricing.prices.database import DATABASE, database_label, installed_version

    record = answer.results.record
    book = answer.book
    user = None
    if book.user_file is not None:
        user = {"path": str(book.user_file),
                "source": next((s for s in answer.sources if s.startswith(f"{USER_PRICES} (")), None)}
    shortlist = answer.shortlist
    return {
        "schema": SCHEMA, "version": VERSION,
        "results": {"path": answer.results_name, "run_date": record.date[:10], "corpus": record.settings.corpus,
                    "split": record.settings.measure_split,
                    "reference": {"code": answer.reference, "name": answer.name(answer.reference)}},
        "prices": {"database": {"name": DATABASE, "version": installed_version(), "label": database_label(),
                                "price_date": price_date(answer.results).isoformat()},
                   "user_file": user, "sources": list(answer.sources)},
        "shortlist": None if shortlist is None else [
            {"typed": pick.typed, "models": list(pick.models), "caveat": pick.caveat or None} for pick in shortlist.picks],
        "tie_rule": answer.tie_rule,
        "languages": [_language(answer, part) for part in answer.languages],
        "not_priced": dict(answer.unpriced),
        "not_counted": dict(shortlist.not_counted) if shortlist is not None else {},
        "compared_with_reference": [
            {"tokenizer": entry.tokenizer, "model": entry.model, "n_models": entry.n_models,
             "relative_cost": [{"language": language, **(_interval(row.premium, row.premium_ci_low, row.premium_ci_high)
                                                         if row is not None else _interval(None, None, None))}
                               for language, row in entry.premiums]}
            for entry in comparison(answer)] if len(answer.languages) > 1 else [],
    }


def render_json(answer: Answer) -> str:
    """`answer_document` as JSON text: indented, ASCII, no NaN (a figure is a number or null)."""
    return json.dumps(answer_document(answer), indent=2, ensure_ascii=True, allow_nan=False) + "\n"
