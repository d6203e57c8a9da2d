"""Training speed: our pure-Python BPE trainer against HuggingFace `tokenizers`, side by side.

For each vocabulary size, times our full training (`count_pretokens` with the cl100k pattern, then
`train_merges`) and HF's byte-level BPE trainer at its defaults on the same texts, alternating the
two so that machine noise hits both alike, and keeps the median of the repeats. Our peak memory is
measured in a separate, untimed run under `tracemalloc` (it slows Python code down, so it never
overlaps a timed run): it is the peak of Python allocations during training, in MiB.

With `workers` above 1, ours counts its pre-tokens in that many worker processes
(`benchmark.measure.executors`, shards added up by `add_counts`, the merges unchanged) and HF trains on as
many rayon threads; with 1 (the default), both use one core.

The texts are the dev split of the speed figures' languages (`ratios.load_texts`, read through
`benchmark.corpora`); the six bundled FLORES-200 dev files are about 1 MB. `tokenizers` is
imported only when HF is timed, and `regex` (through our trainer) only when ours is.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from dataclasses import dataclass
from typing import Sequence

from benchmark.speed.ratios import LanguageTexts

TRAINING_VOCAB_SIZES = (4096, 16384)
TRAINING_REPEATS = 3
SHARD_LINES = 20_000  # lines per pre-token counting task with workers


def set_hf_threads(workers: int) -> None:
    """HF's trainer threads; before `tokenizers` is first used (rayon reads it once)."""
    import os

    os.environ["RAYON_NUM_THREADS"] = str(workers)


def dev_texts(corpus: Sequence[LanguageTexts]) -> list[str]:
    """The training text: every language's dev split, one text per line, in the corpus's order."""
    return [text for texts in corpus for text in texts.dev]


def count_sharded(texts: Sequence[str], workers: int) -> dict[bytes, int]:
    """Our pre-token counts, counted in `workers` processes, shard by shard, and added up."""
    from functools import partial

    from benchmark.bpe.patterns import PATTERNS
    from benchmark.bpe.train import add_counts, count_pretokens
    from benchmark.measure.executors import ProcessExecutor

    shards = [list(texts[start:start + SHARD_LINES]) for start in range(0, len(texts), SHARD_LINES)]
    with ProcessExecutor(workers) as executor:
        return add_counts(executor.map(partial(count_pretokens, pattern=PATTERNS["cl100k"]), shards))


def train_ours(texts: Sequence[str], vocab_size: int, workers: int = 1) -> dict:
    """One full training run of ours: seconds for each half and the actual vocabulary size."""
    from benchmark.bpe.patterns import PATTERNS, compile_pattern
    from benchmark.bpe.train import count_pretokens, train_merges

    pattern = compile_pattern(PATTERNS["cl100k"])
    start = time.perf_counter()
    counts = count_pretokens(texts, pattern) if workers == 1 else count_sharded(texts, workers)
    counted = time.perf_counter()
    merges, _ = train_merges(counts, vocab_size - 256)
    end = time.perf_counter()
    return {
        "seconds": end - start,
        "count_seconds": counted - start,
        "merge_seconds": end - counted,
        "vocab_size": 256 + len(merges),
    }


def train_hf(texts: Sequence[str], vocab_size: int) -> dict:
    """One run of HF's byte-level BPE trainer at its defaults (the progress bar off)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,  # display only; it does not change what is trained
    )
    start = time.perf_counter()
    tokenizer.train_from_iterator(texts, trainer=trainer)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "vocab_size": tokenizer.get_vocab_size()}


def peak_memory_ours(texts: Sequence[str], vocab_size: int) -> float:
    """Peak Python allocation during our training, in MiB (tracemalloc; untimed run)."""
    from benchmark.bpe.patterns import PATTERNS, compile_pattern
    from benchmark.bpe.train import count_pretokens, train_merges

    pattern = compile_pattern(PATTERNS["cl100k"])
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        train_merges(count_pretokens(texts, pattern), vocab_size - 256)
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak_bytes / 2**20


@dataclass(frozen=True)
class TrainingRow:
    """One vocabulary size: medians over the repeats, and what each trainer reached."""

    vocab_size: int  # asked for
    ours_seconds: float
    hf_seconds: float
    ours_count_seconds: float  # counting the pre-tokens
    ours_merge_seconds: float  # learning the merges
    ours_peak_mib: float  # tracemalloc peak, untimed run
    ours_vocab_size: int
    hf_vocab_size: int

    @property
    def ratio(self) -> float:
        """Our training time / HF's (lower is better)."""
        return self.ours_seconds / self.hf_seconds


def compare_training(texts: Sequence[str], vocab_sizes: Sequence[int] = TRAINING_VOCAB_SIZES, *,
                     repeats: int = TRAINING_REPEATS, workers: int = 1) -> list[TrainingRow]:
    """Time ours and HF's training for each vocabulary size, alternating; one row per size. HF's
    threads must have been set (`set_hf_threads`) before `tokenizers` was first used."""
    rows = []
    for vocab_size in vocab_sizes:
        ours_runs, hf_runs = [], []
        for _ in range(repeats):
            ours_runs.append(train_ours(texts, vocab_size, workers))
            hf_runs.append(train_hf(texts, vocab_size))
        rows.append(TrainingRow(
            vocab_size=vocab_size,
            ours_seconds=statistics.median(run["seconds"] for run in ours_runs),
            hf_seconds=statistics.median(run["seconds"] for run in hf_runs),
            ours_count_seconds=statistics.median(run["count_seconds"] for run in ours_runs),
            ours_merge_seconds=statistics.median(run["merge_seconds"] for run in ours_runs),
            ours_peak_mib=peak_memory_ours(texts, vocab_size),
            ours_vocab_size=ours_runs[0]["vocab_size"],
            hf_vocab_size=hf_runs[0]["vocab_size"],
        ))
    return rows
