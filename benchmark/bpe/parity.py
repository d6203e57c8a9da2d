"""Parity-aware BPE: at every merge, help the language that is worst compressed.

Parity-aware BPE (Foroutan, Meister et al. 2025, "Parity-Aware Byte-Pair Encoding: Improving
Cross-lingual Fairness in Tokenization", arXiv 2508.04796) changes one thing in training: which
pair is merged next. Standard BPE takes the pair most frequent in the whole training text, so the
languages with the most text (and the scripts that share its pairs) get most merges. Parity-aware
BPE keeps, for each language, a parity text of the same content in every language (parallel
text), and at every merge takes the language whose parity text is currently the most tokens, then
merges the pair most frequent in that language's training counts. The merge is applied to every
language. Everything else (ids, the pair rule, model files, the encoder, the tiktoken and HF
exports) is standard BPE: only the choice of merges differs.

What this module adds: `train_parity_merges(pretoken_counts_by_language, n_merges)`, which keeps
one `pairs.Corpus` per language (its words, their index, pair counts and queue, updated by each
merge as the standard trainer updates its one corpus: nothing is recounted) and each language's
current number of tokens of its parity text, updated from each merge's saved tokens, so choosing
the worst language costs O(languages) per merge.

- The parity text is by default the training counts themselves; `parity_counts_by_language` gives
  a separate one (the same languages). Token counts are only comparable across languages when the
  parity texts are parallel and unweighted: when the training counts are weighted (a training mix
  with English at 90%), pass the unweighted parallel counts as the parity text. A parity
  pre-token that the language's training counts hold splits as it does there, so its tokens are
  counted on the training corpus; only the others get a corpus of their own.
- Weights then change no parity-aware merge: a weight multiplies all of its language's pair
  counts alike, so the language's best pair stays the same (only the global phase and
  `min_frequency` see weights).
- `global_merges=M` is the paper's hybrid: the first M merges are chosen by the count summed over
  languages (exactly standard BPE on the added counts), the rest parity-aware.

The rules, beyond the standard trainer's (train.py), which all hold here too (reference.py holds
a naive trainer that follows them, and the tests check that both give identical merge lists):

- Worst language: the one whose parity text has the most tokens now. Ties go to the language
  whose name sorts first (so the result never depends on the mapping's order).
- Its pair: the highest count in that language's training counts, then the smallest
  `(left_id, right_id)`, as in standard BPE. A pair whose bytes already are a token is skipped for
  every language, for good (the duplicate-bytes rule), and the language's next pair is taken.
- When the worst language has no pair left at `min_frequency` or more, the next-worst language
  (by the same order) is taken, and so on; training stops when no language has one. (A language
  skipped so stays without: no merge raises a language's largest pair count, as every occurrence
  of a new pair (x, AB) was an occurrence of (x, A).)
- Merges are a prefix: training to N merges gives the first N merges of a longer run.

Left out: the paper's moving-window variant (a language chosen more than alpha/n of the last W
merges is passed over). It exists to spread merges when one language stays worst for long; here
the worst language improves with every merge it gets until another becomes worst, the hybrid
covers the trade with global compression, and the variant's two knobs (W, alpha) have no value
the benchmark could justify. Also left out: the paper's target compression ratios per language.

    >>> counts = {"en": {b"low": 5, b"lower": 2}, "xx": {b"zzz": 3, b"zyz": 1}}
    >>> merges, seconds_at = train_parity_merges(counts, 2, min_frequency=1)
    >>> merges  # en has 25 tokens, xx 12: en's ("l", "o"), then en (18 tokens) its ("lo", "w")
    [(108, 111), (256, 119)]
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence

from benchmark.bpe.progress import Clock
from benchmark.bpe.pairs import Corpus, PairQueue, Tokens, check_merge_budget
from benchmark.bpe.train import checked_counts

__all__ = ["train_parity_merges"]


def train_parity_merges(
    pretoken_counts_by_language: Mapping[str, Mapping[bytes, int]],
    n_merges: int,
    *,
    parity_counts_by_language: Mapping[str, Mapping[bytes, int]] | None = None,
    global_merges: int = 0,
    min_frequency: int = 2,
    progress: bool = False,
    checkpoints: Sequence[int] = (),
) -> tuple[list[tuple[int, int]], dict[int, float]]:
    """Learn up to `n_merges` merges, parity-aware (see the module's rules).

    `pretoken_counts_by_language` maps a language's name to its pre-token frequency table (as
    `train.count_pretokens` makes it); returns `(merges, seconds_at)` as `train.train_merges` does.
    """
    merges, seconds_at, _, _ = _train_parity(
        pretoken_counts_by_language,
        n_merges,
        parity_counts_by_language=parity_counts_by_language,
        global_merges=global_merges,
        min_frequency=min_frequency,
        progress=progress,
        checkpoints=checkpoints,
    )
    return merges, seconds_at


def _train_parity(
    pretoken_counts_by_language: Mapping[str, Mapping[bytes, int]],
    n_merges: int,
    *,
    parity_counts_by_language: Mapping[str, Mapping[bytes, int]] | None,
    global_merges: int,
    min_frequency: int,
    progress: bool,
    checkpoints: Sequence[int],
) -> tuple[list[tuple[int, int]], dict[int, float], list[str | None], dict[str, int]]:
    """`train_parity_merges`, also returning the language each merge was chosen for (None for a
    global merge) and each language's final number of parity tokens (the tests check them)."""
    started = time.perf_counter()
    counts, parity = checked_languages(pretoken_counts_by_language, parity_counts_by_language)
    if isinstance(global_merges, bool) or not isinstance(global_merges, int) or global_merges < 0:
        raise ValueError(f"global_merges is a number of merges (0 or more), got {global_merges!r}")
    languages = sorted(counts)  # the tie order: by name
    n_merges = max(0, n_merges)
    min_frequency = max(1, min_frequency)
    tokens = Tokens(n_merges)
    if parity is None:
        corpora = [Corpus(counts[language], tokens.shift, min_frequency, keep_rare=True) for language in languages]
        parity_corpora = None
    else:
        # A parity pre-token the training counts hold splits as it does there: its tokens are
        # counted on the training corpus, with the parity text's counts. The others are merged
        # in a corpus of their own, whose pairs never compete.
        corpora = [Corpus(counts[language], tokens.shift, min_frequency, token_counts=parity[language], keep_rare=True)
                   for language in languages]
        parity_corpora = [Corpus({data: n for data, n in parity[language].items() if data not in counts[language]},
                                 tokens.shift, math.inf, keep_rare=True) for language in languages]
    n_tokens = [sum(n * len(data) for data, n in (parity or counts)[language].items()) for language in languages]
    check_merge_budget(n_merges, corpora)
    totals = _summed_pairs(corpora, min_frequency) if global_merges else None
    chosen: list[str | None] = []
    clock = Clock(n_merges, checkpoints, progress, started)
    try:
        while len(tokens.merges) < n_merges:
            if len(tokens.merges) < global_merges:
                key, language = totals.best(tokens), None
            else:
                totals = None  # the global phase is over: free its counts
                key, language = _worst_language_pair(corpora, n_tokens, tokens)
            if key < 0:
                break
            new_id = tokens.add(key)
            chosen.append(None if language is None else languages[language])
            changes: defaultdict[int, int] | None = defaultdict(int) if totals is not None else None
            for i, corpus in enumerate(corpora):
                n_tokens[i] -= corpus.merge(key, new_id, changes)
            if parity_corpora is not None:
                for i, corpus in enumerate(parity_corpora):
                    n_tokens[i] -= corpus.merge(key, new_id)
            if totals is not None:
                _update_totals(totals, changes, key)
            clock.done(len(tokens.merges))
    finally:
        clock.stop()
    return tokens.merges, clock.seconds_at(len(tokens.merges)), chosen, dict(zip(languages, n_tokens))


