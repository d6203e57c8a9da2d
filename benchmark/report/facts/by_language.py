"""What differs by language among the vendors' current tokenizers: per language, the fewest and
the most tokens per sentence and the ratio between them (with its paired interval), the vendors'
order there against their order over every language, and the reversals of that order the sample
can tell (the pair's 95% interval excludes 1). Plain Python over the rows and pairwise ratios.

The contenders are the default shortlist (adapters/flagships.csv: each vendor's flagship and its
tokenizer), so a vendor is counted on the tokenizer it sells today, not on an older one of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchmark.adapters.flagships import Flagship, flagships
from benchmark.results.pairwise import PairwiseRatio
from benchmark.results.rows import ResultRow, Results


@dataclass(frozen=True)
class Reversal:
    """`ahead` takes fewer tokens than `behind` on this language, though over every language it takes more."""

    ahead: str  # vendor
    behind: str  # vendor
    ratio: float  # ahead's tokens over behind's (< 1)
    ratio_ci_low: float | None
    ratio_ci_high: float | None

    @property
    def clear(self) -> bool:
        """The paired 95% interval excludes 1: the sample tells the two apart."""
        return self.ratio_ci_high is not None and self.ratio_ci_high < 1


@dataclass(frozen=True)
class LanguageOrder:
    language: str
    rows: tuple[ResultRow, ...]  # one per contender, fewest tokens first
    vendors: tuple[str, ...]  # the contenders' vendors in that order
    spread: float  # the most tokens over the fewest
    spread_ci_low: float | None
    spread_ci_high: float | None
    reversals: tuple[Reversal, ...]  # against the overall order, the largest first

    @property
    def clear_reversals(self) -> tuple[Reversal, ...]:
        return tuple(r for r in self.reversals if r.clear)


def contenders(results: Results, shortlist: Sequence[Flagship] | None = None) -> list[Flagship]:
    """The shortlist's flagships whose tokenizer these results measured."""
    measured = {row.tokenizer for row in results.rows if row.ok}
    return [f for f in (flagships() if shortlist is None else shortlist) if f.tokenizer in measured]


def _pairs(pairwise: Sequence[PairwiseRatio]) -> dict[tuple[str, str, str], tuple[float, float, float]]:
    """(language, tokenizer, other) -> tokenizer's tokens over other's with its interval, both ways round."""
    found = {}
    for entry in pairwise:
        found[entry.language, entry.tokenizer, entry.other] = (entry.ratio, entry.ratio_ci_low, entry.ratio_ci_high)
        found[entry.language, entry.other, entry.tokenizer] = (1 / entry.ratio, 1 / entry.ratio_ci_high,
                                                               1 / entry.ratio_ci_low)
    return found


def _measured(results: Results, shortlist: Sequence[Flagship]) -> dict[str, dict[str, ResultRow]]:
    """language -> vendor -> its flagship's row, for the languages every contender measured."""
    tokenizers = {f.tokenizer: f.vendor for f in shortlist}
    by_language: dict[str, dict[str, ResultRow]] = {}
    for row in results.rows:
        if row.tokenizer in tokenizers and row.ok and row.n_tokens > 0:
            by_language.setdefault(row.language, {})[tokenizers[row.tokenizer]] = row
    return {language: rows for language, rows in by_language.items() if len(rows) == len(shortlist)}


def overall_order(results: Results, shortlist: Sequence[Flagship]) -> tuple[str, ...]:
    """The vendors by their tokens summed over every language all of them measured, fewest first:
    what a table over all languages ranks them by."""
    totals: dict[str, int] = {f.vendor: 0 for f in shortlist}
    for rows in _measured(results, shortlist).values():
        for vendor, row in rows.items():
            totals[vendor] += row.n_tokens
    return tuple(sorted(totals, key=lambda vendor: (totals[vendor], vendor)))


def language_orders(results: Results, shortlist: Sequence[Flagship], languages: Sequence[str]) -> list[LanguageOrder]:
    """Per language of `languages` (those every contender measured), the contenders' order and spread."""
    if len(shortlist) < 2:
        return []
    overall = overall_order(results, shortlist)
    rank = {vendor: at for at, vendor in enumerate(overall)}
    tokenizer_of = {f.vendor: f.tokenizer for f in shortlist}
    measured, pairs = _measured(results, shortlist), _pairs(results.pairwise)
    found = []
    for language in languages:
        rows = measured.get(language)
        if rows is None:
            continue
        vendors = sorted(rows, key=lambda vendor: (rows[vendor].n_tokens, rank[vendor]))
        fewest, most = rows[vendors[0]], rows[vendors[-1]]
        spread = most.n_tokens / fewest.n_tokens
        _, low, high = pairs.get((language, most.tokenizer, fewest.tokenizer), (spread, None, None))
        reversals = []
        for at, ahead in enumerate(vendors):
            for behind in vendors[at + 1:]:
                if rank[ahead] > rank[behind] and rows[ahead].n_tokens < rows[behind].n_tokens:
                    ratio = rows[ahead].n_tokens / rows[behind].n_tokens
                    _, r_low, r_high = pairs.get((language, tokenizer_of[ahead], tokenizer_of[behind]),
                                                 (ratio, None, None))
                    reversals.append(Reversal(ahead, behind, ratio, r_low, r_high))
        reversals.sort(key=lambda r: (r.ratio, rank[r.ahead], rank[r.behind]))
        found.append(LanguageOrder(language, tuple(rows[v] for v in vendors), tuple(vendors), spread, low, high,
                                   tuple(reversals)))
    return found
