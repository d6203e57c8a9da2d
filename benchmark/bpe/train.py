"""Training a byte-level BPE: count pre-tokens once, then merge with incremental pair counts.

What this module adds: the two halves of training, as plain functions over plain structures.

1. `count_pretokens(texts, pattern)` streams the texts (never joined into one string), splits each
   with the pattern and returns a frequency table {pre-token UTF-8 bytes: count}.
2. `train_merges(pretoken_counts, n_merges)` learns the ordered merge list from such a table.

The table is the whole input of the second half, so a caller may build it as it likes: count
shards of the text in worker processes and add the tables, or multiply a language's counts by an
integer weight (the same as repeating its text). Counts are positive ints: a float weight would
make exact ties between pairs depend on rounding. The same table gives the same merges, whatever
order its entries were added in.

What it leaves out: encoding, special tokens, model files (see tokenizer.py), the parity-aware
choice of pairs (parity.py, which reuses the structures here) and anything about corpora.

The rules (reference.py holds a deliberately naive trainer that follows the same rules,
and the tests check that both give identical merge lists):

- Ids 0..255 are the byte values; merge k, a pair `(left_id, right_id)`, creates id 256 + k.
- Merges never cross a pre-token boundary.
- A pair's count is the sum over pre-tokens of `count x occurrences`, where every adjacent position
  counts (like HF tokenizers and minbpe): the pre-token `a a a` holds the pair `(a, a)` twice.
- Each step merges the pair with the highest count. Ties go to the smallest `(left_id, right_id)`
  tuple, so the result never depends on dict or set order nor on PYTHONHASHSEED.
- A pair whose merged bytes are already a token (e.g. `ab + c` when `a + bc` exists) is never
  merged: two ids with the same bytes would make encoding by bytes ambiguous. It is dropped from
  the candidates and the next pair is taken. (A guard: it cannot fire here, as every merge is
  applied to every word, so a span between two token boundaries splits alike wherever it is and
  no bytes can be made twice; docs/bpe.md gives the argument, the tests check it.)
- Training stops after `n_merges` merges or when the best remaining count is below
  `min_frequency`; the caller reports the actual size, `256 + len(merges)`.
- A merge `(A, B) -> C` is applied to a pre-token left to right, non-overlapping (minbpe's
  `merge`): `a a a` becomes `C a`.

The algorithm (the textbook one recounts every pair of the corpus for each merge; this one never
does): each distinct pre-token is a list of ids with its count. We keep the total count of every
pair, an index pair -> the words that contain it, and a max-heap of (count, pair) with lazy
invalidation (an entry is checked against the live count when popped). A merge touches only the
words in the index for its pair and updates the counts of the pairs around each occurrence.

    >>> counts = count_pretokens(["low lower lowest"], r" ?\\w+")
    >>> merges, seconds_at = train_merges(counts, 3, min_frequency=1)
    >>> merges  # "lo", then "low", then " " + "low"
    [(108, 111), (256, 119), (32, 257)]
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from heapq import heapify, heappop, heappush, heapreplace
from operator import index
from typing import TYPE_CHECKING

from benchmark.bpe.patterns import compile_pattern, findall_of, resolve_pattern
from benchmark.bpe.progress import Clock

if TYPE_CHECKING:
    import regex

__all__ = ["add_counts", "count_pretokens", "train_merges"]


def add_counts(parts: Iterable[dict[bytes, int]]) -> dict[bytes, int]:
    """Pre-token counts of shards added up: the same table whatever the shards and their order
    (a sum does not depend on them), so training on it gives the serial trainer's merges."""
    total: dict[bytes, int] = {}
    for part in parts:
        if not total:
            total = dict(part)
            continue
        for data, n in part.items():
            total[data] = total.get(data, 0) + n
    return total


def count_pretokens(texts: Iterable[str], pattern: str | regex.Pattern[str] | None) -> dict[bytes, int]:
    """Count the pre-tokens of `texts`: {pre-token UTF-8 bytes: number of occurrences}.

    `pattern` is a pattern name or regex text (as `ByteLevelBPE` takes them) or a compiled regex;
    None makes each whole text one pre-token. A text that cannot be UTF-8 encoded (a lone
    surrogate) raises ValueError naming the text's index and the character position.
    """
    if isinstance(pattern, str):
        pattern = compile_pattern(resolve_pattern(pattern)[1])
    # Counting str pieces and encoding each distinct piece once is several times faster than
    # encoding every occurrence: the corpus has ~10x more pre-tokens than distinct ones.
    counts: Counter[str] = Counter()
    findall = findall_of(pattern) if pattern is not None else None
    for text_index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {text_index} is a {type(text).__name__}, not a str: {text!r:.60}")
        if not text.isascii():
            _check_encodable(text, text_index)
        if findall is None:
            counts[text] += 1
        else:
            counts.update(findall(text))
    counts.pop("", None)  # a custom pattern may match the empty string: it holds no bytes
    return {piece.encode("utf-8"): n for piece, n in counts.items()}


