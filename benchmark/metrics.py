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

import functools
from typing import Iterable, Sequence

# The width of the embedding table the `embedding_params` column assumes (BERT-base, GPT-2 small).
EMBEDDING_DIM = 768

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20240601
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
    import numpy as np

    n_lines = len(tokens_per_line)
    if n_lines != len(reference_tokens_per_line):
        raise ValueError("premium needs the same lines in both languages")
    if n_lines == 0:
        return None
    picks = _resample_indices(n_lines, n_resamples, seed)
    tokens = np.asarray(tokens_per_line, dtype=np.int64)[picks].sum(axis=1)
    reference = np.asarray(reference_tokens_per_line, dtype=np.int64)[picks].sum(axis=1)
    keep = reference > 0
    if not keep.any():
        return None
    estimates = tokens[keep] / reference[keep]
    tail = (1.0 - confidence) / 2
    low, high = np.quantile(estimates, [tail, 1.0 - tail])
    return float(low), float(high)


@functools.lru_cache(maxsize=8)
def _resample_indices(n_lines: int, n_resamples: int, seed: int):
    """The same resamples for every row of a run (a private seeded generator: the interval must
    not depend on who else drew random numbers)."""
    import numpy as np

    picks = np.random.default_rng(seed).integers(0, n_lines, size=(n_resamples, n_lines))
    picks.flags.writeable = False
    return picks


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
