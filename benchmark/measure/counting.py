"""Measures tokenizers on a plan's texts: counts, round trips, timings -> result rows.

- Counting (`count_texts`): every measured sentence encoded on its own as plain text, decoded
  back, its ids counted. The counts of two slices of the text add up (`Counts.merge`), so counting
  can be split into tasks (executors.py) whose results are merged in text order.
- Timing (`time_language`): `benchmark.measure.timing.measure_throughput`, one thread, median of repeats,
  after a warm-up so the timed text is unseen, in turns with the yardstick (tiktoken's cl100k_base)
  so that `throughput_x_tiktoken` survives a machine whose speed changes from second to second.
- A tokenizer that raises on a language becomes a row `failed: <reason>` and the run goes on.

The numbers come from the pure functions in metrics.py.
"""

from __future__ import annotations

import functools
import inspect
from array import array
from dataclasses import dataclass, field, fields
from typing import Mapping, Sequence

from benchmark.results import metrics
from benchmark.adapters import Adapter, NotBuilt
from benchmark.results.rows import ROW_INTERVALS, ResultRow
from benchmark.measure.id_counts import IdCounts
from benchmark.measure.timing import RUN_CLOCK, YARDSTICK_CHUNK_TEXTS, ThroughputResult, measure_throughput

EXAMPLE_MIN_CHARS = 40  # the example sentence: the shortest reference line at least this long


@dataclass
class Counts:
    """What counting one tokenizer over some sentences found. Every field adds up across slices
    of the text (lists concatenate, numbers and id counts add) and None, not applicable to this
    tokenizer or language, stays None: `merge` follows from the fields."""

    tokens_per_line: list[int] = field(default_factory=list)
    n_roundtrip: int = 0
    token_counts: IdCounts = field(default_factory=IdCounts)  # how often each token id occurred
    n_unk: int | None = None  # None: the tokenizer has no unknown token
    n_byte_fallback: int | None = None  # None: it has no byte-fallback pieces
    n_partial_char: int | None = None  # tokens whose bytes are not valid UTF-8 alone; None: it has none
    n_words: int | None = None  # None: the language has no word segmenter
    n_words_whole: int | None = None  # words exactly one token overlaps
    n_words_continued: int | None = None  # words two or more tokens overlap
    # Per line, for the word figures' intervals (the lines are resampled): words, and whole words.
    words_per_line: list[int] | None = None
    whole_words_per_line: list[int] | None = None
    # The Rényi efficiency's interval over these sentences (renyi_interval.py), when asked for; it
    # needs every line's ids, so it is found where they are and does not add up: a merge drops it.
    renyi_efficiency_ci: tuple[float, float] | None = None

    def merge(self, later: Counts) -> Counts:
        """These counts followed by `later`'s (the sentences after them)."""
        return Counts(**{f.name: None if f.name in _NOT_ADDED else _add(getattr(self, f.name), getattr(later, f.name))
                         for f in fields(self)})


_NOT_ADDED = ("renyi_efficiency_ci",)


def _add(first, second):
    return None if first is None or second is None else first + second


