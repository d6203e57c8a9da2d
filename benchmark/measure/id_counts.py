"""How often each token id occurred in some text: what a row's vocabulary use, Rényi efficiency and
unknown, byte-fallback and partial-character tallies are counted from.

A Counter would do, at several times the memory: a 204-language run keeps one for each of its
10,404 rows, about 1.2 GB as Counters (docs/measurements/2026-12-06-run-memory.md). Here the ids
and their counts are two arrays of 8-byte integers, the ids in the order they were first seen, as
a Counter keeps them: a sum over the counts (the Rényi efficiency, a float) adds its terms in the
same order and gives the same last digit.

    >>> IdCounts.of_ids([7, 3, 7]) + IdCounts.of_ids([5, 3])
    IdCounts(ids=[7, 3, 5], counts=[2, 2, 1])
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Collection, Iterable, Sequence


@dataclass(frozen=True)
class IdCounts:
    ids: array = field(default_factory=lambda: array("q"))  # each id once, in the order first seen
    counts: array = field(default_factory=lambda: array("q"))  # how often each occurred, >= 1

    def __post_init__(self) -> None:
        if not (isinstance(self.ids, array) and isinstance(self.counts, array)
                and self.ids.typecode == self.counts.typecode == "q" and len(self.ids) == len(self.counts)):
            raise ValueError("token id counts need two arrays of 8-byte integers of the same length")

    @classmethod
    def of_ids(cls, ids: Sequence[int]) -> IdCounts:
        """The counts of a stream of token ids."""
        import numpy as np

        unique, first, counts = np.unique(np.asarray(ids, dtype=np.int64), return_index=True, return_counts=True)
        return cls._first_seen_first(unique, first, counts)

    @classmethod
    def pooled(cls, parts: Iterable[IdCounts]) -> IdCounts:
        """The counts of the texts of `parts` one after another (a Counter's `+` and `update`)."""
        import numpy as np

        parts = list(parts)
        if len(parts) <= 1:
            return parts[0] if parts else cls()
        ids = np.concatenate([np.frombuffer(part.ids, dtype=np.int64) for part in parts])
        counts = np.concatenate([np.frombuffer(part.counts, dtype=np.int64) for part in parts])
        unique, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        totals = np.zeros(len(unique), dtype=np.int64)
        np.add.at(totals, inverse, counts)
        return cls._first_seen_first(unique, first, totals)

    @classmethod
    def _first_seen_first(cls, unique, first, counts) -> IdCounts:
        """np.unique's sorted ids and their counts, put back in the order the ids were first seen."""
        import numpy as np

        order = np.argsort(first)
        return cls(_array(unique[order]), _array(counts[order]))

    def __add__(self, later: IdCounts) -> IdCounts:
        return IdCounts.pooled((self, later))

    def __len__(self) -> int:
        return len(self.ids)

    def values(self) -> list[int]:
        """The counts, in the ids' order."""
        return self.counts.tolist()

    def count_of(self, token_id: int) -> int:
        import numpy as np

        found = np.flatnonzero(np.frombuffer(self.ids, dtype=np.int64) == token_id)
        return int(self.counts[found[0]]) if len(found) else 0

    def total_of(self, token_ids: Collection[int]) -> int:
        """How often any of `token_ids` occurred."""
        import numpy as np

        if not token_ids or not self.ids:
            return 0
        wanted = np.isin(np.frombuffer(self.ids, dtype=np.int64), np.fromiter(token_ids, dtype=np.int64))
        return int(np.frombuffer(self.counts, dtype=np.int64)[wanted].sum())

    def __repr__(self) -> str:
        return f"IdCounts(ids={self.ids.tolist()}, counts={self.counts.tolist()})"


def _array(values) -> array:
    """A numpy array of whole numbers as an array('q'): native 8-byte integers both."""
    import numpy as np

    return array("q", np.ascontiguousarray(values, dtype=np.int64).tobytes())
