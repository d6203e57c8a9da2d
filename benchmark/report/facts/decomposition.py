"""The premium decomposed: how much of each language's premium its bytes explain (the byte premium,
no tokenizer involved) and how much the tokenizer adds (its factor), per production tokenizer, and
the finding that names where the tokenizer's share is largest. Rows of results format 4 or later
carry the figures (docs/methodology.md); older files draw and say nothing here.

The plot is plots/decomposition.py; the per-script medians of a many-language run are a table of
tables/scripts.py.
"""

from __future__ import annotations

import statistics

from benchmark.report.naming import join_words, language_name
from benchmark.report.view import ReportView


def decomposed_rows(results: ReportView, tokenizer: str) -> list:
    """The tokenizer's measured rows that carry the decomposition, the reference left out, lowest premium first."""
    rows = [row for row in results.rows if row.tokenizer == tokenizer and row.ok and row.language != results.reference
            and row.premium is not None and row.byte_premium is not None and row.tokenizer_factor is not None]
    return sorted(rows, key=lambda row: (row.premium, row.language))


def decomposed_groups(results: ReportView) -> list[list[str]]:
    """The production tokenizers with decomposed rows, those that count every language alike in one panel."""
    groups: dict[tuple, list[str]] = {}
    for tokenizer in results.production:
        rows = decomposed_rows(results, tokenizer)
        if rows:
            groups.setdefault(tuple((row.language, row.n_tokens) for row in rows), []).append(tokenizer)
    return list(groups.values())


def tokenizer_share_finding(results: ReportView) -> str | None:
    """The languages whose premium the production tokenizers' merges add most to, beyond the bytes:
    the largest median tokenizer's factor over the production tokenizers."""
    factors: dict[str, list[float]] = {}
    for tokenizer in results.production:
        for row in decomposed_rows(results, tokenizer):
            factors.setdefault(row.language, []).append(row.tokenizer_factor)
    if len(factors) < 2:
        return None
    median = {code: statistics.median(values) for code, values in factors.items()}
    top = sorted(median, key=lambda code: (-median[code], code))[:3]
    bytes_most = max(median, key=lambda code: (_median_of(results, code, "byte_premium"), code))
    named = join_words([f"{language_name(results, code)} ({median[code]:.2f}x)" for code in top])
    return (f"Beyond what their bytes explain, the production tokenizers charge most for {named}: the median "
            f"tokenizer's factor, each language's bytes per token against {language_name(results, results.reference)}'s. "
            f"{language_name(results, bytes_most)} pays most for its bytes alone (byte premium "
            f"{_median_of(results, bytes_most, 'byte_premium'):.2f}x, tokenizer's factor {median[bytes_most]:.2f}x).")


def _median_of(results: ReportView, code: str, name: str) -> float:
    values = [getattr(row, name) for tokenizer in results.production for row in decomposed_rows(results, tokenizer)
              if row.language == code and getattr(row, name) is not None]
    return statistics.median(values) if values else 0.0


