"""The state of a training run, and what one merge changes in it (train.py's algorithm).

What this module adds: `Tokens` (the merges made, each token's bytes, the duplicate-bytes rule),
`Corpus` (the distinct pre-tokens as words, their counts, the index pair -> words) and
`PairQueue` (every pair's live count, and a bucket queue that finds the most frequent). train.py
runs the loop over them; parity.py keeps one `Corpus` per language.

Words are str: the word of ids [104, 256] is "h\u0100". A merge of (A, B) into C is then
`word.split(chr(A) + chr(B))` joined by chr(C): in C, left to right and non-overlapping, as the
merge rule says, and the pieces between the occurrences hold their neighbours. Ids are code
points, so MAX_MERGES (1,113,856) is the most merges a run can make.

What it leaves out: which pair to merge when (train.py, parity.py) and the pre-token counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from heapq import heapify, heappop, heappush
from operator import mul

from benchmark.bpe.flat import MIN_POSITIONS, SMALL_IN_A_ROW, FlatWords

MAX_MERGES = 0x110000 - 256  # ids are code points (chr), and the last one is 0x10FFFF


def check_merge_budget(n_merges: int, corpora: Sequence[Corpus]) -> None:
    """Refuse, before any merge, merges past MAX_MERGES that the corpora could make (each merge
    takes at least one pair position)."""
    if min(n_merges, sum(corpus.n_positions for corpus in corpora)) > MAX_MERGES:
        raise ValueError(f"the trainer makes at most {MAX_MERGES:,} merges (its ids are code points); "
                         f"{n_merges:,} were asked for: ask for fewer")


class Tokens:
    """The tokens made so far: the merges, each token's bytes, and the duplicate-bytes rule.

    A pair (a, b) is one int key, a << shift | b: ints hash and compare faster than tuples, and
    the order of the ints is the order of the tuples, so the tie rule "smallest (left_id, right_id)"
    is simply "smallest key"."""

    def __init__(self, n_merges: int) -> None:
        self.shift = max(8, (255 + n_merges).bit_length())
        self.mask = (1 << self.shift) - 1
        self.merges: list[tuple[int, int]] = []
        self.token_bytes = [bytes([i]) for i in range(256)]
        self._known = set(self.token_bytes)
        self._rejected: set[int] = set()  # pairs whose bytes duplicate an existing token

    def admits(self, key: int) -> bool:
        """False for a pair whose merged bytes are already a token (remembered: it never wins)."""
        if key in self._rejected:
            return False
        if self.token_bytes[key >> self.shift] + self.token_bytes[key & self.mask] in self._known:
            self._rejected.add(key)  # subtle: this pair stays counted but can never win again
            return False
        return True

    def add(self, key: int) -> int:
        """Record the merge of pair `key`; its new id."""
        left, right = key >> self.shift, key & self.mask
        merged = self.token_bytes[left] + self.token_bytes[right]
        self.merges.append((left, right))
        self.token_bytes.append(merged)
        self._known.add(merged)
        return 255 + len(self.merges)


class PairQueue:
    """Live pair counts, and the pairs by count, most frequent first, ties to the smallest key.

    A bucket queue: {count: keys filed at that count}, a heap of the counts, and the top count's
    keys as a heap of their own. Filing is a list append, where a heap of all pairs took a push
    into tens of thousands of entries (~10% of training at 16,384). It relies on counts never
    rising: a merge of (A, B) makes pairs with its new id, no more frequent than (A, B) (so no
    more than the top count), and only lowers the others. Invariant: every pair whose live count
    is >= min_frequency is filed at a count >= its live count (when it is born; an entry whose
    count fell is filed again when it reaches the top). So the first key served whose count
    equals the live count is the true best pair, ties included. Rarer pairs are not filed."""

    def __init__(self, pair_counts: dict[int, int], min_frequency: float) -> None:
        self.pair_counts = pair_counts
        self.min_frequency = min_frequency
        self.buckets: dict[int, list[int]] = {}
        for key, n in pair_counts.items():
            if n >= min_frequency:
                self.buckets.setdefault(n, []).append(key)
        self.levels = [-n for n in self.buckets]  # a max-heap of the bucketed counts
        heapify(self.levels)
        self.top, self.top_keys = 0, []  # the count being served, and its keys (a heap)

    def file(self, key: int, count: int) -> None:
        """File pair `key` at `count` (>= min_frequency, <= the top count once serving began)."""
        if count == self.top:
            heappush(self.top_keys, key)  # born at the top count: served in key order
        elif (bucket := self.buckets.get(count)) is not None:
            bucket.append(key)
        else:
            self.buckets[count] = [key]
            heappush(self.levels, -count)

    def best(self, tokens: Tokens) -> int:
        """The key of the pair to merge next (taken from the queue); -1 if none is frequent enough."""
        pair_counts, min_frequency = self.pair_counts, self.min_frequency
        while True:
            keys, top = self.top_keys, self.top
            while keys:
                key = heappop(keys)
                count = pair_counts.get(key, 0)
                if count == top:
                    if tokens.admits(key):
                        return key
                elif min_frequency <= count < top:
                    self.file(key, count)  # its count fell: file it again at the live count
                # else dead, or filed again already at its live count
            if not self.levels or -self.levels[0] < min_frequency:
                return -1
            self.top = -heappop(self.levels)
            self.top_keys = self.buckets.pop(self.top)
            heapify(self.top_keys)


class Corpus:
    """The distinct pre-tokens of a table as words with their counts, an index pair -> where it
    is, and the pairs' counts (`pairs`). The first merges run on all words at once in numpy
    (flat.py) while a pair is found at MIN_POSITIONS places or more; then the words are str of
    code points, and the index lists words (or, for a pair counted before, its positions).

    `token_counts` (parity.py) weighs the tokens each merge saves by other counts of the same
    pre-tokens (a parity text's; 0 for a pre-token it lacks). `keep_rare` keeps the pairs rarer
    than `min_frequency` too: parity.py merges a pair chosen for one language in every language."""

    def __init__(self, pretoken_counts: Mapping[bytes, int], shift: int, min_frequency: float,
                 token_counts: Mapping[bytes, int] | None = None, *, keep_rare: bool = False) -> None:
        import numpy as np

        self.shift = shift
        # Pre-tokens of one byte hold no pair; sorting makes every internal order deterministic.
        self.word_bytes = sorted(data for data in pretoken_counts if len(data) >= 2)
        self.word_counts = [pretoken_counts[data] for data in self.word_bytes]
        self.token_weights = None if token_counts is None else [token_counts.get(data, 0) for data in self.word_bytes]
        lengths = [len(data) for data in self.word_bytes]
        self.n_positions = sum(lengths) - len(lengths)
        self.keep = 1 if keep_rare else min_frequency  # the least count worth keeping
        self.owner = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)  # the word of each position
        # Exact ints: numpy's int64 unless the counts could overflow it (weights scaled very high).
        exact = all(sum(map(mul, table, lengths)) < 2**63 for table in (self.word_counts, self.token_weights or ()))
        pair_counts, self.where = initial_pairs(self.word_bytes, self.word_counts, self.owner, shift, self.keep, exact)
        self.pairs = PairQueue(pair_counts, min_frequency)
        self.flat: FlatWords | None = None
        self.n_small = 0  # merges in a row found at fewer than MIN_POSITIONS places
        self.words: list[str] = []
        if exact:
            weights = None if self.token_weights is None else np.array(self.token_weights, np.int64)
            self.flat = FlatWords(self.word_bytes, self.owner, np.array(self.word_counts, np.int64), weights)
        else:
            self.words = [data.decode("latin-1") for data in self.word_bytes]  # byte b is chr(b)

    def merge(self, key: int, new_id: int, delta: defaultdict[int, int] | None = None) -> int:
        """Merge pair `key` into `new_id` in every word; the tokens saved (count x occurrences
        merged). `delta` (parity.py) gets each pair's change of count added."""
        where = self.where.pop(key, None)
        if where is None:
            return 0  # no word holds the pair
        left, right = key >> self.shift, key & ((1 << self.shift) - 1)
        if self.flat is not None:
            self.n_small = self.n_small + 1 if len(where) < MIN_POSITIONS else 0
            if self.n_small < SMALL_IN_A_ROW:
                changes, n_saved = self.flat.merge(where, left, right, new_id, self.shift)
                self._apply(key, changes, delta)
                return n_saved
            self._leave_flat()  # from here on, merges touch few words: Python is faster
        word_indices = where if isinstance(where, list) else self.owner[where].tolist()  # positions -> words
        words, weights = self.words, self.token_weights
        pair, merged = chr(left) + chr(right), chr(new_id)
        if weights is None and left != right:
            # A pair (A, B) of two ids cannot overlap itself: every occurrence counted is merged.
            n_saved = self.pairs.pair_counts.get(key, 0)
            neighbours = rewrite_words(words, word_indices, pair, merged)
        else:
            # subtle: `a a a` counts (a, a) twice and merges it once: count the tokens of each word
            # once instead (a stale entry, no longer holding the pair, counts alike before and after).
            weights = self.word_counts if weights is None else weights
            word_indices = list(dict.fromkeys(word_indices))
            n_before = sum(weights[i] * len(words[i]) for i in word_indices)
            neighbours = rewrite_words(words, word_indices, pair, merged)
            n_saved = n_before - sum(weights[i] * len(words[i]) for i in word_indices)
        self._apply(key, self._changes(key, new_id, *neighbours), delta)
        return n_saved

    def _leave_flat(self) -> None:
        self.words, self.flat = self.flat.words(), None

    def _changes(self, key: int, new_id: int, lefts: dict, rights: dict, middles: list[int]) -> list[tuple]:
        """What a merge (A, B) -> C changes, one change per neighbour: for `x A B y`, (x, A) and
        (B, y) lose what (x, C) and (C, y) are born with; `A B A B` turns (B, A) into (C, C).
        Each is (old pair, new pair, count, the words holding the new pair)."""
        shift, left, right = self.shift, key >> self.shift, key & ((1 << self.shift) - 1)
        new_left, right_left, count_of = new_id << shift, right << shift, self.word_counts.__getitem__
        # a word listed twice holds the pair twice
        changes = [(ord(x) << shift | left, ord(x) << shift | new_id, sum(map(count_of, indices)), indices)
                   for x, indices in lefts.items()]
        changes += [(right_left | ord(y), new_left | ord(y), sum(map(count_of, indices)), indices)
                    for y, indices in rights.items()]
        if middles:
            changes.append((right_left | left, new_left | new_id, sum(map(count_of, middles)), middles))
        return changes

    def _apply(self, key: int, changes: list[tuple], delta: defaultdict[int, int] | None) -> None:
        """Apply a merge's changes to the counts, the index and the queue."""
        pair_counts, where, keep, file = self.pairs.pair_counts, self.where, self.keep, self.pairs.file
        min_frequency = self.pairs.min_frequency
        pair_counts.pop(key, None)
        for old, new, n, holders in changes:
            if delta is not None:
                delta[old] -= n
                delta[new] += n
            count = pair_counts.get(old)  # subtle: None for a rare pair, and for (A, A) itself
            if count is not None:
                if count - n >= keep:
                    pair_counts[old] = count - n
                else:  # it can never be merged now: free its count and its index entry
                    del pair_counts[old]
                    where.pop(old, None)
            if n >= keep:  # a pair with the new id is new: nothing to add its count to
                pair_counts[new] = n
                where[new] = holders
                if n >= min_frequency:
                    file(new, n)

    def final_ids(self) -> dict[bytes, list[int]]:
        words = self.words if self.flat is None else self.flat.words()
        return {data: list(map(ord, word)) for data, word in zip(self.word_bytes, words)}


def rewrite_words(words: list[str], word_indices: list[int], pair: str, merged: str) -> tuple[dict, dict, list]:
    """Merge `pair` (two code points) into `merged` in the given words; the words around the
    occurrences, once per occurrence: {left neighbour: words}, {right neighbour: words}, and the
    words where two occurrences touch. `str.split` cuts at every occurrence, left to right,
    non-overlapping: the pieces hold the neighbours, and joined by `merged` they are the word."""
    lefts: defaultdict[str, list[int]] = defaultdict(list)
    rights: defaultdict[str, list[int]] = defaultdict(list)
    middles: list[int] = []
    for word_index in word_indices:
        parts = words[word_index].split(pair)
        if len(parts) == 2:  # one occurrence: most words
            head, tail = parts
            words[word_index] = head + merged + tail
            if head:
                lefts[head[-1]].append(word_index)
            if tail:
                rights[tail[0]].append(word_index)
        elif len(parts) > 2:
            words[word_index] = merged.join(parts)
            last = len(parts) - 1
            for i, part in enumerate(parts):
                if part:
                    if i:
                        rights[part[0]].append(word_index)
                    if i < last:
                        lefts[part[-1]].append(word_index)
                elif 0 < i < last:
                    middles.append(word_index)  # subtle: nothing between two occurrences: (B, A) -> (C, C)
        # One part: a stale index entry (an earlier merge took the pair from this word).
    return lefts, rights, middles


def initial_pairs(word_bytes: list[bytes], word_counts: list[int], owner, shift: int, keep: float,
                  exact: bool = True) -> tuple[dict, dict]:
    """{pair of bytes: count} over the words, and {pair: the positions where it starts, in order}
    (in one int32 array, of which each pair's positions are a slice), for the pairs counted `keep`
    times or more; `owner` gives each position's word; `exact`: the totals fit numpy's int64. In
    numpy, ~4x faster than Python."""
    import numpy as np

    starts = np.flatnonzero(owner[:-1] == owner[1:]).astype(np.int32)  # a byte followed by one of its word
    if not len(starts):
        return {}, {}
    data = np.frombuffer(b"".join(word_bytes), np.uint8)
    codes = data[starts].astype(np.uint16) << 8 | data[starts + 1]
    order = np.argsort(codes, kind="stable")  # a radix sort; each pair's positions stay in order
    codes, starts = codes[order], starts[order]
    firsts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    totals = np.add.reduceat(np.asarray(word_counts, np.int64 if exact else object)[owner[starts]], firsts)
    bounds = firsts.tolist() + [len(starts)]
    pair_counts, where = {}, {}
    for code, n, begin, end in zip(codes[firsts].tolist(), totals.tolist(), bounds, bounds[1:]):
        if n >= keep:
            key = (code >> 8) << shift | code & 0xFF
            pair_counts[key], where[key] = n, starts[begin:end]
    return pair_counts, where
