"""The Rényi efficiency's bootstrap interval, from the premium's resamples (`metrics.resample_weights`).

A resample's efficiency needs how often each token id occurs in it: with W the resample weights
(how often each line is drawn) and M the (lines x ids) counts of each id in each line, W @ M. Only
the ids the text uses matter, and most of them occur in a single line: such an id's resampled
count is its count there times that line's weight, so its share of sum(count ** alpha) is
W ** alpha times a per-line constant. The ids of several lines are summed per resample from the
(line, id, count) triples alone. Everything is exact in integers until the last powers.

    >>> low, high = renyi_efficiency_cis([([1, 1, 2, 2, 3], [3, 2], 4)])[0]  # lines "a a b" and "b c"
    >>> round(low, 4), round(high, 4)  # "a a b a a b" at 0.4092; the text itself at 0.7275
    (0.4092, 0.7275)
"""

from __future__ import annotations

import functools
from typing import Sequence

from benchmark.results import metrics

# Resamples at a time: 250 costs 0.7x the time of the premium's 50 (fewer calls per group of ids);
# the draws, and so every interval, are the same (docs/measurements/2026-12-02-run-speed.md).
CHUNK_RESAMPLES = 250


def renyi_efficiency_cis(cells: Sequence[tuple[Sequence[int], Sequence[int], int]], *, confidence: float = 0.95,
                         alpha: float = metrics.RENYI_ALPHA, n_resamples: int = metrics.BOOTSTRAP_RESAMPLES,
                         seed: int = metrics.BOOTSTRAP_SEED,
                         chunk_resamples: int = CHUNK_RESAMPLES) -> list[tuple[float, float] | None]:
    """Percentile intervals of `metrics.renyi_efficiency` for many cells, each (the ids of every
    line one after another, tokens per line, vocabulary size), every cell of the same number of
    lines over the same resamples. None without tokens or with a vocabulary under 2."""
    import numpy as np

    out: list[tuple[float, float] | None] = [None] * len(cells)
    by_length: dict[int, list[int]] = {}
    for index, (ids, tokens_per_line, vocab_size) in enumerate(cells):
        if sum(tokens_per_line) and vocab_size >= 2:
            by_length.setdefault(len(tokens_per_line), []).append(index)
    tail = (1.0 - confidence) / 2
    with _one_blas_thread():
        _intervals(cells, by_length, out, tail, alpha, n_resamples, seed, chunk_resamples)
    return out


def _intervals(cells, by_length, out, tail, alpha, n_resamples, seed, chunk_resamples) -> None:
    import numpy as np

    for n_lines, indices in by_length.items():
        parts = [_Parts(np.asarray(cells[i][0], dtype=np.int64), np.asarray(cells[i][1], dtype=np.int64), alpha)
                 for i in indices]
        sums = np.empty((n_resamples, len(indices)), dtype=np.float64)  # sum of count ** alpha per resample
        totals = np.empty((n_resamples, len(indices)), dtype=np.float64)  # tokens per resample
        for start, weights, by_line, powered in _chunks(n_lines, n_resamples, seed, chunk_resamples, alpha):
            stop = start + len(weights)
            for k, part in enumerate(parts):
                sums[start:stop, k] = part.powered_sums(weights, by_line, powered)
                totals[start:stop, k] = weights @ part.tokens_per_line
        for k, index in enumerate(indices):
            keep = totals[:, k] > 0
            entropy = np.log2(sums[keep, k] / totals[keep, k] ** alpha) / (1.0 - alpha)
            low, high = np.quantile(entropy / np.log2(cells[index][2]), [tail, 1.0 - tail])
            out[index] = (float(low), float(high))


@functools.cache
def _blas():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()  # finding the loaded BLAS takes milliseconds: once


def _one_blas_thread():
    """The dense product on one BLAS thread: threaded BLAS spins on a busy machine (5-15x the CPU
    here), and one thread is 4x faster than einsum (docs/measurements/2026-12-02-run-speed.md)."""
    return _blas().limit(limits=1, user_api="blas")


def _chunks(n_lines: int, n_resamples: int, seed: int, chunk_resamples: int, alpha: float):
    """The resamples' weights chunk by chunk, with their transpose in int32 and their powers; kept
    for the next cell of as many lines (a run's cells mostly have the same lines) when small."""
    if n_lines * n_resamples <= _KEPT_WEIGHTS:
        return _kept_chunks(n_lines, n_resamples, seed, chunk_resamples, alpha)
    return _drawn_chunks(n_lines, n_resamples, seed, chunk_resamples, alpha)


