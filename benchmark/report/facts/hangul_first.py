"""The Korean notes' question: does a BPE that binds every Hangul syllable first (`bpe-hangul-first`)
serve Korean better than frequency BPE (`bpe-balanced`) and parity-aware BPE (`bpe-parity`,
`hf-parity`), trained on the same text? Plain Python over the rows: the figures and the finding
(the plot is plots/hangul_first.py, the table tables/hangul_first.py).

Per family and size, Korean's tokens per sentence and premium over the reference (with the
row's 95% bootstrap interval), its partial-character share (tokens that are part of a
character: the boundary problem) beside its bytes per token (the compression problem), and what
the other languages pay: their tokens against the balanced model of the same size.
"""

from __future__ import annotations

from dataclasses import dataclass

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
