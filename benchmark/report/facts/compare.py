"""The figures behind the report's comparisons of models: which production tokenizers to show, the
models with the fewest and the most tokens per language, the training mixes at one size, and the tokenizer summaries (Gini,
vocabulary health). Plain Python over `Results`, as analysis.py; the tables and plots draw these.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.adapters.families import family_rank
from benchmark.report.facts.analysis import is_lossy
from benchmark.results.rows import ResultRow, TokenizerSummary
from benchmark.report.view import ReportView

MIX_PREFIX = "bpe-"  # our BPE's families, one per training mix: bpe-balanced, bpe-parity, ...
BUILT_IN_MIX_ORDER = ("bpe-english-only", "bpe-english-heavy", "bpe-balanced", "bpe-parity", "bpe-hangul-first")


@dataclass(frozen=True)
class TokenRange:
    """One language's range of tokens over the production models: counts, not money (pricing/ has
    the cheapest model in money)."""

    language: str
    fewest: list[ResultRow]  # tied to one decimal of tokens per sentence
    most: ResultRow
    runner_up: ResultRow | None = None  # the fewest tokens after the `fewest` ones
    most_tied: tuple[ResultRow, ...] = ()  # every model at the `most` one's figure to one decimal

    @property
    def most_names(self) -> str:
        """The model with the most tokens and those tied with it, named together as `fewest` are."""
        return ", ".join(row.tokenizer for row in self.most_tied or (self.most,))

    @property
    def spread(self) -> float:
        """The most tokens over the fewest, for the same sentences."""
        return self.most.n_tokens / self.fewest[0].n_tokens


def token_ranges(results: ReportView) -> list[TokenRange]:
    """Per language: the production tokenizers with the fewest tokens per sentence (every one that
    shows the same figure to one decimal) and the one with the most, among those that give the
    text back (a lossy tokenizer counts text it changed)."""
    shown = set(results.production)
    found = []
    for language in results.languages:
        rows = [row for row in results.rows if row.language == language and row.tokenizer in shown and row.ok
                and not is_lossy(row) and row.n_tokens > 0]
        if len(rows) < 2:
            continue
        best = min(rows, key=lambda row: (row.n_tokens, row.tokenizer))
        tied = sorted((row for row in rows if f"{row.tokens_per_sentence:.1f}" == f"{best.tokens_per_sentence:.1f}"),
                      key=lambda row: row.tokenizer)
        others = sorted((row for row in rows if row not in tied), key=lambda row: (row.n_tokens, row.tokenizer))
        worst = max(rows, key=lambda row: (row.n_tokens, row.tokenizer))
        worst_tied = tuple(sorted((row for row in rows if f"{row.tokens_per_sentence:.1f}" ==
                                   f"{worst.tokens_per_sentence:.1f}"), key=lambda row: row.tokenizer))
        found.append(TokenRange(language, tied, worst, others[0] if others else None, worst_tied))
    return found


def mix_families(results: ReportView) -> list[str]:
    """Our BPE's training mixes in this run (families bpe-<mix>), the built-in ones in the order
    of the story they tell (English only, English-heavy, balanced, parity-aware), others after."""
    present = {row.family for row in results.rows if row.ok and row.family.startswith(MIX_PREFIX)}
    ordered = [family for family in BUILT_IN_MIX_ORDER if family in present]
    return ordered + sorted(present - set(ordered))


def mix_size(results: ReportView) -> int | None:
    """The largest vocabulary size every training mix measured every language at."""
    families = mix_families(results)
    languages = {row.language for row in results.rows if row.ok}
    sizes = None
    for family in families:
        complete = {}
        for row in results.rows:
            if row.family == family and row.ok:
                complete.setdefault(row.vocab_size, set()).add(row.language)
        family_sizes = {size for size, seen in complete.items() if seen == languages}
        sizes = family_sizes if sizes is None else sizes & family_sizes
    return max(sizes) if sizes else None


def mix_rows(results: ReportView, size: int) -> dict[str, dict[str, ResultRow]]:
    """family -> language -> the row of our BPE trained in that mix at `size`."""
    out: dict[str, dict[str, ResultRow]] = {}
    for row in results.rows:
        if row.ok and row.vocab_size == size and row.family in mix_families(results):
            out.setdefault(row.family, {})[row.language] = row
    return out


@dataclass(frozen=True)
class MixEffect:
    """What a mix does to one language's premium, at one size, against the balanced mix."""

    language: str
    balanced: float
    english_heavy: float
    parity: float | None

    @property
    def removed_by_parity(self) -> float | None:
        """The share of English-heavy's extra premium (over 1.0) that parity-aware training removes."""
        if self.parity is None or self.english_heavy <= 1:
            return None
        return (self.english_heavy - self.parity) / (self.english_heavy - 1)


def mix_effects(results: ReportView) -> tuple[int, list[MixEffect]] | None:
    """(size, each non-reference language's premium under the balanced, English-heavy and
    parity-aware mixes); None when the run lacks balanced or English-heavy."""
    size = mix_size(results)
    if size is None:
        return None
    rows = mix_rows(results, size)
    if "bpe-balanced" not in rows or "bpe-english-heavy" not in rows:
        return None
    reference = results.reference
    effects = []
    for language in results.languages:
        if language == reference:
            continue
        balanced, heavy = rows["bpe-balanced"].get(language), rows["bpe-english-heavy"].get(language)
        parity = rows.get("bpe-parity", {}).get(language)
        if balanced is None or heavy is None or balanced.premium is None or heavy.premium is None:
            continue
        effects.append(MixEffect(language, balanced.premium, heavy.premium,
                                 parity.premium if parity is not None else None))
    return size, effects


def total_tokens(results: ReportView, family: str, size: int) -> int | None:
    """All languages' tokens under one mix at one size (the price of its compression)."""
    rows = mix_rows(results, size).get(family)
    return sum(row.n_tokens for row in rows.values()) if rows else None


def summaries(results: ReportView) -> list[TokenizerSummary]:
    """The tokenizer summaries of tokenizers the run measured, in report order."""
    index = results.index
    measured = {tid for (tid, _), row in index.items() if row.ok}
    chosen = [s for s in results.summaries if s.tokenizer in measured]
    return sorted(chosen, key=lambda s: (family_rank(s.family), s.family, s.vocab_size, s.tokenizer))


def by_gini(results: ReportView) -> list[TokenizerSummary]:
    """Summaries with a Gini, the most even first (ties by tokenizer id)."""
    return sorted((s for s in summaries(results) if s.gini is not None), key=lambda s: (s.gini, s.tokenizer))
