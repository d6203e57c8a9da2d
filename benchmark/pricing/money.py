"""Money and context per language and model, derived from saved results (no measuring).

Tokens are the measured figure; a model's price and window turn them into:

    devtest_usd                    = n_tokens x input price / 10^6   (the measured sentences, once)
    tokens_per_reference_word      = n_tokens / n_words of the reference language on the same lines
    usd_per_million_reference_words = tokens_per_reference_word x input price
    context_sentences              = window / tokens_per_sentence
    context_reference_words        = window / tokens_per_reference_word

"Reference words" are English-equivalent words when English is the reference: how many English
words the same content takes, so a Hindi figure reads as "a million words of what English says in
a million words". A tokenizer that does not give the text back is left out (it counts text it
changed), as in the report's cheapest-model table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchmark.pricing.prices.database import Listing
from benchmark.results.rows import Results, ResultRow

MIN_ROUNDTRIP = 0.99  # as the report's lossy mark: below it a tokenizer changed some of the text


@dataclass(frozen=True)
class ModelFigures:
    """One model on one language: its tokenizer's counts and what its price and window make of them."""

    language: str
    tokenizer: str
    listing: Listing
    n_sentences: int
    n_tokens: int
    tokens_per_sentence: float
    premium: float | None
    premium_ci_low: float | None
    premium_ci_high: float | None
    tokens_per_reference_word: float | None
    devtest_usd: float | None
    usd_per_million_reference_words: float | None
    context_sentences: float | None
    context_reference_words: float | None

    @property
    def model(self) -> str:
        return self.listing.model


def usable_rows(results: Results, tokenizers: Sequence[str]) -> dict[tuple[str, str], ResultRow]:
    """(tokenizer, language) -> its row, for the rows a price can be put on: measured. A vendor's
    tokenizer that does not give every sentence back (its normaliser changed the text) still
    counts what the vendor bills, so it stays; `lossy` says which."""
    wanted = set(tokenizers)
    return {(row.tokenizer, row.language): row for row in results.rows
            if row.tokenizer in wanted and row.ok and row.n_tokens > 0 and row.tokens_per_sentence}


def lossy(row: ResultRow) -> bool:
    """Below MIN_ROUNDTRIP of the sentences given back exactly."""
    return row.roundtrip_rate is not None and row.roundtrip_rate < MIN_ROUNDTRIP


def reference_words(results: Results) -> int | None:
    """Words of the reference language's measured sentences (the same under every tokenizer)."""
    reference = results.record.settings.reference or results.record.settings.premium.reference
    for row in results.rows:
        if row.language == reference and row.ok and row.n_words:
            return row.n_words
    return None


def model_figures(results: Results, models: Mapping[str, Sequence[str]], listings: Mapping[str, Listing],
                  *, languages: Sequence[str] | None = None) -> list[ModelFigures]:
    """Every (language, model) the results and listings allow, in the order of `models`
    (tokenizer -> its models' names); a model without a listing is left out (`unpriced` says which)."""
    rows = usable_rows(results, list(models))
    words = reference_words(results)
    wanted = set(languages) if languages is not None else None
    found = []
    for (tokenizer, language), row in rows.items():
        if wanted is not None and language not in wanted:
            continue
        for model in models[tokenizer]:
            listing = listings.get(model)
            if listing is None:
                continue
            found.append(_figures(row, listing, words))
    return found


def _figures(row: ResultRow, listing: Listing, reference_n_words: int | None) -> ModelFigures:
    price, window = listing.input_usd_per_mtok, listing.context_window
    per_word = row.n_tokens / reference_n_words if reference_n_words else None
    return ModelFigures(
        language=row.language, tokenizer=row.tokenizer, listing=listing, n_sentences=row.n_sentences,
        n_tokens=row.n_tokens, tokens_per_sentence=row.tokens_per_sentence, premium=row.premium,
        premium_ci_low=row.premium_ci_low, premium_ci_high=row.premium_ci_high, tokens_per_reference_word=per_word,
        devtest_usd=row.n_tokens * price / 1e6 if price is not None else None,
        usd_per_million_reference_words=per_word * price if price is not None and per_word else None,
        context_sentences=window / row.tokens_per_sentence if window else None,
        context_reference_words=window / per_word if window and per_word else None,
    )


def unpriced(models: Mapping[str, Sequence[str]], listings: Mapping[str, Listing],
             reasons: Mapping[str, str] | None = None) -> dict[str, str]:
    """model -> why it carries no money figure: listings.csv's reason, no listing, or a listing
    without a price."""
    why = {}
    for names in models.values():
        for model in names:
            listing = listings.get(model)
            if listing is None:
                why[model] = (reasons or {}).get(model) or "not in the price listings (pricing/prices/listings.csv)"
            elif not listing.priced:
                why[model] = f"{listing.listing} has no price ({listing.source.split(',')[0]})"
    return why
