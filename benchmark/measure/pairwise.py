"""Per language, how many times one production tokenizer's tokens another's are, with the paired
interval: the ratios the report orders vendors by (results/pairwise.py holds and writes them)."""

from __future__ import annotations

from typing import Sequence

from benchmark.adapters import Adapter
from benchmark.results import metrics
from benchmark.results.pairwise import PairwiseRatio


def pairwise_ratios(tokenizers: Sequence[Adapter], languages: Sequence[str], counted) -> tuple[PairwiseRatio, ...]:
    """Per language, each pair of `tokenizers` (in run order) that both counted it: the ratio of
    their token totals with its paired interval, from the premium's resamples (`metrics.ratio_cis`)."""
    pairs, owners = [], []
    for code in languages:
        done = [(t.id, counted[t.id][0][code]) for t in tokenizers
                if code in counted[t.id][0] and code not in counted[t.id][1]]
        for k, (first, first_counts) in enumerate(done):
            for other, other_counts in done[k + 1:]:
                if sum(other_counts.tokens_per_line):
                    pairs.append((first_counts.tokens_per_line, other_counts.tokens_per_line))
                    owners.append((code, first, other))
    out = []
    for (code, first, other), (tokens, other_tokens), interval in zip(owners, pairs, metrics.ratio_cis(pairs)):
        n_tokens, other_n_tokens = sum(tokens), sum(other_tokens)
        if interval is not None and n_tokens:
            out.append(PairwiseRatio(code, first, other, n_tokens, other_n_tokens, n_tokens / other_n_tokens,
                                     *interval))
    return tuple(out)
