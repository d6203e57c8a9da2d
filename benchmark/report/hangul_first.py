"""The Korean notes' question: does a BPE that binds every Hangul syllable first (`bpe-hangul-first`)
serve Korean better than frequency BPE (`bpe-balanced`) and parity-aware BPE (`bpe-parity`,
`hf-parity`), trained on the same text? Plain Python over the rows, a plot and a finding.

Per family and size, Korean's tokens per sentence and premium over the reference (with the
row's 95% bootstrap interval), its partial-character share (tokens that are part of a
character: the boundary problem) beside its bytes per token (the compression problem), and what
the other languages pay: their tokens against the balanced model of the same size.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.adapters.families import family_name
from benchmark.report.naming import language_name
from benchmark.report.view import ReportView

KOREAN = "kor_Hang"
HANGUL_FIRST = "bpe-hangul-first"
COMPARED = ("bpe-balanced", "bpe-parity", HANGUL_FIRST, "hf-parity")  # in legend order


@dataclass(frozen=True)
class KoreanPoint:
    tokenizer: str
    family: str
    vocab_size: int
    tokens_per_sentence: float
    premium: float | None
    premium_ci: tuple[float, float] | None
    partial_char_rate: float | None
    bytes_per_token: float | None
    others_vs_balanced: float | None  # the other languages' tokens over the balanced model's, minus 1
    n_syllable_entries: int | None  # Hangul-first only: entries that are one whole syllable (its record)


def korean_points(results: ReportView) -> dict[str, list[KoreanPoint]]:
    """family -> its points by size; empty unless the run has Korean and the Hangul-first family."""
    rows = {(row.tokenizer, row.language): row for row in results.rows if row.ok}
    languages = list(results.languages)
    by_id = {row.tokenizer: row for row in results.rows if row.ok and row.language == KOREAN}
    if KOREAN not in languages or not any(row.family == HANGUL_FIRST for row in by_id.values()):
        return {}
    balanced = {row.vocab_size: row.tokenizer for row in by_id.values() if row.family == "bpe-balanced"}

    def others(tokenizer: str, size: int) -> float | None:
        base = balanced.get(size)
        pairs = [(rows.get((tokenizer, code)), rows.get((base, code))) for code in languages if code != KOREAN]
        if base is None or not pairs or any(a is None or b is None for a, b in pairs):
            return None
        return sum(a.n_tokens for a, _ in pairs) / sum(b.n_tokens for _, b in pairs) - 1

    def syllables(tokenizer: str) -> int | None:
        entry = results.record.tokenizers.get(tokenizer)
        value = entry.settings.get("whole_character_entries") if entry is not None else None
        return value if isinstance(value, int) else None

    points: dict[str, list[KoreanPoint]] = {}
    for row in sorted(by_id.values(), key=lambda r: r.vocab_size):
        if row.family not in COMPARED:
            continue
        ci = (row.premium_ci_low, row.premium_ci_high) if row.premium_ci_low is not None else None
        points.setdefault(row.family, []).append(KoreanPoint(
            row.tokenizer, row.family, row.vocab_size, row.tokens_per_sentence, row.premium, ci, row.partial_char_rate,
            row.bytes_per_token, others(row.tokenizer, row.vocab_size), syllables(row.tokenizer)))
    return {family: points[family] for family in COMPARED if family in points}


def plot_korean_by_size(results: ReportView):
    """Korean's premium (with its interval) and partial-character share against size, a line per family."""
    points = korean_points(results)
    if not points or max(len(p) for p in points.values()) < 2:
        return None
    from benchmark.report.style import new_figure, tokenizer_colours

    colours = tokenizer_colours(results)
    fig = new_figure(12, 4.8)
    premium_ax, partial_ax = fig.subplots(1, 2)
    for family, series in points.items():
        sizes = [p.vocab_size for p in series]
        colour = colours.get(series[-1].tokenizer)
        style = {"marker": "o", "color": colour, "label": family_name(family),
                 "linestyle": ":" if family.startswith("hf-") else "-"}
        premium_ax.plot(sizes, [p.premium for p in series], **style)
        bands = [p for p in series if p.premium_ci is not None]
        if bands:
            premium_ax.fill_between([p.vocab_size for p in bands], [p.premium_ci[0] for p in bands],
                                    [p.premium_ci[1] for p in bands], color=colour, alpha=0.15, linewidth=0)
        partial_ax.plot(sizes, [100 * (p.partial_char_rate or 0) for p in series], **style)
    reference = language_name(results, results.reference)
    premium_ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
    premium_ax.set_ylabel(f"Korean premium (tokens / {reference}'s)")
    partial_ax.set_ylabel("Korean tokens that are part of a character (%)")
    partial_ax.set_ylim(bottom=0)
    for ax in (premium_ax, partial_ax):
        all_sizes = sorted({p.vocab_size for series in points.values() for p in series})
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_sizes, [f"{size:,}" for size in all_sizes])
        ax.minorticks_off()
        ax.set_xlabel("Vocabulary size (tokens, log scale)")
    premium_ax.set_title("Premium, with its 95% interval (shaded)")
    partial_ax.set_title("Partial-character share")
    handles, labels = premium_ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), frameon=False)
    fig.suptitle("Korean against vocabulary size: Hangul syllables first, frequency BPE and parity-aware BPE")
    return fig


