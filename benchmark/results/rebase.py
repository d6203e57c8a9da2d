"""A run's results seen over another base language (`report --base`, `cost --base`): the same rows
with the premium, its interval and its decomposition over the base, the summaries' mean premium
over it, and the record naming it as the reference, so every table, plot and answer that says
"premium over English" says "over <base>" with the run's own figures (results/bases.py).

    rebased(load_results("reports/all-languages/results.json"), "hin")   # over hin_Deva

Nothing is estimated here: the intervals are the run's (`run --bases`), the ratios of counts are
the rows' counts divided (results/metrics.py). A base the run did not compute is one line.
"""

from __future__ import annotations

import dataclasses

from benchmark.results import metrics
from benchmark.results.bases import BasePremiums, carried_bases, premiums_over, resolve_base

# The row fields that are over the reference language, and so change with the base.
REBASED_FIELDS = ("premium", "premium_ci_low", "premium_ci_high", "byte_premium", "char_premium", "tokenizer_factor",
                  "information_floor", "excess_premium")


def rebased(results, base: str, *, where: str = "results"):
    """`results` over `base` (a code or one `resolve_base` reads, e.g. hin); the same object over its
    own reference. The returned results carry premiums over `base` only."""
    code = resolve_base(results, base, where=where)
    if code == carried_bases(results)[0]:
        return results
    over = premiums_over(results, code)
    base_rows = {row.tokenizer: row for row in results.rows if row.language == code and row.ok}
    rows = tuple(_row_over(row, base_rows.get(row.tokenizer), over.get(row.tokenizer, {})) for row in results.rows)
    means = results.bases.mean_premium.get(code, {})
    summaries = tuple(dataclasses.replace(summary, **dict(zip(("mean_premium", "mean_premium_ci_low",
                                                                  "mean_premium_ci_high"),
                                                                 means.get(summary.tokenizer, (None, None, None)))))
                      for summary in results.summaries)
    settings = results.record.settings
    settings = dataclasses.replace(settings, reference=code, premium=dataclasses.replace(settings.premium, reference=code))
    return dataclasses.replace(results, rows=rows, summaries=summaries, bases=BasePremiums(),
                               record=dataclasses.replace(results.record, settings=settings))


def _row_over(row, base_row, premiums: dict):
    """`row` with its REBASED_FIELDS over `base_row` (None: the tokenizer did not count the base)."""
    if not row.ok or base_row is None:
        return dataclasses.replace(row, **dict.fromkeys(REBASED_FIELDS))
    premium = metrics.ratio(row.n_tokens, base_row.n_tokens)
    _, low, high = premiums.get(row.language, (premium, None, None))
    byte_premium = metrics.byte_premium(n_bytes=row.n_bytes, reference_n_bytes=base_row.n_bytes)
    floor = (metrics.information_floor(n_compressed_bytes=row.n_compressed_bytes,
                                       reference_n_compressed_bytes=base_row.n_compressed_bytes)
             if row.n_compressed_bytes is not None and base_row.n_compressed_bytes is not None else None)
    return dataclasses.replace(
        row, premium=premium, premium_ci_low=low, premium_ci_high=high, byte_premium=byte_premium,
        char_premium=metrics.char_premium(n_chars=row.n_chars, reference_n_chars=base_row.n_chars),
        tokenizer_factor=(metrics.tokenizer_factor(premium=premium, byte_premium=byte_premium)
                          if premium is not None and byte_premium is not None else None),
        information_floor=floor,
        excess_premium=(metrics.excess_premium(premium=premium, information_floor=floor)
                        if premium is not None and floor is not None else None))
