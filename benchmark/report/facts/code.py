"""The code sample's figures the report shows (results/code.py holds the counts): the tokenizers
measured on it in report order, each programming language's display name, English prose's tokens
per kilobyte beside code's, and the cheapest and dearest tokenizer per language."""

from __future__ import annotations

from benchmark.report.naming import join_words
from benchmark.report.view import ReportView
from benchmark.results.code import CodeCost

_NAMES = {"python": "Python", "c": "C", "javascript": "JavaScript"}


def code_language_name(language: str) -> str:
    """How the report names a programming language: "JavaScript" for the sample's javascript.txt."""
    return _NAMES.get(language, language)


def code_tokenizers(results: ReportView) -> list[str]:
    """The tokenizers with code figures: the report's order, then any the rows do not hold."""
    measured = {entry.tokenizer for entry in results.code.entries}
    return [t for t in results.tokenizers if t in measured] + sorted(measured - set(results.tokenizers))


def code_index(results: ReportView) -> dict[tuple[str, str], CodeCost]:
    """(tokenizer, language) -> its entry."""
    return {(entry.tokenizer, entry.language): entry for entry in results.code.entries}


def prose_tokens_per_kb(results: ReportView, tokenizer: str) -> float | None:
    """The tokenizer's tokens per 1,000 bytes of the reference language's FLORES sentences, for
    comparison (not a ratio to code: the texts say different things); None when not measured."""
    row = results.index.get((tokenizer, results.reference))
    return 1000 / row.bytes_per_token if row is not None and row.ok and row.bytes_per_token else None


def cheapest_and_dearest(results: ReportView) -> dict[str, tuple[CodeCost, CodeCost]]:
    """language -> its entry with the fewest tokens and the one with the most (ties: report order)."""
    order = {tokenizer: k for k, tokenizer in enumerate(code_tokenizers(results))}
    out = {}
    for language in results.code.languages:
        entries = sorted((e for e in results.code.entries if e.language == language),
                         key=lambda e: (e.n_tokens, order[e.tokenizer]))
        out[language] = (entries[0], entries[-1])
    return out


def code_intro(results: ReportView) -> str:
    """What the code section answers, and each language's cheapest and dearest tokenizer."""
    shown = join_words([code_language_name(language) for language in results.code.languages])
    said = (f"What a tokenizer charges for source code: whole files of {shown} from installed packages, per "
            "kilobyte and per line. Code has no translation, so this is each language's own cost, not a premium "
            "over another language.")
    ends = cheapest_and_dearest(results)
    if ends and len(code_tokenizers(results)) >= 2:
        parts = [f"{code_language_name(language)}: cheapest {low.tokenizer} ({low.bytes_per_token:.2f} bytes per "
                 f"token), dearest {high.tokenizer} ({high.bytes_per_token:.2f})" for language, (low, high) in ends.items()]
        said += " " + "; ".join(parts) + "."
    return said
