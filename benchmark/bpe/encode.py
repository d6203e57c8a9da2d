"""Encoding one pre-token by merge rank: the inner loop of the encoder.

A pre-token starts as its bytes, one part per byte. Repeatedly, the adjacent pair of parts whose
merge has the lowest rank is merged, the leftmost one when several share that rank, until no
adjacent pair can merge. A part's rank is looked up by its bytes, as tiktoken does: `ranks` maps a
token's bytes to its id, and for a merged token the id *is* the merge's rank (merge k made token
256 + k), so "lowest rank first" is "earliest merge first".

Two rules decide whether two adjacent parts may merge:
- tiktoken's ("byte" rule): whenever their concatenated bytes are a token.
- ours ("pair" rule): only if the recorded merge that made that token joined exactly these two
  parts. Our trainer never makes two tokens with the same bytes, so a token's bytes and the length of
  its left part identify the merge: `left_lengths[token_bytes]` is that length. This is what replaying
  the learned merges in order would give, and it is what the trainer saw.

Short pre-tokens (nearly all of them) use flat lists: finding the lowest rank is `min` plus
`list.index`, both in C, and a merge deletes one entry. That is quadratic in the pre-token's length,
so long pre-tokens (`"a" * 100_000` is a single pre-token) switch to a heap over a linked list of
parts: O(n log n).

What this module leaves out: the pre-token split (patterns.py), the cache and the two exact
shortcuts that start a non-ASCII pre-token other than one part per byte (shortcuts.py).
"""

from __future__ import annotations

import heapq
from itertools import repeat
from operator import add

NO_MERGE = 1 << 62  # larger than any rank
LONG_PIECE_BYTES = 256  # above this, the heap version wins
BYTE_PARTS = [bytes([b]) for b in range(256)]  # byte value -> its one-byte part


def merge_piece(
    data: bytes,
    ranks: dict[bytes, int],
    left_lengths: dict[bytes, int] | None = None,
    parts: list[bytes] | None = None,
) -> list[int]:
    """Token ids for one pre-token's bytes. `left_lengths` None means tiktoken's byte rule.

    `parts`, if given, are the starting parts (their concatenation is `data`): a start other than
    one part per byte, that `shortcuts.SafeSplitter.initial_parts` proves gives the same result.
    """
    if len(data) > LONG_PIECE_BYTES:
        return _merge_long(data, ranks, left_lengths)  # subtle: one part per byte is always exact
    if parts is None:
        parts = list(map(BYTE_PARTS.__getitem__, data))
    return merge_parts(parts, ranks, left_lengths)


def merge_parts(parts: list[bytes], ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None) -> list[int]:
    """The flat loop for short pre-tokens: merges `parts` (a fresh list, consumed) in place."""
    get = ranks.get
    if len(parts) < 2:
        return [ranks[part] for part in parts]
    if left_lengths is None:
        # pair_ranks[j]: rank of merging part j with part j + 1 (the byte rule: any token).
        pair_ranks = list(map(get, map(add, parts, parts[1:]), repeat(NO_MERGE)))
        while True:
            rank = min(pair_ranks)
            if rank == NO_MERGE:
                break
            j = pair_ranks.index(rank)  # subtle: index() returns the leftmost, as tiktoken does
            merged = parts[j] = parts[j] + parts[j + 1]
            del parts[j + 1]
            del pair_ranks[j]
            if j < len(pair_ranks):
                pair_ranks[j] = get(merged + parts[j + 1], NO_MERGE)
            elif not j:
                break  # one part left
            if j:
                pair_ranks[j - 1] = get(parts[j - 1] + merged, NO_MERGE)
    else:
        # The pair rule, written out rather than called (a call per pair cost Russian and Czech 3%).
        split = left_lengths.get
        pair_ranks = [
            get(piece, NO_MERGE) if split(piece) == len(left) else NO_MERGE
            for left, piece in zip(parts, map(add, parts, parts[1:]))
        ]
        while True:
            rank = min(pair_ranks)
            if rank == NO_MERGE:
                break
            j = pair_ranks.index(rank)
            merged = parts[j] = parts[j] + parts[j + 1]
            del parts[j + 1]
            del pair_ranks[j]
            if j < len(pair_ranks):
                piece = merged + parts[j + 1]
                pair_ranks[j] = get(piece, NO_MERGE) if split(piece) == len(merged) else NO_MERGE
            elif not j:
                break
            if j:
                left = parts[j - 1]
                piece = left + merged
                pair_ranks[j - 1] = get(piece, NO_MERGE) if split(piece) == len(left) else NO_MERGE
    return list(map(ranks.__getitem__, parts))


def max_merge_rank(data: bytes, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None) -> int | None:
    """The largest rank among the merges that turn `data` (alone) into one token; None if it never
    becomes one token. The same loop as `merge_parts`, keeping the ranks it used."""
    get = ranks.get
    parts = [data[j : j + 1] for j in range(len(data))]
    largest = -1
    while len(parts) > 1:
        candidates = []
        for j in range(len(parts) - 1):
            joined = parts[j] + parts[j + 1]
            rank = get(joined, NO_MERGE)
            if left_lengths is not None and left_lengths.get(joined) != len(parts[j]):
                rank = NO_MERGE
            candidates.append(rank)
        rank = min(candidates)
        if rank == NO_MERGE:
            return None
        j = candidates.index(rank)
        parts[j : j + 2] = [parts[j] + parts[j + 1]]
        largest = max(largest, rank)
    return largest


def _merge_long(data: bytes, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None) -> list[int]:
    """Same result as `merge_parts`, with a heap of candidate merges and lazy invalidation."""
    get = ranks.get
    split = left_lengths.get if left_lengths is not None else None
    n = len(data)
    # Parts are identified by their start offset; nxt[s] is where the part after the one at s
    # starts (n for the last part, -1 once the part was merged into its left neighbour), prv[s]
    # where the one before starts (-1 for the first).
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))

    def rank_of(start: int, mid: int, end: int) -> int:
        piece = data[start:end]
        rank = get(piece, NO_MERGE)
        if split is not None and rank != NO_MERGE and split(piece) != mid - start:
            return NO_MERGE
        return rank

    # A candidate "merge the part at `start` with the next one, which ends at `end`" is one int,
    # (rank * stride + start) * stride + end: ints compare much faster than tuples, and the order
    # is (rank, start), so ties on rank pop the leftmost pair first, as in the flat loop.
    # subtle: `end` is enough to detect a stale entry: parts only grow, so if the part at `start`
    # is alive and the part after it still ends at `end`, the boundary between them is the same.
    stride = n + 1
    heap = [
        (rank * stride + s) * stride + s + 2
        for s in range(n - 1)
        if (rank := get(data[s : s + 2], NO_MERGE)) != NO_MERGE
    ]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        rest, end = divmod(pop(heap), stride)
        start = rest % stride
        mid = nxt[start]
        if mid < 0 or mid >= n or nxt[mid] != end:
            continue  # stale: a part was merged away or has grown since this entry was pushed
        nxt[mid] = -1
        nxt[start] = end
        if end < n:
            prv[end] = start
            after = nxt[end]
            r = rank_of(start, end, after)
            if r != NO_MERGE:
                push(heap, (r * stride + start) * stride + after)
        before = prv[start]
        if before >= 0:
            r = rank_of(before, start, end)
            if r != NO_MERGE:
                push(heap, (r * stride + before) * stride + end)
    ids = []
    s = 0
    while s < n:
        ids.append(ranks[data[s : nxt[s]]])
        s = nxt[s]
    return ids
