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

What it leaves out: the structures a merge changes (pairs.py, flat.py), encoding, special
tokens, model files (tokenizer.py), the parity-aware choice of pairs (parity.py) and anything
about corpora.

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

The algorithm (the textbook one recounts every pair for each merge; this one never does): each
distinct pre-token is a word with its count. We keep every pair's count, an index pair -> the
words holding it, and a queue of the pairs by count with lazy invalidation (an entry is checked
against the live count when served). A merge visits only the words in its pair's index, and
changes the counts once per neighbour of the pair, not once per occurrence (pairs.py). A pair's
count only falls after the merge that makes its newer token, so a pair born rarer than
`min_frequency` is not kept, and the queue never meets a count above the one it serves.

    >>> counts = count_pretokens(["low lower lowest"], r" ?\\w+")
    >>> merges, seconds_at = train_merges(counts, 3, min_frequency=1)
    >>> merges  # "lo", then "low", then " " + "low"
    [(108, 111), (256, 119), (32, 257)]
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import index
from typing import TYPE_CHECKING

from benchmark.bpe.pairs import Corpus, Tokens, check_merge_budget
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
    merges, seconds_at, _ = _learn(pretoken_counts, n_merges, min_frequency=min_frequency, progress=progress,
                                   checkpoints=checkpoints)
    return merges, seconds_at


def _train(pretoken_counts: Mapping[bytes, int], n_merges: int, *, min_frequency: int, progress: bool,
           checkpoints: Sequence[int]) -> tuple:
    """`train_merges`, also returning each pre-token's final ids (the tests check them)."""
    merges, seconds_at, corpus = _learn(pretoken_counts, n_merges, min_frequency=min_frequency, progress=progress,
                                        checkpoints=checkpoints)
    return merges, seconds_at, corpus.final_ids()


def _learn(pretoken_counts: Mapping[bytes, int], n_merges: int, *, min_frequency: int, progress: bool,
           checkpoints: Sequence[int], first: Callable[[dict, int], Sequence] | None = None) -> tuple:
    """(merges, seconds_at, the corpus as training left it); `first(counts, min_frequency)` gives
    merges made before any frequency merge (whole_chars.py's characters)."""
    started = time.perf_counter()
    n_merges = max(0, n_merges)
    min_frequency = max(1, min_frequency)  # a pair that does not occur is never merged
    counts = checked_counts(pretoken_counts)
    # subtle: rare pairs are not kept, and a forced merge needs its pair: each is a prefix of a
    # character seen min_frequency times or more, so its pair is at least that frequent.
    forced = iter(first(counts, min_frequency) if first is not None else ())
    tokens = Tokens(n_merges)
    collecting = gc.isenabled()
    gc.disable()  # training makes no reference cycles; the collector's passes over its lists cost ~10%
    clock = Clock(n_merges, checkpoints, progress, started)
    try:
        corpus = Corpus(counts, tokens.shift, min_frequency)
        check_merge_budget(n_merges, [corpus])
        while len(tokens.merges) < n_merges:
            pair = next(forced, None)
            key = pair[0] << tokens.shift | pair[1] if pair else corpus.pairs.best(tokens)
            if key < 0:
                break
            corpus.merge(key, tokens.add(key))
            clock.done(len(tokens.merges))
    finally:
        clock.stop()
        if collecting:
            gc.enable()
    return tokens.merges, clock.seconds_at(len(tokens.merges)), corpus
