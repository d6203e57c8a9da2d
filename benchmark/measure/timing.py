"""The one piece of code that times an encoder.

The throughput table of the reports and the pytest-benchmark cases (tests/benchmarks) both call
`measure_throughput`, so they measure the same thing the same way.

Protocol ("unseen text"): an encoder with a cache (our BPE's pre-token cache, HF BPE's word
cache) would look fast on text it has already seen. So, for such an encoder (the caller passes
`reset`), every repeat starts from a reset encoder, encodes the warm-up texts first (the
language's `dev` split: a realistic amount of earlier text in the cache, and a warm interpreter),
and then times the encoding of the timed texts (a sample of `devtest`), each text encoded on its
own as one call. An encoder without a cache (no `reset`) is warmed up once, before the first
repeat. The figure is the median over repeats, which resists the odd slow repeat on a noisy
shared machine. Garbage collection is paused while a repeat is
timed, as `timeit` does, so a collection triggered by an earlier step does not land in it.

Yardstick: absolute seconds are weak evidence on a shared machine, whose speed moves from one
second to the next (docs/measurements/). So, given a `yardstick` encoder (the run uses tiktoken's
`cl100k_base`, which has no cache), every repeat also times the yardstick on the same texts, the
two taking turns every YARDSTICK_CHUNK_TEXTS texts (who goes first alternates), each side's
seconds summed; `x_yardstick` is the median over repeats of (yardstick seconds / encoder seconds):
the encoder's throughput in multiples of the yardstick's. A change of the machine's speed lands on
both sides within a few milliseconds, where a whole pass of a slow encoder often straddled one.
Before each timed turn the yardstick re-encodes the turn before, untimed, so that its short turns
run on warm CPU caches, as in a pass of its own.

The caller chooses the threads: the HF adapter pins HF tokenizers to one thread before importing it;
tiktoken's `encode_ordinary` and SentencePiece's `encode` on a single string use one thread.
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from benchmark.results import metrics

# Texts per turn when an encoder and its yardstick take turns: short enough that a change of the
# machine's speed lands on both, long enough for a turn to be timed (the measurements behind it:
# docs/measurements/2026-11-30-throughput-yardstick.md).
YARDSTICK_CHUNK_TEXTS = 128

# The run's clock: the process's CPU time, as `benchmark.speed` uses. Every encoder runs on one
# thread, so on an idle machine it equals the wall time, and on a busy one it leaves out the time
# the OS gave to other processes, which stretches a long pass more than a short one. Not on
# Windows, whose process times move in steps of 15.6 ms, several times a turn of tiktoken's.
RUN_CLOCK, RUN_CLOCK_NAME = ((time.perf_counter, "wall clock (time.perf_counter)") if sys.platform == "win32"
                             else (time.process_time, "CPU time of the process (time.process_time)"))


@dataclass(frozen=True)
class ThroughputResult:
    repeat_seconds: tuple[float, ...]  # seconds of each timed repeat, by the caller's clock
    median_seconds: float
    n_bytes: int  # UTF-8 bytes of the timed texts
    n_tokens: int  # tokens produced by one pass over the timed texts
    # The ids of the last timed pass, one list per text (only with keep_ids=True): lets the caller
    # count without encoding everything once more.
    ids: tuple[Sequence[int], ...] | None = field(default=None, repr=False, compare=False)
    # The yardstick's seconds over the same texts, one per repeat, timed in turns with the encoder.
    yardstick_seconds: tuple[float, ...] = ()
    n_texts: int | None = None  # texts timed in each repeat (None: kept before it was recorded)

    @property
    def throughput_mb_s(self) -> float | None:
        """Decimal MB per second (`metrics.throughput_mb_s`); None when the clock saw no time."""
        return metrics.throughput_mb_s(n_bytes=self.n_bytes, seconds=self.median_seconds)

    @property
    def tokens_per_second(self) -> float | None:
        return metrics.tokens_per_second(n_tokens=self.n_tokens, seconds=self.median_seconds)

    @property
    def x_yardstick(self) -> float | None:
        """Throughput in multiples of the yardstick's: the median over repeats of that repeat's
        (yardstick seconds / encoder seconds); None without a yardstick or a clock that saw no
        time."""
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
    warmed: bool = False,
) -> ThroughputResult:
    """Time `encode` over `timed_texts`, each text on its own, after warming up on `warm_texts`.

    `reset` (optional) empties the encoder's caches; when given, it is called before every
    repeat, followed by the warm-up, so each repeat sees the timed texts for the first time.
    `yardstick` (optional, an encoder without a cache) is timed over the same texts in every
    repeat, the two taking turns every `YARDSTICK_CHUNK_TEXTS` texts, the encoder first in even
    repeats and the yardstick first in odd ones; it warms up before each of its turns. `warmed`:
    the caller has just reset the encoder and encoded `warm_texts`, so the first repeat starts as
    it is.

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
        if not (warmed and repeat == 0):
            if reset is not None:
                reset()
            if reset is not None or repeat == 0:
                for text in warm_texts:
                    encode(text)
        if yardstick is None:
            outputs, seconds = _time_once(encode, timed_texts, clock)
        else:
            outputs, seconds, seconds_of_yardstick = _time_in_turns(encode, yardstick, timed_texts, clock,
                                                                    encoder_first=not repeat % 2)
            yardstick_seconds.append(seconds_of_yardstick)
        repeat_seconds.append(seconds)
    return ThroughputResult(
        repeat_seconds=tuple(repeat_seconds),
        median_seconds=statistics.median(repeat_seconds),
        n_bytes=n_bytes,
        n_tokens=sum(len(ids) for ids in outputs),
        ids=tuple(outputs) if keep_ids else None,
        yardstick_seconds=tuple(yardstick_seconds),
        n_texts=len(timed_texts),
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


def _time_in_turns(encode: Callable[[str], Sequence[int]], yardstick: Callable[[str], Sequence[int]],
                   texts: Sequence[str], clock: Callable[[], float], *,
                   encoder_first: bool) -> tuple[list[Sequence[int]], float, float]:
    """The encoder's outputs and seconds over `texts`, and the yardstick's seconds over the same
    texts, the two taking turns chunk by chunk (which goes first alternates too)."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # between turns too (each turn's `_time_once` leaves it off, as it found it)
    outputs: list[Sequence[int]] = []
    seconds = yardstick_seconds = 0.0
    chunk_before_first = texts[(len(texts) - 1) // YARDSTICK_CHUNK_TEXTS * YARDSTICK_CHUNK_TEXTS:]
    try:
        for turn, start in enumerate(range(0, len(texts), YARDSTICK_CHUNK_TEXTS)):
            chunk = texts[start:start + YARDSTICK_CHUNK_TEXTS]
            for is_encoder in ((True, False) if encoder_first == (turn % 2 == 0) else (False, True)):
                if is_encoder:
                    chunk_outputs, chunk_seconds = _time_once(encode, chunk, clock)
                    outputs += chunk_outputs
                    seconds += chunk_seconds
                else:
                    # Untimed, the texts of the turn before (the last turn's, before the first): the
                    # yardstick has no cache, so this only warms the CPU caches that the encoder's turn
                    # filled with its own data, as they are warm all through a pass of its own.
                    [yardstick(text) for text in texts[start - YARDSTICK_CHUNK_TEXTS:start] or chunk_before_first]
                    # subtle: the same timed loop as the encoder's, so its ids too are freed after the clock
                    yardstick_seconds += _time_once(yardstick, chunk, clock)[1]
    finally:
        if gc_was_enabled:
            gc.enable()
    return outputs, seconds, yardstick_seconds


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