def _drawn_chunks(n_lines: int, n_resamples: int, seed: int, chunk_resamples: int, alpha: float):
    import numpy as np

    for start, weights in metrics.resample_weights(n_lines, n_resamples=n_resamples, seed=seed,
                                                   chunk_resamples=chunk_resamples):
        yield start, weights, np.ascontiguousarray(weights.T, dtype=np.int32), weights ** alpha


@functools.lru_cache(maxsize=1)
def _kept_chunks(n_lines: int, n_resamples: int, seed: int, chunk_resamples: int, alpha: float):
    return tuple(_drawn_chunks(n_lines, n_resamples, seed, chunk_resamples, alpha))


class _Parts:
    """One cell's counts, split for the resamples by how many lines each id occurs in: in one
    line, a per-line constant; in a few, gathered by their lines; in many, a dense matrix product."""

    def __init__(self, ids, tokens_per_line, alpha: float) -> None:
        import numpy as np

        self.alpha = alpha
        self.tokens_per_line = tokens_per_line.astype(np.float64)
        n_lines = len(tokens_per_line)
        line_of_token = np.repeat(np.arange(n_lines), tokens_per_line)
        _, id_of_token = np.unique(ids, return_inverse=True)  # the used ids, numbered 0..n_used-1
        pairs, counts = np.unique(id_of_token * n_lines + line_of_token, return_counts=True)  # by id, then line
        pair_ids, pair_lines = pairs // n_lines, pairs % n_lines
        lines_of_pair = np.bincount(pair_ids)[pair_ids]  # how many lines the pair's id occurs in
        single = lines_of_pair == 1
        self.single_per_line = np.bincount(pair_lines[single], weights=counts[single].astype(np.float64) ** alpha,
                                           minlength=n_lines)
        # An id in n lines costs n x chunk gathered, n_lines x chunk in the product, which is far faster per element.
        dense = ~single & (lines_of_pair * _DENSE_SHARE > n_lines)
        dense_ids = np.unique(pair_ids[dense], return_inverse=True)[1]
        self.dense = np.zeros((n_lines, int(dense_ids.max()) + 1 if dense.any() else 0))
        self.dense[pair_lines[dense], dense_ids] = counts[dense]
        self.few = []  # (lines, counts), each (ids x n) for the ids in exactly n lines, n rising
        few = np.flatnonzero(~single & ~dense)
        few = few[np.argsort(lines_of_pair[few], kind="stable")]  # by n, then as sorted: each id's lines together
        for pick in np.split(few, np.flatnonzero(np.diff(lines_of_pair[few])) + 1) if len(few) else ():
            n = int(lines_of_pair[pick[0]])
            self.few.append((pair_lines[pick].reshape(-1, n), counts[pick].reshape(-1, n, 1).astype(np.int32)))
        self.table = np.zeros(0)

    def powered_sums(self, weights, weights_by_line, powered_weights):
        """sum over ids of (resampled count) ** alpha for each resample of the chunk: `weights`
        (k x lines) as `metrics.resample_weights` gives them, `weights_by_line` their transpose in
        int32, `powered_weights` them ** alpha."""
        import numpy as np

        out = powered_weights @ self.single_per_line
        if self.dense.shape[1]:
            # Exact: whole numbers far below 2 ** 53, whatever order the product adds them in.
            # subtle: (ids x k) in Fortran order, as einsum gave it before: the sum over ids below
            # then adds in the same order (another layout moves the last bits)
            out += self._powered(np.rint(weights @ self.dense).T.astype(np.int64))
        for lines, counts in self.few:
            out += self._powered((weights_by_line[lines] * counts).sum(axis=1, dtype=np.int64))
        return out

    def _powered(self, resampled):
        """(ids x k) resampled counts -> each resample's sum of count ** alpha."""
        import numpy as np

        top = int(resampled.max())
        if top >= _TABLE_MAX:
            return (resampled.astype(np.float64) ** self.alpha).sum(axis=0)
        if len(self.table) <= top:  # subtle: a lookup is several times faster than ** on each count
            self.table = np.arange(2 * top + 2, dtype=np.float64) ** self.alpha
        return self.table[resampled].sum(axis=0)


_DENSE_SHARE = 8  # an id in more than 1/8 of the lines goes in the dense product
_TABLE_MAX = 1 << 22
_KEPT_WEIGHTS = 2_000_000  # resamples x lines kept between cells: 40 MB at most (20 bytes each)
