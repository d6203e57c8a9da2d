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

from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from benchmark.measure import metrics
from benchmark.adapters import Adapter, NotBuilt
from benchmark.results.rows import ResultRow
from benchmark.measure.timing import RUN_CLOCK, ThroughputResult, measure_throughput

EXAMPLE_MIN_CHARS = 40  # the example sentence: the shortest reference line at least this long


@dataclass
class Counts:
    """What counting one tokenizer over some sentences found; two slices' counts merge."""

    tokens_per_line: list[int] = field(default_factory=list)
    n_unk: int = 0
    n_byte_fallback: int = 0
    n_roundtrip: int = 0
    token_counts: Counter = field(default_factory=Counter)  # token id -> how often it occurred
    n_partial_char: int = 0  # tokens whose bytes are not valid UTF-8 alone
    n_words: int | None = None  # None: the language has no word segmenter
    n_words_whole: int = 0  # words exactly one token overlaps
    n_words_continued: int = 0  # words two or more tokens overlap

    @property
    def used_ids(self) -> set[int]:
        return set(self.token_counts)

    def merge(self, later: Counts) -> Counts:
        """These counts followed by `later`'s (the sentences after them)."""
        words = None if self.n_words is None or later.n_words is None else self.n_words + later.n_words
        return Counts(self.tokens_per_line + later.tokens_per_line, self.n_unk + later.n_unk,
                      self.n_byte_fallback + later.n_byte_fallback, self.n_roundtrip + later.n_roundtrip,
                      self.token_counts + later.token_counts, self.n_partial_char + later.n_partial_char,
                      words, self.n_words_whole + later.n_words_whole,
                      self.n_words_continued + later.n_words_continued)


def count_texts(adapter: Adapter, texts: Sequence[str], words: Sequence[array] | None = None) -> Counts:
    """Encode each text on its own, decode it back, and count. `words` (one flat array of word
    byte spans per text, benchmark.words.segmenters) adds the whole-word tallies: each word's tokens are
    the tokens whose spans overlap it (`metrics.tokens_per_word`)."""
    encode, decode = adapter.encode, adapter.decode
    counts = Counts()
    token_counts = counts.token_counts
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
        token_counts.update(ids)
    # Per token id, not per token: the same counts, a fraction of the lookups.
    if adapter.unk_id is not None:
        counts.n_unk = token_counts.get(adapter.unk_id, 0)
    counts.n_byte_fallback = sum(n for i, n in token_counts.items() if i in adapter.byte_fallback_ids)
    partial = adapter.partial_char_ids
    counts.n_partial_char = sum(n for i, n in token_counts.items() if i in partial)
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


def time_language(adapter: Adapter, texts: Sequence[str], warm_texts: Sequence[str], *, repeats: int,
                  yardstick: Adapter | None = None) -> ThroughputResult:
    """Throughput on `texts` after `warm_texts`, the cache reset before every repeat; `yardstick`
    (an adapter without a cache) is timed in turns with the adapter in every repeat."""
    reset = adapter.reset_cache if adapter.has_cache else None
    restorer = getattr(adapter, "cache_restorer", None)
    if reset is not None and restorer is not None:
        # Same protocol, cheaper: warm up once, then restore that warm cache before each repeat.
        adapter.reset_cache()
        for text in warm_texts:
            adapter.encode(text)
        reset = restorer()
        if reset is not None:
            warm_texts = ()
        else:
            reset = adapter.reset_cache
    if yardstick is not None and yardstick.has_cache:
        raise ValueError(f"the yardstick {yardstick.id} keeps a cache: it would be timed on text it has seen")
    return measure_throughput(adapter.encode, warm_texts, texts, repeats=repeats, reset=reset, clock=RUN_CLOCK,
                              yardstick=yardstick.encode if yardstick is not None else None)


