"""The premium per domain as a table: one line per tokenizer and language, a column per kind of
text with its 95% interval, and how far the domain moves it (the dearest domain's premium over the
cheapest's). The figures are the run's `domain_premiums` (results/domain_premiums.py).
"""

from __future__ import annotations

from benchmark.report.naming import fmt_ratio_interval, language_label, language_name
from benchmark.report.tables.table import Table
from benchmark.report.facts.domains import domain_names, domain_tokenizers
from benchmark.report.view import ReportView
from benchmark.results.domain_premiums import premium_spread


def domain_premium_table(results: ReportView) -> Table:
    """Per tokenizer and language, the premium on each domain's lines and the spread."""
    domains = domain_names(results)
    shown = domain_tokenizers(results)
    found = {(e.tokenizer, e.language, e.domain): e for e in results.domain_premiums}
    spread = premium_spread(results.domain_premiums)
    languages = [code for code in results.languages if any((t, code) in spread for t in shown)]
    lines = []
    for tokenizer in shown:
        for code in languages:
            if (tokenizer, code) not in spread:
                continue
            cells = []
            for domain in domains:
                entry = found.get((tokenizer, code, domain))
                cells.append(fmt_ratio_interval(entry.premium, entry.premium_ci_low, entry.premium_ci_high)
                             if entry else "")
            low, high = spread[(tokenizer, code)]
            lines.append((tokenizer, language_label(results, code), *cells,
                          f"{high.premium / low.premium:.2f}x ({high.domain} / {low.domain})"))
    n_lines = {e.domain: e.n_lines for e in results.domain_premiums}
    reference = language_name(results, results.reference)
    return Table(
        "domain_premium", f"Premium over {reference} by kind of text (95% CI)",
        ("tokenizer", "language", *(f"{d} ({n_lines[d]:,} lines)" for d in domains), "dearest / cheapest domain"),
        tuple(lines),
        note="Each domain's premium is the language's tokens over the reference's on that domain's lines only, "
             "with the paired bootstrap interval over those lines; the last column is how many times the premium "
             "on the dearest domain is the premium on the cheapest. Every figure: domain_premiums.csv.",
        numeric=(False, False, *(True for _ in domains), True),
    )