def _check_encodable(text: str, text_index: int) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        char = text[error.start]
        raise ValueError(
            f"text {text_index} cannot be encoded as UTF-8: lone surrogate {char!r} at position "
            f"{error.start}; fix the input, e.g. text.encode('utf-16', 'surrogatepass').decode('utf-16', "
            "'replace') (joins a surrogate pair split in two, replaces a lone one with U+FFFD)"
        ) from None


def checked_counts(pretoken_counts: Mapping[bytes, int], what: str = "pretoken_counts") -> dict[bytes, int]:
    """`pretoken_counts` as a plain dict of bytes -> int, or a TypeError or ValueError naming the
    first entry that is not a pre-token's bytes with a positive int count."""
    if not isinstance(pretoken_counts, Mapping):
        raise TypeError(f"{what} must map pre-token bytes to a count, got a {type(pretoken_counts).__name__}")
    counts: dict[bytes, int] = {}
    for data, n in pretoken_counts.items():
        if not isinstance(data, bytes):
            fix = "; encode it with .encode('utf-8')" if isinstance(data, str) else ""
            raise TypeError(f"{what}: the pre-token {data!r} is a {type(data).__name__}, not bytes{fix}")
        if type(n) is not int:
            if isinstance(n, bool) or not hasattr(n, "__index__"):
                raise TypeError(
                    f"{what}: the count of {data!r} is {type(n).__name__} {n!r}; counts are ints (a weight that "
                    "is not whole would make exact ties depend on rounding: scale the weights to integers)"
                )
            n = index(n)  # an int-like, such as numpy's int64
        if n <= 0:
            raise ValueError(f"{what}: the count of {data!r} is {n}; counts are positive (leave the pre-token out)")
        counts[data] = n
    return counts


def train_merges(
    pretoken_counts: Mapping[bytes, int],
    n_merges: int,
    *,
    min_frequency: int = 2,
    progress: bool = False,
    checkpoints: Sequence[int] = (),
) -> tuple[list[tuple[int, int]], dict[int, float]]:
    """Learn up to `n_merges` merges from a pre-token frequency table (see the module's rules).

    Returns `(merges, seconds_at)`: `merges[k] = (left_id, right_id)` creates id 256 + k, and
    `seconds_at[n]` is the wall time in seconds, since this call began, at which the n-th merge
    was done, for each n in `checkpoints` and for `len(merges)`. A checkpoint past the point where
    training stopped early maps to the time it stopped (that model is the final one).
    """
    merges, seconds_at, _ = _train(pretoken_counts, n_merges, min_frequency=min_frequency, progress=progress,
                                   checkpoints=checkpoints)
    return merges, seconds_at


def _train(pretoken_counts: Mapping[bytes, int], n_merges: int, *, min_frequency: int, progress: bool,
           checkpoints: Sequence[int], first: Callable[[dict, int], Sequence] | None = None) -> tuple:
    """`train_merges`, also returning each pre-token's final ids (the tests check them); `first(counts,
    min_frequency)` gives merges made before any frequency merge (whole_chars.py's characters)."""
    started = time.perf_counter()
    n_merges = max(0, n_merges)
    min_frequency = max(1, min_frequency)  # a pair that does not occur is never merged
    counts = checked_counts(pretoken_counts)
    forced = iter(first(counts, min_frequency) if first is not None else ())
    tokens = Tokens(n_merges)
    corpus = Corpus(counts, tokens.shift, min_frequency)
    clock = Clock(n_merges, checkpoints, progress, started)
    try:
        while len(tokens.merges) < n_merges:
            pair = next(forced, None)
            key = pair[0] << tokens.shift | pair[1] if pair else corpus.pairs.best(tokens)
            if key < 0:
                break
            corpus.merge(key, tokens.add(key))
            clock.done(len(tokens.merges))
    finally:
        clock.stop()
    return tokens.merges, clock.seconds_at(len(tokens.merges)), corpus.final_ids()


