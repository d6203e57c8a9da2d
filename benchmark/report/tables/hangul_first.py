"""The Korean question as a table (facts/hangul_first.py has the figures): one line per family
and size, the figures behind the plot and the finding.
"""

from __future__ import annotations

from benchmark.adapters.families import family_name
from benchmark.report.facts.hangul_first import korean_points
from benchmark.report.naming import fmt_rate_percent, fmt_ratio_interval, language_name
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView


def korean_table(results: ReportView):
    """The figures behind the plot and the finding, one line per family and size."""
    points = korean_points(results)
    reference = language_name(results, results.reference)
    lines = []
    for family, series in points.items():
        for p in series:
            low, high = p.premium_ci or (None, None)
            lines.append((family_name(family), f"{p.vocab_size:,}", f"{p.tokens_per_sentence:.1f}",
                          fmt_ratio_interval(p.premium, low, high, 3),
                          fmt_rate_percent(p.partial_char_rate),
                          f"{p.bytes_per_token:.2f}" if p.bytes_per_token is not None else "",
                          f"{p.others_vs_balanced:+.1%}" if p.others_vs_balanced is not None else "",
                          fmt_rate_percent(p.n_syllable_entries / p.vocab_size)
                          if p.n_syllable_entries is not None else ""))
    return Table(
        "korean", "Korean: Hangul syllables first, frequency merges, parity-aware merges",
        ("family", "vocab size", "Korean tokens / sentence", f"premium over {reference} (95% CI)",
         "partial-character tokens", "bytes / token", "other languages' tokens vs balanced",
         "syllable entries"),
        tuple(lines),
        note="Partial-character tokens are the boundary problem, bytes per token the compression one. The other "
             "languages' tokens are their devtest total against the balanced model of the same size; syllable "
             "entries are the Hangul-first model's vocabulary entries that are one whole syllable.",
        numeric=(False, True, True, True, True, True, True, True),
    )