def build_row(adapter: Adapter, language: str, texts: Sequence[str], counts: Counts,
              timing: ThroughputResult | None, reference: Counts | None, *,
              interval: tuple[float, float] | None | bool = True) -> ResultRow:
    """The row of one tokenizer on one language; `reference` is the reference language's counts
    under the same tokenizer (None when they failed: no premium). `interval` is the premium's,
    computed by the caller for many rows at once (`metrics.premium_cis`); True computes it here."""
    n_tokens = sum(counts.tokens_per_line)
    n_words = counts.n_words
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    n_chars = sum(len(t) for t in texts)
    premium = ci = None
    if reference is not None:
        premium = metrics.premium(counts.tokens_per_line, reference.tokens_per_line)
        ci = metrics.premium_ci(counts.tokens_per_line, reference.tokens_per_line) if interval is True else interval
    return ResultRow(
        tokenizer=adapter.id,
        family=adapter.family,
        vocab_size=adapter.vocab_size,
        language=language,
        n_sentences=len(texts),
        n_tokens=n_tokens,
        n_bytes=n_bytes,
        n_chars=n_chars,
        n_words=n_words,
        bytes_per_token=metrics.bytes_per_token(n_bytes=n_bytes, n_tokens=n_tokens),
        chars_per_token=metrics.chars_per_token(n_chars=n_chars, n_tokens=n_tokens),
        tokens_per_sentence=metrics.tokens_per_sentence(n_tokens=n_tokens, n_sentences=len(texts)),
        fertility=metrics.fertility(n_tokens=n_tokens, n_words=n_words) if n_words is not None else None,
        whole_word_rate=metrics.share(counts.n_words_whole, n_words) if n_words is not None else None,
        continued_word_rate=metrics.share(counts.n_words_continued, n_words) if n_words is not None else None,
        premium=premium,
        premium_ci_low=ci[0] if ci else None,
        premium_ci_high=ci[1] if ci else None,
        # None, not 0.0, when the model has no unknown token (as byte_fallback_rate without byte pieces).
        unk_rate=metrics.share(counts.n_unk, n_tokens) if adapter.unk_id is not None else None,
        byte_fallback_rate=metrics.share(counts.n_byte_fallback, n_tokens) if adapter.byte_fallback_ids else None,
        # None, not 0.0, when no entry of the vocabulary is part of a character (WordPiece).
        partial_char_rate=metrics.share(counts.n_partial_char, n_tokens) if adapter.partial_char_ids else None,
        roundtrip_rate=metrics.share(counts.n_roundtrip, len(texts)),
        vocab_utilisation=metrics.ratio(len(counts.token_counts), adapter.vocab_size),
        renyi_efficiency=metrics.renyi_efficiency(counts.token_counts.values(), vocab_size=adapter.vocab_size),
        train_seconds=adapter.train_seconds,
        throughput_mb_s=timing.throughput_mb_s if timing else None,
        tokens_per_second=timing.tokens_per_second if timing else None,
        throughput_x_tiktoken=timing.x_yardstick if timing else None,
        embedding_params=metrics.embedding_params(adapter.vocab_size),
        status="ok",
    )


def unmeasured_row(tokenizer_id: str, family: str, vocab_size: int, language: str, texts: Sequence[str],
                   status: str, *, n_words: int | None = None) -> ResultRow:
    """A row with the text's counts (`n_words` too, when known) and no figures: `skipped: ...` or
    `failed: ...`."""
    return ResultRow(
        tokenizer=tokenizer_id, family=family, vocab_size=vocab_size, language=language,
        n_sentences=len(texts), n_tokens=0, n_bytes=sum(len(t.encode("utf-8")) for t in texts),
        n_chars=sum(len(t) for t in texts), n_words=n_words, bytes_per_token=None, chars_per_token=None,
        tokens_per_sentence=None, fertility=None, whole_word_rate=None, continued_word_rate=None,
        premium=None, premium_ci_low=None, premium_ci_high=None,
        unk_rate=None, byte_fallback_rate=None, partial_char_rate=None, roundtrip_rate=None,
        vocab_utilisation=None, renyi_efficiency=None,
        train_seconds=None, throughput_mb_s=None, tokens_per_second=None, throughput_x_tiktoken=None,
        embedding_params=metrics.embedding_params(vocab_size), status=status,
    )


def skipped_row(skipped: NotBuilt, language: str, texts: Sequence[str], *, n_words: int | None = None) -> ResultRow:
    return unmeasured_row(skipped.id, skipped.family, skipped.vocab_size, language, texts, skipped.status,
                          n_words=n_words)


def choose_example_line(reference_texts: Sequence[str]) -> int:
    """The shortest reference sentence with at least EXAMPLE_MIN_CHARS characters (else the first)."""
    candidates = [(len(t), i) for i, t in enumerate(reference_texts) if len(t) >= EXAMPLE_MIN_CHARS]
    return min(candidates)[1] if candidates else 0