def hangul_first_sentence(results: ReportView) -> str:
    """The answer in one sentence, with its numbers, whichever way it comes out."""
    points = korean_points(results)
    ours, balanced = points.get(HANGUL_FIRST), {p.vocab_size: p for p in points.get("bpe-balanced", [])}
    pairs = [(p, balanced[p.vocab_size]) for p in ours or [] if p.vocab_size in balanced
             and p.premium is not None and balanced[p.vocab_size].premium is not None]
    if not pairs:
        return ""
    reference = language_name(results, results.reference)
    parts = []
    for mine, base in pairs:
        paid = f", others {mine.others_vs_balanced:+.1%} tokens" if mine.others_vs_balanced is not None else ""
        if mine.n_syllable_entries is not None:
            paid += f", syllables {mine.n_syllable_entries / mine.vocab_size:.0%} of the vocabulary"
        parts.append(f"{mine.vocab_size:,}: {mine.premium:.2f}x against {base.premium:.2f}x{paid}")
    cheaper = [mine for mine, base in pairs if mine.premium_ci and base.premium_ci
               and mine.premium_ci[1] < base.premium_ci[0]]
    rates = [(mine.partial_char_rate, base.partial_char_rate) for mine, base in pairs
             if mine.partial_char_rate is not None and base.partial_char_rate is not None]
    boundary = (f" Its partial-character share of Korean tokens is {min(r[0] for r in rates):.0%}-"
                f"{max(r[0] for r in rates):.0%} against balanced BPE's {min(r[1] for r in rates):.0%}-"
                f"{max(r[1] for r in rates):.0%}." if rates else "")
    verdict = (f"lowers Korean's premium over {reference} at {len(cheaper)} of {len(pairs)} sizes (intervals apart)"
               if cheaper else f"does not lower Korean's premium over {reference} beyond the intervals at any size")
    return (f"Binding every Hangul syllable first {verdict}, paid by the other languages: Korean premium, "
            f"Hangul-first against balanced BPE, at {'; '.join(parts)}.{boundary}")


def korean_table(results: ReportView):
    """The figures behind the plot and the finding, one line per family and size."""
    from benchmark.report.naming import fmt_rate_percent
    from benchmark.report.tables import Table

    points = korean_points(results)
    reference = language_name(results, results.reference)
    lines = []
    for family, series in points.items():
        for p in series:
            interval = f" [{p.premium_ci[0]:.3f}, {p.premium_ci[1]:.3f}]" if p.premium_ci else ""
            lines.append((family_name(family), f"{p.vocab_size:,}", f"{p.tokens_per_sentence:.1f}",
                          f"{p.premium:.3f}{interval}" if p.premium is not None else "",
                          fmt_rate_percent(p.partial_char_rate),
                          f"{p.bytes_per_token:.2f}" if p.bytes_per_token is not None else "",
                          f"{p.others_vs_balanced:+.1%}" if p.others_vs_balanced is not None else "",
                          fmt_rate_percent(p.n_syllable_entries / p.vocab_size)
                          if p.n_syllable_entries is not None else ""))
    return Table(
        "korean", "Korean: Hangul syllables first, frequency merges, parity-aware merges",
        ("family", "vocab size", "Korean tokens / sentence", f"premium over {reference} [95% CI]",
         "partial-character tokens", "bytes / token", "other languages' tokens vs balanced",
         "syllable entries"),
        tuple(lines),
        note="Partial-character tokens are the boundary problem, bytes per token the compression one. The other "
             "languages' tokens are their devtest total against the balanced model of the same size; syllable "
             "entries are the Hangul-first model's vocabulary entries that are one whole syllable.",
        numeric=(False, True, True, True, True, True, True, True),
    )
