"""The code section's table: one line per tokenizer, for each programming language of the sample
its tokens per kilobyte and per line, and the reference language's FLORES prose per kilobyte beside
them for scale (not a premium: code and prose say different things)."""

from __future__ import annotations

from benchmark.report.facts.code import code_index, code_language_name, code_tokenizers, prose_tokens_per_kb
from benchmark.report.naming import fmt_one_decimal, language_name
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView


def code_table(results: ReportView) -> Table:
    """Tokens per kB and per line of each language's sample, per tokenizer; no rows without the sample."""
    languages = results.code.languages
    found = code_index(results)
    rows = []
    for tokenizer in code_tokenizers(results):
        cells = []
        for language in languages:
            entry = found.get((tokenizer, language))
            cells += [fmt_one_decimal(entry.tokens_per_kb), fmt_one_decimal(entry.tokens_per_line)] if entry else ["", ""]
        rows.append((tokenizer, *cells, fmt_one_decimal(prose_tokens_per_kb(results, tokenizer))))
    sizes = {e.language: e for e in results.code.entries}
    headers = []
    for language in languages:
        name = code_language_name(language)
        headers += [f"{name} tokens/kB ({sizes[language].n_bytes:,} bytes)",
                    f"{name} tokens/line ({sizes[language].n_lines:,} lines)"]
    prose = language_name(results, results.reference)
    return Table(
        "code", "Source code: tokens per kilobyte and per line",
        ("tokenizer", *headers, f"{prose} prose tokens/kB"), tuple(rows),
        note="Each programming language's sample (corpora/code/: whole files of CPython's standard library, "
             "C accelerators of two PyPI packages, Django's admin scripts) encoded whole as plain text; a kB is "
             f"1,000 bytes of UTF-8, bytes per token is 1,000 over tokens/kB. The last column is {prose} FLORES "
             "prose in the same unit, for scale: not the same content, so no premium. Every figure: code.csv.",
        numeric=(False, *(True for _ in headers), True),
    )
