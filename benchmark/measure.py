"""Measures tokenizers on a plan's texts: counts, round trips, timings -> result rows.

- Counting (`count_texts`): every measured sentence encoded on its own as plain text, decoded
  back, its ids counted. The counts of two slices of the text add up (`Counts.merge`), so counting
  can be split into tasks (executors.py) whose results are merged in text order.
- Timing (`time_language`): `benchmark.timing.measure_throughput`, one thread, median of repeats,
  after a warm-up so the timed text is unseen, in turns with the yardstick (tiktoken's cl100k_base)
  so that `throughput_x_tiktoken` survives a machine whose speed changes from second to second.
- A tokenizer that raises on a language becomes a row `failed: <reason>` and the run goes on.

The numbers come from the pure functions in metrics.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from benchmark import metrics
from benchmark.adapters import Adapter, Skipped
from benchmark.results import ResultRow
from benchmark.timing import RUN_CLOCK, ThroughputResult, measure_throughput

EXAMPLE_MIN_CHARS = 40  # the example sentence: the shortest reference line at least this long


@dataclass
class Counts:
    """What counting one tokenizer over some sentences found; two slices' counts merge."""

    tokens_per_line: list[int] = field(default_factory=list)
    n_unk: int = 0
    n_byte_fallback: int = 0
    n_roundtrip: int = 0
    used_ids: set[int] = field(default_factory=set)

    def merge(self, later: Counts) -> Counts:
        """These counts followed by `later`'s (the sentences after them)."""
        return Counts(self.tokens_per_line + later.tokens_per_line, self.n_unk + later.n_unk,
                      self.n_byte_fallback + later.n_byte_fallback, self.n_roundtrip + later.n_roundtrip,
                      self.used_ids | later.used_ids)


def count_texts(adapter: Adapter, texts: Sequence[str]) -> Counts:
    """Encode each text on its own, decode it back, and count."""
    encode, decode = adapter.encode, adapter.decode
    unk = adapter.unk_id
    byte_fallback = adapter.byte_fallback_ids
    counts = Counts()
    for text in texts:
        ids = encode(text)
        counts.tokens_per_line.append(len(ids))
        counts.n_roundtrip += decode(ids) == text
        counts.used_ids.update(ids)
        if unk is not None:
            counts.n_unk += ids.count(unk) if isinstance(ids, list) else sum(i == unk for i in ids)
        if byte_fallback:
            counts.n_byte_fallback += sum(1 for i in ids if i in byte_fallback)
    return counts


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
        bytes_per_token=metrics.bytes_per_token(n_bytes=n_bytes, n_tokens=n_tokens),
        chars_per_token=metrics.chars_per_token(n_chars=n_chars, n_tokens=n_tokens),
        tokens_per_sentence=metrics.tokens_per_sentence(n_tokens=n_tokens, n_sentences=len(texts)),
        premium=premium,
        premium_ci_low=ci[0] if ci else None,
        premium_ci_high=ci[1] if ci else None,
        # None, not 0.0, when the model has no unknown token (as byte_fallback_rate without byte pieces).
        unk_rate=metrics.share(counts.n_unk, n_tokens) if adapter.unk_id is not None else None,
        byte_fallback_rate=metrics.share(counts.n_byte_fallback, n_tokens) if adapter.byte_fallback_ids else None,
        roundtrip_rate=metrics.share(counts.n_roundtrip, len(texts)),
        vocab_utilisation=metrics.ratio(len(counts.used_ids), adapter.vocab_size),
        train_seconds=adapter.train_seconds,
        throughput_mb_s=timing.throughput_mb_s if timing else None,
        tokens_per_second=timing.tokens_per_second if timing else None,
        throughput_x_tiktoken=timing.x_yardstick if timing else None,
        embedding_params=metrics.embedding_params(adapter.vocab_size),
        status="ok",
    )


def unmeasured_row(tokenizer_id: str, family: str, vocab_size: int, language: str, texts: Sequence[str],
                   status: str) -> ResultRow:
    """A row with the text's counts and no figures: `skipped: ...` or `failed: ...`."""
    return ResultRow(
        tokenizer=tokenizer_id, family=family, vocab_size=vocab_size, language=language,
        n_sentences=len(texts), n_tokens=0, n_bytes=sum(len(t.encode("utf-8")) for t in texts),
        n_chars=sum(len(t) for t in texts), bytes_per_token=None, chars_per_token=None,
        tokens_per_sentence=None, premium=None, premium_ci_low=None, premium_ci_high=None,
        unk_rate=None, byte_fallback_rate=None, roundtrip_rate=None, vocab_utilisation=None,
        train_seconds=None, throughput_mb_s=None, tokens_per_second=None, throughput_x_tiktoken=None,
        embedding_params=metrics.embedding_params(vocab_size), status=status,
    )


def skipped_row(skipped: Skipped, language: str, texts: Sequence[str]) -> ResultRow:
    return unmeasured_row(skipped.id, skipped.family, skipped.vocab_size, language, texts, skipped.status)


def choose_example_line(reference_texts: Sequence[str]) -> int:
    """The shortest reference sentence with at least EXAMPLE_MIN_CHARS characters (else the first)."""
    candidates = [(len(t), i) for i, t in enumerate(reference_texts) if len(t) >= EXAMPLE_MIN_CHARS]
    return min(candidates)[1] if candidates else 0
