"""The section a report leads with: what differs by language, which no table over all languages
can tell. Per language, how far apart the vendors' current tokenizers are (most tokens over
fewest, with its interval), how their order there departs from their order over every language,
and what the default shortlist (each vendor's flagship, adapters/flagships.csv) costs there.
A run that measured fewer than two of the shortlist's tokenizers has no such section.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmark.pricing.prices.book import PriceBook, price_book
from benchmark.pricing.money import model_figures
from benchmark.report.facts.by_language import contenders, language_orders, overall_order
from benchmark.report.pages.decision_section import Decision
from benchmark.report.tables.by_language import order_table, shortlist_cost_table
from benchmark.results.rows import Results

KEY, TITLE = "by_language", "What differs by language"


def by_language(results: Results, languages: list[str], *, prices: Path | None = None,
                book: PriceBook | None = None) -> Decision | None:
    """The section's intro and tables for `languages` (report order), or None without two contenders."""
    shortlist = contenders(results)
    orders = language_orders(results, shortlist, languages)
    if not orders:
        return None
    overall = overall_order(results, shortlist)
    book = book or price_book(results, prices=prices)
    figures = model_figures(results, {f.tokenizer: (f.model,) for f in shortlist}, book.listings)
    tables = tuple(table for table in (order_table(results, orders, overall, shortlist),
                                       shortlist_cost_table(results, figures, shortlist, book.listings, languages))
                   if table.rows)
    return Decision(_intro(results, orders, overall, shortlist), tables, "")


def _intro(results, orders, overall, shortlist) -> str:
    n = len(orders)
    names = results.record.language_names
    first = Counter(order.vendors[0] for order in orders)
    changed = sum(order.vendors != overall for order in orders)
    clear = sum(bool(order.clear_reversals) for order in orders)
    narrow = min(orders, key=lambda o: (o.spread, o.language))
    wide = max(orders, key=lambda o: (o.spread, o.language))
    spreads = sorted(order.spread for order in orders)
    median = spreads[n // 2] if n % 2 else (spreads[n // 2 - 1] + spreads[n // 2]) / 2
    fewest = ", ".join(f"{vendor}'s in {count:,}" for vendor, count in first.most_common())
    vendors = ", ".join(f"{f.vendor} ({f.model})" for f in shortlist)
    return (f"Each vendor counted on its flagship's tokenizer ({vendors}). Over all {n:,} languages they rank "
            f"{', '.join(overall)} (fewest tokens first); language by language, the fewest tokens are {fewest}. "
            f"The vendors' order differs from the overall one in {changed:,} of {n:,} languages, and in {clear:,} the "
            f"sample tells a reversed pair apart (paired 95% interval). The most tokens over the fewest run from "
            f"{narrow.spread:.2f}x ({names.get(narrow.language, narrow.language)}) to {wide.spread:.2f}x "
            f"({names.get(wide.language, wide.language)}), median {median:.2f}x: what choosing a vendor costs or saves "
            "in one language is not what it does in another.")


def leading_by_language(results: Results, *, prices: Path | None = None) -> Decision | None:
    """`by_language` over the run's languages in report order."""
    from benchmark.report.view import ReportView

    return by_language(results, ReportView.of(results).languages, prices=prices)
