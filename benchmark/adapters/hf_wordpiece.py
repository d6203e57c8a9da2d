"""HF's WordPiece trainer, step for step, with every order fixed: the same corpus gives the same
`tokenizer.json`, in any process.

Why: `tokenizers`' WordPieceTrainer (0.23.3) is its BPE trainer with a `##` continuation prefix,
and it numbers the `##` forms of the characters as it meets them while iterating a hash map of
the words (`BpeTrainer::tokenize_words`, an AHashMap seeded at random per map). Those ids break
ties between equally frequent pairs (`Merge::cmp` prefers the smaller pair of ids), so each
training picks a few different entries and numbers the `##` block differently
(huggingface/tokenizers#1794; one thread and sorted input do not help). Here the `##` forms are
numbered in code point order, as HF already numbers the bare characters.

What it keeps from HF (tokenizers/src/models/bpe/trainer.rs and word.rs, v0.23.1): ids 0.. the
special tokens, then every character of the words in code point order, then the `##` forms;
pair counts over every adjacent position; a max-heap of (count, smallest pair first) with lazy
counts; each heap entry carries words, all those holding the pair at the start, those where a
merge formed it afterwards (subtle: a merge is applied only to its entry's words, so a pair's
older occurrences wait for its older entry to surface; the merged pair's own count is never
lowered); a merge whose string exists already adds no entry; stopping at the vocabulary size or
below `min_frequency`. What it leaves out: `limit_alphabet`, `initial_alphabet`,
`end_of_word_suffix`, `max_token_length` (the adapter sets none of them). Encoding stays HF's:
the result is the vocabulary of an HF WordPiece model (hf_tokenizers.wordpiece_from_vocab).

    >>> train_vocab({"hug": 10, "pug": 5, "hugs": 5}, vocab_size=12, min_frequency=2).vocab
    ['[UNK]', 'g', 'h', 'p', 's', 'u', '##g', '##s', '##u', '##ug', 'hug', 'pug']

(`##u ##g` is in all 20 words; then `h ##ug` 15; then a tie at 5 between `p ##ug` and `##ug ##s`,
won by the smaller ids, `p` being 3.)
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

UNK = "[UNK]"
PREFIX = "##"


def count_words(tokenizer: Any, texts: Iterable[str]) -> Counter[str]:
    """{word: count} as HF's trainer sees the texts: `tokenizer`'s normaliser, then its
    pre-tokeniser (what `train_from_iterator` feeds its trainer, for a pipeline without added
    tokens)."""
    normalize = tokenizer.normalizer.normalize_str
    pre_tokenize = tokenizer.pre_tokenizer.pre_tokenize_str
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(word for word, _ in pre_tokenize(normalize(text)))
    return counts


class Training(NamedTuple):
    vocab: list[str]  # entry i has id i
    n_initial: int  # the entries before the merges: special tokens, characters, ## forms
    seconds_at: dict[int, float]  # checkpoint size -> seconds since the call began when a run to it would stop


def train_vocab(word_counts: Mapping[str, int], *, vocab_size: int, min_frequency: int,
                special_tokens: Sequence[str] = (UNK,), continuation_order: Sequence[str] | None = None,
                checkpoints: Sequence[int] = ()) -> Training:
    """Train to `vocab_size` entries. A run stops as soon as it holds its size, so a run to a
    smaller size is this one's first entries (all `n_initial` at least): `checkpoints` are such
    sizes, timed. `continuation_order` numbers the `##` forms in another order than code point
    order (the tests pass an HF run's order to reproduce that run)."""
    started = time.perf_counter()
    seconds_at: dict[int, float] = {}
    waiting = sorted(set(checkpoints), reverse=True)  # the smallest last, popped first

    def reached(n_entries: int) -> None:
        while waiting and waiting[-1] <= n_entries:
            seconds_at[waiting.pop()] = time.perf_counter() - started

    words = sorted(word_counts)  # the words' order decides nothing below; sorted to be plain
    counts = [word_counts[word] for word in words]
    id_to_token: list[str] = []
    token_to_id: dict[str, int] = {}

    def add(token: str) -> int:
        if token not in token_to_id:
            token_to_id[token] = len(id_to_token)
            id_to_token.append(token)
        return token_to_id[token]

    for token in special_tokens:
        add(token)
    for ch in sorted({ch for word in words for ch in word}):
        add(ch)
    continuations = {PREFIX + ch for word in words for ch in word[1:]}
    if continuation_order is not None:
        assert set(continuation_order) == continuations, "continuation_order must hold every ## form once"
        ordered = list(continuation_order)
    else:
        ordered = sorted(continuations, key=lambda token: token[len(PREFIX):])
    for token in ordered:
        add(token)
    n_initial = len(id_to_token)
    symbols = [[token_to_id[word[0]]] + [token_to_id[PREFIX + ch] for ch in word[1:]] if word else []
               for word in words]

    pair_counts: dict[tuple[int, int], int] = {}
    where: dict[tuple[int, int], set[int]] = {}
    for i, word in enumerate(symbols):
        for pair in zip(word, word[1:]):
            pair_counts[pair] = pair_counts.get(pair, 0) + counts[i]
            where.setdefault(pair, set()).add(i)
    # Heap entries: (-count, left id, right id, push number, word indices); the push number makes
    # equal entries of one pair pop oldest first (HF's heap leaves that order to its layout).
    queue = [(-pair_counts[pair], pair[0], pair[1], n, pos) for n, (pair, pos) in enumerate(where.items())]
    heapq.heapify(queue)
    pushed = len(queue)
    while True:
        reached(len(id_to_token))
        if len(id_to_token) >= vocab_size or not queue:
            break
        negative, left, right, _, pos = heapq.heappop(queue)
        pair = (left, right)
        if -negative != pair_counts[pair]:  # a stale count: back in at the live one, same words
            heapq.heappush(queue, (-pair_counts[pair], left, right, pushed, pos))
            pushed += 1
            continue
        if -negative < 1 or -negative < min_frequency:
            break
        right_text = id_to_token[right]
        new_id = add(id_to_token[left] + right_text.removeprefix(PREFIX))
        grown: dict[tuple[int, int], set[int]] = {}
        for i in pos:  # any order: the counts add up, the sets gather
            _merge(symbols[i], left, right, new_id, counts[i], i, pair_counts, grown)
        for changed, grown_pos in grown.items():
            if pair_counts[changed] > 0:
                heapq.heappush(queue, (-pair_counts[changed], changed[0], changed[1], pushed, grown_pos))
                pushed += 1
    reached(max(waiting, default=0))  # sizes it stopped short of: their run is this one
    return Training(id_to_token, n_initial, seconds_at)


def _merge(word: list[int], left: int, right: int, new_id: int, count: int, i: int,
           pair_counts: dict[tuple[int, int], int], grown: dict[tuple[int, int], set[int]]) -> None:
    """Merge (left, right) in word `i` in place, left to right without overlap (`a a a` -> `aa a`),
    changing the pair counts as HF's `Word::merge` lists the changes (the merged pair's own count
    is not among them) and noting in `grown` the word under each pair it adds."""
    n = len(word)
    j = 0
    while j < n - 1:
        if word[j] == left and word[j + 1] == right:
            if j > 0:
                before = word[j - 1]
                pair_counts[before, left] -= count
                pair_counts[before, new_id] = pair_counts.get((before, new_id), 0) + count
                grown.setdefault((before, new_id), set()).add(i)
            word[j:j + 2] = [new_id]
            n -= 1
            if j < n - 1:
                after = word[j + 1]
                pair_counts[right, after] -= count
                pair_counts[new_id, after] = pair_counts.get((new_id, after), 0) + count
                grown.setdefault((new_id, after), set()).add(i)
        j += 1
