"""Training a byte-level BPE: count pre-tokens once, then merge with incremental pair counts.

What this module adds: the two halves of training, as plain functions over plain structures.

1. `count_pretokens(texts, pattern)` streams the texts (never joined into one string), splits each
   with `pattern.findall` and returns a frequency table {pre-token UTF-8 bytes: count}.
2. `train_merges(pretoken_counts, n_merges)` learns the ordered merge list from that table.

What it leaves out: encoding, special tokens, model files (see tokenizer.py) and anything about
corpora. `ByteLevelBPE.train` glues the two halves together.

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
  the candidates and the next pair is taken.
- Training stops after `n_merges` merges or when the best remaining count is below
  `min_frequency`; the caller reports the actual size, `256 + len(merges)`.
- A merge `(A, B) -> C` is applied to a pre-token left to right, non-overlapping (minbpe's
  `merge`): `a a a` becomes `C a`.

The algorithm (the textbook one recounts every pair of the corpus for each merge; this one never
does): each distinct pre-token is a list of ids with its count. We keep the total count of every
pair, an index pair -> the words that contain it, and a max-heap of (count, pair) with lazy
invalidation (an entry is checked against the live count when popped). A merge touches only the
words in the index for its pair and updates the counts of the pairs around each occurrence.

    >>> import regex
    >>> counts = count_pretokens(["low lower lowest"], regex.compile(r" ?\\w+"))
    >>> merges, seconds_at = train_merges(counts, 3, min_frequency=1)
    >>> merges  # "lo", then "low", then " " + "low"
    [(108, 111), (256, 119), (32, 257)]
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from heapq import heapify, heappop, heappush, heapreplace
from typing import TYPE_CHECKING

from benchmark.bpe.patterns import findall_of

if TYPE_CHECKING:
    import regex

__all__ = ["count_pretokens", "train_merges"]


def count_pretokens(texts: Iterable[str], pattern: regex.Pattern[str] | None) -> dict[bytes, int]:
    """Count the pre-tokens of `texts`: {pre-token UTF-8 bytes: number of occurrences}.

    `pattern=None` makes each whole text one pre-token. A text that cannot be UTF-8 encoded (a lone
    surrogate) raises ValueError naming the text's index and the character position.
    """
    # Counting str pieces and encoding each distinct piece once is several times faster than
    # encoding every occurrence: the corpus has ~10x more pre-tokens than distinct ones.
    counts: Counter[str] = Counter()
    findall = findall_of(pattern) if pattern is not None else None
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {index} is a {type(text).__name__}, not a str: {text!r:.60}")
        if not text.isascii():
            _check_encodable(text, index)
        if findall is None:
            counts[text] += 1
        else:
            counts.update(findall(text))
    counts.pop("", None)  # a custom pattern may match the empty string: it holds no bytes
    return {piece.encode("utf-8"): n for piece, n in counts.items()}


def _check_encodable(text: str, index: int) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        char = text[error.start]
        raise ValueError(
            f"text {index} cannot be encoded as UTF-8: lone surrogate {char!r} at position "
            f"{error.start}; fix the input, e.g. text.encode('utf-16', 'surrogatepass').decode('utf-16', "
            "'replace') (joins a surrogate pair split in two, replaces a lone one with U+FFFD)"
        ) from None


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
    merges, seconds_at, _ = _train(
        pretoken_counts,
        n_merges,
        min_frequency=min_frequency,
        progress=progress,
        checkpoints=checkpoints,
    )
    return merges, seconds_at


def _train(
    pretoken_counts: Mapping[bytes, int],
    n_merges: int,
    *,
    min_frequency: int,
    progress: bool,
    checkpoints: Sequence[int],
) -> tuple[list[tuple[int, int]], dict[int, float], dict[bytes, list[int]]]:
    """`train_merges`, also returning each pre-token's final ids (the tests check them)."""
    start_seconds = time.perf_counter()
    n_merges = max(0, n_merges)
    min_frequency = max(1, min_frequency)  # a pair that does not occur is never merged

    # A pair (a, b) is one int, a << shift | b: ints hash and compare faster than tuples (the heap
    # compares millions of entries), and the order of the ints is the order of the tuples, so the
    # tie rule "smallest (left_id, right_id)" is simply "smallest key".
    shift = max(8, (255 + n_merges).bit_length())
    mask = (1 << shift) - 1

    # Pre-tokens of one byte hold no pair; sorting makes every internal order deterministic.
    word_bytes = sorted(data for data in pretoken_counts if len(data) >= 2)
    words = [list(data) for data in word_bytes]
    word_counts = [pretoken_counts[data] for data in word_bytes]

    # The index holds lists, not sets (a set costs ~5x the memory per entry); each word is listed
    # once per pair, because a pair's list is built once: here, or when the pair is born in a merge.
    counting: defaultdict[int, int] = defaultdict(int)
    indexing: defaultdict[int, list[int]] = defaultdict(list)
    for word_index, word in enumerate(words):
        n = word_counts[word_index]
        keys = [a << shift | b for a, b in zip(word, word[1:])]
        for key in keys:
            counting[key] += n
        for key in dict.fromkeys(keys):
            indexing[key].append(word_index)
    # Plain dicts from here on: a lookup of a missing pair must not create it.
    pair_counts: dict[int, int] = dict(counting)
    where: dict[int, list[int]] = dict(indexing)  # pair -> words that held it (may be stale)

    # Max-heap by count, then min by key: heapq is a min-heap, so store (-count, key).
    # Invariant: every pair whose live count is >= min_frequency has an entry whose count is >= its
    # live count (we push whenever a count rises to or above min_frequency; an entry whose count
    # fell is re-filed when it reaches the top). So the first entry popped whose count equals the
    # live count is the true best pair, ties included. Rarer pairs stay out of the heap (memory).
    heap = [(-n, key) for key, n in pair_counts.items() if n >= min_frequency]
    heapify(heap)

    token_bytes = [bytes([i]) for i in range(256)]
    known_bytes = set(token_bytes)
    rejected: set[int] = set()  # pairs whose bytes duplicate an existing token
    merges: list[tuple[int, int]] = []
    wanted = {n for n in checkpoints if 0 < n <= n_merges}
    seconds_at: dict[int, float] = {n: 0.0 for n in checkpoints if n <= 0}

    bar = _progress_bar(n_merges) if progress else None
    try:
        while len(merges) < n_merges:
            # Pick the best pair (lazy invalidation: stale entries are dropped or re-filed).
            key = -1
            while heap:
                negative_count, key = heap[0]
                count = pair_counts.get(key, 0)
                if count != -negative_count:
                    if min_frequency <= count < -negative_count:
                        heapreplace(heap, (-count, key))  # re-file at its live count
                    else:
                        heappop(heap)  # dead, or a newer entry holds the live count
                    key = -1
                    continue
                if count < min_frequency:
                    key = -1
                    break
                heappop(heap)
                if key in rejected:
                    key = -1
                    continue
                merged = token_bytes[key >> shift] + token_bytes[key & mask]
                if merged in known_bytes:
                    # subtle: this pair stays counted but can never win again.
                    rejected.add(key)
                    key = -1
                    continue
                break
            if key < 0:
                break

            left, right = key >> shift, key & mask
            new_id = 256 + len(merges)
            merges.append((left, right))
            token_bytes.append(merged)
            known_bytes.add(merged)
            _apply_merge(words, word_counts, where.pop(key), left, right, new_id, shift,
                         key, pair_counts, where, heap, min_frequency)

            n_done = len(merges)
            if n_done in wanted:
                seconds_at[n_done] = time.perf_counter() - start_seconds
            if bar is not None:
                bar[0].update(bar[1], completed=n_done)
    finally:
        if bar is not None:
            bar[0].stop()

    end_seconds = time.perf_counter() - start_seconds
    seconds_at[len(merges)] = seconds_at.get(len(merges), end_seconds)
    for n in checkpoints:
        # Training stopped before this checkpoint: its model is the final one.
        seconds_at.setdefault(n, end_seconds)
    final_ids = {data: word for data, word in zip(word_bytes, words)}
    return merges, seconds_at, final_ids


