"""The calibration's domain rows (results/calibration_domains.py): each domain's own ratio and its
held-out errors beside the whole corpus's ratio on the same text, and, per kind of text, which
domain's ratio misses it least."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from benchmark.report.tables.calibration import signed_error, unsigned_error
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView
from benchmark.results.calibration_domains import DomainCalibrationEntry, closest_domains, whole_text_error


def _entries(results: ReportView) -> list[DomainCalibrationEntry]:
    shown = set(results.production)
    return [entry for entry in results.calibration_domains if entry.tokenizer in shown]


def _groups(results: ReportView, entries: Sequence[DomainCalibrationEntry]) -> list[str]:
    """All languages, then (at a few languages) each language in the report's order."""
    if results.many:
        return ["all"]
    present = {e.group for e in entries if e.level == "language"}
    return ["all", *(code for code in results.languages if code in present)]


def domain_table(results: ReportView) -> Table:
    """Per domain and group: the fitted ratio (median over tokenizers), its held-out errors (the
    worst over tokenizers), and the whole corpus's ratio's miss on the same text."""
    entries = _entries(results)
    name, title = "calibration_domains", "Per kind of text: a ratio fitted on that domain's lines only"
    headers = ("domain", "text", "devtest lines", "tokens per char (median)", "sentence, median", "sentence, 90th pct",
               "whole text", "whole-corpus ratio on it")
    if not entries:
        return Table(name, title, headers, ())
    whole = {(e.tokenizer, e.group): e for e in results.calibration}
    names = results.record.language_names
    rows = []
    for domain in sorted({e.domain for e in entries}):
        for group in _groups(results, entries):
            found = [e for e in entries if e.domain == domain and e.group == group]
            if not found:
                continue
            corpus_errors = [whole_text_error(whole[(e.tokenizer, group)], e) for e in found
                             if (e.tokenizer, group) in whole]
            rows.append((domain, "all languages" if group == "all" else names.get(group, group),
                         f"{found[0].check_n_sentences // found[0].n_languages:,}",
                         f"{statistics.median(e.tokens_per_char for e in found):.3f}",
                         unsigned_error(max(e.char_sentence_error_p50 for e in found)),
                         unsigned_error(max(e.char_sentence_error_p90 for e in found)),
                         signed_error(max((e.char_total_error for e in found), key=abs)),
                         signed_error(max(corpus_errors, key=abs)) if corpus_errors else ""))
    return Table(name, title, headers, tuple(rows),
                 note=("Each row: the domain's own dev lines fitted, its own devtest lines checked (lines: per "
                       "language); errors as in the table above, the worst over the production tokenizers. The "
                       "last column: the whole corpus's ratio (all its dev lines) on the same devtest text, its "
                       "estimate / tokens - 1, the worst over the tokenizers. calibration.csv and calibration.json "
                       "('domains') hold every entry, per byte too."),
                 numeric=(False, False) + (True,) * (len(headers) - 2))


def closest_table(results: ReportView) -> Table:
    """Per kind of text (a domain's devtest lines) and group: whose ratio misses it least."""
    entries = _entries(results)
    corpus = [e for e in results.calibration if e.tokenizer in set(results.production)]
    names = results.record.language_names
    found = [c for group in _groups(results, entries) for c in closest_domains(entries, corpus, group=group)]
    found.sort(key=lambda c: c.text_domain)  # each kind of text's rows together, its groups in order
    name, title = "calibration_closest", "Which domain's ratio is closest for each kind of text"
    headers = ("text", "languages", "closest ratio", "its miss", "own domain's ratio", "whole corpus's ratio")
    rows = tuple((c.text_domain, "all" if c.group == "all" else names.get(c.group, c.group), c.closest,
                  signed_error(c.closest_error), signed_error(c.own_error),
                  "" if c.corpus_error is None else signed_error(c.corpus_error)) for c in found)
    if len({c.text_domain for c in found}) < 2:  # one kind of text: nothing to choose between
        rows = ()
    return Table(name, title, headers, rows,
                 note=("Each row: a domain's whole devtest text, estimated with each domain's ratio fitted on dev "
                       "(its own among them) and with the whole corpus's: estimate / tokens - 1, the median over the "
                       "production tokenizers; the closest ratio is the one that misses least."),
                 numeric=(False, False, False, True, True, True))


def domain_tables(results: ReportView) -> tuple[Table, ...]:
    """The domain tables, those with rows."""
    return tuple(t for t in (domain_table(results), closest_table(results)) if t.rows)
