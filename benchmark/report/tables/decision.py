"""The report's first section: per language, the cheapest model in money and the roomiest in
context, with the tokens and premiums that cause it; then what each tokenizer's cheapest model
charges every language. Derived from the saved counts and the price book (benchmark.pricing), at
render time: nothing here measures, and the same results and price database give the same tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmark.pricing.prices.book import PriceBook
from benchmark.pricing.language.decision import Leader, by_language, cheapest, roomiest, tie_rule
from benchmark.pricing.money import ModelFigures, model_figures, reference_words, unpriced
from benchmark.pricing.formats import fmt_ci, fmt_count, fmt_interval, fmt_price, fmt_usd, fmt_window
from benchmark.report.tables.table import Table
from benchmark.results.rows import Results


def _label(results: Results, code: str) -> str:
    name = results.record.language_names.get(code)
    return f"{name} ({code})" if name and name != code else code


def _reference_name(results: Results) -> str:
    reference = results.record.settings.reference or "eng_Latn"
    return results.record.language_names.get(reference, reference)


def _others(leader: Leader) -> tuple[str, str]:
    """('tied with' cell, 'next' cell)."""
    tied = ", ".join(f"{t.model} on {t.tokenizer}" for t in leader.tied[:4])
    if len(leader.tied) > 4:
        tied += f" and {len(leader.tied) - 4} more"
    if leader.next_best is None or leader.lead is None:
        return tied, ""
    value, low, high = leader.lead
    return tied, f"{leader.next_best.model} on {leader.next_best.tokenizer}: {value:.2f}x{fmt_ci(low, high, label='')}"


def _rule(results: Results) -> str:
    rule = tie_rule(results.pairwise)
    return f"{rule[0].upper()}{rule[1:]}."


def decision_figures(results: Results, book: PriceBook, tokenizers: Sequence[str]) -> list[ModelFigures]:
    return model_figures(results, {t: book.models.get(t, ()) for t in tokenizers}, book.listings)


def _premium(item: ModelFigures) -> str:
    return fmt_interval(item.premium, item.premium_ci_low, item.premium_ci_high)


def cheapest_money_table(results: Results, figures: Sequence[ModelFigures], languages: Sequence[str]) -> Table:
    reference = _reference_name(results)
    grouped = by_language(figures)
    rows, n_sentences, premiums = [], set(), []
    for language in languages:
        leader = cheapest(grouped.get(language, ()), results.pairwise)
        if leader is None:
            continue
        best = leader.best
        n_sentences.add(best.n_sentences)
        tied, following = _others(leader)
        premiums += [(len(rows), 4, best.tokenizer, language)] if best.premium is not None else []
        rows.append((_label(results, language), f"{best.model} ({best.listing.seller}, {fmt_price(best.listing)})",
                     best.tokenizer, f"{best.tokens_per_sentence:.1f}", _premium(best), fmt_usd(best.devtest_usd),
                     fmt_usd(best.usd_per_million_reference_words), tied, following, best.listing.source))
    count = f"{n_sentences.pop():,} sentences" if len(n_sentences) == 1 else "measured sentences"
    return Table(
        "cheapest_priced", "The cheapest model per language, in money",
        ("language", "cheapest model (provider, list input price)", "tokenizer", "tokens / sentence",
         f"premium over {reference} (95% CI)", f"cost of the {count}", f"per million {reference}-equivalent words",
         "tied with", "next on another tokenizer: times the cost (95% CI)", "price source"),
        tuple(rows),
        note=(f"Cost = tokens x the model's list input price; {reference}-equivalent words are the words of "
              f"{reference} the same sentences take (its word count), so every language's figure buys the same "
              f"content. {_rule(results)}"),
        numeric=(False, False, False, True, True, True, True, False, False, False),
        premium_cells=tuple(premiums), premium_style="x")


def roomiest_context_table(results: Results, figures: Sequence[ModelFigures], languages: Sequence[str]) -> Table:
    reference = _reference_name(results)
    grouped = by_language(figures)
    rows, premiums = [], []
    for language in languages:
        leader = roomiest(grouped.get(language, ()), results.pairwise)
        if leader is None:
            continue
        best = leader.best
        tied, following = _others(leader)
        premiums += [(len(rows), 5, best.tokenizer, language)] if best.premium is not None else []
        rows.append((_label(results, language), f"{best.model} ({best.listing.seller})", best.tokenizer,
                     fmt_window(best.listing.context_window), f"{best.tokens_per_sentence:.1f}", _premium(best),
                     fmt_count(best.context_sentences), fmt_count(best.context_reference_words), tied, following,
                     best.listing.source))
    return Table(
        "roomiest_window", "The roomiest model per language, in context",
        ("language", "roomiest model (provider)", "tokenizer", "context window", "tokens / sentence",
         f"premium over {reference} (95% CI)", "sentences that fit", f"{reference}-equivalent words that fit",
         "tied with", "next on another tokenizer: times the room (95% CI)", "source of the window"),
        tuple(rows),
        note=(f"What fits = the window / tokens per sentence (or per {reference}-equivalent word): the same window "
              "holds less of a language its tokenizer charges more. Models without a window in the source are left "
              f"out. {_rule(results)}"),
        numeric=(False, False, False, True, True, True, True, True, False, False, False),
        premium_cells=tuple(premiums), premium_style="x")


def per_tokenizer_money_table(results: Results, figures: Sequence[ModelFigures], languages: Sequence[str],
                              tokenizers: Sequence[str]) -> Table:
    """Languages down; per tokenizer, what its cheapest priced model charges per million
    English-equivalent words (the same model for every language: one tokenizer, one price order)."""
    reference = _reference_name(results)
    cheapest_of: dict[str, ModelFigures] = {}
    for tokenizer in tokenizers:
        mine = [f for f in figures if f.tokenizer == tokenizer and f.devtest_usd is not None]
        if mine:
            leader = cheapest(mine)
            cheapest_of[tokenizer] = leader.best
    shown = [t for t in tokenizers if t in cheapest_of]
    cells = {(f.tokenizer, f.language): f for f in figures if f.tokenizer in cheapest_of
             and f.model == cheapest_of[f.tokenizer].model}
    rows = []
    for language in languages:
        row = [fmt_usd(cells[t, language].usd_per_million_reference_words) if (t, language) in cells else ""
               for t in shown]
        if any(row):
            rows.append((_label(results, language), *row))
    headers = ("language", *(f"{t}: {cheapest_of[t].model} ({fmt_price(cheapest_of[t].listing)})" for t in shown))
    sources = sorted({cheapest_of[t].listing.source for t in shown})
    return Table("money_per_tokenizer",
                 f"What each tokenizer's cheapest model charges per million {reference}-equivalent words", headers,
                 tuple(rows), note=f"Prices: {'; '.join(sources)}. Lower is cheaper.",
                 numeric=(False,) + (True,) * len(shown))


def methods_sentence(results: Results, book: PriceBook, tokenizers: Sequence[str]) -> str:
    """How the money and context figures were made, for the methods section."""
    reference = _reference_name(results)
    missing = unpriced({t: book.models.get(t, ()) for t in tokenizers}, book.listings, book.reasons)
    sources = sorted({book.listings[m].source for names in book.models.values() for m in names if m in book.listings})
    words = ("" if reference_words(results) else f" (these results have no {reference} word count, so the "
             "per-word figures are blank)")
    text = (f"Money and context are derived from the token counts, not measured: cost = tokens x the model's list "
            f"input price, per million {reference}-equivalent words = tokens per {reference} word of the same "
            f"sentences x the price{words}; what fits = the context window / tokens per sentence. Which models use "
            f"each tokenizer: the run record; prices and windows: {'; '.join(sources) or 'none'} (each model's entry "
            "is the vendor's own API, or the host named beside it where the vendor sells none; tiered prices at "
            f"their first tier). {_rule(results)} Tokens are the primary figure: prices change, counts do not.")
    if missing:
        text += " Not priced: " + "; ".join(f"{model} ({why})" for model, why in list(missing.items())[:12]) + "."
    return text