class Tokens:
    """The tokens made so far: the merges, each token's bytes, and the duplicate-bytes rule.

    A pair (a, b) is one int key, a << shift | b: ints hash and compare faster than tuples (the
    heap compares millions of entries), and the order of the ints is the order of the tuples, so
    the tie rule "smallest (left_id, right_id)" is simply "smallest key"."""

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


class PairHeap:
    """Live pair counts and a max-heap of them, by count, then smallest key.

    heapq is a min-heap, so entries are (-count, key). Invariant: every pair whose live count is
    >= min_frequency has an entry whose count is >= its live count (we push whenever a count rises
    to or above min_frequency; an entry whose count fell is re-filed when it reaches the top). So
    the first entry popped whose count equals the live count is the true best pair, ties included.
    Rarer pairs stay out of the heap (memory)."""

    def __init__(self, pair_counts: dict[int, int], min_frequency: int) -> None:
        self.pair_counts = pair_counts
        self.min_frequency = min_frequency
        self.heap = [(-n, key) for key, n in pair_counts.items() if n >= min_frequency]
        heapify(self.heap)

    def best(self, tokens: Tokens) -> int:
        """The key of the pair to merge next (popped from the heap); -1 if none is frequent enough."""
        heap, pair_counts, min_frequency = self.heap, self.pair_counts, self.min_frequency
        while heap:
            negative_count, key = heap[0]
            count = pair_counts.get(key, 0)
            if count != -negative_count:
                if min_frequency <= count < -negative_count:
                    heapreplace(heap, (-count, key))  # re-file at its live count
                else:
                    heappop(heap)  # dead, or a newer entry holds the live count
                continue
            if count < min_frequency:
                return -1
            heappop(heap)
            if tokens.admits(key):
                return key
        return -1

    def update(self, delta: dict[int, int], key: int, where: dict[int, list[int]] | None = None) -> None:
        """Apply the count changes of merging pair `key`; drop dead pairs (and their `where` entry)."""
        pair_counts, heap, min_frequency = self.pair_counts, self.heap, self.min_frequency
        # subtle: every occurrence of the pair was merged or (for runs like `a a a`) destroyed, so its
        # count is now zero; neighbour updates may name the same key (when left == right): skip them.
        pair_counts.pop(key, None)
        delta.pop(key, None)
        for k, change in delta.items():
            if change:
                count = pair_counts.get(k, 0) + change
                if count > 0:
                    pair_counts[k] = count
                    if change > 0 and count >= min_frequency:
                        heappush(heap, (-count, k))
                else:
                    # The pair is gone from every word: free its count and its index entry.
                    pair_counts.pop(k, None)
                    if where is not None:
                        where.pop(k, None)


class Corpus:
    """The distinct pre-tokens of a table as lists of ids, with their counts, an index pair ->
    the words that hold it, and the pairs' counts (`pairs`).

    `token_counts` (parity.py) weighs the tokens each merge saves by other counts of the same
    pre-tokens (a parity text's; 0 for a pre-token it lacks) instead of the training counts."""

    def __init__(self, pretoken_counts: Mapping[bytes, int], shift: int, min_frequency: int,
                 token_counts: Mapping[bytes, int] | None = None) -> None:
        self.shift = shift
        # Pre-tokens of one byte hold no pair; sorting makes every internal order deterministic.
        self.word_bytes = sorted(data for data in pretoken_counts if len(data) >= 2)
        self.words = [list(data) for data in self.word_bytes]
        self.word_counts = [pretoken_counts[data] for data in self.word_bytes]
        self.token_weights = None if token_counts is None else [token_counts.get(data, 0) for data in self.word_bytes]
        # The index holds lists, not sets (a set costs ~5x the memory per entry); each word is listed
        # once per pair, because a pair's list is built once: here, or when the pair is born in a merge.
        counting: defaultdict[int, int] = defaultdict(int)
        indexing: defaultdict[int, list[int]] = defaultdict(list)
        for word_index, word in enumerate(self.words):
            n = self.word_counts[word_index]
            keys = [a << shift | b for a, b in zip(word, word[1:])]
            for key in keys:
                counting[key] += n
            for key in dict.fromkeys(keys):
                indexing[key].append(word_index)
        # Plain dicts from here on: a lookup of a missing pair must not create it.
        self.where: dict[int, list[int]] = dict(indexing)  # pair -> words that held it (may be stale)
        self.pairs = PairHeap(dict(counting), min_frequency)

    def merge(self, key: int, new_id: int) -> tuple[dict[int, int], int]:
        """Merge pair `key` into `new_id` in every word; (the change of each pair's count, the
        number of tokens saved: count x occurrences merged). Nothing if no word holds the pair."""
        word_indices = self.where.pop(key, None)
        if word_indices is None:
            return {}, 0
        words, word_counts, weights = self.words, self.word_counts, self.token_weights
        if weights is None and key >> self.shift != key & ((1 << self.shift) - 1):
            # A pair (A, B) of two ids cannot overlap itself: every occurrence counted is merged.
            n_saved = self.pairs.pair_counts[key]
            delta, born = rewrite_words(words, word_counts, word_indices, key, new_id, self.shift)
        else:
            # subtle: `a a a` counts (a, a) twice and merges it once: count the tokens instead (a
            # stale entry of the index counts alike before and after, so it cancels out).
            weights = word_counts if weights is None else weights
            n_before = sum(weights[i] * len(words[i]) for i in word_indices)
            delta, born = rewrite_words(words, word_counts, word_indices, key, new_id, self.shift)
            n_saved = n_before - sum(weights[i] * len(words[i]) for i in word_indices)
        self.pairs.update(delta, key, self.where)
        self.index_born(born)
        return delta, n_saved

    def index_born(self, born: dict[int, list[int]]) -> None:
        # Pairs with new_id are new keys: no earlier index entry to merge with. A word holding the
        # pair twice was appended twice: list it once.
        where = self.where
        for k, indices in born.items():
            where[k] = list(dict.fromkeys(indices))

    def final_ids(self) -> dict[bytes, list[int]]:
        return dict(zip(self.word_bytes, self.words))


