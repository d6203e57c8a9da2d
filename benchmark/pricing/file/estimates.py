"""What `cost --file` would have estimated without a tokenizer: the files' characters times each
tokenizer's fitted tokens per character from the calibration of a results file, set beside the
exact count, with the ratio's held-out error.

Which ratio: the whole corpus's entries by default, or with `--domain NAME` one domain's
(results/calibration_domains.py: fitted on that kind of text only); within them the files'
language's entry (`--language`), else its script's, else all languages'. The answer names the
domain and the group it used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchmark.measure.own_text import OwnCount, OwnText
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.escaping import terminal_text
from benchmark.results.calibration import CalibrationEntry, find_entry

WHOLE_CORPUS = "whole corpus"  # what the answer calls the entries fitted on every dev line


@dataclass(frozen=True)
class EstimateSource:
    """The calibration entries `cost --file` estimates by: one per tokenizer that has one."""

    results_name: str
    corpus: str | None
    domain: str | None  # None: the whole corpus's entries
    domains: tuple[str, ...]  # the domains the results hold, for the answer to list
    entries: dict[str, CalibrationEntry]  # tokenizer -> the entry used (its group: language, script or all)

    @property
    def label(self) -> str:
        return WHOLE_CORPUS if self.domain is None else f"domain {self.domain!r}"


@dataclass(frozen=True)
class Estimate:
    """One tokenizer's estimate of the files and how far it is from their exact count."""

    entry: CalibrationEntry
    n_chars: int

    @property
    def n_tokens(self) -> float:
        return self.entry.tokens_per_char * self.n_chars

    def off_count(self, n_tokens: int) -> float | None:
        """estimate / exact count - 1 (below 0: the estimate undercounts)."""
        return self.n_tokens / n_tokens - 1 if n_tokens else None


def estimates_for(results, results_name: str, *, domain: str | None, language: str | None,
                  script: str | None) -> EstimateSource:
    """Each tokenizer's entry of `results` (a loaded results.json) for the files: of `domain`
    (None: the whole corpus), its `language`'s, else its `script`'s, else "all"'s. A domain the
    results do not hold is one error naming the ones they do."""
    known = tuple(sorted({e.domain for e in results.calibration_domains}))
    if domain is not None and domain not in known:
        there = (f"its domains: {', '.join(known)}" if known else
                 "it holds none (a run on a corpus with domain labels has them: run --corpus corpora/django-ui, "
                 "or FLORES-200 measured by this version)")
        raise BenchmarkError(f"--domain {terminal_text(domain)!r}: not a calibration domain of "
                             f"{terminal_text(results_name)}; {there}")
    pool: Sequence[CalibrationEntry] = results.calibration if domain is None else results.calibration_domains
    groups = [g for g in (language, script, "all") if g]
    chosen = {}
    for tokenizer in dict.fromkeys(e.tokenizer for e in pool):
        entry = next((e for g in groups if (e := find_entry(pool, tokenizer, group=g, domain=domain)) is not None), None)
        if entry is not None:
            chosen[tokenizer] = entry
    return EstimateSource(results_name, results.record.settings.corpus, domain, known, chosen)


def estimate_of(source: EstimateSource, count: OwnCount, texts: Sequence[OwnText]) -> Estimate | None:
    entry = source.entries.get(count.tokenizer)
    return None if entry is None else Estimate(entry, sum(t.n_chars for t in texts))


def header_line(source: EstimateSource, names: Mapping[str, str] | None = None) -> str:
    where = terminal_text(source.results_name)
    domains = f"; domains: {', '.join(source.domains)} (--domain NAME)" if source.domains else ""
    return (f"Estimates without a tokenizer: characters x tokens per character fitted on the {source.label} "
            f"of {terminal_text(source.corpus or 'the corpus')} ({where}){domains}")


def estimate_line(source: EstimateSource, count: OwnCount, texts: Sequence[OwnText]) -> str:
    """`  estimate (domain 'wikinews', Spanish): about 1,234 tokens, 0.25 per character, -3.1% of the
    count; held out, it missed its own text by +0.4%`."""
    estimate = estimate_of(source, count, texts)
    if estimate is None:
        return f"  estimate: no calibration entry of {count.tokenizer} in the {source.label}"
    entry = estimate.entry
    off = estimate.off_count(count.n_tokens_total)
    group = "all languages" if entry.group == "all" else entry.group
    return (f"  estimate ({source.label}, {terminal_text(group)}): about {estimate.n_tokens:,.0f} tokens at "
            f"{entry.tokens_per_char:.4f} per character" + ("" if off is None else f", {100 * off:+.1f}% of the count")
            + f"; held out, it missed its own devtest text by {100 * entry.char_total_error:+.1f}%")


def estimate_document(source: EstimateSource | None, count: OwnCount, texts: Sequence[OwnText]) -> dict | None:
    """The per-tokenizer JSON of the estimate, None when none was asked or there is no entry."""
    if source is None or not count.ok:
        return None
    estimate = estimate_of(source, count, texts)
    if estimate is None:
        return None
    entry = estimate.entry
    return {"domain": source.domain, "group": entry.group, "level": entry.level,
            "tokens_per_char": entry.tokens_per_char, "n_tokens": estimate.n_tokens,
            "off_count": estimate.off_count(count.n_tokens_total),
            "held_out_total_error": entry.char_total_error,
            "held_out_sentence_error_p50": entry.char_sentence_error_p50}


def source_document(source: EstimateSource | None) -> dict | None:
    return None if source is None else {"domain": source.domain, "label": source.label, "corpus": source.corpus,
                                        "results": source.results_name, "domains": list(source.domains)}
