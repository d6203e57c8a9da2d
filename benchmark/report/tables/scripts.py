"""Premiums by writing system, so a reader of a 204-language run sees which scripts each tokenizer
serves worst: the median premium of each script's languages under each production tokenizer, and
where it comes from (the byte premium and the tokenizer's factor, facts/decomposition.py)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from benchmark.corpora.languages import SCRIPT_NAMES, script_of
from benchmark.report.facts.decomposition import decomposed_groups, decomposed_rows
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView
from benchmark.results.rows import Results

MIN_SCRIPTS = 2  # one script is no comparison


def script_of_language(results: Results, code: str) -> str | None:
    """The record's script for a language (written by the run), else the one its code names."""
    return results.record.language_scripts.get(code) or script_of(code)


def script_premium_table(results: Results, tokenizers: Sequence[str]) -> Table:
    """Scripts down (most expensive first, by the median over the tokenizers), tokenizers across:
    each cell the median premium of the script's languages other than the reference."""
    reference = results.record.settings.reference or results.record.settings.premium.reference
    premiums: dict[str, dict[str, list[float]]] = {}
    languages: dict[str, set[str]] = {}
    for row in results.rows:
        if row.tokenizer not in tokenizers or not row.ok or row.premium is None or row.language == reference:
            continue
        script = script_of_language(results, row.language)
        if script is None:
            continue
        premiums.setdefault(script, {}).setdefault(row.tokenizer, []).append(row.premium)
        languages.setdefault(script, set()).add(row.language)
    shown = [t for t in tokenizers if any(t in by_tokenizer for by_tokenizer in premiums.values())]
    if len(premiums) < MIN_SCRIPTS or not shown:
        return Table("script_premium", "Median premium per script", ("script",), ())
    medians = {script: {t: statistics.median(values) for t, values in by_tokenizer.items()}
               for script, by_tokenizer in premiums.items()}
    order = sorted(medians, key=lambda s: (-statistics.median(medians[s].values()), s))
    rows = []
    for script in order:
        cells = [f"{medians[script][t]:.2f}" if t in medians[script] else "" for t in shown]
        rows.append((f"{SCRIPT_NAMES.get(script, script)} ({script})", f"{len(languages[script])}", *cells))
    reference_name = results.record.language_names.get(reference, reference) if reference else "the reference"
    return Table("script_premium", f"Median premium over {reference_name} per script and tokenizer",
                 ("script", "languages", *shown), tuple(rows),
                 note=(f"Each cell: the median premium of the script's languages ({reference_name} left out) under the "
                       "tokenizer; scripts in order of their median over the tokenizers, most expensive first. A "
                       "script's figure hides its languages' spread: the per-language tables have each one."),
                 numeric=(False, True) + (True,) * len(shown))


def script_decomposition_table(results: ReportView) -> Table:
    """At many languages: per script (most expensive first) the median byte premium of its
    languages, then per production tokenizer the median tokenizer's factor and excess premium."""
    empty = Table("script_decomposition", "", ("script",), ())
    if not results.many:
        return empty
    shown = [group[0] for group in decomposed_groups(results)]
    cells: dict[str, dict[str, list]] = {}
    for tokenizer in shown:
        for row in decomposed_rows(results, tokenizer):
            script = script_of_language(results, row.language)
            if script is not None:
                cells.setdefault(script, {}).setdefault(tokenizer, []).append(row)
    if len(cells) < MIN_SCRIPTS:
        return empty

    def median(rows, name):
        values = [getattr(row, name) for row in rows if getattr(row, name) is not None]
        return f"{statistics.median(values):.2f}" if values else ""

    order = sorted(cells, key=lambda s: (-statistics.median(r.premium for rows in cells[s].values() for r in rows), s))
    lines = []
    for script in order:
        by_tokenizer = cells[script]
        any_rows = next(iter(by_tokenizer.values()))
        lines.append((f"{SCRIPT_NAMES.get(script, script)} ({script})", str(len(any_rows)), median(any_rows, "byte_premium"),
                      *(f"{median(by_tokenizer[t], 'tokenizer_factor')} / {median(by_tokenizer[t], 'excess_premium')}"
                        if t in by_tokenizer else "" for t in shown)))
    return Table("script_decomposition", "Where each script's premium comes from",
                 ("script", "languages", "byte premium", *shown), tuple(lines),
                 note="Medians over the script's languages (the reference left out): the byte premium (the text's "
                      "UTF-8 bytes over the reference's, the same under every tokenizer), then per tokenizer its factor / "
                      "the excess premium over the information floor. Scripts most expensive first.",
                 numeric=(False, True, True) + (False,) * len(shown))
