"""metrics.py on numbers small enough to check by hand."""

from __future__ import annotations

import math

import pytest

from benchmark.results import metrics


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


def test_throughput_and_embedding_params():
    assert metrics.throughput_mb_s(n_bytes=3_000_000, seconds=1.5) == 2.0  # decimal megabytes
    assert metrics.tokens_per_second(n_tokens=500, seconds=0.25) == 2000
    assert metrics.throughput_mb_s(n_bytes=10, seconds=0) is None
    assert metrics.embedding_params(vocab_size=4096) == 4096 * 768


def test_tokens_per_word_counts_the_tokens_overlapping_each_word():
    # "Once upon a time in Tokyo" under cl100k: Once| upon| a| time| in| Tokyo, each word one token
    # (the token may carry the space before the word).
    words = [(0, 4), (5, 9), (10, 11), (12, 16), (17, 19), (20, 25)]
    tokens = [(0, 4), (4, 9), (9, 11), (11, 16), (16, 19), (19, 25)]
    counts = metrics.tokens_per_word([a for a, _ in words], [b for _, b in words],
                                     [a for a, _ in tokens], [b for _, b in tokens])
    assert counts.tolist() == [1, 1, 1, 1, 1, 1]
    # "Tokyo" as " Tok" + "yo": continued; one token over two words: each is whole.
    assert metrics.tokens_per_word([1], [6], [0, 4], [4, 6]).tolist() == [2]
    assert metrics.tokens_per_word([0, 3], [2, 6], [0], [6]).tolist() == [1, 1]
    # Gaps between tokens (WordPiece drops spaces), a word no token overlaps (0), a token ending
    # where a word starts (not the word's), a zero-width piece inside a word (one of its tokens).
    assert metrics.tokens_per_word([0, 5, 10], [4, 9, 12], [0, 5], [4, 9]).tolist() == [1, 1, 0]
    assert metrics.tokens_per_word([4], [8], [0, 4], [4, 8]).tolist() == [1]
    assert metrics.tokens_per_word([0], [4], [0, 2, 2], [2, 2, 4]).tolist() == [3]
    # Any order: the same counts when the tokens come shuffled.
    assert metrics.tokens_per_word([1], [6], [4, 0], [6, 4]).tolist() == [2]
    assert metrics.fertility(n_tokens=9, n_words=6) == 1.5 and metrics.fertility(n_tokens=3, n_words=0) is None


def test_renyi_efficiency_on_a_hand_computed_distribution():
    # Tokens a a a b b c d: counts 3, 2, 1, 1 of 7, over a vocabulary of 4 entries.
    total = (3 / 7) ** 2.5 + (2 / 7) ** 2.5 + 2 * (1 / 7) ** 2.5  # sum p^alpha = 0.172862...
    entropy = math.log2(total) / (1 - 2.5)  # 1.653012 bits
    assert metrics.renyi_entropy([3, 2, 1, 1]) == pytest.approx(entropy)
    assert metrics.renyi_efficiency([3, 2, 1, 1], vocab_size=4) == pytest.approx(entropy / 2)
    assert metrics.renyi_efficiency([3, 2, 1, 1], vocab_size=4) == pytest.approx(0.826506, abs=1e-6)
    # Normalised by the whole vocabulary: unused entries lower it.
    assert metrics.renyi_efficiency([3, 2, 1, 1], vocab_size=100) == pytest.approx(entropy / math.log2(100))
    # Every entry used equally often is 1; one entry only is 0; no tokens, no figure.
    assert metrics.renyi_efficiency([5] * 8, vocab_size=8) == pytest.approx(1.0)
    assert metrics.renyi_efficiency([9], vocab_size=8) == 0.0
    assert metrics.renyi_efficiency([], vocab_size=8) is None
    assert metrics.renyi_efficiency([0, 3, 2, 1, 1], vocab_size=4) == metrics.renyi_efficiency([3, 2, 1, 1], vocab_size=4)


def test_gini_worst_to_best_and_mean_premium_by_hand():
    # [1, 2, 3, 4]: |differences| over ordered pairs sum to 20; 2 n^2 mean = 2 * 16 * 2.5 = 80.
    assert metrics.gini([1, 2, 3, 4]) == 0.25
    assert metrics.gini([7, 7, 7]) == 0.0
    assert metrics.gini([]) is None and metrics.gini([0, 0]) is None
    # cl100k_base on the six devtest files (eng, spa, rus, jpn, kor, ces totals).
    cl100k = [27_182, 41_974, 66_928, 61_583, 64_338, 57_116]
    assert metrics.gini(cl100k) == pytest.approx(0.1412, abs=5e-5)
    fair = metrics.fairness(cl100k, 0)
    assert fair.worst_to_best == pytest.approx(66_928 / 27_182)
    assert fair.mean_premium == pytest.approx(sum(cl100k[1:]) / 5 / 27_182)
    assert metrics.fairness([5], 0).mean_premium is None


def test_the_bootstraps_gini_is_the_definitions():
    import numpy as np

    rows = np.random.default_rng(1).integers(1, 100, size=(50, 6)).astype(float)
    ginis, worst, means = metrics._fairness_rows(rows, 2)
    assert ginis == pytest.approx([metrics.gini(list(row)) for row in rows])
    assert worst == pytest.approx([row.max() / row.min() for row in rows])
    assert means == pytest.approx([metrics.fairness(list(row), 2).mean_premium for row in rows])


def test_fairness_intervals_share_the_premiums_resamples():
    tokens = [10, 3, 7, 12, 5, 9, 4, 8, 6, 11]
    reference = [5, 4, 5, 6, 5, 4, 3, 6, 5, 5]
    # Two languages: the mean premium is the premium, so its interval is the premium's exactly.
    (intervals,) = metrics.fairness_cis([([reference, tokens], 0)])
    assert intervals["mean_premium"] == metrics.premium_ci(tokens, reference)
    point = metrics.fairness([sum(reference), sum(tokens)], 0)
    low, high = intervals["gini"]
    assert low <= point.gini <= high and intervals["worst_to_best"][0] <= point.worst_to_best
    # Seeded and independent of the chunk size; the same for a tokenizer whoever else is in the batch.
    assert metrics.fairness_cis([([reference, tokens], 0)], chunk_resamples=7) == [intervals]
    both = metrics.fairness_cis([([tokens, reference, tokens], 1), ([reference, tokens], 0)])
    assert both[1] == intervals
    # Languages that cost the same on every line: no spread at all.
    (same,) = metrics.fairness_cis([([reference, reference, reference], 0)])
    assert same["gini"] == (0.0, 0.0) and same["worst_to_best"] == (1.0, 1.0)
    with pytest.raises(ValueError):
        metrics.fairness_cis([([tokens, tokens[:3]], 0)])
