"""Per domain, each tokenizer's premium over the reference on that domain's lines only, with the
paired interval (`metrics.ratio_cis`, the premium's seeded resamples over the domain's lines);
results/domain_premiums.py holds and writes them."""

from __future__ import annotations

from typing import Sequence

from benchmark.adapters import Adapter
from benchmark.corpora.domains import domain_line_indices
from benchmark.results import metrics
from benchmark.results.domain_premiums import DomainPremium


def domain_premiums(tokenizers: Sequence[Adapter], languages: Sequence[str], reference: str,
                    labels: Sequence[str], counted) -> tuple[DomainPremium, ...]:
    """For every domain of `labels` (a label per measured line), each tokenizer's premium of each
    language but `reference` that it counted in full, in run order; none without labels."""
    if not labels:
        return ()
    by_domain = domain_line_indices(tuple(labels))
    pairs, owners = [], []
    for tokenizer in tokenizers:
        counts, failed = counted[tokenizer.id]
        if reference not in counts or reference in failed:
            continue
        reference_tokens = counts[reference].tokens_per_line
        if len(reference_tokens) != len(labels):
            continue  # counted on other lines than the labelled ones (cannot happen in a run: a guard)
        for code in languages:
            if code == reference or code not in counts or code in failed:
                continue
            tokens = counts[code].tokens_per_line
            for domain, keep in by_domain.items():
                domain_reference = [reference_tokens[i] for i in keep]
                if sum(domain_reference):
                    pairs.append(([tokens[i] for i in keep], domain_reference))
                    owners.append((domain, code, tokenizer.id))
    out = []
    for (domain, code, tokenizer), (tokens, reference_tokens), interval in zip(owners, pairs, metrics.ratio_cis(pairs)):
        n_tokens, reference_n_tokens = sum(tokens), sum(reference_tokens)
        if interval is not None and n_tokens:
            premium = n_tokens / reference_n_tokens
            low, high = metrics.containing(interval, premium)
            out.append(DomainPremium(domain, code, tokenizer, len(tokens), n_tokens, reference_n_tokens,
                                     premium, low, high))
    return tuple(out)