def rewrite_words(
    words: list[list[int]],
    word_counts: list[int],
    word_indices: list[int],
    key: int,
    new_id: int,
    shift: int,
) -> tuple[defaultdict[int, int], defaultdict[int, list[int]]]:
    """Merge pair `key` -> new_id in the given words; (the change of each pair's count, the words
    now holding each new pair).

    Only the pairs next to each occurrence change: for `x A B y` the pairs (x, A), (A, B), (B, y)
    go and (x, C), (C, y) come. Two occurrences side by side (`A B A B`) share the middle pair
    (B, A), which becomes (C, C).
    """
    left, right = key >> shift, key & ((1 << shift) - 1)
    delta: defaultdict[int, int] = defaultdict(int)
    born: defaultdict[int, list[int]] = defaultdict(list)  # new pair -> words now holding it
    new_left = new_id << shift  # the key of (new_id, y) is new_left | y
    right_left = right << shift
    # Lefts used up by one occurrence: one, or two when the pair is (A, A).
    used = 2 if left == right else 1
    merged = (new_id,)
    starts: list[int] = []  # where the pair starts in the current word, as it was
    add_start = starts.append
    for word_index in word_indices:
        word = words[word_index]
        # list.count and list.index run in C; counting first avoids a ValueError per word.
        remaining = word.count(left)
        if not remaining:
            continue  # stale index entry: an earlier merge removed the pair from this word
        n = word_counts[word_index]
        find = word.index
        last = len(word) - 1
        # Positions are in the word as it was: it is rewritten once, after the scan (rewriting it
        # at every occurrence made a pre-token of a million "a"s quadratic).
        starts.clear()
        previous_end = -1  # where the last merged occurrence ends
        i = 0
        while remaining > 0:
            i = find(left, i)
            if i < last and word[i + 1] == right:
                remaining -= used
                if i:
                    if i == previous_end:
                        # subtle: the previous occurrence ends right here: the old pair was
                        # (right, left), the new one (C, C).
                        delta[right_left | left] -= n
                        k = new_left | new_id
                    else:
                        x = word[i - 1]
                        delta[x << shift | left] -= n
                        k = x << shift | new_id
                    delta[k] += n
                    born[k].append(word_index)
                j = i + 2
                if j <= last:
                    y = word[j]
                    # If the next occurrence starts at j, it handles this pair as its left side.
                    if not (y == left and j < last and word[j + 1] == right):
                        delta[right_left | y] -= n
                        k = new_left | y
                        delta[k] += n
                        born[k].append(word_index)
                add_start(i)
                previous_end = i = j
            else:
                remaining -= 1
                i += 1
        if len(starts) <= 4:
            for i in reversed(starts):  # from the right, so the earlier positions stay valid
                word[i : i + 2] = merged
        else:
            rewritten = []
            begin = 0
            for i in starts:
                rewritten += word[begin:i]
                rewritten.append(new_id)
                begin = i + 2
            rewritten += word[begin:]
            word[:] = rewritten
    return delta, born
