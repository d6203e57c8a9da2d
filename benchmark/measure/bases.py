"""Premiums over further base languages (`run --bases`): which bases a run takes, and their paired
bootstrap intervals, computed for every tokenizer, language and base at once.

The rows' premium is over the reference. Over a base B, language L's premium is n_tokens(L) /
n_tokens(B) on the same lines, and its interval is the rows' kind: a 95% percentile bootstrap
over sentences with the premium's seeded resamples (`metrics.resampled_sums`), so over the
reference this gives the rows' intervals exactly. One matrix of resampled sums serves every
tokenizer and language (one (resamples x lines) draw for the whole run); each base is then a
division and one quantile over a (resamples x languages) array per tokenizer.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from benchmark.results import metrics
from benchmark.results.bases import BasePremiums

# A run of this many languages or fewer takes every one as a base: a few hundred bytes each.
EVERY_LANGUAGE_UP_TO = 12
# A larger run's default: languages people use across borders, the ones a reader likeliest compares
# with (docs/methodology.md): the UN's six official languages, and Hindi, Portuguese, Indonesian and
# Swahili, the lingua francas of large regions. 9 bases besides English x 204 languages x 15
# tokenizers: 27,540 intervals, about 3 s and 2 MB (docs/measurements/2026-12-07-any-base.md).
DEFAULT_BASES = ("eng_Latn", "zho_Hans", "hin_Deva", "spa_Latn", "fra_Latn", "arb_Arab", "por_Latn", "rus_Cyrl",
                 "ind_Latn", "swh_Latn")


def default_bases(languages: Sequence[str], reference: str) -> tuple[str, ...]:
    """The reference first, then every language of a small run, or DEFAULT_BASES the run measured."""
    chosen = languages if len(languages) <= EVERY_LANGUAGE_UP_TO else [c for c in DEFAULT_BASES if c in languages]
    return tuple(dict.fromkeys([reference, *chosen]))


def resolve_bases(given: Sequence[str] | None, languages: Sequence[str], reference: str, *,
                  where: str) -> tuple[str, ...]:
    """`--bases` as codes of the run (hin -> hin_Deva; `all` is every language), the reference first;
    None: `default_bases`. A base must be measured: one line naming it otherwise."""
    from benchmark.corpora.flores import language_name
    from benchmark.corpora.languages import resolve_codes

    if not given:
        return default_bases(languages, reference)
    resolved = resolve_codes(given, list(languages), where=f"{where} (--bases)", name_of=language_name)
    return tuple(dict.fromkeys([reference, *resolved]))


def base_premiums(tokenizers: Sequence[str], languages: Sequence[str], bases: Sequence[str], reference: str,
                  tokens_per_line: Mapping[str, Mapping[str, Sequence[int]]]) -> BasePremiums:
    """The intervals over each base but the reference (whose are the rows'): `tokens_per_line` is
    tokenizer id -> language -> tokens per line, for the languages it counted (in run order)."""
    return BasePremiums(tuple(bases), reference, *premium_intervals(tokenizers, languages, bases[1:], tokens_per_line))


def premium_intervals(tokenizers: Sequence[str], languages: Sequence[str], bases: Sequence[str],
                      tokens_per_line: Mapping[str, Mapping[str, Sequence[int]]], *, confidence: float = 0.95):
    """(base -> tokenizer -> language -> (low, high), base -> tokenizer -> (mean premium, low, high))
    over `bases`. The interval is widened to hold its estimate (`metrics.containing`), as the rows'.
    The mean premium is over the languages but the base, for a tokenizer that counted every language
    (as the summaries' over the reference)."""
    import numpy as np

    tail = (1.0 - confidence) / 2
    cells = [(t, code) for t in tokenizers for code in languages if code in tokens_per_line.get(t, {})]
    intervals: dict = {base: {} for base in bases}
    means: dict = {base: {} for base in bases}
    by_length: dict[int, list[tuple[str, str]]] = {}
    for cell in cells:
        by_length.setdefault(len(tokens_per_line[cell[0]][cell[1]]), []).append(cell)
    for n_lines, group in by_length.items():
        if not n_lines:
            continue
        columns = np.empty((n_lines, len(group)), dtype=np.float64)
        for k, (t, code) in enumerate(group):
            columns[:, k] = tokens_per_line[t][code]
        sums = metrics.resampled_sums(columns)  # the rows' resamples: same seed, same number of lines
        totals = columns.sum(axis=0)
        where = {cell: k for k, cell in enumerate(group)}
        for t in dict.fromkeys(t for t, _ in group):
            codes = [code for code in languages if (t, code) in where]
            at = [where[(t, code)] for code in codes]
            block, block_totals = sums[:, at], totals[at]
            for base in bases:
                if base in codes and block_totals[codes.index(base)] > 0:
                    b = codes.index(base)
                    _one_base(block, block_totals, codes, b, tail, intervals[base].setdefault(t, {}))
                    mean = _mean_premium(block, block_totals, b, tail) if len(codes) == len(languages) > 1 else None
                    if mean is not None:
                        means[base][t] = mean
    return ({base: found for base, found in intervals.items() if found},
            {base: found for base, found in means.items() if found})


def _one_base(block, block_totals, codes: Sequence[str], b: int, tail: float, out: dict) -> None:
    """Every language's interval over the base at column `b` of one tokenizer's resampled sums."""
    import numpy as np

    over = block[:, b:b + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(over > 0, block / over, np.nan)  # subtle: a resample of the base's empty lines has no ratio
    quantile = np.quantile if not np.isnan(ratios).any() else np.nanquantile
    low, high = quantile(ratios, [tail, 1.0 - tail], axis=0)
    for k, code in enumerate(codes):
        estimate = metrics.ratio(float(block_totals[k]), float(block_totals[b]))
        if np.isfinite(low[k]):
            out[code] = metrics.containing((float(low[k]), float(high[k])), estimate)


def _mean_premium(block, block_totals, b: int, tail: float) -> tuple[float, float, float] | None:
    """The mean premium over the base at column `b` with its interval, as `metrics.fairness_cis`."""
    import numpy as np

    others = [k for k in range(block.shape[1]) if k != b]
    estimate = metrics.fairness([float(v) for v in block_totals], b).mean_premium
    with np.errstate(divide="ignore", invalid="ignore"):
        values = block[:, others].mean(axis=1) / block[:, b]
    values = values[np.isfinite(values)]
    if estimate is None or not len(values):
        return None
    low, high = metrics.containing(tuple(float(v) for v in np.quantile(values, [tail, 1.0 - tail])), estimate)
    return (estimate, low, high)


def run_base_premiums(tokenizers, plan, counted) -> BasePremiums:
    """`base_premiums` of a run: its measured tokenizers (`Adapter`s), on the languages each counted
    without failing (`counted`: id -> (counts by language, failures)), over `plan.bases`."""
    lines = {t.id: {code: counts.tokens_per_line for code, counts in counted[t.id][0].items()
                    if code not in counted[t.id][1]} for t in tokenizers}
    return base_premiums([t.id for t in tokenizers], plan.languages, plan.bases, plan.reference, lines)
