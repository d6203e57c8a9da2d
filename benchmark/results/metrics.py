"""Pure functions over token counts: no I/O, no tokenizers, no clocks.

counting.py encodes and timing.py times; these functions turn the counts into the numbers of a result row.
A ratio whose denominator is zero is None (the row shows "not applicable"), never inf or NaN.

Example, two sentences encoded into 3 and 5 tokens, 10 and 14 bytes:

>>> bytes_per_token(n_bytes=24, n_tokens=8)
3.0
>>> premium([3, 5], [2, 2])
2.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

# The width of the embedding table the `embedding_params` column assumes (BERT-base, GPT-2 small).
EMBEDDING_DIM = 768

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20240601
BOOTSTRAP_CHUNK = 50  # resamples drawn at a time: memory O(lines x 50)
# Ratios resampled at a time: memory O((lines + resamples) x 2,048 pairs), not 1 GB for the 31,000
# ratios of 204 languages; the sums are exact integers, so the intervals do not depend on it.
RATIO_BLOCK_PAIRS = 2048
MEGABYTE = 1_000_000  # throughput_mb_s uses decimal megabytes: MB/s = bytes / seconds / 1e6
RENYI_ALPHA = 2.5  # Zouhar et al. (2023) found alpha = 2.5 predicts downstream quality best


def ratio(numerator: float, denominator: float) -> float | None:
    return None if denominator == 0 else numerator / denominator


def bytes_per_token(*, n_bytes: int, n_tokens: int) -> float | None:
    return ratio(n_bytes, n_tokens)


def chars_per_token(*, n_chars: int, n_tokens: int) -> float | None:
    return ratio(n_chars, n_tokens)


def tokens_per_sentence(*, n_tokens: int, n_sentences: int) -> float | None:
    return ratio(n_tokens, n_sentences)


def premium(tokens_per_line: Sequence[int], reference_tokens_per_line: Sequence[int]) -> float | None:
    """Tokens this language needs over the tokens the reference needs for the same lines."""
    if len(tokens_per_line) != len(reference_tokens_per_line):
        raise ValueError("premium needs the same lines in both languages")
    return ratio(sum(tokens_per_line), sum(reference_tokens_per_line))


# The premium's decomposition (docs/methodology.md): premium = byte_premium x tokenizer_factor, and
# premium = information_floor x excess_premium. Each ratio compares the same lines in two languages.

def byte_premium(*, n_bytes: int, reference_n_bytes: int) -> float | None:
    """UTF-8 bytes of this language's text over the reference's: the script's and the content's
    share of the premium, before any tokenizer (Arnett et al. 2024's byte premium)."""
    return ratio(n_bytes, reference_n_bytes)


def char_premium(*, n_chars: int, reference_n_chars: int) -> float | None:
    return ratio(n_chars, reference_n_chars)


def tokenizer_factor(*, premium: float, byte_premium: float) -> float | None:
    """The reference's bytes per token over this language's: what the tokenizer's merges add to
    the byte premium, so that premium = byte_premium x tokenizer_factor."""
    return ratio(premium, byte_premium)


def information_floor(*, n_compressed_bytes: int, reference_n_compressed_bytes: int) -> float | None:
    """The text compressed by a general-purpose compressor (measure/floor.py), over the reference's
    compressed the same way: a premium the content itself seems to need, knowing no tokenizer."""
    return ratio(n_compressed_bytes, reference_n_compressed_bytes)


def excess_premium(*, premium: float, information_floor: float) -> float | None:
    """The premium over the information floor: what the tokenizer charges beyond the content."""
    return ratio(premium, information_floor)


def premium_ci(
    tokens_per_line: Sequence[int],
    reference_tokens_per_line: Sequence[int],
    *,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval for `premium`, resampling lines (paired: the same lines in
    both languages, since line N is the same content). Seeded, so the same counts give the same
    interval. None when there are no lines."""
    return ratio_cis([(tokens_per_line, reference_tokens_per_line)], confidence=confidence,
                     n_resamples=n_resamples, seed=seed)[0]


def ratio_cis(
    pairs: Sequence[tuple[Sequence[int], Sequence[int]]],
    *,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    chunk_resamples: int = BOOTSTRAP_CHUNK,
    block_pairs: int = RATIO_BLOCK_PAIRS,
) -> list[tuple[float, float] | None]:
    """Percentile bootstrap intervals of many ratios of sums over the same lines at once: a pair
    is (numerator per line, denominator per line), e.g. (tokens, the reference's tokens) for the
    premium, (tokens, words) for fertility, (tokens of A, tokens of B) for a pairwise ratio. Every
    pair's lines are resampled alike (the same seeded resamples for every row of a run: the
    interval must not depend on who else drew random numbers), by `resampled_sums`."""
    import numpy as np

    out: list[tuple[float, float] | None] = [None] * len(pairs)
    by_length: dict[int, list[int]] = {}
    for index, (tokens, reference) in enumerate(pairs):
        if len(tokens) != len(reference):
            raise ValueError("a ratio over lines needs the same lines in both")
        if len(tokens):
            by_length.setdefault(len(tokens), []).append(index)
    tail = (1.0 - confidence) / 2
    for n_lines, every_index in by_length.items():
        for first in range(0, len(every_index), block_pairs):
            indices = every_index[first:first + block_pairs]
            # lines x pairs, the pair's tokens in one column and its reference's in the next
            columns = np.empty((n_lines, 2 * len(indices)), dtype=np.float64)
            for k, index in enumerate(indices):
                columns[:, 2 * k] = pairs[index][0]
                columns[:, 2 * k + 1] = pairs[index][1]
            sums = resampled_sums(columns, n_resamples=n_resamples, seed=seed, chunk_resamples=chunk_resamples)
            _percentiles(sums, indices, tail, out)
    return out


def _percentiles(sums, indices: Sequence[int], tail: float, out: list) -> None:
    """Each pair's interval from its two columns of resampled sums."""
    import numpy as np

    for k, index in enumerate(indices):
        tokens, reference = sums[:, 2 * k], sums[:, 2 * k + 1]
        keep = reference > 0
        if keep.any():
            low, high = np.quantile(tokens[keep] / reference[keep], [tail, 1.0 - tail])
            out[index] = (float(low), float(high))


def containing(bounds: tuple[float, float] | None, estimate: float | None) -> tuple[float, float] | None:
    """An interval widened, if need be, to hold its estimate. subtle: the bootstrap's sums and the
    estimate's are computed apart, and where every resample gives the estimate (two lines, say)
    float rounding can put the low end a hair above it (0.18577075098814233 > 0.1857707509881423)."""
    if bounds is None or estimate is None or not math.isfinite(estimate):
        return bounds
    return (min(bounds[0], estimate), max(bounds[1], estimate))


def resampled_sums(columns, *, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                   chunk_resamples: int = BOOTSTRAP_CHUNK):
    """Bootstrap over lines: `columns` is (lines x m), e.g. each language's tokens per line; the
    result is (n_resamples x m), each column's sum over the lines of each resample. Every column
    is resampled alike (line N is the same content in every language), and two calls with the
    same seed and number of lines draw the same resamples, so every interval of a run uses the
    same ones. Memory is O(lines x chunk_resamples), never O(lines x resamples): the resamples
    are drawn `chunk_resamples` at a time, as counts of each line in each resample, and the sums
    are one matrix product with them. The draws are the ones a single (n_resamples x lines) draw
    would give, so the sums do not depend on the chunk size."""
    import numpy as np

    columns = np.asarray(columns, dtype=np.float64)
    sums = np.empty((n_resamples, columns.shape[1]), dtype=np.float64)
    for start, weights in resample_weights(columns.shape[0], n_resamples=n_resamples, seed=seed,
                                           chunk_resamples=chunk_resamples):
        sums[start:start + len(weights)] = weights @ columns  # exact: integers far below 2**53
    return sums


def resample_weights(n_lines: int, *, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                     chunk_resamples: int = BOOTSTRAP_CHUNK):
    """The bootstrap's resamples of `n_lines` lines, `chunk_resamples` at a time: (first resample,
    (k x n_lines) array of how often each line is drawn in each), the same for the same seed."""
    import numpy as np

    rng = np.random.default_rng(seed)
    for start in range(0, n_resamples, chunk_resamples):
        k = min(chunk_resamples, n_resamples - start)
        picks = rng.integers(0, n_lines, size=(k, n_lines))
        offsets = (np.arange(k) * n_lines)[:, None]  # one bincount for the chunk: each resample's own lines
        counts = np.bincount((picks + offsets).ravel(), minlength=k * n_lines)
        yield start, counts.reshape(k, n_lines).astype(np.float64)


def share(n_hits: int, n_total: int) -> float | None:
    """A rate: unk tokens over tokens, round-tripping sentences over sentences, ..."""
    return ratio(n_hits, n_total)


# The rates of a result row, each by the names of the counts it divides (results/rows.py
# declares which column each computes; a count that is None, not applicable, makes it None).

def unk_rate(*, n_unk: int, n_tokens: int) -> float | None:
    return share(n_unk, n_tokens)


def byte_fallback_rate(*, n_byte_fallback: int, n_tokens: int) -> float | None:
    return share(n_byte_fallback, n_tokens)


def partial_char_rate(*, n_partial_char: int, n_tokens: int) -> float | None:
    return share(n_partial_char, n_tokens)


def roundtrip_rate(*, n_roundtrip: int, n_sentences: int) -> float | None:
    return share(n_roundtrip, n_sentences)


def whole_word_rate(*, n_words_whole: int, n_words: int) -> float | None:
    return share(n_words_whole, n_words)


def continued_word_rate(*, n_words_continued: int, n_words: int) -> float | None:
    return share(n_words_continued, n_words)


def vocab_utilisation(*, n_used_ids: int, vocab_size: int) -> float | None:
    """Share of the vocabulary that occurs at least once in the text."""
    return ratio(n_used_ids, vocab_size)


def throughput_mb_s(*, n_bytes: int, seconds: float) -> float | None:
    return None if seconds <= 0 else n_bytes / seconds / MEGABYTE


def tokens_per_second(*, n_tokens: int, seconds: float) -> float | None:
    return None if seconds <= 0 else n_tokens / seconds


def embedding_params(*, vocab_size: int, embedding_dim: int = EMBEDDING_DIM) -> int:
    """Parameters in the input embedding table: one `embedding_dim` row per vocabulary entry."""
    return vocab_size * embedding_dim


# ---------------------------------------------------------------- words


def fertility(*, n_tokens: int, n_words: int) -> float | None:
    """Tokens per word: every token of the text over its words (benchmark.words.segmenters)."""
    return ratio(n_tokens, n_words)


def tokens_per_word(word_starts, word_ends, token_starts, token_ends):
    """How many tokens overlap each word: a token overlaps word [s, e) when its span [a, b) has
    a < e and b > s (both in one unit, e.g. UTF-8 bytes). A word with 1 is whole (its one token
    may also hold a space before it or part of another word); 2 or more, it is continued. Spans
    may come in any order, overlap or leave gaps: with a word's s < e, the tokens with b <= s are
    among those with a < e, so the count is #(a < e) - #(b <= s), two binary searches.

    >>> tokens_per_word([0, 5], [4, 9], [0, 4, 7], [4, 7, 9]).tolist()  # "Once upon": Once| up|on
    [1, 2]
    """
    import numpy as np

    starts = np.sort(np.asarray(token_starts, dtype=np.int64))
    ends = np.sort(np.asarray(token_ends, dtype=np.int64))
    return (np.searchsorted(starts, np.asarray(word_ends, dtype=np.int64), side="left")
            - np.searchsorted(ends, np.asarray(word_starts, dtype=np.int64), side="right"))


# ---------------------------------------------------------------- the token distribution


def renyi_entropy(token_frequencies: Iterable[int], *, alpha: float = RENYI_ALPHA) -> float | None:
    """Rényi entropy of order `alpha` in bits, of the distribution these counts are:
    H_a = log2(sum p^a) / (1 - a). None without tokens."""
    import math

    values = [c for c in token_frequencies if c > 0]
    total = sum(values)
    if not total:
        return None
    return math.log2(sum((c / total) ** alpha for c in values)) / (1.0 - alpha)


def renyi_efficiency(token_frequencies: Iterable[int], *, vocab_size: int, alpha: float = RENYI_ALPHA) -> float | None:
    """Rényi efficiency (Zouhar et al. 2023): H_alpha of the token distribution over log2 of the
    vocabulary size, the entropy of a uniform distribution over the whole vocabulary, so 1 is
    every entry used equally often and unused entries lower it. (tokenization-scorer divides by
    the types observed instead, which makes a small sample look efficient.)

    >>> round(renyi_efficiency([3, 2, 1, 1], vocab_size=4), 6)  # tokens a a a b b c d
    0.826506
    """
    import math

    entropy = renyi_entropy(token_frequencies, alpha=alpha)
    if entropy is None or vocab_size < 2:
        return None
    return entropy / math.log2(vocab_size)


# ---------------------------------------------------------------- fairness over languages


def gini(values: Sequence[float]) -> float | None:
    """Gini coefficient: sum_i sum_j |x_i - x_j| / (2 n^2 mean(x)); 0 when every language costs
    the same, up to (n - 1) / n when one language holds every token. None without values.

    >>> gini([1, 1, 1, 1]), gini([0, 0, 0, 4])
    (0.0, 0.75)
    """
    n = len(values)
    total = sum(values)
    if n == 0 or total == 0:
        return None
    return sum(abs(a - b) for a in values for b in values) / (2 * n * total)


@dataclass(frozen=True)
class Fairness:
    """How evenly a tokenizer charges the languages for the same content (their n_tokens)."""

    gini: float | None
    worst_to_best: float | None  # most tokens over fewest
    mean_premium: float | None  # mean over the languages but the reference of n_tokens / reference's


def fairness(totals: Sequence[float], reference: int) -> Fairness:
    """`totals` are the languages' token counts of the same lines; `reference` indexes the
    premium's reference among them.

    >>> fairness([10, 20, 30], 0)
    Fairness(gini=0.2222222222222222, worst_to_best=3.0, mean_premium=2.5)
    """
    others = [t for k, t in enumerate(totals) if k != reference]
    mean_premium = None
    if others and totals[reference] > 0:
        mean_premium = sum(others) / len(others) / totals[reference]
    return Fairness(gini(totals), ratio(max(totals), min(totals)) if totals else None, mean_premium)


def _fairness_rows(sums, reference: int):
    """`fairness` of each row of a (resamples x languages) array, as three arrays."""
    import numpy as np

    n = sums.shape[1]
    ordered = np.sort(sums, axis=1)
    totals = ordered.sum(axis=1)
    ranks = np.arange(1, n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        # the sorted form of the double sum: G = 2 sum_i i x_(i) / (n sum x) - (n + 1) / n
        ginis = 2.0 * (ordered * ranks).sum(axis=1) / (n * totals) - (n + 1.0) / n
        worst = ordered[:, -1] / ordered[:, 0]
        others = np.delete(sums, reference, axis=1)
        means = others.mean(axis=1) / sums[:, reference] if n > 1 else np.full(len(sums), np.nan)
    return ginis, worst, means


def fairness_cis(groups: Sequence[tuple[Sequence[Sequence[int]], int]], *, confidence: float = 0.95,
                 n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                 chunk_resamples: int = BOOTSTRAP_CHUNK) -> list[dict[str, tuple[float, float] | None]]:
    """Percentile bootstrap intervals of `fairness` ("gini", "worst_to_best", "mean_premium") of
    many tokenizers at once. A group is (each language's tokens per line, the reference's index):
    the same lines in every language. Lines are resampled with the premium's resamples
    (`resampled_sums`, same seed), so the intervals of a run share their resamples."""
    import numpy as np

    names = ("gini", "worst_to_best", "mean_premium")
    out: list[dict[str, tuple[float, float] | None]] = [dict.fromkeys(names) for _ in groups]
    by_length: dict[int, list[int]] = {}
    for index, (languages, _) in enumerate(groups):
        lengths = {len(tokens) for tokens in languages}
        if len(lengths) > 1:
            raise ValueError("fairness needs the same lines in every language")
        if lengths and lengths != {0}:
            by_length.setdefault(lengths.pop(), []).append(index)
    tail = (1.0 - confidence) / 2
    for n_lines, indices in by_length.items():
        columns = np.column_stack([np.asarray(tokens, dtype=np.float64)
                                   for index in indices for tokens in groups[index][0]])
        sums = resampled_sums(columns, n_resamples=n_resamples, seed=seed, chunk_resamples=chunk_resamples)
        first = 0
        for index in indices:
            languages, reference = groups[index]
            block = sums[:, first:first + len(languages)]
            first += len(languages)
            for name, values in zip(names, _fairness_rows(block, reference)):
                values = values[np.isfinite(values)]
                if len(values):
                    low, high = np.quantile(values, [tail, 1.0 - tail])
                    out[index][name] = (float(low), float(high))
    return out
