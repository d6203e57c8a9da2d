"""Premiums by writing system: the median premium of each script's languages under each production
tokenizer, so a reader of a 204-language run sees which scripts each tokenizer serves worst."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from benchmark.corpora.languages import SCRIPT_NAMES, script_of
from benchmark.report.tables import Table
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
