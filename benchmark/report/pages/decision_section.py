"""The section a report leads with: which model is cheapest and which roomiest for each language,
and why (its tokens and premium), from the saved counts and the pinned price database. A run whose
record names no models (made before models were recorded), or none with a price, has no such
section: the report then starts with its findings, as before.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from benchmark.pricing.prices.book import PriceBook, price_book
from benchmark.pricing.prices.user_prices import USER_PRICES
from benchmark.report.tables.decision import (
    cheapest_money_table,
    decision_figures,
    methods_sentence,
    per_tokenizer_money_table,
    roomiest_context_table,
)
from benchmark.report.tables.table import Table
from benchmark.results.rows import Results

KEY, TITLE = "decision", "Which model to use for each language"


@dataclass(frozen=True)
class Decision:
    intro: str
    tables: tuple[Table, ...]
    methods: str  # for the methods section: where money and context come from


def decision(results: Results, tokenizers: list[str], *, prices: Path | None = None,
             book: PriceBook | None = None) -> Decision | None:
    """The leading section's tables for `tokenizers` (the production ones, in report order), or
    None when no model of theirs has a price or a window."""
    book = book or price_book(results, prices=prices)
    figures = decision_figures(results, book, tokenizers)
    if not figures:
        return None
    languages = _languages(results)
    tables = tuple(table for table in (cheapest_money_table(results, figures, languages),
                                       roomiest_context_table(results, figures, languages),
                                       per_tokenizer_money_table(results, figures, languages, tokenizers))
                   if table.rows)
    if not tables:
        return None
    reference = results.record.settings.reference or "eng_Latn"
    reference_name = results.record.language_names.get(reference, reference)
    intro = (f"For each language: the model whose list price makes its text cheapest, and the one whose context window "
             f"holds the most of it, with the tokens per sentence and the premium over {reference_name} that decide "
             "both (a higher premium is a higher bill and a smaller window for the same content). Money and context "
             "are derived from the counts with the price source named in each row; the tables after this section "
             f"are the counts themselves. {_sources_sentence(book)}")
    return Decision(intro, tables, methods_sentence(results, book, tokenizers))


def _sources_sentence(book: PriceBook) -> str:
    """'Prices and windows: <the user's file> for the N models it names; <the database> for the rest.'"""
    sources: dict[str, int] = {}
    for names in book.models.values():
        for model in names:
            if model in book.listings:
                sources[book.listings[model].source] = sources.get(book.listings[model].source, 0) + 1
    if book.user_file is None:
        return f"Prices and windows: {'; '.join(sorted(sources))}."
    mine = [source for source in sources if source.startswith(USER_PRICES)]
    theirs = sorted(source for source in sources if source not in mine)
    text = f"Prices and windows: {'; '.join(mine)} for the {sum(sources[s] for s in mine):,} models it names"
    return text + (f"; {'; '.join(theirs)} for the rest." if theirs else ".")


def leading_decision(results: Results, *, prices: Path | None = None) -> Decision | None:
    """`decision` over the run's production tokenizers, in report order."""
    from benchmark.report.view import ReportView

    return decision(results, ReportView.of(results).production, prices=prices)


def escaped_table(table: Table) -> Table:
    """The table with every cell and header as literal Markdown text (model and provider names may
    come from the user's prices file)."""
    from benchmark.plumbing.escaping import markdown_text

    return dataclasses.replace(table, headers=tuple(markdown_text(h) for h in table.headers),
                               rows=tuple(tuple(markdown_text(c) for c in row) for row in table.rows),
                               note=markdown_text(table.note))


def _languages(results: Results) -> list[str]:
    reference = results.record.settings.reference
    present = {row.language for row in results.rows}
    ordered = [code for code in results.record.settings.languages if code in present]
    ordered += sorted(present - set(ordered))
    if reference in ordered:
        ordered.remove(reference)
        ordered.insert(0, reference)
    return ordered
