"""What parity-aware training costs and buys: its time, peak memory and token counts against
standard training's.

What this module adds: one measurement, side by side in one process. Both trainers learn from the
same texts (every language's lines, for the standard one); each repeat runs both, alternating which
goes first, so that a busy machine slows both alike, and the figures are medians over repeats, in
CPU seconds (the time the OS gave to other processes left out) and in wall seconds. Peak memory is
measured in separate, untimed runs under `tracemalloc` (it slows Python code down): the peak of
Python allocations during training, in MiB. With `--count-on`, both models also encode other
files of the same languages (named alike: the part of the name before the first dot), one text
per line, and the token counts per language show what parity buys. With `--mix LANGUAGE=SHARE`
both train on a mix: LANGUAGE's pre-token counts weighted so that it is SHARE of the training
bytes and the others share the rest equally (integer weights), the parity text staying each
language's unweighted text; both then train from counts made before the clock starts. What it
leaves out: which texts to use (the caller names the files: one language per file).

    python -m benchmark.bpe.parity_timing --vocab-size 16384 corpora/flores200/dev/*.dev \\
        --count-on corpora/flores200/devtest/*.devtest
    python -m benchmark.bpe.parity_timing --vocab-size 16384 corpora/flores200/dev/*.dev --mix eng_Latn=0.9
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmark.bpe.tokenizer import ByteLevelBPE
from benchmark.bpe.train import count_pretokens


def compare_training(texts_by_language: dict[str, list[str]], vocab_size: int, *, repeats: int = 3,
                     mix: tuple[str, float] | None = None) -> dict:
    """Medians of standard and parity-aware training to `vocab_size`, and their peak memory."""
    everything = [text for texts in texts_by_language.values() for text in texts]
    trainers: dict[str, Callable[[], ByteLevelBPE]] = {
        "standard": lambda: ByteLevelBPE.train(everything, vocab_size),
        "parity": lambda: ByteLevelBPE.train_parity(texts_by_language, vocab_size),
    }
    if mix is not None:
        counts = {language: count_pretokens(texts, "cl100k") for language, texts in texts_by_language.items()}
        weights = mix_weights(texts_by_language, *mix)
        weighted = {language: {data: weights[language] * n for data, n in table.items()}
                    for language, table in counts.items()}
        added: dict[bytes, int] = {}
        for table in weighted.values():
            for data, n in table.items():
                added[data] = added.get(data, 0) + n
        trainers = {
            "standard": lambda: ByteLevelBPE.train(pretoken_counts=added, vocab_size=vocab_size),
            "parity": lambda: ByteLevelBPE.train_parity(pretoken_counts_by_language=weighted, vocab_size=vocab_size,
                                                        parity_counts_by_language=counts),
        }
    cpu: dict[str, list[float]] = {name: [] for name in trainers}
    wall: dict[str, list[float]] = {name: [] for name in trainers}
    models: dict[str, ByteLevelBPE] = {}
    for repeat in range(repeats):
        for name in (("standard", "parity") if repeat % 2 == 0 else ("parity", "standard")):
            models.pop(name, None)  # the last run's model is kept, for the token counts
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            model = trainers[name]()
            cpu[name].append(time.process_time() - cpu_start)
            wall[name].append(time.perf_counter() - wall_start)
            models[name] = model
    row: dict = {"vocab_size": vocab_size, "repeats": repeats, "models": models}
    for name, train in trainers.items():
        row[f"{name}_cpu_seconds"] = statistics.median(cpu[name])
        row[f"{name}_wall_seconds"] = statistics.median(wall[name])
        row[f"{name}_peak_mib"] = _peak_mib(train)
    row["cpu_ratio"] = row["parity_cpu_seconds"] / row["standard_cpu_seconds"]
    row["wall_ratio"] = row["parity_wall_seconds"] / row["standard_wall_seconds"]
    return row


def mix_weights(texts_by_language: dict[str, list[str]], heavy: str, share: float) -> dict[str, int]:
    """Integer weights that make `heavy` `share` of the training bytes and give the other
    languages equal shares of the rest (to within rounding of weights scaled by 1,000)."""
    if heavy not in texts_by_language or not 0 < share < 1 or len(texts_by_language) < 2:
        raise ValueError(f"--mix names one of {sorted(texts_by_language)} and a share between 0 and 1")
    n_bytes = {language: sum(len(text.encode("utf-8")) for text in texts) for language, texts in texts_by_language.items()}
    other_share = (1 - share) / (len(n_bytes) - 1)
    # A language's weight is its share over its bytes, scaled so that the smallest is 1,000.
    raw = {language: (share if language == heavy else other_share) / n for language, n in n_bytes.items()}
    smallest = min(raw.values())
    return {language: round(1000 * value / smallest) for language, value in raw.items()}


def _peak_mib(train: Callable[[], ByteLevelBPE]) -> float:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        train()
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak_bytes / 2**20


def token_counts(models: dict[str, ByteLevelBPE], texts_by_language: dict[str, list[str]]) -> str:
    """Each model's tokens per language on `texts_by_language`, and the most over the fewest."""
    lines = ["| language | " + " | ".join(models) + " |", "|---|" + "---:|" * len(models)]
    totals = {name: {language: sum(map(len, model.encode_batch(texts))) for language, texts in texts_by_language.items()}
              for name, model in models.items()}
    for language in texts_by_language:
        lines.append(f"| {language} | " + " | ".join(f"{totals[name][language]:,}" for name in models) + " |")
    lines.append("| most / fewest | " + " | ".join(
        f"{max(counts.values()) / min(counts.values()):.3f}" for counts in totals.values()) + " |")
    return "\n".join(lines)


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
    parser.add_argument("--count-on", nargs="+", type=Path, default=[], metavar="FILE",
                        help="files of the same languages to count both models' tokens on")
    parser.add_argument("--mix", metavar="LANGUAGE=SHARE", help="train on a mix where LANGUAGE is SHARE of the bytes")
    options = parser.parse_args(argv)
    mix = None
    if options.mix:
        language, _, share = options.mix.partition("=")
        mix = (language, float(share))
    row = compare_training(_read(options.files), options.vocab_size, repeats=options.repeats, mix=mix)
    if mix:
        print(f"mix: {mix[0]} {mix[1]:.0%} of the training bytes, the parity text unweighted\n")
    print(format_row(row))
    if options.count_on:
        print("\ntokens on " + ", ".join(path.name for path in options.count_on) + "\n")
        print(token_counts(row["models"], _read(options.count_on)))
    return 0


def _read(paths: Sequence[Path]) -> dict[str, list[str]]:
    return {path.name.split(".")[0]: path.read_text(encoding="utf-8").splitlines() for path in paths}


if __name__ == "__main__":
    raise SystemExit(main())