def _worst_language_pair(corpora: list[Corpus], n_tokens: list[int], tokens: Tokens) -> tuple[int, int]:
    """(pair key, language index) of the worst language that has a pair to merge; (-1, -1) if none.

    The worst language is found in O(languages); only when it has no pair left are the others
    sorted, worst first (ties: the first in name order, which is index order)."""
    worst = max(range(len(corpora)), key=lambda i: (n_tokens[i], -i))
    key = corpora[worst].pairs.best(tokens)
    if key >= 0:
        return key, worst
    for i in sorted(range(len(corpora)), key=lambda i: (-n_tokens[i], i)):
        if i != worst and (key := corpora[i].pairs.best(tokens)) >= 0:
            return key, i
    return -1, -1


def _update_totals(totals: PairQueue, delta: dict[int, int], key: int) -> None:
    """Apply the count changes of merging pair `key`, summed over the languages, to `totals`."""
    pair_counts, min_frequency = totals.pair_counts, totals.min_frequency
    # subtle: every occurrence of the pair was merged or (for runs like `a a a`) destroyed.
    pair_counts.pop(key, None)
    delta.pop(key, None)
    for k, change in delta.items():
        if change:
            count = pair_counts.get(k, 0) + change
            if count > 0:
                pair_counts[k] = count
                if change > 0 and count >= min_frequency:
                    totals.file(k, count)  # a pair born now (counts rise at birth only)
            else:
                pair_counts.pop(k, None)


def _summed_pairs(corpora: list[Corpus], min_frequency: int) -> PairQueue:
    """Every pair's count summed over the languages, with its queue (the hybrid's global phase)."""
    summed: defaultdict[int, int] = defaultdict(int)
    for corpus in corpora:
        for key, n in corpus.pairs.pair_counts.items():
            summed[key] += n
    return PairQueue(dict(summed), min_frequency)


def checked_languages(
    pretoken_counts_by_language: Mapping[str, Mapping[bytes, int]],
    parity_counts_by_language: Mapping[str, Mapping[bytes, int]] | None,
) -> tuple[dict[str, dict[bytes, int]], dict[str, dict[bytes, int]] | None]:
    """Both mappings checked: language names are str, the same languages in both, every table a
    frequency table of positive int counts (`train.checked_counts`)."""
    def check(mapping: object, what: str) -> dict[str, dict[bytes, int]]:
        if not isinstance(mapping, Mapping) or not mapping:
            raise TypeError(f"{what} must map each language's name to its pre-token counts, got {mapping!r:.60}")
        for language in mapping:
            if not isinstance(language, str):
                raise TypeError(f"{what}: language names are str, got {type(language).__name__} {language!r}")
        return {language: checked_counts(table, f"{what}[{language!r}]") for language, table in mapping.items()}

    counts = check(pretoken_counts_by_language, "pretoken_counts_by_language")
    if parity_counts_by_language is None:
        return counts, None
    parity = check(parity_counts_by_language, "parity_counts_by_language")
    if parity.keys() != counts.keys():
        raise ValueError(
            f"the parity text's languages {sorted(parity)} are not the training languages {sorted(counts)}; "
            "give every training language its parallel text, and no other"
        )
    return counts, parity
