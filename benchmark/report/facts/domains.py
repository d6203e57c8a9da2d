"""The premium per domain, as figures: which tokenizers the domain section shows, its domains, and
per language the tokenizer on which the kind of text moves the premium most (plain Python over the
run's `domain_premiums`)."""

from __future__ import annotations

from benchmark.report.view import ReportView
from benchmark.results.domain_premiums import premium_spread


def domain_tokenizers(results: ReportView) -> list[str]:
    """The tokenizers the section shows: the production ones with domain premiums, else every one."""
    measured = {entry.tokenizer for entry in results.domain_premiums}
    production = [t for t in results.production if t in measured]
    return production or [t for t in results.tokenizers if t in measured]


def domain_names(results: ReportView) -> list[str]:
    return sorted({entry.domain for entry in results.domain_premiums})


def largest_moves(results: ReportView) -> list[tuple[str, str, float, str, str]]:
    """Per language, the tokenizer on which the domain moves the premium most: (language, tokenizer,
    dearest / cheapest, dearest domain, cheapest domain), the largest first."""
    shown = set(domain_tokenizers(results))
    best: dict[str, tuple[str, str, float, str, str]] = {}
    for (tokenizer, code), (low, high) in premium_spread(results.domain_premiums).items():
        if tokenizer in shown:
            move = (code, tokenizer, high.premium / low.premium, high.domain, low.domain)
            if code not in best or move[2] > best[code][2]:
                best[code] = move
    return sorted(best.values(), key=lambda move: -move[2])
