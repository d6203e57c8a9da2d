"""The calibration tables (results/calibration.py): tokens per character fitted on dev, how far
characters / 4 misses on devtest, and how far the fitted ratios miss, per script at many languages
and per language (with all languages and each script of several) at a few."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from benchmark.corpora.languages import SCRIPT_NAMES
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView
from benchmark.results.calibration import CalibrationEntry


def signed_error(value: float) -> str:
    """"-68%", "+2.3%", "0.4%" (an error of either sign)."""
    return f"{100 * value:+.0f}%" if abs(value) >= 0.1 else f"{100 * value:+.1f}%"


def unsigned_error(value: float) -> str:
    """"12%", "0.4%" (an error's size)."""
    return f"{100 * value:.0f}%" if value >= 0.1 else f"{100 * value:.1f}%"


def shown_groups(results: ReportView) -> list[tuple[str, str]]:
    """(level, group) of the rows: all languages, then each script (most undercounted by
    characters / 4 first, the median over tokenizers) at many languages; at a few, the scripts of
    several languages, then each language in the report's order."""
    entries = _entries(results)
    if not entries:
        return []
    scripts: dict[str, list[float]] = {}
    languages: dict[str, int] = {}
    for entry in entries:
        if entry.level == "script":
            scripts.setdefault(entry.group, []).append(entry.chars4_total_error)
            languages[entry.group] = entry.n_languages
    order = sorted(scripts, key=lambda s: (statistics.median(scripts[s]), s))
    groups = [("all", "all")]
    if results.many:
        return groups + [("script", s) for s in order]
    present = {e.group for e in entries if e.level == "language"}
    return (groups + [("script", s) for s in order if languages[s] > 1]
            + [("language", code) for code in results.languages if code in present])


def _entries(results: ReportView) -> list[CalibrationEntry]:
    shown = set(results.production)
    return [entry for entry in results.calibration if entry.tokenizer in shown]


def _label(results: ReportView, level: str, group: str) -> str:
    if level == "all":
        return "all languages"
    if level == "script":
        return f"{SCRIPT_NAMES.get(group, group)} ({group})"
    return results.record.language_names.get(group, group)


def _grid(results: ReportView, name: str, title: str, cell, note: str) -> Table:
    entries = {(e.tokenizer, e.level, e.group): e for e in _entries(results)}
    groups = shown_groups(results)
    tokenizers = [t for t in results.production if any(key[0] == t for key in entries)]
    if not groups or not tokenizers:
        return Table(name, title, ("group",), ())
    rows = []
    for level, group in groups:
        found = [entries.get((t, level, group)) for t in tokenizers]
        n_languages = next((e.n_languages for e in found if e is not None), 0)
        rows.append((_label(results, level, group), str(n_languages), *("" if e is None else cell(e) for e in found)))
    return Table(name, title, ("text", "languages", *tokenizers), tuple(rows), note=note,
                 numeric=(False, True) + (True,) * len(tokenizers))


def ratio_table(results: ReportView) -> Table:
    """Tokens per character fitted on the dev split, per group and production tokenizer."""
    return _grid(results, "calibration_ratio", "Tokens per character, to estimate without a tokenizer",
                 lambda e: f"{e.tokens_per_char:.3f}",
                 "Each cell: the tokenizer's tokens over the characters (Unicode code points) of the group's dev "
                 "sentences, each encoded alone; tokens = characters x this ratio. Per UTF-8 byte, every group and "
                 "language, with each estimate's held-out error: calibration.csv and calibration.json.")


def chars4_table(results: ReportView) -> Table:
    """How far characters / 4 misses each group's whole devtest text, per production tokenizer."""
    return _grid(results, "calibration_chars4", "How far characters / 4 misses",
                 lambda e: signed_error(e.chars4_total_error),
                 "Each cell: characters / 4 over the tokens the tokenizer gives the group's whole measured text, "
                 "minus 1 (-50%: it counts half the tokens; the same text, the devtest sentences). The fitted "
                 "ratio's error on the same text is in the next table.")


def error_table(results: ReportView) -> Table:
    """Per group, the fitted ratios' held-out errors and characters / 4's, the worst over the
    production tokenizers."""
    entries = {(e.level, e.group): [] for e in _entries(results)}
    for entry in _entries(results):
        entries[(entry.level, entry.group)].append(entry)
    groups = shown_groups(results)
    name, title = "calibration_error", "How far off each estimate is on text it was not fitted on"
    if not groups:
        return Table(name, title, ("text",), ())

    def worst(found: Sequence[CalibrationEntry], field: str, signed: bool) -> str:
        value = max((getattr(e, field) for e in found), key=abs)
        return signed_error(value) if signed else unsigned_error(value)

    rows = []
    for level, group in groups:
        found = entries[(level, group)]
        rows.append((_label(results, level, group), str(found[0].n_languages),
                     worst(found, "char_sentence_error_p50", False), worst(found, "char_sentence_error_p90", False),
                     worst(found, "char_total_error", True), worst(found, "char_worst_language_error", True),
                     worst(found, "byte_sentence_error_p90", False), worst(found, "byte_worst_language_error", True),
                     worst(found, "chars4_sentence_error_p90", False), worst(found, "chars4_worst_language_error", True)))
    headers = ("text", "languages", "per char: sentence, median", "sentence, 90th pct", "whole text",
               "worst language", "per byte: sentence, 90th pct", "worst language", "chars / 4: sentence, 90th pct",
               "worst language")
    return Table(name, title, headers, tuple(rows),
                 note=("Fitted on the dev split, checked on every devtest sentence; each cell the worst over the "
                       "production tokenizers. Sentence: |estimate - tokens| / tokens of one sentence estimated "
                       "alone (the median, the 90th percentile). Whole text: estimate / tokens - 1 over the group's "
                       "whole devtest text; worst language: the same for the group's language the group's ratio "
                       "misses most (a script's ratio on one of its languages). Per-language ratios miss least."),
                 numeric=(False,) + (True,) * (len(headers) - 1))


def calibration_tables(results: ReportView) -> tuple[Table, ...]:
    """The section's tables, those with rows (the domain level's: calibration_domains.py)."""
    return tuple(t for t in (ratio_table(results), chars4_table(results), error_table(results)) if t.rows)
