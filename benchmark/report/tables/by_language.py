"""The tables of what differs by language (facts/by_language.py): the vendors' current tokenizers'
order and spread per language, and what the default shortlist costs per language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from benchmark.adapters.flagships import Flagship
from benchmark.pricing.prices.database import Listing
from benchmark.pricing.money import ModelFigures
from benchmark.pricing.formats import fmt_interval, fmt_usd
from benchmark.report.facts.by_language import LanguageOrder
from benchmark.report.tables.table import Table
from benchmark.results.rows import Results

MAX_REVERSALS_SHOWN = 3  # per language; the rest are counted


def _label(results: Results, code: str) -> str:
    name = results.record.language_names.get(code)
    return f"{name} ({code})" if name and name != code else code


def _ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def _digits(high: float) -> int:
    """Three decimals where two would round a clear reversal's upper bound (< 1) up to 1.00."""
    return 3 if round(high, 2) >= 1 else 2


def _reversals(order: LanguageOrder) -> str:
    clear = order.clear_reversals
    shown = "; ".join(f"{r.ahead} before {r.behind}: "
                      + fmt_interval(r.ratio, r.ratio_ci_low, r.ratio_ci_high, digits=_digits(r.ratio_ci_high),
                                     label="") for r in clear[:MAX_REVERSALS_SHOWN])
    more = len(clear) - MAX_REVERSALS_SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def order_table(results: Results, orders: Sequence[LanguageOrder], overall: Sequence[str],
                shortlist: Sequence[Flagship]) -> Table:
    """Per language (the widest spread first): the vendors' fewest and most tokens, the ratio
    between them, the vendors' order there with each one's place over every language, and the
    reversals of that place the sample can tell."""
    place = {vendor: at + 1 for at, vendor in enumerate(overall)}
    rows = []
    for order in sorted(orders, key=lambda o: (-o.spread, o.language)):
        fewest, most = order.rows[0], order.rows[-1]
        moved = ", ".join(f"{vendor} {_ordinal(at + 1)}" + ("" if place[vendor] == at + 1 else
                                                            f" ({_ordinal(place[vendor])})")
                          for at, vendor in enumerate(order.vendors))
        spread = fmt_interval(order.spread, order.spread_ci_low, order.spread_ci_high, label="")
        rows.append((_label(results, order.language), f"{order.vendors[0]}: {fewest.tokens_per_sentence:.1f}",
                     f"{order.vendors[-1]}: {most.tokens_per_sentence:.1f}", spread, moved, _reversals(order)))
    overall_text = ", ".join(f"{vendor} {_ordinal(at + 1)}" for at, vendor in enumerate(overall))
    tokenizers = ", ".join(f"{f.vendor} {f.tokenizer} ({f.model})" for f in shortlist)
    return Table(
        "by_language_order", "Where the vendors' current tokenizers part, language by language",
        ("language", "fewest tokens / sentence", "most tokens / sentence", "most / fewest (95% CI)",
         "order here, fewest tokens first (place over all languages)",
         "reversals the sample tells apart: tokens ratio (95% CI)"),
        tuple(rows),
        note=(f"Each vendor on its flagship's tokenizer (the default shortlist, benchmark/adapters/flagships.csv): "
              f"{tokenizers}. Over all {len(orders)} languages, by tokens summed: {overall_text}. A place in brackets "
              "is the vendor's "
              "place over all languages where it differs here. A reversal is a vendor with fewer tokens here than one "
              "ahead of it over all languages, listed when the paired 95% bootstrap interval of their ratio excludes "
              "1 (the largest first); a changed order without one is within the sample's noise."),
        numeric=(False, True, True, True, False, False))


def _sources(shortlist: Sequence[Flagship]) -> str:
    return "; ".join(f"{f.vendor} {f.model} ({f.source}, read {f.read_on})" for f in shortlist)


def shortlist_cost_table(results: Results, figures: Sequence[ModelFigures], shortlist: Sequence[Flagship],
                         listings: Mapping[str, Listing], languages: Sequence[str]) -> Table:
    """Languages down, the shortlist's priced flagships across: each one's cost per million
    reference-equivalent words on that language, the cheapest there and the dearest over it."""
    reference = results.record.settings.reference or "eng_Latn"
    reference_name = results.record.language_names.get(reference, reference)
    priced = [f for f in shortlist if f.model in listings and listings[f.model].priced]
    cells = {(f.model, f.language): f for f in figures if f.usd_per_million_reference_words is not None}
    rows, cheapest_first = [], {}
    for language in languages:
        costs = {f.vendor: cells[f.model, language].usd_per_million_reference_words for f in priced
                 if (f.model, language) in cells}
        if len(costs) < 2:
            continue
        order = sorted(costs, key=lambda vendor: (costs[vendor], vendor))
        cheapest_first[order[0]] = cheapest_first.get(order[0], 0) + 1
        rows.append((_label(results, language), *(fmt_usd(costs.get(f.vendor)) for f in priced),
                     ", ".join(order), f"{costs[order[-1]] / costs[order[0]]:.1f}x"))
    headers = ("language", *(f"{f.model} ({listings[f.model].seller}, {fmt_usd(listings[f.model].input_usd_per_mtok)}/M)"
                             for f in priced),
               "cheapest first", "dearest / cheapest")
    sources = sorted({listings[f.model].source for f in priced})
    always = [vendor for vendor, count in cheapest_first.items() if count == len(rows)]
    same = (f" {always[0]}'s is the cheapest in every language here: the order after it, and how far the dearest is, "
            "is what changes." if always else "")
    return Table(
        "shortlist_cost", f"The default shortlist's cost per million {reference_name}-equivalent words", headers,
        tuple(rows),
        note=(f"Each vendor's flagship at its list input price (US dollars per million input tokens, /M); the "
              f"flagships, from benchmark/adapters/flagships.csv: {_sources(shortlist)}. A language's cost "
              f"is its tokens for what {reference_name} says in a million words, so a row shows what its "
              f"tokenization adds to each price.{same} Prices: {'; '.join(sources)}."),
        numeric=(False, *(True,) * len(priced), False, True))
