"""Timing columns kept in the results cache and reused on request (`run --reuse-timing`).

Every run stores each tokenizer's timings (a `TimedEntry`: the timings and when they were
measured); only a run asked to reuse them reads them back. The key holds everything the counts'
key does (the tokenizer's identity, this suite's counting code, the counting libraries) plus the
timed and warm-up sentences, the timing settings (repeats, clock, yardstick and its turns, the
timing code itself) and the machine (platform, processor, cpu count, python): a change to any
is a miss and the tokenizer is timed again. A throughput belongs to the machine on the day it
was measured, so the run record says which tokenizers' timings were reused and when they were
measured (`settings.timing.reused_measured_on`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from benchmark.measure.describe import YARDSTICK_ID
from benchmark.measure.results_cache import ResultsCache, _digest, texts_digest, tokenizer_identity
from benchmark.measure.timing import RUN_CLOCK_NAME, YARDSTICK_CHUNK_TEXTS, ThroughputResult, machine_info


@dataclass(frozen=True)
class TimedEntry:
    measured_on: str  # ISO 8601 date and time (UTC) of the run that timed them
    timed: dict[str, ThroughputResult]  # language -> its timing


def _timing_code_digest() -> str:
    return hashlib.sha256(Path(__file__).with_name("timing.py").read_bytes()).hexdigest()


def timing_key(tokenizer: Any, plan: Any, languages: Sequence[str], *,
               machine: dict[str, Any] | None = None) -> str | None:
    """The key of one tokenizer's timings on `languages` under `plan`; None (never kept) without
    a fingerprint. `machine` defaults to this machine's `machine_info()`."""
    identity = tokenizer_identity(tokenizer)
    if identity is None:
        return None
    return _digest({"kind": "timing", "tokenizer": identity,
                    "timed": {code: texts_digest(plan.timed_texts[code]) for code in languages},
                    "warm": {code: texts_digest(plan.warm_texts[code]) for code in languages},
                    "settings": {"repeats": plan.repeats, "quick": plan.quick, "clock": RUN_CLOCK_NAME,
                                 "yardstick": YARDSTICK_ID, "turn": YARDSTICK_CHUNK_TEXTS,
                                 "code": _timing_code_digest()},
                    "machine": machine if machine is not None else machine_info()})


def reuse_or_time(tokenizers: Sequence[Any], plan: Any, counted, stored: ResultsCache,
                  time_all: Callable[..., dict[str, dict[str, ThroughputResult]]], cells=None):
    """(tokenizer id -> language -> timing, tokenizer id -> when its reused timings were measured).
    With `plan.reuse_timing`, a tokenizer whose entry is whole is not timed; the others are timed
    by `time_all(tokenizers)` (alone, as always) and stored, whole sets only. `cells`: tokenizer id
    -> the languages it is timed on (measure/cells.py); None: every timed language."""
    expected = {t.id: [code for code in (plan.timed_texts if cells is None else cells[t.id])
                       if code not in counted[t.id][1]] for t in tokenizers}
    keys = {t.id: timing_key(t, plan, expected[t.id]) for t in tokenizers} if stored.root else {}
    reused: dict[str, dict[str, ThroughputResult]] = {}
    measured_on: dict[str, str] = {}
    if getattr(plan, "reuse_timing", False):
        for tokenizer in tokenizers:
            entry = stored.get(keys.get(tokenizer.id), TimedEntry)
            if entry is not None and sorted(entry.timed) == sorted(expected[tokenizer.id]):
                reused[tokenizer.id] = dict(entry.timed)
                measured_on[tokenizer.id] = entry.measured_on
    todo = [t for t in tokenizers if t.id not in reused]
    timed = time_all(todo) if todo else {}
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    for tokenizer in todo:
        got = timed.get(tokenizer.id, {})
        if sorted(got) == sorted(expected[tokenizer.id]):  # a tokenizer that failed a timed pass is not kept
            stored.put(keys.get(tokenizer.id), TimedEntry(measured_on=now, timed=dict(got)))
    return {t.id: reused[t.id] if t.id in reused else timed.get(t.id, {}) for t in tokenizers}, measured_on
