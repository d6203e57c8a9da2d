"""What parity-aware training costs: its time and peak memory against standard training.

What this module adds: one measurement, side by side in one process. Both trainers learn from the
same texts (every language's lines, for the standard one); each repeat runs both, alternating which
goes first, so that a busy machine slows both alike, and the figures are medians over repeats, in
CPU seconds (the time the OS gave to other processes left out) and in wall seconds. Peak memory is
measured in separate, untimed runs under `tracemalloc` (it slows Python code down): the peak of
Python allocations during training, in MiB. What it leaves out: which texts to use (the caller
names the files: one language per file, one text per line).

    python -m benchmark.bpe.parity_timing --vocab-size 16384 corpora/flores200/dev/*.dev
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmark.bpe.tokenizer import ByteLevelBPE


def compare_training(texts_by_language: dict[str, list[str]], vocab_size: int, *, repeats: int = 3) -> dict:
    """Medians of standard and parity-aware training to `vocab_size`, and their peak memory."""
    everything = [text for texts in texts_by_language.values() for text in texts]
    trainers: dict[str, Callable[[], ByteLevelBPE]] = {
        "standard": lambda: ByteLevelBPE.train(everything, vocab_size),
        "parity": lambda: ByteLevelBPE.train_parity(texts_by_language, vocab_size),
    }
    cpu: dict[str, list[float]] = {name: [] for name in trainers}
    wall: dict[str, list[float]] = {name: [] for name in trainers}
    for repeat in range(repeats):
        for name in (("standard", "parity") if repeat % 2 == 0 else ("parity", "standard")):
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            model = trainers[name]()
            cpu[name].append(time.process_time() - cpu_start)
            wall[name].append(time.perf_counter() - wall_start)
            del model
    row: dict = {"vocab_size": vocab_size, "repeats": repeats}
    for name, train in trainers.items():
        row[f"{name}_cpu_seconds"] = statistics.median(cpu[name])
        row[f"{name}_wall_seconds"] = statistics.median(wall[name])
        row[f"{name}_peak_mib"] = _peak_mib(train)
    row["cpu_ratio"] = row["parity_cpu_seconds"] / row["standard_cpu_seconds"]
    row["wall_ratio"] = row["parity_wall_seconds"] / row["standard_wall_seconds"]
    return row


def _peak_mib(train: Callable[[], ByteLevelBPE]) -> float:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        train()
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak_bytes / 2**20


def format_row(row: dict) -> str:
    """The figures as a Markdown table."""
    lines = [
        f"vocab {row['vocab_size']}, median of {row['repeats']} interleaved repeats",
        "",
        "| trainer | CPU s | wall s | peak MiB (tracemalloc) |",
        "|---|---:|---:|---:|",
    ]
    for name in ("standard", "parity"):
        lines.append(f"| {name} | {row[f'{name}_cpu_seconds']:.2f} | {row[f'{name}_wall_seconds']:.2f} | "
                     f"{row[f'{name}_peak_mib']:.1f} |")
    lines.append(f"| parity / standard | {row['cpu_ratio']:.2f}x | {row['wall_ratio']:.2f}x | "
                 f"{row['parity_peak_mib'] / row['standard_peak_mib']:.2f}x |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmark.bpe.parity_timing", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="one text file per language, one text per line")
    parser.add_argument("--vocab-size", type=int, default=16384)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args(argv)
    texts_by_language = {path.stem: path.read_text(encoding="utf-8").splitlines() for path in options.files}
    print(format_row(compare_training(texts_by_language, options.vocab_size, repeats=options.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
