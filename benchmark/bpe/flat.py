"""The first merges in numpy, on every word at once.

What this module adds: `FlatWords`, the words of a `pairs.Corpus` laid end to end in numpy arrays
(the id at each position, and links to the next and previous live position of the same word), and
`FlatWords.merge`, which merges a pair at all its positions with a few array operations. The first
merges of a run each touch thousands of words (the most frequent pairs: " t", "e ", the first two
bytes of a Hangul syllable); a word costs Python about a microsecond, and a merge here costs about
what a few hundred words do. `Corpus` merges here while pairs are found at many positions, then
turns the arrays into its str words (`FlatWords.words`) and goes on in Python (pairs.py). On the
six dev files that is the first ~400 merges, and it saves about 0.1 s of 0.5.

The merge rule is train.py's: left to right, non-overlapping. In a run `a a a a a` the pair (a, a)
starts at every position but the last; the merge takes the 1st and the 3rd, every other one of
each chain of overlapping starts.

What it leaves out: which pair to merge (pairs.py's queue), and counts past int64 (`Corpus` then
merges in Python from the start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Merges found at fewer positions than this, SMALL_IN_A_ROW times in a row, end the numpy phase:
# below it the arrays' fixed cost per merge (some thirty numpy calls) is more than the words'.
MIN_POSITIONS = 256
SMALL_IN_A_ROW = 8


class FlatWords:
    """Every word's ids end to end: `ids[i]` at position i (-1 once merged away), `next_at[i]` and
    `previous_at[i]` the live positions beside it in its word (-1 at the word's ends)."""

    def __init__(self, word_bytes: list[bytes], owner: np.ndarray, word_counts: np.ndarray,
                 token_weights: np.ndarray | None) -> None:
        import numpy as np

        lengths = np.fromiter(map(len, word_bytes), np.int64, len(word_bytes))
        ends = np.cumsum(lengths)
        self.ids = np.frombuffer(b"".join(word_bytes), np.uint8).astype(np.int32)
        self.next_at = np.arange(1, len(self.ids) + 1, dtype=np.int32)
        self.next_at[ends - 1] = -1
        self.previous_at = np.arange(-1, len(self.ids) - 1, dtype=np.int32)
        self.previous_at[ends - lengths] = -1
        self.owner, self.word_counts, self.token_weights = owner, word_counts, token_weights

    def merge(self, positions: np.ndarray, left: int, right: int, new_id: int, shift: int
              ) -> tuple[list[tuple[int, int, int, np.ndarray]], int]:
        """Merge (left, right) -> new_id wherever it starts at one of `positions` (stale ones are
        passed over); (the changes, as `Corpus` applies them: (old pair, new pair, count, positions
        of the new pair), the tokens saved)."""
        import numpy as np

        ids, next_at, previous_at = self.ids, self.next_at, self.previous_at
        starts = np.sort(positions)
        ends = next_at[starts]
        found = (ids[starts] == left) & (ends >= 0)
        starts, ends = starts[found], ends[found]
        found = ids[ends] == right
        starts, ends = starts[found], ends[found]
        if left == right and len(starts) > 1:
            # subtle: a chain of overlapping starts (`a a a a`) merges every other one, from its left
            chained = np.zeros(len(starts), bool)
            chained[1:] = starts[1:] == ends[:-1]
            index = np.arange(len(starts))
            chain_start = np.maximum.accumulate(np.where(chained, 0, index))
            kept = (index - chain_start) % 2 == 0
            starts, ends = starts[kept], ends[kept]
        before, after = previous_at[starts], next_at[ends]
        touching = np.zeros(len(starts), bool)  # the next occurrence starts right after this one
        touching[:-1] = after[:-1] == starts[1:]
        has_left = before >= 0
        has_left[1:] &= ~touching[:-1]
        has_right = (after >= 0) & ~touching
        counts = self.word_counts[self.owner[starts]]
        weights = counts if self.token_weights is None else self.token_weights[self.owner[starts]]
        n_saved = int(weights.sum())
        changes = [(x << shift | left, x << shift | new_id, n, at)
                   for x, n, at in _by_neighbour(ids[before[has_left]], counts[has_left], before[has_left])]
        changes += [(right << shift | y, new_id << shift | y, n, at)
                    for y, n, at in _by_neighbour(ids[after[has_right]], counts[has_right], starts[has_right])]
        if touching.any():
            # `A B A B`: the (B, A) between two occurrences becomes (C, C), where the left C is
            changes.append((right << shift | left, new_id << shift | new_id, int(counts[touching].sum()),
                            starts[touching]))
        ids[starts], ids[ends] = new_id, -1
        next_at[starts] = after
        previous_at[after[after >= 0]] = starts[after >= 0]
        return changes, n_saved

    def words(self) -> list[str]:
        """The words as `Corpus` keeps them in Python: a str of each word's live ids."""
        import numpy as np

        live = self.ids >= 0
        text = self.ids[live].astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
        bounds = np.r_[0, np.cumsum(np.bincount(self.owner[live], minlength=len(self.word_counts)))].tolist()
        return [text[begin:end] for begin, end in zip(bounds, bounds[1:])]


def _by_neighbour(neighbours: np.ndarray, counts: np.ndarray, born_at: np.ndarray) -> list[tuple]:
    """(neighbour id, its occurrences' total count, where its new pair starts), one per neighbour."""
    import numpy as np

    if not len(neighbours):
        return []
    order = np.argsort(neighbours, kind="stable")
    neighbours, counts, born_at = neighbours[order], counts[order], born_at[order]
    firsts = np.flatnonzero(np.r_[True, neighbours[1:] != neighbours[:-1]])
    totals = np.add.reduceat(counts, firsts).tolist()
    return list(zip(neighbours[firsts].tolist(), totals, np.split(born_at, firsts[1:])))
