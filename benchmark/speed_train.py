"""Training speed: our pure-Python BPE trainer against HuggingFace `tokenizers`, side by side.

For each vocabulary size, times our full training (`count_pretokens` with the cl100k pattern, then
`train_merges`) and HF's byte-level BPE trainer at its defaults on the same texts, alternating the
two so that machine noise hits both alike, and keeps the median of the repeats. Our peak memory is
measured in a separate, untimed run under `tracemalloc` (it slows Python code down, so it never
overlaps a timed run): it is the peak of Python allocations during training, in MiB.

Run it on the six FLORES-200 dev files (one text per line, the issue's ~1 MB):

    python -m benchmark.speed_train                       # vocab 4096 and 16384, 3 repeats
    python -m benchmark.speed_train --vocab-sizes 4096 --repeats 5

Importing this module runs nothing; `tokenizers` is imported only when HF is timed.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from benchmark.bpe.patterns import PATTERNS, compile_pattern
from benchmark.bpe.train import count_pretokens, train_merges

FLORES_DEV_DIR = Path(__file__).resolve().parents[1] / "corpora" / "flores200" / "dev"
FLORES_LANGUAGES = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")


def train_ours(texts: Sequence[str], vocab_size: int) -> dict:
    """One full training run of ours: seconds for each half and the actual vocabulary size."""
    pattern = compile_pattern(PATTERNS["cl100k"])
    start = time.perf_counter()
    counts = count_pretokens(texts, pattern)
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
    pattern = compile_pattern(PATTERNS["cl100k"])
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        train_merges(count_pretokens(texts, pattern), vocab_size - 256)
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak_bytes / 2**20


def compare_training(
    texts: list[str], vocab_sizes: Sequence[int], *, repeats: int = 3
) -> list[dict]:
    """Time ours and HF's training for each vocabulary size; one row per size.

    Row keys: vocab_size, ours_seconds, hf_seconds, ratio (ours / hf), ours_count_seconds,
    ours_merge_seconds, ours_peak_mb (tracemalloc peak, MiB), actual_vocab_size (ours),
    hf_vocab_size. Seconds are medians over `repeats` alternating runs.
    """
    rows = []
    for vocab_size in vocab_sizes:
        ours_runs, hf_runs = [], []
        for _ in range(repeats):
            ours_runs.append(train_ours(texts, vocab_size))
            hf_runs.append(train_hf(texts, vocab_size))
        ours_seconds = statistics.median(run["seconds"] for run in ours_runs)
        hf_seconds = statistics.median(run["seconds"] for run in hf_runs)
        rows.append(
            {
                "vocab_size": vocab_size,
                "ours_seconds": ours_seconds,
                "hf_seconds": hf_seconds,
                "ratio": ours_seconds / hf_seconds,
                "ours_count_seconds": statistics.median(r["count_seconds"] for r in ours_runs),
                "ours_merge_seconds": statistics.median(r["merge_seconds"] for r in ours_runs),
                "ours_peak_mb": peak_memory_ours(texts, vocab_size),
                "actual_vocab_size": ours_runs[0]["vocab_size"],
                "hf_vocab_size": hf_runs[0]["vocab_size"],
            }
        )
    return rows


def flores_dev_texts(directory: Path = FLORES_DEV_DIR) -> list[str]:
    """The six FLORES-200 dev files, one text per line, in a fixed language order."""
    texts: list[str] = []
    for language in FLORES_LANGUAGES:
        path = directory / f"{language}.dev"
        texts.extend(path.read_text(encoding="utf-8").splitlines())
    return texts


def format_rows(rows: Sequence[dict]) -> str:
    """A Markdown table of `compare_training` rows."""
    lines = [
        "| vocab | ours s (count + merge) | HF s | ours / HF | ours peak MiB | actual vocab |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['vocab_size']} | {row['ours_seconds']:.2f} "
            f"({row['ours_count_seconds']:.2f} + {row['ours_merge_seconds']:.2f}) "
            f"| {row['hf_seconds']:.2f} | {row['ratio']:.2f}x | {row['ours_peak_mb']:.0f} "
            f"| {row['actual_vocab_size']} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab-sizes", type=int, nargs="+", default=[4096, 16384])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    texts = flores_dev_texts()
    n_bytes = sum(len(text.encode("utf-8")) for text in texts)
    print(f"FLORES-200 dev, 6 languages: {len(texts)} texts, {n_bytes / 1e6:.2f} MB")
    print(format_rows(compare_training(texts, args.vocab_sizes, repeats=args.repeats)))


if __name__ == "__main__":
    main()
