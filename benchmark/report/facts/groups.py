"""Language families and resource classes in a report: each language's attributes for the page's
filters, and the run's group summaries (results.json's "groups") by kind, group and tokenizer.

`language_groups_of(results)` is what the page embeds as JSON (pages/html.py, the block
`<script type="application/json" id="language-groups">`): {code: {"family": name or None,
"family_glottocode": ... or None, "tier": 0-5 or None}} for every language of the run; a code that
is not a FLORES-200 variety, or a field the sources do not cover, is None.
"""

from __future__ import annotations

from benchmark.corpora.groups import group_of
from benchmark.report.view import ReportView
from benchmark.results.groups import GroupSummary


def language_groups_of(results: ReportView) -> dict[str, dict[str, str | int | None]]:
    """{code: {"family": ..., "family_glottocode": ..., "tier": ...}} of the run's languages, in their order."""
    out = {}
    for code in results.languages:
        entry = group_of(code)
        out[code] = {"family": entry.family_name if entry else None,
                     "family_glottocode": entry.family_glottocode if entry else None,
                     "tier": entry.joshi_class if entry else None}
    return out


def group_table_rows(results: ReportView, kind: str) -> list[tuple[str, tuple[str, ...], dict[str, GroupSummary]]]:
    """[(group name, its languages, {tokenizer: its summary})] of one kind, in the run's order."""
    found: dict[str, tuple[tuple[str, ...], dict[str, GroupSummary]]] = {}
    for entry in results.groups:
        if entry.kind == kind:
            found.setdefault(entry.group, (entry.languages, {}))[1][entry.tokenizer] = entry
    return [(group, languages, by_tokenizer) for group, (languages, by_tokenizer) in found.items()]


def costliest_group(results: ReportView, kind: str, tokenizer: str) -> GroupSummary | None:
    """The group of `kind` with the highest premium on `tokenizer` (ties: the first in order)."""
    entries = [g for g in results.groups if g.kind == kind and g.tokenizer == tokenizer]
    return max(entries, key=lambda g: g.premium, default=None)
