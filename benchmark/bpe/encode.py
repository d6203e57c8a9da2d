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
"""

from __future__ import annotations

import heapq

NO_MERGE = 1 << 62  # larger than any rank
LONG_PIECE_BYTES = 256  # above this, the heap version wins


def merge_piece(
    data: bytes, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None = None
) -> list[int]:
    """Token ids for one pre-token's bytes. `left_lengths` None means tiktoken's byte rule."""
    if len(data) > LONG_PIECE_BYTES:
        return _merge_long(data, ranks, left_lengths)
    return _merge_short(data, ranks, left_lengths)


def _merge_short(data: bytes, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None) -> list[int]:
    get = ranks.get
    n = len(data)
    if n < 2:
        return [ranks[data]] if n else []
    # bounds[j] is where part j starts; part j is data[bounds[j]:bounds[j + 1]].
    bounds = list(range(n + 1))
    # pair_ranks[j]: rank of merging part j with part j + 1. The first pairs join two single
    # bytes, which both rules allow whenever the two bytes form a token.
    pair_ranks = [get(data[j : j + 2], NO_MERGE) for j in range(n - 1)]
    if left_lengths is None:
        while True:
            rank = min(pair_ranks)
            if rank == NO_MERGE:
                break
            j = pair_ranks.index(rank)  # subtle: index() returns the leftmost, as tiktoken does
            del bounds[j + 1]
            del pair_ranks[j]
            if j < len(pair_ranks):
                pair_ranks[j] = get(data[bounds[j] : bounds[j + 2]], NO_MERGE)
            if j:
                pair_ranks[j - 1] = get(data[bounds[j - 1] : bounds[j + 1]], NO_MERGE)
            if not pair_ranks:
                break
    else:
        split = left_lengths.get
        while True:
            rank = min(pair_ranks)
            if rank == NO_MERGE:
                break
            j = pair_ranks.index(rank)
            del bounds[j + 1]
            del pair_ranks[j]
            if j < len(pair_ranks):
                start, mid, end = bounds[j], bounds[j + 1], bounds[j + 2]
                piece = data[start:end]
                pair_ranks[j] = get(piece, NO_MERGE) if split(piece) == mid - start else NO_MERGE
            if j:
                start, mid, end = bounds[j - 1], bounds[j], bounds[j + 1]
                piece = data[start:end]
                pair_ranks[j - 1] = get(piece, NO_MERGE) if split(piece) == mid - start else NO_MERGE
            if not pair_ranks:
                break
    return [ranks[data[bounds[j] : bounds[j + 1]]] for j in range(len(bounds) - 1)]


def _merge_long(data: bytes, ranks: dict[bytes, int], left_lengths: dict[bytes, int] | None) -> list[int]:
    """Same result as `_merge_short`, with a heap of candidate merges and lazy invalidation."""
    get = ranks.get
    split = left_lengths.get if left_lengths is not None else None
    n = len(data)
    # Parts are identified by their start offset; nxt[s] is where the part after the one at s
    # starts (n for the last part), prv[s] where the one before starts (-1 for the first).
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n

    def rank_of(start: int, mid: int, end: int) -> int:
        piece = data[start:end]
        rank = get(piece, NO_MERGE)
        if split is not None and rank != NO_MERGE and split(piece) != mid - start:
            return NO_MERGE
        return rank

    # (rank, start, mid, end): merge the part at `start` with the part at `mid`, ending at `end`.
    # subtle: ties on rank pop the smallest start first, i.e. the leftmost pair, as in the flat loop.
    heap = [(rank, s, s + 1, s + 2) for s in range(n - 1) if (rank := get(data[s : s + 2], NO_MERGE)) != NO_MERGE]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        rank, start, mid, end = pop(heap)
        # Stale if either part was merged away or has grown since this entry was pushed.
        if not (alive[start] and alive[mid] and nxt[start] == mid and nxt[mid] == end):
            continue
        alive[mid] = False
        nxt[start] = end
        if end < n:
            prv[end] = start
            after = nxt[end]
            r = rank_of(start, end, after)
            if r != NO_MERGE:
                push(heap, (r, start, end, after))
        before = prv[start]
        if before >= 0:
            r = rank_of(before, start, end)
            if r != NO_MERGE:
                push(heap, (r, before, start, end))
    ids = []
    s = 0
    while s < n:
        ids.append(ranks[data[s : nxt[s]]])
        s = nxt[s]
    return ids


class SafeSplitter:
    """Cuts a pre-token where no token can ever span the cut, so each side merges on its own.

    Why: a Japanese or Chinese pre-token is a whole clause (`\\p{L}++` runs on until punctuation),
    so it is seldom seen twice and costs one merge per byte. But if no token of the vocabulary is a
    substring of the text that crosses position p, no merge can ever join a part ending at p to one
    starting at p; and since merges elsewhere never depend on each other, BPE of the whole equals
    BPE of the left side followed by BPE of the right side, exactly. The short sides repeat, so
    they hit the cache.

    The test is sound (it may keep a cut that is safe, never makes one that is not) and is done
    for cuts between two non-ASCII characters A and B, from the bytes of A and B alone: a token T
    that spans the cut overlaps A+B in a crossing substring s; either T == s (so s is a token), or
    T is longer and s touches the start of A or the end of B (so s, or each of its 4-byte crossing
    windows, is a substring of a longer token). The answer for each (A, B) is memoised.
    """

    def __init__(self, ranks: dict[bytes, int]) -> None:
        self._tokens = ranks
        # Substrings of length 3 and 4 of every token longer than them.
        self._inner3: set[bytes] = set()
        self._inner4: set[bytes] = set()
        for token in ranks:
            n = len(token)
            if n > 3:
                self._inner3.update(token[i : i + 3] for i in range(n - 2))
            if n > 4:
                self._inner4.update(token[i : i + 4] for i in range(n - 3))
        self._memo: dict[str, bool] = {}

    def clear_memo(self) -> None:
        self._memo.clear()

    def split(self, piece: str) -> list[str]:
        """`piece` cut at every safe position between two non-ASCII characters."""
        memo = self._memo
        cuts = []
        for i in range(1, len(piece)):
            pair = piece[i - 1 : i + 1]
            safe = memo.get(pair)
            if safe is None:
                safe = memo[pair] = self._is_safe(pair)
            if safe:
                cuts.append(i)
        if not cuts:
            return [piece]
        cuts.append(len(piece))
        start = 0
        segments = []
        for cut in cuts:
            segments.append(piece[start:cut])
            start = cut
        return segments

    def _is_safe(self, pair: str) -> bool:
        left, right = pair[0].encode("utf-8"), pair[1].encode("utf-8")
        if len(left) < 2 or len(right) < 2:
            return False  # ASCII junctions: not worth it, and the windows would reach outside A+B
        data = left + right
        cut, end = len(left), len(data)
        tokens, inner3, inner4 = self._tokens, self._inner3, self._inner4
        for i in range(cut):
            for j in range(cut + 1, end + 1):
                s = data[i:j]
                if s in tokens:
                    return False
                if i == 0 or j == end:  # s could be the overlap with a longer token
                    n = j - i
                    if n == 3 and s in inner3:
                        return False
                    if n == 4 and s in inner4:
                        return False
                    # a substring of a longer token has every 4-byte window in inner4
                    if n > 4 and all(s[k : k + 4] in inner4 for k in range(n - 3)):
                        return False
        return True