def count_texts(adapter: Adapter, texts: Sequence[str], words: Sequence[array] | None = None, *,
                renyi_interval: bool = False) -> Counts:
    """Encode each text on its own, decode it back, and count. `words` (one flat array of word
    byte spans per text, benchmark.words.segmenters) adds the whole-word tallies: each word's tokens are
    the tokens whose spans overlap it (`metrics.tokens_per_word`); `renyi_interval` the Rényi
    efficiency's interval over these texts."""
    encode, decode = adapter.encode, adapter.decode
    counts = Counts()
    every_id = array("q")
    if words is not None:
        encode_with_spans = adapter.encode_with_spans
        token_starts, token_ends, word_bounds = array("q"), array("q"), array("i")
        line_bytes, line_tokens, line_words = [], [], []
    for k, text in enumerate(texts):
        if words is None:
            ids = encode(text)
        else:
            ids, starts, ends = encode_with_spans(text)
            token_starts.extend(starts)
            token_ends.extend(ends)
            word_bounds.extend(words[k])
            line_bytes.append(len(text) if text.isascii() else len(text.encode("utf-8")))
            line_tokens.append(len(ids))
            line_words.append(len(words[k]) // 2)
        counts.tokens_per_line.append(len(ids))
        counts.n_roundtrip += decode(ids) == text
        every_id.extend(ids)
    counts.token_counts = token_counts = IdCounts.of_ids(every_id)
    if renyi_interval:
        from benchmark.measure.renyi_interval import renyi_efficiency_cis

        interval = renyi_efficiency_cis([(every_id, counts.tokens_per_line, adapter.vocab_size)])[0]
        estimate = metrics.renyi_efficiency(token_counts.values(), vocab_size=adapter.vocab_size)
        counts.renyi_efficiency_ci = metrics.containing(interval, estimate)
    # Per token id, not per token: the same counts, a fraction of the lookups.
    if adapter.unk_id is not None:
        counts.n_unk = token_counts.count_of(adapter.unk_id)
    if adapter.byte_fallback_ids:
        counts.n_byte_fallback = token_counts.total_of(adapter.byte_fallback_ids)
    partial = adapter.partial_char_ids
    if partial:  # none in WordPiece: every entry is whole characters
        counts.n_partial_char = token_counts.total_of(partial)
    if words is not None:
        _align(counts, token_starts, token_ends, word_bounds, line_bytes, line_tokens, line_words)
    return counts


def _align(counts: Counts, token_starts, token_ends, word_bounds, line_bytes, line_tokens, line_words) -> None:
    """The whole-word tallies of a slice: every line's spans moved past the lines before it (one
    byte apart), so one pair of binary searches aligns the whole slice."""
    import numpy as np

    bases = np.concatenate(([0], np.cumsum(np.asarray(line_bytes, dtype=np.int64) + 1)[:-1]))
    token_shift = np.repeat(bases, line_tokens)
    bounds = np.frombuffer(word_bounds, dtype=np.int32).astype(np.int64).reshape(-1, 2) + np.repeat(bases, line_words)[:, None]
    overlapping = metrics.tokens_per_word(bounds[:, 0], bounds[:, 1],
                                          np.frombuffer(token_starts, dtype=np.int64) + token_shift,
                                          np.frombuffer(token_ends, dtype=np.int64) + token_shift)
    counts.n_words = len(overlapping)
    counts.n_words_whole = int((overlapping == 1).sum())
    counts.n_words_continued = int((overlapping >= 2).sum())
    line_of_word = np.repeat(np.arange(len(line_words)), line_words)
    counts.words_per_line = list(line_words)
    counts.whole_words_per_line = np.bincount(line_of_word, weights=overlapping == 1,
                                              minlength=len(line_words)).astype(np.int64).tolist()


def time_language(adapter: Adapter, texts: Sequence[str], warm_texts: Sequence[str], *, repeats: int,
                  yardstick: Adapter | None = None, budget_seconds: float | None = None) -> ThroughputResult:
    """Throughput on `texts` after `warm_texts`, the cache reset before every repeat; `yardstick`
    (an adapter without a cache) is timed in turns with the adapter in every repeat. With
    `budget_seconds`, only as many whole turns of `texts` as fit it at the warm-up's speed
    (measure/cells.py). An encoder without a cache warms up once, on the first turn of `texts`:
    there is no cache to fill, only the interpreter and the CPU's caches."""
    from benchmark.measure.cells import spread_turns, turns_in_budget

    has_cache = adapter.has_cache
    warm = warm_texts if has_cache else texts[:YARDSTICK_CHUNK_TEXTS]
    if has_cache:
        adapter.reset_cache()
    start = RUN_CLOCK()
    for text in warm:
        adapter.encode(text)
    warm_seconds = RUN_CLOCK() - start
    if budget_seconds is not None:
        warm_bytes = _n_bytes(warm)
        speed = warm_seconds / warm_bytes if warm_bytes and warm_seconds > 0 else None
        n_turns = turns_in_budget(len(texts), _n_bytes(texts), speed, repeats=repeats, turn=YARDSTICK_CHUNK_TEXTS,
                                  budget_seconds=budget_seconds)
        texts = spread_turns(texts, n_turns, turn=YARDSTICK_CHUNK_TEXTS)
    reset, warmed = None, False
    restorer = getattr(adapter, "cache_restorer", None)
    if has_cache:
        # Warm once and put that warm cache back before each repeat where the adapter can; else
        # (HF's word cache) reset and warm up again before each repeat but the first.
        reset = restorer() if restorer is not None else None
        if reset is not None:
            warm_texts = ()
        else:
            reset, warmed = adapter.reset_cache, True
    else:
        warm_texts = ()
    if yardstick is not None and yardstick.has_cache:
        raise ValueError(f"the yardstick {yardstick.id} keeps a cache: it would be timed on text it has seen")
    return measure_throughput(adapter.encode, warm_texts, texts, repeats=repeats, reset=reset, clock=RUN_CLOCK,
                              yardstick=yardstick.encode if yardstick is not None else None, warmed=warmed)


def build_row(adapter: Adapter, language: str, texts: Sequence[str], counts: Counts,
              timing: ThroughputResult | None, reference: Counts | None, *,
              reference_texts: Sequence[str] | None = None, compressed: tuple[int, int] | None = None,
              intervals: Mapping[str, tuple[float, float] | None] | None = None) -> ResultRow:
    """The row of one tokenizer on one language. `reference` is the reference language's counts
    under the same tokenizer (None when they failed: no premium), `reference_texts` its
    sentences (the byte and character premiums), `compressed` the compressed bytes of this
    language's text and the reference's (the information floor, measure/floor.py). `intervals`
    are the ROW_INTERVALS, computed by the caller for many rows at once (`row_intervals`); None
    computes them here."""
    if intervals is None:
        intervals = row_intervals([(counts, reference)])[0]
    measured = {f.name: getattr(counts, f.name) for f in fields(counts)}
    measured.update(
        n_tokens=sum(counts.tokens_per_line),
        reference_tokens_per_line=reference.tokens_per_line if reference is not None else None,
        reference_n_bytes=_n_bytes(reference_texts) if reference_texts is not None else None,
        reference_n_chars=sum(map(len, reference_texts)) if reference_texts is not None else None,
        reference_n_compressed_bytes=compressed[1] if compressed else None,
        token_frequencies=counts.token_counts.values(),
        n_used_ids=len(counts.token_counts),
        train_seconds=adapter.train_seconds,
        throughput_mb_s=timing.throughput_mb_s if timing else None,
        tokens_per_second=timing.tokens_per_second if timing else None,
        throughput_x_tiktoken=timing.x_yardstick if timing else None,
    )
    for name in ROW_INTERVALS:
        low_high = intervals.get(name)
        measured[f"{name}_ci_low"], measured[f"{name}_ci_high"] = low_high if low_high else (None, None)
    facts = _text_facts(adapter.id, adapter.family, adapter.vocab_size, language, texts, "ok", counts.n_words,
                        compressed[0] if compressed else None)
    return ResultRow(**row_values(facts, measured))


def row_intervals(cells: Sequence[tuple[Counts, Counts | None]]) -> list[dict[str, tuple[float, float] | None]]:
    """The ROW_INTERVALS of many (counts, reference's counts) cells at once, all from the same
    resamples of the sentences (`metrics.ratio_cis`): the premium's (tokens over the reference's
    tokens), fertility's (tokens over words) and the whole-word rate's (whole words over words)."""
    pairs, owners = [], []
    for k, (counts, reference) in enumerate(cells):
        if reference is not None:
            pairs.append((counts.tokens_per_line, reference.tokens_per_line))
            owners.append((k, "premium"))
        if counts.words_per_line is not None:
            pairs += [(counts.tokens_per_line, counts.words_per_line),
                      (counts.whole_words_per_line, counts.words_per_line)]
            owners += [(k, "fertility"), (k, "whole_word_rate")]
    out: list[dict[str, tuple[float, float] | None]] = [{} for _ in cells]
    for (k, name), interval, (values, over) in zip(owners, metrics.ratio_cis(pairs), pairs):
        out[k][name] = metrics.containing(interval, metrics.ratio(sum(values), sum(over)))
    for k, (counts, _) in enumerate(cells):
        if counts.renyi_efficiency_ci is not None:
            out[k]["renyi_efficiency"] = counts.renyi_efficiency_ci
    return out


def unmeasured_row(tokenizer_id: str, family: str, vocab_size: int, language: str, texts: Sequence[str],
                   status: str, *, n_words: int | None = None, n_compressed_bytes: int | None = None) -> ResultRow:
    """A row with the text's counts (`n_words` too, when known) and no figures: `skipped: ...` or
    `failed: ...`."""
    return ResultRow(**row_values(_text_facts(tokenizer_id, family, vocab_size, language, texts, status, n_words,
                                              n_compressed_bytes), None))


def _text_facts(tokenizer_id: str, family: str, vocab_size: int, language: str, texts: Sequence[str],
                status: str, n_words: int | None, n_compressed_bytes: int | None) -> dict:
    """What a row knows without measuring: the tokenizer, the language and its text."""
    return {"tokenizer": tokenizer_id, "family": family, "vocab_size": vocab_size, "language": language,
            "n_sentences": len(texts), "n_bytes": _n_bytes(texts), "n_chars": sum(len(t) for t in texts),
            "n_words": n_words, "n_compressed_bytes": n_compressed_bytes, "status": status}


def _n_bytes(texts: Sequence[str]) -> int:
    return sum(len(t.encode("utf-8")) for t in texts)


def row_values(facts: dict, measured: dict | None) -> dict:
    """Every field of a row by its declaration (results/rows.py): a `_counted` field from `facts`,
    then `measured` (on an unmeasured row, None: its declared `unmeasured` value); a `_formula` one
    by its function over the values its keyword arguments name, None when any is None."""
    values: dict = {}
    known = {**(measured or {}), **facts}  # what formulas see: never an unmeasured row's placeholder
    for f in fields(ResultRow):
        formula = f.metadata.get("formula")
        if formula is None:
            if f.name in facts:
                values[f.name] = facts[f.name]
            else:
                values[f.name] = f.metadata["unmeasured"] if measured is None else measured[f.name]
            continue
        arguments = {name: known.get(name) for name in _arguments(formula)}
        values[f.name] = known[f.name] = None if None in arguments.values() else formula(**arguments)
    return values


@functools.cache
def _arguments(formula) -> tuple[str, ...]:
    """The names of a formula's arguments without a default: the counts it is computed from."""
    return tuple(name for name, p in inspect.signature(formula).parameters.items() if p.default is p.empty)


def skipped_row(skipped: NotBuilt, language: str, texts: Sequence[str], *, n_words: int | None = None,
                n_compressed_bytes: int | None = None) -> ResultRow:
    return unmeasured_row(skipped.id, skipped.family, skipped.vocab_size, language, texts, skipped.status,
                          n_words=n_words, n_compressed_bytes=n_compressed_bytes)


@dataclass(frozen=True)
class Examples:
    """The example sentence (the same line in every language) as each tokenizer splits it."""

    line: int  # 0-based index into the measured sentences
    sentences: dict[str, str]  # language -> its example sentence
    split: dict[str, dict[str, tuple[str, ...]]]  # language -> tokenizer id -> its token strings


def split_examples(tokenizers: Sequence[Adapter], plan) -> Examples:
    """Split each language's example sentence (`choose_example_line` of the reference) with every
    tokenizer; one that raises on it is left out (its row is failed already)."""
    line = choose_example_line(plan.measure_texts[plan.reference])
    sentences = {code: plan.measure_texts[code][line] for code in plan.languages}
    split: dict[str, dict[str, tuple[str, ...]]] = {code: {} for code in plan.languages}
    for tokenizer in tokenizers:
        for code in plan.languages:
            try:
                split[code][tokenizer.id] = tuple(tokenizer.token_strings(sentences[code]))
            except Exception:
                pass  # a tokenizer that fails on the example is a failed row already
    return Examples(line, sentences, split)


def choose_example_line(reference_texts: Sequence[str]) -> int:
    """The shortest reference sentence with at least EXAMPLE_MIN_CHARS characters (else the first)."""
    candidates = [(len(t), i) for i, t in enumerate(reference_texts) if len(t) >= EXAMPLE_MIN_CHARS]
    return min(candidates)[1] if candidates else 0
