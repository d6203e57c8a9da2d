"""The answer per language: the cheapest model in money, the roomiest in context, and whether the
sample can tell the leader from the others.

Two models on the same tokenizer count the same tokens, so their order is their prices' (or
windows') exactly. Across tokenizers the counts carry sampling uncertainty. With the results'
pairwise ratios (a paired bootstrap over the same resampled sentences, results/pairwise.py), the
ratio of two models' figures is the ratio of their tokenizers' tokens times the ratio of their
prices (or windows over it), and the two are "tied" when its 95% interval includes 1. Results
without pairwise ratios fall back to each figure's own interval (its tokenizer's premium interval,
scaled to the figure) and call a tie when the two overlap: a cautious test, it calls more ties
than the paired one. The reference language's premium has no interval of its own, so in that
fallback there only equal figures tie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from benchmark.pricing.money import ModelFigures
from benchmark.results.pairwise import PairwiseRatio, ratio_between

PAIRED_RULE = ("tied: the 95% paired bootstrap interval of the ratio of the two figures includes 1 (the tokenizers' "
               "ratio of tokens on the same resampled sentences, times the ratio of prices or windows; two models "
               "on one tokenizer differ only by price or window, exactly)")
OVERLAP_RULE = ("tied: the 95% intervals of the two figures overlap (each model's interval is its tokenizer's premium "
                "interval, scaled to the figure; two models on one tokenizer differ only by price or window, exactly; "
                "the reference language has no interval, so there only equal figures tie)")


def tie_rule(pairwise: Sequence[PairwiseRatio]) -> str:
    """The rule the results allow: paired ratios when they carry them, else overlapping intervals."""
    return PAIRED_RULE if pairwise else OVERLAP_RULE


@dataclass(frozen=True)
class Leader:
    """The best model on one figure for one language, with those the sample cannot tell from it."""

    language: str
    best: ModelFigures
    tied: tuple[ModelFigures, ...]  # others the sample cannot tell from the best, best first
    next_best: ModelFigures | None  # the first model clearly behind on another tokenizer, if any
    lead: tuple[float, float, float] | None  # how far ahead the best is of next_best (>= 1), with bounds


def _own_interval(figures: ModelFigures, value: float, *, grows_with_tokens: bool) -> tuple[float, float]:
    premium, low, high = figures.premium, figures.premium_ci_low, figures.premium_ci_high
    if not premium or low is None or high is None or low == high:
        return value, value
    if grows_with_tokens:
        return value * low / premium, value * high / premium
    return value * premium / high, value * premium / low


def _ratio_interval(other: ModelFigures, value: float, best: ModelFigures, best_value: float,
                    pairwise: Sequence[PairwiseRatio], *, grows_with_tokens: bool) -> tuple[float, float, float]:
    """other's figure over best's, with its 95% interval: paired where the results have the pair,
    else from the two figures' own intervals (the widest ratio they allow)."""
    ratio = value / best_value
    paired = ratio_between(pairwise, best.language, other.tokenizer, best.tokenizer)
    if paired is not None:
        tokens, low, high = paired  # other's tokens over best's
        if grows_with_tokens:
            return ratio, ratio * low / tokens, ratio * high / tokens
        return ratio, ratio * tokens / high, ratio * tokens / low
    other_low, other_high = _own_interval(other, value, grows_with_tokens=grows_with_tokens)
    best_low, best_high = _own_interval(best, best_value, grows_with_tokens=grows_with_tokens)
    return ratio, other_low / best_high, other_high / best_low


def _leader(candidates: Sequence[ModelFigures], figure: Callable[[ModelFigures], float | None],
            pairwise: Sequence[PairwiseRatio], *, lower_is_better: bool, grows_with_tokens: bool) -> Leader | None:
    sign = 1 if lower_is_better else -1

    def key(value: float, c: ModelFigures) -> tuple[float, str]:  # the order: by the figure, then by name
        return sign * value, c.listing.model

    # The best, the tied in order and the first rival, with no sort or key of every model (a user's
    # prices file may name 200,000 of them).
    scored = [(value, c) for value, c in zip(map(figure, candidates), candidates) if value is not None]
    if not scored:
        return None
    best_value = (min if lower_is_better else max)(value for value, _ in scored)
    best = min((c for value, c in scored if value == best_value), key=lambda c: c.listing.model)
    tied, first_rival = [], None
    for value, other in scored:
        if other is best:
            continue
        if other.tokenizer == best.tokenizer:  # the same tokens: only the price or window differs
            if value == best_value:
                tied.append(other)
            continue
        if best_value == 0 or value == 0:  # a free model: the ratio is not defined, the order is
            if value == best_value:
                tied.append(other)
                continue
            lead = None
        else:
            ratio, low, high = _ratio_interval(other, value, best, best_value, pairwise,
                                               grows_with_tokens=grows_with_tokens)
            if low <= 1 <= high:
                tied.append(other)
                continue
            # how far ahead the best is, >= 1: the next one's cost over the best's, or the best's room over its
            lead = (ratio, low, high) if lower_is_better else (1 / ratio, 1 / high, 1 / low)
        if first_rival is None or key(value, other) < first_rival[0]:
            first_rival = (key(value, other), other, lead)
    tied.sort(key=lambda c: key(figure(c), c))
    _, next_best, lead = first_rival or (None, None, None)
    return Leader(best.language, best, tuple(tied), next_best, lead)


def cheapest(candidates: Sequence[ModelFigures], pairwise: Sequence[PairwiseRatio] = ()) -> Leader | None:
    """The model whose list price makes the measured text cheapest (priced models only)."""
    return _leader(candidates, attrgetter("devtest_usd"), pairwise, lower_is_better=True, grows_with_tokens=True)


def roomiest(candidates: Sequence[ModelFigures], pairwise: Sequence[PairwiseRatio] = ()) -> Leader | None:
    """The model whose window holds the most of the language's content (sentences)."""
    return _leader(candidates, attrgetter("context_sentences"), pairwise, lower_is_better=False,
                   grows_with_tokens=False)


def by_language(figures: Sequence[ModelFigures]) -> dict[str, list[ModelFigures]]:
    grouped: dict[str, list[ModelFigures]] = {}
    for item in figures:
        grouped.setdefault(item.language, []).append(item)
    return grouped
