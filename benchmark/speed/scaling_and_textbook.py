"""The other figures of our encoder's speed: how it scales on `"a" * n`, and its factor over the
textbook encoder.

- Scaling: one `encode("a" * n)` per size with an empty cache; one long pre-token is the worst
  case of a merge loop, and the target is at most 15x the time per 10x the length.
- Textbook factor: our encoder against the plain one that replays every merge in order on every
  pre-token (benchmark/bpe/reference.py), on a model trained on the dev split. The two must give the
  same ids; the factor is the textbook time over ours.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Sequence

from benchmark.plumbing.errors import BenchmarkError
from benchmark.speed.ratios import ENCODING, LanguageTexts
from benchmark.measure.timing import measure_throughput

SCALING_SIZES = (10_000, 100_000, 1_000_000)
SCALING_REPEATS = 3
TEXTBOOK_VOCAB_SIZE = 4096
TEXTBOOK_LINES = 20  # per language: the textbook encoder replays ~3,800 merges per pre-token
TEXTBOOK_REPEATS = 3  # of ours; the textbook encoder runs once, it takes seconds


@dataclass(frozen=True)
class ScalingRow:
    n_chars: int
    seconds: float  # median, one call on "a" * n_chars with an empty cache
    growth: float | None  # seconds / seconds at the previous (10x smaller) size


def measure_scaling(sizes: Sequence[int] = SCALING_SIZES, *, repeats: int = SCALING_REPEATS,
                    model=None) -> list[ScalingRow]:
    """Time one `encode("a" * n)` per size (cache emptied first): the issue asks <= 15x per 10x."""
    from benchmark.bpe import ByteLevelBPE

    model = model or ByteLevelBPE.from_tiktoken(ENCODING)
    rows: list[ScalingRow] = []
    for n in sizes:
        text = "a" * n
        times = []
        for _ in range(repeats):
            times.append(measure_throughput(model.encode_ordinary, (), (text,), repeats=1,
                                            reset=model.clear_cache).median_seconds)
        seconds = statistics.median(times)
        growth = seconds / rows[-1].seconds if rows else None
        rows.append(ScalingRow(n, seconds, growth))
    return rows


@dataclass(frozen=True)
class TextbookRow:
    language: str
    n_lines: int
    textbook_seconds: float
    ours_seconds: float  # cold cache

    @property
    def factor(self) -> float:
        return self.textbook_seconds / self.ours_seconds


def measure_textbook(corpus: Sequence[LanguageTexts], *, vocab_size: int = TEXTBOOK_VOCAB_SIZE,
                     n_lines: int = TEXTBOOK_LINES) -> list[TextbookRow]:
    """Our encoder against the textbook one (replay every merge in order) on a model we trained.

    The model is trained to `vocab_size` on the dev split of every language; the timed text is
    the first `n_lines` devtest lines (the textbook encoder is too slow for the whole file).
    """
    from benchmark.bpe import ByteLevelBPE
    from benchmark.bpe.patterns import compile_pattern
    from benchmark.bpe.reference import reference_encode

    model = ByteLevelBPE.train([t for texts in corpus for t in texts.dev], vocab_size)
    pattern = compile_pattern(model.pattern)
    rows = []
    for texts in corpus:
        lines = texts.devtest[:n_lines]
        started = time.perf_counter()
        expected = [reference_encode(text, model.merges, pattern) for text in lines]
        textbook_seconds = time.perf_counter() - started
        ours = measure_throughput(model.encode_ordinary, (), lines, repeats=TEXTBOOK_REPEATS,
                                  reset=model.clear_cache)
        if [model.encode_ordinary(text) for text in lines] != expected:
            raise BenchmarkError(f"{texts.language}: our encoder and the textbook one disagree; run the BPE tests")
        rows.append(TextbookRow(texts.language, len(lines), textbook_seconds, ours.median_seconds))
    return rows
