"""The answer per language: the cheapest model in money, the roomiest in context, and whether the
sample can tell the leader from the others.

Two models on the same tokenizer count the same tokens, so their order is their prices' (or
windows') exactly. Two tokenizers' counts carry sampling uncertainty: each model's figure gets the
interval its tokenizer's premium has (the premium's 95% bootstrap interval over sentences, scaled
to the figure: a cost moves with the tokens, a capacity against them), and two models are "tied"
when their intervals overlap. Overlapping marginal intervals is a cautious test (it calls more ties
than a paired interval of the ratio would). The reference language's premium is 1 by definition,
with no interval; there two tokenizers are tied only when their figures are equal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmark.pricing.figures import ModelFigures

TIE_RULE = ("tied: the 95% intervals of the two figures overlap (each model's interval is its tokenizer's premium "
            "interval, scaled to the figure; two models on one tokenizer differ only by price or window, exactly; "
            "the reference language has no interval, so there only equal figures tie)")


@dataclass(frozen=True)
class Leader:
    """The best model on one figure for one language, with those the sample cannot tell from it."""

    language: str
    best: ModelFigures
    tied: tuple[ModelFigures, ...]  # others whose interval overlaps the best's, best first
    next_best: ModelFigures | None  # the first model clearly behind on another tokenizer, if any
    lead: tuple[float, float, float] | None  # how far ahead the best is of next_best (>= 1), with bounds


def _interval(figures: ModelFigures, value: float, *, grows_with_tokens: bool) -> tuple[float, float]:
    premium, low, high = figures.premium, figures.premium_ci_low, figures.premium_ci_high
    if not premium or low is None or high is None or low == high:
        return value, value
    if grows_with_tokens:
        return value * low / premium, value * high / premium
    return value * premium / high, value * premium / low


def _leader(candidates: Sequence[ModelFigures], figure: Callable[[ModelFigures], float | None], *,
            lower_is_better: bool, grows_with_tokens: bool) -> Leader | None:
    scored = [(figure(c), c) for c in candidates if figure(c) is not None]
    if not scored:
        return None
    scored.sort(key=lambda pair: (pair[0] if lower_is_better else -pair[0], pair[1].model))
    best_value, best = scored[0]
    best_low, best_high = _interval(best, best_value, grows_with_tokens=grows_with_tokens)
    tied, behind = [], []
    for value, other in scored[1:]:
        if other.tokenizer == best.tokenizer:
            same = value == best_value
        else:
            low, high = _interval(other, value, grows_with_tokens=grows_with_tokens)
            same = low <= best_high and best_low <= high
        (tied if same else behind).append((value, other))
    # The next that matters is on another tokenizer: the same tokens at a higher price is no contest.
    rivals = [(value, other) for value, other in behind if other.tokenizer != best.tokenizer]
    lead = None
    if rivals:
        value, other = rivals[0]
        low, high = _interval(other, value, grows_with_tokens=grows_with_tokens)
        if lower_is_better:  # how many times the leader's cost the next one's is
            lead = (value / best_value, low / best_high, high / best_low)
        else:  # how many times the next one's room the leader's is
            lead = (best_value / value, best_low / high, best_high / low)
    return Leader(best.language, best, tuple(c for _, c in tied), rivals[0][1] if rivals else None, lead)


def cheapest(candidates: Sequence[ModelFigures]) -> Leader | None:
    """The model whose list price makes the measured text cheapest (priced models only)."""
    return _leader(candidates, lambda c: c.devtest_usd, lower_is_better=True, grows_with_tokens=True)


def roomiest(candidates: Sequence[ModelFigures]) -> Leader | None:
    """The model whose window holds the most of the language's content (sentences)."""
    return _leader(candidates, lambda c: c.context_sentences, lower_is_better=False, grows_with_tokens=False)


def by_language(figures: Sequence[ModelFigures]) -> dict[str, list[ModelFigures]]:
    grouped: dict[str, list[ModelFigures]] = {}
    for item in figures:
        grouped.setdefault(item.language, []).append(item)
    return grouped
