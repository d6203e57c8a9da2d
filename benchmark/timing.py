"""The one piece of code that times an encoder.

The throughput table of the reports and the pytest-benchmark cases (tests/benchmarks) both call
`measure_throughput`, so they measure the same thing the same way.

Protocol ("unseen text"): an encoder with a cache (our BPE's pre-token cache, HF BPE's word
cache) would look fast on text it has already seen. So, for such an encoder (the caller passes
`reset`), every repeat starts from a reset encoder, encodes the warm-up texts first (the
language's `dev` split: a realistic amount of earlier text in the cache, and a warm interpreter),
and then times the encoding of the timed texts (`devtest`), each text encoded on its own as one
call. An encoder without a cache (no `reset`) is warmed up once, before the first repeat. The figure is the median over repeats, which resists
the odd slow repeat on a noisy shared machine. Garbage collection is paused while a repeat is
timed, as `timeit` does, so a collection triggered by an earlier step does not land in it.

Yardstick: absolute seconds are weak evidence on a shared machine. Measured here, the same pass
over the same text took 40 ms or 70 ms depending on the second it ran in, and tiktoken's pass
moved with it (16 ms or 25 ms). So, given a `yardstick` encoder (the run uses tiktoken's
`cl100k_base`, which has no cache), every repeat also times the yardstick on the same texts right
before or right after the encoder, alternating which goes first, and `x_yardstick` is the median
over repeats of (yardstick seconds / encoder seconds) of one such pair: the encoder's throughput
in multiples of the yardstick's, which keeps when the whole machine slows down.

The caller chooses the threads: measure.py pins HF tokenizers to one thread before importing it;
tiktoken's `encode_ordinary` and SentencePiece's `encode` on a single string use one thread.
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from benchmark import metrics


@dataclass(frozen=True)
class ThroughputResult:
    repeat_seconds: tuple[float, ...]  # wall seconds of each timed repeat
    median_seconds: float
    n_bytes: int  # UTF-8 bytes of the timed texts
    n_tokens: int  # tokens produced by one pass over the timed texts
    # The ids of the last timed pass, one list per text (only with keep_ids=True): lets the caller
    # count without encoding everything once more.
    ids: tuple[Sequence[int], ...] | None = field(default=None, repr=False, compare=False)
    # The yardstick's seconds over the same texts, one per repeat, timed back to back with it.
    yardstick_seconds: tuple[float, ...] = ()

    @property
    def throughput_mb_s(self) -> float | None:
        """Decimal MB per second (`metrics.throughput_mb_s`); None when the clock saw no time."""
        return metrics.throughput_mb_s(n_bytes=self.n_bytes, seconds=self.median_seconds)

    @property
    def tokens_per_second(self) -> float | None:
        return metrics.tokens_per_second(n_tokens=self.n_tokens, seconds=self.median_seconds)

    @property
    def x_yardstick(self) -> float | None:
        """Throughput in multiples of the yardstick's: the median over repeats of one back-to-back
        pair's (yardstick seconds / encoder seconds); None without a yardstick or a clock that saw
        no time."""
        pairs = [y / s for y, s in zip(self.yardstick_seconds, self.repeat_seconds) if y > 0 and s > 0]
        return statistics.median(pairs) if pairs else None


def measure_throughput(
    encode: Callable[[str], Sequence[int]],
    warm_texts: Sequence[str],
    timed_texts: Sequence[str],
    *,
    repeats: int = 3,
    reset: Callable[[], None] | None = None,
    keep_ids: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    yardstick: Callable[[str], Sequence[int]] | None = None,
) -> ThroughputResult:
    """Time `encode` over `timed_texts`, each text on its own, after warming up on `warm_texts`.

    `reset` (optional) empties the encoder's caches; when given, it is called before every
    repeat, followed by the warm-up, so each repeat sees the timed texts for the first time.
    `yardstick` (optional, an encoder without a cache, already warm) is timed over the same texts
    in every repeat, after the encoder in even repeats and before it in odd ones.

    >>> r = measure_throughput(str.encode, ["warm"], ["hello", "world"], repeats=3)
    >>> r.n_bytes, r.n_tokens, len(r.repeat_seconds)
    (10, 10, 3)
    """
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    n_bytes = sum(len(text.encode("utf-8")) for text in timed_texts)
    repeat_seconds = []
    yardstick_seconds = []
    outputs: list[Sequence[int]] = []
    for repeat in range(repeats):
        if reset is not None:
            reset()
        if reset is not None or repeat == 0:
            for text in warm_texts:
                encode(text)
        if yardstick is not None and repeat % 2:
            yardstick_seconds.append(_time_once(yardstick, timed_texts, clock)[1])
        outputs, seconds = _time_once(encode, timed_texts, clock)
        repeat_seconds.append(seconds)
        if yardstick is not None and not repeat % 2:
            yardstick_seconds.append(_time_once(yardstick, timed_texts, clock)[1])
    return ThroughputResult(
        repeat_seconds=tuple(repeat_seconds),
        median_seconds=statistics.median(repeat_seconds),
        n_bytes=n_bytes,
        n_tokens=sum(len(ids) for ids in outputs),
        ids=tuple(outputs) if keep_ids else None,
        yardstick_seconds=tuple(yardstick_seconds),
    )


def _time_once(encode: Callable[[str], Sequence[int]], texts: Sequence[str],
               clock: Callable[[], float]) -> tuple[list[Sequence[int]], float]:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        outputs = [encode(text) for text in texts]  # the tightest loop Python has
        seconds = clock() - start
    finally:
        if gc_was_enabled:
            gc.enable()
    return outputs, seconds


def machine_info() -> dict[str, Any]:
    """Where a timing was taken (the run record's and the speed baseline's `machine`)."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
    }
