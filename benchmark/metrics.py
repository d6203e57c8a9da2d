"""Pure functions over token counts: no I/O, no tokenizers, no clocks.

measure.py encodes and times; these functions turn the counts into the numbers of a result row.
A ratio whose denominator is zero is None (the row shows "not applicable"), never inf or NaN.

Example, two sentences encoded into 3 and 5 tokens, 10 and 14 bytes:

>>> bytes_per_token(n_bytes=24, n_tokens=8)
3.0
>>> premium([3, 5], [2, 2])
2.0
"""

from __future__ import annotations

from typing import Iterable, Sequence

# The width of the embedding table the `embedding_params` column assumes (BERT-base, GPT-2 small).
EMBEDDING_DIM = 768

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20240601
BOOTSTRAP_CHUNK = 50  # resamples drawn at a time: memory O(lines x 50)
MEGABYTE = 1_000_000  # throughput_mb_s uses decimal megabytes: MB/s = bytes / seconds / 1e6


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
    return premium_cis([(tokens_per_line, reference_tokens_per_line)], confidence=confidence,
                       n_resamples=n_resamples, seed=seed)[0]


def premium_cis(
    pairs: Sequence[tuple[Sequence[int], Sequence[int]]],
    *,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    chunk_resamples: int = BOOTSTRAP_CHUNK,
) -> list[tuple[float, float] | None]:
    """`premium_ci` of many (tokens, reference tokens) pairs at once, each pair's lines resampled
    alike (the same seeded resamples for every row of a run: the interval must not depend on who
    else drew random numbers). Memory is O(lines x chunk_resamples), never O(lines x resamples):
    the resamples are drawn `chunk_resamples` at a time, as counts of each line in each resample,
    and every pair's sums are one matrix product with them. The draws are the ones a single
    (n_resamples x lines) draw would give, so the intervals do not depend on the chunk size."""
    import numpy as np

    out: list[tuple[float, float] | None] = [None] * len(pairs)
    by_length: dict[int, list[int]] = {}
    for index, (tokens, reference) in enumerate(pairs):
        if len(tokens) != len(reference):
            raise ValueError("premium needs the same lines in both languages")
        if len(tokens):
            by_length.setdefault(len(tokens), []).append(index)
    tail = (1.0 - confidence) / 2
    for n_lines, indices in by_length.items():
        # lines x pairs, the pair's tokens in one column and its reference's in the next
        columns = np.empty((n_lines, 2 * len(indices)), dtype=np.float64)
        for k, index in enumerate(indices):
            columns[:, 2 * k] = pairs[index][0]
            columns[:, 2 * k + 1] = pairs[index][1]
        sums = np.empty((n_resamples, 2 * len(indices)), dtype=np.float64)
        rng = np.random.default_rng(seed)
        rows = np.arange(chunk_resamples)
        for start in range(0, n_resamples, chunk_resamples):
            k = min(chunk_resamples, n_resamples - start)
            picks = rng.integers(0, n_lines, size=(k, n_lines))
            weights = np.zeros((k, n_lines), dtype=np.float64)
            np.add.at(weights, (np.repeat(rows[:k], n_lines), picks.ravel()), 1.0)
            sums[start:start + k] = weights @ columns  # exact: integers far below 2**53
        for k, index in enumerate(indices):
            tokens, reference = sums[:, 2 * k], sums[:, 2 * k + 1]
            keep = reference > 0
            if keep.any():
                low, high = np.quantile(tokens[keep] / reference[keep], [tail, 1.0 - tail])
                out[index] = (float(low), float(high))
    return out


def share(n_hits: int, n_total: int) -> float | None:
    """A rate: unk tokens over tokens, round-tripping sentences over sentences, ..."""
    return ratio(n_hits, n_total)


def count_in(ids_per_line: Iterable[Sequence[int]], wanted: frozenset[int] | set[int]) -> int:
    """How many tokens are in `wanted` (the unk id, the byte-fallback ids)."""
    if not wanted:
        return 0
    return sum(1 for ids in ids_per_line for token in ids if token in wanted)


def vocab_utilisation(ids_per_line: Iterable[Sequence[int]], vocab_size: int) -> float | None:
    """Share of the vocabulary that occurs at least once in these lines."""
    used = set()
    for ids in ids_per_line:
        used.update(ids)
    return ratio(len(used), vocab_size)


def throughput_mb_s(*, n_bytes: int, seconds: float) -> float | None:
    return None if seconds <= 0 else n_bytes / seconds / MEGABYTE


def tokens_per_second(*, n_tokens: int, seconds: float) -> float | None:
    return None if seconds <= 0 else n_tokens / seconds


def embedding_params(vocab_size: int, *, embedding_dim: int = EMBEDDING_DIM) -> int:
    """Parameters in the input embedding table: one `embedding_dim` row per vocabulary entry."""
    return vocab_size * embedding_dim
