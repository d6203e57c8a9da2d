"""The speed figures as Markdown tables: renderers that take measured rows and measure nothing."""

from __future__ import annotations

import statistics
from typing import Sequence

from benchmark.speed.baseline import CheckedRow
from benchmark.speed.scaling_and_textbook import ScalingRow, TextbookRow
from benchmark.speed.ratios import RatioRow
from benchmark.speed.training import TrainingRow


def _mb_s_text(mb_s: float | None) -> str:
    """MB/s to two decimals; "-" when the clock saw no time (`metrics.throughput_mb_s` is None)."""
    return "-" if mb_s is None else f"{mb_s:.2f}"


def format_ratio_table(rows: Sequence[RatioRow | CheckedRow]) -> str:
    """One line per language and figure; baseline columns when rows were checked."""
    checked = [r if isinstance(r, CheckedRow) else None for r in rows]
    with_baseline = any(c is not None for c in checked)
    header = "| language | figure | ours MB/s | tiktoken MB/s | ours / tiktoken | x tiktoken throughput |"
    rule = "|---|---|---:|---:|---:|---:|"
    if with_baseline:
        header += " baseline | change | verdict |"
        rule += "---:|---:|---|"
    lines = [header, rule]
    for item, check in zip(rows, checked):
        row = check.row if check is not None else item
        line = (f"| {row.language} | {row.figure} | {_mb_s_text(row.ours_mb_s)} | {_mb_s_text(row.tiktoken_mb_s)} "
                f"| {row.ratio:.2f} | {row.x_tiktoken:.2f}x |")
        if with_baseline:
            if check is None or check.baseline_ratio is None:
                line += " - | - | new |"
            else:
                line += f" {check.baseline_ratio:.2f} | {check.change:+.0%} | {check.verdict} |"
        lines.append(line)
    return "\n".join(lines)


def summarise_unseen(rows: Sequence[RatioRow]) -> str:
    """The issue's targets on unseen text: >= 0.2x tiktoken everywhere, >= 0.3x on the median."""
    unseen = [r for r in rows if r.figure == "unseen"]
    if not unseen:
        return ""
    worst = min(unseen, key=lambda r: r.x_tiktoken)
    median = statistics.median(r.x_tiktoken for r in unseen)
    return (f"unseen text: worst {worst.x_tiktoken:.2f}x tiktoken ({worst.language}; target >= 0.2x), "
            f"median {median:.2f}x (target >= 0.3x)")


def format_scaling(rows: Sequence[ScalingRow]) -> str:
    lines = ['| `"a" * n` | seconds | x previous size (target <= 15x per 10x) |', "|---:|---:|---:|"]
    for row in rows:
        growth = "-" if row.growth is None else f"{row.growth:.1f}x"
        lines.append(f"| {row.n_chars:,} | {row.seconds:.3f} | {growth} |")
    return "\n".join(lines)


def format_textbook(rows: Sequence[TextbookRow]) -> str:
    lines = ["| language | lines | textbook s | ours s (cold) | ours faster by |", "|---|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row.language} | {row.n_lines} | {row.textbook_seconds:.3f} | {row.ours_seconds:.4f} "
                     f"| {row.factor:.0f}x |")
    return "\n".join(lines)


def format_training(rows: Sequence[TrainingRow]) -> str:
    """Ours against HF per vocabulary size (`training.compare_training`)."""
    lines = [
        "| vocab | ours s (count + merge) | HF s | ours / HF | ours peak MiB | actual vocab |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.vocab_size} | {row.ours_seconds:.2f} "
            f"({row.ours_count_seconds:.2f} + {row.ours_merge_seconds:.2f}) "
            f"| {row.hf_seconds:.2f} | {row.ratio:.2f}x | {row.ours_peak_mib:.0f} "
            f"| {row.ours_vocab_size} |"
        )
    return "\n".join(lines)


def format_instructions(counts: dict[str, dict[str, int]]) -> str:
    """{language: {"ours": n, "tiktoken": n}} (`instructions.count_unseen_instructions`), with the
    worst and median language."""
    lines = [
        "| language | ours instructions | tiktoken instructions | ours / tiktoken | x tiktoken (instructions) |",
        "|---|---:|---:|---:|---:|",
    ]
    shares = []
    for language, cell in counts.items():
        share = cell["tiktoken"] / cell["ours"]
        shares.append(share)
        lines.append(f"| {language} | {cell['ours']:,} | {cell['tiktoken']:,} | "
                     f"{cell['ours'] / cell['tiktoken']:.2f} | {share:.2f}x |")
    lines.append("")
    lines.append(f"unseen text, in instructions: worst {min(shares):.2f}x tiktoken, "
                 f"median {statistics.median(shares):.2f}x")
    return "\n".join(lines)
