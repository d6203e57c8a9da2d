"""What parity-aware training costs and buys: its time, peak memory and token counts against
standard training's, on the same text (`python -m benchmark speed --parity`).

Both trainers learn from each language's dev split; each repeat runs both, alternating which goes
first, so that a busy machine slows both alike, and the figures are medians over repeats, in CPU
seconds and in wall seconds. Peak memory is measured in separate, untimed runs under
`tracemalloc` (it slows Python code down). Both models then encode the languages' devtest
splits: each language's tokens and the most over the fewest show what parity buys. With a
training mix (`--train-mix english-heavy`), both train from the mix's weighted pre-token counts,
the parity text staying each language's unweighted text.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

from benchmark.bpe import ByteLevelBPE, count_pretokens
from benchmark.corpora.mixes import TrainingMix
from benchmark.speed.ratios import LanguageTexts

PARITY_REPEATS = 3


def compare_parity_training(corpus: Sequence[LanguageTexts], vocab_size: int, *, repeats: int = PARITY_REPEATS,
                            mix: TrainingMix | None = None) -> dict:
    """Medians of standard and parity-aware training to `vocab_size` on the dev splits, their
    peak memory, and each model's tokens per language on devtest."""
    texts = {language.language: list(language.dev) for language in corpus}
    counts = {code: count_pretokens(lines, "cl100k") for code, lines in texts.items()}
    weights = mix.weights(texts) if mix is not None else {code: 1 for code in texts}
    weighted = {code: {data: weights[code] * n for data, n in table.items()} for code, table in counts.items()
                if weights[code]}
    added: dict[bytes, int] = {}
    for table in weighted.values():
        for data, n in table.items():
            added[data] = added.get(data, 0) + n
    trainers: dict[str, Callable[[], ByteLevelBPE]] = {
        "standard": lambda: ByteLevelBPE.train(pretoken_counts=added, vocab_size=vocab_size),
        "parity": lambda: ByteLevelBPE.train_parity(pretoken_counts_by_language=weighted, vocab_size=vocab_size,
                                                    parity_counts_by_language={c: counts[c] for c in weighted}),
    }
    cpu: dict[str, list[float]] = {name: [] for name in trainers}
    wall: dict[str, list[float]] = {name: [] for name in trainers}
    models: dict[str, ByteLevelBPE] = {}
    for repeat in range(repeats):
        for name in (("standard", "parity") if repeat % 2 == 0 else ("parity", "standard")):
            models.pop(name, None)  # the last run's model is kept, for the token counts
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            models[name] = trainers[name]()
            cpu[name].append(time.process_time() - cpu_start)
            wall[name].append(time.perf_counter() - wall_start)
    row: dict = {"vocab_size": vocab_size, "repeats": repeats, "mix": mix.name if mix else "balanced"}
    for name, train in trainers.items():
        row[f"{name}_cpu_seconds"] = statistics.median(cpu[name])
        row[f"{name}_wall_seconds"] = statistics.median(wall[name])
        row[f"{name}_peak_mib"] = _peak_mib(train)
    row["cpu_ratio"] = row["parity_cpu_seconds"] / row["standard_cpu_seconds"]
    row["wall_ratio"] = row["parity_wall_seconds"] / row["standard_wall_seconds"]
    row["tokens"] = {name: {language.language: sum(map(len, model.encode_batch(list(language.devtest))))
                            for language in corpus} for name, model in models.items()}
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


def format_parity(row: dict) -> str:
    """The figures as two Markdown tables: cost, then devtest tokens per language."""
    lines = [
        f"vocab {row['vocab_size']}, mix {row['mix']}, median of {row['repeats']} interleaved repeats",
        "",
        "| trainer | CPU s | wall s | peak MiB (tracemalloc) |",
        "|---|---:|---:|---:|",
    ]
    for name in ("standard", "parity"):
        lines.append(f"| {name} | {row[f'{name}_cpu_seconds']:.2f} | {row[f'{name}_wall_seconds']:.2f} | "
                     f"{row[f'{name}_peak_mib']:.1f} |")
    lines.append(f"| parity / standard | {row['cpu_ratio']:.2f}x | {row['wall_ratio']:.2f}x | "
                 f"{row['parity_peak_mib'] / row['standard_peak_mib']:.2f}x |")
    tokens = row["tokens"]
    lines += ["", "| devtest tokens | " + " | ".join(tokens) + " |", "|---|" + "---:|" * len(tokens)]
    for language in next(iter(tokens.values())):
        lines.append(f"| {language} | " + " | ".join(f"{tokens[name][language]:,}" for name in tokens) + " |")
    lines.append("| most / fewest | " + " | ".join(
        f"{max(counts.values()) / min(counts.values()):.3f}" for counts in tokens.values()) + " |")
    lines.append("| total | " + " | ".join(f"{sum(counts.values()):,}" for counts in tokens.values()) + " |")
    return "\n".join(lines)