def _apply_merge(
    words: list[list[int]],
    word_counts: list[int],
    word_indices: list[int],
    left: int,
    right: int,
    new_id: int,
    shift: int,
    key: int,
    pair_counts: dict[int, int],
    where: dict[int, list[int]],
    heap: list[tuple[int, int]],
    min_frequency: int,
) -> None:
    """Merge (left, right) -> new_id in the given words, updating pair counts, index and heap.

    Only the pairs next to each occurrence change: for `x A B y` the pairs (x, A), (A, B), (B, y)
    go and (x, C), (C, y) come. Two occurrences side by side (`A B A B`) share the middle pair
    (B, A), which becomes (C, C).
    """
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
        index = word.index
        last = len(word) - 1
        # Positions are in the word as it was: it is rewritten once, after the scan (rewriting it
        # at every occurrence made a pre-token of a million "a"s quadratic).
        starts.clear()
        previous_end = -1  # where the last merged occurrence ends
        i = 0
        while remaining > 0:
            i = index(left, i)
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
                where.pop(k, None)
    # Pairs with new_id are new keys: no earlier index entry to merge with. A word holding the
    # pair twice was appended twice: list it once.
    for k, indices in born.items():
        where[k] = list(dict.fromkeys(indices))


def _progress_bar(n_merges: int):
    """A rich progress bar over merges (imported here: rich is only needed when asked for)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    )
    task = progress.add_task("BPE merges", total=n_merges)
    progress.start()
    return progress, task
