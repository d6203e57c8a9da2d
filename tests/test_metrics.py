"""metrics.py on numbers small enough to check by hand."""

from __future__ import annotations

import pytest

from benchmark import metrics


def test_ratios_on_a_tiny_corpus():
    # Two English sentences: "Hi there" (8 bytes, 2 tokens) and "Bye" (3 bytes, 1 token).
    assert metrics.bytes_per_token(n_bytes=11, n_tokens=3) == pytest.approx(11 / 3)
    assert metrics.chars_per_token(n_chars=11, n_tokens=3) == pytest.approx(11 / 3)
    assert metrics.tokens_per_sentence(n_tokens=3, n_sentences=2) == 1.5
    # Zero denominators are "not applicable", never inf.
    assert metrics.bytes_per_token(n_bytes=5, n_tokens=0) is None
    assert metrics.share(0, 0) is None


def test_premium_is_the_ratio_of_sums_over_the_same_lines():
    # Japanese needs 3 + 5 = 8 tokens where English needs 2 + 2 = 4: twice as many.
    assert metrics.premium([3, 5], [2, 2]) == 2.0
    assert metrics.premium([2, 2], [2, 2]) == 1.0
    assert metrics.premium([1], [0]) is None
    with pytest.raises(ValueError):
        metrics.premium([1, 2], [1])


def test_premium_ci_collapses_when_every_line_has_the_same_ratio():
    # Every line costs exactly 1.5x: every resample gives 1.5, so the interval is (1.5, 1.5).
    low, high = metrics.premium_ci([3, 6, 9, 12], [2, 4, 6, 8])
    assert low == pytest.approx(1.5) and high == pytest.approx(1.5)


def test_premium_ci_brackets_the_estimate_is_seeded_and_depends_on_the_seed():
    tokens = [10, 3, 7, 12, 5, 9, 4, 8, 6, 11]
    reference = [5, 4, 5, 6, 5, 4, 3, 6, 5, 5]
    point = metrics.premium(tokens, reference)
    low, high = metrics.premium_ci(tokens, reference)
    assert low < point < high
    # The extremes of a resample are the smallest and largest per-line ratios.
    assert min(t / r for t, r in zip(tokens, reference)) <= low
    assert high <= max(t / r for t, r in zip(tokens, reference))
    assert metrics.premium_ci(tokens, reference) == (low, high)
    assert metrics.premium_ci(tokens, reference, seed=1) != (low, high)
    # A 50% interval sits inside the 95% one.
    low50, high50 = metrics.premium_ci(tokens, reference, confidence=0.5)
    assert low <= low50 <= high50 <= high
    assert metrics.premium_ci([], []) is None


def test_counts_and_vocab_utilisation():
    ids_per_line = [[0, 5, 5, 7], [7, 0, 1]]
    assert metrics.count_in(ids_per_line, frozenset({0})) == 2  # the unk id, twice
    assert metrics.count_in(ids_per_line, frozenset({5, 7})) == 4
    assert metrics.count_in(ids_per_line, frozenset()) == 0
    # Ids used: 0, 1, 5, 7 -> 4 of a 16-token vocabulary.
    assert metrics.vocab_utilisation(ids_per_line, 16) == 0.25


def test_throughput_and_embedding_params():
    assert metrics.throughput_mb_s(n_bytes=3_000_000, seconds=1.5) == 2.0  # decimal megabytes
    assert metrics.tokens_per_second(n_tokens=500, seconds=0.25) == 2000
    assert metrics.throughput_mb_s(n_bytes=10, seconds=0) is None
    assert metrics.embedding_params(4096) == 4096 * 768
